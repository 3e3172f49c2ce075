//! `boardcast-load`: the load generator and benchmark harness for Boardcast.
//!
//! Every scenario talks to a server on a loopback address only, stops by itself (count and
//! duration flags with defaults), and prints a report with HDR-histogram percentiles. See
//! `BENCHMARKS.md` at the repository root for the commands and the figures measured.

mod disk;
mod echo;
mod event_spectators;
mod fanout;
mod idle;
mod ladder;
mod logins;
mod matches;
mod outbox;
mod peek;
mod report;
mod scrape;
mod spectators;
mod sys;
mod ws;

use std::net::SocketAddr;
use std::time::Duration;

use clap::{Parser, Subcommand};

/// Load generator for the Boardcast server (loopback only).
#[derive(Debug, Parser)]
#[command(name = "boardcast-load", version)]
struct Cli {
    /// Worker threads of the load generator's tokio runtime (default: one per core).
    #[arg(long, global = true)]
    threads: Option<usize>,

    /// Connect with TLS (`wss://localhost:PORT`), trusting the CA or self-signed certificate
    /// in this PEM file: for a server started with --tls-cert/--tls-key.
    #[arg(long, global = true, value_name = "PEM")]
    tls_ca: Option<std::path::PathBuf>,

    #[command(subcommand)]
    scenario: Scenario,
}

#[derive(Debug, Subcommand)]
enum Scenario {
    /// Concurrent Frisian matches between simulated players making legal moves.
    Matches(matches::Args),
    /// Many watchers on one MinitChess channel: reveal fan-out latency and deliveries/s.
    Spectators(spectators::Args),
    /// Many spectators following one club event while members join and withdraw: each
    /// change's push to the last spectator, and deliveries/s.
    EventSpectators(event_spectators::Args),
    /// Open many connections and hold them; with --server-pid, server memory per connection.
    Idle(idle::Args),
    /// A bare tokio-tungstenite echo server, the baseline for round trips.
    EchoServer(echo::ServerArgs),
    /// A bare tokio-tungstenite fan-out: the baseline for `spectators` (see `--fanout-addr`).
    FanoutServer(fanout::ServerArgs),
    /// Round trips of a move-sized binary frame against `echo-server`.
    Echo(echo::ClientArgs),
    /// Time small appends + fdatasync in a directory: the floor under a durable move's ack.
    Fsync(disk::Args),
    /// Many concurrent logins of one account, retried on 503 `busy`: logins per second.
    Logins(logins::Args),
    /// `GET /api/ladder` one after another: the ladder query's time and server CPU.
    Ladder(ladder::Args),
    /// No server: rounds of one frame pushed into many outboxes and taken by their writers,
    /// the server's outbox (flume) or tokio's `mpsc`; run under callgrind or heaptrack.
    Outbox(outbox::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    if let Some(ca) = &cli.tls_ca
        && let Err(err) = ws::use_tls(ca)
    {
        eprintln!("error: --tls-ca {}: {err}", ca.display());
        return std::process::ExitCode::FAILURE;
    }
    match sys::raise_nofile_limit() {
        Ok((soft, hard)) => eprintln!("open-file limit: {soft} (hard {hard})"),
        Err(err) => eprintln!("warning: could not raise the open-file limit: {err}"),
    }
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.enable_all();
    if let Some(threads) = cli.threads {
        builder.worker_threads(threads.max(1));
    }
    let runtime = match builder.build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the tokio runtime: {err}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match cli.scenario {
            Scenario::Matches(args) => matches::run(args).await,
            Scenario::Spectators(args) => spectators::run(args).await,
            Scenario::EventSpectators(args) => event_spectators::run(args).await,
            Scenario::Idle(args) => idle::run(args).await,
            Scenario::EchoServer(args) => echo::serve(args).await,
            Scenario::FanoutServer(args) => fanout::serve(args).await,
            Scenario::Echo(args) => echo::run(args).await,
            Scenario::Fsync(args) => disk::run(args).await,
            Scenario::Logins(args) => logins::run(args).await,
            Scenario::Ladder(args) => ladder::run(args).await,
            Scenario::Outbox(args) => outbox::run(args).await,
        }
    });
    // Tasks still blocked on sockets must not keep the process alive.
    runtime.shutdown_timeout(Duration::from_secs(1));
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The error type of every scenario: a message for the operator.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Refuses anything but a loopback address: this tool never loads another machine.
pub fn loopback(text: &str) -> Result<SocketAddr, String> {
    let addr: SocketAddr = text
        .parse()
        .map_err(|err| format!("`{text}` is not an IP:PORT address: {err}"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "`{text}` is not a loopback address; boardcast-load only talks to 127.0.0.0/8 or ::1"
        ));
    }
    Ok(addr)
}

/// Parses `250ms`, `30s`, `5m` or a bare number of seconds: the server's own syntax.
pub fn duration(text: &str) -> Result<Duration, String> {
    boardcast_server::duration::parse_duration(text)
}
