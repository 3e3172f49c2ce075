//! What an outbox costs, counted by a global allocator: a connection that has been greeted
//! and pinged and has gone quiet keeps the channel's bookkeeping and no queue storage
//! (BENCHMARKS.md "Idle connections"), and a watcher sent one frame at a time reuses the
//! queue's small storage instead of allocating it for every delivery.
//!
//! Its own test binary, and each count is the test's own thread's (everything here runs on
//! it): what the test harness allocates beside it is not counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use axum::extract::ws::Message;
use boardcast_protocol::Encoding;
use boardcast_server::{Inbox, Outbox};

/// Counts the bytes this thread has allocated and not freed, and its allocations, then lets
/// the system allocator do the work.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// Allocations made (`realloc` counts as one).
    static MADE: Cell<usize> = const { Cell::new(0) };
}

fn count(bytes: isize, allocations: usize) {
    // `try_with`: a thread's last frees come after its locals are gone.
    let _ = LIVE.try_with(|live| live.set(live.get() + bytes));
    let _ = MADE.try_with(|made| made.set(made.get() + allocations));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize, 1);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize), 0);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize, 1);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize, 1);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.with(Cell::get)
}

fn made() -> usize {
    MADE.with(Cell::get)
}

const CONNECTIONS: usize = 1_000;
/// The server's default outbox (`--outbox`).
const CAPACITY: usize = 256;

/// Takes what is queued as the connection's writer (`write_loop`) does: the first frame, then
/// those behind it. How many.
fn take(inbox: &mut Inbox) -> usize {
    let first = inbox.rx.try_recv().expect("a frame queued");
    1 + inbox.rx.behind(&first).count()
}

/// The connection's regular ping.
fn ping() -> Message {
    Message::Ping(vec![0; 8].into())
}

#[test]
fn an_outbox_keeps_no_queue_storage_once_its_frames_are_taken() {
    // A welcome-sized frame, shared by every outbox as a broadcast is (its bytes, and the
    // shared header its first clone makes, are counted once, here, before the measurement).
    let frame = Message::Text("x".repeat(300).into());
    drop(frame.clone());

    let before = live();
    let mut outboxes: Vec<_> = (0..CONNECTIONS as u64)
        .map(|id| boardcast_server::outbox(id, Encoding::Json, CAPACITY))
        .collect();
    let empty = (live() - before) as f64 / CONNECTIONS as f64;

    // Greet and ping every connection as a new connection is, and let its writer take what
    // was queued. Half of them are pinged after their writer took the welcome alone.
    for (n, (outbox, inbox)) in outboxes.iter_mut().enumerate() {
        assert!(outbox.push(frame.clone()));
        if n % 2 == 0 {
            assert_eq!(take(inbox), 1);
        }
        assert!(outbox.push(ping()));
        assert!(take(inbox) >= 1);
        assert!(inbox.rx.try_recv().is_err(), "everything taken");
    }
    let idle = (live() - before) as f64 / CONNECTIONS as f64;

    // tokio's bounded `mpsc` held a block of 32 slots (about 1.5 KiB) per outbox, from the
    // start and for good.
    assert!(
        empty <= 512.0,
        "an outbox costs {empty:.0} bytes before its first frame"
    );
    assert!(
        idle <= empty + 8.0,
        "an outbox that sent its frames keeps {:.0} bytes of queue ({empty:.0} -> {idle:.0})",
        idle - empty
    );

    // Frames still queue up to the bound while the writer is away, and the queue is whole
    // again after the next take.
    let (outbox, inbox) = &mut outboxes[0];
    for _ in 0..CAPACITY {
        assert!(outbox.push(frame.clone()));
    }
    assert!(!outbox.push(frame.clone()), "the bound holds");
    assert_eq!(take(inbox), CAPACITY);
    drop(outboxes);
}

/// A reveal goes to every watcher one frame at a time: the queue keeps the storage its first
/// frame allocated, so a delivery allocates nothing (it allocated the storage again every time
/// when the writer took the queue whole, and flume's waiting hook besides). A burst that made
/// the queue grow, and the next ping, give the storage back.
#[test]
fn a_watcher_sent_one_frame_at_a_time_allocates_nothing_per_delivery() {
    let frame = Message::Text("x".repeat(137).into());
    // Its first clone gives the bytes a shared header, once: made before the counting starts.
    drop(frame.clone());
    let before = live();
    let mut watchers: Vec<_> = (0..CONNECTIONS as u64)
        .map(|id| boardcast_server::outbox(id, Encoding::Json, CAPACITY))
        .collect();
    let empty = live() - before;
    let deliver = |frames: usize, watchers: &mut [(Outbox, Inbox)]| {
        for (outbox, inbox) in watchers {
            for _ in 0..frames {
                assert!(outbox.push(frame.clone()));
            }
            assert_eq!(take(inbox), frames);
        }
    };
    deliver(1, &mut watchers);
    let kept = live() - before - empty;
    assert!(kept > 0, "each queue keeps its storage while it is used");

    let made_before = made();
    for _ in 0..10 {
        deliver(1, &mut watchers);
    }
    let per_delivery = (made() - made_before) as f64 / (10 * CONNECTIONS) as f64;
    assert!(
        per_delivery < 0.01,
        "{per_delivery:.2} allocations per delivery"
    );
    assert_eq!(live() - before - empty, kept, "and no more than it kept");

    // A burst grows the queue, which gives the storage back after it.
    deliver(20, &mut watchers);
    assert_eq!(live() - before, empty, "no storage kept after a burst");

    // A watcher that went quiet keeps none after the connection's next ping.
    deliver(1, &mut watchers);
    for (outbox, inbox) in watchers.iter_mut() {
        assert!(outbox.push(ping()));
        assert_eq!(take(inbox), 1);
    }
    assert_eq!(live() - before, empty, "no storage kept after a ping");
    drop(watchers);
}
