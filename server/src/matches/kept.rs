//! What a match keeps of each of its last events for a follower that resumes with `since_v`
//! (PROTOCOL.md §8), and how it rebuilds them exactly as they were sent.
//!
//! A `moved` event carries the FEN and every legal move after the move, each with its notation,
//! route and captures: kept whole, the last twenty of them were most of a live match's memory
//! (BENCHMARKS.md, "A live match's own memory"). All of it follows from the position before the
//! move, the move and the clocks, and the match keeps its moves anyway; so a move is kept as its
//! ply and its clocks, and rebuilt by the function that made it live ([`moved_event`]). That is
//! what keeps a replayed event byte-identical to the one sent live. The other events are small
//! and rare, and are kept as they are.

use std::time::Duration;

use boardcast_protocol::{ClockState, MatchEvent};

use super::state::MatchState;
use super::view::moved_event;

/// What a match keeps of one event for replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kept {
    /// The move of ply `ply` (0 for the first), which left the clocks at `clock`, counted
    /// with round trip `lag_ms`.
    Moved {
        ply: u32,
        clock: Option<ClockState>,
        lag_ms: KeptLag,
    },
    /// Any other event, as it was sent.
    Other(Box<MatchEvent>),
}

/// A move's counted round trip, `Option<u32>` in four bytes instead of eight: a live match
/// keeps its last events, and a kept move stays within 32 bytes (the test below).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeptLag(u32);

impl KeptLag {
    /// No round trip was counted (an untimed match, a first move).
    pub(crate) const NONE: KeptLag = KeptLag(u32::MAX);

    /// `lag_ms` as kept; a round trip of `u32::MAX` ms (49 days, never measured) is kept one
    /// millisecond shorter.
    pub(crate) fn of(lag_ms: Option<u32>) -> KeptLag {
        lag_ms.map_or(Self::NONE, |ms| KeptLag(ms.min(u32::MAX - 1)))
    }

    /// The round trip as the event carried it.
    pub(crate) fn get(self) -> Option<u32> {
        (self != Self::NONE).then_some(self.0)
    }
}

impl Kept {
    /// What is kept of `event`.
    pub(crate) fn of(event: &MatchEvent) -> Kept {
        match event {
            MatchEvent::Moved(moved) => Kept::Moved {
                ply: moved.played.ply,
                clock: moved.clock,
                lag_ms: KeptLag::of(moved.lag_ms),
            },
            other => Kept::Other(Box::new(other.clone())),
        }
    }
}

impl MatchState {
    /// The events kept as `kept` (in order), rebuilt as they were sent, the first-move time
    /// from the server's `first_move_timeout`; `None` if a kept move is not among this match's
    /// moves or a takeback is among them (the caller then sends a snapshot).
    pub(crate) fn rebuild(
        &self,
        kept: &[Kept],
        first_move_timeout: Duration,
    ) -> Option<Vec<MatchEvent>> {
        // The moves before a takeback are no longer all among the match's plies, and later
        // moves reuse their numbers: a catch-up over a takeback is a snapshot.
        let taken_back = |kept: &Kept| matches!(kept, Kept::Other(event) if matches!(**event, MatchEvent::TakenBack(_)));
        if kept.iter().any(taken_back) {
            return None;
        }
        let mut plies = kept.iter().filter_map(|kept| match kept {
            Kept::Moved { ply, clock, lag_ms } => Some((*ply, *clock, lag_ms.get())),
            Kept::Other(_) => None,
        });
        // One walk from the start position rebuilds every kept move (they ascend).
        let mut moved = Vec::new();
        let mut next = plies.next();
        let mut rebuilt = true;
        self.plies
            .walk(self.start, |ply| {
                if let Some((wanted, clock, lag_ms)) = next
                    && ply.index == wanted
                {
                    match moved_event(ply.before, ply.legal, ply.mv, wanted, clock) {
                        Ok((mut event, _)) => {
                            event.lag_ms = lag_ms;
                            // As `announce_first_move` filled it in: White's first move
                            // started Black's whole wait, unless it ended the game.
                            if wanted == 0 && !event.legal_moves.is_empty() {
                                event.first_move_in_ms =
                                    Some(first_move_timeout.as_millis() as u64);
                            }
                            moved.push(event)
                        }
                        Err(_) => rebuilt = false,
                    }
                    next = plies.next();
                }
            })
            .ok()?;
        if next.is_some() || !rebuilt {
            return None;
        }
        let mut moved = moved.into_iter();
        kept.iter()
            .map(|kept| match kept {
                Kept::Moved { .. } => moved.next().map(MatchEvent::Moved),
                Kept::Other(event) => Some((**event).clone()),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use boardcast_protocol::{Encoding, MatchEventMsg, ServerMessage, Side, TimeControl};

    use super::*;
    use crate::matches::decide::fixtures::playing_with;
    use crate::matches::decide::{Action, Decision};

    /// The server's default `--first-move-timeout`.
    const FIRST_MOVE: Duration = Duration::from_secs(30);

    /// Both encodings of event `v` of match `m`, as a follower receives it.
    fn frames(v: u64, event: MatchEvent) -> [boardcast_protocol::Frame; 2] {
        let message = ServerMessage::MatchEvent(MatchEventMsg {
            match_id: "m".into(),
            v,
            event,
        });
        [
            Encoding::Json.encode(&message),
            Encoding::Postcard.encode(&message),
        ]
    }

    #[test]
    fn replayed_events_are_byte_identical_to_the_ones_sent_live() {
        let start = Instant::now();
        let clock = TimeControl {
            initial_ms: 60_000,
            increment_ms: 1_000,
        };
        let mut state = playing_with(Some(clock), start);
        // A capture, a draw offer cancelled by the opponent's move, a promotion-free game with clocks
        // that run: every kind of event a live game sends, as it was sent.
        let script = [
            (Side::White, Action::play(vec![32, 28])),
            (Side::Black, Action::play(vec![19, 23])),
            (Side::White, Action::OfferDraw),
            (Side::White, Action::play(vec![28, 19])),
            (Side::Black, Action::play(vec![14, 23])),
            (Side::White, Action::play(vec![37, 32])),
            (Side::Black, Action::Resign),
        ];
        let mut sent = Vec::new();
        for (i, (side, action)) in script.into_iter().enumerate() {
            let now = start + Duration::from_millis(700 * i as u64);
            let Ok(Decision::Events(records)) = state.decide(side, i as u64 + 1, &action, now)
            else {
                panic!("{action:?} refused");
            };
            for mut record in records {
                state.apply(&record, now).unwrap();
                state.announce_first_move(&mut record, now, FIRST_MOVE);
                sent.push((state.v, record.event));
            }
        }
        // The snapshot's move list is derived from the packed plies, and is what was sent.
        let sent_moves: Vec<_> = sent
            .iter()
            .filter_map(|(_, event)| match event {
                MatchEvent::Moved(moved) => Some(moved.played.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(sent_moves.len(), 5);
        assert_eq!(
            state
                .snapshot(start, boardcast_protocol::BySide::default())
                .moves,
            sent_moves
        );
        let kept: Vec<Kept> = sent.iter().map(|(_, event)| Kept::of(event)).collect();
        assert!(
            kept.iter()
                .any(|k| matches!(k, Kept::Moved { clock: Some(_), .. })),
            "{kept:?}"
        );
        // White's first move told Black its whole first-move time; no later move tells any.
        let first_move_times: Vec<_> = sent
            .iter()
            .filter_map(|(_, event)| match event {
                MatchEvent::Moved(moved) => Some(moved.first_move_in_ms),
                _ => None,
            })
            .collect();
        assert_eq!(first_move_times, [Some(30_000), None, None, None, None]);
        let rebuilt = state
            .rebuild(&kept, FIRST_MOVE)
            .expect("every kept move is a move of the match");
        assert_eq!(rebuilt.len(), sent.len());
        for ((v, live), replayed) in sent.into_iter().zip(rebuilt) {
            assert_eq!(frames(v, replayed), frames(v, live), "event {v}");
        }
        // From any point on, as a resume asks for them.
        let last_three = state.rebuild(&kept[kept.len() - 3..], FIRST_MOVE).unwrap();
        assert_eq!(last_three.len(), 3);
    }

    /// The moves before a takeback cannot be rebuilt from the plies (one is gone, and the
    /// next move takes its number): a catch-up over a takeback is a snapshot; one after it is
    /// rebuilt as sent.
    #[test]
    fn a_catch_up_over_a_takeback_is_a_snapshot_and_one_after_it_is_rebuilt() {
        let now = Instant::now();
        let mut state = playing_with(None, now);
        let mut sent = Vec::new();
        for (side, ack, action) in [
            (Side::White, 1, Action::play(vec![32, 28])),
            (Side::Black, 1, Action::play(vec![19, 23])),
            (Side::Black, 2, Action::ProposeTakeback),
            (Side::White, 2, Action::AcceptTakeback),
            (Side::Black, 3, Action::play(vec![18, 22])),
        ] {
            let Ok(Decision::Events(records)) = state.decide(side, ack, &action, now) else {
                panic!("{action:?} refused");
            };
            for mut record in records {
                state.apply(&record, now).unwrap();
                state.announce_first_move(&mut record, now, FIRST_MOVE);
                sent.push(record.event);
            }
        }
        let kept: Vec<Kept> = sent.iter().map(Kept::of).collect();
        assert!(matches!(sent[3], MatchEvent::TakenBack(_)), "{sent:?}");
        assert_eq!(state.rebuild(&kept[1..], FIRST_MOVE), None);
        assert_eq!(state.rebuild(&kept[3..], FIRST_MOVE), None);
        assert_eq!(
            state.rebuild(&kept[4..], FIRST_MOVE),
            Some(sent[4..].to_vec())
        );
    }

    #[test]
    fn a_kept_move_the_match_does_not_have_is_not_rebuilt() {
        let state = playing_with(None, Instant::now());
        let kept = [Kept::Moved {
            ply: 0,
            clock: None,
            lag_ms: KeptLag::NONE,
        }];
        assert_eq!(state.rebuild(&kept, FIRST_MOVE), None);
        assert_eq!(state.rebuild(&[], FIRST_MOVE), Some(Vec::new()));
    }

    #[test]
    fn a_kept_round_trip_reads_back_as_the_event_carried_it() {
        for lag_ms in [None, Some(0), Some(150), Some(60_000)] {
            assert_eq!(KeptLag::of(lag_ms).get(), lag_ms);
        }
    }

    #[test]
    fn a_kept_move_is_a_few_bytes() {
        assert!(
            std::mem::size_of::<Kept>() <= 32,
            "{}",
            std::mem::size_of::<Kept>()
        );
    }
}
