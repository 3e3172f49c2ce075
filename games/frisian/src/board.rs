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

/// For each bit index, the neighbours (in all eight directions) that have a square beyond
/// them on the board: the pieces a man standing there could jump.
pub(crate) const JUMPABLE: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut n = 1;
    while n <= 50 {
        let at = 1u64 << bit_of(n);
        let mut i = 0;
        while i < 8 {
            let d = ALL_DIRS[i];
            let victim = step(at, d);
            if step(victim, d) != 0 {
                t[bit_of(n) as usize] |= victim;
            }
            i += 1;
        }
        n += 1;
    }
    t
};

/// For each bit index, the squares a man standing there lands on with one jump: one for each
/// bit of `JUMPABLE`, in the same (ascending) order, since a landing lies beyond its victim.
pub(crate) const LANDINGS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut n = 1;
    while n <= 50 {
        let at = 1u64 << bit_of(n);
        let mut i = 0;
        while i < 8 {
            let d = ALL_DIRS[i];
            t[bit_of(n) as usize] |= step(step(at, d), d);
            i += 1;
        }
        n += 1;
    }
    t
};

/// Where a man on bit `here` lands with one jump over one of `victims` onto one of `empty`.
/// A jump reads the same both ways, so with our men as `empty` it finds the men that jump to
/// `here`.
#[inline(always)]
pub(crate) fn jump_landings(here: u32, victims: u64, empty: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        use std::arch::x86_64::{_pdep_u64, _pext_u64};
        // Both tables list the eight directions in the same order (ascending bits), so the
        // gathered victims and landings line up bit for bit.
        let (over, onto) = (JUMPABLE[here as usize], LANDINGS[here as usize]);
        // SAFETY: this code is only compiled when the target has BMI2.
        unsafe { _pdep_u64(_pext_u64(victims, over) & _pext_u64(empty, onto), onto) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut lands = 0;
        for victim in Bits(JUMPABLE[here as usize] & victims) {
            lands |= 1u64 << (2 * victim.trailing_zeros() - here);
        }
        lands & empty
    }
}

/// For each bit index, the neighbours whose opposite neighbour is on the board too: where a
/// man can stand to jump a piece standing there. Symmetric round the square, so listed in
/// ascending order its opposites come in descending order.
pub(crate) const PASSES: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut n = 1;
    while n <= 50 {
        let at = 1u64 << bit_of(n);
        let mut i = 0;
        while i < 8 {
            let d = ALL_DIRS[i];
            if step(at, d) != 0 && step(at, back(d)) != 0 {
                t[bit_of(n) as usize] |= step(at, d);
            }
            i += 1;
        }
        n += 1;
    }
    t
};

/// Each byte with its bits in reverse order (x86 has no instruction for it).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
const REVERSED_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).reverse_bits();
        i += 1;
    }
    t
};

/// Where the pieces of `jumpers` land when one jumps the piece on bit `here` onto `empty`.
#[inline(always)]
pub(crate) fn jumps_over(here: u32, jumpers: u64, empty: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        use std::arch::x86_64::{_pdep_u64, _pext_u64};
        // A jumper and its landing are opposite each other: gathered in ascending order, the
        // jumpers line up with the landings once their bits are reversed.
        let passes = PASSES[here as usize];
        let spare = 8 - passes.count_ones();
        // SAFETY: this code is only compiled when the target has BMI2.
        unsafe {
            let from = REVERSED_BYTE[_pext_u64(jumpers, passes) as usize] as u64 >> spare;
            _pdep_u64(from & _pext_u64(empty, passes), passes)
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut lands = 0;
        for jumper in Bits(PASSES[here as usize] & jumpers) {
            // The landing lies as far beyond `here` as the jumper stands before it.
            lands |= 1u64 << (2 * here - jumper.trailing_zeros());
        }
        lands & empty
    }
}

/// The men of `jumpers` that can jump onto the empty square on bit `here` over one of
/// `victims`: `jump_landings` read backwards, for when the jumpers are few and the victims
/// many (the loop without BMI2 then runs over the jumpers).
#[inline(always)]
pub(crate) fn jumpers_onto(here: u32, victims: u64, jumpers: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        jump_landings(here, victims, jumpers)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        let mut found = 0;
        for jumper in Bits(LANDINGS[here as usize] & jumpers) {
            if jumped(here, jumper) & victims != 0 {
                found |= jumper;
            }
        }
        found
    }
}

/// The piece jumped from bit `here` to `land`: halfway, as every step is a fixed shift.
#[inline(always)]
pub(crate) fn jumped(here: u32, land: u64) -> u64 {
    1 << ((here + land.trailing_zeros()) / 2)
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

    /// The jumps of a man on `n`, one direction at a time: the reference for `jump_landings`.
    fn landings_by_direction(n: u8, victims: u64, empty: u64) -> u64 {
        let at = 1 << bit_of(n);
        ALL_DIRS
            .iter()
            .map(|&d| step(step(at, d) & victims, d) & empty)
            .fold(0, |all, land| all | land)
    }

    /// Board-shaped pseudo-random sets, so that every square meets many neighbourhoods.
    fn random_boards() -> impl Iterator<Item = u64> {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & BOARD
        })
    }

    #[test]
    fn jump_landings_are_the_jumps_of_each_direction() {
        let mut boards = random_boards();
        for n in 1..=50u8 {
            for _ in 0..200 {
                let (victims, empty) = (boards.next().unwrap(), boards.next().unwrap());
                let empty = empty & !victims;
                let want = landings_by_direction(n, victims, empty);
                assert_eq!(jump_landings(bit_of(n), victims, empty), want, "square {n}");
                assert_eq!(jumpers_onto(bit_of(n), victims, empty), want, "square {n}");
                for land in Bits(want) {
                    let victim = jumped(bit_of(n), land);
                    assert_eq!(victim & victims, victim, "square {n}");
                    assert_eq!(landings_by_direction(n, victim, land), land, "square {n}");
                }
            }
        }
    }

    #[test]
    fn jumps_over_land_opposite_each_jumper() {
        let mut boards = random_boards();
        for n in 1..=50u8 {
            let at = 1 << bit_of(n);
            for _ in 0..200 {
                let (jumpers, empty) = (boards.next().unwrap(), boards.next().unwrap());
                let empty = empty & !jumpers & !at;
                let want = ALL_DIRS
                    .iter()
                    .map(|&d| step(at, back(d)) & empty & shift(shift(jumpers, back(d)), back(d)))
                    .fold(0, |all, land| all | land);
                assert_eq!(jumps_over(bit_of(n), jumpers, empty), want, "square {n}");
            }
        }
    }

    /// `_pext_u64` and `_pdep_u64` by the bit, to check the tables the BMI2 path gathers with
    /// in every build.
    fn pext(x: u64, mask: u64) -> u64 {
        Bits(mask)
            .enumerate()
            .fold(0, |out, (i, bit)| out | (((x & bit != 0) as u64) << i))
    }

    fn pdep(x: u64, mask: u64) -> u64 {
        Bits(mask).enumerate().fold(
            0,
            |out, (i, bit)| if x >> i & 1 != 0 { out | bit } else { out },
        )
    }

    #[test]
    fn landings_line_up_with_the_jumpable_victims() {
        for n in 1..=50u8 {
            let here = bit_of(n) as usize;
            assert_eq!(JUMPABLE[here].count_ones(), LANDINGS[here].count_ones());
            for victim in Bits(JUMPABLE[here]) {
                let gathered = pext(victim, JUMPABLE[here]);
                let land = pdep(gathered, LANDINGS[here]);
                assert_eq!(landings_by_direction(n, victim, BOARD), land, "square {n}");
            }
        }
        assert_eq!(LANDINGS[bit_of(28) as usize].count_ones(), 8);
        assert_eq!(LANDINGS[bit_of(1) as usize].count_ones(), 3);
    }
}
