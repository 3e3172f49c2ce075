//! Frisian matches end to end: real WebSocket clients against a server on port 0 with a
//! temporary database.

mod common;

use std::time::Duration;

use boardcast_protocol::*;
use boardcast_server::Setup;
use common::*;
use futures_util::SinkExt;

/// game-s45 of the reference games: black wins in 42 plies (white has no pieces left).
const GAME_S45: [&str; 42] = [
    "33-28", "19-24", "35-30", "24x22", "31-27", "22x33", "39x28", "13-19", "28-23", "19x28",
    "36-31", "9-13", "38-33", "28x39", "44x33", "20-25", "31-26", "16x29", "41-36", "14-19",
    "40-35", "11-16", "45-40", "25x34", "50-45", "29-33", "43x14", "4x24", "36-31", "7-11",
    "46-41", "13-19", "42-38", "18-23", "31-27", "17x46", "38-33", "23x43", "48x30", "46x20",
    "45-40", "20x50",
];

fn moved(event: &MatchEvent) -> Option<Moved> {
    match event {
        MatchEvent::Moved(m) => Some(m.clone()),
        _ => None,
    }
}

#[tokio::test]
async fn full_game_to_a_win_is_broadcast_and_downloadable_as_pdn() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let mut watcher = server.client("Sjoerd").await;
    let snapshot = watcher.watch(&ws.match_id).await;
    assert_eq!(snapshot.phase, MatchPhase::Playing);
    assert_eq!(snapshot.v, 2);
    assert_eq!(snapshot.legal_moves.len(), 9);

    for (ply, route) in routes(&GAME_S45).iter().enumerate() {
        let (mover, seat) = if ply % 2 == 0 {
            (&mut white, &ws)
        } else {
            (&mut black, &bs)
        };
        mover.play(seat, route).await;
        let seen = watcher.event_until(moved).await;
        assert_eq!(seen.played.ply, ply as u32);
        assert_eq!(seen.played.notation, GAME_S45[ply]);
        assert_eq!(&seen.played.route, route);
    }
    let result = watcher.ended().await;
    assert_eq!(result.winner, Some(Side::Black));
    assert_eq!(result.reason, EndReason::NoLegalMove);
    assert_eq!(result.detail, "white has no legal move");
    assert_eq!(white.ended().await, result);
    assert_eq!(black.ended().await, result);

    // The game is over: another move is refused.
    let id = white.send_move(&ws, &[32, 28]).await;
    assert_eq!(white.expect_error(id).await.code, ErrorCode::GameOver);

    let (status, pdn) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[Result \"0-2\"]"), "{pdn}");
    assert!(pdn.contains("[White \"Wim\"]"), "{pdn}");
    assert!(pdn.contains("1. 33-28 19-24"), "{pdn}");
    assert!(pdn.contains("20x50 0-2"), "{pdn}");
    let (status, _) = http_get(server.addr, "/games/nosuchgame.pdn").await;
    assert_eq!(status, 404);
    let (status, body) = http_get(server.addr, "/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok\n"));
    server.stop().await;
}

#[tokio::test]
async fn two_kings_against_one_is_drawn_after_seven_moves_each() {
    let (dir, db) = temp_db();
    seed_match(
        &db,
        "kings",
        "W:WK50,K45:BK1:H0:F1",
        "tok-white",
        "tok-black",
    )
    .await;
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut white = server.client("Wim").await;
    let mut black = server.client("Baukje").await;
    let ws = resume(&mut white, "tok-white").await;
    let bs = resume(&mut black, "tok-black").await;
    assert_eq!(ws.side, Side::White);
    let line: [&[u8]; 14] = [
        &[50, 44],
        &[1, 6],
        &[44, 40],
        &[6, 1],
        &[40, 35],
        &[1, 6],
        &[35, 30],
        &[6, 1],
        &[30, 24],
        &[1, 6],
        &[24, 19],
        &[6, 1],
        &[19, 13],
        &[1, 6],
    ];
    for (ply, route) in line.iter().enumerate() {
        if ply % 2 == 0 {
            white.play(&ws, route).await;
        } else {
            black.play(&bs, route).await;
        }
    }
    let result = white.ended().await;
    assert_eq!(result.winner, None);
    assert_eq!(result.reason, EndReason::DrawByRule);
    assert_eq!(result.detail, "two kings v one king, 7 moves (art. 18)");
    server.stop().await;
    drop(dir);
}

async fn resume(client: &mut Client, token: &str) -> Seat {
    let id = client.send_resume(token, None).await;
    let seat = client.expect_seat(id).await;
    client.expect_snapshot().await;
    seat
}

#[tokio::test]
async fn the_flag_falls_without_anybody_sending_anything() {
    // A clock far shorter than the lobby allows, stored as an operator could.
    let (dir, db) = temp_db();
    let setup = Setup {
        time_control: Some(TimeControl {
            initial_ms: 400,
            increment_ms: 0,
        }),
        public: false,
        rematch_of: None,
        start_fen: None,
        rated: false,
        rating_range: None,
        berserk: false,
        event: None,
    };
    seed_match_with(&db, "flag", setup, "flw", "flb").await;
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut white = server.client("Wim").await;
    let ws = resume(&mut white, "flw").await;
    let mut black = server.client("Baukje").await;
    let bs = resume(&mut black, "flb").await;
    // Clocks start only after each side's first move: both have all the time they need.
    tokio::time::sleep(Duration::from_millis(600)).await;
    white.play(&ws, &[32, 28]).await;
    black.play(&bs, &[19, 23]).await;
    // White never moves again.
    let result = black.ended().await;
    assert_eq!(result.winner, Some(Side::Black));
    assert_eq!(result.reason, EndReason::TimeForfeit);
    assert_eq!(white.ended().await, result);
    let id = black.seat_action(&bs, ClientMessage::Resign).await;
    assert_eq!(black.expect_error(id).await.code, ErrorCode::GameOver);
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn clocks_charge_the_mover_and_add_the_increment() {
    let server = TestServer::start().await;
    let tc = TimeControl {
        initial_ms: 60_000,
        increment_ms: 2_000,
    };
    let (mut white, ws, mut black, bs) = two_players(&server, Some(tc)).await;
    // First moves cost nothing and earn nothing; Black's clock does not run before Black's
    // first move, White's starts with it.
    tokio::time::sleep(Duration::from_millis(150)).await;
    white.play(&ws, &[32, 28]).await;
    let clock = white.event_until(moved).await.clock.expect("a clock");
    assert_eq!(
        (clock.white_ms, clock.black_ms, clock.running),
        (60_000, 60_000, None)
    );
    tokio::time::sleep(Duration::from_millis(150)).await;
    black.play(&bs, &[19, 23]).await;
    let clock = white.event_until(moved).await.clock.expect("a clock");
    assert_eq!(
        (clock.white_ms, clock.black_ms, clock.running),
        (60_000, 60_000, Some(Side::White))
    );
    tokio::time::sleep(Duration::from_millis(150)).await;
    white.play(&ws, &[28, 19]).await;
    let m = white.event_until(moved).await;
    let clock = m.clock.expect("a timed match has a clock");
    assert_eq!(clock.running, Some(Side::Black));
    assert_eq!(clock.black_ms, 60_000);
    assert!(
        clock.white_ms > 61_000 && clock.white_ms <= 61_850,
        "white used at least 150 ms and got 2 s back: {clock:?}"
    );
    server.stop().await;
}

#[tokio::test]
async fn resign_ends_the_match_for_everyone() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, _bs) = two_players(&server, None).await;
    let id = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(id).await;
    let result = black.ended().await;
    assert_eq!(result.winner, Some(Side::Black));
    assert_eq!(result.reason, EndReason::Resignation);
    server.stop().await;
}

/// The match events a watcher sees next, `count` of them, by kind (moves by their notation).
async fn next_events(watcher: &mut Client, count: usize) -> Vec<String> {
    let mut seen = Vec::new();
    for _ in 0..count {
        seen.push(match watcher.expect_event().await.event {
            MatchEvent::Moved(m) => format!("moved {}", m.played.notation),
            MatchEvent::Ended(result) => format!("ended {:?}", result.reason),
            other => format!("{other:?}"),
        });
    }
    seen
}

#[tokio::test]
async fn a_draw_offer_stands_through_the_offerers_move_until_the_opponent_moves_or_answers() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let mut watcher = server.client("Sjoerd").await;
    watcher.watch(&ws.match_id).await;
    // Over the board: offer, then move. The offer outlives white's own move.
    let id = white.seat_action(&ws, ClientMessage::OfferDraw).await;
    white.expect_ack(id).await;
    black
        .event_until(|e| (*e == MatchEvent::DrawOffered(Side::White)).then_some(()))
        .await;
    // Accepting one's own offer is refused.
    let id = white.seat_action(&ws, ClientMessage::AcceptDraw).await;
    assert_eq!(white.expect_error(id).await.code, ErrorCode::NotAllowed);
    white.play(&ws, &[32, 28]).await;
    let snapshot = server.client("Late").await.watch(&ws.match_id).await;
    assert_eq!(
        snapshot.draw_offer,
        Some(Side::White),
        "after white's own move"
    );
    // Black moving instead of answering ends it, after black's move.
    black.play(&bs, &[19, 23]).await;
    assert_eq!(
        next_events(&mut watcher, 4).await,
        [
            "DrawOffered(White)",
            "moved 32-28",
            "moved 19-23",
            "DrawOfferCancelled"
        ]
    );
    let id = black.seat_action(&bs, ClientMessage::AcceptDraw).await;
    let err = black.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::NotAllowed);
    assert!(err.message.contains("no draw offer"), "{}", err.message);
    // An answer ends it too: offered on the opponent's turn and declined; then offered,
    // followed by the offerer's move, and accepted.
    let id = black.seat_action(&bs, ClientMessage::OfferDraw).await;
    black.expect_ack(id).await;
    let id = white.seat_action(&ws, ClientMessage::DeclineDraw).await;
    white.expect_ack(id).await;
    let id = white.seat_action(&ws, ClientMessage::OfferDraw).await;
    white.expect_ack(id).await;
    white.play(&ws, &[28, 19]).await;
    let id = black.seat_action(&bs, ClientMessage::AcceptDraw).await;
    black.expect_ack(id).await;
    let result = white.ended().await;
    assert_eq!(result.winner, None);
    assert_eq!(result.reason, EndReason::DrawByAgreement);
    assert_eq!(
        next_events(&mut watcher, 5).await,
        [
            "DrawOffered(Black)",
            "DrawDeclined(White)",
            "DrawOffered(White)",
            "moved 28x19",
            "ended DrawByAgreement"
        ]
    );
    let (status, pdn) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!(status, 200);
    assert!(pdn.contains("[Result \"1-1\"]"), "{pdn}");
    server.stop().await;
}

#[tokio::test]
async fn abort_is_allowed_only_before_each_side_has_moved() {
    let server = TestServer::start().await;
    // A seek nobody joined can be withdrawn.
    let mut lonely = server.client("Lonely").await;
    let seat = lonely.create(None, ColorChoice::Random, true).await;
    let id = lonely.seat_action(&seat, ClientMessage::Abort).await;
    lonely.expect_ack(id).await;
    assert_eq!(lonely.ended().await.reason, EndReason::Aborted);

    // Both moved: too late.
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    black.play(&bs, &[19, 23]).await;
    let id = white.seat_action(&ws, ClientMessage::Abort).await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::NotAllowed);
    assert!(err.message.contains("before each side has moved"));

    // Only white moved: black may abort.
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    let id = black.seat_action(&bs, ClientMessage::Abort).await;
    black.expect_ack(id).await;
    let result = white.ended().await;
    assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
    let (status, pdn) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!(status, 200);
    assert!(pdn.contains("[Result \"*\"]"), "{pdn}");
    server.stop().await;
}

#[tokio::test]
async fn a_reconnecting_player_gets_exactly_the_missed_events() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    let last_seen_v = loop {
        let event = black.expect_event().await;
        if moved(&event.event).is_some() {
            break event.v;
        }
    };
    assert_eq!(last_seen_v, 3, "two joins, then the move");
    // Black drops off; white is told.
    let next_id = black.next_id();
    black.ws().close(None).await.unwrap();
    drop(black);
    let left = white
        .event_until(|e| match e {
            MatchEvent::PlayerLeft(a) => Some(*a),
            _ => None,
        })
        .await;
    assert_eq!(left.side, Side::Black);
    // A claim before the grace period is refused.
    let id = white
        .send(ClientMessage::Claim(Claim {
            match_id: ws.match_id.clone(),
            token: ws.token.clone(),
            kind: ClaimKind::Win,
        }))
        .await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::NotAllowed);

    // Black comes back with its token and the last version it saw.
    let mut black = server.client("Baukje").await;
    black.set_next_id(next_id);
    let id = black.send_resume(&bs.token, Some(last_seen_v)).await;
    let seat = black.expect_seat(id).await;
    assert_eq!(seat.side, Side::Black);
    assert_eq!(seat.token, bs.token);
    // Exactly the missed event (black left, v4), then its return (v5), live.
    let missed = black.expect_event().await;
    assert_eq!(missed.v, 4);
    assert!(matches!(missed.event, MatchEvent::PlayerLeft(_)));
    let back = black.expect_event().await;
    assert_eq!(
        (back.v, back.event),
        (5, MatchEvent::PlayerReturned(Side::Black))
    );
    black.play(&bs, &[19, 23]).await;
    let m = white.event_until(moved).await;
    assert_eq!(m.played.notation, "19-23");
    server.stop().await;
}

/// The grace (300 ms in tests) stands still while the player still there is to move, and runs
/// on the absent player's turn: claimable only after 300 ms of the absent side's turns.
#[tokio::test]
async fn an_absent_opponent_can_be_claimed_against_after_the_grace_of_their_own_turns() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    black.event_until(moved).await;
    black.play(&bs, &[19, 23]).await;
    white.event_until(moved).await;
    white.event_until(moved).await;
    drop(black);
    white
        .event_until(|e| matches!(e, MatchEvent::PlayerLeft(_)).then_some(()))
        .await;
    let claim = || {
        ClientMessage::Claim(Claim {
            match_id: ws.match_id.clone(),
            token: ws.token.clone(),
            kind: ClaimKind::Win,
        })
    };
    // White's turn: the whole grace is still there after longer than it.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let id = white.send(claim()).await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::NotAllowed);
    assert!(
        err.message.contains("claim in 0.3 s of their turn"),
        "the claimable time: {}",
        err.message
    );
    // What everyone is shown stands still too: the whole grace is left.
    let absent = |snapshot: MatchSnapshot| snapshot.absent;
    let mut watcher = server.client("Sjoerd").await;
    assert_eq!(
        absent(watcher.watch(&ws.match_id).await),
        [Absence {
            side: Side::Black,
            claim_in_ms: 300
        }]
    );
    // White moves: Black's turn, the grace runs out.
    white.play(&ws, &[28, 19]).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut watcher = server.client("Sjoerd").await;
    assert_eq!(
        absent(watcher.watch(&ws.match_id).await),
        [Absence {
            side: Side::Black,
            claim_in_ms: 0
        }]
    );
    let id = white.send(claim()).await;
    white.expect_ack(id).await;
    let result = white.ended().await;
    assert_eq!(result.winner, Some(Side::White));
    assert_eq!(result.reason, EndReason::Abandoned);
    server.stop().await;
}

#[tokio::test]
async fn a_claim_before_both_sides_moved_aborts_the_match_instead_of_awarding_it() {
    let server = TestServer::start().await;
    let (mut white, ws, black, _bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    white.event_until(moved).await;
    drop(black);
    white
        .event_until(|e| matches!(e, MatchEvent::PlayerLeft(_)).then_some(()))
        .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let id = white
        .send(ClientMessage::Claim(Claim {
            match_id: ws.match_id.clone(),
            token: ws.token.clone(),
            kind: ClaimKind::Win,
        }))
        .await;
    white.expect_ack(id).await;
    let result = white.ended().await;
    assert_eq!(
        (result.winner, result.reason, result.detail.as_str()),
        (
            None,
            EndReason::Aborted,
            "black left before both sides moved: aborted"
        )
    );
    server.stop().await;
}

#[tokio::test]
async fn a_resent_move_with_the_same_ack_id_is_applied_once() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, _bs) = two_players(&server, None).await;
    let play = ClientMessage::Move(PlayMove {
        match_id: ws.match_id.clone(),
        token: ws.token.clone(),
        route: vec![32, 28],
        lag_ms: None,
    });
    white.send_with_id(77, play.clone()).await;
    assert!(!white.expect_ack(77).await.duplicate);
    // Re-sent after a reconnect: acknowledged again, not applied again.
    let mut again = server.client("Wim").await;
    again.send_with_id(77, play).await;
    assert!(again.expect_ack(77).await.duplicate);
    let first = black.event_until(moved).await;
    assert_eq!(first.played.ply, 0);
    let snapshot = black.watch(&ws.match_id).await;
    assert_eq!(snapshot.moves.len(), 1);
    assert_eq!(snapshot.turn, Side::Black);
    server.stop().await;
}

#[tokio::test]
async fn a_player_taking_the_seat_back_is_told_how_many_watch() {
    let server = TestServer::start().await;
    let (mut white, ws, black, bs) = two_players(&server, None).await;
    let mut watcher = server.client("Sjoerd").await;
    watcher.watch(&ws.match_id).await;
    let crowd = |m: &ServerMessage| match m {
        ServerMessage::Crowd(c) => Some(c.clone()),
        _ => None,
    };
    assert_eq!(white.recv_until(crowd).await.watchers, 1);
    drop(black);
    white
        .event_until(|e| matches!(e, MatchEvent::PlayerLeft(_)).then_some(()))
        .await;
    // The count does not change when Black comes back, yet Black learns it.
    let mut black = server.client("Baukje").await;
    let id = black.send_resume(&bs.token, None).await;
    black.expect_seat(id).await;
    let told = black.recv_until(crowd).await;
    assert_eq!(
        (told.target, told.watchers),
        (Target::Match(ws.match_id.clone()), 1)
    );
    server.stop().await;
}

#[tokio::test]
async fn watchers_and_wrong_tokens_cannot_act_and_change_nothing() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let (mut other_white, ows, _other_black, _obs) = two_players(&server, None).await;
    let mut watcher = server.client("Sjoerd").await;
    let before = watcher.watch(&ws.match_id).await;
    let other_before = watcher.watch(&ows.match_id).await;
    let crowd = white
        .recv_until(|m| match m {
            ServerMessage::Crowd(c) => Some(c.clone()),
            _ => None,
        })
        .await;
    assert_eq!(crowd.watchers, 1);

    // A watcher guessing a token.
    let fake = Seat {
        token: "not-a-token".into(),
        ..ws.clone()
    };
    let id = watcher.send_move(&fake, &[32, 28]).await;
    assert_eq!(watcher.expect_error(id).await.code, ErrorCode::InvalidToken);
    // A real token of another match.
    let crossed = Seat {
        match_id: ws.match_id.clone(),
        ..ows.clone()
    };
    let id = other_white.send_move(&crossed, &[32, 28]).await;
    assert_eq!(
        other_white.expect_error(id).await.code,
        ErrorCode::InvalidToken
    );
    // Out of turn.
    let id = black.send_move(&bs, &[19, 23]).await;
    let err = black.expect_error(id).await;
    assert_eq!(
        (err.code, err.message.as_str()),
        (ErrorCode::NotYourTurn, "not your turn: white to move")
    );
    // Unknown match.
    let gone = Seat {
        match_id: "nosuchmatch".into(),
        ..ws.clone()
    };
    let id = white.send_move(&gone, &[32, 28]).await;
    assert_eq!(white.expect_error(id).await.code, ErrorCode::NotFound);
    // A malformed frame is answered, not fatal.
    white
        .ws()
        .send(tokio_tungstenite::tungstenite::Message::text(
            "{\"id\":1,\"msg\":{\"castle\":{}}}",
        ))
        .await
        .unwrap();
    let err = white
        .recv_until(|m| match m {
            ServerMessage::Error(e) if e.id == Some(1) => Some(e.clone()),
            _ => None,
        })
        .await;
    assert_eq!(err.code, ErrorCode::Malformed);

    // Nothing changed in either match.
    let after = watcher.watch(&ws.match_id).await;
    assert_eq!(
        (after.v, &after.fen, &after.moves),
        (before.v, &before.fen, &before.moves)
    );
    let other_after = watcher.watch(&ows.match_id).await;
    assert_eq!(other_after.v, other_before.v);
    assert_eq!(other_after.fen, other_before.fen);
    // And the match still plays.
    white.play(&ws, &[32, 28]).await;
    server.stop().await;
}

#[tokio::test]
async fn a_lower_value_capture_is_refused_with_the_reason() {
    let (dir, db) = temp_db();
    seed_match(&db, "value", "W:W33,43:B28,29,19,9:H0:F1", "tw", "tb").await;
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut white = server.client("Wim").await;
    let ws = resume(&mut white, "tw").await;
    let mut watcher = server.client("Sjoerd").await;
    let before = watcher.watch("value").await;
    assert_eq!(before.legal_moves.len(), 1);
    let id = white.send_move(&ws, &[33, 22]).await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::IllegalMove);
    assert!(
        err.message
            .starts_with("illegal move: a capture of higher value exists"),
        "{}",
        err.message
    );
    // A route that is not even a move.
    let id = white.send_move(&ws, &[33, 34]).await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::IllegalMove);
    assert!(err.message.starts_with("illegal move: "), "{}", err.message);
    // Unchanged; the legal capture still plays.
    let after = watcher.watch("value").await;
    assert_eq!((after.v, &after.fen), (before.v, &before.fen));
    let best = before.legal_moves[0].route.clone();
    white.play(&ws, &best).await;
    let m = watcher.event_until(moved).await;
    assert_eq!(m.played.captures.len(), 3);
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_restarted_server_resumes_matches_and_honours_seat_tokens() {
    let (dir, db) = temp_db();
    let tc = TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db.clone())).await;
    let (mut white, ws, mut black, bs) = two_players(&server, Some(tc)).await;
    white.play(&ws, &[32, 28]).await;
    black.play(&bs, &[19, 23]).await;
    white.play(&ws, &[28, 19]).await;
    let before = white
        .event_until(|e| moved(e).filter(|m| m.played.ply == 2))
        .await;
    let black_left_at = before.clock.unwrap().black_ms;
    let (white_next, black_next) = (white.next_id(), black.next_id());
    drop((white, black));
    server.stop().await;

    // Time passes while the server is down: it is not charged.
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut black = server.client("Baukje").await;
    black.set_next_id(black_next);
    let id = black.send_resume(&bs.token, None).await;
    black.expect_seat(id).await;
    let snapshot = black.expect_snapshot().await;
    let notation: Vec<&str> = snapshot.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notation, ["32-28", "19-23", "28x19"]);
    assert_eq!(snapshot.turn, Side::Black);
    let clock = snapshot.clock.unwrap();
    assert_eq!(clock.running, Some(Side::Black));
    assert!(
        clock.black_ms + 1_000 >= black_left_at,
        "downtime was charged: {} then {}",
        black_left_at,
        clock.black_ms
    );
    // Black must recapture: 14x23 or 13x24.
    let capture = snapshot.legal_moves[0].route.clone();
    black.play(&bs, &capture).await;
    let mut white = server.client("Wim").await;
    white.set_next_id(white_next);
    let id = white.send_resume(&ws.token, Some(snapshot.v)).await;
    white.expect_seat(id).await;
    let m = white.event_until(moved).await;
    assert_eq!(m.played.ply, 3);
    // An action id white already used before the restart is still known.
    let old = white_next - 1;
    white
        .send_with_id(
            old,
            ClientMessage::Move(PlayMove {
                match_id: ws.match_id.clone(),
                token: ws.token.clone(),
                route: vec![28, 19],
                lag_ms: None,
            }),
        )
        .await;
    assert!(white.expect_ack(old).await.duplicate);
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn lobby_lists_public_seeks_and_live_matches_and_joins_by_id() {
    let server = TestServer::start().await;
    let mut seeker = server.client("Seeker").await;
    let seek = seeker
        .create(Some("5+3".parse().unwrap()), ColorChoice::Black, true)
        .await;
    assert_eq!(seek.side, Side::Black);
    let mut private = server.client("Private").await;
    let hidden = private.create(None, ColorChoice::White, false).await;

    let mut browser = server.client("Browser").await;
    browser.send(ClientMessage::ListLobby).await;
    let lobby = browser
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    let ids: Vec<&str> = lobby.seeks.iter().map(|s| s.match_id.as_str()).collect();
    assert_eq!(ids, [seek.match_id.as_str()]);
    assert_eq!(lobby.seeks[0].black.as_deref(), Some("Seeker"));
    assert!(lobby.live.is_empty());

    // A private match cannot be joined by id, a public one can.
    let id = browser
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            hidden.match_id.clone(),
        )))
        .await;
    assert_eq!(browser.expect_error(id).await.code, ErrorCode::NotFound);
    let id = browser
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seek.match_id.clone(),
        )))
        .await;
    let seat = browser.expect_seat(id).await;
    assert_eq!(seat.side, Side::White);
    // A third player finds the match full.
    let mut late = server.client("Late").await;
    let id = late
        .send(ClientMessage::JoinMatch(JoinMatch::Code(
            seek.invite_code.clone(),
        )))
        .await;
    assert_eq!(late.expect_error(id).await.code, ErrorCode::MatchFull);

    late.send(ClientMessage::ListLobby).await;
    let lobby = late
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    assert!(lobby.seeks.is_empty());
    assert_eq!(lobby.live.len(), 1);
    assert_eq!(lobby.live[0].white.as_deref(), Some("Browser"));
    server.stop().await;
}

#[tokio::test]
async fn an_engines_seats_are_marked_bot_everywhere_and_stay_so_after_a_restart() {
    let (dir, db) = temp_db();
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db.clone())).await;
    let mut engine = server.client("Scan").await;
    let id = engine
        .send(ClientMessage::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            client: "boardcast-engine".into(),
            name: "Scan".into(),
            bot: true,
        }))
        .await;
    engine.expect_ack(id).await;
    let seek = engine.create(None, ColorChoice::Black, true).await;

    let mut person = server.client("Sietske").await;
    person.send(ClientMessage::ListLobby).await;
    let lobby = person
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    assert_eq!(lobby.seeks[0].black.as_deref(), Some("Scan"));
    assert!(lobby.seeks[0].black_bot);
    assert!(!lobby.seeks[0].white_bot);
    let seat = person.join_code(&seek.invite_code).await;
    assert_eq!(seat.side, Side::White);
    // The engine learns that a person joined; the person's snapshot shows the bot.
    let joined = engine
        .event_until(|e| match e {
            MatchEvent::PlayerJoined(j) => Some(j.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        joined,
        PlayerJoined {
            side: Side::White,
            name: "Sietske".into(),
            bot: false,
            // Her join started the match: she has the whole first-move time.
            first_move_in_ms: Some(30_000),
            account: false,
        }
    );
    let watched = person.watch(&seek.match_id).await;
    let players = |s: &MatchSnapshot| {
        [&s.white, &s.black].map(|p| p.as_ref().map(|p| (p.name.clone(), p.bot)))
    };
    assert_eq!(
        players(&watched),
        [Some(("Sietske".into(), false)), Some(("Scan".into(), true))]
    );
    person.play(&seat, &[32, 28]).await;
    drop((engine, person));
    server.stop().await;

    // Replayed from storage, the seat is still the engine's, for watchers and in the lobby.
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut watcher = server.client("Wytze").await;
    let snapshot = watcher.watch(&seek.match_id).await;
    assert_eq!(
        players(&snapshot),
        [Some(("Sietske".into(), false)), Some(("Scan".into(), true))]
    );
    watcher.send(ClientMessage::ListLobby).await;
    let lobby = watcher
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        lobby
            .live
            .iter()
            .map(|s| (s.match_id.as_str(), s.white_bot, s.black_bot))
            .collect::<Vec<_>>(),
        [(seek.match_id.as_str(), false, true)]
    );
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_hands_out_new_seats() {
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let id = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(id).await;
    black.ended().await;
    let id = white.seat_action(&ws, ClientMessage::OfferRematch).await;
    white.expect_ack(id).await;
    black
        .event_until(|e| (*e == MatchEvent::RematchOffered(Side::White)).then_some(()))
        .await;
    let id = black.seat_action(&bs, ClientMessage::AcceptRematch).await;
    black.expect_ack(id).await;
    let new_black = white.expect_seat(0).await;
    let new_white = black.expect_seat(0).await;
    assert_eq!(new_black.side, Side::Black);
    assert_eq!(new_white.side, Side::White);
    assert_eq!(new_white.match_id, new_black.match_id);
    assert_ne!(new_white.match_id, ws.match_id);
    // Both stayed connected: both first snapshots show both players here, and the rematch
    // begins with its two joins and nothing invented (no player_left / player_returned).
    for snapshot in [white.expect_snapshot().await, black.expect_snapshot().await] {
        assert_eq!(snapshot.match_id, new_white.match_id);
        assert_eq!(snapshot.v, 2, "{snapshot:?}");
        assert!(snapshot.absent.is_empty(), "{snapshot:?}");
        let connected = [&snapshot.white, &snapshot.black].map(|p| p.as_ref().map(|p| p.connected));
        assert_eq!(connected, [Some(true), Some(true)], "{snapshot:?}");
    }
    black.play(&new_white, &[32, 28]).await;
    let first = white
        .recv_until(|m| match m {
            ServerMessage::MatchEvent(e) if e.match_id == new_white.match_id => Some(e.clone()),
            _ => None,
        })
        .await;
    assert_eq!(first.v, 3, "{first:?}");
    let MatchEvent::Moved(m) = first.event else {
        panic!("the rematch's first event after the joins: {first:?}");
    };
    assert_eq!(m.played.side, Side::White);
    // A player who comes back to the old match later is handed the rematch seat too.
    let mut again = server.client("Baukje").await;
    again.set_next_id(black.next_id());
    let id = again.send_resume(&bs.token, None).await;
    assert_eq!(again.expect_seat(id).await.match_id, ws.match_id);
    let seat = again.expect_seat(0).await;
    assert_eq!(seat, new_white);
    server.stop().await;
}

#[tokio::test]
async fn a_guest_away_at_the_rematch_finds_its_seat_after_a_restart_on_sqlite() {
    let (dir, db) = temp_db();
    a_guest_away_at_the_rematch_finds_its_seat_after_a_restart(|| {
        boardcast_server::Config::for_tests(db.clone())
    })
    .await;
    drop(dir);
}

#[tokio::test]
async fn a_frozen_king_is_refused_by_the_three_move_rule() {
    let (dir, db) = temp_db();
    // White's king on 28 has made three simple moves in a row; white still has a man.
    seed_match(&db, "frozen", "W:W45,K28:B1:H0:F1:+0+328", "fw", "fb").await;
    let server = TestServer::start_with(boardcast_server::Config::for_tests(db)).await;
    let mut white = server.client("Wim").await;
    let ws = resume(&mut white, "fw").await;
    let id = white.send_move(&ws, &[28, 22]).await;
    let err = white.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::IllegalMove);
    assert_eq!(
        err.message,
        "illegal move: king on 28 has moved three times"
    );
    white.play(&ws, &[45, 40]).await;
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn one_connection_may_hold_both_seats() {
    let server = TestServer::start().await;
    let mut solo = server.client("Solo").await;
    let white = solo.create(None, ColorChoice::White, false).await;
    // Asked for explicitly (PROTOCOL.md §4 `join_match`): joining by code alone is refused.
    let id = solo
        .send(ClientMessage::JoinMatch(JoinMatch::Code(
            white.invite_code.clone(),
        )))
        .await;
    assert_eq!(solo.expect_error(id).await.code, ErrorCode::NotAllowed);
    let id = solo
        .send(ClientMessage::JoinMatch(JoinMatch::Myself(
            white.match_id.clone(),
        )))
        .await;
    let black = solo.expect_seat(id).await;
    solo.expect_snapshot().await;
    solo.play(&white, &[32, 28]).await;
    solo.play(&black, &[19, 23]).await;
    let mut watcher = server.client("Sjoerd").await;
    let snapshot = watcher.watch(&white.match_id).await;
    assert_eq!(snapshot.moves.len(), 2);
    assert!(snapshot.absent.is_empty(), "{:?}", snapshot.absent);
    assert!(snapshot.white.unwrap().connected && snapshot.black.unwrap().connected);
    assert_eq!(snapshot.v, 4, "two joins and two moves, no presence events");
    server.stop().await;
}

#[tokio::test]
async fn a_resume_from_further_back_than_the_replay_buffer_gets_a_snapshot_at_the_current_version()
{
    let server = TestServer::start().await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    // Sees every event as it is sent live.
    let mut live = server.client("Tjitske").await;
    live.watch(&ws.match_id).await;
    // Far more events than a match keeps for replay (lila-ws keeps 20).
    let mut position = frisian::Position::start();
    for ply in 0..30 {
        if position.status().outcome().is_some() {
            break;
        }
        let mv = position.legal_moves()[0];
        let route: Vec<u8> = mv.route().iter().map(|sq| sq.number()).collect();
        if ply % 2 == 0 {
            white.play(&ws, &route).await;
        } else {
            black.play(&bs, &route).await;
        }
        position = position.play(mv).expect("plays");
    }
    let mut watcher = server.client("Sjoerd").await;
    let now = watcher.watch(&ws.match_id).await;
    assert!(now.v > 25, "{}", now.v);

    let mut back = server.client("Baukje").await;
    let id = back.send_resume(&bs.token, Some(2)).await;
    back.expect_seat(id).await;
    let snapshot = back.expect_snapshot().await;
    assert_eq!((snapshot.v, snapshot.moves.len()), (now.v, now.moves.len()));

    // Within the buffer the missed events come exactly.
    let mut again = server.client("Baukje").await;
    let id = again.send_resume(&bs.token, Some(now.v - 3)).await;
    again.expect_seat(id).await;
    let missed = vec![
        again.expect_event().await,
        again.expect_event().await,
        again.expect_event().await,
    ];
    let versions: Vec<u64> = missed.iter().map(|event| event.v).collect();
    assert_eq!(versions, vec![now.v - 2, now.v - 1, now.v]);
    // The match keeps only a few bytes of each (a ply and its clocks): what it rebuilds for
    // the resume is the event as it was sent live, FEN and legal moves included.
    let mut sent = Vec::new();
    while sent
        .last()
        .is_none_or(|event: &MatchEventMsg| event.v < now.v)
    {
        sent.push(live.expect_event().await);
    }
    assert_eq!(missed, sent[sent.len() - 3..]);
    assert!(
        missed.iter().any(|event| matches!(
            &event.event,
            MatchEvent::Moved(moved) if !moved.legal_moves.is_empty() && !moved.fen.is_empty()
        )),
        "{missed:?}"
    );
    server.stop().await;
}

/// How many finished matches the server holds in memory, read from its `/metrics` page.
async fn finished_in_memory(server: &TestServer) -> u64 {
    let (status, page) = http_get(server.addr, "/metrics").await;
    assert_eq!(status, 200, "{page}");
    page.lines()
        .find_map(|line| line.strip_prefix("boardcast_matches{phase=\"finished\"} "))
        .map_or(0, |count| count.trim().parse().expect("a count"))
}

#[tokio::test]
async fn a_finished_match_leaves_memory_once_nobody_follows_it_and_stays_downloadable() {
    let (_dir, db) = temp_db();
    let mut config = boardcast_server::Config::for_tests(db);
    config.finished_linger = Duration::from_millis(300);
    let server = TestServer::start_with(config).await;
    let (mut white, ws, mut black, _bs) = two_players(&server, None).await;
    let id = white.seat_action(&ws, ClientMessage::Resign).await;
    white.expect_ack(id).await;
    black.ended().await;

    // Followed by its players, it stays however long the linger.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(finished_in_memory(&server).await, 1);

    // Nobody follows it any more: it leaves memory after the linger.
    white.ws().close(None).await.unwrap();
    black.ws().close(None).await.unwrap();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while finished_in_memory(&server).await > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the finished match is still in memory"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // It is still served from storage.
    let (status, pdn) = http_get(server.addr, &format!("/games/{}.pdn", ws.match_id)).await;
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[Result \"0-2\"]"), "{pdn}");
    let mut late = server.client("Late").await;
    let snapshot = late.watch(&ws.match_id).await;
    assert_eq!(snapshot.phase, MatchPhase::Finished);
    server.stop().await;
}

/// What a client is told of the first-move timeout is the deadline the server enforces: the
/// event that starts a side's wait gives the whole timeout, a snapshot the time left, and the
/// abort comes when that time is up (measured from when each message arrived).
#[tokio::test]
async fn the_first_move_time_sent_is_the_deadline_that_aborts_the_match() {
    let timeout = Duration::from_millis(1_500);
    // Late by scheduling and delivery, never early: an abort before the announced time would
    // be a wrong countdown.
    let (early, late) = (Duration::from_millis(150), Duration::from_millis(1_500));
    let (_dir, db) = temp_db();
    let mut config = boardcast_server::Config::for_tests(db);
    config.first_move_timeout = timeout;
    let server = TestServer::start_with(config).await;
    let first_move_in = |event: &MatchEvent| match event {
        MatchEvent::PlayerJoined(joined) if joined.side == Side::Black => {
            Some(joined.first_move_in_ms)
        }
        MatchEvent::Moved(moved) => Some(moved.first_move_in_ms),
        _ => None,
    };
    let aborted_within = |deadline: std::time::Instant, result: &MatchResult| {
        let now = std::time::Instant::now();
        assert_eq!(result.reason, EndReason::Aborted, "{result:?}");
        assert!(
            now + early >= deadline,
            "aborted {:?} early",
            deadline - now
        );
        assert!(now <= deadline + late, "aborted {:?} late", now - deadline);
    };

    // White's wait starts with Black's join, and a snapshot made later tells what is left.
    let mut white = server.client("Wim").await;
    let seat = white.create(None, ColorChoice::White, false).await;
    let mut black = server.client("Baukje").await;
    black.join_code(&seat.invite_code).await;
    let joined = white.event_until(first_move_in).await;
    let deadline = std::time::Instant::now() + timeout;
    assert_eq!(joined, Some(timeout.as_millis() as u64));
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mut watcher = server.client("Sjoerd").await;
    let left = watcher
        .watch(&seat.match_id)
        .await
        .first_move_in_ms
        .expect("white owes its first move");
    let told = std::time::Instant::now() + Duration::from_millis(left);
    assert!(
        left < 1_100 && told + early >= deadline && told <= deadline + late,
        "{left} ms left"
    );
    aborted_within(told, &white.ended().await);

    // Black's wait starts with White's first move.
    let (mut white, ws, mut black, _bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    let after_white = black.event_until(first_move_in).await;
    let deadline = std::time::Instant::now() + timeout;
    assert_eq!(after_white, Some(timeout.as_millis() as u64));
    aborted_within(deadline, &black.ended().await);

    // Once both moved, nothing is owed.
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    white.play(&ws, &[32, 28]).await;
    black.play(&bs, &[19, 23]).await;
    let mut watcher = server.client("Sjoerd").await;
    let snapshot = watcher.watch(&ws.match_id).await;
    assert_eq!((snapshot.moves.len(), snapshot.first_move_in_ms), (2, None));
    let _ = white.event_until(first_move_in).await;
    assert_eq!(
        white.event_until(first_move_in).await,
        None,
        "Black's move starts no wait"
    );
}

#[tokio::test]
async fn seat_tokens_are_at_rest_only_as_hashes_and_seat_after_a_restart_on_sqlite() {
    let (dir, db) = temp_db();
    let files = [db.clone(), db.with_extension("db-wal")];
    seat_tokens_are_at_rest_only_as_hashes_and_seat_after_a_restart(
        || boardcast_server::Config::for_tests(db.clone()),
        async |token: &str| {
            files.iter().any(|file| {
                std::fs::read(file).is_ok_and(|bytes| {
                    bytes
                        .windows(token.len())
                        .any(|window| window == token.as_bytes())
                })
            })
        },
    )
    .await;
    drop(dir);
}
