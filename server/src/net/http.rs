//! The HTTP side of the one port: `/healthz`, the WebSocket upgrade at `/ws` (its `Origin`
//! check, subprotocol negotiation, the connection's [`Admission`] under the limits, the
//! address's upgrade rate, buffer sizes), finished games as PDN at `/games/{id}.pdn`,
//! `/metrics` (unless it has its own address) and the web client ([`crate::net::web`]).

use std::sync::Arc;

use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use boardcast_protocol::Encoding;
use boardcast_protocol::limits::{MAX_SERVER_FRAME_BYTES, close};

use crate::net::address::Peer;
use crate::net::app::App;
use crate::net::connection;
use crate::net::limits::{Admission, SessionPlaces};
use crate::net::per_address::{OverLimit, Rated};
use crate::net::public_url;
use crate::net::web;
use crate::storage::StorageError;

/// Bytes tungstenite reserves to read into. Its default (128 KiB per connection) is far more
/// than client messages (a few hundred bytes) need; this keeps an idle connection small.
/// Tungstenite zero-fills the whole buffer on its first read, so all of it is resident on
/// every idle connection; a move, an ack or a ping fits, and a longer frame makes the buffer
/// grow to that frame's length (read up to this many bytes per call), so 256 rather than
/// 1 KiB saves 768 bytes an idle connection never uses (BENCHMARKS.md "Idle connections").
const READ_BUFFER: usize = 256;
/// How many bytes of frames tungstenite gathers before it writes without being flushed: a
/// few dozen reveals, and small enough that the buffer a burst leaves behind (its capacity
/// stays) costs little per connection.
const WRITE_BUFFER: usize = 4 * 1024;

/// The router for every route of the port; `/metrics` too unless it has its own
/// `--metrics-listen` address.
pub(crate) fn router(app: App) -> Router {
    // One `App` for every connection to point at (see `connection::Connection::app`).
    let shared = Arc::new(app.clone());
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/ws", get(websocket).layer(Extension(shared)))
        .route("/games/{file}", get(game_pdn))
        .merge(crate::accounts::http::routes(app.site()))
        .merge(crate::events::http::routes(app.site(), app.events.clone()))
        .merge(web::router());
    let router = match app.config.metrics_listen {
        None => router.merge(crate::net::metrics_page::routes()),
        Some(_) => router,
    };
    router.with_state(app)
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn websocket(
    State(app): State<App>,
    Extension(shared): Extension<Arc<App>>,
    Extension(admission): Extension<Admission>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if let Err(why) = app.origins().check(&headers) {
        return (StatusCode::FORBIDDEN, format!("{why}\n")).into_response();
    }
    // Who the connection acts as: the session cookie or bearer token, checked before the
    // upgrade so a wrong, revoked or closed account's credential is refused with a typed
    // 401/403 (no credential: a guest).
    let account = match app.accounts.authenticate(&headers).await {
        Ok(account) => account,
        Err(err) => return crate::accounts::http::refuse_upgrade(err),
    };
    // Read from the headers themselves, in the client's order: `requested_protocols` gives
    // them sorted (a set), which would always pick `boardcast.v1.json` over an earlier
    // `boardcast.v1.postcard`, where PROTOCOL.md promises the first offered.
    let offered = headers
        .get_all(header::SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','));
    let Some(encoding) = Encoding::negotiate(offered) else {
        return close_at_once(
            upgrade,
            close::PROTOCOL_ERROR,
            "offer subprotocol boardcast.v1.json or boardcast.v1.postcard".into(),
        );
    };
    let mut upgrade = upgrade
        .read_buffer_size(READ_BUFFER)
        // Frames queued together are fed into this buffer and written with one flush
        // (`connection::Batch`); a lone frame is flushed at once all the same.
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(2 * MAX_SERVER_FRAME_BYTES)
        // Frames a little over the limit are read and answered with `too_large`; far over
        // it, the connection closes (1009).
        .max_message_size(2 * app.config.max_message)
        .max_frame_size(2 * app.config.max_message);
    upgrade.set_selected_protocol(HeaderValue::from_static(encoding.subprotocol()));
    // A place for the session: the connection's own, and for a connection from a trusted
    // proxy one under the forwarded address's limit.
    let place = match admission.verdict() {
        Err(refused) => Err(refused.clone()),
        Ok(()) if peer.via_proxy => app
            .limit
            .claim(peer.client)
            .map(Some)
            .inspect_err(|refused| {
                app.address_limits
                    .hit(refused.kind, peer.client, &refused.reason);
            }),
        Ok(()) => Ok(None),
    };
    let proxied = match place {
        Ok(proxied) => proxied,
        Err(refused) => return close_at_once(upgrade, close::TRY_AGAIN_LATER, refused.reason),
    };
    if let Err(over) = app.address_limits.take(Rated::Upgrades, peer.client) {
        return too_many_requests(&over);
    }
    let Some(guard) = app.tasks.guard() else {
        return close_at_once(upgrade, close::GOING_AWAY, "server shutting down".into());
    };
    let public_url = public_url::for_request(
        app.config.public_url.as_ref(),
        app.tls.is_some(),
        peer.via_proxy,
        &headers,
        &app.config.listen.to_string(),
    );
    // Boxed, so the upgrade's closure holds a pointer until the socket is ready.
    let session = Box::new(connection::Session {
        account,
        client: peer.client,
        public_url,
        places: SessionPlaces {
            _connection: admission,
            _proxied: proxied,
        },
        guard,
    });
    upgrade.on_upgrade(move |socket| connection::run(socket, encoding, shared, session))
}

/// Completes the upgrade only to close at once with `code` and `reason` (which the client
/// sees, where an HTTP refusal would reach a browser's page as a bare failure).
fn close_at_once(upgrade: WebSocketUpgrade, code: u16, reason: String) -> Response {
    upgrade.on_upgrade(move |mut socket| async move {
        let _ = socket
            .send(Message::Close(Some(CloseFrame {
                code,
                reason: reason.into(),
            })))
            .await;
    })
}

/// HTTP 429 with the reason and when to try again.
fn too_many_requests(over: &OverLimit) -> Response {
    let seconds = over.retry_after.as_secs_f64().ceil().max(1.0) as u64;
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, seconds.to_string())],
        format!("{}\n", over.message),
    )
        .into_response()
}

async fn game_pdn(State(app): State<App>, Path(file): Path<String>) -> Response {
    let Some(id) = file
        .strip_suffix(".pdn")
        .filter(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric()))
    else {
        return (
            StatusCode::NOT_FOUND,
            "games are served as /games/{id}.pdn\n",
        )
            .into_response();
    };
    match app.hub.storage().finished_pdn(id.to_owned()).await {
        Ok(Some(pdn)) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-pdn; charset=utf-8".to_owned(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"{id}.pdn\""),
                ),
            ],
            pdn,
        )
            .into_response(),
        Ok(None) => (StatusCode::NOT_FOUND, format!("no finished game {id}\n")).into_response(),
        Err(err @ StorageError::Unavailable(_)) => {
            tracing::warn!(%err, "cannot read a game");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "5")],
                "storage is unavailable; try again shortly\n",
            )
                .into_response()
        }
        Err(err) => {
            tracing::error!(%err, "cannot read a game");
            (StatusCode::INTERNAL_SERVER_ERROR, "storage error\n").into_response()
        }
    }
}
