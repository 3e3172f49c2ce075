//! One Frisian match as this client knows it: a snapshot with the versioned events folded in.

use std::time::{Duration, Instant};

use boardcast_protocol::{
    ClockState, ErrorArgs, KingCounters, LegalMove, MatchEvent, MatchPhase, MatchResult,
    MatchSnapshot, PlayedMove, PlayerInfo, Side, TimeControl,
};

use super::fen::Board;
use crate::i18n::{Lang, current, tr, tr_args};

/// What folding one event did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    Applied,
    /// Already seen (a re-sent event after a reconnect): ignored.
    Stale,
    /// Events were missed: the client must ask for them again.
    Gap,
}

#[derive(Debug, Clone)]
pub struct Game {
    pub match_id: String,
    pub v: u64,
    pub white: Option<PlayerInfo>,
    pub black: Option<PlayerInfo>,
    pub time_control: Option<TimeControl>,
    pub phase: MatchPhase,
    /// Whether the lobby lists the match (a public seek is unwatched when its creator leaves).
    pub public: bool,
    /// The position before the first move, to replay the history from.
    pub start_fen: String,
    pub fen: String,
    pub board: Board,
    pub moves: Vec<PlayedMove>,
    pub turn: Side,
    pub clock: Option<ClockState>,
    /// When `clock` was received, to let the running clock tick locally.
    pub clock_at: Instant,
    pub legal: Vec<LegalMove>,
    pub counters: KingCounters,
    pub draw_offer: Option<Side>,
    /// The side whose takeback proposal stands.
    pub takeback_offer: Option<Side>,
    pub rematch_offer: Option<Side>,
    /// Sides whose player is gone, with their grace before the opponent may claim: it counts
    /// down only on the gone side's turns (PROTOCOL.md §10).
    pub absent: Vec<Grace>,
    pub result: Option<MatchResult>,
    pub rematch: Option<String>,
    /// Whether the player was told they may claim against the gone opponent.
    pub claim_told: bool,
    /// When the side to move must have made its first move (the server aborts the match
    /// then), from the `first_move_in_ms` last received; `None` when no first move is owed.
    pub first_move_due: Option<Instant>,
    /// Each player's round trip as the server counted it for their last move (`lag_ms`):
    /// their connection quality, shown beside their name.
    pub lag_ms: boardcast_protocol::BySide<Option<u32>>,
    /// An arena game's berserk: the sides that went berserk; `None` outside an arena.
    pub berserk: Option<Vec<Side>>,
    /// Whether the seats may propose takebacks: a casual match, not a club event's game
    /// (the snapshot's `takebacks`). Elsewhere `u` is refused here, not sent to be refused.
    pub takebacks: bool,
    /// Whether the match is rated (the snapshot's `rated`).
    pub rated: bool,
    /// The club event this match is a game of (the snapshot's `event`): with `rated`, what
    /// tells the refused takeback's reason, an event's game (rated or not) or a rated match.
    pub event: Option<String>,
}

impl Game {
    /// The number of the move `moves[index]` belongs to (`1` for `1. 32-28` and for the
    /// `19-23` after it): every White move after the first recorded one opens the next
    /// number, whichever side moved first (a game set up with Black to move starts
    /// `1... 19-23`). The plies' own numbers cannot tell: they count from 0 whoever moves.
    pub fn move_number(&self, index: usize) -> usize {
        let later_whites = self
            .moves
            .iter()
            .take(index + 1)
            .skip(1)
            .filter(|mv| mv.side == Side::White)
            .count();
        later_whites + 1
    }

    /// Why a seat may not propose a takeback here, as the server's refusal would give it
    /// (`takeback_casual_only`, `match`: `event` for a club event's game, rated or not, else
    /// `rated`); `None` where takebacks are allowed. A snapshot that does not say why (an
    /// older server, which sends neither `rated` nor `event`) still says `takebacks: false`,
    /// so the refusal then names no kind of match: the help hides `u` wherever this refuses
    /// it, and nothing hidden is sent.
    pub fn takeback_refusal(&self) -> Option<ErrorArgs> {
        if self.takebacks {
            return None;
        }
        let refusal = ErrorArgs::new("takeback_casual_only");
        Some(if self.event.is_some() {
            refusal.word("match", "event")
        } else if self.rated {
            refusal.word("match", "rated")
        } else {
            refusal
        })
    }

    pub fn from_snapshot(snapshot: MatchSnapshot, now: Instant) -> Game {
        Game {
            board: Board::from_fen(&snapshot.fen),
            match_id: snapshot.match_id,
            v: snapshot.v,
            white: snapshot.white,
            black: snapshot.black,
            time_control: snapshot.time_control,
            phase: snapshot.phase,
            public: snapshot.public,
            start_fen: snapshot.start_fen,
            fen: snapshot.fen,
            moves: snapshot.moves,
            turn: snapshot.turn,
            clock: snapshot.clock,
            clock_at: now,
            legal: by_notation(snapshot.legal_moves),
            counters: snapshot.king_counters,
            draw_offer: snapshot.draw_offer,
            takeback_offer: snapshot.takeback_offer,
            rematch_offer: snapshot.rematch_offer,
            absent: snapshot.absent.iter().map(|a| Grace::new(a, now)).collect(),
            result: snapshot.result,
            rematch: snapshot.rematch,
            claim_told: false,
            first_move_due: first_move_due(snapshot.first_move_in_ms, now),
            lag_ms: Default::default(),
            berserk: snapshot.berserk,
            takebacks: snapshot.takebacks,
            rated: snapshot.rated,
            event: snapshot.event,
        }
    }

    /// Folds event `v` in, if it is the next one.
    pub fn fold(&mut self, v: u64, event: &MatchEvent, now: Instant) -> Fold {
        if v <= self.v {
            return Fold::Stale;
        }
        if v != self.v + 1 {
            return Fold::Gap;
        }
        self.v = v;
        match event {
            MatchEvent::PlayerJoined(joined) => {
                *self.player_mut(joined.side) = Some(PlayerInfo {
                    name: joined.name.clone(),
                    connected: true,
                    bot: joined.bot,
                    account: joined.account,
                });
                if self.white.is_some() && self.black.is_some() && self.result.is_none() {
                    self.phase = MatchPhase::Playing;
                }
                self.first_move_due = first_move_due(joined.first_move_in_ms, now);
            }
            MatchEvent::Moved(moved) => {
                // A gone side's grace ran until now if it was their turn; from now it runs
                // only if it is their turn after this move.
                for grace in &mut self.absent {
                    grace.left = grace.left(self.turn, now);
                    grace.at = now;
                }
                self.turn = moved.played.side.opposite();
                self.moves.push(moved.played.clone());
                self.fen.clone_from(&moved.fen);
                self.board = Board::from_fen(&moved.fen);
                self.clock = moved.clock;
                self.clock_at = now;
                self.legal = by_notation(moved.legal_moves.clone());
                self.counters = moved.king_counters;
                self.first_move_due = first_move_due(moved.first_move_in_ms, now);
                if moved.lag_ms.is_some() {
                    self.lag_ms[moved.played.side] = moved.lag_ms;
                }
            }
            MatchEvent::DrawOffered(side) => self.draw_offer = Some(*side),
            MatchEvent::DrawDeclined(_) | MatchEvent::DrawOfferCancelled => self.draw_offer = None,
            MatchEvent::PlayerLeft(absence) => {
                self.claim_told = false;
                self.set_connected(absence.side, false);
                self.absent.retain(|grace| grace.side != absence.side);
                self.absent.push(Grace::new(absence, now));
            }
            MatchEvent::PlayerReturned(side) => {
                self.set_connected(*side, true);
                self.absent.retain(|grace| grace.side != *side);
            }
            MatchEvent::Ended(result) => {
                self.result = Some(result.clone());
                self.phase = MatchPhase::Finished;
                self.legal.clear();
                self.draw_offer = None;
                self.first_move_due = None;
                if let Some(clock) = &mut self.clock {
                    let (white, black) = clock_now(clock, self.clock_at, now);
                    *clock = ClockState {
                        white_ms: white,
                        black_ms: black,
                        running: None,
                    };
                    self.clock_at = now;
                }
            }
            MatchEvent::RematchOffered(side) => self.rematch_offer = Some(*side),
            MatchEvent::RematchDeclined(_) => self.rematch_offer = None,
            MatchEvent::RematchStarted(id) => {
                self.rematch = Some(id.clone());
                self.rematch_offer = None;
            }
            MatchEvent::MoreTimeGiven(given) => {
                self.clock = Some(given.clock);
                self.clock_at = now;
            }
            MatchEvent::MoreTimeRefused(_) => {}
            MatchEvent::Berserked(berserked) => {
                self.clock = Some(berserked.clock);
                self.clock_at = now;
                self.berserk
                    .get_or_insert_with(Vec::new)
                    .push(berserked.side);
            }
            MatchEvent::TakebackProposed(side) => self.takeback_offer = Some(*side),
            MatchEvent::TakebackDeclined(_) | MatchEvent::TakebackCancelled => {
                self.takeback_offer = None;
            }
            MatchEvent::TakenBack(taken) => {
                for grace in &mut self.absent {
                    grace.left = grace.left(self.turn, now);
                    grace.at = now;
                }
                self.takeback_offer = None;
                self.moves.truncate(taken.plies as usize);
                self.turn = taken.side;
                self.fen.clone_from(&taken.fen);
                self.board = Board::from_fen(&taken.fen);
                if taken.clock.is_some() {
                    self.clock = taken.clock;
                }
                self.clock_at = now;
                self.legal = by_notation(taken.legal_moves.clone());
                self.counters = taken.king_counters;
                self.first_move_due = first_move_due(taken.first_move_in_ms, now);
            }
        }
        Fold::Applied
    }

    fn player_mut(&mut self, side: Side) -> &mut Option<PlayerInfo> {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    fn set_connected(&mut self, side: Side, connected: bool) {
        if let Some(player) = self.player_mut(side) {
            player.connected = connected;
        }
    }

    pub fn player(&self, side: Side) -> Option<&PlayerInfo> {
        match side {
            Side::White => self.white.as_ref(),
            Side::Black => self.black.as_ref(),
        }
    }

    /// Both clocks now, in milliseconds (white, black), the running one ticked down locally.
    pub fn clocks(&self, now: Instant) -> Option<(u64, u64)> {
        self.clock
            .as_ref()
            .map(|clock| clock_now(clock, self.clock_at, now))
    }

    /// The board after the first `plies` moves, replayed from the start position with the
    /// rules crate (for browsing the history); `None` if the record does not replay.
    pub fn board_at(&self, plies: usize) -> Option<Board> {
        let mut position = frisian::Position::from_fen(&self.start_fen).ok()?;
        for played in self.moves.iter().take(plies) {
            let route = played
                .route
                .iter()
                .map(|&n| frisian::Square::new(n))
                .collect::<Option<Vec<_>>>()?;
            let mv = position.move_from_route(&route).ok()?;
            position = position.play(mv).ok()?;
        }
        Some(Board::from_fen(&position.fen()))
    }

    /// The squares the last move touched (origin and landings).
    pub fn last_route(&self) -> &[u8] {
        self.moves.last().map_or(&[], |m| m.route.as_slice())
    }

    /// Time until the opponent of an absent `side` may claim (zero once allowed), and
    /// whether it counts down now (only on `side`'s turn).
    pub fn claim_in(&self, side: Side, now: Instant) -> Option<Duration> {
        self.absent
            .iter()
            .find(|grace| grace.side == side)
            .map(|grace| grace.left(self.turn, now))
    }

    /// Time left for the side to move to make its first move before the server aborts the
    /// match (zero once up); `None` when no first move is owed.
    pub fn first_move_in(&self, now: Instant) -> Option<Duration> {
        self.first_move_due
            .filter(|_| self.phase == MatchPhase::Playing)
            .map(|due| due.saturating_duration_since(now))
    }

    /// Whether a claim now ends the match as aborted (before both sides moved, PROTOCOL.md
    /// §10) rather than as a win or a draw.
    pub fn claim_aborts(&self) -> bool {
        let moved = |side| self.moves.iter().any(|m| m.side == side);
        !(moved(Side::White) && moved(Side::Black))
    }

    pub fn is_over(&self) -> bool {
        self.result.is_some() || self.phase == MatchPhase::Finished
    }
}

/// An absent side's grace before a claim, as last told: `left` as of `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grace {
    pub side: Side,
    pub left: Duration,
    pub at: Instant,
}

impl Grace {
    fn new(absence: &boardcast_protocol::Absence, now: Instant) -> Grace {
        Grace {
            side: absence.side,
            left: Duration::from_millis(absence.claim_in_ms),
            at: now,
        }
    }

    /// What is left at `now` with `turn` to move: it runs only on the absent side's turn.
    fn left(&self, turn: Side, now: Instant) -> Duration {
        if turn == self.side {
            self.left
                .saturating_sub(now.saturating_duration_since(self.at))
        } else {
            self.left
        }
    }
}

/// When a first move is due, from `first_move_in_ms` received at `now`.
fn first_move_due(first_move_in_ms: Option<u64>, now: Instant) -> Option<Instant> {
    first_move_in_ms.map(|ms| now + Duration::from_millis(ms))
}

/// The legal moves in notation order, square by square (`9-14` before `10-14`, `32-27` before
/// `32-28`), whatever order the server sent them in.
fn by_notation(mut legal: Vec<LegalMove>) -> Vec<LegalMove> {
    legal.sort_by(|a, b| {
        a.route
            .cmp(&b.route)
            .then_with(|| a.notation.cmp(&b.notation))
    });
    legal
}

fn clock_now(clock: &ClockState, at: Instant, now: Instant) -> (u64, u64) {
    let elapsed = u64::try_from(now.saturating_duration_since(at).as_millis()).unwrap_or(u64::MAX);
    let tick = |side: Side, ms: u64| {
        if clock.running == Some(side) {
            ms.saturating_sub(elapsed)
        } else {
            ms
        }
    };
    (
        tick(Side::White, clock.white_ms),
        tick(Side::Black, clock.black_ms),
    )
}

/// `4:59`, or `0:09.4` under ten seconds.
pub fn format_clock(ms: u64) -> String {
    let duration = Duration::from_millis(ms);
    let seconds = duration.as_secs();
    if seconds < 10 {
        format!("0:0{}.{}", seconds, duration.subsec_millis() / 100)
    } else if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// How a result reads: `white wins: black has no legal move`, `draw: …`, `aborted`.
pub fn result_text(result: &MatchResult) -> String {
    let head = match (result.winner, result.reason) {
        (Some(side), _) => tr_args("tui-result-wins", &[("side", side.to_string().into())]),
        (None, boardcast_protocol::EndReason::Aborted) => tr("tui-result-aborted"),
        (None, _) => tr("tui-result-draw"),
    };
    // The server's detail is English (for programs and logs): another language says the
    // reason in its own words (`reason-*`, as the web page does).
    let detail = match current() {
        Lang::En => result.detail.clone(),
        Lang::Nl | Lang::Fy => serde_json::to_value(result.reason)
            .ok()
            .and_then(|reason| {
                reason
                    .as_str()
                    .map(|reason| tr(&format!("reason-{reason}")))
            })
            .unwrap_or_default(),
    };
    if detail.is_empty() {
        head
    } else {
        format!("{head}: {detail}")
    }
}

/// One player's new rating and its change, as the web page writes it: `1532 (+12)`, `1662?
/// (−12)` while provisional, `1500 (±0)`.
pub fn rating_diff_text(diff: &boardcast_protocol::RatingDiff) -> String {
    let sign = match diff.diff {
        d if d > 0 => '+',
        d if d < 0 => '\u{2212}',
        _ => '±',
    };
    let mark = if diff.provisional { "?" } else { "" };
    format!("{}{mark} ({sign}{})", diff.after, diff.diff.unsigned_abs())
}

/// Both players' new ratings after a rated game, from `result.rating_change`, in the
/// catalogue's words: `White 1532 (+12) · Black 1488 (−12)`; `None` for a game that changed
/// no rating.
pub fn rating_change_parts(result: &MatchResult) -> Option<[String; 2]> {
    let change = result.rating_change.as_ref()?;
    let part = |title: &str, diff| {
        crate::i18n::tr_args(
            "result-rating",
            &[
                ("side", crate::i18n::tr(title).into()),
                ("rating", rating_diff_text(diff).into()),
            ],
        )
    };
    Some([
        part("side-white-title", &change.white),
        part("side-black-title", &change.black),
    ])
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use boardcast_protocol::{EndReason, Moved};

    pub fn snapshot(fen: &str, legal: &[&str]) -> MatchSnapshot {
        MatchSnapshot {
            match_id: "m1".into(),
            v: 2,
            white: Some(PlayerInfo {
                name: "alice".into(),
                connected: true,
                bot: false,
                account: true,
            }),
            black: Some(PlayerInfo {
                name: "bob".into(),
                connected: true,
                bot: false,
                account: true,
            }),
            time_control: Some(TimeControl {
                initial_ms: 300_000,
                increment_ms: 3000,
            }),
            public: true,
            phase: MatchPhase::Playing,
            start_fen: fen.into(),
            fen: fen.into(),
            moves: Vec::new(),
            turn: Side::White,
            clock: Some(ClockState {
                white_ms: 300_000,
                black_ms: 300_000,
                running: Some(Side::White),
            }),
            legal_moves: crate::app::entry::legal(legal),
            king_counters: KingCounters {
                white: None,
                black: None,
            },
            draw_offer: None,
            takeback_offer: None,
            rematch_offer: None,
            absent: Vec::new(),
            result: None,
            rematch: None,
            first_move_in_ms: None,
            berserk: None,
            refuses_more_time: Default::default(),
            takebacks: true,
            rated: false,
            event: None,
        }
    }

    pub fn moved(ply: u32, notation: &str, fen: &str, legal: &[&str]) -> MatchEvent {
        let route = crate::app::entry::parse_squares(notation).unwrap();
        MatchEvent::Moved(Moved {
            played: PlayedMove {
                ply,
                side: if ply.is_multiple_of(2) {
                    Side::White
                } else {
                    Side::Black
                },
                notation: notation.into(),
                route,
                captures: Vec::new(),
                promotes: false,
            },
            fen: fen.into(),
            clock: Some(ClockState {
                white_ms: 290_000,
                black_ms: 300_000,
                running: Some(Side::Black),
            }),
            legal_moves: crate::app::entry::legal(legal),
            king_counters: KingCounters {
                white: None,
                black: None,
            },
            first_move_in_ms: None,
            lag_ms: None,
        })
    }

    #[test]
    fn events_fold_in_order_and_gaps_are_detected() {
        let now = Instant::now();
        let mut game = Game::from_snapshot(snapshot("W:W31-50:B1-20", &["32-28"]), now);
        let after = "B:W28,31,33-50:B1-20";
        assert_eq!(
            game.fold(3, &moved(0, "32-28", after, &["19-23"]), now),
            Fold::Applied
        );
        assert_eq!(game.turn, Side::Black);
        assert_eq!(game.last_route(), &[32, 28]);
        assert!(game.board.get(28).is_some() && game.board.get(32).is_none());
        assert_eq!(
            game.fold(3, &MatchEvent::DrawOfferCancelled, now),
            Fold::Stale
        );
        assert_eq!(
            game.fold(5, &MatchEvent::DrawOfferCancelled, now),
            Fold::Gap
        );
        assert_eq!(game.v, 3);
    }

    #[test]
    fn the_running_clock_ticks_and_stops_at_the_end() {
        let now = Instant::now();
        let mut game = Game::from_snapshot(snapshot("W:W31-50:B1-20", &[]), now);
        let later = now + Duration::from_millis(1500);
        assert_eq!(game.clocks(later), Some((298_500, 300_000)));
        let ended = MatchEvent::Ended(MatchResult {
            winner: Some(Side::Black),
            reason: EndReason::Resignation,
            detail: "white resigned".into(),
            rating_change: None,
        });
        game.fold(3, &ended, later);
        assert_eq!(
            game.clocks(later + Duration::from_secs(10)),
            Some((298_500, 300_000))
        );
        assert_eq!(
            result_text(game.result.as_ref().unwrap()),
            "black wins: white resigned"
        );
    }

    #[test]
    fn an_absent_player_counts_down_to_the_claim_only_on_their_turn() {
        let now = Instant::now();
        let s = Duration::from_secs;
        let mut game = Game::from_snapshot(snapshot("W:W31-50:B1-20", &[]), now);
        let left = MatchEvent::PlayerLeft(boardcast_protocol::Absence {
            side: Side::Black,
            claim_in_ms: 60_000,
        });
        game.fold(3, &left, now);
        assert!(!game.black.as_ref().unwrap().connected);
        // White (still here) is to move: it stands still.
        assert_eq!(game.claim_in(Side::Black, now + s(15)), Some(s(60)));
        assert_eq!(game.claim_in(Side::White, now + s(15)), None);
        // White moves after 15 s: Black's turn, it runs from there.
        let white_moved = moved(0, "32-28", "B:W28,31-50:B1-20", &["19-23"]);
        game.fold(4, &white_moved, now + s(15));
        assert_eq!(game.claim_in(Side::Black, now + s(30)), Some(s(45)));
        game.fold(5, &MatchEvent::PlayerReturned(Side::Black), now + s(30));
        assert_eq!(game.claim_in(Side::Black, now + s(30)), None);
        assert!(game.black.as_ref().unwrap().connected);
    }

    #[test]
    fn clocks_read_like_clocks() {
        assert_eq!(format_clock(300_000), "5:00");
        assert_eq!(format_clock(9_450), "0:09.4");
        assert_eq!(format_clock(3_723_000), "1:02:03");
    }
}
