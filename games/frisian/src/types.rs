//! Small value types: colours, squares and sets of squares.

use std::fmt;

use crate::board::{BOARD, Bits, SQUARE_OF_BIT, bit_of, square_of};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Lower-case name, as the status reasons write it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The bit of each square (index 0 unused): a load, where `bit_of` divides by five.
const BIT_OF_SQUARE: [u64; 51] = {
    let mut t = [0u64; 51];
    let mut n = 1;
    while n <= 50 {
        t[n as usize] = 1 << bit_of(n);
        n += 1;
    }
    t
};

/// A playable square, numbered 1..=50 from Black's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    pub const fn new(n: u8) -> Option<Square> {
        if n >= 1 && n <= 50 {
            Some(Square(n))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// Every square, ascending.
    pub fn all() -> impl Iterator<Item = Square> {
        (1..=50).map(Square)
    }

    pub(crate) const fn from_number_unchecked(n: u8) -> Square {
        Square(n)
    }

    pub(crate) fn from_bit(single: u64) -> Square {
        Square(square_of(single))
    }

    pub(crate) const fn bit(self) -> u64 {
        BIT_OF_SQUARE[self.0 as usize]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A set of squares (a bitboard underneath), iterated in ascending square order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub(crate) u64);

impl SquareSet {
    pub const EMPTY: SquareSet = SquareSet(0);

    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    pub fn iter(self) -> impl Iterator<Item = Square> + Clone {
        Bits(self.0).map(|b| Square(SQUARE_OF_BIT[b.trailing_zeros() as usize]))
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        SquareSet(iter.into_iter().fold(0, |b, s| b | s.bit()) & BOARD)
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Man(Color),
    King(Color),
}

impl Piece {
    pub const fn color(self) -> Color {
        match self {
            Piece::Man(c) | Piece::King(c) => c,
        }
    }

    pub const fn is_king(self) -> bool {
        matches!(self, Piece::King(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_square_has_its_own_bit_on_the_board() {
        let all = Square::all().fold(0, |all, sq| {
            assert_eq!(sq.bit(), 1 << bit_of(sq.number()), "square {sq}");
            assert_eq!(all & sq.bit(), 0, "square {sq}");
            all | sq.bit()
        });
        assert_eq!(all, BOARD);
    }
}
