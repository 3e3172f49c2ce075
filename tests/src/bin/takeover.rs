//! `takeover`: how long a match stands still when a fault hits the cluster under it (issue 28,
//! "Measure"; BENCHMARKS.md "Several nodes").
//!
//! Each run starts a fresh cluster with the harness of the cluster tests
//! (`boardcast_tests::cluster`: three real `boardcast-server` nodes `a`, `b`, `c` on a real
//! PostgreSQL and `redis-server`), opens one match on node `a` (its owner) and has both players
//! play it through the *surviving* nodes: White on `b`, Black on `c`, every move sent as soon as
//! the previous one is acknowledged. A few moves in, then after a random part of the lease's
//! renewal period (a third of the lease) of moves every 25 ms — right after an ack, before the
//! next move is sent, so no answer is in flight across the fault — it injects one fault:
//!
//! - `kill9`: the owner `a` is killed with SIGKILL;
//! - `sigstop`: the owner `a` is frozen (SIGSTOP) and stays frozen; its lease lapses;
//! - `redis`: `redis-server` is killed and started again at once (empty);
//! - `postgres`: PostgreSQL is stopped (fast shutdown) and started again at once.
//!
//! The players behave as the cluster tests' do (and as PROTOCOL.md asks of clients): a move
//! refused with "try again" (`storage_unavailable`, `busy`, `shutting_down`) goes again with the
//! same envelope id after 200 ms; a lost connection, or a move unanswered for `--patience`, is
//! followed by a new connection to the same node, a `resume` and the same move again.
//!
//! The figure is the **take-over time**: the last ack before the fault to the first ack after
//! it, as the players see it. Each run prints it with its parts (last ack → fault, fault →
//! first ack), who owns the match afterwards and the load average; each fault ends with p50 and
//! max over its runs. Nothing is asserted: this is a measurement, run by
//! `tests/bench/takeover.sh`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardcast_protocol::{
    ClientMessage, ColorChoice, Encoding, ErrorCode, JoinMatch, PlayMove, Seat, Side,
};
use boardcast_tests::client::{Client, ClientError};
use boardcast_tests::cluster::{Cluster, ClusterOptions};
use boardcast_tests::games::{RefGame, reference_games};
use clap::{Parser, ValueEnum};
use tokio::time::Instant;

/// What the command line says.
#[derive(Debug, Parser)]
#[command(about = "Take-over time of a three-node cluster under one fault at a time")]
struct Args {
    /// The `boardcast-server` program every node runs (a release build).
    #[arg(long)]
    server: PathBuf,
    /// Runs per fault, each on a fresh cluster.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// `--lease-ms` of every node (the server's default is 5000).
    #[arg(long, default_value_t = 5000)]
    lease_ms: u64,
    /// The faults to measure, in order.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "kill9,sigstop,redis,postgres"
    )]
    faults: Vec<Fault>,
    /// Acknowledged moves before the random wait for the fault.
    #[arg(long, default_value_t = 10)]
    moves_before: usize,
    /// How long a player waits for an answer before reconnecting and sending the move again.
    #[arg(long, default_value = "30", value_parser = seconds)]
    patience: Duration,
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{text:?} is not a positive number of seconds"))
}

/// One fault injected into a running cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Fault {
    /// SIGKILL of the match's owner.
    Kill9,
    /// SIGSTOP of the match's owner, kept frozen past its lease.
    Sigstop,
    /// `redis-server` killed and started again at once.
    Redis,
    /// PostgreSQL stopped (fast) and started again at once.
    Postgres,
}

impl Fault {
    fn label(self) -> &'static str {
        match self {
            Fault::Kill9 => "owner kill -9",
            Fault::Sigstop => "owner SIGSTOP past the lease",
            Fault::Redis => "Redis restart",
            Fault::Postgres => "PostgreSQL restart",
        }
    }

    /// Injects the fault; blocking (signals and server restarts wait for their effect).
    fn inject(self, cluster: &mut Cluster) {
        match self {
            Fault::Kill9 => cluster.kill9("a"),
            Fault::Sigstop => cluster.freeze("a"),
            Fault::Redis => {
                cluster.redis().stop();
                cluster
                    .redis()
                    .start_again()
                    .unwrap_or_else(|err| panic!("Redis did not start again: {err}"));
            }
            Fault::Postgres => {
                cluster.postgres().stop();
                cluster
                    .postgres()
                    .start_again()
                    .unwrap_or_else(|err| panic!("PostgreSQL did not start again: {err}"));
            }
        }
    }
}

/// What one run measured.
#[derive(Debug)]
struct Measured {
    /// Last ack before the fault → first ack after it.
    takeover: Duration,
    /// Last ack before the fault → the fault.
    before: Duration,
    /// How long injecting the fault took (restarting a server, waiting for SIGSTOP to land).
    injecting: Duration,
    /// The fault → the first ack after it.
    after: Duration,
    /// The match's owner after the first ack, as PostgreSQL says.
    owner_after: String,
    /// Moves refused with "try again" and reconnections, after the fault.
    refused: usize,
    reconnected: usize,
}

/// The longest reference game: plenty of plies after the fault.
fn longest_game() -> &'static RefGame {
    reference_games()
        .iter()
        .max_by_key(|game| game.routes.len())
        .expect("reference games")
}

/// A refusal that changed nothing and asks to try again.
fn is_try_again(err: &ClientError) -> bool {
    matches!(err, ClientError::Refused(reply) if matches!(
        reply.code,
        ErrorCode::StorageUnavailable | ErrorCode::Busy | ErrorCode::ShuttingDown
    ))
}

/// A lost connection or an answer that never came.
fn is_connection_loss(err: &ClientError) -> bool {
    matches!(
        err,
        ClientError::Closed(_) | ClientError::Ws(_) | ClientError::Timeout(_)
    )
}

const TRY_AGAIN_AFTER: Duration = Duration::from_millis(200);

/// The pause between moves while the run waits for its moment to inject the fault.
const PACE: Duration = Duration::from_millis(25);

/// One player: a connection to a surviving node and the seat it holds.
struct Player {
    home: SocketAddr,
    client: Option<Client>,
    seat: Seat,
    next_id: u64,
}

/// The two players and the acks they got, shared with the fault injector.
struct Game {
    players: [Player; 2],
    game: &'static RefGame,
    patience: Duration,
    /// When each ack arrived, in ply order.
    acks: Arc<Mutex<Vec<Instant>>>,
    /// Moves refused with "try again", and new connections, over the run.
    refused: Arc<AtomicUsize>,
    reconnected: Arc<AtomicUsize>,
}

impl Game {
    /// Plays ply after ply until `stop` plies are acknowledged (or the game ends).
    async fn play_until(&mut self, stop: usize) -> Result<(), String> {
        let mut ply = self.acks.lock().expect("acks").len();
        while ply < stop.min(self.game.routes.len()) {
            self.play_ply(ply).await?;
            ply += 1;
        }
        Ok(())
    }

    /// Sends ply `ply` and sends it again (same id) until it is acknowledged.
    async fn play_ply(&mut self, ply: usize) -> Result<(), String> {
        let side = ply % 2;
        let route = self.game.routes[ply].clone();
        let deadline = Instant::now() + Duration::from_secs(300);
        let player = &mut self.players[side];
        let message = ClientMessage::Move(PlayMove {
            match_id: player.seat.match_id.clone(),
            token: player.seat.token.clone(),
            route,
            lag_ms: None,
        });
        let id = player.next_id;
        player.next_id += 1;
        loop {
            if Instant::now() > deadline {
                return Err(format!("ply {ply} unanswered for 300 s"));
            }
            if player.client.is_none() {
                match reconnect(player, self.patience).await {
                    Ok(client) => player.client = Some(client),
                    Err(err) if is_connection_loss(&err) || is_try_again(&err) => {
                        tokio::time::sleep(TRY_AGAIN_AFTER).await;
                        continue;
                    }
                    Err(err) => return Err(format!("resume on {}: {err}", player.home)),
                }
                self.reconnected.fetch_add(1, Ordering::Relaxed);
            }
            let client = player.client.as_mut().expect("connected");
            let answer = async {
                client.send_with_id(id, message.clone()).await?;
                client.expect_ack(id).await
            }
            .await;
            match answer {
                Ok(_) => {
                    self.acks.lock().expect("acks").push(Instant::now());
                    return Ok(());
                }
                Err(err) if is_try_again(&err) => {
                    self.refused.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(TRY_AGAIN_AFTER).await;
                }
                Err(err) if is_connection_loss(&err) => {
                    player.client = None;
                }
                Err(err) => return Err(format!("ply {ply}: {err}")),
            }
        }
    }
}

/// A new connection to the player's node with the seat taken back.
async fn reconnect(player: &mut Player, patience: Duration) -> Result<Client, ClientError> {
    let mut client = Client::connect(player.home, Encoding::Json).await?;
    client.timeout = patience;
    client.set_next_id(player.next_id);
    client.resume(&player.seat.token, None).await?;
    player.next_id = client.next_id();
    Ok(client)
}

/// One run: a fresh cluster, a match owned by `a` played through `b` and `c`, one fault.
async fn run(args: &Args, fault: Fault) -> Result<Measured, String> {
    let mut options = ClusterOptions {
        lease_ms: args.lease_ms,
        ..ClusterOptions::default()
    };
    if fault == Fault::Postgres {
        options = options.with_own_postgres();
    }
    let mut cluster = Cluster::start_or_skip("takeover", &args.server, &["a", "b", "c"], options)
        .ok_or("PostgreSQL or Redis is not installed")?;
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    let connect = |addr| async move {
        let mut client = Client::connect(addr, Encoding::Json)
            .await
            .map_err(|err| format!("connect to {addr}: {err}"))?;
        client.timeout = args.patience;
        Ok::<_, String>(client)
    };
    // The match belongs to the node it is created on: a. White then plays from b, Black from c.
    let mut creator = connect(a).await?;
    let white_seat = creator
        .create_match(ColorChoice::White, false, None)
        .await
        .map_err(|err| format!("create on a: {err}"))?;
    drop(creator);
    let mut black = connect(c).await?;
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .map_err(|err| format!("join on c: {err}"))?;
    let mut white = connect(b).await?;
    let resumed = white
        .resume(&white_seat.token, None)
        .await
        .map_err(|err| format!("resume White on b: {err}"))?;
    assert_eq!(resumed.side, Side::White);
    let acks = Arc::new(Mutex::new(Vec::new()));
    let (refused, reconnected) = (Arc::<AtomicUsize>::default(), Arc::<AtomicUsize>::default());
    let mut game = Game {
        game: longest_game(),
        patience: args.patience,
        acks: Arc::clone(&acks),
        refused: Arc::clone(&refused),
        reconnected: Arc::clone(&reconnected),
        players: [
            Player {
                home: b,
                next_id: white.next_id(),
                client: Some(white),
                seat: white_seat,
            },
            Player {
                home: c,
                next_id: black.next_id(),
                client: Some(black),
                seat: black_seat,
            },
        ],
    };
    game.play_until(args.moves_before).await?;
    // Faults do not wait for a lease's renewal: play on, a move every PACE, for a random part
    // of the renewal period (a third of the lease), so runs hit every point of it.
    let play_on = Duration::from_millis(rand::random_range(0..=args.lease_ms / 3));
    let started = Instant::now();
    let mut plies = args.moves_before;
    while started.elapsed() < play_on {
        tokio::time::sleep(PACE).await;
        plies += 1;
        game.play_until(plies).await?;
    }
    let match_id = game.players[0].seat.match_id.clone();
    let owner_before = owner(&cluster, &match_id).await;
    if owner_before != "a" {
        return Err(format!("the match is owned by {owner_before}, not a"));
    }
    if plies >= game.game.routes.len() {
        return Err("the game ended before the fault".into());
    }
    // The fault comes between two moves: after an ack, before the next move is sent, so no
    // answer is in flight across it.
    let last_before = *acks
        .lock()
        .expect("acks")
        .last()
        .ok_or("no ack before the fault")?;
    let fault_at = Instant::now();
    tokio::task::block_in_place(|| fault.inject(&mut cluster));
    let injected = Instant::now();
    // The next move goes at once, as a player's would; its ack is the first after the fault.
    if let Err(err) = game.play_until(plies + 1).await {
        return Err(format!("no ack after the fault: {err}\n{}", cluster.logs()));
    }
    let first_after = *acks.lock().expect("acks").last().expect("acked");
    let owner_after = owner(&cluster, &match_id).await;
    if fault == Fault::Sigstop {
        cluster.thaw("a");
    }
    Ok(Measured {
        takeover: first_after - last_before,
        before: fault_at - last_before,
        injecting: injected - fault_at,
        after: first_after - fault_at,
        owner_after,
        refused: refused.load(Ordering::Relaxed),
        reconnected: reconnected.load(Ordering::Relaxed),
    })
}

/// The live owner of `match_id` as PostgreSQL says now ("none", or "?" if it cannot be read).
async fn owner(cluster: &Cluster, match_id: &str) -> String {
    match cluster.owners().await {
        Ok(owners) => match owners.get(match_id) {
            Some(Some(node)) => node.clone(),
            Some(None) => "none".into(),
            None => "finished".into(),
        },
        Err(_) => "?".into(),
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "?".into())
}

fn secs(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// The nearest-rank percentile `p` (0–100) of sorted `values`.
fn percentile(sorted: &[Duration], p: usize) -> Duration {
    let rank = (p * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1]
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let mut failed = false;
    println!(
        "lease {} ms, {} runs per fault, {} moves before each fault, game {} ({} plies)",
        args.lease_ms,
        args.runs,
        args.moves_before,
        longest_game().id,
        longest_game().routes.len()
    );
    let mut summary = Vec::new();
    for &fault in &args.faults {
        let mut figures = Vec::new();
        for index in 1..=args.runs {
            let load_before = load_average();
            match run(&args, fault).await {
                Ok(measured) => {
                    println!(
                        "{} run {index}: take-over {} (last ack → fault {}, injecting {}, fault → \
                         first ack {}), owner after: {}, {} refusals, {} reconnections; \
                         load average {} → {}",
                        fault.label(),
                        secs(measured.takeover),
                        secs(measured.before),
                        secs(measured.injecting),
                        secs(measured.after),
                        measured.owner_after,
                        measured.refused,
                        measured.reconnected,
                        load_before,
                        load_average()
                    );
                    figures.push(measured.takeover);
                }
                Err(err) => {
                    failed = true;
                    println!("{} run {index}: FAILED: {err}", fault.label());
                }
            }
        }
        figures.sort();
        if let Some(max) = figures.last() {
            let line = format!(
                "{}: p50 {} / max {} over {} runs",
                fault.label(),
                secs(percentile(&figures, 50)),
                secs(*max),
                figures.len()
            );
            println!("{line}");
            summary.push(line);
        }
    }
    println!("summary (load average now {}):", load_average());
    for line in summary {
        println!("  {line}");
    }
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
