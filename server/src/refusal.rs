//! A typed refusal, shared by matches, channels and the connection that answers for them:
//! nothing changed, and this is why.

use boardcast_protocol::ErrorCode;

/// Why a command was refused; the client receives `code` and `message` in an `error` reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
}

impl Refusal {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
        }
    }
}
