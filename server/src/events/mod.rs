//! Club events (issue 33): Swiss, round-robin and arena tournaments run by the server.
//!
//! Each running event has a director ([`director`]), an actor like a match: the single writer
//! of the event's versioned history ([`crate::storage::club`]), replayed at start-up
//! ([`state`]), creating each round's matches and counting their results exactly once. The
//! pairing itself is the pure crate `boardcast-pairing`. [`Events`] finds the directors; the
//! HTTP API ([`http`]) creates, joins and shows events.
//!
//! An event runs on a single server for now: in a cluster no node would own it yet (the
//! lease and fencing of matches are not extended to events), so a cluster refuses to create
//! one rather than run it twice.

pub(crate) mod director;
pub(crate) mod error;
pub(crate) mod follow;
pub(crate) mod http;
pub(crate) mod record;
pub(crate) mod state;
pub(crate) mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use self::director::{Command, Director, Joining, MAILBOX};
use self::error::EventError;
use self::record::EventSetup;
use self::state::EventState;
use self::view::EventView;
use crate::matches::local::Hub;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::storage::club::{EventWrite, StoredClubEvent};
use crate::storage::{Storage, Write, now_ms};

/// How often a director looks up its running games in storage.
const POLL: Duration = Duration::from_millis(500);

/// A running event's director: its mailbox, its latest view and its set-up.
#[derive(Clone)]
struct Running {
    commands: mpsc::Sender<Command>,
    view: watch::Receiver<Arc<EventView>>,
    setup: EventSetup,
}

/// The events of this server; cheap to clone.
#[derive(Clone)]
pub(crate) struct Events(Arc<Inner>);

struct Inner {
    storage: Storage,
    hub: Hub,
    shutdown: Shutdown,
    tasks: Tasks,
    running: Mutex<HashMap<String, Running>>,
    /// A cluster runs no events (see the module doc).
    cluster: bool,
    /// How long one of an arena's minutes lasts (`--arena-minute`).
    arena_minute: Duration,
}

fn random_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl Events {
    /// The events of `storage`, with a director started for every unfinished one.
    pub(crate) async fn start(
        storage: Storage,
        hub: Hub,
        shutdown: Shutdown,
        tasks: Tasks,
        cluster: bool,
        arena_minute: Duration,
    ) -> Events {
        let events = Events(Arc::new(Inner {
            storage,
            hub,
            shutdown,
            tasks,
            running: Mutex::new(HashMap::new()),
            cluster,
            arena_minute,
        }));
        if !cluster {
            match events.0.storage.club_events(true).await {
                Ok(unfinished) => {
                    for stored in unfinished {
                        if let Err(err) = events.resume(stored) {
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

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Running>> {
        self.0.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Starts the director of a stored event from its records.
    fn resume(&self, stored: StoredClubEvent) -> Result<(), String> {
        let setup: EventSetup = serde_json::from_str(&stored.setup).map_err(|e| e.to_string())?;
        let state = EventState::replay(stored.id, setup, stored.created_ms, &stored.records)
            .map_err(|e| e.to_string())?;
        tracing::info!(event = %state.id, v = state.v, "event resumed");
        self.spawn(state);
        Ok(())
    }

    fn spawn(&self, state: EventState) {
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
            self.0.hub.clone(),
            rx,
            view_tx,
            self.0.shutdown.clone(),
            POLL,
        );
        tokio::spawn(director.run(guard));
    }

    /// Stores a new event and starts its director; returns its id.
    pub(crate) async fn create(&self, setup: EventSetup) -> Result<String, EventError> {
        if self.0.cluster {
            return Err(EventError::Cluster);
        }
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
        self.spawn(EventState::new(id.clone(), setup, created_ms));
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

    /// The set-up of running event `id`.
    pub(crate) fn setup(&self, id: &str) -> Option<EventSetup> {
        self.running().get(id).map(|r| r.setup.clone())
    }

    async fn ask(
        &self,
        id: &str,
        command: impl FnOnce(oneshot::Sender<Result<(), EventError>>) -> Command,
    ) -> Result<(), EventError> {
        let commands = self
            .running()
            .get(id)
            .map(|r| r.commands.clone())
            .ok_or_else(|| EventError::NotFound(id.to_owned()))?;
        let (reply, answer) = oneshot::channel();
        commands.try_send(command(reply)).map_err(|err| match err {
            mpsc::error::TrySendError::Full(_) => EventError::Busy,
            // The director stops when its event is over.
            mpsc::error::TrySendError::Closed(_) => EventError::Finished,
        })?;
        answer.await.map_err(|_| EventError::Finished)?
    }

    pub(crate) async fn join(&self, id: &str, joining: Joining) -> Result<(), EventError> {
        self.ask(id, |reply| Command::Join { joining, reply }).await
    }

    pub(crate) async fn withdraw(&self, id: &str, account: i64) -> Result<(), EventError> {
        self.ask(id, |reply| Command::Withdraw { account, reply })
            .await
    }

    /// The views of event `id` as its running director shows them, to follow its changes
    /// ([`follow`]); `None` when no director of it runs here.
    pub(crate) fn updates(&self, id: &str) -> Option<watch::Receiver<Arc<EventView>>> {
        self.running().get(id).map(|r| r.view.clone())
    }

    /// Event `id` as it stands: the running director's view, else read back from storage.
    pub(crate) async fn state(&self, id: &str) -> Result<EventState, EventError> {
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

    /// Event `id` as shown: the running director's latest view, or read back from storage.
    pub(crate) async fn view(&self, id: &str) -> Result<Arc<EventView>, EventError> {
        if let Some(running) = self.running().get(id) {
            return Ok(running.view.borrow().clone());
        }
        Ok(Arc::new(EventView::of(&self.state(id).await?, now_ms())))
    }

    /// Every event, newest first.
    pub(crate) async fn list(&self) -> Result<Vec<Arc<EventView>>, EventError> {
        let stored = self
            .0
            .storage
            .club_events(false)
            .await
            .map_err(|_| EventError::Storage)?;
        let mut views = Vec::with_capacity(stored.len());
        for event in stored.into_iter().rev() {
            if let Some(running) = self.running().get(&event.id) {
                views.push(running.view.borrow().clone());
                continue;
            }
            let Ok(setup) = serde_json::from_str::<EventSetup>(&event.setup) else {
                continue;
            };
            if let Ok(state) = EventState::replay(event.id, setup, event.created_ms, &event.records)
            {
                views.push(Arc::new(EventView::of(&state, now_ms())));
            }
        }
        Ok(views)
    }
}
