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

/// Something a client can watch: a Frisian match or a MinitChess channel (a TV channel such
/// as `tv1`, or an on-demand engine game).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    Match(String),
    Channel(String),
}

/// How many people are watching a match or channel (players not counted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crowd {
    pub target: Target,
    pub watchers: u32,
}
