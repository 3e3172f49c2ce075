//! Frisian draughts under the official rules (2011): positions, legal moves, FEN, notation,
//! PDN and perft. Pure: no I/O, no allocation per search node.
//!
//! ```
//! use frisian::Position;
//! let pos = Position::start();
//! let mv = pos.parse_move("32-28").unwrap();
//! let pos = pos.play(mv).unwrap();
//! assert_eq!(pos.fen(), "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0");
//! ```

mod board;
mod count;
mod diagnose;
mod error;
mod fen;
mod jumps;
mod movegen;
mod moves;
mod notation;
mod outcome;
pub mod pdn;
mod perft;
mod position;
mod types;

pub use error::{FenError, MoveError, NotationError, Taken};
pub use moves::{MOVE_LIST_CAPACITY, Move, MoveList};
pub use outcome::{
    DecisiveReason, DrawReason, OngoingNote, Outcome, Status, TWO_KINGS_V_ONE_PLIES,
};
pub use perft::{divide, perft};
pub use position::PlayError;
pub use position::Position;
pub use types::{Color, Piece, Square, SquareSet};
