//! The connection task: one WebSocket to the server, encoded per the negotiated subprotocol,
//! re-dialled with exponential backoff whenever it drops — unless the failure is one that
//! trying again cannot mend (a refused TLS certificate, a bad address, an HTTP refusal of the
//! upgrade such as 404 on a wrong path, or a close with 4001 `session_ended`: the login it
//! connected with was ended elsewhere, and dialling again with it would be refused): then it
//! says why once and stops. A server that asks to be tried later (429, 503) is, after the
//! `Retry-After` it gives. The app talks to it through two channels and never sees a socket.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::error::{Error as WsError, TlsError};
use tokio_tungstenite::tungstenite::http::header::{AUTHORIZATION, RETRY_AFTER};
use tokio_tungstenite::tungstenite::http::{HeaderValue, Response, StatusCode};

use boardcast_protocol::limits::close;
use boardcast_protocol::{ClientEnvelope, Encoding, Frame, FrameRef, ServerMessage};

/// What the connection task reports.
#[derive(Debug)]
pub enum NetEvent {
    /// A connection is up; earlier unsent messages were dropped.
    Connected,
    Message(Box<ServerMessage>),
    /// A frame that did not decode; the connection stays up.
    Garbled(String),
    /// The connection is down; the next attempt is in `retry_ms`.
    Disconnected {
        reason: String,
        retry_ms: u64,
    },
    /// The server cannot be reached this way at all (its certificate is not trusted, the
    /// address is wrong): no further attempt is made. The runner ends the session with it.
    Failed {
        reason: String,
    },
    /// A WebSocket ping came back after this round trip: the connection's lag, sent with
    /// moves (`lag_ms`) and shown.
    RoundTrip(Duration),
    /// A finished match's PDN was saved (the path) or could not be (why).
    PdnSaved(Result<std::path::PathBuf, String>),
}

/// How long to wait before attempt `n` (0-based) after a failure.
pub fn backoff(attempt: u32) -> Duration {
    let ms = 250u64.saturating_mul(1 << attempt.min(8));
    Duration::from_millis(ms.min(10_000))
}

/// Starts the connection task; `tls` is used for `wss://` addresses, and `ca_file` (the
/// `--ca-file` it trusts) is named when a certificate is refused. With `token` (a login's
/// personal access token) every upgrade carries `Authorization: Bearer`, so the connection
/// acts as that account. Dropping the first sender
/// ends it; the second feeds local events (a saved PDN) into the same stream.
pub fn spawn(
    url: String,
    encoding: Encoding,
    tls: Arc<rustls::ClientConfig>,
    ca_file: Option<PathBuf>,
    token: Option<String>,
) -> (
    mpsc::UnboundedSender<ClientEnvelope>,
    mpsc::UnboundedSender<NetEvent>,
    mpsc::UnboundedReceiver<NetEvent>,
) {
    let (out_tx, out_rx) = mpsc::unbounded_channel();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    let dial = Dial {
        url,
        encoding,
        tls,
        ca_file,
        token,
    };
    tokio::spawn(run(dial, out_rx, event_tx.clone()));
    (out_tx, event_tx, event_rx)
}

/// What the user reads when the server ends the connection's login (4001 `session_ended`).
pub const SESSION_ENDED: &str = "your login has ended (logged out everywhere, the token \
     revoked, the password changed or the account closed): log in again with `boardcast login`";

enum Ended {
    /// The app is gone.
    Quit,
    /// The server closed with 4001: the credential this connection acts with is no longer
    /// valid, so another attempt with it cannot succeed.
    LoggedOut,
    Dropped {
        reason: String,
        wait: Option<Duration>,
    },
}

/// Everything an attempt to connect needs, the same for every attempt.
struct Dial {
    url: String,
    encoding: Encoding,
    tls: Arc<rustls::ClientConfig>,
    ca_file: Option<PathBuf>,
    /// Sent as `Authorization: Bearer` on the upgrade (never in the URL, which proxies log).
    token: Option<String>,
}

async fn run(
    dial: Dial,
    mut outgoing: mpsc::UnboundedReceiver<ClientEnvelope>,
    events: mpsc::UnboundedSender<NetEvent>,
) {
    let mut attempt = 0u32;
    loop {
        let (reason, wait) = match connect(&dial).await {
            Ok(socket) => {
                attempt = 0;
                while outgoing.try_recv().is_ok() {}
                if events.send(NetEvent::Connected).is_err() {
                    return;
                }
                match pump(socket, dial.encoding, &mut outgoing, &events).await {
                    Ended::Quit => return,
                    Ended::LoggedOut => {
                        let _ = events.send(NetEvent::Failed {
                            reason: SESSION_ENDED.to_owned(),
                        });
                        return;
                    }
                    Ended::Dropped { reason, wait } => (reason, wait),
                }
            }
            Err(Refused::Permanent(reason)) => {
                let _ = events.send(NetEvent::Failed { reason });
                return;
            }
            Err(Refused::Transient {
                reason,
                retry_after,
            }) => (reason, retry_after),
        };
        let delay = wait.unwrap_or_else(|| backoff(attempt));
        attempt = attempt.saturating_add(1);
        let retry_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX);
        if events
            .send(NetEvent::Disconnected { reason, retry_ms })
            .is_err()
        {
            return;
        }
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            () = events.closed() => return,
        }
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Why a connection attempt failed.
#[derive(Debug, PartialEq, Eq)]
enum Refused {
    /// The server is down, restarting, busy or unreachable for now: try again, after
    /// `retry_after` if it said when.
    Transient {
        reason: String,
        retry_after: Option<Duration>,
    },
    /// The same attempt would fail the same way.
    Permanent(String),
}

async fn connect(dial: &Dial) -> Result<Socket, Refused> {
    let (url, encoding) = (dial.url.as_str(), dial.encoding);
    let mut request = url
        .into_client_request()
        .map_err(|e| Refused::Permanent(format!("bad server address {url}: {e}")))?;
    let host = request.uri().host().unwrap_or_default().to_owned();
    request.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static(encoding.subprotocol()),
    );
    if let Some(token) = &dial.token {
        let bearer = HeaderValue::from_str(&format!("Bearer {token}")).map_err(|_| {
            Refused::Permanent("the stored login token is not valid text: log in again".into())
        })?;
        request.headers_mut().insert(AUTHORIZATION, bearer);
    }
    let connector = tokio_tungstenite::Connector::Rustls(dial.tls.clone());
    let connecting =
        tokio_tungstenite::connect_async_tls_with_config(request, None, true, Some(connector));
    match tokio::time::timeout(Duration::from_secs(10), connecting).await {
        Ok(Ok((socket, _response))) => Ok(socket),
        Ok(Err(error)) => Err(refused(&error, url, &host, dial.ca_file.as_deref())),
        Err(_) => Err(Refused::transient(format!(
            "cannot connect to {url}: timed out"
        ))),
    }
}

/// Sorts a failed attempt: TLS errors (the certificate, the handshake) and HTTP refusals of
/// the upgrade are permanent and said in words; the rest (refused, reset, a server busy or
/// restarting) are retried.
fn refused(error: &WsError, url: &str, host: &str, ca_file: Option<&Path>) -> Refused {
    let tls = match error {
        WsError::Http(response) => {
            let path = url
                .into_client_request()
                .map_or_else(|_| "/".to_owned(), |r| r.uri().path().to_owned());
            return refused_upgrade(response, url, &path);
        }
        WsError::Tls(TlsError::Rustls(tls)) => Some(&**tls),
        WsError::Tls(TlsError::InvalidDnsName) => {
            return Refused::Permanent(format!(
                "cannot connect to {url}: {host:?} is not a host name TLS can check"
            ));
        }
        // tokio-rustls reports a failed handshake as an I/O error holding rustls's.
        WsError::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<rustls::Error>()),
        _ => None,
    };
    match tls {
        Some(tls) => Refused::Permanent(format!(
            "cannot connect to {url}: {}",
            crate::tls::explain(tls, host, ca_file)
        )),
        None => Refused::transient(format!("cannot connect to {url}: {error}")),
    }
}

impl Refused {
    fn transient(reason: String) -> Refused {
        Refused::Transient {
            reason,
            retry_after: None,
        }
    }
}

/// The server answered the upgrade with an HTTP status instead of switching protocols. A
/// refusal the same request would meet again (a wrong path, a forbidden origin, a request it
/// cannot read) is permanent and said in a plain sentence; "busy, come back later" (429,
/// 503) and the errors of a server restarting behind a proxy (502, 504) are retried, after
/// the `Retry-After` the server gave.
fn refused_upgrade(response: &Response<Option<Vec<u8>>>, url: &str, path: &str) -> Refused {
    let status = response.status();
    let answered = format!(
        "the server at {url} answered {} {} for {path}",
        status.as_u16(),
        status.canonical_reason().unwrap_or("")
    );
    let answered = answered.trim_end().to_owned();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|value| value.to_str().ok())
        .and_then(retry_after);
    let permanent = |hint: &str| Refused::Permanent(format!("{answered}: {hint}"));
    match status {
        StatusCode::NOT_FOUND => permanent("is the path right? the default is /ws"),
        StatusCode::FORBIDDEN => permanent(
            "it refuses this client (an Origin rule or the address it comes from); \
             ask whoever runs it",
        ),
        StatusCode::UNAUTHORIZED | StatusCode::PROXY_AUTHENTICATION_REQUIRED => permanent(
            "it asks for credentials this client does not send; is this the Boardcast server?",
        ),
        StatusCode::REQUEST_TIMEOUT | StatusCode::TOO_MANY_REQUESTS => Refused::Transient {
            reason: answered,
            retry_after,
        },
        _ if status.is_client_error() => {
            permanent("is this the address of a Boardcast server's WebSocket?")
        }
        _ => Refused::Transient {
            reason: answered,
            retry_after,
        },
    }
}

/// A `Retry-After` value: seconds, or an HTTP date (bounded to a minute, as a shutdown
/// notice's wait is).
fn retry_after(value: &str) -> Option<Duration> {
    let wait = match value.trim().parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => httpdate::parse_http_date(value.trim())
            .ok()?
            .duration_since(std::time::SystemTime::now())
            .unwrap_or_default(),
    };
    Some(wait.clamp(Duration::from_millis(100), Duration::from_secs(60)))
}

fn to_message(frame: Frame) -> Message {
    match frame {
        Frame::Text(text) => Message::text(text),
        Frame::Binary(bytes) => Message::binary(bytes),
    }
}

async fn pump(
    mut socket: Socket,
    encoding: Encoding,
    outgoing: &mut mpsc::UnboundedReceiver<ClientEnvelope>,
    events: &mpsc::UnboundedSender<NetEvent>,
) -> Ended {
    // Often enough that the round trip sent with moves follows the connection; far within
    // the server's message rate.
    let mut ping = tokio::time::interval(Duration::from_secs(5));
    // The ping awaiting its pong: its number and when it left.
    let mut awaited: Option<(u64, Instant)> = None;
    let mut pings = 0u64;
    let mut wait = None;
    loop {
        tokio::select! {
            envelope = outgoing.recv() => {
                let Some(envelope) = envelope else {
                    let _ = socket.close(None).await;
                    return Ended::Quit;
                };
                if let Err(error) = socket.send(to_message(encoding.encode(&envelope))).await {
                    return Ended::Dropped { reason: error.to_string(), wait };
                }
            }
            _ = ping.tick() => {
                pings += 1;
                awaited = Some((pings, Instant::now()));
                if let Err(error) = socket.send(Message::Ping(pings.to_be_bytes().to_vec().into())).await {
                    return Ended::Dropped { reason: error.to_string(), wait };
                }
            }
            incoming = socket.next() => {
                let frame = match &incoming {
                    Some(Ok(Message::Text(text))) => FrameRef::Text(text.as_bytes()),
                    Some(Ok(Message::Binary(bytes))) => FrameRef::Binary(bytes),
                    Some(Ok(Message::Close(close))) => {
                        if close.as_ref().is_some_and(|c| u16::from(c.code) == close::SESSION_ENDED) {
                            return Ended::LoggedOut;
                        }
                        let reason = close.as_ref().map_or_else(
                            || "the server closed the connection".to_owned(),
                            |c| format!("the server closed the connection ({} {})", u16::from(c.code), c.reason),
                        );
                        return Ended::Dropped { reason, wait };
                    }
                    Some(Ok(Message::Pong(payload))) => {
                        if let Some((n, sent)) = awaited
                            && payload.as_ref() == n.to_be_bytes()
                        {
                            awaited = None;
                            if events.send(NetEvent::RoundTrip(sent.elapsed())).is_err() {
                                return Ended::Quit;
                            }
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(error)) => return Ended::Dropped { reason: error.to_string(), wait },
                    None => return Ended::Dropped { reason: "connection lost".to_owned(), wait },
                };
                let event = match encoding.decode_server(frame) {
                    Ok(message) => {
                        if let ServerMessage::Shutdown(notice) = &message {
                            wait = Some(Duration::from_millis(notice.reconnect_after_ms.clamp(100, 60_000)));
                        }
                        NetEvent::Message(Box::new(message))
                    }
                    Err(error) => NetEvent::Garbled(error.to_string()),
                };
                if events.send(event).is_err() {
                    return Ended::Quit;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tls_errors_are_permanent_and_said_in_words_and_the_rest_are_retried() {
        let url = "wss://localhost:1/ws";
        let io = |error: rustls::Error| {
            WsError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, error))
        };
        let untrusted = io(rustls::Error::InvalidCertificate(
            rustls::CertificateError::UnknownIssuer,
        ));
        let Refused::Permanent(reason) = refused(&untrusted, url, "localhost", None) else {
            panic!("an untrusted certificate is retried");
        };
        assert!(
            reason.contains("the server's certificate is not trusted: pass --ca-file FILE"),
            "{reason}"
        );
        let Refused::Permanent(reason) =
            refused(&untrusted, url, "localhost", Some(Path::new("my.crt")))
        else {
            panic!("an untrusted certificate is retried");
        };
        assert!(reason.contains("--ca-file my.crt"), "{reason}");
        let refused_tcp = WsError::Io(std::io::ErrorKind::ConnectionRefused.into());
        assert!(matches!(
            refused(&refused_tcp, url, "localhost", None),
            Refused::Transient { .. }
        ));
    }

    /// A stand-in server that answers every upgrade with `status_line` and `headers`; the
    /// instants it was asked at go to the returned receiver.
    async fn refusing(
        status_line: &'static str,
        headers: &'static str,
    ) -> (String, mpsc::UnboundedReceiver<tokio::time::Instant>) {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/wsx", listener.local_addr().unwrap());
        let (asked, asked_rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let _ = asked.send(tokio::time::Instant::now());
                let mut stream = BufReader::new(stream);
                let mut line = String::new();
                while stream.read_line(&mut line).await.unwrap_or(0) > 0 && line != "\r\n" {
                    line.clear();
                }
                let answer = format!(
                    "HTTP/1.1 {status_line}\r\n{headers}Content-Length: 0\r\nConnection: close\r\n\r\n"
                );
                let _ = stream.get_mut().write_all(answer.as_bytes()).await;
            }
        });
        (url, asked_rx)
    }

    fn start(url: &str) -> mpsc::UnboundedReceiver<NetEvent> {
        let tls = crate::tls::client_config(None).unwrap();
        let (_, _, events) = spawn(url.to_owned(), Encoding::Json, tls, None, None);
        events
    }

    #[tokio::test]
    async fn an_http_refusal_of_the_upgrade_is_permanent_and_said_in_a_plain_sentence() {
        let (url, mut asked) = refusing("404 Not Found", "").await;
        let mut events = start(&url);
        match events.recv().await {
            Some(NetEvent::Failed { reason }) => assert_eq!(
                reason,
                format!(
                    "the server at {url} answered 404 Not Found for /wsx: is the path right? the default is /ws"
                )
            ),
            other => panic!("a 404 is not permanent: {other:?}"),
        }
        assert!(events.recv().await.is_none(), "it went on after failing");
        assert!(asked.recv().await.is_some());
        assert!(asked.try_recv().is_err(), "asked again after a 404");

        let (url, _) = refusing("403 Forbidden", "").await;
        match start(&url).recv().await {
            Some(NetEvent::Failed { reason }) => {
                assert!(reason.contains("403 Forbidden"), "{reason}")
            }
            other => panic!("a 403 is not permanent: {other:?}"),
        }
    }

    /// The upgrade's answer names the subprotocol the client asked for, as the server's does.
    /// (The error type is the handshake callback's own.)
    #[allow(clippy::result_large_err)]
    fn answer(
        request: &tokio_tungstenite::tungstenite::handshake::server::Request,
        mut response: tokio_tungstenite::tungstenite::handshake::server::Response,
    ) -> Result<
        tokio_tungstenite::tungstenite::handshake::server::Response,
        tokio_tungstenite::tungstenite::handshake::server::ErrorResponse,
    > {
        if let Some(asked) = request.headers().get("Sec-WebSocket-Protocol") {
            response
                .headers_mut()
                .insert("Sec-WebSocket-Protocol", asked.clone());
        }
        Ok(response)
    }

    #[tokio::test]
    async fn a_close_with_session_ended_stops_and_says_to_log_in_again() {
        use tokio_tungstenite::tungstenite::protocol::CloseFrame;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("ws://{}/ws", listener.local_addr().unwrap());
        let (asked, mut asked_rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let _ = asked.send(());
                let mut socket = tokio_tungstenite::accept_hdr_async(stream, answer)
                    .await
                    .unwrap();
                let frame = CloseFrame {
                    code: close::SESSION_ENDED.into(),
                    reason: "session_ended".into(),
                };
                let _ = socket.close(Some(frame)).await;
            }
        });
        // The app stays (its sender held), as a running session's does.
        let tls = crate::tls::client_config(None).unwrap();
        let (_app, _, mut events) = spawn(url, Encoding::Json, tls, None, None);
        assert!(matches!(events.recv().await, Some(NetEvent::Connected)));
        match events.recv().await {
            Some(NetEvent::Failed { reason }) => {
                assert_eq!(reason, SESSION_ENDED);
                assert!(reason.contains("boardcast login"), "{reason}");
            }
            other => panic!("a 4001 close is not the end: {other:?}"),
        }
        assert!(
            events.recv().await.is_none(),
            "it went on after the session ended"
        );
        assert!(asked_rx.recv().await.is_some());
        assert!(
            asked_rx.try_recv().is_err(),
            "dialled again with an ended login"
        );
    }

    #[tokio::test]
    async fn a_busy_server_is_tried_again_after_its_retry_after() {
        let (url, mut asked) = refusing("503 Service Unavailable", "Retry-After: 1\r\n").await;
        let mut events = start(&url);
        for _ in 0..2 {
            match events.recv().await {
                Some(NetEvent::Disconnected { reason, retry_ms }) => {
                    assert!(reason.contains("503 Service Unavailable"), "{reason}");
                    // Its own backoff would say 250 ms, then 500 ms.
                    assert_eq!(retry_ms, 1000, "{reason}");
                }
                other => panic!("a busy server is not tried again: {other:?}"),
            }
        }
        let first = asked.recv().await.unwrap();
        let second = asked.recv().await.unwrap();
        assert!(
            second - first >= Duration::from_millis(1000),
            "asked again after {:?}",
            second - first
        );
    }

    #[test]
    fn retry_after_is_read_in_seconds_or_as_a_date_and_bounded() {
        assert_eq!(retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(retry_after("86400"), Some(Duration::from_secs(60)));
        assert_eq!(
            retry_after("Thu, 01 Jan 1970 00:00:00 GMT"),
            Some(Duration::from_millis(100))
        );
        assert_eq!(retry_after("soon"), None);
    }

    #[test]
    fn backoff_doubles_up_to_ten_seconds() {
        assert_eq!(backoff(0), Duration::from_millis(250));
        assert_eq!(backoff(1), Duration::from_millis(500));
        assert_eq!(backoff(3), Duration::from_secs(2));
        assert_eq!(backoff(20), Duration::from_secs(10));
    }
}
