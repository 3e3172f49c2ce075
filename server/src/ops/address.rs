//! Who a client is, as every per-address limit counts it: an IPv4 address, or an IPv6 /64
//! (one subscriber is usually handed a whole /64 and could otherwise take a fresh address per
//! connection), and the wider networks it lies in. On the ground floor because the domain keeps
//! per-address counts too (open seeks, predictions, a guess relayed in a cluster); how the
//! address is learnt from a socket or a trusted proxy is [`crate::net::address`]'s.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The unit every per-address limit counts: an IPv4 address or an IPv6 /64. Serializable so a
/// guess made on one node of a cluster reaches the channel's owner with its predictor.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum ClientAddr {
    V4(Ipv4Addr),
    /// The upper 64 bits of an IPv6 address.
    V6Prefix(u64),
}

impl ClientAddr {
    /// The counting unit of `ip`. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a
    /// dual-stack socket reports for IPv4 peers) counts as the IPv4 address it carries.
    pub fn of(ip: IpAddr) -> ClientAddr {
        match ip {
            IpAddr::V4(v4) => ClientAddr::V4(v4),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => ClientAddr::V4(v4),
                None => ClientAddr::V6Prefix((u128::from(v6) >> 64) as u64),
            },
        }
    }
}

impl fmt::Display for ClientAddr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientAddr::V4(v4) => write!(f, "{v4}"),
            ClientAddr::V6Prefix(prefix) => {
                write!(f, "{}/64", Ipv6Addr::from(u128::from(*prefix) << 64))
            }
        }
    }
}

impl ClientAddr {
    /// The networks this address is counted in besides itself: an IPv6 /64 lies in a /56 (a
    /// home connection is often handed one: 256 /64s) and a /48 (a site's), each with its own
    /// cap; an IPv4 address in its /24, counted only so that the reserve goes to newcomers
    /// from networks that hold nothing yet. Narrowest first.
    pub fn networks(self) -> impl Iterator<Item = Network> {
        let (first, second) = match self {
            ClientAddr::V4(v4) => (Network::V4Slash24(u32::from(v4) >> 8), None),
            ClientAddr::V6Prefix(prefix) => (
                Network::V6Slash56(prefix >> 8),
                Some(Network::V6Slash48(prefix >> 16)),
            ),
        };
        std::iter::once(first).chain(second)
    }

    /// The widest of [`ClientAddr::networks`]: while it holds a connection, this address is
    /// no newcomer to the reserve, whatever address inside it connects.
    pub fn reserve_network(self) -> Network {
        self.networks()
            .last()
            .expect("every address lies in a network")
    }
}

/// A network of client addresses, counted beside each address (see [`ClientAddr::networks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Network {
    /// The upper 24 bits of an IPv4 address.
    V4Slash24(u32),
    /// The upper 56 bits of an IPv6 address.
    V6Slash56(u64),
    /// The upper 48 bits of an IPv6 address.
    V6Slash48(u64),
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Network::V4Slash24(net) => write!(f, "{}/24", Ipv4Addr::from(net << 8)),
            Network::V6Slash56(net) => {
                write!(f, "{}/56", Ipv6Addr::from(u128::from(net) << 72))
            }
            Network::V6Slash48(net) => {
                write!(f, "{}/48", Ipv6Addr::from(u128::from(net) << 80))
            }
        }
    }
}
