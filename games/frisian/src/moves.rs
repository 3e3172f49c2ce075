//! `Move` (one legal move of §4 with one of its landing routes) and the stack-allocated
//! `MoveList`.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

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

/// A stack-allocated list of moves; derefs to `[Move]`.
pub struct MoveList {
    len: usize,
    items: [MaybeUninit<Move>; MOVE_LIST_CAPACITY],
}

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; MOVE_LIST_CAPACITY],
        }
    }

    /// Adds a move; a move beyond the capacity is dropped (no reachable position gets near).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        if self.len < MOVE_LIST_CAPACITY {
            self.items[self.len].write(mv);
            self.len += 1;
        }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let mv = self[r];
            if keep(&mv) {
                self.items[w].write(mv);
                w += 1;
            }
        }
        self.len = w;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` items were written by `push` or `retain`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr().cast::<Move>(), self.len) }
    }
}

impl DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr().cast::<Move>(), self.len) }
    }
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut out = MoveList::new();
        for &m in self.iter() {
            out.push(m);
        }
        out
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
