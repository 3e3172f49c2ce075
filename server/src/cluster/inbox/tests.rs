//! The owner's side against real PostgreSQL and a real `redis-server`: a node `a` owns the
//! matches, and the test stands in for the asking node `b` with a bare bus of its own.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{
    Absence, ErrorCode, FrameRef, MatchEvent, MatchEventMsg, ServerMessage, Side,
};
use boardcast_testkit::redis::Redis;
use tokio::sync::{mpsc, watch};

use super::*;
use crate::cluster::remote::BusOwning;
use crate::matches::actor::Settings;
use crate::matches::ownership::LeaseHeld;
use crate::matches::{Action, Player, Setup};
use crate::ops::shutdown::{self, Trigger};
use crate::storage::Storage;

/// Generous: the machine running the tests may be busy.
const WAIT: Duration = Duration::from_secs(20);
/// A lease that does not run out during a test.
const LONG: u64 = 600_000;
/// How long a node heard from counts as alive whatever the live set says (a lease's time
/// to live in a cluster): several of the inbox's looks at the live set.
const HEARD_GRACE: Duration = Duration::from_secs(2);

/// Node `a` owning matches, with its inbox running, and the bus of an asking node `b`.
struct Nodes {
    /// Runs while the test does.
    _redis: Redis,
    coordination: Arc<dyn Coordination>,
    hub: Hub,
    /// How `a` owns the matches it creates and claims.
    owning: Arc<BusOwning>,
    a: NodeRef,
    b: NodeRef,
    /// What `a` believes the live nodes are.
    live: Arc<Mutex<Arc<HashSet<NodeRef>>>>,
    /// `b`'s replies and the relayed events of the matches it subscribed, in one mailbox
    /// (as a proxy hears them).
    heard: mpsc::Receiver<BusEvent>,
    b_bus: Bus,
    lease_lost: watch::Sender<bool>,
    paused: Arc<AtomicBool>,
    _trigger: Trigger,
}

async fn nodes(test: &str) -> Option<Nodes> {
    let postgres = boardcast_testkit::postgres::Cluster::shared_or_skip(test)?;
    let redis = Redis::start_or_skip(test)?;
    let (storage, _) = Storage::open(
        &crate::storage::Database::Postgres(postgres.create_database().to_owned()),
        None,
    )
    .await
    .unwrap();
    let coordination = storage.coordination().unwrap();
    let a = coordination.register_node("a".into(), LONG).await.unwrap();
    let b = coordination.register_node("b".into(), LONG).await.unwrap();
    let (trigger, stop) = shutdown::channel();
    let (tasks, _) = shutdown::tasks();
    let settings = Settings {
        grace: Duration::from_secs(60),
        first_move_timeout: Duration::from_secs(600),
        abandon_after: Duration::from_secs(600),
        linger: Duration::from_secs(60),
        max_matches: 100,
    };
    let a_bus = Bus::connect(&redis.url(), a.clone(), stop.clone())
        .await
        .unwrap();
    let b_bus = Bus::connect(&redis.url(), b.clone(), stop.clone())
        .await
        .unwrap();
    let (lease_lost, lost) = watch::channel(false);
    let hub = Hub::new(storage.clone(), settings, stop.clone(), tasks);
    // Held while not lost, unless the test pauses the node past its lease (`paused`), which
    // its own timers have not noticed yet.
    let paused = Arc::new(AtomicBool::new(false));
    let held: LeaseHeld = {
        let (lost, paused) = (lost.clone(), paused.clone());
        Arc::new(move || !*lost.borrow() && !paused.load(Ordering::Relaxed))
    };
    let owning = BusOwning::build(a_bus.clone(), lost, held);
    let live = Arc::new(Mutex::new(Arc::new(HashSet::from([a.clone(), b.clone()]))));
    let live_nodes: LiveNodes = {
        let live = live.clone();
        Arc::new(move || live.lock().unwrap().clone())
    };
    start(
        OwnerSide {
            bus: a_bus,
            hub: hub.clone(),
            owning: owning.clone(),
            directory: Arc::new(hub.clone()),
            coordination: coordination.clone(),
            live_nodes,
            heard_grace: HEARD_GRACE,
        },
        stop,
    )
    .await;
    let (tx, heard) = mpsc::channel(1024);
    b_bus.route(&names::node_replies(&b), tx.clone());
    b_bus.route("bc:match:*", tx);
    b_bus.subscribe(&names::node_replies(&b)).await;
    Some(Nodes {
        _redis: redis,
        coordination,
        hub,
        owning,
        a,
        b,
        live,
        heard,
        b_bus,
        lease_lost,
        paused,
        _trigger: trigger,
    })
}

/// What `b` hears, decoded. A test's short list: a snapshot kept inline costs nothing here.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Heard {
    Frame {
        conn: u64,
        message: ServerMessage,
    },
    NotOwner {
        conn: u64,
        owner: Option<NodeRef>,
    },
    Event {
        epoch: u64,
        v: u64,
        event: MatchEvent,
    },
    Relay(MatchRelay),
}

impl Nodes {
    /// A match of two people created on `a`, and its seat tokens (white, black).
    async fn create(&self) -> (String, String, String) {
        let setup = Setup {
            time_control: None,
            public: true,
            rematch_of: None,
            start_fen: None,
            rated: false,
            rating_range: None,
            berserk: false,
            event: None,
        };
        let players = [
            (Side::White, Player::person("alice")),
            (Side::Black, Player::person("bob")),
        ];
        let (_, id, tokens) = self.create_as_a(setup, &players).await.unwrap();
        let token = |side| {
            tokens
                .iter()
                .find(|(s, _)| *s == side)
                .map(|(_, t)| t.clone())
                .unwrap()
        };
        self.b_bus.subscribe(&names::match_events(&id)).await;
        (id.clone(), token(Side::White), token(Side::Black))
    }

    /// A match created on `a`, owned by `a` under its lease.
    async fn create_as_a(
        &self,
        setup: Setup,
        players: &[(Side, Player)],
    ) -> Result<crate::matches::directory::Created, Refusal> {
        let directory = Arc::new(self.hub.clone());
        self.owning
            .create(&self.hub, directory, setup, players, false)
            .await
    }

    /// `a` claims match `id` and starts it, as its inbox, directory and sweeper do.
    async fn claim(&self, id: &str) -> Result<Claim, Refusal> {
        let directory = Arc::new(self.hub.clone());
        claim_and_start(
            self.coordination.as_ref(),
            &self.hub,
            &self.owning,
            directory,
            id,
        )
        .await
    }

    /// `b`'s connection `conn` asks `command` of match `id`, through Redis.
    fn ask(&self, id: &str, conn: u64, command: RemoteCommand) {
        let message = ToOwner::Command {
            match_id: id.to_owned(),
            from: self.b.clone(),
            conn,
            encoding: Encoding::Json,
            command,
        };
        assert!(publish(
            &self.b_bus,
            &names::node_matches(&self.a),
            &message
        ));
    }

    async fn hear(&mut self) -> Heard {
        let event = tokio::time::timeout(WAIT, self.heard.recv())
            .await
            .expect("b hears something in time")
            .expect("open");
        let BusEvent::Message { channel, payload } = event else {
            panic!("unexpected Resync");
        };
        if channel == names::node_replies(&self.b) {
            match postcard::from_bytes::<ToAsker>(&payload).unwrap() {
                ToAsker::Frame {
                    conn,
                    binary,
                    bytes,
                    ..
                } => {
                    assert!(!binary, "a JSON connection gets text frames");
                    let message = Encoding::Json
                        .decode_server(FrameRef::Text(&bytes))
                        .unwrap();
                    Heard::Frame { conn, message }
                }
                ToAsker::NotOwner { conn, owner, .. } => Heard::NotOwner { conn, owner },
            }
        } else {
            match postcard::from_bytes::<MatchRelay>(&payload).unwrap() {
                MatchRelay::Event { epoch, v, message } => {
                    let message: ServerMessage = postcard::from_bytes(&message).unwrap();
                    let ServerMessage::MatchEvent(MatchEventMsg {
                        event, v: inner, ..
                    }) = message
                    else {
                        panic!("a relayed event that is no match event: {message:?}");
                    };
                    assert_eq!(inner, v);
                    Heard::Event { epoch, v, event }
                }
                other => Heard::Relay(other),
            }
        }
    }

    /// Everything `b` hears until `done` says stop (inclusive).
    async fn hear_until(&mut self, done: impl Fn(&Heard) -> bool) -> Vec<Heard> {
        let mut heard = Vec::new();
        loop {
            let next = self.hear().await;
            let last = done(&next);
            heard.push(next);
            if last {
                return heard;
            }
        }
    }

    /// `b`'s connection 7 takes White's seat back (with `token`), and `b` hears White return.
    async fn seat_from_b(&mut self, id: &str, token: String) {
        self.ask(
            id,
            7,
            RemoteCommand::Resume {
                id: 1,
                token: token.into(),
                since_v: None,
                carried: false,
            },
        );
        self.hear_until(|h| {
            matches!(
                h,
                Heard::Event {
                    event: MatchEvent::PlayerReturned(Side::White),
                    ..
                }
            )
        })
        .await;
    }

    /// The side the next `PlayerLeft` that `b` hears names.
    async fn hear_who_left(&mut self) -> Side {
        loop {
            if let Heard::Event {
                event: MatchEvent::PlayerLeft(Absence { side, .. }),
                ..
            } = self.hear().await
            {
                return side;
            }
        }
    }

    async fn stored_events(&self, id: &str) -> usize {
        let stored = self.coordination.load_match(id.to_owned()).await.unwrap();
        stored.unwrap().events.len()
    }
}

/// A local watcher of match `id` on `a`, once it is followed (acknowledged).
async fn watch_locally(n: &Nodes, id: &str) -> crate::room::outbox::Inbox {
    let (watcher, mut watcher_in) = crate::room::outbox::outbox(next_conn_id(), Encoding::Json, 64);
    n.hub
        .running(id)
        .unwrap()
        .try_send(Command::Watch {
            outbox: watcher,
            id: 1,
            since_v: None,
            carried: false,
        })
        .unwrap();
    let first = tokio::time::timeout(WAIT, watcher_in.rx.recv())
        .await
        .expect("an answer in time");
    let Some(Message::Text(text)) = first else {
        panic!("expected a text frame, got {first:?}");
    };
    let answer = Encoding::Json
        .decode_server(FrameRef::Text(text.as_bytes()))
        .unwrap();
    assert!(matches!(answer, ServerMessage::Ack(_)), "{answer:?}");
    watcher_in
}

/// The close code the connection behind `inbox` is sent.
async fn close_code(inbox: &mut crate::room::outbox::Inbox) -> Option<u16> {
    let frame = tokio::time::timeout(WAIT, async {
        loop {
            match inbox.rx.recv().await {
                Some(Message::Close(frame)) => return frame,
                Some(_) => {}
                None => panic!("closed without a close frame"),
            }
        }
    })
    .await
    .expect("a close frame");
    frame.map(|f| f.code)
}

fn opening() -> Action {
    Action::play(vec![32, 28])
}

fn is_ack(heard: &Heard, id: u64) -> bool {
    matches!(heard, Heard::Frame { message: ServerMessage::Ack(ack), .. } if ack.id == id)
}

#[tokio::test]
async fn a_forwarded_move_is_acked_to_the_asker_and_relayed_once() {
    let Some(mut n) = nodes("inbox: forwarded act").await else {
        return;
    };
    let (id, white, _) = n.create().await;
    n.ask(
        &id,
        7,
        RemoteCommand::Act {
            id: 1,
            token: white,
            action: opening(),
            received_ms: crate::storage::now_ms(),
        },
    );
    let heard = n.hear_until(|h| is_ack(h, 1)).await;
    // Nothing but the relay carries events: the seat holder on `b` gets no event frames.
    assert!(
        heard.iter().all(|h| !matches!(
            h,
            Heard::Frame {
                message: ServerMessage::MatchEvent(_),
                ..
            }
        )),
        "{heard:?}"
    );
    assert!(
        heard
            .iter()
            .all(|h| !matches!(h, Heard::Frame { conn, .. } if *conn != 7)),
        "frames go to the asking connection: {heard:?}"
    );
    assert!(
        !heard
            .iter()
            .any(|h| matches!(h, Heard::Relay(MatchRelay::Owner { .. }))),
        "nobody took the match over: {heard:?}"
    );
    // The move is committed before its ack, and relayed once, after it, under epoch 1.
    let moved = n.hear().await;
    let Heard::Event { epoch, v, event } = moved else {
        panic!("expected the move's event, got {moved:?}");
    };
    assert_eq!(epoch, 1);
    assert!(matches!(event, MatchEvent::Moved(_)), "{event:?}");
    assert_eq!(
        v as usize,
        n.stored_events(&id).await,
        "the last stored event"
    );
    // And only once: a resign that follows is the next thing heard.
    n.ask(
        &id,
        7,
        RemoteCommand::Act {
            id: 2,
            token: String::new(),
            action: Action::Resign,
            received_ms: crate::storage::now_ms(),
        },
    );
    let next = n.hear().await;
    assert!(
        matches!(&next, Heard::Frame { conn: 7, message: ServerMessage::Error(e) } if e.code == ErrorCode::InvalidToken && e.id == Some(2)),
        "{next:?}"
    );
}

#[tokio::test]
async fn a_fenced_commit_stops_the_match_and_changes_nothing() {
    let Some(mut n) = nodes("inbox: fenced").await else {
        return;
    };
    let (id, white, _) = n.create().await;
    // A local watcher on `a`, to see what becomes of this node's followers.
    let mut watcher_in = watch_locally(&n, &id).await;
    let handle = n.hub.running(&id).unwrap();
    // `a` pauses past its lease and node `c` takes the match over.
    assert!(n.coordination.renew_node(n.a.clone(), 0).await.unwrap());
    let c = n
        .coordination
        .register_node("c".into(), LONG)
        .await
        .unwrap();
    assert_eq!(
        n.coordination.claim_match(id.clone(), c).await.unwrap(),
        Some(2)
    );
    let before = n.stored_events(&id).await;

    n.ask(
        &id,
        7,
        RemoteCommand::Act {
            id: 1,
            token: white,
            action: opening(),
            received_ms: crate::storage::now_ms(),
        },
    );
    let heard = n
        .hear_until(|h| {
            matches!(
                h,
                Heard::Frame {
                    message: ServerMessage::Error(_),
                    ..
                }
            )
        })
        .await;
    let Some(Heard::Frame {
        message: ServerMessage::Error(error),
        ..
    }) = heard.last()
    else {
        unreachable!()
    };
    assert_eq!(error.id, Some(1));
    assert_eq!(error.code, ErrorCode::StorageUnavailable);
    assert_eq!(
        error.message,
        "the match moved to another server; send it again"
    );
    assert_eq!(n.stored_events(&id).await, before, "nothing was stored");
    // The actor stopped and left the hub; its local watcher was closed to reconnect.
    tokio::time::timeout(WAIT, async {
        while !handle.is_stopped() || n.hub.running(&id).is_some() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the actor stops");
    assert_eq!(close_code(&mut watcher_in).await, Some(1012));
    // The next command finds the match owned by a live `c`: the asker is sent there.
    n.ask(
        &id,
        8,
        RemoteCommand::Watch {
            id: 2,
            since_v: None,
            carried: false,
        },
    );
    let heard = n.hear_until(|h| matches!(h, Heard::NotOwner { .. })).await;
    assert!(
        matches!(heard.last(), Some(Heard::NotOwner { conn: 8, owner: Some(owner) }) if owner.node == "c"),
        "{heard:?}"
    );
}

#[tokio::test]
async fn a_node_that_leaves_takes_its_seat_holders_with_it() {
    let Some(mut n) = nodes("inbox: node leaves").await else {
        return;
    };
    let (id, white, _) = n.create().await;
    // Seated from `b`: white is back.
    n.seat_from_b(&id, white).await;
    // `b` leaves the live set: its connection leaves the match, and presence records it.
    *n.live.lock().unwrap() = Arc::new(HashSet::from([n.a.clone()]));
    assert_eq!(n.hear_who_left().await, Side::White);
}

#[tokio::test]
async fn a_node_heard_from_after_the_live_set_dropped_it_keeps_its_seat_until_it_is_silent() {
    let Some(mut n) = nodes("inbox: a node back from a pause").await else {
        return;
    };
    let (id, white, _) = n.create().await;
    // The inbox has seen `b` live, then `b` pauses past its lease: the live set drops it.
    tokio::time::sleep(LIVE_EVERY * 2).await;
    *n.live.lock().unwrap() = Arc::new(HashSet::from([n.a.clone()]));
    tokio::time::sleep(LIVE_EVERY * 2).await;
    // `b` wakes up and seats White before its own renew shows in `a`'s live set.
    n.seat_from_b(&id, white).await;
    // Several looks at the stale live set later, White is still seated from `b`.
    let quiet = tokio::time::timeout(HEARD_GRACE / 2, async {
        loop {
            if let Heard::Event {
                event: MatchEvent::PlayerLeft(_),
                ..
            } = n.hear().await
            {
                return;
            }
        }
    })
    .await;
    assert!(
        quiet.is_err(),
        "a node that speaks is not dropped for a live set read before it woke up"
    );
    // A node that stays silent and out of the live set is gone after the grace.
    assert_eq!(n.hear_who_left().await, Side::White);
}

#[tokio::test]
async fn a_lost_lease_stops_every_match_here_without_a_write() {
    let Some(n) = nodes("inbox: lease lost").await else {
        return;
    };
    let (id, _, _) = n.create().await;
    let mut watcher_in = watch_locally(&n, &id).await;
    let handle = n.hub.running(&id).unwrap();
    let before = n.stored_events(&id).await;
    n.lease_lost.send_replace(true);
    assert_eq!(close_code(&mut watcher_in).await, Some(1012));
    assert!(handle.is_stopped());
    assert!(
        n.hub.running(&id).is_none(),
        "the stopped actor left the hub"
    );
    assert_eq!(n.stored_events(&id).await, before);
}

#[tokio::test]
async fn without_its_lease_a_node_neither_creates_nor_claims_and_two_take_overs_claim_once() {
    let Some(n) = nodes("inbox: lease and take-over turns").await else {
        return;
    };
    let (id, _, _) = n.create().await;
    let mut watcher_in = watch_locally(&n, &id).await;
    n.lease_lost.send_replace(true);
    assert_eq!(close_code(&mut watcher_in).await, Some(1012));

    let lease_refusal = Refusal::new(
        ErrorCode::StorageUnavailable,
        "this server lost its database lease; try again",
    )
    .with(boardcast_protocol::ErrorArgs::new("lease_lost"));
    let setup = Setup::default();
    let created = n
        .create_as_a(setup, &[(Side::White, Player::person("carol"))])
        .await;
    assert_eq!(created.err(), Some(lease_refusal.clone()));
    let claim = n.claim(&id).await;
    assert_eq!(claim.err(), Some(lease_refusal));

    // The lease is back: the inbox, the directory and the sweeper may all try at once.
    n.lease_lost.send_replace(false);
    let (first, second) = tokio::join!(n.claim(&id), n.claim(&id));
    for claim in [first, second] {
        assert!(matches!(claim, Ok(Claim::Started(_))), "{claim:?}");
    }
    let owner = n
        .coordination
        .match_owner(id.clone())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(owner.epoch, 2, "claimed once, from epoch 1");
    assert_eq!(owner.owner.as_ref(), Some(&n.a));
    // And the match runs under it: a watcher is answered.
    watch_locally(&n, &id).await;
}

#[tokio::test]
async fn a_node_paused_past_its_lease_answers_nothing_from_its_stale_match() {
    let Some(mut n) = nodes("inbox: paused past the lease").await else {
        return;
    };
    let (id, white, _) = n.create().await;
    let mut watcher_in = watch_locally(&n, &id).await;
    let before = n.stored_events(&id).await;
    // Its lease ran out while it was stopped; no timer of its own has run since.
    n.paused.store(true, Ordering::Relaxed);
    n.ask(
        &id,
        7,
        RemoteCommand::Watch {
            id: 1,
            since_v: None,
            carried: false,
        },
    );
    let heard = n.hear_until(|h| matches!(h, Heard::Frame { .. })).await;
    assert!(
        matches!(heard.last(), Some(Heard::Frame { conn: 7, message: ServerMessage::Error(e) })
            if e.code == ErrorCode::StorageUnavailable
                && e.message == "the match moved to another server; send it again"),
        "no snapshot of a state another node may have moved past: {heard:?}"
    );
    assert_eq!(close_code(&mut watcher_in).await, Some(1012));
    n.ask(
        &id,
        8,
        RemoteCommand::Act {
            id: 2,
            token: white,
            action: opening(),
            received_ms: crate::storage::now_ms(),
        },
    );
    let heard = n.hear_until(|h| matches!(h, Heard::Frame { .. })).await;
    assert!(
        matches!(heard.last(), Some(Heard::Frame { conn: 8, message: ServerMessage::Error(e) })
            if e.code == ErrorCode::StorageUnavailable),
        "a node without its lease claims nothing: {heard:?}"
    );
    assert_eq!(n.stored_events(&id).await, before, "nothing was written");
}
