//! Measures storage throughput: `MATCHES` concurrent writers each commit `EVENTS` move-sized
//! events one after another (as match actors do), through the group-commit writer.
//!
//! `cargo run --release -p boardcast-server --example group_commit [MATCHES] [EVENTS]`

use std::time::Instant;

use boardcast_server::{Storage, Write};

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let matches: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let events: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let dir = tempfile::tempdir().expect("temp dir");
    let (storage, _) = Storage::open(
        &boardcast_server::Database::Sqlite(dir.path().join("bench.db")),
        None,
    )
    .await
    .expect("open");
    for m in 0..matches {
        storage
            .commit(vec![Write::CreateMatch {
                id: format!("m{m}"),
                invite: None,
                created_ms: 0,
                setup: "{}".into(),
                owner: None,
            }])
            .await
            .expect("create");
    }
    // A move event as the server stores it is about 1.2 KB of JSON (with the legal moves).
    let body = "x".repeat(1200);
    let started = Instant::now();
    let mut tasks = Vec::new();
    for m in 0..matches {
        let storage = storage.clone();
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            for v in 1..=events {
                storage
                    .commit(vec![Write::Event {
                        match_id: format!("m{m}"),
                        v,
                        at_ms: 0,
                        body: body.clone(),
                        epoch: 0,
                    }])
                    .await
                    .expect("commit");
            }
        }));
    }
    for task in tasks {
        task.await.expect("writer");
    }
    let elapsed = started.elapsed();
    let total = matches as f64 * events as f64;
    println!(
        "{matches} matches x {events} moves = {total} durable commits in {:.2} s: {:.0} moves/s",
        elapsed.as_secs_f64(),
        total / elapsed.as_secs_f64()
    );
    // One match alone: every commit waits for its own fsync.
    let started = Instant::now();
    for v in events + 1..=events + 200 {
        storage
            .commit(vec![Write::Event {
                match_id: "m0".into(),
                v,
                at_ms: 0,
                body: body.clone(),
                epoch: 0,
            }])
            .await
            .expect("commit");
    }
    let single = started.elapsed();
    println!(
        "one match alone: 200 commits in {:.2} s: {:.0} moves/s ({:.2} ms per fsync)",
        single.as_secs_f64(),
        200.0 / single.as_secs_f64(),
        single.as_secs_f64() * 1000.0 / 200.0
    );
    storage.close().await;
}
