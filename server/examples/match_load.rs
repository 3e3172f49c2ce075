//! End-to-end load: `N` matches at once, each two WebSocket clients playing a complete
//! 42-ply reference game, through the real server (in process, temporary database, every move
//! committed to SQLite before its ack). Prints moves per second and ack latency percentiles.
//!
//! `cargo run --release -p boardcast-server --example match_load [N]`

use std::time::{Duration, Instant};

mod common;

use boardcast_protocol::*;
use boardcast_server::{Config, Server};
use common::*;

const GAME: [&str; 42] = [
    "33-28", "19-24", "35-30", "24x22", "31-27", "22x33", "39x28", "13-19", "28-23", "19x28",
    "36-31", "9-13", "38-33", "28x39", "44x33", "20-25", "31-26", "16x29", "41-36", "14-19",
    "40-35", "11-16", "45-40", "25x34", "50-45", "29-33", "43x14", "4x24", "36-31", "7-11",
    "46-41", "13-19", "42-38", "18-23", "31-27", "17x46", "38-33", "23x43", "48x30", "46x20",
    "45-40", "20x50",
];

async fn play_match(addr: std::net::SocketAddr, routes: Vec<Vec<u8>>) -> Vec<Duration> {
    let mut white = connect(addr).await;
    let mut black = connect(addr).await;
    send(
        &mut white,
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
    let ws = until(&mut white, |m| match m {
        ServerMessage::Seat(s) => Some(s),
        _ => None,
    })
    .await;
    send(
        &mut black,
        1,
        ClientMessage::JoinMatch(JoinMatch::Code(ws.invite_code.clone())),
    )
    .await;
    let bs = until(&mut black, |m| match m {
        ServerMessage::Seat(s) => Some(s),
        _ => None,
    })
    .await;
    let mut latencies = Vec::with_capacity(routes.len());
    for (ply, route) in routes.into_iter().enumerate() {
        let (ws_, seat) = if ply % 2 == 0 {
            (&mut white, &ws)
        } else {
            (&mut black, &bs)
        };
        let id = ply as u64 + 10;
        let sent = Instant::now();
        send(
            ws_,
            id,
            ClientMessage::Move(PlayMove {
                match_id: seat.match_id.clone(),
                token: seat.token.clone(),
                route,
                lag_ms: None,
            }),
        )
        .await;
        until(ws_, |m| match m {
            ServerMessage::Ack(a) if a.id == id => Some(()),
            ServerMessage::Error(e) if e.id == Some(id) => panic!("refused: {e:?}"),
            _ => None,
        })
        .await;
        latencies.push(sent.elapsed());
    }
    latencies
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::for_tests(dir.path().join("load.db"));
    config.rate = 1000;
    config.burst = 1000;
    config.max_connections = 100_000;
    let server = Server::start(config).await.unwrap();
    let addr = server.local_addr();
    let mut position = frisian::Position::start();
    let routes: Vec<Vec<u8>> = GAME
        .iter()
        .map(|text| {
            let mv = position.parse_move(text).unwrap();
            position = position.play(mv).unwrap();
            mv.route().iter().map(|sq| sq.number()).collect()
        })
        .collect();
    let started = Instant::now();
    let tasks: Vec<_> = (0..n)
        .map(|_| tokio::spawn(play_match(addr, routes.clone())))
        .collect();
    let mut latencies = Vec::new();
    for task in tasks {
        latencies.extend(task.await.unwrap());
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let pct = |p: f64| latencies[((latencies.len() as f64 * p) as usize).min(latencies.len() - 1)];
    println!(
        "{n} matches, {} moves in {:.2} s: {:.0} moves/s; ack latency p50 {:?} p99 {:?} max {:?}",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        latencies.last().unwrap()
    );
    server.shutdown().await.unwrap();
}
