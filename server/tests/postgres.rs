//! Matches stored in a real PostgreSQL server (started by `boardcast-testkit`): the same
//! behaviour as on SQLite, and what players see while PostgreSQL is down.

mod common;

use std::time::{Duration, Instant};

use boardcast_protocol::*;
use boardcast_server::Config;
use boardcast_server::{Database, Storage};
use boardcast_testkit::postgres::Cluster;
use common::*;

/// A test server storing into `url`.
async fn server_on(url: &str) -> TestServer {
    let (_unused, db) = temp_db();
    TestServer::start_with(config_on(url, db)).await
}

/// A test server's configuration storing into `url` rather than its SQLite file `db`.
fn config_on(url: &str, db: std::path::PathBuf) -> Config {
    let mut config = Config::for_tests(db);
    config.database = Some(Database::Postgres(url.to_owned()));
    config
}

/// The match's stored event versions, read back as a restarted server would.
async fn stored_versions(url: &str) -> Vec<u64> {
    let (storage, recovered) =
        Storage::open(&boardcast_server::Database::Postgres(url.to_owned()), None)
            .await
            .expect("reconnects");
    storage.close().await;
    assert_eq!(recovered.len(), 1, "one unfinished match");
    recovered[0].events.iter().map(|e| e.v).collect()
}

/// Waits until `client` hears of the move at `ply` (earlier ones pass by).
async fn hears_move(client: &mut Client, ply: u32) {
    client
        .event_until(|event| match event {
            MatchEvent::Moved(m) if m.played.ply == ply => Some(()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn moves_are_refused_as_storage_unavailable_while_postgres_is_down_and_play_resumes() {
    let Some(cluster) = Cluster::start_or_skip("PostgreSQL outage") else {
        return;
    };
    let url = cluster.create_database();
    let server = server_on(&url).await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let game = routes(&["33-28", "19-24", "35-30", "24x22"]);
    white.play(&ws, &game[0]).await;
    hears_move(&mut black, 0).await;
    black.play(&bs, &game[1]).await;
    hears_move(&mut white, 1).await;

    cluster.stop();
    let id = white.send_move(&ws, &game[2]).await;
    let refused = white.expect_error(id).await;
    assert_eq!(refused.code, ErrorCode::StorageUnavailable);
    assert_eq!(
        refused.message,
        "storage is unavailable: nothing was applied; try again shortly"
    );
    // Nothing changed: it is still white's move, and black heard of no move.
    let snapshot = black.watch(&ws.match_id).await;
    assert_eq!(snapshot.moves.len(), 2);
    assert_eq!(snapshot.turn, Side::White);

    cluster.start_again().expect("PostgreSQL starts again");
    // The server reconnects by itself: the same move, sent again, goes through.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let id = white.send_move(&ws, &game[2]).await;
        let answer = white
            .recv_until(|m| match m {
                ServerMessage::Ack(ack) if ack.id == id => Some(Ok(())),
                ServerMessage::Error(err) if err.id == Some(id) => Some(Err(err.clone())),
                _ => None,
            })
            .await;
        match answer {
            Ok(()) => break,
            Err(err) if err.code == ErrorCode::StorageUnavailable => {
                assert!(Instant::now() < deadline, "no reconnect within 60 s");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(err) => panic!("refused after PostgreSQL came back: {err:?}"),
        }
    }
    hears_move(&mut black, 2).await;
    black.play(&bs, &game[3]).await;
    hears_move(&mut white, 3).await;
    server.stop().await;

    // Every acknowledged move is stored, once: two joins and four moves.
    assert_eq!(stored_versions(&url).await, [1, 2, 3, 4, 5, 6]);
}

/// The leaderboard as a client asks for it.
async fn leaderboard(client: &mut Client) -> Vec<LeaderboardEntry> {
    let id = client
        .send(ClientMessage::Leaderboard(LeaderboardQuery { limit: 10 }))
        .await;
    client
        .recv_until(|m| match m {
            ServerMessage::Leaderboard(l) if l.id == id => Some(l.entries.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_sqlite_database_migrated_to_postgres_serves_the_same_games_leaderboard_and_matches() {
    let Some(cluster) = Cluster::shared_or_skip("migrate") else {
        return;
    };
    let url = cluster.create_database();
    // A real run on SQLite: a match resigned, one still being played, and predictors' scores.
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let game = routes(&["33-28", "19-24", "35-30"]);
    white.play(&ws, &game[0]).await;
    black.play(&bs, &game[1]).await;
    let id = black.seat_action(&bs, ClientMessage::Resign).await;
    black.expect_ack(id).await;
    let (mut white2, ws2, mut black2, bs2) = two_players(&server, None).await;
    white2.play(&ws2, &game[0]).await;
    hears_move(&mut black2, 0).await;
    let (status, pdn) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!(status, 200, "{pdn}");
    let db = server.db.clone();
    let dir = server.stop().await;
    let (storage, _) = Storage::open(&boardcast_server::Database::Sqlite(db.clone()), None)
        .await
        .unwrap();
    let score = |name: &str, correct| {
        boardcast_server::Write::Channel(boardcast_server::ChannelWrite::Score(
            boardcast_server::LeaderboardDelta {
                name: name.into(),
                correct,
                strikes: 1,
            },
        ))
    };
    storage
        .commit(vec![score("ann", 4), score("bob", 6)])
        .await
        .unwrap();
    storage.close().await;

    let from = Database::Sqlite(db.clone());
    let to = Database::Postgres(url.clone());
    let copied = boardcast_server::migrate(&from, &to)
        .await
        .expect("migrates");
    let rows: Vec<(&str, u64)> = copied.tables.iter().map(|(t, n)| (*t, n.rows)).collect();
    // Four joins, three moves and a resignation; the two TV channels' games started (reserved
    // ids); one run of the SQLite server; no accounts (guests played), so none of their tables'
    // rows; no club events, no chat.
    assert_eq!(
        rows,
        [
            ("matches", 2),
            ("events", 8),
            ("engine_games", 2),
            ("server_runs", 1),
            ("leaderboard", 2),
            ("accounts", 0),
            ("sessions", 0),
            ("tokens", 0),
            ("resets", 0),
            ("rating_changes", 0),
            ("club_events", 0),
            ("club_event_log", 0),
            ("chat_lines", 0),
            ("chat_mutes", 0),
            ("account_preferences", 0),
            ("club_organisers", 0)
        ]
    );
    // Safe to run again: the same rows, the same checksums.
    assert_eq!(
        boardcast_server::migrate(&from, &to)
            .await
            .expect("migrates again"),
        copied
    );

    let server = server_on(&url).await;
    let (status, served) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!((status, served), (200, pdn));
    let mut watcher = server.client("Sjoerd").await;
    let entry = |name: &str, correct| LeaderboardEntry {
        name: name.into(),
        games: 1,
        correct,
        strikes: 1,
    };
    assert_eq!(
        leaderboard(&mut watcher).await,
        [entry("bob", 6), entry("ann", 4)]
    );
    // The unfinished match resumed from PostgreSQL: black moves on with its seat token.
    let snapshot = watcher.watch(&ws2.match_id).await;
    assert_eq!(snapshot.moves.len(), 1);
    let mut black2 = server.client("Baukje").await;
    let id = black2.send_resume(&bs2.token, None).await;
    assert_eq!(black2.expect_seat(id).await.side, Side::Black);
    black2.play(&bs2, &game[1]).await;
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_stalled_leaderboard_read_does_not_hold_up_a_move_on_the_same_connection() {
    let Some(cluster) = Cluster::shared_or_skip("stalled archive read") else {
        return;
    };
    let url = cluster.create_database();
    let (_unused, db) = temp_db();
    let mut config = config_on(&url, db);
    // No TV channel: nothing but the test's read touches the leaderboard.
    config.channels = 0;
    let server = TestServer::start_with(config).await;
    let (mut white, ws, mut black, _) = two_players(&server, None).await;

    // Another session locks the leaderboard: every read of it waits until it lets go.
    let (locker, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connects");
    tokio::spawn(connection);
    locker
        .batch_execute("BEGIN; LOCK TABLE leaderboard IN ACCESS EXCLUSIVE MODE")
        .await
        .expect("locks");

    let asked = white
        .send(ClientMessage::Leaderboard(LeaderboardQuery { limit: 10 }))
        .await;
    let game = routes(&["33-28"]);
    let moved = white.send_move(&ws, &game[0]).await;
    // The move is acked (and played) while the leaderboard read still waits.
    let first = white
        .recv_until(|m| match m {
            ServerMessage::Ack(ack) if ack.id == moved => Some("move ack"),
            ServerMessage::Leaderboard(l) if l.id == asked => Some("leaderboard"),
            ServerMessage::Error(err) if err.id == Some(asked) || err.id == Some(moved) => {
                panic!("refused: {err:?}")
            }
            _ => None,
        })
        .await;
    assert_eq!(first, "move ack");
    hears_move(&mut black, 0).await;

    locker.batch_execute("COMMIT").await.expect("unlocks");
    let entries = white
        .recv_until(|m| match m {
            ServerMessage::Leaderboard(l) if l.id == asked => Some(l.entries.clone()),
            _ => None,
        })
        .await;
    assert_eq!(entries, []);
    server.stop().await;
}

#[tokio::test]
async fn a_guest_away_at_the_rematch_finds_its_seat_after_a_restart_on_postgres() {
    let Some(cluster) = Cluster::shared_or_skip("rematch seat after a restart") else {
        return;
    };
    let url = cluster.create_database();
    let (dir, db) = temp_db();
    a_guest_away_at_the_rematch_finds_its_seat_after_a_restart(|| config_on(&url, db.clone()))
        .await;
    drop(dir);
}

#[tokio::test]
async fn seat_tokens_are_at_rest_only_as_hashes_and_seat_after_a_restart_on_postgres() {
    let Some(cluster) = Cluster::shared_or_skip("seat tokens at rest") else {
        return;
    };
    let url = cluster.create_database();
    let (dir, db) = temp_db();
    seat_tokens_are_at_rest_only_as_hashes_and_seat_after_a_restart(
        || config_on(&url, db.clone()),
        async |token: &str| boardcast_testkit::postgres::tables_hold(&url, token).await,
    )
    .await;
    drop(dir);
}
