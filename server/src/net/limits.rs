//! Per-connection limits: the message-rate token bucket, the connection limit (in all, per
//! client address, and per IPv6 /56 and /48), and idle bookkeeping.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use crate::net::address::{ClientAddr, Network};
use crate::ops::lock;

pub(crate) use crate::ops::rate::{LimitKind, RateLimit};

/// Connections over a limit that may be open at once just to be refused (an upgrade is
/// closed with 1013 and the reason); beyond these, a refused connection is closed at once, and
/// when no place of either kind is free new connections wait in the kernel's backlog.
pub(crate) const REFUSAL_HEADROOM: usize = 64;

/// How many connections the server holds, in all and per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionSettings {
    /// Most connections at once (`--max-connections`).
    pub max: usize,
    /// Most connections from one address (`--max-connections-per-address`).
    pub per_address: usize,
    /// Most connections from one IPv6 /56 (`--max-connections-per-ipv6-56`).
    pub per_56: usize,
    /// Most connections from one IPv6 /48 (`--max-connections-per-ipv6-48`).
    pub per_48: usize,
    /// The last places, kept for addresses whose network (IPv4 /24, IPv6 /48) holds no
    /// connection yet (`--connection-reserve`); never more than half of `max`.
    pub reserve: usize,
}

/// The connection limit: one place per open TCP connection (and the WebSocket session it
/// becomes), held until it closes, counted in all and per client address; plus
/// [`REFUSAL_HEADROOM`] places for connections that are only answered with a refusal.
#[derive(Debug, Clone)]
pub struct ConnectionLimit {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    settings: ConnectionSettings,
    state: Mutex<Counts>,
    /// Signalled whenever a place is given back.
    freed: Notify,
}

#[derive(Debug, Default)]
struct Counts {
    open: usize,
    refusing: usize,
    by_address: HashMap<ClientAddr, usize>,
    /// Every address's places, again per network it lies in ([`ClientAddr::networks`]).
    by_network: HashMap<Network, usize>,
}

/// Why a connection may not become a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub kind: LimitKind,
    /// Fit to show a person, and short enough for a close frame.
    pub reason: String,
}

/// A connection's place under the limit; cheap to clone, given back when the last clone is
/// dropped (by the HTTP connection and, after an upgrade, its WebSocket session).
#[derive(Debug, Clone)]
pub struct Admission(Arc<Place>);

#[derive(Debug)]
struct Place {
    shared: Arc<Shared>,
    /// `Ok`: within the limit, the connection may become a WebSocket session. `Err`: plain
    /// HTTP is still answered, a WebSocket upgrade is closed at once with 1013.
    verdict: Result<(), Refused>,
    /// The address this place counts against, if any (a trusted proxy's connections count
    /// against the address they forward, at the upgrade).
    address: Option<ClientAddr>,
}

impl Admission {
    pub fn verdict(&self) -> Result<(), &Refused> {
        self.0.verdict.as_ref().map(|_| ())
    }

    pub fn has_slot(&self) -> bool {
        self.0.verdict.is_ok()
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.shared.counts();
        if self.verdict.is_ok() {
            counts.open -= 1;
        } else {
            counts.refusing -= 1;
        }
        if let Some(address) = self.address {
            counts.release(address);
        }
        drop(counts);
        self.shared.freed.notify_one();
    }
}

/// What a WebSocket session holds under the limits while it lives.
#[derive(Debug)]
pub(crate) struct SessionPlaces {
    /// The place its connection took when accepted.
    pub _connection: Admission,
    /// For a session through a trusted proxy, its place under the forwarded address.
    pub _proxied: Option<AddressPlace>,
}

/// A session's place under its address's limit, taken at the upgrade for a connection from a
/// trusted proxy; given back on drop.
#[derive(Debug)]
pub struct AddressPlace {
    shared: Arc<Shared>,
    address: ClientAddr,
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        self.shared.counts().release(self.address);
    }
}

impl Counts {
    fn held(&self, address: ClientAddr) -> usize {
        self.by_address.get(&address).copied().unwrap_or(0)
    }

    fn held_in(&self, network: Network) -> usize {
        self.by_network.get(&network).copied().unwrap_or(0)
    }

    fn take(&mut self, address: ClientAddr) {
        *self.by_address.entry(address).or_default() += 1;
        for network in address.networks() {
            *self.by_network.entry(network).or_default() += 1;
        }
    }

    fn release(&mut self, address: ClientAddr) {
        fn give_back<K: std::hash::Hash + Eq>(map: &mut HashMap<K, usize>, key: K) {
            if let Some(held) = map.get_mut(&key) {
                *held -= 1;
                if *held == 0 {
                    map.remove(&key);
                }
            }
        }
        give_back(&mut self.by_address, address);
        for network in address.networks() {
            give_back(&mut self.by_network, network);
        }
    }

    /// Why `address` may take no further place of its own: its own limit, or its IPv6
    /// /56's or /48's.
    fn over_address_limits(
        &self,
        settings: &ConnectionSettings,
        address: ClientAddr,
    ) -> Option<Refused> {
        if self.held(address) >= settings.per_address {
            return Some(too_many(
                LimitKind::ConnectionsPerAddress,
                address,
                settings.per_address,
            ));
        }
        address.networks().find_map(|network| {
            let (kind, most) = match network {
                Network::V4Slash24(_) => return None,
                Network::V6Slash56(_) => (LimitKind::ConnectionsPer56, settings.per_56),
                Network::V6Slash48(_) => (LimitKind::ConnectionsPer48, settings.per_48),
            };
            (self.held_in(network) >= most).then(|| too_many(kind, network, most))
        })
    }

    /// The refusal of a place from the reserve to `address` when its network already holds
    /// some: the reserve is for newcomers, and a flood from fresh addresses of one network
    /// (a /24 of IPv4, a /48 of IPv6) is no newcomer.
    fn reserve_refusal(&self, address: ClientAddr) -> Option<Refused> {
        let network = address.reserve_network();
        let held = self.held_in(network);
        (held > 0).then(|| Refused {
            kind: LimitKind::ConnectionReserve,
            reason: format!(
                "server nearly full: its last places are kept for networks holding none, \
                 and {network} holds {held}"
            ),
        })
    }
}

/// "too many connections from WHO (at most N)".
fn too_many(kind: LimitKind, who: impl std::fmt::Display, most: usize) -> Refused {
    Refused {
        kind,
        reason: format!("too many connections from {who} (at most {most})"),
    }
}

impl Shared {
    fn counts(&self) -> MutexGuard<'_, Counts> {
        // Plain counters: a panic elsewhere cannot leave them half-updated.
        lock(&self.state)
    }
}

impl ConnectionLimit {
    pub fn new(settings: ConnectionSettings) -> Self {
        let settings = ConnectionSettings {
            reserve: settings.reserve.min(settings.max / 2),
            ..settings
        };
        ConnectionLimit {
            shared: Arc::new(Shared {
                settings,
                state: Mutex::new(Counts::default()),
                freed: Notify::new(),
            }),
        }
    }

    pub fn settings(&self) -> ConnectionSettings {
        self.shared.settings
    }

    /// Connections holding a place, and connections being refused.
    pub fn open(&self) -> (usize, usize) {
        let counts = self.shared.counts();
        (counts.open, counts.refusing)
    }

    /// Waits until a place of either kind is free, so the next connection can be answered.
    pub async fn ready(&self) {
        loop {
            // Registered before the check: a place freed in between is not missed.
            let freed = self.shared.freed.notified();
            {
                let counts = self.shared.counts();
                if counts.open < self.shared.settings.max || counts.refusing < REFUSAL_HEADROOM {
                    return;
                }
            }
            freed.await;
        }
    }

    /// A place for a new connection from `address` (`None` for a trusted proxy, whose
    /// clients are counted at the upgrade): a slot if the address and its IPv6 networks are
    /// under their limits, the server under its own, and — when only the reserve is left —
    /// the address's network holds nothing yet; else a refusal place; `Err` when no refusal
    /// place is free either (close at once).
    pub fn admit(&self, address: Option<ClientAddr>) -> Result<Admission, Refused> {
        let settings = self.shared.settings;
        let mut counts = self.shared.counts();
        let in_reserve = counts.open >= settings.max - settings.reserve;
        let verdict = match address.and_then(|a| counts.over_address_limits(&settings, a)) {
            Some(refused) => Err(refused),
            None if counts.open >= settings.max => Err(Refused {
                kind: LimitKind::Connections,
                reason: "server at its connection limit".to_owned(),
            }),
            None => match address.filter(|_| in_reserve) {
                Some(address) => counts.reserve_refusal(address).map_or(Ok(()), Err),
                None => Ok(()),
            },
        };
        let address = match &verdict {
            Ok(()) => {
                counts.open += 1;
                if let Some(address) = address {
                    counts.take(address);
                }
                address
            }
            Err(refused) if counts.refusing >= REFUSAL_HEADROOM => return Err(refused.clone()),
            Err(_) => {
                counts.refusing += 1;
                None
            }
        };
        drop(counts);
        Ok(Admission(Arc::new(Place {
            shared: self.shared.clone(),
            verdict,
            address,
        })))
    }

    /// A place under `address`'s limits for a session that came through a trusted proxy;
    /// when its connection took one of the reserved places, only if the address's network
    /// holds nothing yet, as for a direct connection.
    pub fn claim(&self, address: ClientAddr) -> Result<AddressPlace, Refused> {
        let settings = self.shared.settings;
        let mut counts = self.shared.counts();
        if let Some(refused) = counts.over_address_limits(&settings, address) {
            return Err(refused);
        }
        // The connection's own place is already counted in `open`.
        if counts.open > settings.max - settings.reserve
            && let Some(refused) = counts.reserve_refusal(address)
        {
            return Err(refused);
        }
        counts.take(address);
        Ok(AddressPlace {
            shared: self.shared.clone(),
            address,
        })
    }
}

/// Idle bookkeeping: when the peer was last heard from.
#[derive(Debug)]
pub(crate) struct Idle {
    timeout: Duration,
    last_heard: Instant,
}

impl Idle {
    pub(crate) fn new(timeout: Duration, now: Instant) -> Self {
        Idle {
            timeout,
            last_heard: now,
        }
    }

    pub(crate) fn heard(&mut self, now: Instant) {
        self.last_heard = now;
    }

    pub(crate) fn expired(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_heard) >= self.timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_allows_a_burst_then_the_rate() {
        let t0 = Instant::now();
        let mut limit = RateLimit::new(10, 3, t0);
        assert!(limit.allow(t0));
        assert!(limit.allow(t0));
        assert!(limit.allow(t0));
        assert!(!limit.allow(t0));
        // 100 ms later one token is back.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limit.allow(t1));
        assert!(!limit.allow(t1));
    }

    fn limit(max: usize, per_address: usize, reserve: usize) -> ConnectionLimit {
        ConnectionLimit::new(ConnectionSettings {
            max,
            per_address,
            per_56: usize::MAX,
            per_48: usize::MAX,
            reserve,
        })
    }

    fn addr(last: u8) -> Option<ClientAddr> {
        Some(ClientAddr::of(std::net::IpAddr::from([127, 0, 0, last])))
    }

    /// An IPv4 address in network 10.0.`net`.0/24.
    fn in_net(net: u8, last: u8) -> Option<ClientAddr> {
        Some(ClientAddr::of(std::net::IpAddr::from([10, 0, net, last])))
    }

    fn v6(text: &str) -> Option<ClientAddr> {
        Some(ClientAddr::of(text.parse().unwrap()))
    }

    #[test]
    fn places_are_counted_per_address_and_given_back() {
        let limit = limit(100, 2, 0);
        let first = limit.admit(addr(2)).unwrap();
        let second = limit.admit(addr(2)).unwrap();
        assert!(first.has_slot() && second.has_slot());
        let third = limit.admit(addr(2)).unwrap();
        let refused = third.verdict().unwrap_err();
        assert_eq!(refused.kind, LimitKind::ConnectionsPerAddress);
        assert_eq!(
            refused.reason,
            "too many connections from 127.0.0.2 (at most 2)"
        );
        assert!(limit.admit(addr(3)).unwrap().has_slot());
        assert_eq!(limit.open(), (2, 1));
        drop(third);
        // A clone (the WebSocket session's) keeps the place taken.
        let session = first.clone();
        drop(first);
        assert!(!limit.admit(addr(2)).unwrap().has_slot());
        drop(session);
        assert!(limit.admit(addr(2)).unwrap().has_slot());
        assert_eq!(limit.open(), (1, 0));
    }

    #[test]
    fn the_reserve_is_only_for_networks_holding_nothing() {
        let limit = limit(6, 10, 3);
        let held: Vec<Admission> = (0..3).map(|_| limit.admit(in_net(1, 2)).unwrap()).collect();
        assert!(held.iter().all(Admission::has_slot));
        let d = limit.admit(in_net(1, 2)).unwrap();
        let refused = d.verdict().unwrap_err();
        assert_eq!(refused.kind, LimitKind::ConnectionReserve);
        assert_eq!(
            refused.reason,
            "server nearly full: its last places are kept for networks holding none, \
             and 10.0.1.0/24 holds 3"
        );
        // A fresh address of the same /24 is no newcomer: the flood of issue 27 (64 fresh
        // addresses taking the reserve one place each) ends here.
        let fresh = limit.admit(in_net(1, 3)).unwrap();
        assert_eq!(
            fresh.verdict().unwrap_err().kind,
            LimitKind::ConnectionReserve
        );
        let newcomer = limit.admit(in_net(2, 1)).unwrap();
        assert!(newcomer.has_slot());
        assert!(!limit.admit(in_net(2, 2)).unwrap().has_slot());
        // IPv6: a /48 that holds a place is no newcomer, whichever /64 of it connects.
        let site = limit.admit(v6("2001:db8:1:100::1")).unwrap();
        assert!(site.has_slot());
        let same_site = limit.admit(v6("2001:db8:1:ff00::1")).unwrap();
        assert_eq!(
            same_site.verdict().unwrap_err().reason,
            "server nearly full: its last places are kept for networks holding none, \
             and 2001:db8:1::/48 holds 1"
        );
        let _d = limit.admit(v6("2001:db8:2::1")).unwrap();
        let full = limit.admit(in_net(3, 1)).unwrap();
        assert_eq!(full.verdict().unwrap_err().kind, LimitKind::Connections);
        // A trusted proxy's connection is counted only in all.
        drop(newcomer);
        assert!(limit.admit(None).unwrap().has_slot());
    }

    #[test]
    fn ipv6_56s_and_48s_have_their_own_caps() {
        let limit = ConnectionLimit::new(ConnectionSettings {
            max: 100,
            per_address: 2,
            per_56: 3,
            per_48: 5,
            reserve: 0,
        });
        let mut held = Vec::new();
        let mut take = |text: &str| {
            let admission = limit.admit(v6(text)).unwrap();
            let verdict = admission
                .verdict()
                .map_err(|refused| refused.reason.clone());
            held.push(admission);
            verdict
        };
        // One home (a /56 holds 256 /64s): two per /64, three in all.
        assert_eq!(take("2001:db8:1:100::1"), Ok(()));
        assert_eq!(take("2001:db8:1:100::2"), Ok(()));
        assert_eq!(
            take("2001:db8:1:100::3"),
            Err("too many connections from 2001:db8:1:100::/64 (at most 2)".into())
        );
        assert_eq!(take("2001:db8:1:1ff::1"), Ok(()));
        assert_eq!(
            take("2001:db8:1:1fe::1"),
            Err("too many connections from 2001:db8:1:100::/56 (at most 3)".into())
        );
        // Its neighbours in the /48 share five.
        assert_eq!(take("2001:db8:1:200::1"), Ok(()));
        assert_eq!(take("2001:db8:1:300::1"), Ok(()));
        assert_eq!(
            take("2001:db8:1:400::1"),
            Err("too many connections from 2001:db8:1::/48 (at most 5)".into())
        );
        assert_eq!(take("2001:db8:2::1"), Ok(()));
        // IPv4 has no network cap.
        for last in 1..=10 {
            assert_eq!(take(&format!("::ffff:10.0.0.{last}")), Ok(()));
        }
        drop(held);
        // Every place was given back, in every network.
        assert!(limit.shared.counts().by_network.is_empty());
        assert_eq!(limit.open(), (0, 0));
    }

    #[test]
    fn sessions_through_a_proxy_claim_their_address() {
        let limit = limit(10, 1, 0);
        let place = limit.claim(addr(7).unwrap()).unwrap();
        assert_eq!(
            limit.claim(addr(7).unwrap()).unwrap_err().kind,
            LimitKind::ConnectionsPerAddress
        );
        assert!(!limit.admit(addr(7)).unwrap().has_slot());
        drop(place);
        assert!(limit.claim(addr(7).unwrap()).is_ok());
    }

    #[test]
    fn sessions_through_a_proxy_in_the_reserve_must_be_newcomers() {
        let limit = limit(4, 10, 2);
        let mut proxied: Vec<Admission> = (0..2).map(|_| limit.admit(None).unwrap()).collect();
        // The first two fit below the reserve; a third connection takes a reserved place.
        let _first = limit.claim(in_net(1, 1).unwrap()).unwrap();
        let _second = limit.claim(in_net(1, 2).unwrap()).unwrap();
        proxied.push(limit.admit(None).unwrap());
        assert!(proxied.iter().all(Admission::has_slot));
        assert_eq!(
            limit.claim(in_net(1, 3).unwrap()).unwrap_err().kind,
            LimitKind::ConnectionReserve
        );
        assert!(limit.claim(in_net(2, 1).unwrap()).is_ok());
    }

    #[tokio::test]
    async fn connections_over_the_limit_get_a_refusal_place_then_are_closed_or_wait() {
        use futures_util::FutureExt;
        let limit = limit(1, 1, 0);
        let slot = limit.admit(addr(2)).unwrap();
        assert!(slot.has_slot());
        let mut refused = Vec::new();
        for _ in 0..REFUSAL_HEADROOM {
            let admission = limit.admit(addr(3)).unwrap();
            assert!(!admission.has_slot());
            refused.push(admission);
        }
        // Every place is taken: the next connection would be closed at once, and the accept
        // loop waits until a place is given back.
        assert_eq!(
            limit.admit(addr(4)).unwrap_err().kind,
            LimitKind::Connections
        );
        let ready = limit.ready();
        tokio::pin!(ready);
        assert!(ready.as_mut().now_or_never().is_none());
        drop(refused.pop());
        ready.await;
        drop(slot);
        limit.ready().await;
        assert!(limit.admit(addr(4)).unwrap().has_slot());
    }

    #[test]
    fn per_minute_buckets_say_when_to_retry() {
        let t0 = Instant::now();
        let mut bucket = RateLimit::per_minute(2, t0);
        assert!(bucket.allow(t0) && bucket.allow(t0));
        assert!(!bucket.allow(t0));
        assert_eq!(bucket.retry_after(t0), Duration::from_secs(30));
        bucket.refund();
        assert!(bucket.allow(t0));
        assert!(!bucket.is_full(t0 + Duration::from_secs(59)));
        assert!(bucket.is_full(t0 + Duration::from_secs(60)));
    }

    #[test]
    fn idle_expires() {
        let t0 = Instant::now();
        let mut idle = Idle::new(Duration::from_secs(1), t0);
        assert!(!idle.expired(t0 + Duration::from_millis(999)));
        idle.heard(t0 + Duration::from_millis(500));
        assert!(!idle.expired(t0 + Duration::from_millis(1400)));
        assert!(idle.expired(t0 + Duration::from_millis(1500)));
    }
}
