//! The owner's inbox: what other nodes ask of the matches this node owns, read from
//! `bc:node:{me}:{incarnation}:m`.
//!
//! A command for a match running here goes to its actor with a remote outbox, so the answer
//! goes back to the asking connection as frames. A match that is not running here is claimed
//! and started from PostgreSQL when this node owns it already or nobody alive does; when
//! another live node owns it the asker is told so (`NotOwner`) and asks there. Commands for a
//! match being started wait for it, in order. A connection's goodbye (`Leave`), and the end of
//! a node (it leaves the live set and has been silent for a lease), close its remote outboxes
//! and tell the match, so presence records the players as gone. Each node's watcher count (`Crowd`) goes to the match, which
//! shows the crowd of the whole cluster.
//!
//! The inbox never waits on a match or the database: claims run on tasks of their own, and a
//! match whose mailbox is full is answered `busy` through the frame it would have sent.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use boardcast_protocol::{Encoding, ErrorCode};
use tokio::sync::mpsc;

use super::bus::{Bus, BusEvent, names};
use super::remote::{BusOwning, RemoteConn, lease_refusal, publish};
use super::wire::{MatchRelay, RemoteCommand, ToAsker, ToOwner};
use crate::matches::local::Hub;
use crate::matches::{Command, Directory, MatchHandle};
use crate::ops::shutdown::Shutdown;
use crate::refusal::Refusal;
use crate::room::outbox::{
    Outbox, RemoteWay, Subscriptions, close_subscriptions, next_conn_id, remote_outbox,
};
use crate::storage::coordination::{Coordination, NodeRef};

/// Messages waiting for the inbox, at most.
const MAILBOX: usize = 4096;
/// Commands waiting for one match being started, at most.
const WAITING: usize = 64;
/// Matches being claimed and started at once, at most (a burst after a node died is served
/// a few hundred at a time; the rest are answered busy and asked again).
const STARTING: usize = 256;
/// How often the inbox looks for nodes that left.
const LIVE_EVERY: Duration = Duration::from_millis(500);

/// The node incarnations whose lease runs, as this node last learnt them (`Lease::live_nodes`).
pub(crate) type LiveNodes = Arc<dyn Fn() -> Arc<HashSet<NodeRef>> + Send + Sync>;

/// What the inbox needs.
#[derive(Clone)]
pub(crate) struct OwnerSide {
    pub bus: Bus,
    pub hub: Hub,
    /// How the matches it claims are owned.
    pub owning: Arc<BusOwning>,
    /// The directory their actors talk to (the node's cluster directory).
    pub directory: Arc<dyn Directory>,
    pub coordination: Arc<dyn Coordination>,
    pub live_nodes: LiveNodes,
    /// A node heard from within this (a lease's time to live) is not gone, whatever the live
    /// set says: a node that was frozen past its lease and woke up speaks before the live
    /// set, read at this node's next renew, shows it again, and its new connections must not
    /// be dropped in that window (their answers would go nowhere).
    pub heard_grace: Duration,
}

/// Routes and subscribes this node's match channel and starts the inbox; it stops at
/// `shutdown`.
pub(crate) async fn start(side: OwnerSide, shutdown: Shutdown) {
    let (tx, rx) = mpsc::channel(MAILBOX);
    let channel = names::node_matches(side.bus.node());
    side.bus.route(&channel, tx.clone());
    side.bus.subscribe(&channel).await;
    let (started_tx, started_rx) = mpsc::channel(WAITING);
    let inbox = Inbox {
        side,
        remotes: HashMap::new(),
        crowds: HashMap::new(),
        seen: HashSet::new(),
        heard: HashMap::new(),
        starting: HashMap::new(),
        started_tx,
    };
    tokio::spawn(inbox.run(rx, started_rx, shutdown));
}

/// What a claim of a match not running here came to.
#[derive(Debug)]
pub(crate) enum Claim {
    /// This node runs it now.
    Started(MatchHandle),
    /// Another live node owns it (`None`: it changed hands while we looked; ask again).
    OwnedBy(Option<NodeRef>),
    /// There is no such match.
    Missing,
}

/// Claims match `id` for this node if it may (nobody alive owns it, or this node does) and
/// starts it from its stored events under the new epoch, then tells every node that owns it
/// now. The one way a node takes a match over: the inbox, the directory and the sweeper call
/// it. One at a time per match on this node, and a match already running here is simply
/// returned: a second claim would fence the first. A node that does not hold its lease
/// claims nothing. The match is owned as `owning` says, its actor talking to `directory`.
pub(crate) async fn claim_and_start(
    coordination: &dyn Coordination,
    hub: &Hub,
    owning: &BusOwning,
    directory: Arc<dyn Directory>,
    id: &str,
) -> Result<Claim, Refusal> {
    let bus = owning.bus();
    let me = bus.node();
    let _turn = hub.take_over_turn(id).await;
    if let Some(handle) = hub.running(id)
        && !handle.is_stopped()
    {
        return Ok(Claim::Started(handle));
    }
    if !owning.holds_lease() {
        return Err(lease_refusal());
    }
    let unavailable = |err| Refusal::storage(&err, "the match could not be reached");
    let Some(owner) = coordination
        .match_owner(id.to_owned())
        .await
        .map_err(unavailable)?
    else {
        return Ok(Claim::Missing);
    };
    match &owner.owner {
        Some(node) if owner.alive && node != me => return Ok(Claim::OwnedBy(Some(node.clone()))),
        _ => {}
    }
    // The dead owner's last renewal: the side to move is charged their thinking up to it.
    let last_alive_ms = match &owner.owner {
        Some(node) if !owner.finished => coordination
            .last_renewal_ms(node.clone())
            .await
            .unwrap_or(None),
        _ => None,
    };
    let Some(epoch) = coordination
        .claim_match(id.to_owned(), me.clone())
        .await
        .map_err(unavailable)?
    else {
        return Ok(Claim::OwnedBy(None));
    };
    let Some(stored) = coordination
        .load_match(id.to_owned())
        .await
        .map_err(unavailable)?
    else {
        return Ok(Claim::Missing);
    };
    let handle = hub.adopt(
        &stored,
        last_alive_ms,
        directory,
        owning.ownership(id, epoch),
    )?;
    if owner.finished {
        // A finished match is claimed only to be shown (and offered a rematch): a player
        // coming back to an old game is no take-over worth an operator's attention.
        tracing::debug!(match_id = id, epoch, "reopened a finished match");
    } else {
        crate::ops::telemetry::took_over("match");
        tracing::info!(match_id = id, epoch, "took the match over");
    }
    publish(
        bus,
        &names::match_events(id),
        &MatchRelay::Owner {
            epoch,
            owner: me.clone(),
        },
    );
    Ok(Claim::Started(handle))
}

/// One connection of another node asking about one match.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct RemoteKey {
    node: NodeRef,
    conn: u64,
    match_id: String,
}

/// That connection as the match sees it.
struct Remote {
    outbox: Outbox,
    subscriptions: Subscriptions,
    way: Arc<RemoteConn>,
}

/// A command waiting for its match to start.
struct Waiting {
    from: NodeRef,
    conn: u64,
    encoding: Encoding,
    command: RemoteCommand,
}

struct Inbox {
    side: OwnerSide,
    remotes: HashMap<RemoteKey, Remote>,
    /// The matches each node reported a crowd for, to zero them when it leaves.
    crowds: HashMap<NodeRef, HashSet<String>>,
    /// Every node seen in a live set so far. A node is gone when it was seen and is no
    /// longer there: one that started after this node's last renew is not in the set yet,
    /// and its connections are not to be dropped for that.
    seen: HashSet<NodeRef>,
    /// When each node was last heard from (any message of it on this inbox).
    heard: HashMap<NodeRef, Instant>,
    /// Matches being claimed and started, and the commands waiting for them.
    starting: HashMap<String, Vec<Waiting>>,
    started_tx: mpsc::Sender<(String, Result<Claim, Refusal>)>,
}

impl Inbox {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<BusEvent>,
        mut started: mpsc::Receiver<(String, Result<Claim, Refusal>)>,
        mut shutdown: Shutdown,
    ) {
        let mut live_tick = tokio::time::interval(LIVE_EVERY);
        live_tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.recv() => break,
                event = rx.recv() => match event {
                    Some(BusEvent::Message { payload, .. }) => match postcard::from_bytes(&payload) {
                        Ok(message) => self.receive(message),
                        Err(err) => tracing::warn!(%err, "inbox: a message that does not decode"),
                    },
                    // Lost messages were commands (their askers re-send what is not answered),
                    // goodbyes (the connection's seat shows as held until its node leaves or
                    // it comes back) or crowd counts (corrected at the next change).
                    Some(BusEvent::Resync) => tracing::warn!("inbox: messages may have been lost"),
                    None => break,
                },
                Some((match_id, claim)) = started.recv() => self.started(match_id, claim),
                _ = live_tick.tick() => self.drop_departed(),
            }
        }
    }

    fn receive(&mut self, message: ToOwner) {
        let from = match &message {
            ToOwner::Command { from, .. }
            | ToOwner::Leave { from, .. }
            | ToOwner::Crowd { from, .. } => from,
        };
        self.heard.insert(from.clone(), Instant::now());
        match message {
            ToOwner::Command {
                match_id,
                from,
                conn,
                encoding,
                command,
            } => {
                let waiting = Waiting {
                    from,
                    conn,
                    encoding,
                    command,
                };
                self.command(match_id, waiting);
            }
            ToOwner::Leave {
                match_id,
                from,
                conn,
            } => self.leave(match_id, from, conn),
            ToOwner::Crowd {
                match_id,
                from,
                watchers,
            } => {
                if let Some(handle) = self.side.hub.running(&match_id) {
                    let nodes = self.crowds.entry(from.clone()).or_default();
                    if watchers == 0 {
                        nodes.remove(&match_id);
                    } else {
                        nodes.insert(match_id);
                    }
                    tell(&handle, Command::Crowd { from, watchers });
                }
            }
        }
    }

    fn command(&mut self, match_id: String, waiting: Waiting) {
        if let Some(queue) = self.starting.get_mut(&match_id) {
            if queue.len() < WAITING {
                queue.push(waiting);
            } else {
                let outbox = self.outbox(&match_id, &waiting);
                refuse(&outbox, &waiting.command, busy());
            }
            return;
        }
        match self.side.hub.running(&match_id) {
            Some(handle) if !handle.is_stopped() => self.deliver(&handle, &match_id, waiting),
            _ if self.starting.len() >= STARTING => {
                let refusal = Refusal::new(
                    ErrorCode::Busy,
                    "this server is taking over many matches at once; try again",
                );
                let outbox = self.outbox(&match_id, &waiting);
                refuse(&outbox, &waiting.command, refusal);
            }
            _ => {
                self.starting.insert(match_id.clone(), vec![waiting]);
                let side = self.side.clone();
                let started = self.started_tx.clone();
                tokio::spawn(async move {
                    let claim = claim_and_start(
                        side.coordination.as_ref(),
                        &side.hub,
                        &side.owning,
                        side.directory.clone(),
                        &match_id,
                    )
                    .await;
                    let _ = started.send((match_id, claim)).await;
                });
            }
        }
    }

    /// A claim finished: the commands that waited for it are delivered or answered.
    fn started(&mut self, match_id: String, claim: Result<Claim, Refusal>) {
        let waiting = self.starting.remove(&match_id).unwrap_or_default();
        for waiting in waiting {
            match &claim {
                Ok(Claim::Started(handle)) => self.deliver(handle, &match_id, waiting),
                Ok(Claim::OwnedBy(owner)) => {
                    let reply = ToAsker::NotOwner {
                        match_id: match_id.clone(),
                        conn: waiting.conn,
                        command: waiting.command,
                        owner: owner.clone(),
                    };
                    publish(&self.side.bus, &names::node_replies(&waiting.from), &reply);
                }
                Ok(Claim::Missing) => {
                    let refusal = Refusal::new(ErrorCode::NotFound, format!("no match {match_id}"));
                    refuse(&self.outbox(&match_id, &waiting), &waiting.command, refusal);
                }
                Err(refusal) => {
                    refuse(
                        &self.outbox(&match_id, &waiting),
                        &waiting.command,
                        refusal.clone(),
                    );
                }
            }
        }
    }

    /// Hands `waiting` to the match's actor, answering the asker if the actor cannot take it.
    fn deliver(&mut self, handle: &MatchHandle, match_id: &str, waiting: Waiting) {
        let outbox = self.outbox(match_id, &waiting);
        let carried = is_carried(&waiting.command);
        let id = waiting.command.id();
        let command = waiting.command.into_command(outbox.clone());
        if let Err(refusal) = handle.try_send(command)
            && !carried
        {
            outbox.refuse(id, refusal);
        }
    }

    /// The remote outbox of the asking connection for this match: the one it has, or a
    /// fresh one (with a fresh local id) if it has none or said goodbye.
    fn outbox(&mut self, match_id: &str, waiting: &Waiting) -> Outbox {
        let key = RemoteKey {
            node: waiting.from.clone(),
            conn: waiting.conn,
            match_id: match_id.to_owned(),
        };
        if let Some(remote) = self.remotes.get(&key)
            && !remote.outbox.is_closed()
        {
            return remote.outbox.clone();
        }
        let way = Arc::new(RemoteConn::new(
            self.side.bus.clone(),
            waiting.from.clone(),
            match_id.to_owned(),
            waiting.conn,
        ));
        let (outbox, subscriptions) = remote_outbox(next_conn_id(), waiting.encoding, way.clone());
        self.remotes.insert(
            key,
            Remote {
                outbox: outbox.clone(),
                subscriptions,
                way,
            },
        );
        outbox
    }

    fn leave(&mut self, match_id: String, from: NodeRef, conn: u64) {
        if let Some(queue) = self.starting.get_mut(&match_id) {
            queue.retain(|w| !(w.from == from && w.conn == conn));
        }
        let key = RemoteKey {
            node: from,
            conn,
            match_id,
        };
        if let Some(remote) = self.remotes.remove(&key) {
            self.goodbye(remote);
        }
    }

    /// Closes a remote connection and tells the matches it followed.
    fn goodbye(&self, remote: Remote) {
        remote.way.close();
        let conn = remote.outbox.id();
        for match_id in close_subscriptions(&remote.subscriptions) {
            if let Some(handle) = self.side.hub.running(&match_id) {
                tell(&handle, Command::Leave { conn });
            }
        }
    }

    /// Closes the connections of nodes that are no longer alive and forgets their crowds.
    fn drop_departed(&mut self) {
        let live = (self.side.live_nodes)();
        // Until this node's own lease shows, the set says nothing (not read yet, or lost).
        if !live.contains(self.side.bus.node()) {
            return;
        }
        self.seen.extend(live.iter().cloned());
        let now = Instant::now();
        let grace = self.side.heard_grace;
        let heard = &self.heard;
        let gone = |node: &NodeRef| {
            self.seen.contains(node)
                && !live.contains(node)
                && heard
                    .get(node)
                    .is_none_or(|at| now.saturating_duration_since(*at) >= grace)
        };
        let departed: Vec<RemoteKey> = self
            .remotes
            .keys()
            .filter(|key| gone(&key.node))
            .cloned()
            .collect();
        for key in departed {
            if let Some(remote) = self.remotes.remove(&key) {
                tracing::info!(node = %remote.way.asker(), match_id = %key.match_id, "a node left: its connection leaves the match");
                self.goodbye(remote);
            }
        }
        let left: Vec<NodeRef> = self
            .crowds
            .keys()
            .filter(|node| gone(node))
            .cloned()
            .collect();
        for node in left {
            for match_id in self.crowds.remove(&node).unwrap_or_default() {
                if let Some(handle) = self.side.hub.running(&match_id) {
                    tell(
                        &handle,
                        Command::Crowd {
                            from: node.clone(),
                            watchers: 0,
                        },
                    );
                }
            }
        }
        // Connections the bus closed (it was full) leave their matches too.
        let closed: Vec<RemoteKey> = self
            .remotes
            .iter()
            .filter(|(_, remote)| remote.way.is_closed())
            .map(|(key, _)| key.clone())
            .collect();
        for key in closed {
            if let Some(remote) = self.remotes.remove(&key) {
                self.goodbye(remote);
            }
        }
        // Only nodes still live, or heard from lately, need remembering.
        self.heard
            .retain(|node, at| live.contains(node) || now.saturating_duration_since(*at) < grace);
    }
}

/// Queues a command that expects no answer from a task of its own, waiting for room: the
/// inbox never waits, and a goodbye is not lost to a full mailbox.
fn tell(handle: &MatchHandle, command: Command) {
    let handle = handle.clone();
    tokio::spawn(async move { handle.send(command).await });
}

/// Answers `command` with `refusal`, unless it was carried over by a proxy: no envelope
/// asked for that one, so nobody waits for an answer (PROTOCOL.md §3.5).
fn refuse(outbox: &Outbox, command: &RemoteCommand, refusal: Refusal) {
    if !is_carried(command) {
        outbox.refuse(command.id(), refusal);
    }
}

fn is_carried(command: &RemoteCommand) -> bool {
    matches!(
        command,
        RemoteCommand::Watch { carried: true, .. } | RemoteCommand::Resume { carried: true, .. }
    )
}

fn busy() -> Refusal {
    Refusal::new(
        ErrorCode::Busy,
        "this match has too many commands waiting; try again",
    )
}

#[cfg(test)]
mod tests;
