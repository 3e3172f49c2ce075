//! The baseline: a bare tokio-tungstenite echo server, and round trips against it of a binary
//! frame the size of a Boardcast move message.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use boardcast_protocol::{ClientEnvelope, ClientMessage, Encoding, PlayMove};
use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

use crate::report;
use crate::ws::Ramp;
use crate::{Error, duration, loopback};

#[derive(Debug, clap::Args)]
pub struct ServerArgs {
    /// Loopback address to listen on.
    #[arg(long, default_value = "127.0.0.1:7980", value_parser = loopback)]
    pub listen: SocketAddr,
    /// Stop after this long (Ctrl-C stops it earlier).
    #[arg(long, default_value = "30m", value_parser = duration)]
    pub duration: Duration,
}

#[derive(Debug, clap::Args)]
pub struct ClientArgs {
    /// The echo server (`boardcast-load echo-server`).
    #[arg(long, default_value = "127.0.0.1:7980", value_parser = loopback)]
    pub addr: SocketAddr,
    /// Connections, each with one frame in flight at a time.
    #[arg(long, default_value_t = 1)]
    pub count: usize,
    /// How long to measure.
    #[arg(long, default_value = "10s", value_parser = duration)]
    pub duration: Duration,
    /// Frame size in bytes; default: the size of an encoded move envelope.
    #[arg(long)]
    pub size: Option<usize>,
    /// The echo server's process id, to report its CPU use.
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// A move envelope shaped like the ones the matches scenario sends (uuid-sized match id and
/// token, a two-square route), postcard-encoded: the echo payload.
pub fn move_sized_frame() -> Vec<u8> {
    let envelope = ClientEnvelope {
        id: 1000,
        msg: ClientMessage::Move(PlayMove {
            match_id: "0b9d3a5e-6f5c-4f7e-9d43-0c1c2a7e9b11".to_owned(),
            token: "8f14e45f-ceea-467a-9c5b-3e1d2f7a6b90".to_owned(),
            route: vec![32, 28],
            lag_ms: None,
        }),
    };
    match Encoding::Postcard.encode(&envelope) {
        boardcast_protocol::Frame::Binary(bytes) => bytes,
        boardcast_protocol::Frame::Text(text) => text.into_bytes(),
    }
}

/// Runs the echo server until the duration is over or Ctrl-C.
pub async fn serve(args: ServerArgs) -> Result<(), Error> {
    let listener = TcpListener::bind(args.listen).await?;
    eprintln!(
        "echo server on ws://{} for at most {:?}",
        listener.local_addr()?,
        args.duration
    );
    let accept = crate::ws::accept_forever(listener, |stream| async move {
        let _ = stream.set_nodelay(true);
        let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
            return;
        };
        while let Some(Ok(message)) = ws.next().await {
            if message.is_close() {
                break;
            }
            if (message.is_binary() || message.is_text()) && ws.send(message).await.is_err() {
                break;
            }
        }
    });
    tokio::select! {
        () = accept => {}
        () = tokio::time::sleep(args.duration) => eprintln!("echo server: duration over"),
        _ = tokio::signal::ctrl_c() => eprintln!("echo server: interrupted"),
    }
    Ok(())
}

/// The echo scenario on its own.
pub async fn run(args: ClientArgs) -> Result<(), Error> {
    report::header("echo", &report::command_line());
    let frame = match args.size {
        Some(size) => vec![0x5a; size],
        None => move_sized_frame(),
    };
    let before = report::Cpu::now(args.server_pid.as_slice());
    let result = measure(args.addr, args.count, args.duration, frame).await?;
    let after = report::Cpu::now(args.server_pid.as_slice());
    result.print("echo");
    report::cpu_line(&before, &after, result.window);
    Ok(())
}

/// What one echo measurement found.
pub struct EchoResult {
    pub connections: usize,
    pub frame_bytes: usize,
    pub window: Duration,
    pub round_trips: Histogram<u64>,
    pub failed: u64,
}

impl EchoResult {
    pub fn print(&self, name: &str) {
        println!(
            "{name}: {} connections, one {}-byte binary frame in flight each, window {:.1} s, {} failed",
            self.connections,
            self.frame_bytes,
            self.window.as_secs_f64(),
            self.failed
        );
        println!(
            "{name}: {:.0} round trips/s",
            report::rate(self.round_trips.len(), self.window)
        );
        println!(
            "{}",
            report::latency_line(&format!("{name} round trip"), &self.round_trips)
        );
    }
}

/// Opens `count` connections to the echo server and keeps one frame in flight on each for
/// `window`, recording every round trip.
pub async fn measure(
    addr: SocketAddr,
    count: usize,
    window: Duration,
    frame: Vec<u8>,
) -> Result<EchoResult, Error> {
    let ramp = Ramp::new(128);
    let mut sockets = Vec::with_capacity(count);
    let mut connecting = tokio::task::JoinSet::new();
    for _ in 0..count {
        let ramp = ramp.clone();
        connecting.spawn(async move { ramp.raw(addr, "/").await });
    }
    while let Some(joined) = connecting.join_next().await {
        sockets.push(joined??);
    }
    let stop = Arc::new(AtomicBool::new(false));
    let failed = Arc::new(AtomicU64::new(0));
    let frame_bytes = frame.len();
    let payload = tokio_tungstenite::tungstenite::Bytes::from(frame);
    let histogram = report::Shared::new();
    let mut tasks = tokio::task::JoinSet::new();
    let start = Instant::now();
    for mut ws in sockets {
        let stop = stop.clone();
        let failed = failed.clone();
        let payload = payload.clone();
        let histogram = histogram.clone();
        tasks.spawn(async move {
            while !stop.load(Ordering::Relaxed) {
                let sent = Instant::now();
                if ws.send(Message::Binary(payload.clone())).await.is_err() {
                    failed.fetch_add(1, Ordering::Relaxed);
                    break;
                }
                loop {
                    match ws.next().await {
                        Some(Ok(Message::Binary(_))) => break,
                        Some(Ok(_)) => continue,
                        _ => {
                            failed.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    }
                }
                histogram.record(sent.elapsed());
            }
            let _ = ws.close(None).await;
        });
    }
    tokio::time::sleep(window).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = start.elapsed();
    while let Some(joined) = tasks.join_next().await {
        joined?;
    }
    let round_trips = histogram.snapshot();
    Ok(EchoResult {
        connections: count,
        frame_bytes,
        window: elapsed,
        round_trips,
        failed: failed.load(Ordering::Relaxed),
    })
}
