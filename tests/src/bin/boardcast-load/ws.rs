//! WebSocket plumbing: connecting with small buffers and Nagle off, and a Boardcast client that
//! numbers its envelopes and decodes postcard frames.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use boardcast_protocol::{ClientEnvelope, ClientMessage, Encoding, FrameRef, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::Error;

pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// TLS for every connection of the run (`--tls-ca`): the server is then reached at
/// `wss://localhost:PORT`, its certificate checked against the given CA.
static TLS: OnceLock<Arc<rustls::ClientConfig>> = OnceLock::new();

/// Makes every connection of the run use TLS, trusting the certificates in `ca_file`.
pub fn use_tls(ca_file: &std::path::Path) -> Result<(), Error> {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(ca_file)? {
        roots.add(cert?)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let _ = TLS.set(Arc::new(config));
    Ok(())
}

/// Client-side socket configuration. tungstenite zero-fills the free part of its read buffer
/// before every read (128 KiB by default); with thousands of connections in one process that
/// costs memory and CPU taken from the server under test, so the load generator reads through
/// 2 KiB: a dozen reveals, and a larger frame still gets room for all of it.
pub fn client_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(2 * 1024)
        .write_buffer_size(0)
}

/// Opens a WebSocket to `ws://addr{path}` (or `wss://localhost:PORT{path}` with
/// [`use_tls`]), offering `subprotocol` if given.
pub async fn connect(addr: SocketAddr, path: &str, subprotocol: Option<&str>) -> Result<Ws, Error> {
    let stream = TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let tls = TLS.get().cloned();
    let url = match tls {
        Some(_) => format!("wss://localhost:{}{path}", addr.port()),
        None => format!("ws://{addr}{path}"),
    };
    let mut request = url.into_client_request()?;
    if let Some(subprotocol) = subprotocol {
        request
            .headers_mut()
            .insert("Sec-WebSocket-Protocol", subprotocol.parse()?);
    }
    let connector = tls.map(tokio_tungstenite::Connector::Rustls);
    let (ws, _response) = tokio_tungstenite::client_async_tls_with_config(
        request,
        stream,
        Some(client_config()),
        connector,
    )
    .await?;
    Ok(ws)
}

/// Limits how many connections are being opened at once, so a ramp of thousands does not
/// overflow the server's accept backlog.
#[derive(Clone)]
pub struct Ramp(Arc<Semaphore>);

impl Ramp {
    pub fn new(parallel: usize) -> Self {
        Ramp(Arc::new(Semaphore::new(parallel.max(1))))
    }

    /// Connects a Boardcast client, retrying refused attempts a few times.
    pub async fn client(&self, addr: SocketAddr) -> Result<Client, Error> {
        let _permit = self
            .0
            .acquire()
            .await
            .expect("ramp semaphore is never closed");
        let mut last = None;
        for attempt in 0..5u64 {
            match Client::connect(addr).await {
                Ok(client) => return Ok(client),
                Err(err) => {
                    last = Some(err);
                    tokio::time::sleep(Duration::from_millis(100 * (attempt + 1))).await;
                }
            }
        }
        Err(last.expect("at least one attempt"))
    }

    /// Connects a bare WebSocket (no subprotocol).
    pub async fn raw(&self, addr: SocketAddr, path: &str) -> Result<Ws, Error> {
        let _permit = self
            .0
            .acquire()
            .await
            .expect("ramp semaphore is never closed");
        connect(addr, path, None).await
    }
}

/// A Boardcast connection speaking postcard, with its own ack-id counter.
pub struct Client {
    ws: Ws,
    next_id: u64,
}

impl Client {
    /// Connects to `ws://addr/ws` with the postcard subprotocol and waits for `welcome`.
    pub async fn connect(addr: SocketAddr) -> Result<Client, Error> {
        let ws = connect(addr, "/ws", Some(Encoding::POSTCARD_SUBPROTOCOL)).await?;
        let mut client = Client { ws, next_id: 1 };
        match tokio::time::timeout(Duration::from_secs(10), client.recv()).await {
            Ok(Ok(ServerMessage::Welcome(_))) => Ok(client),
            Ok(Ok(other)) => Err(format!("expected welcome, got {other:?}").into()),
            Ok(Err(err)) => Err(err),
            Err(_) => Err("no welcome within 10 s".into()),
        }
    }

    /// Sends one message in a fresh envelope; returns its ack id.
    pub async fn send(&mut self, msg: ClientMessage) -> Result<u64, Error> {
        let id = self.next_id;
        self.next_id += 1;
        let envelope = ClientEnvelope { id, msg };
        let message = match Encoding::Postcard.encode(&envelope) {
            boardcast_protocol::Frame::Binary(bytes) => Message::Binary(bytes.into()),
            boardcast_protocol::Frame::Text(text) => Message::Text(text.into()),
        };
        self.ws.send(message).await?;
        Ok(id)
    }

    /// The next server message; control frames are skipped (tungstenite answers pings).
    /// Cancel-safe: the only await point is the stream's `next`.
    pub async fn recv(&mut self) -> Result<ServerMessage, Error> {
        let frame = self.recv_frame().await?;
        let frame = match &frame {
            Message::Binary(bytes) => FrameRef::Binary(bytes),
            Message::Text(text) => FrameRef::Text(text.as_bytes()),
            _ => unreachable!("recv_frame gives data frames only"),
        };
        Encoding::Postcard
            .decode_server(frame)
            .map_err(|err| format!("undecodable server frame: {err}").into())
    }

    /// The next data frame (text or binary) as it came, not decoded; control frames are
    /// skipped, a close is an error. Cancel-safe like [`Client::recv`].
    pub async fn recv_frame(&mut self) -> Result<Message, Error> {
        loop {
            match self.ws.next().await.ok_or("connection closed")?? {
                frame @ (Message::Binary(_) | Message::Text(_)) => return Ok(frame),
                Message::Close(close) => {
                    return Err(format!("server closed the connection: {close:?}").into());
                }
                _ => continue,
            }
        }
    }

    /// Closes the connection politely (best effort).
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(1), self.ws.close(None)).await;
    }
}

/// Accepts connections on `listener` forever, handing each to `serve` in a task of its own. A
/// failed accept (out of file descriptors and the like) backs off and keeps serving. The
/// baseline servers' one accept loop.
pub async fn accept_forever<F, Fut>(listener: tokio::net::TcpListener, serve: F)
where
    F: Fn(TcpStream) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                tokio::spawn(serve(stream));
            }
            Err(err) => {
                eprintln!("accept: {err}");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        }
    }
}

/// Waits until each of `count` connections has subscribed or failed, or until `timeout` has
/// passed since `started` (said on stderr): the set-up every watching load waits out before
/// its window starts.
pub async fn wait_set_up(
    subscribed: &AtomicU64,
    failed: &AtomicU64,
    count: u64,
    started: Instant,
    timeout: Duration,
) {
    while subscribed.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < count {
        if started.elapsed() > timeout {
            eprintln!("subscription timed out");
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
