//! What the server tells about MinitChess channels and engine games, and prediction scores.
//!
//! A ply is never in any message before its reveal time: snapshots carry only revealed plies
//! and the time until the next reveal.

use serde::{Deserialize, Serialize};

use crate::common::Side;

/// A channel as listed in the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelSummary {
    /// `tv1`, `tv2`, … for TV channels; another id for on-demand games.
    pub channel: String,
    pub kind: ChannelKind,
    pub game: Option<GameHeader>,
    pub watchers: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelKind {
    /// Plays engine games forever, one after another.
    Tv,
    /// One game started by a client.
    OnDemand,
}

/// What the module's display shows: serial, and each engine's letter and seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameHeader {
    /// Archive id of the game.
    pub game_id: u64,
    pub serial: String,
    /// White's engine and seed, `L4`.
    pub white: String,
    /// Black's engine and seed, `K7`.
    pub black: String,
}

/// An engine game as far as it has been revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineGameView {
    pub header: GameHeader,
    /// The position the game started from (30 characters, a6 first), its first ply, and the
    /// squares of promoted queens on it.
    pub start_board: String,
    pub start_ply: u32,
    pub promoted: Vec<String>,
    /// Revealed moves in order, `b1-c3`.
    pub revealed: Vec<String>,
    /// The board after the last revealed move.
    pub board: String,
    /// The ply to be revealed next (`start_ply + revealed.len()`).
    pub next_ply: u32,
    /// The move number the module would display for `next_ply` (`next_ply div 2 + 1`).
    pub move_number: u32,
    /// Milliseconds until the next reveal; `None` once the game is over.
    pub next_reveal_in_ms: Option<u64>,
    pub ply_interval_ms: u64,
    pub result: Option<EngineResult>,
    /// The legal moves of the side to move on `board`, `from-to`, sorted: a prediction is one
    /// of these. Empty once the game is over.
    pub legal: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineResult {
    pub winner: Option<Side>,
    /// `king captured`, `no legal moves` or `40 moves each`.
    pub reason: String,
}

/// Everything about a channel at version `v`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelSnapshot {
    pub channel: String,
    pub v: u64,
    pub kind: ChannelKind,
    /// The current game; `None` between games.
    pub game: Option<EngineGameView>,
    /// Milliseconds until the next game starts, between games.
    pub next_game_in_ms: Option<u64>,
}

/// One versioned channel event; gap-free per channel, like match events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChannelEventMsg {
    pub channel: String,
    pub v: u64,
    pub event: ChannelEvent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChannelEvent {
    GameStarted(EngineGameView),
    PlyRevealed(PlyRevealed),
    GameEnded(GameEnded),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyRevealed {
    pub ply: u32,
    /// `b1-c3`.
    pub mv: String,
    /// The board after the move.
    pub board: String,
    /// Milliseconds until the following reveal; `None` if this ply ended the game.
    pub next_reveal_in_ms: Option<u64>,
    /// The legal moves on `board` of the side to move next, as in [`EngineGameView::legal`].
    pub legal: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameEnded {
    pub game_id: u64,
    pub result: EngineResult,
    /// Everyone who predicted in this game, best first.
    pub standings: Vec<Standing>,
    /// Milliseconds until the channel's next game, for TV channels.
    pub next_game_in_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    pub correct: u32,
    pub strikes: u32,
}

/// Sent to one predictor when the ply it guessed is revealed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PredictionResult {
    pub channel: String,
    pub ply: u32,
    /// The guess as `from-to`.
    pub guess: String,
    /// The revealed move.
    pub actual: String,
    pub correct: bool,
    /// This predictor's totals in the current game.
    pub correct_total: u32,
    pub strikes: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    pub name: String,
    pub games: u32,
    pub correct: u32,
    pub strikes: u32,
}
