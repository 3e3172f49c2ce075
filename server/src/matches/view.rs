//! What is shown of a match: the snapshot a (re)connecting client gets, the lobby line, the
//! PDN, and the legal moves and king counters as the wire lists them. Views read the state
//! and change nothing.

use std::time::{Duration, Instant};

use boardcast_protocol::{
    Absence, BySide, ClockState, EndReason, KingCounter, KingCounters, LegalMove, MatchPhase,
    MatchSnapshot, MatchSummary, Moved, PlayedMove, PlayerInfo, Side,
};
use frisian::pdn::PdnError;
use frisian::{Color, Move, MoveError, MoveList, Outcome, PlayError, Position};

use super::state::MatchState;

pub(super) fn route_numbers(mv: &Move) -> Vec<u8> {
    mv.route().iter().map(|sq| sq.number()).collect()
}

pub(super) fn capture_numbers(mv: &Move) -> Vec<u8> {
    mv.captures().iter().map(|sq| sq.number()).collect()
}

/// The legal moves of `position` as the wire lists them: sorted by route, square numbers
/// compared one by one (then by captures), so the order never depends on move generation.
pub(crate) fn legal_moves(position: &Position) -> Vec<LegalMove> {
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

/// The `moved` event of playing `mv` as ply `ply` from `before`, whose legal moves are
/// `legal`, leaving the clocks at `clock` (which stop running if the move ends the game), and
/// how the game stands after it. The one place a `moved` event is made: live (`decide_move`)
/// and again for a resume ([`super::kept`]), so the two cannot differ by a byte.
pub(super) fn moved_event(
    before: &Position,
    legal: &MoveList,
    mv: Move,
    ply: u32,
    clock: Option<ClockState>,
) -> Result<(Moved, Option<Outcome>), PlayError> {
    let played = played_move(before, legal, mv, ply);
    let after = before.play_in(mv, legal)?;
    let outcome = after.status().outcome();
    let clock = clock.map(|state| ClockState {
        running: if outcome.is_some() {
            None
        } else {
            state.running
        },
        ..state
    });
    let moved = Moved {
        played,
        fen: after.fen(),
        clock,
        legal_moves: if outcome.is_some() {
            Vec::new()
        } else {
            legal_moves(&after)
        },
        king_counters: king_counters(&after),
        // Filled in once the move is in: see `MatchState::announce_first_move`.
        first_move_in_ms: None,
        lag_ms: None,
    };
    Ok((moved, outcome))
}

/// Ply `ply`, `mv` played from `before` (whose legal moves are `legal`), as the wire shows it.
fn played_move(before: &Position, legal: &MoveList, mv: Move, ply: u32) -> PlayedMove {
    PlayedMove {
        ply,
        side: before.turn().into(),
        notation: before.notation_in(mv, legal),
        route: route_numbers(&mv),
        captures: capture_numbers(&mv),
        promotes: mv.promotes(),
    }
}

pub(super) fn king_counters(position: &Position) -> KingCounters {
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

/// Why a match cannot be written as PDN (a corrupted state; `apply` lets no such move in).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExportError {
    #[error("the match's moves do not replay: {0}")]
    Moves(#[from] MoveError),
    #[error(transparent)]
    Pdn(#[from] PdnError),
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
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}.{:03}", ms / 1000, ms % 1000)
            .trim_end_matches('0')
            .to_owned()
    }
}

impl MatchState {
    /// The match as a snapshot at `now`, as the match's actor sends it: with the time the side
    /// to move has left for its first move, given the server's `first_move_timeout`.
    pub(crate) fn live_snapshot(
        &self,
        now: Instant,
        connected: BySide<bool>,
        first_move_timeout: Duration,
    ) -> MatchSnapshot {
        MatchSnapshot {
            first_move_in_ms: self
                .first_move_in(now, first_move_timeout)
                .map(|left| left.as_millis() as u64),
            ..self.snapshot(now, connected)
        }
    }

    /// The match as a snapshot at `now`; `connected` tells which seats a connection holds.
    /// Without the first-move time, which takes the server's timeout: see `live_snapshot`.
    pub(crate) fn snapshot(&self, now: Instant, connected: BySide<bool>) -> MatchSnapshot {
        let player = |side: Side| {
            self.seat(side).map(|seat| PlayerInfo {
                name: seat.player.name.clone(),
                bot: seat.player.bot,
                connected: connected[side],
                account: seat.player.account.is_some(),
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
            moves: self.played_moves(),
            turn: self.position.turn().into(),
            clock: self.clock.as_ref().map(|clock| clock.state(now)),
            legal_moves: if playing {
                legal_moves(&self.position)
            } else {
                Vec::new()
            },
            king_counters: king_counters(&self.position),
            draw_offer: self.draw_offer,
            rematch_offer: self.rematch_offer,
            absent: self
                .grace
                .iter()
                .filter_map(|(side, grace)| {
                    grace.map(|grace| Absence {
                        side,
                        claim_in_ms: grace.left(now).as_millis() as u64,
                    })
                })
                .collect(),
            result: self.result.clone(),
            rematch: self.rematch.clone(),
            first_move_in_ms: None,
            berserk: self.setup.berserk.then(|| {
                self.berserk
                    .iter()
                    .filter_map(|(side, went)| went.then_some(side))
                    .collect()
            }),
            refuses_more_time: boardcast_protocol::MoreTimeRefusals {
                white: self.more_time[Side::White].refused,
                black: self.more_time[Side::Black].refused,
            },
            takeback_offer: self.takeback.offer,
            takebacks: self.takebacks_allowed().is_ok(),
            rated: self.setup.rated,
            event: self.setup.event.clone(),
        }
    }

    /// Every move so far as the wire shows it, derived from the packed plies.
    pub(crate) fn played_moves(&self) -> Vec<PlayedMove> {
        let mut moves = Vec::with_capacity(self.plies.len());
        let walked = self.plies.walk(self.start, |ply| {
            moves.push(played_move(ply.before, ply.legal, ply.mv, ply.index));
        });
        if let Err(err) = walked {
            // `apply` lets no move in that does not replay.
            tracing::error!(match_id = %self.id, %err, "the match's moves do not replay");
        }
        moves
    }

    /// The PDN result: `2-0`, `0-2`, `1-1`, or `*` while going on, after an abort, or when
    /// both players abandoned it (no result).
    pub(crate) fn result_token(&self) -> &'static str {
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
    pub(crate) fn pdn(&self) -> Result<String, ExportError> {
        let played = self.plies.moves(self.start)?;
        let game = frisian::pdn::export(&self.start, &played, Some(self.result_token()))?;
        let name = |side| {
            self.seat(side)
                .map(|seat| seat.player.name.replace(['"', '\\'], ""))
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
        if let Some(change) = self.result.as_ref().and_then(|r| r.rating_change.as_ref()) {
            tags.push_str(&crate::ratings::pdn::rating_tags(change));
        }
        if let Some(result) = &self.result {
            tags.push_str(&format!(
                "[Termination \"{}\"]\n",
                result.detail.replace(['"', '\\'], "")
            ));
        }
        Ok(tags + &game)
    }

    /// The lobby line for this match.
    pub(crate) fn summary(&self, watchers: u32) -> MatchSummary {
        MatchSummary {
            match_id: self.id.clone(),
            white: self.seat(Side::White).map(|s| s.player.name.clone()),
            black: self.seat(Side::Black).map(|s| s.player.name.clone()),
            time_control: self.setup.time_control,
            phase: self.phase(),
            plies: self.plies.len() as u32,
            watchers,
            white_bot: self.seat(Side::White).is_some_and(|s| s.player.bot),
            black_bot: self.seat(Side::Black).is_some_and(|s| s.player.bot),
            white_account: self
                .seat(Side::White)
                .is_some_and(|s| s.player.account.is_some()),
            black_account: self
                .seat(Side::Black)
                .is_some_and(|s| s.player.account.is_some()),
            rated: self.setup.rated,
            rating_range: self.setup.rating_range,
            white_rating: self.seat(Side::White).and_then(|s| s.player.rating),
            black_rating: self.seat(Side::Black).and_then(|s| s.player.rating),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use boardcast_protocol::BySide;

    use crate::matches::decide::fixtures::playing;
    use crate::matches::record::Setup;

    /// The snapshot says where takebacks may be proposed, by the rule that refuses them: in a
    /// casual match yes, in a rated match or a club event's game no (clients show no button).
    #[test]
    fn the_snapshot_says_whether_takebacks_may_be_proposed() {
        let t0 = Instant::now();
        for (rated, event, allowed) in [
            (false, None, true),
            (true, None, false),
            (false, Some("e1".to_owned()), false),
        ] {
            let mut state = playing(t0);
            state.setup = Setup {
                rated,
                event,
                ..state.setup.clone()
            };
            let snapshot = state.snapshot(t0, BySide::new(true, true));
            assert_eq!(snapshot.takebacks, allowed, "rated {rated}");
        }
    }
}
