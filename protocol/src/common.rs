//! Small types shared by the match and engine-game messages.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A side of the board, in either game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(feature = "frisian")]
impl From<frisian::Color> for Side {
    fn from(color: frisian::Color) -> Side {
        match color {
            frisian::Color::White => Side::White,
            frisian::Color::Black => Side::Black,
        }
    }
}

#[cfg(feature = "minitchess")]
impl From<minitchess::Color> for Side {
    fn from(color: minitchess::Color) -> Side {
        match color {
            minitchess::Color::White => Side::White,
            minitchess::Color::Black => Side::Black,
        }
    }
}

/// One `T` for each side (shakmaty's `ByColor`): seats, clocks, presence, indexed by
/// [`Side`] instead of by a cast.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct BySide<T> {
    pub white: T,
    pub black: T,
}

impl<T> BySide<T> {
    pub const fn new(white: T, black: T) -> Self {
        BySide { white, black }
    }

    /// Each side's value, made by `f`.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> Self {
        BySide {
            white: f(Side::White),
            black: f(Side::Black),
        }
    }

    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }

    pub fn get_mut(&mut self, side: Side) -> &mut T {
        match side {
            Side::White => &mut self.white,
            Side::Black => &mut self.black,
        }
    }

    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            white: f(self.white),
            black: f(self.black),
        }
    }

    pub fn as_ref(&self) -> BySide<&T> {
        BySide {
            white: &self.white,
            black: &self.black,
        }
    }

    pub fn as_mut(&mut self) -> BySide<&mut T> {
        BySide {
            white: &mut self.white,
            black: &mut self.black,
        }
    }

    /// White's value, then Black's, each with its side.
    pub fn iter(&self) -> impl Iterator<Item = (Side, &T)> {
        [(Side::White, &self.white), (Side::Black, &self.black)].into_iter()
    }

    /// Whether `f` holds for both sides.
    pub fn all(&self, mut f: impl FnMut(&T) -> bool) -> bool {
        f(&self.white) && f(&self.black)
    }

    /// The first side (White, then Black) for which `f` holds.
    pub fn find(&self, mut f: impl FnMut(&T) -> bool) -> Option<Side> {
        self.iter()
            .find(|(_, value)| f(value))
            .map(|(side, _)| side)
    }
}

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;

    fn index(&self, side: Side) -> &T {
        self.get(side)
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    fn index_mut(&mut self, side: Side) -> &mut T {
        self.get_mut(side)
    }
}

/// What a player creating a match wants to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

/// A Fischer time control: time for the whole game plus an increment after every move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

/// Why a `5+3`-style time control did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("time control must look like MINUTES+SECONDS (for example 5+3), got {0:?}")]
pub struct TimeControlError(pub String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `5+3` is five minutes for the game and three seconds added after every move.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || TimeControlError(text.to_owned());
        let (minutes, seconds) = text.trim().split_once('+').ok_or_else(error)?;
        let minutes: u64 = minutes.parse().map_err(|_| error())?;
        let seconds: u64 = seconds.parse().map_err(|_| error())?;
        if minutes > 24 * 60 || seconds > 3600 || (minutes == 0 && seconds == 0) {
            return Err(error());
        }
        Ok(TimeControl {
            initial_ms: minutes * 60_000,
            increment_ms: seconds * 1000,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minutes = self.initial_ms / 60_000;
        let seconds = self.increment_ms / 1000;
        if minutes * 60_000 == self.initial_ms && seconds * 1000 == self.increment_ms {
            write!(f, "{minutes}+{seconds}")
        } else {
            write!(f, "{}ms+{}ms", self.initial_ms, self.increment_ms)
        }
    }
}

/// Something a client can watch: a Frisian match, a MinitChess channel (a TV channel such
/// as `tv1`, or an on-demand engine game), or a club event (its standings and pairings).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Match(String),
    Channel(String),
    /// A club event by its id (PROTOCOL.md §20): answered by [`crate::ClubEvent`].
    Event(String),
}

/// How many people are watching a match or channel (players not counted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crowd {
    pub target: Target,
    pub watchers: u32,
}
