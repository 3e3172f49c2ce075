//! "Play now" wired to connections and matches: a member's `play_now` enters the pool task
//! ([`crate::ratings::play_now`]), and each pairing it reports becomes a new rated match at the
//! preset with both members seated at once, each told by a `paired` that answers their
//! `play_now` envelope (then a snapshot, as after `seat`).
//!
//! The pool is keyed by account id; who is waiting where (their connection and envelope) is
//! kept here beside it, so a member who presses again (from any device) replaces the earlier
//! wait, and a connection that closes takes its member out. A pairing whose match cannot be
//! created (storage refuses, the node is full) is answered to both with that refusal: nobody
//! is left believing they wait.
//!
//! **Two halves.** The *member side* (every node) holds its own connections' waits
//! ([`Waiting`]) and is the one place that answers them: a wait ends exactly once, by a cancel,
//! a close, a refusal or one `paired`. The *pool side* runs the pool and seats pairings; it
//! runs on exactly one node. On a single node both halves are here. In a cluster one node owns
//! the pool (an ownership row with a fencing epoch, as a TV channel: `cluster::pool`), the
//! other nodes forward their members' entries and cancels to it ([`PoolLink`]), and it sends
//! each pairing back to the members' nodes, which seat their member in the match it created
//! (a `resume` answered `paired`: [`crate::matches::SeatKey::Paired`]). Before it seats a
//! pairing across nodes, the owner checks with a fenced write that it still owns the pool, so a
//! node that lost the pool (frozen past its lease, then woken) pairs nobody; a member whose
//! node hears of a new owner sends its entry there again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use boardcast_protocol::{BySide, ErrorArgs, ErrorCode, PoolPreset, Side, TimeControl};
use tokio::sync::{Semaphore, mpsc};

use crate::matches::directory::Directory;
use crate::matches::local::Hub;
use crate::matches::{Action, Command, Player, SeatKey, Setup};
use crate::ops::lock;
use crate::ratings::play_now::{self, Outcome, PlayNowHandle};
use crate::ratings::pool::{Pairing, PoolSettings, Seeker};
use crate::refusal::Refusal;
use crate::room::outbox::{ConnId, Outbox};
use crate::storage::coordination::NodeRef;

/// How many pairings may be seated at once (each is one storage commit); more wait.
const SEATING_AT_ONCE: usize = 64;
/// How many pool reports may wait for the seater.
const OUTCOMES: usize = 1024;
/// The last opponents remembered (so the pool avoids an accidental rematch); beyond this the
/// memory starts again, which only makes an immediate rematch possible once.
const LAST_OPPONENTS: usize = 100_000;

/// How the pool side of a cluster reaches other nodes (implemented over Redis and PostgreSQL
/// by `cluster::pool`); a single node has none.
#[async_trait::async_trait]
pub(crate) trait PoolLink: Send + Sync + 'static {
    /// Hands a member's entry to the pool at `owner`.
    fn join(&self, owner: &NodeRef, player: &Player, preset: PoolPreset);
    /// Takes this node's member `account` out of the pool at `owner`.
    fn cancel(&self, owner: &NodeRef, account: i64);
    /// Tells node `home` how its member `account`'s wait ended.
    fn deliver(&self, home: &NodeRef, account: i64, delivery: Delivery);
    /// Whether this node still owns the pool under `epoch` (a write fenced by the epoch).
    async fn still_owner(&self, epoch: u64) -> bool;
}

/// How a member's wait ended, as the pool's owner tells the member's node.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum Delivery {
    /// Seated in match `match_id` with seat `token`.
    Paired {
        match_id: String,
        token: String,
        preset: PoolPreset,
    },
    /// Not paired, and not waiting any more: why, its reason and arguments too.
    Refused(Refusal),
}

/// The play-now service of this node; cheap to clone.
#[derive(Clone)]
pub(crate) struct PlayNow(Arc<Inner>);

struct Inner {
    /// Creates paired matches, and finds one wherever it runs (the cluster's directory on a
    /// node).
    directory: Arc<dyn Directory>,
    state: Mutex<Waiting>,
    /// Where the pool runs, as this node knows it.
    at: Mutex<PoolAt>,
    /// The way to other nodes (cluster only).
    link: OnceLock<Arc<dyn PoolLink>>,
}

#[derive(Default)]
struct Waiting {
    /// Who waits, by account.
    members: HashMap<i64, Waiter>,
    /// Whom each account was last paired with (by this node's pool).
    last_opponent: HashMap<i64, i64>,
}

struct Waiter {
    outbox: Outbox,
    /// The `play_now` envelope the `paired` answers.
    id: u64,
    player: Player,
    preset: PoolPreset,
}

/// Where the pool is.
#[derive(Clone)]
enum PoolAt {
    /// This node runs it.
    Here(PoolSide),
    /// Another node does.
    Elsewhere(NodeRef),
    /// Not known yet (a cluster node between owners): members wait here, and their entries go
    /// to the pool once it is found.
    Unknown,
}

/// One term of this node running the pool: its task, and who waits in it.
#[derive(Clone)]
struct PoolSide {
    pool: PlayNowHandle<i64>,
    term: Arc<Term>,
}

struct Term {
    /// The fencing epoch the pool is owned under (0 on a single node).
    epoch: u64,
    /// Who waits in this pool: where each is connected and who they are.
    entries: Mutex<HashMap<i64, Entry>>,
    /// Set when this node stops running the pool: pairings still reported are dropped (the
    /// members' nodes send their entries to the next owner).
    ended: AtomicBool,
}

#[derive(Clone)]
struct Entry {
    /// The member's node; `None`: this one.
    home: Option<NodeRef>,
    player: Player,
}

impl PlayNow {
    /// Starts the pool here (a single node) with the seater that turns its pairings into
    /// matches on `hub`.
    pub(crate) fn start(hub: Hub) -> PlayNow {
        let service = PlayNow::new(Arc::new(hub));
        service.run_pool(0);
        service
    }

    /// A cluster node's service: the pool is nowhere until `cluster::pool` finds its owner
    /// ([`PlayNow::follow`]) or claims it ([`PlayNow::run_pool`]).
    pub(crate) fn clustered(directory: Arc<dyn Directory>) -> PlayNow {
        PlayNow::new(directory)
    }

    fn new(directory: Arc<dyn Directory>) -> PlayNow {
        PlayNow(Arc::new(Inner {
            directory,
            state: Mutex::default(),
            at: Mutex::new(PoolAt::Unknown),
            link: OnceLock::new(),
        }))
    }

    /// Gives the service its way to other nodes (once).
    pub(crate) fn use_link(&self, link: Arc<dyn PoolLink>) {
        let _ = self.0.link.set(link);
    }

    /// The way to other nodes, once a cluster gave it.
    pub(crate) fn link(&self) -> Option<Arc<dyn PoolLink>> {
        self.0.link.get().cloned()
    }

    fn state(&self) -> MutexGuard<'_, Waiting> {
        lock(&self.0.state)
    }

    fn at(&self) -> PoolAt {
        lock(&self.0.at).clone()
    }

    /// The epoch under which this node runs the pool, if it does.
    pub(crate) fn running_under(&self) -> Option<u64> {
        match &*lock(&self.0.at) {
            PoolAt::Here(side) => Some(side.term.epoch),
            _ => None,
        }
    }

    /// The node the pool is known to run on, if another one.
    pub(crate) fn followed(&self) -> Option<NodeRef> {
        match &*lock(&self.0.at) {
            PoolAt::Elsewhere(owner) => Some(owner.clone()),
            _ => None,
        }
    }

    /// Runs the pool here under `epoch` (a new term, empty), and puts this node's waiting
    /// members in it.
    pub(crate) fn run_pool(&self, epoch: u64) {
        let (out, outcomes) = mpsc::channel(OUTCOMES);
        let side = PoolSide {
            pool: play_now::spawn(PoolSettings::default(), out),
            term: Arc::new(Term {
                epoch,
                entries: Mutex::default(),
                ended: AtomicBool::new(false),
            }),
        };
        tokio::spawn(seat_pairings(self.clone(), side.clone(), outcomes));
        self.move_pool(PoolAt::Here(side));
    }

    /// The pool runs on `owner`: this node's waiting members are sent there.
    pub(crate) fn follow(&self, owner: NodeRef) {
        self.move_pool(PoolAt::Elsewhere(owner));
    }

    /// Nobody is known to run the pool (this node lost it, or its owner is gone): members
    /// keep waiting here until it is found.
    pub(crate) fn lose_track(&self) {
        self.move_pool(PoolAt::Unknown);
    }

    fn move_pool(&self, to: PoolAt) {
        let before = std::mem::replace(&mut *lock(&self.0.at), to);
        if let PoolAt::Here(side) = before {
            // The old term's task ends with its last handle; what it still reports is dropped.
            side.term.ended.store(true, Ordering::SeqCst);
        }
        self.send_all();
    }

    /// Sends every waiting member of this node to the pool (after it moved, or after Redis
    /// may have lost messages): the pool replaces an entry it has already.
    pub(crate) fn send_all(&self) {
        let waiting: Vec<(Player, PoolPreset)> = self
            .state()
            .members
            .values()
            .map(|w| (w.player.clone(), w.preset))
            .collect();
        for (player, preset) in waiting {
            let account = player.account.unwrap_or_default();
            if let Err(refusal) = self.send_entry(player, preset) {
                self.refuse_wait(account, refusal);
            }
        }
    }

    /// Hands one of this node's members to wherever the pool is.
    fn send_entry(&self, player: Player, preset: PoolPreset) -> Result<(), Refusal> {
        match self.at() {
            PoolAt::Here(side) => self.enter(&side, None, player, preset),
            PoolAt::Elsewhere(owner) => {
                if let Some(link) = self.0.link.get() {
                    link.join(&owner, &player, preset);
                }
                Ok(())
            }
            PoolAt::Unknown => Ok(()),
        }
    }

    /// Puts `player` (a member, with their rating) in the pool at `preset`; `id` is the
    /// envelope a later `paired` answers.
    pub(crate) fn join(
        &self,
        outbox: &Outbox,
        id: u64,
        player: Player,
        preset: PoolPreset,
    ) -> Result<(), Refusal> {
        let account = player.account.ok_or_else(members_only)?;
        self.send_entry(player.clone(), preset)?;
        self.state().members.insert(
            account,
            Waiter {
                outbox: outbox.clone(),
                id,
                player,
                preset,
            },
        );
        Ok(())
    }

    /// Takes `account` out of the pool; with `conn`, only if that connection is the one that
    /// is waiting (a connection that closes does not cancel the member's wait elsewhere).
    pub(crate) fn cancel(&self, account: i64, conn: Option<ConnId>) -> Result<(), Refusal> {
        let mut state = self.state();
        let waits_here = state
            .members
            .get(&account)
            .is_some_and(|w| conn.is_none_or(|conn| w.outbox.id() == conn));
        if waits_here {
            state.members.remove(&account);
            drop(state);
            match self.at() {
                PoolAt::Here(side) => side.leave(account, None)?,
                PoolAt::Elsewhere(owner) => {
                    if let Some(link) = self.0.link.get() {
                        link.cancel(&owner, account);
                    }
                }
                PoolAt::Unknown => {}
            }
        }
        Ok(())
    }

    /// The pool side: `player`, connected to `home` (`None`: here), waits at `preset`.
    fn enter(
        &self,
        side: &PoolSide,
        home: Option<NodeRef>,
        player: Player,
        preset: PoolPreset,
    ) -> Result<(), Refusal> {
        let account = player.account.ok_or_else(members_only)?;
        let seeker = Seeker {
            id: account,
            rating: player.rating.map_or(1500, |r| i32::from(r.rating)),
            last_opponent: self.state().last_opponent.get(&account).copied(),
        };
        // In the entries first: the pool task may pair the member at once.
        lock(&side.term.entries).insert(account, Entry { home, player });
        side.pool.join(seeker, preset).inspect_err(|_| {
            lock(&side.term.entries).remove(&account);
        })
    }

    /// The pool side, for a member of node `from`: waits at `preset` if this node runs the
    /// pool (otherwise the member's node sends the entry again once it finds the owner).
    pub(crate) fn entered_from(
        &self,
        from: NodeRef,
        player: Player,
        preset: PoolPreset,
    ) -> Result<(), Refusal> {
        match self.at() {
            PoolAt::Here(side) => self.enter(&side, Some(from), player, preset),
            _ => Ok(()),
        }
    }

    /// The pool side: node `from`'s member `account` stops waiting.
    pub(crate) fn left_from(&self, from: NodeRef, account: i64) {
        if let PoolAt::Here(side) = self.at() {
            let _ = side.leave(account, Some(from));
        }
    }

    /// The pool side: the members of nodes no longer alive stop waiting.
    pub(crate) fn forget_nodes(&self, alive: &dyn Fn(&NodeRef) -> bool) {
        let PoolAt::Here(side) = self.at() else {
            return;
        };
        let gone: Vec<(i64, NodeRef)> = lock(&side.term.entries)
            .iter()
            .filter_map(|(account, entry)| {
                let home = entry.home.as_ref()?;
                (!alive(home)).then(|| (*account, home.clone()))
            })
            .collect();
        for (account, home) in gone {
            let _ = side.leave(account, Some(home));
        }
    }

    /// The member side: the pool's owner says how `account`'s wait ended. A member who no
    /// longer waits (cancelled while the pairing was made) is not seated: the match is
    /// aborted in their name, so their opponent is not left waiting for them.
    pub(crate) async fn delivered(&self, account: i64, delivery: Delivery) {
        match delivery {
            Delivery::Refused(refusal) => self.refuse_wait(account, refusal),
            Delivery::Paired {
                match_id,
                token,
                preset,
            } => {
                let waiter = self.state().members.remove(&account);
                let handle = match self.0.directory.find(&match_id).await {
                    Ok(Some(handle)) => handle,
                    Ok(None) => {
                        let refusal = Refusal::new(
                            ErrorCode::NotFound,
                            format!("the paired match {match_id} is gone; press play now again"),
                        )
                        .with(
                            ErrorArgs::new("paired_match_gone").word("match_id", match_id.as_str()),
                        );
                        if let Some(waiter) = waiter {
                            waiter.outbox.refuse(waiter.id, refusal);
                        }
                        return;
                    }
                    Err(refusal) => {
                        if let Some(waiter) = waiter {
                            waiter.outbox.refuse(waiter.id, refusal);
                        }
                        return;
                    }
                };
                let sent = match waiter {
                    Some(waiter) => handle.try_send(Command::Resume {
                        outbox: waiter.outbox.clone(),
                        id: waiter.id,
                        token: SeatKey::Paired { token, preset },
                        since_v: None,
                        carried: false,
                    }),
                    None => {
                        let (outbox, _closed) = crate::room::outbox::outbox(
                            crate::room::outbox::next_conn_id(),
                            boardcast_protocol::Encoding::Json,
                            8,
                        );
                        handle.try_send(Command::Act {
                            outbox,
                            id: 0,
                            token,
                            action: Action::Abort,
                            received: tokio::time::Instant::now(),
                        })
                    }
                };
                if let Err(refusal) = sent {
                    tracing::warn!(%refusal, match_id, "a paired member was not seated");
                }
            }
        }
    }

    /// Ends `account`'s wait on this node with `refusal`.
    fn refuse_wait(&self, account: i64, refusal: Refusal) {
        if let Some(waiter) = self.state().members.remove(&account) {
            waiter.outbox.refuse(waiter.id, refusal);
        }
    }

    /// Remembers that the two of `pairing` played each other.
    fn remember_pair(&self, pairing: &Pairing<i64>) {
        let mut state = self.state();
        if state.last_opponent.len() >= LAST_OPPONENTS {
            state.last_opponent.clear();
        }
        state
            .last_opponent
            .insert(pairing.first.id, pairing.second.id);
        state
            .last_opponent
            .insert(pairing.second.id, pairing.first.id);
    }

    /// The two waiters of `pairing`, taken out of the waiting list; `None` if either has gone
    /// (cancelled after the pool paired them: the other one goes back to the pool).
    fn take_pair(&self, pairing: &Pairing<i64>) -> Option<(Waiter, Waiter)> {
        let mut state = self.state();
        let first = state.members.remove(&pairing.first.id);
        let second = state.members.remove(&pairing.second.id);
        drop(state);
        match (first, second) {
            (Some(first), Some(second)) => {
                self.remember_pair(pairing);
                Some((first, second))
            }
            (one, other) => {
                if let Some(left) = one.or(other) {
                    let account = left.player.account.unwrap_or_default();
                    // Back into the pool as if pressed again.
                    if let Err(refusal) =
                        self.join(&left.outbox, left.id, left.player, pairing.preset)
                    {
                        left_refused(account, &refusal);
                    }
                }
                None
            }
        }
    }
}

impl PoolSide {
    /// Takes `account` out of this pool if they wait in it from `home`.
    fn leave(&self, account: i64, home: Option<NodeRef>) -> Result<(), Refusal> {
        let mut entries = lock(&self.term.entries);
        if entries.get(&account).is_some_and(|e| e.home == home) {
            entries.remove(&account);
            drop(entries);
            self.pool.cancel(account)?;
        }
        Ok(())
    }
}

impl Delivery {
    fn refused(refusal: Refusal) -> Delivery {
        Delivery::Refused(refusal)
    }
}

fn left_refused(account: i64, refusal: &Refusal) {
    tracing::warn!(account, %refusal, "a member left alone by a cancelled pairing could not wait again");
}

/// Rated play (a rated match, play now) is between two signed-in members: a guest is refused
/// here, before anything is created.
pub(crate) fn members_only() -> Refusal {
    Refusal::new(
        ErrorCode::MembersOnly,
        "rated games and play now are for signed-in members; a guest plays casual matches",
    )
    .with(ErrorArgs::new("rated_play"))
}

/// Reads one pool term's reports: each pairing is seated in a task of its own (at most
/// [`SEATING_AT_ONCE`] at a time, so their storage commits group); a refused join is answered.
async fn seat_pairings(
    service: PlayNow,
    side: PoolSide,
    mut outcomes: mpsc::Receiver<Outcome<i64>>,
) {
    let seating = Arc::new(Semaphore::new(SEATING_AT_ONCE));
    let term = side.term.clone();
    // The task ends with its pool: when the term ends, its handle goes with `side`.
    drop(side);
    while let Some(outcome) = outcomes.recv().await {
        if term.ended.load(Ordering::SeqCst) {
            return;
        }
        match outcome {
            Outcome::Paired(pairing) => {
                let (first, second) = {
                    let mut entries = lock(&term.entries);
                    (
                        entries.remove(&pairing.first.id),
                        entries.remove(&pairing.second.id),
                    )
                };
                let (first, second) = match (first, second) {
                    (Some(first), Some(second)) => (first, second),
                    (one, other) => {
                        // One cancelled as they were paired: the other waits again.
                        if let Some(left) = one.or(other) {
                            requeue(&service, left, pairing.preset);
                        }
                        continue;
                    }
                };
                let Ok(permit) = seating.clone().acquire_owned().await else {
                    return;
                };
                let (service, term) = (service.clone(), term.clone());
                tokio::spawn(async move {
                    seat_pairing(&service, &term, pairing, [first, second]).await;
                    drop(permit);
                });
            }
            Outcome::Refused { id, error } => {
                let entry = lock(&term.entries).remove(&id);
                let refusal = Refusal::new(ErrorCode::Busy, error.to_string()).with(error.args());
                match (entry.and_then(|e| e.home), service.0.link.get()) {
                    (Some(home), Some(link)) => {
                        link.deliver(&home, id, Delivery::refused(refusal));
                    }
                    _ => service.refuse_wait(id, refusal),
                }
            }
        }
    }
}

/// Puts a member whose partner cancelled back in the pool, as if they pressed again.
fn requeue(service: &PlayNow, entry: Entry, preset: PoolPreset) {
    let account = entry.player.account.unwrap_or_default();
    let result = match service.at() {
        PoolAt::Here(side) => service.enter(&side, entry.home, entry.player, preset),
        _ => Ok(()),
    };
    if let Err(refusal) = result {
        left_refused(account, &refusal);
    }
}

/// Seats one pairing: both members here as before (one `Arrive` for both), otherwise a match
/// created here whose seats go to the members' nodes. In a cluster nothing is seated unless
/// this node still owns the pool under the term's epoch.
async fn seat_pairing(service: &PlayNow, term: &Term, pairing: Pairing<i64>, entries: [Entry; 2]) {
    let link = service.0.link.get();
    if let Some(link) = link
        && !link.still_owner(term.epoch).await
    {
        tracing::warn!("the play-now pool moved to another node; a pairing was dropped");
        return;
    }
    if entries.iter().all(|e| e.home.is_none()) {
        if let Some(pair) = service.take_pair(&pairing) {
            seat(service.0.directory.as_ref(), pairing.preset, pair).await;
        }
        return;
    }
    service.remember_pair(&pairing);
    let [first, second] = entries;
    let (white, black) = if rand::random::<bool>() {
        (first, second)
    } else {
        (second, first)
    };
    let players = [
        (Side::White, white.player.clone()),
        (Side::Black, black.player.clone()),
    ];
    let created = service
        .0
        .directory
        .create(rated_setup(pairing.preset), players.into(), false)
        .await;
    for (side, entry) in [(Side::White, white), (Side::Black, black)] {
        let account = entry.player.account.unwrap_or_default();
        let delivery = match &created {
            Ok((_, match_id, tokens)) => Delivery::Paired {
                match_id: match_id.clone(),
                token: tokens
                    .iter()
                    .find(|(s, _)| *s == side)
                    .map(|(_, token)| token.clone())
                    .unwrap_or_default(),
                preset: pairing.preset,
            },
            Err(refusal) => Delivery::refused(refusal.clone()),
        };
        match (&entry.home, link) {
            (Some(home), Some(link)) => link.deliver(home, account, delivery),
            _ => service.delivered(account, delivery).await,
        }
    }
    if let Err(refusal) = created {
        tracing::warn!(%refusal, "cannot create a paired match");
    }
}

/// The rated match a pairing at `preset` is played in.
fn rated_setup(preset: PoolPreset) -> Setup {
    let TimeControl {
        initial_ms,
        increment_ms,
    } = preset.time_control();
    Setup {
        time_control: Some(TimeControl {
            initial_ms,
            increment_ms,
        }),
        public: true,
        rematch_of: None,
        start_fen: None,
        rated: true,
        rating_range: None,
        berserk: false,
        event: None,
    }
}

/// Creates the rated match of one pairing of two members of this node (colours drawn at
/// random) and seats both.
async fn seat(directory: &dyn Directory, preset: PoolPreset, (first, second): (Waiter, Waiter)) {
    let (white, black) = if rand::random::<bool>() {
        (first, second)
    } else {
        (second, first)
    };
    let players = [
        (Side::White, white.player.clone()),
        (Side::Black, black.player.clone()),
    ];
    match directory
        .create(rated_setup(preset), players.into(), true)
        .await
    {
        Ok((handle, _, _)) => {
            let arrived = handle.try_send(Command::Arrive {
                players: vec![
                    (white.outbox.clone(), Side::White),
                    (black.outbox.clone(), Side::Black),
                ],
                paired: Some((preset, BySide::new(white.id, black.id))),
            });
            if let Err(refusal) = arrived {
                tracing::warn!(%refusal, "a paired match did not take its players");
            }
        }
        Err(refusal) => {
            tracing::warn!(%refusal, "cannot create a paired match");
            white.outbox.refuse(white.id, refusal.clone());
            black.outbox.refuse(black.id, refusal);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use boardcast_protocol::{Encoding, PlayerRating};

    use super::*;
    use crate::matches::actor::Settings;
    use crate::room::outbox::{Inbox, next_conn_id, outbox};
    use crate::storage::Storage;

    fn member(account: i64, rating: u16) -> Player {
        Player {
            name: format!("m{account}"),
            bot: false,
            account: Some(account),
            rating: Some(PlayerRating {
                rating,
                provisional: false,
            }),
            refuses_more_time: false,
        }
    }

    /// Waits until `inbox` has had its `paired` and the snapshot after it: seated.
    async fn seated(inbox: &mut Inbox) -> String {
        let mut paired = None;
        while let Some(message) = inbox.rx.recv().await {
            let axum::extract::ws::Message::Text(text) = message else {
                continue;
            };
            if text.starts_with("{\"paired\"") {
                paired = Some(text.to_string());
            } else if text.starts_with("{\"match_snapshot\"") && paired.is_some() {
                return paired.unwrap_or_default();
            }
        }
        panic!("the connection closed before it was seated");
    }

    struct Bench {
        play_now: PlayNow,
        _dir: tempfile::TempDir,
        _trigger: crate::ops::shutdown::Trigger,
    }

    async fn bench() -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let (storage, _) = Storage::open(
            &crate::storage::Database::Sqlite(dir.path().join("db")),
            None,
        )
        .await
        .unwrap();
        let (trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let settings = Settings {
            grace: Duration::from_secs(60),
            first_move_timeout: Duration::from_secs(600),
            abandon_after: Duration::from_secs(600),
            linger: Duration::from_secs(600),
            max_matches: 10_000,
        };
        let hub = Hub::new(storage, settings, shutdown, tasks);
        Bench {
            play_now: PlayNow::start(hub),
            _dir: dir,
            _trigger: trigger,
        }
    }

    #[tokio::test]
    async fn two_members_of_close_rating_are_seated_together_and_a_cancelled_one_is_not() {
        let bench = bench().await;
        let preset = PoolPreset::ThreePlusTwo;
        let (gone, mut gone_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        bench
            .play_now
            .join(&gone, 7, member(3, 1500), preset)
            .unwrap();
        bench.play_now.cancel(3, Some(gone.id())).unwrap();
        let (a, mut a_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        let (b, mut b_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        bench.play_now.join(&a, 5, member(1, 1500), preset).unwrap();
        bench.play_now.join(&b, 9, member(2, 1540), preset).unwrap();
        let (a_paired, b_paired) = tokio::join!(seated(&mut a_inbox), seated(&mut b_inbox));
        assert!(a_paired.contains("\"id\":5") && a_paired.contains("\"opponent\":\"m2\""));
        assert!(b_paired.contains("\"id\":9") && b_paired.contains("\"opponent\":\"m1\""));
        assert!(a_paired.contains("\"preset\":\"3+2\""), "{a_paired}");
        assert!(
            gone_inbox.rx.try_recv().is_err(),
            "the cancelled member is told nothing"
        );
        // A guest never waits.
        let guest = Player::person("guest");
        let refused = bench.play_now.join(&a, 11, guest, preset).unwrap_err();
        assert_eq!(refused.code, ErrorCode::MembersOnly);
    }

    /// Pairing latency from `play_now` to both seated (their `paired` and snapshot), with
    /// 1,000 members waiting in the pool who fit nobody, and then a burst of 1,000 members
    /// pressing at once. Run with `cargo test -p boardcast-server --lib --release
    /// pairing_latency -- --ignored --nocapture`; BENCHMARKS.md has the figures.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "a measurement, not a check"]
    async fn pairing_latency() {
        let bench = bench().await;
        let preset = PoolPreset::FivePlusThree;
        let mut keep = Vec::new();
        // 1,000 waiting, 1,000 points apart: nobody fits anybody.
        for i in 0..1000 {
            let (waiter, inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let rating = 10_000 + 1000 * i as u32;
            let mut player = member(i64::from(i) + 1, 0);
            player.rating = None;
            // Ratings beyond u16 go straight to the pool through a rating the pool reads.
            let seeker_rating = rating as i32;
            let PoolAt::Here(side) = bench.play_now.at() else {
                panic!("a single node runs its pool");
            };
            let account = player.account.unwrap();
            lock(&side.term.entries).insert(
                account,
                Entry {
                    home: None,
                    player: player.clone(),
                },
            );
            side.pool
                .join(
                    Seeker {
                        id: account,
                        rating: seeker_rating,
                        last_opponent: None,
                    },
                    preset,
                )
                .unwrap();
            bench.play_now.state().members.insert(
                account,
                Waiter {
                    outbox: waiter,
                    id: 1,
                    player,
                    preset,
                },
            );
            keep.push(inbox);
        }
        let mut steady = Vec::new();
        for pair in 0..200i64 {
            let ids = (10_000 + 2 * pair, 10_001 + 2 * pair);
            let (a, mut a_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let (b, mut b_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let started = Instant::now();
            bench
                .play_now
                .join(&a, 1, member(ids.0, 1500), preset)
                .unwrap();
            bench
                .play_now
                .join(&b, 1, member(ids.1, 1510), preset)
                .unwrap();
            tokio::join!(seated(&mut a_inbox), seated(&mut b_inbox));
            steady.push(started.elapsed());
        }
        report("one pair at a time, 1,000 waiting", &mut steady);

        // A burst: 1,000 members press at once, in close pairs.
        let mut inboxes = Vec::new();
        let started = Instant::now();
        for i in 0..1000i64 {
            let (o, inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let rating = 1000 + (i / 2) as u16;
            bench
                .play_now
                .join(&o, 1, member(20_000 + i, rating), preset)
                .unwrap();
            inboxes.push(inbox);
        }
        let waits = inboxes.iter_mut().map(|inbox| async move {
            seated(inbox).await;
            started.elapsed()
        });
        let mut burst = futures_util::future::join_all(waits).await;
        report("burst of 1,000 pressing at once", &mut burst);
        drop(keep);
    }

    fn report(what: &str, samples: &mut [Duration]) {
        samples.sort();
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        eprintln!(
            "{what}: {} samples, p50 {:?}, p99 {:?}, max {:?}; load average {}",
            samples.len(),
            at(0.5),
            at(0.99),
            samples[samples.len() - 1],
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
