//! A channel's schedule, saved so that another node can continue it exactly.
//!
//! Engines are deterministic and a channel reveals on a fixed beat, so its whole future is
//! decided by the game it plays and the moment that game started: the `GameStarted` event
//! (version `start_v`) goes out at `start`, reveal `i` (counting from one) at
//! `start + i × interval` with version `start_v + i`, and `GameEnded` with the last reveal,
//! one version later. [`SavedChannel`] is exactly that, in wall-clock milliseconds. The owner
//! saves it whenever a game is planned — a TV channel plans its next game when the previous one
//! ends, so the next game is chosen once for the whole cluster — and a node that takes the
//! channel over rebuilds from it with [`Resume::from_saved`]: at the right ply, the next reveal
//! due at the same instant, the versions continuing. No ply can come early (every node reveals
//! ply `i` at the same wall-clock instant) and none can differ (the same engines play the same
//! moves from the same serial).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::game::{GameSpec, RevealedGame};

/// A game a channel will play (or plays): which, when it starts, and the version of its
/// `GameStarted` event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub game_id: u64,
    pub spec: GameSpec,
    pub at: Instant,
    pub start_v: u64,
}

/// The stored form of a channel's [`Planned`] game (JSON in the `owned` table's state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedChannel {
    pub game_id: u64,
    pub serial: String,
    pub white: String,
    pub black: String,
    pub reveal_from_ply: u32,
    pub ply_interval_ms: u64,
    /// When the game starts (or started), milliseconds since the Unix epoch.
    pub start_ms: i64,
    /// The version of its `GameStarted` event.
    pub start_v: u64,
}

/// Why a saved schedule cannot be used (written by a newer or a broken server).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SavedError {
    #[error("the saved channel state is not valid JSON of a schedule: {0}")]
    Json(String),
    #[error("the saved channel game cannot be played: {0}")]
    Spec(String),
}

/// Converts between tokio's clock, which timers use, and wall-clock milliseconds, which nodes
/// share. One anchor serves a whole server run (and tests on a paused clock share one).
#[derive(Debug, Clone, Copy)]
pub struct WallClock {
    instant: Instant,
    ms: i64,
}

impl WallClock {
    /// Anchors the conversion at this moment.
    pub fn now() -> WallClock {
        WallClock {
            instant: Instant::now(),
            ms: crate::storage::now_ms(),
        }
    }

    /// `at` in milliseconds since the Unix epoch.
    pub fn ms(&self, at: Instant) -> i64 {
        if at >= self.instant {
            self.ms + (at - self.instant).as_millis() as i64
        } else {
            self.ms - (self.instant - at).as_millis() as i64
        }
    }

    /// The instant of wall-clock time `ms` (the anchor itself if `ms` is before the runtime
    /// can express).
    pub fn instant(&self, ms: i64) -> Instant {
        let offset = Duration::from_millis(ms.abs_diff(self.ms));
        if ms >= self.ms {
            self.instant + offset
        } else {
            self.instant.checked_sub(offset).unwrap_or(self.instant)
        }
    }
}

impl SavedChannel {
    /// The stored form of `planned`.
    pub fn of(planned: &Planned, clock: &WallClock) -> SavedChannel {
        let spec = &planned.spec;
        SavedChannel {
            game_id: planned.game_id,
            serial: spec.serial.to_string(),
            white: spec.white.to_string(),
            black: spec.black.to_string(),
            reveal_from_ply: spec.reveal_from_ply,
            ply_interval_ms: spec.ply_interval.as_millis() as u64,
            start_ms: clock.ms(planned.at),
            start_v: planned.start_v,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a schedule always serializes")
    }

    pub fn from_json(json: &str) -> Result<SavedChannel, SavedError> {
        serde_json::from_str(json).map_err(|err| SavedError::Json(err.to_string()))
    }

    /// The game it names, on `clock`.
    pub fn planned(&self, clock: &WallClock) -> Result<Planned, SavedError> {
        let spec = GameSpec {
            serial: self
                .serial
                .parse()
                .map_err(|err| SavedError::Spec(format!("serial: {err}")))?,
            white: self
                .white
                .parse()
                .map_err(|err| SavedError::Spec(format!("white: {err}")))?,
            black: self
                .black
                .parse()
                .map_err(|err| SavedError::Spec(format!("black: {err}")))?,
            reveal_from_ply: self.reveal_from_ply.min(minitchess::LAST_PLY),
            ply_interval: Duration::from_millis(self.ply_interval_ms.max(1)),
        };
        Ok(Planned {
            game_id: self.game_id,
            spec,
            at: clock.instant(self.start_ms),
            start_v: self.start_v,
        })
    }
}

/// Where a channel taken over picks up its schedule.
#[derive(Debug)]
pub enum Resume {
    /// The game had not started by then: start it at its time.
    Before(Planned),
    /// The game was under way: this much of it was shown, the last version was `v`, and the
    /// next ply is due at `next_reveal` (possibly already past: it goes out at once).
    During {
        game: Box<RevealedGame>,
        v: u64,
        next_reveal: Instant,
    },
    /// The game had ended, at `ended_at`, its `GameEnded` being version `v`.
    After { v: u64, ended_at: Instant },
}

impl Resume {
    /// The schedule of `saved` with every event due at or before `shown_until` taken as shown
    /// (the old owner sent it); the events due later are the new owner's to send.
    pub fn from_saved(
        saved: &SavedChannel,
        shown_until: Instant,
        clock: &WallClock,
    ) -> Result<Resume, SavedError> {
        let planned = saved.planned(clock)?;
        if planned.at > shown_until {
            return Ok(Resume::Before(planned));
        }
        let interval = planned.spec.ply_interval;
        let mut game = RevealedGame::start(planned.game_id, planned.spec);
        let (mut v, mut due) = (planned.start_v, planned.at);
        while !game.is_over() && due + interval <= shown_until {
            game.reveal();
            v += 1;
            due += interval;
        }
        Ok(if game.is_over() {
            Resume::After {
                v: v + 1,
                ended_at: due,
            }
        } else {
            Resume::During {
                game: Box::new(game),
                v,
                next_reveal: due + interval,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(start_ms: i64) -> SavedChannel {
        SavedChannel {
            game_id: 9,
            serial: "CH3SS5".into(),
            white: "L4".into(),
            black: "K7".into(),
            reveal_from_ply: 0,
            ply_interval_ms: 100,
            start_ms,
            start_v: 50,
        }
    }

    #[tokio::test(start_paused = true)]
    async fn wall_clock_and_instants_convert_both_ways() {
        let clock = WallClock::now();
        let later = Instant::now() + Duration::from_millis(1234);
        assert_eq!(clock.ms(later), clock.ms + 1234);
        assert_eq!(clock.instant(clock.ms + 1234), later);
        let earlier = clock.instant(clock.ms - 500);
        assert_eq!(clock.ms(earlier), clock.ms - 500);
    }

    #[tokio::test(start_paused = true)]
    async fn resume_counts_the_plies_due_and_continues_the_versions() {
        let clock = WallClock::now();
        let start = clock.ms + 1000;
        let json = saved(start).to_json();
        let saved = SavedChannel::from_json(&json).unwrap();
        let at = |ms: i64| clock.instant(ms);

        let Resume::Before(planned) = Resume::from_saved(&saved, at(start - 1), &clock).unwrap()
        else {
            panic!("not started yet");
        };
        assert_eq!(
            (planned.game_id, planned.start_v, planned.at),
            (9, 50, at(start))
        );

        // The start and reveals 1..=3 were due by start + 350: plies 0..=2 shown, v 53.
        let Resume::During {
            game,
            v,
            next_reveal,
        } = Resume::from_saved(&saved, at(start + 350), &clock).unwrap()
        else {
            panic!("under way");
        };
        assert_eq!((game.next_ply(), v, next_reveal), (3, 53, at(start + 400)));
        assert_eq!(game.moves()[0], "b1-c3");

        let mut whole = RevealedGame::start(9, saved.planned(&clock).unwrap().spec);
        while whole.reveal().is_some() {}
        let plies = whole.moves().len() as i64;
        let Resume::After { v, ended_at } =
            Resume::from_saved(&saved, at(start + 100 * plies), &clock).unwrap()
        else {
            panic!("over");
        };
        assert_eq!(
            (v, ended_at),
            (50 + plies as u64 + 1, at(start + 100 * plies))
        );
    }

    #[test]
    fn a_broken_saved_state_says_what_is_wrong() {
        assert_eq!(
            SavedChannel::from_json("{}").unwrap_err(),
            SavedError::Json("missing field `game_id` at line 1 column 2".into())
        );
        let mut bad = saved(0);
        bad.white = "X4".into();
        assert_eq!(
            bad.planned(&WallClock {
                instant: Instant::now(),
                ms: 0
            })
            .unwrap_err()
            .to_string(),
            "the saved channel game cannot be played: white: unknown engine letter 'X': the \
             engines are D, K, L, M and S"
        );
    }
}
