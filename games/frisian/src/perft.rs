//! Perft: the number of distinct legal move sequences of a given length (RULES.md §8). The
//! last ply is counted in bulk, without making the moves; when the ply before it has no
//! capture, its simple moves are made on the bitboards without building a move list.

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaves at `depth` plies from `pos`. Draw rules are ignored; the three-move rule applies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        2 => match pos.capturers() {
            0 => pos.perft_2_quiet(),
            capturers => {
                let mut moves = MoveList::new();
                pos.gen_captures(capturers, &mut moves);
                moves
                    .iter()
                    .map(|m| pos.play_unchecked(m).count_legal())
                    .sum()
            }
        },
        _ => perft_by_moves(pos, depth),
    }
}

fn perft_by_moves(pos: &Position, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|m| perft(&pos.play_unchecked(m), depth - 1))
        .sum()
}

/// Each legal move with the leaves below it at `depth` plies in all (`depth >= 1`).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let below = depth.saturating_sub(1);
    let mut moves = MoveList::new();
    pos.legal_moves_into(&mut moves);
    moves
        .iter()
        .map(|m| (*m, perft(&pos.play_unchecked(m), below)))
        .collect()
}

impl Position {
    /// The position after `mv`, a move of this position's legal list, with no checks: for
    /// searches that already hold the legal list.
    pub fn play_legal(&self, mv: &Move) -> Position {
        self.play_unchecked(mv)
    }
}
