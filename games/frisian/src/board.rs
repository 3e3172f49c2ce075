//! The bitboard layout and the shift primitives every generator is built on.
//!
//! Square `n` (1..=50) lives at bit `n - 1 + row / 2` where `row = (n - 1) / 5`: each pair of
//! board rows takes eleven bits, the eleventh a ghost bit that never holds a piece. With that
//! padding every diagonal step is a plain shift by 5 or 6 that lands on a ghost bit (or outside
//! the board) when it would leave the board, and a vertical step (two rows, `n ± 10`) is a
//! shift by 11. Only the horizontal step (`n ± 1`) needs an explicit edge mask, because a row
//! end and the next row start are adjacent bits.

/// Every playable bit.
pub(crate) const BOARD: u64 = {
    let mut b = 0u64;
    let mut n = 1;
    while n <= 50 {
        b |= 1 << bit_of(n);
        n += 1;
    }
    b
};

/// Bit index of square `n` (1..=50).
pub(crate) const fn bit_of(n: u8) -> u32 {
    let i = (n - 1) as u32;
    i + (i / 5) / 2
}

/// Square number held by bit `b`, or 0 for a ghost / off-board bit.
pub(crate) const SQUARE_OF_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut n = 1;
    while n <= 50 {
        t[bit_of(n) as usize] = n;
        n += 1;
    }
    t
};

/// Bits of squares `lo..=hi`.
const fn range(lo: u8, hi: u8) -> u64 {
    let mut b = 0u64;
    let mut n = lo;
    while n <= hi {
        b |= 1 << bit_of(n);
        n += 1;
    }
    b
}

/// White men are crowned on 1–5, Black men on 46–50.
pub(crate) const PROMO_WHITE: u64 = range(1, 5);
pub(crate) const PROMO_BLACK: u64 = range(46, 50);

/// Squares in the leftmost and rightmost playable column of their row (x = 0 / x = 4).
const ROW_START: u64 = {
    let mut b = 0u64;
    let mut n = 1;
    while n <= 50 {
        if (n - 1) % 5 == 0 {
            b |= 1 << bit_of(n);
        }
        n += 1;
    }
    b
};
const ROW_END: u64 = {
    let mut b = 0u64;
    let mut n = 5;
    while n <= 50 {
        b |= 1 << bit_of(n);
        n += 5;
    }
    b
};

/// The eight directions. Diagonals first: kings only slide (without capturing) on those.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    UpLeft,
    UpRight,
    DownLeft,
    DownRight,
    Up,
    Down,
    Left,
    Right,
}

pub(crate) const ALL_DIRS: [Dir; 8] = [
    Dir::UpLeft,
    Dir::UpRight,
    Dir::DownLeft,
    Dir::DownRight,
    Dir::Up,
    Dir::Down,
    Dir::Left,
    Dir::Right,
];

pub(crate) const DIAGONALS: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

/// Calls `f` once per direction with the direction as a constant, so that `step` inside `f`
/// compiles to a fixed shift instead of a jump table (a loop over `ALL_DIRS` does not unroll).
#[inline(always)]
pub(crate) fn each_dir(mut f: impl FnMut(Dir)) {
    f(Dir::UpLeft);
    f(Dir::UpRight);
    f(Dir::DownLeft);
    f(Dir::DownRight);
    f(Dir::Up);
    f(Dir::Down);
    f(Dir::Left);
    f(Dir::Right);
}

/// The opposite direction.
pub(crate) const fn back(d: Dir) -> Dir {
    match d {
        Dir::UpLeft => Dir::DownRight,
        Dir::UpRight => Dir::DownLeft,
        Dir::DownLeft => Dir::UpRight,
        Dir::DownRight => Dir::UpLeft,
        Dir::Up => Dir::Down,
        Dir::Down => Dir::Up,
        Dir::Left => Dir::Right,
        Dir::Right => Dir::Left,
    }
}

/// Moves every bit of `b` one step in direction `d`; bits that would leave the board vanish.
#[inline(always)]
pub(crate) const fn step(b: u64, d: Dir) -> u64 {
    shift(b, d) & BOARD
}

/// `step` without the final board mask: a bit leaving the board may land on a ghost or
/// off-board bit, so the result must be intersected with a set of real squares (pieces,
/// empty squares) before use. Saves an instruction per step in the hot loops.
#[inline(always)]
pub(crate) const fn shift(b: u64, d: Dir) -> u64 {
    match d {
        Dir::UpLeft => b >> 6,
        Dir::UpRight => b >> 5,
        Dir::DownLeft => b << 5,
        Dir::DownRight => b << 6,
        Dir::Up => b >> 11,
        Dir::Down => b << 11,
        Dir::Left => (b & !ROW_START) >> 1,
        Dir::Right => (b & !ROW_END) << 1,
    }
}

/// A man's forward step as a right rotation: one instruction for a direction known only at
/// run time (which colour moves), where `shift` would branch on it. A rotation carries the
/// bits it pushes off one end round to the other; from real squares (bits 0–53) those land on
/// bits 58–63, beyond the board, so the result is masked like `shift`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ManStep(u32);

impl ManStep {
    /// The step along one of the four diagonals.
    pub(crate) const fn along(d: Dir) -> ManStep {
        match d {
            Dir::UpLeft => ManStep(6),
            Dir::UpRight => ManStep(5),
            Dir::DownLeft => ManStep(64 - 5),
            Dir::DownRight => ManStep(64 - 6),
            _ => panic!("men step along the diagonals only"),
        }
    }

    /// Every square of `b` one step ahead.
    #[inline(always)]
    pub(crate) const fn ahead(self, b: u64) -> u64 {
        b.rotate_right(self.0)
    }

    /// Every square of `b` one step back.
    #[inline(always)]
    pub(crate) const fn behind(self, b: u64) -> u64 {
        b.rotate_left(self.0)
    }
}

/// Iterates the set bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = u64;
    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.0 == 0 {
            return None;
        }
        let low = self.0 & self.0.wrapping_neg();
        self.0 ^= low;
        Some(low)
    }
}

/// Square number of a single-bit bitboard.
#[inline(always)]
pub(crate) fn square_of(single: u64) -> u8 {
    SQUARE_OF_BIT[single.trailing_zeros() as usize]
}

/// Board-shaped pseudo-random sets for tests, so that every square meets many neighbourhoods.
#[cfg(test)]
pub(crate) fn random_boards() -> impl Iterator<Item = u64> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    std::iter::repeat_with(move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x & BOARD
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbour(n: u8, d: Dir) -> Option<u8> {
        let b = step(1 << bit_of(n), d);
        (b != 0).then(|| square_of(b))
    }

    #[test]
    fn neighbours_of_28_match_the_rules() {
        assert_eq!(neighbour(28, Dir::UpLeft), Some(22));
        assert_eq!(neighbour(28, Dir::UpRight), Some(23));
        assert_eq!(neighbour(28, Dir::DownLeft), Some(32));
        assert_eq!(neighbour(28, Dir::DownRight), Some(33));
        assert_eq!(neighbour(28, Dir::Up), Some(18));
        assert_eq!(neighbour(28, Dir::Down), Some(38));
        assert_eq!(neighbour(28, Dir::Left), Some(27));
        assert_eq!(neighbour(28, Dir::Right), Some(29));
    }

    #[test]
    fn man_steps_are_the_diagonal_shifts_on_the_board() {
        let mut boards = random_boards();
        for d in DIAGONALS {
            let man_step = ManStep::along(d);
            for _ in 0..1000 {
                let squares = boards.next().unwrap();
                assert_eq!(man_step.ahead(squares) & BOARD, step(squares, d));
                assert_eq!(man_step.behind(squares) & BOARD, step(squares, back(d)));
            }
        }
    }

    #[test]
    fn nothing_wraps_round_an_edge() {
        assert_eq!(neighbour(35, Dir::Right), None);
        assert_eq!(neighbour(36, Dir::Left), None);
        assert_eq!(neighbour(5, Dir::DownRight), None);
        assert_eq!(neighbour(6, Dir::DownLeft), None);
        assert_eq!(neighbour(46, Dir::Down), None);
        assert_eq!(neighbour(3, Dir::Up), None);
        assert_eq!(neighbour(50, Dir::DownLeft), None);
        assert_eq!(BOARD.count_ones(), 50);
    }
}
