//! The spectators scenario: many watchers on one MinitChess channel. For every event the
//! watchers receive, the load generator notes the first and the last arrival; per ply reveal
//! it reports how long the last watcher waited after the first one had the ply (the fan-out
//! time) and after the reveal was due (from the previous reveal's `next_reveal_in_ms`), and
//! the deliveries per second.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use boardcast_protocol::{ClientMessage, ServerMessage, Target, Watch};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

use crate::peek::{EventKind, Peeked, peek};
use crate::report;
use crate::ws::Ramp;
use crate::{Error, duration, loopback, sys};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Boardcast server (loopback), started with a short `--ply-interval`; several
    /// addresses (comma-separated or repeated: the nodes of a cluster) share the watchers out
    /// in turn.
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = loopback, value_delimiter = ',', num_args = 1..)]
    pub addr: Vec<SocketAddr>,
    /// Watchers to connect.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// The channel to watch.
    #[arg(long, default_value = "tv1")]
    pub channel: String,
    /// How long to measure once every watcher is subscribed.
    #[arg(long, default_value = "30s", value_parser = duration)]
    pub duration: Duration,
    /// The server's process id, to report its resident memory and CPU; with several nodes,
    /// each node's (comma-separated or repeated), counted together.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    pub server_pid: Vec<u32>,
    /// Connections opened in parallel. Watchers already subscribed keep the server (and the
    /// load generator) busy with reveals while the rest connect, so each handshake waits
    /// longer as the crowd grows: 512 in flight set up 10,000 watchers in 12.7 s on the server
    /// and 32.8 s on the fan-out baseline, where 64 took 24.7 s and over 120 s (loaded
    /// machine, BENCHMARKS.md).
    #[arg(long, default_value_t = 512)]
    pub ramp: usize,
    /// Give up waiting for subscriptions after this long.
    #[arg(long, default_value = "120s", value_parser = duration)]
    pub setup_timeout: Duration,
    /// After the server, run the same scenario against `boardcast-load fanout-server` at this
    /// address (started with the server's `--ply-interval`) and print the two side by side.
    #[arg(long, value_parser = loopback)]
    pub fanout_addr: Option<SocketAddr>,
    /// The fan-out baseline's process id, for its CPU per delivery.
    #[arg(long)]
    pub fanout_pid: Option<u32>,
}

/// What one run found, for the comparison with the baseline.
struct Summary {
    deliveries_per_second: f64,
    /// Reveal due → last watcher, or first → last where no reveal was due.
    p50: u64,
    p99: u64,
    /// Server CPU time per delivery, when the process id was given.
    cpu_per_delivery: Option<Duration>,
}

/// Event slots, indexed by channel event version modulo this.
const SLOTS: usize = 1 << 17;

/// Arrivals of one channel event at the watchers.
struct Slot {
    v: AtomicU64,
    /// Nanoseconds since the run's epoch.
    first: AtomicU64,
    last: AtomicU64,
    count: AtomicU32,
    /// 1 for a ply reveal, 2 for any other channel event.
    kind: AtomicU32,
    /// The reveal's `next_reveal_in_ms`, or `u64::MAX`.
    next_reveal_ms: AtomicU64,
}

struct Shared {
    epoch: Instant,
    slots: Vec<Slot>,
    measuring: AtomicBool,
    subscribed: AtomicU64,
    failed: AtomicU64,
    dropped: AtomicU64,
    crowd: AtomicU64,
    other: AtomicU64,
}

impl Shared {
    fn record(&self, v: u64, event: EventKind) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        let slot = &self.slots[(v as usize) % SLOTS];
        if slot.v.swap(v, Ordering::Relaxed) != v {
            // First arrival of this version (or a slot reused: cannot happen within a run).
            let (kind, next) = match event {
                EventKind::PlyRevealed { next_reveal_in_ms } => {
                    (1, next_reveal_in_ms.unwrap_or(u64::MAX))
                }
                EventKind::Other => (2, u64::MAX),
            };
            slot.kind.store(kind, Ordering::Relaxed);
            slot.next_reveal_ms.store(next, Ordering::Relaxed);
        }
        slot.first.fetch_min(now, Ordering::Relaxed);
        slot.last.fetch_max(now, Ordering::Relaxed);
        slot.count.fetch_add(1, Ordering::Relaxed);
    }
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("spectators", &report::command_line());
    println!("-- the server at {} --", report::addresses(&args.addr));
    let server = measure(&args, &args.addr, &args.server_pid).await?;
    if args.count >= 10_000 {
        report::target(
            server.deliveries_per_second >= 200_000.0,
            &format!(
                "at least 200,000 deliveries/s with 10,000 watchers (measured {:.0})",
                server.deliveries_per_second
            ),
        );
        report::target(
            server.p99 <= 50_000,
            &format!(
                "p99 reveal -> last watcher at most 50 ms (measured {})",
                report::ms(server.p99)
            ),
        );
    }
    let Some(fanout_addr) = args.fanout_addr else {
        return Ok(());
    };
    println!("-- the fan-out baseline at {fanout_addr} --");
    let baseline = measure(&args, &[fanout_addr], args.fanout_pid.as_slice()).await?;
    compare(&server, &baseline);
    Ok(())
}

/// The server against the baseline, measured one after the other in this run.
fn compare(server: &Summary, baseline: &Summary) {
    let ratio = |a: f64, b: f64| {
        if b > 0.0 {
            format!("{:.2}x", a / b)
        } else {
            "-".to_owned()
        }
    };
    println!(
        "versus  : deliveries/s server {:.0} / baseline {:.0} = {}",
        server.deliveries_per_second,
        baseline.deliveries_per_second,
        ratio(server.deliveries_per_second, baseline.deliveries_per_second)
    );
    for (label, s, b) in [
        ("p50", server.p50, baseline.p50),
        ("p99", server.p99, baseline.p99),
    ] {
        println!(
            "versus  : reveal -> last watcher {label} server {} / baseline {} = {}",
            report::ms(s),
            report::ms(b),
            ratio(s as f64, b as f64)
        );
    }
    match (server.cpu_per_delivery, baseline.cpu_per_delivery) {
        (Some(s), Some(b)) => println!(
            "versus  : CPU per delivery server {:.2} us / baseline {:.2} us = {}",
            s.as_secs_f64() * 1e6,
            b.as_secs_f64() * 1e6,
            ratio(s.as_secs_f64(), b.as_secs_f64())
        ),
        _ => println!("versus  : CPU per delivery needs --server-pid and --fanout-pid"),
    }
}

/// Subscribes the watchers to `addrs` (watcher `i` to `addrs[i % len]`), measures for the
/// duration and prints the report.
async fn measure(args: &Args, addrs: &[SocketAddr], server_pids: &[u32]) -> Result<Summary, Error> {
    let needed = args.count as u64 + 64;
    if sys::nofile_limit() < needed {
        eprintln!(
            "warning: open-file limit {} is below the {needed} this run needs",
            sys::nofile_limit()
        );
    }
    let shared = Arc::new(Shared {
        epoch: Instant::now(),
        slots: (0..SLOTS)
            .map(|_| Slot {
                v: AtomicU64::new(u64::MAX),
                first: AtomicU64::new(u64::MAX),
                last: AtomicU64::new(0),
                count: AtomicU32::new(0),
                kind: AtomicU32::new(0),
                next_reveal_ms: AtomicU64::new(u64::MAX),
            })
            .collect(),
        measuring: AtomicBool::new(false),
        subscribed: AtomicU64::new(0),
        failed: AtomicU64::new(0),
        dropped: AtomicU64::new(0),
        crowd: AtomicU64::new(0),
        other: AtomicU64::new(0),
    });
    let ramp = Ramp::new(args.ramp);
    // One stop signal per watcher, sent by dropping its sender: a watcher polls only its own,
    // where one shared signal would have every watcher take the same lock after every frame.
    let mut stops = Vec::with_capacity(args.count);
    let rss_before = sys::rss_kib_all(server_pids);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..args.count {
        let addr = addrs[index % addrs.len()];
        let ramp = ramp.clone();
        let shared = shared.clone();
        let (stop_tx, mut stop) = oneshot::channel::<()>();
        stops.push(stop_tx);
        let channel = args.channel.clone();
        tasks.spawn(async move {
            let subscribe = async {
                let mut client = ramp.client(addr).await?;
                let id = client
                    .send(ClientMessage::Watch(Watch {
                        target: Target::Channel(channel),
                        since_v: None,
                    }))
                    .await?;
                // Subscribed once the snapshot (or an ack) is in.
                loop {
                    match client.recv().await? {
                        ServerMessage::ChannelSnapshot(_) => break,
                        ServerMessage::Ack(ack) if ack.id == id => break,
                        ServerMessage::Error(error) if error.id == Some(id) => {
                            return Err::<_, Error>(
                                format!("watch refused: {:?} {}", error.code, error.message).into(),
                            );
                        }
                        _ => {}
                    }
                }
                Ok(client)
            };
            let mut client = match subscribe.await {
                Ok(client) => client,
                Err(err) => {
                    if shared.failed.fetch_add(1, Ordering::Relaxed) < 3 {
                        eprintln!("watcher: {err}");
                    }
                    return;
                }
            };
            shared.subscribed.fetch_add(1, Ordering::Relaxed);
            loop {
                tokio::select! {
                    // Frames first: the stop signal is looked at only when none is waiting.
                    biased;
                    frame = client.recv_frame() => {
                        let peeked = match &frame {
                            Ok(Message::Binary(bytes)) => peek(bytes).map_err(Error::from),
                            Ok(_) => Err("a text frame on a postcard connection".into()),
                            Err(err) => Err(err.to_string().into()),
                        };
                        match peeked {
                            Ok(Peeked::ChannelEvent { v, kind }) => {
                                if shared.measuring.load(Ordering::Relaxed) {
                                    shared.record(v, kind);
                                }
                            }
                            Ok(Peeked::Crowd) => {
                                shared.crowd.fetch_add(1, Ordering::Relaxed);
                            }
                            Ok(Peeked::Other) => {
                                shared.other.fetch_add(1, Ordering::Relaxed);
                            }
                            Err(err) => {
                                if shared.dropped.fetch_add(1, Ordering::Relaxed) < 3 {
                                    eprintln!("watcher dropped: {err}");
                                }
                                return;
                            }
                        }
                    }
                    _ = &mut stop => break,
                }
            }
            client.close().await;
        });
    }
    crate::ws::wait_set_up(
        &shared.subscribed,
        &shared.failed,
        args.count as u64,
        started,
        args.setup_timeout,
    )
    .await;
    let subscribed = shared.subscribed.load(Ordering::Relaxed);
    println!(
        "set-up  : {subscribed} of {} watchers subscribed to {} in {:.1} s, {} failed",
        args.count,
        args.channel,
        started.elapsed().as_secs_f64(),
        shared.failed.load(Ordering::Relaxed)
    );
    if subscribed == 0 {
        return Err("no watcher could subscribe; is the server running with channels?".into());
    }
    let rss_subscribed = sys::rss_kib_all(server_pids);
    // Let the join burst (crowd updates) pass before measuring.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let crowd_before = shared.crowd.load(Ordering::Relaxed);
    let cpu_before = report::Cpu::now(server_pids);
    let window_start = shared.epoch.elapsed().as_nanos() as u64;
    shared.measuring.store(true, Ordering::SeqCst);
    let mut waited = Duration::ZERO;
    while waited < args.duration {
        let step = (args.duration - waited).min(Duration::from_secs(5));
        tokio::time::sleep(step).await;
        waited += step;
        eprintln!(
            "  t={:5.1}s  dropped {}",
            waited.as_secs_f64(),
            shared.dropped.load(Ordering::Relaxed)
        );
    }
    let window_end = shared.epoch.elapsed().as_nanos() as u64;
    let cpu_after = report::Cpu::now(server_pids);
    // Give late arrivals of events revealed inside the window a moment.
    tokio::time::sleep(Duration::from_secs(2)).await;
    shared.measuring.store(false, Ordering::SeqCst);
    let crowd = shared.crowd.load(Ordering::Relaxed) - crowd_before;
    let dropped = shared.dropped.load(Ordering::Relaxed);
    drop(stops);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();

    // Events revealed inside the window, in version order.
    let mut events: Vec<(u64, u64, u64, u32, u32, u64)> = shared
        .slots
        .iter()
        .filter(|slot| slot.v.load(Ordering::Relaxed) != u64::MAX)
        .map(|slot| {
            (
                slot.v.load(Ordering::Relaxed),
                slot.first.load(Ordering::Relaxed),
                slot.last.load(Ordering::Relaxed),
                slot.count.load(Ordering::Relaxed),
                slot.kind.load(Ordering::Relaxed),
                slot.next_reveal_ms.load(Ordering::Relaxed),
            )
        })
        .collect();
    events.sort_unstable();
    let window = Duration::from_nanos(window_end - window_start);
    let mut fan_out = report::histogram();
    let mut behind_schedule = report::histogram();
    let mut first_late = report::histogram();
    let mut deliveries = 0u64;
    let mut reveals = 0u64;
    let mut complete = 0u64;
    let mut min_count = u32::MAX;
    for (i, &(v, first, last, count, kind, _)) in events.iter().enumerate() {
        if first < window_start || first >= window_end {
            continue;
        }
        deliveries += u64::from(count);
        if kind != 1 {
            continue;
        }
        reveals += 1;
        min_count = min_count.min(count);
        if u64::from(count) >= subscribed - dropped.min(subscribed) {
            complete += 1;
        }
        report::record(&mut fan_out, Duration::from_nanos(last - first));
        // The reveal was due `next_reveal_in_ms` after the previous reveal first arrived.
        if i > 0 {
            let (pv, pfirst, _, _, pkind, pnext) = events[i - 1];
            if pv + 1 == v && pkind == 1 && pnext != u64::MAX {
                let due = pfirst + pnext * 1_000_000;
                report::record(
                    &mut behind_schedule,
                    Duration::from_nanos(last.saturating_sub(due)),
                );
                report::record(
                    &mut first_late,
                    Duration::from_nanos(first.saturating_sub(due)),
                );
            }
        }
    }
    let per_second = report::rate(deliveries, window);
    println!(
        "window  : {:.1} s, {} watchers, {} dropped by the server or the network, {} crowd updates",
        window.as_secs_f64(),
        subscribed,
        dropped,
        crowd
    );
    println!(
        "reveals : {reveals} ply reveals, {complete} reached every connected watcher (fewest receivers: {})",
        if reveals > 0 { min_count } else { 0 }
    );
    println!(
        "deliveries/s: {per_second:.0}  ({deliveries} channel events delivered in the window)"
    );
    println!(
        "{}",
        report::latency_line("reveal fan-out (first -> last watcher)", &fan_out)
    );
    println!(
        "{}",
        report::latency_line("reveal due -> last watcher", &behind_schedule)
    );
    println!(
        "{}",
        report::latency_line("reveal due -> first watcher", &first_late)
    );
    if !fan_out.is_empty() {
        let median = report::p50(&fan_out).max(1);
        println!(
            "burst   : {:.0} deliveries/s while a reveal fans out ({subscribed} watchers / p50 fan-out)",
            subscribed as f64 / (median as f64 / 1e6)
        );
    }
    report::cpu_line(&cpu_before, &cpu_after, window);
    if let (Some(before), Some(after)) = (rss_before, rss_subscribed) {
        println!("server RSS: {before} KiB before, {after} KiB with the watchers subscribed");
    }
    let (p50, p99) = if behind_schedule.is_empty() {
        (report::p50(&fan_out), fan_out.value_at_quantile(0.99))
    } else {
        (
            report::p50(&behind_schedule),
            behind_schedule.value_at_quantile(0.99),
        )
    };
    let cpu_per_delivery = report::Cpu::server_used(&cpu_before, &cpu_after)
        .filter(|_| deliveries > 0)
        .map(|used| Duration::from_secs_f64(used.as_secs_f64() / deliveries as f64));
    if let Some(per) = cpu_per_delivery {
        println!(
            "cpu per delivery: {:.2} us of server CPU",
            per.as_secs_f64() * 1e6
        );
    }
    if deliveries > 0 {
        // The watchers' side of each delivery, on the same cores as the server.
        let own = report::Cpu::own_used(&cpu_before, &cpu_after);
        println!(
            "cpu per delivery: {:.2} us of load-generator CPU",
            own.as_secs_f64() * 1e6 / deliveries as f64
        );
    }
    Ok(Summary {
        deliveries_per_second: per_second,
        p50,
        p99,
        cpu_per_delivery,
    })
}
