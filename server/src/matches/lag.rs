//! Lag compensation (PROTOCOL.md §Lag), one step of its own in charging a move.
//!
//! A player's clock runs on the server from the moment the opponent's move is committed. The
//! player sees that move only one network trip later, and the server sees their answer one
//! trip after they send it: a player on a 150 ms connection pays 300 ms a move that a player on
//! loopback does not. So each move is credited up to the mover's *round trip*, as lila's
//! LagTracker does, but only from a **lag quota**: it starts at three moves' worth, refills by
//! `gain` a move and never holds more than seven moves' worth. A steady connection is credited
//! in full; a client that claims (or a network that has) a lag beyond the quota gains no more
//! than the quota, however long the game.
//!
//! The round trip counted for a move ([`trusted_round_trip`]) is the client's own estimate sent
//! with the move (`lag_ms`), which follows the connection as it changes, but never above what
//! the server measured itself from its WebSocket pings ([`RoundTrips`]) with some slack:
//! a client can lower its credit, never raise it beyond the server's measurement.
//!
//! The quota lives in the match state and changes only by applying a `moved` event, whose
//! `lag_ms` says the round trip counted: replaying the events gives the same quota, so a
//! restarted or taken-over match credits the next move exactly as before.

use std::time::{Duration, Instant};

use boardcast_protocol::TimeControl;

/// The quota gain for a time control, lila's rule: 2/5 of a centisecond for every second an
/// average game lasts (the initial time plus 40 increments) plus 15 centiseconds, at most a
/// second. 1+0 gains 390 ms a move, 3+0 870 ms, 3+2 and longer 1 s.
pub(crate) fn quota_gain(tc: TimeControl) -> Duration {
    let game_seconds = tc.initial_ms / 1_000 + 40 * tc.increment_ms / 1_000;
    Duration::from_millis((game_seconds * 4 + 150).min(1_000))
}

/// What is left of one side's lag quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LagQuota {
    gain: Duration,
    quota: Duration,
}

impl LagQuota {
    /// The quota a side starts a game with: three moves' gain.
    pub(crate) fn new(tc: TimeControl) -> Self {
        let gain = quota_gain(tc);
        LagQuota {
            gain,
            quota: gain * 3,
        }
    }

    /// The most the quota ever holds: seven moves' gain.
    pub(crate) fn max(&self) -> Duration {
        self.gain * 7
    }

    /// What is left now.
    #[cfg(test)]
    pub(crate) fn left(&self) -> Duration {
        self.quota
    }

    /// The credit a move with round trip `lag` gets now (nothing changes: see
    /// [`LagQuota::spend`]).
    pub(crate) fn credit(&self, lag: Duration) -> Duration {
        lag.min(self.quota)
    }

    /// Takes a move's credit for round trip `lag` out of the quota and refills it by the
    /// gain, up to the maximum; returns the credit.
    pub(crate) fn spend(&mut self, lag: Duration) -> Duration {
        let credit = self.credit(lag);
        self.quota = (self.quota - credit + self.gain).min(self.max());
        credit
    }
}

/// The slack over the server's own measurement up to which a client's estimate is believed:
/// half the measured round trip plus 25 ms, for the jitter between two pings.
fn slack(measured: Duration) -> Duration {
    measured / 2 + Duration::from_millis(25)
}

/// The round trip counted for a move: the client's `claimed` estimate, at most the server's
/// `measured` one plus [`slack`]; the server's own without a claim; none (no credit) before
/// the server has measured the connection.
pub(crate) fn trusted_round_trip(
    measured: Option<Duration>,
    claimed: Option<Duration>,
) -> Duration {
    let Some(measured) = measured else {
        return Duration::ZERO;
    };
    match claimed {
        Some(claimed) => claimed.min(measured + slack(measured)),
        None => measured,
    }
}

/// A connection's round trips, measured from the server's WebSocket pings: each ping carries a
/// sequence number, and its pong gives one sample. The estimate is a moving average (each new
/// sample weighs a quarter) so one slow pong does not make the connection look bad at once.
#[derive(Debug, Default)]
pub(crate) struct RoundTrips {
    /// The ping awaiting its pong: its sequence number and when it left.
    outstanding: Option<(u64, Instant)>,
    next: u64,
    /// When the last ping left.
    last_sent: Option<Instant>,
    estimate: Option<Duration>,
}

impl RoundTrips {
    /// The payload of a new ping sent at `now`; an earlier ping still awaited is forgotten (its
    /// pong is then ignored).
    pub(crate) fn ping(&mut self, now: Instant) -> [u8; 8] {
        self.next += 1;
        self.outstanding = Some((self.next, now));
        self.last_sent = Some(now);
        self.next.to_be_bytes()
    }

    /// Whether no ping is awaited and none has gone out in the `every` before `now`: a move is
    /// a good moment to measure again.
    pub(crate) fn due(&self, now: Instant, every: Duration) -> bool {
        self.outstanding.is_none() && self.last_sent.is_none_or(|sent| sent + every <= now)
    }

    /// Takes a pong's payload, received at `now`; a payload that answers no ping is ignored.
    pub(crate) fn pong(&mut self, payload: &[u8], now: Instant) {
        let Some((seq, sent)) = self.outstanding else {
            return;
        };
        if payload != seq.to_be_bytes() {
            return;
        }
        self.outstanding = None;
        let sample = now.saturating_duration_since(sent);
        self.estimate = Some(match self.estimate {
            Some(estimate) => (estimate * 3 + sample) / 4,
            None => sample,
        });
    }

    /// The round trip measured so far, if any pong has come back.
    pub(crate) fn estimate(&self) -> Option<Duration> {
        self.estimate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(initial_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            initial_ms,
            increment_ms,
        }
    }

    #[test]
    fn the_gain_grows_with_the_time_control_up_to_a_second() {
        assert_eq!(quota_gain(tc(60_000, 0)), ms(390));
        assert_eq!(quota_gain(tc(180_000, 0)), ms(870));
        assert_eq!(quota_gain(tc(180_000, 2_000)), ms(1_000));
        assert_eq!(quota_gain(tc(15_000, 0)), ms(210));
        let quota = LagQuota::new(tc(60_000, 0));
        assert_eq!(quota.left(), ms(1_170));
        assert_eq!(quota.max(), ms(2_730));
    }

    #[test]
    fn a_steady_connection_within_the_gain_is_credited_in_full_all_game() {
        let mut quota = LagQuota::new(tc(60_000, 0));
        for _ in 0..200 {
            assert_eq!(quota.spend(ms(300)), ms(300));
        }
        assert_eq!(
            quota.left(),
            quota.max(),
            "never more than seven moves' gain"
        );
    }

    #[test]
    fn a_lag_beyond_the_quota_gains_no_more_than_the_quota() {
        let mut quota = LagQuota::new(tc(60_000, 0));
        let mut credited = Duration::ZERO;
        for moves in 1..=50u32 {
            let before = quota.left();
            let credit = quota.spend(ms(2_000));
            assert!(credit <= before);
            credited += credit;
            // Three moves' gain to start with, one more a move.
            assert!(credited <= ms(390) * (2 + moves));
        }
        // After the start quota is gone, each move gets just the gain.
        assert_eq!(quota.spend(ms(2_000)), ms(390));
    }

    #[test]
    fn a_claim_is_believed_only_up_to_the_measurement_and_slack() {
        assert_eq!(trusted_round_trip(None, Some(ms(2_000))), Duration::ZERO);
        assert_eq!(trusted_round_trip(Some(ms(300)), None), ms(300));
        assert_eq!(trusted_round_trip(Some(ms(300)), Some(ms(320))), ms(320));
        assert_eq!(trusted_round_trip(Some(ms(300)), Some(ms(2_000))), ms(475));
        assert_eq!(trusted_round_trip(Some(ms(2)), Some(ms(2_000))), ms(28));
        assert_eq!(trusted_round_trip(Some(ms(300)), Some(ms(10))), ms(10));
    }

    #[test]
    fn round_trips_come_from_pongs_that_answer_the_ping() {
        let t0 = Instant::now();
        let mut trips = RoundTrips::default();
        assert!(trips.due(t0, ms(2_000)));
        let first = trips.ping(t0);
        assert!(!trips.due(t0 + ms(5_000), ms(2_000)), "a ping is awaited");
        trips.pong(b"junk", t0 + ms(10));
        assert_eq!(trips.estimate(), None, "a pong answering no ping");
        trips.pong(&first, t0 + ms(300));
        assert_eq!(trips.estimate(), Some(ms(300)));
        trips.pong(&first, t0 + ms(900));
        assert_eq!(trips.estimate(), Some(ms(300)), "answered once");
        assert!(!trips.due(t0 + ms(1_000), ms(2_000)));
        assert!(trips.due(t0 + ms(2_000), ms(2_000)));
        let second = trips.ping(t0 + ms(2_000));
        trips.pong(&second, t0 + ms(2_100));
        assert_eq!(trips.estimate(), Some(ms(250)), "a quarter weight each");
    }
}
