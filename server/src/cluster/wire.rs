//! The messages nodes send each other through Redis, postcard-encoded. Protocol messages travel
//! inside them already encoded, so a receiving node only wraps and hands them on.

use std::time::Duration;

use boardcast_protocol::Encoding;
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use crate::matches::{Action, ChatRequest, Command, Player, SeatKey};
use crate::room::outbox::Outbox;
use crate::storage::coordination::NodeRef;
use crate::storage::now_ms;

use crate::matches::clock::MAX_TRANSIT;

/// The Unix time (ms, this node's clock) of `received`, an instant on this node: the stamp a
/// move carries to its owner.
pub(crate) fn stamp(received: Instant) -> i64 {
    now_ms().saturating_sub(received.elapsed().as_millis() as i64)
}

/// When a move stamped `received_ms` on the node it reached first arrived, as an instant on
/// this node: never in the future, never more than [`MAX_TRANSIT`] ago.
pub(crate) fn arrival(received_ms: i64) -> Instant {
    let now = Instant::now();
    let ago = u64::try_from(now_ms().saturating_sub(received_ms)).unwrap_or(0);
    now.checked_sub(Duration::from_millis(ago).min(MAX_TRANSIT))
        .unwrap_or(now)
}

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
    /// `carried`: see [`crate::matches::Command::Watch`].
    Watch {
        id: u64,
        since_v: Option<u64>,
        carried: bool,
    },
    Join {
        id: u64,
        player: Player,
        myself: bool,
    },
    /// `carried`: see [`crate::matches::Command::Resume`].
    Resume {
        id: u64,
        token: SeatKey,
        since_v: Option<u64>,
        carried: bool,
    },
    Act {
        id: u64,
        token: String,
        action: Action,
        /// When the action reached the first node ([`stamp`]): a move is timed from then.
        received_ms: i64,
    },
    /// A chat line or its deletion (the room is the owner's to decide).
    Chat { id: u64, request: ChatRequest },
}

impl RemoteCommand {
    /// The id of the envelope that asked it.
    pub(crate) fn id(&self) -> u64 {
        match self {
            RemoteCommand::Watch { id, .. }
            | RemoteCommand::Join { id, .. }
            | RemoteCommand::Resume { id, .. }
            | RemoteCommand::Act { id, .. }
            | RemoteCommand::Chat { id, .. } => *id,
        }
    }

    /// The command as the match's actor takes it, answered through `outbox`.
    pub(crate) fn into_command(self, outbox: Outbox) -> Command {
        match self {
            RemoteCommand::Watch {
                id,
                since_v,
                carried,
            } => Command::Watch {
                outbox,
                id,
                since_v,
                carried,
            },
            RemoteCommand::Join { id, player, myself } => Command::Join {
                outbox,
                id,
                player,
                myself,
            },
            RemoteCommand::Resume {
                id,
                token,
                since_v,
                carried,
            } => Command::Resume {
                outbox,
                id,
                token,
                since_v,
                carried,
            },
            RemoteCommand::Act {
                id,
                token,
                action,
                received_ms,
            } => Command::Act {
                outbox,
                id,
                token,
                action,
                // Timed from its arrival at the first node, within the bound.
                received: arrival(received_ms),
            },
            RemoteCommand::Chat { id, request } => Command::Chat {
                outbox,
                id,
                request,
            },
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_timed_from_its_stamp_never_in_the_future_nor_past_the_bound() {
        let near = |a: Instant, b: Instant| {
            let apart = if a > b { a - b } else { b - a };
            assert!(apart < Duration::from_millis(50), "{apart:?} apart");
        };
        // Stamped a second ago on the first node: timed from then.
        near(
            arrival(now_ms() - 1_000),
            Instant::now() - Duration::from_secs(1),
        );
        // A stamp from a node whose clock runs ahead is not in the future.
        near(arrival(now_ms() + 5_000), Instant::now());
        // A stall longer than the bound is charged past it.
        near(arrival(now_ms() - 60_000), Instant::now() - MAX_TRANSIT);
        // A stamp and its arrival on the same node agree.
        let received = Instant::now() - Duration::from_millis(700);
        near(arrival(stamp(received)), received);
    }
}
