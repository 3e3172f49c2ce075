//! WAL checkpoints beside the writer, so no acknowledgement waits for one.
//!
//! In WAL mode a commit appends the pages it changed to the log; a checkpoint copies the log's
//! pages back into the database file and syncs that file. SQLite's default runs the checkpoint
//! inside the COMMIT that takes the log past 1,000 pages, on the committing connection: on our
//! single writer that stalls the group being committed and every request queued behind it
//! while about 4 MB are read from the log, written to the database and synced. At 5,000 moves/s
//! (about two log pages per move) that was ten stalls a second, the tail of move→ack.
//!
//! So the writer's WAL hook (which replaces SQLite's automatic checkpoint) only notes the log's
//! size after each commit, and [`Cadence`] decides:
//! - **one checkpoint every [`CHECKPOINT_PAGES`] new log pages, on this module's thread**. It
//!   runs PASSIVE on a connection of its own, which never takes the write lock: the writer
//!   keeps appending and syncing the log meanwhile. One per thousand pages rather than one
//!   per commit: every checkpoint also syncs the database file, and each such sync competes
//!   with the writer's syncs of the log on the same disk.
//! - **at [`RESTART_PAGES`], the log starts over.** It does so only when a write begins with
//!   every page of it copied back, and under steady writes no checkpoint beside the writer
//!   reliably catches the log's end. So from there the thread is asked for a checkpoint after
//!   every commit, and once one that began after that point has finished, the writer copies
//!   the few commits' pages logged since itself (and syncs the database file) — after
//!   answering its group, at a moment when no request is waiting
//!   ([`Checkpointer::copy_back_if_due`]). Its next write starts the log over.
//! - **at [`LIMIT_PAGES`] the writer copies back even with requests waiting**, so the log stays
//!   bounded on a machine too busy to give the writer a quiet moment.
//!
//! When the writer pauses, the thread copies what is left once it has been quiet for
//! [`SETTLE`], so an idle server's log is copied back whole and starts over with the next
//! write. Durability is unchanged: a commit is durable when its log frames are synced, as
//! before; SQLite syncs the database file before any log frame it needs may be overwritten.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::Connection;

use crate::storage::StorageError;

/// New log pages between two checkpoints (at 5,000 moves/s, about five a second).
pub const CHECKPOINT_PAGES: i32 = 1000;
/// Log pages (16 MiB) after which the log starts over: the writer copies back the last few
/// commits' pages itself when it has a quiet moment.
pub const RESTART_PAGES: i32 = 4 * CHECKPOINT_PAGES;
/// Log pages (32 MiB) after which the writer copies back even with requests waiting.
pub const LIMIT_PAGES: i32 = 2 * RESTART_PAGES;
/// How long the writer must have been quiet before the pages it left in the log are copied.
const SETTLE: Duration = Duration::from_millis(50);

/// What the checkpoint thread is told.
enum Order {
    /// The writer has committed: copy the log back if a checkpoint was asked for, and in any
    /// case watch for the writer to fall quiet.
    Wake,
    /// Finish the checkpoint under way (if any) and stop.
    Stop,
}

/// What the writer's WAL hook does after a commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Nothing: the log is copied often enough.
    Nothing,
    /// Ask the thread for a checkpoint.
    Ask,
    /// The log is long enough to start over: ask the thread for a last checkpoint, after which
    /// the writer copies back the rest.
    Restart,
    /// The log has started over.
    StartedOver,
}

/// When the writer asks for checkpoints, from the log's size after each of its commits.
#[derive(Debug)]
struct Cadence {
    /// The log's size at which the next checkpoint is asked for.
    next_ask: i32,
    /// The log's size after the previous commit: a smaller one means it started over.
    last: i32,
    /// Whether the log is to start over (it reached [`RESTART_PAGES`] and has not yet): then
    /// a checkpoint is asked for after every commit, so that what the writer copies back
    /// itself stays small however long it waits for a quiet moment.
    restarting: bool,
}

impl Cadence {
    fn new() -> Cadence {
        Cadence {
            next_ask: CHECKPOINT_PAGES,
            last: 0,
            restarting: false,
        }
    }

    /// The step after a commit that left `pages` pages in the log.
    fn after_commit(&mut self, pages: i32) -> Step {
        let last = std::mem::replace(&mut self.last, pages);
        if pages < last {
            self.next_ask = CHECKPOINT_PAGES;
            self.restarting = false;
            Step::StartedOver
        } else if self.restarting {
            Step::Ask
        } else if pages >= RESTART_PAGES {
            self.restarting = true;
            Step::Restart
        } else if pages >= self.next_ask {
            self.next_ask = pages + CHECKPOINT_PAGES;
            Step::Ask
        } else {
            Step::Nothing
        }
    }
}

/// What the writer (its WAL hook and its loop) and the checkpoint thread both see.
#[derive(Debug, Default)]
struct Shared {
    /// The writer's commits so far, counted by its WAL hook.
    commits: AtomicU64,
    /// The log's size after the writer's last commit.
    pages: AtomicI32,
    /// The commit count when the thread's last finished checkpoint began: everything
    /// committed before was copied back, but for pages a reader still used.
    copied_to: AtomicU64,
    /// Whether the writer has asked for a checkpoint the thread has not yet begun.
    asked: AtomicBool,
    /// Whether the thread waits for orders without watching the clock (everything committed
    /// was copied): the writer's next commit then wakes it, so that it copies that commit once
    /// the writer falls quiet.
    idle: AtomicBool,
    /// The commit count when the log reached [`RESTART_PAGES`]; 0 once it has started over.
    /// The writer copies back once the thread has copied what was committed before.
    restart_from: AtomicU64,
}

/// The checkpoint thread and the way to reach it.
#[derive(Debug)]
pub struct Checkpointer {
    orders: SyncSender<Order>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Opens a connection of its own on the database at `path` (already in WAL mode) and
    /// starts the thread.
    pub fn start(path: &Path) -> Result<Checkpointer, StorageError> {
        let conn = Connection::open(path)?;
        // FULL, like the writer: the database file is synced before the log may be reused.
        conn.pragma_update(None, "synchronous", "FULL")?;
        // One order waiting is enough: a checkpoint copies everything logged before it starts.
        let (orders, queue) = sync_channel(1);
        let shared = Arc::new(Shared::default());
        let seen = shared.clone();
        let thread = std::thread::Builder::new()
            .name("boardcast-checkpoint".into())
            .spawn(move || run(conn, queue, &seen))
            .map_err(StorageError::Thread)?;
        Ok(Checkpointer {
            orders,
            shared,
            thread: Some(thread),
        })
    }

    /// Makes `writer` leave its checkpoints to this thread, at the [`Cadence`]'s steps.
    pub fn watch(&self, writer: &mut Connection) -> Result<(), StorageError> {
        let orders = self.orders.clone();
        let shared = self.shared.clone();
        let mut cadence = Cadence::new();
        writer.wal_hook(Some(move |_: &mut rusqlite::hooks::Wal, pages: i32| {
            let commits = shared.commits.fetch_add(1, Ordering::SeqCst) + 1;
            shared.pages.store(pages, Ordering::Relaxed);
            let asks = match cadence.after_commit(pages) {
                Step::Nothing => false,
                Step::StartedOver => {
                    shared.restart_from.store(0, Ordering::Relaxed);
                    false
                }
                Step::Ask => true,
                Step::Restart => {
                    shared.restart_from.store(commits, Ordering::Relaxed);
                    true
                }
            };
            if asks {
                shared.asked.store(true, Ordering::SeqCst);
            }
            // An idle thread is woken by the first commit after its last copy, and whenever a
            // checkpoint is asked for.
            if shared.idle.swap(false, Ordering::SeqCst) || asks {
                match orders.try_send(Order::Wake) {
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

    /// Called by the writer after it has answered a group, `quiet` when no request waits:
    /// copies back what the thread has not if the log is to start over and the thread has
    /// copied everything logged until then (or the log is at its limit).
    pub fn copy_back_if_due(&self, writer: &Connection, quiet: bool) {
        let restart_from = self.shared.restart_from.load(Ordering::Relaxed);
        if restart_from == 0 {
            return;
        }
        let caught_up = self.shared.copied_to.load(Ordering::Relaxed) >= restart_from;
        let at_limit = self.shared.pages.load(Ordering::Relaxed) >= LIMIT_PAGES;
        if !(quiet && caught_up || at_limit) {
            return;
        }
        let started = Instant::now();
        // Until the hook sees the log start over, every group that ends in a quiet moment
        // tries again: the thread may have been copying (busy), or a reader may still have
        // used the last pages.
        match passive_checkpoint(writer) {
            Ok(Some(_)) => crate::telemetry::checkpointed(started.elapsed(), true),
            Ok(None) => {}
            Err(err) => tracing::warn!(%err, "WAL checkpoint by the writer failed"),
        }
    }

    /// Lets the checkpoint under way finish, then stops the thread and waits for it.
    pub fn stop(mut self) {
        let _ = self.orders.send(Order::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Runs a PASSIVE checkpoint, which never waits for a lock; returns whether it left pages
/// behind (a reader still used them), or `None` if it could not begin because another
/// checkpoint was under way.
fn passive_checkpoint(conn: &Connection) -> rusqlite::Result<Option<bool>> {
    // (busy, frames in the log, frames copied back)
    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
        let (busy, logged, copied): (i64, i64, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        Ok((busy == 0).then_some(copied < logged))
    })
}

fn run(conn: Connection, queue: Receiver<Order>, shared: &Shared) {
    // Whether the last checkpoint left pages behind (a reader still used them): they, and
    // whatever the writer committed since that checkpoint began, are copied once the writer
    // is quiet.
    let mut behind = false;
    // The commit count at the last look while waiting, to tell a quiet writer.
    let mut looked = None;
    let commits = || shared.commits.load(Ordering::SeqCst);
    let copied = |behind: bool| !behind && commits() == shared.copied_to.load(Ordering::SeqCst);
    loop {
        // Idle only if, after saying so, everything committed is still copied: a commit
        // either came before and is seen here, or its hook sees the thread idle and wakes it.
        let idle = copied(behind) && {
            shared.idle.store(true, Ordering::SeqCst);
            copied(behind) || !shared.idle.swap(false, Ordering::SeqCst)
        };
        let quiet = if idle {
            match queue.recv() {
                Ok(Order::Wake) => false,
                Ok(Order::Stop) | Err(_) => break,
            }
        } else {
            match queue.recv_timeout(SETTLE) {
                Ok(Order::Wake) => false,
                Ok(Order::Stop) | Err(RecvTimeoutError::Disconnected) => break,
                // Quiet when no commit came since the last look, a whole SETTLE ago.
                Err(RecvTimeoutError::Timeout) => {
                    let now = commits();
                    looked.replace(now) == Some(now)
                }
            }
        };
        if !(quiet || shared.asked.swap(false, Ordering::SeqCst)) {
            continue;
        }
        looked = None;
        let began_at = commits();
        let started = Instant::now();
        match passive_checkpoint(&conn) {
            Ok(Some(left_behind)) => {
                crate::telemetry::checkpointed(started.elapsed(), false);
                behind = left_behind;
            }
            Ok(None) => behind = true,
            Err(err) => {
                tracing::warn!(%err, "WAL checkpoint failed");
                behind = false;
            }
        }
        shared.copied_to.store(began_at, Ordering::Relaxed);
    }
    tracing::debug!("checkpoint thread stopped");
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::time::{Duration, Instant};

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
        let (storage, _) = Storage::open(db).unwrap();
        storage
            .commit(vec![Write::CreateMatch {
                id: "m".into(),
                invite: None,
                created_ms: 1,
                setup: "{}".into(),
                owner: None,
            }])
            .await
            .unwrap();
        storage
    }

    /// Everything committed is read back after a restart.
    async fn all_there(db: &Path, v: u64) {
        let (storage, recovered) = Storage::open(db).unwrap();
        assert_eq!(recovered.len(), 1);
        assert_eq!(recovered[0].events.len() as u64, v);
        storage.close().await;
    }

    #[test]
    fn a_checkpoint_is_asked_for_every_thousand_pages_then_after_every_commit_from_four_thousand() {
        use super::Step::{Ask, Nothing, Restart, StartedOver};
        let mut cadence = super::Cadence::new();
        let log_after_each_commit = [
            400, 999, 1000, 1500, 1999, 2100, 3099, 3100, 3999, 4000, 4010, 5200, 8100,
            // The log started over.
            30, 900, 1000, 1999, 2000,
        ];
        let steps = log_after_each_commit.map(|pages| cadence.after_commit(pages));
        #[rustfmt::skip]
        let expected = [
            Nothing, Nothing, Ask, Nothing, Nothing, Ask, Nothing, Ask, Nothing, Restart,
            // From the restart point, after every commit, until the log starts over.
            Ask, Ask, Ask,
            StartedOver, Nothing, Ask, Nothing, Ask,
        ];
        assert_eq!(steps, expected);
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
            // Copied back to the end once the file stops growing for a second (twenty quiet
            // looks in a row): the thread copies a quiet writer's last pages once it has been
            // quiet for SETTLE, which a busy machine may stretch well past it.
            let mut last = (0, 0);
            eventually(&format!("round {round} finished"), || {
                let now = size(&db);
                last = if now == last.0 {
                    (now, last.1 + 1)
                } else {
                    (now, 0)
                };
                last.1 >= 20
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
            frames < super::LIMIT_PAGES as u64 + super::CHECKPOINT_PAGES as u64,
            "the log grew to {frames} frames"
        );
        storage.close().await;
        all_there(&db, v).await;
    }
}
