//! Takebacks in casual matches (PROTOCOL.md §10 *Takebacks*): a player proposes to take back
//! their last move, the opponent accepts or declines.
//!
//! The match's history is only ever appended to. A takeback does not rewrite or delete the
//! stored moves: it is one more event, [`MatchEvent::TakenBack`], saying how many plies are
//! left, and folding it in cuts the packed plies back to that many and replays the position
//! from the start. So every acknowledged event stays stored and versioned, replay after a
//! restart is the same `apply` over the same events, and the PDN (derived from the plies)
//! is the game as it was finally played. Only a `since_v` catch-up that spans a takeback
//! cannot be rebuilt move by move from the plies ([`super::kept`]): it gets a snapshot.
//!
//! Nobody gets time back: the clocks keep what they show and the proposer's runs from the
//! takeback. A proposal stands until answered or until a move is played, and a seat proposes
//! at most once every [`TAKEBACK_EVERY`], so proposals cannot be used to flood the opponent.

use std::time::{Duration, Instant};

use boardcast_protocol::{ClockState, ErrorArgs, ErrorCode, MatchEvent, Side, TakenBack};

use super::record::Record;
use super::state::MatchState;
use super::view::{king_counters, legal_moves};
use crate::refusal::Refusal;

/// How often a seat may propose a takeback: the rate limit of PROTOCOL.md §10 *Takebacks*.
pub(crate) const TAKEBACK_EVERY: Duration = Duration::from_secs(10);

impl MatchState {
    /// Whether takebacks are allowed at all: casual matches only, never a rated match or a
    /// club event's game (where the result must stand as played). The refusal names which
    /// (`match`: `event`, also for a rated event's game, else `rated`) so a client can say so.
    pub(super) fn takebacks_allowed(&self) -> Result<(), Refusal> {
        let (kind, what) = if self.setup.event.is_some() {
            ("event", "a club event's game")
        } else if self.setup.rated {
            ("rated", "a rated match")
        } else {
            return Ok(());
        };
        Err(Refusal::new(
            ErrorCode::NotAllowed,
            format!("takebacks are for casual matches only, not {what}"),
        )
        .with(ErrorArgs::new("takeback_casual_only").word("match", kind)))
    }

    /// `side` proposes to take back its last move at `now` (the match is being played).
    pub(super) fn decide_propose_takeback(
        &self,
        side: Side,
        now: Instant,
    ) -> Result<Vec<Record>, Refusal> {
        self.takebacks_allowed()?;
        if !self.has_moved(side) {
            return Err(Refusal::not_allowed(
                "nothing_to_take_back",
                "you have no move to take back",
            ));
        }
        match self.takeback.offer {
            Some(offerer) if offerer == side => {
                return Err(Refusal::not_allowed(
                    "takeback_proposal_stands",
                    "your takeback proposal already stands",
                ));
            }
            Some(_) => {
                return Err(Refusal::not_allowed(
                    "opponent_takeback_stands",
                    "your opponent's takeback proposal stands: accept or decline it",
                ));
            }
            None => {}
        }
        if let Some(at) = self.takeback.proposed_at[side]
            && now.saturating_duration_since(at) < TAKEBACK_EVERY
        {
            // Whole seconds, rounded up: proposing again after them is not refused.
            let left = TAKEBACK_EVERY - now.saturating_duration_since(at);
            let retry_after_s = left.as_millis().div_ceil(1_000) as u64;
            let every_s = TAKEBACK_EVERY.as_secs();
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                format!(
                    "a takeback at most once every {every_s} s: try again in {retry_after_s} s"
                ),
            )
            .with(
                ErrorArgs::new("takeback_too_soon")
                    .number("every_s", every_s)
                    .number("retry_after_s", retry_after_s),
            ));
        }
        Ok(vec![Record::new(MatchEvent::TakebackProposed(side))])
    }

    /// `side` answers its opponent's standing proposal at `now`: `accept` takes the moves
    /// back, else the proposal is declined.
    pub(super) fn decide_answer_takeback(
        &self,
        side: Side,
        accept: bool,
        now: Instant,
    ) -> Result<Vec<Record>, Refusal> {
        let proposer = side.opposite();
        if self.takeback.offer != Some(proposer) {
            return Err(Refusal::not_allowed(
                "no_takeback_proposal",
                "there is no takeback proposal from your opponent",
            ));
        }
        if !accept {
            return Ok(vec![Record::new(MatchEvent::TakebackDeclined(side))]);
        }
        // The proposer's last move, and the opponent's after it if the opponent has moved
        // since: the proposer is to move again.
        let back = if Side::from(self.position.turn()) == proposer {
            2
        } else {
            1
        };
        let plies = self.plies.len().saturating_sub(back);
        let mut kept = self.plies.clone();
        kept.keep_first(plies);
        let position = kept.walk(self.start, |_| {}).map_err(|err| {
            Refusal::new(
                ErrorCode::Internal,
                format!("the moves do not replay: {err}"),
            )
            .with(ErrorArgs::new("does_not_replay"))
        })?;
        let clock = self.clock.as_ref().map(|clock| ClockState {
            // No clock runs before both sides have moved (as at the start).
            running: (plies >= 2).then_some(proposer),
            ..clock.state(now)
        });
        Ok(vec![Record::new(MatchEvent::TakenBack(TakenBack {
            side: proposer,
            plies: plies as u32,
            fen: position.fen(),
            clock,
            legal_moves: legal_moves(&position),
            king_counters: king_counters(&position),
            first_move_in_ms: None,
        }))])
    }
}

#[cfg(test)]
mod tests {
    use boardcast_protocol::{BySide, MatchSnapshot, TimeControl};
    use frisian::Position;

    use super::*;
    use crate::matches::apply::ApplyError;
    use crate::matches::decide::fixtures::{carry_out, opened, playing, playing_with};
    use crate::matches::decide::{Action, Decision};
    use crate::matches::record::Setup;

    /// The position after the first `plies` of a match.
    fn position_after(state: &MatchState, plies: usize) -> Position {
        let mut kept = state.plies.clone();
        assert!(kept.keep_first(plies));
        kept.walk(state.start, |_| {}).unwrap()
    }

    /// The first legal move of the side to move.
    fn first_legal(state: &MatchState) -> Action {
        let mv = state.position.legal_moves()[0];
        Action::play(mv.route().iter().map(|sq| sq.number()).collect())
    }

    fn events(
        state: &MatchState,
        side: Side,
        ack: u64,
        action: Action,
        now: Instant,
    ) -> Vec<Record> {
        match state.decide(side, ack, &action, now) {
            Ok(Decision::Events(records)) => records,
            other => panic!("{action:?}: {other:?}"),
        }
    }

    fn refused(state: &MatchState, side: Side, ack: u64, action: Action, now: Instant) -> Refusal {
        state.decide(side, ack, &action, now).unwrap_err()
    }

    fn snapshot(state: &MatchState, now: Instant) -> MatchSnapshot {
        state.snapshot(now, BySide::new(true, true))
    }

    /// Proposed on the proposer's own turn, accepting takes back the opponent's last move and
    /// the proposer's before it; on the opponent's turn, the proposer's move alone. The
    /// proposer is to move again each time, with the position, move list and PDN as if the
    /// moves had never been played.
    #[test]
    fn an_accepted_takeback_takes_back_the_proposers_last_move_and_any_after_it() {
        let t0 = Instant::now();
        let mut state = opened(t0);
        carry_out(&mut state, Side::White, 2, Action::play(vec![28, 19]), t0);
        let mv = first_legal(&state);
        carry_out(&mut state, Side::Black, 2, mv, t0);
        let before_black = snapshot(&state, t0);
        let mv = first_legal(&state);
        carry_out(&mut state, Side::White, 3, mv, t0);
        // On Black's turn, Black proposes: White's last move and Black's before it go.
        carry_out(&mut state, Side::Black, 3, Action::ProposeTakeback, t0);
        assert_eq!(snapshot(&state, t0).takeback_offer, Some(Side::Black));
        let records = events(&state, Side::White, 4, Action::AcceptTakeback, t0);
        let MatchEvent::TakenBack(taken) = &records[0].event else {
            panic!("{records:?}");
        };
        assert_eq!((taken.side, taken.plies), (Side::Black, 3));
        assert_eq!(taken.fen, position_after(&state, 3).fen());
        for record in &records {
            state.apply(record, t0).unwrap();
        }
        let now = snapshot(&state, t0);
        assert_eq!(now.moves, before_black.moves[..3]);
        assert_eq!((now.turn, now.takeback_offer), (Side::Black, None));
        assert_eq!(now.fen, taken.fen);
        assert_eq!(now.legal_moves, taken.legal_moves);
        let pdn = state.pdn().unwrap();
        assert!(pdn.ends_with("\n1. 32-28 19-23 2. 28x19 *\n"), "{pdn}");
        // Black plays again; then White, on Black's turn, proposes taking back its own move
        // alone, and Black declines.
        let mv = first_legal(&state);
        carry_out(&mut state, Side::Black, 4, mv, t0);
        carry_out(&mut state, Side::White, 5, Action::ProposeTakeback, t0);
        let records = events(&state, Side::Black, 5, Action::DeclineTakeback, t0);
        assert_eq!(records[0].event, MatchEvent::TakebackDeclined(Side::Black));
        for record in &records {
            state.apply(record, t0).unwrap();
        }
        assert_eq!(snapshot(&state, t0).takeback_offer, None);
        assert_eq!(snapshot(&state, t0).moves.len(), 4);
    }

    /// A takeback is an event after the moves it takes back: replaying the stored events gives
    /// the same match, and the moves made after it number on from the plies left.
    #[test]
    fn replaying_a_takeback_gives_the_same_match_and_later_moves_number_on() {
        let t0 = Instant::now();
        let tc = TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut state = playing_with(Some(tc), t0);
        let mut log = Vec::new();
        let act = |state: &mut MatchState, log: &mut Vec<Record>, side, ack, action, at| {
            let records = events(state, side, ack, action, at);
            for record in &records {
                state.apply(record, at).unwrap();
            }
            log.extend(records);
        };
        let s = Duration::from_secs;
        act(
            &mut state,
            &mut log,
            Side::White,
            1,
            Action::play(vec![32, 28]),
            t0,
        );
        act(
            &mut state,
            &mut log,
            Side::Black,
            1,
            Action::play(vec![19, 23]),
            t0,
        );
        act(
            &mut state,
            &mut log,
            Side::White,
            2,
            Action::play(vec![28, 19]),
            t0 + s(2),
        );
        act(
            &mut state,
            &mut log,
            Side::White,
            3,
            Action::ProposeTakeback,
            t0 + s(3),
        );
        // Black accepts 5 s into its turn: White's 28x19 goes, White runs, nobody gets time
        // back.
        act(
            &mut state,
            &mut log,
            Side::Black,
            2,
            Action::AcceptTakeback,
            t0 + s(7),
        );
        let MatchEvent::TakenBack(taken) = &log.last().unwrap().event else {
            panic!("{log:?}");
        };
        assert_eq!(
            taken.clock,
            Some(ClockState {
                white_ms: 58_000,
                black_ms: 55_000,
                running: Some(Side::White)
            })
        );
        // The capture is compulsory, so White plays it again: the same ply, a new event.
        act(
            &mut state,
            &mut log,
            Side::White,
            4,
            Action::play(vec![28, 19]),
            t0 + s(8),
        );
        let MatchEvent::Moved(moved) = &log.last().unwrap().event else {
            panic!("{log:?}");
        };
        assert_eq!(
            (moved.played.ply, moved.played.notation.as_str()),
            (2, "28x19")
        );
        assert_eq!(moved.clock.unwrap().white_ms, 57_000);
        // Storage holds every event, the taken-back move too, and gives the same match.
        let mut replayed = playing_with(Some(tc), t0);
        for record in &log {
            let stored: Record = serde_json::from_str(&record.stored_form().unwrap()).unwrap();
            let back = replayed.replay(stored, t0 + s(8), 0).unwrap();
            assert_eq!(&back.event, &record.event, "replayed as it was sent");
        }
        assert_eq!(log.len(), 6);
        assert_eq!(snapshot(&replayed, t0 + s(8)), snapshot(&state, t0 + s(8)));
        // The PDN is the game as played in the end.
        assert!(
            replayed
                .pdn()
                .unwrap()
                .ends_with("\n1. 32-28 19-23 2. 28x19 *\n")
        );
    }

    /// The refusal's code, reason and arguments (PROTOCOL.md §12.1), beside its English text.
    fn reason_of(refusal: &Refusal) -> (ErrorCode, ErrorArgs) {
        let args = refusal
            .args
            .clone()
            .expect("a takeback refusal carries its args");
        assert!(
            boardcast_protocol::REASONS
                .iter()
                .any(|spec| spec.code == refusal.code && spec.reason == args.reason),
            "{refusal:?} is not in REASONS"
        );
        (refusal.code, args)
    }

    /// Takebacks are refused in rated matches and club events, before one has moved, while a
    /// proposal stands, and more often than once every 10 s; an answer needs a proposal. Each
    /// refusal carries its reason and arguments for the clients to word it.
    #[test]
    fn takebacks_are_refused_outside_casual_play_and_rate_limited() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        let not_allowed = |reason: &str| (ErrorCode::NotAllowed, ErrorArgs::new(reason));
        for (rated, event, kind, message) in [
            (true, None, "rated", "not a rated match"),
            (
                false,
                Some("e1".to_owned()),
                "event",
                "not a club event's game",
            ),
            (
                true,
                Some("e2".to_owned()),
                "event",
                "not a club event's game",
            ),
        ] {
            let mut state = opened(t0);
            state.setup = Setup {
                rated,
                event,
                ..state.setup.clone()
            };
            let refusal = refused(&state, Side::White, 2, Action::ProposeTakeback, t0);
            assert_eq!(
                reason_of(&refusal),
                (
                    ErrorCode::NotAllowed,
                    ErrorArgs::new("takeback_casual_only").word("match", kind)
                )
            );
            assert_eq!(
                refusal.message,
                format!("takebacks are for casual matches only, {message}")
            );
        }
        let mut state = playing(t0);
        let none = refused(&state, Side::White, 1, Action::ProposeTakeback, t0);
        assert_eq!(none.message, "you have no move to take back");
        assert_eq!(reason_of(&none), not_allowed("nothing_to_take_back"));
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), t0);
        let none = refused(&state, Side::Black, 1, Action::ProposeTakeback, t0);
        assert_eq!(none.message, "you have no move to take back");
        let answer = refused(&state, Side::Black, 1, Action::AcceptTakeback, t0);
        assert_eq!(
            answer.message,
            "there is no takeback proposal from your opponent"
        );
        assert_eq!(reason_of(&answer), not_allowed("no_takeback_proposal"));
        carry_out(&mut state, Side::White, 2, Action::ProposeTakeback, t0);
        let again = refused(&state, Side::White, 3, Action::ProposeTakeback, t0 + s(30));
        assert_eq!(again.message, "your takeback proposal already stands");
        assert_eq!(reason_of(&again), not_allowed("takeback_proposal_stands"));
        // Black moves instead of answering: the proposal lapses.
        let records = events(
            &state,
            Side::Black,
            1,
            Action::play(vec![19, 23]),
            t0 + s(1),
        );
        assert_eq!(records[1].event, MatchEvent::TakebackCancelled);
        for record in &records {
            state.apply(record, t0 + s(1)).unwrap();
        }
        assert_eq!(snapshot(&state, t0).takeback_offer, None);
        // 9.5 s after the last proposal: half a second left, said as 1 s (rounded up).
        let spam = refused(
            &state,
            Side::White,
            3,
            Action::ProposeTakeback,
            t0 + Duration::from_millis(9_500),
        );
        assert_eq!(
            (spam.code, spam.message.as_str()),
            (
                ErrorCode::RateLimited,
                "a takeback at most once every 10 s: try again in 1 s"
            )
        );
        assert_eq!(
            reason_of(&spam),
            (
                ErrorCode::RateLimited,
                ErrorArgs::new("takeback_too_soon")
                    .number("every_s", 10u32)
                    .number("retry_after_s", 1u32)
            )
        );
        let early = refused(&state, Side::White, 3, Action::ProposeTakeback, t0 + s(3));
        assert_eq!(
            early.args.unwrap().numbers.get("retry_after_s"),
            Some(&7),
            "seconds left"
        );
        carry_out(
            &mut state,
            Side::White,
            3,
            Action::ProposeTakeback,
            t0 + s(10),
        );
        let theirs = refused(&state, Side::Black, 2, Action::ProposeTakeback, t0 + s(30));
        assert_eq!(
            theirs.message,
            "your opponent's takeback proposal stands: accept or decline it"
        );
        assert_eq!(reason_of(&theirs), not_allowed("opponent_takeback_stands"));
        // The proposer cannot accept their own proposal.
        let own = refused(&state, Side::White, 4, Action::AcceptTakeback, t0 + s(10));
        assert_eq!(
            own.message,
            "there is no takeback proposal from your opponent"
        );
    }

    /// A takeback to before Black's first move gives Black its first-move wait back and
    /// stops the clocks as at the start; one that does not fit the moves is a corrupted store.
    #[test]
    fn a_takeback_to_before_a_first_move_brings_back_its_wait() {
        let t0 = Instant::now();
        let timeout = Duration::from_secs(30);
        let tc = TimeControl {
            initial_ms: 60_000,
            increment_ms: 0,
        };
        let mut state = playing_with(Some(tc), t0);
        carry_out(&mut state, Side::White, 1, Action::play(vec![32, 28]), t0);
        carry_out(&mut state, Side::Black, 1, Action::play(vec![19, 23]), t0);
        assert_eq!(state.first_move_deadline(timeout), None);
        let t1 = t0 + Duration::from_secs(5);
        carry_out(&mut state, Side::Black, 2, Action::ProposeTakeback, t1);
        let mut records = events(&state, Side::White, 2, Action::AcceptTakeback, t1);
        state.apply(&records[0], t1).unwrap();
        state.announce_first_move(&mut records[0], t1, timeout);
        let MatchEvent::TakenBack(taken) = &records[0].event else {
            panic!("{records:?}");
        };
        assert_eq!((taken.plies, taken.first_move_in_ms), (1, Some(30_000)));
        assert_eq!(taken.clock.unwrap().running, None);
        assert_eq!(state.first_move_deadline(timeout), Some(t1 + timeout));
        assert_eq!(state.flag_deadline(), None);
        let mut beyond = records[0].clone();
        if let MatchEvent::TakenBack(taken) = &mut beyond.event {
            taken.plies = 5;
        }
        let before = snapshot(&state, t1);
        assert_eq!(
            state.apply(&beyond, t1),
            Err(ApplyError::TakebackBeyondMoves(5))
        );
        assert_eq!(snapshot(&state, t1), before);
    }

    /// A commit that fails after a takeback was applied puts the moves back whole.
    #[test]
    fn restoring_a_savepoint_puts_back_the_moves_a_takeback_cut() {
        let t0 = Instant::now();
        let mut state = opened(t0);
        carry_out(&mut state, Side::Black, 2, Action::ProposeTakeback, t0);
        let before = snapshot(&state, t0);
        let savepoint = state.savepoint();
        carry_out(&mut state, Side::White, 2, Action::AcceptTakeback, t0);
        assert_eq!(snapshot(&state, t0).moves.len(), 1);
        state.restore(savepoint);
        assert_eq!(snapshot(&state, t0), before);
        assert_eq!(state.plies.len(), 2);
    }
}
