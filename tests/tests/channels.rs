//! Hostile and mistaken input on MinitChess channels: late guesses, repeated guesses, and a
//! client that never reads while a channel broadcasts. Each ends with a canary check: a new
//! connection is served and a Frisian match beside it is untouched.

use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_protocol::limits::close;
use boardcast_protocol::{
    ChannelEvent, ChannelSnapshot, ClientMessage, Encoding, ErrorCode, Predict, ServerMessage,
    StartEngineGame, Target, Watch,
};
use boardcast_tests::TestServer;
use boardcast_tests::canary::{
    Canary, assert_a_client_reading_nothing_is_dropped, drain_until_closed, last_close_code,
    start_with_canary,
};
use boardcast_tests::client::{Client, ClientError, ConnectOptions};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

async fn setup(args: &[&str]) -> (TestServer, Canary) {
    start_with_canary(server_program(), args).await
}

/// Starts an on-demand engine game revealing a ply every `interval_ms`; returns its channel.
async fn start_game(client: &mut Client, interval_ms: u64, serial: &str) -> String {
    let id = client
        .send(ClientMessage::StartEngineGame(StartEngineGame {
            serial: serial.into(),
            white: "L4".into(),
            black: "K7".into(),
            ply_interval_ms: Some(interval_ms),
            reveal_from_ply: None,
        }))
        .await
        .unwrap();
    match client.expect_reply(id).await.unwrap() {
        ServerMessage::GameCreated(created) => created.channel,
        other => panic!("expected game_created, got {other:?}"),
    }
}

async fn watch_channel(client: &mut Client, channel: &str) -> ChannelSnapshot {
    let id = client
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(channel.into()),
            since_v: None,
        }))
        .await
        .unwrap();
    client.expect_ack(id).await.unwrap();
    let wanted = channel.to_owned();
    client
        .wait_for("a channel snapshot", |m| match m {
            ServerMessage::ChannelSnapshot(s) if s.channel == wanted => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap()
}

/// Waits for the reveal of `ply` on `channel`; returns the move.
async fn revealed(client: &mut Client, channel: &str, ply: u32) -> String {
    let wanted = channel.to_owned();
    client
        .wait_for(&format!("the reveal of ply {ply}"), |m| match m {
            ServerMessage::ChannelEvent(e) if e.channel == wanted => match &e.event {
                ChannelEvent::PlyRevealed(p) if p.ply == ply => Some(p.mv.clone()),
                _ => None,
            },
            _ => None,
        })
        .await
        .unwrap()
}

fn predict(channel: &str, ply: u32, from: &str, to: &str) -> ClientMessage {
    ClientMessage::Predict(Predict {
        channel: channel.into(),
        ply,
        from: from.into(),
        to: to.into(),
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guess_after_the_reveal_is_closed() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = Client::connect(server.addr(), Encoding::Json)
        .await
        .unwrap();
    let channel = start_game(&mut client, 300, "CH3SS5").await;
    let snapshot = watch_channel(&mut client, &channel).await;
    let next = snapshot.game.expect("a game").next_ply;
    revealed(&mut client, &channel, next).await;
    // The ply just revealed is closed; so is one far ahead.
    for ply in [next, next + 5] {
        let id = client
            .send(predict(&channel, ply, "b1", "c3"))
            .await
            .unwrap();
        client
            .expect_error(id, ErrorCode::PredictionClosed)
            .await
            .unwrap_or_else(|err| panic!("ply {ply}: {err}"));
    }
    // The coming ply is still open to a move legal in the shown position.
    let mut game =
        minitchess::Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
    for _ in 0..=next {
        game.step();
    }
    let legal = game.legal_moves()[0].to_string();
    let (from, to) = legal.split_once('-').unwrap();
    let id = client
        .send(predict(&channel, next + 1, from, to))
        .await
        .unwrap();
    client.expect_ack(id).await.unwrap();
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_guesses_for_the_same_ply_the_second_counts() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .unwrap();
    client.hello("guesser").await.unwrap();
    // A slow game, so both guesses surely land before the reveal.
    let channel = start_game(&mut client, 2000, "AB12CD").await;
    let snapshot = watch_channel(&mut client, &channel).await;
    let ply = snapshot.game.expect("a game").next_ply;
    let first = client
        .send(predict(&channel, ply, "a2", "a3"))
        .await
        .unwrap();
    client.expect_ack(first).await.unwrap();
    let second = client
        .send(predict(&channel, ply, "e2", "e3"))
        .await
        .unwrap();
    let ack = client.expect_ack(second).await.unwrap();
    assert!(!ack.duplicate);
    let actual = revealed(&mut client, &channel, ply).await;
    let wanted = channel.clone();
    let results: Vec<_> = {
        let result = client
            .wait_for("the prediction result", |m| match m {
                ServerMessage::PredictionResult(r) if r.channel == wanted => Some(r.clone()),
                _ => None,
            })
            .await
            .unwrap();
        vec![result]
    };
    // Exactly one result, for the second guess.
    let result = &results[0];
    assert_eq!(result.ply, ply);
    assert_eq!(result.guess, "e2-e3");
    assert_eq!(result.actual, actual);
    assert_eq!(result.correct, actual == "e2-e3");
    assert_eq!(result.correct_total + result.strikes, 1, "{result:?}");
    assert!(
        !client
            .backlog()
            .iter()
            .any(|m| matches!(m, ServerMessage::PredictionResult(_))),
        "a second prediction result: {:?}",
        client.backlog()
    );
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_while_channels_broadcast() {
    // Eight TV channels revealing every 100 ms, forever: steady traffic to a client that
    // reads nothing. The kernel buffers what the socket's send buffer holds (capped at
    // 64 KiB by the server) before the server's outbox (16 here) can overflow; what the
    // server must do is stay fair to everyone else and get rid of the client: by the
    // overflow (1008), or, as a client that reads nothing answers no pings either, by the
    // idle timeout (3 s here) at the latest.
    let (server, mut canary) = setup(&[
        "--outbox",
        "16",
        "--channels",
        "8",
        "--ply-interval",
        "100ms",
        "--game-pause",
        "200ms",
        "--idle-timeout",
        "3s",
        "--ping-interval",
        "500ms",
    ])
    .await;
    let addr = server.addr();
    let channels: Vec<String> = (1..=8).map(|n| format!("tv{n}")).collect();
    // The stuck client: a tiny receive buffer, watches everything, then never reads again.
    let options = ConnectOptions {
        recv_buffer: Some(2048),
        ..ConnectOptions::encoding(Encoding::Json)
    };
    let mut stuck = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    for channel in &channels {
        stuck
            .send(ClientMessage::Watch(Watch {
                target: Target::Channel(channel.clone()),
                since_v: None,
            }))
            .await
            .unwrap();
    }
    let mut stream = stuck.into_ws().into_inner();
    // A healthy watcher of the same channel keeps getting every reveal on time meanwhile.
    let mut healthy = Client::connect(addr, Encoding::Json).await.unwrap();
    watch_channel(&mut healthy, &channels[0]).await;
    let started = Instant::now();
    let mut last = Instant::now();
    let mut worst = Duration::ZERO;
    let mut reveals = 0;
    while started.elapsed() < Duration::from_secs(6) {
        let wanted = channels[0].clone();
        let event = healthy
            .wait_for_within("a channel event", Duration::from_secs(2), |m| match m {
                ServerMessage::ChannelEvent(e) if e.channel == wanted => Some(e.event.clone()),
                _ => None,
            })
            .await;
        match event {
            Ok(ChannelEvent::PlyRevealed(_)) => reveals += 1,
            Ok(ChannelEvent::GameStarted(_) | ChannelEvent::GameEnded(_)) => {}
            Err(ClientError::Timeout(what)) => panic!("the healthy watcher stalled: {what}"),
            Err(err) => panic!("{err}"),
        }
        worst = worst.max(last.elapsed());
        last = Instant::now();
        // The canary's clients must not idle out themselves.
        canary.keep_alive().await.expect("canary connections");
        if reveals % 10 == 9 {
            canary
                .check()
                .await
                .expect("canary while the stuck client sits");
        }
    }
    assert!(reveals > 25, "only {reveals} reveals in 6 s");
    assert!(
        worst < Duration::from_millis(1500),
        "a channel event came {worst:?} after the previous one"
    );
    // By now the stuck client must be gone: reading drains what the kernel holds, then the
    // stream ends (after a 1008 or 4000 close frame if it still fit).
    let (data, ended) = drain_until_closed(&mut stream, Duration::from_secs(3)).await;
    assert!(
        ended,
        "the server kept a client that has not read (nor answered a ping) for 6 s ({} bytes were waiting)",
        data.len()
    );
    if let Some(code) = last_close_code(&data) {
        assert!(
            code == close::POLICY || code == close::IDLE,
            "close code {code}"
        );
    }
    canary.keep_alive().await.expect("canary connections");
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_dropped_long_before_the_idle_timeout() {
    // The same stuck client, but the idle timeout is far away: what removes it is the
    // server's outbox overflowing (1008), which it can only do once the kernel stops taking
    // bytes. The server caps each socket's send buffer (64 KiB), so that happens after some
    // hundred kilobytes, not after the 4 MiB the kernel would otherwise autotune to.
    let (server, mut canary) = setup(&[
        "--outbox",
        "16",
        "--channels",
        "8",
        "--ply-interval",
        "100ms",
        "--game-pause",
        "200ms",
        "--idle-timeout",
        "120s",
    ])
    .await;
    let addr = server.addr();
    let options = ConnectOptions {
        recv_buffer: Some(2048),
        ..ConnectOptions::encoding(Encoding::Json)
    };
    let mut stuck = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    for n in 1..=8 {
        stuck
            .send(ClientMessage::Watch(Watch {
                target: Target::Channel(format!("tv{n}")),
                since_v: None,
            }))
            .await
            .unwrap();
    }
    // About 25 KB/s flows to it: the capped buffers fill within seconds, 4 MiB would take
    // minutes.
    let stream = stuck.into_ws().into_inner();
    assert_a_client_reading_nothing_is_dropped(
        stream,
        &mut canary,
        Duration::from_secs(20),
        Duration::from_secs(5),
        "a client",
    )
    .await;
}

/// The engines are deterministic, so an on-demand copy of the game a TV channel is playing
/// would show the channel's future plies: it is refused while that game is live, whatever
/// `reveal_from_ply` and interval it asks for (issue 13 item 2).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_tv_game_cannot_be_started_on_demand_to_read_its_future() {
    let (server, mut canary) = setup(&["--channels", "1", "--ply-interval", "1s"]).await;
    let mut client = Client::connect(server.addr(), Encoding::Json)
        .await
        .unwrap();
    let snapshot = watch_channel(&mut client, "tv1").await;
    let live = snapshot.game.expect("tv1 plays from the start").header;
    for reveal_from_ply in [Some(9), Some(0), None] {
        let id = client
            .send(ClientMessage::StartEngineGame(StartEngineGame {
                serial: live.serial.clone(),
                white: live.white.clone(),
                black: live.black.clone(),
                ply_interval_ms: Some(100),
                reveal_from_ply,
            }))
            .await
            .unwrap();
        let error = client
            .expect_error(id, ErrorCode::NotAllowed)
            .await
            .unwrap_or_else(|err| panic!("reveal_from_ply {reveal_from_ply:?}: {err}"));
        assert!(error.message.contains("live on tv1"), "{error:?}");
    }
    // Any other game starts as usual.
    let other = start_game(&mut client, 1_000, "ZQ0ZQ0").await;
    assert!(other.starts_with('g'), "{other}");
    canary.check().await.expect("canary");
}

/// `reveal_from_ply` as PROTOCOL.md shows it: the game starts from the initial position at
/// ply 0 and the plies before `reveal_from_ply` come at once in `revealed` (issue 13 item 13).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reveal_from_ply_sends_the_earlier_plies_in_revealed_from_ply_0() {
    let (server, mut canary) = setup(&["--channels", "0"]).await;
    let mut client = Client::connect(server.addr(), Encoding::Json)
        .await
        .unwrap();
    let id = client
        .send(ClientMessage::StartEngineGame(StartEngineGame {
            serial: "CH3SS5".into(),
            white: "L4".into(),
            black: "K7".into(),
            ply_interval_ms: Some(60_000),
            reveal_from_ply: Some(4),
        }))
        .await
        .unwrap();
    let channel = match client.expect_reply(id).await.unwrap() {
        ServerMessage::GameCreated(created) => created.channel,
        other => panic!("expected game_created, got {other:?}"),
    };
    let game = watch_channel(&mut client, &channel)
        .await
        .game
        .expect("the game");
    assert_eq!(game.start_ply, 0);
    assert_eq!(game.start_board, "kqbnrppppp..........PPPPPRNBQK");
    assert!(game.promoted.is_empty());
    assert_eq!(game.revealed, ["b1-c3", "e5-e4", "a2-a3", "b5-b4"]);
    assert_eq!(game.board, "kqbnrp.pp..p..pP.N...PPPPR.BQK");
    assert_eq!((game.next_ply, game.move_number), (4, 3));
    canary.check().await.expect("canary");
}
