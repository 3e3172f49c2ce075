//! A test client for the Boardcast WebSocket protocol: connect with a chosen subprotocol, send
//! envelopes with increasing ack ids, receive and decode server messages with timeouts, and get
//! at the raw frames for hostile tests.
//!
//! Messages that arrive while the client waits for something else are kept in a backlog, in
//! order, so a later [`Client::wait_for`] still sees them.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{
    Ack, ClientEnvelope, ClientMessage, ColorChoice, CreateMatch, DecodeError, Encoding, ErrorCode,
    ErrorReply, FrameRef, JoinMatch, MatchEventMsg, MatchSnapshot, Ping, PlayMove, Reclaim, Resume,
    Seat, SeatAction, ServerMessage, Target, TimeControl, Watch, Welcome,
};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::{CloseFrame, WebSocketConfig};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

/// How long a client waits for an expected message unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The WebSocket stream every client uses: a loopback TCP stream, plain or TLS.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// What went wrong talking to the server.
#[derive(Debug)]
pub enum ClientError {
    /// Nothing (or nothing matching) arrived in time.
    Timeout(String),
    /// The server closed the connection: the close frame's code and reason, or `None` when the
    /// TCP stream ended without a close frame.
    Closed(Option<(u16, String)>),
    /// A WebSocket or I/O error.
    Ws(tungstenite::Error),
    /// A frame from the server did not decode.
    Decode(DecodeError),
    /// The server refused the request with a typed error.
    Refused(ErrorReply),
    /// The server answered something the test did not expect.
    Unexpected(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Timeout(what) => write!(f, "timed out waiting for {what}"),
            ClientError::Closed(Some((code, reason))) => {
                write!(f, "connection closed with {code} ({reason:?})")
            }
            ClientError::Closed(None) => write!(f, "connection ended without a close frame"),
            ClientError::Ws(err) => write!(f, "websocket error: {err}"),
            ClientError::Decode(err) => write!(f, "undecodable server frame: {err}"),
            ClientError::Refused(reply) => write!(
                f,
                "refused: {:?} {:?} (id {:?})",
                reply.code, reply.message, reply.id
            ),
            ClientError::Unexpected(what) => write!(f, "unexpected: {what}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<tungstenite::Error> for ClientError {
    fn from(err: tungstenite::Error) -> Self {
        match err {
            tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
                ClientError::Closed(None)
            }
            err => ClientError::Ws(err),
        }
    }
}

pub type Result<T, E = ClientError> = std::result::Result<T, E>;

/// The WebSocket URL of a server.
pub fn ws_url(addr: SocketAddr) -> String {
    format!("ws://{addr}/ws")
}

/// Connection options.
#[derive(Debug, Clone)]
pub struct ConnectOptions {
    /// Subprotocols offered in the handshake, in order; empty offers none.
    pub protocols: Vec<String>,
    /// A small receive buffer makes a client that does not read fall behind quickly.
    pub recv_buffer: Option<u32>,
    /// The local address to connect from: `127.0.0.2`, `127.0.0.3`, … stand in for other
    /// clients' addresses (Linux routes all of 127.0.0.0/8 to loopback).
    pub source: Option<IpAddr>,
    /// Extra request headers (`X-Forwarded-For`, …).
    pub headers: Vec<(&'static str, String)>,
    /// Connect with TLS (`wss://localhost:PORT/ws`), trusting what this configuration
    /// trusts (a test CA's client configuration).
    pub tls: Option<Arc<rustls::ClientConfig>>,
}

impl ConnectOptions {
    pub fn encoding(encoding: Encoding) -> Self {
        ConnectOptions {
            protocols: vec![encoding.subprotocol().to_owned()],
            recv_buffer: None,
            source: None,
            headers: Vec::new(),
            tls: None,
        }
    }

    /// Connects over TLS with `config`.
    pub fn tls(mut self, config: Arc<rustls::ClientConfig>) -> Self {
        self.tls = Some(config);
        self
    }

    /// Connects from `source` instead of 127.0.0.1.
    pub fn from(mut self, source: IpAddr) -> Self {
        self.source = Some(source);
        self
    }

    /// Adds a request header.
    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }
}

/// Opens a TCP connection and performs the WebSocket handshake with `options`; returns the
/// stream and the subprotocol the server chose.
pub async fn connect_ws(
    addr: SocketAddr,
    options: &ConnectOptions,
) -> Result<(Ws, Option<String>), tungstenite::Error> {
    let socket = TcpSocket::new_v4()?;
    if let Some(size) = options.recv_buffer {
        socket.set_recv_buffer_size(size)?;
    }
    if let Some(source) = options.source {
        socket.bind(SocketAddr::new(source, 0))?;
    }
    let stream = socket.connect(addr).await?;
    stream.set_nodelay(true)?;
    let url = match options.tls {
        // The test certificates name `localhost` (and 127.0.0.1).
        Some(_) => format!("wss://localhost:{}/ws", addr.port()),
        None => ws_url(addr),
    };
    let mut request = url.into_client_request()?;
    for (name, value) in &options.headers {
        let value = HeaderValue::from_str(value).map_err(|err| {
            tungstenite::Error::Io(std::io::Error::other(format!("bad header: {err}")))
        })?;
        request.headers_mut().append(*name, value);
    }
    if !options.protocols.is_empty() {
        let offered = options.protocols.join(", ");
        request.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_str(&offered).map_err(|err| {
                tungstenite::Error::Io(std::io::Error::other(format!("bad header: {err}")))
            })?,
        );
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(boardcast_protocol::limits::MAX_SERVER_FRAME_BYTES * 2))
        .max_frame_size(Some(boardcast_protocol::limits::MAX_SERVER_FRAME_BYTES * 2));
    let connector = options.tls.clone().map(Connector::Rustls);
    let (ws, response) =
        tokio_tungstenite::client_async_tls_with_config(request, stream, Some(config), connector)
            .await?;
    let chosen = response
        .headers()
        .get("Sec-WebSocket-Protocol")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    Ok((ws, chosen))
}

/// One event read off the socket.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Incoming {
    Message(ServerMessage),
    /// A close frame (code, reason) or the end of the stream (`None`).
    Closed(Option<(u16, String)>),
}

/// A connected protocol client.
pub struct Client {
    ws: Ws,
    pub encoding: Encoding,
    next_id: u64,
    backlog: VecDeque<ServerMessage>,
    /// The server's first message.
    pub welcome: Welcome,
    /// How long `expect_*` and `wait_for` wait.
    pub timeout: Duration,
    closed: Option<Option<(u16, String)>>,
    /// Envelopes sent and not answered yet, by id (an id sent again counts again).
    unanswered: HashMap<u64, u32>,
    /// Replies naming an id that had no send waiting for an answer: a second answer to one
    /// envelope, which PROTOCOL §3.3 rules out ([`Client::extra_answers`]).
    extra_answers: Vec<ServerMessage>,
    /// Every reply-shaped message with id 0 ([`Client::unasked`]).
    unasked: Vec<ServerMessage>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("encoding", &self.encoding)
            .field("next_id", &self.next_id)
            .field("backlog", &self.backlog.len())
            .finish()
    }
}

fn close_info(frame: Option<CloseFrame>) -> Option<(u16, String)> {
    frame.map(|frame| (u16::from(frame.code), frame.reason.to_string()))
}

/// A welcome not read yet.
fn empty_welcome() -> Welcome {
    Welcome {
        protocol: 0,
        server: String::new(),
        limits: boardcast_protocol::Limits {
            max_frame_bytes: 0,
            messages_per_second: 0,
            message_burst: 0,
            idle_timeout_ms: 0,
        },
        public_url: String::new(),
        account: None,
    }
}

/// The envelope id a reply answers, if it names one.
pub fn reply_id(message: &ServerMessage) -> Option<u64> {
    match message {
        ServerMessage::Ack(ack) => Some(ack.id),
        ServerMessage::Error(error) => error.id,
        ServerMessage::Seat(seat) => Some(seat.id),
        ServerMessage::GameCreated(created) => Some(created.id),
        ServerMessage::Leaderboard(board) => Some(board.id),
        _ => None,
    }
}

impl Client {
    /// Connects with `encoding` and reads the server's `Welcome`.
    pub async fn connect(addr: SocketAddr, encoding: Encoding) -> Result<Client> {
        Self::connect_with(addr, encoding, &ConnectOptions::encoding(encoding)).await
    }

    /// Connects with explicit options; the server must choose `encoding`'s subprotocol.
    pub async fn connect_with(
        addr: SocketAddr,
        encoding: Encoding,
        options: &ConnectOptions,
    ) -> Result<Client> {
        let (ws, chosen) = tokio::time::timeout(DEFAULT_TIMEOUT, connect_ws(addr, options))
            .await
            .map_err(|_| ClientError::Timeout("the WebSocket handshake".into()))??;
        if chosen.as_deref() != Some(encoding.subprotocol()) {
            return Err(ClientError::Unexpected(format!(
                "server chose subprotocol {chosen:?}, expected {}",
                encoding.subprotocol()
            )));
        }
        let mut client = Client::from_ws(ws, encoding);
        client.welcome = client
            .wait_for("Welcome", |message| match message {
                ServerMessage::Welcome(welcome) => Some(welcome.clone()),
                _ => None,
            })
            .await?;
        Ok(client)
    }

    /// Wraps a socket opened by [`connect_ws`] without reading anything yet: `welcome` stays
    /// empty, and the server's `welcome` is the first message [`Client::recv`] returns.
    pub fn from_ws(ws: Ws, encoding: Encoding) -> Client {
        Client {
            ws,
            encoding,
            next_id: 1,
            backlog: VecDeque::new(),
            welcome: empty_welcome(),
            timeout: DEFAULT_TIMEOUT,
            closed: None,
            unanswered: HashMap::new(),
            extra_answers: Vec::new(),
            unasked: Vec::new(),
        }
    }

    /// Every reply this connection received that answered no waiting envelope: each
    /// envelope sent (again) gets exactly one reply naming its id (PROTOCOL §3.3), so this
    /// stays empty. Id 0 names no envelope (a seat handed out unasked) and is not counted;
    /// nor are frames sent with [`Client::send_raw`].
    pub fn extra_answers(&self) -> &[ServerMessage] {
        &self.extra_answers
    }

    /// Every `seat`, `ack` or `error` with id 0 this connection received: they answer no
    /// envelope, and PROTOCOL §3.5 says which the server may send unasked.
    pub fn unasked(&self) -> &[ServerMessage] {
        &self.unasked
    }

    /// Counts `message` against the envelopes waiting for an answer.
    fn count_answer(&mut self, message: &ServerMessage) {
        let Some(id) = reply_id(message) else {
            return;
        };
        if id == 0 {
            self.unasked.push(message.clone());
            return;
        }
        match self.unanswered.get_mut(&id) {
            Some(waiting) if *waiting > 0 => *waiting -= 1,
            _ => self.extra_answers.push(message.clone()),
        }
    }

    /// The id the next [`Client::send`] uses.
    pub fn next_id(&self) -> u64 {
        self.next_id
    }

    /// Makes the next envelope use `id` (ids carry on across reconnects of a seat).
    pub fn set_next_id(&mut self, id: u64) {
        self.next_id = id;
    }

    /// The raw WebSocket, for hostile frames.
    pub fn ws(&mut self) -> &mut Ws {
        &mut self.ws
    }

    /// The certificate the server presented, on a TLS connection.
    pub fn peer_certificate(&self) -> Option<Vec<u8>> {
        match self.ws.get_ref() {
            MaybeTlsStream::Rustls(stream) => stream
                .get_ref()
                .1
                .peer_certificates()
                .and_then(|chain| chain.first())
                .map(|cert| cert.to_vec()),
            _ => None,
        }
    }

    /// Gives up the client and keeps only the socket.
    pub fn into_ws(self) -> Ws {
        self.ws
    }

    /// Messages received but not yet consumed.
    pub fn backlog(&self) -> &VecDeque<ServerMessage> {
        &self.backlog
    }

    /// Encodes `envelope` in this connection's encoding and sends it.
    pub async fn send_envelope(&mut self, envelope: &ClientEnvelope) -> Result<()> {
        let message = match self.encoding.encode(envelope) {
            boardcast_protocol::Frame::Text(text) => Message::text(text),
            boardcast_protocol::Frame::Binary(bytes) => Message::binary(bytes),
        };
        self.send_raw(message).await?;
        *self.unanswered.entry(envelope.id).or_default() += 1;
        Ok(())
    }

    /// Sends `msg` with the next id and returns that id.
    pub async fn send(&mut self, msg: ClientMessage) -> Result<u64> {
        let id = self.next_id;
        self.next_id += 1;
        self.send_envelope(&ClientEnvelope { id, msg }).await?;
        Ok(id)
    }

    /// Sends `msg` with the given id, leaving the counter alone.
    pub async fn send_with_id(&mut self, id: u64, msg: ClientMessage) -> Result<()> {
        self.send_envelope(&ClientEnvelope { id, msg }).await
    }

    /// Sends any WebSocket message as is.
    pub async fn send_raw(&mut self, message: Message) -> Result<()> {
        self.ws.send(message).await.map_err(ClientError::from)
    }

    /// Reads the next frame off the socket (not the backlog), within `timeout`.
    pub async fn read_socket(&mut self, timeout: Duration) -> Result<Incoming> {
        if let Some(closed) = &self.closed {
            return Ok(Incoming::Closed(closed.clone()));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .map_err(|_| ClientError::Timeout("a frame from the server".into()))?;
            let message = match next {
                None => {
                    self.closed = Some(None);
                    return Ok(Incoming::Closed(None));
                }
                Some(Err(
                    tungstenite::Error::ConnectionClosed
                    | tungstenite::Error::AlreadyClosed
                    | tungstenite::Error::Protocol(
                        tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
                    ),
                )) => {
                    self.closed = Some(None);
                    return Ok(Incoming::Closed(None));
                }
                Some(Err(tungstenite::Error::Io(err)))
                    if matches!(
                        err.kind(),
                        std::io::ErrorKind::ConnectionReset
                            | std::io::ErrorKind::ConnectionAborted
                            | std::io::ErrorKind::BrokenPipe
                            | std::io::ErrorKind::UnexpectedEof
                    ) =>
                {
                    self.closed = Some(None);
                    return Ok(Incoming::Closed(None));
                }
                Some(Err(err)) => return Err(ClientError::Ws(err)),
                Some(Ok(message)) => message,
            };
            let decoded = match &message {
                Message::Text(text) => self.encoding.decode_server(FrameRef::Text(text.as_bytes())),
                Message::Binary(bytes) => self.encoding.decode_server(FrameRef::Binary(bytes)),
                Message::Close(frame) => {
                    let info = close_info(frame.clone());
                    self.closed = Some(info.clone());
                    return Ok(Incoming::Closed(info));
                }
                Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => continue,
            };
            let message = decoded.map_err(ClientError::Decode)?;
            self.count_answer(&message);
            return Ok(Incoming::Message(message));
        }
    }

    /// The next message, from the backlog first, then from the socket.
    pub async fn recv(&mut self, timeout: Duration) -> Result<ServerMessage> {
        if let Some(message) = self.backlog.pop_front() {
            return Ok(message);
        }
        match self.read_socket(timeout).await? {
            Incoming::Message(message) => Ok(message),
            Incoming::Closed(info) => Err(ClientError::Closed(info)),
        }
    }

    /// Waits for the first message (backlog first) for which `pick` returns `Some`; every
    /// other message stays in the backlog, in order.
    pub async fn wait_for<T>(
        &mut self,
        what: &str,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<T> {
        let timeout = self.timeout;
        self.wait_for_within(what, timeout, &mut pick).await
    }

    /// [`Client::wait_for`] with an explicit timeout.
    pub async fn wait_for_within<T>(
        &mut self,
        what: &str,
        timeout: Duration,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<T> {
        if let Some(index) = self
            .backlog
            .iter()
            .position(|message| pick(message).is_some())
        {
            let message = self.backlog.remove(index).expect("index is in the backlog");
            return Ok(pick(&message).expect("picked before"));
        }
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let incoming = match self.read_socket(left).await {
                Err(ClientError::Timeout(_)) => {
                    return Err(ClientError::Timeout(format!(
                        "{what}; backlog: {:?}",
                        self.backlog.iter().rev().take(5).collect::<Vec<_>>()
                    )));
                }
                other => other?,
            };
            match incoming {
                Incoming::Message(message) => match pick(&message) {
                    Some(found) => return Ok(found),
                    None => self.backlog.push_back(message),
                },
                Incoming::Closed(info) => return Err(ClientError::Closed(info)),
            }
        }
    }

    /// Waits for the reply naming envelope `id` (an ack, an error, a seat, …).
    pub async fn expect_reply(&mut self, id: u64) -> Result<ServerMessage> {
        self.wait_for(&format!("the reply to envelope {id}"), |message| {
            (reply_id(message) == Some(id)).then(|| message.clone())
        })
        .await
    }

    /// Waits for the ack of envelope `id`; an error reply becomes [`ClientError::Refused`].
    pub async fn expect_ack(&mut self, id: u64) -> Result<Ack> {
        match self.expect_reply(id).await? {
            ServerMessage::Ack(ack) => Ok(ack),
            ServerMessage::Error(error) => Err(ClientError::Refused(error)),
            other => Err(ClientError::Unexpected(format!(
                "expected an ack for {id}, got {other:?}"
            ))),
        }
    }

    /// Waits for the error reply to envelope `id` and checks its code.
    pub async fn expect_error(&mut self, id: u64, code: ErrorCode) -> Result<ErrorReply> {
        match self.expect_reply(id).await? {
            ServerMessage::Error(error) if error.code == code => Ok(error),
            other => Err(ClientError::Unexpected(format!(
                "expected error {code:?} for envelope {id}, got {other:?}"
            ))),
        }
    }

    /// Waits for an error reply without an id (a frame that could not be read), with `code`.
    pub async fn expect_frame_error(&mut self, code: ErrorCode) -> Result<ErrorReply> {
        let reply = self
            .wait_for("an error reply", |message| match message {
                ServerMessage::Error(error) => Some(error.clone()),
                _ => None,
            })
            .await?;
        if reply.code != code {
            return Err(ClientError::Unexpected(format!(
                "expected error {code:?}, got {reply:?}"
            )));
        }
        Ok(reply)
    }

    /// Reads until the server closes the connection; returns the close code (`None` when the
    /// stream ended without a close frame). Messages read on the way go to the backlog.
    pub async fn expect_close(&mut self, timeout: Duration) -> Result<Option<u16>> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.read_socket(left).await {
                Ok(Incoming::Message(message)) => self.backlog.push_back(message),
                Ok(Incoming::Closed(info)) => return Ok(info.map(|(code, _)| code)),
                Err(ClientError::Timeout(_)) => {
                    return Err(ClientError::Timeout(format!(
                        "the server to close the connection; backlog: {:?}",
                        self.backlog.iter().rev().take(5).collect::<Vec<_>>()
                    )));
                }
                Err(ClientError::Ws(tungstenite::Error::Io(_))) => return Ok(None),
                Err(err) => return Err(err),
            }
        }
    }

    /// Sends `msg` and waits for its ack.
    pub async fn call(&mut self, msg: ClientMessage) -> Result<Ack> {
        let id = self.send(msg).await?;
        self.expect_ack(id).await
    }

    /// Round trip: an application ping answered by a pong with the same nonce.
    pub async fn ping(&mut self) -> Result<()> {
        let nonce = self.next_id * 7919 + 13;
        self.send(ClientMessage::Ping(Ping { nonce })).await?;
        self.wait_for("a pong", |message| match message {
            ServerMessage::Pong(pong) if pong.nonce == nonce => Some(()),
            _ => None,
        })
        .await
    }

    /// Announces a display name.
    pub async fn hello(&mut self, name: &str) -> Result<()> {
        let id = self
            .send(ClientMessage::Hello(boardcast_protocol::Hello {
                protocol: boardcast_protocol::PROTOCOL_VERSION,
                client: "boardcast-tests".into(),
                name: name.into(),
                bot: false,
            }))
            .await?;
        self.expect_ack(id).await.map(|_| ())
    }

    async fn expect_seat(&mut self, id: u64) -> Result<Seat> {
        match self.expect_reply(id).await? {
            ServerMessage::Seat(seat) => Ok(seat),
            ServerMessage::Error(error) => Err(ClientError::Refused(error)),
            other => Err(ClientError::Unexpected(format!(
                "expected a seat for {id}, got {other:?}"
            ))),
        }
    }

    /// Opens a match and takes a seat in it.
    pub async fn create_match(
        &mut self,
        color: ColorChoice,
        public: bool,
        time_control: Option<TimeControl>,
    ) -> Result<Seat> {
        let id = self
            .send(ClientMessage::CreateMatch(CreateMatch {
                time_control,
                color,
                public,
                rated: false,
                rating_range: None,
            }))
            .await?;
        self.expect_seat(id).await
    }

    /// Takes the free seat of a public match by id.
    pub async fn join_match(&mut self, match_id: &str) -> Result<Seat> {
        self.join(JoinMatch::Id(match_id.into())).await
    }

    /// Takes the free seat of a match by id or invite code.
    pub async fn join(&mut self, join: JoinMatch) -> Result<Seat> {
        let id = self.send(ClientMessage::JoinMatch(join)).await?;
        self.expect_seat(id).await
    }

    /// Takes back a seat with its token.
    pub async fn resume(&mut self, token: &str, since_v: Option<u64>) -> Result<Seat> {
        let id = self
            .send(ClientMessage::Resume(Resume {
                token: token.into(),
                since_v,
            }))
            .await?;
        self.expect_seat(id).await
    }

    /// Takes back, as the account this connection is logged in as, its seat in `match_id`.
    pub async fn reclaim(&mut self, match_id: &str) -> Result<Seat> {
        let id = self
            .send(ClientMessage::Reclaim(Reclaim {
                match_id: match_id.into(),
                since_v: None,
            }))
            .await?;
        self.expect_seat(id).await
    }

    /// Sends a move for `seat` and returns the envelope id (without waiting).
    pub async fn send_move(&mut self, seat: &Seat, route: &[u8]) -> Result<u64> {
        self.send(ClientMessage::Move(PlayMove {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
            route: route.to_vec(),
            lag_ms: None,
        }))
        .await
    }

    /// Plays a move for `seat` and waits for its ack.
    pub async fn play(&mut self, seat: &Seat, route: &[u8]) -> Result<Ack> {
        let id = self.send_move(seat, route).await?;
        self.expect_ack(id).await
    }

    /// Resigns `seat`'s match.
    pub async fn resign(&mut self, seat: &Seat) -> Result<Ack> {
        self.call(ClientMessage::Resign(SeatAction {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
        }))
        .await
    }

    /// Watches a match from a snapshot and returns it; every later event follows.
    pub async fn watch_match(&mut self, match_id: &str) -> Result<MatchSnapshot> {
        let id = self
            .send(ClientMessage::Watch(Watch {
                target: Target::Match(match_id.into()),
                since_v: None,
            }))
            .await?;
        let wanted = match_id.to_owned();
        let found = self
            .wait_for("a match snapshot", |message| match message {
                ServerMessage::MatchSnapshot(snapshot) if snapshot.match_id == wanted => {
                    Some(Ok(snapshot.clone()))
                }
                ServerMessage::Error(error) if error.id == Some(id) => Some(Err(error.clone())),
                _ => None,
            })
            .await?;
        // A watch may also be acknowledged; drop that ack so it does not linger.
        if let Some(index) = self
            .backlog
            .iter()
            .position(|message| matches!(message, ServerMessage::Ack(ack) if ack.id == id))
        {
            self.backlog.remove(index);
        }
        found.map_err(ClientError::Refused)
    }

    /// The next event of `match_id` (backlog first).
    pub async fn next_match_event(&mut self, match_id: &str) -> Result<MatchEventMsg> {
        self.wait_for(
            &format!("an event of match {match_id}"),
            |message| match message {
                ServerMessage::MatchEvent(event) if event.match_id == match_id => {
                    Some(event.clone())
                }
                _ => None,
            },
        )
        .await
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// A match with both seats taken: `white` and `black` are two separate connections.
#[derive(Debug)]
pub struct Pair {
    pub white: Client,
    pub black: Client,
    pub white_seat: Seat,
    pub black_seat: Seat,
}

impl Pair {
    /// Creates an untimed private match on one connection (as White) and joins it by its
    /// invite code on another.
    pub async fn start(addr: SocketAddr, encoding: Encoding) -> Result<Pair> {
        let options = ConnectOptions::encoding(encoding);
        Self::start_with(addr, encoding, &options, &options).await
    }

    /// [`Pair::start`] with each player's connection options (e.g. their source addresses).
    pub async fn start_with(
        addr: SocketAddr,
        encoding: Encoding,
        white: &ConnectOptions,
        black: &ConnectOptions,
    ) -> Result<Pair> {
        let mut white = Client::connect_with(addr, encoding, white).await?;
        let white_seat = white.create_match(ColorChoice::White, false, None).await?;
        let mut black = Client::connect_with(addr, encoding, black).await?;
        let black_seat = black
            .join(JoinMatch::Code(white_seat.invite_code.clone()))
            .await?;
        if white_seat.side != boardcast_protocol::Side::White
            || black_seat.side != boardcast_protocol::Side::Black
        {
            return Err(ClientError::Unexpected(format!(
                "seats: creator {:?}, joiner {:?}",
                white_seat.side, black_seat.side
            )));
        }
        Ok(Pair {
            white,
            black,
            white_seat,
            black_seat,
        })
    }

    pub fn match_id(&self) -> &str {
        &self.white_seat.match_id
    }

    /// Plays `route` by the side whose turn it is at `ply` (White on even plies).
    pub async fn play(&mut self, ply: usize, route: &[u8]) -> Result<Ack> {
        if ply.is_multiple_of(2) {
            self.white.play(&self.white_seat, route).await
        } else {
            self.black.play(&self.black_seat, route).await
        }
    }
}
