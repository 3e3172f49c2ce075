//! What a match needs when several nodes share one database: the epoch it is owned under,
//! where its events go for the other nodes, and the signal that this node lost its lease.
//!
//! Single-node a match has [`Ownership::single`]: epoch 0, no mirror, no lease. In a cluster
//! whoever has the hub start a match (`cluster/remote.rs`, for the node's directory and
//! inbox) hands it the match's ownership; matches themselves never learn about Redis.
//!
//! A lease that runs out because renewing failed (PostgreSQL unreachable) suspends a match
//! rather than stopping it: its seats and followers stay, and once the lease is held again
//! it claims itself back ([`Reclaim`]) and goes on in place only if nobody else owned it in
//! between (issue 28, item 8). A node cut off from PostgreSQL alone cannot ask storage
//! whether another node took such a match over meanwhile; it hears it on the bus instead
//! ([`Displaced`]) and stops, as a displaced owner does.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use tokio::sync::{oneshot, watch};

use crate::room::fanout::Mirror;
use crate::storage::coordination::NodeRef;

/// How one match is owned.
pub(crate) struct Ownership {
    /// The epoch this node owns the match under: every write carries it, and the store
    /// refuses it once another node has taken the match over (the match then stops).
    pub(crate) epoch: u64,
    /// Publishes each committed event and each broadcast once for the other nodes.
    pub(crate) mirror: Option<Mirror>,
    /// Turns true when this node's lease is lost: the match stops at once, since another
    /// node may take it over from then on.
    pub(crate) lease_lost: Option<watch::Receiver<bool>>,
    /// Whether the lease is held at this instant (read from the local clock, so a node that
    /// was paused past its lease knows it before any timer of its own has run): checked
    /// before each command and each write.
    pub(crate) lease_held: Option<LeaseHeld>,
    /// Claims the match back for this node once its lease is held again after a lapse;
    /// without it (or when it says [`Reclaimed::Lost`]) a match whose lease lapsed stops.
    pub(crate) reclaim: Option<Reclaim>,
    /// Hears, while the match is suspended, another node announce that it took the match
    /// over (cluster only).
    pub(crate) displaced: Option<Displaced>,
}

/// Tells whether this node holds its lease now.
pub(crate) type LeaseHeld = Arc<dyn Fn() -> bool + Send + Sync>;

/// Claims a suspended match back under the next epoch: given the epoch it ran under and the
/// last version it knows of, it answers whether it may go on in place, and under what.
pub(crate) type Reclaim = Arc<dyn Fn(u64, u64) -> BoxFuture<'static, Reclaimed> + Send + Sync>;

/// Starts hearing whether another node announces that it took the match over under an epoch
/// newer than the one given: the receiver gets that node when one does. Dropping the receiver
/// stops the hearing.
pub(crate) type Displaced = Arc<dyn Fn(u64) -> oneshot::Receiver<NodeRef> + Send + Sync>;

/// What a [`Reclaim`] found.
pub(crate) enum Reclaimed {
    /// Nobody owned the match in between (the claim's epoch is exactly the old one + 1) and
    /// nothing is stored past its version: it goes on here under this ownership.
    Kept(Ownership),
    /// Another node owned the match in between, or something was stored that this node does
    /// not know: it stops and hands over, as a match whose owner moved.
    Lost,
    /// The lease is not held yet, or storage did not answer: the match stays suspended and
    /// tries again.
    NotYet,
}

impl Ownership {
    /// A match of a single node.
    pub(crate) fn single() -> Ownership {
        Ownership {
            epoch: 0,
            mirror: None,
            lease_lost: None,
            lease_held: None,
            reclaim: None,
            displaced: None,
        }
    }
}

impl std::fmt::Debug for Ownership {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ownership")
            .field("epoch", &self.epoch)
            .field("mirrored", &self.mirror.is_some())
            .finish_non_exhaustive()
    }
}
