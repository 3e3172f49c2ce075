//! The followers of one room (a match or a channel) and its recent events: the one fan-out
//! both matches and channels use.
//!
//! Every event is wrapped once in a [`SharedMessage`] message: it is encoded at most once per
//! encoding and the same bytes go to every follower. Sending never waits: a follower whose
//! bounded queue is full is dropped (its connection is kicked) and the others carry on; the
//! room learns whom it lost. The last events stay in a bounded replay buffer so a follower that
//! reconnects with `since_v` gets exactly what it missed, or a snapshot when that is more than
//! the buffer holds ([`Catchup::Snapshot`]; lila-ws' `History` does the same). The crowd
//! count (how many watch) goes out through one [`CrowdThrottle`].
//!
//! What the buffer keeps of an event is the room's choice (`K`): a channel keeps the shared
//! message itself (its events are small), a match keeps a few bytes from which it rebuilds the
//! event exactly as it was sent (a move's event lists every legal move after it; twenty of those
//! per match were most of a live match's memory). A resume is rare and a live event is not, so
//! the live event is still encoded once per encoding and then let go.
//!
//! In a cluster a room's owner also has followers on other nodes: their node relays its
//! events to them, so the fan-out sends them nothing ([`Outbox::is_remote`]; a remote seat
//! holder still holds its seat), counts the watchers other nodes report
//! ([`Fanout::set_watchers_elsewhere`]), and hands every event and broadcast once to its
//! [`Mirror`], which publishes it for those nodes. There, the match's proxy is a replica of
//! the room: a fan-out of its own whose followers catch up through the owner's answers, so
//! each takes a relayed event only once it has the one before ([`Role::due`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{Crowd, ServerMessage, Target};
use tokio::time::Instant;

use crate::room::crowd::CrowdThrottle;
use crate::room::history::History;
use crate::room::outbox::{ConnId, Outbox, SharedMessage};

/// What a follower is to the room, beyond following it.
pub trait Role {
    /// Whether the follower counts in the crowd (a seated player of a match does not).
    fn is_watcher(&self) -> bool;

    /// Whether the follower is due event `v` now; `true` counts it as sent (one that cannot
    /// take it is dropped). A follower of the room's own actor always is: the actor caught
    /// it up before it joined. A replica's follower may still be catching up through the
    /// owner's answers: it gets `v` once it has `v - 1` (see [`crate::cluster::proxy`]).
    fn due(&mut self, _v: u64) -> bool {
        true
    }
}

/// Every follower of a channel watches.
impl Role for () {
    fn is_watcher(&self) -> bool {
        true
    }
}

/// One follower.
#[derive(Debug)]
pub struct Follower<R> {
    pub outbox: Outbox,
    pub role: R,
}

/// Where a room's events and broadcasts also go, once each, after its local followers got
/// them: the other nodes of a cluster. `Some(v)` for event `v`, `None` for a broadcast.
pub(crate) type Mirror = Box<dyn Fn(Option<u64>, &SharedMessage) + Send + Sync>;

/// The followers of one room and its replay buffer, which keeps a `K` per event.
pub struct Fanout<R = (), K = Arc<SharedMessage>> {
    followers: HashMap<ConnId, Follower<R>>,
    /// What is kept of the last events, gap-free: also what decides whether an event is
    /// news (see [`History`]).
    history: History<K>,
    /// Whom crowd counts are about.
    target: Target,
    /// The watchers last counted.
    watchers: u32,
    crowd: CrowdThrottle,
    /// A follower that is not a watcher (a seated player) was dropped while sending: see
    /// [`Fanout::take_lost_players`].
    lost_players: bool,
    /// Watchers on other nodes, as they last reported; counted in the crowd.
    elsewhere: u32,
    mirror: Option<Mirror>,
}

impl<R: std::fmt::Debug, K> std::fmt::Debug for Fanout<R, K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fanout")
            .field("followers", &self.followers)
            .field("last_v", &self.history.last_v())
            .field("target", &self.target)
            .field("watchers", &self.watchers)
            .field("elsewhere", &self.elsewhere)
            .field("mirrored", &self.mirror.is_some())
            .finish_non_exhaustive()
    }
}

/// What a follower asking for events after `since_v` needs.
#[derive(Debug)]
pub enum Catchup<K = Arc<SharedMessage>> {
    /// What is kept of these events, in order (possibly none: the follower is up to date).
    Events(Vec<K>),
    /// The events are no longer (or never were) in the buffer: send a snapshot.
    Snapshot,
}

impl<R: Role, K: Clone> Fanout<R, K> {
    /// A fan-out for `target` keeping the last `capacity` events for replay, sending crowd
    /// counts at most once per `crowd_every`.
    pub fn new(capacity: usize, target: Target, crowd_every: Duration) -> Self {
        Fanout {
            followers: HashMap::new(),
            history: History::new(capacity),
            target,
            watchers: 0,
            crowd: CrowdThrottle::new(crowd_every),
            lost_players: false,
            elsewhere: 0,
            mirror: None,
        }
    }

    /// Hands every event and broadcast from now on to `mirror` too (see [`Mirror`]).
    pub fn mirror(&mut self, mirror: Mirror) {
        self.mirror = Some(mirror);
    }

    pub fn len(&self) -> usize {
        self.followers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.followers.is_empty()
    }

    /// The follower on connection `conn`.
    pub fn get(&self, conn: ConnId) -> Option<&Follower<R>> {
        self.followers.get(&conn)
    }

    /// Every follower.
    pub fn followers(&self) -> impl Iterator<Item = &Follower<R>> {
        self.followers.values()
    }

    /// Adds (or re-adds) a follower as `role`; `true` if it was not following before.
    pub fn insert(&mut self, outbox: Outbox, role: R) -> bool {
        self.followers
            .insert(outbox.id(), Follower { outbox, role })
            .is_none()
    }

    /// The follower on connection `conn`, to change its role.
    pub(crate) fn get_mut(&mut self, conn: ConnId) -> Option<&mut Follower<R>> {
        self.followers.get_mut(&conn)
    }

    /// Removes a follower, giving it back if it was following.
    pub fn remove(&mut self, conn: ConnId) -> Option<Follower<R>> {
        self.followers.remove(&conn)
    }

    /// Removes every follower, giving them back (the room moves to another node or actor).
    pub(crate) fn drain(&mut self) -> impl Iterator<Item = Follower<R>> + '_ {
        self.followers.drain().map(|(_, follower)| follower)
    }

    /// Drops followers whose connection has gone; `true` if any was dropped.
    pub fn prune_closed(&mut self) -> bool {
        let before = self.followers.len();
        self.followers.retain(|_, f| !f.outbox.is_closed());
        self.followers.len() != before
    }

    /// Keeps `kept` as event `v` for replay, without sending anything (a room restarting
    /// from storage).
    pub fn keep(&mut self, v: u64, kept: K) {
        self.history.push(v, kept);
    }

    /// The newest version the followers were sent (or were told of in a snapshot).
    pub fn last_v(&self) -> Option<u64> {
        self.history.last_v()
    }

    /// The room is at version `v` now, by a snapshot its followers were sent: the replay
    /// buffer forgets what came before.
    pub fn restart_at(&mut self, v: u64) {
        self.history.restart_at(v);
    }

    /// Keeps `kept` as event `v` for replay and sends `message`, the event, to every
    /// follower, unless they had it already (`v` is no newer than the last; see
    /// [`History::push`]). Returns how many followers were dropped because they could not
    /// take it.
    pub fn publish_kept(&mut self, v: u64, kept: K, message: ServerMessage) -> usize {
        if !self.history.push(v, kept) {
            return 0;
        }
        self.send_all(Some(v), &SharedMessage::new(message))
    }

    /// Sends an unversioned message to every follower; returns how many were dropped.
    pub fn broadcast(&mut self, message: ServerMessage) -> usize {
        self.send_all(None, &SharedMessage::new(message))
    }

    fn send_all(&mut self, v: Option<u64>, shared: &SharedMessage) -> usize {
        let before = self.followers.len();
        let mut lost_players = false;
        self.followers.retain(|_, f| {
            // Its own node relays to a remote follower (from the mirror below); one whose way
            // closed is dropped like a local one that could not take the event.
            if f.outbox.is_remote() {
                let open = !f.outbox.is_closed();
                lost_players |= !open && !f.role.is_watcher();
                return open;
            }
            if v.is_some_and(|v| !f.role.due(v)) {
                return true;
            }
            let kept = f.outbox.send_shared(shared);
            lost_players |= !kept && !f.role.is_watcher();
            kept
        });
        self.lost_players |= lost_players;
        if let Some(mirror) = &self.mirror {
            mirror(v, shared);
        }
        before - self.followers.len()
    }

    /// Sends an unversioned message to the followers whose role `to` picks (a chat line to
    /// one room): local ones, and remote ones straight to their node. With `mirrored` it goes
    /// to the mirror too, for the followers other nodes relay to (their proxies pick alike),
    /// and remote followers are left to it. Returns how many were dropped.
    pub(crate) fn send_to(
        &mut self,
        message: ServerMessage,
        to: impl Fn(&R) -> bool,
        mirrored: bool,
    ) -> usize {
        let shared = SharedMessage::new(message);
        let before = self.followers.len();
        let mut lost_players = false;
        self.followers.retain(|_, f| {
            if !to(&f.role) || (mirrored && f.outbox.is_remote()) {
                return true;
            }
            let kept = f.outbox.send_shared(&shared);
            lost_players |= !kept && !f.role.is_watcher();
            kept
        });
        self.lost_players |= lost_players;
        if mirrored && let Some(mirror) = &self.mirror {
            mirror(None, &shared);
        }
        before - self.followers.len()
    }

    /// Whether a follower that is not a watcher (a seated player) was dropped while sending
    /// since the last call: its goodbye will find nothing to remove, so the room must look
    /// at who is still here.
    pub fn take_lost_players(&mut self) -> bool {
        std::mem::take(&mut self.lost_players)
    }

    /// What is kept of the events after `since_v` when the current version is `v`.
    pub fn catchup(&self, since_v: u64, v: u64) -> Catchup<K> {
        if since_v == v {
            return Catchup::Events(Vec::new());
        }
        if since_v > v {
            return Catchup::Snapshot;
        }
        match self.history.after(since_v) {
            Some(events) => Catchup::Events(events.into_iter().map(|(_, kept)| kept).collect()),
            None => Catchup::Snapshot,
        }
    }

    /// How many watch (at the last count).
    pub fn watchers(&self) -> u32 {
        self.watchers
    }

    /// Counts the watchers again after followers came or went: `true` if the count changed.
    /// A changed count goes out to everybody at once, or when [`Fanout::crowd_due`] says.
    pub fn crowd_changed(&mut self) -> bool {
        if !self.recount() {
            return false;
        }
        if self.crowd.changed(Instant::now()) {
            self.send_crowd();
        }
        true
    }

    /// Other nodes now have `watchers` watchers in all; `true` if the crowd changed (it goes
    /// out as [`Fanout::crowd_changed`] says).
    pub fn set_watchers_elsewhere(&mut self, watchers: u32) -> bool {
        self.elsewhere = watchers;
        self.crowd_changed()
    }

    /// How many of the followers here watch (without those other nodes report).
    pub(crate) fn watchers_here(&self) -> u32 {
        self.followers
            .values()
            .filter(|f| f.role.is_watcher())
            .count() as u32
    }

    fn recount(&mut self) -> bool {
        let watchers = self.watchers_here().saturating_add(self.elsewhere);
        let changed = watchers != self.watchers;
        self.watchers = watchers;
        changed
    }

    /// When a held-back crowd count must go out ([`Fanout::send_crowd`]).
    pub fn crowd_due(&self) -> Option<Instant> {
        self.crowd.due()
    }

    /// Sends the crowd count to everybody now. Followers dropped meanwhile change the count
    /// again: that count goes out a period later, and `true` says the count changed so.
    pub fn send_crowd(&mut self) -> bool {
        let now = Instant::now();
        self.crowd.sent(now);
        let crowd = self.crowd_message();
        if self.broadcast(crowd) > 0 && self.recount() {
            self.crowd.changed(now);
            return true;
        }
        false
    }

    /// Tells one follower the count (one whose arrival did not change it, so it was not told).
    /// A remote follower learns it from its own node.
    pub fn tell_crowd(&self, outbox: &Outbox) {
        if !outbox.is_remote() {
            outbox.send(&self.crowd_message());
        }
    }

    fn crowd_message(&self) -> ServerMessage {
        ServerMessage::Crowd(Crowd {
            target: self.target.clone(),
            watchers: self.watchers,
        })
    }
}

/// A room that keeps the shared messages themselves (a channel).
impl<R: Role> Fanout<R> {
    /// Records event `v` for replay and sends it to every follower, unless they had it
    /// already (see [`Fanout::publish_kept`]). Returns how many followers were dropped
    /// because they could not take it.
    pub fn publish(&mut self, v: u64, message: ServerMessage) -> usize {
        let shared = Arc::new(SharedMessage::new(message));
        if !self.history.push(v, shared.clone()) {
            return 0;
        }
        self.send_all(Some(v), &shared)
    }
}

#[cfg(test)]
mod tests {
    use boardcast_protocol::{Encoding, Pong};

    use super::*;
    use crate::room::outbox::outbox;

    fn channel_fanout(capacity: usize) -> Fanout {
        Fanout::new(
            capacity,
            Target::Channel("tv1".into()),
            Duration::from_millis(500),
        )
    }

    fn pong(nonce: u64) -> ServerMessage {
        ServerMessage::Pong(Pong { nonce })
    }

    #[test]
    fn a_full_watcher_is_dropped_and_the_others_keep_getting_shared_bytes() {
        let mut fanout = channel_fanout(4);
        let (fast_a, mut fast_a_in) = outbox(1, Encoding::Json, 16);
        let (fast_b, mut fast_b_in) = outbox(2, Encoding::Json, 16);
        let (slow, _slow_in) = outbox(3, Encoding::Postcard, 1);
        assert!(fanout.insert(fast_a, ()));
        assert!(fanout.insert(fast_b, ()));
        assert!(fanout.insert(slow, ()));
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
        let mut fanout = channel_fanout(3);
        for v in 1..=5 {
            fanout.publish(v, pong(v));
        }
        // Buffer holds 3, 4, 5.
        assert!(matches!(fanout.catchup(5, 5), Catchup::Events(e) if e.is_empty()));
        assert!(matches!(fanout.catchup(2, 5), Catchup::Events(e) if e.len() == 3));
        assert!(matches!(fanout.catchup(4, 5), Catchup::Events(e) if e.len() == 1));
        assert!(matches!(fanout.catchup(1, 5), Catchup::Snapshot));
        assert!(matches!(fanout.catchup(9, 5), Catchup::Snapshot));
        assert!(matches!(channel_fanout(3).catchup(0, 0), Catchup::Events(e) if e.is_empty()));
    }

    /// A follower that is seated, or not.
    #[derive(Debug, Clone, Copy)]
    struct Seated(bool);

    impl Role for Seated {
        fn is_watcher(&self) -> bool {
            !self.0
        }
    }

    fn crowds(inbox: &mut crate::room::outbox::Inbox) -> Vec<u32> {
        std::iter::from_fn(|| inbox.rx.try_recv().ok())
            .filter_map(|message| match message {
                axum::extract::ws::Message::Text(text) => Encoding::Json
                    .decode_server(boardcast_protocol::FrameRef::Text(text.as_bytes()))
                    .ok(),
                _ => None,
            })
            .filter_map(|message| match message {
                ServerMessage::Crowd(crowd) => Some(crowd.watchers),
                _ => None,
            })
            .collect()
    }

    #[tokio::test(start_paused = true)]
    async fn watchers_are_counted_without_players_and_counts_are_throttled() {
        let every = Duration::from_secs(2);
        let mut fanout: Fanout<Seated> = Fanout::new(4, Target::Match("m".into()), every);
        let (player, mut player_in) = outbox(1, Encoding::Json, 16);
        fanout.insert(player, Seated(true));
        assert!(!fanout.crowd_changed(), "a player is no watcher");
        let (first, _first_in) = outbox(2, Encoding::Json, 16);
        fanout.insert(first, Seated(false));
        assert!(fanout.crowd_changed());
        assert_eq!(
            crowds(&mut player_in),
            vec![1],
            "the first count goes out at once"
        );
        let (second, _second_in) = outbox(3, Encoding::Json, 16);
        fanout.insert(second, Seated(false));
        assert!(fanout.crowd_changed());
        assert_eq!(crowds(&mut player_in), Vec::<u32>::new(), "held back");
        assert_eq!(fanout.crowd_due(), Some(Instant::now() + every));
        tokio::time::advance(every).await;
        assert!(!fanout.send_crowd());
        assert_eq!(crowds(&mut player_in), vec![2]);
        assert_eq!(fanout.crowd_due(), None);
    }

    #[derive(Debug)]
    struct Way(std::sync::atomic::AtomicBool);

    impl crate::room::outbox::RemoteWay for Way {
        fn push(&self, _: axum::extract::ws::Message) -> bool {
            panic!("a remote follower is sent no broadcast: its node relays it")
        }

        fn is_closed(&self) -> bool {
            self.0.load(std::sync::atomic::Ordering::Relaxed)
        }
    }

    #[test]
    fn remote_followers_get_nothing_and_a_closed_remote_player_is_reported_lost() {
        let mut fanout: Fanout<Seated> =
            Fanout::new(4, Target::Match("m".into()), Duration::from_secs(2));
        let way = Arc::new(Way(Default::default()));
        let (remote, _) = crate::room::outbox::remote_outbox(7, Encoding::Json, way.clone());
        fanout.insert(remote, Seated(true));
        let mirrored = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = mirrored.clone();
        fanout.mirror(Box::new(move |v, _| seen.lock().unwrap().push(v)));
        assert_eq!(fanout.publish(1, pong(1)), 0);
        assert_eq!(fanout.broadcast(pong(2)), 0);
        assert_eq!(*mirrored.lock().unwrap(), vec![Some(1), None], "each once");
        assert!(!fanout.take_lost_players());
        way.0.store(true, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(fanout.publish(2, pong(3)), 1);
        assert!(fanout.take_lost_players(), "presence must look again");
        assert!(fanout.is_empty());
    }

    #[test]
    fn a_dropped_player_is_reported_once_and_a_dropped_watcher_not_at_all() {
        let mut fanout: Fanout<Seated> =
            Fanout::new(4, Target::Match("m".into()), Duration::from_secs(2));
        let (watcher, watcher_in) = outbox(1, Encoding::Json, 16);
        fanout.insert(watcher, Seated(false));
        drop(watcher_in);
        assert_eq!(fanout.publish(1, pong(1)), 1);
        assert!(!fanout.take_lost_players());
        let (player, player_in) = outbox(2, Encoding::Json, 16);
        fanout.insert(player, Seated(true));
        drop(player_in);
        assert_eq!(fanout.publish(2, pong(2)), 1);
        assert!(fanout.take_lost_players());
        assert!(!fanout.take_lost_players());
    }
}
