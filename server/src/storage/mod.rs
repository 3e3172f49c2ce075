//! Durable storage: one handle, one trait, a backend chosen when the store is opened.
//!
//! Every match is stored as its set-up plus an append-only list of versioned events; engine
//! games, the prediction leaderboard and the server's runs are stored beside them. Matches and
//! channels hold a [`Storage`] — a cheap handle over an `Arc<dyn Store>` — and never learn
//! which database is behind it. All SQL lives in the backends ([`sqlite`], [`postgres`]).
//!
//! # What every backend promises
//! - **Ack only after a durable commit.** [`Storage::commit`] completes only once its writes are
//!   committed durably (SQLite: the WAL fsynced at `synchronous = FULL`; PostgreSQL: `COMMIT`
//!   returned with `synchronous_commit` on). A match acknowledges
//!   or broadcasts an event only after that answer, so an acknowledged move survives `kill -9`.
//! - **Group commit.** One writer takes requests from many matches and applies everything that
//!   is waiting in one transaction — one commit, one fsync, for the whole group — and answers
//!   every request only after that commit.
//! - **One savepoint per request**, so a request the database refuses does not spoil the others
//!   of its group: they are committed, it is answered with [`StorageError::Refused`].
//! - **A refused write leaves everything as before**: none of that request's writes is stored.
//! - **Reads see committed writes**: a read that starts after a commit was answered sees it.

pub(crate) mod accounts;
pub(crate) mod club;
pub(crate) mod coordination;
mod database;
pub(crate) mod migrate;
pub(crate) mod postgres;
mod queue;
mod read;
pub(crate) mod seat_tokens;
pub(crate) mod sqlite;
mod store;
mod table;
#[cfg(test)]
pub(crate) mod tests;
mod write;

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::watch;
use tokio::time::Instant;

pub use database::Database;
pub(crate) use database::without_password;
pub(crate) use read::{ArchivedGame, MatchKey, StoredEvent, StoredMatch};
pub(crate) use store::{Refused, StorageError, Store, Unavailable};
pub use write::{ChannelWrite, LeaderboardDelta, Write};
pub(crate) use write::{
    ChatLineRow, ChatMuteRow, ChatWrite, FinishedGame, RatingChange, StartedGame,
};

/// The accounts of `database` alone, without opening its matches (`boardcast-server admin`,
/// also while a server runs on it): creates or migrates the account tables first.
pub(crate) async fn open_accounts(
    database: &Database,
) -> Result<Arc<dyn accounts::AccountStore>, StorageError> {
    match database {
        Database::Sqlite(path) => {
            let path = path.clone();
            tokio::task::spawn_blocking(move || {
                let conn = rusqlite::Connection::open(&path)?;
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                conn.pragma_update(None, "journal_mode", "WAL")?;
                sqlite::create_tables(&conn)?;
                Ok::<_, StorageError>(Arc::new(sqlite::accounts::SqliteAccounts::new(path, None)?)
                    as Arc<dyn accounts::AccountStore>)
            })
            .await
            .map_err(StorageError::Task)?
        }
        Database::Postgres(url) => Ok(Arc::new(
            postgres::accounts::PgAccounts::connect(url).await?,
        )),
    }
}

/// A handle on the store; cheap to clone into every match and channel.
#[derive(Debug, Clone)]
pub struct Storage {
    store: Arc<dyn Store>,
    /// Since when this node's writes have failed (none while they succeed): shared by every
    /// handle, so a match that writes nothing learns of an outage the heartbeat (or another
    /// match) ran into, and holds its clock from then (PROTOCOL.md §12).
    down_since: Arc<watch::Sender<Option<Instant>>>,
}

/// Milliseconds since the Unix epoch, as stored.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Storage {
    /// Opens `database`, whichever backend it names: creates or migrates its tables, starts
    /// the writer and reads every unfinished match back. Node `node` of a cluster (`None`: a
    /// single server) recovers no match at start (the list is empty): it runs the matches it
    /// claims; a cluster needs PostgreSQL, so a node on SQLite is refused.
    pub async fn open(
        database: &Database,
        node: Option<&str>,
    ) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        match database {
            Database::Sqlite(_) if node.is_some() => Err(StorageError::Database(format!(
                "{database}: several nodes share one PostgreSQL database, not SQLite"
            ))),
            Database::Sqlite(path) => {
                let path = path.clone();
                let (store, recovered) =
                    tokio::task::spawn_blocking(move || sqlite::Sqlite::open(&path))
                        .await
                        .map_err(StorageError::Task)??;
                Ok((Storage::new(store), recovered))
            }
            Database::Postgres(url) => {
                let (store, recovered) = postgres::Postgres::connect(url, node).await?;
                Ok((Storage::new(store), recovered))
            }
        }
    }

    /// A handle on `store`.
    pub(crate) fn new(store: impl Store) -> Storage {
        Storage {
            store: Arc::new(store),
            down_since: Arc::new(watch::Sender::new(None)),
        }
    }

    /// Commits `writes` ([`Store::commit`]), noting whether storage takes writes: a write
    /// refused for storage's own sake (unreachable, a full disk, a failing file) marks it
    /// down from the moment the write was handed over, and any write that succeeds marks it
    /// up again.
    pub(crate) async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        let handed_over = Instant::now();
        let committed = self.store.commit(writes).await;
        match &committed {
            Ok(()) => {
                self.down_since
                    .send_if_modified(|down| down.take().is_some());
            }
            Err(
                StorageError::Unavailable(_)
                | StorageError::Refused(Refused::Sqlite(_) | Refused::Postgres(_))
                | StorageError::Closed,
            ) => {
                self.down_since.send_if_modified(|down| match down {
                    Some(_) => false,
                    None => {
                        *down = Some(handed_over);
                        true
                    }
                });
            }
            Err(_) => {}
        }
        committed
    }

    /// Since when storage has refused this node's writes, if it does now.
    pub(crate) fn down_since(&self) -> Option<Instant> {
        *self.down_since.borrow()
    }

    /// Hears storage go down ([`Storage::down_since`] turns `Some`) and come back.
    pub(crate) fn watch_down(&self) -> watch::Receiver<Option<Instant>> {
        self.down_since.subscribe()
    }
}

/// The handle is the store: its calls are the [`Store`] trait's, with nothing in between.
impl std::ops::Deref for Storage {
    type Target = dyn Store;

    fn deref(&self) -> &dyn Store {
        &*self.store
    }
}
