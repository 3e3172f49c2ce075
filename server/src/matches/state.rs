//! One match as a pure state machine: `decide` turns a command into events (or a typed
//! refusal) without changing anything; `apply` folds a committed event in. Recovery after a
//! restart is the same `apply` over the stored events, so live play and recovery cannot drift.

use std::time::{Duration, Instant};

use boardcast_protocol::{
    Absence, ClaimKind, ClockState, EndReason, ErrorCode, KingCounter, KingCounters, LegalMove,
    MatchEvent, MatchPhase, MatchResult, MatchSnapshot, MatchSummary, Moved, PlayedMove,
    PlayerInfo, PlayerJoined, Side, TimeControl,
};
use frisian::{Color, Move, MoveList, Outcome, Position, Square};
use serde::{Deserialize, Serialize};

use super::clock::{Clock, Flagged};
pub use crate::refusal::Refusal;
use crate::storage::Write;

/// What a match is created with; stored once as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub time_control: Option<TimeControl>,
    pub public: bool,
    /// The match this one is a rematch of.
    pub rematch_of: Option<String>,
    /// A start position other than the initial one, as FEN (set by operators and tests
    /// through storage; the lobby always starts from the initial position).
    #[serde(default)]
    pub start_fen: Option<String>,
}

/// One stored event: the event everybody sees plus what only the server keeps (the seat and
/// ack id of the action that caused it, the seat token of a player who joined). A move is
/// stored with an empty FEN and no legal moves; [`MatchState::replay`] derives them again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub event: MatchEvent,
    #[serde(default)]
    pub ack: Option<(Side, u64)>,
    #[serde(default)]
    pub token: Option<String>,
}

impl Record {
    pub fn new(event: MatchEvent) -> Self {
        Record {
            event,
            ack: None,
            token: None,
        }
    }
}

/// A [`MatchState`] as it was before some `apply`s: see [`MatchState::savepoint`].
#[derive(Debug)]
pub struct Savepoint {
    v: u64,
    seats: [Option<SeatHolder>; 2],
    position: Position,
    moves: usize,
    played: usize,
    carried_out: [usize; 2],
    clock: Option<Clock>,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    rematch: Option<String>,
    result: Option<MatchResult>,
    claim_at: [Option<Instant>; 2],
    started_ms: Option<i64>,
    first_move_since: Option<Instant>,
}

/// What a seated player asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Move(Vec<u8>),
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Abort,
    Claim(ClaimKind),
    OfferRematch,
    AcceptRematch,
    DeclineRematch,
}

/// What `decide` concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Commit these events, then acknowledge.
    Events(Vec<Record>),
    /// The same move with the same ack id was already applied: acknowledge again, change
    /// nothing.
    Duplicate,
    /// Both want a rematch: the actor creates it, then records
    /// [`MatchEvent::RematchStarted`].
    StartRematch,
}

/// A seated player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatHolder {
    pub token: String,
    pub name: String,
}

/// A match's whole state at version `v`.
#[derive(Debug, Clone)]
pub struct MatchState {
    pub id: String,
    pub invite: String,
    pub setup: Setup,
    pub v: u64,
    seats: [Option<SeatHolder>; 2],
    start: Position,
    position: Position,
    moves: Vec<PlayedMove>,
    /// The same moves as the rules see them, for PDN.
    played: Vec<Move>,
    /// The ack ids of the actions each side has carried out, ascending (ids increase per
    /// seat): an action re-sent with one of them is a duplicate, any other id up to the last
    /// one is stale.
    carried_out: [Vec<u64>; 2],
    clock: Option<Clock>,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    rematch: Option<String>,
    result: Option<MatchResult>,
    /// When each absent side's opponent may claim.
    claim_at: [Option<Instant>; 2],
    /// When both seats were first taken (Unix milliseconds, from the stored event), for PDN.
    started_ms: Option<i64>,
    /// Since when the side to move owes its first move (White from the start, Black from
    /// White's first move; restarted by a server restart): `None` once both have moved.
    first_move_since: Option<Instant>,
}

fn idx(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

pub fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

fn squares(route: &[u8]) -> Result<Vec<Square>, Refusal> {
    route
        .iter()
        .map(|&n| {
            Square::new(n).ok_or_else(|| {
                Refusal::new(
                    ErrorCode::InvalidArgument,
                    format!("route: {n} is not a square (1 to 50)"),
                )
            })
        })
        .collect()
}

fn route_numbers(mv: &Move) -> Vec<u8> {
    mv.route().iter().map(|sq| sq.number()).collect()
}

fn capture_numbers(mv: &Move) -> Vec<u8> {
    mv.captures().iter().map(|sq| sq.number()).collect()
}

/// The legal moves of `position` as the wire lists them: sorted by route, square numbers
/// compared one by one (then by captures), so the order never depends on move generation.
pub fn legal_moves(position: &Position) -> Vec<LegalMove> {
    let mut moves: Vec<LegalMove> = position
        .legal_moves_with_notation()
        .into_iter()
        .map(|(mv, notation)| LegalMove {
            notation,
            route: route_numbers(&mv),
            captures: capture_numbers(&mv),
        })
        .collect();
    moves.sort_unstable_by(|a, b| (&a.route, &a.captures).cmp(&(&b.route, &b.captures)));
    moves
}

fn king_counters(position: &Position) -> KingCounters {
    let counter = |color| {
        position
            .king_counter(color)
            .map(|(count, square)| KingCounter {
                count,
                square: square.number(),
            })
    };
    KingCounters {
        white: counter(Color::White),
        black: counter(Color::Black),
    }
}

/// The result the rules give for `outcome`.
pub fn rules_result(outcome: Outcome) -> MatchResult {
    match outcome {
        Outcome::Decisive { winner, .. } => MatchResult {
            winner: Some(side_of(winner)),
            reason: EndReason::NoLegalMove,
            detail: outcome.to_string(),
        },
        Outcome::Draw { .. } => MatchResult {
            winner: None,
            reason: EndReason::DrawByRule,
            detail: outcome.to_string(),
        },
    }
}

fn ended(winner: Option<Side>, reason: EndReason, detail: String) -> Record {
    Record::new(MatchEvent::Ended(MatchResult {
        winner,
        reason,
        detail,
    }))
}

/// The UTC date (`2026.11.24`) and time (`19:05:00`) of Unix time `ms`, as PDN writes them.
fn utc_date_time(ms: i64) -> Option<(String, String)> {
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()?;
    Some((
        format!(
            "{:04}.{:02}.{:02}",
            at.year(),
            u8::from(at.month()),
            at.day()
        ),
        format!("{:02}:{:02}:{:02}", at.hour(), at.minute(), at.second()),
    ))
}

/// Milliseconds as PDN's seconds: `300`, or `2.5` when not whole.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
            .trim_end_matches('0')
            .to_owned()
    }
}

/// The record of a player taking `side` with seat `token`.
pub fn joined(side: Side, name: &str, token: String) -> Record {
    Record {
        event: MatchEvent::PlayerJoined(PlayerJoined {
            side,
            name: name.to_owned(),
            bot: false,
        }),
        ack: None,
        token: Some(token),
    }
}

fn illegal(message: String) -> Refusal {
    let message = if message.starts_with("illegal move") {
        message
    } else {
        format!("illegal move: {message}")
    };
    Refusal::new(ErrorCode::IllegalMove, message)
}

impl MatchState {
    /// A match nobody has joined yet; refuses a set-up whose start FEN does not parse.
    pub fn new(id: String, invite: String, setup: Setup) -> Result<Self, String> {
        let start = match &setup.start_fen {
            Some(fen) => Position::from_fen(fen).map_err(|err| format!("start FEN: {err}"))?,
            None => Position::start(),
        };
        Ok(MatchState {
            id,
            invite,
            setup,
            v: 0,
            seats: [None, None],
            start,
            position: start,
            moves: Vec::new(),
            played: Vec::new(),
            carried_out: [Vec::new(), Vec::new()],
            clock: None,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            result: None,
            claim_at: [None, None],
            started_ms: None,
            first_move_since: None,
        })
    }

    pub fn phase(&self) -> MatchPhase {
        if self.result.is_some() {
            MatchPhase::Finished
        } else if self.seats.iter().all(Option::is_some) {
            MatchPhase::Playing
        } else {
            MatchPhase::Waiting
        }
    }

    pub fn seat(&self, side: Side) -> Option<&SeatHolder> {
        self.seats[idx(side)].as_ref()
    }

    /// The side a token holds, if it is one of this match's seat tokens.
    pub fn side_of_token(&self, token: &str) -> Option<Side> {
        [Side::White, Side::Black]
            .into_iter()
            .find(|&side| self.seat(side).is_some_and(|seat| seat.token == token))
    }

    /// The free seat, if any.
    pub fn free_side(&self) -> Option<Side> {
        [Side::White, Side::Black]
            .into_iter()
            .find(|&side| self.seat(side).is_none())
    }

    pub fn result(&self) -> Option<&MatchResult> {
        self.result.as_ref()
    }

    pub fn rematch(&self) -> Option<&str> {
        self.rematch.as_deref()
    }

    /// When the running clock runs out, if a clock runs.
    pub fn flag_deadline(&self) -> Option<Instant> {
        if self.result.is_some() {
            return None;
        }
        self.clock.as_ref().and_then(Clock::deadline)
    }

    /// The time forfeit due at `now`, if the side to move has run out of time.
    pub fn flag(&self, now: Instant) -> Option<Record> {
        if self.result.is_some() {
            return None;
        }
        let loser = self.clock.as_ref()?.flagged(now)?;
        Some(ended(
            Some(loser.opposite()),
            EndReason::TimeForfeit,
            format!("{loser} ran out of time"),
        ))
    }

    /// When the side to move must have made its first move, given `timeout`.
    pub fn first_move_deadline(&self, timeout: Duration) -> Option<Instant> {
        if self.result.is_some() {
            return None;
        }
        self.first_move_since.map(|since| since + timeout)
    }

    /// The abort due at `now` if the side to move has not made its first move in `timeout`.
    pub fn first_move_missed(&self, now: Instant, timeout: Duration) -> Option<Record> {
        let deadline = self.first_move_deadline(timeout)?;
        if now < deadline {
            return None;
        }
        let late = side_of(self.position.turn());
        Some(ended(
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
    pub fn abandoned(&self, after: Duration) -> Option<Record> {
        if self.result.is_some() {
            return None;
        }
        let detail = format!("abandoned: nobody was seated for {} s", after.as_secs_f64());
        let both_moved = self.has_moved(Side::White) && self.has_moved(Side::Black);
        Some(if both_moved && self.phase() == MatchPhase::Playing {
            ended(None, EndReason::Abandoned, detail)
        } else {
            ended(None, EndReason::Aborted, detail)
        })
    }

    /// Whether `side` has made at least one move.
    fn has_moved(&self, side: Side) -> bool {
        self.moves.iter().any(|m| m.side == side)
    }

    /// The events a seated `side` causes with `action` (ack id `ack`) at `now`, or why not.
    pub fn decide(
        &self,
        side: Side,
        ack: u64,
        action: &Action,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let carried_out = &self.carried_out[idx(side)];
        if let Some(&last) = carried_out.last()
            && ack <= last
        {
            if carried_out.binary_search(&ack).is_ok() {
                return Ok(Decision::Duplicate);
            }
            return Err(Refusal::new(
                ErrorCode::StaleId,
                format!(
                    "id {ack} is not above {last}, the last id carried out for your seat: \
                     match actions need ids that increase per seat, across reconnects"
                ),
            ));
        }
        let over = || {
            Refusal::new(
                ErrorCode::GameOver,
                match &self.result {
                    Some(result) => format!("the match is over: {}", result.detail),
                    None => "the match is over".to_owned(),
                },
            )
        };
        let playing = || match self.phase() {
            MatchPhase::Playing => Ok(()),
            MatchPhase::Waiting => Err(Refusal::new(
                ErrorCode::NotAllowed,
                "the match has not started: waiting for an opponent",
            )),
            MatchPhase::Finished => Err(over()),
        };
        let opponent = side.opposite();
        let mut events = match action {
            Action::Move(route) => {
                playing()?;
                self.decide_move(side, route, now)?
            }
            Action::Resign => {
                playing()?;
                vec![ended(
                    Some(opponent),
                    EndReason::Resignation,
                    format!("{side} resigned"),
                )]
            }
            Action::OfferDraw => {
                playing()?;
                match self.draw_offer {
                    Some(offerer) if offerer == side => {
                        return Err(Refusal::new(
                            ErrorCode::NotAllowed,
                            "your draw offer already stands",
                        ));
                    }
                    // Offering back what the opponent offered is agreeing.
                    Some(_) => vec![ended(
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
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        "there is no draw offer from your opponent",
                    ));
                }
                if *action == Action::AcceptDraw {
                    vec![ended(
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
                if self.has_moved(Side::White) && self.has_moved(Side::Black) {
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        "a match can be aborted only before each side has moved",
                    ));
                }
                vec![ended(
                    None,
                    EndReason::Aborted,
                    format!("aborted by {side}"),
                )]
            }
            Action::Claim(kind) => {
                playing()?;
                match self.claim_at[idx(opponent)] {
                    None => {
                        return Err(Refusal::new(
                            ErrorCode::NotAllowed,
                            "your opponent is connected: nothing to claim",
                        ));
                    }
                    Some(at) if now < at => {
                        let left = at.saturating_duration_since(now);
                        return Err(Refusal::new(
                            ErrorCode::NotAllowed,
                            format!(
                                "your opponent may still come back: claim in {:.1} s",
                                left.as_secs_f64()
                            ),
                        ));
                    }
                    // A match that could still be aborted has no game in it to win or draw:
                    // the claim aborts it, as the player could have done themselves.
                    Some(_) if !(self.has_moved(Side::White) && self.has_moved(Side::Black)) => {
                        vec![ended(
                            None,
                            EndReason::Aborted,
                            format!("{opponent} left before both sides moved: aborted"),
                        )]
                    }
                    Some(_) => match kind {
                        ClaimKind::Win => vec![ended(
                            Some(side),
                            EndReason::Abandoned,
                            format!("{opponent} left the match"),
                        )],
                        ClaimKind::Draw => vec![ended(
                            None,
                            EndReason::DrawClaimed,
                            format!("{opponent} left the match; draw claimed"),
                        )],
                    },
                }
            }
            Action::OfferRematch | Action::AcceptRematch | Action::DeclineRematch => {
                if self.result.is_none() {
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        "a rematch can be offered only once the match is over",
                    ));
                }
                if let Some(id) = &self.rematch {
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        format!("the rematch already exists: {id}"),
                    ));
                }
                if self.seat(opponent).is_none() {
                    return Err(Refusal::new(
                        ErrorCode::NotAllowed,
                        "there was no opponent to play again",
                    ));
                }
                match (action, self.rematch_offer) {
                    (Action::OfferRematch, Some(offerer)) if offerer == side => {
                        return Err(Refusal::new(
                            ErrorCode::NotAllowed,
                            "your rematch offer already stands",
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
                        return Err(Refusal::new(
                            ErrorCode::NotAllowed,
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

    fn decide_move(&self, side: Side, route: &[u8], now: Instant) -> Result<Vec<Record>, Refusal> {
        if side_of(self.position.turn()) != side {
            return Err(Refusal::new(
                ErrorCode::NotYourTurn,
                format!("not your turn: {} to move", side.opposite()),
            ));
        }
        let squares = squares(route)?;
        // One generation of the legal moves resolves, writes and plays the move.
        let mut legal = MoveList::new();
        self.position.legal_moves_into(&mut legal);
        let mv = self
            .position
            .move_from_route_in(&squares, &legal)
            .map_err(|err| illegal(err.to_string()))?;
        let clock = match &self.clock {
            // A player's clock does not run before that player's first move.
            Some(clock) if !self.has_moved(side) => Some(clock.after_first_move(side, now)),
            Some(clock) => match clock.after_move(side, now) {
                Ok(state) => Some(state),
                Err(Flagged(_)) => {
                    return Err(Refusal::new(ErrorCode::GameOver, "your time ran out"));
                }
            },
            None => None,
        };
        let notation = self.position.notation_in(mv, &legal);
        let after = self
            .position
            .play_in(mv, &legal)
            .map_err(|err| illegal(err.error().to_string()))?;
        let outcome = after.status().outcome();
        let clock = clock.map(|state| ClockState {
            running: if outcome.is_some() {
                None
            } else {
                state.running
            },
            ..state
        });
        let played = PlayedMove {
            ply: self.moves.len() as u32,
            side,
            notation,
            route: route_numbers(&mv),
            captures: capture_numbers(&mv),
            promotes: mv.promotes(),
        };
        let mut records = vec![Record::new(MatchEvent::Moved(Moved {
            played,
            fen: after.fen(),
            clock,
            legal_moves: if outcome.is_some() {
                Vec::new()
            } else {
                legal_moves(&after)
            },
            king_counters: king_counters(&after),
        }))];
        if self.draw_offer.is_some() {
            records.push(Record::new(MatchEvent::DrawOfferCancelled));
        }
        if let Some(outcome) = outcome {
            records.push(Record::new(MatchEvent::Ended(rules_result(outcome))));
        }
        Ok(records)
    }

    /// The events of a new player taking the free seat.
    pub fn decide_join(&self, name: &str, token: String) -> Result<(Side, Record), Refusal> {
        if self.result.is_some() {
            return Err(Refusal::new(ErrorCode::GameOver, "the match is over"));
        }
        let side = self.free_side().ok_or_else(|| {
            Refusal::new(ErrorCode::MatchFull, "both seats of this match are taken")
        })?;
        Ok((side, joined(side, name, token)))
    }

    /// Folds a committed event in at `now`; returns why if the event does not fit (a
    /// corrupted store), leaving the state as it was.
    pub fn apply(&mut self, record: &Record, now: Instant) -> Result<(), String> {
        match &record.event {
            MatchEvent::PlayerJoined(joined) => {
                let token = record
                    .token
                    .clone()
                    .ok_or("a joined player without a seat token")?;
                self.seats[idx(joined.side)] = Some(SeatHolder {
                    token,
                    name: joined.name.clone(),
                });
                if self.phase() == MatchPhase::Playing {
                    // No clock runs yet: each side's starts after its first move.
                    self.clock = self.setup.time_control.map(Clock::new);
                    self.first_move_since = self.moves.is_empty().then_some(now);
                }
            }
            MatchEvent::Moved(moved) => {
                let squares = squares(&moved.played.route).map_err(|r| r.message)?;
                let mut legal = MoveList::new();
                self.position.legal_moves_into(&mut legal);
                let mv = self
                    .position
                    .move_from_route_in(&squares, &legal)
                    .map_err(|err| format!("stored move does not replay: {err}"))?;
                self.position = self
                    .position
                    .play_in(mv, &legal)
                    .map_err(|err| format!("stored move does not replay: {err}"))?;
                if let (Some(clock), Some(state)) = (&mut self.clock, moved.clock) {
                    clock.set(state, now);
                }
                self.moves.push(moved.played.clone());
                self.played.push(mv);
                self.first_move_since = (self.moves.len() < 2).then_some(now);
            }
            MatchEvent::DrawOffered(side) => self.draw_offer = Some(*side),
            MatchEvent::DrawDeclined(_) | MatchEvent::DrawOfferCancelled => self.draw_offer = None,
            MatchEvent::PlayerLeft(absence) => {
                self.claim_at[idx(absence.side)] =
                    Some(now + Duration::from_millis(absence.claim_in_ms));
            }
            MatchEvent::PlayerReturned(side) => self.claim_at[idx(*side)] = None,
            MatchEvent::Ended(result) => {
                if let Some(clock) = &mut self.clock {
                    clock.stop(now);
                }
                self.draw_offer = None;
                self.claim_at = [None, None];
                self.first_move_since = None;
                self.result = Some(result.clone());
            }
            MatchEvent::RematchOffered(side) => self.rematch_offer = Some(*side),
            MatchEvent::RematchDeclined(_) => self.rematch_offer = None,
            MatchEvent::RematchStarted(id) => {
                self.rematch_offer = None;
                self.rematch = Some(id.clone());
            }
        }
        if let Some((side, ack)) = record.ack {
            let carried_out = &mut self.carried_out[idx(side)];
            if carried_out.last().is_none_or(|&last| ack > last) {
                carried_out.push(ack);
            }
        }
        self.v += 1;
        Ok(())
    }

    /// Notes when the match started, from the time (`at_ms`) of the event that took the
    /// second seat.
    fn stamp(&mut self, at_ms: i64) {
        if self.started_ms.is_none() && self.seats.iter().all(Option::is_some) {
            self.started_ms = Some(at_ms);
        }
    }

    /// Folds a stored `record` in at `now` at Unix time `at_ms` (like `apply`) and returns it as it was first
    /// sent: a stored move leaves out the FEN and the legal moves after it, which are filled
    /// in here from the position the move led to.
    pub fn replay(
        &mut self,
        mut record: Record,
        now: Instant,
        at_ms: i64,
    ) -> Result<Record, String> {
        self.apply(&record, now)?;
        self.stamp(at_ms);
        if let MatchEvent::Moved(moved) = &mut record.event {
            moved.fen = self.position.fen();
            moved.legal_moves = if self.position.status().outcome().is_some() {
                Vec::new()
            } else {
                legal_moves(&self.position)
            };
            moved.king_counters = king_counters(&self.position);
        }
        Ok(record)
    }

    /// Folds a new `record` in at `now` and returns the write that stores it as the event of
    /// the new version.
    pub fn apply_new(
        &mut self,
        record: &Record,
        now: Instant,
        at_ms: i64,
    ) -> Result<Write, String> {
        self.apply(record, now)?;
        self.stamp(at_ms);
        let body = match &record.event {
            // What replay derives from the position is not stored (see `replay`).
            MatchEvent::Moved(moved) => serde_json::to_string(&Record {
                event: MatchEvent::Moved(Moved {
                    played: moved.played.clone(),
                    fen: String::new(),
                    clock: moved.clock,
                    legal_moves: Vec::new(),
                    king_counters: moved.king_counters,
                }),
                ack: record.ack,
                token: record.token.clone(),
            }),
            _ => serde_json::to_string(record),
        }
        .map_err(|err| err.to_string())?;
        Ok(Write::Event {
            match_id: self.id.clone(),
            v: self.v,
            at_ms,
            body,
        })
    }

    /// What `apply` may change, saved cheaply (the move lists only grow, so their lengths
    /// suffice): [`MatchState::restore`] puts the state back as it was.
    pub fn savepoint(&self) -> Savepoint {
        // Destructured in full so a new field cannot be forgotten here.
        let MatchState {
            id: _,
            invite: _,
            setup: _,
            v,
            seats,
            start: _,
            position,
            moves,
            played,
            carried_out,
            clock,
            draw_offer,
            rematch_offer,
            rematch,
            result,
            claim_at,
            started_ms,
            first_move_since,
        } = self;
        Savepoint {
            v: *v,
            seats: seats.clone(),
            position: *position,
            moves: moves.len(),
            played: played.len(),
            carried_out: carried_out.each_ref().map(Vec::len),
            clock: clock.clone(),
            draw_offer: *draw_offer,
            rematch_offer: *rematch_offer,
            rematch: rematch.clone(),
            result: result.clone(),
            claim_at: *claim_at,
            started_ms: *started_ms,
            first_move_since: *first_move_since,
        }
    }

    /// Undoes every `apply` since `savepoint` was taken.
    pub fn restore(&mut self, savepoint: Savepoint) {
        let Savepoint {
            v,
            seats,
            position,
            moves,
            played,
            carried_out,
            clock,
            draw_offer,
            rematch_offer,
            rematch,
            result,
            claim_at,
            started_ms,
            first_move_since,
        } = savepoint;
        self.v = v;
        self.seats = seats;
        self.position = position;
        self.moves.truncate(moves);
        self.played.truncate(played);
        for (ids, len) in self.carried_out.iter_mut().zip(carried_out) {
            ids.truncate(len);
        }
        self.clock = clock;
        self.draw_offer = draw_offer;
        self.rematch_offer = rematch_offer;
        self.rematch = rematch;
        self.result = result;
        self.claim_at = claim_at;
        self.started_ms = started_ms;
        self.first_move_since = first_move_since;
    }

    /// Whether `side` is marked absent.
    pub fn is_absent(&self, side: Side) -> bool {
        self.claim_at[idx(side)].is_some()
    }

    /// The match as a snapshot at `now`; `connected` tells which seats a connection holds.
    pub fn snapshot(&self, now: Instant, connected: [bool; 2]) -> MatchSnapshot {
        let player = |side: Side| {
            self.seat(side).map(|seat| PlayerInfo {
                name: seat.name.clone(),
                connected: connected[idx(side)],
                bot: false,
            })
        };
        let playing = self.phase() == MatchPhase::Playing;
        MatchSnapshot {
            match_id: self.id.clone(),
            v: self.v,
            white: player(Side::White),
            black: player(Side::Black),
            time_control: self.setup.time_control,
            public: self.setup.public,
            phase: self.phase(),
            start_fen: self.start.fen(),
            fen: self.position.fen(),
            moves: self.moves.clone(),
            turn: side_of(self.position.turn()),
            clock: self.clock.as_ref().map(|clock| clock.state(now)),
            legal_moves: if playing {
                legal_moves(&self.position)
            } else {
                Vec::new()
            },
            king_counters: king_counters(&self.position),
            draw_offer: self.draw_offer,
            rematch_offer: self.rematch_offer,
            absent: [Side::White, Side::Black]
                .into_iter()
                .filter_map(|side| {
                    self.claim_at[idx(side)].map(|at| Absence {
                        side,
                        claim_in_ms: at.saturating_duration_since(now).as_millis() as u64,
                    })
                })
                .collect(),
            result: self.result.clone(),
            rematch: self.rematch.clone(),
        }
    }

    /// The PDN result: `2-0`, `0-2`, `1-1`, or `*` while going on, after an abort, or when
    /// both players abandoned it (no result).
    pub fn result_token(&self) -> &'static str {
        match &self.result {
            Some(result)
                if result.reason == EndReason::Aborted
                    || (result.reason == EndReason::Abandoned && result.winner.is_none()) =>
            {
                "*"
            }
            Some(result) => match result.winner {
                Some(Side::White) => "2-0",
                Some(Side::Black) => "0-2",
                None => "1-1",
            },
            None => "*",
        }
    }

    /// The game as PDN, with the players and the server's result.
    pub fn pdn(&self) -> Result<String, String> {
        let game = frisian::pdn::export(&self.start, &self.played, Some(self.result_token()))
            .map_err(|err| err.to_string())?;
        let name = |side| {
            self.seat(side)
                .map(|seat| seat.name.replace(['"', '\\'], ""))
                .unwrap_or_else(|| "?".into())
        };
        let (date, time) = self
            .started_ms
            .and_then(utc_date_time)
            .unwrap_or_else(|| ("????.??.??".into(), "??:??:??".into()));
        let time_control = match self.setup.time_control {
            Some(tc) => format!("{}+{}", seconds(tc.initial_ms), seconds(tc.increment_ms)),
            None => "-".into(),
        };
        let mut tags = format!(
            "[Event \"Boardcast match {}\"]\n[Site \"Boardcast\"]\n[Date \"{date}\"]\n\
             [Time \"{time}\"]\n[White \"{}\"]\n[Black \"{}\"]\n[TimeControl \"{time_control}\"]\n",
            self.id,
            name(Side::White),
            name(Side::Black)
        );
        if let Some(result) = &self.result {
            tags.push_str(&format!(
                "[Termination \"{}\"]\n",
                result.detail.replace(['"', '\\'], "")
            ));
        }
        Ok(tags + &game)
    }

    /// The lobby line for this match.
    pub fn summary(&self, watchers: u32) -> MatchSummary {
        MatchSummary {
            match_id: self.id.clone(),
            white: self.seat(Side::White).map(|s| s.name.clone()),
            black: self.seat(Side::Black).map(|s| s.name.clone()),
            time_control: self.setup.time_control,
            phase: self.phase(),
            plies: self.moves.len() as u32,
            watchers,
            white_bot: false,
            black_bot: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn playing(now: Instant) -> MatchState {
        let setup = Setup {
            time_control: None,
            public: false,
            rematch_of: None,
            start_fen: None,
        };
        let mut state = MatchState::new("m".into(), "CODE".into(), setup).unwrap();
        state
            .apply(&joined(Side::White, "w", "tw".into()), now)
            .unwrap();
        state
            .apply(&joined(Side::Black, "b", "tb".into()), now)
            .unwrap();
        state
    }

    fn carry_out(state: &mut MatchState, side: Side, ack: u64, action: Action, now: Instant) {
        match state.decide(side, ack, &action, now).unwrap() {
            Decision::Events(records) => {
                for record in &records {
                    state.apply(record, now).unwrap();
                }
            }
            other => panic!("expected events, got {other:?}"),
        }
    }

    #[test]
    fn ids_up_to_the_last_carried_out_are_duplicates_per_seat() {
        let now = Instant::now();
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 5, Action::Move(vec![32, 28]), now);
        let again = state.decide(Side::White, 5, &Action::Move(vec![32, 28]), now);
        assert_eq!(again, Ok(Decision::Duplicate));
        // An id below the last that was never carried out is stale, not a silent duplicate.
        assert_eq!(
            state
                .decide(Side::White, 4, &Action::Resign, now)
                .unwrap_err()
                .code,
            ErrorCode::StaleId
        );
        // Black's ids are its own.
        carry_out(&mut state, Side::Black, 5, Action::Move(vec![19, 23]), now);
        assert_eq!(state.moves.len(), 2);
        // A refused action does not use up its id.
        let refused = state.decide(Side::White, 6, &Action::Move(vec![31, 26, 21]), now);
        assert_eq!(refused.unwrap_err().code, ErrorCode::IllegalMove);
        assert!(matches!(
            state.decide(Side::White, 6, &Action::Move(vec![28, 19]), now),
            Ok(Decision::Events(_))
        ));
    }

    /// A match in which each side has moved once.
    fn opened(now: Instant) -> MatchState {
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 1, Action::Move(vec![32, 28]), now);
        carry_out(&mut state, Side::Black, 1, Action::Move(vec![19, 23]), now);
        state
    }

    #[test]
    fn a_claim_before_both_sides_moved_aborts_the_match() {
        let t0 = Instant::now();
        for moves in [0, 1] {
            let mut state = playing(t0);
            if moves == 1 {
                carry_out(&mut state, Side::White, 1, Action::Move(vec![32, 28]), t0);
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
    fn a_claim_waits_for_the_grace_period() {
        let t0 = Instant::now();
        let mut state = opened(t0);
        let left = Record::new(MatchEvent::PlayerLeft(Absence {
            side: Side::Black,
            claim_in_ms: 1_000,
        }));
        state.apply(&left, t0).unwrap();
        let early = state.decide(
            Side::White,
            2,
            &Action::Claim(ClaimKind::Draw),
            t0 + Duration::from_millis(999),
        );
        assert_eq!(early.unwrap_err().code, ErrorCode::NotAllowed);
        carry_out(
            &mut state,
            Side::White,
            2,
            Action::Claim(ClaimKind::Draw),
            t0 + Duration::from_millis(1_000),
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
    fn replaying_the_stored_records_gives_the_same_match() {
        let now = Instant::now();
        let mut live = playing(now);
        let mut records = vec![
            joined(Side::White, "w", "tw".into()),
            joined(Side::Black, "b", "tb".into()),
        ];
        for (side, ack, action) in [
            (Side::White, 1, Action::Move(vec![32, 28])),
            (Side::Black, 1, Action::OfferDraw),
            (Side::Black, 2, Action::Move(vec![19, 23])),
            (Side::White, 2, Action::Move(vec![28, 19])),
        ] {
            let Ok(Decision::Events(new)) = live.decide(side, ack, &action, now) else {
                panic!("{action:?} refused");
            };
            for record in &new {
                live.apply(record, now).unwrap();
            }
            records.extend(new);
        }
        let mut replayed = MatchState::new("m".into(), "CODE".into(), live.setup.clone()).unwrap();
        let mut stored = MatchState::new("m".into(), "CODE".into(), live.setup.clone()).unwrap();
        for record in &records {
            // What is stored (without the derivable FEN and legal moves) replays to the
            // record as it was sent.
            let Write::Event { body, .. } = stored.apply_new(record, now, 0).unwrap() else {
                panic!("not an event write");
            };
            assert!(!body.contains("legal_moves\":[{"), "{body}");
            let back = replayed
                .replay(serde_json::from_str(&body).unwrap(), now, 0)
                .unwrap();
            assert_eq!(&back, record);
        }
        assert_eq!(
            replayed.snapshot(now, [false, false]),
            live.snapshot(now, [false, false])
        );
        assert_eq!(replayed.carried_out, [vec![1, 2], vec![1, 2]]);
        assert_eq!(replayed.draw_offer, None, "the move cancelled the offer");
    }

    #[test]
    fn restoring_a_savepoint_undoes_applied_records() {
        let now = Instant::now();
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 1, Action::OfferDraw, now);
        let before = state.snapshot(now, [true, true]);
        let savepoint = state.savepoint();
        let Ok(Decision::Events(records)) =
            state.decide(Side::White, 2, &Action::Move(vec![32, 28]), now)
        else {
            panic!("move refused");
        };
        assert_eq!(records.len(), 2, "the move cancels the draw offer");
        for record in &records {
            state.apply(record, now).unwrap();
        }
        carry_out(&mut state, Side::Black, 1, Action::Resign, now);
        assert!(state.result().is_some());
        state.restore(savepoint);
        assert_eq!(state.snapshot(now, [true, true]), before);
        assert_eq!(
            (state.carried_out.clone(), state.played.len()),
            ([vec![1], vec![]], 0)
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
        carry_out(&mut state, Side::White, 1, Action::Move(vec![32, 28]), t1);
        assert_eq!(state.first_move_deadline(timeout), Some(t1 + timeout));
        carry_out(&mut state, Side::Black, 1, Action::Move(vec![19, 23]), t1);
        assert_eq!(state.first_move_deadline(timeout), None);
        assert_eq!(state.first_move_missed(t1 + timeout * 10, timeout), None);
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
        carry_out(&mut state, Side::White, 1, Action::Move(vec![32, 28]), now);
        assert_eq!(reason(&state), Some((None, EndReason::Aborted)));
        carry_out(&mut state, Side::Black, 1, Action::Move(vec![19, 23]), now);
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
