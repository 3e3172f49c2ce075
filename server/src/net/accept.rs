//! The accept loop: admits each TCP connection under the connection limits (in all and per
//! client address), tunes its socket, and serves HTTP/1.1 on it (with a deadline for the
//! request head, and upgrades to WebSocket) until shutdown.
//!
//! Every accepted connection holds an [`Admission`](crate::net::limits::Admission) for its whole
//! life, handed on to the WebSocket session it may become: so a client that connects and
//! never completes a request counts against `--max-connections` and its address's
//! `--max-connections-per-address`, and is closed after `--handshake-timeout`. A connection
//! over a limit is still answered (its upgrade closes with 1013 and the reason) while refusal
//! places last; beyond them it is closed at once. Either way the hit is counted and logged.
//!
//! With TLS ([`crate::net::tls`]) the handshake comes first, and must also complete within
//! `--handshake-timeout`; then the request head has its own `--handshake-timeout`.

use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use crate::net::address::{ClientAddr, Peer};
use crate::net::app::App;
use crate::net::limits::Admission;
use crate::ops::shutdown::{Shutdown, TaskGuard, Tasks};

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
    app: App,
    mut shutdown: Shutdown,
    tasks: Tasks,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(app.config.handshake_timeout);
    loop {
        // A place of some kind first, then the connection: when every place is taken,
        // connections wait in the kernel's backlog.
        tokio::select! {
            _ = shutdown.recv() => return,
            () = app.limit.ready() => {}
        }
        let (stream, peer) = tokio::select! {
            _ = shutdown.recv() => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    tracing::warn!(%err, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        let Some(admission) = admit(&app, peer) else {
            continue;
        };
        let Some(guard) = tasks.guard() else { return };
        tune(&stream);
        let connection = Accepted {
            http: http.clone(),
            router: router.clone(),
            app: app.clone(),
            peer,
            admission,
            guard,
        };
        let mut shutdown = shutdown.clone();
        tokio::spawn(async move {
            match connection.app.tls.clone() {
                None => connection.serve(stream, shutdown).await,
                Some(tls) => {
                    let timeout = connection.app.config.handshake_timeout;
                    let handshake = tokio::select! {
                        stream = tls.accept(stream, timeout) => stream,
                        _ = shutdown.recv() => None,
                    };
                    if let Some(stream) = handshake {
                        connection.serve(stream, shutdown).await;
                    }
                }
            }
        });
    }
}

/// Takes a place for a connection from `peer`, recording a hit when it is over a limit;
/// `None` when it is to be closed at once.
fn admit(app: &App, peer: SocketAddr) -> Option<Admission> {
    let via_proxy = app.proxies.contains(peer.ip());
    let address = ClientAddr::of(peer.ip());
    match app.limit.admit((!via_proxy).then_some(address)) {
        Ok(admission) => {
            if let Err(refused) = admission.verdict() {
                app.address_limits
                    .hit(refused.kind, address, &refused.reason);
            }
            Some(admission)
        }
        Err(refused) => {
            let reason = format!("{}; closed at once", refused.reason);
            app.address_limits.hit(refused.kind, address, &reason);
            None
        }
    }
}

/// An accepted connection and what serving it needs.
pub struct Accepted {
    pub http: http1::Builder,
    pub router: Router,
    pub app: App,
    pub peer: SocketAddr,
    pub admission: Admission,
    pub guard: TaskGuard,
}

impl Accepted {
    /// Serves HTTP/1.1 on `io` until the client leaves or shutdown; every request carries
    /// the connection's [`Admission`] and its [`Peer`].
    pub async fn serve<S>(self, io: S, mut shutdown: Shutdown)
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        let Accepted {
            http,
            router,
            app,
            peer,
            admission,
            guard,
        } = self;
        let service = {
            let admission = admission.clone();
            hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                let via_proxy = app.proxies.contains(peer.ip());
                let client = app.proxies.client_ip(peer.ip(), request.headers());
                let extensions = request.extensions_mut();
                extensions.insert(admission.clone());
                extensions.insert(Peer {
                    client: ClientAddr::of(client),
                    via_proxy,
                });
                router.clone().oneshot(request)
            })
        };
        let connection = http
            .serve_connection(TokioIo::new(io), service)
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
