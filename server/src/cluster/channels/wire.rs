//! What nodes tell each other about TV channels (postcard): the owner's relay to every node,
//! and the traffic between the owner and one following node.

use serde::{Deserialize, Serialize};

use crate::ops::address::ClientAddr;
use crate::refusal::Refusal;
use crate::storage::coordination::NodeRef;

/// From a channel's owner to every node (`bc:chan:{name}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ChannelRelay {
    /// Event `v` (a postcard `ServerMessage::ChannelEvent`), from the owner of `epoch`.
    Event {
        epoch: u64,
        v: u64,
        message: Vec<u8>,
    },
    /// How many watch the channel on all nodes together.
    Crowd { epoch: u64, watchers: u32 },
}

/// Between a channel's owner and a node following it (`bc:node:{node}:{incarnation}:c`): one
/// enum both ways, so a receiver always knows what it decodes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum ChannelTraffic {
    /// To the owner: a guess made on node `from` by its connection `conn`.
    Predict {
        channel: String,
        from: NodeRef,
        request: u64,
        conn: u64,
        client: ClientAddr,
        name: String,
        ply: u32,
        from_square: String,
        to_square: String,
    },
    /// To the guesser's node: the owner's verdict on guess `request` (`None`: booked), a
    /// refusal whole, its reason and arguments too.
    Verdict {
        request: u64,
        refusal: Option<Refusal>,
    },
    /// To the guesser's node: a message for its connection `conn` (a postcard
    /// `ServerMessage`, the guess's result).
    Deliver { conn: u64, message: Vec<u8> },
    /// To the owner: node `from` wants the channel's snapshot.
    SnapshotPlease { channel: String, from: NodeRef },
    /// To a follower: the channel now (a postcard `ChannelSnapshot`).
    Snapshot { channel: String, snapshot: Vec<u8> },
    /// To the owner: node `from` has `watchers` watchers of `channel`.
    Crowd {
        channel: String,
        from: NodeRef,
        watchers: u32,
    },
}
