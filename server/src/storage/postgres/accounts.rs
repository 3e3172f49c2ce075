//! Accounts in PostgreSQL ([`crate::storage::accounts`]), over the read pool: every node of a
//! cluster reads and writes the same rows, so a login on one node is valid on all of them
//! and a logout anywhere is seen everywhere at the next request.

use deadpool_postgres::Pool;
use tokio_postgres::Row;

use super::pooled;
use crate::storage::accounts::{
    AccountRow, AccountStore, BEST_WIN, BestWin, CURRENT_RATINGS, Flag, GameRow, LadderCandidate,
    PdnGame, PdnKey, Preferences, SessionRow, Tally, TokenRow, count,
};
use crate::storage::{ChatMuteRow, RatingChange, StorageError};

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
        let pool = super::read_pool(config, 2)?;
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
    /// Runs `sql`; returns how many rows it changed.
    async fn execute(&self, sql: &str, params: &[&Param]) -> Result<u64, StorageError> {
        Ok(pooled(&self.pool).await?.execute(sql, params).await?)
    }

    /// Runs `sql`; returns its rows. The statement is prepared once per pooled connection
    /// (a read per request would otherwise cost a parse and a round trip more each time).
    async fn query(&self, sql: &str, params: &[&Param]) -> Result<Vec<Row>, StorageError> {
        let client = pooled(&self.pool).await?;
        let statement = client.prepare_cached(sql).await?;
        Ok(client.query(&statement, params).await?)
    }

    /// Runs `sql`, which returns one row at most.
    async fn query_opt(&self, sql: &str, params: &[&Param]) -> Result<Option<Row>, StorageError> {
        let client = pooled(&self.pool).await?;
        let statement = client.prepare_cached(sql).await?;
        Ok(client.query_opt(&statement, params).await?)
    }
}

/// A member's finished games for the PDN export, in its order (`$1` the account, `$2` how
/// many); [`PDN_NEXT_PAGE`] the same after a key (`$3`, `$4`), as SQLite's.
const PDN_FIRST_PAGE: &str = "WITH page AS (SELECT m.created_ms, m.id FROM matches m \
     WHERE m.finished AND m.pdn IS NOT NULL \
     AND m.id IN (SELECT match_id FROM seats WHERE account_id = $1) \
     ORDER BY m.created_ms, m.id LIMIT $2) \
     SELECT page.created_ms, page.id, m.pdn FROM page JOIN matches m ON m.id = page.id \
     ORDER BY page.created_ms, page.id";
const PDN_NEXT_PAGE: &str = "WITH page AS (SELECT m.created_ms, m.id FROM matches m \
     WHERE m.finished AND m.pdn IS NOT NULL \
     AND m.id IN (SELECT match_id FROM seats WHERE account_id = $1) \
     AND (m.created_ms, m.id) > ($3, $4) \
     ORDER BY m.created_ms, m.id LIMIT $2) \
     SELECT page.created_ms, page.id, m.pdn FROM page JOIN matches m ON m.id = page.id \
     ORDER BY page.created_ms, page.id";

/// A statement's parameter.
type Param = dyn tokio_postgres::types::ToSql + Sync;

#[async_trait::async_trait]
impl AccountStore for PgAccounts {
    async fn create_account(
        &self,
        name: String,
        password: String,
        bot: bool,
        admin: bool,
        created_ms: i64,
    ) -> Result<Option<i64>, StorageError> {
        let sql = "INSERT INTO accounts (name, name_key, password, bot, admin, created_ms) \
                   VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name_key) DO NOTHING RETURNING id";
        let key = name.to_ascii_lowercase();
        let row = self
            .query_opt(sql, &[&name, &key, &password, &bot, &admin, &created_ms])
            .await?;
        Ok(row.map(|row| row.get(0)))
    }

    async fn account_by_name(&self, name: String) -> Result<Option<AccountRow>, StorageError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} WHERE name_key = $1");
        let row = self.query_opt(&sql, &[&name.to_ascii_lowercase()]).await?;
        Ok(row.as_ref().map(account))
    }

    async fn account_by_id(&self, id: i64) -> Result<Option<AccountRow>, StorageError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} WHERE id = $1");
        Ok(self.query_opt(&sql, &[&id]).await?.as_ref().map(account))
    }

    async fn set_password(&self, id: i64, password: String) -> Result<(), StorageError> {
        let sql = "UPDATE accounts SET password = $2 WHERE id = $1";
        self.execute(sql, &[&id, &password]).await.map(drop)
    }

    async fn set_flag(&self, id: i64, flag: Flag, value: bool) -> Result<(), StorageError> {
        let sql = format!("UPDATE accounts SET {} = $2 WHERE id = $1", flag.column());
        self.execute(&sql, &[&id, &value]).await.map(drop)
    }

    async fn chat_mute(&self, account: i64) -> Result<Option<ChatMuteRow>, StorageError> {
        Ok(super::chat::mute(&pooled(&self.pool).await?, account).await?)
    }

    async fn set_chat_mute(
        &self,
        account: i64,
        mute: Option<ChatMuteRow>,
    ) -> Result<(), StorageError> {
        Ok(super::chat::set_mute(&pooled(&self.pool).await?, account, mute.as_ref()).await?)
    }

    async fn set_organiser(&self, account: i64, granted: bool) -> Result<(), StorageError> {
        let sql = super::club::ORGANISER;
        self.execute(sql, &[&account, &granted]).await.map(drop)
    }

    async fn preferences(&self, account: i64) -> Result<Preferences, StorageError> {
        let sql = "SELECT refuse_more_time FROM account_preferences WHERE account_id = $1";
        let row = self.query_opt(sql, &[&account]).await?;
        Ok(row.map_or_else(Preferences::default, |row| Preferences {
            refuse_more_time: row.get(0),
        }))
    }

    async fn set_preferences(
        &self,
        account: i64,
        preferences: Preferences,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO account_preferences (account_id, refuse_more_time) \
                   VALUES ($1, $2) ON CONFLICT (account_id) \
                   DO UPDATE SET refuse_more_time = excluded.refuse_more_time";
        let refuse = preferences.refuse_more_time;
        self.execute(sql, &[&account, &refuse]).await.map(drop)
    }

    async fn touch_account(&self, id: i64, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE accounts SET last_seen_ms = $2 WHERE id = $1";
        self.execute(sql, &[&id, &now_ms]).await.map(drop)
    }

    async fn create_session(
        &self,
        hash: String,
        account: i64,
        now_ms: i64,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO sessions (hash, account_id, created_ms, used_ms) \
                   VALUES ($1, $2, $3, $3)";
        self.execute(sql, &[&hash, &account, &now_ms])
            .await
            .map(drop)
    }

    async fn session(&self, hash: String) -> Result<Option<SessionRow>, StorageError> {
        let sql = "SELECT account_id, created_ms, used_ms FROM sessions WHERE hash = $1";
        Ok(self.query_opt(sql, &[&hash]).await?.map(|row| SessionRow {
            account: row.get(0),
            created_ms: row.get(1),
            used_ms: row.get(2),
        }))
    }

    async fn touch_session(&self, hash: String, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE sessions SET used_ms = $2 WHERE hash = $1";
        self.execute(sql, &[&hash, &now_ms]).await.map(drop)
    }

    async fn delete_session(&self, hash: String) -> Result<(), StorageError> {
        let sql = "DELETE FROM sessions WHERE hash = $1";
        self.execute(sql, &[&hash]).await.map(drop)
    }

    async fn delete_sessions(
        &self,
        account: i64,
        keep: Option<String>,
    ) -> Result<(), StorageError> {
        let sql = "DELETE FROM sessions WHERE account_id = $1 AND hash IS DISTINCT FROM $2";
        self.execute(sql, &[&account, &keep]).await.map(drop)
    }

    async fn create_token(
        &self,
        hash: String,
        account: i64,
        name: String,
        scopes: String,
        login: bool,
        now_ms: i64,
    ) -> Result<i64, StorageError> {
        let sql = "INSERT INTO tokens (hash, account_id, name, scopes, created_ms, login) \
                   VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";
        let row = pooled(&self.pool)
            .await?
            .query_one(sql, &[&hash, &account, &name, &scopes, &now_ms, &login])
            .await?;
        Ok(row.get(0))
    }

    async fn token(&self, hash: String) -> Result<Option<TokenRow>, StorageError> {
        let sql = format!("SELECT {TOKEN_COLUMNS} WHERE hash = $1");
        Ok(self.query_opt(&sql, &[&hash]).await?.as_ref().map(token))
    }

    async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, StorageError> {
        let sql = format!("SELECT {TOKEN_COLUMNS} WHERE account_id = $1 ORDER BY id");
        Ok(self
            .query(&sql, &[&account])
            .await?
            .iter()
            .map(token)
            .collect())
    }

    async fn delete_token(&self, account: i64, id: i64) -> Result<bool, StorageError> {
        let sql = "DELETE FROM tokens WHERE account_id = $1 AND id = $2";
        Ok(self.execute(sql, &[&account, &id]).await? == 1)
    }

    async fn touch_token(&self, id: i64, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE tokens SET used_ms = $2 WHERE id = $1";
        self.execute(sql, &[&id, &now_ms]).await.map(drop)
    }

    async fn delete_login_tokens(&self, account: i64) -> Result<Vec<i64>, StorageError> {
        let sql = "DELETE FROM tokens WHERE account_id = $1 AND login RETURNING id";
        let rows = self.query(sql, &[&account]).await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    async fn create_reset(
        &self,
        hash: String,
        account: i64,
        expires_ms: i64,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO resets (hash, account_id, expires_ms) VALUES ($1, $2, $3)";
        self.execute(sql, &[&hash, &account, &expires_ms])
            .await
            .map(drop)
    }

    async fn reset(
        &self,
        hash: String,
        now_ms: i64,
        take: bool,
    ) -> Result<Option<i64>, StorageError> {
        let sql = if take {
            "DELETE FROM resets WHERE hash = $1 AND expires_ms > $2 RETURNING account_id"
        } else {
            "SELECT account_id FROM resets WHERE hash = $1 AND expires_ms > $2"
        };
        Ok(self
            .query_opt(sql, &[&hash, &now_ms])
            .await?
            .map(|row| row.get(0)))
    }

    async fn games(
        &self,
        account: i64,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, StorageError> {
        let (limit, offset) = (i64::from(limit), i64::from(offset));
        let rows = self.query(GAMES, &[&account, &limit, &offset]).await?;
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

    async fn tally(&self, account: i64) -> Result<Tally, StorageError> {
        let sql = "SELECT m.result, s.side FROM seats s JOIN matches m ON m.id = s.match_id \
                   AND m.finished WHERE s.account_id = $1";
        let mut tally = Tally::default();
        for row in &self.query(sql, &[&account]).await? {
            let result: Option<String> = row.get(0);
            let side: String = row.get(1);
            count(&mut tally, result.as_deref().unwrap_or(""), &side);
        }
        Ok(tally)
    }

    async fn pdn_page(
        &self,
        account: i64,
        after: Option<PdnKey>,
        limit: u32,
    ) -> Result<Vec<PdnGame>, StorageError> {
        // A short query on a pooled connection, given back before the page is sent: no
        // portal stays open (and no connection taken) while a slow download reads.
        let limit = i64::from(limit);
        let rows = match after {
            None => self.query(PDN_FIRST_PAGE, &[&account, &limit]).await?,
            Some(PdnKey {
                created_ms,
                match_id,
            }) => {
                self.query(PDN_NEXT_PAGE, &[&account, &limit, &created_ms, &match_id])
                    .await?
            }
        };
        Ok(rows
            .iter()
            .map(|row| PdnGame {
                key: PdnKey {
                    created_ms: row.get(0),
                    match_id: row.get(1),
                },
                pdn: row.get(2),
            })
            .collect())
    }

    async fn rating(&self, account: i64) -> Result<Option<RatingChange>, StorageError> {
        let sql = format!("SELECT {RATING_COLUMNS} ORDER BY games_before DESC LIMIT 1");
        Ok(self
            .query_opt(&sql, &[&account])
            .await?
            .as_ref()
            .map(rating_change))
    }

    async fn current_ratings(&self, since_ms: i64) -> Result<Vec<LadderCandidate>, StorageError> {
        let rows = self.query(CURRENT_RATINGS, &[&since_ms]).await?;
        Ok(rows
            .iter()
            .map(|row| (row.get(0), row.get(1), rating_change_from(row, 2)))
            .collect())
    }

    async fn rating_history(&self, account: i64) -> Result<Vec<RatingChange>, StorageError> {
        let sql = format!("SELECT {RATING_COLUMNS} ORDER BY games_before");
        Ok(self
            .query(&sql, &[&account])
            .await?
            .iter()
            .map(rating_change)
            .collect())
    }

    async fn best_win(&self, account: i64) -> Result<Option<BestWin>, StorageError> {
        let row = self
            .query_opt(&BEST_WIN.replace("?1", "$1"), &[&account])
            .await?;
        Ok(row.map(|row| BestWin {
            name: row.get(0),
            rating: row.get(1),
            match_id: row.get(2),
        }))
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
