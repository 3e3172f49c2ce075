//! The lobby and the TV channels of two nodes of one cluster (two `Server`s with their own
//! node ids on one PostgreSQL database and one Redis), through their sockets: a seek made on
//! one node is listed on the other within a second and can be joined there, Frisian TV on
//! either node features a match the other runs, and the MinitChess TV channel shows the same
//! game with the same versions on both nodes (one of them owns it, the other relays it).

mod common;

use std::time::Duration;

use boardcast_protocol::*;
use common::cluster::*;
use common::*;
use tokio::time::Instant;

/// The promise: a seek made on one node is listed on another within this.
const LISTED_WITHIN: Duration = Duration::from_secs(1);
const PATIENCE: Duration = Duration::from_secs(30);

async fn lobby(client: &mut Client) -> Lobby {
    client.send(ClientMessage::ListLobby).await;
    client
        .recv_until(|m| match m {
            ServerMessage::Lobby(lobby) => Some(lobby.clone()),
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_made_on_one_node_is_listed_on_the_other_within_a_second_and_joined_there() {
    let Some((postgres, redis)) = backends("cluster lobby") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let c = node(&url, &redis, "c").await;
    let mut viewer = c.client("Lyts").await;
    let mut tv = c.client("Tsjoch").await;
    let id = tv
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(FRISIAN_TV.to_owned()),
            since_v: None,
        }))
        .await;
    tv.expect_ack(id).await;

    let mut white = a.client("Wim").await;
    let made = Instant::now();
    let seat = white.create(None, ColorChoice::White, true).await;
    let listed = loop {
        let lobby = lobby(&mut viewer).await;
        if lobby.seeks.iter().any(|s| s.match_id == seat.match_id) {
            break made.elapsed();
        }
        assert!(made.elapsed() < PATIENCE, "never listed on c");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(listed < LISTED_WITHIN, "listed on c after {listed:?}");

    // Joined on c by its id, from the lobby line.
    let mut black = c.client("Baukje").await;
    let id = black
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await;
    let black_seat = black.expect_seat(id).await;
    assert_eq!(
        (black_seat.side, &black_seat.match_id),
        (Side::Black, &seat.match_id)
    );
    // Now live on both nodes' lobbies, and Frisian TV on c features it.
    let started = Instant::now();
    loop {
        let lobby = lobby(&mut viewer).await;
        if lobby.live.iter().any(|s| s.match_id == seat.match_id) && lobby.seeks.is_empty() {
            break;
        }
        assert!(started.elapsed() < PATIENCE, "never live on c: {lobby:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tv.recv_until(|m| match m {
        ServerMessage::Featured(f) if f.match_id.as_deref() == Some(&seat.match_id) => Some(()),
        _ => None,
    })
    .await;

    // The TV channel: one node owns it, both show the same game.
    let mut on_a = a.client("Anne").await;
    let mut on_c = c.client("Klaas").await;
    let mut shown = Vec::new();
    for client in [&mut on_a, &mut on_c] {
        let game = loop {
            let id = client
                .send(ClientMessage::Watch(Watch {
                    target: Target::Channel("tv1".into()),
                    since_v: None,
                }))
                .await;
            client.expect_ack(id).await;
            let snapshot = client
                .recv_until(|m| match m {
                    ServerMessage::ChannelSnapshot(s) => Some(s.clone()),
                    _ => None,
                })
                .await;
            if let Some(game) = snapshot.game {
                break game;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        shown.push(game.header);
    }
    assert_eq!(shown[0], shown[1], "the same TV game on both nodes");
    c.stop().await;
    a.stop().await;
}

/// Waits until `viewer`'s lobby lists `match_id` as a seek (`listed`) or not.
async fn until_seek_listed(viewer: &mut Client, match_id: &str, listed: bool) {
    let started = Instant::now();
    loop {
        let lobby = lobby(viewer).await;
        if lobby.seeks.iter().any(|s| s.match_id == match_id) == listed {
            return;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "{match_id} listed should be {listed}: {lobby:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_whose_creator_left_leaves_every_nodes_lobby_until_they_return() {
    let Some((postgres, redis)) = backends("cluster ghost seek") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let c = node(&url, &redis, "c").await;
    let mut viewer = c.client("Lyts").await;
    let mut white = a.client("Wim").await;
    let seat = white.create(None, ColorChoice::White, true).await;
    until_seek_listed(&mut viewer, &seat.match_id, true).await;

    // The creator's connection closes: nobody would be there to play.
    drop(white);
    until_seek_listed(&mut viewer, &seat.match_id, false).await;
    let mut black = c.client("Baukje").await;
    let id = black
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await;
    assert_eq!(black.expect_error(id).await.code, ErrorCode::NotFound);

    // Back with the seat: listed again, and joinable.
    let mut back = a.client("Wim").await;
    let id = back
        .send(ClientMessage::Resume(Resume {
            token: seat.token.clone(),
            since_v: None,
        }))
        .await;
    back.expect_seat(id).await;
    until_seek_listed(&mut viewer, &seat.match_id, true).await;
    let id = black
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await;
    assert_eq!(black.expect_seat(id).await.side, Side::Black);
    c.stop().await;
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_whose_creator_unwatches_it_on_another_node_leaves_every_nodes_lobby_until_they_resume()
 {
    let Some((postgres, redis)) = backends("cluster ghost seek unwatched") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let b = node(&url, &redis, "b").await;
    let mut on_a = a.client("Lyts").await;
    let mut on_b = b.client("Sjoerd").await;
    // Made on a, which owns it; the creator comes back through b (a load balancer's choice).
    let mut white = a.client("Wim").await;
    let seat = white.create(None, ColorChoice::White, true).await;
    drop(white);
    until_seek_listed(&mut on_b, &seat.match_id, false).await;
    let mut white = b.client("Wim").await;
    let id = white
        .send(ClientMessage::Resume(Resume {
            token: seat.token.clone(),
            since_v: None,
        }))
        .await;
    white.expect_seat(id).await;
    until_seek_listed(&mut on_a, &seat.match_id, true).await;
    until_seek_listed(&mut on_b, &seat.match_id, true).await;

    // The creator leaves the waiting screen on b: as on one node, the seek is nobody's to join.
    let id = white
        .send(ClientMessage::Unwatch(Target::Match(seat.match_id.clone())))
        .await;
    white.expect_ack(id).await;
    until_seek_listed(&mut on_a, &seat.match_id, false).await;
    until_seek_listed(&mut on_b, &seat.match_id, false).await;
    let id = on_b
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await;
    assert_eq!(on_b.expect_error(id).await.code, ErrorCode::NotFound);

    // Back on the waiting screen: listed again everywhere, and joinable.
    let id = white
        .send(ClientMessage::Resume(Resume {
            token: seat.token.clone(),
            since_v: None,
        }))
        .await;
    white.expect_seat(id).await;
    until_seek_listed(&mut on_a, &seat.match_id, true).await;
    until_seek_listed(&mut on_b, &seat.match_id, true).await;
    let id = on_b
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await;
    assert_eq!(on_b.expect_seat(id).await.side, Side::Black);
    b.stop().await;
    a.stop().await;
}
