//! The listener: binds the port, builds the HTTP router and runs until shutdown.

use std::net::SocketAddr;

use axum::Router;
use axum::routing::get;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::shutdown::{self, Shutdown, Trigger};

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
    _config: Config,
    mut shutdown: Shutdown,
) -> std::io::Result<()> {
    let app = Router::new().route("/healthz", get(healthz));
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.recv().await })
        .await
}

async fn healthz() -> &'static str {
    "ok\n"
}
