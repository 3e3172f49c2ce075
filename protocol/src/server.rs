//! Messages the server sends.

use serde::{Deserialize, Serialize};

use crate::common::{Crowd, Side};
use crate::engine::{
    ChannelEventMsg, ChannelSnapshot, ChannelSummary, LeaderboardEntry, PredictionResult,
};
use crate::error::ErrorCode;
use crate::matches::{Featured, MatchEventMsg, MatchSnapshot, MatchSummary};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerMessage {
    /// The first message on every connection.
    Welcome(Welcome),
    /// The envelope with this id was carried out.
    Ack(Ack),
    /// The envelope with this id (or, with `id: None`, a frame that could not be read) was
    /// refused; nothing changed.
    Error(ErrorReply),
    Pong(Pong),
    Lobby(Lobby),
    /// A seat in a match: only ever sent to the player who holds it.
    Seat(Seat),
    MatchSnapshot(MatchSnapshot),
    MatchEvent(MatchEventMsg),
    ChannelSnapshot(ChannelSnapshot),
    ChannelEvent(ChannelEventMsg),
    Crowd(Crowd),
    /// An on-demand engine game was started.
    GameCreated(GameCreated),
    PredictionResult(PredictionResult),
    Leaderboard(Leaderboard),
    /// The server is going away; reconnect after the given time.
    Shutdown(ShutdownNotice),
    /// The match Frisian TV now features: sent on `watch` of [`crate::FRISIAN_TV`] and
    /// whenever it moves on. Watch that match to see it; the channel carries no moves itself.
    Featured(Featured),
    /// The play-now pool found an opponent: a rated match at the preset was created and this
    /// is the member's seat in it (its `id` is the [`crate::PlayNow`] envelope's).
    Paired(Paired),
    ChatLine(crate::chat::ChatLine),
    ChatHistory(crate::chat::ChatHistory),
    ChatDeleted(crate::chat::ChatDeleted),
    /// A match this connection follows moved to another server under it (a cluster): the
    /// seat (or the watch) it had is kept there, with the same token; the events it missed
    /// follow. Nothing to do, and it answers no envelope.
    Resumed(Resumed),
    /// A club event this connection follows, as it stands at its version `v`: the answer to
    /// `watch` of [`crate::Target::Event`] (after its ack), and again after every change.
    ClubEvent(crate::club_event::ClubEvent),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub protocol: u32,
    /// The server program and version, for logs.
    pub server: String,
    pub limits: Limits,
    /// The address to give out for this server's pages — invite links, "send your friend
    /// this": the operator's `--public-url`, or else derived from the request that opened
    /// this connection (`https://draughts.example.org`, never a trailing slash). The
    /// WebSocket is at the same address with `ws`/`wss` for `http`/`https` and `/ws` added.
    pub public_url: String,
    /// The account this connection acts as (authenticated at the upgrade by the session
    /// cookie or `Authorization: Bearer`), or `None` for a guest. Read as `None` when absent.
    #[serde(default)]
    pub account: Option<crate::account::AccountInfo>,
}

/// Limits the server enforces on this connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Largest frame the server accepts from a client, in bytes.
    pub max_frame_bytes: u32,
    /// Sustained client messages per second; beyond the burst the connection is closed (1008).
    pub messages_per_second: u32,
    pub message_burst: u32,
    /// A connection silent for this long is closed; any message, or a WebSocket ping, counts.
    pub idle_timeout_ms: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ack {
    pub id: u64,
    /// True when the id had already been carried out (a re-sent command): nothing was
    /// applied this time.
    pub duplicate: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    pub id: Option<u64>,
    pub code: ErrorCode,
    /// Why, in words fit to show a person (`illegal move: a capture of higher value exists`).
    pub message: String,
    /// On `stale_id`: the last id the seat carried out, so a client goes on above it without
    /// reading the message; `null` on every other error (and read as `null` when absent).
    #[serde(default)]
    pub last_id: Option<u64>,
    /// The refusal's reason within the code and its arguments, for a client that words it
    /// in the player's language ([`crate::ErrorArgs`]); `null` for a refusal that names
    /// nothing beyond its code (and read as `null` when absent).
    #[serde(default)]
    /// Boxed: most replies carry none, and the reply stays small.
    pub args: Option<Box<crate::ErrorArgs>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pong {
    pub nonce: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    /// The `list_lobby` envelope this answers, so a client tells its answers apart.
    pub id: u64,
    /// Public matches with a free seat.
    pub seeks: Vec<MatchSummary>,
    /// Matches being played.
    pub live: Vec<MatchSummary>,
    pub channels: Vec<ChannelSummary>,
}

/// A seat: the secret token that lets its holder act in the match. Keep it private.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    /// The envelope this answers (create, join, resume), or 0 when the server hands out a
    /// seat unasked (a rematch; a seat carried over to another server is [`Resumed`]).
    pub id: u64,
    pub match_id: String,
    /// Short code a friend can join a private match with.
    pub invite_code: String,
    pub side: Side,
    pub token: String,
}

/// A seat or a watch carried over to the server a match moved to ([`ServerMessage::Resumed`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resumed {
    pub match_id: String,
    /// The side of the seat kept, or `None` for a watch.
    pub side: Option<Side>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCreated {
    pub id: u64,
    /// The channel id to watch or predict on.
    pub channel: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub id: u64,
    pub entries: Vec<LeaderboardEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShutdownNotice {
    pub reason: String,
    pub reconnect_after_ms: u64,
}

/// A play-now pairing: the seat in the new rated match, and whom it is against.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paired {
    pub preset: crate::PoolPreset,
    pub seat: Seat,
    pub opponent: String,
    pub opponent_rating: crate::PlayerRating,
}
