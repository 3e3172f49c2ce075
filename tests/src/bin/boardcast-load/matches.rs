//! The matches scenario: concurrent Frisian matches between simulated players. Each match is
//! one task holding both players' connections; the side to move picks a legal move at random
//! from the last `moved` event and sends its route, then waits for the ack and for the
//! opponent's `moved` event before the reply. Reports durable moves per second (acks) and the
//! move→ack latency.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use boardcast_protocol::{
    ClientEnvelope, ClientMessage, ColorChoice, CreateMatch, Encoding, JoinMatch, MatchEvent,
    PlayMove, SeatAction, ServerMessage, Side, TimeControl,
};
use hdrhistogram::Histogram;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use tokio::sync::watch;

use crate::report;
use crate::ws::{Client, Ramp};
use crate::{Error, disk, duration, echo, loopback, scrape, sys};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Boardcast server (loopback). With several addresses (comma-separated or repeated:
    /// the nodes of a cluster), match `i` seats White on node `i` and Black on node `i + 1`
    /// (in turn), so every move crosses from one node to the match's owner on another.
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = loopback, value_delimiter = ',', num_args = 1..)]
    pub addr: Vec<SocketAddr>,
    /// Concurrent matches (two connections each).
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// How long to measure, after every match is set up.
    #[arg(long, default_value = "30s", value_parser = duration)]
    pub duration: Duration,
    /// Total moves per second to aim for, spread over the matches; default: every match moves
    /// as soon as the previous move is acknowledged and the opponent has seen it.
    #[arg(long)]
    pub rate: Option<f64>,
    /// Resign a game after this many plies and start the next one (random play can shuffle
    /// kings for a long time).
    #[arg(long, default_value_t = 200)]
    pub max_plies: u32,
    /// Play timed matches with this control (`5+3`); default untimed.
    #[arg(long)]
    pub time_control: Option<TimeControl>,
    /// Also measure round trips against this echo server (`boardcast-load echo-server`) in the
    /// same run, with one frame in flight per match, and report the ratio.
    #[arg(long, value_parser = loopback)]
    pub echo_addr: Option<SocketAddr>,
    /// How long the echo comparison runs.
    #[arg(long, default_value = "10s", value_parser = duration)]
    pub echo_duration: Duration,
    /// After the run, time `fsync` in this directory (the one holding the server's `--db`)
    /// and print it beside move→ack: the floor under a durable ack is echo + fsync.
    #[arg(long, default_value = "/tmp")]
    pub fsync_dir: PathBuf,
    /// Appends the fsync probe times (0: no probe).
    #[arg(long, default_value_t = 200)]
    pub fsync_count: usize,
    /// Where the server's `/metrics` page is, for its storage figures over the window (group
    /// commits, requests a group, checkpoints); default the first `--addr` (use the server's
    /// `--metrics-listen` address if it has one). With several nodes, one node's figures.
    #[arg(long, value_parser = loopback)]
    pub metrics_addr: Option<SocketAddr>,
    /// The server's process id, to report its resident memory and CPU; with several nodes,
    /// each node's (comma-separated or repeated), counted together.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub server_pid: Vec<u32>,
    /// Connections opened in parallel during set-up.
    #[arg(long, default_value_t = 64)]
    pub ramp: usize,
    /// Give up if the matches are not all set up within this time.
    #[arg(long, default_value = "120s", value_parser = duration)]
    pub setup_timeout: Duration,
    /// Seed of the move choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The Frisian start position's legal moves for White: the first move of every game. The
/// server's own legal-move list only arrives with the `moved` events.
const OPENING: [[u8; 2]; 9] = [
    [31, 26],
    [31, 27],
    [32, 27],
    [32, 28],
    [33, 28],
    [33, 29],
    [34, 29],
    [34, 30],
    [35, 30],
];

/// No answer for this long means the server is stuck (or dropped us).
const STALL: Duration = Duration::from_secs(30);

/// Counters every match task updates.
struct Totals {
    measuring: AtomicBool,
    stop: AtomicBool,
    ready: AtomicUsize,
    failed_setup: AtomicUsize,
    /// Moves acknowledged while measuring.
    acked: AtomicU64,
    /// Moves acknowledged at any time, for progress lines.
    acked_all: AtomicU64,
    refused: AtomicU64,
    games_started: AtomicU64,
    games_ended: AtomicU64,
    games_resigned: AtomicU64,
    connection_errors: AtomicU64,
    latency: report::Shared,
    /// Move sent → the opponent's `moved` event arrived.
    seen: report::Shared,
    /// With `--rate`: how late each move was sent after its time in the schedule (this
    /// process waiting for a CPU, or the previous move's answers arriving after it was due).
    late: report::Shared,
    /// Encoded size of the last move envelope, for the echo comparison.
    move_frame_bytes: AtomicUsize,
}

/// One game in progress: the match and each side's seat token (index 0 White, 1 Black).
struct Game {
    match_id: String,
    tokens: [String; 2],
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("matches", &report::command_line());
    let needed = 2 * args.count as u64 + 64;
    if sys::nofile_limit() < needed {
        eprintln!(
            "warning: open-file limit {} is below the {needed} this run needs",
            sys::nofile_limit()
        );
    }
    let totals = Arc::new(Totals {
        measuring: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        ready: AtomicUsize::new(0),
        failed_setup: AtomicUsize::new(0),
        acked: AtomicU64::new(0),
        acked_all: AtomicU64::new(0),
        refused: AtomicU64::new(0),
        games_started: AtomicU64::new(0),
        games_ended: AtomicU64::new(0),
        games_resigned: AtomicU64::new(0),
        connection_errors: AtomicU64::new(0),
        latency: report::Shared::new(),
        seen: report::Shared::new(),
        late: report::Shared::new(),
        move_frame_bytes: AtomicUsize::new(0),
    });
    let (start_tx, start_rx) = watch::channel(false);
    let ramp = Ramp::new(args.ramp);
    let interval = args
        .rate
        .filter(|rate| *rate > 0.0)
        .map(|rate| Duration::from_secs_f64(args.count as f64 / rate));
    let rss_before = sys::rss_kib_all(&args.server_pid);

    let setup_started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..args.count {
        let nodes = args.addr.len();
        let player = Player {
            addrs: [args.addr[index % nodes], args.addr[(index + 1) % nodes]],
            ramp: ramp.clone(),
            totals: totals.clone(),
            start: start_rx.clone(),
            rng: StdRng::seed_from_u64(
                args.seed.wrapping_mul(1_000_003).wrapping_add(index as u64),
            ),
            interval,
            max_plies: args.max_plies,
            time_control: args.time_control,
        };
        tasks.spawn(player.run());
    }

    // Wait until every match is seated (or failed), then start the clock.
    loop {
        let ready = totals.ready.load(Ordering::Relaxed);
        let failed = totals.failed_setup.load(Ordering::Relaxed);
        if ready + failed >= args.count {
            break;
        }
        if setup_started.elapsed() > args.setup_timeout {
            eprintln!(
                "set-up timed out: {ready} ready, {failed} failed of {}",
                args.count
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ready = totals.ready.load(Ordering::Relaxed);
    println!(
        "set-up  : {ready} of {} matches seated ({} connections) in {:.1} s, {} failed",
        args.count,
        2 * ready,
        setup_started.elapsed().as_secs_f64(),
        totals.failed_setup.load(Ordering::Relaxed)
    );
    if ready == 0 {
        return Err("no match could be set up; is the server running?".into());
    }

    // The echo baseline, measured now while the Boardcast connections sit idle.
    let echo_result = match args.echo_addr {
        Some(echo_addr) => {
            let size = totals.move_frame_bytes.load(Ordering::Relaxed);
            let frame = if size > 0 {
                vec![0x5a; size]
            } else {
                echo::move_sized_frame()
            };
            match echo::measure(echo_addr, ready, args.echo_duration, frame).await {
                Ok(result) => Some(result),
                Err(err) => {
                    eprintln!("echo comparison failed: {err}");
                    None
                }
            }
        }
        None => None,
    };

    let rss_seated = sys::rss_kib_all(&args.server_pid);
    let metrics_addr = args.metrics_addr.unwrap_or(args.addr[0]);
    let storage_before = scrape::Storage::read(metrics_addr).await;
    let cpu_before = cpu_snapshot(&args.server_pid);
    totals.measuring.store(true, Ordering::SeqCst);
    let started = Instant::now();
    let _ = start_tx.send(true);
    let mut last_acked = 0;
    let mut last_tick = started;
    let mut peak_rss = 0;
    while started.elapsed() < args.duration {
        let left = args.duration.saturating_sub(started.elapsed());
        tokio::time::sleep(left.min(Duration::from_secs(5))).await;
        let acked = totals.acked_all.load(Ordering::Relaxed);
        let now = Instant::now();
        if let Some(rss) = sys::rss_kib_all(&args.server_pid) {
            peak_rss = peak_rss.max(rss);
        }
        eprintln!(
            "  t={:5.1}s  {:8.0} moves/s  refused {}  conn errors {}",
            started.elapsed().as_secs_f64(),
            report::rate(acked - last_acked, now - last_tick),
            totals.refused.load(Ordering::Relaxed),
            totals.connection_errors.load(Ordering::Relaxed),
        );
        last_acked = acked;
        last_tick = now;
    }
    totals.measuring.store(false, Ordering::SeqCst);
    let window = started.elapsed();
    totals.stop.store(true, Ordering::SeqCst);
    let latency = totals.latency.snapshot();
    let seen = totals.seen.snapshot();
    let late = totals.late.snapshot();
    let cpu_after = cpu_snapshot(&args.server_pid);
    let storage_after = scrape::Storage::read(metrics_addr).await;
    let acked = totals.acked.load(Ordering::Relaxed);

    // Let the tasks finish their move and close; abort whatever is still waiting.
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();

    let moves_per_second = report::rate(acked, window);
    println!(
        "window  : {:.1} s, {ready} matches, {} connections, pacing {}",
        window.as_secs_f64(),
        2 * ready,
        match args.rate {
            Some(rate) => format!("{rate} moves/s in total"),
            None => "none (move as soon as acknowledged)".to_owned(),
        }
    );
    println!(
        "games   : {} started, {} ended by the rules, {} resigned at {} plies",
        totals.games_started.load(Ordering::Relaxed),
        totals.games_ended.load(Ordering::Relaxed),
        totals.games_resigned.load(Ordering::Relaxed),
        args.max_plies
    );
    println!(
        "errors  : {} moves refused, {} connection errors",
        totals.refused.load(Ordering::Relaxed),
        totals.connection_errors.load(Ordering::Relaxed)
    );
    println!("durable moves/s: {moves_per_second:.0}  ({acked} acks in the window)");
    println!("{}", report::latency_line("move->ack", &latency));
    println!("{}", report::latency_line("move->opponent sees it", &seen));
    if args.rate.is_some() {
        println!(
            "{}",
            report::latency_line("send after its time in the schedule", &late)
        );
    }
    report::cpu_line(&cpu_before, &cpu_after, window);
    match (&storage_before, &storage_after) {
        (Ok(before), Ok(after)) => {
            for line in after.report_since(before, window) {
                println!("{line}");
            }
        }
        (Err(err), _) | (_, Err(err)) => {
            println!("storage : no figures from http://{metrics_addr}/metrics ({err})");
        }
    }
    if let (Some(before), Some(seated)) = (rss_before, rss_seated) {
        println!(
            "server RSS: {} KiB before set-up, {} KiB seated, peak {} KiB while playing",
            before, seated, peak_rss
        );
    }
    if let Some(echo_result) = &echo_result {
        echo_result.print("echo");
        if !latency.is_empty() && !echo_result.round_trips.is_empty() {
            let ratio = report::p50(&latency) as f64 / report::p50(&echo_result.round_trips) as f64;
            println!(
                "ratio   : move->ack p50 / echo round-trip p50 = {} / {} = {ratio:.2}x",
                report::ms(report::p50(&latency)),
                report::ms(report::p50(&echo_result.round_trips))
            );
            report::target(
                ratio <= 1.5,
                &format!("move round trip p50 at most 1.5x echo p50 (measured {ratio:.2}x)"),
            );
        }
    }
    if args.fsync_count > 0 {
        let echo = echo_result.as_ref().map(|e| &e.round_trips);
        print_durable_floor(&args, &latency, echo).await?;
    }
    if args.count >= 2000 {
        if args.rate.is_none() {
            report::target(
                moves_per_second >= 5000.0,
                &format!(
                    "at least 5,000 durable moves/s at 2,000 matches (measured {moves_per_second:.0})"
                ),
            );
        }
        let p99 = latency.value_at_quantile(0.99);
        report::target(
            p99 <= 10_000,
            &format!(
                "p99 move->ack at most 10 ms (measured {}; {})",
                report::ms(p99),
                if args.rate.is_none() {
                    "closed loop: every match waits for its ack, so this is mostly queueing"
                } else {
                    "paced"
                }
            ),
        );
    }
    Ok(())
}

/// The fsync probe's append figures, and move→ack against the floor under a durable ack: one
/// sync (SQLite in WAL mode syncs at every commit) plus, when measured, one echo round trip.
async fn print_durable_floor(
    args: &Args,
    latency: &Histogram<u64>,
    echo: Option<&Histogram<u64>>,
) -> Result<(), Error> {
    let probe = disk::probe(&args.fsync_dir, args.fsync_count, disk::WAL_FRAME_BYTES).await?;
    println!(
        "{}",
        report::latency_line(
            &format!("fsync (append+fdatasync in {})", args.fsync_dir.display()),
            &probe.append
        )
    );
    if latency.is_empty() || probe.append.is_empty() {
        return Ok(());
    }
    let echo = echo.filter(|e| !e.is_empty());
    let name = if echo.is_some() {
        "echo + fsync"
    } else {
        "fsync"
    };
    for (label, q) in [("p50", 0.50), ("p99", 0.99)] {
        let floor = probe.append.value_at_quantile(q) + echo.map_or(0, |e| e.value_at_quantile(q));
        let ack = latency.value_at_quantile(q);
        println!(
            "floor   : move->ack {label} / {name} {label} = {} / {} = {:.2}x",
            report::ms(ack),
            report::ms(floor),
            ack as f64 / floor.max(1) as f64
        );
    }
    Ok(())
}

fn cpu_snapshot(server_pids: &[u32]) -> report::Cpu {
    report::Cpu::now(server_pids)
}

/// One match task: both players of a match, game after game.
struct Player {
    /// Where White and Black connect: two nodes of a cluster, or the one server twice.
    addrs: [SocketAddr; 2],
    ramp: Ramp,
    totals: Arc<Totals>,
    start: watch::Receiver<bool>,
    rng: StdRng,
    interval: Option<Duration>,
    max_plies: u32,
    time_control: Option<TimeControl>,
}

/// How a game ended for the load generator.
enum GameEnd {
    /// The rules ended it (no legal move, draw rule).
    Rules,
    Resigned,
    /// The run is over.
    Stopped,
}

impl Player {
    async fn run(mut self) {
        let (mut players, mut game) = match self.set_up().await {
            Ok(seated) => seated,
            Err(err) => {
                eprintln!("set-up failed: {err}");
                self.totals.failed_setup.fetch_add(1, Ordering::Relaxed);
                return;
            }
        };
        self.totals.ready.fetch_add(1, Ordering::Relaxed);
        if self.start.wait_for(|started| *started).await.is_err() {
            return;
        }
        // Spread the first moves of all matches over one pacing interval (or 10 ms).
        let spread = self.interval.unwrap_or(Duration::from_millis(10));
        tokio::time::sleep(spread.mul_f64(rand::Rng::random::<f64>(&mut self.rng))).await;
        loop {
            match self.play(&mut players, &game).await {
                Ok(GameEnd::Stopped) => break,
                Ok(GameEnd::Rules) => {
                    self.totals.games_ended.fetch_add(1, Ordering::Relaxed);
                }
                Ok(GameEnd::Resigned) => {
                    self.totals.games_resigned.fetch_add(1, Ordering::Relaxed);
                }
                Err(err) => {
                    eprintln!("match {}: {err}", game.match_id);
                    self.totals
                        .connection_errors
                        .fetch_add(1, Ordering::Relaxed);
                    return;
                }
            }
            if self.totals.stop.load(Ordering::Relaxed) {
                break;
            }
            match new_game(&mut players, self.time_control).await {
                Ok(next) => {
                    self.totals.games_started.fetch_add(1, Ordering::Relaxed);
                    game = next;
                }
                Err(err) => {
                    eprintln!("new game: {err}");
                    self.totals
                        .connection_errors
                        .fetch_add(1, Ordering::Relaxed);
                    return;
                }
            }
        }
        let [white, black] = players;
        white.close().await;
        black.close().await;
    }

    /// Connects both players and seats them in a first game.
    async fn set_up(&mut self) -> Result<([Client; 2], Game), Error> {
        let white = self.ramp.client(self.addrs[0]).await?;
        let black = self.ramp.client(self.addrs[1]).await?;
        let mut players = [white, black];
        let game = new_game(&mut players, self.time_control).await?;
        self.totals.games_started.fetch_add(1, Ordering::Relaxed);
        let sample = ClientEnvelope {
            id: 1000,
            msg: ClientMessage::Move(PlayMove {
                match_id: game.match_id.clone(),
                token: game.tokens[0].clone(),
                route: vec![32, 28],
                lag_ms: None,
            }),
        };
        self.totals
            .move_frame_bytes
            .store(Encoding::Postcard.encode(&sample).len(), Ordering::Relaxed);
        Ok((players, game))
    }

    /// Plays one game to its end, a resignation at `max_plies`, or the end of the run.
    async fn play(&mut self, players: &mut [Client; 2], game: &Game) -> Result<GameEnd, Error> {
        let mut turn = 0usize;
        let mut legal: Vec<Vec<u8>> = OPENING.iter().map(|route| route.to_vec()).collect();
        let mut ply = 0u32;
        let mut next_at = tokio::time::Instant::now();
        loop {
            if self.totals.stop.load(Ordering::Relaxed) {
                return Ok(GameEnd::Stopped);
            }
            if ply >= self.max_plies {
                let id = players[turn]
                    .send(ClientMessage::Resign(SeatAction {
                        match_id: game.match_id.clone(),
                        token: game.tokens[turn].clone(),
                    }))
                    .await?;
                wait_reply(&mut players[turn], id).await?;
                return Ok(GameEnd::Resigned);
            }
            // Latency is measured from when a move is really sent, not from its time in the
            // schedule: a send this process made late (waiting for a CPU) would otherwise be
            // blamed on the server. The schedule does not catch up (no burst after a late
            // move), and how late the sends were is reported beside the latencies, so a
            // schedule that was not kept is seen.
            if let Some(interval) = self.interval {
                let now = tokio::time::Instant::now();
                let due = next_at;
                if next_at > now {
                    tokio::time::sleep_until(next_at).await;
                    next_at += interval;
                } else {
                    next_at = now + interval;
                }
                if self.totals.measuring.load(Ordering::Relaxed) {
                    self.totals
                        .late
                        .record(tokio::time::Instant::now().saturating_duration_since(due));
                }
            }
            let route = legal
                .choose(&mut self.rng)
                .expect("a game in progress has a legal move")
                .clone();
            let sent = Instant::now();
            let id = players[turn]
                .send(ClientMessage::Move(PlayMove {
                    match_id: game.match_id.clone(),
                    token: game.tokens[turn].clone(),
                    route,
                    lag_ms: None,
                }))
                .await?;
            let mut acked = false;
            let mut reply: Option<Vec<Vec<u8>>> = None;
            let mut ended = false;
            while !(acked && (reply.is_some() || ended)) {
                let [white, black] = &mut *players;
                let (from, message) = tokio::select! {
                    message = white.recv() => (0, message?),
                    message = black.recv() => (1, message?),
                    () = tokio::time::sleep(STALL) => {
                        return Err(format!("no ack or event for move {id} within {STALL:?}").into());
                    }
                };
                match message {
                    ServerMessage::Ack(ack) if from == turn && ack.id == id => {
                        acked = true;
                        self.totals.acked_all.fetch_add(1, Ordering::Relaxed);
                        if self.totals.measuring.load(Ordering::Relaxed) {
                            self.totals.latency.record(sent.elapsed());
                            self.totals.acked.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    ServerMessage::Error(error) if from == turn && error.id == Some(id) => {
                        // Should not happen with legal moves; count it and give the game up.
                        self.totals.refused.fetch_add(1, Ordering::Relaxed);
                        eprintln!(
                            "match {} ply {ply}: move refused: {:?} {}",
                            game.match_id, error.code, error.message
                        );
                        let id = players[turn]
                            .send(ClientMessage::Resign(SeatAction {
                                match_id: game.match_id.clone(),
                                token: game.tokens[turn].clone(),
                            }))
                            .await?;
                        wait_reply(&mut players[turn], id).await?;
                        return Ok(GameEnd::Resigned);
                    }
                    ServerMessage::MatchEvent(event) if event.match_id == game.match_id => {
                        match event.event {
                            MatchEvent::Moved(moved) if from != turn && moved.played.ply == ply => {
                                if self.totals.measuring.load(Ordering::Relaxed) {
                                    self.totals.seen.record(sent.elapsed());
                                }
                                reply = Some(
                                    moved
                                        .legal_moves
                                        .into_iter()
                                        .map(|legal| legal.route)
                                        .collect(),
                                );
                            }
                            MatchEvent::Ended(_) => ended = true,
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            match reply {
                Some(routes) if !routes.is_empty() && !ended => {
                    legal = routes;
                    turn = 1 - turn;
                    ply += 1;
                }
                _ => return Ok(GameEnd::Rules),
            }
        }
    }
}

/// Opens a private match from `players[0]` and joins it from `players[1]`; afterwards
/// `players[0]` is White.
async fn new_game(
    players: &mut [Client; 2],
    time_control: Option<TimeControl>,
) -> Result<Game, Error> {
    let id = players[0]
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }))
        .await?;
    let created = wait_seat(&mut players[0], id).await?;
    let id = players[1]
        .send(ClientMessage::JoinMatch(JoinMatch::Code(
            created.invite_code.clone(),
        )))
        .await?;
    let joined = wait_seat(&mut players[1], id).await?;
    if joined.match_id != created.match_id || joined.side == created.side {
        return Err(format!("odd seats: {created:?} and {joined:?}").into());
    }
    let mut tokens = [created.token, joined.token];
    if created.side == Side::Black {
        players.swap(0, 1);
        tokens.swap(0, 1);
    }
    Ok(Game {
        match_id: created.match_id,
        tokens,
    })
}

/// Waits for the seat answering envelope `id`, skipping everything else.
async fn wait_seat(client: &mut Client, id: u64) -> Result<boardcast_protocol::Seat, Error> {
    let deadline = tokio::time::Instant::now() + STALL;
    loop {
        let message = tokio::time::timeout_at(deadline, client.recv())
            .await
            .map_err(|_| format!("no seat for envelope {id} within {STALL:?}"))??;
        match message {
            ServerMessage::Seat(seat) if seat.id == id => return Ok(seat),
            ServerMessage::Error(error) if error.id == Some(id) => {
                return Err(format!("refused: {:?} {}", error.code, error.message).into());
            }
            _ => {}
        }
    }
}

/// Waits for the ack (or refusal) of envelope `id`, skipping everything else.
async fn wait_reply(client: &mut Client, id: u64) -> Result<(), Error> {
    let deadline = tokio::time::Instant::now() + STALL;
    loop {
        let message = tokio::time::timeout_at(deadline, client.recv())
            .await
            .map_err(|_| format!("no reply to envelope {id} within {STALL:?}"))??;
        match message {
            ServerMessage::Ack(ack) if ack.id == id => return Ok(()),
            // A refused resignation (the game ended meanwhile) is fine: move on.
            ServerMessage::Error(error) if error.id == Some(id) => return Ok(()),
            _ => {}
        }
    }
}
