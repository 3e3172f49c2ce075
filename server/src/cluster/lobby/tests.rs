//! The shared lobby between nodes on a real `redis-server`.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardcast_protocol::{MatchPhase, MatchSummary};
use boardcast_testkit::redis::Redis;
use tokio::time::Instant;

use super::*;
use crate::ops::shutdown::{self, Trigger};

/// The design's promise: a seek made on one node is listed on the others within this.
const LISTED_WITHIN: Duration = Duration::from_secs(1);
/// How long a test waits for something that should happen (the machine may be busy).
const WAIT: Duration = Duration::from_secs(20);

fn node(name: &str, incarnation: u64) -> NodeRef {
    NodeRef {
        node: name.to_owned(),
        incarnation,
    }
}

fn line(id: &str, phase: MatchPhase) -> MatchSummary {
    MatchSummary {
        match_id: id.to_owned(),
        white: Some("ann".into()),
        black: (phase != MatchPhase::Waiting).then(|| "bob".into()),
        time_control: None,
        phase,
        plies: 0,
        watchers: 0,
        white_bot: false,
        black_bot: false,
        white_account: false,
        black_account: false,
        rated: false,
        rating_range: None,
        white_rating: None,
        black_rating: None,
    }
}

/// The live nodes as a test sets them.
#[derive(Clone, Default)]
struct Alive(Arc<Mutex<Arc<HashSet<NodeRef>>>>);

impl Alive {
    fn set(&self, nodes: &[&NodeRef]) {
        *self.0.lock().unwrap() = Arc::new(nodes.iter().map(|n| (*n).clone()).collect());
    }

    fn live_nodes(&self) -> LiveNodes {
        let alive = self.clone();
        Arc::new(move || alive.0.lock().unwrap().clone())
    }
}

struct Node {
    lobby: SharedLobby,
    _trigger: Trigger,
}

async fn start(redis: &Redis, me: &NodeRef, alive: &Alive) -> Node {
    let (trigger, shutdown) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), me.clone(), shutdown.clone())
        .await
        .unwrap();
    let lobby = SharedLobby::start(bus, alive.live_nodes(), shutdown).await;
    Node {
        lobby,
        _trigger: trigger,
    }
}

fn ids(lines: &[MatchSummary]) -> Vec<&str> {
    lines.iter().map(|l| l.match_id.as_str()).collect()
}

/// Waits until `node`'s merged lobby (with no local lines) satisfies `done`; returns how long
/// it took.
async fn until(node: &Node, done: impl Fn(&[MatchSummary], &[MatchSummary]) -> bool) -> Duration {
    let start = Instant::now();
    loop {
        let (seeks, live) = node.lobby.merge((Vec::new(), Vec::new()));
        if done(&seeks, &live) {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < WAIT,
            "never got there: seeks {:?}, live {:?}",
            ids(&seeks),
            ids(&live)
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn a_seek_on_one_node_is_listed_on_another_within_a_second_and_goes_when_removed() {
    let Some(redis) = Redis::start_or_skip("shared lobby") else {
        return;
    };
    let (a, c) = (node("a", 1), node("c", 1));
    let alive = Alive::default();
    alive.set(&[&a, &c]);
    let on_a = start(&redis, &a, &alive).await;
    let on_c = start(&redis, &c, &alive).await;

    on_a.lobby.update(line("seek1", MatchPhase::Waiting), true);
    // A private match is never listed anywhere but by whoever has its id.
    on_a.lobby
        .update(line("secret", MatchPhase::Waiting), false);
    let took = until(&on_c, |seeks, _| ids(seeks) == ["seek1"]).await;
    assert!(took < LISTED_WITHIN, "listed after {took:?}");

    // Joined: the line moves from seeks to live matches, watchers and all.
    let mut playing = line("seek1", MatchPhase::Playing);
    playing.watchers = 3;
    on_a.lobby.update(playing.clone(), true);
    until(&on_c, |seeks, live| {
        seeks.is_empty() && live == [playing.clone()]
    })
    .await;

    // C's own line comes first and once, even if A still listed the same match.
    let mut mine = playing.clone();
    mine.watchers = 9;
    let (_, merged) = on_c.lobby.merge((Vec::new(), vec![mine.clone()]));
    assert_eq!(merged, [mine]);

    on_a.lobby.remove("seek1");
    until(&on_c, |seeks, live| seeks.is_empty() && live.is_empty()).await;
    // A finished match is no longer listed either.
    on_a.lobby.update(line("seek2", MatchPhase::Waiting), true);
    until(&on_c, |seeks, _| ids(seeks) == ["seek2"]).await;
    on_a.lobby.update(line("seek2", MatchPhase::Finished), true);
    until(&on_c, |seeks, live| seeks.is_empty() && live.is_empty()).await;
}

#[tokio::test]
async fn a_node_that_joins_gets_every_line_and_a_node_that_leaves_takes_its_lines_along() {
    let Some(redis) = Redis::start_or_skip("shared lobby") else {
        return;
    };
    let (a, b, c) = (node("a", 1), node("b", 1), node("c", 1));
    let alive = Alive::default();
    alive.set(&[&a, &b, &c]);
    let on_a = start(&redis, &a, &alive).await;
    let on_b = start(&redis, &b, &alive).await;
    on_a.lobby.update(line("a-seek", MatchPhase::Waiting), true);
    on_b.lobby.update(line("b-game", MatchPhase::Playing), true);
    until(&on_a, |_, live| ids(live) == ["b-game"]).await;

    // C starts after both listed their lines: it asks, and both answer with their whole set.
    let on_c = start(&redis, &c, &alive).await;
    until(&on_c, |seeks, live| {
        ids(seeks) == ["a-seek"] && ids(live) == ["b-game"]
    })
    .await;

    // A's lease runs out: its lines go from every lobby at once.
    alive.set(&[&b, &c]);
    let (seeks, live) = on_c.lobby.merge((Vec::new(), Vec::new()));
    assert!(seeks.is_empty(), "{:?}", ids(&seeks));
    assert_eq!(ids(&live), ["b-game"]);

    // A starts again (a new incarnation): what its last run listed is gone for good.
    let a2 = node("a", 2);
    alive.set(&[&a, &a2, &b, &c]);
    let on_a2 = start(&redis, &a2, &alive).await;
    on_a2
        .lobby
        .update(line("a2-seek", MatchPhase::Waiting), true);
    until(&on_c, |seeks, _| ids(seeks) == ["a2-seek"]).await;
    drop(on_a);
}
