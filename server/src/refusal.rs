//! A typed refusal, shared by matches, channels and the connection that answers for them:
//! nothing changed, and this is why.

use boardcast_protocol::{ErrorArgs, ErrorCode};

use crate::storage::StorageError;

/// Why a command was refused; the client receives `code` and `message` in an `error` reply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    /// On [`ErrorCode::StaleId`], the last id the seat carried out (the reply's `last_id`).
    pub last_id: Option<u64>,
    /// The reason within the code and what it names, for clients that word the refusal in
    /// the player's language (the reply's `args`); `None` when the code says it all.
    pub args: Option<ErrorArgs>,
}

impl Refusal {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Refusal {
            code,
            message: message.into(),
            last_id: None,
            args: None,
        }
    }

    /// With its reason and arguments (one of [`boardcast_protocol::REASONS`]).
    pub fn with(mut self, args: ErrorArgs) -> Self {
        debug_assert!(
            boardcast_protocol::REASONS
                .iter()
                .any(|spec| spec.code == self.code && spec.reason == args.reason),
            "{:?} {} is not in REASONS",
            self.code,
            args.reason
        );
        self.args = Some(args);
        self
    }

    /// The refusal for a storage failure, `what` saying what did not happen:
    /// `storage_unavailable` while the database cannot be reached, or when the match has moved
    /// to another node (the same command may succeed later, or there), `internal` otherwise.
    pub fn storage(err: &StorageError, what: &str) -> Self {
        match err {
            StorageError::Unavailable(_) => Refusal::new(
                ErrorCode::StorageUnavailable,
                format!("storage is unavailable: {what}; try again shortly"),
            ),
            StorageError::Fenced { .. } => Refusal::new(
                ErrorCode::StorageUnavailable,
                format!("the match moved to another server: {what}; send it again"),
            ),
            _ => Refusal::new(ErrorCode::Internal, format!("storage failed: {what}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fenced_write_is_answered_as_a_match_that_moved() {
        let fenced = StorageError::Fenced {
            match_id: "m".into(),
            epoch: 3,
        };
        assert_eq!(
            Refusal::storage(&fenced, "nothing was applied"),
            Refusal::new(
                ErrorCode::StorageUnavailable,
                "the match moved to another server: nothing was applied; send it again"
            )
        );
    }
}
