//! `event-spectators`: many spectators following one club event over the WebSocket (issue 33:
//! "event page updates to 1,000 spectators within the fan-out figures of BENCHMARKS.md").
//!
//! The organiser creates an arena that starts in an hour (an arena lets a member who withdrew
//! join again), the spectators `watch` it (postcard),
//! and then the members join and withdraw in turn, one change every `--every`: each change is
//! a new version of the event, which the server pushes to every spectator as the whole event
//! (`club_event`, at most one push per 300 ms per event). For each version pushed the
//! generator notes when its change was asked for over HTTP and when the first and the last
//! spectator had it, and reports change → last spectator, the fan-out (first → last), the
//! deliveries per second, the push's size and the server's CPU per delivery.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use boardcast_protocol::{ClientMessage, Encoding, FrameRef, ServerMessage, Target, Watch};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;

use crate::report::{self, Cpu};
use crate::ws::Ramp;
use crate::{Error, duration, loopback, sys};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Boardcast server (loopback).
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = loopback)]
    pub addr: SocketAddr,
    /// Spectators to connect.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// An account with the organiser right (`boardcast-server admin grant-organiser NAME`).
    #[arg(long)]
    pub organiser: String,
    /// The members who join and withdraw in turn (comma-separated); at least one.
    #[arg(long, value_delimiter = ',', num_args = 1.., required = true)]
    pub members: Vec<String>,
    /// Every account's password.
    #[arg(long)]
    pub password: String,
    /// How long to measure once every spectator follows the event.
    #[arg(long, default_value = "30s", value_parser = duration)]
    pub duration: Duration,
    /// One change (a join or a withdrawal) this often.
    #[arg(long, default_value = "500ms", value_parser = duration)]
    pub every: Duration,
    /// The server's process id, to report its CPU and memory.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Connections opened in parallel while the spectators connect.
    #[arg(long, default_value_t = 512)]
    pub ramp: usize,
    /// Give up waiting for the spectators after this long.
    #[arg(long, default_value = "120s", value_parser = duration)]
    pub setup_timeout: Duration,
}

/// Versions noted, indexed by version modulo this.
const SLOTS: usize = 1 << 14;

/// One version of the event: when its change was asked for, and its arrivals.
struct Slot {
    v: AtomicU64,
    /// Nanoseconds since the run's epoch.
    changed: AtomicU64,
    first: AtomicU64,
    last: AtomicU64,
    count: AtomicU32,
    bytes: AtomicU64,
}

struct Shared {
    epoch: Instant,
    slots: Vec<Slot>,
    subscribed: AtomicU64,
    failed: AtomicU64,
    dropped: AtomicU64,
    measuring: AtomicBool,
}

impl Shared {
    fn now(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// Readies version `v`'s slot as its change is asked for, at `now` (before any spectator
    /// can have it).
    fn asked(&self, v: u64, now: u64) {
        let slot = &self.slots[(v as usize) % SLOTS];
        slot.first.store(u64::MAX, Ordering::Relaxed);
        slot.last.store(0, Ordering::Relaxed);
        slot.count.store(0, Ordering::Relaxed);
        slot.changed.store(now, Ordering::Relaxed);
        slot.v.store(v, Ordering::SeqCst);
    }

    /// A spectator has version `v`, a push of `bytes`; versions not asked for here (the one
    /// `watch` answered with) are not counted.
    fn arrived(&self, v: u64, bytes: usize) {
        let now = self.now();
        let slot = &self.slots[(v as usize) % SLOTS];
        if slot.v.load(Ordering::SeqCst) != v {
            return;
        }
        slot.first.fetch_min(now, Ordering::Relaxed);
        slot.last.fetch_max(now, Ordering::Relaxed);
        slot.count.fetch_add(1, Ordering::Relaxed);
        slot.bytes.store(bytes as u64, Ordering::Relaxed);
    }
}

/// One HTTP/1.1 request: the status, the head and the body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
) -> Result<(u16, String, String), Error> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: {cookie}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("no HTTP status in the answer: {head:?}"))?;
    Ok((status, head.to_owned(), body.to_owned()))
}

/// Logs `name` in; the `Cookie` header's value.
async fn login(addr: SocketAddr, name: &str, password: &str) -> Result<String, Error> {
    let body = serde_json::json!({ "name": name, "password": password }).to_string();
    let (status, head, answer) = http(addr, "POST", "/api/login", "", &body).await?;
    if status != 200 {
        return Err(format!("login of {name}: {status} {answer}").into());
    }
    head.lines()
        .find_map(|line| {
            let (header, value) = line.split_once(':')?;
            header
                .eq_ignore_ascii_case("set-cookie")
                .then(|| value.trim())
        })
        .and_then(|cookie| cookie.split(';').next())
        .map(str::to_owned)
        .ok_or_else(|| format!("login of {name}: no session cookie").into())
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("event-spectators", &report::command_line());
    let organiser = login(args.addr, &args.organiser, &args.password).await?;
    let mut members = Vec::new();
    for name in &args.members {
        members.push(login(args.addr, name, &args.password).await?);
    }
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)?
        .as_millis()
        + 3_600_000;
    let create = serde_json::json!({
        "name": "Spectated arena", "kind": "arena", "time_control": "5+3", "minutes": 60,
        "starts_at": starts_at as u64,
    });
    let (status, _, answer) = http(
        args.addr,
        "POST",
        "/api/events",
        &organiser,
        &create.to_string(),
    )
    .await?;
    if status != 201 {
        return Err(format!("creating the event: {status} {answer}").into());
    }
    let id = serde_json::from_str::<serde_json::Value>(&answer)?["id"]
        .as_str()
        .ok_or("no event id")?
        .to_owned();

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
                changed: AtomicU64::new(u64::MAX),
                first: AtomicU64::new(u64::MAX),
                last: AtomicU64::new(0),
                count: AtomicU32::new(0),
                bytes: AtomicU64::new(0),
            })
            .collect(),
        subscribed: AtomicU64::new(0),
        failed: AtomicU64::new(0),
        dropped: AtomicU64::new(0),
        measuring: AtomicBool::new(false),
    });
    let pids: Vec<u32> = args.server_pid.into_iter().collect();
    let rss_before = sys::rss_kib_all(&pids);
    let ramp = Ramp::new(args.ramp);
    let (first_v_tx, first_v) = tokio::sync::watch::channel(None::<u64>);
    let mut stops = Vec::with_capacity(args.count);
    let mut tasks = tokio::task::JoinSet::new();
    let started = Instant::now();
    for _ in 0..args.count {
        let (ramp, shared, id, addr) = (ramp.clone(), shared.clone(), id.clone(), args.addr);
        let first_v_tx = first_v_tx.clone();
        let (stop_tx, mut stop) = oneshot::channel::<()>();
        stops.push(stop_tx);
        tasks.spawn(async move {
            let subscribe = async {
                let mut client = ramp.client(addr).await?;
                let asked = client
                    .send(ClientMessage::Watch(Watch {
                        target: Target::Event(id),
                        since_v: None,
                    }))
                    .await?;
                loop {
                    match client.recv().await? {
                        ServerMessage::ClubEvent(event) => {
                            first_v_tx.send_if_modified(|v| v.replace(event.v).is_none());
                            return Ok::<_, Error>(client);
                        }
                        ServerMessage::Error(error) if error.id == Some(asked) => {
                            return Err(format!(
                                "watch refused: {:?} {}",
                                error.code, error.message
                            )
                            .into());
                        }
                        _ => {}
                    }
                }
            };
            let mut client = match subscribe.await {
                Ok(client) => client,
                Err(err) => {
                    if shared.failed.fetch_add(1, Ordering::Relaxed) < 3 {
                        eprintln!("spectator: {err}");
                    }
                    return;
                }
            };
            shared.subscribed.fetch_add(1, Ordering::Relaxed);
            loop {
                tokio::select! {
                    biased;
                    frame = client.recv_frame() => {
                        let decoded = match &frame {
                            Ok(Message::Binary(bytes)) => Encoding::Postcard
                                .decode_server(FrameRef::Binary(bytes))
                                .map(|m| (m, bytes.len()))
                                .map_err(|err| err.to_string()),
                            Ok(_) => Err("a text frame on a postcard connection".to_owned()),
                            Err(err) => Err(err.to_string()),
                        };
                        match decoded {
                            Ok((ServerMessage::ClubEvent(event), bytes)) => {
                                if shared.measuring.load(Ordering::Relaxed) {
                                    shared.arrived(event.v, bytes);
                                }
                            }
                            Ok(_) => {}
                            Err(err) => {
                                if shared.dropped.fetch_add(1, Ordering::Relaxed) < 3 {
                                    eprintln!("spectator dropped: {err}");
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
        "set-up  : {subscribed} of {} spectators follow event {id} after {:.1} s, {} failed",
        args.count,
        started.elapsed().as_secs_f64(),
        shared.failed.load(Ordering::Relaxed)
    );
    let mut v = first_v
        .borrow()
        .ok_or("no spectator could follow the event")?;
    let rss_subscribed = sys::rss_kib_all(&pids);

    // The changes: member i joins, later withdraws, and so on in turn; each is one version.
    shared.measuring.store(true, Ordering::SeqCst);
    let cpu_before = Cpu::now(&pids);
    let window_start = shared.now();
    let mut joined = vec![false; members.len()];
    let mut changes = 0u64;
    let mut tick = tokio::time::interval(args.every);
    while shared.now() - window_start < args.duration.as_nanos() as u64 {
        tick.tick().await;
        v += 1;
        shared.asked(v, shared.now());
        let i = (changes as usize) % members.len();
        let path = format!(
            "/api/events/{id}/{}",
            if joined[i] { "withdraw" } else { "join" }
        );
        let (status, _, answer) = http(args.addr, "POST", &path, &members[i], "").await?;
        if status != 200 {
            return Err(format!("{path}: {status} {answer}").into());
        }
        joined[i] = !joined[i];
        changes += 1;
    }
    let window_end = shared.now();
    let cpu_after = Cpu::now(&pids);
    // The last pushes arrive.
    tokio::time::sleep(Duration::from_secs(2)).await;
    shared.measuring.store(false, Ordering::SeqCst);
    drop(stops);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();

    let window = Duration::from_nanos(window_end - window_start);
    let (mut to_first, mut to_last, mut fan_out) = (
        report::histogram(),
        report::histogram(),
        report::histogram(),
    );
    let (mut pushes, mut deliveries, mut complete, mut bytes) = (0u64, 0u64, 0u64, 0u64);
    let dropped = shared.dropped.load(Ordering::Relaxed);
    for slot in &shared.slots {
        let count = slot.count.load(Ordering::Relaxed);
        if slot.v.load(Ordering::Relaxed) == u64::MAX || count == 0 {
            continue;
        }
        let (first, last) = (
            slot.first.load(Ordering::Relaxed),
            slot.last.load(Ordering::Relaxed),
        );
        pushes += 1;
        deliveries += u64::from(count);
        bytes = bytes.max(slot.bytes.load(Ordering::Relaxed));
        if u64::from(count) >= subscribed - dropped.min(subscribed) {
            complete += 1;
        }
        report::record(&mut fan_out, Duration::from_nanos(last - first));
        let changed = slot.changed.load(Ordering::Relaxed);
        report::record(
            &mut to_first,
            Duration::from_nanos(first.saturating_sub(changed)),
        );
        report::record(
            &mut to_last,
            Duration::from_nanos(last.saturating_sub(changed)),
        );
    }
    println!(
        "window  : {:.1} s, {subscribed} spectators, {dropped} dropped, {changes} changes (one per {} ms), {pushes} versions pushed, {complete} reached every spectator",
        window.as_secs_f64(),
        args.every.as_millis()
    );
    println!(
        "deliveries/s: {:.0}  ({deliveries} pushes delivered; the largest {bytes} bytes, postcard)",
        report::rate(deliveries, window)
    );
    println!(
        "{}",
        report::latency_line("change asked -> first spectator", &to_first)
    );
    println!(
        "{}",
        report::latency_line("change asked -> last spectator", &to_last)
    );
    println!(
        "{}",
        report::latency_line("push fan-out (first -> last spectator)", &fan_out)
    );
    report::cpu_line(&cpu_before, &cpu_after, window);
    if let Some(used) = Cpu::server_used(&cpu_before, &cpu_after).filter(|_| deliveries > 0) {
        println!(
            "cpu per delivery: {:.2} us of server CPU (the changes' HTTP requests included)",
            used.as_secs_f64() * 1e6 / deliveries as f64
        );
    }
    if let (Some(before), Some(after)) = (rss_before, rss_subscribed) {
        println!("server RSS: {before} KiB before, {after} KiB with the spectators following");
    }
    Ok(())
}
