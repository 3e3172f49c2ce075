//! A node's heartbeat: the time it was last alive, stored every [`EVERY`].
//!
//! After a crash nothing else says when the server stopped, and a clock restored at the
//! restart would refund all the thinking the side to move had done before it (PROTOCOL.md
//! §12: a player is not refunded time in which a move could have been accepted). The last
//! heartbeat bounds the crash from below, so a restored clock is charged up to it: at most
//! one interval of thinking is refunded. A cluster reads none back (a node's lease renewals
//! in PostgreSQL say the same), but every node beats: a refused beat is how a node whose
//! matches write nothing learns within one interval that storage is down
//! ([`crate::storage::Storage::down_since`]), so their clocks are held from then, and a
//! taken one that it is back.

use std::time::Duration;

use crate::ops::shutdown::Shutdown;
use crate::storage::{Storage, Write, now_ms};

/// How often the heartbeat is stored: the most thinking a crash refunds. One small upsert a
/// second, grouped with whatever else the writer commits.
pub(crate) const EVERY: Duration = Duration::from_secs(1);

/// Stores a heartbeat every [`EVERY`] until shutdown. A refused one marks storage down
/// (the matches hold their clocks) and is simply the next one's to make.
pub(crate) async fn beat(storage: Storage, mut shutdown: Shutdown) {
    let mut every = tokio::time::interval(EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.recv() => break,
            _ = every.tick() => {
                let _ = storage.commit(vec![Write::Heartbeat { at_ms: now_ms() }]).await;
            }
        }
    }
}
