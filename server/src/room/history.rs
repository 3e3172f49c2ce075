//! A room's recent events, versioned and gap-free: the one place that decides whether an
//! event follows the last one, and what a follower that comes back after version `seen`
//! missed (lila-ws' `History`). A match, a channel and a proxy of a match another node owns
//! all keep their replay here.
//!
//! The invariant: the events held are consecutive versions ending at [`History::last_v`].
//! An event no newer than the last is old news and refused; one that skips versions makes
//! the history forget what it held, so nobody is ever handed events with a hole between
//! them: a follower from before the hole gets a snapshot instead.

use std::collections::VecDeque;

/// The last `capacity` events of a room, kept as a `K` each, oldest first.
#[derive(Debug)]
pub(crate) struct History<K> {
    /// The events held, oldest first. Their versions are consecutive and end at `last`, so
    /// each one's follows from its place and is not kept beside it (a match's twenty kept
    /// moves are 32 bytes each; their versions would add a quarter).
    recent: VecDeque<K>,
    capacity: usize,
    /// The newest version this room has had (held or not); `None` before the first.
    last: Option<u64>,
}

impl<K> History<K> {
    /// An empty history of at most `capacity` events.
    pub(crate) fn new(capacity: usize) -> Self {
        History {
            recent: VecDeque::with_capacity(capacity.clamp(1, 1024)),
            capacity: capacity.max(1),
            last: None,
        }
    }

    /// The newest version this room has had.
    pub(crate) fn last_v(&self) -> Option<u64> {
        self.last
    }

    /// Whether event `v` would follow the last one without a gap (any event does first).
    pub(crate) fn is_next(&self, v: u64) -> bool {
        self.last.is_none_or(|last| v == last + 1)
    }

    /// Keeps `kept` as event `v`; `false` (and nothing kept) if `v` is no newer than the
    /// last. An event after a gap is kept alone: what came before the gap is forgotten.
    pub(crate) fn push(&mut self, v: u64, kept: K) -> bool {
        if self.last.is_some_and(|last| v <= last) {
            return false;
        }
        if !self.is_next(v) {
            self.recent.clear();
        }
        if self.recent.len() == self.capacity {
            self.recent.pop_front();
        }
        self.recent.push_back(kept);
        self.last = Some(v);
        true
    }

    /// Forgets every event held: the room is at version `v` now, and what came before is
    /// not to be replayed (a snapshot replaced it).
    pub(crate) fn restart_at(&mut self, v: u64) {
        self.recent.clear();
        self.last = Some(v);
    }
}

impl<K: Clone> History<K> {
    /// The events after version `seen`, in order (none if `seen` is the last); `None` if some
    /// of them are no longer (or were never) held.
    pub(crate) fn after(&self, seen: u64) -> Option<Vec<(u64, K)>> {
        let last = self.last?;
        if seen >= last {
            return Some(Vec::new());
        }
        let oldest = last + 1 - self.recent.len() as u64;
        if self.recent.is_empty() || oldest > seen + 1 {
            return None;
        }
        Some(
            self.recent
                .iter()
                .enumerate()
                .skip((seen + 1 - oldest) as usize)
                .map(|(i, kept)| (oldest + i as u64, kept.clone()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_news_is_refused_and_a_gap_forgets_what_came_before_it() {
        let mut history = History::new(3);
        assert!(history.is_next(7), "anything may come first");
        for v in 1..=4 {
            assert!(history.push(v, v));
        }
        assert_eq!(history.after(1), Some(vec![(2, 2), (3, 3), (4, 4)]));
        assert_eq!(history.after(0), None, "event 1 fell out of the buffer");
        assert_eq!(history.after(4), Some(vec![]));
        assert!(!history.push(4, 40), "old news");
        assert!(!history.is_next(6));
        assert!(history.push(6, 6));
        assert_eq!(history.last_v(), Some(6));
        assert_eq!(history.after(5), Some(vec![(6, 6)]));
        assert_eq!(history.after(3), None, "nothing is replayed across the gap");
        history.restart_at(9);
        assert_eq!(history.after(6), None);
        assert_eq!(history.after(9), Some(vec![]));
        assert!(history.is_next(10));
    }
}
