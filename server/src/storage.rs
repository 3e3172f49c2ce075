//! Durable storage in SQLite (WAL mode), written by one dedicated thread.
//!
//! Every match is stored as its set-up plus an append-only list of versioned events. The
//! writer thread takes requests from many matches, applies everything that is waiting in one
//! transaction (each request in its own savepoint, so one bad request cannot spoil the others),
//! commits once — one fsync for the whole group — and only then answers every request through
//! its oneshot. A match acknowledges or broadcasts an event only after that answer, so an
//! acknowledged move survives `kill -9`.
//!
//! Reads happen at start-up ([`Storage::open`] returns every unfinished match for recovery),
//! and for finished matches (PDN downloads, and a finished match read back to be watched or
//! resumed), on short-lived read connections off the runtime.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::{mpsc, oneshot};

/// How many requests may wait for the writer before callers wait for room.
const QUEUE: usize = 4096;
/// The most requests grouped into one transaction.
const MAX_GROUP: usize = 512;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("the storage writer has stopped")]
    Closed,
    #[error("storage read task failed: {0}")]
    Join(String),
}

/// One thing to write.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new match: its id, optional invite code, and set-up (opaque JSON owned by the match).
    CreateMatch {
        id: String,
        invite: Option<String>,
        created_ms: i64,
        setup: String,
    },
    /// Event number `v` of a match (opaque JSON owned by the match).
    Event {
        match_id: String,
        v: u64,
        at_ms: i64,
        body: String,
    },
    /// The match is over: its result and the game as PDN.
    Finish {
        match_id: String,
        result: String,
        pdn: String,
    },
    /// An archived engine game or a leaderboard score (see [`crate::channels::archive`]).
    Channel(crate::channels::archive::ChannelWrite),
}

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub v: u64,
    pub at_ms: i64,
    pub body: String,
}

/// How to name a stored match.
#[derive(Debug, Clone)]
pub enum MatchKey {
    /// By its id.
    Id(String),
    /// By one of its seat tokens.
    Token(String),
}

/// A match as read back: the unfinished ones at start-up, a finished one on demand.
#[derive(Debug, Clone)]
pub struct StoredMatch {
    pub id: String,
    pub invite: Option<String>,
    pub created_ms: i64,
    pub setup: String,
    pub events: Vec<StoredEvent>,
}

/// A handle on the writer thread; cheap to clone into every match.
#[derive(Debug, Clone)]
pub struct Storage {
    tx: mpsc::Sender<Request>,
    path: PathBuf,
}

#[derive(Debug)]
enum Request {
    Commit {
        writes: Vec<Write>,
        done: oneshot::Sender<Result<(), String>>,
    },
    /// Commit everything before this, checkpoint, stop.
    Close { done: oneshot::Sender<()> },
}

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
";

/// The seat token an event body holds (a JSON `token` field), NULL for any other body. The
/// index over it and the query by it must spell it the same way.
macro_rules! event_token {
    () => {
        "(CASE WHEN json_valid(body) THEN json_extract(body, '$.token') END)"
    };
}

/// Seat tokens, for finding a finished match (no longer in memory) by one of its seats.
const TOKEN_INDEX: &str = concat!(
    "CREATE INDEX IF NOT EXISTS events_by_token ON events ",
    event_token!(),
    " WHERE ",
    event_token!(),
    " IS NOT NULL;"
);

/// Milliseconds since the Unix epoch, as stored.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Storage {
    /// Opens (or creates) the database, reads every unfinished match and starts the writer.
    pub fn open(path: &Path) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // FULL: the WAL is fsynced at every commit, so an acknowledged move survives even a
        // power cut; group commit keeps that to one fsync per batch.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(SCHEMA)?;
        conn.execute_batch(TOKEN_INDEX)?;
        conn.execute_batch(crate::channels::archive::SCHEMA)?;
        let recovered = read_unfinished(&conn)?;
        let (tx, rx) = mpsc::channel(QUEUE);
        std::thread::Builder::new()
            .name("boardcast-storage".into())
            .spawn(move || writer_loop(conn, rx))
            .map_err(|e| StorageError::Join(e.to_string()))?;
        let storage = Storage {
            tx,
            path: path.to_owned(),
        };
        Ok((storage, recovered))
    }

    /// The database file, for read connections.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes `writes` atomically; completes once they are durable.
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        let (done, answer) = oneshot::channel();
        self.tx
            .send(Request::Commit { writes, done })
            .await
            .map_err(|_| StorageError::Closed)?;
        match answer.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(message)) => Err(StorageError::Join(message)),
            Err(_) => Err(StorageError::Closed),
        }
    }

    /// The PDN of a finished match, or `None` if there is no finished match `id`.
    pub async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || -> Result<Option<String>, StorageError> {
            let conn = Connection::open(path)?;
            let pdn = conn
                .query_row(
                    "SELECT pdn FROM matches WHERE id = ?1 AND finished = 1",
                    params![id],
                    |row| row.get::<_, Option<String>>(0),
                )
                .optional()?;
            Ok(pdn.flatten())
        })
        .await
        .map_err(|e| StorageError::Join(e.to_string()))?
    }

    /// A finished match read back whole (set-up and every event), or `None` if `key` names
    /// no finished match.
    pub async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || -> Result<Option<StoredMatch>, StorageError> {
            let conn = Connection::open(path)?;
            let id = match key {
                MatchKey::Id(id) => id,
                MatchKey::Token(token) => {
                    let id = conn
                        .query_row(
                            concat!("SELECT match_id FROM events WHERE ", event_token!(), " = ?1"),
                            params![token],
                            |row| row.get::<_, String>(0),
                        )
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
            found.events = read_events(&conn, &found.id)?;
            Ok(Some(found))
        })
        .await
        .map_err(|e| StorageError::Join(e.to_string()))?
    }

    /// Commits everything sent before, checkpoints the WAL and stops the writer; later
    /// commits fail with [`StorageError::Closed`].
    pub async fn close(&self) {
        let (done, finished) = oneshot::channel();
        if self.tx.send(Request::Close { done }).await.is_ok() {
            let _ = finished.await;
        }
    }
}

/// A commit request waiting in a group.
struct Pending {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), String>>,
}

fn writer_loop(mut conn: Connection, mut rx: mpsc::Receiver<Request>) {
    let mut group: Vec<Pending> = Vec::with_capacity(MAX_GROUP);
    let mut closing = None;
    while closing.is_none() {
        let Some(first) = rx.blocking_recv() else {
            break;
        };
        let mut next = Some(first);
        while let Some(request) = next.take() {
            match request {
                Request::Commit { writes, done } => group.push(Pending { writes, done }),
                Request::Close { done } => {
                    closing = Some(done);
                    break;
                }
            }
            if group.len() < MAX_GROUP {
                next = rx.try_recv().ok();
            }
        }
        let started = std::time::Instant::now();
        let outcomes = write_group(&mut conn, &group);
        crate::telemetry::committed(group.len(), started.elapsed());
        for (pending, outcome) in group.drain(..).zip(outcomes) {
            let _ = pending.done.send(outcome);
        }
    }
    if let Err(err) = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
        tracing::warn!(%err, "final checkpoint failed");
    }
    drop(conn);
    tracing::debug!("storage writer stopped");
    if let Some(done) = closing {
        let _ = done.send(());
    }
}

/// Applies a group in one transaction; returns each request's outcome.
fn write_group(conn: &mut Connection, group: &[Pending]) -> Vec<Result<(), String>> {
    if group.is_empty() {
        return Vec::new();
    }
    let failed_all = |err: rusqlite::Error| vec![Err(err.to_string()); group.len()];
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(err) => return failed_all(err),
    };
    let mut outcomes = Vec::with_capacity(group.len());
    for request in group {
        let outcome = match tx.savepoint() {
            Ok(mut sp) => match apply(&sp, &request.writes) {
                Ok(()) => sp.commit().map_err(|e| e.to_string()),
                Err(err) => {
                    let _ = sp.rollback();
                    Err(err.to_string())
                }
            },
            Err(err) => Err(err.to_string()),
        };
        if let Err(err) = &outcome {
            tracing::error!(%err, "storage write refused");
        }
        outcomes.push(outcome);
    }
    match tx.commit() {
        Ok(()) => outcomes,
        Err(err) => {
            tracing::error!(%err, "storage commit failed");
            failed_all(err)
        }
    }
}

fn apply(conn: &Connection, writes: &[Write]) -> rusqlite::Result<()> {
    for write in writes {
        match write {
            Write::CreateMatch {
                id,
                invite,
                created_ms,
                setup,
            } => {
                conn.prepare_cached(
                    "INSERT INTO matches (id, invite, created_ms, setup) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![id, invite, created_ms, setup])?;
            }
            Write::Event {
                match_id,
                v,
                at_ms,
                body,
            } => {
                conn.prepare_cached(
                    "INSERT INTO events (match_id, v, at_ms, body) VALUES (?1, ?2, ?3, ?4)",
                )?
                .execute(params![match_id, *v as i64, at_ms, body])?;
            }
            Write::Finish {
                match_id,
                result,
                pdn,
            } => {
                conn.prepare_cached(
                    "UPDATE matches SET finished = 1, result = ?2, pdn = ?3 WHERE id = ?1",
                )?
                .execute(params![match_id, result, pdn])?;
            }
            Write::Channel(write) => crate::channels::archive::apply(conn, write)?,
        }
    }
    Ok(())
}

fn read_unfinished(conn: &Connection) -> rusqlite::Result<Vec<StoredMatch>> {
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
mod tests {
    use super::*;

    fn create(id: &str) -> Write {
        Write::CreateMatch {
            id: id.into(),
            invite: Some(format!("inv-{id}")),
            created_ms: 1,
            setup: "{}".into(),
        }
    }

    fn event(id: &str, v: u64) -> Write {
        Write::Event {
            match_id: id.into(),
            v,
            at_ms: 2,
            body: format!("e{v}"),
        }
    }

    #[tokio::test]
    async fn a_finished_match_is_read_back_by_id_or_by_seat_token() {
        let dir = tempfile::tempdir().unwrap();
        let (storage, _) = Storage::open(&dir.path().join("t.db")).unwrap();
        let joined = |id: &str, v: u64, token: &str| Write::Event {
            match_id: id.into(),
            v,
            at_ms: 2,
            body: format!(r#"{{"event":"x","token":"{token}"}}"#),
        };
        let finish = |id: &str| Write::Finish {
            match_id: id.into(),
            result: "2-0".into(),
            pdn: String::new(),
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
        for key in [MatchKey::Id("a".into()), MatchKey::Token("ta".into())] {
            let found = storage.finished_match(key).await.unwrap().expect("found");
            assert_eq!(found.id, "a");
            assert_eq!(found.events.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2]);
        }
        // Unfinished, or unknown: nothing.
        for key in [
            MatchKey::Id("b".into()),
            MatchKey::Token("tb".into()),
            MatchKey::Token("nobody".into()),
        ] {
            assert!(storage.finished_match(key).await.unwrap().is_none());
        }
        // The query uses the index, not a scan of every event.
        let conn = Connection::open(storage.path()).unwrap();
        let plan: String = conn
            .query_row(
                concat!(
                    "EXPLAIN QUERY PLAN SELECT match_id FROM events WHERE ",
                    event_token!(),
                    " = 'ta'"
                ),
                [],
                |row| row.get(3),
            )
            .unwrap();
        assert!(plan.contains("events_by_token"), "{plan}");
        storage.close().await;
    }

    #[tokio::test]
    async fn writes_survive_reopen_and_finished_matches_are_not_recovered() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let (storage, recovered) = Storage::open(&path).unwrap();
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

        let (_storage, recovered) = Storage::open(&path).unwrap();
        assert_eq!(recovered.len(), 1);
        let a = &recovered[0];
        assert_eq!(a.id, "a");
        assert_eq!(a.invite.as_deref(), Some("inv-a"));
        let vs: Vec<u64> = a.events.iter().map(|e| e.v).collect();
        assert_eq!(vs, (1..=50).collect::<Vec<_>>());
    }

    #[tokio::test]
    async fn a_refused_request_does_not_spoil_its_group() {
        let dir = tempfile::tempdir().unwrap();
        let (storage, _) = Storage::open(&dir.path().join("t.db")).unwrap();
        storage.commit(vec![create("a")]).await.unwrap();
        storage.commit(vec![event("a", 1)]).await.unwrap();
        let dup = storage.clone();
        let ok = storage.clone();
        let (dup, ok) = tokio::join!(
            dup.commit(vec![event("a", 1)]),
            ok.commit(vec![event("a", 2)])
        );
        assert!(dup.is_err(), "a duplicate version is refused");
        ok.unwrap();
    }
}
