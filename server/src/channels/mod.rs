//! MinitChess channels: TV channels and on-demand engine games, predictions, leaderboard.
//!
//! Each channel is one actor task ([`actor`]) that reveals one ply exactly at each reveal time
//! and never holds a future ply ([`game`]); [`registry`] starts, finds and lists them. This
//! module is the entry point the connection dispatch calls for every channel-related client
//! message.

pub mod actor;
pub mod archive;
pub mod fanout;
pub mod game;
pub mod predict;
pub mod registry;
#[cfg(test)]
mod tests;

use boardcast_protocol::{ChannelSummary, ErrorCode, ErrorReply, ServerMessage};

use crate::outbox::Outbox;

/// A channel-related client message, as the connection hands it over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelRequest {
    Watch {
        channel: String,
        since_v: Option<u64>,
    },
    Unwatch {
        channel: String,
    },
    StartEngineGame(boardcast_protocol::StartEngineGame),
    Predict(boardcast_protocol::Predict),
    Leaderboard(boardcast_protocol::LeaderboardQuery),
}

/// The channel directory shared by all connections.
#[derive(Debug, Clone, Default)]
pub struct Channels;

impl Channels {
    /// Answers envelope `id` carrying `request` on `outbox`.
    pub async fn handle(&self, outbox: &Outbox, id: u64, request: ChannelRequest) {
        let what = match request {
            ChannelRequest::Watch { channel, .. } | ChannelRequest::Unwatch { channel } => {
                format!("channel {channel}")
            }
            ChannelRequest::StartEngineGame(_) => "engine games".to_owned(),
            ChannelRequest::Predict(_) => "predictions".to_owned(),
            ChannelRequest::Leaderboard(_) => "the leaderboard".to_owned(),
        };
        outbox.send(&ServerMessage::Error(ErrorReply {
            id: Some(id),
            code: ErrorCode::Unsupported,
            message: format!("this server does not offer MinitChess channels: {what} unavailable"),
        }));
    }

    /// The channels the lobby lists.
    pub fn summaries(&self) -> Vec<ChannelSummary> {
        Vec::new()
    }

    /// Called when a connection closes, to forget its subscriptions.
    pub async fn leave(&self, _outbox: &Outbox) {}
}
