//! The match actor: the single writer of one match.
//!
//! Commands arrive on a bounded mailbox. For each one the actor decides (pure), folds the
//! events into the state (which also checks them; a savepoint undoes them if anything fails),
//! commits them to storage, and only once they are durable acknowledges and hands every
//! subscriber the event, encoded once per encoding. The running clock's flag is a timer in the
//! same loop, so a player whose time runs out loses even if nobody sends anything.
//!
//! In a cluster the actor runs on the node that owns the match, under an epoch
//! ([`Ownership`]): its writes carry the epoch, and when the store refuses one because another
//! node has taken the match over (or this node lost its lease) it stops at once, changing
//! nothing, and hands its followers over ([`Directory::moved`]).
//!
//! A lease that lapses (renewing failed: PostgreSQL unreachable, or the node was frozen)
//! only *suspends* the match (issue 28, item 8): it keeps its seats, followers and state,
//! answers `watch` and `resume` from memory, refuses every command that would need a write
//! with `storage_unavailable` — never a rules verdict from a state that may be stale — and
//! lets no clock run out. Once the lease is held again it claims itself back
//! ([`Reclaim`](super::ownership::Reclaim)) and goes on in place if nobody else owned it in
//! between; otherwise it stops and hands over as above.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{
    BySide, ChatRoom, ErrorArgs, ErrorCode, MatchEvent, MatchEventMsg, MatchPhase, Paired,
    PlayerRating, PoolPreset, Resumed, Seat, ServerMessage, Side, Target,
};
use tokio::sync::{oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::chat::{ChatRequest, MatchChat};
use super::clock::MAX_TRANSIT;
use super::decide::{Action, Decision, Timeouts};
use super::directory::Directory;
use super::handle::{Command, Mailbox, MatchHandle, stopped};
use super::kept::Kept;
use super::ownership::{Displaced, LeaseHeld, Ownership, Reclaim, Reclaimed};
use super::player::Player;
use super::player::SeatKey;
use super::record::Record;
use super::retry::{self, Retry};
use super::state::{MatchState, new_token};
use crate::accounts::secret;
use crate::ops::shutdown::{Shutdown, TaskGuard};
use crate::ratings::{glicko, pdn, stored};
use crate::refusal::Refusal;
use crate::room::fanout::{Catchup, Fanout, Role};
use crate::room::outbox::Outbox;
use crate::storage::coordination::NodeRef;
use crate::storage::{Storage, StorageError, Write, now_ms};

/// Crowd counts go out at most this often per match.
const CROWD_EVERY: Duration = Duration::from_secs(2);
/// The last events kept for replay to a reconnecting client, as lila-ws keeps a round's;
/// one that missed more gets a snapshot (PROTOCOL.md §8).
const REPLAY: usize = 20;
/// How long a suspended match waits before claiming itself back again after a try that
/// storage did not answer.
const RECLAIM_RETRY: Duration = Duration::from_millis(500);
/// How often a match whose writes storage refused asks it again (with a heartbeat write)
/// whether it takes writes, so that the held clock goes on soon after it does: at most this
/// much of the time after an outage is charged to nobody.
const PROBE_EVERY: Duration = Duration::from_millis(500);

mod presence;
mod seat_tokens;
#[cfg(test)]
mod tests;

/// What the actor's one timer ([`Actor::next_wake`]) wakes it for.
#[derive(Debug, Clone, Copy)]
enum Wake {
    /// The match's own deadline: a flag, a missed first move, a claim that may be made.
    Match,
    /// Storage refused writes: ask it again whether it takes them.
    Probe,
    /// The watcher count is due out to the followers.
    Crowd,
    /// Finished and followed by nobody for the linger time: leave memory.
    Linger,
}

/// Settings of the matches: timing and the match limit.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// How long a player may be gone before the opponent may claim.
    pub grace: Duration,
    /// How long each player has for their first move before the match is aborted.
    pub first_move_timeout: Duration,
    /// How long a match may go on with nobody seated before it ends.
    pub abandon_after: Duration,
    /// How long a finished match nobody follows stays in memory.
    pub linger: Duration,
    /// Most matches in memory at once.
    pub max_matches: usize,
}

#[cfg(test)]
impl Settings {
    /// What the in-process tests run matches with: a minute's grace, 30 s for a first move,
    /// ten matches in memory at most.
    pub(crate) fn for_tests() -> Settings {
        Settings {
            grace: Duration::from_secs(60),
            first_move_timeout: Duration::from_secs(30),
            abandon_after: Duration::from_secs(600),
            linger: Duration::from_secs(60),
            max_matches: 10,
        }
    }
}

/// The seats a following connection holds (both when someone plays themselves); none for a
/// watcher.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Seats(BySide<bool>);

impl Seats {
    fn holds(&self, side: Side) -> bool {
        self.0[side]
    }
}

/// How a seat taken is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SeatAnswer {
    /// With its `seat`.
    Seat,
    /// Carried over from a proxy when the match moved here: with a `resumed` (PROTOCOL.md
    /// §3.5: no id-0 seat).
    Resumed,
    /// A play-now pairing whose member is connected to another node than the one that
    /// created the match: with `paired`.
    Paired(PoolPreset),
}

impl From<bool> for SeatAnswer {
    /// `carried` or not.
    fn from(carried: bool) -> Self {
        if carried {
            SeatAnswer::Resumed
        } else {
            SeatAnswer::Seat
        }
    }
}

impl Role for Seats {
    fn is_watcher(&self) -> bool {
        *self == Seats::default()
    }
}

struct Actor {
    state: MatchState,
    /// The connections following this match (players and watchers) and what it keeps of its
    /// last events.
    fanout: Fanout<Seats, Kept>,
    /// A new rematch whose players have not arrived yet ([`Command::Arrive`]): presence is
    /// not recorded before they have.
    awaiting_players: bool,
    /// Since when no connection holds a seat of this unfinished match.
    unseated_since: Option<Instant>,
    /// Whether the directory was last told to list this match ([`Actor::listed`]).
    listed: bool,
    /// Where this match registers itself and its tokens, and finds its rematch.
    directory: Arc<dyn Directory>,
    storage: Storage,
    settings: Settings,
    /// The epoch this node owns the match under (0 on a single node); every write carries it.
    epoch: u64,
    /// Turns true when this node's lease is lost (cluster only).
    lease_lost: Option<watch::Receiver<bool>>,
    /// Whether this node holds its lease at this instant (cluster only).
    lease_held: Option<LeaseHeld>,
    /// Watchers of this match on other nodes, as each last reported (cluster only).
    watchers_elsewhere: HashMap<NodeRef, u32>,
    /// Another node owns the match now: this actor stops without applying anything more.
    moved: bool,
    /// Claims the match back after a lapse of the lease (cluster only).
    reclaim: Option<Reclaim>,
    /// The lease lapsed: nothing is written or decided until the match is claimed back
    /// (then it goes on) or found lost (then it stops).
    suspended: bool,
    /// A suspended match claims itself back no earlier than this.
    reclaim_after: Instant,
    /// Starts hearing, once the match is suspended, whether another node took it over.
    displaced: Option<Displaced>,
    /// While suspended: the node that announced it took the match over, once one does.
    newer_owner: Option<oneshot::Receiver<NodeRef>>,
    /// Since when no move could be accepted (the first write refused for want of storage,
    /// or the lapse of the lease, whichever came first); cleared by the next write that
    /// storage takes.
    unavailable_since: Option<Instant>,
    /// While `unavailable_since`, storage is asked again no earlier than this.
    probe_after: Instant,
    /// Hears this node's storage go down (from when it first refused a write: the
    /// heartbeat's or another match's) and come back, so a match that writes nothing holds
    /// its clock too.
    storage_down: watch::Receiver<Option<Instant>>,
    /// The match's chat: its two rooms' last lines ([`MatchChat`]).
    chat: MatchChat,
    /// A write this match owes by itself (a forfeit, an abort, an abandon) that storage
    /// refused: tried again after a back-off, not in a hot loop.
    owed: Retry,
    /// Keeps shutdown waiting until this match has stopped.
    _guard: TaskGuard,
}

/// Starts the actor for `state`, whose events so far are `records` and whose chat is `chat`
/// (still to be read from storage, unless the match is new); a rematch's actor
/// (`awaiting_players`) records presence only once its players have arrived.
#[allow(clippy::too_many_arguments)]
pub(crate) fn spawn(
    state: MatchState,
    records: &[Record],
    chat: MatchChat,
    awaiting_players: bool,
    directory: Arc<dyn Directory>,
    storage: Storage,
    settings: Settings,
    ownership: Ownership,
    shutdown: Shutdown,
    guard: TaskGuard,
) -> MatchHandle {
    let (handle, rx) = MatchHandle::channel(shutdown.clone());
    let mut fanout = Fanout::new(REPLAY, Target::Match(state.id.clone()), CROWD_EVERY);
    let Ownership {
        epoch,
        mirror,
        lease_lost,
        lease_held,
        reclaim,
        displaced,
    } = ownership;
    if let Some(mirror) = mirror {
        fanout.mirror(mirror);
    }
    let first_kept = records.len().saturating_sub(REPLAY);
    for (i, record) in records.iter().enumerate().skip(first_kept) {
        fanout.keep(i as u64 + 1, Kept::of(&record.event));
    }
    let state_public = state.setup.public;
    let storage_down = storage.watch_down();
    let actor = Actor {
        state,
        fanout,
        awaiting_players,
        unseated_since: None,
        // What the hub registered at the start: a public match is listed until told otherwise.
        listed: state_public,
        directory,
        storage,
        settings,
        epoch,
        lease_lost,
        lease_held,
        watchers_elsewhere: HashMap::new(),
        moved: false,
        reclaim,
        suspended: false,
        reclaim_after: Instant::now(),
        displaced,
        newer_owner: None,
        unavailable_since: None,
        probe_after: Instant::now(),
        storage_down,
        owed: Retry::default(),
        chat,
        _guard: guard,
    };
    tokio::spawn(actor.run(rx, shutdown));
    handle
}

/// The answer to a command that reached this node's actor after another node took the match
/// over: nothing was done, and the same command will be carried out where the match is now.
fn moved_refusal() -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        "the match moved to another server; send it again",
    )
    .with(ErrorArgs::new("match_moved"))
}

/// The answer to a command that needs a write or a decision while the match is suspended.
fn suspended_refusal() -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        "storage is unavailable: nothing was applied; try again shortly",
    )
    .with(ErrorArgs::new("unreachable"))
}

/// Completes when this node's lease is lost (`lost`), or held again (`!lost`); never on a
/// single node.
async fn lease_turns(lost: &mut Option<watch::Receiver<bool>>, to_lost: bool) {
    match lost {
        Some(lost) => {
            if lost.wait_for(|lost| *lost == to_lost).await.is_err() {
                // The lease is gone with its sender: the node is stopping; shutdown follows.
                std::future::pending::<()>().await;
            }
        }
        None => std::future::pending().await,
    }
}

fn event_message(match_id: &str, v: u64, record: &Record) -> ServerMessage {
    ServerMessage::MatchEvent(MatchEventMsg {
        match_id: match_id.to_owned(),
        v,
        event: record.event.clone(),
    })
}

impl Actor {
    /// Runs the match until it stops. Not an `async fn`: the future of one keeps each argument
    /// twice (as captured, and in the local it is moved into at the start), and the actor is
    /// 1.7 KiB; an `async move` block uses what it captured in place (BENCHMARKS.md, "A live
    /// match's own memory").
    #[allow(clippy::manual_async_fn)]
    fn run(mut self, mut rx: Mailbox, mut shutdown: Shutdown) -> impl Future<Output = ()> {
        async move {
            // Nobody is connected yet (a new match gets its creator right after, a recovered one
            // has lost everybody): record who is gone. A rematch waits for its players instead.
            if !self.awaiting_players {
                self.reconcile_presence(&[]).await;
            }
            loop {
                self.note_unseated();
                let wake = self.next_wake();
                let (suspended, reclaim_after) = (self.suspended, self.reclaim_after);
                let mut newer_owner = self.newer_owner.take();
                tokio::select! {
                    _ = shutdown.recv() => break,
                    heard = async {
                        match newer_owner.as_mut() {
                            Some(heard) => heard.await,
                            None => std::future::pending().await,
                        }
                    } => {
                        newer_owner = None;
                        // Without an answer the hearing stopped (the node is stopping): the match
                        // stays suspended and storage settles it once it answers again.
                        if let Ok(owner) = heard {
                            tracing::warn!(match_id = %self.state.id, epoch = self.epoch, %owner,
                                "another node took the suspended match over: it stops here");
                            self.moved = true;
                        }
                    }
                    () = async {
                        lease_turns(&mut self.lease_lost, !suspended).await;
                        if suspended {
                            sleep_until(reclaim_after).await;
                        }
                    } => {
                        if suspended {
                            self.try_reclaim().await;
                        } else {
                            self.lease_lapsed();
                        }
                    }
                    command = rx.recv() => match command {
                        Some(command) => self.handle(command).await,
                        None => break,
                    },
                    Ok(()) = self.storage_down.changed() => {
                        let down = *self.storage_down.borrow_and_update();
                        match down {
                            Some(since) => self.unavailable(since),
                            // A suspended match goes on only once it is claimed back.
                            None if !self.suspended => self.storage_back(Instant::now()),
                            None => {}
                        }
                    }
                    _ = sleep_until(wake.map_or_else(Instant::now, |(at, _)| at)), if wake.is_some() => {
                        match wake.map(|(_, why)| why) {
                            Some(Wake::Match) => self.handle_timeout(Instant::now()).await,
                            Some(Wake::Probe) => self.probe_storage().await,
                            Some(Wake::Crowd) if self.fanout.send_crowd() => self.publish_summary(),
                            Some(Wake::Linger) => {
                                self.directory.remove(&self.state.id);
                                break;
                            }
                            Some(Wake::Crowd) | None => {}
                        }
                    }
                }
                // Still suspended and nothing heard yet: keep hearing.
                if self.suspended && self.newer_owner.is_none() {
                    self.newer_owner = newer_owner;
                }
                // A seat holder dropped while sending (gone, or too slow) says no goodbye that
                // finds anything to remove: presence is recorded again before the next command.
                if self.moved {
                    break;
                }
                if self.fanout.take_lost_players() {
                    self.reconcile_presence(&[]).await;
                }
                // A seek's creator left or came back: the lobby drops or shows it again.
                if self.listed() != self.listed {
                    self.publish_summary();
                }
            }
            // Commands that arrived too late are answered, not dropped.
            rx.close();
            while let Ok(command) = rx.try_recv() {
                if let Some((outbox, id)) = command.asker() {
                    let refusal = if self.moved {
                        moved_refusal()
                    } else {
                        stopped(&shutdown)
                    };
                    outbox.refuse(id, refusal);
                }
            }
            if self.moved {
                self.hand_over();
            }
            tracing::debug!(match_id = %self.state.id, "match actor stopped");
        }
    }

    /// From `from` no move can be accepted (storage refused a write, or the lease lapsed):
    /// the side to move's time is held (PROTOCOL.md §12: nobody is charged for time in which
    /// no move of theirs could be accepted, and no flag falls in it).
    fn unavailable(&mut self, from: Instant) {
        if self.unavailable_since.is_none() {
            self.unavailable_since = Some(from);
            self.probe_after = Instant::now() + PROBE_EVERY;
        }
        self.state.hold_time(from.into_std());
    }

    /// Storage took a write at `now`: the held time goes on from here.
    fn storage_back(&mut self, now: Instant) {
        if let Some(since) = self.unavailable_since.take() {
            self.state.release_time(since.into_std(), now.into_std());
            let outage = now.saturating_duration_since(since);
            tracing::info!(match_id = %self.state.id, outage_ms = outage.as_millis() as u64,
                "the clock stood still while storage was unavailable");
        }
    }

    /// Asks storage whether it takes writes again (a heartbeat, which changes no match):
    /// if it does, the held time goes on; if not, it is asked again after [`PROBE_EVERY`].
    async fn probe_storage(&mut self) {
        let at_ms = now_ms();
        match self.storage.commit(vec![Write::Heartbeat { at_ms }]).await {
            Ok(()) => self.storage_back(Instant::now()),
            Err(_) => self.probe_after = Instant::now() + PROBE_EVERY,
        }
    }

    /// Suspends the match (or stops it, if it cannot claim itself back) if this node no
    /// longer holds its lease without a break: another node may own it.
    fn check_lease(&mut self) {
        if !self.moved && !self.suspended && self.lease_held.as_ref().is_some_and(|held| !held()) {
            self.lease_lapsed();
        }
    }

    /// The lease lapsed: the match is suspended, or stops if it cannot claim itself back.
    fn lease_lapsed(&mut self) {
        if self.reclaim.is_some() {
            tracing::warn!(match_id = %self.state.id, "this node's lease lapsed: the match is suspended until it is held again");
            self.suspended = true;
            self.reclaim_after = Instant::now();
            self.unavailable(Instant::now());
            // Cut off from PostgreSQL alone, this node learns of a take-over only on the bus.
            self.newer_owner = self.displaced.as_ref().map(|hear| hear(self.epoch));
        } else {
            tracing::warn!(match_id = %self.state.id, "this node lost its lease: the match stops here");
            self.moved = true;
        }
    }

    /// Claims a suspended match back if the lease is held again: it goes on in place under
    /// the next epoch, stops (another node owned it meanwhile), or tries again later.
    async fn try_reclaim(&mut self) {
        let Some(reclaim) = self.reclaim.clone() else {
            self.moved = true;
            return;
        };
        match reclaim(self.epoch, self.state.v).await {
            Reclaimed::Kept(ownership) => {
                let Ownership {
                    epoch,
                    mirror,
                    lease_lost,
                    lease_held,
                    reclaim,
                    displaced,
                } = ownership;
                self.epoch = epoch;
                self.displaced = displaced;
                self.newer_owner = None;
                if let Some(mirror) = mirror {
                    self.fanout.mirror(mirror);
                }
                self.lease_lost = lease_lost;
                self.lease_held = lease_held;
                self.reclaim = reclaim;
                self.suspended = false;
                // Storage took the claim: the player to move is not charged the outage.
                self.storage_back(Instant::now());
                // Who came and went while nothing could be written is recorded now.
                self.reconcile_presence(&[]).await;
            }
            Reclaimed::Lost => self.moved = true,
            Reclaimed::NotYet => self.reclaim_after = Instant::now() + RECLAIM_RETRY,
        }
    }

    /// Another node owns the match now: this actor is gone from the directory, and this
    /// node's followers go to whatever follows the new owner. Followers on other nodes are
    /// left to their own node, which learns of the new owner.
    fn hand_over(&mut self) {
        let local = self
            .fanout
            .drain()
            .map(|f| f.outbox)
            .filter(|outbox| !outbox.is_remote() && !outbox.is_closed())
            .collect();
        self.directory.moved(&self.state.id, local);
    }

    async fn handle(&mut self, command: Command) {
        // A node paused past its lease answers nothing from what may be a stale state.
        self.check_lease();
        // Claimed back before answering if the lease is held again (a frozen node may learn
        // both at once); if not, storage is asked whether another node took the match, and
        // if it cannot say, what follows is answered from memory.
        if self.suspended && Instant::now() >= self.reclaim_after {
            self.try_reclaim().await;
        }
        // A timeout that came since the last look (a flag fell) ends the match before
        // anything else happens; for a move, one that came before it reached the first node.
        if !self.moved && !self.suspended {
            let at = match &command {
                Command::Act { received, .. } => *received,
                _ => Instant::now(),
            };
            self.handle_timeout(at).await;
        }
        if self.moved {
            if let Some((outbox, id)) = command.asker() {
                outbox.refuse(id, moved_refusal());
            }
            return;
        }
        // Suspended: what is answered from memory is (watching, resuming, leaving); what
        // would write or decide is refused, nothing applied.
        if self.suspended
            && let Command::Act { outbox, id, .. } | Command::Join { outbox, id, .. } = &command
        {
            outbox.refuse(*id, suspended_refusal());
            return;
        }
        // Whoever starts following is sent the chat too: it is read back first, but not
        // while storage is out (watching and resuming are answered from memory then; chat
        // is refused until it can be read).
        if !self.suspended
            && self.unavailable_since.is_none()
            && matches!(
                command,
                Command::Watch { .. }
                    | Command::Join { .. }
                    | Command::Resume { .. }
                    | Command::Chat { .. }
            )
        {
            self.load_chat().await;
        }
        match command {
            Command::Watch {
                outbox,
                id,
                since_v,
                carried,
            } => {
                if carried {
                    self.send_resumed(&outbox, None);
                } else {
                    outbox.ack(id);
                }
                self.catch_up(&outbox, since_v, &[]);
                let seated = self
                    .fanout
                    .get(outbox.id())
                    .is_some_and(|sub| !sub.role.is_watcher());
                self.send_chat_history(&outbox, seated);
                // A watcher that is already gone is simply not followed; one on another node
                // is followed by its own node, which relays the events.
                if !outbox.is_remote() {
                    let _ = self.subscribe(outbox, None);
                }
            }
            Command::Unwatch { outbox, id } => {
                let conn = outbox.id();
                // A player keeps the events of the match they play; but the creator of a
                // waiting match who unwatches it has left its waiting screen (the terminal
                // client's `q` home): the seat is kept for `resume`, and the seek leaves the
                // lobby until then, so nobody joins a player who is not there.
                let waiting = self.state.phase() == MatchPhase::Waiting;
                if self
                    .fanout
                    .get(conn)
                    .is_some_and(|sub| sub.role.is_watcher() || waiting)
                {
                    self.fanout.remove(conn);
                    let _ = outbox.note_subscription(&self.state.id, false);
                    self.crowd_changed();
                }
                outbox.ack(id);
            }
            Command::Join {
                outbox,
                id,
                player,
                myself,
            } => self.join(outbox, id, player, myself).await,
            Command::Resume {
                outbox,
                id,
                token,
                since_v,
                carried,
            } => match token {
                SeatKey::Token(token) => match self.state.side_of_token(&token) {
                    Some(side) => {
                        self.state.keep_token(side, &token);
                        self.take_seat(outbox, id, side, since_v, carried.into())
                            .await
                    }
                    // Nobody asked for a carried seat: a wrong one is simply not kept.
                    None if carried => {}
                    None => outbox.refuse(id, self.wrong_token()),
                },
                SeatKey::Paired { token, preset } => match self.state.side_of_token(&token) {
                    Some(side) => {
                        self.state.keep_token(side, &token);
                        let answer = SeatAnswer::Paired(preset);
                        self.take_seat(outbox, id, side, since_v, answer).await
                    }
                    None => outbox.refuse(id, self.wrong_token()),
                },
                SeatKey::Rematch { of, side } => {
                    // Ours only if this is `of`'s rematch; nobody asked for it by id, so
                    // anything else is simply not answered.
                    let new_side = side.opposite();
                    if self.state.setup.rematch_of.as_deref() == Some(of.as_str())
                        && self.state.seat(new_side).is_some()
                    {
                        match self.know_seat_token(new_side).await {
                            Ok(()) => {
                                self.take_seat(outbox, id, new_side, since_v, SeatAnswer::Seat)
                                    .await
                            }
                            // Handed again on the player's next return to the old match.
                            Err(refusal) => tracing::warn!(
                                match_id = %self.state.id, %refusal,
                                "cannot hand a rematch seat out"
                            ),
                        }
                    }
                }
                SeatKey::Account(account) => match self.state.side_of_account(account) {
                    Some(side) => {
                        // A carried seat is answered without its token (the client has it).
                        let known = if carried {
                            Ok(())
                        } else {
                            self.know_seat_token(side).await
                        };
                        match known {
                            Ok(()) => {
                                self.take_seat(outbox, id, side, since_v, carried.into())
                                    .await
                            }
                            Err(refusal) => outbox.refuse(id, refusal),
                        }
                    }
                    None if carried => {}
                    None => outbox.refuse(
                        id,
                        Refusal::new(
                            ErrorCode::NotAllowed,
                            format!("your account holds no seat in {}", self.state.id),
                        )
                        .with(
                            ErrorArgs::new("no_seat_for_account")
                                .word("match_id", self.state.id.as_str()),
                        ),
                    ),
                },
            },
            Command::Act {
                outbox,
                id,
                token,
                action,
                received,
            } => self.act(outbox, id, token, action, received).await,
            Command::Chat {
                outbox,
                id,
                request,
            } => {
                if let Err(refusal) = self.chat(&outbox, request).await {
                    outbox.refuse(id, refusal);
                } else {
                    outbox.ack(id);
                }
            }
            Command::Leave { conn } => {
                if self.fanout.remove(conn).is_some() {
                    self.crowd_changed();
                    self.reconcile_presence(&[]).await;
                }
            }
            Command::Arrive { players, paired } => self.arrive(players, paired).await,
            Command::Crowd { from, watchers } => {
                if watchers == 0 {
                    self.watchers_elsewhere.remove(&from);
                } else {
                    self.watchers_elsewhere.insert(from, watchers);
                }
                let elsewhere = self.watchers_elsewhere.values().sum();
                if self.fanout.set_watchers_elsewhere(elsewhere) {
                    self.publish_summary();
                }
            }
        }
    }

    /// Seats the players of a new rematch at once (see [`Command::Arrive`]), so that presence
    /// is first recorded knowing all of them: nobody is shown gone who never left.
    async fn arrive(
        &mut self,
        players: Vec<(Outbox, Side)>,
        paired: Option<(PoolPreset, BySide<u64>)>,
    ) {
        self.awaiting_players = false;
        let players: Vec<(Outbox, Side)> = players
            .into_iter()
            .filter(|(outbox, _)| outbox.note_subscription(&self.state.id, true))
            .collect();
        let sides: Vec<Side> = players.iter().map(|(_, side)| *side).collect();
        self.reconcile_presence(&sides).await;
        for (outbox, side) in &players {
            match paired {
                Some((preset, ids)) => self.send_paired(outbox, ids[*side], *side, preset),
                None => self.send_seat(outbox, 0, *side),
            }
            self.catch_up(outbox, None, &sides);
            self.send_chat_history(outbox, true);
        }
        let mut closed = false;
        for (outbox, side) in players {
            closed |= !self.subscribe(outbox, Some(side));
        }
        if closed {
            self.reconcile_presence(&[]).await;
        }
    }

    fn wrong_token(&self) -> Refusal {
        Refusal::new(
            ErrorCode::InvalidToken,
            format!(
                "this token holds no seat in match {}: watchers cannot act",
                self.state.id
            ),
        )
        .with(ErrorArgs::new("watcher").word("match_id", self.state.id.as_str()))
    }

    async fn join(&mut self, outbox: Outbox, id: u64, player: Player, myself: bool) {
        let holds_a_seat = self
            .fanout
            .get(outbox.id())
            .is_some_and(|sub| !sub.role.is_watcher());
        if holds_a_seat != myself && self.state.free_side().is_some() {
            let message = if myself {
                "only the connection that holds this match's other seat can join it to play itself"
                    .to_owned()
            } else {
                format!(
                    "this connection already holds the other seat of {}: to play yourself, join \
                     with {{\"myself\": \"{}\"}}",
                    self.state.id, self.state.id
                )
            };
            return outbox.refuse(
                id,
                Refusal::new(ErrorCode::NotAllowed, message).with(
                    ErrorArgs::new(if myself {
                        "myself_other_seat"
                    } else {
                        "holds_other_seat"
                    })
                    .word("match_id", self.state.id.as_str()),
                ),
            );
        }
        let token = new_token();
        let (side, record) = match self.state.decide_join(&player, token.clone(), myself) {
            Ok(joined) => joined,
            Err(refusal) => return outbox.refuse(id, refusal),
        };
        if let Err(refusal) = self.commit(vec![record]).await {
            return outbox.refuse(id, refusal);
        }
        self.directory
            .register_token_hash(&secret::hash(&token), &self.state.id);
        self.take_seat(outbox, id, side, None, SeatAnswer::Seat)
            .await;
    }

    /// Seats `outbox` at `side` (a join or a resume): its seat, then presence as it is now
    /// that this connection holds the seat, then what it missed, and only then its
    /// subscription. So its own snapshot already shows it connected, and a `PlayerReturned`
    /// it caused reaches it once (in the snapshot or in the events after `since_v`).
    ///
    /// The connection learns it follows this match before anything is sent, so if it closes
    /// at any point after that it says goodbye here; one that has closed already is not seated.
    /// Seats `outbox` on `side`, answered as `answer` says.
    async fn take_seat(
        &mut self,
        outbox: Outbox,
        id: u64,
        side: Side,
        since_v: Option<u64>,
        answer: SeatAnswer,
    ) {
        if !outbox.note_subscription(&self.state.id, true) {
            self.reconcile_presence(&[]).await;
            return;
        }
        match answer {
            SeatAnswer::Seat => self.send_seat(&outbox, id, side),
            SeatAnswer::Resumed => self.send_resumed(&outbox, Some(side)),
            SeatAnswer::Paired(preset) => self.send_paired(&outbox, id, side, preset),
        }
        self.reconcile_presence(&[side]).await;
        self.catch_up(&outbox, since_v, &[side]);
        self.send_chat_history(&outbox, true);
        if let Some(rematch) = self.state.rematch() {
            self.hand_rematch_seat(rematch, side, &outbox);
        }
        if !self.subscribe(outbox, Some(side)) {
            // It closed after its goodbye was arranged but before it was followed: the
            // goodbye will find nothing to remove, so its absence is recorded here.
            self.reconcile_presence(&[]).await;
        }
    }

    async fn act(
        &mut self,
        outbox: Outbox,
        id: u64,
        token: String,
        action: Action,
        received: Instant,
    ) {
        let Some(side) = self.state.side_of_token(&token) else {
            return outbox.refuse(id, self.wrong_token());
        };
        // Acting with a seat token holds the seat, like a resume.
        if self
            .fanout
            .get(outbox.id())
            .is_none_or(|sub| !sub.role.holds(side))
        {
            // A closed connection is not followed, and presence below shows it gone.
            let _ = self.subscribe(outbox.clone(), Some(side));
            self.reconcile_presence(&[]).await;
        }
        // A move is timed from its arrival at the first node (never later than now).
        let result = match self.state.decide(side, id, &action, received.into_std()) {
            Ok(Decision::Events(records)) => {
                let moved = matches!(action, Action::Move { .. }).then_some(received);
                self.commit_and_ack(records, Some((&outbox, id)), moved)
                    .await
            }
            Ok(Decision::Duplicate) => {
                outbox.ack_duplicate(id);
                Ok(())
            }
            Ok(Decision::StartRematch) => self.start_rematch(&outbox, side, id).await,
            Err(refusal) => Err(refusal),
        };
        if let Err(refusal) = result {
            outbox.refuse(id, refusal);
        }
    }

    async fn start_rematch(&mut self, outbox: &Outbox, by: Side, id: u64) -> Result<(), Refusal> {
        // Colours swapped: the old black player is white now.
        let players = [Side::White, Side::Black].map(|side| {
            let player = self
                .state
                .seat(side.opposite())
                .map_or_else(|| Player::person(""), |seat| seat.player.clone());
            (side, player)
        });
        let mut setup = self.state.setup.clone();
        setup.rematch_of = Some(self.state.id.clone());
        let (handle, new_id, _) = self.directory.create(setup, players.into(), true).await?;
        let mut started = Record::new(MatchEvent::RematchStarted(new_id.clone()));
        started.ack = Some((by, id));
        let committed = self
            .commit_and_ack(vec![started], Some((outbox, id)), None)
            .await;
        // Each player's connections get their new seat privately, all together, after the
        // event that announces the rematch; a player who is away gets it on coming back here
        // ([`Actor::hand_rematch_seat`]).
        let mut arrivals = Vec::new();
        if committed.is_ok() {
            for sub in self.fanout.followers() {
                for old_side in [Side::White, Side::Black] {
                    if sub.role.holds(old_side) && !sub.outbox.is_closed() {
                        arrivals.push((sub.outbox.clone(), old_side.opposite()));
                    }
                }
            }
        }
        // Sent even when empty: the rematch then records who is gone.
        let _ = handle.try_send(Command::Arrive {
            players: arrivals,
            paired: None,
        });
        committed
    }

    /// Sends the player who had `old_side` here their rematch seat (a `seat` with id 0),
    /// wherever rematch `rematch_id` runs: a rematch that moved to another node is looked
    /// up on a task of its own, since the lookup may wait for storage and the actor does not.
    /// The rematch seats them as this match's player ([`SeatKey::Rematch`]), so this match
    /// keeps none of the rematch's tokens: one read back after a restart or an unload hands
    /// the seat as the one that agreed the rematch.
    fn hand_rematch_seat(&self, rematch_id: &str, old_side: Side, outbox: &Outbox) {
        let resume = Command::Resume {
            outbox: outbox.clone(),
            id: 0,
            token: SeatKey::Rematch {
                of: self.state.id.clone(),
                side: old_side,
            },
            since_v: None,
            carried: false,
        };
        if let Some(rematch) = self.directory.running(rematch_id) {
            let _ = rematch.try_send(resume);
            return;
        }
        let directory = self.directory.clone();
        let rematch_id = rematch_id.to_owned();
        tokio::spawn(async move {
            if let Some(rematch) = directory.running_anywhere(&rematch_id).await {
                let _ = rematch.try_send(resume);
            }
        });
    }

    /// What the match's timeouts are measured against now.
    fn timeouts(&self) -> Timeouts {
        Timeouts {
            first_move: self.settings.first_move_timeout,
            abandon_after: self.settings.abandon_after,
            unseated_since: self.unseated_since.map(Instant::into_std),
        }
    }

    /// How long past a deadline the match waits for a move in transit: [`MAX_TRANSIT`] in a
    /// cluster (where moves pass between nodes), none on a single node.
    fn transit(&self) -> Duration {
        if self.lease_lost.is_some() {
            MAX_TRANSIT
        } else {
            Duration::ZERO
        }
    }

    /// Ends the match if its time had come at `at` (now, or when the move being answered
    /// reached the first node; [`MatchState::handle_timeout`]): the side to move ran out of
    /// time or missed its first move, or nobody has held a seat for
    /// [`Settings::abandon_after`] (a finished, unfollowed match then leaves memory like any).
    /// In a cluster that is [`MAX_TRANSIT`] late: a move on its way from another node, timed
    /// from its arrival there, may still come. Nothing is due while no move can be accepted
    /// (storage refuses writes): the held clock shows none, and a first move cannot be missed.
    /// The one time the actor next wakes by itself, and what for: the earliest of the match's
    /// own deadline ([`MatchState::poll_timeout`]), a storage probe, the watcher count due
    /// out, and leaving memory. Asked anew after everything the actor handles.
    fn next_wake(&self) -> Option<(Instant, Wake)> {
        // While storage refuses what the match owes, its timer waits out the back-off; a
        // suspended match lets no clock run out: no move could be accepted.
        let due = self
            .state
            .poll_timeout(&self.timeouts())
            .map(|due| self.owed.due(Instant::from_std(due) + self.transit()))
            // No flag falls, no first move is missed, while no move can be accepted.
            .filter(|_| !self.suspended && self.unavailable_since.is_none());
        // While storage refuses writes (and the lease holds), it is asked again shortly.
        let probe = self
            .unavailable_since
            .filter(|_| !self.suspended && !self.moved)
            .map(|_| self.probe_after);
        let crowd = self.fanout.crowd_due();
        // A finished match nobody follows leaves memory after lingering this long in peace.
        let idle = self.state.phase() == MatchPhase::Finished && self.fanout.is_empty();
        let linger = idle.then(|| Instant::now() + self.settings.linger);
        [
            due.map(|at| (at, Wake::Match)),
            probe.map(|at| (at, Wake::Probe)),
            crowd.map(|at| (at, Wake::Crowd)),
            linger.map(|at| (at, Wake::Linger)),
        ]
        .into_iter()
        .flatten()
        .min_by_key(|(at, _)| *at)
    }

    async fn handle_timeout(&mut self, at: Instant) {
        if self.unavailable_since.is_some() {
            return;
        }
        let transit = self.transit();
        let now = at.checked_sub(transit).unwrap_or(at).into_std();
        if let Some(record) = self.state.handle_timeout(now, &self.timeouts()) {
            let committed = self.commit(vec![record]).await;
            self.owe(committed, "cannot record a forfeit or abort");
        }
    }

    /// Notes how a write the match owes by itself went: on a refusal it is tried again after
    /// a back-off, and a refusal that repeats is logged once per [`retry::LOG_EVERY`].
    fn owe(&mut self, committed: Result<(), Refusal>, what: &'static str) {
        match committed {
            Ok(()) => {
                if self.owed.succeeded() {
                    tracing::info!(match_id = %self.state.id, "storage took what the match owed");
                }
            }
            Err(refusal) => {
                let failed = self.owed.failed(Instant::now());
                if let Some(failures) = failed.log {
                    tracing::warn!(match_id = %self.state.id, %refusal, failures,
                        retry_in = ?failed.retry_in, "{what}; trying again");
                }
            }
        }
    }

    /// Commits `records`, then applies and broadcasts them. Nothing changes on failure.
    async fn commit(&mut self, records: Vec<Record>) -> Result<(), Refusal> {
        self.commit_and_ack(records, None, None).await
    }

    /// Commits `records`; once durable, acknowledges envelope `ack` (if given), then applies
    /// and broadcasts them. Nothing changes on failure. `moved`: when the move these records
    /// carry out reached the match, for the move→ack latency (counted before the ack goes).
    async fn commit_and_ack(
        &mut self,
        records: Vec<Record>,
        ack_to: Option<(&Outbox, u64)>,
        moved: Option<Instant>,
    ) -> Result<(), Refusal> {
        // Boxed, so that its state (a savepoint, the writes, the round trip to storage) lives
        // while a commit does: every path of the actor comes here, and inline it would be
        // part of the task's future, which is allocated at its largest for the match's life.
        Box::pin(self.commit_now(records, ack_to, moved)).await
    }

    async fn commit_now(
        &mut self,
        mut records: Vec<Record>,
        ack_to: Option<(&Outbox, u64)>,
        moved: Option<Instant>,
    ) -> Result<(), Refusal> {
        self.check_lease();
        if self.moved {
            return Err(moved_refusal());
        }
        if self.suspended {
            return Err(suspended_refusal());
        }
        let now = Instant::now().into_std();
        // The records are applied to the one state right away (which also checks them); a
        // savepoint (no copy of the move list) puts it back if anything fails before they
        // are durable.
        let savepoint = self.state.savepoint();
        let first_v = self.state.v + 1;
        let was_over = self.state.result().is_some();
        let mut writes = Vec::with_capacity(records.len() + 1);
        let at_ms = now_ms();
        for record in &mut records {
            // Either failure is logged and answered alike: nothing was applied.
            let applied = match self.state.apply_new(record, now, at_ms) {
                Ok(()) => {
                    self.state
                        .announce_first_move(record, now, self.settings.first_move_timeout);
                    record
                        .write(&self.state.id, self.state.v, at_ms, self.epoch)
                        .map_err(|err| err.to_string())
                }
                Err(err) => Err(err.to_string()),
            };
            match applied {
                Ok(write) => writes.push(write),
                Err(err) => {
                    tracing::error!(match_id = %self.state.id, %err, "event does not apply");
                    self.state.restore(savepoint);
                    return Err(Refusal::new(
                        ErrorCode::Internal,
                        "internal error: nothing was applied",
                    )
                    .with(ErrorArgs::new("internal")));
                }
            }
        }
        if self.state.result().is_some() && !was_over {
            // A rated result is rated here, before it is written: its change goes into the
            // `ended` event and the PDN, and both rating rows into this same request.
            match self.rate(&mut records, &mut writes, first_v, at_ms).await {
                Ok(rating_writes) => writes.extend(rating_writes),
                Err(err) => {
                    self.state.restore(savepoint);
                    tracing::warn!(match_id = %self.state.id, %err, "cannot read the players' ratings");
                    return Err(Refusal::storage(&err, "nothing was applied"));
                }
            }
            let pdn = self.state.pdn().unwrap_or_else(|err| {
                tracing::error!(match_id = %self.state.id, %err, "cannot export PDN");
                String::new()
            });
            writes.push(Write::Finish {
                match_id: self.state.id.clone(),
                result: self.state.result_token().to_owned(),
                pdn,
                epoch: self.epoch,
            });
        }
        if let Err(err) = self.storage.commit(writes).await {
            self.state.restore(savepoint);
            if let StorageError::Fenced { epoch, .. } = err {
                tracing::warn!(match_id = %self.state.id, mine = self.epoch, now = epoch, "another node owns this match now: it stops here");
                self.moved = true;
                return Err(moved_refusal());
            }
            // No move could be accepted until storage takes a write again (whether it is
            // unreachable or refuses writes: a full disk, a failing SQLite file), from when
            // this node first saw it refuse one (its heartbeat, or another match) on.
            let now = Instant::from_std(now);
            let down = self
                .storage
                .down_since()
                .map_or(now, |since| since.min(now));
            self.unavailable(down);
            // Answered (the client sends it again): one line per while, however many there are.
            if let Some(refused) = retry::command_refused(Instant::now()) {
                tracing::warn!(match_id = %self.state.id, %err, refused, "storage refused events");
            }
            return Err(Refusal::storage(&err, "nothing was applied"));
        }
        // Storage takes writes again: the held time goes on (a move among these records has
        // set the clocks already, charged up to the hold).
        self.storage_back(Instant::from_std(now));
        if let Some(received) = moved {
            crate::ops::telemetry::move_acked(received.elapsed());
        }
        if let Some((outbox, id)) = ack_to {
            outbox.ack(id);
        }
        for (i, record) in records.iter().enumerate() {
            self.record_activity(&record.event);
            let v = first_v + i as u64;
            let message = event_message(&self.state.id, v, record);
            if self
                .fanout
                .publish_kept(v, Kept::of(&record.event), message)
                > 0
            {
                self.crowd_changed();
            }
        }
        self.publish_summary();
        Ok(())
    }

    /// Rates the result `records` just reached, if it is a rated one: reads both players'
    /// stored ratings, puts the change into the result (the state's and the `ended` record's,
    /// whose write is made again) and returns both rating rows to write with it. The rows'
    /// keys make storage refuse a game rated twice (a node that took the match over) and a
    /// rating read stale (another game of the player finished in between): then the whole
    /// request is refused, and the move or owed write that is tried again reads afresh.
    async fn rate(
        &mut self,
        records: &mut [Record],
        writes: &mut [Write],
        first_v: u64,
        at_ms: i64,
    ) -> Result<Vec<Write>, StorageError> {
        let Some((white, black, score)) = self.state.rating_plan() else {
            return Ok(Vec::new());
        };
        let accounts = self.storage.accounts();
        let white_perf = stored::read_perf(&*accounts, white).await?;
        let black_perf = stored::read_perf(&*accounts, black).await?;
        let at = stored::time_of(at_ms);
        let change = glicko::rate_game(&white_perf, &black_perf, score, at);
        let shown = pdn::shown(&change, at);
        self.state.set_rating_change(shown);
        for (i, record) in records.iter_mut().enumerate() {
            if let MatchEvent::Ended(result) = &mut record.event {
                result.rating_change = Some(shown);
                writes[i] = record
                    .write(&self.state.id, first_v + i as u64, at_ms, self.epoch)
                    .map_err(StorageError::Encode)?;
            }
        }
        Ok(stored::writes_of(&self.state.id, (white, black), &change, at_ms).into())
    }

    /// The info line for a committed event that an operator counts as activity: a player
    /// joined, the match ended.
    fn record_activity(&self, event: &MatchEvent) {
        let id = &self.state.id;
        match event {
            MatchEvent::PlayerJoined(joined) => crate::ops::activity::record(|| {
                tracing::info!(match_id = %id, side = ?joined.side, "match joined");
            }),
            MatchEvent::Ended(_) => crate::ops::activity::record(|| {
                tracing::info!(match_id = %id, result = self.state.result_token(), "match ended");
            }),
            _ => {}
        }
    }

    /// Sends what a (re)connecting client missed: the events after `since_v`, rebuilt as they
    /// were sent, or a snapshot (in which `arriving`, the seat the client is taking, shows as
    /// connected).
    fn catch_up(&self, outbox: &Outbox, since_v: Option<u64>, arriving: &[Side]) {
        let missed = since_v.and_then(|seen| match self.fanout.catchup(seen, self.state.v) {
            Catchup::Events(kept) => self
                .state
                .rebuild(&kept, self.settings.first_move_timeout)
                .map(|events| (seen, events)),
            Catchup::Snapshot => None,
        });
        match missed {
            Some((seen, events)) => {
                // The buffer is gap-free, so the events follow `seen` one by one.
                for (v, event) in (seen + 1..).zip(events) {
                    outbox.send(&ServerMessage::MatchEvent(MatchEventMsg {
                        match_id: self.state.id.clone(),
                        v,
                        event,
                    }));
                }
            }
            None => {
                let snapshot = self.state.live_snapshot(
                    Instant::now().into_std(),
                    self.connected(arriving),
                    self.settings.first_move_timeout,
                );
                outbox.send(&ServerMessage::MatchSnapshot(snapshot));
            }
        }
    }

    /// Tells a play-now player their seat (answering their `play_now` envelope `id`) and whom
    /// they play.
    fn send_paired(&self, outbox: &Outbox, id: u64, side: Side, preset: PoolPreset) {
        let (Some(seat), Some(opponent)) =
            (self.state.seat(side), self.state.seat(side.opposite()))
        else {
            return;
        };
        // Paired by its token, which the seat now knows.
        let Some(token) = seat.token.clone() else {
            return tracing::error!(match_id = %self.state.id, "a paired seat without its token");
        };
        outbox.send(&ServerMessage::Paired(Paired {
            preset,
            seat: Seat {
                id,
                match_id: self.state.id.clone(),
                invite_code: self.state.invite.clone(),
                side,
                token,
            },
            opponent: opponent.player.name.clone(),
            opponent_rating: opponent.player.rating.unwrap_or(PlayerRating {
                rating: 1500,
                provisional: true,
            }),
        }));
    }

    /// Reads the match's chat back from storage, once (a match started here has none yet,
    /// one read back after a restart or a take-over may). If storage cannot say, it is asked
    /// again next time, and chat is refused meanwhile.
    async fn load_chat(&mut self) {
        if self.chat.is_loaded() {
            return;
        }
        match self.storage.chat_lines(self.state.id.clone()).await {
            Ok(rows) => self.chat.load(&self.state.id, rows),
            Err(err) => {
                tracing::warn!(match_id = %self.state.id, %err, "cannot read the match's chat")
            }
        }
    }

    /// Says or deletes a chat line: checked, stored, and only then sent to its room.
    async fn chat(&mut self, outbox: &Outbox, request: ChatRequest) -> Result<(), Refusal> {
        if !self.chat.is_loaded() {
            return Err(Refusal::new(
                ErrorCode::StorageUnavailable,
                "the chat cannot be read now; nothing was said",
            )
            .with(ErrorArgs::new("chat_unreadable")));
        }
        let at_ms = now_ms();
        match request {
            ChatRequest::Say { author, say } => {
                // A seat holder speaks to the players, anyone else to the spectators.
                let room = if self
                    .fanout
                    .get(outbox.id())
                    .is_some_and(|sub| !sub.role.is_watcher())
                {
                    ChatRoom::Players
                } else {
                    ChatRoom::Spectators
                };
                let (line, write) = self.chat.say(
                    &self.state.id,
                    room,
                    &author,
                    outbox.id(),
                    say,
                    Instant::now().into_std(),
                    at_ms,
                )?;
                self.write_chat(write).await?;
                self.chat.said(line.clone());
                self.send_to_room(room, ServerMessage::ChatLine(line));
            }
            ChatRequest::Delete { by, line } => {
                let (deleted, write) = self.chat.delete(&self.state.id, line, by, at_ms)?;
                self.write_chat(write).await?;
                self.chat.deleted(deleted.room, deleted.line);
                self.send_to_room(deleted.room, ServerMessage::ChatDeleted(deleted));
            }
        }
        Ok(())
    }

    /// Stores a chat write: as any write of the match, only while this node owns it.
    async fn write_chat(&mut self, write: Write) -> Result<(), Refusal> {
        self.check_lease();
        if self.moved {
            return Err(moved_refusal());
        }
        if self.suspended {
            return Err(suspended_refusal());
        }
        self.storage
            .commit(vec![write])
            .await
            .map_err(|err| Refusal::storage(&err, "nothing was said"))
    }

    /// Sends a chat message to one room: the players (here or on other nodes, straight to
    /// their connection), or the spectators (here, and through the other nodes' proxies).
    fn send_to_room(&mut self, room: ChatRoom, message: ServerMessage) {
        let dropped = match room {
            ChatRoom::Players => self
                .fanout
                .send_to(message, |seats| !seats.is_watcher(), false),
            ChatRoom::Spectators => self.fanout.send_to(message, Seats::is_watcher, true),
        };
        if dropped > 0 {
            self.crowd_changed();
        }
    }

    /// Sends a follower the lines of its room so far, if there are any: the players' room to
    /// a player (`seated`), the spectators' to anyone else.
    fn send_chat_history(&self, outbox: &Outbox, seated: bool) {
        let room = if seated {
            ChatRoom::Players
        } else {
            ChatRoom::Spectators
        };
        let history = self.chat.history(&self.state.id, room);
        if !history.lines.is_empty() {
            outbox.send(&ServerMessage::ChatHistory(history));
        }
    }

    /// Tells a connection carried over to this node that it keeps its seat (or watch) here.
    fn send_resumed(&self, outbox: &Outbox, side: Option<Side>) {
        outbox.send(&ServerMessage::Resumed(Resumed {
            match_id: self.state.id.clone(),
            side,
        }));
    }

    /// Sends `side`'s seat with its token: every path that seats without the token presented
    /// first makes the actor know one ([`Actor::know_seat_token`]).
    fn send_seat(&self, outbox: &Outbox, id: u64, side: Side) {
        let Some(seat) = self.state.seat(side) else {
            return;
        };
        let Some(token) = seat.token.clone() else {
            return tracing::error!(match_id = %self.state.id, "a seat handed out without its token");
        };
        outbox.send(&ServerMessage::Seat(Seat {
            id,
            match_id: self.state.id.clone(),
            invite_code: self.state.invite.clone(),
            side,
            token,
        }));
    }

    /// Follows `outbox` from now on (holding `seat`, if any); false, following nothing, if
    /// the connection has closed.
    fn subscribe(&mut self, outbox: Outbox, seat: Option<Side>) -> bool {
        if !outbox.note_subscription(&self.state.id, true) {
            return false;
        }
        let mut seats = self
            .fanout
            .get(outbox.id())
            .map_or(Seats::default(), |sub| sub.role);
        if let Some(side) = seat {
            seats.0[side] = true;
        }
        let newcomer = outbox.clone();
        self.fanout.insert(outbox, seats);
        if !self.crowd_changed() {
            // Nobody was told a count, so the newcomer (a player taking the seat back, say)
            // would show none until the next change: it learns the current one now.
            self.fanout.tell_crowd(&newcomer);
        }
        true
    }

    /// Counts the watchers again after followers came or went; the count goes out as the
    /// fan-out's throttle allows. `true` if it changed (the lobby line then changes too).
    fn crowd_changed(&mut self) -> bool {
        let changed = self.fanout.crowd_changed();
        if changed {
            self.publish_summary();
        }
        changed
    }

    /// Whether the lobby lists this match (and lets anyone join it by id): a public match,
    /// except a seek whose creator holds no connection. Whoever joined that ghost would face
    /// nobody; it is listed again when the creator comes back, and aborted if they stay away
    /// ([`Settings::abandon_after`]).
    fn listed(&self) -> bool {
        self.state.setup.public
            && !(self.state.phase() == MatchPhase::Waiting
                && self.connected(&[]) == BySide::default())
    }

    fn publish_summary(&mut self) {
        self.listed = self.listed();
        self.directory
            .update_summary(self.state.summary(self.fanout.watchers()), self.listed);
    }
}
