//! The `/metrics` page: served on the public port, or only on `--metrics-listen`.
//!
//! What is counted lives in [`crate::ops::telemetry`]; this module only brings the gauges of what
//! exists up to date from the hub and the channel registry and renders the Prometheus text.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::net::TcpListener;

use crate::net::app::App;
use crate::ops::shutdown::Shutdown;
use crate::ops::telemetry;

/// `GET /metrics`, for the public port or its own listener.
pub(crate) fn routes() -> Router<App> {
    Router::new().route("/metrics", get(metrics_page))
}

async fn metrics_page(State(app): State<App>) -> impl IntoResponse {
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        render(&app),
    )
}

/// Serves [`routes`] on `listener` (`--metrics-listen`) until `shutdown` fires.
pub(crate) async fn serve(listener: TcpListener, app: App, mut shutdown: Shutdown) {
    let router = routes().with_state(app);
    let stopped = async move {
        shutdown.recv().await;
    };
    if let Err(err) = axum::serve(listener, router)
        .with_graceful_shutdown(stopped)
        .await
    {
        tracing::error!(%err, "the metrics listener failed");
    }
}

/// The metrics page: gauges brought up to date from `app`, then everything rendered.
pub(crate) fn render(app: &App) -> String {
    let channels = app.channels.summaries();
    let watchers = channels.iter().map(|c| u64::from(c.watchers)).sum();
    telemetry::gauges(&app.hub.count_by_phase(), channels.len(), watchers);
    telemetry::handle().render()
}
