//! Gives the memory of matches that left back to the operating system.
//!
//! glibc's `malloc` keeps freed pages in its arenas for reuse: after a busy hour the server's
//! resident memory stays at its peak although the finished matches are long gone (measured in
//! BENCHMARKS.md: 576 MiB held after 10,000 matches had left memory). `malloc_trim(0)` returns
//! every free page of every arena. It walks the heaps, so it runs off the runtime, and only when
//! the number of matches in memory has fallen since the last look.

use std::time::Duration;

use crate::hub::Hub;
use crate::shutdown::Shutdown;

/// How often the count of matches in memory is looked at.
const LOOK_EVERY: Duration = Duration::from_secs(10);

/// Trims the allocator whenever matches have left memory since the last look, until shutdown.
pub async fn give_back(hub: Hub, mut shutdown: Shutdown) {
    let mut last = in_memory(&hub);
    let mut every = tokio::time::interval(LOOK_EVERY);
    loop {
        tokio::select! {
            _ = shutdown.recv() => break,
            _ = every.tick() => {}
        }
        let now = in_memory(&hub);
        if now < last {
            let _ = tokio::task::spawn_blocking(trim).await;
        }
        last = now;
    }
}

fn in_memory(hub: &Hub) -> usize {
    hub.count_by_phase().iter().map(|(_, count)| count).sum()
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
