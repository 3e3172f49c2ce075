//! WAL checkpoints on a thread of their own, so no commit waits for one.
//!
//! In WAL mode a commit appends the pages it changed to the log; a checkpoint copies the log's
//! pages back into the database file and syncs that file. SQLite's default runs the checkpoint
//! inside the COMMIT that takes the log past 1,000 pages, on the committing connection: on our
//! single writer that stalls the group being committed and every request queued behind it
//! while about 4 MB are read from the log, written to the database and synced. At 5,000 moves/s
//! (about two log pages per move) that was ten stalls a second, the tail of move→ack.
//!
//! So the writer's WAL hook (which replaces SQLite's automatic checkpoint) only tells this
//! thread when the log has grown past [`CHECKPOINT_PAGES`]. This thread, on its own
//! connection, then runs a PASSIVE checkpoint, which never takes the write lock: the writer
//! keeps appending and syncing the log meanwhile.
//!
//! The log starts over from its beginning only when a write begins with every page of it
//! copied back. Under steady writes the writer appends while this thread copies, so that moment
//! may never come and the log would grow without end. When it reaches [`RESTART_PAGES`] the
//! writer therefore checkpoints once itself, right after a commit: this thread has already
//! copied all but the last few commits' pages, so the writer copies only those (and syncs the
//! database file), and its next write starts the log over. Durability is unchanged: a commit is
//! durable when its log frames are synced, as before.

use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::storage::StorageError;

/// Log pages after which a checkpoint is asked for: SQLite's own default.
pub(super) const CHECKPOINT_PAGES: i32 = 1000;
/// Log pages (32 MiB) after which the writer copies the rest back itself, so the log starts
/// over.
pub(super) const RESTART_PAGES: i32 = 8 * CHECKPOINT_PAGES;
/// How soon a checkpoint that had to leave pages behind is tried again.
const RETRY: Duration = Duration::from_millis(5);

/// What the checkpoint thread is told.
enum Order {
    /// The log has grown: copy it back.
    Checkpoint,
    /// Finish the checkpoint under way (if any) and stop.
    Stop,
}

/// The checkpoint thread and the way to reach it.
#[derive(Debug)]
pub(super) struct Checkpointer {
    orders: SyncSender<Order>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Opens a connection of its own on the database at `path` (already in WAL mode) and
    /// starts the thread.
    pub(super) fn start(path: &Path) -> Result<Checkpointer, StorageError> {
        let conn = Connection::open(path)?;
        // FULL, like the writer: the database file is synced before the log may be reused.
        conn.pragma_update(None, "synchronous", "FULL")?;
        // One order waiting is enough: a checkpoint copies everything logged before it starts.
        let (orders, queue) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("boardcast-checkpoint".into())
            .spawn(move || run(conn, queue))
            .map_err(StorageError::Thread)?;
        Ok(Checkpointer {
            orders,
            thread: Some(thread),
        })
    }

    /// Makes `writer` leave its checkpoints to this thread: after each of its commits, a log of
    /// [`CHECKPOINT_PAGES`] or more asks for one (never waiting: one asked for is enough), and
    /// a log of [`RESTART_PAGES`] is caught up by the writer itself.
    pub(super) fn watch(&self, writer: &mut Connection) -> Result<(), StorageError> {
        let orders = self.orders.clone();
        writer.wal_hook(Some(move |wal: &mut rusqlite::hooks::Wal, pages: i32| {
            if pages >= RESTART_PAGES {
                let started = Instant::now();
                // Busy (this thread is copying) is no failure: the next commit tries again.
                if wal.checkpoint().is_ok() {
                    crate::ops::telemetry::checkpointed(started.elapsed(), true);
                }
            } else if pages >= CHECKPOINT_PAGES {
                match orders.try_send(Order::Checkpoint) {
                    Ok(()) | Err(TrySendError::Full(_)) => {}
                    Err(TrySendError::Disconnected(_)) => {
                        tracing::warn!("the checkpoint thread has stopped");
                    }
                }
            }
            Ok(())
        }))?;
        Ok(())
    }

    /// Lets the checkpoint under way finish, then stops the thread and waits for it.
    pub(super) fn stop(mut self) {
        let _ = self.orders.send(Order::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(conn: Connection, queue: Receiver<Order>) {
    // Whether the last checkpoint left pages behind: a connection (the writer finishing the
    // very commit that asked for this checkpoint, or a reader) still used them. Without a
    // retry they would wait for the next commit, and until they are copied the log cannot
    // start over.
    let mut behind = false;
    loop {
        let order = if behind {
            match queue.recv_timeout(RETRY) {
                Ok(order) => order,
                Err(RecvTimeoutError::Timeout) => Order::Checkpoint,
                Err(RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match queue.recv() {
                Ok(order) => order,
                Err(_) => break,
            }
        };
        if let Order::Stop = order {
            break;
        }
        let started = Instant::now();
        // (busy, frames in the log, frames copied back); PASSIVE never waits for a lock.
        let outcome = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
            Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
        });
        match outcome {
            Ok((logged, copied)) => {
                crate::ops::telemetry::checkpointed(started.elapsed(), false);
                behind = copied < logged;
            }
            Err(err) => {
                tracing::warn!(%err, "WAL checkpoint failed");
                behind = false;
            }
        }
    }
    tracing::debug!("checkpoint thread stopped");
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::{Duration, Instant};

    use crate::storage::tests::match_with_setup;
    use crate::storage::{Storage, Write};

    /// A log frame: a page and its 24-byte header.
    const FRAME: u64 = 4096 + 24;

    fn size(path: &Path) -> u64 {
        std::fs::metadata(path).map_or(0, |meta| meta.len())
    }

    /// Waits (at most a generous minute, the machine may be busy) until `done` holds.
    async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
        let started = Instant::now();
        while !done() {
            assert!(started.elapsed() < Duration::from_secs(60), "never: {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Commits `commits` groups of 20 events of match `m` (versions after `*v`), about 30 log
    /// pages each.
    async fn write(storage: &Storage, v: &mut u64, commits: usize) {
        for _ in 0..commits {
            let writes = (0..20)
                .map(|_| {
                    *v += 1;
                    Write::Event {
                        match_id: "m".into(),
                        v: *v,
                        at_ms: 1,
                        body: "x".repeat(3000),
                        epoch: 0,
                    }
                })
                .collect();
            storage.commit(writes).await.unwrap();
        }
    }

    async fn open_with_a_match(db: &Path) -> Storage {
        let (storage, _) = Storage::open(&crate::storage::Database::Sqlite(db.into()), None)
            .await
            .unwrap();
        storage
            .commit(vec![match_with_setup("m", "{}")])
            .await
            .unwrap();
        storage
    }

    /// Everything committed is read back after a restart.
    async fn all_there(db: &Path, v: u64) {
        let (storage, recovered) =
            Storage::open(&crate::storage::Database::Sqlite(db.into()), None)
                .await
                .unwrap();
        assert_eq!(recovered.len(), 1);
        assert_eq!(recovered[0].events.len() as u64, v);
        storage.close().await;
    }

    #[tokio::test]
    async fn the_log_is_copied_back_beside_the_writer_and_starts_over_after_a_pause() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let wal = dir.path().join("t.db-wal");
        let storage = open_with_a_match(&db).await;
        let mut v = 0;
        let mut copied = size(&db);
        let mut logs = Vec::new();
        for round in 0..4 {
            // About 1,800 log pages: past the point where a checkpoint is asked for.
            write(&storage, &mut v, 60).await;
            // The store stays open: only the checkpoint thread writes the database file.
            eventually(&format!("round {round} copied back"), || {
                size(&db) >= copied + super::CHECKPOINT_PAGES as u64 / 2 * 4096
            })
            .await;
            // Copied back to the end once the file stops growing (a few quiet looks in a row).
            let mut last = (0, 0);
            eventually(&format!("round {round} finished"), || {
                let now = size(&db);
                last = if now == last.0 {
                    (now, last.1 + 1)
                } else {
                    (now, 0)
                };
                last.1 >= 6
            })
            .await;
            copied = size(&db);
            logs.push(size(&wal) / FRAME);
        }
        // The log starts over once copied back (during a round, or at the latest when the
        // next begins): it never holds much more than a round. Without starting over it would
        // hold all four rounds, over 7,000 frames.
        assert!(logs[0] > super::CHECKPOINT_PAGES as u64, "{logs:?}");
        assert!(
            logs.iter()
                .all(|&frames| frames < 3 * super::CHECKPOINT_PAGES as u64),
            "frames in the log file after each round: {logs:?}"
        );
        storage.close().await;
        all_there(&db, v).await;
    }

    #[tokio::test]
    async fn under_steady_writes_the_writer_lets_the_log_start_over_at_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let wal = dir.path().join("t.db-wal");
        let storage = open_with_a_match(&db).await;
        let mut v = 0;
        // About 15,000 log pages without a pause: the checkpoint thread alone, always a commit
        // behind, could let the log grow to all of them.
        write(&storage, &mut v, 500).await;
        let frames = size(&wal) / FRAME;
        assert!(
            frames < super::RESTART_PAGES as u64 + super::CHECKPOINT_PAGES as u64,
            "the log grew to {frames} frames"
        );
        storage.close().await;
        all_there(&db, v).await;
    }
}
