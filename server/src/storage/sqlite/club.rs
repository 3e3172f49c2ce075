//! Club events in SQLite ([`crate::storage::club`]).

use rusqlite::{Connection, OptionalExtension, params};

use crate::storage::StoredEvent;
use crate::storage::club::{EventWrite, StoredClubEvent};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS club_events (
    id         TEXT PRIMARY KEY,
    created_ms INTEGER NOT NULL,
    setup      TEXT NOT NULL,
    finished   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS club_event_log (
    event_id TEXT NOT NULL REFERENCES club_events(id),
    v        INTEGER NOT NULL,
    at_ms    INTEGER NOT NULL,
    body     TEXT NOT NULL,
    round    INTEGER,
    match_id TEXT,
    PRIMARY KEY (event_id, v),
    UNIQUE (event_id, round),
    UNIQUE (event_id, match_id)
);
CREATE TABLE IF NOT EXISTS club_organisers (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id)
);
-- The list of events (`heads`): the unfinished ones, then a page of the finished ones, each
-- newest first, read as one range of this index rather than the whole table.
CREATE INDEX IF NOT EXISTS club_events_by_state ON club_events (finished, created_ms, id);
";

/// Creates the tables if they are missing.
pub(crate) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)
}

/// Applies one write; a repeated record (version, round or game) is a constraint error.
pub(crate) fn apply(conn: &Connection, write: &EventWrite) -> rusqlite::Result<()> {
    match write {
        EventWrite::Create {
            id,
            created_ms,
            setup,
        } => {
            conn.prepare_cached(
                "INSERT INTO club_events (id, created_ms, setup) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![id, created_ms, setup])?;
        }
        EventWrite::Record {
            event_id,
            v,
            at_ms,
            body,
            round,
            match_id,
            // One server: nothing to fence.
            epoch: _,
        } => {
            conn.prepare_cached(
                "INSERT INTO club_event_log (event_id, v, at_ms, body, round, match_id) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?
            .execute(params![event_id, *v as i64, at_ms, body, round, match_id])?;
        }
        EventWrite::Finish { id } => {
            conn.prepare_cached("UPDATE club_events SET finished = 1 WHERE id = ?1")?
                .execute(params![id])?;
        }
        EventWrite::Organiser { account, granted } => set_organiser(conn, *account, *granted)?,
    }
    Ok(())
}

/// Grants or takes back the organiser right of `account`.
pub(super) fn set_organiser(
    conn: &Connection,
    account: i64,
    granted: bool,
) -> rusqlite::Result<()> {
    if granted {
        conn.prepare_cached("INSERT OR IGNORE INTO club_organisers (account_id) VALUES (?1)")?
            .execute(params![account])?;
    } else {
        conn.prepare_cached("DELETE FROM club_organisers WHERE account_id = ?1")?
            .execute(params![account])?;
    }
    Ok(())
}

fn record(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredEvent> {
    Ok(StoredEvent {
        v: row.get::<_, i64>(0)? as u64,
        at_ms: row.get(1)?,
        body: row.get(2)?,
    })
}

fn records(conn: &Connection, id: &str) -> rusqlite::Result<Vec<StoredEvent>> {
    conn.prepare_cached("SELECT v, at_ms, body FROM club_event_log WHERE event_id = ?1 ORDER BY v")?
        .query_map(params![id], record)?
        .collect()
}

/// Event `id`'s records after version `after`, in order, at most `limit`: a range of the
/// primary key `(event_id, v)`.
pub(crate) fn records_after(
    conn: &Connection,
    id: &str,
    after: u64,
    limit: u32,
) -> rusqlite::Result<Vec<StoredEvent>> {
    let after = i64::try_from(after).unwrap_or(i64::MAX);
    conn.prepare_cached(
        "SELECT v, at_ms, body FROM club_event_log WHERE event_id = ?1 AND v > ?2 \
         ORDER BY v LIMIT ?3",
    )?
    .query_map(params![id, after, limit], record)?
    .collect()
}

fn event(row: &rusqlite::Row<'_>) -> rusqlite::Result<StoredClubEvent> {
    Ok(StoredClubEvent {
        id: row.get(0)?,
        created_ms: row.get(1)?,
        setup: row.get(2)?,
        finished: row.get::<_, i64>(3)? != 0,
        records: Vec::new(),
    })
}

/// Every event (only the unfinished ones with `unfinished_only`), oldest first, with its
/// records.
pub(crate) fn all(
    conn: &Connection,
    unfinished_only: bool,
) -> rusqlite::Result<Vec<StoredClubEvent>> {
    let mut events: Vec<StoredClubEvent> = conn
        .prepare_cached(
            "SELECT id, created_ms, setup, finished FROM club_events \
             WHERE finished = 0 OR ?1 = 0 ORDER BY created_ms, id",
        )?
        .query_map(params![unfinished_only], event)?
        .collect::<rusqlite::Result<_>>()?;
    for found in &mut events {
        found.records = records(conn, &found.id)?;
    }
    Ok(events)
}

/// The events without their records (`records` empty), newest first (by creation, then id):
/// the unfinished ones if `finished` is false, else the finished ones; `limit` of them from
/// the `offset`-th. One range of `club_events_by_state`, whatever the number of events.
pub(crate) const HEADS: &str = "SELECT id, created_ms, setup, finished FROM club_events \
     WHERE finished = ?1 ORDER BY created_ms DESC, id DESC LIMIT ?2 OFFSET ?3";

/// A page of the list of events ([`HEADS`]).
pub(crate) fn heads(
    conn: &Connection,
    finished: bool,
    offset: u64,
    limit: u32,
) -> rusqlite::Result<Vec<StoredClubEvent>> {
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    conn.prepare_cached(HEADS)?
        .query_map(params![finished, limit, offset], event)?
        .collect()
}

/// Event `id` with its records.
pub(crate) fn one(conn: &Connection, id: &str) -> rusqlite::Result<Option<StoredClubEvent>> {
    let found = conn
        .prepare_cached("SELECT id, created_ms, setup, finished FROM club_events WHERE id = ?1")?
        .query_row(params![id], event)
        .optional()?;
    let Some(mut found) = found else {
        return Ok(None);
    };
    found.records = records(conn, id)?;
    Ok(Some(found))
}

/// Whether `account` may create events.
pub(crate) fn is_organiser(conn: &Connection, account: i64) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT 1 FROM club_organisers WHERE account_id = ?1")?
        .query_row(params![account], |_| Ok(()))
        .optional()
        .map(|found| found.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sqlite::matches::tests::plan_of;

    /// A page of the list of events, finished or not, is one range of `club_events_by_state`
    /// read backwards (newest first): no scan of every event, no sort.
    #[test]
    fn a_page_of_the_list_of_events_is_a_range_of_the_index() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE accounts (id INTEGER PRIMARY KEY); \
             CREATE TABLE matches (id TEXT PRIMARY KEY);",
        )
        .unwrap();
        create(&conn).unwrap();
        for finished in ["0", "1"] {
            let sql = HEADS
                .replace("?1", finished)
                .replace("?2", "20")
                .replace("?3", "40");
            let plan = plan_of(&conn, &sql);
            assert!(plan.contains("USING INDEX club_events_by_state"), "{plan}");
            assert!(!plan.contains("TEMP B-TREE"), "no sort: {plan}");
        }
    }
}
