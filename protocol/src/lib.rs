//! Every Boardcast wire message and its two encodings.
//!
//! One set of serde types serves both directions and both encodings, chosen per connection by
//! the WebSocket subprotocol: `boardcast.v1.json` (text frames, JSON) and
//! `boardcast.v1.postcard` (binary frames, postcard 1.x). The types use only what both formats
//! support: externally tagged enums, no flattening, no skipped fields. That way one Rust value
//! has exactly one JSON text and one postcard byte string.
//!
//! This crate knows nothing about sockets: it defines messages, encodes them, and decodes
//! untrusted bytes into validated messages or a typed [`DecodeError`].

pub mod account;
pub mod chat;
pub mod client;
pub mod club_event;
pub mod codec;
pub mod common;
pub mod engine;
pub mod error;
pub mod limits;
pub mod matches;
pub mod names;
pub mod pool;
pub mod server;
mod validate;

pub use account::{AccountInfo, AccountPreferences};
pub use chat::{
    Chat, ChatDelete, ChatDeleted, ChatHistory, ChatLine, ChatMute, ChatPreset, ChatRoom, ChatSay,
};
pub use client::*;
pub use club_event::{
    ClubEvent, ClubEventKind, ClubEventStatus, EventGame, EventRound, EventStanding,
    MAX_PUSHED_GAMES,
};
pub use codec::{Encoding, Frame, FrameRef, variant_names};
pub use common::*;
pub use engine::*;
pub use error::{DecodeError, ErrorArgs, ErrorCode, REASONS, ReasonSpec};
pub use matches::*;
pub use pool::PoolPreset;
pub use server::*;
pub use validate::{Validate, ValidationError};

/// The protocol version this crate speaks. A client announces the version it speaks in
/// [`Hello`]; the server refuses versions it does not know with [`ErrorCode::UnsupportedVersion`].
pub const PROTOCOL_VERSION: u32 = 1;
