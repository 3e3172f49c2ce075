//! The fan-out baseline: a bare tokio-tungstenite server with no game logic. Every interval it
//! encodes one channel event the size of a real ply reveal, once, and hands the same bytes to
//! every subscriber through a `tokio::sync::broadcast` channel; each subscriber's task writes
//! them to its socket. Sockets get the server's own options (`boardcast_server::accept::tune`:
//! `TCP_NODELAY`, a 64 KiB `SO_SNDBUF`) and the server's WebSocket buffers, so `spectators`
//! against this and against the server compares the server's fan-out with the least a
//! WebSocket fan-out can cost on the same machine.
//!
//! It speaks just enough of the protocol for the `spectators` scenario: `welcome` on connect,
//! an `ack` to the first `watch`, then `channel_event`s of `ply_revealed`.

use std::net::SocketAddr;
use std::time::Duration;

use boardcast_protocol::limits::MAX_SERVER_FRAME_BYTES;
use boardcast_protocol::{
    Ack, ChannelEvent, ChannelEventMsg, ClientMessage, Encoding, Frame, FrameRef, Limits,
    PROTOCOL_VERSION, PlyRevealed, ServerMessage, Welcome,
};
use boardcast_server::{GameSpec, RevealedGame};
use futures_util::{SinkExt, StreamExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Bytes, Message};

use crate::{Error, duration, loopback};

#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    /// Loopback address to listen on.
    #[arg(long, default_value = "127.0.0.1:7981", value_parser = loopback)]
    pub listen: SocketAddr,
    /// Time between two reveals: give the server's `--ply-interval`.
    #[arg(long, default_value = "50ms", value_parser = duration)]
    pub interval: Duration,
    /// Frames a subscriber may fall behind before it is dropped: the server's `--outbox`.
    #[arg(long, default_value_t = 256)]
    pub queue: usize,
    /// Stop after this long (Ctrl-C stops it earlier).
    #[arg(long, default_value = "30m", value_parser = duration)]
    pub duration: Duration,
}

/// The channel name every event carries, as the server's first TV channel.
const CHANNEL: &str = "tv1";

/// The server's read buffer (`READ_BUFFER` in `server/src/net/http.rs`): watchers send little.
const READ_BUFFER: usize = 1024;

/// Runs the baseline until the duration is over or Ctrl-C.
pub async fn serve(args: ServerArgs) -> Result<(), Error> {
    let listener = TcpListener::bind(args.listen).await?;
    let reveals = real_reveals(args.interval);
    let sizes: Vec<usize> = (1..=reveals.len() as u64)
        .map(|v| encode(v, &reveals).len())
        .collect();
    eprintln!(
        "fan-out baseline on ws://{}/ws for at most {:?}: one reveal every {:?}, {}..{} bytes \
         (mean {:.0}, the plies of one real game)",
        listener.local_addr()?,
        args.duration,
        args.interval,
        sizes.iter().min().unwrap_or(&0),
        sizes.iter().max().unwrap_or(&0),
        sizes.iter().sum::<usize>() as f64 / sizes.len().max(1) as f64,
    );
    let (events, _) = broadcast::channel::<Bytes>(args.queue.max(1));
    let ticker = {
        let events = events.clone();
        async move {
            let mut ticks = tokio::time::interval(args.interval);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            for v in 1.. {
                ticks.tick().await;
                // No subscriber yet is fine: the event is simply not delivered.
                let _ = events.send(encode(v, &reveals));
            }
        }
    };
    let accept = crate::ws::accept_forever(listener, |stream| {
        boardcast_server::accept::tune(&stream);
        watcher(stream, events.clone())
    });
    tokio::select! {
        () = ticker => {}
        () = accept => {}
        () = tokio::time::sleep(args.duration) => eprintln!("fan-out baseline: duration over"),
        _ = tokio::signal::ctrl_c() => eprintln!("fan-out baseline: interrupted"),
    }
    Ok(())
}

/// The ply reveals of one real MinitChess game, as the server's channel would send them.
fn real_reveals(interval: Duration) -> Vec<PlyRevealed> {
    let mut seed = 0x2545_f491_u32;
    let mut rng = |n: u32| {
        // xorshift32: any deterministic spread of numbers will do.
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed % n.max(1)
    };
    let mut game = RevealedGame::start(1, GameSpec::random(&mut rng, interval));
    let mut reveals = Vec::new();
    while let Some(ply) = game.reveal() {
        reveals.push(PlyRevealed {
            ply: ply.ply,
            mv: ply.mv,
            board: ply.board,
            next_reveal_in_ms: Some(interval.as_millis() as u64),
            legal: ply.legal,
        });
    }
    reveals
}

/// Event `v`, in postcard: the reveals of the game over and over.
fn encode(v: u64, reveals: &[PlyRevealed]) -> Bytes {
    let ply = reveals[(v as usize - 1) % reveals.len()].clone();
    frame_bytes(&ServerMessage::ChannelEvent(ChannelEventMsg {
        channel: CHANNEL.to_owned(),
        v,
        event: ChannelEvent::PlyRevealed(ply),
    }))
}

fn frame_bytes(message: &ServerMessage) -> Bytes {
    match Encoding::Postcard.encode(message) {
        Frame::Binary(bytes) => Bytes::from(bytes),
        Frame::Text(text) => Bytes::from(text.into_bytes()),
    }
}

/// The handshake's answer: the postcard subprotocol when the client offers it. The error type
/// (a whole HTTP response) is tungstenite's, fixed by its `Callback` trait.
#[allow(clippy::result_large_err)]
fn choose_postcard(request: &Request, mut response: Response) -> Result<Response, ErrorResponse> {
    let offered = request
        .headers()
        .get_all("Sec-WebSocket-Protocol")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|value| {
            value
                .split(',')
                .any(|p| p.trim() == Encoding::POSTCARD_SUBPROTOCOL)
        });
    if offered {
        response.headers_mut().insert(
            "Sec-WebSocket-Protocol",
            HeaderValue::from_static(Encoding::POSTCARD_SUBPROTOCOL),
        );
    }
    Ok(response)
}

/// One subscriber: handshake, `welcome`, `ack` to its `watch`, then every event until it
/// leaves or falls `--queue` events behind.
async fn watcher(stream: TcpStream, events: broadcast::Sender<Bytes>) {
    let config = WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(2 * MAX_SERVER_FRAME_BYTES);
    let Ok(ws) =
        tokio_tungstenite::accept_hdr_async_with_config(stream, choose_postcard, Some(config))
            .await
    else {
        return;
    };
    let (mut sink, mut stream) = ws.split();
    let welcome = frame_bytes(&ServerMessage::Welcome(Welcome {
        protocol: PROTOCOL_VERSION,
        server: "boardcast-load fanout-server".to_owned(),
        limits: Limits {
            max_frame_bytes: 4096,
            messages_per_second: 20,
            message_burst: 40,
            idle_timeout_ms: 60_000,
        },
        public_url: String::new(),
        account: None,
    }));
    if sink.send(Message::Binary(welcome)).await.is_err() {
        return;
    }
    // The first `watch` subscribes; anything else before it is ignored.
    let id = loop {
        match stream.next().await {
            Some(Ok(Message::Binary(bytes))) => {
                match Encoding::Postcard.decode_client(FrameRef::Binary(&bytes)) {
                    Ok(envelope) if matches!(envelope.msg, ClientMessage::Watch(_)) => {
                        break envelope.id;
                    }
                    _ => {}
                }
            }
            Some(Ok(Message::Close(_)) | Err(_)) | None => return,
            Some(Ok(_)) => {}
        }
    };
    let mut queue = events.subscribe();
    let ack = frame_bytes(&ServerMessage::Ack(Ack {
        id,
        duplicate: false,
    }));
    if sink.send(Message::Binary(ack)).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            event = queue.recv() => match event {
                Ok(bytes) => {
                    if sink.send(Message::Binary(bytes)).await.is_err() {
                        return;
                    }
                }
                // Fell a whole queue behind: the server would kick it too.
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let _ = sink.send(Message::Close(None)).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => {}
            },
        }
    }
}
