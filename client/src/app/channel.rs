//! One MinitChess channel as this client knows it (a TV channel or an on-demand game), with the
//! viewer's own prediction score.

use std::time::{Duration, Instant};

use boardcast_protocol::{
    ChannelEvent, ChannelKind, ChannelSnapshot, EngineGameView, EngineResult, PredictionResult,
    Side, Standing,
};

use super::game::Fold;
use crate::i18n::{tr, tr_args};

#[derive(Debug, Clone)]
pub struct Channel {
    pub channel: String,
    pub v: u64,
    pub kind: ChannelKind,
    pub game: Option<EngineGameView>,
    /// When `game.next_reveal_in_ms` / `next_game_in_ms` were received.
    pub timer_at: Instant,
    pub next_game_in_ms: Option<u64>,
    pub standings: Vec<Standing>,
    pub score: Score,
}

/// The viewer's predictions in the current game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Score {
    pub correct: u32,
    pub strikes: u32,
    /// The guess sent for the coming ply: (ply, `from-to`).
    pub pending: Option<(u32, String)>,
    pub last: Option<PredictionResult>,
}

impl Channel {
    pub fn from_snapshot(snapshot: ChannelSnapshot, now: Instant) -> Channel {
        Channel {
            channel: snapshot.channel,
            v: snapshot.v,
            kind: snapshot.kind,
            game: snapshot.game,
            timer_at: now,
            next_game_in_ms: snapshot.next_game_in_ms,
            standings: Vec::new(),
            score: Score::default(),
        }
    }

    pub fn fold(&mut self, v: u64, event: &ChannelEvent, now: Instant) -> Fold {
        if v <= self.v {
            return Fold::Stale;
        }
        if v != self.v + 1 {
            return Fold::Gap;
        }
        self.v = v;
        self.timer_at = now;
        match event {
            ChannelEvent::GameStarted(view) => {
                self.game = Some(view.clone());
                self.next_game_in_ms = None;
                self.standings.clear();
                self.score = Score::default();
            }
            ChannelEvent::PlyRevealed(revealed) => {
                if let Some(game) = &mut self.game {
                    game.revealed.push(revealed.mv.clone());
                    game.board.clone_from(&revealed.board);
                    game.next_ply = revealed.ply + 1;
                    game.move_number = game.next_ply / 2 + 1;
                    game.next_reveal_in_ms = revealed.next_reveal_in_ms;
                    game.legal.clone_from(&revealed.legal);
                }
                if matches!(&self.score.pending, Some((ply, _)) if *ply <= revealed.ply) {
                    self.score.pending = None;
                }
            }
            ChannelEvent::GameEnded(ended) => {
                if let Some(game) = &mut self.game {
                    game.result = Some(ended.result.clone());
                    game.next_reveal_in_ms = None;
                    game.legal.clear();
                }
                self.standings.clone_from(&ended.standings);
                self.next_game_in_ms = ended.next_game_in_ms;
                self.score.pending = None;
            }
        }
        Fold::Applied
    }

    pub fn predicted(&mut self, result: PredictionResult) {
        self.score.correct = result.correct_total;
        self.score.strikes = result.strikes;
        if matches!(&self.score.pending, Some((ply, _)) if *ply == result.ply) {
            self.score.pending = None;
        }
        self.score.last = Some(result);
    }

    /// Time left until the next reveal (or next game), counted down locally.
    pub fn countdown(&self, now: Instant) -> Option<Duration> {
        let ms = match &self.game {
            Some(game) if game.result.is_none() => game.next_reveal_in_ms,
            _ => self.next_game_in_ms,
        }?;
        Some(Duration::from_millis(ms).saturating_sub(now.saturating_duration_since(self.timer_at)))
    }

    /// The last revealed move as board indices (from, to), for highlighting.
    pub fn last_move(&self) -> Option<(usize, usize)> {
        let game = self.game.as_ref()?;
        let (from, to) = game.revealed.last()?.split_once('-')?;
        Some((square_index(from)?, square_index(to)?))
    }

    pub fn result(&self) -> Option<&EngineResult> {
        self.game.as_ref()?.result.as_ref()
    }

    /// The side whose ply is revealed next (White plays the even plies).
    pub fn side_to_move(&self) -> Option<Side> {
        let game = self.game.as_ref().filter(|g| g.result.is_none())?;
        Some(if game.next_ply % 2 == 0 {
            Side::White
        } else {
            Side::Black
        })
    }

    /// Every move the side to move may make in the shown position, `b1-c3`, as the server
    /// lists them (`legal`, sorted): the only guesses worth sending. The server is the one
    /// source of truth; the client computes none. Empty between games and after the end.
    pub fn legal_guesses(&self) -> Vec<String> {
        match (self.game.as_ref(), self.side_to_move()) {
            (Some(game), Some(_)) => game.legal.clone(),
            _ => Vec::new(),
        }
    }

    /// Board indices the piece on `from` may move to.
    pub fn targets_from(&self, from: usize) -> Vec<usize> {
        let from = square_name(from);
        self.legal_guesses()
            .iter()
            .filter_map(|mv| mv.strip_prefix(&from)?.strip_prefix('-'))
            .filter_map(square_index)
            .collect()
    }
}

/// `white wins: king captured`, `draw: 40 moves each`.
pub fn result_text(result: &EngineResult) -> String {
    // The reason is the engine's own words, in English.
    let head = match result.winner {
        Some(side) => tr_args("tui-result-wins", &[("side", side.to_string().into())]),
        None => tr("tui-result-draw"),
    };
    format!("{head}: {}", result.reason)
}

/// Board index (0 = a6 … 29 = e1) of a square name like `b1`.
pub fn square_index(name: &str) -> Option<usize> {
    let mut chars = name.trim().chars();
    let file = chars.next()?.to_ascii_lowercase();
    let rank = chars.next()?.to_digit(10)?;
    if chars.next().is_some() || !('a'..='e').contains(&file) || !(1..=6).contains(&rank) {
        return None;
    }
    Some((6 - rank as usize) * 5 + (file as usize - 'a' as usize))
}

/// Square name of a board index: 0 → `a6`, 29 → `e1`.
pub fn square_name(index: usize) -> String {
    let file = (b'a' + (index % 5) as u8) as char;
    let rank = 6 - index / 5;
    format!("{file}{rank}")
}

/// `b1-c3`, `b1c3` or `b1 c3` → (`b1`, `c3`).
pub fn parse_guess(text: &str) -> Option<(String, String)> {
    let compact: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' ' | 'x'))
        .collect();
    if compact.len() != 4 || !compact.is_ascii() {
        return None;
    }
    let (from, to) = compact.split_at(2);
    let from = square_name(square_index(from)?);
    let to = square_name(square_index(to)?);
    (from != to).then_some((from, to))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use boardcast_protocol::{GameEnded, GameHeader, PlyRevealed};

    pub const START: &str = "kqbnrppppp..........PPPPPRNBQK";

    pub fn view() -> EngineGameView {
        EngineGameView {
            header: GameHeader {
                game_id: 42,
                serial: "CH3SS5".into(),
                white: "L4".into(),
                black: "K7".into(),
            },
            start_board: START.into(),
            start_ply: 0,
            promoted: Vec::new(),
            revealed: Vec::new(),
            board: START.into(),
            next_ply: 0,
            move_number: 1,
            next_reveal_in_ms: Some(2000),
            ply_interval_ms: 2000,
            result: None,
            legal: legal_on(START, minitchess::Color::White),
        }
    }

    /// What the server sends as `legal` for `board` with `side` to move: its moves, sorted.
    pub fn legal_on(board: &str, side: minitchess::Color) -> Vec<String> {
        let board = minitchess::Board::from_layout(board, &[]).expect("a fixture board");
        let mut legal: Vec<String> = minitchess::legal_moves(&board, side)
            .iter()
            .map(ToString::to_string)
            .collect();
        legal.sort_unstable();
        legal
    }

    pub fn snapshot() -> ChannelSnapshot {
        ChannelSnapshot {
            channel: "tv1".into(),
            v: 1,
            kind: ChannelKind::Tv,
            game: Some(view()),
            next_game_in_ms: None,
        }
    }

    #[test]
    fn squares_round_trip() {
        assert_eq!(square_index("a6"), Some(0));
        assert_eq!(square_index("e1"), Some(29));
        assert_eq!(square_index("b1"), Some(26));
        assert_eq!(square_index("f1"), None);
        assert_eq!(square_name(26), "b1");
        assert_eq!(
            parse_guess("B1C3"),
            Some(("b1".to_owned(), "c3".to_owned()))
        );
        assert_eq!(parse_guess("b1-b1"), None);
    }

    #[test]
    fn legal_guesses_are_the_moves_of_the_side_to_move_in_the_shown_position() {
        let now = Instant::now();
        let mut channel = Channel::from_snapshot(snapshot(), now);
        let white = channel.legal_guesses();
        assert_eq!(white.len(), 7, "{white:?}");
        assert!(white.contains(&"b1-c3".to_owned()) && white.contains(&"a2-a3".to_owned()));
        assert!(!white.contains(&"a2-a4".to_owned()));
        assert_eq!(channel.targets_from(square_index("b1").unwrap()), [15, 17]);
        // The server's list is the truth: the client offers what it says, nothing it computes.
        let mut told = snapshot();
        told.game.as_mut().unwrap().legal = vec!["b1-c3".into()];
        assert_eq!(Channel::from_snapshot(told, now).legal_guesses(), ["b1-c3"]);
        let reveal = ChannelEvent::PlyRevealed(PlyRevealed {
            ply: 0,
            mv: "b1-c3".into(),
            board: "kqbnrppppp.......N..PPPPPR.BQK".into(),
            next_reveal_in_ms: Some(2000),
            legal: legal_on("kqbnrppppp.......N..PPPPPR.BQK", minitchess::Color::Black),
        });
        channel.fold(2, &reveal, now);
        assert_eq!(channel.side_to_move(), Some(Side::Black));
        let black = channel.legal_guesses();
        assert!(black.contains(&"a5-a4".to_owned()) && !black.contains(&"a2-a3".to_owned()));
    }

    #[test]
    fn reveals_move_the_game_on_and_clear_the_pending_guess() {
        let now = Instant::now();
        let mut channel = Channel::from_snapshot(snapshot(), now);
        channel.score.pending = Some((0, "b1-c3".into()));
        let reveal = ChannelEvent::PlyRevealed(PlyRevealed {
            ply: 0,
            mv: "b1-c3".into(),
            board: "kqbnrppppp.......N..PPPPPR.BQK".into(),
            next_reveal_in_ms: Some(2000),
            legal: legal_on("kqbnrppppp.......N..PPPPPR.BQK", minitchess::Color::Black),
        });
        assert_eq!(channel.fold(2, &reveal, now), Fold::Applied);
        let game = channel.game.as_ref().unwrap();
        assert_eq!((game.next_ply, game.move_number), (1, 1));
        assert_eq!(channel.last_move(), Some((26, 17)));
        assert_eq!(channel.score.pending, None);
        assert_eq!(channel.fold(2, &reveal, now), Fold::Stale);
        let ended = ChannelEvent::GameEnded(GameEnded {
            game_id: 42,
            result: EngineResult {
                winner: None,
                reason: "40 moves each".into(),
            },
            standings: Vec::new(),
            next_game_in_ms: Some(5000),
        });
        channel.fold(3, &ended, now);
        assert_eq!(
            channel.countdown(now + Duration::from_secs(1)),
            Some(Duration::from_secs(4))
        );
    }
}
