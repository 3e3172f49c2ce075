//! Takes over the matches whose owner died, even when nobody asks for them.
//!
//! A match whose owner's lease ran out is taken over by the next command or resume for it
//! (the proxy or the directory claims it). But a match nobody touches still has a clock that
//! runs and a flag that must fall, and players who may come back to another node later: so
//! every half lease each node claims a few orphans and starts them. Claims are one UPDATE
//! each in PostgreSQL, so two nodes sweeping at once never both win a match.
//!
//! The orphans of a dead node spread over the survivors (issue 28, item 9: one survivor used
//! to take all of them): each orphan belongs to the live node its id hashes highest with
//! (rendezvous hashing, [`chosen`](super::spread::chosen)), and a node sweeps only its own share. An orphan left by
//! its chosen node for [`PATIENT_SWEEPS`] sweeps (that node is gone too, or sees the live
//! nodes differently for a moment) is taken by whoever sweeps next.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use super::directory::ClusterDirectory;
use super::lease::Lease;
use super::proxy::TakeOver;
use super::spread::chosen;
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::{Coordination, NodeRef};

/// Orphans one node claims per sweep: a node's share of a mass failover comes over a few
/// sweeps instead of all at once.
pub(crate) const PER_SWEEP: u32 = 32;

/// Orphans one sweep looks at: enough that a node finds its share among the others'.
const LOOKED_AT: u32 = PER_SWEEP * 8;

/// Sweeps an orphan chosen for another node waits before this node takes it anyway.
pub(crate) const PATIENT_SWEEPS: u32 = 3;

/// Sweeps every `lease / 2`, and when the live nodes change, until shutdown.
pub(crate) fn start(
    directory: Arc<ClusterDirectory>,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
    every: Duration,
    mut shutdown: Shutdown,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut waiting = Waiting::default();
        let mut live = lease.live_changes();
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = tick.tick() => {}
                // A node's lease ran out (or one joined): its orphans are taken at once, by
                // the nodes they spread to, while proxies leave them to those nodes. The lease
                // holds the sender as long as this task holds the lease.
                _ = live.changed() => {}
            }
            // Not right after an outage: the other nodes claim their own matches back first.
            if lease.settled() {
                sweep(&directory, coordination.as_ref(), &lease, &mut waiting).await;
            }
        }
    });
}

/// Orphans chosen for another node, by id: how many sweeps each has waited.
pub(crate) type Waiting = HashMap<String, u32>;

/// Claims and starts up to [`PER_SWEEP`] orphaned matches of this node's share (or waited
/// for long enough); returns how many it took.
pub(crate) async fn sweep(
    directory: &ClusterDirectory,
    coordination: &dyn Coordination,
    lease: &Lease,
    waiting: &mut Waiting,
) -> usize {
    let orphans = match coordination.orphaned_matches(LOOKED_AT).await {
        Ok(orphans) => orphans,
        Err(err) => {
            tracing::warn!(%err, "cannot look for orphaned matches");
            return 0;
        }
    };
    let (me, live) = (lease.me(), lease.live_nodes());
    let mine = share(orphans, &me, &live, waiting);
    let mut taken = 0;
    for id in mine.into_iter().take(PER_SWEEP as usize) {
        if let TakeOver::Here(_) = directory.take_over(&id).await {
            taken += 1;
        }
    }
    if taken > 0 {
        tracing::info!(taken, "took over matches whose owner died");
    }
    taken
}

/// Of `orphans`, those this node `me` sweeps now: its own share among the `live` nodes, and
/// those another node has left for [`PATIENT_SWEEPS`] sweeps. `waiting` is brought up to date.
pub(crate) fn share(
    orphans: Vec<String>,
    me: &NodeRef,
    live: &HashSet<NodeRef>,
    waiting: &mut Waiting,
) -> Vec<String> {
    let mut still_waiting = Waiting::new();
    let mut mine = Vec::new();
    for id in orphans {
        let waited = waiting.get(&id).copied().unwrap_or(0);
        let others = chosen(&id, live).is_some_and(|node| node.node != me.node);
        if others && waited < PATIENT_SWEEPS {
            still_waiting.insert(id, waited + 1);
        } else {
            mine.push(id);
        }
    }
    *waiting = still_waiting;
    mine
}

#[cfg(test)]
mod tests;
