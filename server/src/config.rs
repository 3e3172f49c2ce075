//! Command-line flags and environment variables: everything an operator can set.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

/// Boardcast server: Frisian draughts matches and MinitChess engine channels.
#[derive(Debug, Clone, Parser)]
#[command(name = "boardcast-server", version, about)]
pub struct Config {
    /// Address to listen on (WebSocket at /ws, HTTP beside it).
    #[arg(long, env = "BOARDCAST_LISTEN", default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,

    /// SQLite database file (created if missing).
    #[arg(long, env = "BOARDCAST_DB", default_value = "boardcast.db")]
    pub db: PathBuf,

    /// Log filter in `tracing_subscriber::EnvFilter` syntax (RUST_LOG takes precedence).
    #[arg(long, env = "BOARDCAST_LOG", default_value = "info")]
    pub log: String,
}

impl Config {
    /// Defaults for tests: an ephemeral port on loopback and the given database.
    pub fn for_tests(db: PathBuf) -> Self {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 0)),
            db,
            log: "warn".to_owned(),
        }
    }
}
