//! Match chat in SQLite: its lines, and the members muted in every chat
//! ([`crate::storage::ChatWrite`], PROTOCOL.md §19).
//!
//! A deleted line stays, marked with who deleted it and when, so moderation can be looked
//! back on; it is never replayed. A mute is one row per muted account, with who and when.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::storage::{ChatLineRow, ChatMuteRow, ChatWrite};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS chat_lines (
    match_id   TEXT NOT NULL,
    line       INTEGER NOT NULL,
    room       TEXT NOT NULL,
    author     TEXT NOT NULL,
    account_id INTEGER,
    preset     TEXT,
    text       TEXT,
    at_ms      INTEGER NOT NULL,
    deleted_by TEXT,
    deleted_ms INTEGER,
    PRIMARY KEY (match_id, line)
);
CREATE TABLE IF NOT EXISTS chat_mutes (
    account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
    muted_by   TEXT NOT NULL,
    muted_ms   INTEGER NOT NULL
);
";

/// Creates the tables if they are missing (after the accounts table mutes refer to).
pub(crate) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)
}

/// Applies one chat write; a line stored twice is a constraint error.
pub(crate) fn apply(conn: &Connection, write: &ChatWrite) -> rusqlite::Result<()> {
    match write {
        ChatWrite::Line(line) => {
            conn.prepare_cached(
                "INSERT INTO chat_lines (match_id, line, room, author, account_id, preset, text, \
                 at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                line.match_id,
                line.line as i64,
                line.room,
                line.author,
                line.account,
                line.preset,
                line.text,
                line.at_ms
            ])?;
        }
        ChatWrite::Delete {
            match_id,
            line,
            by,
            at_ms,
        } => {
            conn.prepare_cached(
                "UPDATE chat_lines SET deleted_by = ?3, deleted_ms = ?4 \
                 WHERE match_id = ?1 AND line = ?2",
            )?
            .execute(params![match_id, *line as i64, by, at_ms])?;
        }
    }
    Ok(())
}

fn line(row: &Row<'_>) -> rusqlite::Result<ChatLineRow> {
    Ok(ChatLineRow {
        match_id: row.get(0)?,
        line: row.get::<_, i64>(1)? as u64,
        room: row.get(2)?,
        author: row.get(3)?,
        account: row.get(4)?,
        preset: row.get(5)?,
        text: row.get(6)?,
        at_ms: row.get(7)?,
        deleted: row.get(8)?,
    })
}

/// Every line of `match_id`, in order.
pub(crate) fn lines(conn: &Connection, match_id: &str) -> rusqlite::Result<Vec<ChatLineRow>> {
    conn.prepare_cached(
        "SELECT match_id, line, room, author, account_id, preset, text, at_ms, \
         deleted_by IS NOT NULL FROM chat_lines WHERE match_id = ?1 ORDER BY line",
    )?
    .query_map([match_id], line)?
    .collect()
}

/// Who muted `account`, if anyone.
pub(crate) fn mute(conn: &Connection, account: i64) -> rusqlite::Result<Option<ChatMuteRow>> {
    conn.prepare_cached("SELECT muted_by, muted_ms FROM chat_mutes WHERE account_id = ?1")?
        .query_row([account], |row| {
            Ok(ChatMuteRow {
                by: row.get(0)?,
                at_ms: row.get(1)?,
            })
        })
        .optional()
}

/// Mutes `account` (keeping the first mute's who and when), or unmutes it with `None`.
pub(crate) fn set_mute(
    conn: &Connection,
    account: i64,
    mute: Option<&ChatMuteRow>,
) -> rusqlite::Result<()> {
    match mute {
        Some(mute) => conn.execute(
            "INSERT INTO chat_mutes (account_id, muted_by, muted_ms) VALUES (?1, ?2, ?3) \
             ON CONFLICT (account_id) DO NOTHING",
            params![account, mute.by, mute.at_ms],
        )?,
        None => conn.execute("DELETE FROM chat_mutes WHERE account_id = ?1", [account])?,
    };
    Ok(())
}
