//! Disconnect grace (PROTOCOL.md §10, "Leaving and claiming"): how long a player who left may
//! take to come back before the opponent may claim, and its countdown.
//!
//! Two rules from lichess's experience (lila #13940, #6044). The grace follows the time
//! control: a bullet player who is gone for a minute has lost the game on the clock anyway,
//! a classical player deserves time to restart a router. And the countdown runs only while
//! it is the absent player's turn: while the player still there thinks, the absent one costs
//! them nothing, so the wait for a claim must not run down behind the thinker's back (they
//! would otherwise be pushed to claim instead of playing on, or the absent one would return
//! to find the game claimed during their opponent's long think).

use std::time::{Duration, Instant};

use boardcast_protocol::TimeControl;

/// The grace for a match with `time_control`, under the server's `ceiling` (`--grace`):
/// a sixth of an average game's length (initial time plus 40 increments, as the lag quota
/// reckons it), at least an eighth of the ceiling and at most the ceiling. Untimed matches get
/// the ceiling. With the default 120 s: 1+0 gets 15 s, 3+0 30 s, 5+3 70 s, 10+0 100 s,
/// 15+10 and longer 120 s.
pub(crate) fn grace_period(ceiling: Duration, time_control: Option<TimeControl>) -> Duration {
    let Some(tc) = time_control else {
        return ceiling;
    };
    let game_ms = tc
        .initial_ms
        .saturating_add(tc.increment_ms.saturating_mul(40));
    Duration::from_millis(game_ms / 6).clamp(ceiling / 8, ceiling)
}

/// An absent player's grace as it counts down: what is left, and since when it runs (only
/// while it is that player's turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GraceCountdown {
    left: Duration,
    running_since: Option<Instant>,
}

impl GraceCountdown {
    /// A countdown of `grace` from `now`, running if `running` (the absent side is to move).
    pub(crate) fn new(grace: Duration, running: bool, now: Instant) -> Self {
        GraceCountdown {
            left: grace,
            running_since: running.then_some(now),
        }
    }

    /// What is left at `now`: zero once the opponent may claim.
    pub(crate) fn left(&self, now: Instant) -> Duration {
        match self.running_since {
            Some(since) => self
                .left
                .saturating_sub(now.saturating_duration_since(since)),
            None => self.left,
        }
    }

    /// Whether it counts down now.
    pub(crate) fn running(&self) -> bool {
        self.running_since.is_some()
    }

    /// Runs (`running`) or stands still from `now` on, keeping what is left.
    pub(crate) fn set_running(&mut self, running: bool, now: Instant) {
        if running == self.running() {
            return;
        }
        self.left = self.left(now);
        self.running_since = running.then_some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(initial_s: u64, increment_s: u64) -> Option<TimeControl> {
        Some(TimeControl {
            initial_ms: initial_s * 1_000,
            increment_ms: increment_s * 1_000,
        })
    }

    #[test]
    fn the_grace_is_shorter_for_bullet_and_longer_for_classical() {
        let ceiling = Duration::from_secs(120);
        let secs = |tc| grace_period(ceiling, tc).as_secs();
        assert_eq!(secs(tc(30, 0)), 15, "at least an eighth of the ceiling");
        assert_eq!(secs(tc(60, 0)), 15);
        assert_eq!(secs(tc(180, 0)), 30);
        assert_eq!(secs(tc(300, 3)), 70);
        assert_eq!(secs(tc(600, 0)), 100);
        assert_eq!(secs(tc(900, 10)), 120, "at most the ceiling");
        assert_eq!(secs(None), 120, "untimed: the ceiling");
        // A short ceiling (as in tests) bounds every time control.
        let short = Duration::from_millis(300);
        assert_eq!(grace_period(short, tc(60, 0)), short);
    }

    #[test]
    fn the_countdown_runs_only_while_it_is_set_running() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let mut grace = GraceCountdown::new(s(30), false, t0);
        assert_eq!(
            grace.left(t0 + s(10)),
            s(30),
            "the opponent's turn: stands still"
        );
        grace.set_running(true, t0 + s(10));
        assert_eq!(grace.left(t0 + s(15)), s(25));
        grace.set_running(true, t0 + s(16));
        assert_eq!(
            grace.left(t0 + s(16)),
            s(24),
            "running again changes nothing"
        );
        grace.set_running(false, t0 + s(20));
        assert_eq!(grace.left(t0 + s(100)), s(20));
        grace.set_running(true, t0 + s(100));
        assert_eq!(grace.left(t0 + s(200)), Duration::ZERO);
    }
}
