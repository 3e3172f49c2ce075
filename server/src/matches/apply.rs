//! Folding committed events into a match: [`MatchState::apply`] for live play and for
//! recovery alike, [`MatchState::replay`] for a stored event (which also gives the event back
//! as it was first sent), and savepoints that undo `apply`s whose commit failed.

use std::time::{Duration, Instant};

use boardcast_protocol::{BySide, MatchEvent, MatchPhase, MatchResult, Side, TakenBack};
use frisian::{MoveError, MoveList, Position};

use super::acks::{AckIds, AckIdsMark};
use super::clock::Clock;
use super::decide::squares;
use super::grace::GraceCountdown;
use super::lag::LagQuota;
use super::player::Player;
use super::plies::{Plies, PliesMark};
use super::record::Record;
use super::state::{MatchState, MoreTimeState, SeatHolder, Takebacks};
use super::view::{king_counters, legal_moves};

/// Why a committed event does not fit the match (a corrupted store); nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ApplyError {
    #[error("a joined player without a seat token")]
    NoSeatToken,
    #[error("route: {0} is not a square (1 to 50)")]
    NotASquare(u8),
    #[error("stored move does not replay: {0}")]
    MoveDoesNotReplay(#[source] MoveError),
    #[error("a takeback to {0} plies, more than were played")]
    TakebackBeyondMoves(u32),
}

/// A [`MatchState`] as it was before some `apply`s: see [`MatchState::savepoint`].
#[derive(Debug)]
pub(crate) struct Savepoint {
    v: u64,
    seats: BySide<Option<SeatHolder>>,
    position: Position,
    plies: PliesMark,
    /// The whole move list, kept only while a takeback proposal stands: a takeback is the
    /// one event that shortens it, and it needs a proposal.
    plies_before_takeback: Option<Plies>,
    carried_out: BySide<AckIdsMark>,
    clock: Option<Clock>,
    lag: Option<BySide<LagQuota>>,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    rematch: Option<String>,
    result: Option<MatchResult>,
    grace: BySide<Option<GraceCountdown>>,
    started_ms: Option<i64>,
    first_move_since: Option<Instant>,
    more_time: BySide<MoreTimeState>,
    berserk: BySide<bool>,
    takeback: Takebacks,
}

impl MatchState {
    /// Folds a committed event in at `now`; returns why if the event does not fit (a
    /// corrupted store), leaving the state as it was.
    pub(crate) fn apply(&mut self, record: &Record, now: Instant) -> Result<(), ApplyError> {
        match &record.event {
            MatchEvent::PlayerJoined(joined) => {
                let hash = record.seat_token_hash().ok_or(ApplyError::NoSeatToken)?;
                self.seats[joined.side] = Some(SeatHolder {
                    token_hashes: vec![hash],
                    token: record.token.clone(),
                    player: Player {
                        name: joined.name.clone(),
                        bot: joined.bot,
                        account: record.account,
                        rating: record.rating,
                        refuses_more_time: record.refuses_more_time,
                    },
                });
                // A member's account preference: they refuse more time from the start.
                self.more_time[joined.side].refused = record.refuses_more_time;
                if self.phase() == MatchPhase::Playing {
                    // No clock runs yet: each side's starts after its first move.
                    self.clock = self.setup.time_control.map(Clock::new);
                    self.lag = self
                        .setup
                        .time_control
                        .map(|tc| BySide::from_fn(|_| LagQuota::new(tc)));
                    self.first_move_since = self.plies.is_empty().then_some(now);
                }
            }
            MatchEvent::Moved(moved) => {
                let squares = squares(&moved.played.route).map_err(ApplyError::NotASquare)?;
                let mut legal = MoveList::new();
                self.position.legal_moves_into(&mut legal);
                let mv = self
                    .position
                    .move_from_route_in(&squares, &legal)
                    .map_err(ApplyError::MoveDoesNotReplay)?;
                self.position = self
                    .position
                    .play_in(mv, &legal)
                    .map_err(|err| ApplyError::MoveDoesNotReplay(err.error().clone()))?;
                if let (Some(clock), Some(state)) = (&mut self.clock, moved.clock) {
                    clock.set(state, now);
                }
                // The quota pays for the credit `decide` gave: only a charged move (not a
                // side's first) was credited.
                let mover = moved.played.side;
                let charged = self.has_moved(mover);
                if let (Some(quota), Some(lag_ms), true) = (&mut self.lag, moved.lag_ms, charged) {
                    quota[mover].spend(Duration::from_millis(lag_ms.into()));
                }
                self.plies.push(&mv);
                self.first_move_since = (self.plies.len() < 2).then_some(now);
                self.grace_follows_turn(now);
                // Any move lets a standing takeback proposal lapse (`TakebackCancelled`).
            }
            MatchEvent::DrawOffered(side) => self.draw_offer = Some(*side),
            MatchEvent::DrawDeclined(_) | MatchEvent::DrawOfferCancelled => self.draw_offer = None,
            MatchEvent::PlayerLeft(absence) => {
                self.grace[absence.side] = Some(GraceCountdown::new(
                    Duration::from_millis(absence.claim_in_ms),
                    Side::from(self.position.turn()) == absence.side,
                    now,
                ));
            }
            MatchEvent::PlayerReturned(side) => {
                self.grace[*side] = None;
                // A seat token handed out again ([`Record::token_issued`]): valid from now
                // on, beside the seat's earlier ones.
                if let (Some(hash), Some(seat)) = (record.seat_token_hash(), &mut self.seats[*side])
                {
                    if !seat.token_hashes.contains(&hash) {
                        seat.token_hashes.push(hash);
                    }
                    if record.token.is_some() {
                        seat.token.clone_from(&record.token);
                    }
                }
            }
            MatchEvent::Ended(result) => {
                if let Some(clock) = &mut self.clock {
                    clock.stop(now);
                }
                self.draw_offer = None;
                self.takeback.offer = None;
                self.grace = BySide::default();
                self.first_move_since = None;
                self.result = Some(result.clone());
            }
            MatchEvent::RematchOffered(side) => self.rematch_offer = Some(*side),
            MatchEvent::RematchDeclined(_) => self.rematch_offer = None,
            MatchEvent::RematchStarted(id) => {
                self.rematch_offer = None;
                self.rematch = Some(id.clone());
            }
            MatchEvent::MoreTimeGiven(given) => {
                if let Some(clock) = &mut self.clock {
                    clock.set(given.clock, now);
                }
                self.more_time[given.side.opposite()].given_at = Some(now);
            }
            MatchEvent::Berserked(berserked) => {
                if let Some(clock) = &mut self.clock {
                    clock.set(berserked.clock, now);
                    clock.drop_increment(berserked.side);
                }
                self.berserk[berserked.side] = true;
            }
            MatchEvent::MoreTimeRefused(refusal) => {
                self.more_time[refusal.side].refused = refusal.refused;
            }
            MatchEvent::TakebackProposed(side) => {
                self.takeback.offer = Some(*side);
                self.takeback.proposed_at[*side] = Some(now);
            }
            MatchEvent::TakebackDeclined(_) | MatchEvent::TakebackCancelled => {
                self.takeback.offer = None;
            }
            MatchEvent::TakenBack(taken) => self.take_back(taken, now)?,
        }
        if let Some((side, ack)) = record.ack {
            // An id no newer than the last is not kept again.
            self.carried_out[side].push(ack);
        }
        self.v += 1;
        Ok(())
    }

    /// Folds a committed takeback ([`super::takeback`]) in at `now`: the plies are cut back and the position
    /// replayed from the start; the clocks and the waits follow the position as at a move.
    pub(super) fn take_back(&mut self, taken: &TakenBack, now: Instant) -> Result<(), ApplyError> {
        let mut plies = self.plies.clone();
        if !plies.keep_first(taken.plies as usize) {
            return Err(ApplyError::TakebackBeyondMoves(taken.plies));
        }
        let position = plies
            .walk(self.start, |_| {})
            .map_err(ApplyError::MoveDoesNotReplay)?;
        self.plies = plies;
        self.position = position;
        self.takeback.offer = None;
        if let (Some(clock), Some(state)) = (&mut self.clock, taken.clock) {
            clock.set(state, now);
        }
        self.first_move_since = (self.plies.len() < 2).then_some(now);
        self.grace_follows_turn(now);
        Ok(())
    }

    /// Fills in what a stored takeback leaves out (the FEN and legal moves), from the
    /// position it led to: see [`super::record::Record::stored_form`].
    pub(super) fn fill_in_taken_back(&self, taken: &mut TakenBack) {
        taken.fen = self.position.fen();
        taken.legal_moves = legal_moves(&self.position);
        taken.king_counters = king_counters(&self.position);
    }

    /// An absent side's grace runs only on its own turn: set after the side to move changed.
    pub(super) fn grace_follows_turn(&mut self, now: Instant) {
        let to_move = Side::from(self.position.turn());
        for side in [Side::White, Side::Black] {
            if let Some(grace) = &mut self.grace[side] {
                grace.set_running(side == to_move, now);
            }
        }
    }

    /// Writes into `record`, just folded in at `now`, the first-move time it announces: the
    /// join that starts the match starts White's wait, White's first move Black's, and the
    /// event tells the side now to move how long it has from this event (the whole
    /// `timeout`, read off the deadline that aborts the match). Done before the record is
    /// stored, so a replayed event is the one sent live; a [`super::kept`] move is rebuilt
    /// the same way.
    pub(crate) fn announce_first_move(&self, record: &mut Record, now: Instant, timeout: Duration) {
        let left = self
            .first_move_in(now, timeout)
            .map(|left| left.as_millis() as u64);
        match &mut record.event {
            MatchEvent::PlayerJoined(joined) => joined.first_move_in_ms = left,
            // A move that ended the game (no legal moves after it) starts no wait.
            MatchEvent::Moved(moved) if !moved.legal_moves.is_empty() => {
                moved.first_move_in_ms = left;
            }
            MatchEvent::TakenBack(taken) => taken.first_move_in_ms = left,
            _ => {}
        }
    }

    /// Notes when the match started, from the time (`at_ms`) of the event that took the
    /// second seat.
    fn stamp(&mut self, at_ms: i64) {
        if self.started_ms.is_none() && self.seats.all(Option::is_some) {
            self.started_ms = Some(at_ms);
        }
    }

    /// Folds a stored `record` in at `now` at Unix time `at_ms` (like `apply`) and returns it
    /// as it was first sent: a stored move leaves out the FEN and the legal moves after it,
    /// which are filled in here from the position the move led to.
    pub(crate) fn replay(
        &mut self,
        mut record: Record,
        now: Instant,
        at_ms: i64,
    ) -> Result<Record, ApplyError> {
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
        if let MatchEvent::TakenBack(taken) = &mut record.event {
            self.fill_in_taken_back(taken);
        }
        Ok(record)
    }

    /// Folds a new `record` in at `now`, at Unix time `at_ms`; once it is in,
    /// [`Record::write`] with the new `v` stores it.
    pub(crate) fn apply_new(
        &mut self,
        record: &Record,
        now: Instant,
        at_ms: i64,
    ) -> Result<(), ApplyError> {
        self.apply(record, now)?;
        self.stamp(at_ms);
        Ok(())
    }

    /// What `apply` may change, saved cheaply (the move lists only grow, so their lengths
    /// suffice; only a takeback shortens the moves, and only while a proposal stands): [`MatchState::restore`] puts the state back as it was.
    pub(crate) fn savepoint(&self) -> Savepoint {
        // Destructured in full so a new field cannot be forgotten here.
        let MatchState {
            id: _,
            invite: _,
            setup: _,
            v,
            seats,
            start: _,
            position,
            plies,
            carried_out,
            clock,
            lag,
            draw_offer,
            rematch_offer,
            rematch,
            result,
            grace,
            started_ms,
            first_move_since,
            more_time,
            berserk,
            takeback,
        } = self;
        Savepoint {
            v: *v,
            seats: seats.clone(),
            position: *position,
            plies: plies.mark(),
            plies_before_takeback: takeback.offer.is_some().then(|| plies.clone()),
            carried_out: carried_out.as_ref().map(AckIds::mark),
            clock: clock.clone(),
            lag: *lag,
            draw_offer: *draw_offer,
            rematch_offer: *rematch_offer,
            rematch: rematch.clone(),
            result: result.clone(),
            grace: *grace,
            started_ms: *started_ms,
            first_move_since: *first_move_since,
            more_time: *more_time,
            berserk: *berserk,
            takeback: *takeback,
        }
    }

    /// Undoes every `apply` since `savepoint` was taken.
    pub(crate) fn restore(&mut self, savepoint: Savepoint) {
        let Savepoint {
            v,
            seats,
            position,
            plies,
            plies_before_takeback,
            carried_out,
            clock,
            lag,
            draw_offer,
            rematch_offer,
            rematch,
            result,
            grace,
            started_ms,
            first_move_since,
            more_time,
            berserk,
            takeback,
        } = savepoint;
        self.v = v;
        self.seats = seats;
        self.position = position;
        match plies_before_takeback {
            Some(whole) => self.plies = whole,
            None => self.plies.truncate(plies),
        }
        self.carried_out.white.truncate(carried_out.white);
        self.carried_out.black.truncate(carried_out.black);
        self.clock = clock;
        self.lag = lag;
        self.draw_offer = draw_offer;
        self.rematch_offer = rematch_offer;
        self.rematch = rematch;
        self.result = result;
        self.grace = grace;
        self.started_ms = started_ms;
        self.first_move_since = first_move_since;
        self.more_time = more_time;
        self.berserk = berserk;
        self.takeback = takeback;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::decide::fixtures::{carry_out, playing};
    use crate::matches::decide::{Action, Decision};
    use crate::matches::record::Setup;
    use crate::matches::state::SetupError;
    use crate::storage::Write;

    #[test]
    fn replaying_the_stored_records_gives_the_same_match() {
        let now = Instant::now();
        let mut live = playing(now);
        let mut records = vec![
            Record::joined(Side::White, &Player::person("w"), "tw".into()),
            Record::joined(Side::Black, &Player::person("b"), "tb".into()),
        ];
        for (side, ack, action) in [
            (Side::White, 1, Action::play(vec![32, 28])),
            (Side::Black, 1, Action::OfferDraw),
            (Side::Black, 2, Action::play(vec![19, 23])),
            (Side::White, 2, Action::play(vec![28, 19])),
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
        let mut announced = 0;
        for record in &records {
            // What is stored (without the derivable FEN and legal moves) replays to the
            // record as it was sent, with the first-move time it announced.
            let mut record = record.clone();
            stored.apply_new(&record, now, 0).unwrap();
            stored.announce_first_move(&mut record, now, Duration::from_secs(30));
            let first_move_in_ms = match &record.event {
                MatchEvent::PlayerJoined(joined) => joined.first_move_in_ms,
                MatchEvent::Moved(moved) => moved.first_move_in_ms,
                _ => None,
            };
            announced += usize::from(first_move_in_ms == Some(30_000));
            let record = &record;
            let Write::Event { body, .. } = record.write(&stored.id, stored.v, 0, 0).unwrap()
            else {
                panic!("not an event write");
            };
            assert!(!body.contains("legal_moves\":[{"), "{body}");
            // A seat token is stored as its hash alone: replay knows no more.
            assert!(
                !body.contains("\"tw\"") && !body.contains("\"tb\""),
                "{body}"
            );
            let back = replayed
                .replay(serde_json::from_str(&body).unwrap(), now, 0)
                .unwrap();
            assert_eq!(
                back,
                Record {
                    token: None,
                    ..record.clone()
                }
            );
        }
        assert_eq!(
            replayed.snapshot(now, BySide::default()),
            live.snapshot(now, BySide::default())
        );
        assert_eq!(
            announced, 2,
            "Black's join and White's first move start a wait"
        );
        assert_eq!(
            replayed
                .carried_out
                .as_ref()
                .map(|ids| ids.iter().collect::<Vec<_>>()),
            BySide::new(vec![1, 2], vec![1, 2])
        );
        assert_eq!(replayed.draw_offer, None, "the move cancelled the offer");
    }

    #[test]
    fn restoring_a_savepoint_undoes_applied_records() {
        let now = Instant::now();
        let mut state = playing(now);
        carry_out(&mut state, Side::White, 1, Action::OfferDraw, now);
        let before = state.snapshot(now, BySide::new(true, true));
        let savepoint = state.savepoint();
        let Ok(Decision::Events(records)) =
            state.decide(Side::White, 2, &Action::play(vec![32, 28]), now)
        else {
            panic!("move refused");
        };
        assert_eq!(
            records.len(),
            1,
            "one's own move leaves one's draw offer standing"
        );
        for record in &records {
            state.apply(record, now).unwrap();
        }
        carry_out(&mut state, Side::Black, 1, Action::Resign, now);
        assert!(state.result().is_some());
        state.restore(savepoint);
        assert_eq!(state.snapshot(now, BySide::new(true, true)), before);
        assert_eq!(
            (
                state
                    .carried_out
                    .as_ref()
                    .map(|ids| ids.iter().collect::<Vec<_>>()),
                state.plies.len()
            ),
            (BySide::new(vec![1], vec![]), 0)
        );
    }

    #[test]
    fn a_stored_event_that_does_not_fit_says_why_and_changes_nothing() {
        let now = Instant::now();
        let mut state = playing(now);
        let before = state.snapshot(now, BySide::default());
        let mut no_token = Record::joined(Side::White, &Player::person("w"), "tw".into());
        no_token.token = None;
        no_token.token_hash = None;
        let moved = |route: Vec<u8>| {
            let Ok(Decision::Events(records)) =
                playing(now).decide(Side::White, 1, &Action::play(vec![32, 28]), now)
            else {
                panic!("move refused");
            };
            let mut record = records[0].clone();
            let MatchEvent::Moved(moved) = &mut record.event else {
                panic!("{record:?}");
            };
            moved.played.route = route;
            record
        };
        let cases = [
            (no_token, "a joined player without a seat token"),
            (moved(vec![32, 51]), "route: 51 is not a square (1 to 50)"),
        ];
        for (record, message) in cases {
            let refused = state.apply(&record, now).unwrap_err();
            assert_eq!(refused.to_string(), message);
            assert_eq!(state.snapshot(now, BySide::default()), before);
        }
        assert_eq!(
            state.apply(&moved(vec![32, 51]), now),
            Err(ApplyError::NotASquare(51))
        );
        // A route the rules refuse: the rules' own reason, after what the server adds.
        let refused = state.apply(&moved(vec![32, 22]), now).unwrap_err();
        let ApplyError::MoveDoesNotReplay(why) = &refused else {
            panic!("{refused:?}");
        };
        assert_eq!(
            refused.to_string(),
            format!("stored move does not replay: {why}")
        );
        assert_eq!(state.snapshot(now, BySide::default()), before);
    }

    #[test]
    fn a_start_position_that_does_not_parse_is_refused_with_the_fen_error() {
        let setup = Setup {
            time_control: None,
            public: false,
            rematch_of: None,
            start_fen: Some("W:W99:B1".into()),
            rated: false,
            rating_range: None,
            berserk: false,
            event: None,
        };
        let refused = MatchState::new("m".into(), "CODE".into(), setup).unwrap_err();
        let SetupError::StartFen(fen) = &refused;
        assert_eq!(refused.to_string(), format!("start FEN: {fen}"));
    }
}
