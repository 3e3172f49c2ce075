//! The `--plain` client against a scripted WebSocket server: the handshake and encoding, the
//! lines it prints, the seat store, and a dropped connection resumed with the stored token,
//! the last version and the unacknowledged move re-sent with its id.

mod common;

use std::time::Duration;

use boardcast_protocol::*;
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::http::HeaderValue;

use common::Plain;

type Socket = WebSocketStream<TcpStream>;

const START: &str = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0";

/// Accepts one connection, choosing the postcard subprotocol as the real server does.
async fn accept(listener: &TcpListener) -> Socket {
    let (stream, _) = tokio::time::timeout(Duration::from_secs(20), listener.accept())
        .await
        .expect("the client connects")
        .unwrap();
    // The handshake callback's error type is tungstenite's, large by its design.
    #[allow(clippy::result_large_err)]
    let callback = |request: &Request, mut response: Response| {
        let offered = request
            .headers()
            .get("Sec-WebSocket-Protocol")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(
            offered.contains(Encoding::POSTCARD_SUBPROTOCOL),
            "{offered}"
        );
        response.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static(Encoding::POSTCARD_SUBPROTOCOL),
        );
        Ok(response)
    };
    let mut socket = tokio_tungstenite::accept_hdr_async(stream, callback)
        .await
        .unwrap();
    send(
        &mut socket,
        ServerMessage::Welcome(Welcome {
            protocol: PROTOCOL_VERSION,
            server: "mock".into(),
            limits: Limits {
                max_frame_bytes: 8192,
                messages_per_second: 20,
                message_burst: 40,
                idle_timeout_ms: 60_000,
            },
            public_url: "http://127.0.0.1".into(),
            account: None,
        }),
    )
    .await;
    socket
}

async fn send(socket: &mut Socket, message: ServerMessage) {
    let Frame::Binary(bytes) = Encoding::Postcard.encode(&message) else {
        unreachable!("postcard is binary")
    };
    socket.send(Message::binary(bytes)).await.unwrap();
}

async fn receive(socket: &mut Socket) -> ClientEnvelope {
    // One deadline for the envelope: the client's pings in between must not keep it waiting.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        let message = tokio::time::timeout_at(deadline, socket.next())
            .await
            .expect("the client sends something")
            .expect("the connection is open")
            .unwrap();
        if let Message::Binary(bytes) = message {
            return Encoding::Postcard
                .decode_client(FrameRef::Binary(&bytes))
                .expect("the client sends valid postcard");
        }
    }
}

fn legal(moves: &[(&str, &[u8])]) -> Vec<LegalMove> {
    moves
        .iter()
        .map(|(notation, route)| LegalMove {
            notation: (*notation).into(),
            route: route.to_vec(),
            captures: Vec::new(),
        })
        .collect()
}

fn snapshot(v: u64, black: Option<&str>, legal_moves: Vec<LegalMove>) -> ServerMessage {
    ServerMessage::MatchSnapshot(MatchSnapshot {
        match_id: "m1".into(),
        v,
        white: Some(PlayerInfo {
            name: "alice".into(),
            connected: true,
            bot: false,
            account: false,
        }),
        black: black.map(|name| PlayerInfo {
            name: name.into(),
            connected: true,
            bot: false,
            account: false,
        }),
        time_control: Some("5+3".parse().unwrap()),
        public: false,
        phase: if black.is_some() {
            MatchPhase::Playing
        } else {
            MatchPhase::Waiting
        },
        start_fen: START.into(),
        fen: START.into(),
        moves: Vec::new(),
        turn: Side::White,
        clock: None,
        legal_moves,
        king_counters: KingCounters {
            white: None,
            black: None,
        },
        draw_offer: None,
        rematch_offer: None,
        absent: Vec::new(),
        result: None,
        rematch: None,
        first_move_in_ms: None,
        berserk: None,
        refuses_more_time: Default::default(),
        takeback_offer: None,
        takebacks: true,
        rated: false,
        event: None,
    })
}

fn seat(id: u64) -> ServerMessage {
    ServerMessage::Seat(Seat {
        id,
        match_id: "m1".into(),
        invite_code: "INV1".into(),
        side: Side::White,
        token: "tok-secret-1".into(),
    })
}

fn event(v: u64, event: MatchEvent) -> ServerMessage {
    ServerMessage::MatchEvent(MatchEventMsg {
        match_id: "m1".into(),
        v,
        event,
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn plain_client_plays_resumes_after_a_drop_and_keeps_its_token_private() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("ws://{}/ws", listener.local_addr().unwrap());
    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().to_str().unwrap().to_owned();
    let mut client = Plain::start(&[
        "--server",
        &url,
        "--name",
        "alice",
        "--data-dir",
        &data_dir,
        "play",
        "--time",
        "5+3",
        "--color",
        "white",
        "--private",
    ]);

    let mut socket = accept(&listener).await;
    let hello = receive(&mut socket).await;
    assert!(matches!(&hello.msg, ClientMessage::Hello(h) if h.name == "alice"));
    let create = receive(&mut socket).await;
    let ClientMessage::CreateMatch(request) = &create.msg else {
        panic!("expected create_match, got {create:?}")
    };
    assert_eq!(request.color, ColorChoice::White);
    assert!(!request.public);
    assert_eq!(request.time_control, Some("5+3".parse().unwrap()));
    send(&mut socket, seat(create.id)).await;
    send(&mut socket, snapshot(1, None, Vec::new())).await;
    assert_eq!(client.expect("seat"), "seat white m1 invite INV1");
    assert_eq!(
        client.expect("match"),
        "match m1 white alice black - waiting"
    );

    // Black joins; the creator asks for the playing snapshot to learn its legal moves.
    let joined = PlayerJoined {
        side: Side::Black,
        name: "bob".into(),
        bot: false,
        first_move_in_ms: None,
        account: false,
    };
    send(&mut socket, event(2, MatchEvent::PlayerJoined(joined))).await;
    let resume = receive(&mut socket).await;
    assert!(matches!(&resume.msg,
        ClientMessage::Resume(r) if r.token == "tok-secret-1" && r.since_v.is_none()));
    send(&mut socket, seat(resume.id)).await;
    let moves = legal(&[("32-28", &[32, 28]), ("31-27", &[31, 27])]);
    send(&mut socket, snapshot(2, Some("bob"), moves)).await;
    assert_eq!(client.expect("joined"), "joined black bob");
    assert_eq!(client.expect("turn"), "turn white");
    assert_eq!(client.expect("legal"), "legal 31-27 32-28");

    // The seat is on disk, for the user only.
    let store = data.path().join("seats.json");
    let stored = std::fs::read_to_string(&store).unwrap();
    assert!(stored.contains("tok-secret-1") && stored.contains("\"m1\""));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&store).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    // A move, then the connection drops before the ack.
    client.send("move 32-28");
    let played = receive(&mut socket).await;
    assert!(matches!(&played.msg,
        ClientMessage::Move(m) if m.route == [32, 28] && m.match_id == "m1"));
    drop(socket);
    client.expect("disconnected retry");

    let mut socket = accept(&listener).await;
    assert!(matches!(
        receive(&mut socket).await.msg,
        ClientMessage::Hello(_)
    ));
    let resume = receive(&mut socket).await;
    assert!(matches!(&resume.msg,
        ClientMessage::Resume(r) if r.token == "tok-secret-1" && r.since_v == Some(2)));
    let again = receive(&mut socket).await;
    assert_eq!(
        again, played,
        "the unacknowledged move is re-sent with its id"
    );
    client.expect("reconnected");
    send(&mut socket, seat(resume.id)).await;
    let moved = Moved {
        played: PlayedMove {
            ply: 0,
            side: Side::White,
            notation: "32-28".into(),
            route: vec![32, 28],
            captures: Vec::new(),
            promotes: false,
        },
        fen: "B:W28,31,33-50:B1-20:H0:F1:+0+0".into(),
        clock: None,
        legal_moves: legal(&[("19-23", &[19, 23])]),
        king_counters: KingCounters {
            white: None,
            black: None,
        },
        first_move_in_ms: None,
        lag_ms: None,
    };
    send(&mut socket, event(3, MatchEvent::Moved(moved))).await;
    send(
        &mut socket,
        ServerMessage::Ack(Ack {
            id: played.id,
            duplicate: true,
        }),
    )
    .await;
    assert_eq!(client.expect("move"), "move 1. 32-28");
    assert_eq!(client.expect("turn"), "turn black");

    // A move typed on the opponent's turn waits as a premove: nothing is sent.
    client.send("31-27");
    assert_eq!(client.expect("premove"), "premove set 31-27");
    // Refusals and unreadable frames are lines, and the client carries on.
    client.send("draw offer");
    let offer = receive(&mut socket).await;
    send(
        &mut socket,
        ServerMessage::Error(ErrorReply {
            id: Some(offer.id),
            code: ErrorCode::NotAllowed,
            message: "a draw offer waits for a move of your own".into(),
            last_id: None,
            args: None,
        }),
    )
    .await;
    assert_eq!(
        client.expect("error"),
        "error not_allowed: a draw offer waits for a move of your own"
    );
    socket
        .send(Message::binary(vec![250u8, 1, 2, 3]))
        .await
        .unwrap();
    assert!(
        client
            .expect("info")
            .starts_with("info ignored a message this client cannot read: ")
    );
    client.send("board");
    assert_eq!(client.expect("board  1"), "board  1   b   b   b   b   b");

    let ended = MatchResult {
        winner: Some(Side::White),
        reason: EndReason::Resignation,
        detail: "black resigned".into(),
        rating_change: None,
    };
    send(&mut socket, event(4, MatchEvent::Ended(ended))).await;
    assert_eq!(client.expect("result"), "result white wins: black resigned");
    client.send("legal");
    assert_eq!(client.expect("legal"), "legal ");
    let seen = client.quit();
    assert!(
        seen.iter().all(|line| !line.contains("tok-secret-1")),
        "{seen:#?}"
    );
    let stored = std::fs::read_to_string(&store).unwrap();
    assert!(!stored.contains("\"m1\""), "a finished match is forgotten");
}
