//! The lobby of the whole cluster: every node lists the public seeks and live matches of all
//! live nodes.
//!
//! Each node owns the lines of the matches it runs and tells the others on `bc:lobby`: changes
//! are gathered for at most [`BATCH_EVERY`] and go out as one [`LobbyMessage::Batch`] (a match's
//! watcher count can change many times a second; the lobby needs its latest line only). A node
//! that starts, or whose Redis connection came back (it may have missed batches), asks with
//! [`LobbyMessage::Hello`] and every other node answers with its whole set
//! ([`LobbyMessage::Full`], which replaces everything known of that node). The lines of a node
//! that has left the live nodes (its lease ran out) are not listed, so a dead node's seeks
//! disappear within one lease; they are forgotten when the node starts again (a new
//! incarnation).
//!
//! Lines are only what the lobby shows; nothing acknowledged depends on them, so a lost batch
//! costs at most a stale line until the next change or the next `Hello`.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use boardcast_protocol::{MatchPhase, MatchSummary};
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;

use super::bus::{Bus, BusEvent, names};
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::NodeRef;

/// Changes are published at most this long after they happen.
pub(crate) const BATCH_EVERY: Duration = Duration::from_millis(100);
/// Lobby messages waiting for the handler; more means it fell behind and asks again.
const MAILBOX: usize = 1024;

/// What nodes tell each other on `bc:lobby` (postcard).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum LobbyMessage {
    /// Node `from`'s lines changed: these are new or changed, those ids are gone.
    Batch {
        from: NodeRef,
        set: Vec<MatchSummary>,
        removed: Vec<String>,
    },
    /// Node `from` (new, or back after missing messages) asks every node for its whole set.
    Hello { from: NodeRef },
    /// Every line node `from` has: replaces all that was known of it.
    Full {
        from: NodeRef,
        lines: Vec<MatchSummary>,
    },
}

/// The nodes whose leases run, as the lease (`cluster::lease`) last heard them.
pub(crate) type LiveNodes = Arc<dyn Fn() -> Arc<HashSet<NodeRef>> + Send + Sync>;

/// This node's view of the cluster's lobby; cheap to clone.
#[derive(Clone)]
pub(crate) struct SharedLobby(Arc<Inner>);

struct Inner {
    bus: Bus,
    live: LiveNodes,
    state: Mutex<State>,
    /// Wakes the publisher when the first change of a batch arrives.
    changed: Notify,
}

#[derive(Default)]
struct State {
    /// This node's listed lines by match id.
    mine: HashMap<String, MatchSummary>,
    /// Changes not yet published: the newest line, or `None` for gone.
    pending: HashMap<String, Option<MatchSummary>>,
    /// Other nodes' lines by match id, with the node that listed each.
    others: HashMap<String, (NodeRef, MatchSummary)>,
}

impl SharedLobby {
    /// Joins the cluster's lobby on `bus`: subscribes to `bc:lobby`, asks the others for their
    /// lines, and publishes this node's changes until `shutdown`.
    pub(crate) async fn start(bus: Bus, live: LiveNodes, shutdown: Shutdown) -> SharedLobby {
        let lobby = SharedLobby(Arc::new(Inner {
            bus: bus.clone(),
            live,
            state: Mutex::new(State::default()),
            changed: Notify::new(),
        }));
        let listener = lobby.clone();
        bus.listen(&[names::LOBBY], MAILBOX, shutdown.clone(), move |event| {
            listener.heard(event);
        });
        bus.subscribe(names::LOBBY).await;
        lobby.send(&LobbyMessage::Hello {
            from: bus.node().clone(),
        });
        tokio::spawn(lobby.clone().publish_batches(shutdown));
        lobby
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Plain maps, each change whole under the lock: still consistent after a panic.
        self.0
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn me(&self) -> &NodeRef {
        self.0.bus.node()
    }

    /// A match of this node has a new lobby line; listed if `public` and not finished.
    pub(crate) fn update(&self, summary: MatchSummary, public: bool) {
        let listed = public && summary.phase != MatchPhase::Finished;
        let mut state = self.state();
        if listed {
            state.mine.insert(summary.match_id.clone(), summary.clone());
            state
                .pending
                .insert(summary.match_id.clone(), Some(summary));
        } else if state.mine.remove(&summary.match_id).is_some() {
            state.pending.insert(summary.match_id, None);
        } else {
            return;
        }
        drop(state);
        self.0.changed.notify_one();
    }

    /// A match of this node has stopped (or moved to another node).
    pub(crate) fn remove(&self, id: &str) {
        let mut state = self.state();
        if state.mine.remove(id).is_none() {
            return;
        }
        state.pending.insert(id.to_owned(), None);
        drop(state);
        self.0.changed.notify_one();
    }

    /// The lobby of the whole cluster: this node's `local` seeks and live matches, and the
    /// lines of every other live node, each match once (this node's line first), sorted by id.
    pub(crate) fn merge(
        &self,
        local: (Vec<MatchSummary>, Vec<MatchSummary>),
    ) -> (Vec<MatchSummary>, Vec<MatchSummary>) {
        let (mut seeks, mut live) = local;
        let listed: HashSet<String> = seeks
            .iter()
            .chain(&live)
            .map(|line| line.match_id.clone())
            .collect();
        let alive = (self.0.live)();
        {
            let state = self.state();
            let theirs = state
                .others
                .iter()
                .filter(|(id, (node, _))| alive.contains(node) && !listed.contains(*id));
            for (_, (_, line)) in theirs {
                match line.phase {
                    MatchPhase::Waiting => seeks.push(line.clone()),
                    MatchPhase::Playing => live.push(line.clone()),
                    MatchPhase::Finished => {}
                }
            }
        }
        seeks.sort_by(|a, b| a.match_id.cmp(&b.match_id));
        live.sort_by(|a, b| a.match_id.cmp(&b.match_id));
        (seeks, live)
    }

    fn send(&self, message: &LobbyMessage) {
        let payload = postcard::to_allocvec(message).expect("lobby messages always encode");
        if let Err(err) = self.0.bus.publish(names::LOBBY, payload) {
            // The next change or Hello repairs it; nothing acknowledged depends on the lobby.
            tracing::debug!(%err, "lobby message not published");
        }
    }

    /// Publishes the pending changes, at most every [`BATCH_EVERY`].
    async fn publish_batches(self, mut shutdown: Shutdown) {
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = self.0.changed.notified() => {}
            }
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = tokio::time::sleep(BATCH_EVERY) => {}
            }
            let pending = std::mem::take(&mut self.state().pending);
            if pending.is_empty() {
                continue;
            }
            let (mut set, mut removed) = (Vec::new(), Vec::new());
            for (id, line) in pending {
                match line {
                    Some(line) => set.push(line),
                    None => removed.push(id),
                }
            }
            self.send(&LobbyMessage::Batch {
                from: self.me().clone(),
                set,
                removed,
            });
        }
    }

    /// Applies what the other nodes say, and answers their `Hello`s.
    fn heard(&self, event: BusEvent) {
        match event {
            BusEvent::Message { payload, .. } => match postcard::from_bytes(&payload) {
                Ok(message) => self.receive(message),
                Err(err) => tracing::warn!(%err, "undecodable lobby message dropped"),
            },
            BusEvent::Resync => {
                // Batches may have been lost both ways: ask for everyone's lines and give
                // ours.
                self.send(&LobbyMessage::Hello {
                    from: self.me().clone(),
                });
                self.send_full();
            }
        }
    }

    fn send_full(&self) {
        let lines = self.state().mine.values().cloned().collect();
        self.send(&LobbyMessage::Full {
            from: self.me().clone(),
            lines,
        });
    }

    fn receive(&self, message: LobbyMessage) {
        let from = match &message {
            LobbyMessage::Batch { from, .. }
            | LobbyMessage::Hello { from }
            | LobbyMessage::Full { from, .. } => from.clone(),
        };
        if from == *self.me() {
            // Our own messages come back from Redis too.
            return;
        }
        let mut state = self.state();
        // A node that restarted is a new incarnation: what its last run listed is gone.
        state
            .others
            .retain(|_, (node, _)| node.node != from.node || node.incarnation >= from.incarnation);
        match message {
            LobbyMessage::Hello { .. } => {
                drop(state);
                self.send_full();
            }
            LobbyMessage::Batch { set, removed, .. } => {
                for id in removed {
                    if state.others.get(&id).is_some_and(|(node, _)| *node == from) {
                        state.others.remove(&id);
                    }
                }
                for line in set {
                    state
                        .others
                        .insert(line.match_id.clone(), (from.clone(), line));
                }
            }
            LobbyMessage::Full { lines, .. } => {
                state.others.retain(|_, (node, _)| *node != from);
                for line in lines {
                    state
                        .others
                        .insert(line.match_id.clone(), (from.clone(), line));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests;
