//! Legal moves (RULES.md §2) into a fixed-size list, without allocating.
//!
//! There is no check in MinitChess, so every move a piece can make is legal. Neighbour and
//! knight tables are built at compile time so the generator only follows indices.

use std::ops::Deref;

use crate::board::{Board, code};
use crate::square::{Color, FILES, Move, RANKS, SQUARES, Square};

/// At most k·(30 − k) ≤ 225 distinct (own square, other square) pairs exist.
const CAPACITY: usize = 225;
const OFF: u8 = u8::MAX;

/// Orthogonal directions first, then diagonal, as (Δfile, Δrow).
const DIRECTIONS: [(i8, i8); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];
const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

const fn offset(index: usize, (df, dr): (i8, i8)) -> u8 {
    let file = (index % FILES as usize) as i8 + df;
    let row = (index / FILES as usize) as i8 + dr;
    if file < 0 || file >= FILES as i8 || row < 0 || row >= RANKS as i8 {
        OFF
    } else {
        (row * FILES as i8 + file) as u8
    }
}

const fn table(deltas: [(i8, i8); 8]) -> [[u8; 8]; SQUARES] {
    let mut t = [[OFF; 8]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let mut d = 0;
        while d < 8 {
            t[i][d] = offset(i, deltas[d]);
            d += 1;
        }
        i += 1;
    }
    t
}

static NEIGHBOUR: [[u8; 8]; SQUARES] = table(DIRECTIONS);
static KNIGHT: [[u8; 8]; SQUARES] = table(KNIGHT_JUMPS);

const ORTHOGONAL: std::ops::Range<usize> = 0..4;
const DIAGONAL: std::ops::Range<usize> = 4..8;
const ALL: std::ops::Range<usize> = 0..8;
/// Straight ahead, then the two capturing diagonals, for White and for Black.
const PAWN_WHITE: [usize; 3] = [0, 4, 7];
const PAWN_BLACK: [usize; 3] = [2, 5, 6];

/// A list of moves on the stack, large enough for any position.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    pub const fn new() -> MoveList {
        let none = Move {
            from: Square::from_index_unchecked(0),
            to: Square::from_index_unchecked(0),
        };
        MoveList {
            moves: [none; CAPACITY],
            len: 0,
        }
    }

    pub(crate) fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub(crate) fn set(&mut self, moves: &[Move]) {
        self.moves[..moves.len()].copy_from_slice(moves);
        self.len = moves.len();
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
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
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
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

/// Every legal move of `side`, in no particular order.
pub fn legal_moves(board: &Board, side: Color) -> MoveList {
    let mut list = MoveList::new();
    generate(board, side, &mut list);
    list
}

pub(crate) fn generate(board: &Board, side: Color, list: &mut MoveList) {
    list.clear();
    for_each_move(board, side, |mv| {
        list.push(mv);
        true
    });
}

/// Whether `side` can move at all; stops at the first move found.
pub(crate) fn has_legal_move(board: &Board, side: Color) -> bool {
    let mut found = false;
    for_each_move(board, side, |_| {
        found = true;
        false
    });
    found
}

/// Calls `visit` with each legal move until it returns false. One generator serves both the
/// full list and the existence test, so the two can never disagree.
#[inline(always)]
fn for_each_move(board: &Board, side: Color, mut visit: impl FnMut(Move) -> bool) {
    let own = code::color_bit(side);
    let is_own = |c: u8| c != code::EMPTY && c & code::BLACK == own;
    let is_enemy = |c: u8| c != code::EMPTY && c & code::BLACK != own;
    for from in 0..SQUARES {
        let piece = board.cell(from);
        if !is_own(piece) {
            continue;
        }
        let from_sq = Square::from_index_unchecked(from as u8);
        let mut emit = |to: u8| {
            visit(Move {
                from: from_sq,
                to: Square::from_index_unchecked(to),
            })
        };
        // Each arm returns false as soon as `visit` asks to stop.
        let go_on = match code::kind(piece) {
            code::KING => steps(&NEIGHBOUR[from], ALL, board, &is_own, &mut emit),
            code::KNIGHT => steps(&KNIGHT[from], ALL, board, &is_own, &mut emit),
            code::QUEEN => slides(from, ALL, board, &is_own, &mut emit),
            code::ROOK => slides(from, ORTHOGONAL, board, &is_own, &mut emit),
            code::BISHOP => {
                slides(from, DIAGONAL, board, &is_own, &mut emit)
                    && steps(
                        &NEIGHBOUR[from],
                        ORTHOGONAL,
                        board,
                        // The side-step never captures: any piece blocks it.
                        &|c| c != code::EMPTY,
                        &mut emit,
                    )
            }
            _ => {
                let dirs = match side {
                    Color::White => PAWN_WHITE,
                    Color::Black => PAWN_BLACK,
                };
                let n = &NEIGHBOUR[from];
                let ahead = n[dirs[0]];
                (ahead == OFF || board.cell(ahead as usize) != code::EMPTY || emit(ahead))
                    && dirs[1..].iter().all(|&d| {
                        let to = n[d];
                        to == OFF || !is_enemy(board.cell(to as usize)) || emit(to)
                    })
            }
        };
        if !go_on {
            return;
        }
    }
}

#[inline(always)]
fn steps(
    targets: &[u8; 8],
    dirs: std::ops::Range<usize>,
    board: &Board,
    blocked: &impl Fn(u8) -> bool,
    emit: &mut impl FnMut(u8) -> bool,
) -> bool {
    dirs.map(|d| targets[d])
        .all(|to| to == OFF || blocked(board.cell(to as usize)) || emit(to))
}

#[inline(always)]
fn slides(
    from: usize,
    dirs: std::ops::Range<usize>,
    board: &Board,
    is_own: &impl Fn(u8) -> bool,
    emit: &mut impl FnMut(u8) -> bool,
) -> bool {
    for d in dirs {
        let mut at = from;
        loop {
            let to = NEIGHBOUR[at][d];
            if to == OFF {
                break;
            }
            let c = board.cell(to as usize);
            if is_own(c) {
                break;
            }
            if !emit(to) {
                return false;
            }
            if c != code::EMPTY {
                break;
            }
            at = to as usize;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pieces: &[(&str, char)]) -> Board {
        Board::from_pieces(pieces, &[])
    }

    fn texts(board: &Board, side: Color, from: Option<&str>) -> Vec<String> {
        let mut v: Vec<String> = legal_moves(board, side)
            .iter()
            .filter(|m| from.is_none_or(|f| m.from.to_string() == f))
            .map(ToString::to_string)
            .collect();
        v.sort();
        v
    }

    #[test]
    fn start_position_moves() {
        let b = Board::start();
        assert_eq!(
            texts(&b, Color::White, None),
            [
                "a2-a3", "b1-a3", "b1-c3", "b2-b3", "c2-c3", "d2-d3", "e2-e3"
            ]
        );
        assert_eq!(
            texts(&b, Color::Black, None),
            [
                "a5-a4", "b5-b4", "c5-c4", "d5-d4", "d6-c4", "d6-e4", "e5-e4"
            ]
        );
    }

    #[test]
    fn bishop_side_step_never_captures() {
        let b = board(&[
            ("a6", 'k'),
            ("e1", 'K'),
            ("c3", 'B'),
            ("c4", 'p'),
            ("b3", 'n'),
            ("c2", 'P'),
            ("a5", 'p'),
        ]);
        assert_eq!(
            texts(&b, Color::White, Some("c3")),
            [
                "c3-a1", "c3-a5", "c3-b2", "c3-b4", "c3-d2", "c3-d3", "c3-d4", "c3-e5"
            ]
        );
    }

    #[test]
    fn pawns_push_onto_empty_and_capture_diagonally_only() {
        let b = board(&[
            ("a6", 'k'),
            ("e1", 'K'),
            ("b2", 'P'),
            ("b3", 'n'),
            ("a3", 'p'),
            ("c3", 'p'),
        ]);
        assert_eq!(texts(&b, Color::White, Some("b2")), ["b2-a3", "b2-c3"]);
        assert_eq!(texts(&b, Color::Black, Some("a3")), ["a3-a2", "a3-b2"]);
        assert_eq!(texts(&b, Color::Black, Some("c3")), ["c3-b2", "c3-c2"]);
        let last_rank = board(&[("a6", 'k'), ("e1", 'K'), ("c6", 'P'), ("c1", 'p')]);
        assert!(texts(&last_rank, Color::White, Some("c6")).is_empty());
        assert!(texts(&last_rank, Color::Black, Some("c1")).is_empty());
    }

    #[test]
    fn knights_jump_and_sliders_stop_at_pieces() {
        let b = board(&[("a6", 'k'), ("e1", 'K'), ("e2", 'N'), ("b1", 'R')]);
        assert_eq!(
            texts(&b, Color::White, None),
            [
                "b1-a1", "b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-b6", "b1-c1", "b1-d1", "e1-d1",
                "e1-d2", "e2-c1", "e2-c3", "e2-d4"
            ]
        );
        let q = board(&[
            ("a6", 'k'),
            ("e1", 'K'),
            ("c3", 'Q'),
            ("c5", 'p'),
            ("e5", 'p'),
        ]);
        // Up, down, left, right, then the four diagonals; e1 holds its own king.
        assert_eq!(
            texts(&q, Color::White, Some("c3")).len(),
            2 + 2 + 2 + 2 + 2 + 2 + 1 + 2
        );
    }

    #[test]
    fn existence_test_agrees_with_the_list() {
        let cases = [
            "KRRRRPPPPP.......k............",
            "K...................ppppprrrrk",
            "kqbnrppppp..........PPPPPRNBQK",
        ];
        for layout in cases {
            let board = Board::from_layout(layout, &[]).unwrap();
            for side in [Color::White, Color::Black] {
                assert_eq!(
                    has_legal_move(&board, side),
                    !legal_moves(&board, side).is_empty(),
                    "{layout} {side}"
                );
            }
        }
        let stuck = Board::from_layout("KRRRRPPPPP.......k............", &[]).unwrap();
        assert!(!has_legal_move(&stuck, Color::White));
    }
}
