//! `Move` (one legal move of §4 with one of its landing routes) and the stack-allocated
//! `MoveList`.

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::types::{Square, SquareSet};

/// Longest possible route: the origin plus one landing per captured piece (at most 20).
pub(crate) const MAX_ROUTE: usize = 21;

/// One move: origin, destination and captured set identify it (equality and hashing use only
/// those); it also carries one landing route.
#[derive(Clone, Copy)]
pub struct Move {
    pub(crate) captured: u64,
    pub(crate) route: [Square; MAX_ROUTE],
    pub(crate) len: u8,
    pub(crate) king: bool,
    pub(crate) promotes: bool,
}

impl Move {
    pub fn from(&self) -> Square {
        self.route[0]
    }

    pub fn to(&self) -> Square {
        self.route[self.len as usize - 1]
    }

    /// The captured squares, ascending.
    pub fn captures(&self) -> SquareSet {
        SquareSet(self.captured)
    }

    pub fn is_capture(&self) -> bool {
        self.captured != 0
    }

    /// Whether the moving piece is a king.
    pub fn is_king_move(&self) -> bool {
        self.king
    }

    /// Whether a man is crowned at the end of this move.
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// The landing path including the origin: `[from, land1, …, to]`; a simple move is
    /// `[from, to]`.
    pub fn route(&self) -> &[Square] {
        &self.route[..self.len as usize]
    }

    pub(crate) fn simple(from: Square, to: Square, king: bool, promotes: bool) -> Move {
        let mut route = [from; MAX_ROUTE];
        route[1] = to;
        Move {
            captured: 0,
            route,
            len: 2,
            king,
            promotes,
        }
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.captured == other.captured && self.from() == other.from() && self.to() == other.to()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.captured.hash(state);
        self.from().hash(state);
        self.to().hash(state);
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { "x" } else { "-" };
        for (i, sq) in self.route().iter().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// Room for every legal move of any reachable position, with a wide margin.
pub const MOVE_LIST_CAPACITY: usize = 512;

/// A stack-allocated list of moves; derefs to `[Move]`. A push past the capacity panics
/// rather than losing a legal move (no reachable position gets near it).
pub type MoveList = arrayvec::ArrayVec<Move, MOVE_LIST_CAPACITY>;
