//! Starting this server as one node of a cluster: its lease in PostgreSQL first (the node's
//! incarnation), then the Redis bus under that incarnation, the owner side (commands from
//! other nodes to the matches this node owns), the directory that finds matches anywhere,
//! and the sweeper that takes over the matches of dead nodes. The order matters: nothing
//! claims a match before the lease is held, and the node owns what it creates only once it
//! knows who "me" is.

use std::sync::Arc;
use std::time::Duration;

use super::bus::{Bus, BusError};
use super::directory::ClusterDirectory;
use super::inbox::OwnerSide;
use super::lease::Lease;
use super::lobby::{LiveNodes, SharedLobby};
use super::remote::BusOwning;
use super::settings::ClusterSettings;
use crate::matches::local::Hub;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::storage::coordination::Coordination;
use crate::storage::{Storage, StorageError};

/// Why a node could not join its cluster (the start-up error an operator reads).
#[derive(Debug, thiserror::Error)]
pub(crate) enum JoinError {
    #[error("cluster mode needs PostgreSQL (--database postgres://…)")]
    NotPostgres,
    #[error("cannot register node {node} in PostgreSQL: {source}")]
    Lease {
        node: String,
        #[source]
        source: StorageError,
    },
    #[error("cannot reach Redis at {redis}: {source}")]
    Bus {
        redis: String,
        #[source]
        source: BusError,
    },
}

/// This node's place in the cluster before it serves matches: its lease (its incarnation)
/// and the bus under that incarnation. TV channels start on it before the directory does.
pub(crate) struct Node {
    pub lease: Lease,
    pub bus: Bus,
    pub coordination: Arc<dyn Coordination>,
    /// How long the lease lasts.
    pub ttl: Duration,
}

/// A node that joined its cluster.
pub(crate) struct Joined {
    /// Finds matches anywhere in the cluster: takes the hub's place in [`crate::net::app::App`].
    pub directory: Arc<ClusterDirectory>,
    /// Fires when this node must stop: another run of the same node id took its lease.
    pub stop: Shutdown,
}

impl Node {
    /// Registers this node (a new incarnation) and connects the bus under it.
    pub(crate) async fn connect(
        settings: &ClusterSettings,
        storage: &Storage,
        shutdown: &Shutdown,
    ) -> Result<Node, JoinError> {
        let coordination = storage.coordination().ok_or(JoinError::NotPostgres)?;
        let node = settings.node_id.as_str().to_owned();
        let (lease, me) = Lease::start(
            coordination.clone(),
            node.clone(),
            settings.lease,
            shutdown.clone(),
        )
        .await
        .map_err(|source| JoinError::Lease { node, source })?;
        let bus = Bus::connect(settings.redis.as_str(), me.clone(), shutdown.clone())
            .await
            .map_err(|source| JoinError::Bus {
                redis: settings.redis.to_string(),
                source,
            })?;
        tracing::info!(node = %me, redis = %settings.redis, "joined the cluster");
        Ok(Node {
            lease,
            bus,
            coordination,
            ttl: settings.lease,
        })
    }

    /// The live nodes as the lease last learnt them, for the parts that forget a node that
    /// left.
    pub(crate) fn live_nodes(&self) -> LiveNodes {
        let lease = self.lease.clone();
        Arc::new(move || lease.live_nodes())
    }

    /// Serves matches as a node: the shared lobby, the directory around the hub (which owns
    /// what it creates and claims under the lease, before any match starts, so every actor
    /// talks to it), the owner side for other nodes' commands, and the sweeper.
    pub(crate) async fn join(&self, hub: &Hub, shutdown: &Shutdown, tasks: &Tasks) -> Joined {
        let Node {
            lease,
            bus,
            coordination,
            ttl,
        } = self;
        // What this node creates and claims it owns under its lease, and those matches stop
        // when the lease is lost.
        let owning = BusOwning::for_lease(bus.clone(), lease, coordination.clone());
        let lobby = SharedLobby::start(bus.clone(), self.live_nodes(), lease.shutdown()).await;
        let directory = ClusterDirectory::start(
            hub.clone(),
            owning.clone(),
            lease.clone(),
            coordination.clone(),
            lobby,
            shutdown.clone(),
            tasks.clone(),
        )
        .await;
        super::inbox::start(
            OwnerSide {
                bus: bus.clone(),
                hub: hub.clone(),
                owning,
                directory: directory.clone(),
                coordination: coordination.clone(),
                live_nodes: self.live_nodes(),
                heard_grace: *ttl,
            },
            shutdown.clone(),
        )
        .await;
        super::sweeper::start(
            directory.clone(),
            coordination.clone(),
            lease.clone(),
            sweep_every(*ttl),
            shutdown.clone(),
        );
        Joined {
            directory,
            stop: lease.shutdown(),
        }
    }
}

/// Orphans are looked for every half lease: a dead node's matches are taken over within about
/// one and a half leases of its last renewal.
fn sweep_every(lease: Duration) -> Duration {
    lease / 2
}
