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

mod common;

use boardcast_protocol::*;
use boardcast_server::{Config, Server};
use common::*;

/// Bytes in use on the heap, as glibc counts them, less SQLite's own.
fn heap_bytes() -> (u64, u64) {
    // SAFETY: both only read the allocators' counters.
    let (malloc, sqlite) = unsafe { (libc::mallinfo2(), rusqlite::ffi::sqlite3_memory_used()) };
    ((malloc.uordblks + malloc.hblkhd) as u64, sqlite as u64)
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

/// Plays up to `plies` random legal plies; returns how many were played.
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
    let (connected, sqlite_connected) = heap_bytes();

    let tasks: Vec<_> = pairs
        .into_iter()
        .enumerate()
        .map(|(i, mut pair)| {
            tokio::spawn(async move {
                let seats = seat(&mut pair).await;
                let played = play(&mut pair, &seats, plies, i as u64).await;
                (pair, played)
            })
        })
        .collect();
    let mut pairs = Vec::with_capacity(n);
    let mut played = 0u64;
    for task in tasks {
        let (pair, plies) = task.await.unwrap();
        played += u64::from(plies);
        pairs.push(pair);
    }
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let (after, sqlite_after) = heap_bytes();

    let matches_bytes = (after - sqlite_after).saturating_sub(connected - sqlite_connected);
    println!(
        "{n} matches, {played} plies in all ({:.1} a match); heap beyond SQLite: {} KiB with \
         {} connections open, {} KiB after the plies; SQLite {} -> {} KiB",
        played as f64 / n as f64,
        (connected - sqlite_connected) / 1024,
        2 * n,
        (after - sqlite_after) / 1024,
        sqlite_connected / 1024,
        sqlite_after / 1024,
    );
    println!(
        "per live match beyond its connections: {} bytes ({:.1} KiB)",
        matches_bytes / n as u64,
        matches_bytes as f64 / n as f64 / 1024.0
    );
    drop(pairs);
    server.shutdown().await.unwrap();
}
