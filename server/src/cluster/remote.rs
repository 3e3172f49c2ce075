//! The owner's side of a match followed from other nodes: the way to a connection on another
//! node (a remote [`Outbox`](crate::room::outbox::Outbox)), and the relay of each committed event
//! and broadcast, once, to every node.
//!
//! Both publish straight into the bus's one ordered queue, never through a queue of their own,
//! so a reply frame and the events around it reach the asking node in the order the match
//! produced them. Neither waits: a full bus closes a remote connection (its node re-seats it),
//! and a relayed event that could not be queued is a gap the other nodes fill from PostgreSQL.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::ws::Message;
use boardcast_protocol::{Encoding, ErrorCode, Side};
use tokio::sync::{mpsc, oneshot, watch};

use super::bus::{Bus, BusEvent, names};
use super::lease::Lease;
use super::wire::{MatchRelay, ToAsker};
use crate::matches::directory::{Created, Directory};
use crate::matches::local::{Creator, Hub};
use crate::matches::ownership::{Displaced, LeaseHeld, Reclaim, Reclaimed};
use crate::matches::{Ownership, Player, Setup};
use crate::refusal::Refusal;
use crate::room::fanout::Mirror;
use crate::room::outbox::{RemoteWay, SharedMessage};
use crate::storage::coordination::{Coordination, NodeRef};

/// The way to connection `conn` of node `asker`, for the frames of match `match_id`.
#[derive(Debug)]
pub(crate) struct RemoteConn {
    bus: Bus,
    /// The asker's reply channel.
    channel: String,
    asker: NodeRef,
    match_id: String,
    conn: u64,
    /// Set by a goodbye, by the asker's node leaving, or by a frame the bus refused.
    closed: AtomicBool,
}

impl RemoteConn {
    pub(crate) fn new(bus: Bus, asker: NodeRef, match_id: String, conn: u64) -> RemoteConn {
        RemoteConn {
            bus,
            channel: names::node_replies(&asker),
            asker,
            match_id,
            conn,
            closed: AtomicBool::new(false),
        }
    }

    pub(crate) fn asker(&self) -> &NodeRef {
        &self.asker
    }

    /// No frame goes to this connection any more.
    pub(crate) fn close(&self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}

impl RemoteWay for RemoteConn {
    fn push(&self, message: Message) -> bool {
        if self.is_closed() {
            return false;
        }
        let (binary, bytes) = match message {
            Message::Text(text) => (false, text.as_bytes().to_vec()),
            Message::Binary(bytes) => (true, bytes.to_vec()),
            // Closing is the asking node's business: it holds the socket.
            Message::Close(_) | Message::Ping(_) | Message::Pong(_) => return true,
        };
        let frame = ToAsker::Frame {
            match_id: self.match_id.clone(),
            owner: self.bus.node().clone(),
            conn: self.conn,
            binary,
            bytes,
        };
        if publish(&self.bus, &self.channel, &frame) {
            return true;
        }
        self.close();
        false
    }

    fn is_closed(&self) -> bool {
        self.closed.load(Ordering::Relaxed)
    }
}

/// Encodes `message` and queues it; `false` if the bus refused it.
pub(crate) fn publish<T: serde::Serialize>(bus: &Bus, channel: &str, message: &T) -> bool {
    let payload = match postcard::to_stdvec(message) {
        Ok(payload) => payload,
        Err(err) => {
            tracing::error!(%err, "cannot encode a message for the bus");
            return false;
        }
    };
    match bus.publish(channel, payload) {
        Ok(()) => true,
        Err(err) => {
            tracing::warn!(%err, channel, "bus refused a message");
            false
        }
    }
}

/// The mirror of match `match_id` owned under `epoch`: each committed event goes out as
/// `MatchRelay::Event`, each broadcast (crowd counts) as `MatchRelay::Broadcast`, on the
/// match's channel, encoded once (the postcard bytes local followers share).
pub fn relay_mirror(bus: Bus, match_id: &str, epoch: u64) -> Mirror {
    let channel = names::match_events(match_id);
    Box::new(move |v: Option<u64>, shared: &SharedMessage| {
        let message = match shared.frame(Encoding::Postcard) {
            Message::Binary(bytes) => bytes.to_vec(),
            other => {
                tracing::error!(?other, "a postcard frame that is not binary");
                return;
            }
        };
        let relay = match v {
            Some(v) => MatchRelay::Event { epoch, v, message },
            None => MatchRelay::Broadcast { epoch, message },
        };
        publish(&bus, &channel, &relay);
    })
}

/// This node as the owner of matches: the creator of new ones, and the relay and lease
/// every match it runs carries. The node's directory and inbox tell the hub how each match
/// they have it start is owned from it ([`BusOwning::create`], `inbox::claim_and_start`):
/// the hub never asks.
pub(crate) struct BusOwning {
    bus: Bus,
    /// This node incarnation: the owner a new match is created with.
    me: NodeRef,
    lease_lost: watch::Receiver<bool>,
    /// Whether the lease is held right now (more precise than `lease_lost`, which a timer
    /// sets).
    held: LeaseHeld,
    /// The lease, whose matches each ask whether it was held without a break since they
    /// started here ([`Lease::held_unbroken`]); tests without a lease task have none.
    lease: Option<Lease>,
    /// Where a match suspended by a lapse of the lease claims itself back ([`reclaim`]);
    /// without it such a match stops.
    coordination: Option<Arc<dyn Coordination>>,
}

impl std::fmt::Debug for BusOwning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BusOwning")
            .field("me", &self.me)
            .finish_non_exhaustive()
    }
}

impl BusOwning {
    /// This node owning matches under `lease`.
    /// Its matches claim themselves back through `coordination` after a lapse.
    pub(crate) fn for_lease(
        bus: Bus,
        lease: &Lease,
        coordination: Arc<dyn Coordination>,
    ) -> Arc<BusOwning> {
        let held = lease.clone();
        Self::assemble(
            bus,
            lease.lost(),
            Arc::new(move || held.is_held()),
            Some((lease.clone(), coordination)),
        )
    }

    /// This node owning matches while `held` says it holds its lease; `lease_lost` wakes
    /// its matches when it turns true.
    #[cfg(test)]
    pub(crate) fn build(
        bus: Bus,
        lease_lost: watch::Receiver<bool>,
        held: LeaseHeld,
    ) -> Arc<BusOwning> {
        Self::assemble(bus, lease_lost, held, None)
    }

    fn assemble(
        bus: Bus,
        lease_lost: watch::Receiver<bool>,
        held: LeaseHeld,
        lease: Option<(Lease, Arc<dyn Coordination>)>,
    ) -> Arc<BusOwning> {
        let me = bus.node().clone();
        let (lease, coordination) = lease.unzip();
        Arc::new(BusOwning {
            bus,
            me,
            lease_lost,
            held,
            lease,
            coordination,
        })
    }
}

impl BusOwning {
    /// The bus the matches it owns relay on.
    pub(crate) fn bus(&self) -> &Bus {
        &self.bus
    }

    /// The ownership of match `match_id`, owned by this node under `epoch`.
    pub(crate) fn ownership(&self, match_id: &str, epoch: u64) -> Ownership {
        match (&self.lease, &self.coordination) {
            (Some(lease), Some(coordination)) => leased_ownership(
                &self.bus,
                lease,
                coordination,
                match_id,
                epoch,
                lease.held_unbroken(),
            ),
            _ => Ownership {
                epoch,
                mirror: Some(relay_mirror(self.bus.clone(), match_id, epoch)),
                lease_lost: Some(self.lease_lost.clone()),
                lease_held: Some(self.held.clone()),
                reclaim: None,
                displaced: None,
            },
        }
    }

    /// Whether this node holds its lease now. A node that does not may neither create nor
    /// claim a match: it would stop it at once, and while its lease is not yet over in the
    /// database nobody else would take the match.
    pub(crate) fn holds_lease(&self) -> bool {
        (self.held)()
    }

    /// Has `hub` create a match owned by this node (epoch 1), its actor talking to
    /// `directory` ([`Hub::create_match`]); refused while the lease is not held.
    pub(crate) async fn create(
        &self,
        hub: &Hub,
        directory: Arc<dyn Directory>,
        setup: Setup,
        players: &[(Side, Player)],
        arrivals_follow: bool,
    ) -> Result<Created, Refusal> {
        if !self.holds_lease() {
            return Err(lease_refusal());
        }
        let creator = Creator {
            directory,
            node: Some(self.me.clone()),
            ownership: |id: &str, epoch| self.ownership(id, epoch),
        };
        hub.create_owned(setup, players, arrivals_follow, creator)
            .await
    }
}

/// The refusal of a creation or a claim while this node does not hold its lease.
pub(crate) fn lease_refusal() -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        "this server lost its database lease; try again",
    )
}

/// How long a suspended match waits for storage to say who owns it before it answers from
/// memory anyway.
const PROBE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// The ownership of match `match_id` under `epoch` by a node with a lease, whose lease was
/// held without a break as `held` says; after a lapse it claims itself back ([`reclaim`]).
fn leased_ownership(
    bus: &Bus,
    lease: &Lease,
    coordination: &Arc<dyn Coordination>,
    match_id: &str,
    epoch: u64,
    held: LeaseHeld,
) -> Ownership {
    let reclaim: Reclaim = {
        let (bus, lease, coordination) = (bus.clone(), lease.clone(), coordination.clone());
        let match_id = match_id.to_owned();
        Arc::new(move |epoch, v| {
            let (bus, lease, coordination) = (bus.clone(), lease.clone(), coordination.clone());
            let match_id = match_id.clone();
            Box::pin(async move { reclaim(bus, lease, coordination, match_id, epoch, v).await })
        })
    };
    Ownership {
        epoch,
        mirror: Some(relay_mirror(bus.clone(), match_id, epoch)),
        lease_lost: Some(lease.lost()),
        lease_held: Some(held),
        reclaim: Some(reclaim),
        displaced: Some(displaced_on_bus(bus, match_id)),
    }
}

/// How many messages of a suspended match's channel wait to be read: it hears little more
/// than the one announcement it waits for (the new owner's events come after it).
const HEARING_MAILBOX: usize = 64;

/// Hears on the bus whether another node announces it took match `match_id` over (it
/// publishes [`MatchRelay::Owner`] on the match's channel when it does). A node cut off from
/// PostgreSQL alone keeps its Redis: this is how it learns that its suspended match went on
/// elsewhere, since storage cannot tell it (issue 28).
fn displaced_on_bus(bus: &Bus, match_id: &str) -> Displaced {
    let (bus, match_id) = (bus.clone(), match_id.to_owned());
    Arc::new(move |epoch| {
        let (found, heard) = oneshot::channel();
        tokio::spawn(hear_newer_owner(
            bus.clone(),
            match_id.clone(),
            epoch,
            found,
        ));
        heard
    })
}

/// Listens on match `match_id`'s channel until another node announces an epoch newer than
/// `epoch` (sent on `found`), or nobody waits for it any more.
async fn hear_newer_owner(
    bus: Bus,
    match_id: String,
    epoch: u64,
    mut found: oneshot::Sender<NodeRef>,
) {
    let channel = names::match_events(&match_id);
    let (mailbox, mut heard) = mpsc::channel(HEARING_MAILBOX);
    // An exact route wins over the directory's `bc:match:*` one, which feeds proxies: this
    // node has none of a match it runs.
    bus.route(&channel, mailbox.clone());
    bus.subscribe(&channel).await;
    let newer = loop {
        let event = tokio::select! {
            () = found.closed() => break None,
            event = heard.recv() => event,
        };
        match event {
            Some(BusEvent::Message { payload, .. }) => match postcard::from_bytes(&payload) {
                Ok(MatchRelay::Owner {
                    epoch: newer,
                    owner,
                }) if newer > epoch && owner != *bus.node() => {
                    break Some(owner);
                }
                _ => {}
            },
            // A missed announcement is not recovered from here: storage settles the match
            // once it answers again.
            Some(BusEvent::Resync) => {}
            None => break None,
        }
    };
    // Only this hearing's route: a later one for the same match (suspended again after a
    // claim back) may have replaced it already.
    bus.unroute_mailbox(&channel, &mailbox);
    bus.unsubscribe(&channel);
    if let Some(owner) = newer {
        let _ = found.send(owner);
    }
}

/// Claims match `match_id`, run here under `epoch` up to version `v` until the lease lapsed,
/// back for this node. It goes on in place only if the claim's epoch is exactly `epoch + 1`
/// (every claim adds one, so nobody else claimed it in between and no write of another
/// node can exist) and nothing is stored past `v` (a write of its own whose outcome it never
/// learnt). The lease must have been held without a break since before the claim, or a
/// lapse during it could let another node claim too.
async fn reclaim(
    bus: Bus,
    lease: Lease,
    coordination: Arc<dyn Coordination>,
    match_id: String,
    epoch: u64,
    v: u64,
) -> Reclaimed {
    let held = lease.held_unbroken();
    if !held() {
        // No claim without the lease; but a newer epoch in storage says for sure that
        // another node took the match (this node was frozen, or cut off alone), and then
        // nothing more is answered from memory.
        let owner =
            tokio::time::timeout(PROBE_WITHIN, coordination.match_owner(match_id.clone())).await;
        return match owner {
            Ok(Ok(Some(owner))) if owner.epoch != epoch => {
                tracing::warn!(%match_id, epoch, now = owner.epoch, "another node took the suspended match: it stops here");
                Reclaimed::Lost
            }
            _ => Reclaimed::NotYet,
        };
    }
    let claimed = match coordination.claim_match(match_id.clone(), lease.me()).await {
        Ok(claimed) => claimed,
        Err(err) => {
            tracing::warn!(%match_id, %err, "cannot claim a suspended match back yet");
            return Reclaimed::NotYet;
        }
    };
    let Some(claimed) = claimed.filter(|&claimed| claimed == epoch + 1) else {
        tracing::warn!(%match_id, epoch, ?claimed, "another node owned the suspended match meanwhile: it stops here");
        return Reclaimed::Lost;
    };
    match coordination.events_since(match_id.clone(), v).await {
        Ok(newer) if newer.is_empty() => {}
        Ok(newer) => {
            tracing::warn!(%match_id, v, newer = newer.len(), "events stored past what the suspended match knows: it stops here");
            return Reclaimed::Lost;
        }
        Err(err) => {
            // Claimed, but unchecked: the next try's claim is one epoch further, so it stops
            // and the match is rebuilt from storage.
            tracing::warn!(%match_id, %err, "cannot check a suspended match's events");
            return Reclaimed::NotYet;
        }
    }
    tracing::info!(%match_id, epoch = claimed, "the suspended match goes on here");
    Reclaimed::Kept(leased_ownership(
        &bus,
        &lease,
        &coordination,
        &match_id,
        claimed,
        held,
    ))
}
