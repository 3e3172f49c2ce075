//! One man's jumps from, over or onto one square, all directions at once: the primitives of
//! the capture search and of perft's leaf counts.
//!
//! Each comes in two forms, chosen by the `PEXT` parameter. With `PEXT`, the victims round a
//! square and the squares beyond them are gathered with `pext` into eight bits in direction
//! order, combined, and scattered back with `pdep`: a handful of instructions whatever the
//! board. Without, a loop runs over the pieces next to the square. `pext` and `pdep` need BMI2
//! and are microcoded (tens of cycles, more for some masks) on AMD CPUs before Zen 3, so the
//! form is chosen at run time by [`fast_pext`], once per call of a public entry point, and
//! every build carries both.

use std::sync::OnceLock;

use crate::board::{ALL_DIRS, Bits, back, bit_of, step};

/// Whether this CPU has BMI2 and runs `pext`/`pdep` in hardware (not an AMD or Hygon CPU of
/// a family before Zen 3's). Detected once.
pub(crate) fn fast_pext() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(detect_fast_pext)
}

#[cfg(target_arch = "x86_64")]
fn detect_fast_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let vendor = __cpuid(0);
    let amd = matches!(
        (vendor.ebx, vendor.edx, vendor.ecx),
        (0x6874_7541, 0x6974_6e65, 0x444d_4163) | (0x6f67_7948, 0x6e65_476e, 0x656e_6975)
    );
    let signature = __cpuid(1).eax;
    let family = (signature >> 8 & 0xf) + (signature >> 20 & 0xff);
    !amd || family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_fast_pext() -> bool {
    false
}

/// `pext`: the bits of `x` under `mask`, packed at the bottom. Only called where
/// [`fast_pext`] (or the target) promised BMI2.
#[inline(always)]
fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        let packed;
        // SAFETY: the caller checked that the CPU has BMI2 (`fast_pext`); the instruction
        // touches only registers. Inline assembly because the intrinsic cannot be inlined
        // into code compiled without BMI2.
        unsafe {
            std::arch::asm!("pext {0}, {1}, {2}", out(reg) packed, in(reg) x, in(reg) mask,
                options(pure, nomem, nostack, preserves_flags));
        }
        packed
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("pext without x86-64 ({x:#x}, {mask:#x})")
}

/// `pdep`: the low bits of `x` scattered to the bits of `mask`. As `pext`.
#[inline(always)]
fn pdep(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the target has BMI2.
        unsafe { std::arch::x86_64::_pdep_u64(x, mask) }
    }
    #[cfg(all(target_arch = "x86_64", not(target_feature = "bmi2")))]
    {
        let scattered;
        // SAFETY: as in `pext`.
        unsafe {
            std::arch::asm!("pdep {0}, {1}, {2}", out(reg) scattered, in(reg) x, in(reg) mask,
                options(pure, nomem, nostack, preserves_flags));
        }
        scattered
    }
    #[cfg(not(target_arch = "x86_64"))]
    unreachable!("pdep without x86-64 ({x:#x}, {mask:#x})")
}

/// For each bit index, the neighbours (in all eight directions) that have a square beyond
/// them on the board: the pieces a man standing there could jump.
const JUMPABLE: [u64; 64] = {
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
const LANDINGS: [u64; 64] = {
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

/// For each bit index, the neighbours whose opposite neighbour is on the board too: where a
/// man can stand to jump a piece standing there. Symmetric round the square, so listed in
/// ascending order its opposites come in descending order.
const PASSES: [u64; 64] = {
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
const REVERSED_BYTE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).reverse_bits();
        i += 1;
    }
    t
};

/// Where a man on bit `here` lands with one jump over one of `victims` onto one of `empty`.
/// A jump reads the same both ways, so with our men as `empty` it finds the men that jump to
/// `here`.
#[inline(always)]
pub(crate) fn jump_landings<const PEXT: bool>(here: u32, victims: u64, empty: u64) -> u64 {
    let (over, onto) = (JUMPABLE[here as usize], LANDINGS[here as usize]);
    if PEXT {
        // Both tables list the eight directions in the same order (ascending bits), so the
        // gathered victims and landings line up bit for bit.
        pdep(pext(victims, over) & pext(empty, onto), onto)
    } else {
        let mut lands = 0;
        for victim in Bits(over & victims) {
            lands |= 1u64 << (2 * victim.trailing_zeros() - here);
        }
        lands & empty
    }
}

/// Where the pieces of `jumpers` land when one jumps the piece on bit `here` onto `empty`.
#[inline(always)]
pub(crate) fn jumps_over<const PEXT: bool>(here: u32, jumpers: u64, empty: u64) -> u64 {
    let passes = PASSES[here as usize];
    if PEXT {
        // A jumper and its landing are opposite each other: gathered in ascending order, the
        // jumpers line up with the landings once their bits are reversed.
        let spare = 8 - passes.count_ones();
        let from = REVERSED_BYTE[pext(jumpers, passes) as usize] as u64 >> spare;
        pdep(from & pext(empty, passes), passes)
    } else {
        let mut lands = 0;
        for jumper in Bits(passes & jumpers) {
            // The landing lies as far beyond `here` as the jumper stands before it.
            lands |= 1u64 << (2 * here - jumper.trailing_zeros());
        }
        lands & empty
    }
}

/// The men of `jumpers` that can jump onto the empty square on bit `here` over one of
/// `victims`: `jump_landings` read backwards, for when the jumpers are few and the victims
/// many (the loop without `pext` then runs over the jumpers).
#[inline(always)]
pub(crate) fn jumpers_onto<const PEXT: bool>(here: u32, victims: u64, jumpers: u64) -> u64 {
    if PEXT {
        return jump_landings::<true>(here, victims, jumpers);
    }
    let mut found = 0;
    for jumper in Bits(LANDINGS[here as usize] & jumpers) {
        if jumped(here, jumper) & victims != 0 {
            found |= jumper;
        }
    }
    found
}

/// The piece jumped from bit `here` to `land`: halfway, as every step is a fixed shift.
#[inline(always)]
pub(crate) fn jumped(here: u32, land: u64) -> u64 {
    1 << ((here + land.trailing_zeros()) / 2)
}

/// Whether the `PEXT` forms can run here (on any CPU with BMI2, fast or not): tests run both.
#[cfg(test)]
pub(crate) fn has_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("bmi2");
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{BOARD, random_boards, shift};

    /// The jumps of a man on `n`, one direction at a time: the reference for `jump_landings`.
    fn landings_by_direction(n: u8, victims: u64, empty: u64) -> u64 {
        let at = 1 << bit_of(n);
        ALL_DIRS
            .iter()
            .map(|&d| step(step(at, d) & victims, d) & empty)
            .fold(0, |all, land| all | land)
    }

    #[test]
    fn jump_landings_are_the_jumps_of_each_direction() {
        let mut boards = random_boards();
        for n in 1..=50u8 {
            for _ in 0..200 {
                let (victims, empty) = (boards.next().unwrap(), boards.next().unwrap());
                let empty = empty & !victims;
                let want = landings_by_direction(n, victims, empty);
                let here = bit_of(n);
                assert_eq!(
                    jump_landings::<false>(here, victims, empty),
                    want,
                    "square {n}"
                );
                assert_eq!(
                    jumpers_onto::<false>(here, victims, empty),
                    want,
                    "square {n}"
                );
                if has_bmi2() {
                    assert_eq!(
                        jump_landings::<true>(here, victims, empty),
                        want,
                        "square {n}"
                    );
                    assert_eq!(
                        jumpers_onto::<true>(here, victims, empty),
                        want,
                        "square {n}"
                    );
                }
                for land in Bits(want) {
                    let victim = jumped(here, land);
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
                let here = bit_of(n);
                assert_eq!(
                    jumps_over::<false>(here, jumpers, empty),
                    want,
                    "square {n}"
                );
                if has_bmi2() {
                    assert_eq!(jumps_over::<true>(here, jumpers, empty), want, "square {n}");
                }
            }
        }
    }

    /// `pext` and `pdep` by the bit, to check the tables the `PEXT` forms gather with on any
    /// machine.
    fn pext_by_bit(x: u64, mask: u64) -> u64 {
        Bits(mask)
            .enumerate()
            .fold(0, |out, (i, bit)| out | (((x & bit != 0) as u64) << i))
    }

    fn pdep_by_bit(x: u64, mask: u64) -> u64 {
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
                let gathered = pext_by_bit(victim, JUMPABLE[here]);
                let land = pdep_by_bit(gathered, LANDINGS[here]);
                assert_eq!(landings_by_direction(n, victim, BOARD), land, "square {n}");
                if has_bmi2() {
                    assert_eq!(pext(victim, JUMPABLE[here]), gathered);
                    assert_eq!(pdep(gathered, LANDINGS[here]), land);
                }
            }
        }
        assert_eq!(LANDINGS[bit_of(28) as usize].count_ones(), 8);
        assert_eq!(LANDINGS[bit_of(1) as usize].count_ones(), 3);
    }

    #[test]
    fn fast_pext_is_detected_once_and_needs_bmi2() {
        assert_eq!(fast_pext(), fast_pext());
        assert!(!fast_pext() || has_bmi2());
    }
}
