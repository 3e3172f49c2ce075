//! What the server reports about itself: `/metrics` (Prometheus text format) counts exactly
//! what a test did — moves, refusals by code, limit hits, sessions by encoding, matches by
//! phase, channel watchers — on the public port or only on `--metrics-listen`; and
//! `--log-format json` writes one JSON object per line.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};

use boardcast_protocol::{
    ClientMessage, ColorChoice, CreateMatch, Encoding, ErrorCode, PlayMove, Target, Watch,
};
use boardcast_tests::client::{Client, Pair};
use boardcast_tests::games::reference_games;
use boardcast_tests::{TestServer, free_addr, http_get};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

async fn get(addr: SocketAddr, path: &'static str) -> (u16, String) {
    tokio::task::spawn_blocking(move || http_get(addr, path))
        .await
        .unwrap()
        .expect("an HTTP answer")
}

/// The value of the sample `series` (`name` or `name{label="value"}`), exactly as written.
fn sample(page: &str, series: &str) -> Option<f64> {
    page.lines()
        .filter(|line| !line.starts_with('#'))
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map(|value| value.trim().parse().expect("a number"))
}

fn assert_sample(page: &str, series: &str, expected: f64) {
    assert_eq!(sample(page, series), Some(expected), "{series} in\n{page}");
}

async fn refuse(client: &mut Client, msg: ClientMessage, code: ErrorCode) {
    let id = client.send(msg).await.unwrap();
    client.expect_error(id, code).await.unwrap();
}

fn play(seat: &boardcast_protocol::Seat, route: &[u8]) -> ClientMessage {
    ClientMessage::Move(PlayMove {
        match_id: seat.match_id.clone(),
        token: seat.token.clone(),
        route: route.to_vec(),
        lag_ms: None,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_exactly_what_happened() {
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--matches-per-minute", "2"],
    );
    let addr = server.addr();
    let (status, before) = get(addr, "/metrics").await;
    assert_eq!(status, 200);
    assert_sample(&before, "boardcast_channels", 2.0);
    assert_sample(&before, "boardcast_moves_total", 0.0);
    assert_sample(
        &before,
        "boardcast_limit_hits_total{limit=\"upgrades_per_minute\"}",
        0.0,
    );

    // A match (the first creation) with two refused moves and one out of turn, then six
    // plies.
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let (white, black) = (pair.white_seat.clone(), pair.black_seat.clone());
    refuse(
        &mut pair.white,
        play(&white, &[32, 23]),
        ErrorCode::IllegalMove,
    )
    .await;
    refuse(
        &mut pair.white,
        play(&white, &[36, 31]),
        ErrorCode::IllegalMove,
    )
    .await;
    refuse(
        &mut pair.black,
        play(&black, &[19, 23]),
        ErrorCode::NotYourTurn,
    )
    .await;
    let game = &reference_games()[0];
    for (ply, route) in game.routes[..6].iter().enumerate() {
        pair.play(ply, route).await.unwrap();
    }
    // A second creation from the same address, then one over --matches-per-minute.
    let mut host = Client::connect(addr, Encoding::Json).await.unwrap();
    host.create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let create = ClientMessage::CreateMatch(CreateMatch {
        time_control: None,
        color: ColorChoice::Black,
        public: true,
        rated: false,
        rating_range: None,
    });
    refuse(&mut host, create, ErrorCode::AddressLimit).await;
    // A postcard watcher of a TV channel.
    let mut watcher = Client::connect(addr, Encoding::Postcard).await.unwrap();
    watcher
        .call(ClientMessage::Watch(Watch {
            target: Target::Channel("tv1".into()),
            since_v: None,
        }))
        .await
        .unwrap();

    let (status, page) = get(addr, "/metrics").await;
    assert_eq!(status, 200);
    assert_sample(&page, "boardcast_moves_total", 6.0);
    assert_sample(&page, "boardcast_move_ack_seconds_count", 6.0);
    assert_sample(
        &page,
        "boardcast_refusals_total{code=\"illegal_move\"}",
        2.0,
    );
    assert_sample(
        &page,
        "boardcast_refusals_total{code=\"not_your_turn\"}",
        1.0,
    );
    assert_sample(
        &page,
        "boardcast_refusals_total{code=\"address_limit\"}",
        1.0,
    );
    assert_sample(
        &page,
        "boardcast_limit_hits_total{limit=\"matches_per_minute\"}",
        1.0,
    );
    assert_sample(&page, "boardcast_connections{encoding=\"json\"}", 3.0);
    assert_sample(&page, "boardcast_connections{encoding=\"postcard\"}", 1.0);
    assert_sample(&page, "boardcast_matches{phase=\"playing\"}", 1.0);
    assert_sample(&page, "boardcast_matches{phase=\"waiting\"}", 1.0);
    assert_sample(&page, "boardcast_matches{phase=\"finished\"}", 0.0);
    assert_sample(&page, "boardcast_channels", 2.0);
    assert_sample(&page, "boardcast_slow_clients_dropped_total", 0.0);
    assert_sample(
        &page,
        "boardcast_limit_hits_total{limit=\"upgrades_per_minute\"}",
        0.0,
    );
    // Two creations, a join and six moves at least; the server writes presence and channel
    // archives of its own.
    let requests = sample(&page, "boardcast_storage_group_size_sum").unwrap();
    assert!(requests >= 9.0, "{requests} commit requests");
    let commits = sample(&page, "boardcast_storage_commit_seconds_count").unwrap();
    assert!((1.0..=requests).contains(&commits), "{commits} commits");
    let fast = sample(&page, "boardcast_move_ack_seconds_bucket{le=\"5\"}").unwrap();
    assert_eq!(fast, 6.0, "every move acknowledged within 5 s");

    // Channels publish their watcher count as the lobby shows it, every few seconds.
    eventually(addr, "boardcast_channel_watchers", 1.0).await;
    // Closed sessions leave the gauges.
    watcher.close().await;
    eventually(addr, "boardcast_connections{encoding=\"postcard\"}", 0.0).await;
    eventually(addr, "boardcast_channel_watchers", 0.0).await;
}

/// Waits (at most 20 s) until `series` reads `expected`.
async fn eventually(addr: SocketAddr, series: &str, expected: f64) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (_, page) = get(addr, "/metrics").await;
        if sample(&page, series) == Some(expected) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{series} never became {expected}:\n{page}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_listen_keeps_metrics_off_the_public_port() {
    let metrics = free_addr();
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--metrics-listen", &metrics.to_string()],
    );
    let (status, _) = get(server.addr(), "/metrics").await;
    assert_eq!(status, 404);
    let (status, page) = get(metrics, "/metrics").await;
    assert_eq!(status, 200);
    assert_sample(&page, "boardcast_channels", 2.0);
    assert!(page.contains("# TYPE boardcast_channels gauge"), "{page}");
}

#[test]
fn json_logs_are_one_object_per_line() {
    let dir = tempfile::tempdir().unwrap();
    let addr = free_addr();
    let mut child = Command::new(server_program())
        .args(["--listen", &addr.to_string(), "--db"])
        .arg(dir.path().join("boardcast.db"))
        .args(["--log-format", "json", "--log", "info"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The log is on stderr; every line up to "listening" (the TV channels' first games are
    // logged before it) is one JSON object.
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let listening = loop {
        let text = lines.next().expect("a log line").unwrap();
        let line: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(line["level"], "INFO", "{line}");
        if line["fields"]["message"] == "boardcast-server listening" {
            break line;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(listening["fields"]["addr"], addr.to_string(), "{listening}");
}
