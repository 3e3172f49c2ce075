//! The outbox scenario (issue 35): what one delivery costs in the outbox, without a server or
//! a socket. Each round pushes one frame, shared as a reveal is, into `--watchers` outboxes, and
//! every connection's writer takes it the way the server's `write_loop` does (the kick looked
//! at first, then the frame, then whatever queued behind it); the socket write is left out, as
//! it is the same whatever the queue.
//!
//! `--queue flume` is the server's own outbox (`boardcast_server::outbox`: flume's bounded
//! channel, waited on through the outbox's one waker and taken as `Frames::behind` takes it);
//! `--queue mpsc` is the queue it replaced in `2c73db7`, tokio's bounded `mpsc`, with the same
//! kick and writer. One thread (a current-thread runtime), so a count is the same on a busy
//! machine as on a quiet one. Time on the shared box is noise, so the figures are taken with
//! valgrind: instructions with callgrind, allocations with heaptrack, each run twice with
//! different `--rounds` so that setting up cancels out (BENCHMARKS.md, "What the flume outbox
//! costs a fan-out").

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::Poll;
use std::time::Instant;

use axum::extract::ws::Message;
use boardcast_protocol::Encoding;
use futures_util::task::AtomicWaker;

use crate::Error;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum QueueKind {
    /// The server's outbox: flume's bounded channel.
    Flume,
    /// tokio's bounded `mpsc`, the outbox before `2c73db7`.
    Mpsc,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(long, value_enum, default_value = "flume")]
    pub queue: QueueKind,
    /// Connections, each with its outbox and writer.
    #[arg(long, default_value_t = 1000)]
    pub watchers: usize,
    /// Rounds: one frame (or `--frames`) to every watcher each.
    #[arg(long, default_value_t = 100)]
    pub rounds: usize,
    /// Frames pushed per round before the writers run (1: writers keep up; more: a writer
    /// that fell behind takes several at once).
    #[arg(long, default_value_t = 1)]
    pub frames: usize,
}

/// The server's default outbox (`--outbox`).
const CAPACITY: usize = 256;

pub async fn run(args: Args) -> Result<(), Error> {
    let Args {
        queue,
        watchers,
        rounds,
        frames,
    } = args;
    tokio::task::spawn_blocking(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().build()?;
        let taken = Arc::new(AtomicUsize::new(0));
        let started = Instant::now();
        match queue {
            QueueKind::Flume => {
                let queues: Vec<_> = (0..watchers)
                    .map(|_| flume_writer(&runtime, taken.clone()))
                    .collect();
                rounds_of(&runtime, &queues, |outbox, message| outbox.push(message), &taken, rounds, frames);
            }
            QueueKind::Mpsc => {
                let queues: Vec<_> = (0..watchers)
                    .map(|_| mpsc_writer(&runtime, taken.clone()))
                    .collect();
                rounds_of(&runtime, &queues, MpscOutbox::push, &taken, rounds, frames);
            }
        }
        let deliveries = watchers * rounds * frames;
        println!(
            "outbox  : {queue:?}, {watchers} watchers, {rounds} rounds of {frames} frame(s): {deliveries} deliveries in {:.3} s",
            started.elapsed().as_secs_f64()
        );
        Ok::<_, Error>(())
    })
    .await?
}

/// Every writer waits for its first frame, as an idle connection's does; then `rounds` rounds.
fn rounds_of<Q>(
    runtime: &tokio::runtime::Runtime,
    queues: &[Q],
    push: impl Fn(&Q, Message) -> bool + Copy,
    taken: &AtomicUsize,
    rounds: usize,
    frames: usize,
) {
    // About the mean size of a `ply_revealed` (BENCHMARKS.md, fan-out), shared by every outbox.
    let frame = Message::Text("x".repeat(137).into());
    deliver(runtime, queues, push, &frame, 1, taken);
    for _ in 0..rounds {
        deliver(runtime, queues, push, &frame, frames, taken);
    }
}

/// One round: `frames` frames into every queue, then every writer run until it took them (on a
/// current-thread runtime the writers run inside this call).
#[inline(never)]
fn deliver<Q>(
    runtime: &tokio::runtime::Runtime,
    queues: &[Q],
    push: impl Fn(&Q, Message) -> bool,
    frame: &Message,
    frames: usize,
    taken: &AtomicUsize,
) {
    let target = taken.load(Ordering::Relaxed) + queues.len() * frames;
    runtime.block_on(async {
        for _ in 0..frames {
            for queue in queues {
                assert!(push(queue, frame.clone()), "an outbox refused a frame");
            }
        }
        while taken.load(Ordering::Relaxed) < target {
            tokio::task::yield_now().await;
        }
    });
}

/// The server's outbox and a writer that takes frames from it as `write_loop` does.
fn flume_writer(
    runtime: &tokio::runtime::Runtime,
    taken: Arc<AtomicUsize>,
) -> boardcast_server::Outbox {
    let (outbox, inbox) = boardcast_server::outbox(0, Encoding::Json, CAPACITY);
    runtime.spawn(async move {
        let boardcast_server::Inbox { rx } = inbox;
        let kick = rx.kick();
        loop {
            let first = std::future::poll_fn(|cx| {
                let next = rx.poll_recv(cx);
                if kick.is_raised() {
                    Poll::Ready(None)
                } else {
                    next
                }
            })
            .await;
            let Some(first) = first else { return };
            let mut written = 1;
            for message in rx.behind(&first) {
                drop(message);
                written += 1;
            }
            drop(first);
            taken.fetch_add(written, Ordering::Relaxed);
        }
    });
    outbox
}

/// tokio's bounded `mpsc` with the outbox's kick, and a writer that takes frames as the
/// server's did before `2c73db7`.
fn mpsc_writer(runtime: &tokio::runtime::Runtime, taken: Arc<AtomicUsize>) -> MpscOutbox {
    let (tx, mut rx) = tokio::sync::mpsc::channel(CAPACITY);
    let kick = Arc::new(Kick::default());
    let outbox = MpscOutbox {
        tx,
        kick: kick.clone(),
    };
    runtime.spawn(async move {
        loop {
            let first = tokio::select! {
                biased;
                () = kick.raised() => return,
                message = rx.recv() => match message {
                    Some(message) => message,
                    None => return,
                },
            };
            let mut written = 1;
            drop(first);
            while let Ok(message) = rx.try_recv() {
                drop(message);
                written += 1;
            }
            taken.fetch_add(written, Ordering::Relaxed);
        }
    });
    outbox
}

struct MpscOutbox {
    tx: tokio::sync::mpsc::Sender<Message>,
    kick: Arc<Kick>,
}

impl MpscOutbox {
    fn push(&self, message: Message) -> bool {
        match self.tx.try_send(message) {
            Ok(()) => true,
            Err(tokio::sync::mpsc::error::TrySendError::Full(_)) => {
                self.kick.raise();
                false
            }
            Err(tokio::sync::mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// The outbox's kick as `room::outbox::Kick` has it, for the `mpsc` queue.
#[derive(Default)]
struct Kick {
    kicked: AtomicBool,
    writer: AtomicWaker,
}

impl Kick {
    fn raise(&self) {
        self.kicked.store(true, Ordering::Release);
        self.writer.wake();
    }

    fn raised(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(|cx| {
            if self.kicked.load(Ordering::Acquire) {
                return Poll::Ready(());
            }
            self.writer.register(cx.waker());
            if self.kicked.load(Ordering::Acquire) {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
    }
}
