//! Two nodes of one cluster in one process (two `Server`s with their own node ids on one
//! PostgreSQL database and one Redis): a match owned by one node is played and watched
//! through the other, and when its owner stops, the other node takes it over and play goes
//! on. The multi-process tests (kill -9, SIGSTOP, Redis restarts) are in `tests/tests/cluster.rs`.

mod common;

use std::time::Duration;

use boardcast_protocol::*;
use common::cluster::*;
use common::*;

/// Every event `client` receives until the match ends, by version.
async fn events_until_the_end(client: &mut Client) -> Vec<(u64, MatchEvent)> {
    let mut events = Vec::new();
    loop {
        let event = tokio::time::timeout(Duration::from_secs(30), client.expect_event())
            .await
            .expect("the next event within 30 s");
        let ended = matches!(event.event, MatchEvent::Ended(_));
        events.push((event.v, event.event));
        if ended {
            return events;
        }
    }
}

/// A short game: four moves (black takes a piece), then white resigns.
const GAME: [&str; 4] = ["33-28", "19-24", "35-30", "24x22"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_play_and_a_watcher_on_the_second_sees_every_event_once_in_order() {
    let Some((postgres, redis)) = backends("two nodes play one match") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let b = node(&url, &redis, "b").await;

    let mut white = a.client("Wim").await;
    let ws = white.create(None, ColorChoice::White, false).await;
    let mut black = b.client("Baukje").await;
    let bs = black.join_code(&ws.invite_code).await;
    assert_eq!((bs.side, &bs.match_id), (Side::Black, &ws.match_id));
    white
        .event_until(|e| matches!(e, MatchEvent::PlayerJoined(_)).then_some(()))
        .await;
    let mut watcher = b.client("Sjoerd").await;
    let snapshot = watcher.watch(&ws.match_id).await;
    assert_eq!(
        snapshot.v, 2,
        "white joined, black joined, nothing else: {snapshot:?}"
    );
    assert_eq!(
        snapshot.white.as_ref().map(|p| p.name.as_str()),
        Some("Wim")
    );
    assert_eq!(
        snapshot.black.as_ref().map(|p| p.name.as_str()),
        Some("Baukje")
    );

    let game = routes(&GAME);
    for (ply, route) in game.iter().enumerate() {
        let (mover, seat) = if ply % 2 == 0 {
            (&mut white, &ws)
        } else {
            (&mut black, &bs)
        };
        mover.play(seat, route).await;
    }
    let resign = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(resign).await;

    let events = events_until_the_end(&mut watcher).await;
    // Nobody left: a player seated through another node is as present as one seated here.
    let absences: Vec<&MatchEvent> = events
        .iter()
        .map(|(_, e)| e)
        .filter(|e| matches!(e, MatchEvent::PlayerLeft(_) | MatchEvent::PlayerReturned(_)))
        .collect();
    assert!(absences.is_empty(), "{absences:?}");
    let versions: Vec<u64> = events.iter().map(|(v, _)| *v).collect();
    let expected: Vec<u64> = (snapshot.v + 1..=snapshot.v + versions.len() as u64).collect();
    assert_eq!(
        versions, expected,
        "every event once, in order, none missing"
    );
    let plies: Vec<u32> = events
        .iter()
        .filter_map(|(_, e)| match e {
            MatchEvent::Moved(m) => Some(m.played.ply),
            _ => None,
        })
        .collect();
    assert_eq!(plies, [0, 1, 2, 3]);
    match &events.last().unwrap().1 {
        MatchEvent::Ended(result) => assert_eq!(result.winner, Some(Side::Black)),
        other => panic!("the last event is {other:?}"),
    }
    // The black player, through the proxy, saw the same history.
    let black_end = black.ended().await;
    assert_eq!(black_end.winner, Some(Side::Black));
    b.stop().await;
    a.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_the_owner_stops_the_other_node_takes_the_match_over_and_play_goes_on() {
    let Some((postgres, redis)) = backends("a stopped owner is replaced") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let b = node(&url, &redis, "b").await;

    let mut white = a.client("Wim").await;
    let ws = white.create(None, ColorChoice::White, false).await;
    let mut black = b.client("Baukje").await;
    let bs = black.join_code(&ws.invite_code).await;
    let game = routes(&GAME);
    white.play(&ws, &game[0]).await;
    black.play(&bs, &game[1]).await;

    // The owner goes away; its lease lapses and b takes the match over.
    a.stop().await;
    let mut white = b.client("Wim").await;
    // A reconnecting client goes on counting its envelope ids (the match remembers the last).
    white.set_next_id(100);
    let resume = white.send_resume(&ws.token, None).await;
    let seat = tokio::time::timeout(Duration::from_secs(20), white.expect_seat(resume))
        .await
        .expect("the seat comes back on b");
    assert_eq!(seat.side, Side::White);
    let snapshot = white.expect_snapshot().await;
    assert_eq!(snapshot.moves.len(), 2, "both acknowledged moves are there");
    white.play(&ws, &game[2]).await;
    black.play(&bs, &game[3]).await;
    let resign = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(resign).await;
    assert_eq!(black.ended().await.winner, Some(Side::Black));
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_whose_owner_died_is_taken_over_with_nobody_asking() {
    use boardcast_server::{Player, Record, Setup};
    use boardcast_server::{Storage, Write};

    let Some((postgres, redis)) = backends("the sweeper takes orphans over") else {
        return;
    };
    let url = postgres.create_database();
    // Node x creates a match, then dies: it never renews its 300 ms lease.
    let (storage, _) = Storage::open(
        &boardcast_server::Database::Postgres(url.to_owned()),
        Some("x"),
    )
    .await
    .expect("connects");
    let coordination = storage.coordination().expect("PostgreSQL coordinates");
    let x = coordination
        .register_node("x".to_owned(), 300)
        .await
        .expect("x registers");
    let setup = Setup {
        time_control: None,
        public: false,
        rematch_of: None,
        start_fen: None,
        rated: false,
        rating_range: None,
        berserk: false,
        event: None,
    };
    let joined = |v: u64, side: Side, name: &str, token: &str| Write::Event {
        match_id: "orphan".to_owned(),
        v,
        at_ms: 0,
        body: serde_json::to_string(&Record::joined(
            side,
            &Player::person(name),
            token.to_owned(),
        ))
        .unwrap(),
        epoch: 1,
    };
    storage
        .commit(vec![
            Write::CreateMatch {
                id: "orphan".to_owned(),
                invite: Some("ORPHAN".to_owned()),
                created_ms: 0,
                setup: serde_json::to_string(&setup).unwrap(),
                owner: Some(x.clone()),
            },
            joined(1, Side::White, "Wim", "white-token"),
            joined(2, Side::Black, "Baukje", "black-token"),
        ])
        .await
        .expect("x stores its match");

    let b = node(&url, &redis, "b").await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let owner = coordination
            .match_owner("orphan".to_owned())
            .await
            .unwrap()
            .expect("the match exists");
        if owner.owner.as_ref().is_some_and(|o| o.node == "b") {
            assert!(owner.alive);
            assert_eq!(owner.epoch, 2, "one take-over: epoch 1 → 2");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "b did not take the orphan over: {owner:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // It runs on b: its players can come back there.
    let mut white = b.client("Wim").await;
    let resume = white.send_resume("white-token", None).await;
    assert_eq!(white.expect_seat(resume).await.side, Side::White);
    let snapshot = white.expect_snapshot().await;
    let names = |p: &Option<PlayerInfo>| p.as_ref().map(|p| p.name.clone());
    assert_eq!(
        (names(&snapshot.white), names(&snapshot.black)),
        (Some("Wim".to_owned()), Some("Baukje".to_owned()))
    );
    // Taken over, it noted both players gone (3, 4); white came back (5).
    assert_eq!(snapshot.v, 5);
    storage.close().await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_seek_made_on_one_node_is_listed_and_joined_by_id_on_the_other() {
    let Some((postgres, redis)) = backends("the lobby is shared") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let b = node(&url, &redis, "b").await;
    let mut white = a.client("Wim").await;
    let ws = white.create(None, ColorChoice::White, true).await;

    let mut black = b.client("Baukje").await;
    let listed_by = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        black.send(ClientMessage::ListLobby).await;
        let lobby = black
            .recv_until(|m| match m {
                ServerMessage::Lobby(lobby) => Some(lobby.clone()),
                _ => None,
            })
            .await;
        if lobby.seeks.iter().any(|seek| seek.match_id == ws.match_id) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < listed_by,
            "the seek is not listed on b: {lobby:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let join = black
        .send(ClientMessage::JoinMatch(JoinMatch::Id(ws.match_id.clone())))
        .await;
    let bs = black.expect_seat(join).await;
    assert_eq!((bs.side, &bs.match_id), (Side::Black, &ws.match_id));
    let joined = white
        .event_until(|e| match e {
            MatchEvent::PlayerJoined(p) => Some(p.clone()),
            _ => None,
        })
        .await;
    assert_eq!((joined.side, joined.name.as_str()), (Side::Black, "Baukje"));
    b.stop().await;
    a.stop().await;
}

/// A guest away when their rematch was agreed, both matches then moved to the other node
/// (their owner stopped): coming back to the old match there with their old token hands them
/// the rematch's seat, though no node keeps the rematch's tokens for them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_finds_their_rematch_seat_on_the_node_that_took_both_matches_over() {
    let Some((postgres, redis)) = backends("a rematch seat after a take-over") else {
        return;
    };
    let url = postgres.create_database();
    let a = node(&url, &redis, "a").await;
    let b = node(&url, &redis, "b").await;

    let mut white = a.client("Wim").await;
    let ws = white.create(None, ColorChoice::White, false).await;
    let mut black = b.client("Baukje").await;
    let bs = black.join_code(&ws.invite_code).await;
    let id = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(id).await;
    black.ended().await;
    let id = white.seat_action(&ws, ClientMessage::OfferRematch).await;
    white.expect_ack(id).await;
    black
        .event_until(|e| (*e == MatchEvent::RematchOffered(Side::White)).then_some(()))
        .await;
    drop(white);
    let id = black.seat_action(&bs, ClientMessage::AcceptRematch).await;
    black.expect_ack(id).await;
    let new_white = black.expect_seat(0).await;
    drop(black);

    // The owner of both goes away; Black takes their rematch seat back on b (b takes the
    // rematch over), then the guest comes back to the old match on b.
    a.stop().await;
    let mut black = b.client("Baukje").await;
    let id = black.send_resume(&new_white.token, None).await;
    tokio::time::timeout(Duration::from_secs(20), black.expect_seat(id))
        .await
        .expect("the rematch seat comes back on b");
    let mut white = b.client("Wim").await;
    white.set_next_id(100);
    let id = white.send_resume(&ws.token, None).await;
    let old = tokio::time::timeout(Duration::from_secs(20), white.expect_seat(id))
        .await
        .expect("the old seat on b");
    assert_eq!(old.match_id, ws.match_id);
    let new_black = white.expect_seat(0).await;
    assert_eq!(
        (new_black.match_id.as_str(), new_black.side),
        (new_white.match_id.as_str(), Side::Black)
    );
    black.play(&new_white, &[32, 28]).await;
    white.play(&new_black, &[19, 23]).await;
    b.stop().await;
}
