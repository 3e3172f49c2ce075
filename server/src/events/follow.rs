//! Following an event live over the WebSocket: `watch` of `{"event": ID}`.
//!
//! Every running event that somebody follows has a room here: a task that holds the event's
//! followers in a [`Fanout`] (the one fan-out of matches and channels: each message encoded
//! once per encoding, a follower that cannot keep up dropped, never a wait) and watches the
//! director's latest view. Each change goes out to every follower as the whole event at its
//! version ([`ClubEvent`]): standings are recomputed from every result, so there is no delta
//! a client could apply. Changes are coalesced to one push per [`PUSH_EVERY`]: an arena's
//! results arrive in bursts at the end of a wave, and a follower needs only the latest.
//!
//! A follower that watches again with `since_v` (after a reconnect) is sent the event only if
//! it changed since: every push is the whole event, so catching up is one message. The room
//! only reads the director's view (a `watch` channel the director already fills), so the
//! director knows nothing of its followers. An event whose director runs on another node of a
//! cluster has a room fed by reading the event back from storage every [`READ_EVERY`] while
//! it is followed here ([`read_back`]): read whole once, then only the records stored after
//! the version it has, kept once for the room and the HTTP routes alike ([`super::kept`]).
//! A finished event answers `watch` with the event read back once, as nothing more will
//! change.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardcast_protocol::{
    ClubEvent, ClubEventKind, ClubEventStatus, ErrorArgs, ErrorCode, EventGame, EventRound,
    EventStanding, MAX_PUSHED_GAMES, ServerMessage, Target,
};
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use super::Events;
use super::error::EventError;
use super::view::{EventView, FormatView};
use crate::ops::shutdown::{Shutdown, TaskGuard, Tasks};
use crate::refusal::Refusal;
use crate::room::fanout::Fanout;
use crate::room::outbox::{Outbox, SharedMessage};

/// At most one push per event in this time: later changes wait and go out together.
const PUSH_EVERY: Duration = Duration::from_millis(300);
/// Requests waiting for a room, at most; beyond, `watch` is refused as busy.
const ROOM_MAILBOX: usize = 256;
/// How often a node that does not run an event's director reads it back for its followers.
const READ_EVERY: Duration = Duration::from_secs(1);
/// Crowd counts are not sent for events; the fan-out wants a period all the same.
const NO_CROWD: Duration = Duration::from_secs(3600);

/// What a room is asked.
enum Request {
    Watch {
        outbox: Outbox,
        id: u64,
        since_v: Option<u64>,
    },
    Unwatch {
        outbox: Outbox,
        id: u64,
    },
}

/// The rooms of the events followed on this node; cheap to clone.
#[derive(Clone)]
pub(crate) struct Followers(Arc<Inner>);

/// Each followed event's room, by event id.
type Rooms = Arc<Mutex<HashMap<String, mpsc::Sender<Request>>>>;

fn lock(rooms: &Rooms) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Request>>> {
    rooms.lock().unwrap_or_else(|p| p.into_inner())
}

struct Inner {
    events: Events,
    rooms: Rooms,
    shutdown: Shutdown,
    tasks: Tasks,
}

impl Followers {
    pub(crate) fn new(events: Events, shutdown: Shutdown, tasks: Tasks) -> Followers {
        Followers(Arc::new(Inner {
            events,
            rooms: Rooms::default(),
            shutdown,
            tasks,
        }))
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, mpsc::Sender<Request>>> {
        lock(&self.0.rooms)
    }

    /// Answers envelope `id`, the watch of `event`: an ack, then the event unless the
    /// follower has version `since_v` already, then every change while it runs.
    pub(crate) async fn watch(
        &self,
        outbox: &Outbox,
        id: u64,
        event: String,
        since_v: Option<u64>,
    ) -> Result<(), Refusal> {
        let request = Request::Watch {
            outbox: outbox.clone(),
            id,
            since_v,
        };
        let request = match self.to_room(&event, request) {
            Ok(()) => return Ok(()),
            Err(request) => request,
        };
        if let Some(views) = self.0.events.updates(&event)
            && let Some(room) = self.open(&event, views)
        {
            return room.try_send(request).map_err(|_| busy(&event));
        }
        // Not running here: the event as read back from storage (kept, so that the room and
        // the HTTP routes share one read of it); followed from storage unless it is over.
        let view = self.0.events.view(&event).await.map_err(|err| match err {
            EventError::NotFound(_) => {
                Refusal::new(ErrorCode::NotFound, format!("no event {event}"))
                    .with(ErrorArgs::new("no_event").word("event", &event))
            }
            _ => Refusal::new(ErrorCode::StorageUnavailable, "cannot read the event")
                .with(ErrorArgs::new("event_unreadable").word("event", &event)),
        })?;
        if view.status != "finished" {
            let (events, id) = (self.0.events.clone(), event.clone());
            // Called once a tick, one read after the other.
            let read = move || {
                let (events, id) = (events.clone(), id.clone());
                async move {
                    let read = events.view(&id).await;
                    read.map_err(|err| tracing::debug!(event = %id, %err, "cannot read back"))
                        .ok()
                }
            };
            if let Some(room) = self.open(&event, read_back(view.clone(), read)) {
                return room.try_send(request).map_err(|_| busy(&event));
            }
        }
        outbox.ack(id);
        if since_v != Some(view.v) {
            outbox.send(&ServerMessage::ClubEvent(club_event(&view)));
        }
        Ok(())
    }

    /// Stops sending `event` to this connection; acknowledged also when it did not follow it.
    pub(crate) fn unwatch(&self, outbox: &Outbox, id: u64, event: &str) -> Result<(), Refusal> {
        let request = Request::Unwatch {
            outbox: outbox.clone(),
            id,
        };
        if self.to_room(event, request).is_err() {
            outbox.ack(id);
        }
        Ok(())
    }

    /// Hands `request` to the room of `event`, or gives it back when there is none (a room
    /// that has closed is forgotten). A full room refuses it as busy.
    fn to_room(&self, event: &str, request: Request) -> Result<(), Request> {
        let mut rooms = self.rooms();
        let Some(room) = rooms.get(event) else {
            return Err(request);
        };
        match room.try_send(request) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(request)) => {
                let (outbox, id) = match &request {
                    Request::Watch { outbox, id, .. } | Request::Unwatch { outbox, id } => {
                        (outbox, *id)
                    }
                };
                outbox.refuse(id, busy(event));
                Ok(())
            }
            Err(mpsc::error::TrySendError::Closed(request)) => {
                rooms.remove(event);
                Err(request)
            }
        }
    }

    /// Opens the room of `event`, fed by the director's `views`; `None` if its director has
    /// stopped (the event is over) or the server is stopping.
    fn open(
        &self,
        event: &str,
        views: watch::Receiver<Arc<EventView>>,
    ) -> Option<mpsc::Sender<Request>> {
        if views.has_changed().is_err() {
            return None;
        }
        let guard = self.0.tasks.guard()?;
        let mut rooms = self.rooms();
        if let Some(room) = rooms.get(event).filter(|room| !room.is_closed()) {
            return Some(room.clone());
        }
        let (tx, rx) = mpsc::channel(ROOM_MAILBOX);
        rooms.insert(event.to_owned(), tx.clone());
        let room = Room::new(event, views, rx, self.0.rooms.clone());
        tokio::spawn(room.run(self.0.shutdown.clone(), guard));
        Some(tx)
    }
}

/// The views of an event whose director runs on another node: read back every
/// [`READ_EVERY`] (`read` answers `None` when storage cannot be read; the next tick tries
/// again) while a room holds the receiver, and closed once the event is finished, so that its
/// room pushes the last view and goes.
fn read_back<R, F>(first: Arc<EventView>, mut read: R) -> watch::Receiver<Arc<EventView>>
where
    R: FnMut() -> F + Send + 'static,
    F: std::future::Future<Output = Option<Arc<EventView>>> + Send,
{
    let (views, receiver) = watch::channel(first);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(READ_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every.tick().await;
        loop {
            tokio::select! {
                () = views.closed() => return,
                _ = every.tick() => {}
            }
            let Some(view) = read().await else { continue };
            let finished = view.status == "finished";
            views.send_if_modified(|shown| {
                let newer = view.v != shown.v;
                if newer {
                    *shown = view;
                }
                newer
            });
            if finished {
                return;
            }
        }
    });
    receiver
}

fn busy(event: &str) -> Refusal {
    Refusal::new(
        ErrorCode::Busy,
        "too many are asking for this event: try again",
    )
    .with(ErrorArgs::new("event_busy").word("event", event))
}

/// One followed event: its followers and the last version they were sent.
struct Room {
    event: String,
    fanout: Fanout<()>,
    /// The event as last pushed, encoded at most once per encoding for everybody.
    shown: Arc<SharedMessage>,
    shown_v: u64,
    views: watch::Receiver<Arc<EventView>>,
    requests: mpsc::Receiver<Request>,
    /// Where the room takes itself out once it has closed.
    rooms: Rooms,
}

impl Room {
    fn new(
        event: &str,
        views: watch::Receiver<Arc<EventView>>,
        requests: mpsc::Receiver<Request>,
        rooms: Rooms,
    ) -> Room {
        let view = views.borrow().clone();
        Room {
            event: event.to_owned(),
            fanout: Fanout::new(1, Target::Event(event.to_owned()), NO_CROWD),
            shown: Arc::new(SharedMessage::new(ServerMessage::ClubEvent(club_event(
                &view,
            )))),
            shown_v: view.v,
            views,
            requests,
            rooms,
        }
    }

    /// Serves the followers until the event is over (its director stops) or the server stops.
    async fn run(mut self, mut shutdown: Shutdown, _guard: TaskGuard) {
        let mut pushed_at = Instant::now()
            .checked_sub(PUSH_EVERY)
            .unwrap_or_else(Instant::now);
        let mut changed = false;
        let mut running = true;
        while running {
            tokio::select! {
                _ = shutdown.recv() => return,
                request = self.requests.recv() => match request {
                    Some(request) => self.handle(request),
                    None => return,
                },
                seen = self.views.changed(), if !changed => match seen {
                    Ok(()) => changed = true,
                    // The director has stopped: its last view is pushed, then the room goes.
                    Err(_) => {
                        changed = true;
                        running = false;
                    }
                },
                () = tokio::time::sleep_until(pushed_at + PUSH_EVERY), if changed && running => {
                    pushed_at = Instant::now();
                    changed = false;
                    self.push();
                }
            }
        }
        self.push();
        // New watchers go to the stored event from now on; those already asking get the last
        // version here.
        self.requests.close();
        {
            let mut rooms = lock(&self.rooms);
            if rooms.get(&self.event).is_some_and(|room| room.is_closed()) {
                rooms.remove(&self.event);
            }
        }
        while let Ok(request) = self.requests.try_recv() {
            self.handle(request);
        }
    }

    /// Sends the director's latest view to every follower, if its version is new to them.
    fn push(&mut self) {
        let view = self.views.borrow_and_update().clone();
        if view.v == self.shown_v {
            return;
        }
        let message = ServerMessage::ClubEvent(club_event(&view));
        self.shown_v = view.v;
        self.shown = Arc::new(SharedMessage::new(message.clone()));
        self.fanout.broadcast(message);
    }

    fn handle(&mut self, request: Request) {
        match request {
            Request::Watch {
                outbox,
                id,
                since_v,
            } => {
                // Followers whose connection closed go here, so a room followed by many
                // passing visitors does not keep them until its next push.
                self.fanout.prune_closed();
                outbox.ack(id);
                if since_v != Some(self.shown_v) {
                    outbox.send_shared(&self.shown);
                }
                self.fanout.insert(outbox, ());
            }
            Request::Unwatch { outbox, id } => {
                self.fanout.remove(outbox.id());
                outbox.ack(id);
            }
        }
    }
}

/// The event as its followers are sent it: the view's fields, each always present, and at
/// most [`MAX_PUSHED_GAMES`] games (the newest rounds, whole; the newest always).
pub(crate) fn club_event(view: &EventView) -> ClubEvent {
    let (kind, minutes, ends_at_ms, double) = match view.format {
        FormatView::Swiss {} => (ClubEventKind::Swiss, None, None, false),
        FormatView::RoundRobin { double } => (ClubEventKind::RoundRobin, None, None, double),
        FormatView::Arena {
            minutes,
            ends_at_ms,
        } => (ClubEventKind::Arena, Some(minutes), Some(ends_at_ms), false),
    };
    let status = match view.status {
        "waiting" => ClubEventStatus::Waiting,
        "finished" => ClubEventStatus::Finished,
        _ => ClubEventStatus::Playing,
    };
    let mut games = 0;
    let newest = view
        .rounds
        .iter()
        .rev()
        .take_while(|round| {
            games += round.games.len();
            games <= MAX_PUSHED_GAMES || games == round.games.len()
        })
        .count();
    let rounds = view.rounds[view.rounds.len() - newest..]
        .iter()
        .map(|round| EventRound {
            round: round.round,
            games: round
                .games
                .iter()
                .map(|game| EventGame {
                    white: game.white.clone(),
                    black: game.black.clone(),
                    match_id: game.match_id.clone(),
                    result: game.result.map(str::to_owned),
                })
                .collect(),
            bye: round.bye.clone(),
        })
        .collect();
    ClubEvent {
        id: view.id.clone(),
        v: view.v,
        name: view.name.clone(),
        kind,
        time_control: view.time_control.clone(),
        rated: view.rated,
        private: view.private,
        created_at: view.created_at,
        starts_at: view.starts_at,
        status,
        rounds_total: view.rounds_total,
        minutes,
        ends_at_ms,
        double,
        players: view.players.clone(),
        standings: view
            .standings
            .iter()
            .map(|s| EventStanding {
                rank: s.rank,
                name: s.name.clone(),
                rating: s.rating,
                score_halves: s.score_halves,
                score: s.score.clone(),
                buchholz: s.buchholz.clone(),
                buchholz_cut1: s.buchholz_cut1.clone(),
                sonneborn_berger: s.sonneborn_berger.clone(),
                withdrawn: s.withdrawn,
                sheet: s.sheet.clone(),
                on_fire: s.on_fire,
            })
            .collect(),
        rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::kept::{Kept, StoredEvents};
    use crate::events::record::{EventRecord, EventSetup, Format, GameOutcome};
    use crate::events::state::EventState;
    use crate::events::state::tests::{run, setup};
    use crate::events::view::{GameView, RoundView};
    use crate::ops::shutdown;
    use crate::room::outbox::{self, Inbox};
    use crate::storage::{StoredEvent, now_ms};
    use axum::extract::ws::Message;
    use boardcast_protocol::{Encoding, FrameRef};
    use futures_util::FutureExt;
    use futures_util::future::BoxFuture;

    /// An arena at version `v` with `players` players and rounds of `games` games each.
    fn view(v: u64, players: usize, games: &[usize]) -> EventView {
        let name = |i: usize| format!("p{i}");
        EventView {
            id: "ev".into(),
            name: "Tuesday".into(),
            format: FormatView::Arena {
                minutes: 30,
                ends_at_ms: 2_000,
            },
            time_control: "3+2".into(),
            rated: false,
            private: false,
            created_at: 0,
            starts_at: 1_000,
            status: "playing",
            rounds_total: games.len() as u32,
            players: (0..players).map(name).collect(),
            standings: Vec::new(),
            rounds: games
                .iter()
                .zip(1..)
                .map(|(&count, round)| RoundView {
                    round,
                    games: (0..count)
                        .map(|i| GameView {
                            white: name(2 * i),
                            black: name(2 * i + 1),
                            match_id: Some(format!("m{round}x{i}")),
                            result: None,
                        })
                        .collect(),
                    bye: None,
                })
                .collect(),
            v,
        }
    }

    /// What `inbox` holds now, decoded: acks' ids and the events' versions.
    fn received(inbox: &mut Inbox, encoding: Encoding) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(frame) = inbox.rx.try_recv() {
            let message = match &frame {
                Message::Text(text) => encoding.decode_server(FrameRef::Text(text.as_bytes())),
                Message::Binary(bytes) => encoding.decode_server(FrameRef::Binary(bytes)),
                other => panic!("{other:?}"),
            };
            got.push(match message.unwrap() {
                ServerMessage::Ack(ack) => format!("ack {}", ack.id),
                ServerMessage::ClubEvent(event) => format!("v{}", event.v),
                other => panic!("{other:?}"),
            });
        }
        got
    }

    /// Lets the room run what it was handed, `by` later on the paused clock.
    async fn after(by: Duration) {
        tokio::time::sleep(by).await;
        for _ in 0..8 {
            tokio::task::yield_now().await;
        }
    }

    /// An event run on another node is read back every second while followed here: a read
    /// of the same version changes nothing, a failed read is tried again at the next tick, a
    /// newer version is shown, and a finished one is the last (the views close, so the room
    /// pushes it and goes). Nobody following any more stops the reading.
    #[tokio::test(start_paused = true)]
    async fn an_event_run_elsewhere_is_read_back_until_it_is_finished() {
        let reads = Arc::new(Mutex::new(std::collections::VecDeque::from([
            Some(view(3, 2, &[])),
            Some(view(4, 2, &[1])),
            None,
            Some(EventView {
                status: "finished",
                ..view(5, 2, &[1])
            }),
        ])));
        let asked = reads.clone();
        let read = move || {
            let next = asked.lock().unwrap().pop_front().flatten().map(Arc::new);
            async move { next }
        };
        let mut views = read_back(Arc::new(view(3, 2, &[])), read);
        after(READ_EVERY).await;
        assert!(
            !views.has_changed().unwrap(),
            "the same version is no change"
        );
        after(READ_EVERY).await;
        assert!(views.has_changed().unwrap());
        assert_eq!(views.borrow_and_update().v, 4);
        after(READ_EVERY).await;
        assert!(
            !views.has_changed().unwrap(),
            "a failed read shows nothing new"
        );
        after(READ_EVERY).await;
        assert_eq!(views.borrow_and_update().status, "finished");
        assert!(
            views.changed().await.is_err(),
            "a finished event's views close"
        );
        assert!(reads.lock().unwrap().is_empty());

        // Followed by nobody: the reading stops at its next tick.
        let reads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = reads.clone();
        let views = read_back(Arc::new(view(3, 2, &[])), move || {
            counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            async { Some(Arc::new(view(3, 2, &[]))) }
        });
        after(READ_EVERY).await;
        drop(views);
        after(READ_EVERY * 5).await;
        assert!(reads.load(std::sync::atomic::Ordering::Relaxed) <= 2);
    }

    /// Records laid out as storage holds them, served as it serves them: the first `stored`
    /// of them are in, and each read is noted.
    struct Log {
        setup: EventSetup,
        records: Vec<StoredEvent>,
        stored: std::sync::atomic::AtomicUsize,
        asked: Mutex<Vec<String>>,
    }

    impl Log {
        fn new(setup: EventSetup, records: &[EventRecord]) -> Log {
            let records = records
                .iter()
                .zip(1..)
                .map(|(record, v)| StoredEvent {
                    v,
                    at_ms: 0,
                    body: serde_json::to_string(record).unwrap(),
                })
                .collect();
            Log {
                setup,
                records,
                stored: Default::default(),
                asked: Mutex::default(),
            }
        }

        /// Stores the first `count` records.
        fn store(&self, count: usize) {
            self.stored
                .store(count, std::sync::atomic::Ordering::Relaxed);
        }

        fn in_storage(&self) -> &[StoredEvent] {
            &self.records[..self.stored.load(std::sync::atomic::Ordering::Relaxed)]
        }

        /// The event as a whole read shows it, with what is stored now.
        fn whole_view(&self) -> EventView {
            let state =
                EventState::replay("ev".into(), self.setup.clone(), 0, self.in_storage()).unwrap();
            EventView::of(&state, now_ms())
        }

        /// The reads since the last look.
        fn asked(&self) -> Vec<String> {
            std::mem::take(&mut *self.asked.lock().unwrap())
        }
    }

    impl StoredEvents for Log {
        fn whole<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<EventState, EventError>> {
            self.asked.lock().unwrap().push("whole".into());
            let state = EventState::replay(id.into(), self.setup.clone(), 0, self.in_storage());
            async move { state.map_err(|_| EventError::Storage) }.boxed()
        }

        fn newer<'a>(
            &'a self,
            _id: &'a str,
            after: u64,
            limit: u32,
        ) -> BoxFuture<'a, Result<Vec<StoredEvent>, EventError>> {
            self.asked
                .lock()
                .unwrap()
                .push(format!("after {after}, at most {limit}"));
            let newer = self
                .in_storage()
                .iter()
                .filter(|stored| stored.v > after)
                .take(limit as usize)
                .cloned()
                .collect();
            async move { Ok(newer) }.boxed()
        }
    }

    /// An event followed from storage is read whole once; after that each read asks only for
    /// the records stored after the version it has (never more than `kept::READ_AT_ONCE` at once,
    /// asking again while a read comes back full), and what it pushes is the event exactly as
    /// a whole read of storage shows it, to the finished table.
    #[tokio::test(start_paused = true)]
    async fn an_event_read_back_asks_only_for_what_is_new_and_shows_what_a_whole_read_shows() {
        // A 7-player Swiss of 3 rounds played to its end, as its director stores it.
        let swiss = setup(Format::Swiss { rounds: 3 });
        let mut state = EventState::new("ev".into(), swiss.clone(), 0);
        let mut records: Vec<EventRecord> = (1..=7)
            .map(|account| EventRecord::Joined {
                account,
                name: format!("p{account}"),
                rating: 1500 + account as u32,
                request: None,
            })
            .collect();
        for record in &records {
            state.apply(record).unwrap();
        }
        records.extend(run(&mut state, |board| {
            if board.white < board.black {
                GameOutcome::WhiteWins
            } else {
                GameOutcome::Draw
            }
        }));
        let all = records.len();
        assert!(state.finished);

        let log = Arc::new(Log::new(swiss, &records));
        log.store(7);
        let first = EventState::replay("ev".into(), log.setup.clone(), 0, log.in_storage());
        let first = first.unwrap();
        let kept = Arc::new(Kept::new());
        let shown = kept.read("ev", &*log, |_, view| view.clone());
        let shown = shown.await.unwrap();
        assert_eq!(*shown, EventView::of(&first, now_ms()));
        assert_eq!(log.asked(), ["whole"]);
        let reading = log.clone();
        let read = move || {
            let (log, kept) = (reading.clone(), kept.clone());
            async move { kept.read("ev", &*log, |_, view| view.clone()).await.ok() }
        };
        let mut views = read_back(shown, read);

        // Round 1 paired, seated and partly played.
        log.store(18);
        after(READ_EVERY).await;
        assert_eq!(log.asked(), ["after 7, at most 256"]);
        assert!(views.has_changed().unwrap());
        assert_eq!(**views.borrow_and_update(), log.whole_view());
        assert_eq!(views.borrow().v, 18);

        // Nothing new: asked from 18, nothing pushed.
        after(READ_EVERY).await;
        assert_eq!(log.asked(), ["after 18, at most 256"]);
        assert!(!views.has_changed().unwrap());

        // The rest, to the finished table, in one read.
        log.store(all);
        after(READ_EVERY).await;
        assert_eq!(log.asked(), ["after 18, at most 256"]);
        assert_eq!(**views.borrow_and_update(), log.whole_view());
        assert_eq!(views.borrow().status, "finished");
        assert!(!views.borrow().standings.is_empty());
        assert!(
            views.changed().await.is_err(),
            "a finished event's views close"
        );

        // A field of 600 joined at once: read 256 at a time, each read from where the last
        // ended; the view as a whole read shows it.
        let waiting = EventSetup {
            starts_at_ms: i64::MAX,
            ..setup(Format::Swiss { rounds: 5 })
        };
        let joined: Vec<EventRecord> = (1..=600)
            .map(|account| EventRecord::Joined {
                account,
                name: format!("p{account}"),
                rating: 1500,
                request: None,
            })
            .collect();
        let log = Log::new(waiting, &joined);
        log.store(10);
        let kept = Kept::new();
        let read = || kept.read("ev", &log, |_, view| view.clone());
        assert_eq!(read().await.unwrap().v, 10);
        assert_eq!(log.asked(), ["whole"]);
        log.store(600);
        let view = read().await.unwrap();
        assert_eq!(
            log.asked(),
            [
                "after 10, at most 256",
                "after 266, at most 256",
                "after 522, at most 256"
            ]
        );
        assert_eq!(*view, log.whole_view());
        assert_eq!(view.players.len(), 600);
    }

    /// A follower is answered with the event, one that has its version with the ack alone;
    /// then changes go to every follower in its encoding, several close together as one push
    /// of the newest, the next no sooner than [`PUSH_EVERY`] after; one that unwatched gets
    /// nothing more; when the director stops, the room goes and leaves the map of rooms.
    #[tokio::test(start_paused = true)]
    async fn followers_get_the_event_then_each_change_coalesced_until_the_director_stops() {
        let (director, views) = watch::channel(Arc::new(view(3, 2, &[])));
        let (requests, inbox) = mpsc::channel(8);
        let rooms = Rooms::default();
        lock(&rooms).insert("ev".into(), requests.clone());
        let (_trigger, stop) = shutdown::channel();
        let (tasks, _all_done) = shutdown::tasks();
        let room = Room::new("ev", views, inbox, rooms.clone());
        let running = tokio::spawn(room.run(stop, tasks.guard().unwrap()));

        let (json, mut json_in) = outbox::outbox(1, Encoding::Json, 16);
        let (postcard, mut postcard_in) = outbox::outbox(2, Encoding::Postcard, 16);
        for (outbox, id, since_v) in [(json.clone(), 10, None), (postcard.clone(), 20, Some(3))] {
            let watch = Request::Watch {
                outbox,
                id,
                since_v,
            };
            requests.send(watch).await.unwrap();
        }
        after(Duration::ZERO).await;
        assert_eq!(received(&mut json_in, Encoding::Json), ["ack 10", "v3"]);
        assert_eq!(received(&mut postcard_in, Encoding::Postcard), ["ack 20"]);

        // Two changes at once: one push, of the newer.
        director.send_replace(Arc::new(view(4, 3, &[])));
        director.send_replace(Arc::new(view(5, 4, &[1])));
        after(Duration::ZERO).await;
        assert_eq!(received(&mut json_in, Encoding::Json), ["v5"]);
        assert_eq!(received(&mut postcard_in, Encoding::Postcard), ["v5"]);
        // The next change waits for its turn.
        director.send_replace(Arc::new(view(6, 4, &[2])));
        after(PUSH_EVERY / 2).await;
        assert!(received(&mut json_in, Encoding::Json).is_empty());
        after(PUSH_EVERY).await;
        assert_eq!(received(&mut json_in, Encoding::Json), ["v6"]);
        assert_eq!(received(&mut postcard_in, Encoding::Postcard), ["v6"]);

        requests
            .send(Request::Unwatch {
                outbox: postcard,
                id: 21,
            })
            .await
            .unwrap();
        after(Duration::ZERO).await;
        assert_eq!(received(&mut postcard_in, Encoding::Postcard), ["ack 21"]);
        director.send_replace(Arc::new(view(7, 4, &[2])));
        after(PUSH_EVERY * 2).await;
        assert_eq!(received(&mut json_in, Encoding::Json), ["v7"]);
        assert!(received(&mut postcard_in, Encoding::Postcard).is_empty());

        // The event is over: its last view goes out, and the room closes.
        director.send_replace(Arc::new(view(8, 4, &[2])));
        drop(director);
        drop(requests);
        after(PUSH_EVERY * 2).await;
        running.await.unwrap();
        assert_eq!(received(&mut json_in, Encoding::Json), ["v8"]);
        assert!(lock(&rooms).is_empty(), "the room left the map");
        drop(json);
    }

    /// A pushed event stays far below the largest frame: it keeps the newest rounds, each
    /// whole, up to [`MAX_PUSHED_GAMES`] games, and always the newest round.
    #[test]
    fn a_pushed_event_keeps_its_newest_rounds_within_the_games_it_may_carry() {
        let small = club_event(&view(1, 4, &[2, 2, 2]));
        assert_eq!(small.rounds.len(), 3);
        assert_eq!(small.minutes, Some(30));
        assert_eq!(small.ends_at_ms, Some(2_000));

        let per_wave = MAX_PUSHED_GAMES / 4 + 1;
        let big = club_event(&view(1, 2 * per_wave, &[per_wave; 10]));
        let rounds: Vec<u32> = big.rounds.iter().map(|r| r.round).collect();
        assert_eq!(rounds, [8, 9, 10], "the newest three of 10 rounds fit");
        assert!(big.rounds.iter().all(|r| r.games.len() == per_wave));
        let games: usize = big.rounds.iter().map(|r| r.games.len()).sum();
        assert!(games <= MAX_PUSHED_GAMES);
        let frame = Encoding::Json.encode(&ServerMessage::ClubEvent(big));
        assert!(
            matches!(frame, boardcast_protocol::Frame::Text(t) if t.len() < boardcast_protocol::limits::MAX_SERVER_FRAME_BYTES)
        );

        let huge = club_event(&view(1, 2, &[1, MAX_PUSHED_GAMES + 5]));
        assert_eq!(huge.rounds.len(), 1, "the newest round, however large");
        assert_eq!(huge.rounds[0].round, 2);
    }
}
