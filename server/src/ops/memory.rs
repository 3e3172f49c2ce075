//! Gives the memory of matches that left back to the operating system, and shows the heap on
//! `/metrics`.
//!
//! glibc's `malloc` keeps freed pages in its arenas for reuse: after a busy hour the server's
//! resident memory stays at its peak although the finished matches are long gone (measured in
//! BENCHMARKS.md: 576 MiB held after 10,000 matches had left memory). `malloc_trim(0)` returns
//! every free page of every arena. It walks the heaps, so it runs off the runtime, and only when
//! the number of matches in memory has fallen since the last look.
//!
//! What stays resident after that is told apart by three gauges, read at every look: the bytes
//! the program holds (`boardcast_heap_in_use_bytes`), the free bytes glibc keeps in its arenas
//! and could not return (`boardcast_heap_free_bytes`: free chunks smaller than a page, or
//! below a chunk still in use), and SQLite's own heap, its page caches
//! (`boardcast_sqlite_heap_bytes`).

use std::time::Duration;

use crate::ops::shutdown::Shutdown;

/// How often the count of matches in memory is looked at.
const LOOK_EVERY: Duration = Duration::from_secs(10);

/// Trims the allocator whenever matches have left memory since the last look, until shutdown.
/// `in_memory` counts the matches in memory (the caller's directory knows them; this floor
/// does not).
pub(crate) async fn give_back(in_memory: impl Fn() -> usize, mut shutdown: Shutdown) {
    describe();
    let mut last = in_memory();
    let mut every = tokio::time::interval(LOOK_EVERY);
    loop {
        tokio::select! {
            _ = shutdown.recv() => break,
            _ = every.tick() => {}
        }
        let now = in_memory();
        if now < last {
            let _ = tokio::task::spawn_blocking(trim).await;
        }
        last = now;
        report();
    }
}

const HEAP_IN_USE: &str = "boardcast_heap_in_use_bytes";
const HEAP_FREE: &str = "boardcast_heap_free_bytes";
const SQLITE_HEAP: &str = "boardcast_sqlite_heap_bytes";

fn describe() {
    use metrics::{Unit, describe_gauge};
    describe_gauge!(
        HEAP_IN_USE,
        Unit::Bytes,
        "Heap bytes the server holds, as glibc counts them (SQLite's included)."
    );
    describe_gauge!(
        HEAP_FREE,
        Unit::Bytes,
        "Free heap bytes glibc keeps in its arenas after the last trim."
    );
    describe_gauge!(
        SQLITE_HEAP,
        Unit::Bytes,
        "SQLite's own heap: its page caches and statements."
    );
}

/// Sets the heap gauges from glibc's and SQLite's counters.
fn report() {
    // SAFETY: only reads SQLite's counter.
    let sqlite = unsafe { rusqlite::ffi::sqlite3_memory_used() };
    metrics::gauge!(SQLITE_HEAP).set(sqlite as f64);
    if let Some((in_use, free)) = heap() {
        metrics::gauge!(HEAP_IN_USE).set(in_use as f64);
        metrics::gauge!(HEAP_FREE).set(free as f64);
    }
}

/// Bytes in use and bytes free in glibc's arenas.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn heap() -> Option<(usize, usize)> {
    // SAFETY: mallinfo2 only reads the allocator's counters (every arena's).
    let info = unsafe { libc::mallinfo2() };
    Some((info.uordblks + info.hblkhd, info.fordblks))
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn heap() -> Option<(usize, usize)> {
    None
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn trim() {
    // SAFETY: malloc_trim only walks and releases the allocator's own free pages.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}
