//! The messages nodes send each other through Redis, postcard-encoded. Protocol messages travel
//! inside them already encoded, so a receiving node only wraps and hands them on.

use boardcast_protocol::Encoding;
use serde::{Deserialize, Serialize};

use crate::matches::{Action, Player};
use crate::storage::coordination::NodeRef;

/// To the owner of a match (`bc:node:{owner}:{incarnation}:m`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ToOwner {
    /// A connection on node `from` asks something of match `match_id`.
    Command {
        match_id: String,
        from: NodeRef,
        conn: u64,
        encoding: Encoding,
        command: RemoteCommand,
    },
    /// That connection closed, or stopped following the match.
    Leave {
        match_id: String,
        from: NodeRef,
        conn: u64,
    },
    /// How many watchers node `from` has on this match now.
    Crowd {
        match_id: String,
        from: NodeRef,
        watchers: u32,
    },
}

/// What a connection on another node asks of a match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum RemoteCommand {
    /// Answer ack and catch-up, but do not follow: the asker's proxy relays the events.
    Watch { id: u64, since_v: Option<u64> },
    Join {
        id: u64,
        player: Player,
        myself: bool,
    },
    Resume {
        id: u64,
        token: String,
        since_v: Option<u64>,
    },
    Act {
        id: u64,
        token: String,
        action: Action,
    },
}

/// Back to the asking node (`bc:node:{asker}:{incarnation}:m`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ToAsker {
    /// One frame for connection `conn`, already encoded in its encoding.
    Frame {
        match_id: String,
        /// The node incarnation that sent it: the match's owner when it did. A proxy that
        /// has moved the command on to a newer owner drops what an older one still answers.
        owner: NodeRef,
        conn: u64,
        binary: bool,
        bytes: Vec<u8>,
    },
    /// The node asked does not own `match_id` (any more): ask again, at `owner` if known.
    NotOwner {
        match_id: String,
        conn: u64,
        command: RemoteCommand,
        owner: Option<NodeRef>,
    },
}

/// From a match's owner to every node (`bc:match:{id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum MatchRelay {
    /// A committed event (a postcard `ServerMessage::MatchEvent`), sent after its commit.
    Event {
        epoch: u64,
        v: u64,
        message: Vec<u8>,
    },
    /// Any other message for every follower (crowd counts), postcard.
    Broadcast { epoch: u64, message: Vec<u8> },
    /// A node has taken the match over with `epoch`.
    Owner { epoch: u64, owner: NodeRef },
}
