//! Error types. `MoveError`'s Display text goes to players as is, so it says why.

use thiserror::Error;

use crate::types::{Color, Square};

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("bad side to move {0:?}: expected W or B")]
    BadTurn(String),
    #[error("missing the {0} pieces field")]
    MissingPieces(Color),
    #[error("bad piece field {0:?}: expected W or B followed by squares")]
    BadPieceField(String),
    #[error("bad square {0:?}: expected a number 1-50, optionally with a K prefix")]
    BadSquare(String),
    #[error("square {0} is given twice")]
    DuplicateSquare(u8),
    #[error("a {0} man on {1} stands on its promotion row")]
    ManOnPromotionRow(Color, u8),
    #[error("bad {field} field {value:?}")]
    BadNumber { field: char, value: String },
    #[error("bad three-move counter field {0:?}: expected e.g. +0+0 or +0+328")]
    BadCounter(String),
    #[error("unknown FEN field {0:?}")]
    UnknownField(String),
}

/// The pieces a capture takes, by kind: what the value order weighs (a king counts 1.5 men).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Taken {
    pub kings: u32,
    pub men: u32,
}

impl std::fmt::Display for Taken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let part =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        match (self.kings, self.men) {
            (0, m) => f.write_str(&part(m, "man", "men")),
            (k, 0) => f.write_str(&part(k, "king", "kings")),
            (k, m) => write!(
                f,
                "{} and {}",
                part(k, "king", "kings"),
                part(m, "man", "men")
            ),
        }
    }
}

/// Why a move is not legal here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("the game is over")]
    GameOver,
    #[error("a move needs an origin and a destination")]
    RouteTooShort,
    #[error("no piece on {0}")]
    NoPiece(Square),
    #[error("the piece on {0} is not yours")]
    NotYourPiece(Square),
    #[error("square {0} is occupied")]
    Occupied(Square),
    #[error("{to} is not on a line with {from}")]
    NotOnLine { from: Square, to: Square },
    #[error("a man moves one square diagonally forward: {from}-{to} is not a man move")]
    NotAManMove { from: Square, to: Square },
    #[error("a king moves only diagonally without capturing: {from}-{to} is not a king move")]
    NotAKingMove { from: Square, to: Square },
    #[error("the way from {from} to {to} is blocked on {at}")]
    Blocked {
        from: Square,
        to: Square,
        at: Square,
    },
    #[error("capture is compulsory (for example {example})")]
    CaptureCompulsory { example: String },
    #[error("{from}x{to} jumps no piece")]
    NothingCaptured { from: Square, to: Square },
    #[error("cannot jump your own piece on {0}")]
    OwnPiece(Square),
    #[error("the piece on {0} is already captured in this move and cannot be jumped again")]
    AlreadyCaptured(Square),
    #[error("{from}x{to} would jump two pieces at once")]
    TwoPieces { from: Square, to: Square },
    #[error("a man captures only an adjacent piece: {from}x{to} is too long")]
    ManTooFar { from: Square, to: Square },
    #[error("the capture must continue from {0}")]
    MustContinue(Square),
    #[error(
        "illegal move: a capture of higher value exists ({example} takes {best}, this takes {value})"
    )]
    LowerValue {
        value: Taken,
        best: Taken,
        example: String,
    },
    #[error("a king capture takes precedence (for example {example})")]
    KingPrecedence { example: String },
    #[error("king on {0} has moved three times")]
    KingFrozen(Square),
    #[error("not a legal move")]
    NotLegal,
}

/// Why a move written in notation could not be read or resolved.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("empty move")]
    Empty,
    #[error("cannot read {0:?} as a move: write 32-28, 28x19 or 9x18x16")]
    Syntax(String),
    #[error("{notation} is ambiguous: write one of {}", options.join(", "))]
    Ambiguous {
        notation: String,
        options: Vec<String>,
    },
    #[error(transparent)]
    Illegal(#[from] MoveError),
}
