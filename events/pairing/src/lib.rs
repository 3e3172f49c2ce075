//! Pairing and scoring for club events: the pure part under the event director.
//!
//! Everything here is a function of the event's state, with no I/O, no clock and no randomness,
//! so that the director (an actor that stores its events and replays them on restart) gets the
//! same pairing from the same stored state on any node, and a round is never paired two ways.
//!
//! One module per concept:
//! - [`matching`]: maximum-weight matching with lexicographic weights, the engine under the
//!   Swiss and arena pairings (Edmonds' blossom from the `integer-blossom` crate).
//! - [`swiss`]: a Swiss event's state (players, their rounds, byes, late entries, withdrawals)
//!   and the round-by-round cycle: pair, then record the results.
//! - [`colour`]: colour differences, preferences and allocation of the FIDE Dutch system.
//! - [`dutch`]: the FIDE Dutch system (C.04.3) pairing of one round.
//! - [`round_robin`]: Berger tables with FIDE's colours (C.05 Annex 1), single and double.
//! - [`arena_score`]: lila's arena scoring (streaks, berserk, short draws).
//! - [`arena_pairing`]: pairing of an arena's waiting players by standing.
//! - [`tiebreak`]: Buchholz, Buchholz cut-1, Sonneborn-Berger, then rating.
//! - [`trf`]: the FIDE TRF export of a Swiss, as the federations' pairing checkers read it.
//!
//! The crate's README says which rules of C.04.3 are implemented exactly and which are
//! approximated.

pub mod arena_pairing;
pub mod arena_score;
pub mod colour;
pub mod dutch;
pub mod matching;
pub mod round_robin;
pub mod swiss;
pub mod tiebreak;
pub mod trf;

use std::fmt;

/// A player of an event, as the server numbers its accounts. Pairings name players by id,
/// never by position, so a late entry that shifts the pairing numbers renames nobody.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(pub u32);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The side a player has in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    /// The other side.
    pub fn opposite(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// Points in half-point units, so a draw is exact and sums never round: `Points(3)` is 1½.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    /// Nothing.
    pub const ZERO: Points = Points(0);
    /// A draw.
    pub const HALF: Points = Points(1);
    /// A win (and the default pairing-allocated bye).
    pub const ONE: Points = Points(2);

    /// The number of half points.
    pub fn halves(self) -> u32 {
        self.0
    }
}

impl std::ops::Add for Points {
    type Output = Points;
    fn add(self, other: Points) -> Points {
        Points(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Points {
    fn add_assign(&mut self, other: Points) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Points {
    fn sum<I: Iterator<Item = Points>>(iter: I) -> Points {
        iter.fold(Points::ZERO, |a, b| a + b)
    }
}

/// Written as players read it: `1½`, `0`, `½`, `12`.
impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => write!(f, "½"),
            (whole, 1) => write!(f, "{whole}½"),
            (whole, _) => write!(f, "{whole}"),
        }
    }
}
