//! Deciding: what a command, or the passing of time, makes happen in a match. Every function
//! here reads the state and returns records to commit (or a typed [`Refusal`] saying why
//! nothing happens); none changes anything, so a refused or failed command leaves no trace.

use std::time::{Duration, Instant};

use boardcast_protocol::{
    Berserked, ClaimKind, EndReason, ErrorArgs, ErrorCode, MORE_TIME_MS, MatchEvent, MatchPhase,
    MatchResult, MoreTimeGiven, MoreTimeRefused, Side,
};
use frisian::{MoveError, MoveList, Outcome, Square};

use super::clock::Flagged;
use super::player::Player;
use super::record::Record;
use super::state::MatchState;
use super::view::moved_event;
use crate::ratings::seek::{SeekTerms, may_join};
use crate::refusal::Refusal;

/// What a seated player asks for. Serializable: in a cluster it travels to the match's owner.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// A move's route, and the round trip counted for it ([`super::lag::trusted_round_trip`],
    /// measured where the player is connected), in milliseconds.
    Move {
        route: Vec<u8>,
        lag_ms: u32,
    },
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Abort,
    Claim(ClaimKind),
    OfferRematch,
    AcceptRematch,
    DeclineRematch,
    /// Give the opponent [`boardcast_protocol::MORE_TIME_MS`].
    MoreTime,
    /// Refuse (true) or accept again being given more time.
    RefuseMoreTime(bool),
    /// Go berserk (an arena game, before one's first move).
    Berserk,
    /// Propose to take back one's last move ([`super::takeback`]).
    ProposeTakeback,
    AcceptTakeback,
    DeclineTakeback,
}

/// How often a side may give more time: the rate limit of PROTOCOL.md §10 *More time*.
pub(crate) const MORE_TIME_EVERY: Duration = Duration::from_secs(5);

impl Action {
    /// A move with no lag to compensate.
    pub fn play(route: Vec<u8>) -> Action {
        Action::Move { route, lag_ms: 0 }
    }
}

/// What `decide` concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Commit these events, then acknowledge.
    Events(Vec<Record>),
    /// The same move with the same ack id was already applied: acknowledge again, change
    /// nothing.
    Duplicate,
    /// Both want a rematch: the actor creates it, then records
    /// [`MatchEvent::RematchStarted`].
    StartRematch,
}

/// The squares of a route; `Err` is the first number that names no square.
pub(super) fn squares(route: &[u8]) -> Result<Vec<Square>, u8> {
    route.iter().map(|&n| Square::new(n).ok_or(n)).collect()
}

/// The result the rules give for `outcome`.
pub(crate) fn rules_result(outcome: Outcome) -> MatchResult {
    match outcome {
        Outcome::Decisive { winner, .. } => MatchResult {
            winner: Some(winner.into()),
            reason: EndReason::NoLegalMove,
            detail: outcome.to_string(),
            rating_change: None,
        },
        Outcome::Draw { .. } => MatchResult {
            winner: None,
            reason: EndReason::DrawByRule,
            detail: outcome.to_string(),
            rating_change: None,
        },
    }
}

fn illegal(error: &MoveError) -> Refusal {
    let message = error.to_string();
    let message = if message.starts_with("illegal move") {
        message
    } else {
        format!("illegal move: {message}")
    };
    Refusal::new(ErrorCode::IllegalMove, message).with(move_error_args(error))
}

/// The reason and arguments of an illegal move (PROTOCOL.md §12.1), for clients that word it
/// in the player's language.
fn move_error_args(error: &MoveError) -> ErrorArgs {
    let on =
        |reason: &str, square: &Square| ErrorArgs::new(reason).number("square", square.number());
    let leg = |reason: &str, from: &Square, to: &Square| {
        ErrorArgs::new(reason)
            .number("from", from.number())
            .number("to", to.number())
    };
    match error {
        MoveError::GameOver => ErrorArgs::new("not_legal"),
        MoveError::RouteTooShort => ErrorArgs::new("route_too_short"),
        MoveError::NoPiece(square) => on("no_piece", square),
        MoveError::NotYourPiece(square) => on("not_your_piece", square),
        MoveError::Occupied(square) => on("occupied", square),
        MoveError::NotOnLine { from, to } => leg("not_on_line", from, to),
        MoveError::NotAManMove { from, to } => leg("not_a_man_move", from, to),
        MoveError::NotAKingMove { from, to } => leg("not_a_king_move", from, to),
        MoveError::Blocked { from, to, at } => leg("blocked", from, to).number("at", at.number()),
        MoveError::CaptureCompulsory { example } => {
            ErrorArgs::new("capture_compulsory").word("example", example)
        }
        MoveError::NothingCaptured { from, to } => leg("nothing_captured", from, to),
        MoveError::OwnPiece(square) => on("own_piece", square),
        MoveError::AlreadyCaptured(square) => on("already_captured", square),
        MoveError::TwoPieces { from, to } => leg("two_pieces", from, to),
        MoveError::ManTooFar { from, to } => leg("man_too_far", from, to),
        MoveError::MustContinue(square) => on("must_continue", square),
        MoveError::LowerValue {
            value,
            best,
            example,
        } => ErrorArgs::new("lower_value")
            .number("kings", value.kings)
            .number("men", value.men)
            .number("best_kings", best.kings)
            .number("best_men", best.men)
            .word("example", example),
        MoveError::KingPrecedence { example } => {
            ErrorArgs::new("king_precedence").word("example", example)
        }
        MoveError::KingFrozen(square) => on("king_frozen", square),
        MoveError::NotLegal => ErrorArgs::new("not_legal"),
    }
}

/// What a match's timeouts are measured against besides its own state: the server's limits
/// and, from the actor's presence, since when nobody has held a seat.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Timeouts {
    /// How long each side has for its first move ([`MatchState::first_move_missed`]).
    pub first_move: Duration,
    /// How long a match may go on with nobody seated ([`MatchState::abandoned`]).
    pub abandon_after: Duration,
    /// Since when no connection has held a seat, if none holds one now.
    pub unseated_since: Option<Instant>,
}

impl MatchState {
    /// When the match next needs waking (quinn's `poll_timeout`): the side to move running
    /// out of time, missing its first move, or the match being abandoned; `None` while
    /// nothing can end it by itself. The actor keeps this one timer and, once it fires, asks
    /// [`MatchState::handle_timeout`] what is due.
    pub(crate) fn poll_timeout(&self, timeouts: &Timeouts) -> Option<Instant> {
        if self.result.is_some() {
            return None;
        }
        let abandon = timeouts
            .unseated_since
            .map(|since| since + timeouts.abandon_after);
        [
            self.flag_deadline(),
            self.first_move_deadline(timeouts.first_move),
            abandon,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The record ending the match that is due at `now` (quinn's `handle_timeout`): a time
    /// forfeit, an abort for a missed first move, or an abandonment; `None` if nothing is
    /// due yet. Like every `decide`, it changes nothing: the actor commits the record.
    pub(crate) fn handle_timeout(&self, now: Instant, timeouts: &Timeouts) -> Option<Record> {
        self.flag(now)
            .or_else(|| self.first_move_missed(now, timeouts.first_move))
            .or_else(|| {
                let since = timeouts.unseated_since?;
                (since + timeouts.abandon_after <= now)
                    .then(|| self.abandoned(timeouts.abandon_after))?
            })
    }

    /// The time forfeit due at `now`, if the side to move has run out of time.
    pub(crate) fn flag(&self, now: Instant) -> Option<Record> {
        if self.result.is_some() {
            return None;
        }
        let loser = self.clock.as_ref()?.flagged(now)?;
        Some(Record::ended(
            Some(loser.opposite()),
            EndReason::TimeForfeit,
            format!("{loser} ran out of time"),
        ))
    }

    /// The abort due at `now` if the side to move has not made its first move in `timeout`.
    pub(crate) fn first_move_missed(&self, now: Instant, timeout: Duration) -> Option<Record> {
        let deadline = self.first_move_deadline(timeout)?;
        if now < deadline {
            return None;
        }
        let late = Side::from(self.position.turn());
        Some(Record::ended(
            None,
            EndReason::Aborted,
            format!(
                "{late} did not make a first move within {} s",
                timeout.as_secs_f64()
            ),
        ))
    }

    /// The end of a match nobody has held a seat of for `after`: aborted while a side has
    /// not moved yet (or nobody joined), else abandoned without a winner. `None` if over.
    pub(crate) fn abandoned(&self, after: Duration) -> Option<Record> {
        if self.result.is_some() {
            return None;
        }
        let detail = format!("abandoned: nobody was seated for {} s", after.as_secs_f64());
        Some(
            if self.both_moved() && self.phase() == MatchPhase::Playing {
                Record::ended(None, EndReason::Abandoned, detail)
            } else {
                Record::ended(None, EndReason::Aborted, detail)
            },
        )
    }

    /// The events a seated `side` causes with `action` (ack id `ack`) at `now`, or why not.
    pub(crate) fn decide(
        &self,
        side: Side,
        ack: u64,
        action: &Action,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let carried_out = &self.carried_out[side];
        if let Some(&last) = carried_out.last()
            && ack <= last
        {
            if carried_out.binary_search(&ack).is_ok() {
                return Ok(Decision::Duplicate);
            }
            return Err(Refusal {
                last_id: Some(last),
                ..Refusal::new(
                    ErrorCode::StaleId,
                    format!(
                        "id {ack} is not above {last}, the last id carried out for your seat: \
                         match actions need ids that increase per seat, across reconnects"
                    ),
                )
                .with(
                    ErrorArgs::new("not_above_last")
                        .number("id", ack)
                        .number("last_id", last),
                )
            });
        }
        let over = || {
            Refusal::new(
                ErrorCode::GameOver,
                match &self.result {
                    Some(result) => format!("the match is over: {}", result.detail),
                    None => "the match is over".to_owned(),
                },
            )
            .with(ErrorArgs::new("game_over"))
        };
        let playing = || match self.phase() {
            MatchPhase::Playing => Ok(()),
            MatchPhase::Waiting => Err(Refusal::not_allowed(
                "not_started",
                "the match has not started: waiting for an opponent",
            )),
            MatchPhase::Finished => Err(over()),
        };
        let opponent = side.opposite();
        let mut events = match action {
            Action::Move { route, lag_ms } => {
                playing()?;
                self.decide_move(side, route, Duration::from_millis((*lag_ms).into()), now)?
            }
            Action::Resign => {
                playing()?;
                vec![Record::ended(
                    Some(opponent),
                    EndReason::Resignation,
                    format!("{side} resigned"),
                )]
            }
            Action::OfferDraw => {
                playing()?;
                match self.draw_offer {
                    Some(offerer) if offerer == side => {
                        return Err(Refusal::not_allowed(
                            "draw_offer_stands",
                            "your draw offer already stands",
                        ));
                    }
                    // Offering back what the opponent offered is agreeing.
                    Some(_) => vec![Record::ended(
                        None,
                        EndReason::DrawByAgreement,
                        "draw by agreement".into(),
                    )],
                    None => vec![Record::new(MatchEvent::DrawOffered(side))],
                }
            }
            Action::AcceptDraw | Action::DeclineDraw => {
                playing()?;
                if self.draw_offer != Some(opponent) {
                    return Err(Refusal::not_allowed(
                        "no_draw_offer",
                        "there is no draw offer from your opponent",
                    ));
                }
                if *action == Action::AcceptDraw {
                    vec![Record::ended(
                        None,
                        EndReason::DrawByAgreement,
                        "draw by agreement".into(),
                    )]
                } else {
                    vec![Record::new(MatchEvent::DrawDeclined(side))]
                }
            }
            Action::Abort => {
                if self.result.is_some() {
                    return Err(over());
                }
                if self.both_moved() {
                    return Err(Refusal::not_allowed(
                        "abort_after_moves",
                        "a match can be aborted only before each side has moved",
                    ));
                }
                vec![Record::ended(
                    None,
                    EndReason::Aborted,
                    format!("aborted by {side}"),
                )]
            }
            Action::Claim(kind) => {
                playing()?;
                match self.grace[opponent] {
                    None => {
                        return Err(Refusal::not_allowed(
                            "opponent_connected",
                            "your opponent is connected: nothing to claim",
                        ));
                    }
                    Some(grace) if !grace.left(now).is_zero() => {
                        let left = grace.left(now).as_secs_f64();
                        let message = if grace.running() {
                            format!("your opponent may still come back: claim in {left:.1} s")
                        } else {
                            format!(
                                "your opponent may still come back: claim in {left:.1} s of \
                                 their turn (the grace stands still on yours)"
                            )
                        };
                        return Err(Refusal::new(ErrorCode::NotAllowed, message).with(
                            ErrorArgs::new(if grace.running() {
                                "grace_running"
                            } else {
                                "grace_paused"
                            })
                            .number("wait_s", left.ceil() as u64),
                        ));
                    }
                    // A match that could still be aborted has no game in it to win or draw:
                    // the claim aborts it, as the player could have done themselves.
                    Some(_) if !self.both_moved() => {
                        vec![Record::ended(
                            None,
                            EndReason::Aborted,
                            format!("{opponent} left before both sides moved: aborted"),
                        )]
                    }
                    Some(_) => match kind {
                        ClaimKind::Win => vec![Record::ended(
                            Some(side),
                            EndReason::Abandoned,
                            format!("{opponent} left the match"),
                        )],
                        ClaimKind::Draw => vec![Record::ended(
                            None,
                            EndReason::DrawClaimed,
                            format!("{opponent} left the match; draw claimed"),
                        )],
                    },
                }
            }
            Action::MoreTime => {
                playing()?;
                self.decide_more_time(side, now)?
            }
            Action::Berserk => {
                playing()?;
                self.decide_berserk(side, now)?
            }
            Action::ProposeTakeback => {
                playing()?;
                self.decide_propose_takeback(side, now)?
            }
            Action::AcceptTakeback | Action::DeclineTakeback => {
                playing()?;
                self.decide_answer_takeback(side, *action == Action::AcceptTakeback, now)?
            }
            Action::RefuseMoreTime(refused) => {
                vec![Record::new(MatchEvent::MoreTimeRefused(MoreTimeRefused {
                    side,
                    refused: *refused,
                }))]
            }
            Action::OfferRematch | Action::AcceptRematch | Action::DeclineRematch => {
                if self.result.is_none() {
                    return Err(Refusal::not_allowed(
                        "rematch_not_over",
                        "a rematch can be offered only once the match is over",
                    ));
                }
                if let Some(id) = &self.rematch {
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        format!("the rematch already exists: {id}"),
                    )
                    .with(ErrorArgs::new("rematch_exists").word("match_id", id.as_str())));
                }
                if self.seat(opponent).is_none() {
                    return Err(Refusal::not_allowed(
                        "no_opponent",
                        "there was no opponent to play again",
                    ));
                }
                match (action, self.rematch_offer) {
                    (Action::OfferRematch, Some(offerer)) if offerer == side => {
                        return Err(Refusal::not_allowed(
                            "rematch_offer_stands",
                            "your rematch offer already stands",
                        ));
                    }
                    // Only the opponent can accept: accepting one's own offer would seat the
                    // opponent in a match they never agreed to.
                    (Action::AcceptRematch, Some(offerer)) if offerer == side => {
                        return Err(Refusal::not_allowed(
                            "own_rematch_offer",
                            "this rematch offer is your own: your opponent has to accept it",
                        ));
                    }
                    (Action::OfferRematch | Action::AcceptRematch, Some(_)) => {
                        return Ok(Decision::StartRematch);
                    }
                    (Action::OfferRematch, None) => {
                        vec![Record::new(MatchEvent::RematchOffered(side))]
                    }
                    (Action::DeclineRematch, Some(offerer)) if offerer == opponent => {
                        vec![Record::new(MatchEvent::RematchDeclined(side))]
                    }
                    _ => {
                        return Err(Refusal::not_allowed(
                            "no_rematch_offer",
                            "there is no rematch offer from your opponent",
                        ));
                    }
                }
            }
        };
        // The first event remembers whose action with which id caused it.
        if let Some(first) = events.first_mut() {
            first.ack = Some((side, ack));
        }
        Ok(Decision::Events(events))
    }

    /// `side` gives its opponent more time at `now`: timed matches only, not to an opponent
    /// who refuses it, at most once every [`MORE_TIME_EVERY`].
    fn decide_more_time(&self, side: Side, now: Instant) -> Result<Vec<Record>, Refusal> {
        let Some(clock) = &self.clock else {
            return Err(Refusal::not_allowed(
                "more_time_untimed",
                "more time is for timed matches only",
            ));
        };
        let opponent = side.opposite();
        if self.more_time[opponent].refused {
            return Err(Refusal::not_allowed(
                "more_time_refused",
                "your opponent does not accept more time",
            ));
        }
        if let Some(at) = self.more_time[side].given_at
            && now.saturating_duration_since(at) < MORE_TIME_EVERY
        {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                format!(
                    "more time at most once every {} s",
                    MORE_TIME_EVERY.as_secs()
                ),
            )
            .with(ErrorArgs::new("more_time_often").number("every_s", MORE_TIME_EVERY.as_secs())));
        }
        if clock.flagged(now).is_some() {
            return Err(Refusal::not_allowed("flagged", "the time has run out"));
        }
        let clock = clock.with_more_time(opponent, Duration::from_millis(MORE_TIME_MS), now);
        Ok(vec![Record::new(MatchEvent::MoreTimeGiven(
            MoreTimeGiven {
                side: opponent,
                clock,
            },
        ))])
    }

    /// `side` goes berserk at `now`: an arena game's timed match only, before its own first
    /// move, once; half its base time goes (lila's rule), and with it its increment.
    fn decide_berserk(&self, side: Side, now: Instant) -> Result<Vec<Record>, Refusal> {
        let (true, Some(clock), Some(tc)) =
            (self.setup.berserk, &self.clock, self.setup.time_control)
        else {
            return Err(Refusal::not_allowed(
                "berserk_arena_only",
                "berserk is for arena games only",
            ));
        };
        if self.berserk[side] {
            return Err(Refusal::not_allowed(
                "berserk_already",
                "you have gone berserk already",
            ));
        }
        if self.has_moved(side) {
            return Err(Refusal::not_allowed(
                "berserk_after_move",
                "berserk only before your first move",
            ));
        }
        let penalty = Duration::from_millis(tc.initial_ms / 2);
        Ok(vec![Record::new(MatchEvent::Berserked(Berserked {
            side,
            clock: clock.with_berserk(side, penalty, now),
        }))])
    }

    fn decide_move(
        &self,
        side: Side,
        route: &[u8],
        lag: Duration,
        now: Instant,
    ) -> Result<Vec<Record>, Refusal> {
        if Side::from(self.position.turn()) != side {
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                format!("not your turn: {} to move", side.opposite()),
            )
            .with(ErrorArgs::new("side_to_move").word("side", side.opposite().to_string())));
        }
        let squares = squares(route).map_err(|n| {
            Refusal::new(
                ErrorCode::InvalidArgument,
                format!("route: {n} is not a square (1 to 50)"),
            )
            .with(ErrorArgs::new("not_a_square").number("number", n))
        })?;
        // One generation of the legal moves resolves, writes and plays the move.
        let mut legal = MoveList::new();
        self.position.legal_moves_into(&mut legal);
        let mv = self
            .position
            .move_from_route_in(&squares, &legal)
            .map_err(|err| illegal(&err))?;
        let clock = match &self.clock {
            // A player's clock does not run before that player's first move.
            Some(clock) if !self.has_moved(side) => Some(clock.after_first_move(side, now)),
            // Lag compensation, its own step: the move is charged as if it had arrived the
            // credit earlier (`lag`), the credit taken from the mover's quota on `apply`.
            Some(clock) => match clock.after_move(side, self.lag_credited(side, lag, now)) {
                Ok(state) => Some(state),
                Err(Flagged(_)) => {
                    return Err(Refusal::new(ErrorCode::GameOver, "your time ran out")
                        .with(ErrorArgs::new("time_ran_out")));
                }
            },
            None => None,
        };
        let (mut moved, outcome) =
            moved_event(&self.position, &legal, mv, self.plies.len() as u32, clock)
                .map_err(|err| illegal(err.error()))?;
        // The round trip counted is shown (connection quality) and replayed into the quota.
        if self.clock.is_some() {
            moved.lag_ms = Some(lag.as_millis().min(u32::MAX as u128) as u32);
        }
        let mut records = vec![Record::new(MatchEvent::Moved(moved))];
        // Over the board one offers a draw and then moves: one's own move leaves one's offer
        // standing for the opponent to answer. The opponent moving instead of answering is
        // the answer, and ends it.
        if self.draw_offer == Some(side.opposite()) {
            records.push(Record::new(MatchEvent::DrawOfferCancelled));
        }
        // A takeback proposal is about the position it was made in: any move ends it.
        if self.takeback.offer.is_some() {
            records.push(Record::new(MatchEvent::TakebackCancelled));
        }
        if let Some(outcome) = outcome {
            records.push(Record::new(MatchEvent::Ended(rules_result(outcome))));
        }
        Ok(records)
    }

    /// The events of a new player taking the free seat.
    pub(crate) fn decide_join(
        &self,
        player: &Player,
        token: String,
        myself: bool,
    ) -> Result<(Side, Record), Refusal> {
        if self.result.is_some() {
            return Err(Refusal::new(ErrorCode::GameOver, "the match is over")
                .with(ErrorArgs::new("game_over")));
        }
        let side = self.free_side().ok_or_else(|| {
            Refusal::new(ErrorCode::MatchFull, "both seats of this match are taken")
                .with(ErrorArgs::new("both_seats_taken"))
        })?;
        if self.setup.rated {
            let creator = self.seat(side.opposite()).map(|seat| &seat.player);
            let terms = SeekTerms {
                rated: true,
                rating_range: self.setup.rating_range,
                creator_rating: creator.and_then(|p| p.rating).map(|r| i32::from(r.rating)),
            };
            // The same account on both seats is a game against oneself, from any device.
            let oneself = myself
                || creator.is_some_and(|p| p.account.is_some() && p.account == player.account);
            // A member whose rating could not be read plays at a new account's rating.
            let rating = player
                .account
                .map(|_| player.rating.map_or(1500, |r| i32::from(r.rating)));
            may_join(&terms, rating, oneself).map_err(|refusal| {
                Refusal::new(refusal.code(), refusal.to_string()).with(refusal.args())
            })?;
        }
        Ok((side, Record::joined(side, player, token)))
    }
}

#[cfg(test)]
mod tests {
    use boardcast_protocol::{Absence, BySide};

    use super::fixtures::{carry_out, opened, playing};
    use super::*;

    /// Plays a legal move of `side` (the first the position lists) arriving at `at` with
    /// round trip `lag_ms` counted; returns the clocks it left, its records added to `log`.
    fn lagged_move(
        state: &mut MatchState,
        log: &mut Vec<Record>,
        side: Side,
        ack: u64,
        lag_ms: u32,
        at: Instant,
    ) -> boardcast_protocol::ClockState {
        let route = state.position.legal_moves()[0]
            .route()
            .iter()
            .map(|sq| sq.number())
            .collect();
        let Ok(Decision::Events(records)) =
            state.decide(side, ack, &Action::Move { route, lag_ms }, at)
        else {
            panic!("the move is refused");
        };
        for record in &records {
            state.apply(record, at).unwrap();
        }
        let MatchEvent::Moved(moved) = &records[0].event else {
            panic!("not a move");
        };
        assert_eq!(
            moved.lag_ms,
            Some(lag_ms),
            "the round trip counted is shown"
        );
        let clock = moved.clock.unwrap();
        log.extend(records);
        clock
    }

    /// Berserk (issue 33, lila's rule): in an arena game a side gives up half its base time
    /// and its increment before its first move; the other side keeps both. Refused outside an
    /// arena, twice, and after one's first move; a replay of the stored records gives the
    /// same clocks, the increment still gone.
    #[test]
    fn berserk_halves_the_base_time_and_drops_the_increment_before_ones_first_move() {
        let ms = Duration::from_millis;
        let t0 = Instant::now();
        let tc = boardcast_protocol::TimeControl {
            initial_ms: 60_000,
            increment_ms: 2_000,
        };
        let ordinary = fixtures::playing_with(Some(tc), t0);
        let refused = ordinary.decide(Side::White, 1, &Action::Berserk, t0);
        assert_eq!(refused.unwrap_err().code, ErrorCode::NotAllowed);

        let mut state = fixtures::playing_with(Some(tc), t0);
        state.setup.berserk = true;
        let mut log = Vec::new();
        let Ok(Decision::Events(records)) = state.decide(Side::Black, 1, &Action::Berserk, t0)
        else {
            panic!("berserk is refused");
        };
        let MatchEvent::Berserked(berserked) = &records[0].event else {
            panic!("not berserk: {records:?}");
        };
        assert_eq!(berserked.side, Side::Black);
        assert_eq!(berserked.clock.black_ms, 30_000);
        assert_eq!(berserked.clock.white_ms, 60_000);
        for record in &records {
            state.apply(record, t0).unwrap();
        }
        log.extend(records);
        let twice = state.decide(Side::Black, 2, &Action::Berserk, t0);
        assert_eq!(twice.unwrap_err().code, ErrorCode::NotAllowed);
        assert_eq!(
            state.snapshot(t0, BySide::default()).berserk,
            Some(vec![Side::Black])
        );
        // The first moves run no clock; then White thinks 1 s, Black 3 s.
        lagged_move(&mut state, &mut log, Side::White, 1, 0, t0);
        lagged_move(&mut state, &mut log, Side::Black, 2, 0, t0);
        let after_white = lagged_move(&mut state, &mut log, Side::White, 2, 0, t0 + ms(1_000));
        assert_eq!(
            after_white.white_ms,
            60_000 - 1_000 + 2_000,
            "White keeps its increment"
        );
        let after_black = lagged_move(&mut state, &mut log, Side::Black, 3, 0, t0 + ms(4_000));
        assert_eq!(
            after_black.black_ms,
            30_000 - 3_000,
            "no increment once berserk"
        );
        // White has moved: too late to go berserk.
        let late = state.decide(Side::White, 3, &Action::Berserk, t0 + ms(4_000));
        assert_eq!(late.unwrap_err().code, ErrorCode::NotAllowed);

        let mut replayed = fixtures::playing_with(Some(tc), t0);
        replayed.setup.berserk = true;
        for record in &log {
            replayed.apply(record, t0 + ms(4_000)).unwrap();
        }
        let after = lagged_move(
            &mut replayed,
            &mut Vec::new(),
            Side::White,
            3,
            0,
            t0 + ms(5_000),
        );
        let again = lagged_move(
            &mut replayed,
            &mut Vec::new(),
            Side::Black,
            4,
            0,
            t0 + ms(6_000),
        );
        assert_eq!(after.white_ms, 61_000 - 1_000 + 2_000);
        assert_eq!(
            again.black_ms,
            27_000 - 1_000,
            "the replay drops the increment too"
        );
    }

    /// "+15 s" (issue 32): the opponent's clock goes up by 15 s and the running side runs on;
    /// refused in an untimed match, to an opponent who refuses it (until they take it
    /// back), and more often than once every 5 s.
    #[test]
    fn more_time_adds_15_s_to_the_opponent_within_its_limits() {
        let ms = Duration::from_millis;
        let t0 = Instant::now();
        let untimed = fixtures::playing(t0);
        let refusal = untimed.decide(Side::White, 1, &Action::MoreTime, t0);
        assert_eq!(refusal.unwrap_err().code, ErrorCode::NotAllowed);

        let tc = boardcast_protocol::TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut state = fixtures::playing_with(Some(tc), t0);
        let mut log = Vec::new();
        lagged_move(&mut state, &mut log, Side::White, 1, 0, t0);
        lagged_move(&mut state, &mut log, Side::Black, 1, 0, t0);
        // White thinks 2 s, Black gives White 15 s.
        let t1 = t0 + ms(2_000);
        let Ok(Decision::Events(records)) = state.decide(Side::Black, 2, &Action::MoreTime, t1)
        else {
            panic!("more time is refused");
        };
        let MatchEvent::MoreTimeGiven(given) = &records[0].event else {
            panic!("not more time: {records:?}");
        };
        assert_eq!(given.side, Side::White);
        assert_eq!(given.clock.white_ms, 60_000 - 2_000 + MORE_TIME_MS);
        assert_eq!(given.clock.black_ms, 60_000);
        assert_eq!(given.clock.running, Some(Side::White));
        for record in &records {
            state.apply(record, t1).unwrap();
        }
        let clock = state.clock.as_ref().unwrap();
        assert_eq!(clock.remaining(Side::White, t1 + ms(1_000)), ms(72_000));
        // Again within 5 s: rate-limited; after 5 s it is given again.
        let again = state.decide(Side::Black, 3, &Action::MoreTime, t1 + ms(4_000));
        assert_eq!(again.unwrap_err().code, ErrorCode::RateLimited);
        fixtures::carry_out(&mut state, Side::Black, 3, Action::MoreTime, t1 + ms(5_000));
        // White refuses more time: Black's next "+15 s" is refused, until White takes it back.
        fixtures::carry_out(&mut state, Side::White, 2, Action::RefuseMoreTime(true), t1);
        let t2 = t1 + ms(20_000);
        let refused = state.decide(Side::Black, 4, &Action::MoreTime, t2);
        assert_eq!(refused.unwrap_err().code, ErrorCode::NotAllowed);
        fixtures::carry_out(
            &mut state,
            Side::White,
            3,
            Action::RefuseMoreTime(false),
            t2,
        );
        fixtures::carry_out(&mut state, Side::Black, 4, Action::MoreTime, t2);
    }

    /// An illegal move's refusal carries its reason and arguments (PROTOCOL.md §12.1), so a
    /// client words it in the player's language: the squares, the example move and what each
    /// capture takes, as the rules crate found them.
    #[test]
    fn an_illegal_move_names_its_reason_and_arguments() {
        let refuse = |fen: &str, route: &[u8]| {
            let position = frisian::Position::from_fen(fen).unwrap();
            let squares: Vec<Square> = route.iter().map(|&n| Square::new(n).unwrap()).collect();
            let err = position.move_from_route(&squares).unwrap_err();
            let refusal = illegal(&err);
            assert_eq!(refusal.code, ErrorCode::IllegalMove);
            refusal.args.unwrap()
        };
        assert_eq!(
            refuse("W:W33,K45:B34,K29,10", &[33, 35]),
            ErrorArgs::new("lower_value")
                .number("kings", 0u32)
                .number("men", 1u32)
                .number("best_kings", 1u32)
                .number("best_men", 1u32)
                .word("example", "33x44")
        );
        assert_eq!(
            refuse("W:W31-50:B1-20", &[32, 21]),
            ErrorArgs::new("not_a_man_move")
                .number("from", 32u32)
                .number("to", 21u32)
        );
        assert_eq!(
            refuse("W:W33:B34", &[33, 28]),
            ErrorArgs::new("capture_compulsory").word("example", "33x35")
        );
        assert_eq!(
            refuse("W:W16,K50:B11,40", &[16, 7]),
            ErrorArgs::new("king_precedence").word("example", "50x10")
        );
        // Every reason given is one PROTOCOL.md documents.
        for args in [
            refuse("W:W31-50:B1-20", &[28, 23]),
            refuse("W:W31-50:B1-20", &[32, 37]),
            refuse("W:W33:B23,12", &[33, 13]),
        ] {
            assert!(
                boardcast_protocol::REASONS
                    .iter()
                    .any(|spec| spec.code == ErrorCode::IllegalMove && spec.reason == args.reason),
                "{args:?}"
            );
        }
    }

    /// The rules page's positions (`web/rules/positions.json`, shown on `/rules` and by
    /// `boardcast rules`) say only what the rules crate says: every move shown is legal and
    /// takes and crowns what the data says, every "only these moves" and every refusal (with
    /// the reason this server sends for it) is true, every result is the crate's; and every
    /// illegal-move reason has the section its "why?" link leads to.
    #[test]
    fn the_rules_page_positions_are_legal_and_their_claims_true() {
        use std::collections::BTreeSet;
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/rules/positions.json");
        let data: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let squares = |list: &serde_json::Value| -> BTreeSet<u64> {
            list.as_array()
                .map(|a| a.iter().map(|n| n.as_u64().unwrap()).collect())
                .unwrap_or_default()
        };
        let (mut ids, mut explained) = (BTreeSet::new(), Vec::new());
        for section in data["sections"].as_array().unwrap() {
            assert!(ids.insert(section["id"].as_str().unwrap()), "{section}");
            for reason in section["reasons"].as_array().unwrap() {
                explained.push(reason.as_str().unwrap());
            }
            for shown in section["positions"].as_array().unwrap() {
                let id = shown["id"].as_str().unwrap();
                assert!(ids.insert(id), "two positions named {id}");
                let mut position = frisian::Position::from_fen(shown["fen"].as_str().unwrap())
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
                for (i, step) in shown["steps"].as_array().unwrap().iter().enumerate() {
                    let at = format!("{id} step {i} ({})", position.fen());
                    let legal: BTreeSet<String> = position
                        .legal_moves_with_notation()
                        .into_iter()
                        .map(|(_, notation)| notation)
                        .collect();
                    if let Some(count) = step["count"].as_u64() {
                        assert_eq!(legal.len() as u64, count, "{at}: {legal:?}");
                    }
                    if let Some(only) = step["only"].as_array() {
                        let only: BTreeSet<String> = only
                            .iter()
                            .map(|m| m.as_str().unwrap().to_owned())
                            .collect();
                        assert_eq!(legal, only, "{at}");
                    }
                    for (notation, reason) in step["refused"].as_object().into_iter().flatten() {
                        let route: Vec<Square> = notation
                            .split(['-', 'x'])
                            .map(|n| Square::new(n.parse().unwrap()).unwrap())
                            .collect();
                        let error = position.move_from_route(&route).err();
                        let args = error.map(|e| illegal(&e).args.unwrap());
                        assert_eq!(
                            args.map(|a| a.reason),
                            reason.as_str().map(str::to_owned),
                            "{at}: {notation}"
                        );
                    }
                    let Some(play) = step["play"].as_str() else {
                        continue;
                    };
                    assert!(
                        position.status().outcome().is_none(),
                        "{at}: the game is over"
                    );
                    let mv = position
                        .parse_move(play)
                        .unwrap_or_else(|e| panic!("{at}: {play}: {e}"));
                    assert!(
                        legal.contains(play),
                        "{at}: {play} is not written so: {legal:?}"
                    );
                    let taken: BTreeSet<u64> = mv
                        .captures()
                        .iter()
                        .map(|s| u64::from(s.number()))
                        .collect();
                    assert_eq!(taken, squares(&step["takes"]), "{at}: {play} takes");
                    assert_eq!(
                        mv.promotes(),
                        step["crowns"].as_bool().unwrap_or(false),
                        "{at}: {play} crowns"
                    );
                    position = position.play(mv).unwrap();
                }
                if let Some(end) = shown["end"].as_str() {
                    assert_eq!(
                        position.status().result_word(),
                        end,
                        "{id}: {}",
                        position.fen()
                    );
                }
            }
        }
        // Every illegal-move reason leads to exactly one section, and only those do.
        let mut reasons: Vec<&str> = boardcast_protocol::REASONS
            .iter()
            .filter(|spec| spec.code == ErrorCode::IllegalMove)
            .map(|spec| spec.reason)
            .collect();
        reasons.sort_unstable();
        explained.sort_unstable();
        assert_eq!(explained, reasons);
    }

    /// Not your turn names the side to move.
    #[test]
    fn not_your_turn_names_the_side_to_move() {
        let now = Instant::now();
        let state = playing(now);
        let refused = state
            .decide(Side::Black, 1, &Action::play(vec![19, 23]), now)
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::NotYourTurn);
        assert_eq!(
            refused.args,
            Some(ErrorArgs::new("side_to_move").word("side", "white"))
        );
    }

    #[test]
    fn a_move_is_credited_its_round_trip_from_the_lag_quota() {
        let ms = Duration::from_millis;
        let t0 = Instant::now();
        let tc = boardcast_protocol::TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut state = fixtures::playing_with(Some(tc), t0);
        let mut log = Vec::new();
        // First moves are not charged, so nothing is credited or spent.
        lagged_move(&mut state, &mut log, Side::White, 1, 300, t0);
        lagged_move(&mut state, &mut log, Side::Black, 1, 300, t0);
        assert_eq!(state.lag_quota(Side::White), Some(ms(1_170)));
        // White's clock runs from t0; the move arrives 1.3 s later over a 300 ms round
        // trip: 1 s is charged, and the quota refills by more than it gave.
        let clock = lagged_move(&mut state, &mut log, Side::White, 2, 300, t0 + ms(1_300));
        assert_eq!(clock.white_ms, 59_000);
        assert_eq!(state.lag_quota(Side::White), Some(ms(1_260)));
        // A claim of 2 s (had the server believed it) gains no more than the quota left.
        let black_from = t0 + ms(1_300);
        let clock = lagged_move(
            &mut state,
            &mut log,
            Side::Black,
            2,
            2_000,
            black_from + ms(3_000),
        );
        assert_eq!(clock.black_ms, 60_000 - 3_000 + 1_170);
        assert_eq!(state.lag_quota(Side::Black), Some(ms(390)));
        // Replaying the stored events gives the same quotas: a restarted match credits the
        // next move as the live one would have.
        let mut replayed = fixtures::playing_with(Some(tc), t0);
        for record in log {
            let stored: Record = serde_json::from_str(&record.stored_form().unwrap()).unwrap();
            replayed.replay(stored, t0, 0).unwrap();
        }
        for side in [Side::White, Side::Black] {
            assert_eq!(replayed.lag_quota(side), state.lag_quota(side));
        }
    }

    #[test]
    fn ids_up_to_the_last_carried_out_are_duplicates_per_seat() {
        let now = Instant::now();
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 5, Action::play(vec![32, 28]), now);
        let again = state.decide(Side::White, 5, &Action::play(vec![32, 28]), now);
        assert_eq!(again, Ok(Decision::Duplicate));
        // An id below the last that was never carried out is stale, not a silent duplicate.
        let stale = state
            .decide(Side::White, 4, &Action::Resign, now)
            .unwrap_err();
        assert_eq!(
            (stale.code, stale.last_id),
            (ErrorCode::StaleId, Some(5)),
            "a stale id names the last id carried out as a field"
        );
        // Black's ids are its own.
        carry_out(&mut state, Side::Black, 5, Action::play(vec![19, 23]), now);
        assert_eq!(state.plies.len(), 2);
        // A refused action does not use up its id.
        let refused = state.decide(Side::White, 6, &Action::play(vec![31, 26, 21]), now);
        assert_eq!(refused.unwrap_err().code, ErrorCode::IllegalMove);
        assert!(matches!(
            state.decide(Side::White, 6, &Action::play(vec![28, 19]), now),
            Ok(Decision::Events(_))
        ));
    }

    #[test]
    fn a_claim_before_both_sides_moved_aborts_the_match() {
        let t0 = Instant::now();
        for moves in [0, 1] {
            let mut state = playing(t0);
            if moves == 1 {
                carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), t0);
            }
            let left = Record::new(MatchEvent::PlayerLeft(Absence {
                side: Side::Black,
                claim_in_ms: 0,
            }));
            state.apply(&left, t0).unwrap();
            carry_out(
                &mut state,
                Side::White,
                2,
                Action::Claim(ClaimKind::Win),
                t0,
            );
            let result = state.result().unwrap();
            assert_eq!(
                (result.winner, result.reason, result.detail.as_str()),
                (
                    None,
                    EndReason::Aborted,
                    "black left before both sides moved: aborted"
                ),
                "after {moves} moves"
            );
        }
    }

    #[test]
    fn a_claim_waits_for_the_grace_period_counted_on_the_absent_sides_turns() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        let mut state = opened(t0);
        // Black leaves while White (still here) is to move: the grace stands still.
        let left = Record::new(MatchEvent::PlayerLeft(Absence {
            side: Side::Black,
            claim_in_ms: 1_000,
        }));
        state.apply(&left, t0).unwrap();
        let claimable_in =
            |state: &MatchState, now| state.snapshot(now, BySide::default()).absent[0].claim_in_ms;
        assert_eq!(claimable_in(&state, t0 + s(60)), 1_000);
        let paused = state
            .decide(Side::White, 2, &Action::Claim(ClaimKind::Draw), t0 + s(60))
            .unwrap_err();
        assert_eq!(paused.code, ErrorCode::NotAllowed);
        assert!(
            paused.message.contains("stands still"),
            "{}",
            paused.message
        );
        // White moves after a minute's thought: now it runs, from the whole second.
        carry_out(
            &mut state,
            Side::White,
            2,
            Action::play(vec![28, 19]),
            t0 + s(60),
        );
        assert_eq!(claimable_in(&state, t0 + s(60) + ms(400)), 600);
        let early = state.decide(
            Side::White,
            3,
            &Action::Claim(ClaimKind::Draw),
            t0 + s(60) + ms(999),
        );
        assert_eq!(early.unwrap_err().code, ErrorCode::NotAllowed);
        carry_out(
            &mut state,
            Side::White,
            3,
            Action::Claim(ClaimKind::Draw),
            t0 + s(61),
        );
        let result = state.result().unwrap();
        assert_eq!(
            (result.winner, result.reason),
            (None, EndReason::DrawClaimed)
        );
        // The absent side cannot claim against the one who stayed.
        let mut state = opened(t0);
        state.apply(&left, t0).unwrap();
        let wrong = state.decide(
            Side::Black,
            2,
            &Action::Claim(ClaimKind::Win),
            t0 + Duration::from_secs(5),
        );
        assert_eq!(wrong.unwrap_err().code, ErrorCode::NotAllowed);
    }

    #[test]
    fn a_grace_that_ran_on_the_absent_sides_turn_stands_still_on_the_opponents() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut state = playing(t0);
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), t0);
        // Black leaves on its own turn: it runs.
        let left = Record::new(MatchEvent::PlayerLeft(Absence {
            side: Side::Black,
            claim_in_ms: 1_000,
        }));
        state.apply(&left, t0).unwrap();
        assert_eq!(
            state.snapshot(t0 + ms(300), BySide::default()).absent[0].claim_in_ms,
            700
        );
        // Black comes back, plays and leaves again on White's turn: a fresh grace, standing.
        state
            .apply(
                &Record::new(MatchEvent::PlayerReturned(Side::Black)),
                t0 + ms(300),
            )
            .unwrap();
        assert!(
            state
                .snapshot(t0 + ms(300), BySide::default())
                .absent
                .is_empty(),
            "back: no penalty"
        );
        carry_out(
            &mut state,
            Side::Black,
            1,
            Action::play(vec![19, 23]),
            t0 + ms(300),
        );
        state.apply(&left, t0 + ms(300)).unwrap();
        assert_eq!(
            state.snapshot(t0 + ms(5_000), BySide::default()).absent[0].claim_in_ms,
            1_000
        );
    }

    #[test]
    fn each_side_owes_a_first_move_within_the_timeout_and_then_nothing() {
        let t0 = Instant::now();
        let timeout = Duration::from_secs(30);
        let mut state = playing(t0);
        assert_eq!(state.first_move_deadline(timeout), Some(t0 + timeout));
        assert_eq!(
            state.first_move_missed(t0 + timeout - Duration::from_millis(1), timeout),
            None
        );
        let missed = state.first_move_missed(t0 + timeout, timeout).unwrap();
        let MatchEvent::Ended(result) = missed.event else {
            panic!("{missed:?}");
        };
        assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
        assert_eq!(result.detail, "white did not make a first move within 30 s");
        // Black's time for its first move starts with White's.
        let t1 = t0 + Duration::from_secs(10);
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), t1);
        assert_eq!(state.first_move_deadline(timeout), Some(t1 + timeout));
        carry_out(&mut state, Side::Black, 1, Action::play(vec![19, 23]), t1);
        assert_eq!(state.first_move_deadline(timeout), None);
        assert_eq!(state.first_move_missed(t1 + timeout * 10, timeout), None);
    }

    #[test]
    fn the_one_timeout_is_the_earliest_that_can_end_the_match_and_handles_only_what_is_due() {
        let t0 = Instant::now();
        let mut timeouts = Timeouts {
            first_move: Duration::from_secs(30),
            abandon_after: Duration::from_secs(10),
            unseated_since: None,
        };
        let mut state = playing(t0);
        assert_eq!(
            state.poll_timeout(&timeouts),
            Some(t0 + timeouts.first_move)
        );
        // Nobody seated since t0 + 5 s: abandonment comes before the missed first move.
        let since = t0 + Duration::from_secs(5);
        timeouts.unseated_since = Some(since);
        let due = since + timeouts.abandon_after;
        assert_eq!(state.poll_timeout(&timeouts), Some(due));
        let early = due - Duration::from_millis(1);
        assert_eq!(state.handle_timeout(early, &timeouts), None);
        let ended = state.handle_timeout(due, &timeouts).unwrap();
        let MatchEvent::Ended(result) = &ended.event else {
            panic!("{ended:?}");
        };
        assert_eq!(
            (result.reason, result.detail.as_str()),
            (EndReason::Aborted, "abandoned: nobody was seated for 10 s")
        );
        // Once over, nothing wakes it.
        state.apply(&ended, due).unwrap();
        assert_eq!(state.poll_timeout(&timeouts), None);
        assert_eq!(
            state.handle_timeout(due + Duration::from_secs(60), &timeouts),
            None
        );
    }

    #[test]
    fn only_the_opponent_can_accept_a_rematch_offer() {
        let now = Instant::now();
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 1, Action::Resign, now);
        carry_out(&mut state, Side::White, 2, Action::OfferRematch, now);
        let own = state
            .decide(Side::White, 3, &Action::AcceptRematch, now)
            .unwrap_err();
        assert_eq!(own.code, ErrorCode::NotAllowed);
        assert_eq!(
            own.message,
            "this rematch offer is your own: your opponent has to accept it"
        );
        // The offer still stands, and the opponent's acceptance starts the rematch.
        assert_eq!(
            state.decide(Side::Black, 1, &Action::AcceptRematch, now),
            Ok(Decision::StartRematch)
        );
    }

    #[test]
    fn an_abandoned_match_is_aborted_before_both_moved_and_undecided_after() {
        let now = Instant::now();
        let after = Duration::from_secs(600);
        let reason = |state: &MatchState| match state.abandoned(after).map(|r| r.event) {
            Some(MatchEvent::Ended(result)) => Some((result.winner, result.reason)),
            _ => None,
        };
        let mut state = playing(now);
        assert_eq!(reason(&state), Some((None, EndReason::Aborted)));
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), now);
        assert_eq!(reason(&state), Some((None, EndReason::Aborted)));
        carry_out(&mut state, Side::Black, 1, Action::play(vec![19, 23]), now);
        assert_eq!(reason(&state), Some((None, EndReason::Abandoned)));
        let record = state.abandoned(after).unwrap();
        state.apply(&record, now).unwrap();
        assert_eq!(state.result_token(), "*");
        assert_eq!(
            reason(&state),
            None,
            "a finished match is not abandoned again"
        );
    }
}

/// Matches in a known shape, for the tests of every part of the state machine.
#[cfg(test)]
pub(super) mod fixtures {
    use std::time::Instant;

    use super::Player;
    use boardcast_protocol::Side;

    use super::{Action, Decision};
    use crate::matches::record::{Record, Setup};
    use crate::matches::state::MatchState;

    /// A match with both seats taken and no move made.
    pub(crate) fn playing(now: Instant) -> MatchState {
        playing_with(None, now)
    }

    /// A match played with `time_control`, both seats taken and no move made.
    pub(crate) fn playing_with(
        time_control: Option<boardcast_protocol::TimeControl>,
        now: Instant,
    ) -> MatchState {
        let setup = Setup {
            time_control,
            public: false,
            rematch_of: None,
            start_fen: None,
            rated: false,
            rating_range: None,
            berserk: false,
            event: None,
        };
        let mut state = MatchState::new("m".into(), "CODE".into(), setup).unwrap();
        state
            .apply(
                &Record::joined(Side::White, &Player::person("w"), "tw".into()),
                now,
            )
            .unwrap();
        state
            .apply(
                &Record::joined(Side::Black, &Player::person("b"), "tb".into()),
                now,
            )
            .unwrap();
        state
    }

    /// A match in which each side has moved once.
    pub(crate) fn opened(now: Instant) -> MatchState {
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), now);
        carry_out(&mut state, Side::Black, 1, Action::play(vec![19, 23]), now);
        state
    }

    /// Decides `action` and applies its events; panics if it is refused.
    pub(crate) fn carry_out(
        state: &mut MatchState,
        side: Side,
        ack: u64,
        action: Action,
        now: Instant,
    ) {
        match state.decide(side, ack, &action, now).unwrap() {
            Decision::Events(records) => {
                for record in &records {
                    state.apply(record, now).unwrap();
                }
            }
            other => panic!("expected events, got {other:?}"),
        }
    }
}
