//! Server-authoritative Fischer clocks.
//!
//! The clock of the side to move runs from the moment its turn began *in this process*:
//! a clock restored after a restart starts running at the restart, so time spent while the
//! server was down is never charged.

use std::time::{Duration, Instant};

use boardcast_protocol::{ClockState, Side, TimeControl};

/// Both players' remaining time and which one is running.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    increment: Duration,
    white: Duration,
    black: Duration,
    /// The side whose time is going down and since when.
    running: Option<(Side, Instant)>,
}

/// The mover's time had run out before the move arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Flagged(pub Side);

impl Clock {
    /// Full time for both sides, stopped.
    pub(crate) fn new(tc: TimeControl) -> Self {
        let initial = Duration::from_millis(tc.initial_ms);
        Clock {
            increment: Duration::from_millis(tc.increment_ms),
            white: initial,
            black: initial,
            running: None,
        }
    }

    fn slot(&mut self, side: Side) -> &mut Duration {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    /// Time left for `side` at `now`.
    pub(crate) fn remaining(&self, side: Side, now: Instant) -> Duration {
        let stored = match side {
            Side::White => self.white,
            Side::Black => self.black,
        };
        match self.running {
            Some((running, since)) if running == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Starts (or restarts) `side`'s clock at `now`.
    #[cfg(test)]
    pub(crate) fn start(&mut self, side: Side, now: Instant) {
        self.running = Some((side, now));
    }

    /// Stops the clock, charging the running side for the time used.
    pub(crate) fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            let left = self.remaining(side, now);
            *self.slot(side) = left;
            self.running = None;
        }
    }

    /// Gives the running side back `time` in which no move of theirs could be accepted
    /// (storage unreachable): their clock stood still in it.
    pub(crate) fn credit(&mut self, time: Duration) {
        if let Some((_, since)) = &mut self.running {
            *since += time;
        }
    }

    /// The side whose time is running.
    pub(crate) fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// When the running side's time runs out.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        self.running.map(|(side, since)| {
            since
                + match side {
                    Side::White => self.white,
                    Side::Black => self.black,
                }
        })
    }

    /// Whether the running side has no time left at `now`.
    pub(crate) fn flagged(&self, now: Instant) -> Option<Side> {
        match self.running {
            Some((side, _)) if self.remaining(side, now).is_zero() => Some(side),
            _ => None,
        }
    }

    /// What the clocks will show after `side` moves at `now`: its time used, plus the
    /// increment, and the opponent running. The clock itself is unchanged (the move is not
    /// committed yet); apply the result with [`Clock::set`].
    pub(crate) fn after_move(&self, side: Side, now: Instant) -> Result<ClockState, Flagged> {
        let left = self.remaining(side, now);
        if left.is_zero() {
            return Err(Flagged(side));
        }
        let mut next = self.clone();
        *next.slot(side) = left + self.increment;
        next.running = None;
        let mut state = next.state(now);
        state.running = Some(side.opposite());
        Ok(state)
    }

    /// What the clocks show after `side`'s first move, made while no clock ran: nothing
    /// charged, no increment. After White's first move still no clock runs (Black's runs only
    /// from Black's first move); after Black's, White's starts.
    pub(crate) fn after_first_move(&self, side: Side, now: Instant) -> ClockState {
        let mut state = self.state(now);
        state.running = match side {
            Side::White => None,
            Side::Black => Some(Side::White),
        };
        state
    }

    /// Sets both times from a committed state and starts the running side at `now`.
    pub(crate) fn set(&mut self, state: ClockState, now: Instant) {
        self.white = Duration::from_millis(state.white_ms);
        self.black = Duration::from_millis(state.black_ms);
        self.running = state.running.map(|side| (side, now));
    }

    /// The clocks as of `now`, for the wire.
    pub(crate) fn state(&self, now: Instant) -> ClockState {
        ClockState {
            white_ms: self.remaining(Side::White, now).as_millis() as u64,
            black_ms: self.remaining(Side::Black, now).as_millis() as u64,
            running: self.running(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(initial_ms: u64, increment_ms: u64) -> TimeControl {
        TimeControl {
            initial_ms,
            increment_ms,
        }
    }

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(tc(10_000, 2_000));
        clock.start(Side::White, t0);
        let after = clock
            .after_move(Side::White, t0 + Duration::from_millis(3_000))
            .unwrap();
        assert_eq!(after.white_ms, 9_000);
        assert_eq!(after.black_ms, 10_000);
        assert_eq!(after.running, Some(Side::Black));
        clock.set(after, t0 + Duration::from_millis(3_000));
        assert_eq!(
            clock.deadline(),
            Some(t0 + Duration::from_millis(13_000)),
            "black has 10 s from the moment of the move"
        );
        assert_eq!(
            clock.remaining(Side::Black, t0 + Duration::from_millis(4_000)),
            Duration::from_millis(9_000)
        );
    }

    #[test]
    fn a_late_move_is_a_flag() {
        let t0 = Instant::now();
        let mut clock = Clock::new(tc(1_000, 0));
        clock.start(Side::White, t0);
        assert_eq!(clock.flagged(t0 + Duration::from_millis(999)), None);
        assert_eq!(
            clock.flagged(t0 + Duration::from_millis(1_000)),
            Some(Side::White)
        );
        assert_eq!(
            clock.after_move(Side::White, t0 + Duration::from_millis(1_500)),
            Err(Flagged(Side::White))
        );
    }

    #[test]
    fn restored_clocks_do_not_charge_downtime() {
        let t0 = Instant::now();
        let mut clock = Clock::new(tc(60_000, 0));
        let saved = ClockState {
            white_ms: 5_000,
            black_ms: 7_000,
            running: Some(Side::Black),
        };
        // The server restarts an hour later: black still has 7 s from then.
        let restart = t0 + Duration::from_secs(3_600);
        clock.set(saved, restart);
        assert_eq!(
            clock.remaining(Side::Black, restart),
            Duration::from_millis(7_000)
        );
        assert_eq!(
            clock.deadline(),
            Some(restart + Duration::from_millis(7_000))
        );
    }

    #[test]
    fn stop_keeps_the_time_used() {
        let t0 = Instant::now();
        let mut clock = Clock::new(tc(5_000, 0));
        clock.start(Side::White, t0);
        clock.stop(t0 + Duration::from_millis(1_200));
        assert_eq!(clock.running(), None);
        assert_eq!(clock.deadline(), None);
        assert_eq!(
            clock.remaining(Side::White, t0 + Duration::from_secs(100)),
            Duration::from_millis(3_800)
        );
    }

    #[test]
    fn time_credited_for_an_outage_is_not_charged_and_moves_the_flag() {
        let t0 = Instant::now();
        let mut clock = Clock::new(tc(5_000, 0));
        clock.start(Side::White, t0);
        // 4 s pass, 3 of them with storage unreachable.
        clock.credit(Duration::from_millis(3_000));
        let at = t0 + Duration::from_millis(4_000);
        assert_eq!(
            clock.remaining(Side::White, at),
            Duration::from_millis(4_000)
        );
        assert_eq!(clock.flagged(t0 + Duration::from_millis(6_000)), None);
        assert_eq!(clock.deadline(), Some(t0 + Duration::from_millis(8_000)));
        assert_eq!(
            clock.remaining(Side::Black, at),
            Duration::from_millis(5_000)
        );
    }
}
