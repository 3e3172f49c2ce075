//! One match as a pure state machine: [`MatchState::decide`] turns a command into events (or
//! a typed refusal) without changing anything; [`MatchState::apply`] folds a committed event
//! in. Recovery after a restart is the same `apply` over the stored events, so live play and
//! recovery cannot drift. `now` is always passed in: the state machine reads no clock.
//!
//! The jobs live in their own files, each adding methods to [`MatchState`]: this one holds the
//! state and what it says about itself; `decide.rs` the decisions and refusals; `apply.rs`
//! folding events in, replay and savepoints; `view.rs` what is shown of a match (snapshot,
//! lobby line, PDN); `record.rs` the stored form. Only this file depends on none of them.

use std::time::{Duration, Instant};

use boardcast_protocol::{BySide, MatchPhase, MatchResult, RatingChanges, Side};
use frisian::{FenError, Position};

use super::acks::AckIds;
use super::clock::Clock;
use super::grace::GraceCountdown;
use super::lag::LagQuota;
use super::player::Player;
use super::plies::Plies;
use super::record::Setup;
use crate::accounts::secret;
use crate::ratings::glicko::{Score, rated_score};

/// A seated player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SeatHolder {
    /// The hashes of the seat's valid tokens ([`crate::accounts::secret::hash`]): the one it
    /// was taken with, and any handed out again since for a device of the same player
    /// ([`super::record::Record::token_issued`]). Storage knows no more, so this is what a
    /// presented token is checked against.
    pub token_hashes: Vec<String>,
    /// The seat's token in plain text if the server knows it (handed out, or presented, in
    /// this actor's life; never after a restart until presented or handed out again), so
    /// that a seat taken back without its token (by account, or a rematch's) can be given it.
    pub token: Option<String>,
    pub player: Player,
}

/// Why a match cannot start from its set-up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum SetupError {
    #[error("start FEN: {0}")]
    StartFen(#[from] FenError),
}

/// A fresh secret seat token.
pub(crate) fn new_token() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

/// A match's whole state at version `v`.
#[derive(Debug, Clone)]
pub(crate) struct MatchState {
    pub id: String,
    pub invite: String,
    pub setup: Setup,
    pub v: u64,
    pub(super) seats: BySide<Option<SeatHolder>>,
    pub(super) start: Position,
    pub(super) position: Position,
    /// The moves, packed (notation and the rest are derived where they are shown).
    pub(super) plies: Plies,
    /// The ack ids of the actions each side has carried out, ascending (ids increase per
    /// seat): an action re-sent with one of them is a duplicate, any other id up to the last
    /// one is stale.
    pub(super) carried_out: BySide<AckIds>,
    pub(super) clock: Option<Clock>,
    /// Each side's lag quota (timed matches only), changed by applying moves.
    pub(super) lag: Option<BySide<LagQuota>>,
    pub(super) draw_offer: Option<Side>,
    pub(super) rematch_offer: Option<Side>,
    pub(super) rematch: Option<String>,
    pub(super) result: Option<MatchResult>,
    /// Each absent side's grace before the opponent may claim ([`super::grace`]).
    pub(super) grace: BySide<Option<GraceCountdown>>,
    /// When both seats were first taken (Unix milliseconds, from the stored event), for PDN.
    pub(super) started_ms: Option<i64>,
    /// Since when the side to move owes its first move (White from the start, Black from
    /// White's first move; restarted by a server restart): `None` once both have moved.
    pub(super) first_move_since: Option<Instant>,
    /// Each side's "+15 s" as a receiver (refused?) and as a giver (when it last gave).
    pub(super) more_time: BySide<MoreTimeState>,
    /// The sides that went berserk (an arena game's [`Setup::berserk`]).
    pub(super) berserk: BySide<bool>,
    /// The standing takeback proposal and when each side last proposed ([`super::takeback`]).
    pub(super) takeback: Takebacks,
}

/// The takeback proposals of a match (PROTOCOL.md §10 *Takebacks*, [`super::takeback`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Takebacks {
    /// The side whose proposal stands.
    pub(super) offer: Option<Side>,
    /// When each side last proposed (live only: a restart forgets it, which at most lets one
    /// more through).
    pub(super) proposed_at: BySide<Option<Instant>>,
}

/// One side's more time (PROTOCOL.md §10 *More time*).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct MoreTimeState {
    /// This side refuses to be given more time.
    pub(super) refused: bool,
    /// When this side last gave its opponent more time (live only: a restart forgets it,
    /// which at most lets one more through).
    pub(super) given_at: Option<Instant>,
}

impl MatchState {
    /// A match nobody has joined yet; refuses a set-up whose start FEN does not parse.
    pub(crate) fn new(id: String, invite: String, setup: Setup) -> Result<Self, SetupError> {
        let start = match &setup.start_fen {
            Some(fen) => Position::from_fen(fen)?,
            None => Position::start(),
        };
        Ok(MatchState {
            id,
            invite,
            setup,
            v: 0,
            seats: BySide::default(),
            start,
            position: start,
            plies: Plies::default(),
            carried_out: BySide::default(),
            clock: None,
            lag: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            result: None,
            grace: BySide::default(),
            started_ms: None,
            first_move_since: None,
            more_time: BySide::default(),
            berserk: BySide::default(),
            takeback: Takebacks::default(),
        })
    }

    pub(crate) fn phase(&self) -> MatchPhase {
        if self.result.is_some() {
            MatchPhase::Finished
        } else if self.seats.all(Option::is_some) {
            MatchPhase::Playing
        } else {
            MatchPhase::Waiting
        }
    }

    pub(crate) fn seat(&self, side: Side) -> Option<&SeatHolder> {
        self.seats[side].as_ref()
    }

    /// The side a token holds, if it is one of this match's seat tokens: its hash compared
    /// with each seat's (in constant time; the hash already hides the secret's bytes).
    pub(crate) fn side_of_token(&self, token: &str) -> Option<Side> {
        let presented = secret::hash(token);
        self.seats.find(|seat| {
            seat.as_ref().is_some_and(|seat| {
                seat.token_hashes
                    .iter()
                    .any(|hash| secret::same(hash, &presented))
            })
        })
    }

    /// Notes that `token` (checked by [`MatchState::side_of_token`]) holds `side`, so the
    /// seat can be handed out with it without issuing another.
    pub(crate) fn keep_token(&mut self, side: Side, token: &str) {
        if let Some(seat) = &mut self.seats[side] {
            seat.token = Some(token.to_owned());
        }
    }

    /// The side account `account` holds, White's first if it holds both.
    pub(crate) fn side_of_account(&self, account: i64) -> Option<Side> {
        self.seats.find(|seat| {
            seat.as_ref()
                .is_some_and(|seat| seat.player.account == Some(account))
        })
    }

    /// The free seat, if any.
    pub(crate) fn free_side(&self) -> Option<Side> {
        self.seats.find(Option::is_none)
    }

    pub(crate) fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    /// Who a finished rated match is rated between (White's and Black's accounts) and with
    /// what score; `None` for a casual match, a seat without an account, or a result that
    /// counts for nothing ([`rated_score`]: aborted, a first move missed, too short).
    pub(crate) fn rating_plan(&self) -> Option<(i64, i64, Score)> {
        if !self.setup.rated {
            return None;
        }
        let result = self.result.as_ref()?;
        let white = self.seat(Side::White)?.player.account?;
        let black = self.seat(Side::Black)?.player.account?;
        let score = rated_score(result, self.plies.len()).ok()?;
        (white != black).then_some((white, black, score))
    }

    /// Puts the rating change into the result just reached (before it is committed).
    pub(crate) fn set_rating_change(&mut self, change: RatingChanges) {
        if let Some(result) = &mut self.result {
            result.rating_change = Some(change);
        }
    }

    pub(crate) fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// Whether `side` is marked absent.
    pub(crate) fn is_absent(&self, side: Side) -> bool {
        self.grace[side].is_some()
    }

    /// The moment a move of `side` arriving at `now` with round trip `lag` is charged at: the
    /// credit from their lag quota earlier (PROTOCOL.md §Lag).
    pub(crate) fn lag_credited(&self, side: Side, lag: Duration, now: Instant) -> Instant {
        let credit = self
            .lag
            .as_ref()
            .map_or(Duration::ZERO, |quota| quota[side].credit(lag));
        now.checked_sub(credit).unwrap_or(now)
    }

    /// What is left of `side`'s lag quota, in a timed match.
    #[cfg(test)]
    pub(crate) fn lag_quota(&self, side: Side) -> Option<Duration> {
        self.lag.as_ref().map(|quota| quota[side].left())
    }

    /// When the running clock runs out, if a clock runs.
    pub(crate) fn flag_deadline(&self) -> Option<Instant> {
        if self.result.is_some() {
            return None;
        }
        self.clock.as_ref().and_then(Clock::deadline)
    }

    /// When the side to move must have made its first move, given `timeout`.
    pub(crate) fn first_move_deadline(&self, timeout: Duration) -> Option<Instant> {
        if self.result.is_some() {
            return None;
        }
        self.first_move_since.map(|since| since + timeout)
    }

    /// How long the side to move has left at `now` for its first move, given `timeout`: what
    /// the wire sends as `first_move_in_ms`, read off the deadline that aborts the match.
    pub(crate) fn first_move_in(&self, now: Instant, timeout: Duration) -> Option<Duration> {
        self.first_move_deadline(timeout)
            .map(|deadline| deadline.saturating_duration_since(now))
    }

    /// Stops the time of the side to move going down from `now` — the running clock and the
    /// wait for a first move — because no move of theirs can be accepted (storage refuses
    /// writes, or the lease lapsed): nobody is charged for that time, no flag falls in it.
    /// The first-move wait is held by its owner (the actor skips its deadline while held).
    pub(crate) fn hold_time(&mut self, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.hold(now);
        }
    }

    /// Lets the time held since `held_since` go on from `now`: a move can be accepted again.
    pub(crate) fn release_time(&mut self, held_since: Instant, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.release(now);
        }
        if let Some(since) = &mut self.first_move_since {
            *since += now.saturating_duration_since(held_since.max(*since));
        }
    }

    /// Charges the side to move `used` more of their running clock: the thinking they had
    /// done before a crash, which a clock restored at the restart would otherwise refund.
    pub(crate) fn charge_thinking(&mut self, used: Duration) {
        if self.result.is_none()
            && let Some(clock) = &mut self.clock
        {
            clock.charge(used);
        }
    }

    /// Whether `side` has made at least one move (sides take turns from the start's).
    pub(super) fn has_moved(&self, side: Side) -> bool {
        let first = Side::from(self.start.turn()) == side;
        self.plies.len() >= if first { 1 } else { 2 }
    }

    /// Whether each side has made at least one move (so the match can no longer be aborted).
    pub(super) fn both_moved(&self) -> bool {
        self.has_moved(Side::White) && self.has_moved(Side::Black)
    }
}
