//! TV channels across nodes: one node owns each channel and runs it; every other node follows.
//!
//! - **Ownership** is a row of kind `channel` in PostgreSQL with a fencing epoch
//!   ([`Coordination::claim_owned`]). Every node looks at each TV channel every third of a
//!   lease: a channel whose owner is gone (or that never had one) is claimed, and the one node
//!   that wins runs it from the schedule its last owner saved ([`Resume::from_saved`]): the
//!   same game at the right ply, on the same beat, with the same versions.
//! - **The owner** saves each planned game through [`save`] (a save refused because another
//!   node took the channel over makes this node follow it instead) and publishes every event
//!   once on `bc:chan:{name}` ([`ChannelRelay`]): one Redis message per reveal per cluster.
//! - **Followers** show the relayed events to their own watchers (the channel actor in its
//!   following mode), ask the owner for a snapshot when they start or lost messages, and send
//!   guesses to the owner on `bc:node:{owner}:c` ([`ChannelTraffic`]); the owner's verdict and,
//!   at the reveal, the guess's result come back the same way.
//!
//! The leaderboard needs no forwarding: every node reads the same PostgreSQL. On-demand engine
//! games stay on the node that was asked to start them.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{ChannelSnapshot, Encoding, ErrorArgs, ErrorCode, ServerMessage};
use tokio::sync::watch;
use tokio::time::Instant;

use super::bus::{Bus, BusEvent, names};
use super::lobby::LiveNodes;
use super::node::Node;
use crate::channels::actor::{Answer, Downstream, Guess, Saver, Upstream};
use crate::channels::schedule::{Resume, SavedChannel};
use crate::channels::{ChannelHandle, Channels, ChannelsConfig, Registry};
use crate::ops::lock;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::refusal::Refusal;
use crate::room::outbox::{ConnId, Outbox, next_conn_id, outbox};
use crate::storage::coordination::{Coordination, NodeRef};
use crate::storage::{Storage, StorageError};

/// The kind of the ownership rows of TV channels.
pub(crate) const KIND: &str = "channel";
/// How long a guess waits for the owner's verdict before it is refused.
const VERDICT_PATIENCE: Duration = Duration::from_secs(5);
/// Messages waiting for the node's channel handler.
const MAILBOX: usize = 4096;

/// This node's part in the TV channels of the cluster; cheap to clone.
#[derive(Clone)]
pub(crate) struct ClusterChannels(Arc<Shared>);

struct Shared {
    bus: Bus,
    coordination: Arc<dyn Coordination>,
    live: LiveNodes,
    ttl: Duration,
    /// Set once by [`ClusterChannels::run`]: the registry is built with this node's
    /// upstreams, which need `Shared` first.
    registry: OnceLock<Registry>,
    seats: Mutex<HashMap<String, Seat>>,
    /// Guesses sent to an owner, waiting for its verdict.
    pending: Mutex<HashMap<u64, Answer>>,
    /// The connections that sent guesses to an owner, for the results that come back.
    guessers: Mutex<HashMap<ConnId, Outbox>>,
    next_request: AtomicU64,
}

/// What this node knows of one channel.
#[derive(Debug, Default)]
struct Seat {
    /// The node that owns it, as last seen.
    owner: Option<NodeRef>,
    /// The epoch under which this node owns it, if it does.
    mine: Option<u64>,
    /// The newest owner epoch heard relaying: older owners' events are dropped.
    epoch_heard: u64,
    /// While this node owns it: the nodes that told it their watchers (their counts go when
    /// they leave the live nodes).
    crowds_from: HashSet<NodeRef>,
}

impl ClusterChannels {
    /// The cluster side of this node's channels, before the registry exists: hand
    /// [`ClusterChannels::upstream`] to `Channels::start_following`, then call
    /// [`ClusterChannels::run`] with the registry.
    pub(crate) fn new(
        bus: Bus,
        coordination: Arc<dyn Coordination>,
        live: LiveNodes,
        ttl: Duration,
    ) -> ClusterChannels {
        ClusterChannels(Arc::new(Shared {
            bus,
            coordination,
            live,
            ttl,
            registry: OnceLock::new(),
            seats: Mutex::default(),
            pending: Mutex::default(),
            guessers: Mutex::default(),
            next_request: AtomicU64::new(1),
        }))
    }

    /// How the following TV channel `channel` reaches its owner.
    pub(crate) fn upstream(&self, channel: &str) -> Arc<dyn Upstream> {
        Arc::new(ChannelUpstream {
            channel: channel.to_owned(),
            shared: Arc::downgrade(&self.0),
        })
    }

    /// Starts following and claiming the TV channels of `registry` until `shutdown`. While
    /// `lease_lost` says the node's lease is not held, it owns nothing and claims nothing.
    pub(crate) async fn run(
        &self,
        registry: Registry,
        lease_lost: watch::Receiver<bool>,
        shutdown: Shutdown,
    ) {
        let names_ = registry.tv_names();
        if self.0.registry.set(registry).is_err() {
            return; // Already running.
        }
        let bus = &self.0.bus;
        let traffic = names::node_channels(bus.node());
        let listener = self.clone();
        let patterns = [traffic.as_str(), &names::tv_channel("*")];
        bus.listen(&patterns, MAILBOX, shutdown.clone(), move |event| {
            listener.heard(event);
        });
        bus.subscribe(&traffic).await;
        for name in &names_ {
            bus.subscribe(&names::tv_channel(name)).await;
        }
        tokio::spawn(self.clone().watch_owners(names_, lease_lost, shutdown));
    }

    /// Whether this node owns channel `name` now.
    pub(crate) fn owns(&self, name: &str) -> bool {
        lock(&self.0.seats)
            .get(name)
            .is_some_and(|seat| seat.mine.is_some())
    }

    fn handle(&self, name: &str) -> Option<ChannelHandle> {
        self.0.registry.get()?.get(name)
    }

    fn send_to(&self, node: &NodeRef, traffic: &ChannelTraffic) {
        send_to(&self.0.bus, node, traffic);
    }

    /// Every third of a lease: claims each channel nobody alive owns, and keeps track of who
    /// owns the others.
    async fn watch_owners(
        self,
        channels: Vec<String>,
        mut lease_lost: watch::Receiver<bool>,
        mut shutdown: Shutdown,
    ) {
        let mut every = tokio::time::interval(self.0.ttl / 3);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = every.tick() => {}
                changed = lease_lost.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
            }
            if *lease_lost.borrow_and_update() {
                // Another node may own our channels any moment: stop revealing now.
                let owned: Vec<(String, u64)> = lock(&self.0.seats)
                    .iter()
                    .filter_map(|(name, seat)| Some((name.clone(), seat.mine?)))
                    .collect();
                for (name, epoch) in owned {
                    self.lost(&name, epoch).await;
                }
                continue;
            }
            for name in &channels {
                if !self.owns(name) {
                    self.look_at(name).await;
                }
            }
            self.forget_crowds_of_the_dead();
        }
    }

    async fn look_at(&self, name: &str) {
        let me = self.0.bus.node().clone();
        let coordination = &self.0.coordination;
        let owned = match coordination.owner_of(KIND.into(), name.into()).await {
            Ok(owned) => owned,
            Err(err) => return tracing::warn!(channel = name, %err, "channel owner not read"),
        };
        match owned {
            Some(owned) if owned.alive && owned.owner != me => {
                let changed = {
                    let mut seats = lock(&self.0.seats);
                    let seat = seats.entry(name.to_owned()).or_default();
                    let changed = seat.owner.as_ref() != Some(&owned.owner);
                    seat.owner = Some(owned.owner.clone());
                    changed
                };
                if changed {
                    // A new owner (or the first one this node hears of): show its picture.
                    self.send_to(
                        &owned.owner,
                        &ChannelTraffic::SnapshotPlease {
                            channel: name.to_owned(),
                            from: me,
                        },
                    );
                }
            }
            _ => match coordination.claim_owned(KIND.into(), name.into(), me).await {
                Ok(Some(claimed)) => self.take_over(name, claimed.epoch, claimed.state).await,
                Ok(None) => {} // Another node won; the next look finds it.
                Err(err) => tracing::warn!(channel = name, %err, "channel not claimed"),
            },
        }
    }

    /// Runs channel `name` here under `epoch`, from the schedule `state` its last owner saved.
    async fn take_over(&self, name: &str, epoch: u64, state: Option<String>) {
        let Some(handle) = self.handle(name) else {
            return;
        };
        let registry = self.0.registry.get().expect("running");
        let saved = state.and_then(|json| match SavedChannel::from_json(&json) {
            Ok(saved) => Some(saved),
            Err(err) => {
                tracing::error!(channel = name, %err, "saved channel state ignored");
                None
            }
        });
        // The old owner sent what was due before it died, and it died at most about a lease
        // before its lease ran out, which was before now: what fell due in the last two leases
        // goes out again (every node drops the versions it has) or for the first time, so no
        // watcher misses an event.
        let shown_until = Instant::now()
            .checked_sub(self.0.ttl * 2)
            .unwrap_or_else(Instant::now);
        let clock = registry.clock();
        let resume = saved
            .as_ref()
            .and_then(|saved| Resume::from_saved(saved, shown_until, &clock).ok());
        // The schedule loaded is durable already: its game may start without another save.
        let (durable_tx, durable) = watch::channel(saved.as_ref().map_or(0, |s| s.start_v));
        let (latest, latest_rx) = watch::channel(None);
        {
            let mut seats = lock(&self.0.seats);
            let seat = seats.entry(name.to_owned()).or_default();
            seat.mine = Some(epoch);
            seat.crowds_from.clear();
            seat.owner = Some(self.0.bus.node().clone());
            seat.epoch_heard = seat.epoch_heard.max(epoch);
        }
        if epoch == 1 {
            // The channel's first owner ever: nothing was taken from anyone.
            tracing::info!(channel = name, "channel started here");
        } else {
            crate::ops::telemetry::took_over("channel");
            tracing::info!(channel = name, epoch, "channel taken over");
        }
        tokio::spawn(save(
            self.clone(),
            name.to_owned(),
            epoch,
            latest_rx,
            durable_tx,
        ));
        let downstream = Arc::new(Relay {
            bus: self.0.bus.clone(),
            channel: names::tv_channel(name),
            epoch,
        });
        let saver = Saver { latest, durable };
        if handle.promote(resume, saver, downstream).await.is_err() {
            lock(&self.0.seats).entry(name.to_owned()).or_default().mine = None;
        }
    }

    /// The watchers of nodes that left the live nodes no longer count on the channels here.
    fn forget_crowds_of_the_dead(&self) {
        let alive = (self.0.live)();
        let gone: Vec<(String, NodeRef)> = lock(&self.0.seats)
            .iter_mut()
            .flat_map(|(name, seat)| {
                let gone: Vec<NodeRef> = seat
                    .crowds_from
                    .iter()
                    .filter(|node| !alive.contains(*node))
                    .cloned()
                    .collect();
                seat.crowds_from.retain(|node| alive.contains(node));
                gone.into_iter().map(|node| (name.clone(), node))
            })
            .collect();
        for (name, node) in gone {
            if let Some(handle) = self.handle(&name) {
                handle.crowd_elsewhere(node.to_string(), 0);
            }
        }
    }

    /// This node no longer owns `name` under `epoch`: follow whoever does.
    async fn lost(&self, name: &str, epoch: u64) {
        {
            let mut seats = lock(&self.0.seats);
            let seat = seats.entry(name.to_owned()).or_default();
            if seat.mine != Some(epoch) {
                return;
            }
            seat.mine = None;
            seat.owner = None;
            seat.crowds_from.clear();
        }
        tracing::warn!(channel = name, epoch, "channel taken over by another node");
        if let Some(handle) = self.handle(name) {
            let _ = handle.demote(self.upstream(name)).await;
        }
    }

    /// Handles what arrives on this node's channel traffic and on the channels' relays.
    fn heard(&self, event: BusEvent) {
        match event {
            BusEvent::Message { channel, payload } => {
                match channel.strip_prefix(&names::tv_channel("")) {
                    Some(name) => self.relayed(name, &payload),
                    None => match postcard::from_bytes(&payload) {
                        Ok(traffic) => self.traffic(traffic),
                        Err(err) => tracing::warn!(%err, "undecodable channel traffic"),
                    },
                }
            }
            BusEvent::Resync => {
                // Relays may have been lost: every follower asks its owner again.
                let seats: Vec<(String, NodeRef)> = lock(&self.0.seats)
                    .iter()
                    .filter(|(_, seat)| seat.mine.is_none())
                    .filter_map(|(name, seat)| Some((name.clone(), seat.owner.clone()?)))
                    .collect();
                for (channel, owner) in seats {
                    let from = self.0.bus.node().clone();
                    self.send_to(&owner, &ChannelTraffic::SnapshotPlease { channel, from });
                }
            }
        }
    }

    /// An event the owner of channel `name` published.
    fn relayed(&self, name: &str, payload: &[u8]) {
        let Ok(relay) = postcard::from_bytes::<ChannelRelay>(payload) else {
            return tracing::warn!(channel = name, "undecodable channel relay");
        };
        let epoch = match &relay {
            ChannelRelay::Event { epoch, .. } | ChannelRelay::Crowd { epoch, .. } => *epoch,
        };
        {
            let mut seats = lock(&self.0.seats);
            let seat = seats.entry(name.to_owned()).or_default();
            if let Some(mine) = seat.mine {
                if epoch > mine {
                    // A newer owner publishes: this node's ownership has ended.
                    let (channels, name) = (self.clone(), name.to_owned());
                    tokio::spawn(async move { channels.lost(&name, mine).await });
                }
                return; // Our own event coming back, or a stale owner's.
            }
            if epoch < seat.epoch_heard {
                return; // An older owner's.
            }
            seat.epoch_heard = epoch;
        }
        let message = match relay {
            ChannelRelay::Event { message, .. } => message,
            ChannelRelay::Crowd { watchers, .. } => {
                if let Some(handle) = self.handle(name) {
                    handle.crowd_total(watchers);
                }
                return;
            }
        };
        let Ok(ServerMessage::ChannelEvent(event)) = postcard::from_bytes(&message) else {
            return tracing::warn!(channel = name, "a relay that is not a channel event");
        };
        if let Some(handle) = self.handle(name)
            && !handle.relayed(event)
        {
            self.upstream(name).resync();
        }
    }

    fn traffic(&self, traffic: ChannelTraffic) {
        match traffic {
            ChannelTraffic::Predict {
                channel,
                from,
                request,
                conn,
                client,
                name,
                ply,
                from_square,
                to_square,
            } => {
                let handle = self.handle(&channel).filter(|_| self.owns(&channel));
                let Some(handle) = handle else {
                    let refusal = moved(&channel);
                    let verdict = ChannelTraffic::Verdict {
                        request,
                        refusal: Some(refusal),
                    };
                    return self.send_to(&from, &verdict);
                };
                let guess = Guess {
                    outbox: bridge(self.0.bus.clone(), from.clone(), conn),
                    client,
                    name,
                    ply,
                    from: from_square,
                    to: to_square,
                };
                let bus = self.0.bus.clone();
                handle.predict(
                    guess,
                    Box::new(move |verdict| {
                        let refusal = verdict.err();
                        send_to(&bus, &from, &ChannelTraffic::Verdict { request, refusal });
                    }),
                );
            }
            ChannelTraffic::Verdict { request, refusal } => {
                let answer = lock(&self.0.pending).remove(&request);
                if let Some(answer) = answer {
                    answer(match refusal {
                        None => Ok(()),
                        Some(refusal) => Err(refusal),
                    });
                }
            }
            ChannelTraffic::Deliver { conn, message } => {
                let outbox = lock(&self.0.guessers).get(&conn).cloned();
                if let (Some(outbox), Ok(message)) = (outbox, postcard::from_bytes(&message)) {
                    outbox.send(&message);
                }
            }
            ChannelTraffic::SnapshotPlease { channel, from } => {
                let Some(handle) = self.handle(&channel).filter(|_| self.owns(&channel)) else {
                    return;
                };
                let bus = self.0.bus.clone();
                tokio::spawn(async move {
                    if let Ok(snapshot) = handle.snapshot().await {
                        let snapshot = postcard::to_allocvec(&snapshot).expect("encodes");
                        send_to(&bus, &from, &ChannelTraffic::Snapshot { channel, snapshot });
                    }
                });
            }
            ChannelTraffic::Crowd {
                channel,
                from,
                watchers,
            } => {
                if let Some(handle) = self.handle(&channel).filter(|_| self.owns(&channel)) {
                    if let Some(seat) = lock(&self.0.seats).get_mut(&channel) {
                        seat.crowds_from.insert(from.clone());
                    }
                    handle.crowd_elsewhere(from.to_string(), watchers);
                }
            }
            ChannelTraffic::Snapshot { channel, snapshot } => {
                let snapshot: Result<ChannelSnapshot, _> = postcard::from_bytes(&snapshot);
                if let (Ok(snapshot), Some(handle)) = (snapshot, self.handle(&channel))
                    && !self.owns(&channel)
                {
                    handle.synced(snapshot);
                }
            }
        }
    }
}

/// Saves each schedule the owning channel plans, under `epoch`. A save that fails while
/// another node owns the channel makes this node follow it.
async fn save(
    channels: ClusterChannels,
    name: String,
    epoch: u64,
    mut latest: watch::Receiver<Option<SavedChannel>>,
    durable: watch::Sender<u64>,
) {
    let coordination = channels.0.coordination.clone();
    let me = channels.0.bus.node().clone();
    // Ends when the channel drops its saver (it was demoted or stopped).
    while latest.changed().await.is_ok() {
        let Some(saved) = latest.borrow_and_update().clone() else {
            continue;
        };
        loop {
            let result = coordination
                .save_owned_state(KIND.into(), name.clone(), epoch, saved.to_json())
                .await;
            let Err(err) = result else {
                durable.send_replace(saved.start_v);
                break;
            };
            let still_mine = coordination
                .owner_of(KIND.into(), name.clone())
                .await
                .ok()
                .flatten()
                .is_none_or(|owned| owned.owner == me && owned.epoch == epoch);
            if !still_mine {
                return channels.lost(&name, epoch).await;
            }
            tracing::warn!(channel = %name, %err, "channel schedule not saved; trying again");
            tokio::time::sleep(Duration::from_millis(500)).await;
            if latest.has_changed().unwrap_or(true) {
                break; // A newer schedule replaces this one.
            }
        }
    }
}

/// Starts this node's channels in a cluster: the TV channels follow their owners and are
/// claimed when nobody alive owns them (the node's lease held), on-demand games run here.
pub(crate) async fn start(
    config: ChannelsConfig,
    storage: &Storage,
    node: &Node,
    shutdown: &Shutdown,
    tasks: &Tasks,
) -> Result<Channels, StorageError> {
    let lease = node.lease.clone();
    let live: LiveNodes = Arc::new(move || lease.live_nodes());
    let tv = ClusterChannels::new(node.bus.clone(), node.coordination.clone(), live, node.ttl);
    let channels = Channels::start_following(config, storage, shutdown.clone(), tasks, &|name| {
        tv.upstream(name)
    })
    .await?;
    tv.run(
        channels.registry().clone(),
        node.lease.lost(),
        shutdown.clone(),
    )
    .await;
    Ok(channels)
}

mod link;
#[cfg(test)]
mod tests;
mod wire;

use link::{ChannelUpstream, Relay, bridge, moved, send_to};
pub(crate) use wire::{ChannelRelay, ChannelTraffic};
