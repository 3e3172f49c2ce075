//! The server: opens storage, resumes unfinished matches, serves the router through
//! [`crate::net::accept`] until shutdown, then waits for every connection and match to stop and closes storage.
//!
//! Starting is two steps. [`prepare`] does everything that can fail for a reason the operator
//! must fix — TLS files, the database, the cluster — and returns a [`StartError`] that says
//! which and what to do; only then does [`Ready::serve`] accept connections. So a server that
//! cannot work exits at once with the reason, instead of holding a port that never answers.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::{TcpListener, TcpSocket};

use crate::channels::{Channels, ChannelsConfig};
use crate::cluster::node::{JoinError, Node};
use crate::cluster::settings::ClusterConfigError;
use crate::matches::Directory;
use crate::matches::Settings;
use crate::matches::local::Hub;
use crate::matches::tv::FrisianTv;
use crate::net::address::TrustedProxies;
use crate::net::app::App;
use crate::net::limits::{ConnectionLimit, ConnectionSettings};
use crate::net::per_address::{AddressLimits, RateSettings};
use crate::net::tls::{Tls, TlsError};
use crate::ops::config::Config;
use crate::ops::shutdown::{self, AllDone, Shutdown, Tasks, Trigger};
use crate::storage::sqlite::lock::ServerLock;
use crate::storage::{Database, Storage, StorageError};

/// Why the server did not start. The text is what the operator reads before the process
/// exits: what failed, and what to do about it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    /// The cluster flags do not make a node.
    #[error(transparent)]
    Cluster(#[from] ClusterConfigError),
    /// The port (`--listen`) or the metrics port cannot be bound.
    #[error("cannot listen on {addr} ({flag}): {source}{}", listen_remedy(source))]
    Listen {
        flag: &'static str,
        addr: SocketAddr,
        source: io::Error,
    },
    /// The certificate or key does not load.
    #[error("cannot serve TLS (--tls-cert, --tls-key): {0}")]
    Tls(#[from] TlsError),
    /// The database cannot be opened, created or read.
    #[error("cannot open the database {database}: {source}")]
    Storage {
        database: Database,
        source: StorageError,
    },
    /// This node cannot join its cluster.
    #[error(transparent)]
    Join(#[from] JoinError),
    /// The TV channels cannot read their archive.
    #[error("cannot start the TV channels: {0}")]
    Channels(StorageError),
}

/// What to do when a port cannot be bound, for the errors an operator meets.
fn listen_remedy(err: &io::Error) -> &'static str {
    match err.kind() {
        io::ErrorKind::AddrInUse => {
            ": another program (another boardcast-server?) listens there; stop it or choose \
             another port"
        }
        io::ErrorKind::PermissionDenied => {
            ": ports below 1024 need privileges; use a higher port (behind a reverse proxy)"
        }
        io::ErrorKind::AddrNotAvailable => {
            ": this machine has no such address; use 127.0.0.1, 0.0.0.0 or one of its own"
        }
        _ => "",
    }
}

/// Binds `addr` for `flag`.
pub(crate) async fn bind(flag: &'static str, addr: SocketAddr) -> Result<TcpListener, StartError> {
    TcpListener::bind(addr)
        .await
        .map_err(|source| StartError::Listen { flag, addr, source })
}

/// The public port, bound but not yet listening: a port that is taken is found before anything
/// else starts, while connections are refused (not left waiting) until [`Port::listen`] once
/// the server is ready. So "the port accepts connections" means "the server serves".
pub(crate) struct Port {
    socket: TcpSocket,
    addr: SocketAddr,
}

/// How many connections may wait to be accepted (what `TcpListener::bind` uses).
const BACKLOG: u32 = 1024;

impl Port {
    /// Binds `addr` (`--listen`) without listening.
    pub(crate) fn bind(addr: SocketAddr) -> Result<Port, StartError> {
        let failed = |source| StartError::Listen {
            flag: "--listen",
            addr,
            source,
        };
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(failed)?;
        // As `TcpListener::bind` does on Unix: a restart may bind while the old run's
        // connections linger in TIME_WAIT.
        #[cfg(unix)]
        socket.set_reuseaddr(true).map_err(failed)?;
        socket.bind(addr).map_err(failed)?;
        let addr = socket.local_addr().map_err(failed)?;
        Ok(Port { socket, addr })
    }

    /// The address bound (the port chosen, for port 0).
    pub(crate) fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Starts listening: connections are accepted from now on.
    pub(crate) fn listen(self) -> Result<TcpListener, StartError> {
        let addr = self.addr;
        self.socket
            .listen(BACKLOG)
            .map_err(|source| StartError::Listen {
                flag: "--listen",
                addr,
                source,
            })
    }
}

/// A bound, running server. Dropping it (or calling [`Server::shutdown`]) stops it.
pub struct Server {
    addr: SocketAddr,
    trigger: Trigger,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// Binds `config.listen` and starts serving in the background.
    /// Fails as the binary does if anything of [`prepare`] fails.
    pub async fn start(config: Config) -> std::io::Result<Server> {
        let listener = TcpListener::bind(config.listen).await?;
        let addr = listener.local_addr()?;
        let (trigger, shutdown) = shutdown::channel();
        let ready = prepare(config, shutdown)
            .await
            .map_err(std::io::Error::other)?;
        let task = tokio::spawn(ready.serve(listener));
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
    let ready = prepare(config, shutdown)
        .await
        .map_err(std::io::Error::other)?;
    ready.serve(listener).await
}

/// A server with everything open and started that can fail at start: it only has to accept.
pub(crate) struct Ready {
    app: App,
    storage: Storage,
    tls: Option<Tls>,
    metrics_listener: Option<TcpListener>,
    shutdown: Shutdown,
    tasks: Tasks,
    all_done: AllDone,
    /// This server's node of a cluster, asked at the end whether another run took its node id.
    node: Option<Node>,
    /// A SQLite database's lock, held until storage is flushed: no second server on the file.
    database_lock: Option<ServerLock>,
}

/// Loads TLS, opens storage, resumes unfinished matches, joins the cluster and starts the
/// channels: everything before accepting that can fail. Nothing listens on the public port
/// yet.
pub(crate) async fn prepare(config: Config, shutdown: Shutdown) -> Result<Ready, StartError> {
    let cluster = config.cluster()?;
    // A node of a cluster also stops when another run of its node id takes its lease: one
    // signal below this point, fired by either.
    let (stop, shutdown) = follow(shutdown);
    let metrics_listener = match config.metrics_listen {
        Some(addr) => Some(bind("--metrics-listen", addr).await?),
        None => None,
    };
    let tls = match (&config.tls_cert, &config.tls_key) {
        (Some(cert), Some(key)) => {
            let tls = Tls::load(cert, key)?;
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
    let database = config.database();
    // Before anything is read or written: a second server on the same SQLite file is refused
    // here, at once (PostgreSQL's nodes coordinate through leases instead).
    let database_lock = match &database {
        Database::Sqlite(path) => {
            Some(
                ServerLock::take(path).map_err(|source| StartError::Storage {
                    database: database.clone(),
                    source,
                })?,
            )
        }
        Database::Postgres(_) => None,
    };
    let (storage, recovered) = Storage::open(&database, node_id)
        .await
        .map_err(|source| StartError::Storage { database, source })?;
    let (tasks, all_done) = shutdown::tasks();
    let node = match &cluster {
        Some(cluster) => Some(Node::connect(cluster, &storage, &shutdown).await?),
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
    // Read before this run's first heartbeat: when the previous run was last alive.
    let last_alive_ms = match &node {
        Some(_) => None,
        None => storage.last_heartbeat().await.unwrap_or_else(|err| {
            tracing::warn!(%err, "cannot read the last heartbeat: clocks restart at the restart");
            None
        }),
    };
    let resumed = hub.recover(recovered, last_alive_ms);
    // Every node beats: a cluster's does not read it back (lease renewals say when a node
    // was last alive), but the beat is how a node whose matches write nothing learns that
    // storage is down, and holds their clocks from then.
    tokio::spawn(crate::matches::heartbeat::beat(
        storage.clone(),
        shutdown.clone(),
    ));
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
    .map_err(StartError::Channels)?;
    let directory: Arc<dyn Directory> = match &node {
        Some(node) => {
            let joined = node.join(&hub, &shutdown, &tasks).await;
            tokio::spawn(fire_on(joined.stop, stop));
            joined.directory
        }
        None => Arc::new(hub.clone()),
    };
    let mut accounts = crate::accounts::Accounts::new(storage.accounts());
    if let Some(cluster) = &cluster {
        // Failed logins and sign-ups count on every node alike.
        let shared =
            crate::accounts::throttle::Shared::new(cluster.redis.as_str()).map_err(|err| {
                JoinError::Bus {
                    redis: cluster.redis.to_string(),
                    source: crate::cluster::bus::BusError::Address(err),
                }
            })?;
        accounts.throttles = crate::accounts::throttle::Throttles::clustered(shared);
    }
    if let Some(node) = &node {
        // Sessions ended on any node cut their connections on this one.
        crate::cluster::cuts::share(&accounts.cuts, node.bus.clone(), shutdown.clone()).await;
    }
    let events = crate::events::Events::start(
        storage.clone(),
        directory.clone(),
        shutdown.clone(),
        tasks.clone(),
        node.is_some(),
        config.arena_minute,
    )
    .await;
    if let Some(node) = &node {
        // Each event's director runs on the node that owns it; requests go there.
        crate::cluster::directors::start(&events, node, shutdown.clone()).await;
    }
    let play_now = match &node {
        // One pool for the cluster, run by whichever node owns it.
        Some(node) => {
            let play_now = crate::net::pairing::PlayNow::clustered(directory.clone());
            crate::cluster::pool::start(
                play_now.clone(),
                node.bus.clone(),
                node.coordination.clone(),
                node.lease.clone(),
                node.ttl,
                shutdown.clone(),
            )
            .await;
            play_now
        }
        None => crate::net::pairing::PlayNow::start(hub.clone()),
    };
    let event_followers =
        crate::events::follow::Followers::new(events.clone(), shutdown.clone(), tasks.clone());
    let app = App {
        events,
        event_followers,
        accounts,
        play_now,
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
        channels: channels.with_tv(FrisianTv::start(directory.clone(), shutdown.clone())),
        directory,
        hub,
        shutdown: shutdown.clone(),
        tasks: tasks.clone(),
    };
    Ok(Ready {
        app,
        storage,
        tls,
        metrics_listener,
        shutdown,
        tasks,
        all_done,
        node,
        database_lock,
    })
}

impl Ready {
    /// Accepts and serves on `listener` until shutdown; then waits for every connection and
    /// match to stop and flushes storage.
    pub(crate) async fn serve(self, listener: TcpListener) -> std::io::Result<()> {
        let Ready {
            app,
            storage,
            tls,
            metrics_listener,
            shutdown,
            tasks,
            all_done,
            node,
            database_lock,
        } = self;
        crate::ops::telemetry::handle();
        let hub = app.hub.clone();
        let in_memory = move || hub.count_by_phase().iter().map(|(_, count)| count).sum();
        tokio::spawn(crate::ops::memory::give_back(in_memory, shutdown.clone()));
        if let Some(tls) = tls {
            tokio::spawn(crate::net::tls::reload_on_hangup(tls, shutdown.clone()));
        }
        if let Some(listener) = metrics_listener {
            if let Ok(addr) = listener.local_addr() {
                tracing::info!(%addr, "serving /metrics");
            }
            tokio::spawn(crate::net::metrics_page::serve(
                listener,
                app.clone(),
                shutdown.clone(),
            ));
        }
        let router = crate::net::http::router(app.clone());
        crate::net::accept::serve(listener, router, app, shutdown, tasks.clone()).await;
        // Connections and matches see the same signal; wait for them, then flush storage.
        all_done.wait(&tasks).await;
        storage.close().await;
        // Everything is written: another server may open the file now.
        drop(database_lock);
        // A node whose node id another run took stopped on its own: that is a failure of this
        // run, for the process to exit with.
        match node.and_then(|node| node.lease.displaced()) {
            Some(displaced) => Err(std::io::Error::other(displaced)),
            None => Ok(()),
        }
    }
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
