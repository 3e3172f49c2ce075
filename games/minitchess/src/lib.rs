//! MinitChess, the 5×6 chess variant of the "Lousy Chess" module, and its five engines.
//!
//! Everything follows `shared/minitchess/RULES.md` and reproduces the module move for move,
//! board for board, quirks included. The crate is pure: no I/O, no randomness of its own
//! (puzzle generation takes a [`RandomSource`]).
//!
//! ```
//! use minitchess::{Game, Engine};
//! let mut game = Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
//! assert_eq!(game.step().unwrap().to_string(), "b1-c3");
//! game.run_to_end();
//! assert!(game.outcome().is_some());
//! ```

mod board;
mod digits;
mod engine;
mod game;
mod movegen;
mod puzzle;
mod square;

pub use board::{Board, BoardError, Piece, PieceKind};
pub use digits::{BombNumber, DIGIT_COUNT, Digits, RandomSource, Serial, SerialError};
pub use engine::{Engine, EngineError, EngineKind};
pub use game::{EndReason, Game, GameError, LAST_PLY, Outcome};
pub use movegen::{MoveList, legal_moves};
pub use puzzle::Puzzle;
pub use square::{Color, Move, MoveParseError, Square, SquareParseError};
