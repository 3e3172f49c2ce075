//! What storage is asked to write: the unit of [`super::Storage::commit`], backend-neutral.

use boardcast_protocol::{EngineResult, GameHeader, Standing};

use super::coordination::NodeRef;

/// One thing to write.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new match: its id, optional invite code, and set-up (opaque JSON owned by the match).
    /// In a cluster `owner` is the node creating it, which owns it at epoch 1; a single node
    /// gives `None` and the match has epoch 0.
    CreateMatch {
        id: String,
        invite: Option<String>,
        created_ms: i64,
        setup: String,
        owner: Option<NodeRef>,
    },
    /// Event number `v` of a match (opaque JSON owned by the match), written under `epoch`:
    /// refused with [`super::StorageError::Fenced`] unless that is still the match's epoch
    /// (PostgreSQL; SQLite serves one node and ignores epochs).
    Event {
        match_id: String,
        v: u64,
        at_ms: i64,
        body: String,
        epoch: u64,
    },
    /// The match is over: its result and the game as PDN; fenced by `epoch` as an event is.
    Finish {
        match_id: String,
        result: String,
        pdn: String,
        epoch: u64,
    },
    /// One player's rating change by a rated game: sent in the **same** request as the game's
    /// [`Write::Finish`], so the result and both rating changes are stored together or not at
    /// all. Refused (and with it the whole request) if the player already has a change for
    /// this match, or a change numbered `games_before` (someone rated them since it was
    /// read): a rating is changed exactly once per game and never from a stale read.
    Rating(RatingChange),
    /// An archived engine game or a leaderboard score (see [`crate::channels::archive`]).
    Channel(ChannelWrite),
    /// A club event or one record of its history ([`super::club`]).
    ClubEvent(super::club::EventWrite),
    /// A line of a match's chat, or its deletion by an admin (PROTOCOL.md §19).
    Chat(ChatWrite),
    /// The server was alive at `at_ms` (a single node's periodic heartbeat): after a crash,
    /// the last one approximates the moment of the crash, so the clock of a player who was
    /// thinking is charged up to it (PROTOCOL.md §12). Also a cheap probe of whether storage
    /// takes writes again.
    Heartbeat { at_ms: i64 },
}

impl Write {
    /// The match (or club event) and epoch this write is fenced by, if it is fenced at all.
    pub fn fence(&self) -> Option<(&str, u64)> {
        match self {
            Write::Event {
                match_id, epoch, ..
            }
            | Write::Finish {
                match_id, epoch, ..
            } => Some((match_id, *epoch)),
            Write::ClubEvent(super::club::EventWrite::Record {
                event_id,
                epoch: Some(epoch),
                ..
            }) => Some((event_id, *epoch)),
            Write::CreateMatch { .. }
            | Write::Rating(_)
            | Write::Chat(_)
            | Write::Channel(_)
            | Write::ClubEvent(_)
            | Write::Heartbeat { .. } => None,
        }
    }
}

/// A write of the channel side, carried by [`Write::Channel`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelWrite {
    /// A game has started: its id is taken.
    Started(StartedGame),
    /// A finished game: the row is completed (serial, engines, moves, result).
    Game(FinishedGame),
    /// One more game for `name` on the leaderboard, with its correct guesses and strikes.
    Score(LeaderboardDelta),
}

/// A game that has just started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedGame {
    pub channel: String,
    pub header: GameHeader,
    pub start_board: String,
    pub start_ply: u32,
}

/// A finished engine game with its predictors' standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub channel: String,
    pub header: GameHeader,
    pub start_board: String,
    pub start_ply: u32,
    /// Every move, `b1-c3`.
    pub moves: Vec<String>,
    pub result: EngineResult,
    pub standings: Vec<Standing>,
}

/// One name's share of a game for the leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderboardDelta {
    pub name: String,
    pub correct: u32,
    pub strikes: u32,
}

/// One rated game's change of one player's rating, as written ([`Write::Rating`]) and read
/// back: the newest row of an account is its current rating (with `games_before + 1` rated
/// games, the last at `at_ms`), and all its rows, oldest first, are its rating history.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange {
    pub match_id: String,
    pub account: i64,
    /// How many rated games the player had before this one: the compare-and-set key.
    pub games_before: u32,
    /// When the game ended (Unix ms).
    pub at_ms: i64,
    /// The rating before the game, so the change is shown without reading the row before.
    pub rating_before: f64,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A write of match chat, carried by [`Write::Chat`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChatWrite {
    /// A new line.
    Line(ChatLineRow),
    /// Line `line` of match `match_id` was deleted by admin `by` at `at_ms`: it stays stored,
    /// marked, and is never replayed.
    Delete {
        match_id: String,
        line: u64,
        by: String,
        at_ms: i64,
    },
}

/// One stored chat line (table `chat_lines`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatLineRow {
    pub match_id: String,
    /// Its number in the match, from 1, both rooms counting together.
    pub line: u64,
    /// `players` or `spectators` ([`boardcast_protocol::ChatRoom::as_str`]).
    pub room: String,
    pub author: String,
    /// The author's account, `None` for a guest.
    pub account: Option<i64>,
    /// A preset's id, or `None` for free text.
    pub preset: Option<String>,
    /// The free text, `None` for a preset.
    pub text: Option<String>,
    pub at_ms: i64,
    /// Whether an admin deleted it (only read back, never written so).
    pub deleted: bool,
}

/// Who muted a member in every chat, and when (table `chat_mutes`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMuteRow {
    /// The admin's account name, or `command line` for `boardcast-server admin chat-mute`.
    pub by: String,
    pub at_ms: i64,
}
