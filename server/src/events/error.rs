//! Why an event request is refused: each a code a client can act on, a status, and words.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A refused event request; nothing was changed. It travels between the nodes of a cluster
/// as the owner's answer to a request another node forwarded (`cluster::directors`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub(crate) enum EventError {
    #[error("log in first (no valid session or token)")]
    Unauthenticated,
    #[error("only an admin or a member with the organiser right creates events")]
    NotOrganiser,
    #[error("only a club admin grants the organiser right")]
    NotAdmin,
    #[error("{0}")]
    Invalid(String),
    #[error("no event {0}")]
    NotFound(String),
    #[error("you are in this event already")]
    AlreadyJoined,
    #[error("you are not playing in this event")]
    NotJoined,
    #[error("the event is over")]
    Finished,
    #[error("a round-robin cannot be joined once it has started")]
    Started,
    #[error(
        "a round is being played: withdraw between rounds; a join is taken until the last round"
    )]
    RoundInProgress,
    #[error("wrong event password")]
    WrongPassword,
    #[error("{0}")]
    NotEligible(String),
    #[error("the event is busy: try again")]
    Busy,
    /// In a cluster: no node runs the event's director just now (its node died and another is
    /// taking it over, or its answer did not come back in time).
    #[error("the event is moving to another server: try again shortly")]
    Moving,
    #[error("storage failed: try again")]
    Storage,
    /// A member who withdrew from a round-robin after its start: their remaining games were
    /// scored as lost, and its field is fixed.
    #[error("you withdrew from this round-robin after its start: you cannot join it again")]
    LeftForGood,
}

impl EventError {
    pub(crate) fn code(&self) -> &'static str {
        match self {
            EventError::Unauthenticated => "unauthenticated",
            EventError::NotOrganiser => "not_organiser",
            EventError::NotAdmin => "forbidden",
            EventError::Invalid(_) => "invalid_argument",
            EventError::NotFound(_) => "not_found",
            EventError::AlreadyJoined => "already_joined",
            EventError::NotJoined => "not_joined",
            EventError::Finished => "event_finished",
            EventError::Started => "event_started",
            EventError::RoundInProgress => "round_in_progress",
            EventError::WrongPassword => "wrong_password",
            EventError::NotEligible(_) => "not_eligible",
            EventError::Busy => "busy",
            EventError::Moving => "event_moving",
            EventError::Storage => "internal",
            EventError::LeftForGood => "left_for_good",
        }
    }

    fn status(&self) -> StatusCode {
        match self {
            EventError::Unauthenticated => StatusCode::UNAUTHORIZED,
            EventError::NotOrganiser
            | EventError::NotAdmin
            | EventError::WrongPassword
            | EventError::NotEligible(_) => StatusCode::FORBIDDEN,
            EventError::Invalid(_) => StatusCode::BAD_REQUEST,
            EventError::NotFound(_) => StatusCode::NOT_FOUND,
            EventError::AlreadyJoined
            | EventError::NotJoined
            | EventError::Finished
            | EventError::Started
            | EventError::RoundInProgress
            | EventError::LeftForGood => StatusCode::CONFLICT,
            EventError::Busy | EventError::Storage | EventError::Moving => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }
}

impl IntoResponse for EventError {
    fn into_response(self) -> Response {
        let body = json!({ "error": { "code": self.code(), "message": self.to_string() } });
        (self.status(), Json(body)).into_response()
    }
}
