//! Accounts in SQLite: accounts, sessions, tokens, reset links and seats
//! ([`crate::storage::accounts`]).
//!
//! Reads run on the store's few read-only connections ([`super::readers`]; WAL lets them run
//! beside the writer). Writes (a login's session, a logout, a setting) go to the match writer thread as a
//! [`Job`] in its next group, so one connection writes the file and a login flood never makes
//! the moves wait for a lock. `boardcast-server admin` has no writer thread in its process: it
//! writes on a connection of its own, and a busy timeout waits out the server's short
//! transactions.

use std::path::PathBuf;
use std::time::Instant;

use rusqlite::{Connection, OpenFlags, OptionalExtension, Params, Row, params};
use tokio::sync::{mpsc, oneshot};

use super::Job;
use super::readers::{self, Readers};
use crate::storage::accounts::{
    AccountRow, AccountStore, BEST_WIN, BestWin, Flag, GameRow, LadderCandidate, PdnGame, PdnKey,
    Preferences, SessionRow, Tally, TokenRow, count,
};
use crate::storage::queue::Request;
use crate::storage::{ChatMuteRow, RatingChange, Refused, StorageError};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS accounts (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL,
    name_key     TEXT NOT NULL UNIQUE,
    password     TEXT NOT NULL,
    bot          INTEGER NOT NULL DEFAULT 0,
    admin        INTEGER NOT NULL DEFAULT 0,
    closed       INTEGER NOT NULL DEFAULT 0,
    created_ms   INTEGER NOT NULL,
    last_seen_ms INTEGER
);
CREATE TABLE IF NOT EXISTS sessions (
    hash       TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created_ms INTEGER NOT NULL,
    used_ms    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account_id);
CREATE TABLE IF NOT EXISTS tokens (
    id         INTEGER PRIMARY KEY,
    hash       TEXT NOT NULL UNIQUE,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    name       TEXT NOT NULL,
    scopes     TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    used_ms    INTEGER,
    login      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS resets (
    hash       TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    expires_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS account_preferences (
    account_id       INTEGER PRIMARY KEY REFERENCES accounts(id),
    refuse_more_time INTEGER NOT NULL DEFAULT 0
);
";

/// The seats table, its index and the trigger that fills it from `player_joined` records.
const SEATS: &str = "
CREATE TABLE seats (
    match_id   TEXT NOT NULL,
    side       TEXT NOT NULL,
    account_id INTEGER,
    name       TEXT NOT NULL,
    PRIMARY KEY (match_id, side)
);
CREATE INDEX seats_by_account ON seats (account_id) WHERE account_id IS NOT NULL;
-- `instr` first: a move's insert (the hot path) costs one substring search, not a JSON parse.
CREATE TRIGGER seat_of_join AFTER INSERT ON events
WHEN instr(NEW.body, '\"player_joined\"') > 0 AND json_valid(NEW.body)
    AND json_extract(NEW.body, '$.event.player_joined') IS NOT NULL
BEGIN
    INSERT OR REPLACE INTO seats (match_id, side, account_id, name) VALUES (
        NEW.match_id,
        json_extract(NEW.body, '$.event.player_joined.side'),
        json_extract(NEW.body, '$.account'),
        json_extract(NEW.body, '$.event.player_joined.name'));
END;
INSERT OR REPLACE INTO seats (match_id, side, account_id, name)
    SELECT match_id, json_extract(body, '$.event.player_joined.side'),
           json_extract(body, '$.account'), json_extract(body, '$.event.player_joined.name')
    FROM events
    WHERE json_valid(body) AND json_extract(body, '$.event.player_joined') IS NOT NULL;
";

/// Creates the account tables if they are missing; the seats table with its trigger, filled
/// from the seats stored before it existed.
pub(crate) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    // Tokens stored before password logins were told apart from named tokens are named ones:
    // "log out everywhere" leaves them, as it did when they were made.
    let marks_logins = conn
        .prepare("SELECT 1 FROM pragma_table_info('tokens') WHERE name = 'login'")?
        .exists([])?;
    if !marks_logins {
        conn.execute_batch("ALTER TABLE tokens ADD COLUMN login INTEGER NOT NULL DEFAULT 0")?;
    }
    let has_seats = conn
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'seats'")?
        .exists([])?;
    if !has_seats {
        let tx = conn.unchecked_transaction()?;
        tx.execute_batch(SEATS)?;
        tx.commit()?;
    }
    Ok(())
}

/// The accounts of the SQLite database at `path`.
#[derive(Debug)]
pub(crate) struct SqliteAccounts {
    path: PathBuf,
    /// The queue to this process's writer thread, if it has one.
    writer: Option<mpsc::Sender<Request<Box<dyn Job>>>>,
    /// The connections every read runs on (the match store's reads too).
    readers: Readers,
}

/// Statements for the writer thread, and where their result goes.
struct Statements<Q, T> {
    query: Option<Q>,
    result: Option<rusqlite::Result<T>>,
    done: oneshot::Sender<Result<T, StorageError>>,
}

impl<Q, T> Job for Statements<Q, T>
where
    Q: FnOnce(&Connection) -> rusqlite::Result<T> + Send,
    T: Send,
{
    fn run(&mut self, conn: &Connection) -> bool {
        let result = self.query.take().map(|query| query(conn));
        let wrote = matches!(result, Some(Ok(_)));
        self.result = result;
        wrote
    }

    fn answer(self: Box<Self>, kept: Result<(), Refused>) {
        let answer = match (kept, self.result) {
            (Err(refused), _) => Err(StorageError::Refused(refused)),
            (Ok(()), Some(Ok(value))) => Ok(value),
            (Ok(()), Some(Err(err))) => Err(StorageError::from(err)),
            (Ok(()), None) => Err(StorageError::Closed),
        };
        let _ = self.done.send(answer);
    }
}

impl SqliteAccounts {
    /// `writer`: the queue to the writer thread of a server in this process (none for
    /// `boardcast-server admin`, which writes on a connection of its own).
    pub(in crate::storage) fn new(
        path: PathBuf,
        writer: Option<mpsc::Sender<Request<Box<dyn Job>>>>,
    ) -> Result<SqliteAccounts, StorageError> {
        let readers = Readers::new(path.clone())?;
        Ok(SqliteAccounts {
            path,
            writer,
            readers,
        })
    }

    /// Runs `query`, which writes, on the writer thread in its next group; without one, on a
    /// connection of its own. Answers once what it wrote is committed.
    pub(super) async fn write<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StorageError> {
        let Some(writer) = &self.writer else {
            return self.on_own_connection(OpenFlags::default(), query).await;
        };
        let (done, answer) = oneshot::channel();
        let job = Box::new(Statements {
            query: Some(query),
            result: None,
            done,
        });
        let queued = Instant::now();
        writer
            .send(Request::Run { job, queued })
            .await
            .map_err(|_| StorageError::Closed)?;
        answer.await.map_err(|_| StorageError::Closed)?
    }

    /// Closes the read connections: the store is closed.
    pub(super) fn close_reads(&self) {
        self.readers.close();
    }

    /// Runs `query`, which only reads, on one of the read connections once one is free.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StorageError> {
        self.readers.read(query).await
    }

    /// Runs `query` on a connection of its own, opened with `flags`, in a blocking task that
    /// waits out the writer's short transactions: a write of `boardcast-server admin`, or a
    /// read paced by whoever takes its rows, which must not hold a shared connection that long.
    async fn on_own_connection<T: Send + 'static>(
        &self,
        flags: OpenFlags,
        query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, StorageError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || Ok(query(&readers::open(&path, flags)?)?))
            .await
            .map_err(StorageError::Task)?
    }

    /// Runs one statement that writes ([`SqliteAccounts::write`]); returns how many rows it
    /// changed.
    async fn execute(
        &self,
        sql: impl AsRef<str> + Send + 'static,
        params: impl Params + Send + 'static,
    ) -> Result<usize, StorageError> {
        self.write(move |conn| conn.execute(sql.as_ref(), params))
            .await
    }
}

/// A member's finished games for the PDN export, in its order (`?1` the account, `?2` how
/// many); [`PDN_NEXT_PAGE`] the same after a key (`?3`, `?4`). Keyed pages, not `OFFSET`,
/// so no page counts through the games before it; and a page's games are chosen by their
/// keys alone, then only they are read whole (sorting the whole texts of every remaining
/// game for each page made a 1,000-game download three times slower than one query).
const PDN_FIRST_PAGE: &str = "WITH page AS (SELECT m.created_ms, m.id FROM matches m \
     WHERE m.finished AND m.pdn IS NOT NULL \
     AND m.id IN (SELECT match_id FROM seats WHERE account_id = ?1) \
     ORDER BY m.created_ms, m.id LIMIT ?2) \
     SELECT page.created_ms, page.id, m.pdn FROM page JOIN matches m ON m.id = page.id \
     ORDER BY page.created_ms, page.id";
const PDN_NEXT_PAGE: &str = "WITH page AS (SELECT m.created_ms, m.id FROM matches m \
     WHERE m.finished AND m.pdn IS NOT NULL \
     AND m.id IN (SELECT match_id FROM seats WHERE account_id = ?1) \
     AND (m.created_ms, m.id) > (?3, ?4) \
     ORDER BY m.created_ms, m.id LIMIT ?2) \
     SELECT page.created_ms, page.id, m.pdn FROM page JOIN matches m ON m.id = page.id \
     ORDER BY page.created_ms, page.id";

const ACCOUNT_COLUMNS: &str =
    "id, name, password, bot, admin, closed, created_ms, last_seen_ms FROM accounts";

fn account(row: &Row<'_>) -> rusqlite::Result<AccountRow> {
    Ok(AccountRow {
        id: row.get(0)?,
        name: row.get(1)?,
        password: row.get(2)?,
        bot: row.get(3)?,
        admin: row.get(4)?,
        closed: row.get(5)?,
        created_ms: row.get(6)?,
        last_seen_ms: row.get(7)?,
    })
}

const TOKEN_COLUMNS: &str = "id, account_id, name, scopes, created_ms, used_ms FROM tokens";

fn token(row: &Row<'_>) -> rusqlite::Result<TokenRow> {
    Ok(TokenRow {
        id: row.get(0)?,
        account: row.get(1)?,
        name: row.get(2)?,
        scopes: row.get(3)?,
        created_ms: row.get(4)?,
        used_ms: row.get(5)?,
    })
}

/// The finished games of `?1`, newest first, with the opponent's seat.
const GAMES: &str = "SELECT m.id, me.side, opp.name, opp.account_id IS NOT NULL, m.result, m.setup, \
     m.created_ms FROM seats me JOIN matches m ON m.id = me.match_id AND m.finished \
     LEFT JOIN seats opp ON opp.match_id = me.match_id AND opp.side <> me.side \
     WHERE me.account_id = ?1 ORDER BY m.created_ms DESC, m.id DESC LIMIT ?2 OFFSET ?3";

#[async_trait::async_trait]
impl AccountStore for SqliteAccounts {
    async fn create_account(
        &self,
        name: String,
        password: String,
        bot: bool,
        admin: bool,
        created_ms: i64,
    ) -> Result<Option<i64>, StorageError> {
        let key = name.to_ascii_lowercase();
        self.write(move |conn| {
            let inserted = conn.execute(
                "INSERT INTO accounts (name, name_key, password, bot, admin, created_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name_key) DO NOTHING",
                (name, key, password, bot, admin, created_ms),
            )?;
            Ok((inserted == 1).then(|| conn.last_insert_rowid()))
        })
        .await
    }

    async fn account_by_name(&self, name: String) -> Result<Option<AccountRow>, StorageError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} WHERE name_key = ?1");
        let key = name.to_ascii_lowercase();
        self.run(move |conn| {
            conn.prepare_cached(&sql)?
                .query_row([key], account)
                .optional()
        })
        .await
    }

    async fn account_by_id(&self, id: i64) -> Result<Option<AccountRow>, StorageError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} WHERE id = ?1");
        self.run(move |conn| {
            conn.prepare_cached(&sql)?
                .query_row([id], account)
                .optional()
        })
        .await
    }

    async fn set_password(&self, id: i64, password: String) -> Result<(), StorageError> {
        let sql = "UPDATE accounts SET password = ?2 WHERE id = ?1";
        self.execute(sql, (id, password)).await.map(drop)
    }

    async fn set_flag(&self, id: i64, flag: Flag, value: bool) -> Result<(), StorageError> {
        let sql = format!("UPDATE accounts SET {} = ?2 WHERE id = ?1", flag.column());
        self.execute(sql, (id, value)).await.map(drop)
    }

    async fn chat_mute(&self, account: i64) -> Result<Option<ChatMuteRow>, StorageError> {
        self.run(move |conn| super::chat::mute(conn, account)).await
    }

    async fn set_chat_mute(
        &self,
        account: i64,
        mute: Option<ChatMuteRow>,
    ) -> Result<(), StorageError> {
        self.write(move |conn| super::chat::set_mute(conn, account, mute.as_ref()))
            .await
    }

    async fn set_organiser(&self, account: i64, granted: bool) -> Result<(), StorageError> {
        self.write(move |conn| super::club::set_organiser(conn, account, granted))
            .await
    }

    async fn preferences(&self, account: i64) -> Result<Preferences, StorageError> {
        let sql = "SELECT refuse_more_time FROM account_preferences WHERE account_id = ?1";
        let read = move |row: &Row<'_>| {
            Ok(Preferences {
                refuse_more_time: row.get(0)?,
            })
        };
        let row = self.run(move |conn| {
            conn.prepare_cached(sql)?
                .query_row([account], read)
                .optional()
        });
        Ok(row.await?.unwrap_or_default())
    }

    async fn set_preferences(
        &self,
        account: i64,
        preferences: Preferences,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO account_preferences (account_id, refuse_more_time) \
                   VALUES (?1, ?2) ON CONFLICT (account_id) \
                   DO UPDATE SET refuse_more_time = excluded.refuse_more_time";
        let refuse = preferences.refuse_more_time;
        self.execute(sql, (account, refuse)).await.map(drop)
    }

    async fn touch_account(&self, id: i64, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE accounts SET last_seen_ms = ?2 WHERE id = ?1";
        self.execute(sql, (id, now_ms)).await.map(drop)
    }

    async fn create_session(
        &self,
        hash: String,
        account: i64,
        now_ms: i64,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO sessions (hash, account_id, created_ms, used_ms) \
                   VALUES (?1, ?2, ?3, ?3)";
        self.execute(sql, (hash, account, now_ms)).await.map(drop)
    }

    async fn session(&self, hash: String) -> Result<Option<SessionRow>, StorageError> {
        let sql = "SELECT account_id, created_ms, used_ms FROM sessions WHERE hash = ?1";
        let read = |row: &Row<'_>| {
            Ok(SessionRow {
                account: row.get(0)?,
                created_ms: row.get(1)?,
                used_ms: row.get(2)?,
            })
        };
        self.run(move |conn| conn.prepare_cached(sql)?.query_row([hash], read).optional())
            .await
    }

    async fn touch_session(&self, hash: String, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE sessions SET used_ms = ?2 WHERE hash = ?1";
        self.execute(sql, (hash, now_ms)).await.map(drop)
    }

    async fn delete_session(&self, hash: String) -> Result<(), StorageError> {
        let sql = "DELETE FROM sessions WHERE hash = ?1";
        self.execute(sql, [hash]).await.map(drop)
    }

    async fn delete_sessions(
        &self,
        account: i64,
        keep: Option<String>,
    ) -> Result<(), StorageError> {
        let sql = "DELETE FROM sessions WHERE account_id = ?1 AND hash IS NOT ?2";
        self.execute(sql, (account, keep)).await.map(drop)
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
        self.write(move |conn| {
            conn.execute(
                "INSERT INTO tokens (hash, account_id, name, scopes, created_ms, login) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                (hash, account, name, scopes, now_ms, login),
            )?;
            Ok(conn.last_insert_rowid())
        })
        .await
    }

    async fn token(&self, hash: String) -> Result<Option<TokenRow>, StorageError> {
        let sql = format!("SELECT {TOKEN_COLUMNS} WHERE hash = ?1");
        self.run(move |conn| {
            conn.prepare_cached(&sql)?
                .query_row([hash], token)
                .optional()
        })
        .await
    }

    async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, StorageError> {
        let sql = format!("SELECT {TOKEN_COLUMNS} WHERE account_id = ?1 ORDER BY id");
        self.run(move |conn| {
            conn.prepare_cached(&sql)?
                .query_map([account], token)?
                .collect()
        })
        .await
    }

    async fn delete_token(&self, account: i64, id: i64) -> Result<bool, StorageError> {
        let sql = "DELETE FROM tokens WHERE account_id = ?1 AND id = ?2";
        Ok(self.execute(sql, (account, id)).await? == 1)
    }

    async fn touch_token(&self, id: i64, now_ms: i64) -> Result<(), StorageError> {
        let sql = "UPDATE tokens SET used_ms = ?2 WHERE id = ?1";
        self.execute(sql, (id, now_ms)).await.map(drop)
    }

    async fn delete_login_tokens(&self, account: i64) -> Result<Vec<i64>, StorageError> {
        let sql = "DELETE FROM tokens WHERE account_id = ?1 AND login RETURNING id";
        self.write(move |conn| {
            conn.prepare_cached(sql)?
                .query_map([account], |row| row.get(0))?
                .collect()
        })
        .await
    }

    async fn create_reset(
        &self,
        hash: String,
        account: i64,
        expires_ms: i64,
    ) -> Result<(), StorageError> {
        let sql = "INSERT INTO resets (hash, account_id, expires_ms) VALUES (?1, ?2, ?3)";
        self.execute(sql, (hash, account, expires_ms))
            .await
            .map(drop)
    }

    async fn reset(
        &self,
        hash: String,
        now_ms: i64,
        take: bool,
    ) -> Result<Option<i64>, StorageError> {
        self.write(move |conn| {
            let found: Option<i64> = conn
                .query_row(
                    "SELECT account_id FROM resets WHERE hash = ?1 AND expires_ms > ?2",
                    (&hash, now_ms),
                    |row| row.get(0),
                )
                .optional()?;
            if take && found.is_some() {
                // Used up only if this request deleted it: two at once, one wins.
                let deleted = conn.execute("DELETE FROM resets WHERE hash = ?1", [&hash])?;
                return Ok(found.filter(|_| deleted == 1));
            }
            Ok(found)
        })
        .await
    }

    async fn games(
        &self,
        account: i64,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, StorageError> {
        let read = |row: &Row<'_>| {
            Ok(GameRow {
                match_id: row.get(0)?,
                side: row.get(1)?,
                opponent: row.get(2)?,
                opponent_account: row.get::<_, Option<bool>>(3)?.unwrap_or(false),
                result: row.get::<_, Option<String>>(4)?.unwrap_or_default(),
                setup: row.get(5)?,
                created_ms: row.get(6)?,
            })
        };
        self.run(move |conn| {
            conn.prepare_cached(GAMES)?
                .query_map((account, limit, offset), read)?
                .collect()
        })
        .await
    }

    async fn tally(&self, account: i64) -> Result<Tally, StorageError> {
        self.run(move |conn| {
            let mut tally = Tally::default();
            let mut statement = conn.prepare_cached(
                "SELECT m.result, s.side FROM seats s JOIN matches m ON m.id = s.match_id \
                 AND m.finished WHERE s.account_id = ?1",
            )?;
            let mut rows = statement.query([account])?;
            while let Some(row) = rows.next()? {
                let result: Option<String> = row.get(0)?;
                let side: String = row.get(1)?;
                count(&mut tally, result.as_deref().unwrap_or(""), &side);
            }
            Ok(tally)
        })
        .await
    }

    async fn pdn_page(
        &self,
        account: i64,
        after: Option<PdnKey>,
        limit: u32,
    ) -> Result<Vec<PdnGame>, StorageError> {
        let read = |row: &Row<'_>| {
            Ok(PdnGame {
                key: PdnKey {
                    created_ms: row.get(0)?,
                    match_id: row.get(1)?,
                },
                pdn: row.get(2)?,
            })
        };
        // A short read on a kept connection: a slow download holds nothing between pages.
        self.run(move |conn| match after {
            None => conn
                .prepare_cached(PDN_FIRST_PAGE)?
                .query_map(params![account, limit], read)?
                .collect(),
            Some(PdnKey {
                created_ms,
                match_id,
            }) => conn
                .prepare_cached(PDN_NEXT_PAGE)?
                .query_map(params![account, limit, created_ms, match_id], read)?
                .collect(),
        })
        .await
    }

    async fn rating(&self, account: i64) -> Result<Option<RatingChange>, StorageError> {
        self.run(move |conn| super::ratings::current(conn, account))
            .await
    }

    async fn current_ratings(&self, since_ms: i64) -> Result<Vec<LadderCandidate>, StorageError> {
        self.run(move |conn| super::ratings::current_all(conn, since_ms))
            .await
    }

    async fn rating_history(&self, account: i64) -> Result<Vec<RatingChange>, StorageError> {
        self.run(move |conn| super::ratings::history(conn, account))
            .await
    }

    async fn best_win(&self, account: i64) -> Result<Option<BestWin>, StorageError> {
        let read = |row: &Row<'_>| {
            Ok(BestWin {
                name: row.get(0)?,
                rating: row.get(1)?,
                match_id: row.get(2)?,
            })
        };
        self.run(move |conn| {
            conn.prepare_cached(BEST_WIN)?
                .query_row([account], read)
                .optional()
        })
        .await
    }
}
