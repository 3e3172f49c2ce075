//! TV channels over two nodes in one process, on a real PostgreSQL and a real `redis-server`:
//! each node has its own lease, bus and channel registry, as two servers would.

use std::time::Duration;

use boardcast_protocol::{ChannelEvent, ChannelSnapshot, EngineGameView, PredictionResult};
use minitchess::Game;

use super::*;
use crate::channels::game_ids::{AHEAD, GameIds};
use crate::channels::{ChannelsConfig, Registry};
use crate::cluster::lease::Lease;
use crate::net::address::ClientAddr;
use crate::ops::shutdown::{self, Trigger};
use crate::room::outbox::Inbox;
use crate::storage::Storage;
use crate::storage::tests::PostgresDatabase;
use boardcast_testkit::redis::Redis;

const TTL: Duration = Duration::from_millis(1500);
/// Generous: the machine running the tests may be busy.
const PATIENCE: Duration = Duration::from_secs(30);
/// How late a relayed reveal may reach a follower's watcher and still count as on time.
const RELAY_SLACK: Duration = Duration::from_millis(750);

struct Node {
    cluster: ClusterChannels,
    registry: Registry,
    _lease: Lease,
    _trigger: Trigger,
}

async fn node(
    id: &str,
    coordination: &Arc<dyn Coordination>,
    redis: &Redis,
    interval: Duration,
) -> Node {
    node_with(id, coordination, redis, interval, None).await
}

/// A node whose lease is lost when `lease_lost` says so (the real lease's otherwise).
async fn node_with(
    id: &str,
    coordination: &Arc<dyn Coordination>,
    redis: &Redis,
    interval: Duration,
    lease_lost: Option<watch::Receiver<bool>>,
) -> Node {
    let (trigger, shutdown) = shutdown::channel();
    let (lease, me) = Lease::start(coordination.clone(), id.into(), TTL, shutdown.clone())
        .await
        .unwrap();
    let lease_lost = lease_lost.unwrap_or_else(|| lease.lost());
    let bus = Bus::connect(&redis.url(), me, lease.shutdown())
        .await
        .unwrap();
    let live = lease.clone();
    let live: LiveNodes = Arc::new(move || live.live_nodes());
    let cluster = ClusterChannels::new(bus, coordination.clone(), live, TTL);
    let config = ChannelsConfig {
        tv_intervals: vec![interval],
        pause: Duration::from_secs(2),
        seed: Some(7),
        ..ChannelsConfig::default()
    };
    let game_ids = GameIds::shared(coordination.clone(), shutdown.clone()).await;
    let (registry, mut archive) =
        Registry::start_following(config, game_ids, 0, shutdown.clone(), &|name| {
            cluster.upstream(name)
        });
    // Nothing is stored here: each record is dropped, which tells its channel at once.
    tokio::spawn(async move { while archive.recv().await.is_some() {} });
    cluster
        .run(registry.clone(), lease_lost, lease.shutdown())
        .await;
    Node {
        cluster,
        registry,
        _lease: lease,
        _trigger: trigger,
    }
}

async fn open(test: &str) -> Option<(PostgresDatabase, Storage, Arc<dyn Coordination>, Redis)> {
    let redis = Redis::start_or_skip(test)?;
    let db = PostgresDatabase::new(test)?;
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let coordination = storage.coordination().unwrap();
    Some((db, storage, coordination, redis))
}

/// Waits until `condition` holds; panics after [`PATIENCE`].
async fn eventually(what: &str, mut condition: impl AsyncFnMut() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !condition().await {
        assert!(Instant::now() < deadline, "{what}: not within {PATIENCE:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The channel `tv1` on `node` once it shows a game under way.
async fn game_on(node: &Node) -> EngineGameView {
    let handle = node.registry.get("tv1").unwrap();
    let mut view = None;
    eventually("a game is shown", async || {
        view = handle.snapshot().await.ok().and_then(|s| s.game);
        view.as_ref().is_some_and(|g| g.result.is_none())
    })
    .await;
    view.unwrap()
}

fn watcher(id: u64) -> (Outbox, Inbox) {
    outbox(id, Encoding::Json, 4096)
}

/// The next message for a watcher, decoded, with the instant it was read.
async fn next(inbox: &mut Inbox) -> (Instant, ServerMessage) {
    let frame = tokio::time::timeout(PATIENCE, inbox.rx.recv())
        .await
        .expect("a message in time")
        .expect("the connection is open");
    let Message::Text(text) = frame else {
        panic!("a JSON watcher gets text: {frame:?}");
    };
    let message = Encoding::Json
        .decode_server(boardcast_protocol::FrameRef::Text(text.as_bytes()))
        .unwrap();
    (Instant::now(), message)
}

/// The next channel event for a watcher (crowd counts skipped).
async fn next_event(inbox: &mut Inbox) -> (Instant, u64, ChannelEvent) {
    loop {
        if let (at, ServerMessage::ChannelEvent(event)) = next(inbox).await {
            return (at, event.v, event.event);
        }
    }
}

async fn snapshot_of(inbox: &mut Inbox) -> ChannelSnapshot {
    loop {
        if let (_, ServerMessage::ChannelSnapshot(snapshot)) = next(inbox).await {
            return snapshot;
        }
    }
}

/// Every move of the game `view` shows, as MinitChess plays it.
fn moves_of(view: &EngineGameView) -> Vec<String> {
    let header = &view.header;
    let mut game = Game::new(
        &header.serial,
        header.white.parse().unwrap(),
        header.black.parse().unwrap(),
    )
    .unwrap();
    game.run_to_end();
    game.moves().iter().map(ToString::to_string).collect()
}

/// Two nodes: `a` owns `tv1` (it started first), `b` follows it and shows its game.
async fn owner_and_follower(
    coordination: &Arc<dyn Coordination>,
    redis: &Redis,
    interval: Duration,
) -> (Node, Node) {
    let a = node("a", coordination, redis, interval).await;
    eventually("a owns tv1", async || a.cluster.owns("tv1")).await;
    let b = node("b", coordination, redis, interval).await;
    game_on(&b).await;
    assert!(!b.cluster.owns("tv1"), "one owner");
    (a, b)
}

#[tokio::test]
async fn a_watcher_on_a_node_that_does_not_own_the_channel_sees_every_reveal_once_and_on_time() {
    let Some((_db, _storage, coordination, redis)) = open("channels across nodes: relay").await
    else {
        return;
    };
    let interval = Duration::from_millis(300);
    let (a, b) = owner_and_follower(&coordination, &redis, interval).await;
    let (on_a, mut a_inbox) = watcher(1);
    let (on_b, mut b_inbox) = watcher(2);
    a.registry
        .get("tv1")
        .unwrap()
        .watched(on_a, None)
        .await
        .unwrap();
    b.registry
        .get("tv1")
        .unwrap()
        .watched(on_b, None)
        .await
        .unwrap();
    let (at_a, at_b) = (
        snapshot_of(&mut a_inbox).await,
        snapshot_of(&mut b_inbox).await,
    );
    let view = at_b.game.clone().expect("b shows the game");
    assert_eq!(
        at_a.game.unwrap().header,
        view.header,
        "the same game on both"
    );
    let moves = moves_of(&view);

    // The next eight events on each node: the same versions and moves, each once, and b's
    // copy no later than RELAY_SLACK after the owner's.
    let mut v = at_b.v.max(at_a.v);
    let (mut reveals, mut compared) = (0, 0);
    while compared < 8 {
        let (when_a, v_a, event_a) = next_event(&mut a_inbox).await;
        if v_a <= v {
            continue; // b's snapshot was already past it.
        }
        let (when_b, v_b, event_b) = loop {
            let got = next_event(&mut b_inbox).await;
            assert!(got.1 > at_b.v, "nothing b's snapshot already held");
            if got.1 >= v_a {
                break got;
            }
        };
        assert_eq!(
            (v_b, &event_b),
            (v_a, &event_a),
            "the owner's event, once, in order"
        );
        assert!(
            when_b.saturating_duration_since(when_a) < RELAY_SLACK,
            "v {v_b} reached b {:?} after a",
            when_b - when_a
        );
        if let ChannelEvent::PlyRevealed(ply) = &event_b {
            assert_eq!(ply.mv, moves[ply.ply as usize], "ply {}", ply.ply);
            reveals += 1;
        }
        v = v_b;
        compared += 1;
    }
    assert!(reveals >= 6, "reveals compared: {reveals}");
    assert!(!b.cluster.owns("tv1") && a.cluster.owns("tv1"));
    // One watcher on each node: both nodes count two, in the lobby and in crowd messages.
    for node in [&a, &b] {
        eventually("the crowd is counted across nodes", async || {
            node.registry.get("tv1").unwrap().summary().watchers == 2
        })
        .await;
    }
    // A third watcher, on b: every watcher is told the new count.
    let (third, _third_inbox) = watcher(3);
    b.registry
        .get("tv1")
        .unwrap()
        .watched(third, None)
        .await
        .unwrap();
    for inbox in [&mut a_inbox, &mut b_inbox] {
        loop {
            if let (_, ServerMessage::Crowd(crowd)) = next(inbox).await
                && crowd.watchers == 3
            {
                break;
            }
        }
    }
    // b stops: once its lease has run out, its watchers no longer count on a.
    drop(b);
    eventually("a dead node's watchers are not counted", async || {
        a.registry.get("tv1").unwrap().summary().watchers == 1
    })
    .await;
}

#[tokio::test]
async fn a_prediction_made_on_a_node_that_does_not_own_the_channel_counts() {
    let Some((_db, _storage, coordination, redis)) = open("channels across nodes: predict").await
    else {
        return;
    };
    let interval = Duration::from_millis(1500);
    let (_a, b) = owner_and_follower(&coordination, &redis, interval).await;
    let handle = b.registry.get("tv1").unwrap();
    let (ann, mut ann_inbox) = watcher(1);
    handle.watched(ann.clone(), None).await.unwrap();
    let view = snapshot_of(&mut ann_inbox).await.game.unwrap();
    let moves = moves_of(&view);
    // Guess right after a reveal, so the whole interval is left for the guess to travel.
    let ply = loop {
        if let (_, _, ChannelEvent::PlyRevealed(ply)) = next_event(&mut ann_inbox).await {
            break ply.ply + 1;
        }
    };
    let here = ClientAddr::of([127, 0, 0, 1].into());
    let (from, to) = moves[ply as usize].split_once('-').unwrap();
    handle
        .predicted(ann.clone(), here, "ann", ply, from, to)
        .await
        .expect("the owner booked it");
    // The owner judges: a ply already revealed is refused with its reason.
    let late = handle
        .predicted(ann.clone(), here, "ann", ply - 1, from, to)
        .await
        .unwrap_err();
    assert_eq!(
        (late.code, late.message),
        (
            ErrorCode::PredictionClosed,
            format!(
                "ply {} is already revealed; the coming ply is {ply}",
                ply - 1
            )
        )
    );
    let result: PredictionResult = loop {
        if let (_, ServerMessage::PredictionResult(result)) = next(&mut ann_inbox).await {
            break result;
        }
    };
    assert_eq!(
        result,
        PredictionResult {
            channel: "tv1".into(),
            ply,
            guess: moves[ply as usize].clone(),
            actual: moves[ply as usize].clone(),
            correct: true,
            correct_total: 1,
            strikes: 0,
        }
    );
}

#[tokio::test]
async fn when_the_owner_stops_the_other_node_continues_the_same_game_on_the_same_beat() {
    let Some((_db, _storage, coordination, redis)) = open("channels across nodes: take-over").await
    else {
        return;
    };
    let interval = Duration::from_millis(400);
    let (a, b) = owner_and_follower(&coordination, &redis, interval).await;
    let (on_b, mut inbox) = watcher(1);
    b.registry
        .get("tv1")
        .unwrap()
        .watched(on_b, None)
        .await
        .unwrap();
    let snapshot = snapshot_of(&mut inbox).await;
    let view = snapshot.game.unwrap();
    let mut follow = Follow {
        moves: moves_of(&view),
        interval,
        start_ply: view.start_ply,
        start: None,
        v: snapshot.v,
        seen: view.revealed.len(),
    };
    for _ in 0..3 {
        follow.observe(next_event(&mut inbox).await);
    }

    // The owner stops (its lease is no longer renewed, its channel stops revealing).
    drop(a);
    let stopped = Instant::now();
    eventually("b takes tv1 over", async || b.cluster.owns("tv1")).await;
    let took = stopped.elapsed();

    // The same game goes on at the right ply: what fell due meanwhile at once, then on the
    // beat; versions go on without a gap or a repeat.
    let until = Instant::now() + interval * 6;
    let mut after = 0;
    while Instant::now() < until && follow.seen < follow.moves.len() {
        follow.observe(next_event(&mut inbox).await);
        after += 1;
    }
    assert!(after >= 4, "events after the take-over ({took:?}): {after}");
}

/// What a watcher of a TV game checks event by event: every version once and in order, every
/// ply the game's own, none before its time.
struct Follow {
    moves: Vec<String>,
    interval: Duration,
    start_ply: u32,
    /// When the game started, as near as the watcher can tell: the earliest of (arrival −
    /// time from the start to the ply's reveal) over the reveals seen.
    start: Option<Instant>,
    v: u64,
    seen: usize,
}

impl Follow {
    fn observe(&mut self, (at, v, event): (Instant, u64, ChannelEvent)) {
        assert_eq!(v, self.v + 1, "every version once, in order");
        self.v = v;
        let ChannelEvent::PlyRevealed(ply) = event else {
            return;
        };
        assert_eq!(ply.ply as usize, self.seen, "no ply skipped or repeated");
        assert_eq!(
            ply.mv, self.moves[self.seen],
            "ply {} is the game's",
            self.seen
        );
        self.seen += 1;
        let after_start = self.interval * (ply.ply + 1 - self.start_ply);
        let start = self
            .start
            .map_or(at - after_start, |s| s.min(at - after_start));
        self.start = Some(start);
        assert!(
            at + Duration::from_millis(20) >= start + after_start,
            "ply {} early",
            ply.ply
        );
    }
}

#[tokio::test]
async fn two_nodes_never_hand_out_the_same_engine_game_id() {
    let Some(db) = PostgresDatabase::new("channels across nodes: game ids") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let coordination = storage.coordination().unwrap();
    let (_trigger, shutdown) = shutdown::channel();
    let a = GameIds::shared(coordination.clone(), shutdown.clone()).await;
    let b = GameIds::shared(coordination, shutdown).await;
    // Faster than the pools refill: some draws find none, and none is ever handed out twice.
    let mut ids: Vec<u64> = (0..40)
        .flat_map(|_| [a.next(), b.next()])
        .flatten()
        .collect();
    assert!(ids.len() >= 2 * AHEAD, "each pool was full: {}", ids.len());
    eventually("the pools fill again", async || {
        a.next().map(|id| ids.push(id)).is_some()
    })
    .await;
    let drawn = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), drawn, "every id once");
    assert!(ids[0] >= 1);
}

#[tokio::test]
async fn a_node_that_loses_its_lease_stops_revealing_and_holding_it_again_goes_on_with_the_game() {
    let Some((_db, _storage, coordination, redis)) =
        open("channels across nodes: lease lost").await
    else {
        return;
    };
    let interval = Duration::from_millis(300);
    let (lose, lease_lost) = watch::channel(false);
    let a = node_with("a", &coordination, &redis, interval, Some(lease_lost)).await;
    eventually("a owns tv1", async || a.cluster.owns("tv1")).await;
    game_on(&a).await;
    let (on_a, mut inbox) = watcher(1);
    a.registry
        .get("tv1")
        .unwrap()
        .watched(on_a, None)
        .await
        .unwrap();
    let snapshot = snapshot_of(&mut inbox).await;
    let view = snapshot.game.unwrap();
    let mut follow = Follow {
        moves: moves_of(&view),
        interval,
        start_ply: view.start_ply,
        start: None,
        v: snapshot.v,
        seen: view.revealed.len(),
    };
    for _ in 0..2 {
        follow.observe(next_event(&mut inbox).await);
    }

    lose.send_replace(true);
    eventually("a gives tv1 up", async || !a.cluster.owns("tv1")).await;
    // Nothing more is revealed here while the lease is not held.
    let quiet = tokio::time::timeout(interval * 4, next_event(&mut inbox)).await;
    assert!(quiet.is_err(), "revealed without a lease: {quiet:?}");

    lose.send_replace(false);
    eventually("a owns tv1 again", async || a.cluster.owns("tv1")).await;
    // The same game, from the saved schedule: the plies due meanwhile at once, then on the
    // beat; every version once.
    for _ in 0..6 {
        follow.observe(next_event(&mut inbox).await);
    }
}
