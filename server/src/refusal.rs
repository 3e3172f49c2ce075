//! A typed refusal, shared by matches, channels and the connection that answers for them:
//! nothing changed, and this is why.

use boardcast_protocol::ErrorCode;

use crate::storage::StorageError;

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

    /// The refusal for a storage failure, `what` saying what did not happen:
    /// `storage_unavailable` while the database cannot be reached (the same command may
    /// succeed later), `internal` otherwise.
    pub fn storage(err: &StorageError, what: &str) -> Self {
        match err {
            StorageError::Unavailable(_) => Refusal::new(
                ErrorCode::StorageUnavailable,
                format!("storage is unavailable: {what}; try again shortly"),
            ),
            _ => Refusal::new(ErrorCode::Internal, format!("storage failed: {what}")),
        }
    }
}
