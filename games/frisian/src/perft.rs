//! Perft: the number of distinct legal move sequences of a given length (RULES.md §8). The
//! last ply is counted in bulk, without making the moves; when the ply before it has no
//! capture, its simple moves are made on the bitboards without building a move list.

use crate::jumps::fast_pext;
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaves at `depth` plies from `pos`. Draw rules are ignored; the three-move rule applies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if fast_pext() {
        perft_with::<true>(pos, depth)
    } else {
        perft_with::<false>(pos, depth)
    }
}

/// `perft` with the jump primitives chosen once for the whole tree (see `jumps`).
pub(crate) fn perft_with<const PEXT: bool>(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_with::<PEXT>(),
        2 => match pos.capturers() {
            0 => pos.perft_2_quiet::<PEXT>(),
            capturers => {
                let mut moves = MoveList::new();
                pos.gen_captures::<PEXT>(capturers, &mut moves);
                moves
                    .iter()
                    .map(|m| pos.play_unchecked(m).count_legal_with::<PEXT>())
                    .sum()
            }
        },
        _ => perft_by_moves::<PEXT>(pos, depth),
    }
}

fn perft_by_moves<const PEXT: bool>(pos: &Position, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    pos.legal_moves_with::<PEXT>(&mut moves);
    moves
        .iter()
        .map(|m| perft_with::<PEXT>(&pos.play_unchecked(m), depth - 1))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jumps::has_bmi2;

    /// Both forms of the jump primitives, whichever this CPU would choose, against the
    /// published counts: the start to depth 7 and positions with long captures and kings.
    #[test]
    fn both_jump_forms_count_the_published_leaves() {
        let cases: [(&str, &[u64]); 4] = [
            (
                "W:W31-50:B1-20:H0:F1:+0+0",
                &[9, 81, 658, 3874, 21265, 102431, 540126],
            ),
            (
                "W:W45:B13,14,18,19,22,24,27,28,33,37,38,39,40,44",
                &[19, 196, 428],
            ),
            (
                "W:WK28,K46,39,40:BK5,K7,12,13:H0:F1:+205+228",
                &[19, 95, 460, 2882, 17636],
            ),
            (
                "B:WK4,26,31,35,36,38,39,40,42,43,44,45,46,48,49,50:B1,5,6,7,8,9,10,11,13,15,16,18,20,24,25:H0:F10:+0+0",
                &[1, 10, 99, 677, 5706],
            ),
        ];
        for (fen, counts) in cases {
            let pos = Position::from_fen(fen).unwrap();
            for (depth, &n) in (1..).zip(counts) {
                assert_eq!(perft_with::<false>(&pos, depth), n, "{fen} depth {depth}");
                if has_bmi2() {
                    assert_eq!(perft_with::<true>(&pos, depth), n, "{fen} depth {depth}");
                }
            }
        }
    }
}
