//! Accounts in PostgreSQL ([`crate::storage::accounts`]), over the read pool: every node of a
//! cluster reads and writes the same rows, so a login on one node is valid on all of them
//! and a logout anywhere is seen everywhere at the next request.

use deadpool_postgres::Pool;
use futures_util::future::BoxFuture;
use futures_util::{FutureExt, StreamExt, pin_mut};
use tokio::sync::mpsc;
use tokio_postgres::Row;

use super::pooled;
use crate::storage::accounts::{
    AccountRow, AccountStore, BEST_WIN, BestWin, Flag, GameRow, SessionRow, Tally, TokenRow, count,
};
use crate::storage::{RatingChange, StorageError};

/// The accounts of one PostgreSQL database.
#[derive(Debug, Clone)]
pub(crate) struct PgAccounts {
    pool: Pool,
}

impl PgAccounts {
    pub(crate) fn new(pool: Pool) -> PgAccounts {
        PgAccounts { pool }
    }

    /// The accounts of the database at `url` alone, for `boardcast-server admin` (also while
    /// a server runs on it): migrates the schema, then a small pool.
    pub(crate) async fn connect(url: &str) -> Result<PgAccounts, StorageError> {
        let mut config = super::parse_url(url)?;
        config.connect_timeout(std::time::Duration::from_secs(5));
        let mut client = super::setup::first_connection(&config).await?;
        super::schema::migrate(&mut client).await?;
        let manager = deadpool_postgres::Manager::from_config(
            config,
            tokio_postgres::NoTls,
            deadpool_postgres::ManagerConfig {
                recycling_method: deadpool_postgres::RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(2)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(StorageError::Pool)?;
        Ok(PgAccounts { pool })
    }
}

const ACCOUNT_COLUMNS: &str =
    "id, name, password, bot, admin, closed, created_ms, last_seen_ms FROM accounts";

fn account(row: &Row) -> AccountRow {
    AccountRow {
        id: row.get(0),
        name: row.get(1),
        password: row.get(2),
        bot: row.get(3),
        admin: row.get(4),
        closed: row.get(5),
        created_ms: row.get(6),
        last_seen_ms: row.get(7),
    }
}

const TOKEN_COLUMNS: &str = "id, account_id, name, scopes, created_ms, used_ms FROM tokens";

fn token(row: &Row) -> TokenRow {
    TokenRow {
        id: row.get(0),
        account: row.get(1),
        name: row.get(2),
        scopes: row.get(3),
        created_ms: row.get(4),
        used_ms: row.get(5),
    }
}

const GAMES: &str = "SELECT m.id, me.side, opp.name, opp.account_id IS NOT NULL, m.result, m.setup, \
     m.created_ms FROM seats me JOIN matches m ON m.id = me.match_id AND m.finished \
     LEFT JOIN seats opp ON opp.match_id = me.match_id AND opp.side <> me.side \
     WHERE me.account_id = $1 ORDER BY m.created_ms DESC, m.id DESC LIMIT $2 OFFSET $3";

impl PgAccounts {
    /// Runs one statement that changes rows; returns how many.
    fn execute(
        &self,
        sql: String,
        params: Vec<Box<dyn tokio_postgres::types::ToSql + Send + Sync>>,
    ) -> BoxFuture<'_, Result<u64, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
                .iter()
                .map(|p| p.as_ref() as &(dyn tokio_postgres::types::ToSql + Sync))
                .collect();
            Ok(client.execute(sql.as_str(), &refs).await?)
        }
        .boxed()
    }
}

impl AccountStore for PgAccounts {
    fn create_account(
        &self,
        name: String,
        password: String,
        bot: bool,
        admin: bool,
        created_ms: i64,
    ) -> BoxFuture<'_, Result<Option<i64>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    "INSERT INTO accounts (name, name_key, password, bot, admin, created_ms) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING \
                     RETURNING id",
                    &[
                        &name,
                        &name.to_ascii_lowercase(),
                        &password,
                        &bot,
                        &admin,
                        &created_ms,
                    ],
                )
                .await?;
            Ok(row.map(|row| row.get(0)))
        }
        .boxed()
    }

    fn account_by_name(
        &self,
        name: String,
    ) -> BoxFuture<'_, Result<Option<AccountRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    format!("SELECT {ACCOUNT_COLUMNS} WHERE name_key = $1").as_str(),
                    &[&name.to_ascii_lowercase()],
                )
                .await?;
            Ok(row.as_ref().map(account))
        }
        .boxed()
    }

    fn account_by_id(&self, id: i64) -> BoxFuture<'_, Result<Option<AccountRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    format!("SELECT {ACCOUNT_COLUMNS} WHERE id = $1").as_str(),
                    &[&id],
                )
                .await?;
            Ok(row.as_ref().map(account))
        }
        .boxed()
    }

    fn set_password(&self, id: i64, password: String) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "UPDATE accounts SET password = $2 WHERE id = $1".into(),
            vec![Box::new(id), Box::new(password)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn set_flag(
        &self,
        id: i64,
        flag: Flag,
        value: bool,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            format!("UPDATE accounts SET {} = $2 WHERE id = $1", flag.column()),
            vec![Box::new(id), Box::new(value)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn chat_mute(
        &self,
        account: i64,
    ) -> BoxFuture<'_, Result<Option<crate::storage::ChatMuteRow>, StorageError>> {
        async move { Ok(super::chat::mute(&pooled(&self.pool).await?, account).await?) }.boxed()
    }

    fn set_chat_mute(
        &self,
        account: i64,
        mute: Option<crate::storage::ChatMuteRow>,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        async move {
            Ok(super::chat::set_mute(&pooled(&self.pool).await?, account, mute.as_ref()).await?)
        }
        .boxed()
    }

    fn set_organiser(
        &self,
        account: i64,
        granted: bool,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            super::club::ORGANISER.into(),
            vec![Box::new(account), Box::new(granted)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn touch_account(&self, id: i64, now_ms: i64) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "UPDATE accounts SET last_seen_ms = $2 WHERE id = $1".into(),
            vec![Box::new(id), Box::new(now_ms)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn create_session(
        &self,
        hash: String,
        account: i64,
        now_ms: i64,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "INSERT INTO sessions (hash, account_id, created_ms, used_ms) VALUES ($1, $2, $3, $3)"
                .into(),
            vec![Box::new(hash), Box::new(account), Box::new(now_ms)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn session(&self, hash: String) -> BoxFuture<'_, Result<Option<SessionRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    "SELECT account_id, created_ms, used_ms FROM sessions WHERE hash = $1",
                    &[&hash],
                )
                .await?;
            Ok(row.map(|row| SessionRow {
                account: row.get(0),
                created_ms: row.get(1),
                used_ms: row.get(2),
            }))
        }
        .boxed()
    }

    fn touch_session(&self, hash: String, now_ms: i64) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "UPDATE sessions SET used_ms = $2 WHERE hash = $1".into(),
            vec![Box::new(hash), Box::new(now_ms)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn delete_session(&self, hash: String) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "DELETE FROM sessions WHERE hash = $1".into(),
            vec![Box::new(hash)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn delete_sessions(
        &self,
        account: i64,
        keep: Option<String>,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "DELETE FROM sessions WHERE account_id = $1 AND hash IS DISTINCT FROM $2".into(),
            vec![Box::new(account), Box::new(keep)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn create_token(
        &self,
        hash: String,
        account: i64,
        name: String,
        scopes: String,
        login: bool,
        now_ms: i64,
    ) -> BoxFuture<'_, Result<i64, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_one(
                    "INSERT INTO tokens (hash, account_id, name, scopes, created_ms, login) \
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
                    &[&hash, &account, &name, &scopes, &now_ms, &login],
                )
                .await?;
            Ok(row.get(0))
        }
        .boxed()
    }

    fn token(&self, hash: String) -> BoxFuture<'_, Result<Option<TokenRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    format!("SELECT {TOKEN_COLUMNS} WHERE hash = $1").as_str(),
                    &[&hash],
                )
                .await?;
            Ok(row.as_ref().map(token))
        }
        .boxed()
    }

    fn tokens(&self, account: i64) -> BoxFuture<'_, Result<Vec<TokenRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(
                    format!("SELECT {TOKEN_COLUMNS} WHERE account_id = $1 ORDER BY id").as_str(),
                    &[&account],
                )
                .await?;
            Ok(rows.iter().map(token).collect())
        }
        .boxed()
    }

    fn delete_token(&self, account: i64, id: i64) -> BoxFuture<'_, Result<bool, StorageError>> {
        let run = self.execute(
            "DELETE FROM tokens WHERE account_id = $1 AND id = $2".into(),
            vec![Box::new(account), Box::new(id)],
        );
        async move { Ok(run.await? == 1) }.boxed()
    }

    fn touch_token(&self, id: i64, now_ms: i64) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "UPDATE tokens SET used_ms = $2 WHERE id = $1".into(),
            vec![Box::new(id), Box::new(now_ms)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn delete_login_tokens(&self, account: i64) -> BoxFuture<'_, Result<Vec<i64>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(
                    "DELETE FROM tokens WHERE account_id = $1 AND login RETURNING id",
                    &[&account],
                )
                .await?;
            Ok(rows.iter().map(|row| row.get(0)).collect())
        }
        .boxed()
    }

    fn create_reset(
        &self,
        hash: String,
        account: i64,
        expires_ms: i64,
    ) -> BoxFuture<'_, Result<(), StorageError>> {
        let run = self.execute(
            "INSERT INTO resets (hash, account_id, expires_ms) VALUES ($1, $2, $3)".into(),
            vec![Box::new(hash), Box::new(account), Box::new(expires_ms)],
        );
        async move { run.await.map(drop) }.boxed()
    }

    fn reset(
        &self,
        hash: String,
        now_ms: i64,
        take: bool,
    ) -> BoxFuture<'_, Result<Option<i64>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let sql = if take {
                "DELETE FROM resets WHERE hash = $1 AND expires_ms > $2 RETURNING account_id"
            } else {
                "SELECT account_id FROM resets WHERE hash = $1 AND expires_ms > $2"
            };
            let row = client.query_opt(sql, &[&hash, &now_ms]).await?;
            Ok(row.map(|row| row.get(0)))
        }
        .boxed()
    }

    fn games(
        &self,
        account: i64,
        offset: u32,
        limit: u32,
    ) -> BoxFuture<'_, Result<Vec<GameRow>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(GAMES, &[&account, &i64::from(limit), &i64::from(offset)])
                .await?;
            Ok(rows
                .iter()
                .map(|row| GameRow {
                    match_id: row.get(0),
                    side: row.get(1),
                    opponent: row.get(2),
                    opponent_account: row.get::<_, Option<bool>>(3).unwrap_or(false),
                    result: row.get::<_, Option<String>>(4).unwrap_or_default(),
                    setup: row.get(5),
                    created_ms: row.get(6),
                })
                .collect())
        }
        .boxed()
    }

    fn tally(&self, account: i64) -> BoxFuture<'_, Result<Tally, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(
                    "SELECT m.result, s.side FROM seats s JOIN matches m ON m.id = s.match_id \
                     AND m.finished WHERE s.account_id = $1",
                    &[&account],
                )
                .await?;
            let mut tally = Tally::default();
            for row in &rows {
                let result: Option<String> = row.get(0);
                let side: String = row.get(1);
                count(&mut tally, result.as_deref().unwrap_or(""), &side);
            }
            Ok(tally)
        }
        .boxed()
    }

    fn pdn(
        &self,
        account: i64,
        into: mpsc::Sender<Result<String, StorageError>>,
    ) -> BoxFuture<'_, ()> {
        async move {
            let streamed = async {
                let client = pooled(&self.pool).await?;
                // A row stream: rows arrive as the sender takes them, never all in memory.
                let rows = client
                    .query_raw(
                        "SELECT m.pdn FROM matches m WHERE m.finished AND m.pdn IS NOT NULL \
                         AND m.id IN (SELECT match_id FROM seats WHERE account_id = $1) \
                         ORDER BY m.created_ms, m.id",
                        [&account],
                    )
                    .await?;
                pin_mut!(rows);
                while let Some(row) = rows.next().await {
                    let pdn: String = row?.get(0);
                    if into.send(Ok(pdn)).await.is_err() {
                        break;
                    }
                }
                Ok::<(), StorageError>(())
            };
            if let Err(err) = streamed.await {
                let _ = into.send(Err(err)).await;
            }
        }
        .boxed()
    }

    fn rating(&self, account: i64) -> BoxFuture<'_, Result<Option<RatingChange>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(
                    &format!("SELECT {RATING_COLUMNS} ORDER BY games_before DESC LIMIT 1"),
                    &[&account],
                )
                .await?;
            Ok(row.as_ref().map(rating_change))
        }
        .boxed()
    }

    fn current_ratings(
        &self,
        since_ms: i64,
    ) -> BoxFuture<'_, Result<Vec<crate::storage::accounts::LadderCandidate>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(crate::storage::accounts::CURRENT_RATINGS, &[&since_ms])
                .await?;
            Ok(rows
                .iter()
                .map(|row| (row.get(0), row.get(1), rating_change_from(row, 2)))
                .collect())
        }
        .boxed()
    }

    fn rating_history(
        &self,
        account: i64,
    ) -> BoxFuture<'_, Result<Vec<RatingChange>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let rows = client
                .query(
                    &format!("SELECT {RATING_COLUMNS} ORDER BY games_before"),
                    &[&account],
                )
                .await?;
            Ok(rows.iter().map(rating_change).collect())
        }
        .boxed()
    }

    fn best_win(&self, account: i64) -> BoxFuture<'_, Result<Option<BestWin>, StorageError>> {
        async move {
            let client = pooled(&self.pool).await?;
            let row = client
                .query_opt(&BEST_WIN.replace("?1", "$1"), &[&account])
                .await?;
            Ok(row.map(|row| BestWin {
                name: row.get(0),
                rating: row.get(1),
                match_id: row.get(2),
            }))
        }
        .boxed()
    }
}

const RATING_COLUMNS: &str = "match_id, account_id, games_before, at_ms, rating_before, rating, \
                              deviation, volatility FROM rating_changes WHERE account_id = $1";

fn rating_change(row: &Row) -> RatingChange {
    rating_change_from(row, 0)
}

/// The change in the columns of `row` from `first` on.
fn rating_change_from(row: &Row, first: usize) -> RatingChange {
    RatingChange {
        match_id: row.get(first),
        account: row.get(first + 1),
        games_before: u32::try_from(row.get::<_, i64>(first + 2)).unwrap_or(u32::MAX),
        at_ms: row.get(first + 3),
        rating_before: row.get(first + 4),
        rating: row.get(first + 5),
        deviation: row.get(first + 6),
        volatility: row.get(first + 7),
    }
}
