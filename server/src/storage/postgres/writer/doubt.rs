//! A group in doubt: its connection was lost after its `COMMIT` may have reached PostgreSQL,
//! so nobody knows yet whether it was stored.
//!
//! Answering such a group "unavailable" would be safe for the players (nothing unstored is
//! ever acknowledged), but if it was stored after all, the match that sent it goes on from
//! the version before and its next write of that version is refused for good. So the writer
//! keeps what it needs to find out — the transaction's id, and the answers it would give if
//! the transaction committed — and after a loss it reconnects and asks `txid_status` before
//! it answers, for at most [`RESOLVE_WAIT`]. Only when PostgreSQL stays away longer than that
//! is the group answered unavailable without knowing.

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use tokio_postgres::Client;

use crate::storage::StorageError;

/// How long the writer tries to learn a group's fate before answering it unavailable.
pub(super) const RESOLVE_WAIT: Duration = Duration::from_secs(5);

/// What is known of the group's transaction on its way, in case its connection is lost.
#[derive(Debug, Default)]
pub(super) struct Doubt(Mutex<Known>);

#[derive(Debug, Default)]
struct Known {
    /// The transaction's id, once PostgreSQL told it.
    txid: Option<i64>,
    /// The answers to give if the transaction commits; set just before `COMMIT` is sent.
    if_committed: Option<Vec<Result<(), StorageError>>>,
}

impl Doubt {
    fn known(&self) -> std::sync::MutexGuard<'_, Known> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A new transaction begins: nothing is known of it.
    pub(super) fn begin(&self) {
        *self.known() = Known::default();
    }

    /// PostgreSQL gave the transaction id `txid`.
    pub(super) fn txid(&self, txid: i64) {
        self.known().txid = Some(txid);
    }

    /// `COMMIT` is about to be sent; `outcomes` are the answers if it goes through.
    pub(super) fn commit_sent(&self, outcomes: Vec<Result<(), StorageError>>) {
        self.known().if_committed = Some(outcomes);
    }

    /// The answers set by [`Doubt::commit_sent`], taken back once `COMMIT` answered.
    pub(super) fn settle(&self) -> Vec<Result<(), StorageError>> {
        self.known().if_committed.take().unwrap_or_default()
    }

    /// The transaction id and the answers if committed, when the group may have been stored.
    pub(super) fn in_doubt(&self) -> Option<(i64, Vec<Result<(), StorageError>>)> {
        let mut known = self.known();
        let txid = known.txid?;
        Some((txid, known.if_committed.take()?))
    }
}

/// Whether transaction `txid` committed, asked on a new connection made by `connect` (returned
/// for the writer to keep); `None` if PostgreSQL could not tell within [`RESOLVE_WAIT`].
pub(super) async fn resolve<Connecting>(
    connect: impl Fn() -> Connecting,
    txid: i64,
) -> Option<(Client, bool)>
where
    Connecting: Future<Output = Result<Client, StorageError>>,
{
    let asking = async {
        let mut client: Option<Client> = None;
        let mut backoff = Duration::from_millis(50);
        loop {
            if client.as_ref().is_none_or(Client::is_closed) {
                client = connect().await.ok();
            }
            if let Some(asked) = &client {
                match status(asked, txid).await {
                    Ok(Some(committed)) => return client.map(|client| (client, committed)),
                    // Still running in the old session (it has not noticed the loss yet).
                    Ok(None) => {}
                    Err(err) => {
                        tracing::debug!(%err, "cannot ask whether a group committed yet");
                        client = None;
                    }
                }
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(1));
        }
    };
    tokio::time::timeout(RESOLVE_WAIT, asking)
        .await
        .ok()
        .flatten()
}

/// `Some(committed)` once transaction `txid` has ended; `None` while it is in progress.
async fn status(client: &Client, txid: i64) -> Result<Option<bool>, StorageError> {
    let row = client.query_one("SELECT txid_status($1)", &[&txid]).await?;
    Ok(match row.get::<_, Option<String>>(0).as_deref() {
        Some("in progress") => None,
        Some("committed") => Some(true),
        // Aborted, or too old to be known (not a transaction of a moment ago).
        _ => Some(false),
    })
}
