//! The stored records of an event director, and the set-up an event is created with.
//!
//! A record is the director's decision, stored before it acts on it: the round's pairing before
//! its matches are created, each match's id once it is, each game's result once its match has
//! finished. Replaying them rebuilds the director's state exactly, on any node.

use boardcast_pairing::swiss::Outcome;
use boardcast_protocol::{Side, TimeControl};
use serde::{Deserialize, Serialize};

/// How an event is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Format {
    /// A Swiss of `rounds` rounds, paired by the FIDE Dutch system.
    Swiss { rounds: u32 },
    /// A round-robin on Berger tables; `double` plays every pairing twice, colours swapped.
    RoundRobin { double: bool },
    /// An arena of `minutes`, scored as lila scores one: waiting players are paired in waves
    /// until `ends_at_ms` (fixed at creation, so every replay ends it at the same moment),
    /// and games still running then finish and count.
    Arena { minutes: u32, ends_at_ms: i64 },
}

/// What an event is, as created: stored as its set-up and never changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct EventSetup {
    pub name: String,
    #[serde(flatten)]
    pub format: Format,
    pub time_control: TimeControl,
    pub rated: bool,
    /// When the first round is paired (Unix ms).
    pub starts_at_ms: i64,
    /// The Argon2id hash of the event's password, for a private club event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// A player needs at least this many rated games to join.
    #[serde(default)]
    pub min_rated_games: u32,
    /// A player's rating must lie in this range (inclusive) to join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<(u32, u32)>,
    /// The account that created the event.
    pub organiser: i64,
}

/// One board of a paired round, by account.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Board {
    pub white: i64,
    pub black: i64,
}

/// A game's result, from White's side ([`Outcome`], as stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum GameOutcome {
    WhiteWins,
    Draw,
    BlackWins,
    WhiteWinsByForfeit,
    BlackWinsByForfeit,
    DoubleForfeit,
}

impl GameOutcome {
    pub(crate) fn pairing(self) -> Outcome {
        match self {
            GameOutcome::WhiteWins => Outcome::WhiteWins,
            GameOutcome::Draw => Outcome::Draw,
            GameOutcome::BlackWins => Outcome::BlackWins,
            GameOutcome::WhiteWinsByForfeit => Outcome::WhiteWinsByForfeit,
            GameOutcome::BlackWinsByForfeit => Outcome::BlackWinsByForfeit,
            GameOutcome::DoubleForfeit => Outcome::DoubleForfeit,
        }
    }

    /// As a PDN-style score: `1-0`, `½-½`, `0-1`, with `F` marking a forfeit.
    pub(crate) fn score(self) -> &'static str {
        match self {
            GameOutcome::WhiteWins => "1-0",
            GameOutcome::Draw => "½-½",
            GameOutcome::BlackWins => "0-1",
            GameOutcome::WhiteWinsByForfeit => "1F-0F",
            GameOutcome::BlackWinsByForfeit => "0F-1F",
            GameOutcome::DoubleForfeit => "0F-0F",
        }
    }
}

/// Why a player left the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Leaving {
    /// They asked to.
    Asked,
    /// Two games forfeited in a Swiss (no-shows).
    Forfeits,
}

/// One record of an event's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "snake_case")]
pub(crate) enum EventRecord {
    Joined {
        account: i64,
        name: String,
        rating: u32,
        /// The id the member's page gave the request that joined them, so that the same
        /// request sent again through any node is answered as done
        /// ([`super::director::Joining::request`]); absent when it had none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
    },
    Withdrew {
        account: i64,
        why: Leaving,
        /// As `Joined`'s: the id of the member's request that withdrew them.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
    },
    /// Round `round` is paired: stored once (its round number is a unique key).
    Paired {
        round: u32,
        boards: Vec<Board>,
        bye: Option<i64>,
        /// When an arena's wave was paired (the next waits [`super::state::ARENA_WAVE_MS`]);
        /// absent for Swiss and round-robin rounds, which wait for the previous round.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<i64>,
    },
    /// Board `board` (from 0) of round `round` is played as match `match_id`.
    Seated {
        round: u32,
        board: u32,
        match_id: String,
    },
    /// The game of board `board` ended: stored once (its match id is a unique key).
    Result {
        round: u32,
        board: u32,
        match_id: Option<String>,
        outcome: GameOutcome,
        /// Plies played, for an arena's scoring (short draws, berserk wins); absent for a
        /// Swiss or round-robin game, where they change nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plies: Option<u32>,
        /// The sides that went berserk in an arena game (PROTOCOL.md §10 *Berserk*); absent
        /// when nobody did.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        berserk: Vec<Side>,
    },
    Finished,
}

impl EventRecord {
    /// The unique keys this record is stored under: the round it pairs, the match it counts.
    pub(crate) fn keys(&self) -> (Option<u32>, Option<String>) {
        match self {
            EventRecord::Paired { round, .. } => (Some(*round), None),
            EventRecord::Result { match_id, .. } => (None, match_id.clone()),
            _ => (None, None),
        }
    }
}
