//! The `boardcast-server` entry point: parse flags, set up logging, serve until Ctrl-C or
//! SIGTERM. It lives in the library so the end-to-end tests can build the very same program.

use std::io::IsTerminal;
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::EnvFilter;

use crate::Config;
use crate::net::public_url::PublicUrl;
use crate::ops::config::{Command, LogFormat};
use crate::ops::shutdown;
use crate::server::{Port, StartError, prepare};
use crate::storage::Database;

/// Runs the server as the `boardcast-server` binary does, with the process's arguments.
pub fn main() -> ExitCode {
    let config = Config::parse();
    if let Some(Command::GenCert { names, cert, key }) = &config.command {
        return match crate::ops::gen_cert::write(names, cert, key) {
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
    if let Some(Command::Admin { action }) = &config.command {
        let public_url = match &config.public_url {
            Some(url) => url.to_string(),
            None => format!("http://{}", config.listen),
        };
        return runtime.block_on(crate::accounts::admin::run(
            &config.database(),
            &public_url,
            action.clone(),
        ));
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
    let directions = directions(addr, config.tls_cert.is_some(), config.public_url.as_ref());
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
    let mut server = tokio::spawn(ready.serve(listener));
    tracing::info!(%addr, %database, "boardcast-server listening");
    tracing::info!("{directions}");
    // The server can also stop on its own (a node of a cluster whose node id another run
    // took): the process then ends with it instead of waiting for a signal.
    let stopped = tokio::select! {
        () = wait_for_signal() => {
            tracing::info!("shutting down");
            trigger.fire();
            server.await
        }
        stopped = &mut server => stopped,
    };
    match stopped {
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

/// The line that tells the person who started the server where to go: the page to open in a
/// browser and the terminal client's command, for the address it listens on (or
/// `--public-url`).
fn directions(addr: SocketAddr, tls: bool, public_url: Option<&PublicUrl>) -> String {
    if let Some(url) = public_url {
        return format!("open {url}/ in a browser; terminal client: boardcast --server {url}");
    }
    let (web, ws) = if tls {
        ("https", "wss")
    } else {
        ("http", "ws")
    };
    let port = addr.port();
    // A certificate names a host, and most name `localhost` rather than 127.0.0.1.
    let loopback = if tls { "localhost" } else { "127.0.0.1" };
    let here = match addr.ip() {
        ip if ip.is_unspecified() => loopback.to_owned(),
        IpAddr::V6(ip) => format!("[{ip}]"),
        IpAddr::V4(ip) => ip.to_string(),
    };
    let server = if tls {
        format!("{ws}://{here}:{port}/ws")
    } else {
        format!("{here}:{port}")
    };
    let mut line = format!("open {web}://{here}:{port}/ in a browser");
    if addr.ip().is_unspecified() {
        line.push_str(&format!(
            " (from another machine: {web}://THIS-MACHINE'S-ADDRESS:{port}/)"
        ));
    }
    line.push_str(&format!("; terminal client: boardcast --server {server}"));
    line
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_name_the_page_and_the_client_command_for_the_address_listened_on() {
        let addr = |text: &str| text.parse::<SocketAddr>().unwrap();
        assert_eq!(
            directions(addr("127.0.0.1:7878"), false, None),
            "open http://127.0.0.1:7878/ in a browser; terminal client: boardcast --server \
             127.0.0.1:7878"
        );
        assert_eq!(
            directions(addr("0.0.0.0:8080"), false, None),
            "open http://127.0.0.1:8080/ in a browser (from another machine: \
             http://THIS-MACHINE'S-ADDRESS:8080/); terminal client: boardcast --server \
             127.0.0.1:8080"
        );
        assert_eq!(
            directions(addr("[::1]:7878"), true, None),
            "open https://[::1]:7878/ in a browser; terminal client: boardcast --server \
             wss://[::1]:7878/ws"
        );
        assert_eq!(
            directions(addr("[::]:443"), true, None),
            "open https://localhost:443/ in a browser (from another machine: \
             https://THIS-MACHINE'S-ADDRESS:443/); terminal client: boardcast --server \
             wss://localhost:443/ws"
        );
        let public: PublicUrl = "https://draughts.example.org".parse().unwrap();
        assert_eq!(
            directions(addr("127.0.0.1:7878"), true, Some(&public)),
            "open https://draughts.example.org/ in a browser; terminal client: boardcast \
             --server https://draughts.example.org"
        );
    }
}
