//! Frisian TV end to end: a real server, players and a TV watcher who is told which match to
//! watch and sees that match's own snapshot and events.

mod common;

use boardcast_protocol::*;
use common::*;

fn ftv() -> Target {
    Target::Channel(FRISIAN_TV.into())
}

/// The next `featured`, however long TV lingers: pings keep each wait short.
async fn featured(client: &mut Client) -> Option<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        client.send(ClientMessage::Ping(Ping { nonce: 1 })).await;
        let got = client
            .recv_until(|m| match m {
                ServerMessage::Featured(f) => Some(Some(f.match_id.clone())),
                ServerMessage::Pong(_) => Some(None),
                _ => None,
            })
            .await;
        if let Some(match_id) = got {
            return match_id;
        }
        assert!(std::time::Instant::now() < deadline, "TV never moved on");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// A public match between two new players, both seated and playing.
async fn public_match(
    server: &TestServer,
    white: &str,
    black: &str,
) -> (Client, Seat, Client, Seat) {
    let mut w = server.client(white).await;
    let ws = w.create(None, ColorChoice::White, true).await;
    let mut b = server.client(black).await;
    let id = b
        .send(ClientMessage::JoinMatch(JoinMatch::Id(ws.match_id.clone())))
        .await;
    let bs = b.expect_seat(id).await;
    b.expect_snapshot().await;
    (w, ws, b, bs)
}

#[tokio::test]
async fn tv_features_the_most_watched_live_match_until_it_ends_then_the_next() {
    let server = TestServer::start().await;
    let mut viewer = server.client("Viewer").await;
    let id = viewer
        .send(ClientMessage::Watch(Watch {
            target: ftv(),
            since_v: None,
        }))
        .await;
    viewer.expect_ack(id).await;
    assert_eq!(featured(&mut viewer).await, None);

    let (mut w1, s1, _b1, _) = public_match(&server, "Wim", "Baukje").await;
    let first = s1.match_id.clone();
    assert_eq!(featured(&mut viewer).await.as_deref(), Some(first.as_str()));
    // The viewer watches the featured match itself and sees its moves.
    let snapshot = viewer.watch(&first).await;
    assert_eq!(snapshot.phase, MatchPhase::Playing);
    w1.play(&s1, &[32, 28]).await;
    let seen = viewer
        .recv_until(|m| match m {
            ServerMessage::MatchEvent(e) if e.match_id == first => match &e.event {
                MatchEvent::Moved(moved) => Some(moved.played.notation.clone()),
                _ => None,
            },
            _ => None,
        })
        .await;
    assert_eq!(seen, "32-28");

    // A second match draws more watchers, but TV stays with the first while it is live.
    let (mut w2, s2, _b2, _) = public_match(&server, "Hylke", "Sjoukje").await;
    let mut crowd = Vec::new();
    for name in ["a", "b", "c"] {
        let mut fan = server.client(name).await;
        fan.watch(&s2.match_id).await;
        crowd.push(fan);
    }
    // The first match ends: its result is shown, then TV moves on to the second.
    let id = w1.seat_action(&s1, ClientMessage::Resign).await;
    w1.expect_ack(id).await;
    let result = viewer
        .recv_until(|m| match m {
            ServerMessage::MatchEvent(e) if e.match_id == first => match &e.event {
                MatchEvent::Ended(result) => Some(result.clone()),
                _ => None,
            },
            ServerMessage::Featured(f) => panic!("TV moved on before the match ended: {f:?}"),
            _ => None,
        })
        .await;
    assert_eq!(result.winner, Some(Side::Black));
    let next = featured(&mut viewer).await;
    assert_eq!(next.as_deref(), Some(s2.match_id.as_str()));

    // Unwatched, TV tells this viewer nothing more, though it moves on again.
    let id = viewer.send(ClientMessage::Unwatch(ftv())).await;
    viewer.expect_ack(id).await;
    let mut other = server.client("Other").await;
    let id = other
        .send(ClientMessage::Watch(Watch {
            target: ftv(),
            since_v: None,
        }))
        .await;
    other.expect_ack(id).await;
    assert_eq!(featured(&mut other).await, next);
    let (_w3, s3, _b3, _) = public_match(&server, "Tjitske", "Douwe").await;
    let id = w2.seat_action(&s2, ClientMessage::Resign).await;
    w2.expect_ack(id).await;
    assert_eq!(featured(&mut other).await, Some(s3.match_id.clone()));
    viewer.send(ClientMessage::Ping(Ping { nonce: 7 })).await;
    viewer
        .recv_until(|m| match m {
            ServerMessage::Featured(f) => panic!("featured after unwatch: {f:?}"),
            ServerMessage::Pong(p) if p.nonce == 7 => Some(()),
            _ => None,
        })
        .await;
    drop(crowd);
    server.stop().await;
}
