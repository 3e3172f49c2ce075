//! A channel on a node that does not own it (a cluster): it reveals nothing itself and shows
//! what the owner publishes, with the owner's versions; guesses go to the owner. The same
//! actor becomes the owner when this node takes the channel over ([`Actor::promote`]) and a
//! follower again when another node does ([`Actor::demote`]), keeping its watchers throughout.
//!
//! A follower keeps a copy of the game it shows, stepped by the owner's reveals. Engines are
//! deterministic, so a follower that missed a reveal steps its copy on to the ply it is told,
//! and its snapshots and legal-move lists are the owner's.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{
    ChannelEvent, ChannelEventMsg, ChannelKind, ChannelSnapshot, ServerMessage,
};
use tokio::time::Instant;

use super::{Actor, Answer, Mode, Saver};
use crate::channels::game::RevealedGame;
use crate::channels::predict::Book;
use crate::channels::schedule::Resume;
use crate::ops::address::ClientAddr;
use crate::room::outbox::Outbox;

/// A guess made on a following node, on its way to the owner.
#[derive(Debug)]
pub struct Guess {
    /// Where the verdict's result goes at the reveal.
    pub outbox: Outbox,
    pub client: ClientAddr,
    pub name: String,
    pub ply: u32,
    pub from: String,
    pub to: String,
}

/// The owner, as a following channel reaches it.
pub trait Upstream: fmt::Debug + Send + Sync + 'static {
    /// Hands `guess` to the owner; `answer` gets the owner's verdict (or a refusal if the
    /// owner cannot be reached in time).
    fn predict(&self, guess: Guess, answer: Answer);
    /// Asks the owner for a snapshot: the follower shows nothing yet, or missed events.
    fn resync(&self);
    /// Tells the owner how many watchers this node has now.
    fn crowd(&self, watchers: u32);
}

/// How a node of a cluster gives each following channel (by name) its way to the owner.
pub(crate) type UpstreamOf<'a> = dyn Fn(&str) -> Arc<dyn Upstream> + Sync + 'a;

/// The other nodes, as an owning channel tells them each event.
pub trait Downstream: fmt::Debug + Send + Sync + 'static {
    /// Event `v` (a `ChannelEvent` message), once, in order.
    fn event(&self, v: u64, message: &ServerMessage);
    /// How many watch in the whole cluster now.
    fn crowd(&self, watchers: u32);
}

/// Relayed events a follower keeps while it waits for a snapshot.
const HELD: usize = 64;

fn after_ms(ms: Option<u64>) -> Option<Instant> {
    ms.map(|ms| Instant::now() + Duration::from_millis(ms))
}

impl Actor {
    /// Shows event `event` the owner published, unless it is old news.
    pub(super) fn follow(&mut self, event: ChannelEventMsg) {
        let Mode::Follower {
            upstream,
            expected,
            held,
        } = &mut self.mode
        else {
            return; // Our own event, back from the bus.
        };
        if event.v <= self.v {
            return;
        }
        match &event.event {
            ChannelEvent::GameStarted(view) => {
                self.game = RevealedGame::mirror(view);
                self.book = Book::default();
                *expected = after_ms(view.next_reveal_in_ms);
            }
            ChannelEvent::PlyRevealed(ply) => {
                let Some(game) = self.game.as_mut() else {
                    // A reveal of a game we never saw start: ask for the whole picture, and
                    // keep the reveal, which may be newer than the answer.
                    if held.len() == HELD {
                        held.remove(0);
                    }
                    held.push(event);
                    return upstream.resync();
                };
                while game.next_ply() < ply.ply && game.reveal().is_some() {}
                match game.reveal() {
                    Some(ours) if ours.mv == ply.mv => {}
                    ours => {
                        tracing::error!(channel = %self.channel, ply = ply.ply,
                            theirs = %ply.mv, ?ours, "the owner revealed another move");
                        return upstream.resync();
                    }
                }
                *expected = after_ms(ply.next_reveal_in_ms);
            }
            ChannelEvent::GameEnded(ended) => {
                if self.kind == ChannelKind::Tv {
                    self.game = None;
                }
                *expected = after_ms(ended.next_game_in_ms);
            }
        }
        self.v = event.v;
        self.show(event.v, ServerMessage::ChannelEvent(event));
        self.publish_summary();
    }

    /// Starts over from the owner's `snapshot`; the watchers get it too.
    pub(super) fn sync(&mut self, snapshot: ChannelSnapshot) {
        // Answers to several requests can cross relayed events: one no newer than what is
        // shown would take the watchers back.
        if !self.mode.is_following() {
            return;
        }
        // A snapshot answers a new owner (or a resync): it may not know our watchers yet.
        self.crowd_shared = None;
        self.share_crowd();
        if self.v != 0 && snapshot.v <= self.v {
            return;
        }
        self.game = snapshot.game.as_ref().and_then(RevealedGame::mirror);
        let Mode::Follower { expected, held, .. } = &mut self.mode else {
            return;
        };
        *expected = match &snapshot.game {
            Some(view) => after_ms(view.next_reveal_in_ms),
            None => after_ms(snapshot.next_game_in_ms),
        };
        let held = std::mem::take(held);
        self.v = snapshot.v;
        self.fanout.restart_at(snapshot.v);
        self.fanout
            .broadcast(ServerMessage::ChannelSnapshot(self.snapshot()));
        self.publish_summary();
        for event in held {
            self.follow(event);
        }
    }

    /// Becomes the owner: runs the schedule from `resume` (or plans a game now), saves it
    /// through `saver` and publishes every event to `downstream`.
    pub(super) fn promote(
        &mut self,
        resume: Option<Resume>,
        saver: Saver,
        downstream: Arc<dyn Downstream>,
    ) {
        // The counts of other nodes are the old owner's business now.
        self.mode = Mode::Owner {
            saver: Some(saver),
            downstream: Some(downstream),
            crowds: HashMap::new(),
        };
        self.forget_crowds();
        // The schedule decides what is shown from here; without a saved one a new game starts
        // and the versions go on from what this node showed.
        self.game = None;
        self.next_reveal = None;
        self.next_game = None;
        self.ending = None;
        self.unplanned = None;
        self.v = self.v.max(self.fanout.last_v().unwrap_or(0));
        if resume.is_none() {
            self.v = self.v.max(self.first_version);
        }
        self.resume(resume);
        self.publish_summary();
    }

    /// Stops owning: reveals nothing more, forgets the open guesses (their owner is
    /// elsewhere now), and follows the new owner.
    pub(super) fn demote(&mut self, upstream: Arc<dyn Upstream>) {
        self.next_reveal = None;
        self.next_game = None;
        // A held game end is the owner's to publish now.
        self.ending = None;
        self.unplanned = None;
        self.book.void_open();
        upstream.resync();
        // The counts of other nodes are the new owner's business.
        self.mode = Mode::following(upstream);
        self.forget_crowds();
    }

    /// Forgets what was last shared of the crowd and the other nodes' watchers, and shares
    /// this node's count again as its new mode says.
    fn forget_crowds(&mut self) {
        self.crowd_shared = None;
        if self.fanout.set_watchers_elsewhere(0) {
            self.publish_summary();
        }
        self.share_crowd();
    }

    /// Shares the crowd count that changed: a follower tells the owner its own watchers, the
    /// owner tells the followers the cluster's total.
    pub(super) fn share_crowd(&mut self) {
        let (count, share): (u32, &dyn Fn(u32)) = match &self.mode {
            Mode::Follower { upstream, .. } => (self.fanout.len() as u32, &|n| upstream.crowd(n)),
            Mode::Owner {
                downstream: Some(downstream),
                ..
            } => (self.fanout.watchers(), &|n| downstream.crowd(n)),
            Mode::Owner {
                downstream: None, ..
            } => return,
        };
        if self.crowd_shared != Some(count) {
            share(count);
            self.crowd_shared = Some(count);
        }
    }

    /// The owner hears that node `from` has `watchers` watchers.
    pub(super) fn crowd_elsewhere(&mut self, from: String, watchers: u32) {
        let Mode::Owner { crowds, .. } = &mut self.mode else {
            return;
        };
        if watchers == 0 {
            crowds.remove(&from);
        } else {
            crowds.insert(from, watchers);
        }
        let elsewhere = crowds.values().fold(0u32, |a, b| a.saturating_add(*b));
        if self.fanout.set_watchers_elsewhere(elsewhere) {
            self.publish_summary();
            self.share_crowd();
        }
    }

    /// A follower hears how many watch in the whole cluster (its own last count included).
    pub(super) fn crowd_total(&mut self, watchers: u32) {
        if !self.mode.is_following() {
            return;
        }
        let here = self.crowd_shared.unwrap_or(self.fanout.len() as u32);
        if self
            .fanout
            .set_watchers_elsewhere(watchers.saturating_sub(here))
        {
            self.publish_summary();
        }
    }
}
