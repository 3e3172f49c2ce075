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
pub(crate) mod sqlite;
mod table;
#[cfg(test)]
pub(crate) mod tests;
mod write;

use std::fmt;
use std::path::Path;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use boardcast_protocol::LeaderboardEntry;
use futures_util::future::BoxFuture;

use coordination::Coordination;
pub use database::Database;
pub(crate) use database::without_password;
pub(crate) use read::{ArchivedGame, MatchKey, StoredEvent, StoredMatch};
pub use write::{ChannelWrite, LeaderboardDelta, Write};
pub(crate) use write::{FinishedGame, RatingChange, StartedGame};

/// Why storage failed. The text is written for an operator reading the log.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The database could not be opened or read.
    #[error("database: {0}")]
    Database(String),
    /// The database cannot be used as it is set up (no such directory, database or role, no
    /// server on that port, in use by a running server): what is wrong, and what the operator
    /// does about it.
    #[error("{problem}: {remedy}")]
    Setup { problem: String, remedy: String },
    /// The database was made by a newer server: its schema is not one this server knows.
    #[error(
        "the database has schema version {found}, but this server knows versions up to \
         {known}: run a newer boardcast-server on it"
    )]
    SchemaTooNew { found: i64, known: i64 },
    /// The database refused a write (a constraint, a full disk, a failed commit): nothing of
    /// that request was stored.
    #[error("the database refused the write: {0}")]
    Refused(String),
    /// A blocking storage task panicked or was cancelled.
    #[error("a storage task failed: {0}")]
    Task(String),
    /// The storage writer thread could not be started.
    #[error("cannot start the storage writer thread: {0}")]
    Thread(#[source] std::io::Error),
    /// The database server cannot be reached now; nothing was stored. The store reconnects by
    /// itself, so the same request may succeed later.
    #[error("the database is unavailable: {0}")]
    Unavailable(String),
    /// The write was made under an epoch that is no longer the match's (or owned thing's): a
    /// newer owner has taken it over, so nothing of that request was stored. Whoever wrote it
    /// must stop running the match.
    #[error(
        "{match_id} has moved to another node: epoch {epoch} is no longer its epoch, nothing \
         was stored"
    )]
    Fenced { match_id: String, epoch: u64 },
    /// The writer has stopped (after [`Storage::close`]).
    #[error("the storage writer has stopped")]
    Closed,
}

/// What a storage backend does. Implementations keep the promises in the module doc; the
/// handle [`Storage`] is the only caller.
pub trait Store: fmt::Debug + Send + Sync + 'static {
    /// Writes `writes` atomically; completes once they are durable.
    fn commit(&self, writes: Vec<Write>) -> BoxFuture<'_, Result<(), StorageError>>;
    /// Every unfinished match, oldest first, with its events in order (recovery at start-up).
    fn unfinished(&self) -> BoxFuture<'_, Result<Vec<StoredMatch>, StorageError>>;
    /// The PDN of finished match `id`.
    fn finished_pdn(&self, id: String) -> BoxFuture<'_, Result<Option<String>, StorageError>>;
    /// A finished match whole, by id or by seat token.
    fn finished_match(
        &self,
        key: MatchKey,
    ) -> BoxFuture<'_, Result<Option<StoredMatch>, StorageError>>;
    /// The best `limit` predictors: most correct − strikes, then most correct, then by name.
    fn leaderboard(&self, limit: u32)
    -> BoxFuture<'_, Result<Vec<LeaderboardEntry>, StorageError>>;
    /// Finished engine game `id`.
    fn archived_game(&self, id: u64) -> BoxFuture<'_, Result<Option<ArchivedGame>, StorageError>>;
    /// The first engine-game id never used (1 on a fresh database).
    fn next_game_id(&self) -> BoxFuture<'_, Result<u64, StorageError>>;
    /// Records that a server run starts, durably, and returns its number (0, 1, …).
    fn next_run(&self) -> BoxFuture<'_, Result<u64, StorageError>>;
    /// The newest [`Write::Heartbeat`] stored (`None` if there never was one).
    fn last_heartbeat(&self) -> BoxFuture<'_, Result<Option<i64>, StorageError>>;
    /// The coordination of the nodes sharing this database; `None` for a single-node store.
    fn coordination(&self) -> Option<Arc<dyn Coordination>> {
        None
    }
    /// The accounts, sessions, tokens and seats of this database.
    fn accounts(&self) -> Arc<dyn accounts::AccountStore>;
    /// Every club event (only the unfinished ones with `unfinished_only`), oldest first,
    /// with its records in order.
    fn club_events(
        &self,
        unfinished_only: bool,
    ) -> BoxFuture<'_, Result<Vec<club::StoredClubEvent>, StorageError>>;
    /// Club event `id` with its records.
    fn club_event(
        &self,
        id: String,
    ) -> BoxFuture<'_, Result<Option<club::StoredClubEvent>, StorageError>>;
    /// Commits everything sent before and stops the writer.
    fn close(&self) -> BoxFuture<'_, ()>;
}

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
                Ok::<_, StorageError>(Arc::new(sqlite::accounts::SqliteAccounts::new(path))
                    as Arc<dyn accounts::AccountStore>)
            })
            .await
            .map_err(|err| StorageError::Task(err.to_string()))?
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
}

/// Milliseconds since the Unix epoch, as stored.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Storage {
    /// Opens (or creates) the SQLite database at `path`, reads every unfinished match and
    /// starts the writer. Blocking: call it off the runtime.
    pub fn open(path: &Path) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        let (store, recovered) = sqlite::Sqlite::open(path)?;
        Ok((Storage::new(store), recovered))
    }

    /// Connects to the PostgreSQL database at `url`, creates or migrates its tables, reads
    /// every unfinished match and starts the writer.
    pub async fn connect(url: &str) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        Storage::connect_as(url, None).await
    }

    /// [`Storage::connect`] for node `node` of a cluster (`None`: a single server). A node
    /// recovers no match at start (the list is empty): it runs the matches it claims.
    pub async fn connect_as(
        url: &str,
        node: Option<&str>,
    ) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        let (store, recovered) = postgres::Postgres::connect(url, node).await?;
        Ok((Storage::new(store), recovered))
    }

    /// Opens `database`, whichever backend it names.
    pub async fn open_database(
        database: &Database,
    ) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        Storage::open_database_as(database, None).await
    }

    /// Opens `database` for node `node` of a cluster (see [`Storage::connect_as`]); a cluster
    /// needs PostgreSQL, so a node on SQLite is refused.
    pub async fn open_database_as(
        database: &Database,
        node: Option<&str>,
    ) -> Result<(Storage, Vec<StoredMatch>), StorageError> {
        match database {
            Database::Sqlite(_) if node.is_some() => Err(StorageError::Database(format!(
                "{database}: several nodes share one PostgreSQL database, not SQLite"
            ))),
            Database::Sqlite(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || Storage::open(&path))
                    .await
                    .map_err(|err| StorageError::Task(err.to_string()))?
            }
            Database::Postgres(url) => Storage::connect_as(url, node).await,
        }
    }

    /// A handle on `store`.
    pub fn new(store: impl Store) -> Storage {
        Storage {
            store: Arc::new(store),
        }
    }

    /// Writes `writes` atomically; completes once they are durable.
    pub async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        self.store.commit(writes).await
    }

    /// Every unfinished match, oldest first, with its events in order.
    pub async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError> {
        self.store.unfinished().await
    }

    /// The PDN of a finished match, or `None` if there is no finished match `id`.
    pub async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
        self.store.finished_pdn(id).await
    }

    /// A finished match read back whole (set-up and every event), or `None` if `key` names
    /// no finished match.
    pub async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
        self.store.finished_match(key).await
    }

    /// The best `limit` predictors: most correct − strikes, then most correct, then by name.
    pub async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
        self.store.leaderboard(limit).await
    }

    /// Finished engine game `id`, or `None` if there is none (or it never finished).
    pub async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError> {
        self.store.archived_game(id).await
    }

    /// The first engine-game id not yet used.
    pub async fn next_game_id(&self) -> Result<u64, StorageError> {
        self.store.next_game_id().await
    }

    /// Records that a new server run starts and returns its number: 0 on a fresh database,
    /// then one more at every start. Durable before it returns, so no crash can hand out a
    /// run twice.
    pub async fn next_run(&self) -> Result<u64, StorageError> {
        self.store.next_run().await
    }

    /// When the server last stored that it was alive ([`Write::Heartbeat`]); read at start,
    /// before this run writes one, it approximates when the previous run stopped.
    pub async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError> {
        self.store.last_heartbeat().await
    }

    /// The coordination of the nodes sharing this database (leases, owners, epochs), or `None`
    /// on SQLite, which serves a single node.
    pub fn coordination(&self) -> Option<Arc<dyn Coordination>> {
        self.store.coordination()
    }

    /// The accounts, sessions, tokens and seats of this database ([`accounts`]).
    pub fn accounts(&self) -> Arc<dyn accounts::AccountStore> {
        self.store.accounts()
    }

    /// Every club event (only the unfinished ones with `unfinished_only`), oldest first, with
    /// its records in order ([`club`]).
    pub async fn club_events(
        &self,
        unfinished_only: bool,
    ) -> Result<Vec<club::StoredClubEvent>, StorageError> {
        self.store.club_events(unfinished_only).await
    }

    /// Club event `id` with its records, or `None` if there is none.
    pub async fn club_event(
        &self,
        id: String,
    ) -> Result<Option<club::StoredClubEvent>, StorageError> {
        self.store.club_event(id).await
    }

    /// Commits everything sent before and stops the writer; later commits fail with
    /// [`StorageError::Closed`].
    pub async fn close(&self) {
        self.store.close().await
    }
}
