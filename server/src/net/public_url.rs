//! The address people give out to reach this server (invite links, "send your friend this"),
//! told to every client in `welcome.public_url`: `--public-url` when the operator set one,
//! else derived from the request that opened the connection — its `Host`, with `https` when
//! the port speaks TLS; behind a trusted proxy, the `X-Forwarded-Host`/`X-Forwarded-Proto`
//! (or `Forwarded`) it sends. A host that is not a plain host name or address is not echoed.

use std::fmt;
use std::str::FromStr;

use axum::http::HeaderMap;
use axum::http::header::HOST;

/// A validated `--public-url`: `http://` or `https://`, a host, maybe a path; no query,
/// fragment, spaces or trailing slash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(String);

impl FromStr for PublicUrl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim().trim_end_matches('/');
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or_else(|| format!("`{text}`: a public URL starts with https:// or http://"))?;
        let host = rest.split('/').next().unwrap_or_default();
        if !valid_host(host) {
            return Err(format!("`{text}`: `{host}` is not a host name or address"));
        }
        if rest.chars().any(|c| {
            c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '"' | '<' | '>')
        }) {
            return Err(format!(
                "`{text}`: no spaces, queries or fragments in a public URL"
            ));
        }
        Ok(PublicUrl(text.to_owned()))
    }
}

impl PublicUrl {
    /// The web origin of its pages (`https://play.example.org`, without a path), as a
    /// browser sends it in `Origin`.
    pub fn origin(&self) -> String {
        let (scheme, rest) = self.0.split_once("://").unwrap_or(("http", &self.0));
        let host = rest.split('/').next().unwrap_or_default();
        format!("{scheme}://{host}").to_ascii_lowercase()
    }
}

impl fmt::Display for PublicUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Whether `host` is a host name, an IPv4 address or a bracketed IPv6 address, with an
/// optional port: nothing that could smuggle markup or another URL into a link.
fn valid_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':' | b'[' | b']')
        })
}

/// The public URL for a connection opened by a request with `headers`: `configured` if set;
/// else from the request (`tls`: the port speaks TLS; `via_proxy`: the peer is a trusted
/// proxy, whose forwarding headers are believed). `fallback` is the host when the request
/// names none usable.
pub(crate) fn for_request(
    configured: Option<&PublicUrl>,
    tls: bool,
    via_proxy: bool,
    headers: &HeaderMap,
    fallback: &str,
) -> String {
    if let Some(url) = configured {
        return url.0.clone();
    }
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(',').next())
            .map(str::trim)
            .filter(|value| !value.is_empty())
    };
    let forwarded = |key: &str| {
        headers
            .get("forwarded")
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(',').next())
            .and_then(|element| {
                element.split(';').find_map(|pair| {
                    let (name, value) = pair.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case(key)
                        .then(|| value.trim().trim_matches('"'))
                })
            })
    };
    let (proto, host) = if via_proxy {
        (
            header("x-forwarded-proto").or_else(|| forwarded("proto")),
            header("x-forwarded-host").or_else(|| forwarded("host")),
        )
    } else {
        (None, None)
    };
    let scheme = match proto {
        Some(proto) if proto.eq_ignore_ascii_case("https") => "https",
        Some(proto) if proto.eq_ignore_ascii_case("http") => "http",
        _ if tls => "https",
        _ => "http",
    };
    let host = host
        .or_else(|| headers.get(HOST).and_then(|value| value.to_str().ok()))
        .filter(|host| valid_host(host))
        .unwrap_or(fallback);
    format!("{scheme}://{host}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn configured_urls_are_validated_and_trimmed() {
        let url: PublicUrl = "https://draughts.example.org/".parse().unwrap();
        assert_eq!(url.to_string(), "https://draughts.example.org");
        let sub: PublicUrl = "http://club.example:8080/boardcast".parse().unwrap();
        assert_eq!(sub.to_string(), "http://club.example:8080/boardcast");
        assert!("draughts.example.org".parse::<PublicUrl>().is_err());
        assert!("ftp://example.org".parse::<PublicUrl>().is_err());
        assert!("https://".parse::<PublicUrl>().is_err());
        assert!("https://exa mple.org".parse::<PublicUrl>().is_err());
        assert!("https://example.org/?x=1".parse::<PublicUrl>().is_err());
        let configured = Some(&url);
        let host = headers(&[("host", "other.example")]);
        assert_eq!(
            for_request(configured, false, false, &host, "127.0.0.1:7878"),
            "https://draughts.example.org"
        );
    }

    #[test]
    fn derived_from_the_host_and_the_port_s_tls() {
        let host = headers(&[("host", "club.example:7878")]);
        assert_eq!(
            for_request(None, false, false, &host, "x"),
            "http://club.example:7878"
        );
        assert_eq!(
            for_request(None, true, false, &host, "x"),
            "https://club.example:7878"
        );
        let v6 = headers(&[("host", "[2001:db8::1]:7878")]);
        assert_eq!(
            for_request(None, false, false, &v6, "x"),
            "http://[2001:db8::1]:7878"
        );
        let hostile = headers(&[("host", "evil.example/\"><script>")]);
        assert_eq!(
            for_request(None, false, false, &hostile, "127.0.0.1:7878"),
            "http://127.0.0.1:7878"
        );
        assert_eq!(
            for_request(None, false, false, &HeaderMap::new(), "127.0.0.1:7878"),
            "http://127.0.0.1:7878"
        );
    }

    #[test]
    fn forwarded_host_and_proto_only_from_a_trusted_proxy() {
        let proxied = headers(&[
            ("host", "127.0.0.1:7878"),
            ("x-forwarded-host", "draughts.example.org"),
            ("x-forwarded-proto", "https"),
        ]);
        assert_eq!(
            for_request(None, false, true, &proxied, "x"),
            "https://draughts.example.org"
        );
        assert_eq!(
            for_request(None, false, false, &proxied, "x"),
            "http://127.0.0.1:7878"
        );
        let rfc = headers(&[
            ("host", "127.0.0.1:7878"),
            ("forwarded", "for=192.0.2.1;host=club.example;proto=https"),
        ]);
        assert_eq!(
            for_request(None, false, true, &rfc, "x"),
            "https://club.example"
        );
    }
}
