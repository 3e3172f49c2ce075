//! Rate limits on the ground floor: the token bucket ([`RateLimit`]) that connections, chat
//! and the activity log each keep, and the catalogue of limits ([`LimitKind`]) that telemetry
//! counts hits of. The limits themselves, per connection and per address, are
//! [`crate::net::limits`]'s.

use std::time::{Duration, Instant};

/// Every limit the server enforces per address or in all; its label names it in `/metrics`
/// and in the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// `--max-connections`.
    Connections,
    /// `--max-connections-per-address`.
    ConnectionsPerAddress,
    /// `--max-connections-per-ipv6-56`.
    ConnectionsPer56,
    /// `--max-connections-per-ipv6-48`.
    ConnectionsPer48,
    /// `--connection-reserve`: only addresses from networks holding nothing may take the last
    /// places.
    ConnectionReserve,
    /// `--upgrades-per-minute`.
    Upgrades,
    /// `--matches-per-minute`.
    Matches,
    /// `--engine-games-per-minute`.
    EngineGames,
    /// `--open-seeks-per-address`.
    OpenSeeks,
    /// `--failed-joins-per-minute`: wrong invite codes from one address.
    FailedJoins,
    /// `--failed-joins-per-minute-total`: wrong invite codes from every address together.
    FailedJoinsTotal,
    /// `--rate`/`--burst`: messages of one connection.
    MessageRate,
}

impl LimitKind {
    pub const ALL: [LimitKind; 12] = [
        LimitKind::Connections,
        LimitKind::ConnectionsPerAddress,
        LimitKind::ConnectionsPer56,
        LimitKind::ConnectionsPer48,
        LimitKind::ConnectionReserve,
        LimitKind::Upgrades,
        LimitKind::Matches,
        LimitKind::EngineGames,
        LimitKind::OpenSeeks,
        LimitKind::FailedJoins,
        LimitKind::FailedJoinsTotal,
        LimitKind::MessageRate,
    ];

    pub fn label(self) -> &'static str {
        match self {
            LimitKind::Connections => "connections",
            LimitKind::ConnectionsPerAddress => "connections_per_address",
            LimitKind::ConnectionsPer56 => "connections_per_ipv6_56",
            LimitKind::ConnectionsPer48 => "connections_per_ipv6_48",
            LimitKind::ConnectionReserve => "connection_reserve",
            LimitKind::Upgrades => "upgrades_per_minute",
            LimitKind::Matches => "matches_per_minute",
            LimitKind::EngineGames => "engine_games_per_minute",
            LimitKind::OpenSeeks => "open_seeks_per_address",
            LimitKind::FailedJoins => "failed_joins_per_minute",
            LimitKind::FailedJoinsTotal => "failed_joins_total_per_minute",
            LimitKind::MessageRate => "message_rate",
        }
    }
}

/// A token bucket: `burst` messages at once, refilled at `rate` per second.
#[derive(Debug)]
pub(crate) struct RateLimit {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub(crate) fn new(rate: u32, burst: u32, now: Instant) -> Self {
        let burst = f64::from(burst.max(1));
        RateLimit {
            rate: f64::from(rate),
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// `per_minute` at once, refilled evenly over a minute.
    pub(crate) fn per_minute(per_minute: u32, now: Instant) -> Self {
        let burst = f64::from(per_minute.max(1));
        RateLimit {
            rate: f64::from(per_minute) / 60.0,
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// `burst` at once, then one per `period`.
    pub(crate) fn every(period: Duration, burst: u32, now: Instant) -> Self {
        let burst = f64::from(burst.max(1));
        RateLimit {
            rate: 1.0 / period.as_secs_f64().max(f64::MIN_POSITIVE),
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// Gives back a token taken for something that then did not happen.
    pub(crate) fn refund(&mut self) {
        self.tokens = (self.tokens + 1.0).min(self.burst);
    }

    /// How long until a token is back (zero if one is there now).
    pub(crate) fn retry_after(&self, now: Instant) -> Duration {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        let missing = 1.0 - (self.tokens + elapsed * self.rate);
        if missing <= 0.0 || self.rate <= 0.0 {
            Duration::ZERO
        } else {
            Duration::from_secs_f64(missing / self.rate)
        }
    }

    /// Whether a token is there by `now`, without taking it.
    pub(crate) fn available(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        (self.tokens + elapsed * self.rate).min(self.burst) >= 1.0
    }

    /// Whether the bucket is full again by `now`, so forgetting it changes nothing.
    pub(crate) fn is_full(&self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.tokens + elapsed * self.rate >= self.burst
    }

    /// Takes one token; `false` means the connection is over its limit.
    pub(crate) fn allow(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}
