//! A channel's watchers and its recent events.
//!
//! Every event is wrapped once in a [`Shared`] message: it is encoded at most once per
//! encoding and the same bytes go to every watcher. Sending never waits: a watcher whose
//! bounded queue is full is dropped (its connection is kicked) and the others carry on. The
//! last events stay in a bounded replay buffer so a watcher that reconnects with `since_v`
//! gets exactly what it missed.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use boardcast_protocol::ServerMessage;

use crate::outbox::{ConnId, Outbox, Shared};

/// The watchers of one channel and its replay buffer.
#[derive(Debug)]
pub struct Fanout {
    watchers: HashMap<ConnId, Outbox>,
    /// `(v, event)`, oldest first, gap-free.
    recent: VecDeque<(u64, Arc<Shared>)>,
    capacity: usize,
}

/// What a watcher asking for events after `since_v` needs.
#[derive(Debug)]
pub enum Catchup {
    /// These events, in order (possibly none: the watcher is up to date).
    Events(Vec<Arc<Shared>>),
    /// The events are no longer (or never were) in the buffer: send a snapshot.
    Snapshot,
}

impl Fanout {
    /// A fan-out keeping the last `capacity` events for replay.
    pub fn new(capacity: usize) -> Self {
        Fanout {
            watchers: HashMap::new(),
            recent: VecDeque::with_capacity(capacity.min(1024)),
            capacity: capacity.max(1),
        }
    }

    pub fn len(&self) -> usize {
        self.watchers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.watchers.is_empty()
    }

    /// Adds (or re-adds) a watcher; `true` if it was not watching before.
    pub fn add(&mut self, outbox: Outbox) -> bool {
        self.watchers.insert(outbox.id(), outbox).is_none()
    }

    /// Removes a watcher; `true` if it was watching.
    pub fn remove(&mut self, conn: ConnId) -> bool {
        self.watchers.remove(&conn).is_some()
    }

    /// Drops watchers whose connection has gone; `true` if any was dropped.
    pub fn prune_closed(&mut self) -> bool {
        let before = self.watchers.len();
        self.watchers.retain(|_, outbox| !outbox.is_closed());
        self.watchers.len() != before
    }

    /// Records event `v` for replay and sends it to every watcher. Returns how many watchers
    /// were dropped because they could not take it.
    pub fn publish(&mut self, v: u64, message: ServerMessage) -> usize {
        let shared = Arc::new(Shared::new(message));
        if self.recent.len() == self.capacity {
            self.recent.pop_front();
        }
        self.recent.push_back((v, shared.clone()));
        self.send_all(&shared)
    }

    /// Sends an unversioned message (a crowd count) to every watcher; returns how many were
    /// dropped.
    pub fn broadcast(&mut self, message: ServerMessage) -> usize {
        self.send_all(&Shared::new(message))
    }

    fn send_all(&mut self, shared: &Shared) -> usize {
        let before = self.watchers.len();
        self.watchers.retain(|_, outbox| outbox.send_shared(shared));
        before - self.watchers.len()
    }

    /// The events after `since_v` when the current version is `v`.
    pub fn catchup(&self, since_v: u64, v: u64) -> Catchup {
        if since_v == v {
            return Catchup::Events(Vec::new());
        }
        if since_v > v {
            return Catchup::Snapshot;
        }
        match self.recent.front() {
            Some(&(oldest, _)) if oldest <= since_v + 1 => Catchup::Events(
                self.recent
                    .iter()
                    .filter(|(ev, _)| *ev > since_v)
                    .map(|(_, shared)| shared.clone())
                    .collect(),
            ),
            _ => Catchup::Snapshot,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::outbox;
    use boardcast_protocol::{Encoding, Pong};

    fn pong(nonce: u64) -> ServerMessage {
        ServerMessage::Pong(Pong { nonce })
    }

    #[test]
    fn a_full_watcher_is_dropped_and_the_others_keep_getting_shared_bytes() {
        let mut fanout = Fanout::new(4);
        let (fast_a, mut fast_a_in) = outbox(1, Encoding::Json, 16);
        let (fast_b, mut fast_b_in) = outbox(2, Encoding::Json, 16);
        let (slow, _slow_in) = outbox(3, Encoding::Postcard, 1);
        assert!(fanout.add(fast_a));
        assert!(fanout.add(fast_b));
        assert!(fanout.add(slow));
        assert_eq!(fanout.publish(1, pong(1)), 0);
        assert_eq!(fanout.publish(2, pong(2)), 1, "the slow watcher is full");
        assert_eq!(fanout.len(), 2);
        for _ in 0..2 {
            let a = fast_a_in.rx.try_recv().unwrap();
            let b = fast_b_in.rx.try_recv().unwrap();
            match (a, b) {
                (axum::extract::ws::Message::Text(a), axum::extract::ws::Message::Text(b)) => {
                    assert_eq!(a.as_str().as_ptr(), b.as_str().as_ptr(), "bytes are shared")
                }
                other => panic!("expected text frames: {other:?}"),
            }
        }
    }

    #[test]
    fn catchup_replays_what_is_buffered_and_asks_for_a_snapshot_otherwise() {
        let mut fanout = Fanout::new(3);
        for v in 1..=5 {
            fanout.publish(v, pong(v));
        }
        // Buffer holds 3, 4, 5.
        assert!(matches!(fanout.catchup(5, 5), Catchup::Events(e) if e.is_empty()));
        assert!(matches!(fanout.catchup(2, 5), Catchup::Events(e) if e.len() == 3));
        assert!(matches!(fanout.catchup(4, 5), Catchup::Events(e) if e.len() == 1));
        assert!(matches!(fanout.catchup(1, 5), Catchup::Snapshot));
        assert!(matches!(fanout.catchup(9, 5), Catchup::Snapshot));
        assert!(matches!(Fanout::new(3).catchup(0, 0), Catchup::Events(e) if e.is_empty()));
    }
}
