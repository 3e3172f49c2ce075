//! The server: opens storage, resumes unfinished matches, serves the router through
//! [`crate::accept`] until shutdown, then waits for every connection and match to stop and closes storage.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::address::TrustedProxies;
use crate::app::App;
use crate::channels::{Channels, ChannelsConfig};
use crate::cluster::node::Node;
use crate::config::Config;
use crate::frisian_tv::FrisianTv;
use crate::hub::Hub;
use crate::limits::{ConnectionLimit, ConnectionSettings};
use crate::matches::Directory;
use crate::matches::Settings;
use crate::per_address::{AddressLimits, RateSettings};
use crate::shutdown::{self, Shutdown, Trigger};
use crate::storage::Storage;
use crate::tls::Tls;

/// A bound, running server. Dropping it (or calling [`Server::shutdown`]) stops it.
pub struct Server {
    addr: SocketAddr,
    trigger: Trigger,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Binds `config.listen` and starts serving in the background.
    pub async fn start(config: Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind(config.listen).await?;
        let addr = listener.local_addr()?;
        let (trigger, shutdown) = shutdown::channel();
        let task = tokio::spawn(serve(listener, config, shutdown));
        Ok(Server {
            addr,
            trigger,
            task,
        })
    }

    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Fires shutdown and waits until everything is flushed.
    pub async fn shutdown(self) -> std::io::Result<()> {
        self.trigger.fire();
        self.task.await.map_err(std::io::Error::other)?
    }
}

/// Serves on `listener` until `shutdown` fires.
pub async fn serve(
    listener: TcpListener,
    config: Config,
    shutdown: Shutdown,
) -> std::io::Result<()> {
    let cluster = config.cluster().map_err(std::io::Error::other)?;
    // A node of a cluster also stops when another run of its node id takes its lease: one
    // signal below this point, fired by either.
    let (stop, shutdown) = follow(shutdown);
    let metrics_listener = match config.metrics_listen {
        Some(addr) => Some(TcpListener::bind(addr).await.inspect_err(|err| {
            tracing::error!(%addr, %err, "cannot listen for /metrics");
        })?),
        None => None,
    };
    let tls = match (&config.tls_cert, &config.tls_key) {
        (Some(cert), Some(key)) => {
            let tls = Tls::load(cert, key).map_err(std::io::Error::other)?;
            tracing::info!(cert = %cert.display(), "serving https:// and wss://");
            Some(tls)
        }
        _ => None,
    };
    if let Some(cluster) = &cluster {
        tracing::info!(
            node = %cluster.node_id,
            redis = %cluster.redis,
            lease_ms = cluster.lease.as_millis() as u64,
            "cluster mode"
        );
    }
    // A node of a cluster recovers nothing here: it starts only the matches it claims.
    let node_id = cluster.as_ref().map(|cluster| cluster.node_id.as_str());
    let (storage, recovered) = Storage::open_database_as(&config.database(), node_id)
        .await
        .map_err(std::io::Error::other)?;
    let (tasks, all_done) = shutdown::tasks();
    let node = match &cluster {
        Some(cluster) => Some(
            Node::connect(cluster, &storage, &shutdown)
                .await
                .map_err(std::io::Error::other)?,
        ),
        None => None,
    };
    let settings = Settings {
        grace: config.grace,
        first_move_timeout: config.first_move_timeout,
        abandon_after: config.abandon_after,
        linger: config.finished_linger,
        max_matches: config.max_matches,
    };
    let hub = Hub::new(storage.clone(), settings, shutdown.clone(), tasks.clone());
    let resumed = hub.recover(recovered);
    if resumed > 0 {
        tracing::info!(resumed, "resumed unfinished matches");
    }
    let channels_config =
        ChannelsConfig::from_flags(config.channels, &config.ply_interval, config.game_pause);
    let channels = match &node {
        // The TV channels follow their owners and are claimed when nobody alive owns them.
        Some(node) => {
            crate::cluster::channels::start(channels_config, &storage, node, &shutdown, &tasks)
                .await
        }
        None => Channels::start(channels_config, &storage, shutdown.clone(), &tasks).await,
    }
    .map_err(std::io::Error::other)?;
    let directory: Arc<dyn Directory> = match &node {
        Some(node) => {
            let joined = node.join(&hub, &shutdown, &tasks).await;
            tokio::spawn(fire_on(joined.stop, stop));
            joined.directory
        }
        None => Arc::new(hub.clone()),
    };
    let app = App {
        limit: ConnectionLimit::new(ConnectionSettings {
            max: config.max_connections,
            per_address: config.max_connections_per_address,
            per_56: config.max_connections_per_ipv6_56,
            per_48: config.max_connections_per_ipv6_48,
            reserve: config.connection_reserve,
        }),
        address_limits: AddressLimits::new(RateSettings {
            upgrades: config.upgrades_per_minute,
            matches: config.matches_per_minute,
            engine_games: config.engine_games_per_minute,
            failed_joins: config.failed_joins_per_minute,
            failed_joins_total: config.failed_joins_per_minute_total,
        }),
        proxies: TrustedProxies::new(&config.trusted_proxies),
        tls: tls.clone(),
        config: Arc::new(config),
        tv: FrisianTv::start(directory.clone(), shutdown.clone()),
        directory,
        hub,
        channels,
        shutdown: shutdown.clone(),
        tasks: tasks.clone(),
    };
    crate::telemetry::handle();
    tokio::spawn(crate::memory::give_back(app.hub.clone(), shutdown.clone()));
    if let Some(tls) = tls {
        tokio::spawn(crate::tls::reload_on_hangup(tls, shutdown.clone()));
    }
    if let Some(listener) = metrics_listener {
        if let Ok(addr) = listener.local_addr() {
            tracing::info!(%addr, "serving /metrics");
        }
        tokio::spawn(crate::metrics_page::serve(
            listener,
            app.clone(),
            shutdown.clone(),
        ));
    }
    let router = crate::http::router(app.clone());
    crate::accept::serve(listener, router, app, shutdown, tasks.clone()).await;
    // Connections and matches see the same signal; wait for them, then flush storage.
    all_done.wait(&tasks).await;
    storage.close().await;
    Ok(())
}

/// A shutdown signal of its own that fires when `outer` fires, and whose trigger can fire it
/// earlier.
fn follow(outer: Shutdown) -> (Arc<Trigger>, Shutdown) {
    let (trigger, shutdown) = shutdown::channel();
    let trigger = Arc::new(trigger);
    tokio::spawn(fire_on(outer, trigger.clone()));
    (trigger, shutdown)
}

/// Fires `trigger` once `signal` has fired.
async fn fire_on(mut signal: Shutdown, trigger: Arc<Trigger>) {
    signal.recv().await;
    trigger.fire();
}
