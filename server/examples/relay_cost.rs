//! Measures what relaying a match's events to the other nodes of a cluster costs its owner:
//! `EVENTS` move events published through a match's fan-out (one JSON watcher), with the
//! relay to Redis (`on`) or without it (`off`). Run both under
//! `valgrind --tool=callgrind` and divide the difference in instructions by `EVENTS`: that is
//! the relay's cost per event, on the actor and on the bus's publishing task together.
//!
//! `cargo run --release -p boardcast-server --example relay_cost -- redis://127.0.0.1:6379 20000 on`

use std::time::Duration;

use boardcast_protocol::{
    ClockState, Encoding, KingCounters, LegalMove, MatchEvent, MatchEventMsg, Moved, PlayedMove,
    ServerMessage, Side, Target,
};
use boardcast_server::Bus;
use boardcast_server::Fanout;
use boardcast_server::NodeRef;
use boardcast_server::outbox;
use boardcast_server::relay_mirror;
use boardcast_server::shutdown;

/// A move event the size of a real one: the FEN after it and nine legal replies.
fn moved(v: u64) -> ServerMessage {
    let legal = |from: u8, to: u8| LegalMove {
        notation: format!("{from}-{to}"),
        route: vec![from, to],
        captures: Vec::new(),
    };
    ServerMessage::MatchEvent(MatchEventMsg {
        match_id: "k3v9q2x7ma".into(),
        v,
        event: MatchEvent::Moved(Moved {
            played: PlayedMove {
                ply: v as u32,
                side: Side::White,
                notation: "32-28".into(),
                route: vec![32, 28],
                captures: Vec::new(),
                promotes: false,
            },
            fen: "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20".into(),
            clock: Some(ClockState {
                white_ms: 290_000,
                black_ms: 300_000,
                running: Some(Side::Black),
            }),
            legal_moves: (16..20).flat_map(|s| [legal(s, s + 4), legal(s, s + 5)]).chain([legal(20, 24)]).collect(),
            king_counters: KingCounters {
                white: None,
                black: None,
            },
            first_move_in_ms: None,
            lag_ms: None,
        }),
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let url = args
        .next()
        .unwrap_or_else(|| "redis://127.0.0.1:6379".into());
    let events: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let relay = args.next().is_none_or(|a| a == "on");
    let (_trigger, stop) = shutdown::channel();
    let node = NodeRef {
        node: "bench".into(),
        incarnation: 1,
    };
    let bus = Bus::connect(&url, node, stop).await.expect("Redis");
    let mut fanout: Fanout<()> = Fanout::new(20, Target::Match("m".into()), Duration::from_secs(2));
    let (watcher, mut watcher_in) = outbox(1, Encoding::Json, 1024);
    fanout.insert(watcher, ());
    if relay {
        fanout.mirror(relay_mirror(bus.clone(), "k3v9q2x7ma", 1));
    }
    for v in 1..=events {
        fanout.publish(v, moved(v));
        if v % 256 == 0 {
            while watcher_in.rx.try_recv().is_ok() {}
            // Lets the bus's publishing task drain its queue, as the runtime would.
            tokio::task::yield_now().await;
        }
    }
    while relay && bus.stats().published < events {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!(
        "{events} events, relay {}: {:?}",
        if relay { "on" } else { "off" },
        bus.stats()
    );
}
