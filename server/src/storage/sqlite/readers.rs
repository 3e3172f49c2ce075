//! The read connections: a few read-only connections, opened once and reused by every read.
//!
//! A read used to open a connection of its own, on a blocking thread of its own. That cost a
//! file open, the `-shm` mapping and the schema parsed again at the first statement on every
//! read; and since a read took its blocking thread before anything limited it, a mass recovery
//! (every recovered match reads its chat at its first join) started as many blocking threads
//! as reads were waiting, up to tokio's 512, each keeping glibc's per-thread cache of freed
//! memory for its 10 s of idle life. Now a read first waits, on the runtime and without a
//! thread, for one of at most [`READERS`] connections, and only then takes a blocking thread:
//! at most [`READERS`] reads run at once, on at most as many blocking threads.
//!
//! The pool is deadpool's, with [`Opener`] as its manager: `deadpool-sqlite` and
//! `r2d2_sqlite` pin an older rusqlite than this server's.
//!
//! The connections are read-only: every write goes through the writer thread ([`super::Job`]),
//! and a statement that tried to write here would fail rather than wait for the file's write
//! lock. WAL lets them read beside the writer. A statement outside a transaction reads in a
//! transaction of its own, so a connection kept from one read to the next sees everything
//! committed before each read begins. A read that left a transaction open would keep its
//! snapshot (later reads on that connection would be stale, and the log could not be reset
//! behind it), so such a connection is closed rather than given out again.

use std::path::PathBuf;
use std::time::Duration;

use deadpool::Runtime;
use deadpool::managed::{Manager, Metrics, Pool, PoolError, RecycleError, RecycleResult};
use rusqlite::{Connection, OpenFlags};

use crate::storage::{StorageError, Unavailable};

/// How many read connections are kept at most. A read is short (a session, a match's events,
/// its chat): on two cores four at once keep both busy, and one slow read (a ladder of
/// thousands of members) does not hold up the rest. A PDN export takes one only for each page
/// of games it reads, never while its client reads ([`crate::storage::accounts::send_pdn_pages`]).
const READERS: usize = 4;

/// How long a connection waits out the writer's lock (reads almost never meet it in WAL mode;
/// `boardcast-server admin`'s writes do), and how long a read waits for a free connection
/// before storage is said to be busy.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The read-only connections to one database file.
#[derive(Debug)]
pub(super) struct Readers {
    pool: Pool<Opener>,
}

impl Readers {
    /// A pool for the database at `path`; it opens its connections as reads first need them.
    pub(super) fn new(path: PathBuf) -> Result<Readers, StorageError> {
        let pool = Pool::builder(Opener { path })
            .max_size(READERS)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(BUSY_TIMEOUT))
            .create_timeout(Some(BUSY_TIMEOUT))
            .build()
            .map_err(StorageError::Pool)?;
        Ok(Readers { pool })
    }

    /// Runs `query` on one of the connections, in a blocking task once one is free.
    pub(super) async fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StorageError> {
        let conn = self.pool.get().await.map_err(|err| match err {
            PoolError::Backend(err) => err,
            PoolError::Timeout(_) => StorageError::Unavailable(Unavailable::NoReader),
            PoolError::Closed => StorageError::Closed,
            // Cannot happen: the pool has no hooks.
            other => StorageError::Database(format!("SQLite's read connections: {other}")),
        })?;
        // The connection goes back to the pool when the blocking task drops it, also when the
        // caller stopped waiting: the query it runs ends by itself.
        tokio::task::spawn_blocking(move || Ok(query(&conn)?))
            .await
            .map_err(StorageError::Task)?
    }

    /// Closes the kept connections (one in use as its read ends), so that nothing of this
    /// process holds the file once the store is closed: in WAL mode even an idle connection
    /// keeps a shared lock, and `migrate`, run right after, takes the file exclusively.
    /// Reads after it are refused [`StorageError::Closed`].
    pub(super) fn close(&self) {
        self.pool.close();
    }

    /// How many connections are open now.
    #[cfg(test)]
    fn open_connections(&self) -> usize {
        self.pool.status().size
    }
}

/// How many prepared statements a read connection keeps: more than the distinct reads of
/// the server (some 40), so none is ever parsed twice on one connection.
const STATEMENTS_KEPT: usize = 64;

/// How a read connection is opened: as [`Connection::open`] does, but read-only.
pub(super) const READ_ONLY: OpenFlags = OpenFlags::SQLITE_OPEN_READ_ONLY
    .union(OpenFlags::SQLITE_OPEN_URI)
    .union(OpenFlags::SQLITE_OPEN_NO_MUTEX);

/// Opens the database at `path` with `flags`, waiting out the writer's lock up to
/// [`BUSY_TIMEOUT`]. Blocking.
pub(super) fn open(path: &std::path::Path, flags: OpenFlags) -> Result<Connection, StorageError> {
    let conn = Connection::open_with_flags(path, flags)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Every read that runs per request (a session, a profile, the ladder, a games page, the
    // events list) takes its statement from the connection's cache, so it is parsed and
    // planned once per kept connection, not once per request; rusqlite keeps 16 by default,
    // fewer than the reads there are, and a full cache drops its least used one.
    conn.set_prepared_statement_cache_capacity(STATEMENTS_KEPT);
    Ok(conn)
}

/// What the pool needs to open a read connection, and to tell whether one can be reused.
#[derive(Debug)]
struct Opener {
    path: PathBuf,
}

impl Manager for Opener {
    type Type = Connection;
    type Error = StorageError;

    async fn create(&self) -> Result<Connection, StorageError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || open(&path, READ_ONLY))
            .await
            .map_err(StorageError::Task)?
    }

    /// Checks only what costs nothing to check: that the last read left no transaction open.
    async fn recycle(&self, conn: &mut Connection, _: &Metrics) -> RecycleResult<StorageError> {
        if conn.is_autocommit() {
            Ok(())
        } else {
            Err(RecycleError::message("a read left a transaction open"))
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A database with one table of numbers, and the connection that writes it.
    fn numbers() -> (tempfile::TempDir, PathBuf, Connection) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("numbers.db");
        let writer = Connection::open(&path).unwrap();
        writer.pragma_update(None, "journal_mode", "WAL").unwrap();
        writer
            .execute_batch("CREATE TABLE numbers (n INTEGER); INSERT INTO numbers VALUES (1);")
            .unwrap();
        (dir, path, writer)
    }

    fn count(conn: &Connection) -> rusqlite::Result<i64> {
        conn.query_row("SELECT count(*) FROM numbers", [], |row| row.get(0))
    }

    /// Closed, the kept connections let go of the file: `migrate` takes it exclusively right
    /// after a store is closed, and is refused while anything of ours still holds it.
    #[tokio::test]
    async fn closed_readers_leave_the_file_to_an_exclusive_open_and_refuse_reads() {
        let (_dir, path, writer) = numbers();
        drop(writer);
        let readers = Readers::new(path.clone()).unwrap();
        assert_eq!(readers.read(count).await.unwrap(), 1);
        assert_eq!(readers.open_connections(), 1, "kept after the read");
        let held = super::super::export::refuse_if_in_use(&path);
        assert!(held.is_err(), "a kept connection holds the file: {held:?}");
        readers.close();
        super::super::export::refuse_if_in_use(&path).expect("free once closed");
        assert!(matches!(
            readers.read(count).await,
            Err(StorageError::Closed)
        ));
    }

    #[tokio::test]
    async fn many_reads_at_once_run_a_few_at_a_time_on_a_few_connections() {
        let (_dir, path, _writer) = numbers();
        let readers = Arc::new(Readers::new(path).unwrap());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let reads: Vec<_> = (0..64)
            .map(|_| {
                let (readers, running, most) = (readers.clone(), running.clone(), most.clone());
                tokio::spawn(async move {
                    readers
                        .read(move |conn| {
                            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                            most.fetch_max(now, Ordering::SeqCst);
                            // Long enough that reads not held back would overlap.
                            std::thread::sleep(Duration::from_millis(5));
                            let n = count(conn);
                            running.fetch_sub(1, Ordering::SeqCst);
                            n
                        })
                        .await
                })
            })
            .collect();
        for read in reads {
            assert_eq!(read.await.unwrap().unwrap(), 1);
        }
        let most = most.load(Ordering::SeqCst);
        assert!(most <= READERS, "{most} reads ran at once");
        assert!(readers.open_connections() <= READERS);
    }

    #[tokio::test]
    async fn a_kept_connection_sees_every_commit_and_writes_nothing() {
        let (_dir, path, writer) = numbers();
        let readers = Readers::new(path).unwrap();
        assert_eq!(readers.read(count).await.unwrap(), 1);
        writer
            .execute("INSERT INTO numbers VALUES (2)", [])
            .unwrap();
        assert_eq!(readers.read(count).await.unwrap(), 2);

        let refused = readers
            .read(|conn| conn.execute("INSERT INTO numbers VALUES (3)", []))
            .await;
        assert!(
            matches!(&refused, Err(StorageError::Sqlite(err))
                if err.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly)),
            "{refused:?}"
        );

        // A read that leaves its transaction open: its connection is not given out again, so
        // no later read sees the database as it was then.
        readers
            .read(|conn| {
                conn.execute_batch("BEGIN")?;
                count(conn)
            })
            .await
            .unwrap();
        writer
            .execute("INSERT INTO numbers VALUES (4)", [])
            .unwrap();
        for _ in 0..=READERS {
            assert_eq!(readers.read(count).await.unwrap(), 3);
        }
    }
}
