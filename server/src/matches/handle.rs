//! The address of a match: the commands a connection can send it and the handle that queues
//! them on the match's bounded mailbox. A full mailbox is refused as busy rather than waited
//! on, so no connection ever stalls behind a busy match.
//!
//! The mailbox carries each command boxed. tokio's channel allocates its slots 32 at a time
//! and keeps about two such blocks per channel; a [`Command`] is over a hundred bytes (an
//! outbox, a token, an action), so unboxed every match kept some 8 KiB of mostly empty slots
//! (BENCHMARKS.md, "A live match's own memory"). Boxed, a slot is a pointer, and the box lives
//! only while the command waits.

use tokio::time::Instant;

use boardcast_protocol::{BySide, ErrorArgs, ErrorCode, Side};
use tokio::sync::mpsc;

use super::chat::ChatRequest;
use super::decide::Action;
use super::player::{Player, SeatKey};
use crate::ops::shutdown::Shutdown;
use crate::refusal::Refusal;
use crate::room::outbox::{ConnId, Outbox};
use crate::storage::coordination::NodeRef;

/// Commands waiting for one match, at most.
const MAILBOX: usize = 64;

/// What a connection asks of a match.
#[derive(Debug)]
pub enum Command {
    /// Follow the match as a spectator (`since_v`: the last event version seen).
    Watch {
        outbox: Outbox,
        id: u64,
        since_v: Option<u64>,
        /// A watch carried over from the proxy of a match that moved here: answered with a
        /// `resumed` instead of an `ack` (no envelope asked for it).
        carried: bool,
    },
    /// Stop following the match as a spectator.
    Unwatch { outbox: Outbox, id: u64 },
    /// Take the free seat; `myself`: the connection asks to take the second seat of a match
    /// whose first it holds (`join_match` with `myself`).
    Join {
        outbox: Outbox,
        id: u64,
        player: Player,
        myself: bool,
    },
    /// Take back a seat by its token, or by the account that holds it.
    Resume {
        outbox: Outbox,
        id: u64,
        token: SeatKey,
        since_v: Option<u64>,
        /// A seat carried over from the proxy of a match that moved here: answered with a
        /// `resumed` instead of a `seat`, and never with an error (no envelope asked for it).
        carried: bool,
    },
    /// A seated player's action.
    Act {
        outbox: Outbox,
        id: u64,
        token: String,
        action: Action,
        /// When the connection handed it over: a move's latency to its ack runs from here.
        received: Instant,
    },
    /// Say or delete a line of the match's chat ([`super::chat`]).
    Chat {
        outbox: Outbox,
        id: u64,
        request: ChatRequest,
    },
    /// The connection has closed.
    Leave { conn: ConnId },
    /// The players of a new rematch (or play-now pairing), by their side in it: seated
    /// together before anything else happens, each sent a `seat` with id 0 and a snapshot —
    /// or, for a pairing (`paired`), a `paired` answering their `play_now` envelope.
    Arrive {
        players: Vec<(Outbox, Side)>,
        paired: Option<(boardcast_protocol::PoolPreset, BySide<u64>)>,
    },
    /// In a cluster: node `from` has `watchers` watchers of this match now (0 once it left).
    Crowd { from: NodeRef, watchers: u32 },
}

impl Command {
    /// Where the answer to this command goes, if it expects one.
    pub(crate) fn asker(&self) -> Option<(&Outbox, u64)> {
        match self {
            Command::Watch { carried: true, .. } | Command::Resume { carried: true, .. } => None,
            Command::Watch { outbox, id, .. }
            | Command::Unwatch { outbox, id }
            | Command::Join { outbox, id, .. }
            | Command::Resume { outbox, id, .. }
            | Command::Act { outbox, id, .. }
            | Command::Chat { outbox, id, .. } => Some((outbox, *id)),
            Command::Leave { .. } | Command::Arrive { .. } | Command::Crowd { .. } => None,
        }
    }
}

/// The address of a running match.
#[derive(Debug, Clone)]
pub struct MatchHandle {
    tx: mpsc::Sender<Box<Command>>,
    shutdown: Shutdown,
}

/// The receiving end of a match's mailbox, read by whoever runs the match here (its actor,
/// or a cluster proxy).
#[derive(Debug)]
pub(crate) struct Mailbox(mpsc::Receiver<Box<Command>>);

impl Mailbox {
    /// The next command; `None` once every handle is gone and the mailbox is empty.
    pub(crate) async fn recv(&mut self) -> Option<Command> {
        self.0.recv().await.map(|command| *command)
    }

    /// The next command if one is waiting.
    pub(crate) fn try_recv(&mut self) -> Result<Command, mpsc::error::TryRecvError> {
        self.0.try_recv().map(|command| *command)
    }

    /// Refuses every command from now on; those already waiting can still be read.
    pub(crate) fn close(&mut self) {
        self.0.close();
    }
}

impl MatchHandle {
    /// A new match's handle and the mailbox its actor reads.
    pub(crate) fn channel(shutdown: Shutdown) -> (MatchHandle, Mailbox) {
        let (tx, rx) = mpsc::channel(MAILBOX);
        (MatchHandle { tx, shutdown }, Mailbox(rx))
    }

    /// Queues a command without waiting; a full mailbox is refused as busy, a stopped match
    /// as `stopped` says.
    pub fn try_send(&self, command: Command) -> Result<(), Refusal> {
        self.tx
            .try_send(Box::new(command))
            .map_err(|err| match err {
                mpsc::error::TrySendError::Full(_) => Refusal::new(
                    ErrorCode::Busy,
                    "this match has too many commands waiting; try again",
                )
                .with(ErrorArgs::new("commands_waiting")),
                mpsc::error::TrySendError::Closed(_) => stopped(&self.shutdown),
            })
    }

    /// Queues a command, waiting for room (for goodbyes that must arrive).
    pub async fn send(&self, command: Command) {
        let _ = self.tx.send(Box::new(command)).await;
    }

    /// Whether the match's actor has stopped.
    pub fn is_stopped(&self) -> bool {
        self.tx.is_closed()
    }
}

/// The refusal of a command to a match whose actor has stopped: `shutting_down` once the
/// server is stopping (match actors stop before connections do), else `not_found`.
pub(super) fn stopped(shutdown: &Shutdown) -> Refusal {
    if shutdown.is_shutdown() {
        Refusal::new(ErrorCode::ShuttingDown, "the server is shutting down")
            .with(ErrorArgs::new("shutting_down"))
    } else {
        Refusal::new(ErrorCode::NotFound, "this match is no longer running")
            .with(ErrorArgs::new("match_stopped"))
    }
}
