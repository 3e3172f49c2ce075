//! Legal moves (RULES.md §2) as bit sets of destinations, without allocating.
//!
//! There is no check in MinitChess, so every move a piece can make is legal. Squares are bits
//! in move-text order (`Square::ord`), so walking the bits of a piece's destinations, piece by
//! piece in square order, lists moves exactly in the engines' ascending text order.

use std::ops::Deref;

use crate::board::{Board, code};
use crate::square::{Color, FILES, Move, RANKS, SQUARES, Square};

/// At most k·(30 − k) ≤ 225 distinct (own square, other square) pairs exist.
const CAPACITY: usize = 225;

/// (Δfile, Δrank) of N, E, S, W, NE, SE, SW, NW. In move-text numbering a step changes the
/// square number by Δfile·6 + Δrank, so N, E, NE and SE count up and the others count down.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];
const ASCENDING: [bool; 8] = [true, true, false, false, true, true, false, false];
const ORTHOGONAL: [usize; 4] = [0, 1, 2, 3];
const DIAGONAL: [usize; 4] = [4, 5, 6, 7];
const ALL_DIRECTIONS: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];
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

/// The bit of the square `(df, dr)` away from `ord`, or 0 off the board.
const fn offset(ord: usize, df: i8, dr: i8) -> u32 {
    let file = (ord / RANKS as usize) as i8 + df;
    let rank = (ord % RANKS as usize) as i8 + dr;
    if file < 0 || file >= FILES as i8 || rank < 0 || rank >= RANKS as i8 {
        0
    } else {
        1 << (file as u32 * RANKS as u32 + rank as u32)
    }
}

const fn rays() -> [[u32; SQUARES]; 8] {
    let mut t = [[0; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < SQUARES {
            let mut k = 1;
            while offset(sq, df * k, dr * k) != 0 {
                t[d][sq] |= offset(sq, df * k, dr * k);
                k += 1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

const fn steps(deltas: &[(i8, i8)]) -> [u32; SQUARES] {
    let mut t = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut i = 0;
        while i < deltas.len() {
            t[sq] |= offset(sq, deltas[i].0, deltas[i].1);
            i += 1;
        }
        sq += 1;
    }
    t
}

/// Every square a slider would reach in each direction on an empty board.
static RAYS: [[u32; SQUARES]; 8] = rays();
static KING: [u32; SQUARES] = steps(&DIRECTIONS);
static KNIGHT: [u32; SQUARES] = steps(&KNIGHT_JUMPS);
static ORTHOGONAL_STEP: [u32; SQUARES] = steps(&[(0, 1), (1, 0), (0, -1), (-1, 0)]);
/// Straight ahead and the two diagonals ahead, by colour.
static PAWN_PUSH: [[u32; SQUARES]; 2] = [steps(&[(0, 1)]), steps(&[(0, -1)])];
static PAWN_CAPTURE: [[u32; SQUARES]; 2] = [steps(&[(-1, 1), (1, 1)]), steps(&[(-1, -1), (1, -1)])];

fn slide(sq: usize, directions: &[usize], occupied: u32) -> u32 {
    let mut reach = 0;
    for &d in directions {
        let ray = RAYS[d][sq];
        let blockers = ray & occupied;
        reach |= if blockers == 0 {
            ray
        } else {
            let first = if ASCENDING[d] {
                blockers.trailing_zeros()
            } else {
                31 - blockers.leading_zeros()
            };
            // The first blocker stays reachable (a capture, or masked out later if own).
            ray & !RAYS[d][first as usize]
        };
    }
    reach
}

/// The destinations of the piece on `from`, a piece of `side`.
#[inline]
fn destinations(board: &Board, side: Color, from: Square) -> u32 {
    let own = board.occupied_by(side);
    let enemy = board.occupied_by(side.opponent());
    let occupied = own | enemy;
    let sq = from.ord();
    let reach = match code::kind(board.cell(from)) {
        code::KING => KING[sq],
        code::KNIGHT => KNIGHT[sq],
        code::QUEEN => slide(sq, &ALL_DIRECTIONS, occupied),
        code::ROOK => slide(sq, &ORTHOGONAL, occupied),
        // The orthogonal side-step never captures: only empty squares.
        code::BISHOP => slide(sq, &DIAGONAL, occupied) | (ORTHOGONAL_STEP[sq] & !occupied),
        _ => {
            let c = side as usize;
            return (PAWN_PUSH[c][sq] & !occupied) | (PAWN_CAPTURE[c][sq] & enemy);
        }
    };
    reach & !own
}

/// The legal moves of one side as (square, destinations) pairs in ascending square order,
/// pieces without moves left out.
#[derive(Clone)]
pub(crate) struct Targets {
    pub from: [Square; SQUARES],
    pub to: [u32; SQUARES],
    pub len: usize,
    /// Number of moves: the sum of the destinations' sizes.
    pub count: u32,
}

pub(crate) fn targets(board: &Board, side: Color) -> Targets {
    let mut t = Targets {
        from: [Square::from_ord(0); SQUARES],
        to: [0; SQUARES],
        len: 0,
        count: 0,
    };
    let mut pieces = board.occupied_by(side);
    while pieces != 0 {
        let from = Square::from_ord(pieces.trailing_zeros());
        pieces &= pieces - 1;
        let to = destinations(board, side, from);
        if to != 0 {
            t.from[t.len] = from;
            t.to[t.len] = to;
            t.len += 1;
            t.count += to.count_ones();
        }
    }
    t
}

/// Whether `side` can move at all; stops at the first piece that can.
pub(crate) fn has_legal_move(board: &Board, side: Color) -> bool {
    let mut pieces = board.occupied_by(side);
    while pieces != 0 {
        let from = Square::from_ord(pieces.trailing_zeros());
        pieces &= pieces - 1;
        if destinations(board, side, from) != 0 {
            return true;
        }
    }
    false
}

/// The squares of a bit set, in ascending order.
pub(crate) fn squares(mut set: u32) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let sq = Square::from_ord(set.trailing_zeros());
            set &= set - 1;
            sq
        })
    })
}

/// A list of moves on the stack, large enough for any position.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; CAPACITY],
    len: usize,
}

impl MoveList {
    pub const fn new() -> MoveList {
        let none = Move {
            from: Square::from_ord(0),
            to: Square::from_ord(0),
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

    /// Every move of `from[i]` to each square of `to[i]`, in move-text order.
    pub(crate) fn from_sets(from: &[Square], to: &[u32]) -> MoveList {
        let mut list = MoveList::new();
        for (&from, &to) in from.iter().zip(to) {
            for to in squares(to) {
                list.push(Move { from, to });
            }
        }
        list
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

/// Every legal move of `side`, in ascending move-text order.
pub fn legal_moves(board: &Board, side: Color) -> MoveList {
    let t = targets(board, side);
    MoveList::from_sets(&t.from[..t.len], &t.to[..t.len])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(pieces: &[(&str, char)]) -> Board {
        Board::from_pieces(pieces, &[])
    }

    fn texts(board: &Board, side: Color, from: Option<&str>) -> Vec<String> {
        let v: Vec<String> = legal_moves(board, side)
            .iter()
            .filter(|m| from.is_none_or(|f| m.from.to_string() == f))
            .map(ToString::to_string)
            .collect();
        assert!(v.is_sorted(), "legal moves come in move-text order: {v:?}");
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
