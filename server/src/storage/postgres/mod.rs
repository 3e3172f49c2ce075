//! The PostgreSQL backend: one writer task with group commit on a connection of its own, and a
//! pool of connections for reads.
//!
//! The writer ([`writer`]) keeps the promises of [`crate::storage`] as SQLite's thread does: a
//! group of requests is one transaction, each request in its own savepoint, and every request
//! is answered only after `COMMIT` returned with `synchronous_commit` on (the WAL is flushed
//! on the database server). Statements of a group are pipelined: one round trip per group, not
//! per statement. When PostgreSQL is unreachable or restarting, requests are answered at once
//! with [`StorageError::Unavailable`] — nothing is acknowledged that is not stored — while the
//! writer reconnects with backoff; play resumes when it is back, without a restart.
//! [`schema`] creates and migrates the tables; [`matches`] and [`archive`] hold the SQL.

pub(crate) mod accounts;
mod archive;
mod chat;
mod club;
mod coordination;
pub(crate) mod copy;
mod matches;
mod schema;
mod setup;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::LeaderboardEntry;
use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use tokio::sync::mpsc;
use tokio_postgres::NoTls;

pub(crate) use coordination::PgCoordination;

use super::club::StoredClubEvent;
use super::coordination::Coordination;
use super::queue;
use super::{
    ArchivedGame, ChatLineRow, Database, MatchKey, StorageError, Store, StoredMatch, Unavailable,
    Write,
};

/// How many read connections the pool holds at most.
const READ_CONNECTIONS: usize = 8;
/// How long a connection attempt or a wait for a pooled connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A PostgreSQL store: the queue to its writer task, the read pool, and the coordination of
/// the nodes sharing the database (over the same pool).
#[derive(Debug)]
pub(crate) struct Postgres {
    tx: mpsc::Sender<queue::Request>,
    pool: Pool,
    coordination: Arc<PgCoordination>,
}

impl Postgres {
    /// Connects to `url` (`postgres://user:password@host:port/database`), creates or migrates
    /// the tables and starts the writer.
    ///
    /// A single server (`node` = `None`) first ends the sessions an earlier run left behind
    /// and reads every unfinished match back. Node `node` of a cluster ends only the sessions
    /// of its own earlier runs, and reads nothing back: the other nodes' matches are theirs,
    /// and it starts a match only once it has claimed it (see [`Coordination`]).
    pub(crate) async fn connect(
        url: &str,
        node: Option<&str>,
    ) -> Result<(Postgres, Vec<StoredMatch>), StorageError> {
        let mut config = parse_url(url)?;
        config.connect_timeout(CONNECT_TIMEOUT);
        let application = match node {
            Some(node) => {
                let options = match config.get_options() {
                    Some(given) => format!("{given} {NODE_OPTIONS}"),
                    None => NODE_OPTIONS.to_owned(),
                };
                config.options(options);
                format!("{APPLICATION}/{node}")
            }
            None => APPLICATION.to_owned(),
        };
        config.application_name(&application);
        let mut client = setup::first_connection(&config).await?;
        schema::migrate(&mut client).await?;
        end_earlier_sessions(&client, &application).await?;
        let recovered = match node {
            Some(_) => Vec::new(),
            None => matches::unfinished(&client)
                .await
                .map_err(StorageError::from)?,
        };
        let link = writer::Link::prepare(client).await?;
        let pool = read_pool(config.clone(), READ_CONNECTIONS)?;
        let tx = writer::start(config, link);
        let coordination = Arc::new(PgCoordination::new(pool.clone()));
        Ok((
            Postgres {
                tx,
                pool,
                coordination,
            },
            recovered,
        ))
    }
}

/// A pool of at most `size` connections to `config`, none waited for longer than
/// [`CONNECT_TIMEOUT`].
fn read_pool(config: tokio_postgres::Config, size: usize) -> Result<Pool, StorageError> {
    let recycling_method = RecyclingMethod::Fast;
    let manager = Manager::from_config(config, NoTls, ManagerConfig { recycling_method });
    Pool::builder(manager)
        .max_size(size)
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(CONNECT_TIMEOUT))
        .create_timeout(Some(CONNECT_TIMEOUT))
        .recycle_timeout(Some(CONNECT_TIMEOUT))
        .build()
        .map_err(StorageError::Pool)
}

/// A connection from `pool`.
async fn pooled(pool: &Pool) -> Result<deadpool_postgres::Client, StorageError> {
    pool.get().await.map_err(|err| match err {
        PoolError::Backend(err) => StorageError::from(err),
        other => StorageError::Unavailable(Unavailable::Pool(Arc::new(other))),
    })
}

/// The `application_name` of a single server's sessions; a cluster node's are
/// `boardcast-server/<node id>`.
const APPLICATION: &str = "boardcast-server";

/// Settings of a cluster node's sessions. A node stopped (`SIGSTOP`, a long pause) in the
/// middle of a transaction — half a pipelined group sent, or a claim — would otherwise keep
/// its row locks on matches for as long as it stays stopped, and the live nodes' claims of
/// those matches would wait for it. PostgreSQL ends such a session instead; the node's writer
/// reconnects when it runs again and answers that group unavailable (nothing of it stored).
const NODE_OPTIONS: &str = "-c idle_in_transaction_session_timeout=2000";

/// The other database sessions on this database with the `application_name` `$1`.
const EARLIER_SESSIONS: &str = "FROM pg_stat_activity WHERE application_name = $1 \
     AND datname = current_database() AND pid <> pg_backend_pid()";

/// How long start-up waits for an earlier run's sessions to end.
const EARLIER_SESSIONS_WAIT: Duration = Duration::from_secs(10);

/// Ends the sessions an earlier run of the server left behind, and waits until they are gone.
///
/// A server killed with `kill -9` leaves its sessions running until they have carried out
/// what it had already sent: a pipelined group commit can still commit after the next run has
/// read its matches back, and that run would then write the same event versions again (and be
/// refused). Ending those sessions first means recovery reads everything they committed and
/// nothing of theirs lands after it. One single server per database: a second live one would
/// lose its sessions too. A cluster node ends only the sessions of its own node id (its
/// `application`): the other nodes' are alive, and the epochs fence its own old writes anyway.
async fn end_earlier_sessions(
    client: &tokio_postgres::Client,
    application: &str,
) -> Result<(), StorageError> {
    let ended = client
        .query(
            format!("SELECT pg_terminate_backend(pid) {EARLIER_SESSIONS}").as_str(),
            &[&application],
        )
        .await?;
    if ended.is_empty() {
        return Ok(());
    }
    tracing::warn!(
        sessions = ended.len(),
        "ended the database sessions of an earlier server run"
    );
    let deadline = tokio::time::Instant::now() + EARLIER_SESSIONS_WAIT;
    loop {
        let left: i64 = client
            .query_one(
                format!("SELECT count(*) {EARLIER_SESSIONS}").as_str(),
                &[&application],
            )
            .await?
            .get(0);
        if left == 0 {
            return Ok(());
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(StorageError::Database(format!(
                "{left} session(s) of an earlier server run did not end within {}s",
                EARLIER_SESSIONS_WAIT.as_secs()
            )));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[async_trait::async_trait]
impl Store for Postgres {
    async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        queue::commit(&self.tx, writes).await
    }

    async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError> {
        Ok(matches::unfinished(&*pooled(&self.pool).await?).await?)
    }

    async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError> {
        Ok(matches::last_heartbeat(&*pooled(&self.pool).await?).await?)
    }

    async fn unfinished_of_event(&self, event: String) -> Result<Vec<StoredMatch>, StorageError> {
        Ok(matches::unfinished_of_event(&*pooled(&self.pool).await?, &event).await?)
    }

    async fn chat_lines(&self, match_id: String) -> Result<Vec<ChatLineRow>, StorageError> {
        Ok(chat::lines(&pooled(&self.pool).await?, &match_id).await?)
    }

    async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
        Ok(matches::finished_pdn(&pooled(&self.pool).await?, &id).await?)
    }

    async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
        Ok(matches::finished_match(&pooled(&self.pool).await?, &key).await?)
    }

    async fn club_events(
        &self,
        unfinished_only: bool,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        Ok(club::all(&*pooled(&self.pool).await?, unfinished_only).await?)
    }

    async fn club_event_heads(
        &self,
        finished: bool,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        Ok(club::heads(&*pooled(&self.pool).await?, finished, offset, limit).await?)
    }

    async fn club_event(&self, id: String) -> Result<Option<StoredClubEvent>, StorageError> {
        Ok(club::one(&*pooled(&self.pool).await?, &id).await?)
    }

    async fn club_event_records(
        &self,
        id: String,
        after: u64,
        limit: u32,
    ) -> Result<Vec<crate::storage::StoredEvent>, StorageError> {
        Ok(club::records_after(&*pooled(&self.pool).await?, &id, after, limit).await?)
    }

    async fn is_organiser(&self, account: i64) -> Result<bool, StorageError> {
        Ok(club::is_organiser(&*pooled(&self.pool).await?, account).await?)
    }

    async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
        Ok(archive::leaderboard(&pooled(&self.pool).await?, limit).await?)
    }

    async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError> {
        Ok(archive::archived_game(&pooled(&self.pool).await?, id).await?)
    }

    async fn next_game_id(&self) -> Result<u64, StorageError> {
        Ok(archive::next_game_id(&pooled(&self.pool).await?).await?)
    }

    async fn next_run(&self) -> Result<u64, StorageError> {
        Ok(archive::next_run(&mut pooled(&self.pool).await?).await?)
    }

    fn coordination(&self) -> Option<Arc<dyn Coordination>> {
        Some(self.coordination.clone())
    }

    fn accounts(&self) -> Arc<dyn crate::storage::accounts::AccountStore> {
        Arc::new(accounts::PgAccounts::new(self.pool.clone()))
    }

    async fn close(&self) {
        queue::close(&self.tx).await;
        self.pool.close();
    }
}

impl From<tokio_postgres::Error> for StorageError {
    fn from(err: tokio_postgres::Error) -> StorageError {
        if lost(&err) {
            StorageError::Unavailable(Unavailable::Lost(Arc::new(err)))
        } else {
            StorageError::Postgres(err)
        }
    }
}

/// The connection settings in `url`.
pub(super) fn parse_url(url: &str) -> Result<tokio_postgres::Config, StorageError> {
    url.parse().map_err(|source| StorageError::Url {
        database: Database::Postgres(url.to_owned()).to_string(),
        source,
    })
}

/// Whether `err` means the connection (or the server) is gone or refusing work for now, as
/// opposed to this statement being refused: such a request may succeed after a reconnect.
fn lost(err: &tokio_postgres::Error) -> bool {
    if err.is_closed() {
        return true;
    }
    match err.code() {
        // Connection exception, insufficient resources, operator intervention (shutdown,
        // cannot connect now), system error.
        Some(code) => matches!(&code.code()[..2], "08" | "53" | "57" | "58"),
        // No SQLSTATE: the socket failed, timed out, or could not connect.
        None => err.as_db_error().is_none(),
    }
}

/// The error with its cause: tokio-postgres prints only the kind ("db error") on its own.
fn describe(err: &tokio_postgres::Error) -> String {
    super::store::with_cause(err)
}
