//! Colours, squares and moves of the 5×6 board, with their text forms (`b1`, `b1-c3`).
//!
//! Inside the crate a square is numbered in move-text order, `file × 6 + rank − 1` (a1 = 0,
//! a6 = 5, b1 = 6 … e6 = 29), so that bit sets of squares iterate in the order the engines
//! sort their moves. The module's board-string index (0 = a6 … 29 = e1) is `index()`.

use std::fmt;
use std::str::FromStr;

/// The two sides. White moves on even plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    White,
    Black,
}

impl Color {
    /// The other side.
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The side that moves on ply `ply`.
    pub const fn on_ply(ply: u32) -> Color {
        if ply.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// `white` or `black`, as in the reference files.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Number of files (a–e).
pub const FILES: u8 = 5;
/// Number of ranks (1–6).
pub const RANKS: u8 = 6;
/// Number of squares.
pub const SQUARES: usize = 30;

/// One of the 30 squares: file 0..5 (a–e), rank 1..=6. Ordered like move texts: a1, a2, …
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// `Square(b1)`: the internal number would only confuse.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

impl Square {
    /// The square on `file` (0 = a … 4 = e) and `rank` (1 ..= 6), if it is on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank >= 1 && rank <= RANKS {
            Some(Square(file * RANKS + rank - 1))
        } else {
            None
        }
    }

    /// The square at `index` of a 30-character board string (0 = a6, 29 = e1).
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < SQUARES {
            Square::new(
                (index % FILES as usize) as u8,
                RANKS - (index / FILES as usize) as u8,
            )
        } else {
            None
        }
    }

    /// Index in a 30-character board string (0 = a6, 29 = e1).
    pub const fn index(self) -> usize {
        self.row() as usize * FILES as usize + self.file() as usize
    }

    /// File, 0 (a) to 4 (e).
    pub const fn file(self) -> u8 {
        self.0 / RANKS
    }

    /// Rank, 1 to 6.
    pub const fn rank(self) -> u8 {
        self.0 % RANKS + 1
    }

    /// Row of the board string, 0 (rank 6) to 5 (rank 1): the module's y coordinate.
    pub const fn row(self) -> u8 {
        RANKS - self.rank()
    }

    /// a1 is dark; a square is dark exactly when its board-string index is odd.
    pub const fn is_dark(self) -> bool {
        (self.file() + self.row()) % 2 == 1
    }

    /// Manhattan distance |Δfile| + |Δrank|.
    pub const fn distance(self, other: Square) -> u8 {
        self.file().abs_diff(other.file()) + self.rank().abs_diff(other.rank())
    }

    /// The point-symmetric square (what engine M mirrors the previous move onto).
    pub const fn mirror(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// Iterates a6, b6, …, e1 (board-string order).
    pub fn all() -> impl Iterator<Item = Square> {
        Square::LAYOUT.into_iter()
    }

    /// The squares in board-string order: `LAYOUT[i]` is at index i.
    pub(crate) const LAYOUT: [Square; SQUARES] = {
        let mut t = [Square(0); SQUARES];
        let mut i = 0;
        while i < SQUARES {
            t[i] = Square::new(
                (i % FILES as usize) as u8,
                RANKS - (i / FILES as usize) as u8,
            )
            .expect("on the board");
            i += 1;
        }
        t
    };

    /// Position in move-text order (file letter first, then rank digit); the bit of this
    /// square in the crate's bit sets.
    pub(crate) const fn ord(self) -> usize {
        self.0 as usize
    }

    /// The square at move-text position `ord` (< 30).
    pub(crate) const fn from_ord(ord: u32) -> Square {
        debug_assert!(ord < SQUARES as u32);
        Square(ord as u8)
    }

    pub(crate) const fn bit(self) -> u32 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

/// Why a square such as `b1` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {text:?}: expected a file a-e followed by a rank 1-6, like b1")]
pub struct SquareParseError {
    /// The text that was given.
    pub text: String,
}

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || SquareParseError { text: s.to_owned() };
        match s.as_bytes() {
            [f @ b'a'..=b'e', r @ b'1'..=b'6'] => Square::new(f - b'a', r - b'0').ok_or_else(err),
            _ => Err(err()),
        }
    }
}

/// A move from one square to another; its text is `from-to` in lower case, like `b1-c3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    /// Sorting by this key is sorting by move text in plain character order, which is how the
    /// engines order their candidate lists, without building strings.
    pub(crate) const fn text_key(self) -> u16 {
        self.from.ord() as u16 * SQUARES as u16 + self.to.ord() as u16
    }
}

impl Move {
    /// The move text as ASCII bytes (`b1-c3`), for writers that must not allocate.
    pub const fn text_bytes(self) -> [u8; 5] {
        [
            b'a' + self.from.file(),
            b'0' + self.from.rank(),
            b'-',
            b'a' + self.to.file(),
            b'0' + self.to.rank(),
        ]
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// Why a move such as `b1-c3` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid move {text:?}: expected from-to in lower case, like b1-c3")]
pub struct MoveParseError {
    /// The text that was given.
    pub text: String,
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || MoveParseError { text: s.to_owned() };
        let (from, to) = s.split_once('-').ok_or_else(err)?;
        Ok(Move {
            from: from.parse().map_err(|_| err())?,
            to: to.parse().map_err(|_| err())?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn index_order_is_a6_first_e1_last() {
        assert_eq!(sq("a6").index(), 0);
        assert_eq!(sq("e6").index(), 4);
        assert_eq!(sq("a5").index(), 5);
        assert_eq!(sq("e1").index(), 29);
        assert_eq!(Square::from_index(29).unwrap().to_string(), "e1");
        assert_eq!(Square::from_index(30), None);
    }

    #[test]
    fn a1_is_dark_and_colours_alternate() {
        assert!(sq("a1").is_dark());
        assert!(!sq("b1").is_dark());
        assert!(!sq("a2").is_dark());
        assert!(sq("b2").is_dark());
        assert!(!sq("a6").is_dark());
        for s in Square::all() {
            assert_eq!(s.is_dark(), (s.file() + s.row()) % 2 == 1);
        }
    }

    #[test]
    fn distance_is_manhattan() {
        assert_eq!(sq("d1").distance(sq("b6")), 7, "queens start 7 apart");
        assert_eq!(sq("e1").distance(sq("a6")), 9, "kings start 9 apart");
        assert_eq!(sq("c3").distance(sq("c3")), 0);
        assert_eq!(sq("b2").distance(sq("c3")), 2);
    }

    #[test]
    fn mirror_is_point_symmetry() {
        assert_eq!(sq("a1").mirror(), sq("e6"));
        assert_eq!(sq("b2").mirror(), sq("d5"));
        assert_eq!(sq("c3").mirror(), sq("c4"));
    }

    #[test]
    fn square_and_move_text_round_trip() {
        for s in Square::all() {
            assert_eq!(sq(&s.to_string()), s);
        }
        let m: Move = "b1-c3".parse().unwrap();
        assert_eq!(m.from, sq("b1"));
        assert_eq!(m.to, sq("c3"));
        assert_eq!(m.to_string(), "b1-c3");
        assert_eq!(&m.text_bytes(), b"b1-c3");
    }

    #[test]
    fn bad_texts_are_rejected() {
        for bad in ["", "a", "a0", "a7", "f1", "A1", "a1 ", "a10"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?}");
        }
        for bad in [
            "", "b1c3", "B1-C3", "b1-c7", "b1-", "-c3", "b1-c3-d4", "b1 - c3",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn text_key_orders_like_move_text() {
        let mut moves: Vec<Move> = Vec::new();
        for from in Square::all() {
            for to in Square::all() {
                if from != to {
                    moves.push(Move { from, to });
                }
            }
        }
        let mut by_key = moves.clone();
        by_key.sort_by_key(|m| m.text_key());
        let mut by_text = moves;
        by_text.sort_by_key(|m| m.to_string());
        assert_eq!(by_key, by_text);
    }
}
