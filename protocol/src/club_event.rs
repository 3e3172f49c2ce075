//! A club event (a Swiss, round-robin or arena tournament, PROTOCOL.md §20) as its followers
//! see it: `watch` with [`crate::Target::Event`] sends the event as it stands, and every
//! change after that sends it again ([`ClubEvent`]), so a spectator's page follows the
//! countdown, the pairings and the standings without asking.
//!
//! The whole event each time rather than a delta: its standings (tie-breaks, an arena's
//! streaks) are recomputed from every result, so a client could not apply a delta without
//! the server's scoring; and a follower that missed any number of versions needs only the
//! latest. The fields are those of `GET /api/events/{id}`, each always present (`null` where
//! the kind has none), so both encodings carry the same value.

use serde::{Deserialize, Serialize};

/// How an event is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubEventKind {
    Swiss,
    RoundRobin,
    Arena,
}

/// Where an event is: before its start, being played, or over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubEventStatus {
    Waiting,
    Playing,
    Finished,
}

/// The event at version `v`, sent to everyone who follows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClubEvent {
    pub id: String,
    /// The event history's version: a follower that saw it has seen everything before it,
    /// and gives it as `since_v` when it watches again.
    pub v: u64,
    pub name: String,
    pub kind: ClubEventKind,
    /// `5+3`: minutes and seconds of increment.
    pub time_control: String,
    pub rated: bool,
    /// Joined with a password.
    pub private: bool,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When the first round starts (Unix ms): the countdown runs to it while `waiting`.
    pub starts_at: i64,
    pub status: ClubEventStatus,
    /// A Swiss's number of rounds, a round-robin's by its players; an arena's waves so far.
    pub rounds_total: u32,
    /// An arena's length in minutes; `None` for the other kinds.
    pub minutes: Option<u32>,
    /// When an arena ends (Unix ms): no game is paired after it. `None` for the other kinds.
    pub ends_at_ms: Option<i64>,
    /// A round-robin played twice (colours swapped); `false` for the other kinds.
    pub double: bool,
    /// Who plays (withdrawn players left out), in the order they joined.
    pub players: Vec<String>,
    pub standings: Vec<EventStanding>,
    /// The rounds played and being played (an arena's waves), oldest first. A very large
    /// event sends only its newest rounds (at most [`MAX_PUSHED_GAMES`] games in all, each
    /// round whole); `GET /api/events/{id}` has every round.
    pub rounds: Vec<EventRound>,
}

/// The most games a [`ClubEvent`] carries, so it stays far below the largest frame a client
/// accepts ([`crate::limits::MAX_SERVER_FRAME_BYTES`]) with a thousand players' standings.
pub const MAX_PUSHED_GAMES: usize = 2_000;

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventStanding {
    pub rank: u32,
    pub name: String,
    pub rating: u32,
    /// In half points: 7 is 3½ (an arena's points twice), so a client sorts every kind alike.
    pub score_halves: u32,
    /// As players read it: `3½`; an arena's points.
    pub score: String,
    /// Empty for an arena, which has no tie-breaks.
    pub buchholz: String,
    pub buchholz_cut1: String,
    pub sonneborn_berger: String,
    pub withdrawn: bool,
    /// An arena's sheet: each game's points in the order played, a doubled one followed by
    /// `*` (`2 2 4* 0`); `None` for the other kinds.
    pub sheet: Option<String>,
    /// An arena player whose next game scores double.
    pub on_fire: bool,
}

/// A round (an arena's wave) with its games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRound {
    pub round: u32,
    pub games: Vec<EventGame>,
    /// Who sits this round out with a bye.
    pub bye: Option<String>,
}

/// A game of a round: who, the match to watch (once created), the result once in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventGame {
    pub white: String,
    pub black: String,
    pub match_id: Option<String>,
    /// `1-0`, `½-½`, `0-1`; `F` marks a forfeit (`1F-0F`…).
    pub result: Option<String>,
}
