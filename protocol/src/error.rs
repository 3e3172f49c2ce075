//! Typed refusals: the error codes a server answers with, and what can go wrong decoding.

use serde::{Deserialize, Serialize};

/// Why the server refused a message. Every refusal leaves everything as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame could not be decoded: not JSON/postcard, wrong shape, unknown message type.
    Malformed,
    /// The message decoded but a field is out of range (name too long, route too long, …).
    InvalidArgument,
    /// The frame was larger than the limit.
    TooLarge,
    UnsupportedVersion,
    /// No match, channel, game or seat with that id or code.
    NotFound,
    /// The seat token is unknown, malformed, or belongs to another match.
    InvalidToken,
    /// The token is valid but it is the other side's turn.
    NotYourTurn,
    /// The move is not legal here; the message says why.
    IllegalMove,
    /// The match or game is over.
    GameOver,
    /// Both seats are taken.
    MatchFull,
    /// The action is not allowed now (abort after both moved, claim before the grace period
    /// ran out, accepting an offer nobody made, …); the message says why.
    NotAllowed,
    /// A prediction for a ply that is already revealed (or not the coming one).
    PredictionClosed,
    /// Too many messages; the connection is closed right after this.
    RateLimited,
    /// The server is at a limit (connections, matches, games); try later.
    Busy,
    /// The server is shutting down.
    ShuttingDown,
    /// Something failed inside the server (storage); nothing was applied.
    Internal,
    /// The server understood the message but does not offer this feature (yet).
    Unsupported,
    /// A match action's ack id is not above the highest id already carried out for the seat,
    /// and is not one of those ids either: ids must increase per seat, across reconnects.
    /// Nothing was applied.
    StaleId,
    /// A prediction that is not a legal move of the side to move in the position shown
    /// before the coming ply; it is not recorded, so it can never count as a strike.
    IllegalPrediction,
    /// The client's address (an IPv4 address, or an IPv6 /64) is at one of its per-address
    /// limits: matches created or engine games started per minute, or matches waiting for an
    /// opponent. The message names the limit and when to try again; nothing changed, and the
    /// connection stays open.
    AddressLimit,
    /// The server's database cannot be reached now (it is restarting, or the network to it is
    /// down): nothing was stored and nothing applied. The connection stays open and the
    /// server reconnects by itself; send the same command again later.
    StorageUnavailable,
    /// Rated play (a rated match or seek, joining one, play now) needs a signed-in member on
    /// both seats; a guest is refused and nothing changed.
    MembersOnly,
    /// The member's rating is outside the rated seek's rating range; the lobby does not list
    /// such a seek to them.
    OutsideRatingRange,
    /// A club admin has muted this member in every chat of the server; nothing was said.
    ChatMuted,
    /// Chat lines came faster than the chat allows (a short burst, then one every few
    /// seconds); this line was not said. The connection stays open.
    ChatTooFast,
}

impl ErrorCode {
    /// Every error code, in declaration (and postcard variant) order.
    pub const ALL: [ErrorCode; 25] = [
        ErrorCode::Malformed,
        ErrorCode::InvalidArgument,
        ErrorCode::TooLarge,
        ErrorCode::UnsupportedVersion,
        ErrorCode::NotFound,
        ErrorCode::InvalidToken,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::GameOver,
        ErrorCode::MatchFull,
        ErrorCode::NotAllowed,
        ErrorCode::PredictionClosed,
        ErrorCode::RateLimited,
        ErrorCode::Busy,
        ErrorCode::ShuttingDown,
        ErrorCode::Internal,
        ErrorCode::Unsupported,
        ErrorCode::StaleId,
        ErrorCode::IllegalPrediction,
        ErrorCode::AddressLimit,
        ErrorCode::StorageUnavailable,
        ErrorCode::MembersOnly,
        ErrorCode::OutsideRatingRange,
        ErrorCode::ChatMuted,
        ErrorCode::ChatTooFast,
    ];
}

/// Why bytes from the network did not become a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("frame of {size} bytes is over the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    #[error("{got} frame on a {expected} connection")]
    WrongFrameType {
        got: &'static str,
        expected: &'static str,
    },
    #[error("text frame is not valid UTF-8")]
    InvalidUtf8,
    #[error("not a valid message: {0}")]
    Malformed(String),
    /// The frame is well-formed as far as its message type, and that type is not one this
    /// protocol version knows: the JSON tag (`"msg": {"castle": …}`) or, in postcard, the
    /// variant index written as `#21`. Truncated to 64 bytes.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    #[error("invalid message: {0}")]
    Invalid(#[from] crate::validate::ValidationError),
}

impl DecodeError {
    /// The error code a server answers this with.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::TooLarge { .. } => ErrorCode::TooLarge,
            DecodeError::Invalid(_) => ErrorCode::InvalidArgument,
            DecodeError::WrongFrameType { .. }
            | DecodeError::InvalidUtf8
            | DecodeError::Malformed(_)
            | DecodeError::UnknownType(_) => ErrorCode::Malformed,
        }
    }
}
