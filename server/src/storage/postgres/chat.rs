//! Match chat in PostgreSQL: the same two tables as SQLite's (`storage/sqlite/chat.rs`,
//! schema migration 6), so `migrate` copies them one to one.

use deadpool_postgres::Client as Pooled;
use tokio_postgres::{Client, Error, Statement};

use crate::storage::{ChatLineRow, ChatMuteRow, ChatWrite};

/// Stores a new line.
pub(super) const LINE: &str = "INSERT INTO chat_lines (match_id, line, room, author, account_id, \
     preset, text, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
/// Marks a line deleted, with who and when.
pub(super) const DELETE: &str =
    "UPDATE chat_lines SET deleted_by = $3, deleted_ms = $4 WHERE match_id = $1 AND line = $2";

/// The writer's statements for chat.
pub(super) struct Statements {
    pub line: Statement,
    pub delete: Statement,
}

/// Applies one chat write in the writer's pipeline.
pub(super) async fn apply(
    client: &Client,
    statements: &Statements,
    write: &ChatWrite,
) -> Result<u64, Error> {
    match write {
        ChatWrite::Line(line) => {
            client
                .execute(
                    &statements.line,
                    &[
                        &line.match_id,
                        &(line.line as i64),
                        &line.room,
                        &line.author,
                        &line.account,
                        &line.preset,
                        &line.text,
                        &line.at_ms,
                    ],
                )
                .await
        }
        ChatWrite::Delete {
            match_id,
            line,
            by,
            at_ms,
        } => {
            client
                .execute(&statements.delete, &[match_id, &(*line as i64), by, at_ms])
                .await
        }
    }
}

/// Every line of `match_id`, in order.
pub(super) async fn lines(client: &Pooled, match_id: &str) -> Result<Vec<ChatLineRow>, Error> {
    let statement = client
        .prepare_cached(
            "SELECT match_id, line, room, author, account_id, preset, text, at_ms, \
             deleted_by IS NOT NULL FROM chat_lines WHERE match_id = $1 ORDER BY line",
        )
        .await?;
    let rows = client.query(&statement, &[&match_id]).await?;
    Ok(rows
        .iter()
        .map(|row| ChatLineRow {
            match_id: row.get(0),
            line: row.get::<_, i64>(1) as u64,
            room: row.get(2),
            author: row.get(3),
            account: row.get(4),
            preset: row.get(5),
            text: row.get(6),
            at_ms: row.get(7),
            deleted: row.get(8),
        })
        .collect())
}

/// Who muted `account`, if anyone.
pub(super) async fn mute(client: &Pooled, account: i64) -> Result<Option<ChatMuteRow>, Error> {
    let row = client
        .query_opt(
            "SELECT muted_by, muted_ms FROM chat_mutes WHERE account_id = $1",
            &[&account],
        )
        .await?;
    Ok(row.map(|row| ChatMuteRow {
        by: row.get(0),
        at_ms: row.get(1),
    }))
}

/// Mutes `account` (keeping the first mute's who and when), or unmutes it with `None`.
pub(super) async fn set_mute(
    client: &Pooled,
    account: i64,
    mute: Option<&ChatMuteRow>,
) -> Result<(), Error> {
    match mute {
        Some(mute) => {
            client
                .execute(
                    "INSERT INTO chat_mutes (account_id, muted_by, muted_ms) VALUES ($1, $2, $3) \
                     ON CONFLICT (account_id) DO NOTHING",
                    &[&account, &mute.by, &mute.at_ms],
                )
                .await?
        }
        None => {
            client
                .execute("DELETE FROM chat_mutes WHERE account_id = $1", &[&account])
                .await?
        }
    };
    Ok(())
}
