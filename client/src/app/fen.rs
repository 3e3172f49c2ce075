//! A Frisian FEN (RULES.md §5) as the board widget draws it: which piece stands on which
//! square and whose turn it is, read through the `frisian` crate's reader (one FEN reader for
//! the server, the engine and this client).

use boardcast_protocol::Side;

/// A piece as the board widget draws it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub side: Side,
    pub king: bool,
}

/// The 50 playing squares, index 1–50 (index 0 unused), plus the side to move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub squares: [Option<Piece>; 51],
    pub turn: Side,
}

impl Board {
    pub fn empty() -> Board {
        Board {
            squares: [None; 51],
            turn: Side::White,
        }
    }

    pub fn get(&self, square: u8) -> Option<Piece> {
        self.squares.get(usize::from(square)).copied().flatten()
    }

    /// The pieces and turn of `fen`, read by the rules crate's own FEN reader (ranges like
    /// `W31-50` included). The server is the arbiter and only sends FENs that reader wrote;
    /// one it refuses leaves the board empty rather than drawing a guess.
    pub fn from_fen(fen: &str) -> Board {
        let Ok(position) = frisian::Position::from_fen(fen) else {
            return Board::empty();
        };
        let side = |color| match color {
            frisian::Color::White => Side::White,
            frisian::Color::Black => Side::Black,
        };
        let mut board = Board::empty();
        board.turn = side(position.turn());
        for square in (1..=50).filter_map(frisian::Square::new) {
            if let Some(piece) = position.piece_at(square) {
                board.squares[usize::from(square.number())] = Some(Piece {
                    side: side(piece.color()),
                    king: piece.is_king(),
                });
            }
        }
        board
    }
}

/// Row (0 = top, Black's side) and column (0–9) of a square 1–50, as RULES.md §1 defines.
pub fn square_cell(square: u8) -> (u8, u8) {
    let n = square.clamp(1, 50) - 1;
    let row = n / 5;
    let x = n % 5;
    let col = if row.is_multiple_of(2) {
        2 * x + 1
    } else {
        2 * x
    };
    (row, col)
}

/// The square number at a board row and column, or `None` for a light square.
pub fn cell_square(row: u8, col: u8) -> Option<u8> {
    if row > 9 || col > 9 || (row + col).is_multiple_of(2) {
        return None;
    }
    Some(row * 5 + col / 2 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_with_ranges() {
        let board = Board::from_fen("W:W31-50:B1-20:H0:F1:+0+0");
        assert_eq!(board.turn, Side::White);
        assert_eq!(
            board.get(31),
            Some(Piece {
                side: Side::White,
                king: false
            })
        );
        assert_eq!(board.get(20).map(|p| p.side), Some(Side::Black));
        assert_eq!(board.get(25), None);
        assert_eq!((1..=50).filter(|&s| board.get(s).is_some()).count(), 40);
    }

    #[test]
    fn kings_and_turn() {
        let board = Board::from_fen("B:W31,32,K45:B1,2,K20:H0:F1:+0+0");
        assert_eq!(board.turn, Side::Black);
        assert!(board.get(45).unwrap().king);
        assert!(board.get(20).unwrap().king);
        assert!(!board.get(1).unwrap().king);
    }

    #[test]
    fn garbage_leaves_the_board_empty() {
        let board = Board::from_fen("nonsense:Wx,99,K:B-:::");
        assert!((1..=50).all(|s| board.get(s).is_none()));
    }

    #[test]
    fn squares_and_cells_agree() {
        assert_eq!(square_cell(1), (0, 1));
        assert_eq!(square_cell(6), (1, 0));
        assert_eq!(square_cell(46), (9, 0));
        assert_eq!(square_cell(28), (5, 4));
        for square in 1..=50 {
            let (row, col) = square_cell(square);
            assert_eq!(cell_square(row, col), Some(square));
        }
        assert_eq!(cell_square(0, 0), None);
    }
}
