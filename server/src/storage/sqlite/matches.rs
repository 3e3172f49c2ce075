//! The match tables in SQLite: matches and their events, the index of seat-token hashes
//! (`storage/seat_tokens.rs` says why no token is stored), recovery.

use rusqlite::{Connection, OptionalExtension, params};

use crate::storage::seat_tokens::hashed_body;
use crate::storage::{MatchKey, StoredEvent, StoredMatch};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS matches (
    id         TEXT PRIMARY KEY,
    invite     TEXT UNIQUE,
    created_ms INTEGER NOT NULL,
    setup      TEXT NOT NULL,
    finished   INTEGER NOT NULL DEFAULT 0,
    result     TEXT,
    pdn        TEXT
);
CREATE TABLE IF NOT EXISTS events (
    match_id TEXT NOT NULL REFERENCES matches(id),
    v        INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    body     TEXT NOT NULL,
    PRIMARY KEY (match_id, v)
) WITHOUT ROWID;
-- The server's last heartbeat (one row): when it was last known alive.
CREATE TABLE IF NOT EXISTS heartbeat (
    id    INTEGER PRIMARY KEY CHECK (id = 0),
    at_ms INTEGER NOT NULL
);
";

/// Stores that the server is alive at `at_ms`.
pub(super) fn heartbeat(conn: &Connection, at_ms: i64) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO heartbeat (id, at_ms) VALUES (0, ?1) \
         ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms",
    )?
    .execute(params![at_ms])?;
    Ok(())
}

/// The last heartbeat stored.
pub(super) fn last_heartbeat(conn: &Connection) -> rusqlite::Result<Option<i64>> {
    conn.query_row("SELECT at_ms FROM heartbeat WHERE id = 0", [], |row| {
        row.get(0)
    })
    .optional()
}

/// The hash of the seat token an event body hands out (a JSON `token_hash` field), NULL for
/// any other body. The index over it and the query by it must spell it the same way.
macro_rules! event_token_hash {
    () => {
        "(CASE WHEN json_valid(body) THEN json_extract(body, '$.token_hash') END)"
    };
}

/// Seat-token hashes, for finding a finished match (no longer in memory) by one of its seats.
const TOKEN_HASH_INDEX: &str = concat!(
    "CREATE INDEX IF NOT EXISTS events_by_token_hash ON events ",
    event_token_hash!(),
    " WHERE ",
    event_token_hash!(),
    " IS NOT NULL;"
);

/// The match whose events hand out a seat token hashing to `?1`.
const BY_TOKEN_HASH: &str = concat!(
    "SELECT match_id FROM events WHERE ",
    event_token_hash!(),
    " = ?1"
);

/// The club event a match's set-up names (a JSON `event` field), NULL for a casual match or
/// a set-up that is not JSON. The index over it and the query by it must spell it the same way.
macro_rules! match_event {
    () => {
        "(CASE WHEN json_valid(setup) THEN json_extract(setup, '$.event') END)"
    };
}

/// The unfinished games of each club event, for a restarted director
/// ([`unfinished_of_event`]): without it that question scanned every match ever played.
const EVENT_INDEX: &str = concat!(
    "CREATE INDEX IF NOT EXISTS matches_of_event ON matches ",
    match_event!(),
    " WHERE finished = 0;"
);

/// The unfinished games of club event `?1`, oldest first.
const OF_EVENT: &str = concat!(
    "SELECT id, invite, created_ms, setup FROM matches WHERE finished = 0 AND ",
    match_event!(),
    " = ?1 ORDER BY created_ms"
);

/// Creates the match tables and their indexes if they are missing (so a database made before
/// an index gets it at its next open), after hashing the seat tokens of a database written
/// before ([`hash_plain_tokens`]).
pub(super) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    hash_plain_tokens(conn)?;
    conn.execute_batch(TOKEN_HASH_INDEX)?;
    conn.execute_batch(EVENT_INDEX)
}

/// Replaces every plain seat token stored in an event body by its hash, and drops the index
/// of plain tokens, in one transaction; a database without that index (new, or done) is left
/// alone. With `secure_delete` the old cells and index pages are overwritten with zeros, and
/// the write-ahead log that held them is emptied: no plain token is left in either file.
fn hash_plain_tokens(conn: &Connection) -> rusqlite::Result<()> {
    let plain_index: bool = conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' \
         AND name = 'events_by_token')",
        [],
        |row| row.get(0),
    )?;
    if !plain_index {
        return Ok(());
    }
    let secure_delete: i64 = conn.query_row("PRAGMA secure_delete", [], |row| row.get(0))?;
    conn.pragma_update(None, "secure_delete", 1)?;
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let hashed = (|| {
        // In batches by key, so memory stays bounded and no row is updated under a scan.
        let mut batch = conn.prepare(
            "SELECT match_id, v, body FROM events WHERE (match_id, v) > (?1, ?2) \
             AND instr(body, '\"token\"') > 0 ORDER BY match_id, v LIMIT 500",
        )?;
        let mut update =
            conn.prepare("UPDATE events SET body = ?3 WHERE match_id = ?1 AND v = ?2")?;
        let (mut after, mut count) = ((String::new(), -1i64), 0usize);
        loop {
            let rows = batch
                .query_map(params![after.0, after.1], |row| {
                    Ok((row.get::<_, String>(0)?, row.get::<_, i64>(1)?, row.get(2)?))
                })?
                .collect::<rusqlite::Result<Vec<(String, i64, String)>>>()?;
            let Some((last_id, last_v, _)) = rows.last() else {
                break;
            };
            after = (last_id.clone(), *last_v);
            for (match_id, v, body) in &rows {
                if let Some(body) = hashed_body(body) {
                    update.execute(params![match_id, v, body])?;
                    count += 1;
                }
            }
        }
        conn.execute_batch("DROP INDEX events_by_token")?;
        Ok(count)
    })();
    match hashed {
        Ok(count) => {
            conn.execute_batch("COMMIT")?;
            tracing::info!(
                events = count,
                "seat tokens in SQLite replaced by their hashes"
            );
        }
        Err(err) => {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(err);
        }
    }
    conn.pragma_update(None, "secure_delete", secure_delete)?;
    // The log still holds the pages as they were: copied back and emptied.
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
    Ok(())
}

/// Stores a new match.
pub(super) fn create_match(
    conn: &Connection,
    id: &str,
    invite: Option<&str>,
    created_ms: i64,
    setup: &str,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO matches (id, invite, created_ms, setup) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![id, invite, created_ms, setup])?;
    Ok(())
}

/// Appends event `v` of match `match_id`; a version stored before is refused.
pub(super) fn append_event(
    conn: &Connection,
    match_id: &str,
    v: u64,
    at_ms: i64,
    body: &str,
) -> rusqlite::Result<()> {
    conn.prepare_cached("INSERT INTO events (match_id, v, at_ms, body) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![match_id, v as i64, at_ms, body])?;
    Ok(())
}

/// Marks match `match_id` finished with its result and PDN.
pub(super) fn finish(
    conn: &Connection,
    match_id: &str,
    result: &str,
    pdn: &str,
) -> rusqlite::Result<()> {
    conn.prepare_cached("UPDATE matches SET finished = 1, result = ?2, pdn = ?3 WHERE id = ?1")?
        .execute(params![match_id, result, pdn])?;
    Ok(())
}

/// Every unfinished match, oldest first, with its events.
pub(super) fn unfinished(conn: &Connection) -> rusqlite::Result<Vec<StoredMatch>> {
    let mut matches = Vec::new();
    let mut stmt = conn.prepare(
        "SELECT id, invite, created_ms, setup FROM matches WHERE finished = 0 ORDER BY created_ms",
    )?;
    let rows = stmt.query_map([], stored_match)?;
    for row in rows {
        matches.push(row?);
    }
    for m in &mut matches {
        m.events = read_events(conn, &m.id)?;
    }
    Ok(matches)
}

/// The unfinished games of club event `event`, oldest first, with their events: the matches
/// whose set-up names the event (found by `matches_of_event`), and no other match's events.
pub(super) fn unfinished_of_event(
    conn: &Connection,
    event: &str,
) -> rusqlite::Result<Vec<StoredMatch>> {
    let mut stmt = conn.prepare_cached(OF_EVENT)?;
    let mut matches = stmt
        .query_map(params![event], stored_match)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for m in &mut matches {
        m.events = read_events(conn, &m.id)?;
    }
    Ok(matches)
}

/// The PDN of finished match `id`.
pub(super) fn finished_pdn(conn: &Connection, id: &str) -> rusqlite::Result<Option<String>> {
    let pdn = conn
        .query_row(
            "SELECT pdn FROM matches WHERE id = ?1 AND finished = 1",
            params![id],
            |row| row.get::<_, Option<String>>(0),
        )
        .optional()?;
    Ok(pdn.flatten())
}

/// A finished match whole, named by id or by a seat token's hash.
pub(super) fn finished_match(
    conn: &Connection,
    key: &MatchKey,
) -> rusqlite::Result<Option<StoredMatch>> {
    let id = match key {
        MatchKey::Id(id) => id.clone(),
        MatchKey::TokenHash(hash) => {
            let id = conn
                .query_row(BY_TOKEN_HASH, params![hash], |row| row.get::<_, String>(0))
                .optional()?;
            match id {
                Some(id) => id,
                None => return Ok(None),
            }
        }
    };
    let found = conn
        .query_row(
            "SELECT id, invite, created_ms, setup FROM matches WHERE id = ?1 AND finished = 1",
            params![id],
            stored_match,
        )
        .optional()?;
    let Some(mut found) = found else {
        return Ok(None);
    };
    found.events = read_events(conn, &found.id)?;
    Ok(Some(found))
}

/// A match row (`id, invite, created_ms, setup`), its events still to read.
fn stored_match(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredMatch> {
    Ok(StoredMatch {
        id: row.get(0)?,
        invite: row.get(1)?,
        created_ms: row.get(2)?,
        setup: row.get(3)?,
        events: Vec::new(),
    })
}

/// Every event of match `id`, in order.
fn read_events(conn: &Connection, id: &str) -> rusqlite::Result<Vec<StoredEvent>> {
    let mut events =
        conn.prepare_cached("SELECT v, at_ms, body FROM events WHERE match_id = ?1 ORDER BY v")?;
    let rows = events.query_map(params![id], |row| {
        Ok(StoredEvent {
            v: row.get::<_, i64>(0)? as u64,
            at_ms: row.get(1)?,
            body: row.get(2)?,
        })
    })?;
    rows.collect()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::storage::tests::match_with_setup;
    use crate::storage::{Storage, Write};

    #[tokio::test]
    async fn finding_a_match_by_seat_token_hash_uses_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let (storage, _) = Storage::open(&crate::storage::Database::Sqlite(path.clone()), None)
            .await
            .unwrap();
        storage
            .commit(vec![
                match_with_setup("a", "{}"),
                Write::Event {
                    match_id: "a".into(),
                    v: 1,
                    at_ms: 2,
                    body: r#"{"event":"x","token_hash":"ha"}"#.into(),
                    epoch: 0,
                },
            ])
            .await
            .unwrap();
        let conn = Connection::open(&path).unwrap();
        let plan: String = conn
            .query_row(
                &format!("EXPLAIN QUERY PLAN {}", BY_TOKEN_HASH.replace("?1", "'ha'")),
                [],
                |row| row.get(3),
            )
            .unwrap();
        assert!(plan.contains("events_by_token_hash"), "{plan}");
        storage.close().await;
    }

    /// The whole plan of `sql` as SQLite's `EXPLAIN QUERY PLAN` words it, one step a line.
    pub(in crate::storage::sqlite) fn plan_of(conn: &Connection, sql: &str) -> String {
        let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).unwrap();
        let steps: Vec<String> = stmt
            .query_map([], |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        steps.join("\n")
    }

    /// A restarted event director's question (its event's unfinished games) is a search of
    /// `matches_of_event`, not a scan of every match ever played; a database made before the
    /// index gets it when it is opened.
    #[tokio::test]
    async fn an_events_unfinished_games_are_found_by_the_index() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        {
            // A database as the server made it before the index.
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(SCHEMA).unwrap();
            conn.execute_batch(TOKEN_HASH_INDEX).unwrap();
            assert!(plan_of(&conn, &OF_EVENT.replace("?1", "'ev'")).contains("SCAN matches"));
        }
        let (storage, _) = Storage::open(&crate::storage::Database::Sqlite(path.clone()), None)
            .await
            .unwrap();
        storage
            .commit(vec![match_with_setup("a", r#"{"event":"ev"}"#)])
            .await
            .unwrap();
        storage.close().await;
        let conn = Connection::open(&path).unwrap();
        let plan = plan_of(&conn, &OF_EVENT.replace("?1", "'ev'"));
        assert!(plan.contains("USING INDEX matches_of_event"), "{plan}");
        assert!(!plan.contains("SCAN matches"), "{plan}");
    }
}
