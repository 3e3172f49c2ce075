//! What several nodes sharing one database need from it beyond storage: which node is alive
//! (a lease per node incarnation), who owns each match and each channel (an owner and a
//! fencing epoch that grows at every change of owner), and the lookups a node makes for a match
//! it does not run. Only PostgreSQL implements it; SQLite serves a single node.
//!
//! PostgreSQL's clock decides whether a lease has run out, so nodes never compare clocks.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{StorageError, StoredEvent, StoredMatch};

/// One run of one node: the node id the operator gave, and the incarnation the database handed
/// out when that run started (a restarted node is a new incarnation).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NodeRef {
    pub node: String,
    pub incarnation: u64,
}

impl fmt::Display for NodeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.node, self.incarnation)
    }
}

/// Who owns a stored match now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchOwner {
    /// `None`: no node has owned it yet (a single-node database, say).
    pub owner: Option<NodeRef>,
    pub epoch: u64,
    /// Whether the owner's lease is still running.
    pub alive: bool,
    pub finished: bool,
}

/// A thing other than a match that one node owns at a time (kind `channel`: a TV channel).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owned {
    pub owner: NodeRef,
    pub epoch: u64,
    pub alive: bool,
}

/// Each unfinished club event's id with its owner (`None`: nobody ever claimed it), as
/// [`Coordination::unfinished_events`] lists them.
pub(crate) type EventOwners = Vec<(String, Option<Owned>)>;

/// What a claim of an owned thing gives its new owner: the new epoch, and the state saved by
/// the last owner (`None` if nothing was ever saved).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed {
    pub epoch: u64,
    pub state: Option<String>,
}

/// The cluster's shared truth about nodes and owners. Every method is one short statement or
/// transaction; see `CLUSTER.md` for the rules they keep.
#[async_trait::async_trait]
pub trait Coordination: fmt::Debug + Send + Sync + 'static {
    /// Starts a new incarnation of `node` with a lease of `ttl_ms`.
    async fn register_node(&self, node: String, ttl_ms: u64) -> Result<NodeRef, StorageError>;
    /// Extends `me`'s lease to `ttl_ms` from now; `false` if a newer incarnation of the same
    /// node id has taken its row (this run must stop).
    async fn renew_node(&self, me: NodeRef, ttl_ms: u64) -> Result<bool, StorageError>;
    /// When node incarnation `node` last renewed its lease (Unix ms, PostgreSQL's clock): the
    /// last moment it is known to have been alive, which a take-over after its crash charges
    /// the side to move's thinking up to (PROTOCOL.md §10). `None` if not known (another run
    /// of the node id has its row now).
    async fn last_renewal_ms(&self, node: NodeRef) -> Result<Option<i64>, StorageError> {
        let _ = node;
        Ok(None)
    }
    /// Every node incarnation whose lease is running.
    async fn live_nodes(&self) -> Result<Vec<NodeRef>, StorageError>;
    /// Who owns match `id`; `None` if there is no such match.
    async fn match_owner(&self, id: String) -> Result<Option<MatchOwner>, StorageError>;
    /// Makes `me` the owner of match `id` with the next epoch, which it returns; `None` if the
    /// match does not exist or another live node owns it. Two claimers never both win.
    async fn claim_match(&self, id: String, me: NodeRef) -> Result<Option<u64>, StorageError>;
    /// Up to `limit` unfinished matches whose owner's lease has run out.
    async fn orphaned_matches(&self, limit: u32) -> Result<Vec<String>, StorageError>;
    /// The match with invite code `code` (as stored, upper case), finished or not.
    async fn match_id_by_code(&self, code: String) -> Result<Option<String>, StorageError>;
    /// The match one of whose seat tokens hashes to `token_hash`, finished or not.
    async fn match_id_by_token_hash(
        &self,
        token_hash: String,
    ) -> Result<Option<String>, StorageError>;
    /// Match `id` whole (set-up and every event), finished or not.
    async fn load_match(&self, id: String) -> Result<Option<StoredMatch>, StorageError>;
    /// The events of match `id` after version `v`, in order.
    async fn events_since(&self, id: String, v: u64) -> Result<Vec<StoredEvent>, StorageError>;
    /// Makes `me` the owner of (`kind`, `key`) with the next epoch (creating the row if
    /// missing) and returns that epoch and the state saved under it; `None` if another live
    /// node owns it.
    async fn claim_owned(
        &self,
        kind: String,
        key: String,
        me: NodeRef,
    ) -> Result<Option<Claimed>, StorageError>;
    /// Who owns (`kind`, `key`); `None` if nobody ever claimed it.
    async fn owner_of(&self, kind: String, key: String) -> Result<Option<Owned>, StorageError>;
    /// Every unfinished club event, oldest first, with its owner (kind `event`; `None` if
    /// nobody ever claimed it): what a node looks at to claim the events nobody alive runs.
    async fn unfinished_events(&self) -> Result<EventOwners, StorageError>;
    /// A fresh engine-game archive id that no node has had before (on-demand games are named
    /// `g<id>`, so two nodes counting on their own would hand out the same names). A
    /// PostgreSQL sequence that starts past the highest archived id.
    async fn reserve_game_id(&self) -> Result<u64, StorageError>;
    /// Saves the state of (`kind`, `key`) if `epoch` is still its epoch; otherwise
    /// [`StorageError::Fenced`] and nothing is saved.
    async fn save_owned_state(
        &self,
        kind: String,
        key: String,
        epoch: u64,
        state: String,
    ) -> Result<(), StorageError>;
}
