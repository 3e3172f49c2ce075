//! This node's lease: the row in `nodes` that says this run of the node is alive, renewed every
//! third of its time to live.
//!
//! PostgreSQL judges a lease by its own clock (`lease_until > now()`), and other nodes claim
//! the matches of a node whose lease ran out. So this node must stop believing in its lease
//! *before* PostgreSQL does: [`Lease::is_held`] turns false at `renew sent + ttl − margin`,
//! measured on the local monotonic clock from the moment *before* the renew was sent (the
//! database's `now()` for that renew can only be later). From then on, owners stop writing
//! ([`Lease::lost`]); the fencing epochs refuse whatever an owner still sends too late anyway.
//! When renewing works again, the lease is held again and the node may claim again — but
//! what it owned before the lapse may be another node's by now: each match asks
//! [`Lease::held_unbroken`], which stays false for good once the lease lapsed after the match
//! started here (a node frozen past its lease may renew before its timer says it lapsed, and
//! then answered moves from its stale state; issue 28, item 6).
//!
//! A lease held again after it was lost is not *settled* ([`Lease::settled`]) for one time
//! to live: an outage of PostgreSQL lapses every node's lease at once, and the first node
//! back would otherwise sweep the others' matches as orphans before they renew and claim
//! their suspended matches back in place (issue 28, item 8). A node really gone stays an
//! orphan's owner past that wait, and is swept then.
//!
//! A renew that finds the row taken by a newer incarnation of the same node id (the same
//! `--node-id` started elsewhere) ends this run: the lease logs it and fires the node's
//! shutdown ([`Lease::shutdown`]), and the process exits non-zero with [`Displaced`] as its
//! reason ([`Lease::displaced`]), so a supervisor sees the run end and why.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::watch;
use tokio::time::Instant;

use crate::matches::ownership::LeaseHeld;
use crate::ops::shutdown::{self, Shutdown, Trigger};
use crate::storage::coordination::{Coordination, NodeRef};
use crate::storage::{StorageError, Unavailable};

/// The share of the time to live this node gives up at the end of each lease: time for its
/// owners to stop, and for the two clocks to run at slightly different rates.
const MARGIN_SHARE: u32 = 5;

/// Why a node's run ended on its own: a newer run of its node id took the lease row. The
/// server returns it as its error, so the process exits non-zero with this reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "node {node} was displaced: another run of this node id took its lease (the same --node-id \
     started elsewhere?); this run stops"
)]
pub(crate) struct Displaced {
    pub node: NodeRef,
}

/// A node's lease, renewed in the background; cheap to clone.
#[derive(Debug, Clone)]
pub(crate) struct Lease {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    me: NodeRef,
    /// Until when this node believes its lease (local clock); in the past once lost.
    held_until: Mutex<Instant>,
    /// `true` while the lease is not held (see [`Lease::lost`]).
    lost: watch::Sender<bool>,
    /// The live nodes as of the last renew, this one included.
    live: watch::Sender<Arc<HashSet<NodeRef>>>,
    /// Fires when the node must stop: the server's shutdown, or a newer run of this node id.
    shutdown: Shutdown,
    /// Set when a newer run of this node id took the row (before `shutdown` fires).
    displaced: AtomicBool,
    /// How many times the lease ran out on this node's clock.
    lapses: AtomicU64,
    /// Since when the lease has been held again after it was last lost (local clock).
    held_since: Mutex<Instant>,
    /// The time to live of the lease.
    ttl: Duration,
}

impl Lease {
    /// Registers a new incarnation of `node_id` with a lease of `ttl` and keeps renewing it
    /// every `ttl / 3` until `shutdown` fires (or a newer run of the node id takes the row).
    pub(crate) async fn start(
        coordination: Arc<dyn Coordination>,
        node_id: String,
        ttl: Duration,
        shutdown: Shutdown,
    ) -> Result<(Lease, NodeRef), StorageError> {
        let sent = Instant::now();
        let me = coordination.register_node(node_id, millis(ttl)).await?;
        let live = coordination.live_nodes().await?;
        let (trigger, node_shutdown) = shutdown::channel();
        let lease = Lease {
            inner: Arc::new(Inner {
                me: me.clone(),
                held_until: Mutex::new(sent + held_for(ttl)),
                lost: watch::Sender::new(false),
                live: watch::Sender::new(Arc::new(live.into_iter().collect())),
                shutdown: node_shutdown,
                displaced: AtomicBool::new(false),
                lapses: AtomicU64::new(0),
                // A new run is settled at once: no outage of its own to wait out.
                held_since: Mutex::new(sent.checked_sub(ttl).unwrap_or(sent)),
                ttl,
            }),
        };
        tracing::info!(node = %me, ttl_ms = millis(ttl), "lease taken");
        tokio::spawn(renew_loop(
            lease.clone(),
            coordination,
            ttl,
            shutdown,
            trigger,
        ));
        Ok((lease, me))
    }

    /// This run of this node.
    pub(crate) fn me(&self) -> NodeRef {
        self.inner.me.clone()
    }

    /// Whether this node may act as the owner of what it owns now: false from `last renew
    /// sent + ttl − margin` on, until a renew succeeds again.
    pub(crate) fn is_held(&self) -> bool {
        Instant::now() < self.held_until()
    }

    /// For one owner (a match) starting now: whether the lease has been held ever since,
    /// without a lapse. Once it has lapsed this stays false, even when the lease is held again:
    /// another node may have claimed the match in between, so the owner must stop rather than
    /// answer from what it remembers.
    pub(crate) fn held_unbroken(&self) -> LeaseHeld {
        let lease = self.clone();
        let lapses = self.lapses();
        Arc::new(move || lease.is_held() && lease.lapses() == lapses)
    }

    /// Whether the lease is held and has been for a time to live since it was last lost: only
    /// then does this node take other nodes' orphaned matches, so that the nodes whose leases
    /// lapsed in the same outage have renewed and claimed their own back first.
    pub(crate) fn settled(&self) -> bool {
        let since = *self
            .inner
            .held_since
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        self.is_held() && Instant::now() >= since + self.inner.ttl
    }

    fn lapses(&self) -> u64 {
        self.inner.lapses.load(Ordering::Acquire)
    }

    fn lapsed(&self) {
        self.inner.lapses.fetch_add(1, Ordering::AcqRel);
        crate::ops::telemetry::lease_lost();
    }

    /// `true` while the lease is not held: owners drop what they own when it turns true; when
    /// renewing works again it turns false, and the node may claim again.
    pub(crate) fn lost(&self) -> watch::Receiver<bool> {
        self.inner.lost.subscribe()
    }

    /// The nodes alive as of the last renew (this one included while it holds its lease).
    pub(crate) fn live_nodes(&self) -> Arc<HashSet<NodeRef>> {
        self.inner.live.borrow().clone()
    }

    /// The live nodes, notified at every change (a node joined or left).
    pub(crate) fn live_changes(&self) -> watch::Receiver<Arc<HashSet<NodeRef>>> {
        self.inner.live.subscribe()
    }

    /// Fires when this node must stop: when the server's shutdown fires, or when a newer run
    /// of the same node id took over its row. The server runs everything under it.
    pub(crate) fn shutdown(&self) -> Shutdown {
        self.inner.shutdown.clone()
    }

    /// Why this run must end on its own, once a newer run of its node id took the lease row;
    /// `None` while it holds the row (or stops for another reason).
    pub(crate) fn displaced(&self) -> Option<Displaced> {
        self.inner
            .displaced
            .load(Ordering::Acquire)
            .then(|| Displaced { node: self.me() })
    }

    fn held_until(&self) -> Instant {
        *self
            .inner
            .held_until
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn hold_until(&self, until: Instant) {
        *self
            .inner
            .held_until
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = until;
    }

    /// Marks the lease lost or held, notifying only on a change.
    fn set_lost(&self, lost: bool) {
        self.inner.lost.send_if_modified(|was| {
            let changed = *was != lost;
            *was = lost;
            changed
        });
    }

    fn set_live(&self, live: Vec<NodeRef>) {
        let live: HashSet<NodeRef> = live.into_iter().collect();
        self.inner.live.send_if_modified(|was| {
            let changed = **was != live;
            if changed {
                *was = Arc::new(live);
            }
            changed
        });
    }
}

/// How long a renew sent now lets this node believe in its lease.
fn held_for(ttl: Duration) -> Duration {
    ttl - ttl / MARGIN_SHARE
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// What one renew learned: whether the row is still ours, and the live nodes if they could be
/// read.
type Renewal = Result<(bool, Option<Vec<NodeRef>>), StorageError>;

/// One renew, then the live nodes; given up after `ttl` (a later answer could not help).
fn renew(
    coordination: Arc<dyn Coordination>,
    me: NodeRef,
    ttl: Duration,
) -> BoxFuture<'static, Renewal> {
    async move {
        let attempt = async {
            if !coordination.renew_node(me, millis(ttl)).await? {
                return Ok((false, None));
            }
            Ok((true, coordination.live_nodes().await.ok()))
        };
        tokio::time::timeout(ttl, attempt)
            .await
            .unwrap_or_else(|_| Err(StorageError::Unavailable(Unavailable::LeaseRenew)))
    }
    .boxed()
}

/// Renews every `ttl / 3`, marks the lease lost the moment it runs out locally, and fires
/// `trigger` when the node must stop.
async fn renew_loop(
    lease: Lease,
    coordination: Arc<dyn Coordination>,
    ttl: Duration,
    mut shutdown: Shutdown,
    trigger: Trigger,
) {
    let period = ttl / 3;
    let me = lease.me();
    let mut next_renew = Instant::now() + period;
    // The renew on its way, with the moment it was sent.
    let mut renewing: Option<(Instant, BoxFuture<'static, Renewal>)> = None;
    loop {
        let lost = *lease.inner.lost.borrow();
        tokio::select! {
            () = shutdown.recv() => break,
            () = tokio::time::sleep_until(lease.held_until()), if !lost => {
                tracing::error!(node = %me, "lease lost: renewing failed for too long; \
                    dropping what this node owns");
                lease.lapsed();
                lease.set_lost(true);
            }
            () = tokio::time::sleep_until(next_renew), if renewing.is_none() => {
                renewing = Some((Instant::now(), renew(coordination.clone(), me.clone(), ttl)));
            }
            renewal = async { renewing.as_mut().expect("guarded").1.as_mut().await },
                if renewing.is_some() =>
            {
                let (sent, _) = renewing.take().expect("guarded");
                next_renew = sent + period;
                match renewal {
                    Ok((true, live)) => {
                        if !lost && sent >= lease.held_until() {
                            // Sent after the lease had run out here (the node was frozen or
                            // starved past it) before the timer above could say so.
                            tracing::error!(node = %me, "lease ran out before this renew \
                                (frozen or starved?): dropping what this node owned");
                            lease.lapsed();
                        }
                        lease.hold_until(sent + held_for(ttl));
                        if lease.is_held() {
                            if lost {
                                tracing::info!(node = %me, "lease held again");
                                *lease
                                    .inner
                                    .held_since
                                    .lock()
                                    .unwrap_or_else(|poisoned| poisoned.into_inner()) =
                                    Instant::now();
                            }
                            lease.set_lost(false);
                        }
                        if let Some(live) = live {
                            lease.set_live(live);
                        }
                    }
                    Ok((false, _)) => {
                        tracing::error!(node = %me, "another run of this node id took its \
                            lease (the same --node-id started elsewhere?): this run stops and \
                            exits");
                        lease.inner.displaced.store(true, Ordering::Release);
                        lease.hold_until(Instant::now());
                        lease.set_lost(true);
                        break;
                    }
                    Err(err) => tracing::warn!(node = %me, %err, "cannot renew the lease"),
                }
            }
        }
    }
    trigger.fire();
}

#[cfg(test)]
mod tests;
