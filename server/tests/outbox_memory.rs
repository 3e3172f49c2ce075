//! What an idle connection's outbox costs, counted by a global allocator: the queue holds
//! storage only while frames wait in it, so a connection that has been greeted and gone quiet
//! keeps the channel's bookkeeping and nothing more (BENCHMARKS.md "Idle connections").
//!
//! Its own test binary: the counting allocator sees every allocation of the process, so
//! nothing else may run beside it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use axum::extract::ws::Message;
use boardcast_protocol::Encoding;

/// Counts the bytes currently allocated, then lets the system allocator do the work.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

const CONNECTIONS: usize = 1_000;
/// The server's default outbox (`--outbox`).
const CAPACITY: usize = 256;

#[test]
fn an_outbox_keeps_no_queue_storage_once_its_frames_are_taken() {
    // A welcome-sized frame, shared by every outbox as a broadcast is (its bytes are counted
    // once, here, before the measurement starts).
    let frame = Message::Text("x".repeat(300).into());

    let before = live();
    let outboxes: Vec<_> = (0..CONNECTIONS as u64)
        .map(|id| boardcast_server::outbox(id, Encoding::Json, CAPACITY))
        .collect();
    let empty = (live() - before) as f64 / CONNECTIONS as f64;

    // Greet every connection and let its writer take what was queued, as `write_loop` does.
    for (outbox, inbox) in &outboxes {
        assert!(outbox.push(frame.clone()));
        assert!(outbox.push(frame.clone()));
        let taken: Vec<Message> = inbox.rx.drain().collect();
        assert_eq!(taken.len(), 2, "both frames, in one take");
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
    let (outbox, inbox) = &outboxes[0];
    for _ in 0..CAPACITY {
        assert!(outbox.push(frame.clone()));
    }
    assert!(!outbox.push(frame.clone()), "the bound holds");
    assert_eq!(inbox.rx.drain().count(), CAPACITY);
    drop(outboxes);
}
