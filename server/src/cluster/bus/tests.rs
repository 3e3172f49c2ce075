//! The bus against a real `redis-server`.

use std::time::Duration;

use tokio::sync::mpsc;

use super::*;
use crate::ops::shutdown;
use boardcast_testkit::redis::Redis;

/// Generous: the machine running the tests may be busy.
const WAIT: Duration = Duration::from_secs(20);

fn node(name: &str) -> NodeRef {
    NodeRef {
        node: name.to_owned(),
        incarnation: 1,
    }
}

async fn next(rx: &mut mpsc::Receiver<BusEvent>) -> BusEvent {
    tokio::time::timeout(WAIT, rx.recv())
        .await
        .expect("an event in time")
        .expect("the mailbox is open")
}

fn payload_of(event: BusEvent) -> (String, Vec<u8>) {
    match event {
        BusEvent::Message { channel, payload } => (channel, payload),
        BusEvent::Resync => panic!("expected a message, got Resync"),
    }
}

/// Waits until `done` holds for the bus's counters.
async fn until(bus: &Bus, done: impl Fn(&BusStats) -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !done(&bus.stats()) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "counters never got there: {:?}",
            bus.stats()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[test]
fn channel_names_follow_the_design() {
    let a = node("a");
    assert_eq!(names::node_matches(&a), "bc:node:a:1:m");
    assert_eq!(names::node_channels(&a), "bc:node:a:1:c");
    assert_eq!(names::node_replies(&a), "bc:node:a:1:r");
    assert_eq!(names::match_events("m1"), "bc:match:m1");
    assert_eq!(names::tv_channel("tv"), "bc:chan:tv");
}

#[tokio::test]
async fn one_publishers_order_is_kept_across_channels_at_the_handler() {
    let Some(redis) = Redis::start_or_skip("bus order") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let publisher = Bus::connect(&redis.url(), node("a"), stop.clone())
        .await
        .unwrap();
    let listener = Bus::connect(&redis.url(), node("b"), stop).await.unwrap();
    let (tx, mut rx) = mpsc::channel(4096);
    // One exact route and one prefix route into the same mailbox, as a proxy hears its
    // node channel and its matches' channels.
    listener.route("bc:node:b:1:m", tx.clone());
    listener.route("bc:match:*", tx);
    listener.subscribe("bc:node:b:1:m").await;
    listener.subscribe("bc:match:m1").await;

    let count = 2_000u32;
    for i in 0..count {
        let channel = if i % 3 == 0 {
            "bc:node:b:1:m"
        } else {
            "bc:match:m1"
        };
        publisher
            .publish(channel, i.to_be_bytes().to_vec())
            .unwrap();
    }
    for i in 0..count {
        let (channel, payload) = payload_of(next(&mut rx).await);
        assert_eq!(payload, i.to_be_bytes(), "message {i} out of order");
        let expected = if i % 3 == 0 {
            "bc:node:b:1:m"
        } else {
            "bc:match:m1"
        };
        assert_eq!(channel, expected);
    }
    until(&publisher, |s| s.published == u64::from(count)).await;
    assert_eq!(listener.stats().dropped_mailbox_full, 0);
}

#[tokio::test]
async fn handlers_resync_after_redis_restarts_and_hear_their_channels_again() {
    let Some(redis) = Redis::start_or_skip("bus restart") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), node("a"), stop).await.unwrap();
    let (tx, mut rx) = mpsc::channel(64);
    bus.route("bc:match:m1", tx);
    bus.subscribe("bc:match:m1").await;
    bus.publish("bc:match:m1", b"before".to_vec()).unwrap();
    assert_eq!(payload_of(next(&mut rx).await).1, b"before");

    redis.stop();
    redis.start_again().unwrap();
    assert_eq!(next(&mut rx).await, BusEvent::Resync);
    until(&bus, |s| s.reconnects == 1).await;
    // The subscription was made again on the new server; the publisher reconnects by itself
    // (what it was given while Redis was down is dropped, counted, and noticed to all).
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        bus.publish("bc:match:m1", b"after".to_vec()).unwrap();
        match tokio::time::timeout(Duration::from_millis(300), rx.recv()).await {
            // The publisher's notice that it dropped what came while Redis was down.
            Ok(Some(BusEvent::Resync)) => {}
            Ok(Some(event)) => {
                assert_eq!(payload_of(event).1, b"after");
                break;
            }
            Ok(None) => panic!("mailbox closed"),
            Err(_) => assert!(tokio::time::Instant::now() < deadline, "never heard again"),
        }
    }
}

#[tokio::test]
async fn a_full_mailbox_gets_resync_instead_of_stalling_the_others() {
    let Some(redis) = Redis::start_or_skip("bus overflow") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), node("a"), stop).await.unwrap();
    let (slow_tx, mut slow) = mpsc::channel(2);
    let (fast_tx, mut fast) = mpsc::channel(64);
    bus.route("bc:match:slow", slow_tx);
    bus.route("bc:match:fast", fast_tx);
    bus.subscribe("bc:match:slow").await;
    bus.subscribe("bc:match:fast").await;

    for i in 0u8..10 {
        bus.publish("bc:match:slow", vec![i]).unwrap();
    }
    bus.publish("bc:match:fast", b"go".to_vec()).unwrap();
    // The other handler is served although the slow one does not read.
    assert_eq!(payload_of(next(&mut fast).await).1, b"go");
    until(&bus, |s| s.delivered + s.dropped_mailbox_full == 11).await;
    assert_eq!(bus.stats().dropped_mailbox_full, 8);

    // The two that fitted, then the owed Resync (offered again by the dispatch task's tick,
    // since nothing more arrives to carry it), then what comes next.
    assert_eq!(payload_of(next(&mut slow).await).1, [0]);
    assert_eq!(payload_of(next(&mut slow).await).1, [1]);
    assert_eq!(next(&mut slow).await, BusEvent::Resync);
    bus.publish("bc:match:slow", vec![42]).unwrap();
    assert_eq!(payload_of(next(&mut slow).await).1, [42]);
}

#[tokio::test]
async fn unsubscribed_channels_are_no_longer_heard_and_unrouted_ones_are_counted() {
    let Some(redis) = Redis::start_or_skip("bus unsubscribe") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), node("a"), stop).await.unwrap();
    let (tx, mut rx) = mpsc::channel(64);
    bus.route("bc:match:*", tx);
    bus.subscribe("bc:match:m1").await;
    bus.subscribe("bc:match:m2").await;
    bus.unsubscribe("bc:match:m1");
    // Confirming a later subscription also confirms that the unsubscribe of m1 went out.
    bus.subscribe(names::LOBBY).await;
    // Published before `kept`: had it been heard, it would come first.
    bus.publish("bc:match:m1", b"gone".to_vec()).unwrap();
    bus.publish("bc:match:m2", b"kept".to_vec()).unwrap();
    bus.publish(names::LOBBY, b"nobody routes this".to_vec())
        .unwrap();
    assert_eq!(payload_of(next(&mut rx).await).1, b"kept");
    until(&bus, |s| s.unrouted == 1).await;
}

/// A handler that goes removes its own route only: one that replaced it for the same channel
/// keeps hearing it, and once that one goes too the prefix route hears the channel again.
#[tokio::test]
async fn unrouting_a_mailbox_leaves_a_newer_route_for_the_same_channel() {
    let Some(redis) = Redis::start_or_skip("bus unroute mailbox") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), node("a"), stop).await.unwrap();
    let (prefix_tx, mut prefix) = mpsc::channel(64);
    bus.route("bc:match:*", prefix_tx);
    let (old_tx, _old) = mpsc::channel(64);
    let (new_tx, mut new) = mpsc::channel(64);
    bus.route("bc:match:m1", old_tx.clone());
    bus.route("bc:match:m1", new_tx.clone());
    bus.subscribe("bc:match:m1").await;
    bus.unroute_mailbox("bc:match:m1", &old_tx);
    bus.publish("bc:match:m1", b"to the newer".to_vec())
        .unwrap();
    assert_eq!(payload_of(next(&mut new).await).1, b"to the newer");
    bus.unroute_mailbox("bc:match:m1", &new_tx);
    bus.publish("bc:match:m1", b"to the prefix".to_vec())
        .unwrap();
    assert_eq!(payload_of(next(&mut prefix).await).1, b"to the prefix");
}

#[tokio::test]
async fn a_quiet_subscriber_keeps_its_connection_through_many_pings() {
    let Some(redis) = Redis::start_or_skip("bus quiet") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    let bus = Bus::connect(&redis.url(), node("a"), stop).await.unwrap();
    let (tx, mut rx) = mpsc::channel(64);
    bus.route("bc:match:m1", tx);
    bus.subscribe("bc:match:m1").await;
    // Redis answers a PING on a subscribed connection with an array, not a status: a ping
    // that misread it would drop the connection (and every handler would resync) each time.
    tokio::time::sleep(PING_EVERY * 5).await;
    assert_eq!(bus.stats().reconnects, 0);
    bus.publish("bc:match:m1", b"still here".to_vec()).unwrap();
    assert_eq!(
        next(&mut rx).await,
        BusEvent::Message {
            channel: "bc:match:m1".into(),
            payload: b"still here".to_vec(),
        }
    );
}

#[tokio::test]
async fn a_message_its_node_could_not_publish_makes_every_node_resync() {
    let Some(redis) = Redis::start_or_skip("bus lost notice") else {
        return;
    };
    let (_trigger, stop) = shutdown::channel();
    // A queue of one: the second message published before the queue drains is refused.
    let owner = Bus::connect_with(&redis.url(), node("a"), stop.clone(), 1)
        .await
        .unwrap();
    let other = Bus::connect(&redis.url(), node("b"), stop).await.unwrap();
    let (tx, mut rx) = mpsc::channel(64);
    other.route("bc:match:m1", tx);
    // Confirmed together with the notices' channel, subscribed at connect.
    other.subscribe("bc:match:m1").await;

    owner.publish("bc:match:m1", b"v1".to_vec()).unwrap();
    let refused = owner.publish("bc:match:m1", b"v2".to_vec());
    assert!(matches!(refused, Err(BusError::Full)), "{refused:?}");
    // The node that lost v2 says so before anything else it publishes: `b` re-reads what it
    // shows (and so learns of v2) instead of waiting for a gap that may never show.
    assert_eq!(next(&mut rx).await, BusEvent::Resync);
    assert_eq!(payload_of(next(&mut rx).await).1, b"v1");
    owner.publish("bc:match:m1", b"v3".to_vec()).unwrap();
    assert_eq!(payload_of(next(&mut rx).await).1, b"v3");
}
