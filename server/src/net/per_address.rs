//! Fair shares per client address: how often one address may upgrade to a WebSocket, create a
//! match or start an engine game (token buckets that refill over a minute), how many wrong
//! invite codes it may try (and the whole server: see [`crate::matches::invite`] for why codes then
//! take years to guess), and the record of limit hits — each counted in the metrics, and
//! logged at most once a minute per address and limit, so a flood cannot flood the log too.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::net::address::ClientAddr;
use crate::net::limits::{LimitKind, RateLimit};
use crate::ops::lock;

/// How long a limit hit stays quiet in the log for the same address and limit.
const LOG_EVERY: Duration = Duration::from_secs(60);

/// The per-minute allowances of one address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateSettings {
    pub upgrades: u32,
    pub matches: u32,
    pub engine_games: u32,
    /// Wrong invite codes one address may try a minute.
    pub failed_joins: u32,
    /// Wrong invite codes the whole server takes a minute, from every address together.
    pub failed_joins_total: u32,
}

/// What a per-minute bucket counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rated {
    Upgrades,
    Matches,
    EngineGames,
    /// Invite codes that matched no open match.
    FailedJoins,
}

impl Rated {
    fn kind(self) -> LimitKind {
        match self {
            Rated::Upgrades => LimitKind::Upgrades,
            Rated::Matches => LimitKind::Matches,
            Rated::EngineGames => LimitKind::EngineGames,
            Rated::FailedJoins => LimitKind::FailedJoins,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Rated::Upgrades => "connections",
            Rated::Matches => "new matches",
            Rated::EngineGames => "new engine games",
            Rated::FailedJoins => "wrong invite codes",
        }
    }
}

/// A refused request: which limit, and a message fit to show a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverLimit {
    pub kind: LimitKind,
    pub message: String,
    pub retry_after: Duration,
    /// The limit that was reached, per minute.
    pub per_minute: u32,
}

impl OverLimit {
    /// The refusal's arguments (PROTOCOL.md §12.1): the limit and when to try again.
    pub(crate) fn args(&self) -> boardcast_protocol::ErrorArgs {
        boardcast_protocol::ErrorArgs::new("per_minute")
            .number("limit", self.per_minute)
            .number("retry_after_s", seconds(self.retry_after) as u64)
    }
}

/// The per-address buckets and the hit log; cheap to clone.
#[derive(Debug, Clone)]
pub struct AddressLimits(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    settings: RateSettings,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    buckets: HashMap<(ClientAddr, Rated), RateLimit>,
    logged: HashMap<(ClientAddr, LimitKind), Instant>,
    /// Wrong invite codes from every address together.
    failed_joins_total: RateLimit,
    last_sweep: Instant,
}

impl AddressLimits {
    pub fn new(settings: RateSettings) -> Self {
        let now = Instant::now();
        AddressLimits(Arc::new(Inner {
            settings,
            state: Mutex::new(State {
                buckets: HashMap::new(),
                logged: HashMap::new(),
                failed_joins_total: RateLimit::per_minute(settings.failed_joins_total, now),
                last_sweep: now,
            }),
        }))
    }

    fn per_minute(&self, rated: Rated) -> u32 {
        let settings = &self.0.settings;
        match rated {
            Rated::Upgrades => settings.upgrades,
            Rated::Matches => settings.matches,
            Rated::EngineGames => settings.engine_games,
            Rated::FailedJoins => settings.failed_joins,
        }
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Plain maps: a panic elsewhere cannot leave them half-updated.
        lock(&self.0.state)
    }

    /// Takes one of `address`'s `rated` allowance, or refuses (and records the hit).
    pub fn take(&self, rated: Rated, address: ClientAddr) -> Result<(), OverLimit> {
        let per_minute = self.per_minute(rated);
        let now = Instant::now();
        let mut state = self.state();
        state.sweep(now);
        let bucket = state
            .buckets
            .entry((address, rated))
            .or_insert_with(|| RateLimit::per_minute(per_minute, now));
        if bucket.allow(now) {
            return Ok(());
        }
        let retry_after = bucket.retry_after(now);
        drop(state);
        let over = OverLimit {
            kind: rated.kind(),
            message: format!(
                "too many {} from {address}: at most {per_minute} a minute; try again in {} s",
                rated.what(),
                seconds(retry_after)
            ),
            retry_after,
            per_minute,
        };
        let _ = self.hit(over.kind, address, &over.message);
        Err(over)
    }

    /// Before an invite code is looked up: refuses while `address` has no wrong guesses left
    /// this minute, or the whole server has none. Only wrong codes are charged
    /// ([`AddressLimits::wrong_code`]), so a friend with the right code is refused only while
    /// someone floods the server with wrong ones; the server-wide limit is what bounds how
    /// fast any number of addresses together can guess.
    pub fn may_try_code(&self, address: ClientAddr) -> Result<(), OverLimit> {
        let now = Instant::now();
        let mut state = self.state();
        state.sweep(now);
        let mine = state.buckets.get(&(address, Rated::FailedJoins));
        let over = if let Some(bucket) = mine.filter(|bucket| !bucket.available(now)) {
            let per_minute = self.0.settings.failed_joins;
            let retry_after = bucket.retry_after(now);
            OverLimit {
                kind: LimitKind::FailedJoins,
                message: format!(
                    "too many wrong invite codes from {address}: at most {per_minute} a minute; \
                     try again in {} s",
                    seconds(retry_after)
                ),
                retry_after,
                per_minute,
            }
        } else if !state.failed_joins_total.available(now) {
            let per_minute = self.0.settings.failed_joins_total;
            let retry_after = state.failed_joins_total.retry_after(now);
            OverLimit {
                kind: LimitKind::FailedJoinsTotal,
                message: format!(
                    "too many wrong invite codes on this server lately (at most {per_minute} a \
                     minute from everyone); try again in {} s",
                    seconds(retry_after)
                ),
                retry_after,
                per_minute,
            }
        } else {
            return Ok(());
        };
        drop(state);
        let _ = self.hit(over.kind, address, &over.message);
        Err(over)
    }

    /// Charges `address` and the whole server one wrong invite code.
    pub fn wrong_code(&self, address: ClientAddr) {
        let per_minute = self.0.settings.failed_joins;
        let now = Instant::now();
        let mut state = self.state();
        state
            .buckets
            .entry((address, Rated::FailedJoins))
            .or_insert_with(|| RateLimit::per_minute(per_minute, now))
            .allow(now);
        state.failed_joins_total.allow(now);
    }

    /// Gives back what [`AddressLimits::take`] took for something that then did not happen.
    pub fn refund(&self, rated: Rated, address: ClientAddr) {
        if let Some(bucket) = self.state().buckets.get_mut(&(address, rated)) {
            bucket.refund();
        }
    }

    /// Records that `address` hit limit `kind`: counted every time, logged at most once a
    /// minute per address and limit. Returns whether it was logged.
    pub fn hit(&self, kind: LimitKind, address: ClientAddr, message: &str) -> bool {
        crate::ops::telemetry::limit_hit(kind);
        let now = Instant::now();
        let mut state = self.state();
        let quiet = state
            .logged
            .get(&(address, kind))
            .is_some_and(|last| now.saturating_duration_since(*last) < LOG_EVERY);
        if !quiet {
            state.logged.insert((address, kind), now);
            drop(state);
            tracing::warn!(
                %address,
                limit = kind.label(),
                "refused: {message} (logged once a minute per address)"
            );
        }
        !quiet
    }
}

/// Whole seconds to wait, at least one, for a message.
fn seconds(wait: Duration) -> f64 {
    wait.as_secs_f64().ceil().max(1.0)
}

impl State {
    /// Forgets buckets that are full again and log entries past their quiet time, once a
    /// minute, so the maps hold only addresses seen lately.
    fn sweep(&mut self, now: Instant) {
        if now.saturating_duration_since(self.last_sweep) < LOG_EVERY {
            return;
        }
        self.last_sweep = now;
        self.buckets.retain(|_, bucket| !bucket.is_full(now));
        self.logged
            .retain(|_, last| now.saturating_duration_since(*last) < LOG_EVERY);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(last: u8) -> ClientAddr {
        ClientAddr::of(std::net::IpAddr::from([127, 0, 0, last]))
    }

    #[test]
    fn each_address_has_its_own_allowance() {
        let limits = AddressLimits::new(RateSettings {
            upgrades: 60,
            matches: 2,
            engine_games: 1,
            failed_joins: 1,
            failed_joins_total: 1,
        });
        assert!(limits.take(Rated::Matches, addr(2)).is_ok());
        assert!(limits.take(Rated::Matches, addr(2)).is_ok());
        let over = limits.take(Rated::Matches, addr(2)).unwrap_err();
        assert_eq!(over.kind, LimitKind::Matches);
        assert_eq!(
            over.message,
            "too many new matches from 127.0.0.2: at most 2 a minute; try again in 30 s"
        );
        assert!(limits.take(Rated::Matches, addr(3)).is_ok());
        assert!(limits.take(Rated::EngineGames, addr(2)).is_ok());
        limits.refund(Rated::EngineGames, addr(2));
        assert!(limits.take(Rated::EngineGames, addr(2)).is_ok());
        assert!(limits.take(Rated::EngineGames, addr(2)).is_err());
    }

    #[test]
    fn wrong_invite_codes_are_limited_per_address_and_in_all() {
        let limits = AddressLimits::new(RateSettings {
            upgrades: 60,
            matches: 60,
            engine_games: 60,
            failed_joins: 2,
            failed_joins_total: 3,
        });
        // Trying is free; only wrong codes are charged.
        for _ in 0..5 {
            assert!(limits.may_try_code(addr(2)).is_ok());
        }
        limits.wrong_code(addr(2));
        limits.wrong_code(addr(2));
        let over = limits.may_try_code(addr(2)).unwrap_err();
        assert_eq!(over.kind, LimitKind::FailedJoins);
        assert_eq!(
            over.message,
            "too many wrong invite codes from 127.0.0.2: at most 2 a minute; try again in 30 s"
        );
        // Another address has its own two, until the server's three are used up.
        assert!(limits.may_try_code(addr(3)).is_ok());
        limits.wrong_code(addr(3));
        let over = limits.may_try_code(addr(4)).unwrap_err();
        assert_eq!(over.kind, LimitKind::FailedJoinsTotal);
        assert_eq!(
            over.message,
            "too many wrong invite codes on this server lately (at most 3 a minute from \
             everyone); try again in 20 s"
        );
    }

    #[test]
    fn hits_are_logged_once_a_minute_per_address_and_limit() {
        let limits = AddressLimits::new(RateSettings {
            upgrades: 1,
            matches: 1,
            engine_games: 1,
            failed_joins: 1,
            failed_joins_total: 1,
        });
        assert!(limits.hit(LimitKind::Upgrades, addr(2), "first"));
        assert!(!limits.hit(LimitKind::Upgrades, addr(2), "again"));
        assert!(limits.hit(LimitKind::Matches, addr(2), "another limit"));
        assert!(limits.hit(LimitKind::Upgrades, addr(3), "another address"));
        let mut state = limits.state();
        let at = state
            .logged
            .get_mut(&(addr(2), LimitKind::Upgrades))
            .unwrap();
        *at -= LOG_EVERY;
        drop(state);
        assert!(limits.hit(LimitKind::Upgrades, addr(2), "a minute later"));
    }
}
