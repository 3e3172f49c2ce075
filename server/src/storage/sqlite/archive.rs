//! The channel side in SQLite: archived engine games, the leaderboard and the server's runs.

use boardcast_protocol::{EngineResult, GameHeader, LeaderboardEntry, Side, names};
use rusqlite::{Connection, OptionalExtension, params};

use crate::storage::read::stored_winner;
use crate::storage::{ArchivedGame, ChannelWrite, now_ms};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS engine_games (
    id          INTEGER PRIMARY KEY,
    channel     TEXT NOT NULL,
    serial      TEXT NOT NULL,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    start_board TEXT NOT NULL,
    start_ply   INTEGER NOT NULL,
    moves       TEXT NOT NULL,
    winner      TEXT,
    reason      TEXT,
    finished_ms INTEGER
);
CREATE TABLE IF NOT EXISTS server_runs (
    run        INTEGER PRIMARY KEY,
    started_ms INTEGER NOT NULL
);
-- One row per predictor: `identity` is `names::identity` of the name, so look-alike
-- spellings are one predictor across games as within one; `name` is the spelling first seen.
CREATE TABLE IF NOT EXISTS leaderboard (
    identity TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    games    INTEGER NOT NULL,
    correct  INTEGER NOT NULL,
    strikes  INTEGER NOT NULL
);
";

/// `PRAGMA user_version` from which the leaderboard is keyed by identity; before it, by the
/// exact name (SQLite's tables were only ever created, never changed, until then).
const LEADERBOARD_BY_IDENTITY: i64 = 1;

/// Creates the archive's tables if they are missing, and brings an older leaderboard up to
/// date ([`rekey_leaderboard`]).
pub(super) fn create(conn: &Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version >= LEADERBOARD_BY_IDENTITY {
        return conn.execute_batch(SCHEMA);
    }
    let tx = conn.unchecked_transaction()?;
    let keyed_by_name = tx
        .prepare("SELECT 1 FROM pragma_table_info('leaderboard') WHERE name = 'identity'")?
        .query([])?
        .next()?
        .is_none()
        && tx
            .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'leaderboard'")?
            .query([])?
            .next()?
            .is_some();
    if keyed_by_name {
        tx.execute_batch("ALTER TABLE leaderboard RENAME TO leaderboard_by_name")?;
    }
    tx.execute_batch(SCHEMA)?;
    if keyed_by_name {
        rekey_leaderboard(&tx)?;
    }
    tx.pragma_update(None, "user_version", LEADERBOARD_BY_IDENTITY)?;
    tx.commit()
}

/// Moves the rows of the old `leaderboard_by_name` into the leaderboard keyed by identity:
/// look-alike names become one row, their scores summed, under the spelling that played the
/// most games (the first seen is not known for rows older than this).
fn rekey_leaderboard(conn: &Connection) -> rusqlite::Result<()> {
    let rows: Vec<(String, i64, i64, i64)> = conn
        .prepare(
            "SELECT name, games, correct, strikes FROM leaderboard_by_name \
             ORDER BY games DESC, name ASC",
        )?
        .query_map([], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut insert = conn.prepare(
        "INSERT INTO leaderboard (identity, name, games, correct, strikes) \
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(identity) DO UPDATE SET \
         games = games + excluded.games, correct = correct + excluded.correct, \
         strikes = strikes + excluded.strikes",
    )?;
    for (name, games, correct, strikes) in rows {
        insert.execute(params![
            names::identity(&name),
            name,
            games,
            correct,
            strikes
        ])?;
    }
    conn.execute_batch("DROP TABLE leaderboard_by_name")
}

/// Applies one channel write inside the storage writer's transaction.
pub(super) fn apply(conn: &Connection, write: &ChannelWrite) -> rusqlite::Result<()> {
    match write {
        ChannelWrite::Started(game) => {
            conn.prepare_cached(
                "INSERT INTO engine_games (id, channel, serial, white, black, start_board, \
                 start_ply, moves) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, '')",
            )?
            .execute(params![
                game.header.game_id as i64,
                game.channel,
                game.header.serial,
                game.header.white,
                game.header.black,
                game.start_board,
                game.start_ply,
            ])?;
        }
        ChannelWrite::Game(game) => {
            conn.prepare_cached(
                "INSERT INTO engine_games (id, channel, serial, white, black, start_board, \
                 start_ply, moves, winner, reason, finished_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) \
                 ON CONFLICT(id) DO UPDATE SET moves = excluded.moves, \
                 winner = excluded.winner, reason = excluded.reason, \
                 finished_ms = excluded.finished_ms",
            )?
            .execute(params![
                game.header.game_id as i64,
                game.channel,
                game.header.serial,
                game.header.white,
                game.header.black,
                game.start_board,
                game.start_ply,
                game.moves.join(" "),
                game.result.winner.map(Side::as_str),
                game.result.reason,
                now_ms(),
            ])?;
        }
        ChannelWrite::Score(delta) => {
            conn.prepare_cached(
                "INSERT INTO leaderboard (identity, name, games, correct, strikes) \
                 VALUES (?1, ?2, 1, ?3, ?4) ON CONFLICT(identity) DO UPDATE SET \
                 games = games + 1, correct = correct + excluded.correct, \
                 strikes = strikes + excluded.strikes",
            )?
            .execute(params![
                names::identity(&delta.name),
                delta.name,
                delta.correct,
                delta.strikes
            ])?;
        }
    }
    Ok(())
}

/// Records a new server run and returns its number (0 on a fresh database). It runs on the
/// writer thread, in its next group: answered once that group is fsynced.
pub(super) fn next_run(conn: &Connection) -> rusqlite::Result<u64> {
    conn.execute(
        "INSERT INTO server_runs (started_ms) VALUES (?1)",
        params![now_ms()],
    )?;
    let runs = conn.query_row("SELECT COUNT(*) FROM server_runs", [], |row| {
        row.get::<_, i64>(0)
    })?;
    Ok((runs as u64).saturating_sub(1))
}

/// The first archive id not yet used.
pub(super) fn next_game_id(conn: &Connection) -> rusqlite::Result<u64> {
    let id = conn.query_row(
        "SELECT COALESCE(MAX(id), 0) + 1 FROM engine_games",
        [],
        |row| row.get::<_, i64>(0),
    )?;
    Ok(id.max(1) as u64)
}

/// The best `limit` predictors in the order of [`crate::channels::predict::rank`]: most
/// correct − strikes, then most correct, then by name.
pub(super) fn leaderboard(
    conn: &Connection,
    limit: u32,
) -> rusqlite::Result<Vec<LeaderboardEntry>> {
    let mut stmt = conn.prepare(
        "SELECT name, games, correct, strikes FROM leaderboard \
         ORDER BY correct - strikes DESC, correct DESC, name ASC LIMIT ?1",
    )?;
    let rows = stmt.query_map(params![limit], |row| {
        Ok(LeaderboardEntry {
            name: row.get(0)?,
            games: row.get(1)?,
            correct: row.get(2)?,
            strikes: row.get(3)?,
        })
    })?;
    rows.collect()
}

/// Archived game `game_id`, if it finished.
pub(super) fn archived_game(
    conn: &Connection,
    game_id: u64,
) -> rusqlite::Result<Option<ArchivedGame>> {
    conn.query_row(
        "SELECT serial, white, black, start_board, start_ply, moves, winner, reason \
         FROM engine_games WHERE id = ?1 AND reason IS NOT NULL",
        params![game_id as i64],
        |row| {
            let moves: String = row.get(5)?;
            let winner: Option<String> = row.get(6)?;
            Ok(ArchivedGame {
                header: GameHeader {
                    game_id,
                    serial: row.get(0)?,
                    white: row.get(1)?,
                    black: row.get(2)?,
                },
                start_board: row.get(3)?,
                start_ply: row.get(4)?,
                moves: moves.split_whitespace().map(str::to_owned).collect(),
                result: EngineResult {
                    winner: stored_winner(winner.as_deref()),
                    reason: row.get(7)?,
                },
            })
        },
    )
    .optional()
}
