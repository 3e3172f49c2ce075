//! The accept loop: admits each TCP connection under the connection limit, tunes its socket,
//! and serves HTTP/1.1 on it (with a deadline for the request head, and upgrades to
//! WebSocket) until shutdown.
//!
//! Every accepted connection holds an [`Admission`](crate::limits::Admission) for its whole
//! life, handed on to the WebSocket session it may become: so a client that connects and
//! never completes a request counts against `--max-connections`, and is closed after
//! `--handshake-timeout`.

use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::limits::ConnectionLimit;
use crate::shutdown::{Shutdown, Tasks};

/// The kernel send buffer of an accepted socket. Moves and events are small; a client that
/// does not read fills this quickly, and then the connection's bounded outbox, and is
/// dropped — instead of the kernel autotuning the buffer up to megabytes first.
pub const SEND_BUFFER: usize = 64 * 1024;

/// How long to wait before accepting again after `accept` failed (e.g. out of descriptors).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Accepts and serves connections on `listener` until `shutdown` fires. Each connection's
/// task holds a guard from `tasks`, so shutdown waits for connections still finishing a
/// request.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limit: ConnectionLimit,
    handshake_timeout: Duration,
    mut shutdown: Shutdown,
    tasks: Tasks,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(handshake_timeout);
    loop {
        // A place under the limit first, then the connection: beyond the limit and its
        // refusal headroom, connections wait in the kernel's backlog.
        let admission = tokio::select! {
            _ = shutdown.recv() => return,
            admission = limit.admit() => admission,
        };
        let stream = tokio::select! {
            _ = shutdown.recv() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(err) => {
                    tracing::warn!(%err, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let Some(guard) = tasks.guard() else { return };
        tune(&stream);
        let http = http.clone();
        let router = router.clone();
        let mut shutdown = shutdown.clone();
        tokio::spawn(async move {
            let service = {
                let admission = admission.clone();
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    request.extensions_mut().insert(admission.clone());
                    router.clone().oneshot(request)
                })
            };
            let connection = http
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            tokio::pin!(connection);
            let result = tokio::select! {
                result = connection.as_mut() => result,
                _ = shutdown.recv() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(err) = result {
                tracing::debug!(%err, "HTTP connection ended with an error");
            }
            drop(admission);
            drop(guard);
        });
    }
}

/// Sets what every accepted socket needs: no Nagle delay for small frames, and a small
/// kernel send buffer ([`SEND_BUFFER`]). Failures are logged; the connection is still served.
pub fn tune(stream: &TcpStream) {
    if let Err(err) = stream.set_nodelay(true) {
        tracing::debug!(%err, "cannot set TCP_NODELAY");
    }
    if let Err(err) = socket2::SockRef::from(stream).set_send_buffer_size(SEND_BUFFER) {
        tracing::debug!(%err, "cannot set SO_SNDBUF");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_sockets_have_no_delay_and_a_small_send_buffer() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let client = tokio::spawn(TcpStream::connect(addr));
        let (stream, _) = listener.accept().await.unwrap();
        tune(&stream);
        assert!(stream.nodelay().unwrap());
        let size = socket2::SockRef::from(&stream).send_buffer_size().unwrap();
        // Linux doubles the value asked for (bookkeeping); it never autotunes a set size.
        assert!(size <= 2 * SEND_BUFFER, "send buffer {size}");
        drop(client);
    }
}
