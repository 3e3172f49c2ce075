//! Server-authoritative Fischer clocks.
//!
//! One rule across faults (PROTOCOL.md §12): a player is never charged for time in which no
//! node could accept their move, and not refunded thinking time the server could have
//! accepted a move in. So the running clock is *held* while storage refuses writes
//! ([`Clock::hold`], [`Clock::release`]): it shows no time going and has no deadline. A
//! clock restored after a crash starts at the restart, *charged* the thinking done before
//! the crash up to the last moment the server is known to have been alive
//! ([`Clock::charge`]), so only the downtime itself is not charged.

use std::time::{Duration, Instant};

use boardcast_protocol::{BySide, ClockState, Side, TimeControl};

/// The most a move is timed before it reached its match's owner, in a cluster where it
/// passes from the node it reached first (PROTOCOL.md §10, *Clocks across faults*): time in
/// transit (a Redis stall) is charged to nobody up to this, and a flag falls only this long
/// after the time ran out, so that a move on its way may still arrive. Bounded, so that the
/// nodes' clocks, which may differ a little, cannot give a player more.
pub(crate) const MAX_TRANSIT: Duration = Duration::from_secs(3);

/// Both players' remaining time and which one is running.
#[derive(Debug, Clone)]
pub(crate) struct Clock {
    /// Each side's increment: the time control's, or none for a side that went berserk.
    increment: BySide<Duration>,
    white: Duration,
    black: Duration,
    /// The side whose time is going down and since when.
    running: Option<(Side, Instant)>,
    /// Since when the running clock stands still because no move could be accepted.
    held: Option<Instant>,
}

/// The mover's time had run out before the move arrived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Flagged(pub Side);

impl Clock {
    /// Full time for both sides, stopped.
    pub(crate) fn new(tc: TimeControl) -> Self {
        let initial = Duration::from_millis(tc.initial_ms);
        Clock {
            increment: BySide::from_fn(|_| Duration::from_millis(tc.increment_ms)),
            white: initial,
            black: initial,
            running: None,
            held: None,
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
                // A held clock shows the time it had when it was held.
                let until = self.held.map_or(now, |held| held.min(now));
                stored.saturating_sub(until.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Starts (or restarts) `side`'s clock at `now`.
    #[cfg(test)]
    pub(crate) fn start(&mut self, side: Side, now: Instant) {
        self.running = Some((side, now));
        self.held = None;
    }

    /// Stops the clock, charging the running side for the time used.
    pub(crate) fn stop(&mut self, now: Instant) {
        if let Some((side, _)) = self.running {
            let left = self.remaining(side, now);
            *self.slot(side) = left;
            self.running = None;
        }
        self.held = None;
    }

    /// Stops the running side's time going down from `from` (no move of theirs can be
    /// accepted: storage refuses writes, or the node lost its lease); it keeps running in
    /// name, and no flag falls while it is held. `from` may lie in the past — when the node
    /// first saw storage refuse a write, before this match tried one — but a turn is never
    /// held from before it began. Holding a held clock changes nothing.
    pub(crate) fn hold(&mut self, from: Instant) {
        if let (Some((_, since)), None) = (self.running, self.held) {
            self.held = Some(from.max(since));
        }
    }

    /// Lets a held clock go on from `now` (a move can be accepted again): the time it was
    /// held is charged to nobody.
    pub(crate) fn release(&mut self, now: Instant) {
        if let (Some(held), Some((_, since))) = (self.held.take(), &mut self.running) {
            *since += now.saturating_duration_since(held);
        }
    }

    /// Whether the clock is held ([`Clock::hold`]).
    #[cfg(test)]
    pub(crate) fn is_held(&self) -> bool {
        self.held.is_some()
    }

    /// Charges the running side `used` more, as if their turn had begun that much earlier:
    /// the thinking a crash would otherwise refund. Never more than they have left.
    pub(crate) fn charge(&mut self, used: Duration) {
        let Some((side, since)) = self.running else {
            return;
        };
        let stored = *self.slot(side);
        let used = used.min(stored);
        // An `Instant` cannot go before the process began; the stored time says the same.
        match since.checked_sub(used) {
            Some(earlier) => self.running = Some((side, earlier)),
            None => *self.slot(side) = stored - used,
        }
    }

    /// The side whose time is running.
    pub(crate) fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// When the running side's time runs out; none while the clock is held.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        if self.held.is_some() {
            return None;
        }
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
        *next.slot(side) = left + self.increment[side];
        next.running = None;
        next.held = None;
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

    /// What the clocks show once `side` is given `more` at `now` (its opponent's "+15 s"),
    /// the running side running on. The clock itself is unchanged until the state is set.
    pub(crate) fn with_more_time(&self, side: Side, more: Duration, now: Instant) -> ClockState {
        let mut state = self.state(now);
        match side {
            Side::White => state.white_ms += more.as_millis() as u64,
            Side::Black => state.black_ms += more.as_millis() as u64,
        }
        state
    }

    /// What the clocks show once `side` goes berserk at `now` (an arena game, before its first
    /// move, so its clock is not running): `penalty` (half the base time) taken from it, the
    /// running side running on. The increment goes with [`Clock::drop_increment`].
    pub(crate) fn with_berserk(&self, side: Side, penalty: Duration, now: Instant) -> ClockState {
        let mut state = self.state(now);
        let penalty = penalty.as_millis() as u64;
        match side {
            Side::White => state.white_ms = state.white_ms.saturating_sub(penalty),
            Side::Black => state.black_ms = state.black_ms.saturating_sub(penalty),
        }
        state
    }

    /// `side` gets no increment from now on (it went berserk).
    pub(crate) fn drop_increment(&mut self, side: Side) {
        self.increment[side] = Duration::ZERO;
    }

    /// Sets both times from a committed state and starts the running side at `now`.
    pub(crate) fn set(&mut self, state: ClockState, now: Instant) {
        self.white = Duration::from_millis(state.white_ms);
        self.black = Duration::from_millis(state.black_ms);
        self.running = state.running.map(|side| (side, now));
        self.held = None;
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
    fn a_hold_from_before_the_turn_began_holds_it_from_its_start_and_gives_nothing_back() {
        let t0 = Instant::now() + Duration::from_secs(10);
        let mut clock = Clock::new(tc(10_000, 0));
        clock.start(Side::White, t0);
        // Storage was seen down 1 s before White's turn began (the turn began on a move
        // committed just before): White is charged nothing while held …
        clock.hold(t0 - Duration::from_secs(1));
        assert_eq!(
            clock.remaining(Side::White, t0 + Duration::from_secs(2)),
            Duration::from_secs(10)
        );
        clock.release(t0 + Duration::from_secs(2));
        // … and from the release on, White's time goes down: the second before the turn,
        // never charged, is not given back on top.
        assert_eq!(
            clock.remaining(Side::White, t0 + Duration::from_secs(3)),
            Duration::from_secs(9)
        );
        assert_eq!(clock.deadline(), Some(t0 + Duration::from_secs(12)));
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
    fn a_held_clock_charges_nothing_and_no_flag_falls() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut clock = Clock::new(tc(5_000, 0));
        clock.start(Side::White, t0);
        // 1 s of thinking, then storage refuses writes for 9 s: far past White's 5 s.
        clock.hold(t0 + ms(1_000));
        clock.hold(t0 + ms(3_000));
        assert_eq!(clock.remaining(Side::White, t0 + ms(10_000)), ms(4_000));
        assert_eq!(clock.deadline(), None, "no flag falls while held");
        assert_eq!(clock.flagged(t0 + ms(10_000)), None);
        // A move decided while held is charged up to the hold only.
        let after = clock.after_move(Side::White, t0 + ms(10_000)).unwrap();
        assert_eq!(after.white_ms, 4_000);
        // Storage is back at 10 s: the clock goes on from there.
        clock.release(t0 + ms(10_000));
        assert!(!clock.is_held());
        assert_eq!(clock.remaining(Side::White, t0 + ms(11_000)), ms(3_000));
        assert_eq!(clock.deadline(), Some(t0 + ms(14_000)));
        assert_eq!(clock.remaining(Side::Black, t0 + ms(11_000)), ms(5_000));
    }

    #[test]
    fn a_restored_clock_is_charged_the_thinking_before_the_crash() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut clock = Clock::new(tc(60_000, 0));
        let saved = ClockState {
            white_ms: 10_000,
            black_ms: 7_000,
            running: Some(Side::White),
        };
        let restart = t0 + Duration::from_secs(3_600);
        clock.set(saved, restart);
        // White had thought 3 s when the server was last known alive.
        clock.charge(ms(3_000));
        assert_eq!(clock.remaining(Side::White, restart), ms(7_000));
        assert_eq!(clock.deadline(), Some(restart + ms(7_000)));
        // Never more than what is left.
        clock.charge(ms(60_000));
        assert_eq!(clock.remaining(Side::White, restart), Duration::ZERO);
        assert_eq!(clock.remaining(Side::Black, restart), ms(7_000));
    }
}
