//! Pieces and the board: the 30-character layout, promoted queens, making a move.
//!
//! A promoted queen moves like any queen, but engine S aims it somewhere else than an original
//! queen (RULES.md §5), so a board remembers which of its queens are promoted pawns.

use std::fmt;
use std::sync::LazyLock;

use crate::square::{Color, Move, SQUARES, Square};

/// The six kinds of piece. A promoted pawn is a `Queen` (with [`Piece::promoted`] set).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PieceKind {
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
}

impl PieceKind {
    const ALL: [PieceKind; 6] = [
        PieceKind::King,
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Pawn,
    ];

    /// Upper-case letter: `KQRBNP`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Queen => 'Q',
            PieceKind::Rook => 'R',
            PieceKind::Bishop => 'B',
            PieceKind::Knight => 'N',
            PieceKind::Pawn => 'P',
        }
    }
}

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
    /// True for a queen that was a pawn. Only engine S tells it apart.
    pub promoted: bool,
}

impl Piece {
    /// The board-string letter: upper case for White, lower case for Black (a promoted queen
    /// is written like any queen).
    pub const fn to_char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    const fn code(self) -> u8 {
        let mut code = match self.kind {
            PieceKind::King => code::KING,
            PieceKind::Queen => code::QUEEN,
            PieceKind::Rook => code::ROOK,
            PieceKind::Bishop => code::BISHOP,
            PieceKind::Knight => code::KNIGHT,
            PieceKind::Pawn => code::PAWN,
        };
        if matches!(self.color, Color::Black) {
            code |= code::BLACK;
        }
        if self.promoted {
            code |= code::PROMOTED;
        }
        code
    }

    const fn from_code(c: u8) -> Option<Piece> {
        if c == code::EMPTY {
            return None;
        }
        Some(Piece {
            color: code::color(c),
            kind: PieceKind::ALL[(c & code::KIND) as usize - 1],
            promoted: c & code::PROMOTED != 0,
        })
    }
}

/// The one-byte cell encoding the hot loops work on.
pub(crate) mod code {
    use crate::square::Color;

    pub const EMPTY: u8 = 0;
    pub const KING: u8 = 1;
    pub const QUEEN: u8 = 2;
    pub const ROOK: u8 = 3;
    pub const BISHOP: u8 = 4;
    pub const KNIGHT: u8 = 5;
    pub const PAWN: u8 = 6;
    pub const KIND: u8 = 7;
    pub const BLACK: u8 = 8;
    pub const PROMOTED: u8 = 16;

    pub const fn color(c: u8) -> Color {
        if c & BLACK != 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    pub const fn kind(c: u8) -> u8 {
        c & KIND
    }
}

/// Why a 30-character layout (with its promoted-queen squares) is not a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    #[error("a board has 30 characters (a6 … e6, a5 … e1), got {0}")]
    Length(usize),
    #[error(
        "invalid character {ch:?} at position {index} of the board: expected one of KQRBNPkqrbnp or ."
    )]
    InvalidChar { index: usize, ch: char },
    #[error("{0} is listed as a promoted queen but holds no queen")]
    NotAQueen(Square),
}

/// The 30 squares and what stands on them.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Piece codes by square, in move-text order (see `Square::ord`).
    cells: [u8; SQUARES],
    /// Bit sets of the squares each colour occupies, and of all kings: derived from `cells`,
    /// kept alongside because move generation works on them.
    colors: [u32; 2],
    kings: u32,
}

impl Board {
    /// The start position, `kqbnrppppp..........PPPPPRNBQK`.
    pub fn start() -> Board {
        // Parsed once: batches set up a start board for every game.
        static START: LazyLock<Board> = LazyLock::new(|| {
            Board::from_layout("kqbnrppppp..........PPPPPRNBQK", &[])
                .expect("the start layout is valid")
        });
        *START
    }

    /// A board from its 30-character string (index 0 = a6 … 29 = e1, `KQRBNP` white,
    /// `kqrbnp` black, `.` empty) and the squares whose queen is a promoted pawn.
    pub fn from_layout(layout: &str, promoted: &[Square]) -> Result<Board, BoardError> {
        let count = layout.chars().count();
        if count != SQUARES {
            return Err(BoardError::Length(count));
        }
        let mut board = Board {
            cells: [code::EMPTY; SQUARES],
            colors: [0; 2],
            kings: 0,
        };
        for (sq, (index, ch)) in Square::all().zip(layout.chars().enumerate()) {
            if ch == '.' {
                continue;
            }
            let kind = PieceKind::ALL
                .into_iter()
                .find(|k| k.letter() == ch.to_ascii_uppercase())
                .ok_or(BoardError::InvalidChar { index, ch })?;
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let piece = Piece {
                color,
                kind,
                promoted: false,
            };
            board.put(sq, piece.code());
        }
        for &sq in promoted {
            let cell = &mut board.cells[sq.ord()];
            if code::kind(*cell) != code::QUEEN {
                return Err(BoardError::NotAQueen(sq));
            }
            *cell |= code::PROMOTED;
        }
        Ok(board)
    }

    fn put(&mut self, sq: Square, piece: u8) {
        self.cells[sq.ord()] = piece;
        self.colors[code::color(piece) as usize] |= sq.bit();
        if code::kind(piece) == code::KING {
            self.kings |= sq.bit();
        }
    }

    /// The 30-character string, a6 first.
    pub fn layout(&self) -> String {
        self.layout_bytes().iter().map(|&b| b as char).collect()
    }

    /// The layout as ASCII bytes, for writers that must not allocate.
    pub fn layout_bytes(&self) -> [u8; SQUARES] {
        // Batch output writes every board of every game: two table look-ups per square.
        static LETTERS: [u8; 32] = {
            let mut t = [b'.'; 32];
            let mut c = 1;
            while c < 32 {
                let kind = c & code::KIND as usize;
                if kind >= 1 && kind <= 6 {
                    if let Some(p) = Piece::from_code(c as u8) {
                        t[c] = p.to_char() as u8;
                    }
                }
                c += 1;
            }
            t
        };
        Square::LAYOUT.map(|sq| LETTERS[self.cells[sq.ord()] as usize])
    }

    /// What stands on `sq`.
    pub fn piece(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.cells[sq.ord()])
    }

    /// The squares holding promoted queens, a6 first.
    pub fn promoted_queens(&self) -> Vec<Square> {
        Square::all()
            .filter(|&sq| self.cells[sq.ord()] & code::PROMOTED != 0)
            .collect()
    }

    /// The first king of `color` in board-string order (the square the module looks up).
    pub fn king(&self, color: Color) -> Option<Square> {
        let kings = self.kings & self.colors[color as usize];
        if kings & (kings - 1) == 0 && kings != 0 {
            return Some(Square::from_ord(kings.trailing_zeros()));
        }
        Square::all().find(|sq| kings & sq.bit() != 0)
    }

    /// The piece code on `sq` (see [`code`]).
    pub(crate) const fn cell(&self, sq: Square) -> u8 {
        self.cells[sq.ord()]
    }

    /// The squares `color` occupies.
    pub(crate) const fn occupied_by(&self, color: Color) -> u32 {
        self.colors[color as usize]
    }

    /// The squares holding a king of either colour.
    pub(crate) const fn kings(&self) -> u32 {
        self.kings
    }

    /// Makes `mv` and returns what stood on its destination. A pawn reaching the far rank
    /// becomes a promoted queen, except when it captured a king: the game is over then and the
    /// module leaves the pawn as it is.
    pub(crate) fn apply(&mut self, mv: Move) -> u8 {
        let captured = self.cells[mv.to.ord()];
        let mut moving = self.cells[mv.from.ord()];
        let color = code::color(moving);
        self.cells[mv.from.ord()] = code::EMPTY;
        self.colors[color as usize] &= !mv.from.bit();
        self.colors[color.opponent() as usize] &= !mv.to.bit();
        self.kings &= !(mv.from.bit() | mv.to.bit());
        if code::kind(moving) == code::PAWN && code::kind(captured) != code::KING {
            let last_rank = match color {
                Color::White => 6,
                Color::Black => 1,
            };
            if mv.to.rank() == last_rank {
                moving = code::QUEEN | code::PROMOTED | (moving & code::BLACK);
            }
        }
        self.put(mv.to, moving);
        captured
    }
}

#[cfg(test)]
impl Board {
    /// A board from (square, letter) pairs, everything else empty; test shorthand.
    pub(crate) fn from_pieces(pieces: &[(&str, char)], promoted: &[&str]) -> Board {
        let mut layout = ['.'; SQUARES];
        for (sq, ch) in pieces {
            layout[sq.parse::<Square>().unwrap().index()] = *ch;
        }
        let promoted: Vec<Square> = promoted.iter().map(|s| s.parse().unwrap()).collect();
        Board::from_layout(&layout.iter().collect::<String>(), &promoted).unwrap()
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({:?}, promoted {:?})",
            self.layout(),
            self.promoted_queens()
        )
    }
}

/// The 30-character layout.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.layout())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn start_layout_and_lookup() {
        let b = Board::start();
        assert_eq!(b.layout(), "kqbnrppppp..........PPPPPRNBQK");
        let king = b.piece(sq("e1")).unwrap();
        assert_eq!((king.color, king.kind), (Color::White, PieceKind::King));
        assert_eq!(b.piece(sq("b6")).unwrap().to_char(), 'q');
        assert_eq!(b.piece(sq("c3")), None);
        assert_eq!(b.king(Color::Black), Some(sq("a6")));
        assert!(b.promoted_queens().is_empty());
    }

    #[test]
    fn layout_round_trips_with_promoted_queens() {
        let layout = "..rQk....Q.K....p..q....qR...q";
        let promoted = [sq("d6"), sq("e5"), sq("e3"), sq("e2"), sq("e1")];
        let b = Board::from_layout(layout, &promoted).unwrap();
        assert_eq!(b.layout(), layout);
        assert_eq!(b.promoted_queens(), promoted);
        assert!(!b.piece(sq("e4")).is_some_and(|p| p.promoted));
    }

    #[test]
    fn malformed_layouts_are_rejected() {
        assert_eq!(Board::from_layout("", &[]), Err(BoardError::Length(0)));
        assert_eq!(
            Board::from_layout("kqbnrppppp..........PPPPPRNBQ", &[]),
            Err(BoardError::Length(29))
        );
        assert_eq!(
            Board::from_layout("kqbnrppppp..........PPPPPRNBQKK", &[]),
            Err(BoardError::Length(31))
        );
        assert_eq!(
            Board::from_layout("kqbnrppppp....x.....PPPPPRNBQK", &[]),
            Err(BoardError::InvalidChar { index: 14, ch: 'x' })
        );
        assert_eq!(
            Board::from_layout("kqbnrppppp....é.....PPPPPRNBQK", &[]),
            Err(BoardError::InvalidChar {
                index: 14, ch: 'é'
            })
        );
        assert_eq!(
            Board::from_layout("kqbnrppppp..........PPPPPRNBQK", &[sq("a1")]),
            Err(BoardError::NotAQueen(sq("a1")))
        );
    }

    #[test]
    fn promotion_happens_on_the_far_rank_unless_a_king_is_taken() {
        let mut b = Board::from_layout("k...........P.......p........K", &[]).unwrap();
        b.apply("c4-c5".parse().unwrap());
        b.apply("a2-a1".parse().unwrap());
        let q = b.piece(sq("a1")).unwrap();
        assert_eq!(
            (q.color, q.kind, q.promoted),
            (Color::Black, PieceKind::Queen, true)
        );
        assert_eq!(b.layout(), "k......P.................q...K");

        let mut b = Board::from_layout(".k....P.....................K.", &[]).unwrap();
        let taken = b.apply("b5-b6".parse().unwrap());
        assert_eq!(code::kind(taken), code::KING);
        assert_eq!(b.piece(sq("b6")).unwrap().kind, PieceKind::Pawn);
    }
}
