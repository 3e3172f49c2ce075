//! The SQLite backend (WAL mode): one writer thread with group commit, a few read-only
//! connections ([`readers`]) kept for the reads, which run off the runtime.
//!
//! The writer thread takes requests from many matches, applies everything that is waiting in
//! one transaction (each request in its own savepoint, so one bad request cannot spoil the
//! others), commits once — one fsync for the whole group, `synchronous = FULL` — and only then
//! answers every request through its oneshot. It never checkpoints: [`checkpoint`] copies the
//! log back into the database on a thread of its own. Reads take one of the read connections
//! and run in a blocking task: WAL lets them run beside the writer and see every committed
//! transaction.
//! Every other write (an account's session, token or setting) is a [`Job`] on the same queue:
//! a second connection writing the file would make this thread wait for the file's lock, and
//! SQLite waits by sleeping (1, 2, 5, 10… ms), which a login flood turned into move→ack stalls
//! of tens of milliseconds.
//! [`matches`] holds the match tables, [`archive`] the engine games, leaderboard and runs.

pub(crate) mod accounts;
mod archive;
mod chat;
mod checkpoint;
mod club;
pub(crate) mod export;
pub(crate) mod lock;
mod matches;
mod ratings;
mod readers;

use std::path::Path;
use std::sync::Arc;

use boardcast_protocol::LeaderboardEntry;
use rusqlite::Connection;
use tokio::sync::mpsc;

use self::checkpoint::Checkpointer;
use super::club::StoredClubEvent;
use super::queue::{self, MAX_GROUP, Pending, Request};
use super::{
    ArchivedGame, ChatLineRow, MatchKey, Refused, StorageError, Store, StoredMatch, Write,
};

/// Opens (or creates) the database file at `path` for writing, in WAL mode. What an operator
/// can fix is said so: a directory that does not exist, a file or directory the server may not
/// write (SQLite writes its `-wal` and `-shm` files beside the database).
fn open_writable(path: &Path) -> Result<Connection, StorageError> {
    let directory = existing_directory(path)?;
    let not_writable = |err: rusqlite::Error| match err.sqlite_error_code() {
        Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly) => {
            StorageError::Setup {
                problem: format!("cannot write the database {}: {err}", path.display()),
                remedy: format!(
                    "let the user running boardcast-server write the file and its directory {} \
                     (SQLite keeps its -wal and -shm files beside the database)",
                    directory.display()
                ),
            }
        }
        _ => StorageError::from(err),
    };
    let conn = Connection::open(path).map_err(not_writable)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(not_writable)?;
    Ok(conn)
}

/// Creates every table that is missing (`boardcast-server admin` on a database no server
/// has opened yet: the seats' trigger needs the events table).
pub(crate) fn create_tables(conn: &Connection) -> Result<(), StorageError> {
    matches::create(conn)?;
    archive::create(conn)?;
    accounts::create(conn)?;
    ratings::create(conn)?;
    club::create(conn)?;
    chat::create(conn)?;
    Ok(())
}

/// The directory database `path` is in, or what to do when it does not exist.
fn existing_directory(path: &Path) -> Result<&Path, StorageError> {
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !directory.is_dir() {
        return Err(StorageError::Setup {
            problem: format!("the directory {} does not exist", directory.display()),
            remedy: format!(
                "create it (mkdir -p {}) or choose a database file in an existing directory",
                directory.display()
            ),
        });
    }
    Ok(directory)
}

/// A SQLite store: the queue to its writer thread, and the accounts, which also run its reads
/// on connections of their own.
#[derive(Debug)]
pub(crate) struct Sqlite {
    tx: mpsc::Sender<Request<Box<dyn Job>>>,
    accounts: std::sync::Arc<accounts::SqliteAccounts>,
}

impl Sqlite {
    /// Opens (or creates) the database, reads every unfinished match and starts the writer.
    pub(crate) fn open(path: &Path) -> Result<(Sqlite, Vec<StoredMatch>), StorageError> {
        let mut conn = open_writable(path)?;
        // FULL: the WAL is fsynced at every commit, so an acknowledged move survives even a
        // power cut; group commit keeps that to one fsync per batch.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Every live match appends to a leaf page of its own, so a group of N moves touches N
        // leaves: SQLite's default 2 MiB cache holds the leaves of about 500 matches, and each
        // insert beyond that first reads its leaf back (about three reads per move were
        // counted at 2,000 matches). 16 MiB holds a few thousand; it fills only as used.
        conn.pragma_update(None, "cache_size", -16 * 1024)?;
        create_tables(&conn)?;
        let recovered = matches::unfinished(&conn)?;
        let checkpointer = Checkpointer::start(path)?;
        checkpointer.watch(&mut conn)?;
        let (tx, rx) = queue::channel();
        let accounts = accounts::SqliteAccounts::new(path.to_owned(), Some(tx.clone()))?;
        std::thread::Builder::new()
            .name("boardcast-storage".into())
            .spawn(move || writer_loop(conn, rx, checkpointer))
            .map_err(StorageError::Thread)?;
        let store = Sqlite {
            tx,
            accounts: std::sync::Arc::new(accounts),
        };
        Ok((store, recovered))
    }

    /// Runs `query` on one of the read connections ([`accounts::SqliteAccounts::run`]).
    async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StorageError> {
        self.accounts.run(query).await
    }
}

#[async_trait::async_trait]
impl Store for Sqlite {
    async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        queue::commit(&self.tx, writes).await
    }

    async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError> {
        self.read(matches::unfinished).await
    }

    async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError> {
        self.read(matches::last_heartbeat).await
    }

    async fn unfinished_of_event(&self, event: String) -> Result<Vec<StoredMatch>, StorageError> {
        self.read(move |conn| matches::unfinished_of_event(conn, &event))
            .await
    }

    async fn chat_lines(&self, match_id: String) -> Result<Vec<ChatLineRow>, StorageError> {
        self.read(move |conn| chat::lines(conn, &match_id)).await
    }

    async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
        self.read(move |conn| matches::finished_pdn(conn, &id))
            .await
    }

    async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
        self.read(move |conn| matches::finished_match(conn, &key))
            .await
    }

    async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
        self.read(move |conn| archive::leaderboard(conn, limit))
            .await
    }

    async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError> {
        self.read(move |conn| archive::archived_game(conn, id))
            .await
    }

    async fn next_game_id(&self) -> Result<u64, StorageError> {
        self.read(archive::next_game_id).await
    }

    async fn next_run(&self) -> Result<u64, StorageError> {
        self.accounts.write(archive::next_run).await
    }

    fn accounts(&self) -> std::sync::Arc<dyn crate::storage::accounts::AccountStore> {
        self.accounts.clone()
    }

    async fn club_events(
        &self,
        unfinished_only: bool,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        self.read(move |conn| club::all(conn, unfinished_only))
            .await
    }

    async fn club_event_heads(
        &self,
        finished: bool,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        self.read(move |conn| club::heads(conn, finished, offset, limit))
            .await
    }

    async fn club_event(&self, id: String) -> Result<Option<StoredClubEvent>, StorageError> {
        self.read(move |conn| club::one(conn, &id)).await
    }

    async fn club_event_records(
        &self,
        id: String,
        after: u64,
        limit: u32,
    ) -> Result<Vec<crate::storage::StoredEvent>, StorageError> {
        self.read(move |conn| club::records_after(conn, &id, after, limit))
            .await
    }

    async fn is_organiser(&self, account: i64) -> Result<bool, StorageError> {
        self.read(move |conn| club::is_organiser(conn, account))
            .await
    }

    async fn close(&self) {
        queue::close(&self.tx).await;
        self.accounts.close_reads();
    }
}

fn writer_loop(
    mut conn: Connection,
    mut rx: mpsc::Receiver<Request<Box<dyn Job>>>,
    checkpointer: Checkpointer,
) {
    let mut group: Vec<Pending> = Vec::with_capacity(MAX_GROUP);
    let mut jobs: Vec<Box<dyn Job>> = Vec::new();
    let mut closing = None;
    while closing.is_none() {
        let Some(first) = rx.blocking_recv() else {
            break;
        };
        closing = queue::gather(first, &mut rx, &mut group, &mut jobs);
        let started = std::time::Instant::now();
        let requests = group.len() + jobs.len();
        let outcomes = write_group(&mut conn, &group, &mut jobs);
        crate::ops::telemetry::committed(requests, started.elapsed());
        for (pending, outcome) in group.drain(..).zip(outcomes) {
            let _ = pending.done.send(outcome.map_err(StorageError::Refused));
        }
    }
    checkpointer.stop();
    if let Err(err) = conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);") {
        tracing::warn!(%err, "final checkpoint failed");
    }
    drop(conn);
    tracing::debug!("storage writer stopped");
    if let Some(done) = closing {
        let _ = done.send(());
    }
}

/// Work of this backend's own kind on the writer's connection (an account's statements). It
/// runs inside the group's transaction, in a savepoint of its own, and answers its caller only
/// once the group's commit is known.
pub(crate) trait Job: Send {
    /// Runs the statements; false when they failed (their savepoint is then rolled back).
    fn run(&mut self, conn: &Connection) -> bool;
    /// Answers the caller: `kept` is whether what it wrote is on disk (the commit's outcome,
    /// or why it never ran).
    fn answer(self: Box<Self>, kept: Result<(), Refused>);
}

/// Applies a group in one transaction: each request's outcome, then answers the jobs.
fn write_group(
    conn: &mut Connection,
    group: &[Pending],
    jobs: &mut Vec<Box<dyn Job>>,
) -> Vec<Result<(), Refused>> {
    let refused = |err: rusqlite::Error| Refused::Sqlite(Arc::new(err));
    let mut tx = match conn.transaction() {
        Ok(tx) => tx,
        Err(err) => {
            let err = refused(err);
            for job in jobs.drain(..) {
                job.answer(Err(err.clone()));
            }
            return vec![Err(err); group.len()];
        }
    };
    let mut outcomes = Vec::with_capacity(group.len());
    for request in group {
        let outcome = match tx.savepoint() {
            Ok(mut sp) => match apply(&sp, &request.writes) {
                Ok(()) => sp.commit().map_err(refused),
                Err(err) => {
                    let _ = sp.rollback();
                    Err(refused(err))
                }
            },
            Err(err) => Err(refused(err)),
        };
        if let Err(err) = &outcome {
            tracing::error!(%err, "storage write refused");
        }
        outcomes.push(outcome);
    }
    let mut ran = Vec::with_capacity(jobs.len());
    for mut job in jobs.drain(..) {
        // A job's own failure (a taken name) is its answer, not the group's: only whether its
        // savepoint could be kept or dropped is this loop's business.
        let kept = match tx.savepoint() {
            Ok(mut sp) => {
                let wrote = job.run(&sp);
                if wrote { sp.commit() } else { sp.rollback() }.map_err(refused)
            }
            Err(err) => Err(refused(err)),
        };
        ran.push((job, kept));
    }
    let committed = tx.commit().map_err(|err| {
        tracing::error!(%err, "storage commit failed");
        refused(err)
    });
    for (job, kept) in ran {
        job.answer(kept.and(committed.clone()));
    }
    match committed {
        Ok(()) => outcomes,
        Err(err) => vec![Err(err); group.len()],
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
                owner: _,
            } => matches::create_match(conn, id, invite.as_deref(), *created_ms, setup)?,
            Write::Event {
                match_id,
                v,
                at_ms,
                body,
                epoch: _,
            } => matches::append_event(conn, match_id, *v, *at_ms, body)?,
            Write::Finish {
                match_id,
                result,
                pdn,
                epoch: _,
            } => matches::finish(conn, match_id, result, pdn)?,
            Write::Rating(change) => ratings::insert(conn, change)?,
            Write::Channel(write) => archive::apply(conn, write)?,
            Write::ClubEvent(write) => club::apply(conn, write)?,
            Write::Chat(write) => chat::apply(conn, write)?,
            Write::Heartbeat { at_ms } => matches::heartbeat(conn, *at_ms)?,
        }
    }
    Ok(())
}
