//! The real `boardcast-server` program: killed with SIGKILL mid-match it loses no acknowledged
//! move; SIGTERM tells clients, flushes and exits 0.

#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use boardcast_protocol::limits::close;
use boardcast_protocol::*;
use common::*;

struct Program {
    child: Child,
    addr: SocketAddr,
}

/// Removes ANSI colour sequences from a log line.
fn plain(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Starts the program on an ephemeral port and reads the address it logs.
fn start(db: &Path) -> Program {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardcast-server"))
        .args(["--listen", "127.0.0.1:0", "--log", "info", "--db"])
        .arg(db)
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("program starts");
    // The log is on stderr, read to the end so the program never blocks on a full pipe.
    let log = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(log).lines() {
            let Ok(line) = line else { break };
            let line = plain(&line);
            if !sent
                && line.contains("listening")
                && let Some(addr) = line
                    .split_whitespace()
                    .find_map(|word| word.strip_prefix("addr="))
                    .and_then(|addr| addr.parse::<SocketAddr>().ok())
            {
                let _ = tx.send(addr);
                sent = true;
            }
        }
    });
    let addr = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("the program logs its address");
    Program { child, addr }
}

#[tokio::test]
async fn sigkill_loses_no_acknowledged_move() {
    let (dir, db) = temp_db();
    let mut program = start(&db);
    let mut white = Client::connect(program.addr, Encoding::Json, "Wim").await;
    let ws = white.create(None, ColorChoice::White, false).await;
    let mut black = Client::connect(program.addr, Encoding::Postcard, "Baukje").await;
    let bs = black.join_code(&ws.invite_code).await;
    let game = routes(&[
        "32-28", "19-23", "28x19", "14x23", "33-28", "23x32", "37x28",
    ]);
    for (ply, route) in game.iter().enumerate() {
        if ply % 2 == 0 {
            white.play(&ws, route).await;
        } else {
            black.play(&bs, route).await;
        }
    }
    // The last move is acknowledged: kill at once.
    program.child.kill().expect("SIGKILL");
    program.child.wait().unwrap();

    let mut program = start(&db);
    let mut black = Client::connect(program.addr, Encoding::Json, "Baukje").await;
    black.set_next_id(100);
    let id = black.send_resume(&bs.token, None).await;
    assert_eq!(black.expect_seat(id).await.side, Side::Black);
    let snapshot = black.expect_snapshot().await;
    assert_eq!(
        snapshot.moves.len(),
        game.len(),
        "every acknowledged move is there"
    );
    let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
    assert_eq!(routes, game);
    assert_eq!(snapshot.turn, Side::Black);
    // Play on.
    let next = snapshot.legal_moves[0].route.clone();
    black.play(&bs, &next).await;
    let mut watcher = Client::connect(program.addr, Encoding::Json, "Sjoerd").await;
    let seen = watcher.watch(&ws.match_id).await;
    assert_eq!(seen.moves.len(), game.len() + 1);
    program.child.kill().unwrap();
    program.child.wait().unwrap();
    drop(dir);
}

#[tokio::test]
async fn sigterm_tells_clients_flushes_and_exits_zero() {
    let (dir, db) = temp_db();
    let mut program = start(&db);
    let mut white = Client::connect(program.addr, Encoding::Json, "Wim").await;
    let ws = white.create(None, ColorChoice::White, true).await;
    let status = Command::new("kill")
        .args(["-TERM", &program.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let notice = white
        .recv_until(|m| match m {
            ServerMessage::Shutdown(n) => Some(n.clone()),
            _ => None,
        })
        .await;
    assert!(notice.reconnect_after_ms > 0);
    assert_eq!(white.expect_close().await, close::GOING_AWAY);
    let exit = tokio::task::spawn_blocking(move || program.child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(exit.success(), "exit status {exit:?}");

    // The seek is still there after a restart.
    let mut program = start(&db);
    let mut other = Client::connect(program.addr, Encoding::Json, "Other").await;
    other.send(ClientMessage::ListLobby).await;
    let lobby = other
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    assert_eq!(lobby.seeks.len(), 1);
    assert_eq!(lobby.seeks[0].match_id, ws.match_id);
    program.child.kill().unwrap();
    program.child.wait().unwrap();
    drop(dir);
}

#[test]
fn a_cluster_node_missing_a_shared_database_or_an_id_does_not_start() {
    let refused = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_boardcast-server"))
            .args(["--listen", "127.0.0.1:0", "--redis", "redis://127.0.0.1:1"])
            .args(args)
            .env_remove("BOARDCAST_NODE_ID")
            .env_remove("BOARDCAST_DATABASE")
            .output()
            .expect("program runs");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("node.db");
    assert_eq!(
        refused(&["--node-id", "a", "--db", db.to_str().unwrap()]),
        (
            Some(2),
            "boardcast-server: --redis needs --database postgres://…: the nodes of a cluster \
             share one PostgreSQL database (SQLite serves a single node)\n"
                .to_owned()
        )
    );
    assert!(!db.exists(), "nothing was opened");
    assert_eq!(
        refused(&["--database", "postgres://club@127.0.0.1:1/boardcast"]),
        (
            Some(2),
            "boardcast-server: --redis needs --node-id ID (env BOARDCAST_NODE_ID): every node \
             of a cluster has its own id\n"
                .to_owned()
        )
    );
}
