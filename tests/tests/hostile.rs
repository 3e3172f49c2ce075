//! Hostile and mistaken input, each against its own server process: every case gets its typed
//! error or its documented close code, and afterwards the server still serves new connections
//! and a canary match played beside it is untouched.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_protocol::limits::close;
use boardcast_protocol::{
    ClientMessage, ColorChoice, Encoding, ErrorCode, JoinMatch, MatchPhase, Ping, PlayMove,
    ServerMessage, Target, Watch,
};
use boardcast_tests::TestServer;
use boardcast_tests::canary::{Canary, start_with_canary};
use boardcast_tests::client::{Client, ClientError, ConnectOptions, Pair, connect_ws};
use boardcast_tests::games::{RefGame, reference_games};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

fn game(id: &str) -> &'static RefGame {
    reference_games()
        .iter()
        .find(|game| game.id == id)
        .unwrap_or_else(|| panic!("no reference game {id}"))
}

/// A server for one test, with a canary match already under way.
async fn setup(args: &[&str]) -> (TestServer, Canary) {
    start_with_canary(server_program(), args).await
}

async fn json(addr: SocketAddr) -> Client {
    Client::connect(addr, Encoding::Json)
        .await
        .expect("connect")
}

async fn postcard(addr: SocketAddr) -> Client {
    Client::connect(addr, Encoding::Postcard)
        .await
        .expect("connect")
}

/// After a refusal the same connection still works.
async fn still_usable(client: &mut Client) {
    client
        .ping()
        .await
        .expect("the connection still works after the refusal");
}

/// Plays the first `plies` plies of `game` in a fresh match.
async fn pair_at(addr: SocketAddr, game: &RefGame, plies: usize) -> Pair {
    let mut pair = Pair::start(addr, Encoding::Json)
        .await
        .expect("seat a pair");
    for (ply, route) in game.routes[..plies].iter().enumerate() {
        pair.play(ply, route)
            .await
            .unwrap_or_else(|err| panic!("{} ply {ply}: {err}", game.id));
    }
    pair
}

fn move_msg(match_id: &str, token: &str, route: &[u8]) -> ClientMessage {
    ClientMessage::Move(PlayMove {
        match_id: match_id.into(),
        token: token.into(),
        route: route.to_vec(),
        lag_ms: None,
    })
}

/// Sends a move and expects the refusal `code`; returns the message.
async fn refused_move(
    client: &mut Client,
    match_id: &str,
    token: &str,
    route: &[u8],
    code: ErrorCode,
) -> String {
    let id = client
        .send(move_msg(match_id, token, route))
        .await
        .expect("send");
    client
        .expect_error(id, code)
        .await
        .unwrap_or_else(|err| panic!("move {route:?}: {err}"))
        .message
}

/// The match's moves as a fresh watcher sees them.
async fn routes_of(addr: SocketAddr, match_id: &str) -> Vec<Vec<u8>> {
    let mut watcher = json(addr).await;
    let snapshot = watcher.watch_match(match_id).await.expect("watch");
    snapshot.moves.into_iter().map(|m| m.route).collect()
}

// ---------------------------------------------------------------------------------------------
// Frames that are not protocol messages.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_frame_that_is_not_json_is_malformed() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    client
        .send_raw(Message::text("this is not JSON {"))
        .await
        .unwrap();
    let error = client
        .expect_frame_error(ErrorCode::Malformed)
        .await
        .unwrap();
    assert_eq!(error.id, None);
    still_usable(&mut client).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_of_the_wrong_shape_is_malformed() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    // The id is read first: a frame whose id is readable is refused under that id.
    for (text, id) in [
        (
            r#"{"id":1,"msg":{"move":{"match_id":5,"token":[],"route":"32-28"}}}"#,
            Some(1),
        ),
        (r#"{"id":"one","msg":"list_lobby"}"#, None),
        (r#"[1,2,3]"#, None),
        (r#"{"msg":"list_lobby"}"#, None),
    ] {
        client.send_raw(Message::text(text)).await.unwrap();
        let error = client
            .expect_frame_error(ErrorCode::Malformed)
            .await
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        assert_eq!(error.id, id, "{text}");
    }
    still_usable(&mut client).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_message_type_is_malformed() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    client
        .send_raw(Message::text(
            r#"{"id":1,"msg":{"castle":{"side":"king"}}}"#,
        ))
        .await
        .unwrap();
    let error = client
        .expect_frame_error(ErrorCode::Malformed)
        .await
        .unwrap();
    // Named as an unknown type, not as whatever serde happened to say.
    assert!(
        error.message.contains("unknown message type") && error.message.contains("castle"),
        "{error:?}"
    );
    // postcard: a variant index past the last client message.
    let mut pc = postcard(server.addr()).await;
    pc.send_raw(Message::binary(vec![0x01, 0x7f, 0x00]))
        .await
        .unwrap();
    let error = pc.expect_frame_error(ErrorCode::Malformed).await.unwrap();
    assert!(
        error.message.contains("unknown message type") && error.message.contains("#127"),
        "{error:?}"
    );
    still_usable(&mut client).await;
    still_usable(&mut pc).await;
    canary.check().await.expect("canary");
}

/// Every refusal names the envelope it answers, field-validation errors and unknown message
/// types included; only a frame whose id cannot be read at all is answered with `id` null.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_name_the_envelope_id_whenever_it_can_be_read() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    for (text, id, code, field) in [
        (
            r#"{"id":7,"msg":{"move":{"match_id":"m1","token":"t1","route":[32]}}}"#,
            7,
            ErrorCode::InvalidArgument,
            "route",
        ),
        (
            r#"{"id":8,"msg":{"start_engine_game":{"serial":"CH3SS5","white":"L4","black":"K7","ply_interval_ms":5,"reveal_from_ply":null}}}"#,
            8,
            ErrorCode::InvalidArgument,
            "ply_interval_ms",
        ),
        (
            r#"{"id":9,"msg":{"castle":{}}}"#,
            9,
            ErrorCode::Malformed,
            "castle",
        ),
        (
            r#"{"msg":{"castle":{}},"id":10}"#,
            10,
            ErrorCode::Malformed,
            "castle",
        ),
    ] {
        client.send_raw(Message::text(text)).await.unwrap();
        let error = client
            .expect_error(id, code)
            .await
            .unwrap_or_else(|err| panic!("{text}: {err}"));
        assert!(error.message.contains(field), "{text}: {error:?}");
    }
    let mut pc = postcard(server.addr()).await;
    let envelope = boardcast_protocol::ClientEnvelope {
        id: 300,
        msg: move_msg("m1", "t1", &[32, 99]),
    };
    let boardcast_protocol::Frame::Binary(bytes) = Encoding::Postcard.encode(&envelope) else {
        unreachable!("postcard encodes to binary")
    };
    pc.send_raw(Message::binary(bytes)).await.unwrap();
    let error = pc
        .expect_error(300, ErrorCode::InvalidArgument)
        .await
        .unwrap();
    assert!(error.message.contains("route"), "{error:?}");
    // id 301 (ad 02), then a variant index past the last client message.
    pc.send_raw(Message::binary(vec![0xad, 0x02, 0x7f]))
        .await
        .unwrap();
    pc.expect_error(301, ErrorCode::Malformed).await.unwrap();
    still_usable(&mut client).await;
    still_usable(&mut pc).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frame_that_is_not_postcard_is_malformed() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = postcard(server.addr()).await;
    // A valid envelope with trailing garbage, a truncated one, and pure noise.
    let boardcast_protocol::Frame::Binary(mut valid) =
        Encoding::Postcard.encode(&boardcast_protocol::ClientEnvelope {
            id: 1,
            msg: ClientMessage::Ping(Ping { nonce: 9 }),
        })
    else {
        unreachable!("postcard encodes to binary")
    };
    let truncated = valid[..valid.len() - 1].to_vec();
    valid.extend_from_slice(&[0xde, 0xad]);
    for bytes in [valid, truncated, vec![0xff; 40]] {
        client
            .send_raw(Message::binary(bytes.clone()))
            .await
            .unwrap();
        client
            .expect_frame_error(ErrorCode::Malformed)
            .await
            .unwrap_or_else(|err| panic!("{bytes:02x?}: {err}"));
    }
    // The wrong frame type for the connection's encoding is malformed too.
    client.send_raw(Message::text("{}")).await.unwrap();
    client
        .expect_frame_error(ErrorCode::Malformed)
        .await
        .unwrap();
    let mut text = json(server.addr()).await;
    text.send_raw(Message::binary(vec![1, 2, 3])).await.unwrap();
    text.expect_frame_error(ErrorCode::Malformed).await.unwrap();
    still_usable(&mut client).await;
    still_usable(&mut text).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frame_over_the_size_limit() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    let limit = client.welcome.limits.max_frame_bytes as usize;
    assert!(limit >= 1024, "limits: {:?}", client.welcome.limits);
    // Far over the limit. PROTOCOL §14 allows two answers: an `error` `too_large` with
    // `id` null (the connection stays usable), or closing the connection with 1009.
    let huge = format!(
        r#"{{"id":1,"msg":{{"hello":{{"protocol":1,"client":"{}","name":"x"}}}}}}"#,
        "a".repeat(limit * 4)
    );
    let _ = client.send_raw(Message::text(huge)).await;
    match client.recv(Duration::from_secs(5)).await {
        Err(ClientError::Closed(Some((code, _)))) => assert_eq!(code, close::TOO_BIG),
        Ok(ServerMessage::Error(error)) => {
            assert_eq!(error.code, ErrorCode::TooLarge, "{error:?}");
            assert_eq!(error.id, None);
            match client.expect_close(Duration::from_millis(500)).await {
                // Refused, then closed: the close must say why.
                Ok(code) => assert_eq!(code, Some(close::TOO_BIG)),
                // Refused and still open: it must still work.
                Err(ClientError::Timeout(_)) => still_usable(&mut client).await,
                Err(err) => panic!("{err}"),
            }
        }
        other => panic!("expected too_large or close 1009, got {other:?}"),
    }
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshake_with_an_unknown_subprotocol_is_refused() {
    let (server, mut canary) = setup(&[]).await;
    for offered in [Some("chat.v9"), Some("boardcast.v2.json"), None] {
        let mut stream = TcpStream::connect(server.addr()).await.unwrap();
        let protocol = offered
            .map(|p| format!("Sec-WebSocket-Protocol: {p}\r\n"))
            .unwrap_or_default();
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             {protocol}\r\n",
            server.addr()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut response = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), async {
            let mut buf = [0u8; 4096];
            loop {
                match stream.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => response.extend_from_slice(&buf[..n]),
                }
                if response.windows(4).any(|w| w == b"\r\n\r\n") {
                    // 101 then a close frame, or a complete refusal: read a little more.
                    if !response.starts_with(b"HTTP/1.1 101") {
                        break;
                    }
                    let head = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
                    if response.len() >= head + 4 + 4 {
                        break;
                    }
                }
            }
        })
        .await;
        let text = String::from_utf8_lossy(&response).to_string();
        if text.starts_with("HTTP/1.1 101") {
            // Accepted at the HTTP level: the socket must be closed at once with 1002.
            let head = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            let frame = &response[head..];
            assert!(
                frame.len() >= 4 && frame[0] & 0x0f == 0x8,
                "{offered:?}: expected a close frame after 101, got {frame:02x?}"
            );
            let code = u16::from_be_bytes([frame[2], frame[3]]);
            assert_eq!(code, close::PROTOCOL_ERROR, "{offered:?}");
            assert!(
                !text.to_ascii_lowercase().contains("sec-websocket-protocol"),
                "{offered:?}: the server claimed a subprotocol: {text}"
            );
        } else {
            assert!(
                text.starts_with("HTTP/1.1 400"),
                "{offered:?}: expected HTTP 400 or 101 + close 1002, got {text:?}"
            );
        }
    }
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_offered_subprotocol_the_server_speaks_is_chosen() {
    let (server, mut canary) = setup(&[]).await;
    let json = Encoding::Json.subprotocol();
    let postcard = Encoding::Postcard.subprotocol();
    for (offered, expected) in [
        (vec![postcard, json], postcard),
        (vec![json, postcard], json),
        (vec!["chat.v9", postcard, json], postcard),
    ] {
        let options = ConnectOptions {
            protocols: offered.iter().map(|p| p.to_string()).collect(),
            ..ConnectOptions::encoding(Encoding::Json)
        };
        let (_ws, chosen) = connect_ws(server.addr(), &options)
            .await
            .expect("handshake");
        assert_eq!(chosen.as_deref(), Some(expected), "offered {offered:?}");
    }
    canary.check().await.expect("canary");
}

// ---------------------------------------------------------------------------------------------
// Moves by the wrong people.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_before_joining() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    // A connection that holds no seat moves in a running match.
    let mut stranger = json(addr).await;
    let match_id = canary.pair.match_id().to_owned();
    let route = reference_games()[0].routes[canary.plies].clone();
    refused_move(
        &mut stranger,
        &match_id,
        "st.0123456789abcdef.0123456789abcdef",
        &route,
        ErrorCode::InvalidToken,
    )
    .await;
    // The creator of a match moves before anyone joined it.
    let mut creator = json(addr).await;
    let seat = creator
        .create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let message = refused_move(
        &mut creator,
        &seat.match_id,
        &seat.token,
        &[32, 28],
        ErrorCode::NotAllowed,
    )
    .await;
    assert!(!message.is_empty());
    assert!(routes_of(addr, &seat.match_id).await.is_empty());
    still_usable(&mut stranger).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_by_a_spectator() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let match_id = canary.pair.match_id().to_owned();
    let mut spectator = json(addr).await;
    spectator.watch_match(&match_id).await.unwrap();
    let route = reference_games()[0].routes[canary.plies].clone();
    for token in ["spectator", "st.ffffffffffffffff.ffffffffffffffff"] {
        refused_move(
            &mut spectator,
            &match_id,
            token,
            &route,
            ErrorCode::InvalidToken,
        )
        .await;
    }
    // Other commands of a seat are refused the same way.
    let id = spectator
        .send(ClientMessage::Resign(boardcast_protocol::SeatAction {
            match_id: match_id.clone(),
            token: "spectator".into(),
        }))
        .await
        .unwrap();
    spectator
        .expect_error(id, ErrorCode::InvalidToken)
        .await
        .unwrap();
    still_usable(&mut spectator).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_with_another_seats_token() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut other = Pair::start(addr, Encoding::Json).await.unwrap();
    let canary_id = canary.pair.match_id().to_owned();
    let other_id = other.match_id().to_owned();
    let route = reference_games()[0].routes[canary.plies].clone();
    // The other match's white token in the canary match, where it is White's turn.
    let token = other.white_seat.token.clone();
    refused_move(
        &mut other.white,
        &canary_id,
        &token,
        &route,
        ErrorCode::InvalidToken,
    )
    .await;
    // And the canary's token in the other match.
    let token = canary.pair.white_seat.token.clone();
    refused_move(
        &mut canary.pair.white,
        &other_id,
        &token,
        &[32, 28],
        ErrorCode::InvalidToken,
    )
    .await;
    assert!(routes_of(addr, &other_id).await.is_empty());
    other
        .play(0, &[32, 28])
        .await
        .expect("the other match plays on");
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_or_truncated_token() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Postcard).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let real = pair.white_seat.token.clone();
    let mut forged = real.clone().into_bytes();
    let last = forged.len() - 1;
    forged[last] = if forged[last] == b'0' { b'1' } else { b'0' };
    let forged = String::from_utf8(forged).unwrap();
    for token in [
        forged.as_str(),
        &real[..real.len() - 1],
        &real[..real.len() / 2],
        "st.not-a-token",
    ] {
        let message = refused_move(
            &mut pair.white,
            &match_id,
            token,
            &[32, 28],
            ErrorCode::InvalidToken,
        )
        .await;
        assert!(
            !message.contains(&real),
            "an error message leaked the real token: {message}"
        );
        let id = pair
            .white
            .send(ClientMessage::Resume(boardcast_protocol::Resume {
                token: token.into(),
                since_v: None,
            }))
            .await
            .unwrap();
        pair.white
            .expect_error(id, ErrorCode::InvalidToken)
            .await
            .unwrap();
    }
    assert!(routes_of(addr, &match_id).await.is_empty());
    pair.play(0, &[32, 28]).await.expect("the real token works");
    canary.check().await.expect("canary");
}

// ---------------------------------------------------------------------------------------------
// Moves against the rules.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_out_of_turn() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let token = pair.black_seat.token.clone();
    refused_move(
        &mut pair.black,
        &match_id,
        &token,
        &[19, 23],
        ErrorCode::NotYourTurn,
    )
    .await;
    pair.play(0, &[32, 28]).await.unwrap();
    let token = pair.white_seat.token.clone();
    refused_move(
        &mut pair.white,
        &match_id,
        &token,
        &[33, 29],
        ErrorCode::NotYourTurn,
    )
    .await;
    assert_eq!(routes_of(addr, &match_id).await, vec![vec![32, 28]]);
    pair.play(1, &[19, 23]).await.unwrap();
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_move() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let token = pair.white_seat.token.clone();
    for route in [
        vec![32, 23],     // two rows at once
        vec![36, 31],     // onto an own piece
        vec![28, 23],     // from an empty square
        vec![19, 23],     // an opponent's piece
        vec![32, 28, 23], // a "capture" that takes nothing
    ] {
        refused_move(
            &mut pair.white,
            &match_id,
            &token,
            &route,
            ErrorCode::IllegalMove,
        )
        .await;
    }
    // Out-of-range squares never reach the rules: the frame is refused as unreadable.
    pair.white
        .send(move_msg(&match_id, &token, &[32, 51]))
        .await
        .unwrap();
    pair.white
        .expect_frame_error(ErrorCode::InvalidArgument)
        .await
        .unwrap();
    assert!(routes_of(addr, &match_id).await.is_empty());
    pair.play(0, &[32, 28]).await.unwrap();
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_of_lower_value() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    // game-s1 after 19 plies: Black must play 12x34 (two men); 13x22 takes only one.
    let game = game("game-s1");
    let mut pair = pair_at(addr, game, 19).await;
    let match_id = pair.match_id().to_owned();
    let token = pair.black_seat.token.clone();
    let message = refused_move(
        &mut pair.black,
        &match_id,
        &token,
        &[13, 22],
        ErrorCode::IllegalMove,
    )
    .await;
    assert!(message.contains("higher value"), "{message}");
    assert_eq!(routes_of(addr, &match_id).await, game.routes[..19].to_vec());
    pair.play(19, &game.routes[19])
        .await
        .expect("the best capture");
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restricted_fourth_king_move() {
    // 81 plies replayed as fast as the acks come back (TCP_NODELAY: well over 20 a second
    // per player): this test is not about the message rate, which has its own.
    let (server, mut canary) = setup(&["--rate", "1000", "--burst", "1000"]).await;
    let addr = server.addr();
    // game-s28057 after 81 plies: Black's king on 22 has made three moves in a row and Black
    // still has men, so 22-18 (a fourth simple king move) is not allowed.
    let game = game("game-s28057");
    let mut pair = pair_at(addr, game, 81).await;
    let match_id = pair.match_id().to_owned();
    let mut watcher = json(addr).await;
    let snapshot = watcher.watch_match(&match_id).await.unwrap();
    assert_eq!(
        snapshot.king_counters.black,
        Some(boardcast_protocol::KingCounter {
            count: 3,
            square: 22
        })
    );
    assert!(snapshot.legal_moves.iter().all(|m| m.route[0] != 22));
    let token = pair.black_seat.token.clone();
    let message = refused_move(
        &mut pair.black,
        &match_id,
        &token,
        &[22, 18],
        ErrorCode::IllegalMove,
    )
    .await;
    assert!(message.contains("three"), "{message}");
    pair.play(81, &game.routes[81]).await.expect("a man move");
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_after_the_game_ended() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    pair.play(0, &[32, 28]).await.unwrap();
    let seat = pair.black_seat.clone();
    pair.black.resign(&seat).await.unwrap();
    let white_token = pair.white_seat.token.clone();
    let black_token = pair.black_seat.token.clone();
    refused_move(
        &mut pair.black,
        &match_id,
        &black_token,
        &[19, 23],
        ErrorCode::GameOver,
    )
    .await;
    refused_move(
        &mut pair.white,
        &match_id,
        &white_token,
        &[33, 29],
        ErrorCode::GameOver,
    )
    .await;
    let id = pair
        .black
        .send(ClientMessage::Resign(boardcast_protocol::SeatAction {
            match_id: match_id.clone(),
            token: black_token.clone(),
        }))
        .await
        .unwrap();
    pair.black
        .expect_error(id, ErrorCode::GameOver)
        .await
        .unwrap();
    let mut watcher = json(addr).await;
    let snapshot = watcher.watch_match(&match_id).await.unwrap();
    assert_eq!(snapshot.phase, MatchPhase::Finished);
    assert_eq!(snapshot.moves.len(), 1);
    let result = snapshot.result.expect("a result");
    assert_eq!(result.winner, Some(boardcast_protocol::Side::White));
    assert_eq!(result.reason, boardcast_protocol::EndReason::Resignation);
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_above_what_javascript_holds_are_refused_and_the_seat_still_moves() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let largest = boardcast_protocol::limits::MAX_CLIENT_NUMBER;
    for encoding in Encoding::ALL {
        let mut pair = Pair::start(addr, encoding).await.unwrap();
        let match_id = pair.match_id().to_owned();
        let token = pair.white_seat.token.clone();
        // 2^53 and 2^64 - 1 are refused by name, and the move is not carried out.
        for id in [largest + 1, u64::MAX] {
            pair.white
                .send_with_id(id, move_msg(&match_id, &token, &[32, 28]))
                .await
                .unwrap();
            let refused = pair
                .white
                .expect_error(id, ErrorCode::InvalidArgument)
                .await
                .unwrap();
            assert!(
                refused
                    .message
                    .contains("id: must be at most 9007199254740991"),
                "{refused:?}"
            );
        }
        // The seat can still move with ordinary ids afterwards: nothing was remembered.
        pair.play(0, &[32, 28]).await.unwrap();
        let nonce = pair
            .black
            .send(ClientMessage::Ping(Ping { nonce: largest + 1 }))
            .await
            .unwrap();
        pair.black
            .expect_error(nonce, ErrorCode::InvalidArgument)
            .await
            .unwrap();
        still_usable(&mut pair.black).await;
    }
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_ack_id_twice() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let token = pair.white_seat.token.clone();
    let id = pair.white.next_id();
    pair.white
        .send_with_id(id, move_msg(&match_id, &token, &[32, 28]))
        .await
        .unwrap();
    let first = pair.white.expect_ack(id).await.unwrap();
    assert!(!first.duplicate);
    // Re-sent unchanged, as after a reconnect: acknowledged as a duplicate, not applied.
    pair.white
        .send_with_id(id, move_msg(&match_id, &token, &[32, 28]))
        .await
        .unwrap();
    let again = pair.white.expect_ack(id).await.unwrap();
    assert!(again.duplicate, "{again:?}");
    pair.white.set_next_id(id + 1);
    pair.play(1, &[17, 21]).await.unwrap();
    // The same id from another connection of the seat, with another move: still not applied.
    let mut second = json(addr).await;
    second.resume(&token, None).await.unwrap();
    second
        .send_with_id(id, move_msg(&match_id, &token, &[33, 28]))
        .await
        .unwrap();
    let reply = second.expect_reply(id).await.unwrap();
    match reply {
        ServerMessage::Ack(ack) => assert!(ack.duplicate, "{ack:?}"),
        ServerMessage::Error(_) => {}
        other => panic!("unexpected reply {other:?}"),
    }
    assert_eq!(
        routes_of(addr, &match_id).await,
        vec![vec![32, 28], vec![17, 21]]
    );
    // The seat plays on with a new id.
    pair.white.set_next_id(id + 10);
    pair.play(2, &[34, 29]).await.unwrap();
    canary.check().await.expect("canary");
}

// ---------------------------------------------------------------------------------------------
// Seats and ids that do not exist.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joining_a_full_match() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut creator = json(addr).await;
    let seat = creator
        .create_match(ColorChoice::Random, true, None)
        .await
        .unwrap();
    let mut second = json(addr).await;
    let joined = second.join_match(&seat.match_id).await.unwrap();
    assert_eq!(joined.side, seat.side.opposite());
    let mut third = json(addr).await;
    for join in [
        JoinMatch::Id(seat.match_id.clone()),
        JoinMatch::Code(seat.invite_code.clone()),
    ] {
        let id = third.send(ClientMessage::JoinMatch(join)).await.unwrap();
        third.expect_error(id, ErrorCode::MatchFull).await.unwrap();
    }
    // The canary match is full too.
    let code = canary.pair.white_seat.invite_code.clone();
    let id = third
        .send(ClientMessage::JoinMatch(JoinMatch::Code(code)))
        .await
        .unwrap();
    third.expect_error(id, ErrorCode::MatchFull).await.unwrap();
    still_usable(&mut third).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_match_id() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let mut client = json(addr).await;
    let missing = "mNoSuchMatch";
    for msg in [
        ClientMessage::JoinMatch(JoinMatch::Id(missing.into())),
        ClientMessage::JoinMatch(JoinMatch::Code("ZZZZZZ".into())),
        ClientMessage::Watch(Watch {
            target: Target::Match(missing.into()),
            since_v: None,
        }),
        move_msg(missing, "st.0123456789abcdef.0123456789abcdef", &[32, 28]),
    ] {
        let id = client.send(msg.clone()).await.unwrap();
        let reply = client.expect_reply(id).await.unwrap();
        match reply {
            ServerMessage::Error(error)
                if error.code == ErrorCode::NotFound
                    || (matches!(msg, ClientMessage::Move(_))
                        && error.code == ErrorCode::InvalidToken) => {}
            other => panic!("{msg:?}: expected not_found, got {other:?}"),
        }
    }
    // A private match cannot be joined by its id, only by its code.
    let mut creator = json(addr).await;
    let seat = creator
        .create_match(ColorChoice::White, false, None)
        .await
        .unwrap();
    let id = client
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await
        .unwrap();
    client.expect_error(id, ErrorCode::NotFound).await.unwrap();
    still_usable(&mut client).await;
    canary.check().await.expect("canary");
}

// ---------------------------------------------------------------------------------------------
// Too much, too many, too slow.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn message_flood_over_the_rate_limit() {
    let (server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    // Just over the burst, sent at once: exactly one rate_limited, then close 1008.
    let mut flood = json(addr).await;
    let limits = flood.welcome.limits;
    let burst = u64::from(limits.message_burst);
    let mut frames = Vec::new();
    // A few over the burst: the bucket may refill a token while the server reads them.
    for nonce in 0..burst + 3 {
        let envelope = boardcast_protocol::ClientEnvelope {
            id: nonce + 1,
            msg: ClientMessage::Ping(Ping { nonce }),
        };
        let boardcast_protocol::Frame::Text(text) = Encoding::Json.encode(&envelope) else {
            unreachable!("JSON encodes to text")
        };
        frames.push(Ok(Message::text(text)));
    }
    {
        use futures_util::SinkExt;
        let mut stream = futures_util::stream::iter(frames);
        flood
            .ws()
            .send_all(&mut stream)
            .await
            .expect("send the burst");
    }
    let code = flood
        .expect_close(Duration::from_secs(5))
        .await
        .expect("closed");
    assert_eq!(code, Some(close::POLICY));
    let refused: Vec<_> = flood
        .backlog()
        .iter()
        .filter(|m| matches!(m, ServerMessage::Error(e) if e.code == ErrorCode::RateLimited))
        .collect();
    assert_eq!(refused.len(), 1, "one rate_limited error before the close");
    let pongs = flood
        .backlog()
        .iter()
        .filter(|m| matches!(m, ServerMessage::Pong(_)))
        .count() as u64;
    assert!(
        (burst..burst + 3).contains(&pongs),
        "{pongs} pongs for {} pings",
        burst + 3
    );
    canary.check().await.expect("canary");

    // A real flood, thousands of messages as fast as the socket takes them: the server ends
    // the connection quickly and everyone else carries on.
    let mut flood = postcard(addr).await;
    let started = Instant::now();
    for nonce in 0..5_000u64 {
        let envelope = boardcast_protocol::ClientEnvelope {
            id: nonce + 1,
            msg: ClientMessage::Ping(Ping { nonce }),
        };
        if flood.send_envelope(&envelope).await.is_err() {
            break;
        }
    }
    match flood.expect_close(Duration::from_secs(5)).await {
        // The server may have reset the socket with the flood still unread.
        Ok(Some(close::POLICY)) | Ok(None) => {}
        other => panic!("the flooding connection was not closed: {other:?}"),
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_thousand_connections_opened_and_dropped() {
    let (mut server, mut canary) = setup(&[]).await;
    let addr = server.addr();
    let pid = server.process.child.id();
    let fds_before = open_fds(pid);
    let started = Instant::now();
    let semaphore = std::sync::Arc::new(tokio::sync::Semaphore::new(200));
    let mut tasks = tokio::task::JoinSet::new();
    for n in 0..10_000u32 {
        let permit = semaphore.clone().acquire_owned().await.unwrap();
        tasks.spawn(async move {
            let _permit = permit;
            let encoding = if n % 2 == 0 {
                Encoding::Json
            } else {
                Encoding::Postcard
            };
            let mut client = Client::connect(addr, encoding).await?;
            match n % 4 {
                // Drop the socket without a close handshake.
                0 | 1 => drop(client),
                // Close politely.
                2 => client.close().await,
                // Ask something, then vanish.
                _ => {
                    client.ping().await?;
                    drop(client);
                }
            }
            Ok::<(), ClientError>(())
        });
        while let Some(done) = tasks.try_join_next() {
            done.unwrap().expect("a connection in the storm");
        }
    }
    while let Some(done) = tasks.join_next().await {
        done.unwrap().expect("a connection in the storm");
    }
    eprintln!("10000 connections in {:?}", started.elapsed());
    canary.check().await.expect("canary");
    // No descriptor leaked: once the server has noticed every goodbye, it holds about as many
    // sockets as before the storm.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (before, now) = (fds_before, open_fds(pid));
        if now <= before + 20 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the server holds {now} descriptors after the storm, {before} before"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(server.process.is_running());
    // Nothing leaked: as many simultaneous connections as before still fit.
    let mut held = Vec::new();
    for _ in 0..200 {
        held.push(json(addr).await);
    }
    for client in &mut held {
        still_usable(client).await;
    }
}

/// How many file descriptors process `pid` has open (0 where /proc does not exist).
fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|dir| dir.count())
        .unwrap_or(0)
}

/// Reads raw bytes of a WebSocket connection until the server ends it; returns the close code
/// if a close frame came (server frames are unmasked).
async fn drain_raw(
    stream: &mut (impl tokio::io::AsyncRead + Unpin),
    within: Duration,
) -> Result<Option<u16>, String> {
    let mut data = Vec::new();
    let read = tokio::time::timeout(within, async {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => data.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    if read.is_err() {
        return Err(format!(
            "the server did not end the connection within {within:?} ({} bytes read)",
            data.len()
        ));
    }
    let mut at = 0;
    let mut code = None;
    while at + 2 <= data.len() {
        let opcode = data[at] & 0x0f;
        let mut len = (data[at + 1] & 0x7f) as usize;
        let mut head = 2;
        if len == 126 {
            len = u16::from_be_bytes([data[at + 2], data[at + 3]]) as usize;
            head = 4;
        } else if len == 127 {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(&data[at + 2..at + 10]);
            len = u64::from_be_bytes(bytes) as usize;
            head = 10;
        }
        if opcode == 0x8 && len >= 2 && at + head + 2 <= data.len() {
            code = Some(u16::from_be_bytes([data[at + head], data[at + head + 1]]));
        }
        at += head + len;
    }
    Ok(code)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_connection_that_sends_nothing() {
    let (server, mut canary) =
        setup(&["--idle-timeout", "1500ms", "--ping-interval", "250ms"]).await;
    let addr = server.addr();
    // A WebSocket client that goes silent: it never answers pings and sends nothing.
    let silent = json(addr).await;
    assert_eq!(silent.welcome.limits.idle_timeout_ms, 1500);
    let mut stream = silent.into_ws().into_inner();
    // Plain TCP connections that never even send a handshake.
    let mut mute = Vec::new();
    for _ in 0..50 {
        mute.push(TcpStream::connect(addr).await.unwrap());
    }
    // Meanwhile the canary keeps talking (its clients answer pings as they read).
    let started = Instant::now();
    let drain = tokio::spawn(async move { drain_raw(&mut stream, Duration::from_secs(8)).await });
    while !drain.is_finished() {
        canary
            .check()
            .await
            .expect("canary while the silent ones sit");
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let code = drain
        .await
        .unwrap()
        .expect("the silent connection is closed");
    assert_eq!(code, Some(close::IDLE));
    assert!(
        started.elapsed() >= Duration::from_millis(1000),
        "closed too early: {:?}",
        started.elapsed()
    );
    canary.check().await.expect("canary");
    drop(mute);
}
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_utf8_in_a_text_frame_closes_1007() {
    let (server, mut canary) = setup(&[]).await;
    let mut client = json(server.addr()).await;
    let frame = Frame::message(vec![b'{', 0xff, 0xfe, b'}'], OpCode::Data(Data::Text), true);
    client.send_raw(Message::Frame(frame)).await.expect("send");
    let code = client
        .expect_close(Duration::from_secs(5))
        .await
        .expect("closed");
    assert_eq!(code, Some(close::INVALID_DATA));
    canary.check().await.expect("canary");
}

/// One client frame as raw bytes: `head` is the first byte (FIN, reserved bits, opcode), the
/// payload is masked with the all-zero key (so it goes out as it is).
fn masked_frame(head: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![head];
    match payload.len() {
        len @ 0..=125 => frame.push(0x80 | len as u8),
        len => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(len as u16).to_be_bytes());
        }
    }
    frame.extend_from_slice(&[0, 0, 0, 0]);
    frame.extend_from_slice(payload);
    frame
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_protocol_errors_close_1002() {
    let (server, mut canary) = setup(&[]).await;
    let cases = [
        ("a reserved data opcode", masked_frame(0x83, b"x")),
        ("a reserved control opcode", masked_frame(0x8b, b"")),
        ("a ping over 125 bytes", masked_frame(0x89, &[7; 200])),
        ("a continuation of nothing", masked_frame(0x80, b"x")),
        ("a fragmented ping", masked_frame(0x09, b"x")),
    ];
    for (what, frame) in cases {
        let client = json(server.addr()).await;
        let mut stream = client.into_ws().into_inner();
        stream.write_all(&frame).await.unwrap();
        let code = drain_raw(&mut stream, Duration::from_secs(5))
            .await
            .unwrap_or_else(|err| panic!("{what}: {err}"));
        assert_eq!(code, Some(close::PROTOCOL_ERROR), "{what}");
        canary.check().await.expect("canary");
    }
}

/// A watcher that stops reading while channels stream to it: once its outbox overflows it is
/// dropped with 1008, and `/metrics` counts it. The close frame waits behind what the socket
/// already holds, so the client sees it when it reads again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_that_never_reads_is_closed_1008_and_counted() {
    let (server, mut canary) = setup(&[
        "--outbox",
        "16",
        "--channels",
        "8",
        "--ply-interval",
        "100ms",
        "--game-pause",
        "200ms",
        "--idle-timeout",
        "120s",
    ])
    .await;
    let addr = server.addr();
    let dropped = || async move {
        let (_, page) = tokio::task::spawn_blocking(move || {
            boardcast_tests::http_get(addr, "/metrics").expect("metrics")
        })
        .await
        .unwrap();
        page.lines()
            .find_map(|line| line.strip_prefix("boardcast_slow_clients_dropped_total "))
            .map_or(0.0, |value| value.trim().parse::<f64>().unwrap())
    };
    assert_eq!(dropped().await, 0.0);
    let options = ConnectOptions {
        recv_buffer: Some(2048),
        ..ConnectOptions::encoding(Encoding::Json)
    };
    let mut stuck = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    for n in 1..=8 {
        stuck
            .send(ClientMessage::Watch(Watch {
                target: Target::Channel(format!("tv{n}")),
                since_v: None,
            }))
            .await
            .unwrap();
    }
    let mut stream = stuck.into_ws().into_inner();
    let started = Instant::now();
    while dropped().await < 1.0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "a watcher that read nothing for a minute was not counted as dropped"
        );
        canary.keep_alive().await.expect("canary connections");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let code = drain_raw(&mut stream, Duration::from_secs(15))
        .await
        .expect("the slow watcher's connection ends");
    assert_eq!(code, Some(close::POLICY));
    assert_eq!(dropped().await, 1.0);
    canary.keep_alive().await.expect("canary connections");
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tcp_connection_that_never_sends_a_request_is_closed() {
    let (server, mut canary) = setup(&["--idle-timeout", "2s", "--ping-interval", "500ms"]).await;
    let addr = server.addr();
    let mut silent = TcpStream::connect(addr).await.unwrap();
    let mut partial = TcpStream::connect(addr).await.unwrap();
    partial
        .write_all(b"GET /ws HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    for stream in [&mut silent, &mut partial] {
        let started = Instant::now();
        let mut buf = [0u8; 1024];
        let ended = loop {
            canary.keep_alive().await.expect("canary");
            match tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break true,
                Ok(Ok(_)) => {} // e.g. a 408 response; the close follows
                Err(_) if started.elapsed() > Duration::from_secs(15) => break false,
                Err(_) => {}
            }
        };
        assert!(
            ended,
            "the server still holds a connection that sent no complete request"
        );
    }
    canary.check().await.expect("canary");
}

// ---------------------------------------------------------------------------------------------
// Takeback spam (issue 32).

/// Sends `count` copies of `msg` at once as envelopes with fresh ids; the replies, in order.
async fn burst_of(client: &mut Client, msg: &ClientMessage, count: u64) -> Vec<ServerMessage> {
    use futures_util::SinkExt;
    let first = client.next_id();
    let frames: Vec<_> = (first..first + count)
        .map(|id| {
            let envelope = boardcast_protocol::ClientEnvelope {
                id,
                msg: msg.clone(),
            };
            let boardcast_protocol::Frame::Text(text) = Encoding::Json.encode(&envelope) else {
                unreachable!("JSON encodes to text")
            };
            Ok(Message::text(text))
        })
        .collect();
    client.set_next_id(first + count);
    client
        .ws()
        .send_all(&mut futures_util::stream::iter(frames))
        .await
        .expect("send the burst");
    let mut replies = Vec::new();
    for id in first..first + count {
        replies.push(
            client
                .expect_reply(id)
                .await
                .expect("every proposal is answered"),
        );
    }
    replies
}

/// Hundreds of takeback proposals from one seat, under a message rate limit raised so they
/// reach the match: after the first (declined), each is refused `rate_limited` with its
/// reason and the seconds left (or `busy` when more come at once than the match's bounded
/// mailbox holds), the connection stays open, the opponent and a watcher hear nothing of
/// them, the match's version does not move, and the match and the canary play on. Answers
/// to no proposal are refused alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_spam_is_refused_and_reaches_nobody() {
    let (server, mut canary) = setup(&["--rate", "5000", "--burst", "2000"]).await;
    let addr = server.addr();
    let game = &reference_games()[1];
    let mut pair = pair_at(addr, game, 1).await;
    let match_id = pair.match_id().to_owned();
    let mut watcher = json(addr).await;
    watcher.watch_match(&match_id).await.expect("watch");
    let white = boardcast_protocol::SeatAction {
        match_id: match_id.clone(),
        token: pair.white_seat.token.clone(),
    };
    let black = boardcast_protocol::SeatAction {
        match_id: match_id.clone(),
        token: pair.black_seat.token.clone(),
    };
    let takeback_event = |m: &ServerMessage| match m {
        ServerMessage::MatchEvent(e) => match &e.event {
            boardcast_protocol::MatchEvent::TakebackProposed(_)
            | boardcast_protocol::MatchEvent::TakebackDeclined(_) => Some(e.event.clone()),
            _ => None,
        },
        _ => None,
    };
    pair.white
        .call(ClientMessage::ProposeTakeback(white.clone()))
        .await
        .expect("the first proposal");
    pair.black
        .call(ClientMessage::DeclineTakeback(black.clone()))
        .await
        .expect("declined");
    // Each hears the proposal and the answer once.
    for client in [&mut pair.white, &mut pair.black, &mut watcher] {
        for _ in 0..2 {
            client
                .wait_for("takeback events", takeback_event)
                .await
                .unwrap();
        }
    }
    let v = routes_v(addr, &match_id).await;

    // Bursts of 50, under the match's mailbox of 64 commands: each reaches the match.
    let mut refused = 0;
    for _ in 0..6 {
        let replies = burst_of(
            &mut pair.white,
            &ClientMessage::ProposeTakeback(white.clone()),
            50,
        )
        .await;
        for reply in replies {
            let ServerMessage::Error(error) = &reply else {
                panic!("a proposal within 10 s of the last was not refused: {reply:?}");
            };
            let args = error
                .args
                .as_deref()
                .unwrap_or_else(|| panic!("a refusal without args: {error:?}"));
            assert_eq!(
                (error.code, args.reason.as_str()),
                (ErrorCode::RateLimited, "takeback_too_soon"),
                "{error:?}"
            );
            assert!(
                (1..=10).contains(&args.numbers["retry_after_s"]),
                "{error:?}"
            );
            refused += 1;
        }
    }
    assert_eq!(refused, 300);
    // 200 at once: what the mailbox cannot hold is refused busy before the match sees it.
    let replies = burst_of(
        &mut pair.white,
        &ClientMessage::ProposeTakeback(white.clone()),
        200,
    )
    .await;
    for reply in &replies {
        assert!(
            matches!(reply, ServerMessage::Error(e) if e.code == ErrorCode::Busy
                || e.args.as_deref().is_some_and(|a| a.reason == "takeback_too_soon")),
            "{reply:?}"
        );
    }
    // Answers to a proposal nobody made.
    let replies = burst_of(
        &mut pair.black,
        &ClientMessage::AcceptTakeback(black.clone()),
        50,
    )
    .await;
    for reply in replies {
        assert!(
            matches!(&reply, ServerMessage::Error(e) if e.code == ErrorCode::NotAllowed
                && e.args.as_deref().is_some_and(|a| a.reason == "no_takeback_proposal")),
            "{reply:?}"
        );
    }
    // Both connections are open; nobody heard of a proposal again.
    for client in [&mut pair.white, &mut pair.black, &mut watcher] {
        still_usable(client).await;
        let heard: Vec<_> = client.backlog().iter().filter_map(takeback_event).collect();
        assert!(
            heard.is_empty(),
            "refused proposals reached someone: {heard:?}"
        );
    }
    assert_eq!(routes_v(addr, &match_id).await, v, "nothing changed");
    // The match plays on, and so does the canary.
    pair.play(1, &game.routes[1]).await.expect("Black moves");
    canary.check().await.expect("canary");
}

/// A match's version and moves as a fresh watcher sees them.
async fn routes_v(addr: SocketAddr, match_id: &str) -> (u64, Vec<Vec<u8>>) {
    let mut watcher = json(addr).await;
    let snapshot = watcher.watch_match(match_id).await.expect("watch");
    assert_eq!(snapshot.takeback_offer, None);
    (
        snapshot.v,
        snapshot.moves.into_iter().map(|m| m.route).collect(),
    )
}
