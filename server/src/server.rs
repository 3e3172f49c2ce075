//! The server: opens storage, resumes unfinished matches, serves the router through
//! [`crate::accept`] until shutdown, then waits for every connection and match to stop and closes storage.

use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::channels::{Channels, ChannelsConfig};
use crate::config::Config;
use crate::hub::Hub;
use crate::limits::ConnectionLimit;
use crate::matches::Settings;
use crate::shutdown::{self, Shutdown, Tasks, Trigger};
use crate::storage::Storage;

/// How long a finished match nobody follows stays in memory (rematch offers, late watchers).
const FINISHED_LINGER: std::time::Duration = std::time::Duration::from_secs(300);

/// Everything a request handler or connection needs; cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub hub: Hub,
    pub channels: Channels,
    pub limit: ConnectionLimit,
    pub shutdown: Shutdown,
    pub tasks: Tasks,
}

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
    let path = config.db.clone();
    let (storage, recovered) = tokio::task::spawn_blocking(move || Storage::open(&path))
        .await
        .map_err(std::io::Error::other)?
        .map_err(std::io::Error::other)?;
    let (tasks, all_done) = shutdown::tasks();
    let settings = Settings {
        grace: config.grace,
        first_move_timeout: config.first_move_timeout,
        linger: FINISHED_LINGER,
        max_matches: config.max_matches,
    };
    let hub = Hub::new(storage.clone(), settings, shutdown.clone(), tasks.clone());
    let resumed = hub.recover(recovered);
    if resumed > 0 {
        tracing::info!(resumed, "resumed unfinished matches");
    }
    let channels = Channels::start(
        ChannelsConfig::from_config(&config),
        &storage,
        shutdown.clone(),
        &tasks,
    )
    .await
    .map_err(std::io::Error::other)?;
    let app = App {
        limit: ConnectionLimit::new(config.max_connections),
        config: Arc::new(config),
        hub,
        channels,
        shutdown: shutdown.clone(),
        tasks: tasks.clone(),
    };
    let limit = app.limit.clone();
    let handshake_timeout = app.config.handshake_timeout;
    let router = crate::http::router(app);
    crate::accept::serve(
        listener,
        router,
        limit,
        handshake_timeout,
        shutdown,
        tasks.clone(),
    )
    .await;
    // Connections and matches see the same signal; wait for them, then flush storage.
    all_done.wait(&tasks).await;
    storage.close().await;
    Ok(())
}
