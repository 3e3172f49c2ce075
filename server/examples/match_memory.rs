//! What a live match costs the server in memory beyond its connections: the real server in
//! process (temporary SQLite database), `N` pairs of WebSocket clients, each pair seated in a
//! private match that then plays up to `PLIES` plies (random legal moves; a game the rules end
//! sooner stops there). glibc's `mallinfo2` (bytes handed out and not yet freed) is read with
//! every connection open but no match yet, and again after the plies; SQLite's own share (its
//! page cache, bounded and not per match) is read from `sqlite3_memory_used` and left out.
//! The clients live in the same process, so their per-connection buffers are counted in the
//! first reading too; what grows after it is the matches.
//!
//! `cargo run --release -p boardcast-server --example match_memory [N] [PLIES]` (Linux, glibc)
//!
//! Allocation by allocation: with `MATCH_MEMORY_EXIT=connected` (or `played`) the process
//! exits at once after that reading, so what heaptrack reports as leaked is what was live
//! then; `heaptrack_print --diff` of the two runs is the matches' memory by call site.

mod common;

use boardcast_protocol::*;
use boardcast_server::{Config, Server};
use common::*;
use futures_util::{FutureExt, SinkExt, StreamExt};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::AtomicI64;
use std::sync::atomic::Ordering::Relaxed;

/// Rust's allocations, counted on their way to glibc: how many are live and the bytes they
/// asked for. glibc's own count ([`Heap::malloc`]) is larger by each chunk's header and
/// rounding (16 bytes apart, 32 at least), so many small allocations cost more than they ask.
/// SQLite calls `malloc` itself and is not counted here.
struct Counting;

static LIVE: AtomicI64 = AtomicI64::new(0);
static ASKED: AtomicI64 = AtomicI64::new(0);

// SAFETY: every call is handed to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(1, Relaxed);
        ASKED.fetch_add(layout.size() as i64, Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(1, Relaxed);
        ASKED.fetch_add(layout.size() as i64, Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(1, Relaxed);
        ASKED.fetch_sub(layout.size() as i64, Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ASKED.fetch_add(new_size as i64 - layout.size() as i64, Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// One reading of the heap.
#[derive(Debug, Clone, Copy)]
struct Heap {
    /// Bytes in use as glibc counts them (chunks, headers included), less SQLite's own.
    malloc: i64,
    /// SQLite's own bytes (its page caches).
    sqlite: i64,
    /// Rust's live allocations.
    live: i64,
    /// The bytes Rust's live allocations asked for.
    asked: i64,
}

fn heap() -> Heap {
    // SAFETY: both only read the allocators' counters.
    let (malloc, sqlite) = unsafe { (libc::mallinfo2(), rusqlite::ffi::sqlite3_memory_used()) };
    Heap {
        malloc: (malloc.uordblks + malloc.hblkhd) as i64 - sqlite,
        sqlite,
        live: LIVE.load(Relaxed),
        asked: ASKED.load(Relaxed),
    }
}

/// Exits at once, freeing nothing, when `MATCH_MEMORY_EXIT` names this reading: what is
/// live then is what a heap profiler reports as leaked.
fn exit_if_asked(reading: &str) {
    if std::env::var("MATCH_MEMORY_EXIT").is_ok_and(|asked| asked == reading) {
        std::process::exit(0);
    }
}

/// Both players' connections, and their seats once seated.
struct Pair {
    white: Ws,
    black: Ws,
}

async fn seat(pair: &mut Pair) -> (Seat, Seat) {
    send(
        &mut pair.white,
        1,
        ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }),
    )
    .await;
    let white = until(&mut pair.white, |m| match m {
        ServerMessage::Seat(s) => Some(s),
        _ => None,
    })
    .await;
    send(
        &mut pair.black,
        1,
        ClientMessage::JoinMatch(JoinMatch::Code(white.invite_code.clone())),
    )
    .await;
    let black = until(&mut pair.black, |m| match m {
        ServerMessage::Seat(s) => Some(s),
        _ => None,
    })
    .await;
    (white, black)
}

/// Plays up to `plies` random legal plies; returns how many were played. Captures are
/// compulsory, so random games end (one side has no move left) after about 70 plies.
async fn play(pair: &mut Pair, seats: &(Seat, Seat), plies: u32, mut seed: u64) -> u32 {
    let mut position = frisian::Position::start();
    for ply in 0..plies {
        let moves = position.legal_moves();
        if moves.is_empty() {
            return ply;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = moves[(seed >> 33) as usize % moves.len()];
        let (ws, seat) = if ply % 2 == 0 {
            (&mut pair.white, &seats.0)
        } else {
            (&mut pair.black, &seats.1)
        };
        let id = u64::from(ply) + 10;
        send(
            ws,
            id,
            ClientMessage::Move(PlayMove {
                match_id: seat.match_id.clone(),
                token: seat.token.clone(),
                route: mv.route().iter().map(|sq| sq.number()).collect(),
                lag_ms: None,
            }),
        )
        .await;
        let over = until(ws, |m| match m {
            ServerMessage::Ack(a) if a.id == id => Some(false),
            ServerMessage::Error(e) if e.id == Some(id) => Some(true),
            _ => None,
        })
        .await;
        if over {
            return ply;
        }
        // A draw rule can end the game with this move: the match is then finished.
        match position.play(mv) {
            Ok(next) => position = next,
            Err(_) => return ply + 1,
        }
    }
    plies
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let arg = |i: usize, default: u64| {
        std::env::args()
            .nth(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or(default)
    };
    let n = arg(1, 1000) as usize;
    let plies = arg(2, 100) as u32;
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(dir.path().join("memory.db"));
    config.rate = 1000;
    config.burst = 1000;
    config.max_connections = 100_000;
    config.max_matches = 100_000;
    let server = Server::start(config).await.unwrap();
    let addr = server.local_addr();

    let mut pairs = Vec::with_capacity(n);
    for _ in 0..n {
        pairs.push(Pair {
            white: connect(addr).await,
            black: connect(addr).await,
        });
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let connected = heap();
    exit_if_asked("connected");

    let played: u64 =
        futures_util::future::join_all(pairs.iter_mut().enumerate().map(|(i, pair)| async move {
            let seats = seat(pair).await;
            u64::from(play(pair, &seats, plies, i as u64).await)
        }))
        .await
        .into_iter()
        .sum();
    // Each client stream still holds the wakers of the future that last read and wrote it,
    // and with them that future's memory: reading and flushing once more with a waker that
    // holds nothing lets it go, so the clients' side is counted alike in both readings.
    for pair in &mut pairs {
        for ws in [&mut pair.white, &mut pair.black] {
            while let Some(Some(_)) = ws.next().now_or_never() {}
            let _ = ws.flush().now_or_never();
        }
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let after = heap();
    exit_if_asked("played");

    let per_match = |bytes: i64| bytes as f64 / n as f64;
    println!(
        "{n} matches, {played} plies in all ({:.1} a match); heap beyond SQLite: {} KiB with \
         {} connections open, {} KiB after the plies; SQLite {} -> {} KiB",
        played as f64 / n as f64,
        connected.malloc / 1024,
        2 * n,
        after.malloc / 1024,
        connected.sqlite / 1024,
        after.sqlite / 1024,
    );
    let grown = after.malloc - connected.malloc;
    println!(
        "per live match beyond its connections: {:.0} bytes ({:.1} KiB) as glibc counts; \
         {:.1} allocations asking {:.0} bytes",
        per_match(grown),
        per_match(grown) / 1024.0,
        per_match(after.live - connected.live),
        per_match(after.asked - connected.asked),
    );
    drop(pairs);
    server.shutdown().await.unwrap();
}
