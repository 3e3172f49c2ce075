//! The `boardcast-server` entry point: parse flags, set up logging, serve until Ctrl-C or
//! SIGTERM. It lives in the library so the end-to-end tests can build the very same program.

use std::process::ExitCode;

use crate::config::{Command, LogFormat};
use crate::storage::Database;
use crate::{Config, serve, shutdown};
use clap::Parser;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

/// Runs the server as the `boardcast-server` binary does, with the process's arguments.
pub fn main() -> ExitCode {
    let config = Config::parse();
    if let Some(Command::GenCert { names, cert, key }) = &config.command {
        return match crate::gen_cert::write(names, cert, key) {
            Ok(written) => {
                print!("{written}");
                ExitCode::SUCCESS
            }
            Err(err) => {
                eprintln!("boardcast-server gen-cert: {err}");
                ExitCode::from(1)
            }
        };
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("boardcast-server: cannot start the runtime: {err}");
            return ExitCode::from(1);
        }
    };
    if let Some(Command::Migrate { from, to }) = &config.command {
        return runtime.block_on(migrate(from, to));
    }
    runtime.block_on(run(config))
}

/// `boardcast-server migrate`: copies, verifies, says what it copied.
async fn migrate(from: &Database, to: &Database) -> ExitCode {
    match crate::storage::migrate::migrate(from, to).await {
        Ok(copied) => {
            print!("copied {from} into {to}, verified:\n{copied}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("boardcast-server migrate: {err}");
            ExitCode::from(1)
        }
    }
}

/// Serves with `config` until Ctrl-C or SIGTERM.
pub async fn run(config: Config) -> ExitCode {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.log))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_current_span(false)
            .with_env_filter(filter)
            .init(),
    }

    // Checked before anything starts, so a half-configured node never joins a cluster.
    if let Err(err) = config.cluster() {
        eprintln!("boardcast-server: {err}");
        return ExitCode::from(2);
    }
    let listener = match TcpListener::bind(config.listen).await {
        Ok(listener) => listener,
        Err(err) => {
            tracing::error!(addr = %config.listen, %err, "cannot listen");
            return ExitCode::from(1);
        }
    };
    let addr = listener.local_addr().unwrap_or(config.listen);
    tracing::info!(%addr, database = %config.database(), "boardcast-server listening");

    let (trigger, shutdown) = shutdown::channel();
    let server = tokio::spawn(serve(listener, config, shutdown));
    wait_for_signal().await;
    tracing::info!("shutting down");
    trigger.fire();
    match server.await {
        Ok(Ok(())) => {
            tracing::info!("stopped cleanly");
            ExitCode::SUCCESS
        }
        Ok(Err(err)) => {
            tracing::error!(%err, "server failed");
            ExitCode::from(1)
        }
        Err(err) => {
            tracing::error!(%err, "server task panicked");
            ExitCode::from(1)
        }
    }
}

/// Completes on Ctrl-C, or on SIGTERM where there is one.
async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
