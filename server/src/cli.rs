//! The `boardcast-server` entry point: parse flags, set up logging, serve until Ctrl-C or
//! SIGTERM. It lives in the library so the end-to-end tests can build the very same program.

use std::process::ExitCode;

use crate::config::{Command, LogFormat};
use crate::storage::Database;
use std::io::IsTerminal;

use crate::server::{Port, StartError, prepare};
use crate::{Config, shutdown};
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// Runs the server as the `boardcast-server` binary does, with the process's arguments.
pub fn main() -> ExitCode {
    let config = Config::parse();
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

/// Serves with `config` until Ctrl-C or SIGTERM. A start that fails says why on stderr and
/// exits 1 at once; "listening" is logged only once connections are accepted.
pub async fn run(config: Config) -> ExitCode {
    let format = config.log_format;
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.log))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_ansi(colour_on_stderr())
            .with_env_filter(filter)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_writer(std::io::stderr)
            .with_current_span(false)
            .with_env_filter(filter)
            .init(),
    }

    // Checked before anything starts, so a half-configured node never joins a cluster.
    if let Err(err) = config.cluster() {
        eprintln!("boardcast-server: {err}");
        return ExitCode::from(2);
    }
    let port = match Port::bind(config.listen) {
        Ok(port) => port,
        Err(err) => return cannot_start(format, &err),
    };
    let addr = port.local_addr();
    let database = config.database();
    let (trigger, shutdown) = shutdown::channel();
    // Storage, TLS and the cluster before the port listens: a server that cannot work exits
    // now with the reason, instead of holding a port that never answers.
    let ready = tokio::select! {
        ready = prepare(config, shutdown) => match ready {
            Ok(ready) => ready,
            Err(err) => return cannot_start(format, &err),
        },
        () = wait_for_signal() => {
            tracing::info!("stopped before serving");
            return ExitCode::SUCCESS;
        }
    };
    let listener = match port.listen() {
        Ok(listener) => listener,
        Err(err) => return cannot_start(format, &err),
    };
    let server = tokio::spawn(ready.serve(listener));
    tracing::info!(%addr, %database, "boardcast-server listening");
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

/// Says on stderr why the server did not start (the error says what to do): a plain line for
/// the person at the terminal, or a JSON log line for a collector. The exit status is 1.
fn cannot_start(format: LogFormat, err: &StartError) -> ExitCode {
    match format {
        LogFormat::Text => eprintln!("boardcast-server: {err}"),
        LogFormat::Json => tracing::error!(%err, "cannot start"),
    }
    ExitCode::from(1)
}

/// Whether log lines may carry colour codes: only when stderr is a terminal (not a file, a
/// pipe or a journal), and not when `NO_COLOR` is set (<https://no-color.org>).
fn colour_on_stderr() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
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
