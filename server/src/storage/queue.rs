//! The queue in front of every backend's single writer, and how a writer takes a group off it.
//!
//! Callers wait for room when the queue is full (it is bounded), then for their answer, which
//! the writer sends only after the group holding their request is committed.
//!
//! A backend may also queue work of its own kind `J` (SQLite: the accounts' statements), so
//! that one connection writes its file: a second writer would make the first wait on the
//! file's lock, and SQLite waits by sleeping, up to tens of milliseconds a time.

use std::convert::Infallible;
use std::time::Instant;

use tokio::sync::{mpsc, oneshot};

use super::{StorageError, Write};

/// How many requests may wait for the writer before callers wait for room.
pub(super) const QUEUE: usize = 4096;
/// The most requests grouped into one transaction.
pub(super) const MAX_GROUP: usize = 512;

/// What a writer is asked to do.
#[derive(Debug)]
pub(super) enum Request<J = Infallible> {
    Commit {
        writes: Vec<Write>,
        done: oneshot::Sender<Result<(), StorageError>>,
        /// When it was put in the queue: how long it waited for the writer is measured.
        queued: Instant,
    },
    /// Work of the backend's own kind, run in the next group and answered by itself.
    Run { job: J, queued: Instant },
    /// Commit everything before this, stop.
    Close { done: oneshot::Sender<()> },
}

/// A commit request waiting in a group.
#[derive(Debug)]
pub(super) struct Pending {
    pub writes: Vec<Write>,
    pub done: oneshot::Sender<Result<(), StorageError>>,
}

/// A new queue to a writer.
pub(super) fn channel<J>() -> (mpsc::Sender<Request<J>>, mpsc::Receiver<Request<J>>) {
    mpsc::channel(QUEUE)
}

/// Puts `first` and whatever else is already waiting (up to [`MAX_GROUP`]) into `group` (the
/// backend's own work into `jobs`), and records how long each waited in the queue (the group's
/// transaction starts right after). Returns the answer to a close request if one came: nothing
/// after it is taken.
pub(super) fn gather<J>(
    first: Request<J>,
    rx: &mut mpsc::Receiver<Request<J>>,
    group: &mut Vec<Pending>,
    jobs: &mut Vec<J>,
) -> Option<oneshot::Sender<()>> {
    let mut next = Some(first);
    let now = Instant::now();
    while let Some(request) = next.take() {
        match request {
            Request::Commit {
                writes,
                done,
                queued,
            } => {
                crate::ops::telemetry::queued(now.saturating_duration_since(queued));
                group.push(Pending { writes, done });
            }
            Request::Run { job, queued } => {
                crate::ops::telemetry::queued(now.saturating_duration_since(queued));
                jobs.push(job);
            }
            Request::Close { done } => return Some(done),
        }
        if group.len() + jobs.len() < MAX_GROUP {
            next = rx.try_recv().ok();
        }
    }
    None
}

/// Sends `writes` to the writer and waits for its answer.
pub(super) async fn commit<J>(
    tx: &mpsc::Sender<Request<J>>,
    writes: Vec<Write>,
) -> Result<(), StorageError> {
    let (done, answer) = oneshot::channel();
    let queued = Instant::now();
    tx.send(Request::Commit {
        writes,
        done,
        queued,
    })
    .await
    .map_err(|_| StorageError::Closed)?;
    answer.await.map_err(|_| StorageError::Closed)?
}

/// Asks the writer to commit what it has and stop; waits until it has.
pub(super) async fn close<J>(tx: &mpsc::Sender<Request<J>>) {
    let (done, finished) = oneshot::channel();
    if tx.send(Request::Close { done }).await.is_ok() {
        let _ = finished.await;
    }
}
