//! Why an attempted route is illegal: the route is walked geometrically on the board, what it
//! would capture is computed, and the result is compared with the legal moves.

use crate::board::{ALL_DIRS, DIAGONALS, Dir, step};
use crate::error::{MoveError, Taken};
use crate::movegen::{KING_VALUE, MAN_VALUE};
use crate::moves::{Move, MoveList};
use crate::notation::notation_among;
use crate::position::Position;
use crate::types::Square;

/// What a route does when walked on the board.
pub(crate) struct Walk {
    pub(crate) captured: u64,
    king: bool,
}

/// The squares strictly between two squares of one line, nearest the first one first (a line
/// of the board holds at most ten squares).
struct Between {
    squares: [u64; 10],
    len: usize,
}

impl Between {
    fn as_slice(&self) -> &[u64] {
        &self.squares[..self.len]
    }
}

/// The direction and the squares strictly between `a` and `b` when they share a line.
fn line(a: Square, b: Square) -> Option<(Dir, Between)> {
    for d in ALL_DIRS {
        let mut between = Between {
            squares: [0; 10],
            len: 0,
        };
        let mut x = step(a.bit(), d);
        while x != 0 && between.len < between.squares.len() {
            if x == b.bit() {
                return Some((d, between));
            }
            between.squares[between.len] = x;
            between.len += 1;
            x = step(x, d);
        }
    }
    None
}

fn describe(captured: u64, kings: u64) -> Taken {
    Taken {
        kings: (captured & kings).count_ones(),
        men: (captured & !kings).count_ones(),
    }
}

impl Position {
    fn value(&self, captured: u64) -> u32 {
        (captured & self.kings).count_ones() * KING_VALUE
            + (captured & !self.kings).count_ones() * MAN_VALUE
    }

    /// Walks `route` leg by leg; errors name the first leg that cannot be played at all.
    /// `capture` marks a route written as a capture, so a leg jumping nothing is an error.
    pub(crate) fn walk(&self, route: &[Square], capture: bool) -> Result<Walk, MoveError> {
        let from = route[0];
        let (us, them) = self.sides();
        if (us | them) & from.bit() == 0 {
            return Err(MoveError::NoPiece(from));
        }
        if us & from.bit() == 0 {
            return Err(MoveError::NotYourPiece(from));
        }
        let king = self.kings & from.bit() != 0;
        let occupied = (us | them) & !from.bit();
        let mut captured = 0u64;
        for leg in route.windows(2) {
            let (a, b) = (leg[0], leg[1]);
            let (d, between) = line(a, b).ok_or(MoveError::NotOnLine { from: a, to: b })?;
            if occupied & b.bit() != 0 {
                return Err(MoveError::Occupied(b));
            }
            let between = between.as_slice();
            let mut pieces = between.iter().copied().filter(|x| occupied & x != 0);
            let Some(victim) = pieces.next() else {
                if capture || route.len() > 2 {
                    return Err(MoveError::NothingCaptured { from: a, to: b });
                }
                return self.simple_walk(a, b, d, king);
            };
            let victim_sq = Square::from_bit(victim);
            if captured & victim != 0 {
                return Err(MoveError::AlreadyCaptured(victim_sq));
            }
            if us & victim != 0 {
                return Err(MoveError::OwnPiece(victim_sq));
            }
            if !king && between.len() != 1 {
                return Err(MoveError::ManTooFar { from: a, to: b });
            }
            if pieces.next().is_some() {
                return Err(MoveError::TwoPieces { from: a, to: b });
            }
            captured |= victim;
        }
        Ok(Walk { captured, king })
    }

    fn simple_walk(&self, a: Square, b: Square, d: Dir, king: bool) -> Result<Walk, MoveError> {
        let adjacent = step(a.bit(), d) == b.bit();
        let man_step = adjacent && self.men_dirs().contains(&d);
        if !king && !man_step {
            return Err(MoveError::NotAManMove { from: a, to: b });
        }
        if king && !DIAGONALS.contains(&d) {
            return Err(MoveError::NotAKingMove { from: a, to: b });
        }
        Ok(Walk { captured: 0, king })
    }

    /// Whether the piece standing (during the move) on `at` could jump on, given `ghosts`.
    fn can_continue(&self, from: Square, at: Square, ghosts: u64, king: bool) -> bool {
        let (us, them) = self.sides();
        let empty = !((us | them) & !from.bit()) & crate::board::BOARD;
        ALL_DIRS.iter().any(|&d| {
            let mut x = step(at.bit(), d);
            while king && x & empty != 0 {
                x = step(x, d);
            }
            x & them & !ghosts != 0 && step(x, d) & empty != 0
        })
    }

    /// The reason a walked route matches no legal move.
    pub(crate) fn explain(&self, legal: &MoveList, route: &[Square], walk: &Walk) -> MoveError {
        let from = route[0];
        let to = route[route.len() - 1];
        let example = |m: &Move| notation_among(legal, m);
        let best = legal
            .iter()
            .max_by_key(|m| (self.value(m.captured), m.king));
        if walk.captured == 0 {
            if let Some(m) = legal.iter().find(|m| m.is_capture()) {
                return MoveError::CaptureCompulsory {
                    example: example(m),
                };
            }
            if walk.king && self.frozen_king() & from.bit() != 0 {
                return MoveError::KingFrozen(from);
            }
            return MoveError::NotLegal;
        }
        if self.can_continue(from, to, walk.captured, walk.king) {
            return MoveError::MustContinue(to);
        }
        let Some(best) = best else {
            return MoveError::NotLegal;
        };
        let (value, top) = (self.value(walk.captured), self.value(best.captured));
        if value < top {
            return MoveError::LowerValue {
                value: describe(walk.captured, self.kings),
                best: describe(best.captured, self.kings),
                example: example(best),
            };
        }
        if value == top && !walk.king && best.king {
            return MoveError::KingPrecedence {
                example: example(best),
            };
        }
        MoveError::NotLegal
    }
}
