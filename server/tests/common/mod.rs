//! Helpers for the integration tests: a server on port 0 with a temporary database, and a
//! WebSocket client that speaks the protocol.

#![allow(dead_code)]

pub mod cluster;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use boardcast_protocol::*;
use boardcast_server::{Config, Server};
use boardcast_server::{Player, Record, Setup};
use boardcast_server::{Storage, Write};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// How long any single expected message may take.
pub const WAIT: Duration = Duration::from_secs(5);

pub struct TestServer {
    pub server: Server,
    pub addr: SocketAddr,
    pub db: PathBuf,
    _dir: Option<tempfile::TempDir>,
}

/// A temporary directory and the database path inside it.
pub fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("boardcast.db");
    (dir, db)
}

impl TestServer {
    pub async fn start() -> TestServer {
        let (dir, db) = temp_db();
        let mut server = TestServer::start_with(Config::for_tests(db)).await;
        server._dir = Some(dir);
        server
    }

    pub async fn start_with(config: Config) -> TestServer {
        let db = config.db.clone();
        let server = Server::start(config).await.expect("server starts");
        let addr = server.local_addr();
        TestServer {
            server,
            addr,
            db,
            _dir: None,
        }
    }

    pub async fn client(&self, name: &str) -> Client {
        Client::connect(self.addr, Encoding::Json, name).await
    }

    /// Stops the server cleanly and hands back its temporary directory.
    pub async fn stop(self) -> Option<tempfile::TempDir> {
        self.server.shutdown().await.expect("clean shutdown");
        self._dir
    }
}

/// Stores a match that starts from `fen` with both seats taken (tokens `white_token` and
/// `black_token`), as an operator could; the server resumes it at start-up.
pub async fn seed_match(db: &Path, id: &str, fen: &str, white_token: &str, black_token: &str) {
    let setup = Setup {
        time_control: None,
        public: false,
        rematch_of: None,
        start_fen: Some(fen.to_owned()),
        rated: false,
        rating_range: None,
        berserk: false,
        event: None,
    };
    seed_match_with(db, id, setup, white_token, black_token).await;
}

/// Stores a match with `setup` (any time control, even one the lobby refuses) and both seats
/// taken, as an operator could; the server resumes it at start-up.
pub async fn seed_match_with(
    db: &Path,
    id: &str,
    setup: Setup,
    white_token: &str,
    black_token: &str,
) {
    let (storage, _) = Storage::open(&boardcast_server::Database::Sqlite(db.into()), None)
        .await
        .expect("open storage");
    let body = |record: Record| serde_json::to_string(&record).unwrap();
    storage
        .commit(vec![
            Write::CreateMatch {
                id: id.to_owned(),
                invite: Some(format!("INV{}", id.len())),
                created_ms: 0,
                setup: serde_json::to_string(&setup).unwrap(),
                owner: None,
            },
            Write::Event {
                match_id: id.to_owned(),
                v: 1,
                at_ms: 0,
                body: body(Record::joined(
                    Side::White,
                    &Player::person("Wim"),
                    white_token.to_owned(),
                )),
                epoch: 0,
            },
            Write::Event {
                match_id: id.to_owned(),
                v: 2,
                at_ms: 0,
                body: body(Record::joined(
                    Side::Black,
                    &Player::person("Baukje"),
                    black_token.to_owned(),
                )),
                epoch: 0,
            },
        ])
        .await
        .expect("seed");
    storage.close().await;
}

/// `GET path` over plain HTTP/1.1: the status code and body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut response))
        .await
        .expect("response in time")
        .unwrap();
    let status = response
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

pub use boardcast_testkit::client::Ws;

/// The one WebSocket test client ([`boardcast_testkit::client::Client`]) with the helpers these
/// tests use; every helper panics with what it waited for instead of returning an error.
pub struct Client {
    inner: boardcast_testkit::client::Client,
}

impl Client {
    /// Wraps an open socket; its `welcome` is read by the first [`Client::recv`].
    pub fn from_socket(ws: Ws, encoding: Encoding) -> Client {
        Client {
            inner: boardcast_testkit::client::Client::from_ws(ws, encoding),
        }
    }

    /// Connects, reads the welcome and says hello with `name`.
    pub async fn connect(addr: SocketAddr, encoding: Encoding, name: &str) -> Client {
        let mut inner = boardcast_testkit::client::Client::connect(addr, encoding)
            .await
            .expect("connect and read the welcome");
        inner.timeout = WAIT;
        inner.hello(name).await.expect("hello acknowledged");
        Client { inner }
    }

    /// The server's welcome (empty until read, for a client made with `from_socket`).
    pub fn welcome(&self) -> &Welcome {
        &self.inner.welcome
    }

    /// The raw WebSocket, for frames the protocol would not send.
    pub fn ws(&mut self) -> &mut Ws {
        self.inner.ws()
    }

    /// The next ack id; carry it over to a reconnected client (ids increase per seat).
    pub fn next_id(&self) -> u64 {
        self.inner.next_id()
    }

    pub fn set_next_id(&mut self, id: u64) {
        self.inner.set_next_id(id);
    }

    /// Sends `msg` with the next ack id; returns the id.
    pub async fn send(&mut self, msg: ClientMessage) -> u64 {
        self.inner.send(msg).await.expect("send")
    }

    pub async fn send_with_id(&mut self, id: u64, msg: ClientMessage) {
        self.inner.send_with_id(id, msg).await.expect("send");
    }

    /// The next protocol message (WebSocket pings and pongs are skipped).
    pub async fn recv(&mut self) -> ServerMessage {
        self.inner.recv(WAIT).await.expect("a message in time")
    }

    /// Reads until a message `pick` accepts, skipping crowd counts and other chatter.
    pub async fn recv_until<T>(&mut self, mut pick: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let message = self.recv().await;
            if let Some(found) = pick(&message) {
                return found;
            }
        }
    }

    /// Waits for the close frame and returns its code (1005 for a close frame without one).
    pub async fn expect_close(&mut self) -> u16 {
        use boardcast_testkit::client::Incoming;
        loop {
            match self.inner.read_socket(WAIT).await.expect("close in time") {
                Incoming::Closed(Some((code, _))) => return code,
                Incoming::Closed(None) => panic!("closed without a close frame"),
                Incoming::Message(_) => continue,
            }
        }
    }

    pub async fn expect_ack(&mut self, id: u64) -> Ack {
        self.recv_until(|m| match m {
            ServerMessage::Ack(ack) if ack.id == id => Some(Ok(*ack)),
            ServerMessage::Error(err) if err.id == Some(id) => Some(Err(err.clone())),
            _ => None,
        })
        .await
        .unwrap_or_else(|err| panic!("expected ack {id}, got {err:?}"))
    }

    pub async fn expect_error(&mut self, id: u64) -> ErrorReply {
        self.recv_until(|m| match m {
            ServerMessage::Ack(ack) if ack.id == id => Some(Err(*ack)),
            ServerMessage::Error(err) if err.id == Some(id) => Some(Ok(err.clone())),
            _ => None,
        })
        .await
        .unwrap_or_else(|ack| panic!("expected an error for {id}, got {ack:?}"))
    }

    pub async fn expect_seat(&mut self, id: u64) -> Seat {
        self.recv_until(|m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(Ok(seat.clone())),
            ServerMessage::Error(err) if err.id == Some(id) => Some(Err(err.clone())),
            _ => None,
        })
        .await
        .unwrap_or_else(|err| panic!("expected a seat for {id}, got {err:?}"))
    }

    pub async fn expect_snapshot(&mut self) -> MatchSnapshot {
        self.recv_until(|m| match m {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
    }

    /// The next match event.
    pub async fn expect_event(&mut self) -> MatchEventMsg {
        self.recv_until(|m| match m {
            ServerMessage::MatchEvent(e) => Some(e.clone()),
            _ => None,
        })
        .await
    }

    /// Reads match events until `pick` accepts one.
    pub async fn event_until<T>(&mut self, mut pick: impl FnMut(&MatchEvent) -> Option<T>) -> T {
        loop {
            let event = self.expect_event().await;
            if let Some(found) = pick(&event.event) {
                return found;
            }
        }
    }

    pub async fn ended(&mut self) -> MatchResult {
        self.event_until(|e| match e {
            MatchEvent::Ended(result) => Some(result.clone()),
            _ => None,
        })
        .await
    }

    /// Creates a match and returns the seat (the snapshot that follows is consumed).
    pub async fn create(
        &mut self,
        time_control: Option<TimeControl>,
        color: ColorChoice,
        public: bool,
    ) -> Seat {
        let id = self
            .send(ClientMessage::CreateMatch(CreateMatch {
                time_control,
                color,
                public,
                rated: false,
                rating_range: None,
            }))
            .await;
        let seat = self.expect_seat(id).await;
        self.expect_snapshot().await;
        seat
    }

    /// Joins by invite code and returns the seat (the snapshot that follows is consumed).
    pub async fn join_code(&mut self, code: &str) -> Seat {
        let id = self
            .send(ClientMessage::JoinMatch(JoinMatch::Code(code.to_owned())))
            .await;
        let seat = self.expect_seat(id).await;
        self.expect_snapshot().await;
        seat
    }

    /// Sends `resume` for `token` and returns its ack id.
    pub async fn send_resume(&mut self, token: &str, since_v: Option<u64>) -> u64 {
        self.send(ClientMessage::Resume(Resume {
            token: token.to_owned(),
            since_v,
        }))
        .await
    }

    /// Watches a match from a snapshot; returns it.
    pub async fn watch(&mut self, match_id: &str) -> MatchSnapshot {
        let id = self
            .send(ClientMessage::Watch(Watch {
                target: Target::Match(match_id.to_owned()),
                since_v: None,
            }))
            .await;
        self.expect_ack(id).await;
        self.expect_snapshot().await
    }

    /// Sends a move and returns its ack id.
    pub async fn send_move(&mut self, seat: &Seat, route: &[u8]) -> u64 {
        self.send(ClientMessage::Move(PlayMove {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
            route: route.to_vec(),
            lag_ms: None,
        }))
        .await
    }

    /// Plays a move and waits for its ack.
    pub async fn play(&mut self, seat: &Seat, route: &[u8]) {
        let id = self.send_move(seat, route).await;
        self.expect_ack(id).await;
    }

    /// Sends a seat action (resign, draw offers, abort, rematch) and returns its ack id.
    pub async fn seat_action(
        &mut self,
        seat: &Seat,
        make: impl FnOnce(SeatAction) -> ClientMessage,
    ) -> u64 {
        self.send(make(SeatAction {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
        }))
        .await
    }
}

/// Opens a WebSocket to `/ws`, offering `subprotocol` if given.
pub async fn open_socket(addr: SocketAddr, subprotocol: Option<&str>) -> Ws {
    try_open_socket(addr, subprotocol)
        .await
        .expect("WebSocket handshake")
}

pub async fn try_open_socket(
    addr: SocketAddr,
    subprotocol: Option<&str>,
) -> Result<Ws, boardcast_testkit::client::ClientError> {
    let options = boardcast_testkit::client::ConnectOptions {
        protocols: subprotocol.map(|p| vec![p.to_owned()]).unwrap_or_default(),
        ..boardcast_testkit::client::ConnectOptions::encoding(Encoding::Json)
    };
    let (ws, _) = boardcast_testkit::client::connect_ws(addr, &options).await?;
    Ok(ws)
}

/// Two players in a fresh match (white created it, black joined by code).
pub async fn two_players(
    server: &TestServer,
    time_control: Option<TimeControl>,
) -> (Client, Seat, Client, Seat) {
    let mut white = server.client("Wim").await;
    let white_seat = white.create(time_control, ColorChoice::White, false).await;
    let mut black = server.client("Baukje").await;
    let black_seat = black.join_code(&white_seat.invite_code).await;
    assert_eq!(black_seat.side, Side::Black);
    // White learns that black joined.
    white
        .event_until(|e| matches!(e, MatchEvent::PlayerJoined(_)).then_some(()))
        .await;
    (white, white_seat, black, black_seat)
}

/// Routes of a game given in notation, from the initial position.
pub fn routes(moves: &[&str]) -> Vec<Vec<u8>> {
    let mut position = frisian::Position::start();
    moves
        .iter()
        .map(|text| {
            let mv = position.parse_move(text).expect("a legal move");
            position = position.play(mv).expect("plays");
            mv.route().iter().map(|sq| sq.number()).collect()
        })
        .collect()
}

/// A guest who was away when their rematch was agreed finds its seat after a restart (the
/// server started with `config()` both times, on the same database): White offers the
/// rematch and leaves, Black accepts, the server restarts, and White coming back to the old
/// match with its old token is handed the rematch's black seat, whose token plays.
pub async fn a_guest_away_at_the_rematch_finds_its_seat_after_a_restart(
    config: impl Fn() -> Config,
) {
    let server = TestServer::start_with(config()).await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
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
    assert_eq!(new_white.side, Side::White);
    drop(black);
    server.stop().await;

    let server = TestServer::start_with(config()).await;
    let mut white = server.client("Wim").await;
    let id = white.send_resume(&ws.token, None).await;
    assert_eq!(white.expect_seat(id).await.match_id, ws.match_id);
    let new_black = white.expect_seat(0).await;
    assert_eq!(
        (new_black.match_id.as_str(), new_black.side),
        (new_white.match_id.as_str(), Side::Black)
    );
    assert_ne!(new_black.token, new_white.token);
    // The handed seat is the rematch's: White (the old black) moves, and the guest answers
    // with the token it was handed.
    let mut black = server.client("Baukje").await;
    let id = black.send_resume(&new_white.token, None).await;
    black.expect_seat(id).await;
    black.play(&new_white, &[32, 28]).await;
    white.play(&new_black, &[19, 23]).await;
    server.stop().await;
}

/// Two guests seated in a match started with `config()`, White's first move played, the
/// server stopped: their seats, whose tokens `holds` (a scan of the whole database) must not
/// find; then, on a restart with `config()`, each takes its seat back with its token and
/// they play on.
pub async fn seat_tokens_are_at_rest_only_as_hashes_and_seat_after_a_restart(
    config: impl Fn() -> Config,
    holds: impl AsyncFn(&str) -> bool,
) {
    let server = TestServer::start_with(config()).await;
    let (mut white, ws, mut black, bs) = two_players(&server, None).await;
    let game = routes(&["32-28", "19-23"]);
    white.play(&ws, &game[0]).await;
    black
        .event_until(|e| matches!(e, MatchEvent::Moved(_)).then_some(()))
        .await;
    drop((white, black));
    server.stop().await;
    for token in [&ws.token, &bs.token] {
        assert!(!holds(token).await, "a seat token is at rest in plain text");
    }

    let server = TestServer::start_with(config()).await;
    let mut black = server.client("Baukje").await;
    let id = black.send_resume(&bs.token, None).await;
    assert_eq!(black.expect_seat(id).await.token, bs.token);
    let mut white = server.client("Wim").await;
    let id = white.send_resume(&ws.token, None).await;
    assert_eq!(white.expect_seat(id).await.side, Side::White);
    black.play(&bs, &game[1]).await;
    let id = white.send_resume("not-a-seat-token", None).await;
    assert_eq!(white.expect_error(id).await.code, ErrorCode::InvalidToken);
    server.stop().await;
}
