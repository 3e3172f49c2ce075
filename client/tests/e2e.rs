//! End to end: `boardcast --plain` processes against the real server, started in-process
//! through the `boardcast-server` library on a free port. Two players create and join by
//! invite code, type moves in notation, get an out-of-turn move refused, decline a draw,
//! resign and start a rematch; `list` shows a seek and `join` takes its id; a watcher follows a match; `resume` takes
//! a seat back after the client process died; and both players reconnect by themselves when
//! the server restarts.

mod common;

use boardcast_server::{Config, Server};

use common::Plain;

/// Starts the real server; returns it with its WebSocket address.
async fn start(config: Config) -> (Server, String) {
    let server = Server::start(config).await.expect("the server starts");
    let url = format!("ws://{}/ws", server.local_addr());
    (server, url)
}

/// The invite code in `seat white m123 invite ABCD`.
fn invite(line: &str) -> String {
    line.rsplit(' ').next().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_plain_clients_play_a_short_game_on_the_real_server() {
    let dir = tempfile::tempdir().unwrap();
    let (server, url) = start(Config::for_tests(dir.path().join("boardcast.db"))).await;
    let data_a = dir.path().join("a");
    let data_b = dir.path().join("b");

    // The clients block this test thread while they wait for lines; the server runs on the
    // runtime's other workers.
    let (token, transcript) = tokio::task::spawn_blocking(move || {
        let mut alice = Plain::start(&[
            "--server",
            &url,
            "--name",
            "alice",
            "--data-dir",
            data_a.to_str().unwrap(),
            "play",
            "--time",
            "5+3",
            "--color",
            "white",
            "--private",
        ]);
        let seat = alice.expect("seat");
        assert!(seat.starts_with("seat white "), "{seat}");
        let code = invite(&seat);

        let mut bob = Plain::start(&[
            "--server",
            &url,
            "--name",
            "bob",
            "--json",
            "--data-dir",
            data_b.to_str().unwrap(),
            "join",
            &code,
        ]);
        assert!(bob.expect("seat").starts_with("seat black "));
        assert!(
            bob.expect("match")
                .contains("white alice black bob playing")
        );
        assert_eq!(bob.expect("turn"), "turn white");
        assert_eq!(alice.expect("joined"), "joined black bob");
        assert_eq!(alice.expect("turn"), "turn white");
        let legal = alice.expect("legal");
        assert!(legal.contains("32-28"), "{legal}");
        // The seat is stored for `boardcast resume`; its token must never be printed.
        let stored = std::fs::read_to_string(data_a.join("seats.json")).unwrap();
        let stored: serde_json::Value = serde_json::from_str(&stored).unwrap();
        let token = stored[0]["token"].as_str().unwrap().to_owned();
        assert!(token.len() >= 8, "{token}");

        // Black types a move on White's turn: a premove, sent once White has moved.
        bob.send("19-23");
        assert_eq!(bob.expect("premove"), "premove set 19-23");

        alice.send("move 32-28");
        for player in [&mut alice, &mut bob] {
            assert_eq!(player.expect("move"), "move 1. 32-28");
        }
        assert_eq!(bob.expect("premove"), "premove played 19-23");
        assert_eq!(alice.expect("move"), "move 1... 19-23");
        assert_eq!(bob.expect("move"), "move 1... 19-23");
        // 28x19 is now forced for White: typed as origin and destination.
        assert!(alice.expect("legal").contains("28x19"));
        alice.send("28x19");
        for player in [&mut alice, &mut bob] {
            assert_eq!(player.expect("move"), "move 2. 28x19");
        }

        bob.send("draw offer");
        assert_eq!(alice.expect("draw"), "draw offered black");
        alice.send("draw decline");
        assert_eq!(bob.expect("draw declined"), "draw declined white");

        bob.send("resign");
        for player in [&mut alice, &mut bob] {
            let result = player.expect("result");
            assert!(result.starts_with("result white wins"), "{result}");
        }
        bob.send("board");
        // White's man took on 19 and stands there; 23 and 28 are empty.
        assert_eq!(bob.expect("board 16"), "board 16 b   b   b   w   b");

        // A rematch, colours swapped: each gets a new seat unasked and Bob opens as White.
        alice.send("rematch offer");
        assert_eq!(bob.expect("rematch offered"), "rematch offered white");
        bob.send("rematch accept");
        let started = alice.expect("rematch started");
        assert_eq!(bob.expect("rematch started"), started);
        let rematch = started.rsplit(' ').next().unwrap().to_owned();
        assert!(
            alice
                .expect("seat")
                .starts_with(&format!("seat black {rematch} "))
        );
        assert!(
            bob.expect("seat")
                .starts_with(&format!("seat white {rematch} "))
        );
        assert!(bob.expect("legal").contains("32-28"));
        bob.send("32-28");
        assert_eq!(alice.expect("move"), "move 1. 32-28");
        assert!(alice.expect("legal").contains("19-23"));
        let mut lines = alice.quit();
        lines.extend(bob.quit());
        (token, lines)
    })
    .await
    .unwrap();

    assert!(
        transcript.iter().all(|line| !line.contains(&token)),
        "no seat token is printed: {transcript:#?}"
    );
    server.shutdown().await.unwrap();
}

/// The match id in `seat white m123 invite ABCD`.
fn match_id(line: &str) -> String {
    line.split(' ').nth(2).unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn list_shows_the_seek_and_resume_takes_the_seat_back_after_the_client_died() {
    let dir = tempfile::tempdir().unwrap();
    let (server, url) = start(Config::for_tests(dir.path().join("boardcast.db"))).await;
    let data_a = dir.path().join("a");
    let data_b = dir.path().join("b");

    tokio::task::spawn_blocking(move || {
        let data_b = data_b.to_str().unwrap();
        let alice_args = |command: &'static [&'static str]| {
            let mut args = vec![
                "--server".to_owned(),
                url.clone(),
                "--name".to_owned(),
                "alice".to_owned(),
                "--data-dir".to_owned(),
                data_a.to_str().unwrap().to_owned(),
            ];
            args.extend(command.iter().map(|s| (*s).to_owned()));
            args
        };
        let start = |args: Vec<String>| {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            Plain::start(&args)
        };
        let mut alice = start(alice_args(&["play", "--time", "none", "--color", "white"]));
        let seat = alice.expect("seat");
        let id = match_id(&seat);

        let mut list = Plain::start(&["--server", &url, "--data-dir", data_b, "list"]);
        let seek = list.expect(&format!("seek {id}"));
        assert_eq!(seek, format!("seek {id} alice untimed free black"));
        list.expect("lobby end");

        // `join` takes what `list` printed: the seek's match id (an invite code works too).
        let listed = seek.split(' ').nth(1).unwrap();
        let bob_args = [
            "--server",
            &url,
            "--name",
            "bob",
            "--data-dir",
            data_b,
            "join",
            listed,
        ];
        let mut bob = Plain::start(&bob_args);
        assert_eq!(bob.expect("turn"), "turn white");
        alice.expect("legal");

        // A watcher sees the match and its moves, but no legal list: it is nobody's seat.
        let mut eve = Plain::start(&["--server", &url, "--data-dir", data_b, "watch", &id]);
        assert_eq!(
            eve.expect("match"),
            format!("match {id} white alice black bob playing")
        );
        assert_eq!(eve.expect("turn"), "turn white");

        // The terminal is closed: the process dies without a word.
        drop(alice);
        assert_eq!(bob.expect("left"), "left white");
        assert_eq!(eve.expect("left"), "left white");

        let mut alice = start(alice_args(&["resume"]));
        assert_eq!(alice.expect("seat"), seat);
        assert_eq!(
            alice.expect("match"),
            format!("match {id} white alice black bob playing")
        );
        assert!(alice.expect("legal").contains("32-28"));
        alice.send("32-28");
        assert_eq!(bob.expect("returned"), "returned white");
        assert_eq!(bob.expect("move"), "move 1. 32-28");
        assert_eq!(alice.expect("move"), "move 1. 32-28");
        assert_eq!(eve.expect("move"), "move 1. 32-28");
        assert_eq!(eve.expect("turn"), "turn black");
        alice.quit();
        bob.quit();
        let watched = eve.quit();
        assert!(
            !watched.iter().any(|l| l.starts_with("legal")),
            "{watched:#?}"
        );
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn both_players_reconnect_by_themselves_when_the_server_restarts() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("boardcast.db");
    let (server, url) = start(Config::for_tests(db.clone())).await;
    let addr = server.local_addr();
    let data_a = dir.path().join("a");
    let data_b = dir.path().join("b");

    let (mut alice, mut bob) = tokio::task::spawn_blocking(move || {
        let (a, b) = (data_a.to_str().unwrap(), data_b.to_str().unwrap());
        let mut alice = Plain::start(&[
            "--server",
            &url,
            "--name",
            "alice",
            "--data-dir",
            a,
            "play",
            "--color",
            "white",
        ]);
        let code = invite(&alice.expect("seat"));
        let mut bob = Plain::start(&[
            "--server",
            &url,
            "--name",
            "bob",
            "--data-dir",
            b,
            "join",
            &code,
        ]);
        alice.expect("legal");
        alice.send("32-28");
        assert_eq!(bob.expect("move"), "move 1. 32-28");
        (alice, bob)
    })
    .await
    .unwrap();

    server.shutdown().await.unwrap();
    let mut config = Config::for_tests(db);
    config.listen = addr;
    let (server, _) = start(config).await;

    tokio::task::spawn_blocking(move || {
        for player in [&mut alice, &mut bob] {
            player.expect("disconnected retry");
            player.expect("reconnected");
        }
        bob.send("19-23");
        for player in [&mut alice, &mut bob] {
            assert_eq!(player.expect("move"), "move 1... 19-23");
        }
        assert!(alice.expect("legal").contains("28x19"));
        alice.quit();
        bob.quit();
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}
