//! Who a client is, for the per-address limits: the socket's peer address, or — only when the
//! peer is one of the operator's `--trusted-proxy` ranges — the address that proxy reports in
//! `Forwarded` or `X-Forwarded-For`. The counting unit itself ([`ClientAddr`]: IPv6 clients by
//! their /64) is on the ground floor, [`crate::ops::address`].

use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use axum::http::HeaderMap;
use ipnet::IpNet;

pub(crate) use crate::ops::address::{ClientAddr, Network};

/// Who sent a request; the accept loop puts one into every request's extensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Peer {
    /// The client, as the per-address limits count it.
    pub client: ClientAddr,
    /// Whether the socket's peer is a trusted proxy (so `client` came from its headers, and
    /// the connection is counted against `client` only when it becomes a session).
    pub via_proxy: bool,
}

/// An address range given to `--trusted-proxy`: a CIDR (`10.0.0.0/8`, `fd00::/8`) or a single
/// address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyRange(IpNet);

impl FromStr for ProxyRange {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        text.parse::<IpNet>()
            .or_else(|_| text.parse::<IpAddr>().map(IpNet::from))
            .map(|net| ProxyRange(net.trunc()))
            .map_err(|_| format!("`{text}` is not an address range such as 10.0.0.0/8 or ::1"))
    }
}

impl fmt::Display for ProxyRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The reverse proxies whose forwarding headers are believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<ProxyRange>);

impl TrustedProxies {
    pub fn new(ranges: &[ProxyRange]) -> Self {
        TrustedProxies(ranges.to_vec())
    }

    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.0.iter().any(|range| range.0.contains(&ip))
    }

    /// The client behind a request that arrived from `peer`: `peer` itself unless it is a
    /// trusted proxy; then the nearest address in the forwarding chain that is not a trusted
    /// proxy (each proxy appends the address it saw, so everything left of the first untrusted
    /// entry may be made up by the client). `Forwarded` is read if present, else
    /// `X-Forwarded-For`. An entry that is not an address (`unknown`, an obfuscated name) ends
    /// the walk at the proxy that wrote it.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.contains(peer) {
            return peer;
        }
        let chain = forwarded_chain(headers);
        let mut client = peer;
        for entry in chain.iter().rev() {
            match entry {
                Some(ip) if self.contains(*ip) => client = *ip,
                Some(ip) => return *ip,
                None => return client,
            }
        }
        client
    }
}

/// IPv4-mapped IPv6 addresses as IPv4, so that ranges match what the operator wrote.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The forwarding chain, client first: every `for=` of every `Forwarded` header (RFC 7239), or
/// else every entry of every `X-Forwarded-For` header. `None` stands for an entry that is not
/// an address.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded: Vec<Option<IpAddr>> = headers
        .get_all("forwarded")
        .iter()
        .flat_map(|value| value.to_str().ok().unwrap_or("").split(','))
        .filter_map(|element| {
            element.split(';').find_map(|pair| {
                let (key, value) = pair.split_once('=')?;
                key.trim()
                    .eq_ignore_ascii_case("for")
                    .then(|| parse_node(value))
            })
        })
        .collect();
    if !forwarded.is_empty() {
        return forwarded;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().ok().unwrap_or("").split(','))
        .map(parse_node)
        .collect()
}

/// One node of a forwarding header: `192.0.2.1`, `192.0.2.1:4711`, `"[2001:db8::1]:4711"`,
/// `2001:db8::1`.
fn parse_node(text: &str) -> Option<IpAddr> {
    let text = text.trim().trim_matches('"');
    if let Ok(ip) = text.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    if let Ok(socket) = text.parse::<SocketAddr>() {
        return Some(canonical(socket.ip()));
    }
    text.strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .and_then(|(ip, _)| ip.parse().ok())
        .map(canonical)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_ipv4() {
        let a = ClientAddr::of(ip("2001:db8:1:2:aaaa::1"));
        let b = ClientAddr::of(ip("2001:db8:1:2:bbbb::9"));
        let c = ClientAddr::of(ip("2001:db8:1:3::1"));
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.to_string(), "2001:db8:1:2::/64");
        assert_eq!(
            ClientAddr::of(ip("::ffff:192.0.2.7")),
            ClientAddr::of(ip("192.0.2.7"))
        );
        assert_eq!(ClientAddr::of(ip("192.0.2.7")).to_string(), "192.0.2.7");
    }

    #[test]
    fn ipv6_lies_in_its_56_and_48_and_ipv4_in_its_24() {
        let home = ClientAddr::of(ip("2001:db8:1:2ff::1"));
        let networks: Vec<String> = home.networks().map(|n| n.to_string()).collect();
        assert_eq!(networks, ["2001:db8:1:200::/56", "2001:db8:1::/48"]);
        assert_eq!(home.reserve_network().to_string(), "2001:db8:1::/48");
        // Another /64 of the same home: same /56, same /48.
        let other = ClientAddr::of(ip("2001:db8:1:200::9"));
        assert_ne!(home, other);
        assert!(home.networks().eq(other.networks()));
        let neighbour = ClientAddr::of(ip("2001:db8:1:300::1"));
        assert_ne!(home.networks().next(), neighbour.networks().next());
        assert_eq!(home.reserve_network(), neighbour.reserve_network());
        let v4 = ClientAddr::of(ip("192.0.2.7"));
        let networks: Vec<String> = v4.networks().map(|n| n.to_string()).collect();
        assert_eq!(networks, ["192.0.2.0/24"]);
        assert_eq!(
            v4.reserve_network(),
            ClientAddr::of(ip("192.0.2.200")).reserve_network()
        );
    }

    #[test]
    fn proxy_ranges_parse_cidrs_and_single_addresses() {
        assert_eq!(
            "10.1.2.3/8".parse::<ProxyRange>().unwrap().to_string(),
            "10.0.0.0/8"
        );
        assert_eq!("::1".parse::<ProxyRange>().unwrap().to_string(), "::1/128");
        assert!("10.0.0.0/33".parse::<ProxyRange>().is_err());
        assert!("proxy.local".parse::<ProxyRange>().is_err());
    }

    #[test]
    fn forwarding_headers_are_ignored_from_untrusted_peers() {
        let proxies = TrustedProxies::new(&["10.0.0.0/8".parse().unwrap()]);
        let spoofed = headers(&[("x-forwarded-for", "198.51.100.1")]);
        assert_eq!(
            proxies.client_ip(ip("203.0.113.9"), &spoofed),
            ip("203.0.113.9")
        );
        assert_eq!(
            TrustedProxies::default().client_ip(ip("10.0.0.1"), &spoofed),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn trusted_proxies_give_the_nearest_untrusted_address() {
        let proxies = TrustedProxies::new(&["10.0.0.0/8".parse().unwrap()]);
        let peer = ip("10.0.0.1");
        // The client wrote the first entry itself; the proxy appended what it saw.
        let chain = headers(&[("x-forwarded-for", "198.51.100.1, 203.0.113.5, 10.0.0.2")]);
        assert_eq!(proxies.client_ip(peer, &chain), ip("203.0.113.5"));
        let split = headers(&[
            ("x-forwarded-for", "198.51.100.1"),
            ("x-forwarded-for", "203.0.113.5:5555"),
        ]);
        assert_eq!(proxies.client_ip(peer, &split), ip("203.0.113.5"));
        let forwarded = headers(&[
            (
                "forwarded",
                "for=192.0.2.60;proto=https, for=\"[2001:db8::17]:4711\"",
            ),
            ("x-forwarded-for", "198.51.100.1"),
        ]);
        assert_eq!(proxies.client_ip(peer, &forwarded), ip("2001:db8::17"));
        let unknown = headers(&[("forwarded", "for=192.0.2.60, for=unknown")]);
        assert_eq!(proxies.client_ip(peer, &unknown), peer);
        assert_eq!(proxies.client_ip(peer, &HeaderMap::new()), peer);
        let all_trusted = headers(&[("x-forwarded-for", "10.9.9.9")]);
        assert_eq!(proxies.client_ip(peer, &all_trusted), ip("10.9.9.9"));
    }
}
