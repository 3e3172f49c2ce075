//! The HTTP side of the one port: `/healthz`, the WebSocket upgrade at `/ws` (its `Origin`
//! check, subprotocol negotiation, the connection's [`Admission`] under the limit, buffer
//! sizes), finished games as PDN at `/games/{id}.pdn`, and the web client ([`crate::web`]).

use axum::Router;
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade};
use axum::extract::{Extension, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use boardcast_protocol::Encoding;
use boardcast_protocol::limits::{MAX_SERVER_FRAME_BYTES, close};

use crate::connection;
use crate::limits::Admission;
use crate::origin::AllowedOrigins;
use crate::server::App;
use crate::web;

/// Bytes tungstenite reserves to read into. Its default (128 KiB per connection) is far more
/// than client messages (a few hundred bytes) need; this keeps an idle connection small.
const READ_BUFFER: usize = 1024;

/// The router for every route of the port.
pub fn router(app: App) -> Router {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/ws", get(websocket))
        .route("/games/{file}", get(game_pdn))
        .merge(web::router())
        .with_state(app)
}

async fn healthz() -> &'static str {
    "ok\n"
}

async fn websocket(
    State(app): State<App>,
    Extension(admission): Extension<Admission>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    if let Err(why) = AllowedOrigins::new(&app.config.allowed_origins).check(&headers) {
        return (StatusCode::FORBIDDEN, format!("{why}\n")).into_response();
    }
    let offered: Vec<String> = upgrade
        .requested_protocols()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(',').map(|p| p.trim().to_owned()))
        .collect();
    let Some(encoding) = Encoding::negotiate(offered.iter().map(String::as_str)) else {
        return upgrade.on_upgrade(|mut socket| async move {
            let _ = socket
                .send(Message::Close(Some(CloseFrame {
                    code: close::PROTOCOL_ERROR,
                    reason: "offer subprotocol boardcast.v1.json or boardcast.v1.postcard".into(),
                })))
                .await;
        });
    };
    let mut upgrade = upgrade
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(2 * MAX_SERVER_FRAME_BYTES)
        // Frames a little over the limit are read and answered with `too_large`; far over
        // it, the connection closes (1009).
        .max_message_size(2 * app.config.max_message)
        .max_frame_size(2 * app.config.max_message);
    upgrade.set_selected_protocol(HeaderValue::from_static(encoding.subprotocol()));
    let guard = app.tasks.guard();
    upgrade.on_upgrade(move |mut socket| async move {
        match (admission, guard) {
            (Admission::Slot(permit), Some(guard)) => {
                connection::run(socket, encoding, app, permit, guard).await;
            }
            (Admission::Refused(_), _) => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: close::TRY_AGAIN_LATER,
                        reason: "server at its connection limit".into(),
                    })))
                    .await;
            }
            (_, None) => {
                let _ = socket
                    .send(Message::Close(Some(CloseFrame {
                        code: close::GOING_AWAY,
                        reason: "server shutting down".into(),
                    })))
                    .await;
            }
        }
    })
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
        Err(err) => {
            tracing::error!(%err, "cannot read a game");
            (StatusCode::INTERNAL_SERVER_ERROR, "storage error\n").into_response()
        }
    }
}
