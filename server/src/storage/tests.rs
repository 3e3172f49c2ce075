//! The storage contract: one set of tests that every backend passes.
//!
//! Each test takes a [`Place`] — somewhere a store can be opened, and opened again to check
//! what survived — and talks only to the [`Storage`] handle. [`storage_contract!`] stamps the
//! whole set out for one backend.

use std::collections::HashMap;

use boardcast_protocol::account::BestWin;
use boardcast_protocol::{EngineResult, GameHeader, LeaderboardEntry, Side, Standing};

use super::*;

/// Somewhere a store lives: each call opens it (again), as a server start would.
pub(crate) trait Place {
    async fn open(&self) -> (Storage, Vec<StoredMatch>);
    /// Whether `text` is anywhere in what the store keeps: the bytes of its files, or the
    /// text of every row of every table.
    async fn holds_text(&self, text: &str) -> bool;
}

/// A SQLite database file in a temporary directory.
pub(crate) struct SqliteFile {
    _dir: tempfile::TempDir,
    path: std::path::PathBuf,
}

impl SqliteFile {
    pub(crate) fn new() -> SqliteFile {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        SqliteFile { _dir: dir, path }
    }
}

impl Place for SqliteFile {
    async fn open(&self) -> (Storage, Vec<StoredMatch>) {
        Storage::open(&crate::storage::Database::Sqlite(self.path.clone()), None)
            .await
            .unwrap()
    }

    async fn holds_text(&self, text: &str) -> bool {
        sqlite_files_hold(&self.path, text)
    }
}

/// Whether the SQLite database at `path` or its write-ahead log holds `text`, byte for byte.
pub(crate) fn sqlite_files_hold(path: &std::path::Path, text: &str) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    [path.to_owned(), wal.into()].iter().any(|file| {
        std::fs::read(file).is_ok_and(|bytes| {
            bytes
                .windows(text.len())
                .any(|window| window == text.as_bytes())
        })
    })
}

/// A fresh database on the PostgreSQL server this test process started.
pub(crate) struct PostgresDatabase {
    pub url: String,
}

impl PostgresDatabase {
    /// A new database, or `None` (after the skip line) without PostgreSQL.
    pub(crate) fn new(test: &str) -> Option<PostgresDatabase> {
        let cluster = boardcast_testkit::postgres::Cluster::shared_or_skip(test)?;
        Some(PostgresDatabase {
            url: cluster.create_database(),
        })
    }
}

impl Place for PostgresDatabase {
    async fn open(&self) -> (Storage, Vec<StoredMatch>) {
        Storage::open(
            &crate::storage::Database::Postgres(self.url.to_owned()),
            None,
        )
        .await
        .unwrap()
    }

    async fn holds_text(&self, text: &str) -> bool {
        boardcast_testkit::postgres::tables_hold(&self.url, text).await
    }
}

/// Every contract test, run against the place `$place` makes (an async expression giving
/// `Option<impl Place>`; `None` means the backend cannot run here, and the test says so).
macro_rules! storage_contract {
    ($place:expr) => {
        storage_contract!(@tests $place;
            a_finished_match_is_read_back_by_id_or_by_seat_token,
            a_seat_token_is_stored_only_as_its_hash_and_found_by_it,
            writes_survive_reopen_and_finished_matches_are_not_recovered,
            a_refused_request_does_not_spoil_its_group,
            a_refused_request_stores_none_of_its_writes,
            archived_games_are_read_back_once_finished_and_their_ids_never_reused,
            the_leaderboard_adds_up_scores_and_ranks_by_correct_less_strikes,
            look_alike_names_are_one_leaderboard_row_under_the_name_first_seen,
            every_start_is_a_new_run,
            a_rated_result_is_stored_with_both_rating_changes_exactly_once,
            the_best_win_is_the_highest_rated_member_beaten_in_a_rated_game,
            a_club_event_pairs_each_round_and_counts_each_game_exactly_once,
            a_club_events_newer_records_are_read_a_bounded_number_at_a_time,
            an_events_unfinished_games_are_read_without_any_other_match,
            the_list_of_events_is_read_a_page_at_a_time_newest_first,
            chat_lines_deletions_and_mutes_are_stored_with_who_and_when,
            a_club_admin_grants_and_takes_back_the_organiser_right,
            a_members_preferences_are_stored_per_account_and_survive_a_restart,
            a_pdn_export_reads_page_after_page_in_order_with_no_game_repeated_or_missing,
        );
    };
    (@tests $place:expr; $($test:ident,)*) => {
        $(
            #[tokio::test]
            async fn $test() {
                if let Some(place) = $place.await {
                    $crate::storage::tests::$test(&place).await;
                }
            }
        )*
    };
}

mod sqlite {
    storage_contract!(async { Some(super::SqliteFile::new()) });
}

mod postgres {
    storage_contract!(async { super::PostgresDatabase::new("storage contract on PostgreSQL") });
}

/// Match `id` with set-up `setup` and no invite, made at 1 ms by a single server (no owner).
pub(crate) fn match_with_setup(id: &str, setup: &str) -> Write {
    Write::CreateMatch {
        id: id.into(),
        invite: None,
        created_ms: 1,
        setup: setup.into(),
        owner: None,
    }
}

fn create(id: &str) -> Write {
    Write::CreateMatch {
        id: id.into(),
        invite: Some(format!("inv-{id}")),
        created_ms: 1,
        setup: "{}".into(),
        owner: None,
    }
}

fn event(id: &str, v: u64) -> Write {
    Write::Event {
        match_id: id.into(),
        v,
        at_ms: 2,
        body: format!("e{v}"),
        epoch: 0,
    }
}

pub(crate) async fn a_finished_match_is_read_back_by_id_or_by_seat_token(place: &impl Place) {
    let (storage, _) = place.open().await;
    let joined = |id: &str, v: u64, token_hash: &str| Write::Event {
        match_id: id.into(),
        v,
        at_ms: 2,
        body: format!(r#"{{"event":"x","token_hash":"{token_hash}"}}"#),
        epoch: 0,
    };
    let finish = |id: &str| Write::Finish {
        match_id: id.into(),
        result: "2-0".into(),
        pdn: String::new(),
        epoch: 0,
    };
    storage
        .commit(vec![
            create("a"),
            joined("a", 1, "ta"),
            event("a", 2),
            finish("a"),
        ])
        .await
        .unwrap();
    storage
        .commit(vec![create("b"), joined("b", 1, "tb")])
        .await
        .unwrap();
    for key in [MatchKey::Id("a".into()), MatchKey::TokenHash("ta".into())] {
        let found = storage.finished_match(key).await.unwrap().expect("found");
        assert_eq!(found.id, "a");
        assert_eq!(found.events.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2]);
    }
    // Unfinished, or unknown: nothing.
    for key in [
        MatchKey::Id("b".into()),
        MatchKey::TokenHash("tb".into()),
        MatchKey::TokenHash("nobody".into()),
    ] {
        assert!(storage.finished_match(key).await.unwrap().is_none());
    }
    storage.close().await;
}

/// Player `name`'s join of White's seat with seat `token`, as this server stores it.
fn joined_record(name: &str, token: &str) -> crate::matches::Record {
    crate::matches::Record::joined(
        Side::White,
        &crate::matches::Player::person(name),
        token.to_owned(),
    )
}

/// The same join as a server from before hashed tokens stored it: the token itself.
pub(crate) fn old_joined_body(name: &str, token: &str) -> String {
    let mut body = serde_json::to_value(joined_record(name, token)).unwrap();
    let record = body.as_object_mut().unwrap();
    assert!(record.remove("token_hash").is_some());
    record.insert("token".into(), token.into());
    body.to_string()
}

/// The stored body of another event than a join: no seat token in it.
pub(crate) const DRAW_OFFERED: &str = r#"{"event":{"draw_offered":"white"}}"#;

/// A match row whose set-up replays (the default one).
fn create_playable(id: &str) -> Write {
    Write::CreateMatch {
        id: id.into(),
        invite: Some(format!("inv-{id}")),
        created_ms: 1,
        setup: serde_json::to_string(&crate::matches::Setup::default()).unwrap(),
        owner: None,
    }
}

/// Whether the replayed `stored` match seats `token` on White.
pub(crate) fn white_seated_by(stored: &StoredMatch, token: &str) -> bool {
    let now = tokio::time::Instant::now().into_std();
    let (state, _) = crate::matches::local::rebuild(stored, now, None).unwrap();
    state.side_of_token(token) == Some(Side::White)
}

pub(crate) async fn a_seat_token_is_stored_only_as_its_hash_and_found_by_it(place: &impl Place) {
    let (storage, _) = place.open().await;
    let token = crate::matches::state::new_token();
    let join = joined_record("Wim", &token).write("a", 1, 2, 0).unwrap();
    storage
        .commit(vec![create_playable("a"), join])
        .await
        .unwrap();
    storage.close().await;
    let (storage, recovered) = place.open().await;
    assert!(!place.holds_text(&token).await, "the seat token is at rest");
    assert!(white_seated_by(&recovered[0], &token), "{recovered:?}");
    assert!(!white_seated_by(&recovered[0], "another"));
    let finish = Write::Finish {
        match_id: "a".into(),
        result: "1-0".into(),
        pdn: String::new(),
        epoch: 0,
    };
    storage.commit(vec![finish]).await.unwrap();
    let hash = crate::accounts::secret::hash(&token);
    let found = storage.finished_match(MatchKey::TokenHash(hash)).await;
    assert_eq!(found.unwrap().map(|m| m.id).as_deref(), Some("a"));
    storage.close().await;
    assert!(!place.holds_text(&token).await);
}

#[tokio::test]
async fn an_sqlite_database_with_plain_seat_tokens_keeps_only_their_hashes_and_seats_by_them() {
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    storage
        .commit(vec![create_playable("a"), create_playable("b")])
        .await
        .unwrap();
    storage.close().await;
    // As a server from before left it: the index of plain tokens, joins holding the token.
    let conn = rusqlite::Connection::open(&place.path).unwrap();
    conn.execute_batch(
        "DROP INDEX events_by_token_hash;
         CREATE INDEX events_by_token ON events \
         ((CASE WHEN json_valid(body) THEN json_extract(body, '$.token') END));
         UPDATE matches SET finished = 1 WHERE id = 'b';",
    )
    .unwrap();
    for (id, token) in [("a", "plain-token-of-a"), ("b", "plain-token-of-b")] {
        conn.execute(
            "INSERT INTO events (match_id, v, at_ms, body) VALUES (?1, 1, 2, ?2)",
            rusqlite::params![id, old_joined_body("Wim", token)],
        )
        .unwrap();
    }
    conn.execute("INSERT INTO events VALUES ('a', 2, 2, ?1)", [DRAW_OFFERED])
        .unwrap();
    drop(conn);
    assert!(sqlite_files_hold(&place.path, "plain-token-of-a"));

    let (storage, recovered) = place.open().await;
    for token in ["plain-token-of-a", "plain-token-of-b"] {
        assert!(!place.holds_text(token).await, "{token} is still at rest");
    }
    assert!(white_seated_by(&recovered[0], "plain-token-of-a"));
    assert_eq!(
        recovered[0].events[1].body, DRAW_OFFERED,
        "others are left alone"
    );
    let hash = crate::accounts::secret::hash("plain-token-of-b");
    let finished = storage.finished_match(MatchKey::TokenHash(hash)).await;
    let finished = finished.unwrap().expect("found by the old token's hash");
    assert!(white_seated_by(&finished, "plain-token-of-b"));
    storage.close().await;
    let conn = rusqlite::Connection::open(&place.path).unwrap();
    let indexes: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE name LIKE 'events_by_token%'")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert_eq!(indexes, ["events_by_token_hash"]);
}

#[test]
fn a_join_stored_before_tokens_were_hashed_still_seats_by_its_token() {
    let stored = StoredMatch {
        id: "a".into(),
        invite: None,
        created_ms: 1,
        setup: serde_json::to_string(&crate::matches::Setup::default()).unwrap(),
        events: vec![StoredEvent {
            v: 1,
            at_ms: 2,
            body: old_joined_body("Wim", "plain"),
        }],
    };
    assert!(white_seated_by(&stored, "plain"));
    assert!(!white_seated_by(&stored, "other"));
}

pub(crate) async fn writes_survive_reopen_and_finished_matches_are_not_recovered(
    place: &impl Place,
) {
    let (storage, recovered) = place.open().await;
    assert!(recovered.is_empty());
    storage.commit(vec![create("a")]).await.unwrap();
    storage.commit(vec![create("b")]).await.unwrap();
    // Many matches at once: they share transactions.
    let mut tasks = Vec::new();
    for v in 1..=50 {
        let s = storage.clone();
        tasks.push(tokio::spawn(
            async move { s.commit(vec![event("a", v)]).await },
        ));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    storage
        .commit(vec![Write::Finish {
            match_id: "b".into(),
            result: "1-0".into(),
            pdn: "[Result \"1-0\"]".into(),
            epoch: 0,
        }])
        .await
        .unwrap();
    assert_eq!(
        storage.finished_pdn("b".into()).await.unwrap().as_deref(),
        Some("[Result \"1-0\"]")
    );
    assert_eq!(storage.finished_pdn("a".into()).await.unwrap(), None);
    storage.close().await;
    assert!(
        matches!(
            storage.commit(vec![event("a", 99)]).await,
            Err(StorageError::Closed)
        ),
        "a closed store refuses writes"
    );

    let (storage, recovered) = place.open().await;
    assert_eq!(recovered.len(), 1);
    let a = &recovered[0];
    assert_eq!(a.id, "a");
    assert_eq!(a.invite.as_deref(), Some("inv-a"));
    let vs: Vec<u64> = a.events.iter().map(|e| e.v).collect();
    assert_eq!(vs, (1..=50).collect::<Vec<_>>());
    assert_eq!(
        storage.unfinished().await.unwrap(),
        recovered,
        "recovery reads the same as opening"
    );
    storage.close().await;
}

pub(crate) async fn a_refused_request_does_not_spoil_its_group(place: &impl Place) {
    let (storage, _) = place.open().await;
    storage.commit(vec![create("a")]).await.unwrap();
    storage.commit(vec![event("a", 1)]).await.unwrap();
    let dup = storage.clone();
    let ok = storage.clone();
    let (dup, ok) = tokio::join!(
        dup.commit(vec![event("a", 1)]),
        ok.commit(vec![event("a", 2)])
    );
    // Refused by the database itself, whose error is kept as the source (not as text).
    assert!(
        matches!(
            &dup,
            Err(StorageError::Refused(
                Refused::Sqlite(_) | Refused::Postgres(_)
            ))
        ),
        "a duplicate version is refused: {dup:?}"
    );
    let refused = dup.unwrap_err();
    let database = std::error::Error::source(&refused).and_then(std::error::Error::source);
    assert!(database.is_some(), "{refused:?} keeps the database's error");
    ok.unwrap();
    storage.close().await;
}

pub(crate) async fn a_refused_request_stores_none_of_its_writes(place: &impl Place) {
    let (storage, _) = place.open().await;
    storage.commit(vec![create("a")]).await.unwrap();
    storage.commit(vec![event("a", 1)]).await.unwrap();
    // A new match and a new event are fine; the duplicate event after them is not.
    let refused = storage
        .commit(vec![create("b"), event("a", 2), event("a", 1)])
        .await;
    assert!(
        matches!(refused, Err(StorageError::Refused(_))),
        "{refused:?}"
    );
    storage.close().await;
    let (storage, recovered) = place.open().await;
    let kept: Vec<(String, Vec<u64>)> = recovered
        .iter()
        .map(|m| (m.id.clone(), m.events.iter().map(|e| e.v).collect()))
        .collect();
    assert_eq!(kept, [("a".to_owned(), vec![1])], "everything as before");
    storage.close().await;
}

fn header(game_id: u64) -> GameHeader {
    GameHeader {
        game_id,
        serial: format!("S{game_id}"),
        white: "D".into(),
        black: "K".into(),
    }
}

fn started(game_id: u64) -> Write {
    Write::Channel(ChannelWrite::Started(StartedGame {
        channel: "tv".into(),
        header: header(game_id),
        start_board: "board".into(),
        start_ply: 3,
    }))
}

/// Engine game `game_id` as archived once it finished.
fn archived(game_id: u64, winner: Option<Side>) -> ArchivedGame {
    ArchivedGame {
        header: header(game_id),
        start_board: "board".into(),
        start_ply: 3,
        moves: vec!["b1-c3".into(), "e6-e5".into()],
        result: EngineResult {
            winner,
            reason: "checkmate".into(),
        },
    }
}

fn finished(game_id: u64, winner: Option<Side>) -> Write {
    let ArchivedGame {
        header,
        start_board,
        start_ply,
        moves,
        result,
    } = archived(game_id, winner);
    Write::Channel(ChannelWrite::Game(FinishedGame {
        channel: "tv".into(),
        header,
        start_board,
        start_ply,
        moves,
        result,
        standings: vec![Standing {
            name: "ann".into(),
            correct: 1,
            strikes: 0,
        }],
    }))
}

pub(crate) async fn archived_games_are_read_back_once_finished_and_their_ids_never_reused(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    assert_eq!(storage.next_game_id().await.unwrap(), 1);
    storage.commit(vec![started(1)]).await.unwrap();
    storage.commit(vec![started(2)]).await.unwrap();
    assert_eq!(
        storage.next_game_id().await.unwrap(),
        3,
        "started ids are taken"
    );
    assert_eq!(
        storage.archived_game(1).await.unwrap(),
        None,
        "not finished yet"
    );
    storage
        .commit(vec![finished(1, Some(Side::Black))])
        .await
        .unwrap();
    // A game finished without its start stored (archived after a crash) is stored whole.
    storage.commit(vec![finished(7, None)]).await.unwrap();
    assert_eq!(
        storage.archived_game(1).await.unwrap(),
        Some(archived(1, Some(Side::Black)))
    );
    assert_eq!(
        storage.archived_game(7).await.unwrap(),
        Some(archived(7, None))
    );
    assert_eq!(storage.archived_game(2).await.unwrap(), None);
    assert_eq!(storage.archived_game(9).await.unwrap(), None);
    storage.close().await;
    let (storage, _) = place.open().await;
    assert_eq!(storage.next_game_id().await.unwrap(), 8);
    storage.close().await;
}

pub(crate) async fn the_leaderboard_adds_up_scores_and_ranks_by_correct_less_strikes(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let score = |name: &str, correct, strikes| {
        Write::Channel(ChannelWrite::Score(LeaderboardDelta {
            name: name.into(),
            correct,
            strikes,
        }))
    };
    storage
        .commit(vec![
            score("ann", 3, 1),
            score("bob", 5, 2),
            score("cas", 5, 2),
        ])
        .await
        .unwrap();
    storage
        .commit(vec![score("ann", 2, 0), score("dee", 4, 0)])
        .await
        .unwrap();
    // More right guesses bought with many wrong ones rank below fewer, better guesses.
    storage.commit(vec![score("eve", 9, 8)]).await.unwrap();
    let entry = |name: &str, games, correct, strikes| LeaderboardEntry {
        name: name.into(),
        games,
        correct,
        strikes,
    };
    assert_eq!(
        storage.leaderboard(10).await.unwrap(),
        [
            entry("ann", 2, 5, 1),
            entry("dee", 1, 4, 0),
            entry("bob", 1, 5, 2),
            entry("cas", 1, 5, 2),
            entry("eve", 1, 9, 8),
        ]
    );
    assert_eq!(
        storage.leaderboard(1).await.unwrap(),
        [entry("ann", 2, 5, 1)]
    );
    storage.close().await;
}

/// "Sietske" with a Cyrillic capital dze for the S: another string, the same name to a reader.
const LOOK_ALIKE: &str = "\u{0405}ietske";

pub(crate) async fn look_alike_names_are_one_leaderboard_row_under_the_name_first_seen(
    place: &impl Place,
) {
    assert_eq!(
        boardcast_protocol::names::identity("Sietske"),
        boardcast_protocol::names::identity(LOOK_ALIKE)
    );
    let (storage, _) = place.open().await;
    let score = |name: &str, correct, strikes| {
        Write::Channel(ChannelWrite::Score(LeaderboardDelta {
            name: name.into(),
            correct,
            strikes,
        }))
    };
    storage.commit(vec![score("Sietske", 3, 1)]).await.unwrap();
    storage
        .commit(vec![score(LOOK_ALIKE, 4, 0), score("bob", 5, 0)])
        .await
        .unwrap();
    storage.commit(vec![score("SIETSKE", 1, 0)]).await.unwrap();
    let entry = |name: &str, games, correct, strikes| LeaderboardEntry {
        name: name.into(),
        games,
        correct,
        strikes,
    };
    assert_eq!(
        storage.leaderboard(10).await.unwrap(),
        [entry("Sietske", 3, 8, 1), entry("bob", 1, 5, 0)]
    );
    storage.close().await;
}

/// Turns the leaderboard of the SQLite database at `path` back into the layout of servers
/// before it was keyed by identity (by the exact name, `user_version` 0), holding `rows`.
pub(crate) fn leaderboard_keyed_by_name(path: &std::path::Path, rows: &[(&str, i64, i64, i64)]) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(
        "DROP TABLE leaderboard;
         CREATE TABLE leaderboard (
             name    TEXT PRIMARY KEY,
             games   INTEGER NOT NULL,
             correct INTEGER NOT NULL,
             strikes INTEGER NOT NULL
         );
         PRAGMA user_version = 0;",
    )
    .unwrap();
    for (name, games, correct, strikes) in rows {
        conn.execute(
            "INSERT INTO leaderboard VALUES (?1, ?2, ?3, ?4)",
            rusqlite::params![name, games, correct, strikes],
        )
        .unwrap();
    }
}

/// Rows of an old leaderboard with three spellings of one name; "Sietske" played the most.
pub(crate) const OLD_ROWS: &[(&str, i64, i64, i64)] = &[
    ("Sietske", 3, 10, 2),
    (LOOK_ALIKE, 1, 4, 1),
    ("SIETSKE", 1, 1, 0),
    ("bob", 2, 5, 0),
];

/// What [`OLD_ROWS`] become: one row per identity, the scores summed.
pub(crate) fn merged_old_rows() -> Vec<LeaderboardEntry> {
    let entry = |name: &str, games, correct, strikes| LeaderboardEntry {
        name: name.into(),
        games,
        correct,
        strikes,
    };
    vec![entry("Sietske", 5, 15, 3), entry("bob", 2, 5, 0)]
}

#[tokio::test]
async fn a_sqlite_leaderboard_keyed_by_name_is_rekeyed_merging_look_alikes() {
    let place = SqliteFile::new();
    place.open().await.0.close().await;
    leaderboard_keyed_by_name(&place.path, OLD_ROWS);
    let (storage, _) = place.open().await;
    assert_eq!(storage.leaderboard(10).await.unwrap(), merged_old_rows());
    // Scores go on adding up under the one identity, and opening again changes nothing.
    storage
        .commit(vec![Write::Channel(ChannelWrite::Score(
            LeaderboardDelta {
                name: "sietske".into(),
                correct: 1,
                strikes: 0,
            },
        ))])
        .await
        .unwrap();
    storage.close().await;
    let (storage, _) = place.open().await;
    let mut expected = merged_old_rows();
    expected[0].games += 1;
    expected[0].correct += 1;
    assert_eq!(storage.leaderboard(10).await.unwrap(), expected);
    storage.close().await;
}

#[tokio::test]
async fn migrate_copies_a_sqlite_leaderboard_keyed_by_name_rekeyed() {
    let Some(db) = PostgresDatabase::new("migrate an old leaderboard") else {
        return;
    };
    let place = SqliteFile::new();
    place.open().await.0.close().await;
    leaderboard_keyed_by_name(&place.path, OLD_ROWS);
    let from = Database::Sqlite(place.path.clone());
    let to = Database::Postgres(db.url.clone());
    let copied = migrate::migrate(&from, &to).await.unwrap();
    let leaderboard = copied
        .tables
        .iter()
        .find(|(name, _)| *name == "leaderboard");
    assert_eq!(leaderboard.map(|(_, tally)| tally.rows), Some(2));
    let (storage, _) = db.open().await;
    assert_eq!(storage.leaderboard(10).await.unwrap(), merged_old_rows());
    storage.close().await;
}

pub(crate) async fn every_start_is_a_new_run(place: &impl Place) {
    let (storage, _) = place.open().await;
    assert_eq!(storage.next_run().await.unwrap(), 0);
    storage.close().await;
    let (storage, _) = place.open().await;
    assert_eq!(storage.next_run().await.unwrap(), 1);
    assert_eq!(storage.next_run().await.unwrap(), 2);
    storage.close().await;
}

/// Match `id` finished as a rated game between accounts `white` and `black`: the Finish and
/// both rating changes, computed from their stored perfs, in one request.
async fn rated_finish(storage: &Storage, id: &str, (white, black): (i64, i64)) -> Vec<Write> {
    use crate::ratings::{glicko, stored};
    let accounts = storage.accounts();
    let at_ms = 1_700_000_000_000;
    let game = glicko::rate_game(
        &stored::read_perf(&*accounts, white).await.unwrap(),
        &stored::read_perf(&*accounts, black).await.unwrap(),
        glicko::Score::WhiteWins,
        stored::time_of(at_ms),
    );
    let mut writes = vec![Write::Finish {
        match_id: id.into(),
        result: "2-0".into(),
        pdn: format!("pdn of {id}"),
        epoch: 0,
    }];
    writes.extend(stored::writes_of(id, (white, black), &game, at_ms));
    writes
}

pub(crate) async fn the_best_win_is_the_highest_rated_member_beaten_in_a_rated_game(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    let mut ids = Vec::new();
    for name in ["ana", "bo", "cy"] {
        let id = accounts
            .create_account(name.into(), "x".into(), false, false, 1)
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    let (ana, bo, cy) = (ids[0], ids[1], ids[2]);
    let joined = |id: &str, v: u64, side: &str, account: i64| Write::Event {
        match_id: id.into(),
        v,
        at_ms: 2,
        body: serde_json::json!({
            "event": {"player_joined": {"side": side, "name": format!("n{account}"), "bot": false}},
            "token": format!("tok-{id}-{side}"),
            "account": account,
        })
        .to_string(),
        epoch: 0,
    };
    let mut played = HashMap::new();
    // (match, white, black, result, each one's rating before the game)
    let games = [
        ("m1", ana, bo, "2-0", 1500.0, 1600.0),
        ("m2", cy, ana, "2-0", 1700.0, 1510.0),
        ("m3", cy, ana, "0-2", 1650.0, 1490.0),
        ("m4", bo, ana, "1-1", 1900.0, 1520.0),
    ];
    for (at, (id, white, black, result, white_before, black_before)) in
        games.into_iter().enumerate()
    {
        let mut writes = vec![
            create(id),
            joined(id, 1, "white", white),
            joined(id, 2, "black", black),
            Write::Finish {
                match_id: id.into(),
                result: result.into(),
                pdn: String::new(),
                epoch: 0,
            },
        ];
        for (account, before) in [(white, white_before), (black, black_before)] {
            let games_before = played.entry(account).or_insert(0);
            writes.push(Write::Rating(RatingChange {
                match_id: id.into(),
                account,
                games_before: *games_before,
                at_ms: at as i64,
                rating_before: before,
                rating: before + 1.0,
                deviation: 100.0,
                volatility: 0.06,
            }));
            *games_before += 1;
        }
        storage.commit(writes).await.unwrap();
    }
    let best = |account| accounts.best_win(account);
    // Ana beat Bo (1600) and, as Black, Cy (1650); lost to Cy at 1700 and drew Bo at 1900.
    assert_eq!(
        best(ana).await.unwrap(),
        Some(BestWin {
            name: "cy".into(),
            rating: 1650.0,
            match_id: "m3".into()
        })
    );
    assert_eq!(
        best(cy).await.unwrap(),
        Some(BestWin {
            name: "ana".into(),
            rating: 1510.0,
            match_id: "m2".into()
        })
    );
    assert_eq!(best(bo).await.unwrap(), None, "a loss and a draw");
    storage.close().await;
}

pub(crate) async fn a_rated_result_is_stored_with_both_rating_changes_exactly_once(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    let mut ids = Vec::new();
    for name in ["ana", "bo"] {
        let id = accounts
            .create_account(name.into(), "x".into(), false, false, 1)
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    let (ana, bo) = (ids[0], ids[1]);
    for id in ["m1", "m2"] {
        storage
            .commit(vec![create(id), event(id, 1)])
            .await
            .unwrap();
    }
    let first = rated_finish(&storage, "m1", (ana, bo)).await;
    storage.commit(first.clone()).await.unwrap();
    // The same Finish again (a node taking the match over re-finishing it): refused whole.
    let replayed = storage.commit(first.clone()).await;
    assert!(
        matches!(replayed, Err(StorageError::Refused(_))),
        "{replayed:?}"
    );
    // m2 computed from ana's rating before m1 (a stale read): refused, and m2 stays live.
    let mut stale = rated_finish(&storage, "m2", (ana, bo)).await;
    let Write::Rating(change) = &mut stale[1] else {
        panic!("ana's change")
    };
    change.games_before = 0;
    let refused = storage.commit(stale).await;
    assert!(
        matches!(refused, Err(StorageError::Refused(_))),
        "{refused:?}"
    );
    assert_eq!(storage.finished_pdn("m2".into()).await.unwrap(), None);
    // Read afresh, m2 is rated on top of m1.
    let second = rated_finish(&storage, "m2", (bo, ana)).await;
    storage.commit(second.clone()).await.unwrap();
    storage.close().await;

    let (storage, recovered) = place.open().await;
    assert!(recovered.is_empty(), "both matches finished");
    let accounts = storage.accounts();
    for (account, finishes) in [
        (ana, [&first[1], &second[2]]),
        (bo, [&first[2], &second[1]]),
    ] {
        let history = accounts.rating_history(account).await.unwrap();
        let expected: Vec<RatingChange> = finishes
            .iter()
            .map(|write| match write {
                Write::Rating(change) => change.clone(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(history, expected, "one change per rated game, in order");
        assert_eq!(
            accounts.rating(account).await.unwrap().as_ref(),
            expected.last()
        );
        assert_eq!(history[1].games_before, 1);
        assert_eq!(history[1].rating_before, history[0].rating);
    }
    let mut current = accounts.current_ratings(0).await.unwrap();
    current.sort_by(|a, b| a.0.cmp(&b.0));
    let newest = |account| accounts.rating(account);
    assert_eq!(
        current,
        [
            ("ana".to_owned(), false, newest(ana).await.unwrap().unwrap()),
            ("bo".to_owned(), false, newest(bo).await.unwrap().unwrap())
        ],
        "the ladder's candidates: each member's newest change"
    );
    assert!(
        accounts
            .current_ratings(1_700_000_000_001)
            .await
            .unwrap()
            .is_empty(),
        "nobody rated since"
    );
}

/// Accounts (issue 30): an account, its session and token by their hashes, and its seat
/// taken from the `player_joined` record by the database's trigger, with the finished game
/// counted and listed for its profile.
pub(crate) async fn accounts_sessions_tokens_and_seats_are_stored(place: &impl Place) {
    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    let anne = accounts
        .create_account("Anne".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        accounts
            .create_account("ANNE".into(), "p".into(), false, false, 6)
            .await
            .unwrap(),
        None,
        "names are unique ignoring case"
    );
    accounts.create_session("h1".into(), anne, 7).await.unwrap();
    assert_eq!(
        accounts
            .session("h1".into())
            .await
            .unwrap()
            .unwrap()
            .account,
        anne
    );
    let token = accounts
        .create_token("t1".into(), anne, "cli".into(), "play".into(), false, 8)
        .await
        .unwrap();
    assert_eq!(
        accounts.token("t1".into()).await.unwrap().unwrap().id,
        token
    );
    // "Log out everywhere" deletes the password logins' tokens and leaves the named one.
    let login = accounts
        .create_token("t2".into(), anne, "terminal".into(), "play".into(), true, 9)
        .await
        .unwrap();
    assert_eq!(
        accounts.delete_login_tokens(anne).await.unwrap(),
        vec![login]
    );
    assert!(accounts.token("t2".into()).await.unwrap().is_none());
    assert!(accounts.token("t1".into()).await.unwrap().is_some());
    assert!(accounts.delete_login_tokens(anne).await.unwrap().is_empty());
    let joined = |v: u64, side: &str, name: &str, account: Option<i64>| Write::Event {
        match_id: "g".into(),
        v,
        at_ms: 2,
        body: serde_json::json!({
            "event": {"player_joined": {"side": side, "name": name, "bot": false}},
            "token": format!("tok-{side}"),
            "account": account,
        })
        .to_string(),
        epoch: 0,
    };
    storage
        .commit(vec![
            create("g"),
            joined(1, "white", "Anne", Some(anne)),
            joined(2, "black", "Wytze", None),
            Write::Finish {
                match_id: "g".into(),
                result: "0-2".into(),
                pdn: "[Event \"g\"]\n1. 32-28 *".into(),
                epoch: 0,
            },
        ])
        .await
        .unwrap();
    let games = accounts.games(anne, 0, 20).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (
            games[0].side.as_str(),
            games[0].opponent.as_deref(),
            games[0].opponent_account
        ),
        ("white", Some("Wytze"), false)
    );
    assert_eq!(accounts.tally(anne).await.unwrap().lost, 1);
    let (tx, mut rx) = tokio::sync::mpsc::channel(1);
    accounts.pdn(anne, tx).await;
    assert_eq!(
        rx.recv().await.unwrap().unwrap(),
        "[Event \"g\"]\n1. 32-28 *"
    );
    accounts.delete_sessions(anne, None).await.unwrap();
    assert_eq!(accounts.session("h1".into()).await.unwrap(), None);
    storage.close().await;
}

#[tokio::test]
async fn accounts_are_stored_in_sqlite() {
    accounts_sessions_tokens_and_seats_are_stored(&SqliteFile::new()).await;
}

/// A server's account writes (sessions at every login) go through the match writer, in the
/// same groups as the moves: each answers only once committed, and one that the database
/// refuses (an unknown account) loses none of the moves or sessions grouped with it.
#[tokio::test]
async fn sqlite_account_writes_share_the_move_groups_and_a_refused_one_spoils_none() {
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    storage.commit(vec![create("a")]).await.unwrap();
    let accounts = storage.accounts();
    let anne = accounts
        .create_account("Anne".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    let mut moves = Vec::new();
    let mut sessions = Vec::new();
    let mut orphans = Vec::new();
    for v in 1..=50 {
        let s = storage.clone();
        moves.push(tokio::spawn(
            async move { s.commit(vec![event("a", v)]).await },
        ));
        let a = accounts.clone();
        sessions.push(tokio::spawn(async move {
            a.create_session(format!("s{v}"), anne, 7).await
        }));
        let a = accounts.clone();
        orphans.push(tokio::spawn(async move {
            a.create_session(format!("o{v}"), anne + 1000, 7).await
        }));
    }
    for orphan in orphans {
        let refused = orphan.await.unwrap();
        assert!(
            matches!(refused, Err(StorageError::Sqlite(_))),
            "a session of no account is refused: {refused:?}"
        );
    }
    for (v, (moved, session)) in moves.into_iter().zip(sessions).enumerate() {
        moved.await.unwrap().unwrap();
        session.await.unwrap().unwrap();
        // Answered after the commit: a fresh read connection already sees it.
        let read = accounts.session(format!("s{}", v + 1)).await.unwrap();
        assert_eq!(read.map(|row| row.account), Some(anne));
    }
    assert_eq!(accounts.session("o1".into()).await.unwrap(), None);
    storage.close().await;
    let (storage, recovered) = place.open().await;
    let vs: Vec<u64> = recovered[0].events.iter().map(|e| e.v).collect();
    assert_eq!(vs, (1..=50).collect::<Vec<_>>(), "every move kept");
    storage.close().await;
}

/// A SQLite database whose tokens table predates the `login` mark opens with the column
/// added, its tokens kept as named ones (which "log out everywhere" leaves, as it did).
#[tokio::test]
async fn an_sqlite_database_from_before_login_tokens_keeps_its_tokens_as_named_ones() {
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    let anne = storage
        .accounts()
        .create_account("Anne".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    storage.close().await;
    let conn = rusqlite::Connection::open(&place.path).unwrap();
    conn.execute_batch(
        "DROP TABLE tokens;
         CREATE TABLE tokens (id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE,
             account_id INTEGER NOT NULL REFERENCES accounts(id), name TEXT NOT NULL,
             scopes TEXT NOT NULL, created_ms INTEGER NOT NULL, used_ms INTEGER);",
    )
    .unwrap();
    conn.execute(
        "INSERT INTO tokens (hash, account_id, name, scopes, created_ms) \
         VALUES ('old', ?1, 'script', 'play', 6)",
        [anne],
    )
    .unwrap();
    drop(conn);
    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    let login = accounts
        .create_token(
            "new".into(),
            anne,
            "terminal".into(),
            "play".into(),
            true,
            7,
        )
        .await
        .unwrap();
    assert_eq!(
        accounts.delete_login_tokens(anne).await.unwrap(),
        vec![login]
    );
    assert!(accounts.token("old".into()).await.unwrap().is_some());
    storage.close().await;
}

#[tokio::test]
async fn accounts_are_stored_in_postgres() {
    let Some(db) = PostgresDatabase::new("accounts on PostgreSQL") else {
        return;
    };
    accounts_sessions_tokens_and_seats_are_stored(&db).await;
}

#[tokio::test]
async fn migrate_copies_accounts_and_their_seats() {
    let Some(db) = PostgresDatabase::new("migrate accounts") else {
        return;
    };
    let place = SqliteFile::new();
    accounts_sessions_tokens_and_seats_are_stored(&place).await;
    let (storage, _) = place.open().await;
    storage
        .accounts()
        .create_session("h2".into(), 1, 9)
        .await
        .unwrap();
    // A rated game's change: its ratings are floats, copied to the bit.
    let change = super::RatingChange {
        match_id: "g".into(),
        account: 1,
        games_before: 0,
        at_ms: 11,
        rating_before: 1500.0,
        rating: 1662.3118774093,
        deviation: 290.3199641247,
        volatility: 0.0899981,
    };
    storage
        .commit(vec![Write::Rating(change.clone())])
        .await
        .unwrap();
    storage.close().await;
    let from = Database::Sqlite(place.path.clone());
    let to = Database::Postgres(db.url.clone());
    migrate::migrate(&from, &to).await.unwrap();
    let (storage, _) = db.open().await;
    let accounts = storage.accounts();
    let anne = accounts
        .account_by_name("anne".into())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(anne.password, "$argon2id$x");
    assert_eq!(
        accounts
            .session("h2".into())
            .await
            .unwrap()
            .unwrap()
            .account,
        anne.id
    );
    assert_eq!(
        accounts.games(anne.id, 0, 20).await.unwrap().len(),
        1,
        "seats follow"
    );
    assert_eq!(
        accounts.rating_history(anne.id).await.unwrap(),
        [change],
        "rating changes follow, exactly"
    );
    // New ids continue after the copied ones.
    let bob = accounts
        .create_account("Bob".into(), "p".into(), false, false, 10)
        .await
        .unwrap()
        .unwrap();
    assert!(bob > anne.id);
    storage.close().await;
}

fn club_record(v: u64, round: Option<u32>, match_id: Option<&str>) -> Write {
    Write::ClubEvent(club::EventWrite::Record {
        event_id: "ev".into(),
        v,
        at_ms: 10 + v as i64,
        body: format!("r{v}"),
        round,
        match_id: match_id.map(str::to_owned),
        epoch: None,
    })
}

pub(crate) async fn a_club_event_pairs_each_round_and_counts_each_game_exactly_once(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    storage
        .commit(vec![
            Write::ClubEvent(club::EventWrite::Create {
                id: "ev".into(),
                created_ms: 5,
                setup: "{}".into(),
            }),
            club_record(1, None, None),
            club_record(2, Some(1), None),
        ])
        .await
        .unwrap();
    // The game's result goes with the match's Finish, in one request.
    storage
        .commit(vec![
            create("g1"),
            Write::Finish {
                match_id: "g1".into(),
                result: "2-0".into(),
                pdn: String::new(),
                epoch: 0,
            },
            club_record(3, None, Some("g1")),
        ])
        .await
        .unwrap();
    // Round 1 paired again, game g1 counted again, version 3 written again: each refused.
    for (again, what) in [
        (club_record(4, Some(1), None), "round 1 twice"),
        (club_record(4, None, Some("g1")), "game g1 twice"),
        (club_record(3, Some(2), None), "version 3 twice"),
    ] {
        assert!(
            matches!(
                storage.commit(vec![again]).await,
                Err(StorageError::Refused(_))
            ),
            "{what}"
        );
    }
    storage.close().await;

    let (storage, _) = place.open().await;
    let unfinished = storage.club_events(true).await.unwrap();
    assert_eq!(unfinished.len(), 1);
    let versions: Vec<(u64, String)> = unfinished[0]
        .records
        .iter()
        .map(|r| (r.v, r.body.clone()))
        .collect();
    assert_eq!(
        versions,
        [(1, "r1".into()), (2, "r2".into()), (3, "r3".into())]
    );
    storage
        .commit(vec![
            club_record(4, Some(2), None),
            Write::ClubEvent(club::EventWrite::Finish { id: "ev".into() }),
        ])
        .await
        .unwrap();
    assert!(storage.club_events(true).await.unwrap().is_empty());
    let all = storage.club_events(false).await.unwrap();
    assert_eq!((all.len(), all[0].finished), (1, true));
    let one = storage.club_event("ev".into()).await.unwrap().unwrap();
    assert_eq!((one.records.len(), one.setup.as_str()), (4, "{}"));
    assert_eq!(storage.club_event("nope".into()).await.unwrap(), None);
    storage.close().await;
}

/// A node that follows an event run on another node reads only the records after the
/// version it has, in order, never more than it asks for, and never another event's.
pub(crate) async fn a_club_events_newer_records_are_read_a_bounded_number_at_a_time(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let mut writes: Vec<Write> = ["ev", "other"]
        .into_iter()
        .map(|id| {
            Write::ClubEvent(club::EventWrite::Create {
                id: id.into(),
                created_ms: 5,
                setup: "{}".into(),
            })
        })
        .collect();
    writes.extend((1..=5).map(|v| club_record(v, None, None)));
    writes.push(Write::ClubEvent(club::EventWrite::Record {
        event_id: "other".into(),
        v: 6,
        at_ms: 0,
        body: "elsewhere".into(),
        round: None,
        match_id: None,
        epoch: None,
    }));
    storage.commit(writes).await.unwrap();
    let versions = |read: Vec<StoredEvent>| -> Vec<u64> { read.iter().map(|r| r.v).collect() };
    let read = |after, limit| storage.club_event_records("ev".into(), after, limit);
    assert_eq!(versions(read(0, 100).await.unwrap()), [1, 2, 3, 4, 5]);
    assert_eq!(versions(read(2, 100).await.unwrap()), [3, 4, 5]);
    assert_eq!(
        versions(read(2, 2).await.unwrap()),
        [3, 4],
        "at most the limit"
    );
    assert!(read(5, 100).await.unwrap().is_empty(), "nothing newer");
    assert_eq!(
        read(4, 1).await.unwrap(),
        [StoredEvent {
            v: 5,
            at_ms: 15,
            body: "r5".into()
        }]
    );
    let nowhere = storage.club_event_records("nope".into(), 0, 100);
    assert!(nowhere.await.unwrap().is_empty());
    // The list of events reads which there are, without a record of any (both made at the
    // same millisecond: the newer id first).
    let heads = storage.club_event_heads(false, 0, 10).await.unwrap();
    let ids: Vec<(&str, bool, usize)> = heads
        .iter()
        .map(|h| (h.id.as_str(), h.finished, h.records.len()))
        .collect();
    assert_eq!(ids, [("other", false, 0), ("ev", false, 0)]);
    storage.close().await;
}

/// The list of events (`GET /api/events?page=N`) reads the unfinished events, or a page of
/// the finished ones, newest first: pages that follow each other hold every finished event
/// once, and no unfinished one.
pub(crate) async fn the_list_of_events_is_read_a_page_at_a_time_newest_first(place: &impl Place) {
    let (storage, _) = place.open().await;
    // 25 events, made a millisecond apart (two in the same one, told apart by their id);
    // every third one still unfinished.
    let made = |i: u32| (format!("e{i:02}"), 1_000 + i64::from(i.min(23)));
    let mut writes = Vec::new();
    for i in 0..25 {
        let (id, created_ms) = made(i);
        writes.push(Write::ClubEvent(club::EventWrite::Create {
            id: id.clone(),
            created_ms,
            setup: "{}".into(),
        }));
        if i % 3 != 0 {
            writes.push(Write::ClubEvent(club::EventWrite::Finish { id }));
        }
    }
    storage.commit(writes).await.unwrap();
    let newest_first = |finished: bool| -> Vec<String> {
        (0..25)
            .rev()
            .filter(|i| (i % 3 != 0) == finished)
            .map(|i| made(i).0)
            .collect()
    };
    let read = |finished, offset, limit| storage.club_event_heads(finished, offset, limit);
    let ids = |heads: Vec<crate::storage::club::StoredClubEvent>| -> Vec<String> {
        assert!(heads.iter().all(|h| h.records.is_empty()));
        heads.into_iter().map(|h| h.id).collect()
    };
    assert_eq!(ids(read(false, 0, 100).await.unwrap()), newest_first(false));
    let mut paged = Vec::new();
    for page in 0..4 {
        let heads = read(true, page * 5, 5).await.unwrap();
        assert!(heads.iter().all(|h| h.finished));
        paged.extend(ids(heads));
    }
    assert_eq!(
        paged,
        newest_first(true),
        "every finished event once, in order"
    );
    assert!(
        read(true, 20, 5).await.unwrap().is_empty(),
        "past the last page"
    );
    storage.close().await;
}

/// A restarted event director asks for its event's unfinished games: those come back with
/// their events, oldest first; its finished games and every other match (another event's, a
/// casual one) do not.
pub(crate) async fn an_events_unfinished_games_are_read_without_any_other_match(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let game = |id: &str, created_ms, setup: &str| Write::CreateMatch {
        id: id.into(),
        invite: None,
        created_ms,
        setup: setup.into(),
        owner: None,
    };
    let of = |event: &str| format!(r#"{{"public":true,"event":"{event}"}}"#);
    storage
        .commit(vec![
            game("late", 9, &of("ev")),
            game("early", 3, &of("ev")),
            game("done", 1, &of("ev")),
            game("other", 2, &of("ev2")),
            game("casual", 4, r#"{"public":true}"#),
            event("early", 1),
            event("early", 2),
            event("other", 1),
            event("casual", 1),
            Write::Finish {
                match_id: "done".into(),
                result: "2-0".into(),
                pdn: String::new(),
                epoch: 0,
            },
        ])
        .await
        .unwrap();
    let read = storage.unfinished_of_event("ev".into()).await.unwrap();
    let ids: Vec<&str> = read.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["early", "late"]);
    let versions: Vec<u64> = read[0].events.iter().map(|e| e.v).collect();
    assert_eq!(versions, [1, 2]);
    assert!(read[1].events.is_empty());
    assert_eq!(read[0].setup, of("ev"));
    assert!(
        storage
            .unfinished_of_event("nope".into())
            .await
            .unwrap()
            .is_empty()
    );
    storage.close().await;
}

pub(crate) async fn a_club_admin_grants_and_takes_back_the_organiser_right(place: &impl Place) {
    let (storage, _) = place.open().await;
    let anne = storage
        .accounts()
        .create_account("Anne".into(), "$argon2id$x".into(), false, false, 1)
        .await
        .unwrap()
        .unwrap();
    let grant = |granted| {
        Write::ClubEvent(club::EventWrite::Organiser {
            account: anne,
            granted,
        })
    };
    assert!(!storage.is_organiser(anne).await.unwrap());
    // Granted twice is granted once.
    storage.commit(vec![grant(true)]).await.unwrap();
    storage.commit(vec![grant(true)]).await.unwrap();
    storage.close().await;
    let (storage, _) = place.open().await;
    assert!(storage.is_organiser(anne).await.unwrap());
    storage.commit(vec![grant(false)]).await.unwrap();
    assert!(!storage.is_organiser(anne).await.unwrap());
    storage.close().await;
}

fn chat_line(match_id: &str, line: u64, room: &str, text: &str) -> Write {
    Write::Chat(super::ChatWrite::Line(super::ChatLineRow {
        match_id: match_id.into(),
        line,
        room: room.into(),
        author: "Anne".into(),
        account: None,
        preset: None,
        text: Some(text.into()),
        at_ms: 10 + line as i64,
        deleted: false,
    }))
}

/// Chat (issue 32): lines read back in order with deletions marked, a line stored twice
/// refused, and a server-wide mute kept with who and when until it is lifted.
pub(crate) async fn chat_lines_deletions_and_mutes_are_stored_with_who_and_when(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    storage.commit(vec![create("c1")]).await.unwrap();
    storage
        .commit(vec![
            chat_line("c1", 1, "players", "good luck"),
            chat_line("c1", 2, "spectators", "<img src=x onerror=alert(1)>"),
        ])
        .await
        .unwrap();
    assert!(
        storage
            .commit(vec![chat_line("c1", 2, "players", "again")])
            .await
            .is_err(),
        "a line is numbered once"
    );
    storage
        .commit(vec![Write::Chat(super::ChatWrite::Delete {
            match_id: "c1".into(),
            line: 1,
            by: "admin".into(),
            at_ms: 20,
        })])
        .await
        .unwrap();
    let lines = storage.chat_lines("c1".into()).await.unwrap();
    let read: Vec<(u64, &str, Option<&str>, bool)> = lines
        .iter()
        .map(|l| (l.line, l.room.as_str(), l.text.as_deref(), l.deleted))
        .collect();
    assert_eq!(
        read,
        [
            (1, "players", Some("good luck"), true),
            (2, "spectators", Some("<img src=x onerror=alert(1)>"), false)
        ]
    );
    assert!(storage.chat_lines("other".into()).await.unwrap().is_empty());

    let accounts = storage.accounts();
    let anne = accounts
        .create_account("chatty".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(accounts.chat_mute(anne).await.unwrap(), None);
    let mute = super::ChatMuteRow {
        by: "admin".into(),
        at_ms: 30,
    };
    accounts
        .set_chat_mute(anne, Some(mute.clone()))
        .await
        .unwrap();
    // A second mute keeps the first's who and when.
    accounts
        .set_chat_mute(
            anne,
            Some(super::ChatMuteRow {
                by: "other".into(),
                at_ms: 40,
            }),
        )
        .await
        .unwrap();
    assert_eq!(accounts.chat_mute(anne).await.unwrap(), Some(mute));
    accounts.set_chat_mute(anne, None).await.unwrap();
    assert_eq!(accounts.chat_mute(anne).await.unwrap(), None);
    storage.close().await;
}

/// A member's preferences (issue 32: refusing more time in every match): the defaults until
/// set, each account's own, replaced whole by a second write, and kept across a restart.
pub(crate) async fn a_members_preferences_are_stored_per_account_and_survive_a_restart(
    place: &impl Place,
) {
    use super::accounts::Preferences;
    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    let mut ids = Vec::new();
    for name in ["anne", "bert"] {
        let id = accounts
            .create_account(name.into(), "$argon2id$x".into(), false, false, 5)
            .await
            .unwrap()
            .unwrap();
        ids.push(id);
    }
    let (anne, bert) = (ids[0], ids[1]);
    assert_eq!(
        accounts.preferences(anne).await.unwrap(),
        Preferences::default()
    );
    let refusing = Preferences {
        refuse_more_time: true,
    };
    accounts.set_preferences(anne, refusing).await.unwrap();
    assert_eq!(accounts.preferences(anne).await.unwrap(), refusing);
    assert_eq!(
        accounts.preferences(bert).await.unwrap(),
        Preferences::default(),
        "another account's own"
    );
    storage.close().await;

    let (storage, _) = place.open().await;
    let accounts = storage.accounts();
    assert_eq!(accounts.preferences(anne).await.unwrap(), refusing);
    accounts
        .set_preferences(anne, Preferences::default())
        .await
        .unwrap();
    assert_eq!(
        accounts.preferences(anne).await.unwrap(),
        Preferences::default()
    );
    storage.close().await;
}

#[tokio::test]
async fn migrate_copies_club_events_and_their_history() {
    let Some(db) = PostgresDatabase::new("migrate club events") else {
        return;
    };
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    storage
        .commit(vec![
            Write::ClubEvent(club::EventWrite::Create {
                id: "ev".into(),
                created_ms: 5,
                setup: "{}".into(),
            }),
            club_record(1, None, None),
            club_record(2, Some(1), None),
            club_record(3, None, Some("g1")),
        ])
        .await
        .unwrap();
    storage.close().await;
    let from = Database::Sqlite(place.path.clone());
    let to = Database::Postgres(db.url.clone());
    let copied = migrate::migrate(&from, &to).await.unwrap();
    assert!(
        copied.to_string().contains("club_event_log: 3 rows"),
        "{copied}"
    );
    let (storage, _) = db.open().await;
    let read = storage.club_event("ev".into()).await.unwrap().unwrap();
    assert_eq!(read.records.len(), 3);
    // The keys came along: round 1 cannot be paired again in PostgreSQL either.
    assert!(
        storage
            .commit(vec![club_record(4, Some(1), None)])
            .await
            .is_err()
    );
    storage.close().await;
}

#[tokio::test]
async fn migrate_copies_chat_lines() {
    let Some(db) = PostgresDatabase::new("migrate chat") else {
        return;
    };
    let place = SqliteFile::new();
    chat_lines_deletions_and_mutes_are_stored_with_who_and_when(&place).await;
    let from = Database::Sqlite(place.path.clone());
    let to = Database::Postgres(db.url.clone());
    let copied = migrate::migrate(&from, &to).await.unwrap();
    let chat = copied.tables.iter().find(|(name, _)| *name == "chat_lines");
    assert_eq!(chat.map(|(_, tally)| tally.rows), Some(2));
    let (storage, _) = db.open().await;
    let lines = storage.chat_lines("c1".into()).await.unwrap();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].deleted && !lines[1].deleted);
    storage.close().await;
}

/// The writes of one game of `account` (white, against an unnamed guest), created at
/// `created_ms`; finished with a PDN naming it unless `finished` is false.
fn game_of(account: i64, id: &str, created_ms: i64, finished: bool) -> Vec<Write> {
    let joined = |v: u64, side: &str, account: Option<i64>| Write::Event {
        match_id: id.into(),
        v,
        at_ms: created_ms,
        body: serde_json::json!({
            "event": {"player_joined": {"side": side, "name": side, "bot": false}},
            "token": format!("tok-{id}-{side}"),
            "account": account,
        })
        .to_string(),
        epoch: 0,
    };
    let mut writes = vec![
        Write::CreateMatch {
            id: id.into(),
            invite: None,
            created_ms,
            setup: "{}".into(),
            owner: None,
        },
        joined(1, "white", Some(account)),
        joined(2, "black", None),
    ];
    if finished {
        writes.push(finish(id));
    }
    writes
}

fn finish(id: &str) -> Write {
    Write::Finish {
        match_id: id.into(),
        result: "2-0".into(),
        // The trailing line break is trimmed by the download, as before.
        pdn: format!("[Event \"{id}\"]\n1. 32-28 *\n"),
        epoch: 0,
    }
}

/// Ten games of Anne's, created two at a time at the same millisecond (so page edges fall
/// inside a tie), committed out of order; and one of Bob's, which is not hers.
pub(crate) async fn ten_games_of_anne(storage: &Storage) -> i64 {
    let accounts = storage.accounts();
    let anne = accounts
        .create_account("Anne".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    let bob = accounts
        .create_account("Bob".into(), "$argon2id$x".into(), false, false, 5)
        .await
        .unwrap()
        .unwrap();
    for i in (0..10).rev() {
        storage
            .commit(game_of(anne, &format!("g{i:02}"), 10 + i / 2, true))
            .await
            .unwrap();
    }
    storage.commit(game_of(bob, "bob", 12, true)).await.unwrap();
    anne
}

/// A member's export reads its games a page at a time (here three, so the ten games take
/// four pages and the page edges split ties of creation time) and sends each once, oldest
/// first. A game that finishes during the download is in it when it sorts after the games
/// already sent (created later), and left for the next download when it sorts before them.
pub(crate) async fn a_pdn_export_reads_page_after_page_in_order_with_no_game_repeated_or_missing(
    place: &impl Place,
) {
    let (storage, _) = place.open().await;
    let anne = ten_games_of_anne(&storage).await;
    let accounts = storage.accounts();
    // Unfinished as the download begins: one created before every game, one after.
    storage
        .commit(game_of(anne, "early", 1, false))
        .await
        .unwrap();
    storage
        .commit(game_of(anne, "late", 100, false))
        .await
        .unwrap();

    let (tx, mut rx) = tokio::sync::mpsc::channel(1);
    let export = tokio::spawn({
        let accounts = accounts.clone();
        async move { super::accounts::send_pdn_pages(&*accounts, anne, 3, tx).await }
    });
    let mut got = Vec::new();
    // Four taken: the exporter holds the second page (g03–g05), its third not read yet.
    for _ in 0..4 {
        got.push(rx.recv().await.unwrap().unwrap());
    }
    storage
        .commit(vec![finish("early"), finish("late")])
        .await
        .unwrap();
    while let Some(game) = rx.recv().await {
        got.push(game.unwrap());
    }
    export.await.unwrap();

    let event = |id: &str| format!("[Event \"{id}\"]\n1. 32-28 *\n");
    let mut expected: Vec<String> = (0..10).map(|i| event(&format!("g{i:02}"))).collect();
    expected.push(event("late"));
    assert_eq!(
        got, expected,
        "in order, each once; `early` sorts before the cursor"
    );

    // The next download has both, `early` first.
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    accounts.pdn(anne, tx).await;
    let mut all = Vec::new();
    while let Some(game) = rx.recv().await {
        all.push(game.unwrap());
    }
    expected.insert(0, event("early"));
    assert_eq!(all, expected);
    storage.close().await;
}

/// The bytes the export gave when it read every game in one transaction: the old query, on
/// one connection, each game as `games.pdn` writes it.
fn single_transaction_export(path: &std::path::Path, account: i64) -> String {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT m.pdn FROM matches m WHERE m.finished AND m.pdn IS NOT NULL AND m.id IN \
             (SELECT match_id FROM seats WHERE account_id = ?1) ORDER BY m.created_ms, m.id",
        )
        .unwrap();
    let rows = statement
        .query_map([account], |row| row.get::<_, String>(0))
        .unwrap();
    rows.map(|pdn| format!("{}\n\n", pdn.unwrap().trim_end()))
        .collect()
}

/// Paged, the export gives the very bytes the single-transaction export gave.
#[tokio::test]
async fn a_paged_pdn_export_gives_the_bytes_the_single_transaction_one_gave() {
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    let anne = ten_games_of_anne(&storage).await;
    let before = single_transaction_export(&place.path, anne);
    assert_eq!(before.matches("[Event").count(), 10);
    for page in [1, 3, 4, 10, 64] {
        let (tx, mut rx) = tokio::sync::mpsc::channel(1);
        let accounts = storage.accounts();
        tokio::spawn(
            async move { super::accounts::send_pdn_pages(&*accounts, anne, page, tx).await },
        );
        let mut bytes = String::new();
        while let Some(game) = rx.recv().await {
            bytes.push_str(&format!("{}\n\n", game.unwrap().trim_end()));
        }
        assert_eq!(bytes, before, "pages of {page}");
    }
    storage.close().await;
}

/// A download whose client stopped reading after its first game holds nothing of the
/// database: four other reads are served at once beside it, and the write-ahead log
/// written after it began can be checkpointed in full. (Read in one transaction, the
/// export kept its snapshot: the frames after it could not be checkpointed, and the log
/// grew while play went on.)
#[tokio::test]
async fn a_paused_pdn_download_holds_no_reader_and_does_not_stop_the_checkpoint() {
    let place = SqliteFile::new();
    let (storage, _) = place.open().await;
    let anne = ten_games_of_anne(&storage).await;
    let accounts = storage.accounts();

    let (tx, mut rx) = tokio::sync::mpsc::channel(1);
    let export = tokio::spawn({
        let accounts = accounts.clone();
        async move { accounts.pdn(anne, tx).await }
    });
    assert!(rx.recv().await.unwrap().unwrap().contains("g00"));
    // The client reads no more. Play goes on: more games are written to the log.
    for i in 0..20 {
        storage
            .commit(game_of(anne, &format!("after{i:02}"), 200 + i, true))
            .await
            .unwrap();
    }

    let profile = || {
        let accounts = accounts.clone();
        async move {
            let account = accounts.account_by_name("anne".into()).await?;
            let tally = accounts.tally(anne).await?;
            let games = accounts.games(anne, 0, 20).await?;
            Ok::<_, StorageError>((account.is_some(), tally.won, games.len()))
        }
    };
    let served = tokio::time::timeout(
        std::time::Duration::from_secs(4),
        futures_util::future::join_all((0..4).map(|_| profile())),
    )
    .await
    .expect("four profiles served beside the paused download");
    for profile in served {
        assert_eq!(profile.unwrap(), (true, 30, 20));
    }

    let conn = rusqlite::Connection::open(&place.path).unwrap();
    let (busy, log, checkpointed): (i64, i64, i64) = conn
        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })
        .unwrap();
    assert_eq!(
        (busy, checkpointed),
        (0, log),
        "every frame of the log checkpointed beside the paused download"
    );

    drop(rx);
    tokio::time::timeout(std::time::Duration::from_secs(5), export)
        .await
        .expect("the export ends once its download is gone")
        .unwrap();
    storage.close().await;
}
