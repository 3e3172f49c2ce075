//! Starting this server as one node of a cluster: its lease in PostgreSQL first (the node's
//! incarnation), then the Redis bus under that incarnation, the owner side (commands from
//! other nodes to the matches this node owns), the directory that finds matches anywhere,
//! and the sweeper that takes over the matches of dead nodes. The order matters: nothing
//! claims a match before the lease is held, and the hub owns what it creates only once it
//! knows who "me" is.

use std::sync::Arc;
use std::time::Duration;

use super::bus::{Bus, BusError};
use super::directory::ClusterDirectory;
use super::inbox::OwnerSide;
use super::lease::Lease;
use super::remote::BusOwning;
use super::settings::ClusterSettings;
use crate::hub::Hub;
use crate::shutdown::{Shutdown, Tasks};
use crate::storage::{Storage, StorageError};

/// Why a node could not join its cluster (the start-up error an operator reads).
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
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

/// A node that joined its cluster.
pub struct Joined {
    /// Finds matches anywhere in the cluster: takes the hub's place in [`crate::app::App`].
    pub directory: Arc<ClusterDirectory>,
    /// Fires when this node must stop: another run of the same node id took its lease.
    pub stop: Shutdown,
}

/// Joins the cluster `settings` names.
pub async fn join(
    settings: &ClusterSettings,
    storage: &Storage,
    hub: &Hub,
    shutdown: &Shutdown,
    tasks: &Tasks,
) -> Result<Joined, JoinError> {
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
    // The hub owns what it creates from now on, and its actors stop when the lease is lost.
    hub.join_cluster(BusOwning::for_lease(bus.clone(), &lease));
    let directory = ClusterDirectory::start(
        hub.clone(),
        bus.clone(),
        lease.clone(),
        coordination.clone(),
        shutdown.clone(),
        tasks.clone(),
    )
    .await;
    // The directory wraps the hub before any match starts, so every actor talks to it.
    let live = lease.clone();
    super::inbox::start(
        OwnerSide {
            bus: bus.clone(),
            hub: hub.clone(),
            coordination: coordination.clone(),
            live_nodes: Arc::new(move || live.live_nodes()),
        },
        shutdown.clone(),
    )
    .await;
    let stop = lease.shutdown();
    super::sweeper::start(
        directory.clone(),
        coordination,
        lease,
        sweep_every(settings.lease),
        shutdown.clone(),
    );
    Ok(Joined { directory, stop })
}

/// Orphans are looked for every half lease: a dead node's matches are taken over within about
/// one and a half leases of its last renewal.
fn sweep_every(lease: Duration) -> Duration {
    lease / 2
}
