//! Every reference game of `games/frisian/tests/data/games.jsonl`, played between two real clients
//! through the server binary while a spectator watches, in both encodings at once: the players
//! get every move acknowledged, and the spectator and both players see exactly the reference
//! moves, positions and final result.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use boardcast_protocol::{Encoding, MatchEvent, MatchPhase, ServerMessage, Side};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, Pair};
use boardcast_tests::games::{RefGame, load_games};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

/// The Frisian start position as the server writes it.
const START_FEN: &str = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0";

/// Plays `game` through the server and checks what everyone saw.
async fn replay(addr: SocketAddr, encoding: Encoding, game: &RefGame) -> Result<(), String> {
    let fail = |what: String| format!("{} ({encoding:?}): {what}", game.id);
    assert_eq!(
        game.start_fen, START_FEN,
        "the reference games start from the start"
    );
    let mut pair = Pair::start(addr, encoding)
        .await
        .map_err(|err| fail(format!("seating: {err}")))?;
    let match_id = pair.match_id().to_owned();
    let mut spectator = Client::connect(addr, encoding)
        .await
        .map_err(|err| fail(format!("spectator: {err}")))?;
    let snapshot = spectator
        .watch_match(&match_id)
        .await
        .map_err(|err| fail(format!("watch: {err}")))?;
    if snapshot.phase != MatchPhase::Playing
        || !snapshot.moves.is_empty()
        || snapshot.fen != game.start_fen
        || snapshot.turn != Side::White
        || !snapshot
            .legal_moves
            .iter()
            .any(|legal| legal.route == game.routes[0])
    {
        return Err(fail(format!("bad first snapshot: {snapshot:?}")));
    }
    let mut v = snapshot.v;
    for (ply, route) in game.routes.iter().enumerate() {
        let ack = pair
            .play(ply, route)
            .await
            .map_err(|err| fail(format!("ply {ply} {}: {err}", game.moves[ply])))?;
        if ack.duplicate {
            return Err(fail(format!("ply {ply}: first move acked as duplicate")));
        }
        // The spectator sees this move next, as the very next version.
        let event = spectator
            .next_match_event(&match_id)
            .await
            .map_err(|err| fail(format!("spectator at ply {ply}: {err}")))?;
        if event.v != v + 1 {
            return Err(fail(format!("ply {ply}: event v {} after v {v}", event.v)));
        }
        v = event.v;
        let MatchEvent::Moved(moved) = event.event else {
            return Err(fail(format!("ply {ply}: expected moved, got {event:?}")));
        };
        let played = &moved.played;
        let next_route = game.routes.get(ply + 1);
        if played.ply as usize != ply
            || played.side != game.mover(ply)
            || played.notation != game.moves[ply]
            || &played.route != route
            || moved.fen != game.fens[ply]
            || next_route.is_some_and(|next| !moved.legal_moves.iter().any(|m| &m.route == next))
            || (next_route.is_none() && !moved.legal_moves.is_empty())
        {
            return Err(fail(format!(
                "ply {ply}: expected {} ({route:?}) to {}, spectator saw {moved:?}",
                game.moves[ply], game.fens[ply]
            )));
        }
    }
    // The last move ended the game: the result follows as the next version.
    let event = spectator
        .next_match_event(&match_id)
        .await
        .map_err(|err| fail(format!("waiting for the end: {err}")))?;
    let MatchEvent::Ended(result) = &event.event else {
        return Err(fail(format!("expected ended, got {event:?}")));
    };
    if event.v != v + 1 {
        return Err(fail(format!("ended has v {} after v {v}", event.v)));
    }
    game.check_result(result).map_err(fail)?;
    let final_v = event.v;

    // Both players saw the same sequence: every version once, in order, the same moves.
    for (side, client) in [
        (Side::White, &mut pair.white),
        (Side::Black, &mut pair.black),
    ] {
        let ended = client
            .wait_for("the ended event", |message| match message {
                ServerMessage::MatchEvent(event) if event.v == final_v => Some(event.clone()),
                _ => None,
            })
            .await
            .map_err(|err| fail(format!("{side} waiting for the end: {err}")))?;
        if !matches!(&ended.event, MatchEvent::Ended(r) if r == result) {
            return Err(fail(format!("{side} saw another end: {ended:?}")));
        }
        let mut plies = Vec::new();
        let mut last_v = 0;
        for message in client.backlog() {
            match message {
                ServerMessage::MatchSnapshot(snapshot) if snapshot.match_id == match_id => {
                    last_v = snapshot.v;
                }
                ServerMessage::MatchEvent(event) if event.match_id == match_id => {
                    if event.v != last_v + 1 {
                        return Err(fail(format!("{side} got v {} after {last_v}", event.v)));
                    }
                    last_v = event.v;
                    if let MatchEvent::Moved(moved) = &event.event {
                        plies.push(moved.played.notation.clone());
                    }
                }
                _ => {}
            }
        }
        if last_v + 1 != final_v || plies != game.moves {
            return Err(fail(format!(
                "{side} saw {} moves up to v {last_v}, expected {} up to v {}",
                plies.len(),
                game.moves.len(),
                final_v - 1
            )));
        }
    }

    // A newcomer's snapshot holds the whole finished game.
    let mut late = Client::connect(addr, encoding)
        .await
        .map_err(|err| fail(format!("late watcher: {err}")))?;
    let snapshot = late
        .watch_match(&match_id)
        .await
        .map_err(|err| fail(format!("late watch: {err}")))?;
    let notations: Vec<&str> = snapshot.moves.iter().map(|m| m.notation.as_str()).collect();
    if snapshot.phase != MatchPhase::Finished
        || snapshot.v != final_v
        || notations != game.moves
        || snapshot.fen != *game.fens.last().expect("games have moves")
        || snapshot.result.as_ref() != Some(result)
        || !snapshot.legal_moves.is_empty()
    {
        return Err(fail(format!("bad final snapshot: {snapshot:?}")));
    }
    pair.white.close().await;
    pair.black.close().await;
    spectator.close().await;
    late.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_reference_game_in_both_encodings() {
    let games = Arc::new(load_games());
    assert_eq!(games.len(), 40, "the reference file holds 40 games");
    // The players move as fast as the server answers: lift the per-connection rate limit,
    // which exists for people, not for this replay.
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--rate", "100000", "--burst", "100000"],
    );
    let addr = server.addr();
    let mut tasks = tokio::task::JoinSet::new();
    for encoding in [Encoding::Json, Encoding::Postcard] {
        for index in 0..games.len() {
            let games = Arc::clone(&games);
            tasks.spawn(async move { replay(addr, encoding, &games[index]).await });
        }
    }
    let mut failures = Vec::new();
    while let Some(outcome) = tasks.join_next().await {
        if let Err(failure) = outcome.expect("replay task panicked") {
            failures.push(failure);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 80 replays failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_leaving_and_returning_are_announced() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let mut white = Client::connect(addr, Encoding::Json).await.unwrap();
    let seat = white
        .create_match(boardcast_protocol::ColorChoice::White, false, None)
        .await
        .unwrap();
    let own = white
        .wait_for("the creator's snapshot", |m| match m {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    assert_eq!(own.phase, MatchPhase::Waiting);
    assert_eq!(own.black, None);
    let mut black = Client::connect(addr, Encoding::Json).await.unwrap();
    let black_seat = black
        .join(boardcast_protocol::JoinMatch::Code(
            seat.invite_code.clone(),
        ))
        .await
        .unwrap();
    let mut spectator = Client::connect(addr, Encoding::Json).await.unwrap();
    let snapshot = spectator.watch_match(&seat.match_id).await.unwrap();
    assert!(snapshot.white.as_ref().is_some_and(|p| p.connected));
    assert!(snapshot.black.as_ref().is_some_and(|p| p.connected));
    // Black's connection drops: everyone is told, and the snapshot shows it.
    black.close().await;
    let event = spectator.next_match_event(&seat.match_id).await.unwrap();
    assert!(
        matches!(&event.event, MatchEvent::PlayerLeft(a) if a.side == Side::Black),
        "{event:?}"
    );
    let mut late = Client::connect(addr, Encoding::Json).await.unwrap();
    let snapshot = late.watch_match(&seat.match_id).await.unwrap();
    assert!(snapshot.black.as_ref().is_some_and(|p| !p.connected));
    assert_eq!(snapshot.absent.len(), 1);
    // White moves while Black is away; Black comes back with the last version it saw and
    // gets exactly the missed events (the move, then its own return), no snapshot.
    white.play(&seat, &[32, 28]).await.unwrap();
    let mut again = Client::connect(addr, Encoding::Json).await.unwrap();
    again.set_next_id(100);
    again
        .resume(&black_seat.token, Some(event.v))
        .await
        .unwrap();
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let message = again.recv(std::time::Duration::from_secs(5)).await.unwrap();
        match message {
            ServerMessage::MatchEvent(e) => seen.push(e),
            ServerMessage::MatchSnapshot(s) => {
                panic!("a snapshot instead of the missed events: {s:?}")
            }
            _ => {}
        }
    }
    assert_eq!(seen[0].v, event.v + 1);
    assert!(
        matches!(&seen[0].event, MatchEvent::Moved(m) if m.played.route == [32, 28]),
        "{:?}",
        seen[0]
    );
    assert_eq!(seen[1].v, event.v + 2);
    assert!(
        matches!(seen[1].event, MatchEvent::PlayerReturned(Side::Black)),
        "{:?}",
        seen[1]
    );
    let moved = spectator.next_match_event(&seat.match_id).await.unwrap();
    assert_eq!(moved.v, event.v + 1);
    let back = spectator.next_match_event(&seat.match_id).await.unwrap();
    assert!(
        matches!(back.event, MatchEvent::PlayerReturned(Side::Black)),
        "{back:?}"
    );
    again.play(&black_seat, &[19, 23]).await.unwrap();
}
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_creators_own_snapshot_shows_it_connected() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .unwrap();
    white
        .create_match(boardcast_protocol::ColorChoice::White, false, None)
        .await
        .unwrap();
    let own = white
        .wait_for("the creator's snapshot", |m| match m {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    assert!(
        own.white.as_ref().is_some_and(|p| p.connected),
        "the creator is connected: {:?}",
        own.white
    );
}
