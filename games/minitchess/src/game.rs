//! The game loop (§3): one ply at a time, or to the end in one call.
//!
//! A `Game` holds only the present: the board, the moves so far and, once known, the outcome.
//! Stepping computes exactly one ply, so a server can reveal plies one by one without ever
//! having the rest of the game in memory. Whether the next side can move is settled right
//! after each move, so `outcome()` is final as soon as the game is.

use std::fmt;

use crate::board::{Board, code};
use crate::digits::{BombNumber, DIGIT_COUNT, Digits, SerialError};
use crate::engine::Engine;
use crate::movegen::{self, MoveList};
use crate::square::{Color, Move};

/// The last ply a game can reach: Black's 40th move.
pub const LAST_PLY: u32 = 79;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The mover took the enemy king.
    KingCaptured,
    /// The side to move had no legal move and lost.
    NoLegalMoves,
    /// Ply 79 was played without a king being taken: a draw.
    FortyMovesEach,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::KingCaptured => "king captured",
            EndReason::NoLegalMoves => "no legal moves",
            EndReason::FortyMovesEach => "40 moves each",
        })
    }
}

/// How a game ended; `winner` is `None` for a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl Outcome {
    /// `side` had to move and could not.
    const fn stuck(side: Color) -> Outcome {
        Outcome {
            winner: Some(side.opponent()),
            reason: EndReason::NoLegalMoves,
        }
    }
}

/// The reference files' `result`: `white wins (king captured)`,
/// `black wins (white has no legal moves)`, `draw (40 moves each)`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (None, reason) => write!(f, "draw ({reason})"),
            (Some(w), EndReason::NoLegalMoves) => {
                write!(f, "{w} wins ({} has no legal moves)", w.opponent())
            }
            (Some(w), reason) => write!(f, "{w} wins ({reason})"),
        }
    }
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(transparent)]
    Serial(#[from] SerialError),
    #[error("start ply {0} is out of range: a game ends after ply {LAST_PLY}")]
    StartPly(u32),
    #[error("engine {0}: a seed is a single digit 0-9")]
    Seed(String),
}

/// A game between two engines, from the start or from a custom position.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    engines: [Engine; 2],
    digits: [Digits; 2],
    start_ply: u32,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

const fn slot(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Game {
    /// A game from the start position, White to move on ply 0.
    pub fn new(serial: &str, white: Engine, black: Engine) -> Result<Game, GameError> {
        Game::from_position(serial, white, black, Board::start(), 0)
    }

    /// A game from `board` with ply `start_ply` (0..=79) to play next: White moves on even
    /// plies, and the engines use the digits of that ply. There is no previous move, so
    /// engine M's mirror goals start empty.
    pub fn from_position(
        serial: &str,
        white: Engine,
        black: Engine,
        board: Board,
        start_ply: u32,
    ) -> Result<Game, GameError> {
        let bomb = BombNumber::from_serial(serial)?;
        if start_ply > LAST_PLY {
            return Err(GameError::StartPly(start_ply));
        }
        // `Engine`'s fields are public, so its parser cannot be the only gate.
        if let Some(bad) = [white, black].into_iter().find(|e| e.seed > 9) {
            return Err(GameError::Seed(format!("{}{}", bad.kind, bad.seed)));
        }
        let mut game = Game {
            board,
            engines: [white, black],
            digits: [
                Digits::new(white.seed, &bomb),
                Digits::new(black.seed, &bomb),
            ],
            start_ply,
            moves: Vec::with_capacity((LAST_PLY + 1 - start_ply) as usize),
            outcome: None,
        };
        game.settle_if_stuck();
        Ok(game)
    }

    /// Plays exactly one ply and returns its move; `None` once the game is over.
    pub fn step(&mut self) -> Option<Move> {
        if self.outcome.is_some() {
            return None;
        }
        let ply = self.ply();
        let side = self.side_to_move();
        let legal = movegen::targets(&self.board, side);
        let last = self.moves.last().copied();
        let n = (ply / 2) as usize;
        let digits = &self.digits[slot(side)];
        debug_assert!(n + 1 < DIGIT_COUNT);
        let engine = self.engines[slot(side)];
        let Some(mv) = engine.choose_from(
            &self.board,
            side,
            last,
            &legal,
            digits.get(n + 1),
            digits.get(n),
        ) else {
            // Not reached while the outcome is settled after every move; the rule holds anyway.
            self.outcome = Some(Outcome::stuck(side));
            return None;
        };
        self.moves.push(mv);
        let captured = self.board.apply(mv);
        if code::kind(captured) == code::KING {
            self.outcome = Some(Outcome {
                winner: Some(side),
                reason: EndReason::KingCaptured,
            });
        } else if ply == LAST_PLY {
            self.outcome = Some(Outcome {
                winner: None,
                reason: EndReason::FortyMovesEach,
            });
        } else {
            self.settle_if_stuck();
        }
        Some(mv)
    }

    /// Plays every remaining ply.
    pub fn run_to_end(&mut self) {
        while self.step().is_some() {}
    }

    /// A side to move without legal moves loses at once (nothing is recorded for its ply).
    fn settle_if_stuck(&mut self) {
        let side = self.side_to_move();
        if !movegen::has_legal_move(&self.board, side) {
            self.outcome = Some(Outcome::stuck(side));
        }
    }

    /// The ply to be played next (the start ply plus the moves played).
    pub fn ply(&self) -> u32 {
        self.start_ply + self.moves.len() as u32
    }

    /// The ply the game started from.
    pub fn start_ply(&self) -> u32 {
        self.start_ply
    }

    /// The move number the module displays for the next ply: `ply div 2 + 1`.
    pub fn move_number(&self) -> u32 {
        self.ply() / 2 + 1
    }

    pub fn side_to_move(&self) -> Color {
        Color::on_ply(self.ply())
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played so far, from the start ply on.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// `None` while the game goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The legal moves of the side to move; empty once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        if self.is_over() {
            MoveList::new()
        } else {
            movegen::legal_moves(&self.board, self.side_to_move())
        }
    }

    pub fn engine(&self, color: Color) -> Engine {
        self.engines[slot(color)]
    }

    pub fn white(&self) -> Engine {
        self.engine(Color::White)
    }

    pub fn black(&self) -> Engine {
        self.engine(Color::Black)
    }

    /// The 41 digits of `color`'s engine.
    pub fn digits(&self, color: Color) -> &Digits {
        &self.digits[slot(color)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(s: &str) -> Engine {
        s.parse().unwrap()
    }

    #[test]
    fn first_ply_of_the_worked_example() {
        let mut g = Game::new("CH3SS5", engine("L4"), engine("K7")).unwrap();
        assert_eq!(
            (g.ply(), g.move_number(), g.side_to_move()),
            (0, 1, Color::White)
        );
        assert_eq!(g.step(), Some("b1-c3".parse().unwrap()));
        assert_eq!(
            (g.ply(), g.move_number(), g.side_to_move()),
            (1, 1, Color::Black)
        );
        assert_eq!(g.board().layout(), "kqbnrppppp.......N..PPPPPR.BQK");
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn stepping_and_running_agree_and_stop_at_the_end() {
        let mut stepped = Game::new("CH3SS5", engine("D0"), engine("D1")).unwrap();
        let mut ran = stepped.clone();
        ran.run_to_end();
        let mut count = 0;
        while stepped.step().is_some() {
            count += 1;
        }
        assert_eq!(count, ran.moves().len());
        assert_eq!(stepped.moves(), ran.moves());
        assert_eq!(stepped.board(), ran.board());
        assert_eq!(stepped.step(), None);
        assert_eq!(
            stepped.moves().len(),
            count,
            "a finished game stays finished"
        );
        assert!(stepped.legal_moves().is_empty());
        let o = ran.outcome().unwrap();
        assert_eq!(o.to_string(), "white wins (king captured)");
    }

    #[test]
    fn a_side_without_moves_loses_before_moving() {
        let board = Board::from_layout("KRRRRPPPPP.......k............", &[]).unwrap();
        let mut g = Game::from_position("CH3SS5", engine("D1"), engine("K2"), board, 0).unwrap();
        let o = g.outcome().unwrap();
        assert_eq!(o.winner, Some(Color::Black));
        assert_eq!(o.reason, EndReason::NoLegalMoves);
        assert_eq!(o.to_string(), "black wins (white has no legal moves)");
        assert_eq!(g.step(), None);
        assert!(g.moves().is_empty());
    }

    #[test]
    fn ply_79_ends_in_a_draw() {
        let board = Board::from_layout(".........K..........k.........", &[]).unwrap();
        let mut g = Game::from_position("SC7FE3", engine("D0"), engine("S7"), board, 79).unwrap();
        assert_eq!(g.side_to_move(), Color::Black);
        assert!(g.step().is_some());
        let o = g.outcome().unwrap();
        assert_eq!((o.winner, o.reason), (None, EndReason::FortyMovesEach));
        assert_eq!(o.to_string(), "draw (40 moves each)");
        assert_eq!(g.step(), None);
    }

    #[test]
    fn set_up_errors_are_reported() {
        let (w, b) = (engine("L4"), engine("K7"));
        assert_eq!(
            Game::new("ch3ss5", w, b).unwrap_err(),
            GameError::Serial(SerialError::InvalidChar { index: 0, ch: 'c' })
        );
        assert_eq!(
            Game::from_position("CH3SS5", w, b, Board::start(), 80).unwrap_err(),
            GameError::StartPly(80)
        );
        let wild = Engine {
            kind: w.kind,
            seed: 12,
        };
        assert_eq!(
            Game::new("CH3SS5", w, wild).unwrap_err(),
            GameError::Seed("L12".into())
        );
    }

    #[test]
    fn a_custom_start_ply_sets_side_and_move_number() {
        let g =
            Game::from_position("CH3SS5", engine("S1"), engine("S2"), Board::start(), 11).unwrap();
        assert_eq!(
            (g.ply(), g.move_number(), g.side_to_move()),
            (11, 6, Color::Black)
        );
        assert_eq!(g.start_ply(), 11);
    }

    #[test]
    fn stepping_agrees_with_the_explicit_sort_and_pick_rule() {
        let engines: Vec<Engine> = Engine::all().collect();
        for serial in ["CH3SS5", "ZX9AB0"] {
            for &white in &engines {
                for &black in &engines {
                    let mut game = Game::new(serial, white, black).unwrap();
                    loop {
                        let (side, n) = (game.side_to_move(), (game.ply() / 2) as usize);
                        let (board, last) = (*game.board(), game.moves().last().copied());
                        let engine = game.engine(side);
                        let mut list = engine.candidates(&board, side, last).to_vec();
                        let digits = *game.digits(side);
                        let Some(mv) = game.step() else { break };
                        let expected = Engine::pick(&mut list, digits.get(n + 1), digits.get(n));
                        assert_eq!(mv, expected, "{serial} {white} {black} ply {}", game.ply());
                    }
                }
            }
        }
    }
}
