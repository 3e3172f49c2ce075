//! The "play now" presets: the time controls a member can be paired at without a seek.

use serde::{Deserialize, Serialize};

use crate::common::TimeControl;

/// A time control of the play-now pool (minutes + seconds added per move). One pool per
/// preset, so that members waiting in one are only paired with each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PoolPreset {
    #[serde(rename = "1+1")]
    OnePlusOne,
    #[serde(rename = "3+2")]
    ThreePlusTwo,
    #[serde(rename = "5+3")]
    FivePlusThree,
    #[serde(rename = "10+5")]
    TenPlusFive,
    #[serde(rename = "15+10")]
    FifteenPlusTen,
}

impl PoolPreset {
    /// Every preset, fastest first.
    pub const ALL: [PoolPreset; 5] = [
        PoolPreset::OnePlusOne,
        PoolPreset::ThreePlusTwo,
        PoolPreset::FivePlusThree,
        PoolPreset::TenPlusFive,
        PoolPreset::FifteenPlusTen,
    ];

    /// Minutes for the game and seconds added after every move.
    pub const fn minutes_and_increment(self) -> (u64, u64) {
        match self {
            PoolPreset::OnePlusOne => (1, 1),
            PoolPreset::ThreePlusTwo => (3, 2),
            PoolPreset::FivePlusThree => (5, 3),
            PoolPreset::TenPlusFive => (10, 5),
            PoolPreset::FifteenPlusTen => (15, 10),
        }
    }

    /// The clock a paired match is created with.
    pub const fn time_control(self) -> TimeControl {
        let (minutes, seconds) = self.minutes_and_increment();
        TimeControl {
            initial_ms: minutes * 60_000,
            increment_ms: seconds * 1000,
        }
    }

    /// Its position in [`PoolPreset::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for PoolPreset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (minutes, seconds) = self.minutes_and_increment();
        write!(f, "{minutes}+{seconds}")
    }
}
