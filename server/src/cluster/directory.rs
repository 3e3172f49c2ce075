//! Where matches are when several nodes serve them: the cluster's [`Directory`].
//!
//! A lookup finds, in this order: the match's actor on this node; else this node's proxy of
//! it; else PostgreSQL says who owns it. A live other node → a proxy here that forwards to
//! it. This node, nobody, or a node whose lease ran out → this node claims the match (the
//! epoch grows by one, fencing any late write of the old owner), rebuilds it from its stored
//! events exactly as recovery does, starts its actor and says so on `bc:match:{id}`.
//! Connections never learn which of these they got: the handle takes the same commands.
//!
//! One task per node (the asker) reads the replies addressed to this node and every match
//! channel it follows, from one bus mailbox, and hands each to its match's proxy: one mailbox
//! keeps the owner's order between a reply and the events around it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use boardcast_protocol::{ErrorArgs, ErrorCode, MatchEventMsg, MatchSummary, Side};

use super::bus::{Bus, BusEvent, names};
use super::inbox::{Claim, claim_and_start};
use super::lease::Lease;
use super::lobby::SharedLobby;
use super::proxy::{self, FromCluster, Link, ProxyInbox, TakeOver};
use super::remote::BusOwning;
use super::wire::{MatchRelay, ToAsker, ToOwner};
use crate::accounts::secret;
use crate::matches::directory::{Created, Directory, Found};
use crate::matches::local::{Hub, LobbyWatch, rebuild};
use crate::matches::{MatchHandle, Player, Setup};
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::refusal::Refusal;
use crate::room::outbox::Outbox;
use crate::storage::StorageError;
use crate::storage::coordination::{Coordination, MatchOwner, NodeRef};

/// What the cluster may queue for the asker task before it owes its proxies a resync.
const ASKER_MAILBOX: usize = 8192;

/// The directory of a node in a cluster; see the module docs.
pub(crate) struct ClusterDirectory {
    /// The matches this node runs.
    hub: Hub,
    /// How the matches this node creates and claims are owned (their actors talk to this
    /// directory).
    owning: Arc<BusOwning>,
    me: NodeRef,
    bus: Bus,
    lease: Lease,
    coordination: Arc<dyn Coordination>,
    /// Seeks and live matches of every node.
    lobby: SharedLobby,
    /// The proxies of matches other nodes own, by match id.
    proxies: Mutex<HashMap<String, ProxyEntry>>,
    /// Tells a stopping proxy's entry from a newer one of the same match.
    generations: AtomicU64,
    shutdown: Shutdown,
    tasks: Tasks,
    /// Itself, for the proxies it starts (they reach the cluster through it).
    this: Weak<ClusterDirectory>,
}

struct ProxyEntry {
    handle: MatchHandle,
    inbox: ProxyInbox,
    generation: u64,
}

impl ClusterDirectory {
    /// The directory of node `me`, with its asker task running on `owning`'s bus.
    pub(crate) async fn start(
        hub: Hub,
        owning: Arc<BusOwning>,
        lease: Lease,
        coordination: Arc<dyn Coordination>,
        lobby: SharedLobby,
        shutdown: Shutdown,
        tasks: Tasks,
    ) -> Arc<ClusterDirectory> {
        let me = lease.me();
        let bus = owning.bus().clone();
        let directory = Arc::new_cyclic(|this| ClusterDirectory {
            hub,
            owning,
            me: me.clone(),
            bus: bus.clone(),
            lease,
            coordination,
            lobby,
            proxies: Mutex::default(),
            generations: AtomicU64::new(0),
            shutdown: shutdown.clone(),
            tasks,
            this: this.clone(),
        });
        // The hub's lobby lines reach the other nodes as they change: the hub does not know
        // this directory wraps it, it only says what changed.
        tokio::spawn(share_lobby(
            directory.hub.watch_lobby(),
            directory.lobby.clone(),
            shutdown.clone(),
        ));
        let replies = names::node_replies(&me);
        let asker = Arc::downgrade(&directory);
        let patterns = [replies.as_str(), &format!("{}*", names::match_events(""))];
        bus.listen(&patterns, ASKER_MAILBOX, shutdown, move |event| {
            if let Some(directory) = asker.upgrade() {
                directory.dispatch(event);
            }
        });
        bus.subscribe(&replies).await;
        directory
    }

    /// This directory, as the actors of the matches it starts talk to it.
    fn itself(&self) -> Result<Arc<dyn Directory>, Refusal> {
        match self.this.upgrade() {
            Some(this) => Ok(this),
            None => Err(shutting_down()),
        }
    }

    fn proxies(&self) -> MutexGuard<'_, HashMap<String, ProxyEntry>> {
        // Plain maps: a panic elsewhere leaves them consistent.
        self.proxies
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn proxy(&self, id: &str) -> Option<MatchHandle> {
        self.proxies()
            .get(id)
            .filter(|entry| !entry.handle.is_stopped())
            .map(|entry| entry.handle.clone())
    }

    /// The proxy of match `id`, owned by `owner`: this node's, or a new one that hears the
    /// match's channel before it forwards anything.
    async fn proxy_for(&self, id: &str, owner: NodeRef, epoch: u64) -> Found {
        let Some(this) = self.this.upgrade() else {
            return Err(shutting_down());
        };
        let Some(guard) = self.tasks.guard() else {
            return Err(shutting_down());
        };
        let generation = self.generations.fetch_add(1, Ordering::Relaxed);
        let handle = {
            let mut proxies = self.proxies();
            if let Some(entry) = proxies.get(id).filter(|e| !e.handle.is_stopped()) {
                return Ok(Some(entry.handle.clone()));
            }
            let stopped = {
                let directory = Arc::downgrade(&this);
                let id = id.to_owned();
                Box::new(move || {
                    if let Some(directory) = directory.upgrade() {
                        directory.proxy_stopped(&id, generation);
                    }
                })
            };
            let (handle, inbox) = proxy::spawn(
                id.to_owned(),
                owner,
                epoch,
                this,
                self.shutdown.clone(),
                guard,
                stopped,
            );
            proxies.insert(
                id.to_owned(),
                ProxyEntry {
                    handle: handle.clone(),
                    inbox,
                    generation,
                },
            );
            handle
        };
        self.bus.subscribe(&names::match_events(id)).await;
        Ok(Some(handle))
    }

    /// Forgets the proxy of `id` of `generation` once it has stopped.
    fn proxy_stopped(&self, id: &str, generation: u64) {
        let mut proxies = self.proxies();
        if proxies.get(id).is_some_and(|e| e.generation == generation) {
            proxies.remove(id);
        }
        drop(proxies);
        self.bus.unsubscribe(&names::match_events(id));
    }

    /// Claims match `id` for this node if nobody alive owns it, rebuilds it from its stored
    /// events, starts its actor, and tells the other nodes ([`claim_and_start`]). A proxy of
    /// it here hands its followers to the actor.
    pub(crate) async fn take_over(&self, id: &str) -> TakeOver {
        // `claim_and_start` takes the hub's turn for this match, returns it if it already runs
        // here, and claims nothing while this node is unsure of its lease.
        let Ok(itself) = self.itself() else {
            return TakeOver::Failed;
        };
        let claim = claim_and_start(
            self.coordination.as_ref(),
            &self.hub,
            &self.owning,
            itself,
            id,
        );
        match claim.await {
            Ok(Claim::Started(handle)) => {
                if let Some(entry) = self.proxies().remove(id) {
                    entry.inbox.deliver(FromCluster::HandOver(handle.clone()));
                }
                TakeOver::Here(handle)
            }
            Ok(Claim::OwnedBy(_)) => self.owned_elsewhere(id).await,
            Ok(Claim::Missing) => TakeOver::Gone,
            Err(refusal) => {
                tracing::warn!(match_id = %id, %refusal, "cannot take a match over");
                TakeOver::Failed
            }
        }
    }

    /// Who owns `id` after a lost claim.
    async fn owned_elsewhere(&self, id: &str) -> TakeOver {
        match self.coordination.match_owner(id.to_owned()).await {
            Ok(None) => TakeOver::Gone,
            Ok(Some(MatchOwner {
                owner: Some(owner),
                epoch,
                alive: true,
                ..
            })) => TakeOver::Elsewhere(owner, epoch),
            Ok(Some(_)) | Err(_) => TakeOver::Failed,
        }
    }

    /// Match `id` wherever it is (see the module docs).
    async fn locate(&self, id: &str) -> Found {
        if let Some(handle) = self.running(id) {
            return Ok(Some(handle));
        }
        let owner = self
            .coordination
            .match_owner(id.to_owned())
            .await
            .map_err(|err| lookup_failed(&err))?;
        match owner {
            None => Ok(None),
            Some(MatchOwner {
                owner: Some(owner),
                epoch,
                alive: true,
                ..
            }) if owner.node != self.me.node => self.proxy_for(id, owner, epoch).await,
            // Right after an outage of PostgreSQL its owner may be about to claim it back
            // (a suspended match goes on in place): the client tries again shortly.
            Some(MatchOwner {
                owner: Some(owner), ..
            }) if owner.node != self.me.node && !self.lease.settled() => Err(Refusal::new(
                ErrorCode::StorageUnavailable,
                "the match is changing servers; try again shortly",
            )
            .with(ErrorArgs::new("changing_servers"))),
            Some(_) => match self.take_over(id).await {
                TakeOver::Here(handle) => Ok(Some(handle)),
                TakeOver::Elsewhere(owner, epoch) => self.proxy_for(id, owner, epoch).await,
                TakeOver::Gone => Ok(None),
                TakeOver::Failed | TakeOver::Later => Err(Refusal::new(
                    ErrorCode::StorageUnavailable,
                    "the match is changing servers; try again shortly",
                )
                .with(ErrorArgs::new("changing_servers"))),
            },
        }
    }

    /// Hands what arrived for this node's proxies to the proxy it is for.
    fn dispatch(&self, event: BusEvent) {
        match event {
            BusEvent::Resync => {
                for entry in self.proxies().values() {
                    entry.inbox.deliver(FromCluster::Resync);
                }
            }
            BusEvent::Message { channel, payload } => {
                let (id, input) = match channel.strip_prefix(&names::match_events("")) {
                    Some(id) => match postcard::from_bytes::<MatchRelay>(&payload) {
                        Ok(relay) => (id.to_owned(), FromCluster::Relay(relay)),
                        Err(err) => {
                            return tracing::warn!(%channel, %err, "a relay does not decode");
                        }
                    },
                    None => match postcard::from_bytes::<ToAsker>(&payload) {
                        Ok(reply) => (reply_match(&reply).to_owned(), FromCluster::Reply(reply)),
                        Err(err) => {
                            return tracing::warn!(%channel, %err, "a reply does not decode");
                        }
                    },
                };
                if let Some(entry) = self.proxies().get(&id) {
                    entry.inbox.deliver(input);
                }
            }
        }
    }
}

/// Shares every lobby line of this node's hub as it changes, until shutdown.
async fn share_lobby(watch: LobbyWatch, lobby: SharedLobby, mut shutdown: Shutdown) {
    loop {
        let changed = tokio::select! {
            _ = shutdown.recv() => return,
            changed = watch.changed() => changed,
        };
        for (id, line) in changed {
            match line {
                Some((summary, public)) => lobby.update(summary, public),
                None => lobby.remove(&id),
            }
        }
    }
}

fn reply_match(reply: &ToAsker) -> &str {
    match reply {
        ToAsker::Frame { match_id, .. } | ToAsker::NotOwner { match_id, .. } => match_id,
    }
}

fn shutting_down() -> Refusal {
    Refusal::new(ErrorCode::ShuttingDown, "the server is shutting down")
        .with(ErrorArgs::new("shutting_down"))
}

fn lookup_failed(err: &StorageError) -> Refusal {
    tracing::warn!(%err, "cannot look a match up");
    Refusal::storage(err, "cannot look the match up")
}

#[async_trait::async_trait]
impl Link for ClusterDirectory {
    fn me(&self) -> &NodeRef {
        &self.me
    }

    fn send(&self, owner: &NodeRef, message: ToOwner) -> bool {
        match postcard::to_allocvec(&message) {
            Ok(payload) => self
                .bus
                .publish(&names::node_matches(owner), payload)
                .is_ok(),
            Err(_) => false,
        }
    }

    fn is_alive(&self, node: &NodeRef) -> bool {
        self.lease.live_nodes().contains(node)
    }

    async fn take_over(&self, id: &str) -> TakeOver {
        ClusterDirectory::take_over(self, id).await
    }

    async fn take_over_orphan(&self, id: &str) -> TakeOver {
        // Right after an outage the orphan's owner may be about to claim it back.
        if !self.lease.settled() {
            return TakeOver::Later;
        }
        let live = self.lease.live_nodes();
        match super::spread::chosen(id, &live) {
            Some(chosen) if chosen.node != self.me.node => TakeOver::Later,
            _ => ClusterDirectory::take_over(self, id).await,
        }
    }

    async fn owner(&self, id: &str) -> Option<(Option<NodeRef>, u64)> {
        let owner = self.coordination.match_owner(id.to_owned()).await.ok()??;
        let alive = owner.owner.filter(|_| owner.alive);
        Some((alive, owner.epoch))
    }

    async fn events_after(&self, id: &str, v: u64) -> Option<Vec<MatchEventMsg>> {
        // A stored move leaves out what follows from the position (its FEN, the legal
        // moves), so the events are rebuilt as recovery does, then cut after `v`.
        let stored = self.coordination.load_match(id.to_owned()).await.ok()??;
        let now = tokio::time::Instant::now().into_std();
        let (_, records) = rebuild(&stored, now, None).ok()?;
        Some(
            records
                .into_iter()
                .zip(1u64..)
                .filter(|(_, at)| *at > v)
                .map(|(record, at)| MatchEventMsg {
                    match_id: id.to_owned(),
                    v: at,
                    event: record.event,
                })
                .collect(),
        )
    }
}

#[async_trait::async_trait]
impl Directory for ClusterDirectory {
    async fn find(&self, id: &str) -> Found {
        self.locate(id).await
    }

    async fn find_by_code(&self, code: &str) -> Found {
        if let Some(handle) = self.hub.find_by_code(code).await? {
            return Ok(Some(handle));
        }
        let id = self
            .coordination
            .match_id_by_code(code.to_ascii_uppercase())
            .await
            .map_err(|err| lookup_failed(&err))?;
        match id {
            Some(id) => self.locate(&id).await,
            None => Ok(None),
        }
    }

    async fn find_by_token(&self, token: &str) -> Found {
        if let Some(handle) = self.hub.running_by_token(token) {
            return Ok(Some(handle));
        }
        let id = self
            .coordination
            .match_id_by_token_hash(secret::hash(token))
            .await
            .map_err(|err| lookup_failed(&err))?;
        match id {
            Some(id) => self.locate(&id).await,
            None => Ok(None),
        }
    }

    fn running(&self, id: &str) -> Option<MatchHandle> {
        // An actor that stopped because the match moved is not running, even before its
        // hand-over has taken it out of the hub.
        let here = self.hub.running(id).filter(|handle| !handle.is_stopped());
        here.or_else(|| self.proxy(id))
    }

    async fn running_anywhere(&self, id: &str) -> Option<MatchHandle> {
        if let Some(handle) = self.running(id) {
            return Some(handle);
        }
        match self.coordination.match_owner(id.to_owned()).await.ok()?? {
            MatchOwner {
                owner: Some(owner),
                epoch,
                alive: true,
                ..
            } if owner.node != self.me.node => {
                self.proxy_for(id, owner, epoch).await.ok().flatten()
            }
            // Owned by nobody alive, or by this node which does not run it: nothing is
            // claimed for a lookup that only hands out a seat.
            _ => None,
        }
    }

    fn moved(&self, id: &str, followers: Vec<Outbox>) {
        // The hub forgets the stopped actor and closes its connections (1012): they come
        // back, and find the match wherever it is now. The shared lobby learns it from the
        // hub's lobby watch, as it learns every change of a line.
        self.hub.moved(id, followers);
    }

    fn is_public(&self, id: &str) -> bool {
        if self.hub.is_public(id) {
            return true;
        }
        let (seeks, live) = self.lobby();
        seeks.iter().chain(&live).any(|line| line.match_id == id)
    }

    fn lobby(&self) -> (Vec<MatchSummary>, Vec<MatchSummary>) {
        self.lobby.merge(self.hub.lobby())
    }

    fn register_token_hash(&self, token_hash: &str, match_id: &str) {
        self.hub.register_token_hash(token_hash, match_id);
    }

    fn update_summary(&self, summary: MatchSummary, public: bool) {
        self.hub.update_summary(summary, public);
    }

    fn remove(&self, id: &str) {
        self.hub.remove(id);
    }

    async fn create(
        &self,
        setup: Setup,
        players: Vec<(Side, Player)>,
        arrivals_follow: bool,
    ) -> Result<Created, Refusal> {
        let itself = self.itself()?;
        self.owning
            .create(&self.hub, itself, setup, &players, arrivals_follow)
            .await
    }
}
