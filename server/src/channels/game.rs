//! What a channel plays: the parameters of an engine game ([`GameSpec`]) and the game as far as
//! it has been revealed ([`RevealedGame`]).
//!
//! `RevealedGame` is the only place that steps a [`minitchess::Game`], and it steps exactly one
//! ply per [`RevealedGame::reveal`]. The wrapped game therefore never holds a move that has
//! not been revealed, so nothing built from it (views, snapshots, events) can leak one.

use std::time::Duration;

use boardcast_protocol::{EngineGameView, EngineResult, GameHeader, Side, StartEngineGame};
use minitchess::{Engine, EngineError, Game, LAST_PLY, Puzzle, RandomSource, Serial, SerialError};

/// Everything that decides an engine game and how it is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSpec {
    pub serial: Serial,
    pub white: Engine,
    pub black: Engine,
    /// Plies before this one are revealed at once when the game starts.
    pub reveal_from_ply: u32,
    pub ply_interval: Duration,
}

/// Why a requested engine game cannot be played: which field is wrong, in words (the text
/// goes to the client as it is).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("serial: {0}")]
    Serial(#[source] SerialError),
    #[error("white: {0}")]
    White(#[source] EngineError),
    #[error("black: {0}")]
    Black(#[source] EngineError),
    #[error("reveal_from_ply: {0} is past the last ply ({LAST_PLY})")]
    RevealPastTheEnd(u32),
}

impl SpecError {
    /// The request's field that is wrong, as the protocol names it.
    pub fn field(&self) -> &'static str {
        match self {
            SpecError::Serial(_) => "serial",
            SpecError::White(_) => "white",
            SpecError::Black(_) => "black",
            SpecError::RevealPastTheEnd(_) => "reveal_from_ply",
        }
    }
}

impl GameSpec {
    /// The spec a client asked for; `Err` says which field is wrong.
    pub fn from_request(
        request: &StartEngineGame,
        default_interval: Duration,
    ) -> Result<GameSpec, SpecError> {
        let serial: Serial = request.serial.parse().map_err(SpecError::Serial)?;
        let white: Engine = request.white.parse().map_err(SpecError::White)?;
        let black: Engine = request.black.parse().map_err(SpecError::Black)?;
        let reveal_from_ply = request.reveal_from_ply.unwrap_or(0);
        if reveal_from_ply > LAST_PLY {
            return Err(SpecError::RevealPastTheEnd(reveal_from_ply));
        }
        Ok(GameSpec {
            serial,
            white,
            black,
            reveal_from_ply,
            ply_interval: request
                .ply_interval_ms
                .map_or(default_interval, Duration::from_millis),
        })
    }

    /// A game as the module chooses one: a random KTANE serial, two different engines with
    /// two different seeds, re-rolled until the game lasts past ply 12. TV plays it whole.
    pub fn random(rng: &mut impl RandomSource, ply_interval: Duration) -> GameSpec {
        let puzzle = Puzzle::generate(rng);
        GameSpec {
            serial: puzzle.serial,
            white: puzzle.white,
            black: puzzle.black,
            reveal_from_ply: 0,
            ply_interval,
        }
    }
}

/// A revealed ply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Revealed {
    pub ply: u32,
    /// `b1-c3`.
    pub mv: String,
    /// The board after the move.
    pub board: String,
    /// The legal moves on `board` of the side to move next.
    pub legal: Vec<String>,
}

/// An engine game as far as it has been revealed.
#[derive(Debug, Clone)]
pub struct RevealedGame {
    header: GameHeader,
    spec: GameSpec,
    game: Game,
    start_board: String,
    revealed: Vec<String>,
}

impl RevealedGame {
    /// Starts the game of `spec` and reveals its plies before `spec.reveal_from_ply` at once.
    pub fn start(game_id: u64, spec: GameSpec) -> RevealedGame {
        let game = Game::new(spec.serial.as_str(), spec.white, spec.black)
            .expect("a checked serial always starts a game");
        let mut revealed = RevealedGame {
            header: GameHeader {
                game_id,
                serial: spec.serial.to_string(),
                white: spec.white.to_string(),
                black: spec.black.to_string(),
            },
            start_board: game.board().layout(),
            game,
            revealed: Vec::new(),
            spec,
        };
        while revealed.next_ply() < revealed.spec.reveal_from_ply && revealed.reveal().is_some() {}
        revealed
    }

    /// The game a watcher was shown in `view` (a node following another node's channel keeps
    /// its copy this way); `None` if the view names no game this server can play.
    pub fn mirror(view: &EngineGameView) -> Option<RevealedGame> {
        let header = &view.header;
        let spec = GameSpec {
            serial: header.serial.parse().ok()?,
            white: header.white.parse().ok()?,
            black: header.black.parse().ok()?,
            reveal_from_ply: 0,
            ply_interval: Duration::from_millis(view.ply_interval_ms.max(1)),
        };
        let mut game = RevealedGame::start(header.game_id, spec);
        while game.next_ply() < view.next_ply && game.reveal().is_some() {}
        Some(game)
    }

    pub fn header(&self) -> &GameHeader {
        &self.header
    }

    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The ply to be revealed next.
    pub fn next_ply(&self) -> u32 {
        self.game.ply()
    }

    pub fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The moves revealed so far, `b1-c3`.
    pub fn moves(&self) -> &[String] {
        &self.revealed
    }

    pub fn board(&self) -> String {
        self.game.board().layout()
    }

    pub fn start_board(&self) -> &str {
        &self.start_board
    }

    pub fn start_ply(&self) -> u32 {
        self.game.start_ply()
    }

    /// Whether `mv` (`b1-c3`) is a legal move of the side to move in the revealed position.
    /// It depends on that position alone, so it tells nothing about the coming ply.
    pub fn is_legal(&self, mv: &str) -> bool {
        mv.parse::<minitchess::Move>()
            .is_ok_and(|mv| self.game.legal_moves().contains(&mv))
    }

    /// The side whose move is revealed next.
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move().into()
    }

    /// Plays and reveals the next ply; `None` once the game is over.
    pub fn reveal(&mut self) -> Option<Revealed> {
        let ply = self.game.ply();
        let mv = self.game.step()?.to_string();
        self.revealed.push(mv.clone());
        Some(Revealed {
            ply,
            mv,
            board: self.board(),
            legal: self.legal(),
        })
    }

    /// The legal moves of the side to move, `from-to`, sorted; none once the game is over.
    /// They follow from the revealed board alone, so they tell nothing of the coming ply.
    pub fn legal(&self) -> Vec<String> {
        let mut legal: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        legal.sort_unstable();
        legal
    }

    /// The result once the game is over.
    pub fn result(&self) -> Option<EngineResult> {
        self.game.outcome().map(|outcome| EngineResult {
            winner: outcome.winner.map(Side::from),
            reason: outcome.reason.to_string(),
        })
    }

    /// The view a watcher gets; `next_reveal_in` is the time until the next reveal.
    pub fn view(&self, next_reveal_in: Option<Duration>) -> EngineGameView {
        let next_ply = self.next_ply();
        EngineGameView {
            header: self.header.clone(),
            start_board: self.start_board.clone(),
            start_ply: self.start_ply(),
            promoted: Vec::new(),
            revealed: self.revealed.clone(),
            board: self.board(),
            next_ply,
            move_number: next_ply / 2 + 1,
            next_reveal_in_ms: if self.is_over() {
                None
            } else {
                next_reveal_in.map(|d| d.as_millis() as u64)
            },
            ply_interval_ms: self.spec.ply_interval.as_millis() as u64,
            result: self.result(),
            legal: self.legal(),
        }
    }
}

/// The view of an archived game: every move revealed, the result known. The final board is
/// worked out by playing the stored engines again (they are deterministic).
pub(crate) fn finished_view(
    header: GameHeader,
    start_board: String,
    start_ply: u32,
    moves: Vec<String>,
    result: EngineResult,
) -> EngineGameView {
    let replayed = match (
        header.white.parse::<Engine>(),
        header.black.parse::<Engine>(),
    ) {
        (Ok(white), Ok(black)) => Game::new(&header.serial, white, black).ok(),
        _ => None,
    };
    let board = replayed.map_or_else(
        || start_board.clone(),
        |mut game| {
            for _ in 0..moves.len() {
                game.step();
            }
            game.board().layout()
        },
    );
    let next_ply = start_ply + moves.len() as u32;
    EngineGameView {
        header,
        start_board,
        start_ply,
        promoted: Vec::new(),
        revealed: moves,
        board,
        next_ply,
        move_number: next_ply / 2 + 1,
        next_reveal_in_ms: None,
        ply_interval_ms: 0,
        result: Some(result),
        legal: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(serial: &str, white: &str, black: &str, from: u32) -> GameSpec {
        GameSpec::from_request(
            &StartEngineGame {
                serial: serial.into(),
                white: white.into(),
                black: black.into(),
                ply_interval_ms: Some(250),
                reveal_from_ply: Some(from),
            },
            Duration::from_secs(2),
        )
        .unwrap()
    }

    #[test]
    fn the_worked_example_starts_with_b1_c3_and_matches_minitchess() {
        let mut revealed = RevealedGame::start(7, spec("CH3SS5", "L4", "K7", 0));
        assert_eq!(revealed.view(None).revealed, Vec::<String>::new());
        assert_eq!(revealed.reveal().unwrap().mv, "b1-c3");
        while revealed.reveal().is_some() {}
        let mut game = Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
        game.run_to_end();
        let expected: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(revealed.moves(), expected);
        assert_eq!(revealed.board(), game.board().layout());
        let outcome = game.outcome().unwrap();
        assert_eq!(
            revealed.result().unwrap().reason,
            outcome.reason.to_string()
        );
    }

    #[test]
    fn legality_is_judged_in_the_revealed_position() {
        let mut revealed = RevealedGame::start(7, spec("CH3SS5", "L4", "K7", 0));
        assert!(revealed.is_legal("b1-c3") && revealed.is_legal("a2-a3"));
        // A pawn steps one square; black does not move first; nonsense is never legal.
        for illegal in ["a2-a4", "a5-a4", "b1-b3", "z9-a1", ""] {
            assert!(!revealed.is_legal(illegal), "{illegal}");
        }
        assert_eq!(revealed.side_to_move(), Side::White);
        revealed.reveal();
        assert!(revealed.is_legal("a5-a4") && !revealed.is_legal("a2-a3"));
        assert_eq!(revealed.side_to_move(), Side::Black);
    }

    #[test]
    fn every_revealed_ply_was_among_the_legal_moves_offered_before_it() {
        let mut revealed = RevealedGame::start(7, spec("CH3SS5", "L4", "K7", 0));
        let mut offered = revealed.view(None).legal;
        assert_eq!(
            offered,
            [
                "a2-a3", "b1-a3", "b1-c3", "b2-b3", "c2-c3", "d2-d3", "e2-e3"
            ]
        );
        while let Some(ply) = revealed.reveal() {
            assert!(offered.contains(&ply.mv), "{} not in {offered:?}", ply.mv);
            let mut sorted = ply.legal.clone();
            sorted.sort();
            assert_eq!(ply.legal, sorted);
            offered = ply.legal;
        }
        assert!(
            offered.is_empty(),
            "nothing to predict once the game is over"
        );
        assert!(revealed.view(None).legal.is_empty());
    }

    #[test]
    fn plies_before_the_puzzle_point_are_revealed_at_once_and_no_further() {
        let revealed = RevealedGame::start(1, spec("CH3SS5", "L4", "K7", 6));
        let view = revealed.view(Some(Duration::from_millis(250)));
        assert_eq!(view.revealed.len(), 6);
        assert_eq!(view.next_ply, 6);
        assert_eq!(view.move_number, 4);
        assert_eq!(view.next_reveal_in_ms, Some(250));
        assert_eq!(view.start_board, "kqbnrppppp..........PPPPPRNBQK");
        assert_eq!(view.header.white, "L4");
    }

    #[test]
    fn bad_requests_say_which_field() {
        let mut request = StartEngineGame {
            serial: "ch3ss5".into(),
            white: "L4".into(),
            black: "K7".into(),
            ply_interval_ms: None,
            reveal_from_ply: None,
        };
        let default = Duration::from_secs(2);
        let refused = |request: &StartEngineGame| {
            GameSpec::from_request(request, default)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            refused(&request),
            "serial: invalid character 'c' at position 0 of the serial number: only upper-case \
             letters A-Z and digits 0-9 are allowed"
        );
        request.serial = "CH3SS5".into();
        request.white = "L".into();
        assert_eq!(
            refused(&request),
            "white: invalid seed \"\": a seed is a single digit 0-9"
        );
        request.white = "L4".into();
        request.black = "X7".into();
        assert_eq!(
            refused(&request),
            "black: unknown engine letter 'X': the engines are D, K, L, M and S"
        );
        request.black = "K7".into();
        request.reveal_from_ply = Some(80);
        assert_eq!(
            GameSpec::from_request(&request, default),
            Err(SpecError::RevealPastTheEnd(80))
        );
        assert_eq!(
            refused(&request),
            format!("reveal_from_ply: 80 is past the last ply ({LAST_PLY})")
        );
        request.reveal_from_ply = None;
        assert_eq!(
            GameSpec::from_request(&request, default)
                .unwrap()
                .ply_interval,
            default
        );
    }

    #[test]
    fn random_specs_follow_the_module() {
        let mut state = 99u64;
        let mut rng = |n: u32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % u64::from(n)) as u32
        };
        for _ in 0..20 {
            let spec = GameSpec::random(&mut rng, Duration::from_secs(2));
            assert_ne!(spec.white.kind, spec.black.kind);
            assert_ne!(spec.white.seed, spec.black.seed);
            assert_eq!(spec.serial.as_str().len(), 6);
        }
    }
}
