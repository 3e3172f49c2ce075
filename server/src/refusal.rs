//! A typed refusal, shared by matches, channels and the connection that answers for them:
//! nothing changed, and this is why.
//!
//! Every refusal carries its reason and arguments (issue 34): [`Refusal::new`] gives only a
//! [`Draft`], which becomes a `Refusal` by [`Draft::with`] its [`ErrorArgs`], so a refusal
//! the server could send without them does not compile, and `with` checks in debug builds
//! (every test) that the reason is one of [`boardcast_protocol::REASONS`] with exactly the
//! arguments listed there, so both clients can word it from their catalogues.

use boardcast_protocol::{ErrorArgs, ErrorCode};
use serde::{Deserialize, Serialize};

use crate::storage::StorageError;

/// Why a command was refused; the client receives `code`, `message` and `args` in an `error`
/// reply. Serialisable: a node relays another node's refusal whole (its args too).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{message}")]
pub struct Refusal {
    pub code: ErrorCode,
    pub message: String,
    /// On [`ErrorCode::StaleId`], the last id the seat carried out (the reply's `last_id`).
    pub last_id: Option<u64>,
    /// The reason within the code and what it names, for clients that word the refusal in
    /// the player's language (the reply's `args`). Always `Some`: [`Draft::with`] is how a
    /// refusal is made (an `Option` as the reply's field is, which older servers left `null`).
    pub args: Option<ErrorArgs>,
}

/// A refusal's code and English text, waiting for its reason and arguments.
#[must_use = "a refusal is sent with its reason: add it with `.with(ErrorArgs::new(…))`"]
#[derive(Debug)]
pub struct Draft {
    code: ErrorCode,
    message: String,
}

impl Refusal {
    /// The code and English text of a refusal; [`Draft::with`] its reason makes it one.
    #[allow(clippy::new_ret_no_self)]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Draft {
        Draft {
            code,
            message: message.into(),
        }
    }

    /// [`ErrorCode::NotAllowed`] for `reason`, which takes no arguments.
    pub fn not_allowed(reason: &'static str, message: impl Into<String>) -> Self {
        Refusal::new(ErrorCode::NotAllowed, message).with(ErrorArgs::new(reason))
    }

    /// The refusal for a storage failure, `what` saying what did not happen:
    /// `storage_unavailable` while the database cannot be reached, or when the match has moved
    /// to another node (the same command may succeed later, or there), `internal` otherwise.
    pub fn storage(err: &StorageError, what: &str) -> Self {
        match err {
            StorageError::Unavailable(_) => Refusal::new(
                ErrorCode::StorageUnavailable,
                format!("storage is unavailable: {what}; try again shortly"),
            )
            .with(ErrorArgs::new("unreachable")),
            StorageError::Fenced { .. } => Refusal::new(
                ErrorCode::StorageUnavailable,
                format!("the match moved to another server: {what}; send it again"),
            )
            .with(ErrorArgs::new("match_moved")),
            _ => Refusal::new(ErrorCode::Internal, format!("storage failed: {what}"))
                .with(ErrorArgs::new("storage_failed")),
        }
    }
}

impl Draft {
    /// The refusal, with its reason and arguments: one of [`boardcast_protocol::REASONS`],
    /// each argument that reason lists and no other.
    pub fn with(self, args: ErrorArgs) -> Refusal {
        debug_assert!(
            boardcast_protocol::REASONS
                .iter()
                .any(|spec| spec.code == self.code
                    && spec.reason == args.reason
                    && args.numbers.keys().eq(sorted(spec.numbers))
                    && args.words.keys().eq(sorted(spec.words))),
            "{:?} {:?} is not in REASONS with these arguments",
            self.code,
            args
        );
        Refusal {
            code: self.code,
            message: self.message,
            last_id: None,
            args: Some(args),
        }
    }
}

/// `names` in the order an [`ErrorArgs`] map keeps its keys.
fn sorted(names: &[&'static str]) -> Vec<&'static str> {
    let mut names = names.to_vec();
    names.sort_unstable();
    names
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
            .with(ErrorArgs::new("match_moved"))
        );
    }

    /// A reason outside REASONS, or one missing an argument, is caught where it is made.
    #[test]
    #[should_panic(expected = "is not in REASONS")]
    fn a_refusal_without_its_listed_arguments_is_caught_where_it_is_made() {
        let _ = Refusal::new(ErrorCode::IllegalMove, "no piece").with(ErrorArgs::new("no_piece"));
    }
}
