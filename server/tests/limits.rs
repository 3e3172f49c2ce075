//! Connection limits and encodings: subprotocols, frame size, message rate, connection count,
//! a client that does not read, idle timeout.

mod common;

use std::time::Duration;

use boardcast_protocol::limits::close;
use boardcast_protocol::*;
use boardcast_server::Config;
use common::*;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn a_connection_without_a_known_subprotocol_is_closed_with_1002() {
    let server = TestServer::start().await;
    let ws = open_socket(server.addr, None).await;
    let mut client = raw(ws);
    assert_eq!(client.expect_close().await, close::PROTOCOL_ERROR);
    server.stop().await;
}

/// A client that skips the handshake messages; only used to read closes.
fn raw(ws: Ws) -> Client {
    Client::from_socket(ws, Encoding::Json)
}

#[tokio::test]
async fn postcard_clients_play_with_json_clients() {
    let server = TestServer::start().await;
    let mut white = Client::connect(server.addr, Encoding::Postcard, "Wim").await;
    assert_eq!(white.welcome().limits.max_frame_bytes, 8192);
    let ws = white.create(None, ColorChoice::White, false).await;
    let mut black = server.client("Baukje").await;
    let bs = black.join_code(&ws.invite_code).await;
    white.play(&ws, &[32, 28]).await;
    let m = black
        .event_until(|e| match e {
            MatchEvent::Moved(m) => Some(m.clone()),
            _ => None,
        })
        .await;
    assert_eq!(m.played.notation, "32-28");
    black.play(&bs, &[19, 23]).await;
    server.stop().await;
}

#[tokio::test]
async fn an_oversized_frame_is_refused_and_a_huge_one_closes_with_1009() {
    let server = TestServer::start().await;
    let mut client = server.client("Big").await;
    let padding = "x".repeat(9000);
    client
        .ws()
        .send(Message::text(format!(
            "{{\"id\":9,\"msg\":{{\"ping\":{{\"nonce\":1}}}},\"pad\":\"{padding}\"}}"
        )))
        .await
        .unwrap();
    let err = client
        .recv_until(|m| match m {
            ServerMessage::Error(e) => Some(e.clone()),
            _ => None,
        })
        .await;
    assert_eq!((err.id, err.code), (None, ErrorCode::TooLarge));
    // Still open.
    client.send(ClientMessage::Ping(Ping { nonce: 5 })).await;
    client
        .recv_until(|m| matches!(m, ServerMessage::Pong(Pong { nonce: 5 })).then_some(()))
        .await;
    let _ = client.ws().send(Message::text("y".repeat(40_000))).await;
    assert_eq!(client.expect_close().await, close::TOO_BIG);
    server.stop().await;
}

/// The server reads into a buffer of a few hundred bytes (small for idle connections), so a
/// frame many times that size, and several frames in one TCP write, must still arrive whole.
#[tokio::test]
async fn frames_longer_than_the_read_buffer_arrive_whole() {
    let server = TestServer::start().await;
    let mut client = server.client("Long").await;
    // JSON allows whitespace: a valid ping of about 7 KB, under the 8 KiB frame limit.
    let spaces = " ".repeat(7000);
    client
        .ws()
        .send(Message::text(format!(
            "{{\"id\":9,{spaces}\"msg\":{{\"ping\":{{\"nonce\":41}}}}}}"
        )))
        .await
        .unwrap();
    for nonce in 42..50 {
        client
            .ws()
            .feed(Message::text(format!(
                "{{\"id\":{nonce},\"msg\":{{\"ping\":{{\"nonce\":{nonce}}}}}}}"
            )))
            .await
            .unwrap();
    }
    client.ws().flush().await.unwrap();
    for nonce in 41..50 {
        client
            .recv_until(|m| {
                matches!(m, ServerMessage::Pong(Pong { nonce: n }) if *n == nonce).then_some(())
            })
            .await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_client_over_the_message_rate_is_closed_with_1008() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.rate = 5;
    config.burst = 10;
    let server = TestServer::start_with(config).await;
    let mut client = server.client("Chatty").await;
    for nonce in 0..30 {
        if client
            .ws()
            .send(Message::text(format!(
                "{{\"id\":{},\"msg\":{{\"ping\":{{\"nonce\":{nonce}}}}}}}",
                nonce + 10
            )))
            .await
            .is_err()
        {
            break;
        }
    }
    let err = client
        .recv_until(|m| match m {
            ServerMessage::Error(e) => Some(e.clone()),
            _ => None,
        })
        .await;
    assert_eq!(err.code, ErrorCode::RateLimited);
    assert_eq!(client.expect_close().await, close::POLICY);
    // Others are unaffected.
    let mut other = server.client("Calm").await;
    other.send(ClientMessage::Ping(Ping { nonce: 1 })).await;
    other
        .recv_until(|m| matches!(m, ServerMessage::Pong(_)).then_some(()))
        .await;
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn connections_beyond_the_limit_are_closed_with_1013() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.max_connections = 2;
    let server = TestServer::start_with(config).await;
    let first = server.client("One").await;
    let _second = server.client("Two").await;
    let mut third = raw(open_socket(server.addr, Some(Encoding::JSON_SUBPROTOCOL)).await);
    assert_eq!(third.expect_close().await, close::TRY_AGAIN_LATER);
    // A slot frees up when a connection closes.
    drop(first);
    let mut ok = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let mut ws = open_socket(server.addr, Some(Encoding::JSON_SUBPROTOCOL)).await;
        if let Some(Ok(Message::Text(text))) = ws.next().await
            && text.contains("welcome")
        {
            ok = true;
            break;
        }
    }
    assert!(ok, "a freed slot is reusable");
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_connection_that_never_sends_a_request_holds_a_slot_until_the_handshake_timeout() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.max_connections = 1;
    config.handshake_timeout = Duration::from_millis(300);
    let server = TestServer::start_with(config).await;
    // A TCP connection that sends nothing takes the only slot…
    let mut silent = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut refused = raw(open_socket(server.addr, Some(Encoding::JSON_SUBPROTOCOL)).await);
    assert_eq!(refused.expect_close().await, close::TRY_AGAIN_LATER);
    // …until the server closes it for not sending a request head in time.
    let mut buf = [0u8; 256];
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        use tokio::io::AsyncReadExt;
        loop {
            match silent.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {} // a 408 response may come first
            }
        }
    })
    .await;
    assert!(closed.is_ok(), "the silent connection is closed");
    // Its slot (and the refused connection's place) are given back as their tasks end.
    let mut ok = false;
    for _ in 0..50 {
        let mut ws = open_socket(server.addr, Some(Encoding::JSON_SUBPROTOCOL)).await;
        if let Some(Ok(Message::Text(text))) = ws.next().await
            && text.contains("welcome")
        {
            ok = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ok, "the slot is free again");
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_silent_client_is_closed_after_the_idle_timeout() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    // The idle check runs at each ping tick; with the timeout shorter than the interval the
    // first tick closes the connection before any ping (which tungstenite would answer with
    // a pong on a socket the server already closed).
    config.idle_timeout = Duration::from_millis(200);
    config.ping_interval = Duration::from_millis(250);
    let server = TestServer::start_with(config).await;
    let ws = open_socket(server.addr, Some(Encoding::JSON_SUBPROTOCOL)).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    let mut client = raw(ws);
    assert_eq!(client.expect_close().await, close::IDLE);
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_client_that_does_not_read_is_dropped_without_slowing_others() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.outbox = 8;
    config.rate = 100_000;
    config.burst = 100_000;
    let server = TestServer::start_with(config).await;
    // Forty public seeks make every lobby reply a few kilobytes.
    let mut seeker = server.client("Seeker").await;
    for _ in 0..40 {
        seeker.create(None, ColorChoice::White, true).await;
    }
    let mut slow = server.client("Slow").await;
    // Ask for far more than the socket buffers hold, reading nothing.
    const ASKED: usize = 4000;
    for id in 0..ASKED as u64 {
        let request = Message::text(format!("{{\"id\":{},\"msg\":\"list_lobby\"}}", id + 10));
        if slow.ws().send(request).await.is_err() {
            break;
        }
    }
    // Meanwhile a normal client is served promptly.
    let mut fast = server.client("Fast").await;
    let started = std::time::Instant::now();
    fast.send(ClientMessage::Ping(Ping { nonce: 3 })).await;
    fast.recv_until(|m| matches!(m, ServerMessage::Pong(_)).then_some(()))
        .await;
    assert!(started.elapsed() < Duration::from_secs(1));
    // The slow client was cut off: it never gets all its answers.
    let mut lobbies = 0;
    while let Ok(Some(Ok(frame))) = tokio::time::timeout(WAIT, slow.ws().next()).await {
        match frame {
            Message::Text(text) if text.contains("\"lobby\"") => lobbies += 1,
            Message::Close(_) => break,
            _ => {}
        }
    }
    assert!(lobbies < ASKED, "all {lobbies} answers arrived");
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn matches_beyond_the_limit_are_refused_as_busy() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.max_matches = 2;
    let server = TestServer::start_with(config).await;
    let mut client = server.client("Many").await;
    client.create(None, ColorChoice::White, true).await;
    client.create(None, ColorChoice::White, true).await;
    let id = client
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: true,
            rated: false,
            rating_range: None,
        }))
        .await;
    let err = client.expect_error(id).await;
    assert_eq!(err.code, ErrorCode::Busy);
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn websocket_pings_count_against_the_message_rate() {
    let (dir, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.rate = 5;
    config.burst = 10;
    let server = TestServer::start_with(config).await;
    let mut client = server.client("Pinger").await;
    for _ in 0..30 {
        if client
            .ws()
            .send(Message::Ping(Default::default()))
            .await
            .is_err()
        {
            break;
        }
    }
    assert_eq!(client.expect_close().await, close::POLICY);
    server.stop().await;
    drop(dir);
}
