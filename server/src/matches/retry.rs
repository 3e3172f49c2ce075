//! What a match does while storage refuses a write it owes by itself (a flag that fell, a
//! first move missed, an abandoned match), and how loud it is about it.
//!
//! Nobody re-sends such a write: the actor must try again. Trying again at once is a hot loop
//! while PostgreSQL is down (the flag is still down, the timer fires again at once): it
//! flooded the log with an ERROR line per attempt, 121,000 a second for one match (issue 28,
//! item 4). So a match tries again after a back-off that doubles from [`MIN_RETRY`] to
//! [`MAX_RETRY`], as the storage writer's reconnect does, and a failure that repeats is logged
//! once per [`LOG_EVERY`] with how many there were ([`Repeats`]). Refused player commands are
//! answered (the client re-sends them); they are logged the same way, at warn, across every
//! match of the node.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// The first pause before trying an owed write again.
pub(crate) const MIN_RETRY: Duration = Duration::from_millis(100);

/// The longest pause between two tries: the storage writer's longest reconnect back-off, so
/// the write goes through within one of those after PostgreSQL is back.
pub(crate) const MAX_RETRY: Duration = Duration::from_secs(5);

/// At most one log line per this long for one kind of repeated failure.
pub(crate) const LOG_EVERY: Duration = Duration::from_secs(10);

/// Counts a failure that repeats and says when to log it: the first at once, then at most one
/// line per [`LOG_EVERY`], carrying how many failures that line stands for.
#[derive(Debug, Default)]
pub(crate) struct Repeats {
    last_logged: Option<Instant>,
    unlogged: u64,
}

impl Repeats {
    pub(crate) const fn new() -> Repeats {
        Repeats {
            last_logged: None,
            unlogged: 0,
        }
    }

    /// Counts one failure at `now`; `Some(n)` when a line is due, standing for `n` failures
    /// (this one and those not logged since the last line).
    pub(crate) fn count(&mut self, now: Instant) -> Option<u64> {
        self.unlogged += 1;
        let due = self
            .last_logged
            .is_none_or(|last| now.duration_since(last) >= LOG_EVERY);
        if !due {
            return None;
        }
        self.last_logged = Some(now);
        Some(std::mem::take(&mut self.unlogged))
    }

    /// The failures stopped: the next one is logged at once again.
    #[cfg(test)]
    pub(crate) fn reset(&mut self) {
        *self = Repeats::new();
    }
}

/// An owed write that storage refused: when to try again, and what to log.
#[derive(Debug)]
pub(crate) struct Retry {
    backoff: Duration,
    not_before: Option<Instant>,
    repeats: Repeats,
}

impl Default for Retry {
    fn default() -> Retry {
        Retry {
            backoff: MIN_RETRY,
            not_before: None,
            repeats: Repeats::new(),
        }
    }
}

/// What to say about a failed try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Failed {
    /// The next try waits this long.
    pub retry_in: Duration,
    /// `Some(n)`: log now, a line for `n` failures; `None`: stay quiet.
    pub log: Option<u64>,
}

impl Retry {
    /// A try failed at `now`: the next waits twice as long as the last (up to [`MAX_RETRY`]).
    pub(crate) fn failed(&mut self, now: Instant) -> Failed {
        let retry_in = self.backoff;
        self.not_before = Some(now + retry_in);
        self.backoff = (self.backoff * 2).min(MAX_RETRY);
        Failed {
            retry_in,
            log: self.repeats.count(now),
        }
    }

    /// A try went through; `true` if it had failed before (worth a line that it recovered).
    pub(crate) fn succeeded(&mut self) -> bool {
        let was_failing = self.not_before.is_some();
        *self = Retry::default();
        was_failing
    }

    /// When a timer may try the write again: `due`, or later while backing off.
    pub(crate) fn due(&self, due: Instant) -> Instant {
        self.not_before
            .map_or(due, |not_before| due.max(not_before))
    }
}

/// Player commands storage refused, across every match of this node: a PostgreSQL outage
/// refuses every move of every match, and each is answered; the log gets a line per
/// [`LOG_EVERY`].
static REFUSED_COMMANDS: Mutex<Repeats> = Mutex::new(Repeats::new());

/// Counts a command storage refused; `Some(n)` when a line for `n` of them is due.
pub(crate) fn command_refused(now: Instant) -> Option<u64> {
    REFUSED_COMMANDS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .count(now)
}

#[cfg(test)]
mod tests;
