//! "Last seen" on a profile: written when a member connects and when they play, at most once
//! a [`minute`](EVERY) per account and node, off the connection's path (a spawned write), so a
//! member's moves never wait on it and a busy member costs one write a minute.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::ops::lock;
use crate::storage::accounts::AccountStore;
use crate::storage::now_ms;

/// An account's last use is written at most this often.
pub(crate) const EVERY: Duration = Duration::from_secs(60);
/// Accounts remembered at most; past that the ones written over [`EVERY`] ago are forgotten
/// (their next use writes again, as it would anyway).
const MAX_ACCOUNTS: usize = 100_000;

/// When each account's last use was last written from this node. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Seen {
    written: Arc<Mutex<HashMap<i64, Instant>>>,
}

impl Seen {
    /// Whether `account`, used at `now`, is due a write; if so it counts as written.
    fn due(&self, account: i64, now: Instant) -> bool {
        let mut written = lock(&self.written);
        if written
            .get(&account)
            .is_some_and(|&at| now.saturating_duration_since(at) < EVERY)
        {
            return false;
        }
        if written.len() >= MAX_ACCOUNTS {
            written.retain(|_, at| now.saturating_duration_since(*at) < EVERY);
        }
        if written.len() < MAX_ACCOUNTS {
            written.insert(account, now);
        }
        true
    }

    /// `account` was used now: its last use is written unless it was within [`EVERY`].
    pub(crate) fn used(&self, store: &Arc<dyn AccountStore>, account: i64) {
        if !self.due(account, Instant::now()) {
            return;
        }
        let store = store.clone();
        tokio::spawn(async move {
            if let Err(err) = store.touch_account(account, now_ms()).await {
                tracing::warn!(%err, "cannot write a member's last use");
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_is_written_at_most_once_a_minute() {
        let seen = Seen::default();
        let start = Instant::now();
        assert!(seen.due(1, start));
        assert!(!seen.due(1, start + Duration::from_secs(59)));
        assert!(seen.due(2, start + Duration::from_secs(59)), "per account");
        assert!(seen.due(1, start + EVERY));
        assert!(!seen.due(1, start + EVERY + Duration::from_secs(1)));
    }
}
