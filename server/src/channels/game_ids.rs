//! Archive ids of engine games. On-demand games are named `g<id>` and the archive keys games by
//! id, so an id must never be handed out twice — across restarts, and in a cluster across
//! nodes too.
//!
//! A single node counts on from the highest archived id. A node of a cluster draws ids from
//! the cluster's one sequence ([`Coordination::reserve_game_id`]); channel actors never wait
//! for the database, so a task keeps [`AHEAD`] ids drawn in advance. Should the pool run dry
//! (the database out of reach for a while) there is no id: an on-demand game is refused for
//! now and a TV channel plans its next game again a moment later. Counting locally instead
//! could give two nodes the same id.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::Notify;

use crate::ops::lock;
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::Coordination;

/// Ids a cluster node keeps drawn in advance.
pub(crate) const AHEAD: usize = 16;

/// Where a channel gets archive ids; cheap to clone.
#[derive(Debug, Clone)]
pub struct GameIds(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    /// The ids of a single node.
    local: AtomicU64,
    /// Ids drawn from the cluster's sequence; `None` on a single node.
    pool: Option<Mutex<VecDeque<u64>>>,
    /// Tells the drawing task that the pool runs low.
    low: Notify,
}

impl GameIds {
    /// Ids counted on from `first` (a single node).
    pub fn local(first: u64) -> GameIds {
        GameIds(Arc::new(Inner {
            local: AtomicU64::new(first.max(1)),
            pool: None,
            low: Notify::new(),
        }))
    }

    /// Ids drawn from the cluster's sequence through `coordination`, [`AHEAD`] of them before
    /// this returns and more as they are used, until `shutdown`.
    pub async fn shared(coordination: Arc<dyn Coordination>, mut shutdown: Shutdown) -> GameIds {
        let ids = GameIds(Arc::new(Inner {
            local: AtomicU64::new(0),
            pool: Some(Mutex::new(VecDeque::with_capacity(AHEAD))),
            low: Notify::new(),
        }));
        ids.fill(&*coordination).await;
        let drawer = ids.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = shutdown.recv() => return,
                    _ = drawer.0.low.notified() => drawer.fill(&*coordination).await,
                }
            }
        });
        ids
    }

    fn pool(&self) -> Option<MutexGuard<'_, VecDeque<u64>>> {
        // A plain queue: consistent even if a holder panicked.
        let pool = self.0.pool.as_ref()?;
        Some(lock(pool))
    }

    /// Draws until [`AHEAD`] ids wait, trying again a few times if the database fails.
    async fn fill(&self, coordination: &dyn Coordination) {
        let mut failures = 0;
        while self.pool().is_some_and(|pool| pool.len() < AHEAD) && failures < 5 {
            match coordination.reserve_game_id().await {
                Ok(id) => {
                    if let Some(mut pool) = self.pool() {
                        pool.push_back(id);
                    }
                }
                Err(err) => {
                    failures += 1;
                    tracing::warn!(%err, "engine-game ids not drawn; trying again");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
            }
        }
    }

    /// The next id, never handed out before; `None` while a cluster's pool is empty.
    pub fn next(&self) -> Option<u64> {
        let Some(mut pool) = self.pool() else {
            return Some(self.0.local.fetch_add(1, Ordering::Relaxed));
        };
        let drawn = pool.pop_front();
        if pool.len() < AHEAD / 2 {
            self.0.low.notify_one();
        }
        if drawn.is_none() {
            tracing::warn!("no engine-game id drawn from the cluster's sequence yet");
        }
        drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_node_counts_on() {
        let ids = GameIds::local(0);
        assert_eq!(
            [ids.next(), ids.next(), ids.clone().next()],
            [Some(1), Some(2), Some(3)]
        );
    }
}
