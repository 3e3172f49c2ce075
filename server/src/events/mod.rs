//! Club events (issue 33): Swiss, round-robin and arena tournaments run by the server.
//!
//! Each running event has a director ([`director`]), an actor like a match: the single writer
//! of the event's versioned history ([`crate::storage::club`]), replayed at start-up
//! ([`state`]), creating each round's matches and counting their results exactly once. The
//! pairing itself is the pure crate `boardcast-pairing`. [`Events`] finds the directors; the
//! HTTP API ([`http`]) creates, joins and shows events.
//!
//! In a cluster one node at a time runs each event's director, with the lease and fencing
//! epoch of matches and TV channels (`cluster::directors` claims events and hands requests
//! to their owners through an [`OwnerLink`]); any node shows any event from storage.

pub(crate) mod director;
pub(crate) mod error;
pub(crate) mod follow;
pub(crate) mod http;
mod kept;
pub(crate) mod record;
pub(crate) mod state;
pub(crate) mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use tokio::sync::{mpsc, oneshot, watch};

use self::director::{Ask, Director, Joining, MAILBOX, Owner};
use self::error::EventError;
use self::kept::{Kept, StoredEvents};
use self::record::EventSetup;
use self::state::EventState;
use self::view::EventView;
use crate::matches::Directory;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::storage::club::{EventWrite, StoredClubEvent};
use crate::storage::{Storage, StoredEvent, Write, now_ms};

/// How often a director looks up its running games in storage.
const POLL: Duration = Duration::from_millis(500);
/// How long a member's request that another node was asked but never answered is remembered
/// here: sent again within this, and found done, it is answered as done.
const IN_DOUBT_FOR: Duration = Duration::from_secs(120);
/// Requests in doubt remembered at most; beyond, one sent again is answered as the director
/// answers it.
const MAX_IN_DOUBT: usize = 4096;

/// A running event's director: its mailbox, its latest view and its set-up.
#[derive(Clone)]
struct Running {
    commands: mpsc::Sender<director::Command>,
    view: watch::Receiver<Arc<EventView>>,
    setup: EventSetup,
}

impl Running {
    /// Whether its director has stopped (the mailbox's receiver went with it).
    fn stopped(&self) -> bool {
        self.commands.is_closed()
    }

    fn finished(&self) -> bool {
        self.view.borrow().status == "finished"
    }
}

/// How the events of a node of a cluster reach the rest of it (`cluster::directors`).
pub(crate) trait OwnerLink: Send + Sync {
    /// Claims event `id` for this node and runs its director here from its stored records,
    /// unless it runs here already or another live node owns it.
    fn take(&self, id: &str) -> BoxFuture<'_, ()>;
    /// Asks the node that runs event `id`'s director; [`EventError::Moving`] if no live node
    /// does or none answers in time.
    fn forward(&self, id: &str, ask: Ask) -> BoxFuture<'_, Result<(), EventError>>;
}

/// The events of this server; cheap to clone.
#[derive(Clone)]
pub(crate) struct Events(Arc<Inner>);

struct Inner {
    storage: Storage,
    /// Where the directors create their games (the cluster directory on a node).
    directory: Arc<dyn Directory>,
    shutdown: Shutdown,
    tasks: Tasks,
    /// The directors started here, by event: each until it has run its event to the end
    /// (then the event is [`Kept`], bounded), or, stopped before that, until
    /// [`Events::forget_stopped`].
    running: Mutex<HashMap<String, Running>>,
    /// Whether this server is a node of a cluster: it then runs only the events it owns.
    cluster: bool,
    /// In a cluster, how events are claimed and reached on other nodes; set once at start.
    link: OnceLock<Arc<dyn OwnerLink>>,
    /// How long one of an arena's minutes lasts (`--arena-minute`).
    arena_minute: Duration,
    /// In a cluster, the requests asked of another node that never answered, by event and
    /// member: whether it was a join, and since when.
    in_doubt: Mutex<HashMap<(String, i64), InDoubt>>,
    /// The events shown here as read back from storage (bounded): each read whole once, then
    /// only what is new.
    kept: Kept,
}

/// A member's request that the node running the director was asked but never answered: it
/// may have been done all the same (its answer was lost, or that node died after storing it).
#[derive(Debug, Clone, Copy)]
struct InDoubt {
    join: bool,
    since: tokio::time::Instant,
}

fn random_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl StoredEvents for Events {
    fn whole<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<EventState, EventError>> {
        self.read_whole(id).boxed()
    }

    fn newer<'a>(
        &'a self,
        id: &'a str,
        after: u64,
        limit: u32,
    ) -> BoxFuture<'a, Result<Vec<StoredEvent>, EventError>> {
        self.records_after(id, after, limit).boxed()
    }
}

impl Events {
    /// The events of `storage`, with a director started for every unfinished one.
    pub(crate) async fn start(
        storage: Storage,
        directory: Arc<dyn Directory>,
        shutdown: Shutdown,
        tasks: Tasks,
        cluster: bool,
        arena_minute: Duration,
    ) -> Events {
        let events = Events(Arc::new(Inner {
            storage,
            directory,
            shutdown,
            tasks,
            running: Mutex::new(HashMap::new()),
            cluster,
            link: OnceLock::new(),
            arena_minute,
            in_doubt: Mutex::new(HashMap::new()),
            kept: Kept::new(),
        }));
        // A node of a cluster resumes only the events it claims.
        if !cluster {
            match events.0.storage.club_events(true).await {
                Ok(unfinished) => {
                    for stored in unfinished {
                        if let Err(err) = events.resume(stored, None) {
                            tracing::error!(%err, "cannot resume an event");
                        }
                    }
                }
                Err(err) => tracing::error!(%err, "cannot read the unfinished events"),
            }
        }
        events
    }

    /// An arena minute in milliseconds, for an arena's end.
    pub(crate) fn arena_minute_ms(&self) -> i64 {
        i64::try_from(self.0.arena_minute.as_millis()).unwrap_or(60_000)
    }

    /// In a cluster: how this node claims events and reaches their owners.
    pub(crate) fn use_link(&self, link: Arc<dyn OwnerLink>) {
        let _ = self.0.link.set(link);
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Running>> {
        self.0.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts the director of a stored event from its records (under `owner` in a cluster).
    fn resume(&self, stored: StoredClubEvent, owner: Option<Owner>) -> Result<(), String> {
        let setup: EventSetup = serde_json::from_str(&stored.setup).map_err(|e| e.to_string())?;
        let state = EventState::replay(stored.id, setup, stored.created_ms, &stored.records)
            .map_err(|e| e.to_string())?;
        tracing::info!(event = %state.id, v = state.v, epoch = ?owner.as_ref().map(|o| o.epoch),
            "event resumed");
        self.spawn(state, owner);
        Ok(())
    }

    /// In a cluster: runs the director of event `id`, just claimed under `owner`, from the
    /// records stored up to now (read after the claim, so none of an older owner's is missed).
    pub(crate) async fn run_claimed(&self, id: &str, owner: Owner) -> Result<(), String> {
        let stored = self
            .0
            .storage
            .club_event(id.to_owned())
            .await
            .map_err(|err| err.to_string())?
            .ok_or_else(|| format!("no event {id}"))?;
        self.resume(stored, Some(owner))
    }

    /// Whether event `id`'s director runs here, or ran here to the event's end and has not
    /// quite gone yet (then the event is kept as it left it).
    pub(crate) fn holds(&self, id: &str) -> bool {
        self.running()
            .get(id)
            .is_some_and(|running| !running.stopped() || running.finished())
    }

    /// Forgets the directors that stopped here before their event was over (this node's lease
    /// lapsed, or storage refused a record): the next look at the event claims it again, or
    /// finds its new owner.
    pub(crate) fn forget_stopped(&self) {
        self.running()
            .retain(|_, running| !running.stopped() || running.finished());
    }

    fn spawn(&self, state: EventState, owner: Option<Owner>) {
        let Some(guard) = self.0.tasks.guard() else {
            return;
        };
        let (tx, rx) = mpsc::channel(MAILBOX);
        let (view_tx, view_rx) = watch::channel(Arc::new(EventView::of(&state, now_ms())));
        self.running().insert(
            state.id.clone(),
            Running {
                commands: tx,
                view: view_rx,
                setup: state.setup.clone(),
            },
        );
        let director = Director::new(
            state,
            self.0.storage.clone(),
            self.0.directory.clone(),
            rx,
            view_tx,
            self.0.shutdown.clone(),
            POLL,
            owner,
        );
        // Weak: a director that outlives the server's events has nobody to tell.
        let events = Arc::downgrade(&self.0);
        tokio::spawn(async move {
            let _guard = guard;
            let ended = director.run().await;
            if let Some(inner) = events.upgrade() {
                Events(inner).director_ended(ended);
            }
        });
    }

    /// A director has stopped with the event as `ended`. Run to the end, the event leaves
    /// [`Inner::running`] (which would otherwise grow with every event a node ever directed)
    /// and its final state and view go to [`Kept`], bounded with the events read back: the
    /// event's page, a `watch` of it and a late request are answered from there without a
    /// read of storage while it is kept, and from storage, like any finished event, after.
    /// Followers that were watching keep the director's views until its last one is pushed
    /// (the room holds the receiver). A director stopped before the end stays, for
    /// [`Events::forget_stopped`].
    fn director_ended(&self, ended: EventState) {
        if !ended.finished {
            return;
        }
        let mut running = self.running();
        let Some(shown) = running
            .get(&ended.id)
            .filter(|running| running.stopped())
            .map(|running| running.view.borrow().clone())
        else {
            return;
        };
        let id = ended.id.clone();
        // Kept before it leaves `running`, both under its lock: a look at the event always
        // finds it in one or the other.
        self.0.kept.keep(ended, shown);
        running.remove(&id);
    }

    /// How many events this node holds a director's entry for (running, or stopped and not
    /// yet forgotten).
    #[cfg(test)]
    fn running_len(&self) -> usize {
        self.running().len()
    }

    /// Stores a new event and starts its director; returns its id.
    pub(crate) async fn create(&self, setup: EventSetup) -> Result<String, EventError> {
        let id = random_id();
        let created_ms = now_ms();
        let json = serde_json::to_string(&setup).map_err(|e| EventError::Invalid(e.to_string()))?;
        self.0
            .storage
            .commit(vec![Write::ClubEvent(EventWrite::Create {
                id: id.clone(),
                created_ms,
                setup: json,
            })])
            .await
            .map_err(|err| {
                tracing::error!(%err, "cannot store a new event");
                EventError::Storage
            })?;
        match self.0.link.get() {
            // This node claims it at once (another node's look at the unclaimed events may
            // win it first, and then runs it).
            Some(link) if self.0.cluster => link.take(&id).await,
            _ => self.spawn(EventState::new(id.clone(), setup, created_ms), None),
        }
        Ok(id)
    }

    /// Whether `account` may create events: granted by a club admin ([`Events::grant`]).
    pub(crate) async fn is_organiser(&self, account: i64) -> Result<bool, EventError> {
        self.0
            .storage
            .is_organiser(account)
            .await
            .map_err(|_| EventError::Storage)
    }

    /// Grants (or takes back) `account`'s right to create events.
    pub(crate) async fn grant(&self, account: i64, granted: bool) -> Result<(), EventError> {
        self.0
            .storage
            .commit(vec![Write::ClubEvent(EventWrite::Organiser {
                account,
                granted,
            })])
            .await
            .map_err(|err| {
                tracing::error!(%err, "cannot store an organiser right");
                EventError::Storage
            })
    }

    /// The set-up of event `id`: its running director's, else as [`Kept`] keeps it (read from
    /// storage once while kept).
    pub(crate) async fn setup(&self, id: &str) -> Result<EventSetup, EventError> {
        if let Some(running) = self.running().get(id) {
            return Ok(running.setup.clone());
        }
        self.0.kept.setup(id, self).await
    }

    /// Asks the director of event `id` if it runs here; [`EventError::Moving`] in a cluster
    /// when it does not (another node's director answers, through [`OwnerLink::forward`]).
    /// The node that runs it answers other nodes' requests with this.
    pub(crate) async fn answer(&self, id: &str, ask: Ask) -> Result<(), EventError> {
        let elsewhere = if self.0.cluster {
            EventError::Moving
        } else {
            EventError::NotFound(id.to_owned())
        };
        let found = self
            .running()
            .get(id)
            .map(|running| (running.commands.clone(), running.finished()));
        let Some((commands, finished)) = found else {
            // Directed here to its end, and kept since.
            if self.0.kept.finished(id) {
                return Err(EventError::Finished);
            }
            return Err(elsewhere);
        };
        // A director stops when its event is over, and in a cluster when this node lost it.
        let stopped = if finished || !self.0.cluster {
            EventError::Finished
        } else {
            EventError::Moving
        };
        let (reply, answer) = oneshot::channel();
        commands
            .try_send(ask.command(reply))
            .map_err(|err| match err {
                mpsc::error::TrySendError::Full(_) => EventError::Busy,
                mpsc::error::TrySendError::Closed(_) => stopped.clone(),
            })?;
        answer.await.map_err(|_| stopped)?
    }

    /// Asks the director of event `id`, wherever it runs.
    ///
    /// A request is answered as it was done, whatever became of its answer: one that nobody
    /// answered (`event_moving`) is looked up in storage, and one sent again after that (the
    /// page says "try again") is not refused `already_joined` or `not_joined` for what the
    /// first did. A member who joins twice in two tabs is still told they are in already.
    async fn ask(&self, id: &str, ask: Ask) -> Result<(), EventError> {
        let link = self.0.link.get().filter(|_| self.0.cluster);
        let answered = match self.answer(id, ask.clone()).await {
            Err(EventError::Moving) => match link {
                Some(link) => {
                    // Refused at once if there is no such event, without asking anybody.
                    self.setup(id).await?;
                    link.forward(id, ask.clone()).await
                }
                None => Err(EventError::Moving),
            },
            answered => answered,
        };
        let answered = match answered {
            Err(EventError::Moving) => self.settle(id, &ask).await,
            // Nobody runs it: over, if storage says so.
            Err(EventError::NotFound(_)) if self.stored_finished(id).await => {
                Err(EventError::Finished)
            }
            // Done already, maybe by this member's request that was never answered.
            Err(refusal) if ask.refused_as_done(&refusal) && self.in_doubt(id, &ask) => {
                match self.state(id).await {
                    Ok(state) if ask.done_in(&state) => Ok(()),
                    _ => Err(refusal),
                }
            }
            answered => answered,
        };
        if !matches!(answered, Err(EventError::Moving)) {
            self.in_doubt_map().remove(&(id.to_owned(), ask.account()));
        }
        answered
    }

    /// What a request that nobody answered comes to, as storage shows the event: over, done
    /// (its answer was lost, or the node that stored it died before answering), or still
    /// `event_moving`, remembered then as in doubt: it may yet be done.
    async fn settle(&self, id: &str, ask: &Ask) -> Result<(), EventError> {
        match self.state(id).await {
            Ok(state) if state.finished => Err(EventError::Finished),
            Ok(state) if ask.done_in(&state) => Ok(()),
            _ => {
                self.doubt(id, ask);
                Err(EventError::Moving)
            }
        }
    }

    fn in_doubt_map(&self) -> std::sync::MutexGuard<'_, HashMap<(String, i64), InDoubt>> {
        self.0.in_doubt.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Remembers `ask` as asked of event `id` and never answered (unless too many are).
    fn doubt(&self, id: &str, ask: &Ask) {
        let now = tokio::time::Instant::now();
        let mut in_doubt = self.in_doubt_map();
        if in_doubt.len() >= MAX_IN_DOUBT {
            in_doubt.retain(|_, doubt| now.duration_since(doubt.since) < IN_DOUBT_FOR);
            if in_doubt.len() >= MAX_IN_DOUBT {
                return;
            }
        }
        let join = matches!(ask, Ask::Join(_));
        in_doubt.insert((id.to_owned(), ask.account()), InDoubt { join, since: now });
    }

    /// Whether the same request of the same member was asked of event `id` lately and never
    /// answered.
    fn in_doubt(&self, id: &str, ask: &Ask) -> bool {
        let key = (id.to_owned(), ask.account());
        self.in_doubt_map().get(&key).is_some_and(|doubt| {
            doubt.join == matches!(ask, Ask::Join(_)) && doubt.since.elapsed() < IN_DOUBT_FOR
        })
    }

    /// Whether storage holds event `id` as finished.
    async fn stored_finished(&self, id: &str) -> bool {
        let finished = self.0.kept.read(id, self, |state, _| state.finished);
        finished.await.unwrap_or(false)
    }

    pub(crate) async fn join(&self, id: &str, joining: Joining) -> Result<(), EventError> {
        self.ask(id, Ask::Join(joining)).await
    }

    /// Withdraws `account` from event `id`; `request` is the id its page gave the request
    /// ([`Joining::request`]).
    pub(crate) async fn withdraw(
        &self,
        id: &str,
        account: i64,
        request: Option<String>,
    ) -> Result<(), EventError> {
        self.ask(id, Ask::Withdraw { account, request }).await
    }

    /// The views of event `id` as its running director shows them, to follow its changes
    /// ([`follow`]); `None` when no director of it runs here.
    pub(crate) fn updates(&self, id: &str) -> Option<watch::Receiver<Arc<EventView>>> {
        self.running().get(id).map(|r| r.view.clone())
    }

    /// Event `id` as stored now (read back as [`Kept`] keeps it: whole once, then only what
    /// is new).
    pub(crate) async fn state(&self, id: &str) -> Result<EventState, EventError> {
        self.0.kept.read(id, self, |state, _| state.clone()).await
    }

    /// Event `id` read whole from storage and replayed.
    async fn read_whole(&self, id: &str) -> Result<EventState, EventError> {
        let stored = self
            .0
            .storage
            .club_event(id.to_owned())
            .await
            .map_err(|_| EventError::Storage)?
            .ok_or_else(|| EventError::NotFound(id.to_owned()))?;
        let setup: EventSetup =
            serde_json::from_str(&stored.setup).map_err(|_| EventError::Storage)?;
        EventState::replay(stored.id, setup, stored.created_ms, &stored.records).map_err(|err| {
            tracing::error!(%err, event = id, "cannot replay an event");
            EventError::Storage
        })
    }

    /// Event `id`'s records after version `after`, at most `limit` of them: what a node that
    /// follows the event from storage lacks of it ([`follow`]).
    pub(crate) async fn records_after(
        &self,
        id: &str,
        after: u64,
        limit: u32,
    ) -> Result<Vec<StoredEvent>, EventError> {
        self.0
            .storage
            .club_event_records(id.to_owned(), after, limit)
            .await
            .map_err(|_| EventError::Storage)
    }

    /// The latest view of event `id`'s director here, unless it stopped before the event was
    /// over (in a cluster another node may have moved the event on since).
    fn shown_here(&self, id: &str) -> Option<Arc<EventView>> {
        self.running()
            .get(id)
            .filter(|running| !running.stopped() || running.finished())
            .map(|running| running.view.borrow().clone())
    }

    /// Event `id` as shown: the running director's latest view, or as read back from storage
    /// ([`Kept`]).
    pub(crate) async fn view(&self, id: &str) -> Result<Arc<EventView>, EventError> {
        if let Some(view) = self.shown_here(id) {
            return Ok(view);
        }
        self.0.kept.read(id, self, |_, view| view.clone()).await
    }

    /// Page `page` (from 0) of the list of events: every waiting and running event (at most
    /// [`MAX_UNFINISHED_LISTED`], the newest; `more_current` says when some are left out) and [`PER_PAGE`] of the finished ones, each newest first.
    /// Which there are is read from storage without their records, one indexed range each
    /// (a club that ran a thousand events reads twenty of them per page, not all), and each
    /// is shown as [`Events::view`] shows it.
    pub(crate) async fn list(&self, page: u32) -> Result<EventsPage, EventError> {
        let storage = &self.0.storage;
        // One more than are listed: whether some are left out, in the same read.
        let unfinished = storage.club_event_heads(false, 0, MAX_UNFINISHED_LISTED + 1);
        let mut unfinished = unfinished.await.map_err(|_| EventError::Storage)?;
        let more_current = unfinished.len() > MAX_UNFINISHED_LISTED as usize;
        unfinished.truncate(MAX_UNFINISHED_LISTED as usize);
        // One more than a page: whether there is an older page, in the same read.
        let offset = u64::from(page) * u64::from(PER_PAGE);
        let mut finished = storage
            .club_event_heads(true, offset, PER_PAGE + 1)
            .await
            .map_err(|_| EventError::Storage)?;
        let more = finished.len() > PER_PAGE as usize;
        finished.truncate(PER_PAGE as usize);
        Ok(EventsPage {
            unfinished: self.views(&unfinished).await,
            finished: self.views(&finished).await,
            more,
            more_current,
        })
    }

    /// The views of the events `heads` names, in their order.
    async fn views(&self, heads: &[StoredClubEvent]) -> Vec<Arc<EventView>> {
        let mut views = Vec::with_capacity(heads.len());
        for head in heads {
            match self.view(&head.id).await {
                Ok(view) => views.push(view),
                // One that cannot be read (or does not replay) is left out, the rest shown.
                Err(err) => tracing::warn!(event = %head.id, %err, "an event left out of the list"),
            }
        }
        views
    }
}

/// Finished events a page of the list shows (`GET /api/events?page=N`), as many as a page of
/// a profile's games.
pub(crate) const PER_PAGE: u32 = 20;

/// Waiting and running events the list shows at most (each on every page): a club has a few
/// at a time; this bounds the answer if an organiser announced hundreds ahead.
pub(crate) const MAX_UNFINISHED_LISTED: u32 = 200;

/// A page of the list of events ([`Events::list`]).
#[derive(Debug)]
pub(crate) struct EventsPage {
    /// Every waiting and running event, newest first.
    pub unfinished: Vec<Arc<EventView>>,
    /// This page's finished events, newest first.
    pub finished: Vec<Arc<EventView>>,
    /// Whether older finished events follow on the next page.
    pub more: bool,
    /// Whether more waiting and running events exist than the [`MAX_UNFINISHED_LISTED`]
    /// listed (the oldest are left out), so that a client can say so rather than show a
    /// list cut short as if it were whole.
    pub more_current: bool,
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::events::record::Format;
    use crate::events::state::tests::setup;
    use crate::matches::Settings;
    use crate::matches::local::Hub;
    use crate::storage::club::StoredClubEvent;
    use crate::storage::{ArchivedGame, ChatLineRow, MatchKey, StorageError, StoredMatch};
    use boardcast_protocol::LeaderboardEntry;
    use futures_util::FutureExt;

    /// What becomes of a request forwarded to the node that runs the director.
    #[derive(Debug, Clone, Copy)]
    enum Delivery {
        Answered,
        /// Done there; its answer never comes back.
        AnswerLost,
        /// It reaches that node only later (the test hands it over).
        Late,
    }

    /// A cluster's link, the other node's events in this process.
    struct Link {
        owner: Events,
        delivery: Mutex<Delivery>,
        late: Mutex<Vec<(String, Ask)>>,
    }

    impl Link {
        fn deliver(&self, delivery: Delivery) {
            *self.delivery.lock().unwrap() = delivery;
        }

        /// The requests that were late reach the owner.
        async fn hand_over_late(&self) {
            let late = std::mem::take(&mut *self.late.lock().unwrap());
            for (id, ask) in late {
                self.owner.answer(&id, ask).await.unwrap();
            }
        }
    }

    impl OwnerLink for Link {
        fn take(&self, _id: &str) -> BoxFuture<'_, ()> {
            async {}.boxed()
        }

        fn forward(&self, id: &str, ask: Ask) -> BoxFuture<'_, Result<(), EventError>> {
            let id = id.to_owned();
            let delivery = *self.delivery.lock().unwrap();
            async move {
                match delivery {
                    Delivery::Answered => self.owner.answer(&id, ask).await,
                    Delivery::AnswerLost => {
                        self.owner.answer(&id, ask).await.unwrap();
                        Err(EventError::Moving)
                    }
                    Delivery::Late => {
                        self.late.lock().unwrap().push((id, ask));
                        Err(EventError::Moving)
                    }
                }
            }
            .boxed()
        }
    }

    async fn players(events: &Events, id: &str) -> Vec<String> {
        events.view(id).await.unwrap().players.clone()
    }

    fn member(account: i64) -> Joining {
        Joining {
            account,
            name: format!("p{account}"),
            rating: 1500,
            request: None,
        }
    }

    /// A club for a test: a SQLite database in a temporary directory, the hub its events'
    /// games are created in and the shutdown they run under; each node's [`Events`] start
    /// from it ([`TestClub::node`]).
    pub(crate) struct TestClub {
        pub storage: Storage,
        pub hub: Hub,
        pub shutdown: Shutdown,
        pub tasks: Tasks,
        _trigger: crate::ops::shutdown::Trigger,
        _all_done: crate::ops::shutdown::AllDone,
        /// Removed last, after everything that uses the database.
        _dir: tempfile::TempDir,
    }

    impl TestClub {
        pub(crate) async fn open() -> TestClub {
            let dir = tempfile::tempdir().unwrap();
            let database = crate::storage::Database::Sqlite(dir.path().join("db"));
            let (storage, _) = Storage::open(&database, None).await.unwrap();
            let (trigger, shutdown) = crate::ops::shutdown::channel();
            let (tasks, all_done) = crate::ops::shutdown::tasks();
            let settings = Settings::for_tests();
            let hub = Hub::new(storage.clone(), settings, shutdown.clone(), tasks.clone());
            TestClub {
                storage,
                hub,
                shutdown,
                tasks,
                _trigger: trigger,
                _all_done: all_done,
                _dir: dir,
            }
        }

        /// A node's events read from `storage` (the club's, or one that counts its reads):
        /// a single server's, which directs every event, or a cluster node's (`cluster`),
        /// which directs only the events it claims. An arena minute lasts a minute.
        pub(crate) async fn node(&self, storage: Storage, cluster: bool) -> Events {
            let directory: Arc<dyn Directory> = Arc::new(self.hub.clone());
            let (shutdown, tasks) = (self.shutdown.clone(), self.tasks.clone());
            const MINUTE: Duration = Duration::from_secs(60);
            Events::start(storage, directory, shutdown, tasks, cluster, MINUTE).await
        }

        /// The accounts of three members: Anne, Bauke and Catrijn.
        pub(crate) async fn members(&self) -> Vec<i64> {
            let (accounts, mut members) = (self.storage.accounts(), Vec::new());
            for name in ["Anne", "Bauke", "Catrijn"] {
                let created =
                    accounts.create_account(name.into(), "$argon2id$x".into(), false, false, 1);
                members.push(created.await.unwrap().unwrap());
            }
            members
        }
    }

    /// The club's storage, counting the event reads in the [`Reads`] it gives too.
    fn counted(club: &TestClub) -> (Storage, Arc<Reads>) {
        let reads = Arc::new(Reads::default());
        let counted = Storage::new(Counting {
            inner: club.storage.clone(),
            reads: reads.clone(),
        });
        (counted, reads)
    }

    /// A member who withdrew joins again where the format takes them back (a Swiss between
    /// rounds, a round-robin before its start), and is told in its own words where it does
    /// not (a round-robin that runs without them), not `already_joined`.
    #[tokio::test]
    async fn a_member_who_withdrew_joins_again_where_the_format_allows_it() {
        let club = TestClub::open().await;
        let members = club.members().await;
        let joining = member;
        let events = club.node(club.storage.clone(), false).await;
        let later = now_ms() + 3_600_000;
        for format in [
            Format::Swiss { rounds: 3 },
            Format::RoundRobin { double: false },
        ] {
            let id = events
                .create(EventSetup {
                    starts_at_ms: later,
                    ..setup(format)
                })
                .await
                .unwrap();
            events.join(&id, joining(members[0])).await.unwrap();
            events.withdraw(&id, members[0], None).await.unwrap();
            assert_eq!(
                events.join(&id, joining(members[0])).await,
                Ok(()),
                "{format:?}"
            );
            assert_eq!(players(&events, &id).await, [format!("p{}", members[0])]);
            assert_eq!(
                events.join(&id, joining(members[0])).await,
                Err(EventError::AlreadyJoined),
                "in already"
            );
        }

        // A Swiss whose round 1 is being played: one who left before its start comes back
        // for round 2 (lichess takes a join during a round for the next one).
        let id = events
            .create(EventSetup {
                starts_at_ms: now_ms() + 300,
                ..setup(Format::Swiss { rounds: 3 })
            })
            .await
            .unwrap();
        for &member in &members {
            events.join(&id, joining(member)).await.unwrap();
        }
        events.withdraw(&id, members[2], None).await.unwrap();
        let mut waited = 0;
        while events.view(&id).await.unwrap().rounds.is_empty() {
            assert!(waited < 500, "the Swiss never starts");
            waited += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert!(events.state(&id).await.unwrap().current().is_some());
        assert_eq!(events.join(&id, joining(members[2])).await, Ok(()));
        let state = events.state(&id).await.unwrap();
        assert!(!state.entrant(members[2]).unwrap().withdrawn);
        assert_eq!(state.rounds.len(), 1, "still round 1");

        // A round-robin that runs: one who leaves it cannot come back.
        let id = events
            .create(EventSetup {
                starts_at_ms: now_ms() + 300,
                ..setup(Format::RoundRobin { double: false })
            })
            .await
            .unwrap();
        for &member in &members {
            events.join(&id, joining(member)).await.unwrap();
        }
        let mut waited = 0;
        while events.view(&id).await.unwrap().rounds.is_empty() {
            assert!(waited < 500, "the round-robin never starts");
            waited += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        events.withdraw(&id, members[2], None).await.unwrap();
        let refused = events.join(&id, joining(members[2])).await;
        assert_eq!(refused, Err(EventError::LeftForGood));
        assert_eq!(refused.unwrap_err().code(), "left_for_good");
        let newcomer = events.join(&id, joining(99)).await;
        assert_eq!(newcomer, Err(EventError::Started));
    }

    /// What a node read of the club events from storage: the events read whole (with every
    /// record), the reads of only the newer records (with how many came back), and the lists
    /// of events read without records.
    #[derive(Debug, Default)]
    struct Reads {
        whole: Mutex<Vec<String>>,
        newer: Mutex<Vec<(String, usize)>>,
        heads: std::sync::atomic::AtomicUsize,
    }

    /// A SQLite store that counts the club event reads in [`Reads`].
    #[derive(Debug)]
    struct Counting {
        inner: Storage,
        reads: Arc<Reads>,
    }

    #[async_trait::async_trait]
    impl crate::storage::Store for Counting {
        async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
            self.inner.commit(writes).await
        }
        async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError> {
            self.inner.unfinished().await
        }
        async fn unfinished_of_event(
            &self,
            event: String,
        ) -> Result<Vec<StoredMatch>, StorageError> {
            self.inner.unfinished_of_event(event).await
        }
        async fn chat_lines(&self, match_id: String) -> Result<Vec<ChatLineRow>, StorageError> {
            self.inner.chat_lines(match_id).await
        }
        async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
            self.inner.finished_pdn(id).await
        }
        async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
            self.inner.finished_match(key).await
        }
        async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
            self.inner.leaderboard(limit).await
        }
        async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError> {
            self.inner.archived_game(id).await
        }
        async fn next_game_id(&self) -> Result<u64, StorageError> {
            self.inner.next_game_id().await
        }
        async fn next_run(&self) -> Result<u64, StorageError> {
            self.inner.next_run().await
        }
        async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError> {
            self.inner.last_heartbeat().await
        }
        fn accounts(&self) -> Arc<dyn crate::storage::accounts::AccountStore> {
            self.inner.accounts()
        }
        async fn club_events(
            &self,
            unfinished_only: bool,
        ) -> Result<Vec<StoredClubEvent>, StorageError> {
            let all = self.inner.club_events(unfinished_only).await?;
            let mut whole = self.reads.whole.lock().unwrap();
            whole.extend(all.iter().map(|event| event.id.clone()));
            Ok(all)
        }
        async fn club_event_heads(
            &self,
            finished: bool,
            offset: u64,
            limit: u32,
        ) -> Result<Vec<StoredClubEvent>, StorageError> {
            self.reads
                .heads
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            self.inner.club_event_heads(finished, offset, limit).await
        }
        async fn club_event(&self, id: String) -> Result<Option<StoredClubEvent>, StorageError> {
            self.reads.whole.lock().unwrap().push(id.clone());
            self.inner.club_event(id).await
        }
        async fn club_event_records(
            &self,
            id: String,
            after: u64,
            limit: u32,
        ) -> Result<Vec<StoredEvent>, StorageError> {
            let newer = self
                .inner
                .club_event_records(id.clone(), after, limit)
                .await?;
            self.reads.newer.lock().unwrap().push((id, newer.len()));
            Ok(newer)
        }
        async fn is_organiser(&self, account: i64) -> Result<bool, StorageError> {
            self.inner.is_organiser(account).await
        }
        async fn close(&self) {
            self.inner.close().await
        }
    }

    /// A node that does not run an event's director shows it (`GET /api/events/{id}`, the
    /// list) from what it read before: the event is read whole once, then only its newer
    /// records, a finished one not at all; the list reads which events there are without
    /// their records. What it shows is what a whole read shows.
    #[tokio::test]
    async fn an_event_run_elsewhere_is_shown_from_what_was_read_and_only_what_is_new_is_read() {
        let club = TestClub::open().await;
        let (counted, reads) = counted(&club);
        // The node that runs the directors, and one that only shows the events.
        let owner = club.node(club.storage.clone(), false).await;
        let here = club.node(counted, true).await;
        let waiting = owner
            .create(EventSetup {
                starts_at_ms: now_ms() + 3_600_000,
                ..setup(Format::Swiss { rounds: 3 })
            })
            .await
            .unwrap();
        // The list goes by creation time, then by the random id: a later millisecond makes
        // `over` the newer one for certain.
        tokio::time::sleep(Duration::from_millis(2)).await;
        // Nobody joins before its start: it is over at once.
        let over = owner
            .create(EventSetup {
                starts_at_ms: 0,
                ..setup(Format::Swiss { rounds: 3 })
            })
            .await
            .unwrap();
        let mut waited = 0;
        while owner.view(&over).await.unwrap().status != "finished" {
            assert!(waited < 500, "the empty event never finishes");
            waited += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let whole = || reads.whole.lock().unwrap().clone();
        let newer_of = |id: &str| -> Vec<usize> {
            let newer = reads.newer.lock().unwrap();
            newer
                .iter()
                .filter(|(of, _)| of == id)
                .map(|(_, n)| *n)
                .collect()
        };

        for _ in 0..3 {
            assert!(here.view(&waiting).await.unwrap().players.is_empty());
        }
        assert_eq!(whole(), [waiting.as_str()], "read whole once");
        assert_eq!(newer_of(&waiting), [0, 0], "then only what is new: nothing");

        owner.join(&waiting, member(1)).await.unwrap();
        owner.join(&waiting, member(2)).await.unwrap();
        assert_eq!(players(&here, &waiting).await, ["p1", "p2"]);
        assert_eq!(newer_of(&waiting), [0, 0, 2], "the two joins, and no more");
        let shown = here.view(&waiting).await.unwrap();
        let replayed = here.read_whole(&waiting).await.unwrap();
        assert_eq!(
            *shown,
            EventView::of(&replayed, now_ms()),
            "as a whole read shows it"
        );
        reads.whole.lock().unwrap().clear();

        for _ in 0..3 {
            assert_eq!(here.view(&over).await.unwrap().status, "finished");
        }
        assert_eq!(whole(), [over.as_str()], "a finished event is read once");
        assert!(newer_of(&over).is_empty(), "and nothing after that");

        let listed = here.list(0).await.unwrap();
        let ids = |views: &[Arc<EventView>]| -> Vec<String> {
            views.iter().map(|v| v.id.clone()).collect()
        };
        assert_eq!(ids(&listed.unfinished), [waiting.as_str()]);
        assert_eq!(ids(&listed.finished), [over.as_str()]);
        assert!(!listed.more);
        assert_eq!(
            reads.heads.load(std::sync::atomic::Ordering::SeqCst),
            2,
            "the unfinished events, then a page of the finished ones"
        );
        assert_eq!(whole(), [over.as_str()], "the list reads no event whole");
        assert!(newer_of(&over).is_empty());

        assert_eq!(
            here.view("nope").await,
            Err(EventError::NotFound("nope".into()))
        );
    }

    /// A node that does not run an event's director looks its set-up up for every join (the
    /// password, who may play): the set-ups are kept with the events it keeps, so however
    /// many events it sees it holds at most [`kept::KEPT`] of them, and one kept is answered
    /// without a read of storage, not even of the event's newer records.
    #[tokio::test]
    async fn a_node_keeps_the_set_ups_it_looks_up_within_the_events_it_keeps() {
        let club = TestClub::open().await;
        let (counted, reads) = counted(&club);
        let storage = club.storage.clone();
        // A node of a cluster: it runs none of these events' directors.
        let here = club.node(counted, true).await;
        let seen = kept::KEPT.get() + 44;
        let swiss = setup(Format::Swiss { rounds: 3 });
        let writes = (0..seen)
            .map(|i| {
                let named = EventSetup {
                    name: format!("Swiss {i}"),
                    ..swiss.clone()
                };
                Write::ClubEvent(EventWrite::Create {
                    id: format!("ev{i:03}"),
                    created_ms: 1,
                    setup: serde_json::to_string(&named).unwrap(),
                })
            })
            .collect();
        storage.commit(writes).await.unwrap();
        for i in 0..seen {
            let looked_up = here.setup(&format!("ev{i:03}")).await.unwrap();
            assert_eq!(looked_up.name, format!("Swiss {i}"));
        }
        assert_eq!(here.0.kept.len(), kept::KEPT.get(), "no more than kept");
        reads.whole.lock().unwrap().clear();
        let newest = format!("ev{:03}", seen - 1);
        assert_eq!(
            here.setup(&newest).await.unwrap().name,
            format!("Swiss {}", seen - 1)
        );
        assert!(
            reads.whole.lock().unwrap().is_empty(),
            "kept: not read again"
        );
        assert!(
            reads.newer.lock().unwrap().is_empty(),
            "nor its newer records"
        );
        // The oldest was dropped to keep the others: looked up again, it is read again.
        assert_eq!(here.setup("ev000").await.unwrap().name, "Swiss 0");
        assert_eq!(*reads.whole.lock().unwrap(), ["ev000"]);
        assert_eq!(here.0.kept.len(), kept::KEPT.get());
    }

    /// In a cluster, a join or withdrawal whose answer was lost on its way back is answered
    /// as done, and so is one sent again after an `event_moving` (it reached the director
    /// late); a second join or withdrawal of one that was answered is still refused, and a
    /// request that was never done is still `event_moving`.
    #[tokio::test]
    async fn a_request_done_whose_answer_was_lost_is_answered_as_done_also_when_sent_again() {
        let club = TestClub::open().await;
        let start = |cluster| club.node(club.storage.clone(), cluster);
        // The node that runs the director, and one that forwards its members' requests there.
        let owner = start(false).await;
        let here = start(true).await;
        let link = Arc::new(Link {
            owner: owner.clone(),
            delivery: Mutex::new(Delivery::Answered),
            late: Mutex::default(),
        });
        here.use_link(link.clone());
        let waiting = EventSetup {
            starts_at_ms: now_ms() + 3_600_000,
            ..setup(Format::Swiss { rounds: 3 })
        };
        let id = owner.create(waiting).await.unwrap();

        // Joined, the answer lost: answered as done.
        link.deliver(Delivery::AnswerLost);
        assert_eq!(here.join(&id, member(1)).await, Ok(()));
        assert_eq!(players(&owner, &id).await, ["p1"]);
        // The same member joins again (a second tab): they are in already.
        link.deliver(Delivery::Answered);
        assert_eq!(
            here.join(&id, member(1)).await,
            Err(EventError::AlreadyJoined)
        );

        // Not done yet when nobody answered: `event_moving`; done late, and sent again.
        link.deliver(Delivery::Late);
        assert_eq!(here.join(&id, member(2)).await, Err(EventError::Moving));
        assert_eq!(players(&owner, &id).await, ["p1"]);
        link.hand_over_late().await;
        link.deliver(Delivery::Answered);
        assert_eq!(here.join(&id, member(2)).await, Ok(()), "sent again");
        assert_eq!(players(&owner, &id).await, ["p1", "p2"]);
        assert_eq!(
            here.join(&id, member(2)).await,
            Err(EventError::AlreadyJoined),
            "answered once, the doubt is gone"
        );

        // Withdrawals alike.
        link.deliver(Delivery::AnswerLost);
        assert_eq!(here.withdraw(&id, 1, None).await, Ok(()));
        link.deliver(Delivery::Answered);
        assert_eq!(
            here.withdraw(&id, 1, None).await,
            Err(EventError::NotJoined)
        );
        link.deliver(Delivery::Late);
        assert_eq!(here.withdraw(&id, 2, None).await, Err(EventError::Moving));
        link.hand_over_late().await;
        link.deliver(Delivery::Answered);
        assert_eq!(here.withdraw(&id, 2, None).await, Ok(()), "sent again");
        let state = here.state(&id).await.unwrap();
        assert!(state.entrants.iter().all(|e| e.withdrawn));

        // A request lost on its way there was never done: sent again, it is done then.
        link.deliver(Delivery::Late);
        assert_eq!(here.join(&id, member(3)).await, Err(EventError::Moving));
        link.late.lock().unwrap().clear();
        link.deliver(Delivery::Answered);
        assert_eq!(here.join(&id, member(3)).await, Ok(()));
        // Five requests done, each once.
        assert_eq!(here.state(&id).await.unwrap().v, 5);
    }

    /// In a cluster, a join or withdrawal done on the director's node whose answer was lost,
    /// sent again by the member's page through ANOTHER node (the first died, or the balancer
    /// chose another), is answered as done: its id is stored with the record that did it, so
    /// any node's director knows it; the node the first went through need not remember it. A
    /// second tab's request, with its own id or none, is still refused.
    #[tokio::test]
    async fn a_request_sent_again_through_another_node_is_answered_as_done() {
        let club = TestClub::open().await;
        let start = |cluster| club.node(club.storage.clone(), cluster);
        // The node that runs the director, and two that forward their members' requests.
        let owner = start(false).await;
        let (first, second) = (start(true).await, start(true).await);
        let link = |events: &Events| {
            let link = Arc::new(Link {
                owner: owner.clone(),
                delivery: Mutex::new(Delivery::Answered),
                late: Mutex::default(),
            });
            events.use_link(link.clone());
            link
        };
        let (via_first, _via_second) = (link(&first), link(&second));
        let id = owner
            .create(EventSetup {
                starts_at_ms: now_ms() + 3_600_000,
                ..setup(Format::Swiss { rounds: 3 })
            })
            .await
            .unwrap();
        let asked = |request: Option<&str>| Joining {
            request: request.map(str::to_owned),
            ..member(1)
        };

        // Joined through the first node, its answer lost; sent again through the second.
        via_first.deliver(Delivery::AnswerLost);
        assert_eq!(first.join(&id, asked(Some("j-1"))).await, Ok(()));
        assert_eq!(
            second.join(&id, asked(Some("j-1"))).await,
            Ok(()),
            "sent again"
        );
        assert_eq!(players(&owner, &id).await, ["p1"]);
        // Another tab's join: in already.
        let other_tab = second.join(&id, asked(Some("j-2"))).await;
        assert_eq!(other_tab, Err(EventError::AlreadyJoined));
        let no_id = second.join(&id, asked(None)).await;
        assert_eq!(no_id, Err(EventError::AlreadyJoined));
        // What any node reads of the event holds the request's id.
        let state = second.state(&id).await.unwrap();
        let stored = state.entrant(1).unwrap().last_request.clone();
        assert_eq!(stored.as_deref(), Some("j-1"));

        // Withdrawals alike.
        via_first.deliver(Delivery::AnswerLost);
        let withdraw = |events: &Events, request: Option<&str>| {
            let (events, request) = (events.clone(), request.map(str::to_owned));
            let id = id.clone();
            async move { events.withdraw(&id, 1, request).await }
        };
        assert_eq!(withdraw(&first, Some("w-1")).await, Ok(()));
        assert_eq!(withdraw(&second, Some("w-1")).await, Ok(()), "sent again");
        let other_tab = withdraw(&second, Some("w-2")).await;
        assert_eq!(other_tab, Err(EventError::NotJoined));
        assert_eq!(withdraw(&second, None).await, Err(EventError::NotJoined));
        // The join sent again after the member withdrew is a join of its own: not the
        // latest request, so it is not taken for done.
        assert_eq!(second.join(&id, asked(Some("j-1"))).await, Ok(()));
        // A join, a withdrawal and a join again: each stored once.
        assert_eq!(owner.state(&id).await.unwrap().v, 3);
    }

    /// A node that directs event after event to its end holds none of them as a director's
    /// entry once each director is done, and at most [`kept::KEPT`] kept: its memory does not
    /// grow with the events it ran. A finished event is still shown whole: the newest from
    /// what its director left (no read of storage), the oldest, long dropped, read back; a
    /// follower that watches it is sent it at once, and a late join is refused as finished.
    #[tokio::test]
    async fn a_node_that_directed_many_events_to_their_end_holds_a_bounded_number_of_them() {
        let club = TestClub::open().await;
        let (counted, reads) = counted(&club);
        let storage = club.storage.clone();
        let events = club.node(counted, false).await;
        // The first has a player, alone at its start: it is over then, with its standings.
        let first = events
            .create(EventSetup {
                starts_at_ms: now_ms() + 300,
                ..setup(Format::Swiss { rounds: 3 })
            })
            .await
            .unwrap();
        events.join(&first, member(1)).await.unwrap();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while events.view(&first).await.unwrap().status != "finished" {
            assert!(tokio::time::Instant::now() < deadline, "it never finishes");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // The rest start at once with nobody in them: each is over at once.
        let directed = kept::KEPT.get() + 44;
        let mut last = first.clone();
        for _ in 1..directed {
            let over = EventSetup {
                starts_at_ms: 0,
                ..setup(Format::Swiss { rounds: 3 })
            };
            last = events.create(over).await.unwrap();
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while !storage.club_events(true).await.unwrap().is_empty() {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the events never finish"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Each director's last step after storing the end: going.
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        while events.running_len() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(
            events.running_len(),
            0,
            "no finished event stays a director's"
        );
        assert!(events.0.kept.len() <= kept::KEPT.get(), "no more than kept");

        reads.whole.lock().unwrap().clear();
        let newest = events.view(&last).await.unwrap();
        assert_eq!(newest.status, "finished");
        assert!(
            reads.whole.lock().unwrap().is_empty(),
            "as its director left it: not read from storage"
        );
        let oldest = events.view(&first).await.unwrap();
        assert_eq!(*reads.whole.lock().unwrap(), [first.as_str()], "read back");
        let replayed = events.read_whole(&first).await.unwrap();
        assert_eq!(*oldest, EventView::of(&replayed, now_ms()), "shown whole");
        assert_eq!(oldest.status, "finished");
        assert_eq!(oldest.players, ["p1"]);
        assert_eq!(oldest.standings.len(), 1);
        assert_eq!(
            events.join(&first, member(2)).await,
            Err(EventError::Finished)
        );
        assert_eq!(
            events.join(&last, member(2)).await,
            Err(EventError::Finished)
        );

        // A spectator who watches it now is sent the event at once, whole and over.
        let (shutdown, tasks) = (club.shutdown.clone(), club.tasks.clone());
        let followers = follow::Followers::new(events.clone(), shutdown, tasks);
        let (outbox, mut inbox) =
            crate::room::outbox::outbox(1, boardcast_protocol::Encoding::Json, 16);
        followers
            .watch(&outbox, 7, first.clone(), None)
            .await
            .unwrap();
        let mut got = Vec::new();
        while let Ok(frame) = inbox.rx.try_recv() {
            let axum::extract::ws::Message::Text(text) = frame else {
                panic!("{frame:?}")
            };
            let frame = boardcast_protocol::FrameRef::Text(text.as_bytes());
            got.push(
                boardcast_protocol::Encoding::Json
                    .decode_server(frame)
                    .unwrap(),
            );
        }
        match got.as_slice() {
            [
                boardcast_protocol::ServerMessage::Ack(ack),
                boardcast_protocol::ServerMessage::ClubEvent(shown),
            ] => {
                assert_eq!(ack.id, 7);
                assert_eq!(shown.status, boardcast_protocol::ClubEventStatus::Finished);
                assert_eq!(shown.standings.len(), 1);
                assert_eq!(shown.v, oldest.v);
            }
            other => panic!("{other:?}"),
        }
    }

    /// More waiting events than the list shows: it shows the newest
    /// [`MAX_UNFINISHED_LISTED`] and says that some are left out (`more_current`); with no
    /// more than that, it says none are.
    #[tokio::test]
    async fn a_list_that_leaves_out_waiting_events_says_so() {
        let club = TestClub::open().await;
        let storage = club.storage.clone();
        // A node of a cluster: it shows these events without directing them.
        let here = club.node(storage.clone(), true).await;
        let later = EventSetup {
            starts_at_ms: now_ms() + 3_600_000,
            ..setup(Format::Swiss { rounds: 3 })
        };
        let create = |i: u32| {
            Write::ClubEvent(EventWrite::Create {
                id: format!("ev{i:03}"),
                created_ms: i64::from(i) + 1,
                setup: serde_json::to_string(&later).unwrap(),
            })
        };
        let all = (0..MAX_UNFINISHED_LISTED).map(create).collect();
        storage.commit(all).await.unwrap();
        let listed = here.list(0).await.unwrap();
        assert_eq!(listed.unfinished.len(), MAX_UNFINISHED_LISTED as usize);
        assert!(!listed.more_current, "all of them are listed");

        storage
            .commit(vec![create(MAX_UNFINISHED_LISTED)])
            .await
            .unwrap();
        let listed = here.list(0).await.unwrap();
        assert_eq!(listed.unfinished.len(), MAX_UNFINISHED_LISTED as usize);
        assert!(listed.more_current, "one is left out, and the list says so");
        let newest = format!("ev{MAX_UNFINISHED_LISTED:03}");
        assert_eq!(listed.unfinished[0].id, newest, "newest first");
        assert!(
            listed.unfinished.iter().all(|view| view.id != "ev000"),
            "the oldest is the one left out"
        );
    }
}
