//! Measures what an idle WebSocket connection costs the server: starts the release program,
//! opens `N` connections that say nothing, and compares the server's resident memory.
//!
//! `cargo build --release -p boardcast-server && cargo run --release -p boardcast-server
//! --example idle_memory [N]` (Linux: reads /proc).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmRSS")
}

#[tokio::main]
async fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2000);
    let dir = tempfile::tempdir().expect("temp dir");
    let exe = std::env::current_exe().expect("exe");
    let program = exe
        .parent()
        .and_then(|p| p.parent())
        .expect("target dir")
        .join("boardcast-server");
    let mut child = Command::new(&program)
        .args([
            "--listen",
            "127.0.0.1:0",
            "--log",
            "info",
            "--max-connections",
            "100000",
        ])
        .arg("--db")
        .arg(dir.path().join("m.db"))
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("start {}: {e}", program.display()));
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("a log line").unwrap();
        if let Some(addr) = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("addr="))
        {
            break addr.to_owned();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    let connect = || async {
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        request.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static("boardcast.v1.json"),
        );
        tokio_tungstenite::connect_async(request).await.unwrap().0
    };
    // Warm up (runtime threads, first allocations), then measure.
    let mut warm = Vec::new();
    for _ in 0..50 {
        warm.push(connect().await);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let before = rss_kib(child.id());
    let mut sockets = Vec::with_capacity(n);
    for _ in 0..n {
        sockets.push(connect().await);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after = rss_kib(child.id());
    println!(
        "{n} idle connections: server RSS {before} KiB -> {after} KiB, {:.1} KiB per connection",
        (after - before) as f64 / n as f64
    );
    let _ = child.kill();
    let _ = child.wait();
}
