//! Takes over the matches whose owner died, even when nobody asks for them.
//!
//! A match whose owner's lease ran out is taken over by the next command or resume for it
//! (the proxy or the directory claims it). But a match nobody touches still has a clock that
//! runs and a flag that must fall, and players who may come back to another node later: so
//! every half lease each node claims a few orphans and starts them. Claims are one UPDATE
//! each in PostgreSQL, so two nodes sweeping at once never both win a match.

use std::sync::Arc;
use std::time::Duration;

use super::directory::ClusterDirectory;
use super::lease::Lease;
use super::proxy::TakeOver;
use crate::shutdown::Shutdown;
use crate::storage::coordination::Coordination;

/// Orphans one node claims per sweep: a dead node's matches spread over the survivors
/// instead of all landing on the first one to look.
pub const PER_SWEEP: u32 = 32;

/// Sweeps every `lease / 2` until shutdown.
pub fn start(
    directory: Arc<ClusterDirectory>,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
    every: Duration,
    mut shutdown: Shutdown,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                _ = tick.tick() => {}
            }
            if lease.is_held() {
                sweep(&directory, coordination.as_ref()).await;
            }
        }
    });
}

/// Claims and starts up to [`PER_SWEEP`] orphaned matches; returns how many it took.
pub async fn sweep(directory: &ClusterDirectory, coordination: &dyn Coordination) -> usize {
    let orphans = match coordination.orphaned_matches(PER_SWEEP).await {
        Ok(orphans) => orphans,
        Err(err) => {
            tracing::warn!(%err, "cannot look for orphaned matches");
            return 0;
        }
    };
    let mut taken = 0;
    for id in orphans {
        if let TakeOver::Here(_) = directory.take_over(&id).await {
            taken += 1;
        }
    }
    if taken > 0 {
        tracing::info!(taken, "took over matches whose owner died");
    }
    taken
}
