//! The storage vocabulary, on the ground floor: what a backend does ([`Store`]) and how
//! storage fails ([`StorageError`]). The backends ([`super::sqlite`], [`super::postgres`]) and
//! the handle ([`super::Storage`]) are built on it; it depends on none of them.

use std::fmt;
use std::sync::Arc;

use boardcast_protocol::LeaderboardEntry;

use super::accounts::AccountStore;
use super::club::StoredClubEvent;
use super::coordination::Coordination;
use super::read::{ArchivedGame, MatchKey, StoredMatch};
use super::write::{ChatLineRow, Write};

/// Why storage failed. The text is written for an operator reading the log.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// SQLite could not open, read or set up the database.
    #[error("database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// PostgreSQL answered a statement with an error (a connection that is lost is
    /// [`StorageError::Unavailable`] instead).
    #[error("database: {}", with_cause(.0))]
    Postgres(#[source] tokio_postgres::Error),
    /// The PostgreSQL URL does not parse (`database` is named without its password).
    #[error("database: {database}: {source}")]
    Url {
        database: String,
        #[source]
        source: tokio_postgres::Error,
    },
    /// The schema could not be brought up to date.
    #[error("database: migrating the schema: {}", with_cause(.0))]
    Migrate(#[source] tokio_postgres::Error),
    /// The pool of read connections could not be built.
    #[error("database: {0}")]
    Pool(#[source] deadpool::managed::BuildError),
    /// The database is not in a state this server can use, for a reason of its own (no error
    /// of the database's behind it).
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
    Refused(#[source] Refused),
    /// A blocking storage task panicked or was cancelled.
    #[error("a storage task failed: {0}")]
    Task(#[source] tokio::task::JoinError),
    /// The storage writer thread could not be started.
    #[error("cannot start the storage writer thread: {0}")]
    Thread(#[source] std::io::Error),
    /// The database server cannot be reached now; nothing was stored. The store reconnects by
    /// itself, so the same request may succeed later.
    #[error("the database is unavailable: {0}")]
    Unavailable(#[source] Unavailable),
    /// The write was made under an epoch that is no longer the match's (or owned thing's): a
    /// newer owner has taken it over, so nothing of that request was stored. Whoever wrote it
    /// must stop running the match.
    #[error(
        "{match_id} has moved to another node: epoch {epoch} is no longer its epoch, nothing \
         was stored"
    )]
    Fenced { match_id: String, epoch: u64 },
    /// The writer has stopped (after [`Store::close`]).
    #[error("the storage writer has stopped")]
    Closed,
    /// A write could not be encoded for the database (a record that does not serialize).
    #[error("database: {0}")]
    Encode(#[source] serde_json::Error),
}

/// Why the database refused a write. One failed commit answers every request of its group, so
/// the database's error is shared ([`Arc`]) rather than copied into text.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Refused {
    /// SQLite refused a statement or the commit.
    #[error("{0}")]
    Sqlite(#[source] Arc<rusqlite::Error>),
    /// PostgreSQL refused a statement or the commit.
    #[error("{}", with_cause(.0.as_ref()))]
    Postgres(#[source] Arc<tokio_postgres::Error>),
    /// A record the caller decided itself does not apply to its state: a bug, not bad input,
    /// so it is not written.
    #[error("{0}")]
    Inconsistent(String),
}

/// Why the database cannot be reached now. Every request of a group the writer could not
/// store is answered alike, so the error behind it is shared ([`Arc`]).
#[derive(Debug, Clone, thiserror::Error)]
pub enum Unavailable {
    /// The connection to PostgreSQL is lost, or the server cannot serve it now.
    #[error("PostgreSQL: {}", with_cause(.0.as_ref()))]
    Lost(#[source] Arc<tokio_postgres::Error>),
    /// No read connection could be taken from the pool in time.
    #[error("PostgreSQL: {0}")]
    Pool(#[source] Arc<deadpool_postgres::PoolError>),
    /// Every SQLite read connection stayed busy (or none could be opened) for as long as a
    /// read waits for one.
    #[error("SQLite: no read connection came free in time")]
    NoReader,
    /// PostgreSQL did not answer a group's transaction in time.
    #[error("no answer from PostgreSQL in time")]
    NoAnswer,
    /// The writer has no connection and is reconnecting.
    #[error("PostgreSQL is unreachable; reconnecting")]
    Reconnecting,
    /// The connection was lost while a group was in doubt, and PostgreSQL then said that it
    /// was not stored.
    #[error("the connection to PostgreSQL was lost; nothing was stored")]
    NotStored,
    /// A lease renew got no answer within its time to live.
    #[error("no answer to a lease renew")]
    LeaseRenew,
    /// A test switched the store off.
    #[cfg(test)]
    #[error("switched off by the test")]
    SwitchedOff,
}

/// What a storage backend does. Implementations keep the promises in [`super`]'s doc; callers
/// reach it through the handle [`super::Storage`], which derefs to it.
#[async_trait::async_trait]
pub trait Store: fmt::Debug + Send + Sync + 'static {
    /// Writes `writes` atomically; completes once they are durable.
    async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError>;
    /// Every unfinished match, oldest first, with its events in order (recovery at start-up).
    async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError>;
    /// The unfinished games of club event `event` (the matches whose set-up names it), oldest
    /// first, with their events in order: what a restarted event director looks through for a
    /// game created but never recorded, without reading every other unfinished match.
    async fn unfinished_of_event(&self, event: String) -> Result<Vec<StoredMatch>, StorageError>;
    /// The PDN of finished match `id`.
    async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError>;
    /// A finished match read back whole (set-up and every event), by id or by seat token.
    async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError>;
    /// The best `limit` predictors: most correct − strikes, then most correct, then by name.
    async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError>;
    /// Finished engine game `id`, or `None` if there is none (or it never finished).
    async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError>;
    /// The first engine-game id never used (1 on a fresh database).
    async fn next_game_id(&self) -> Result<u64, StorageError>;
    /// Records that a new server run starts and returns its number: 0 on a fresh database,
    /// then one more at every start. Durable before it returns, so no crash can hand out a
    /// run twice.
    async fn next_run(&self) -> Result<u64, StorageError>;
    /// Every stored chat line of match `match_id`, deleted ones marked, in order: what a
    /// match's chat is rebuilt from after a restart or a take-over.
    async fn chat_lines(&self, match_id: String) -> Result<Vec<ChatLineRow>, StorageError>;
    /// The newest [`Write::Heartbeat`] stored (`None` if there never was one); read at start,
    /// before this run writes one, it approximates when the previous run stopped.
    async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError>;
    /// The coordination of the nodes sharing this database (leases, owners, epochs), or `None`
    /// on SQLite, which serves a single node.
    fn coordination(&self) -> Option<Arc<dyn Coordination>> {
        None
    }
    /// The accounts, sessions, tokens and seats of this database.
    fn accounts(&self) -> Arc<dyn AccountStore>;
    /// Every club event (only the unfinished ones with `unfinished_only`), oldest first,
    /// with its records in order.
    async fn club_events(
        &self,
        unfinished_only: bool,
    ) -> Result<Vec<StoredClubEvent>, StorageError>;
    /// Club events without their records (`records` is empty), newest first (by creation,
    /// then id): the unfinished ones if `finished` is false, else the finished ones; `limit`
    /// of them from the `offset`-th. One indexed range, however many events there are: the
    /// list of events reads a page of them (`GET /api/events?page=N`).
    async fn club_event_heads(
        &self,
        finished: bool,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<StoredClubEvent>, StorageError>;
    /// Whether `account` may create events (granted by a club admin,
    /// [`super::club::EventWrite::Organiser`]).
    async fn is_organiser(&self, account: i64) -> Result<bool, StorageError>;
    /// Club event `id` with its records, or `None` if there is none.
    async fn club_event(&self, id: String) -> Result<Option<StoredClubEvent>, StorageError>;
    /// Club event `id`'s records after version `after`, in order, at most `limit` of them:
    /// what a node that follows an event run on another node reads each time, as it has the
    /// older ones (empty if there is no such event).
    async fn club_event_records(
        &self,
        id: String,
        after: u64,
        limit: u32,
    ) -> Result<Vec<super::StoredEvent>, StorageError>;
    /// Commits everything sent before and stops the writer; later commits fail with
    /// [`StorageError::Closed`].
    async fn close(&self);
}

/// `err` with its cause: some errors (tokio-postgres') print only their kind ("db error") on
/// their own.
pub(crate) fn with_cause(err: &dyn std::error::Error) -> String {
    match err.source() {
        Some(cause) => format!("{err}: {cause}"),
        None => err.to_string(),
    }
}
