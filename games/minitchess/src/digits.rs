//! Serial numbers, the bomb number derived from them, and each engine's 41 digits (§4).

use std::fmt;
use std::str::FromStr;

/// A uniform random source: `below(n)` returns a value in `0..n` (n > 0). Any
/// `FnMut(u32) -> u32` closure is one, so callers can adapt whatever generator they use.
pub trait RandomSource {
    fn below(&mut self, n: u32) -> u32;
}

impl<F: FnMut(u32) -> u32> RandomSource for F {
    fn below(&mut self, n: u32) -> u32 {
        self(n)
    }
}

/// Why a serial number was refused. Serials are upper-case letters and digits only.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SerialError {
    #[error("the serial number is empty")]
    Empty,
    #[error(
        "invalid character {ch:?} at position {index} of the serial number: only upper-case letters A-Z and digits 0-9 are allowed"
    )]
    InvalidChar { index: usize, ch: char },
}

fn check_serial(serial: &str) -> Result<(), SerialError> {
    if serial.is_empty() {
        return Err(SerialError::Empty);
    }
    match serial
        .chars()
        .enumerate()
        .find(|(_, c)| !(c.is_ascii_uppercase() || c.is_ascii_digit()))
    {
        Some((index, ch)) => Err(SerialError::InvalidChar { index, ch }),
        None => Ok(()),
    }
}

/// A checked serial number (upper-case letters and digits, at least one character).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Serial(String);

/// Letters a KTANE serial may use: the alphabet without O and Y.
const SERIAL_LETTERS: &[u8] = b"ABCDEFGHIJKLMNPQRSTUVWXZ";
const SERIAL_DIGITS: &[u8] = b"0123456789";

impl Serial {
    /// A KTANE-style serial: two letters or digits, a digit, two letters, a digit (`CH3SS5`).
    pub fn random(rng: &mut impl RandomSource) -> Serial {
        let mut pick = |set: &[u8]| set[rng.below(set.len() as u32) as usize] as char;
        let any: Vec<u8> = [SERIAL_LETTERS, SERIAL_DIGITS].concat();
        let s: String = [
            pick(&any),
            pick(&any),
            pick(SERIAL_DIGITS),
            pick(SERIAL_LETTERS),
            pick(SERIAL_LETTERS),
            pick(SERIAL_DIGITS),
        ]
        .into_iter()
        .collect();
        Serial(s)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn bomb_number(&self) -> BombNumber {
        BombNumber::from_checked(&self.0)
    }
}

impl FromStr for Serial {
    type Err = SerialError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        check_serial(s)?;
        Ok(Serial(s.to_owned()))
    }
}

impl fmt::Display for Serial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The bomb number B: each digit of the serial kept, each letter replaced by its alphabet
/// position in decimal (A = 1 … Z = 26), concatenated. `CH3SS5` → `38319195`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BombNumber(Vec<u8>);

impl BombNumber {
    pub fn from_serial(serial: &str) -> Result<BombNumber, SerialError> {
        check_serial(serial)?;
        Ok(BombNumber::from_checked(serial))
    }

    fn from_checked(serial: &str) -> BombNumber {
        let mut digits = Vec::with_capacity(serial.len() * 2);
        for b in serial.bytes() {
            match b {
                b'0'..=b'9' => digits.push(b - b'0'),
                _ => {
                    let position = b - b'A' + 1;
                    if position >= 10 {
                        digits.push(position / 10);
                    }
                    digits.push(position % 10);
                }
            }
        }
        BombNumber(digits)
    }

    /// The digits of B, each 0..=9.
    pub fn digits(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for BombNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|d| write!(f, "{}", (b'0' + d) as char))
    }
}

/// Number of digits an engine precomputes: one sort digit plus one per move, 40 moves.
pub const DIGIT_COUNT: usize = 41;

/// An engine's 41 digits: `d[0] = seed`, `d[k+1] = (d[k] + B[k mod len(B)]) mod 10`.
/// Ply p uses `d[p div 2 + 1]` to pick and `d[p div 2]` to choose the sort direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digits([u8; DIGIT_COUNT]);

impl Digits {
    /// `seed` must be 0..=9 (an [`crate::Engine`] guarantees it).
    pub fn new(seed: u8, bomb: &BombNumber) -> Digits {
        debug_assert!(seed <= 9);
        let b = bomb.digits();
        let mut d = [0u8; DIGIT_COUNT];
        d[0] = seed;
        for k in 0..DIGIT_COUNT - 1 {
            d[k + 1] = (d[k] + b[k % b.len()]) % 10;
        }
        Digits(d)
    }

    pub fn as_array(&self) -> &[u8; DIGIT_COUNT] {
        &self.0
    }

    /// Digit `k`, 0..=40.
    pub fn get(&self, k: usize) -> u8 {
        self.0[k]
    }
}

/// The 41 digits as one string, like the reference files' `white_random`.
impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|d| write!(f, "{}", (b'0' + d) as char))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_bomb_number() {
        let b = BombNumber::from_serial("CH3SS5").unwrap();
        assert_eq!(b.digits(), [3, 8, 3, 1, 9, 1, 9, 5]);
        assert_eq!(b.to_string(), "38319195");
        assert_eq!(
            BombNumber::from_serial("AZJ09").unwrap().to_string(),
            "1261009"
        );
    }

    #[test]
    fn digits_follow_the_recurrence() {
        let b = BombNumber::from_serial("CH3SS5").unwrap();
        let d = Digits::new(4, &b);
        assert_eq!(&d.as_array()[..3], &[4, 7, 5]);
        assert_eq!(
            Digits::new(0, &b).to_string(),
            "03145454920343438192323270812121697010105"
        );
    }

    #[test]
    fn bad_serials_are_refused() {
        assert_eq!(BombNumber::from_serial(""), Err(SerialError::Empty));
        assert_eq!(
            BombNumber::from_serial("ch3ss5"),
            Err(SerialError::InvalidChar { index: 0, ch: 'c' })
        );
        assert_eq!(
            BombNumber::from_serial("CH3-S5"),
            Err(SerialError::InvalidChar { index: 3, ch: '-' })
        );
        assert_eq!(
            "CH3SSÉ".parse::<Serial>(),
            Err(SerialError::InvalidChar { index: 5, ch: 'É' })
        );
    }

    #[test]
    fn random_serials_look_like_ktane_serials() {
        let mut state = 12345u64;
        let mut rng = |n: u32| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n as u64) as u32
        };
        for _ in 0..2000 {
            let s = Serial::random(&mut rng);
            let b = s.as_str().as_bytes();
            assert_eq!(b.len(), 6);
            assert!(
                b[..2]
                    .iter()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            );
            assert!(b[2].is_ascii_digit() && b[5].is_ascii_digit());
            assert!(b[3].is_ascii_uppercase() && b[4].is_ascii_uppercase());
            assert!(!s.as_str().contains(['O', 'Y']), "{s}");
            assert_eq!(s.as_str().parse::<Serial>().as_ref(), Ok(&s));
        }
    }
}
