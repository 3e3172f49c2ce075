//! The local stand-in for a match another node owns.
//!
//! A connection on this node that follows or plays match M, owned elsewhere, talks to M's
//! proxy exactly as it would talk to M's actor (the same [`Command`] mailbox behind a
//! [`MatchHandle`]). The proxy forwards what the connection asks to the owner
//! ([`ToOwner::Command`]), hands the owner's reply frames to the connection, and feeds its
//! followers the events the owner relays once per cluster on `bc:match:{id}`: one Redis
//! message per event per node, never one per watcher.
//!
//! The proxy is a replica room: its followers, their outboxes, its replay history and the
//! fan-out of each relayed event are the same [`Fanout`] a match's actor keeps on the owner.
//! What a replica adds is the catch-up: the owner answers a follower's watch or resume (a
//! snapshot, missed events) through its reply frames, which may cross relayed events.
//! The invariant every follower keeps: it is sent event `v` only right after `v - 1` (or
//! after a snapshot at `v - 1`), each at most once ([`Follows::due`]); a relayed event it is
//! not ready for waits in the room's history until it is. A gap the history cannot fill
//! (Redis dropped messages, or said `Resync`) is filled from PostgreSQL, where every
//! committed event is.
//!
//! Commands stay pending until their answer (ack, error or seat) arrives. When the match
//! changes owner (the new owner announces itself, the old one says it is not the owner, or
//! it leaves the live nodes) the proxy sends what is pending to the new owner and re-seats
//! its players there (`Resume` with their token and the version they have); the match
//! recognises command ids it has carried out, so a re-sent command is never applied twice.
//!
//! Each command gets exactly one answer (PROTOCOL §3.3), whatever the owners in between said:
//! the first answer of the owner the command is pending at goes to the connection and ends
//! it; an answer to a command no longer pending (a late one, or the answer to a re-send of a
//! command already answered) is dropped, and so is whatever an older owner still answers to
//! a command the proxy has moved on to a newer one (its "the match moved, send it again"
//! would be followed by the new owner's ack: a refusal that was not final). The proxy's own
//! re-seating of its players (`Resume` with id 0) is answered to the proxy, not to them.
//! If nobody alive owns the match any more, this node takes it over and hands its followers
//! to the actor it starts.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{
    Ack, Encoding, ErrorArgs, ErrorCode, FrameRef, MatchEvent, MatchEventMsg, MatchPhase, Paired,
    ServerMessage, Target,
};
use tokio::sync::{Notify, mpsc};
use tokio::time::{Instant, sleep_until};

use super::wire::{MatchRelay, RemoteCommand, ToAsker, ToOwner};
use crate::matches::{Command, Mailbox, MatchHandle, SeatKey};
use crate::ops::shutdown::{Shutdown, TaskGuard};
use crate::refusal::Refusal;
use crate::room::crowd::CrowdThrottle;
use crate::room::fanout::{Catchup, Fanout, Role};
use crate::room::outbox::{ConnId, Outbox, SharedMessage};
use crate::storage::coordination::NodeRef;

/// Relayed events kept for followers still catching up, as the match keeps its own.
const HISTORY: usize = 64;
/// Watcher counts go to the owner at most this often.
const CROWD_EVERY: Duration = Duration::from_secs(1);
/// A proxy nobody has followed for this long stops (its match stays where it is).
const IDLE: Duration = Duration::from_secs(30);
/// What the cluster may queue for one proxy.
const MAILBOX: usize = 1024;

/// What a proxy needs from the cluster around it; implemented over the Redis bus, the lease
/// and PostgreSQL by [`super::directory`], and by a fake in tests.
#[async_trait::async_trait]
pub(crate) trait Link: Send + Sync + 'static {
    /// This node incarnation.
    fn me(&self) -> &NodeRef;
    /// Queues `message` for `owner`; `false` if it cannot be sent (the bus is full).
    fn send(&self, owner: &NodeRef, message: ToOwner) -> bool;
    /// Whether `node`'s lease is running, as this node last learnt.
    fn is_alive(&self, node: &NodeRef) -> bool;
    /// Makes this node the owner of match `id` if nobody alive owns it, and starts its actor.
    async fn take_over(&self, id: &str) -> TakeOver;
    /// Takes orphan `id` over only if it is this node's share of the orphans (see the
    /// sweeper): a proxy leaves a dead owner's matches to the nodes they spread to.
    async fn take_over_orphan(&self, id: &str) -> TakeOver {
        self.take_over(id).await
    }
    /// Who owns match `id` now, and under which epoch (`None`: no such match).
    async fn owner(&self, id: &str) -> Option<(Option<NodeRef>, u64)>;
    /// The events of match `id` after version `v`, as they were first sent (read from
    /// PostgreSQL).
    async fn events_after(&self, id: &str, v: u64) -> Option<Vec<MatchEventMsg>>;
}

/// What became of a take-over.
#[derive(Debug)]
pub(crate) enum TakeOver {
    /// This node owns the match now; its actor runs here.
    Here(MatchHandle),
    /// Another live node owns it, under this epoch.
    Elsewhere(NodeRef, u64),
    /// There is no such match.
    Gone,
    /// PostgreSQL could not be asked; try again later.
    Failed,
    /// An orphan another live node is to take over (the sweeper's spread); ask again later.
    Later,
}

/// What the cluster hands a proxy, in the owner's order.
#[derive(Debug)]
pub(crate) enum FromCluster {
    /// A reply of the owner to one of this proxy's connections.
    Reply(ToAsker),
    /// An event, crowd count or change of owner from the match's owner.
    Relay(MatchRelay),
    /// Messages may have been lost: read what was missed from PostgreSQL.
    Resync,
    /// This node has taken the match over: give every follower to its actor, then stop.
    HandOver(MatchHandle),
}

/// The cluster's side of one proxy: where to put what arrives for it.
#[derive(Debug, Clone)]
pub(crate) struct ProxyInbox {
    tx: mpsc::Sender<FromCluster>,
    /// Something for this proxy was dropped (its mailbox was full): it owes a resync.
    lost: Arc<Lost>,
}

#[derive(Debug, Default)]
struct Lost {
    flag: AtomicBool,
    notify: Notify,
}

impl ProxyInbox {
    /// Hands `message` over without waiting; a full mailbox drops it and the proxy resyncs
    /// from PostgreSQL instead. `false` once the proxy has stopped.
    pub(crate) fn deliver(&self, message: FromCluster) -> bool {
        match self.tx.try_send(message) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.lost.flag.store(true, Ordering::Release);
                self.lost.notify.notify_one();
                true
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// What a connection that follows the match through this proxy is to its room.
#[derive(Debug)]
struct Follows {
    /// The last event version this connection has been sent; `None` until its snapshot.
    seen: Option<u64>,
    /// Whether the owner has answered it yet: relayed events go only to connections it has
    /// answered, so a reply (a seat, an ack) always comes before the events that follow it.
    answered: bool,
    /// Whether, not knowing a version yet, it waits for a snapshot (it asked to watch, join
    /// or resume) rather than following from the next relayed event (it only acted).
    awaiting_snapshot: bool,
    /// The seat tokens it holds here, to re-seat it at a new owner.
    tokens: Vec<String>,
    /// Whether it asked to watch.
    watching: bool,
}

impl Role for Follows {
    fn is_watcher(&self) -> bool {
        self.watching && self.tokens.is_empty()
    }

    /// Only once the owner has answered it, and only the event after the one it has (or,
    /// following from the next event on, any).
    fn due(&mut self, v: u64) -> bool {
        let due = self.answered
            && match self.seen {
                Some(seen) => seen + 1 == v,
                None => !self.awaiting_snapshot,
            };
        if due {
            self.seen = Some(v);
        }
        due
    }
}

/// A forwarded command not answered yet.
#[derive(Debug)]
struct Pending {
    outbox: Outbox,
    command: RemoteCommand,
    /// Whether this proxy sent it again on its own (to a new owner): the connection sent it
    /// once, so it is answered as a first answer even if the first send had been carried out.
    resent: bool,
}

impl Pending {
    fn id(&self) -> u64 {
        self.command.id()
    }

    /// Whether it seats or follows its connection (a watch, join or resume).
    fn seats(&self) -> bool {
        matches!(
            self.command,
            RemoteCommand::Watch { .. } | RemoteCommand::Join { .. } | RemoteCommand::Resume { .. }
        )
    }
}

/// Starts the proxy of match `match_id`, owned by `owner` under `epoch`. Returns the handle
/// connections use and the inbox the cluster feeds; the proxy stops on shutdown, once nobody
/// has followed it for a while, or after handing its followers to a local actor.
pub(crate) fn spawn(
    match_id: String,
    owner: NodeRef,
    epoch: u64,
    link: Arc<dyn Link>,
    shutdown: Shutdown,
    guard: TaskGuard,
    on_stop: Box<dyn FnOnce() + Send>,
) -> (MatchHandle, ProxyInbox) {
    let (handle, commands) = MatchHandle::channel(shutdown.clone());
    let (tx, cluster) = mpsc::channel(MAILBOX);
    let lost = Arc::new(Lost::default());
    let proxy = Proxy {
        room: Fanout::new(HISTORY, Target::Match(match_id.clone()), CROWD_EVERY),
        match_id,
        owner,
        epoch,
        link,
        pending: Vec::new(),
        crowd: CrowdThrottle::new(CROWD_EVERY),
        reported: 0,
        waiting: false,
        lost: lost.clone(),
        _mailbox: handle.clone(),
        _guard: guard,
    };
    tokio::spawn(async move {
        proxy.run(commands, cluster, shutdown).await;
        on_stop();
    });
    (handle, ProxyInbox { tx, lost })
}

struct Proxy {
    match_id: String,
    owner: NodeRef,
    epoch: u64,
    link: Arc<dyn Link>,
    /// The connections following here and the last relayed events, gap-free.
    room: Fanout<Follows>,
    pending: Vec<Pending>,
    /// When the owner is next told the watcher count.
    crowd: CrowdThrottle,
    /// The watcher count the owner was last told.
    reported: u32,
    /// Whether the match still waits for an opponent, as the last snapshot and events this
    /// proxy passed on say: its creator's `unwatch` is then a goodbye (see [`Self::command`]).
    waiting: bool,
    lost: Arc<Lost>,
    /// Its own handle: the proxy lives until it hands over, idles out or shuts down, not
    /// until the directory forgets it (a take-over removes it from the directory first and
    /// only then tells it to hand over).
    _mailbox: MatchHandle,
    /// Keeps shutdown waiting until this proxy has stopped.
    _guard: TaskGuard,
}

/// How the proxy's loop goes on after one step.
enum Next {
    Continue,
    Stop,
}

impl Proxy {
    async fn run(
        mut self,
        mut commands: Mailbox,
        mut cluster: mpsc::Receiver<FromCluster>,
        mut shutdown: Shutdown,
    ) {
        let mut idle_since = Instant::now();
        let mut liveness = tokio::time::interval(Duration::from_millis(250));
        liveness.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let crowd_due = self.crowd.due();
            if !self.room.is_empty() || !self.pending.is_empty() {
                idle_since = Instant::now();
            }
            let next = tokio::select! {
                _ = shutdown.recv() => Next::Stop,
                command = commands.recv() => match command {
                    Some(command) => {
                        self.command(command);
                        Next::Continue
                    }
                    None => Next::Stop,
                },
                input = cluster.recv() => match input {
                    Some(input) => self.input(input).await,
                    None => Next::Stop,
                },
                () = self.lost.notify.notified() => {
                    if self.lost.flag.swap(false, Ordering::AcqRel) {
                        self.resync().await
                    } else {
                        Next::Continue
                    }
                }
                _ = liveness.tick() => self.check_owner().await,
                _ = sleep_until(crowd_due.unwrap_or_else(Instant::now)), if crowd_due.is_some() => {
                    self.report_crowd();
                    Next::Continue
                }
                _ = sleep_until(idle_since + IDLE) => Next::Stop,
            };
            if let Next::Stop = next {
                break;
            }
        }
        commands.close();
        // Commands that arrived too late, or still wait for an owner, are answered, not
        // dropped (a hand-over has taken the pending ones already).
        while let Ok(command) = commands.try_recv() {
            if let Some((outbox, id)) = command.asker() {
                outbox.refuse(id, moved());
            }
        }
        for pending in self.pending.drain(..) {
            pending.outbox.refuse(pending.id(), moved());
        }
        for follower in self.room.followers() {
            let _ = follower.outbox.note_subscription(&self.match_id, false);
        }
    }

    /// A connection's command: answered here (unwatch, goodbye) or forwarded to the owner.
    fn command(&mut self, command: Command) {
        let (outbox, command) = match command {
            Command::Watch {
                outbox,
                id,
                since_v,
                carried,
            } => {
                if let Some(follower) = self.follow(&outbox, since_v) {
                    follower.watching = true;
                }
                let watch = RemoteCommand::Watch {
                    id,
                    since_v,
                    carried,
                };
                self.forward(outbox, watch);
                self.crowd_changed();
                return;
            }
            Command::Unwatch { outbox, id } => {
                // As at the match: a player keeps the events of the match they play, but the
                // creator who unwatches a match still waiting for an opponent has left its
                // waiting screen. The owner hears it as their goodbye, as if their connection
                // had closed, so a public seek leaves every node's lobby until they resume.
                let conn = outbox.id();
                if self.room.get(conn).is_some_and(|f| {
                    f.role.is_watcher() || (self.waiting && !f.role.tokens.is_empty())
                }) {
                    self.unfollow(conn);
                }
                outbox.ack(id);
                return;
            }
            Command::Join {
                outbox,
                id,
                player,
                myself,
            } => {
                self.follow(&outbox, None);
                (outbox, RemoteCommand::Join { id, player, myself })
            }
            Command::Resume {
                outbox,
                id,
                token,
                since_v,
                carried,
            } => {
                self.follow(&outbox, since_v);
                let resume = RemoteCommand::Resume {
                    id,
                    token,
                    since_v,
                    carried,
                };
                (outbox, resume)
            }
            Command::Act {
                outbox,
                id,
                token,
                action,
                received,
            } => {
                // Acting holds the seat, as at the match: the connection follows from the
                // events this node has now on.
                let now = self.room.last_v();
                if let Some(follower) = self.follow(&outbox, now) {
                    if follower.seen.is_none() && follower.tokens.is_empty() && !follower.watching {
                        follower.awaiting_snapshot = false;
                    }
                    if !follower.tokens.contains(&token) {
                        follower.tokens.push(token.clone());
                    }
                }
                let received_ms = super::wire::stamp(received);
                (
                    outbox,
                    RemoteCommand::Act {
                        id,
                        token,
                        action,
                        received_ms,
                    },
                )
            }
            // Said by whoever follows here; the owner decides the room.
            Command::Chat {
                outbox,
                id,
                request,
            } => (outbox, RemoteCommand::Chat { id, request }),
            Command::Leave { conn } => {
                self.pending.retain(|p| p.outbox.id() != conn);
                self.room.remove(conn);
                self.leave(conn);
                return;
            }
            Command::Crowd { .. } => {
                // Another node's watcher count is for the owner, never for a proxy.
                return;
            }
            Command::Arrive { players, .. } => {
                // Rematches are created where they are asked for, never behind a proxy.
                tracing::warn!(match_id = %self.match_id, players = players.len(), "arrivals at a proxy ignored");
                return;
            }
        };
        self.forward(outbox, command);
    }

    /// Adds `outbox` as a follower (catching up from `since_v`) if it is not one yet; `None`
    /// if its connection has closed.
    fn follow(&mut self, outbox: &Outbox, since_v: Option<u64>) -> Option<&mut Follows> {
        let conn = outbox.id();
        if self.room.get(conn).is_none() {
            if !outbox.note_subscription(&self.match_id, true) {
                return None;
            }
            let follows = Follows {
                seen: since_v,
                awaiting_snapshot: true,
                answered: false,
                tokens: Vec::new(),
                watching: false,
            };
            self.room.insert(outbox.clone(), follows);
        }
        self.room.get_mut(conn).map(|f| &mut f.role)
    }

    /// Forgets connection `conn` and tells the owner it left.
    fn unfollow(&mut self, conn: ConnId) {
        self.pending.retain(|p| p.outbox.id() != conn);
        if let Some(follower) = self.room.remove(conn) {
            let _ = follower.outbox.note_subscription(&self.match_id, false);
            self.leave(conn);
        }
    }

    /// Tells the owner connection `conn` left (it may be gone from the room already: one
    /// that could not take an event is dropped by the room and says goodbye as it closes).
    fn leave(&mut self, conn: ConnId) {
        let leave = ToOwner::Leave {
            match_id: self.match_id.clone(),
            from: self.link.me().clone(),
            conn,
        };
        self.link.send(&self.owner, leave);
        self.crowd_changed();
    }

    /// Sends `command` to the owner; it stays pending until answered.
    fn forward(&mut self, outbox: Outbox, command: RemoteCommand) {
        if self.send_to_owner(&outbox, command.clone()) {
            self.pending.push(Pending {
                outbox,
                command,
                resent: false,
            });
        } else {
            outbox.refuse(
                command.id(),
                Refusal::new(
                    ErrorCode::Busy,
                    "too many messages waiting between servers; try again",
                )
                .with(ErrorArgs::new("relay_full")),
            );
        }
    }

    fn send_to_owner(&self, outbox: &Outbox, command: RemoteCommand) -> bool {
        let message = ToOwner::Command {
            match_id: self.match_id.clone(),
            from: self.link.me().clone(),
            conn: outbox.id(),
            encoding: outbox.encoding(),
            command,
        };
        self.link.send(&self.owner, message)
    }

    async fn input(&mut self, input: FromCluster) -> Next {
        match input {
            FromCluster::Reply(ToAsker::Frame {
                match_id: _,
                owner,
                conn,
                binary,
                bytes,
            }) => {
                self.reply(&owner, conn, binary, bytes).await;
                Next::Continue
            }
            FromCluster::Reply(ToAsker::NotOwner { owner, .. }) => {
                // Whoever it was, the answer is the same: find the owner and ask again.
                tracing::debug!(match_id = %self.match_id, ?owner, "asked a node that is not the owner");
                self.find_owner(true).await
            }
            FromCluster::Relay(MatchRelay::Event { v, message, .. }) => {
                self.relayed(v, &message).await;
                Next::Continue
            }
            FromCluster::Relay(MatchRelay::Broadcast { message, .. }) => {
                if let Some(message) = decode_relayed(&message) {
                    // The owner relays only the spectators' chat (it sends the players'
                    // straight to them): a player here never reads it.
                    let spectators_only = matches!(
                        message,
                        ServerMessage::ChatLine(_)
                            | ServerMessage::ChatDeleted(_)
                            | ServerMessage::ChatHistory(_)
                    );
                    self.room
                        .send_to(message, |f| !spectators_only || f.is_watcher(), false);
                }
                Next::Continue
            }
            FromCluster::Relay(MatchRelay::Owner { epoch, owner }) => {
                if epoch > self.epoch && owner != *self.link.me() {
                    self.retarget(owner, epoch);
                }
                Next::Continue
            }
            FromCluster::Resync => self.resync().await,
            FromCluster::HandOver(actor) => {
                self.hand_over(&actor);
                Next::Stop
            }
        }
    }

    /// One reply frame of owner `from` for connection `conn`: to the connection, learning
    /// from it what the connection has now (a snapshot's or an event's version, a seat's
    /// token); an answer that is not the one answer of a pending command goes nowhere.
    async fn reply(&mut self, from: &NodeRef, conn: ConnId, binary: bool, bytes: Vec<u8>) {
        let outbox = match self.room.get(conn) {
            Some(follower) => follower.outbox.clone(),
            None => match self.pending.iter().find(|p| p.outbox.id() == conn) {
                Some(pending) => pending.outbox.clone(),
                // Not (or no longer) a connection of this proxy.
                None => return,
            },
        };
        let frame = if binary {
            FrameRef::Binary(&bytes)
        } else {
            FrameRef::Text(&bytes)
        };
        let decoded = outbox.encoding().decode_server(frame).ok();
        if let Some(id) = decoded.as_ref().and_then(|m| answer_id(m, &self.match_id)) {
            let pending = self
                .pending
                .iter()
                .find(|p| p.outbox.id() == conn && p.id() == id);
            match pending {
                None => {
                    tracing::debug!(match_id = %self.match_id, %from, id, "dropped an answer to a command already answered");
                    return;
                }
                Some(pending) if pending.resent && *from != self.owner => {
                    tracing::debug!(match_id = %self.match_id, %from, id, "dropped an older owner's answer to a command sent on");
                    return;
                }
                Some(_) => {}
            }
        }
        if let Some(follower) = self.room.get_mut(conn) {
            follower.role.answered = true;
        }
        match &decoded {
            Some(ServerMessage::Ack(ack)) => {
                if ack.duplicate && self.answered(conn, ack.id).is_some_and(|p| p.resent) {
                    // The owner that died had carried it out before its answer went out: to
                    // the connection, which sent it once, this is the one answer.
                    let first = Ack {
                        id: ack.id,
                        duplicate: false,
                    };
                    if !outbox.send(&ServerMessage::Ack(first)) {
                        self.unfollow(conn);
                    }
                    return;
                }
                self.answered(conn, ack.id);
            }
            Some(ServerMessage::Error(error)) => {
                if let Some(id) = error.id {
                    self.refused(conn, id);
                }
            }
            Some(ServerMessage::Seat(seat) | ServerMessage::Paired(Paired { seat, .. })) => {
                let _ = self.answered(conn, seat.id);
                if seat.match_id == self.match_id
                    && let Some(follower) = self.room.get_mut(conn)
                    && !follower.role.tokens.contains(&seat.token)
                {
                    follower.role.tokens.push(seat.token.clone());
                    self.crowd_changed();
                }
            }
            Some(ServerMessage::MatchSnapshot(snapshot)) if snapshot.match_id == self.match_id => {
                self.waiting = snapshot.phase == MatchPhase::Waiting;
                if let Some(follower) = self.room.get_mut(conn) {
                    follower.role.seen = Some(snapshot.v);
                }
            }
            Some(ServerMessage::MatchEvent(event)) if event.match_id == self.match_id => {
                self.note_phase(&event.event);
                // A catch-up event: only the next one this connection needs goes through.
                let Some(follower) = self.room.get_mut(conn) else {
                    return;
                };
                if follower.role.seen.is_none_or(|seen| event.v != seen + 1) {
                    return;
                }
                follower.role.seen = Some(event.v);
            }
            _ => {}
        }
        let message = if binary {
            Message::Binary(bytes.into())
        } else {
            match String::from_utf8(bytes) {
                Ok(text) => Message::Text(text.into()),
                Err(_) => return,
            }
        };
        if !outbox.push(message) {
            self.unfollow(conn);
            return;
        }
        self.bring_up_to_date(conn).await;
    }

    /// Command `id` of `conn` was answered (carried out, seated or refused): it is no longer
    /// pending, and is given back if it was.
    fn answered(&mut self, conn: ConnId, id: u64) -> Option<Pending> {
        let at = self
            .pending
            .iter()
            .position(|p| p.outbox.id() == conn && p.id() == id)?;
        Some(self.pending.remove(at))
    }

    /// Command `id` of `conn` was refused: a connection it made a follower follows nothing.
    fn refused(&mut self, conn: ConnId, id: u64) {
        let Some(pending) = self.answered(conn, id) else {
            return;
        };
        let Some(follower) = self.room.get_mut(conn).map(|f| &mut f.role) else {
            return;
        };
        let still_follows = match pending.command {
            RemoteCommand::Act { .. } | RemoteCommand::Chat { .. } => true,
            RemoteCommand::Watch { .. } => {
                follower.watching = false;
                !follower.tokens.is_empty()
            }
            RemoteCommand::Join { .. } | RemoteCommand::Resume { .. } => {
                !follower.tokens.is_empty() || follower.watching
            }
        };
        if !still_follows && let Some(follower) = self.room.remove(conn) {
            let _ = follower.outbox.note_subscription(&self.match_id, false);
        }
        self.crowd_changed();
    }

    /// Relayed event `v`: into the history and to every follower that is right before it. A
    /// gap since the last relayed event is filled from PostgreSQL first.
    async fn relayed(&mut self, v: u64, message: &[u8]) {
        if let Some(last) = self.room.last_v() {
            if v <= last {
                return;
            }
            if v > last + 1 {
                self.fill_from_store(last).await;
                if self.room.last_v().is_some_and(|now| v <= now) {
                    return;
                }
            }
        }
        let Some(message) = decode_relayed(message) else {
            tracing::warn!(match_id = %self.match_id, v, "a relayed event does not decode");
            return;
        };
        self.record(v, message);
    }

    /// Keeps event `v` (the next one) and sends it to each follower that has `v - 1`.
    fn record(&mut self, v: u64, message: ServerMessage) {
        if self.room.last_v().is_some_and(|last| v != last + 1) {
            return;
        }
        if let ServerMessage::MatchEvent(event) = &message {
            self.note_phase(&event.event);
        }
        self.room.publish(v, message);
    }

    /// An opponent's arrival or the end (an abort) means the match no longer waits.
    fn note_phase(&mut self, event: &MatchEvent) {
        if matches!(event, MatchEvent::PlayerJoined(_) | MatchEvent::Ended(_)) {
            self.waiting = false;
        }
    }

    /// Sends connection `conn` the events it lacks that this proxy holds; if it lacks more
    /// than the history holds, reads them from PostgreSQL.
    async fn bring_up_to_date(&mut self, conn: ConnId) {
        let Some(seen) = self.room.get(conn).and_then(|f| f.role.seen) else {
            return;
        };
        let Some(last) = self.room.last_v() else {
            return;
        };
        if seen >= last {
            return;
        }
        let missing: Vec<_> = match self.room.catchup(seen, last) {
            Catchup::Events(held) => (seen + 1..).zip(held).collect(),
            Catchup::Snapshot => match self.link.events_after(&self.match_id, seen).await {
                Some(events) => events
                    .into_iter()
                    .filter(|e| e.v <= last)
                    .map(|e| {
                        (
                            e.v,
                            Arc::new(SharedMessage::new(ServerMessage::MatchEvent(e))),
                        )
                    })
                    .collect(),
                None => return,
            },
        };
        let Some(follower) = self.room.get_mut(conn) else {
            return;
        };
        for (v, shared) in missing {
            if follower.role.seen != Some(v - 1) {
                continue;
            }
            if !follower.outbox.send_shared(&shared) {
                self.unfollow(conn);
                return;
            }
            follower.role.seen = Some(v);
        }
    }

    /// Reads the events after `after` from PostgreSQL into the history (and to followers).
    async fn fill_from_store(&mut self, after: u64) {
        let Some(events) = self.link.events_after(&self.match_id, after).await else {
            return;
        };
        for event in events {
            let v = event.v;
            self.record(v, ServerMessage::MatchEvent(event));
        }
    }

    /// Messages may have been lost: catch up from PostgreSQL, and check who owns the match.
    async fn resync(&mut self) -> Next {
        let from = self
            .room
            .last_v()
            .or_else(|| self.room.followers().filter_map(|f| f.role.seen).min());
        if let Some(from) = from {
            self.fill_from_store(from).await;
            let conns: Vec<ConnId> = self.room.followers().map(|f| f.outbox.id()).collect();
            for conn in conns {
                self.bring_up_to_date(conn).await;
            }
        }
        let next = self.find_owner(false).await;
        if let Next::Continue = next {
            self.send_pending_again();
        }
        next
    }

    /// Answers may have been lost with the messages (or the commands themselves): what is
    /// pending goes to the owner again. The match carries out an id once and answers a
    /// repeat as a duplicate, so this is safe for watches, resumes and actions; a join is not
    /// sent twice (a second one could take a seat the first one took, or be refused for it).
    fn send_pending_again(&mut self) {
        for pending in &mut self.pending {
            if !matches!(pending.command, RemoteCommand::Join { .. }) {
                pending.resent = true;
            }
        }
        for pending in self.pending.iter().filter(|p| p.resent) {
            if !matches!(pending.command, RemoteCommand::Join { .. }) {
                self.send_to_owner(&pending.outbox, pending.command.clone());
            }
        }
    }

    /// Takes the match over when its owner has left the live nodes.
    async fn check_owner(&mut self) -> Next {
        if self.link.is_alive(&self.owner) {
            return Next::Continue;
        }
        self.find_owner(false).await
    }

    /// Asks PostgreSQL who owns the match (taking it over if nobody alive does) and goes on
    /// with that owner.
    /// With `resend`, what is pending goes out again even to an owner that did not change
    /// (it answered that it is not the owner, so nothing of it was carried out).
    async fn find_owner(&mut self, resend: bool) -> Next {
        let (owner, epoch) = match self.link.owner(&self.match_id).await {
            Some((Some(owner), epoch)) if owner != *self.link.me() => (owner, epoch),
            Some((owner, _)) => {
                // This node (its actor dropped) takes its own back at once; an orphan is left
                // to the node it spreads to (whose sweeper takes it as soon as it sees the
                // owner's lease run out; the next check here finds it there), or to anyone
                // after a few sweeps.
                let take_over = if owner.is_some() {
                    self.link.take_over(&self.match_id)
                } else {
                    self.link.take_over_orphan(&self.match_id)
                };
                match take_over.await {
                    TakeOver::Here(actor) => {
                        self.hand_over(&actor);
                        return Next::Stop;
                    }
                    TakeOver::Elsewhere(owner, epoch) => (owner, epoch),
                    TakeOver::Gone | TakeOver::Failed | TakeOver::Later => return Next::Continue,
                }
            }
            // No such match (any more), or PostgreSQL cannot say: ask again later.
            None => return Next::Continue,
        };
        if resend || owner != self.owner || epoch > self.epoch {
            self.retarget(owner, epoch);
        }
        Next::Continue
    }

    /// The match has a new owner: what is pending goes there, and every player is seated
    /// there again with the version it has.
    fn retarget(&mut self, owner: NodeRef, epoch: u64) {
        tracing::info!(match_id = %self.match_id, %owner, epoch, "the match moved");
        self.owner = owner;
        self.epoch = epoch;
        for follower in self.room.followers() {
            if self.seating(follower.outbox.id()) {
                continue;
            }
            for token in &follower.role.tokens {
                let resume = RemoteCommand::Resume {
                    id: 0,
                    token: SeatKey::Token(token.clone()),
                    since_v: follower.role.seen,
                    carried: true,
                };
                self.send_to_owner(&follower.outbox, resume);
            }
        }
        for pending in &mut self.pending {
            pending.resent = true;
        }
        for pending in &self.pending {
            self.send_to_owner(&pending.outbox, pending.command.clone());
        }
        self.reported = 0;
        self.report_crowd();
    }

    /// Whether a pending command of `conn` (a watch, join or resume) seats or follows it
    /// anyway, so it needs no re-seating of its own.
    fn seating(&self, conn: ConnId) -> bool {
        self.pending
            .iter()
            .any(|p| p.outbox.id() == conn && p.seats())
    }

    /// Gives every follower and pending command to the match's actor on this node.
    fn hand_over(&mut self, actor: &MatchHandle) {
        tracing::info!(match_id = %self.match_id, followers = self.room.len(), "taken over here");
        // The actor follows them now; their goodbyes go to it by the same match id.
        for follower in self.room.drain() {
            let seating = self
                .pending
                .iter()
                .any(|p| p.outbox.id() == follower.outbox.id() && p.seats());
            if seating {
                continue;
            }
            let Follows { seen, tokens, .. } = &follower.role;
            for token in tokens {
                let _ = actor.try_send(Command::Resume {
                    outbox: follower.outbox.clone(),
                    id: 0,
                    token: SeatKey::Token(token.clone()),
                    since_v: *seen,
                    carried: true,
                });
            }
            if follower.role.is_watcher() {
                let _ = actor.try_send(Command::Watch {
                    outbox: follower.outbox,
                    id: 0,
                    since_v: *seen,
                    carried: true,
                });
            }
        }
        for Pending {
            outbox, command, ..
        } in self.pending.drain(..)
        {
            let (asker, id) = (outbox.clone(), command.id());
            let local = command.into_command(outbox);
            if let Err(refusal) = actor.try_send(local) {
                asker.refuse(id, refusal);
            }
        }
    }

    /// Counts the watchers again; a changed count goes to the owner as the throttle allows.
    fn crowd_changed(&mut self) {
        let watchers = self.room.watchers_here();
        if watchers != self.reported && self.crowd.changed(Instant::now()) {
            self.report_crowd();
        }
    }

    /// Tells the owner how many watch here now.
    fn report_crowd(&mut self) {
        self.crowd.sent(Instant::now());
        let watchers = self.room.watchers_here();
        if watchers == self.reported {
            return;
        }
        let crowd = ToOwner::Crowd {
            match_id: self.match_id.clone(),
            from: self.link.me().clone(),
            watchers,
        };
        if self.link.send(&self.owner, crowd) {
            self.reported = watchers;
        }
    }
}

/// A relayed protocol message (postcard, as [`Encoding::Postcard`] encodes it).
/// The command id `message` answers, if it is an answer (an ack, a refusal of an envelope, a
/// seat in this match). A seat in another match (a rematch's, id 0) answers nothing here.
fn answer_id(message: &ServerMessage, match_id: &str) -> Option<u64> {
    match message {
        ServerMessage::Ack(ack) => Some(ack.id),
        ServerMessage::Error(error) => error.id,
        ServerMessage::Seat(seat) | ServerMessage::Paired(Paired { seat, .. })
            if seat.match_id == match_id =>
        {
            Some(seat.id)
        }
        _ => None,
    }
}

fn decode_relayed(bytes: &[u8]) -> Option<ServerMessage> {
    Encoding::Postcard
        .decode_server(FrameRef::Binary(bytes))
        .ok()
}

/// The answer to a command that reached this proxy as it stopped.
fn moved() -> Refusal {
    Refusal::new(
        ErrorCode::Busy,
        "this match moved between servers as you asked; send it again",
    )
    .with(ErrorArgs::new("match_moved"))
}

#[cfg(test)]
mod tests;
