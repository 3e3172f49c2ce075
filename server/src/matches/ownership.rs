//! What a match needs when several nodes share one database: the epoch it is owned under,
//! where its events go for the other nodes, and the signal that this node lost its lease.
//!
//! Single-node a match has [`Ownership::single`]: epoch 0, no mirror, no lease. The cluster
//! side (`cluster/remote.rs`) implements [`Owning`], which the hub asks for each match it
//! starts; matches themselves never learn about Redis.

use std::sync::Arc;

use tokio::sync::watch;

use crate::fanout::Mirror;
use crate::storage::coordination::NodeRef;

/// How one match is owned.
pub struct Ownership {
    /// The epoch this node owns the match under: every write carries it, and the store
    /// refuses it once another node has taken the match over (the match then stops).
    pub epoch: u64,
    /// Publishes each committed event and each broadcast once for the other nodes.
    pub mirror: Option<Mirror>,
    /// Turns true when this node's lease is lost: the match stops at once, since another
    /// node may take it over from then on.
    pub lease_lost: Option<watch::Receiver<bool>>,
    /// Whether the lease is held at this instant (read from the local clock, so a node that
    /// was paused past its lease knows it before any timer of its own has run): checked
    /// before each command and each write.
    pub lease_held: Option<LeaseHeld>,
}

/// Tells whether this node holds its lease now.
pub type LeaseHeld = Arc<dyn Fn() -> bool + Send + Sync>;

impl Ownership {
    /// A match of a single node.
    pub fn single() -> Ownership {
        Ownership {
            epoch: 0,
            mirror: None,
            lease_lost: None,
            lease_held: None,
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

/// This node's part in a cluster, as the hub needs it to start matches it owns.
pub trait Owning: Send + Sync + 'static {
    /// This node incarnation: the owner a new match is created with.
    fn me(&self) -> &NodeRef;

    /// The ownership of match `match_id`, owned by this node under `epoch`.
    fn ownership(&self, match_id: &str, epoch: u64) -> Ownership;

    /// Whether this node holds its lease now. A node that does not may neither create nor
    /// claim a match: it would stop it at once, and while its lease is not yet over in the
    /// database nobody else would take the match.
    fn holds_lease(&self) -> bool;
}
