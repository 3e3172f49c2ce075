//! Finished engine games and prediction scores on their way to storage, and back.
//!
//! Channel actors never wait for the disk: they hand each started and finished game to an
//! unbounded queue (a game starts and ends at most every few seconds per channel) and the
//! [`record`] task turns each into one storage commit through the server's single writer. A
//! started game reserves its archive id (so ids are never reused, even after a restart); a
//! finished one completes the row (serial, engines, seeds, moves, result) and adds each
//! predictor's totals to the leaderboard by display name.
//! Reads (the next archive id, the leaderboard, an archived game) use short-lived read
//! connections off the runtime.

use std::path::{Path, PathBuf};

use boardcast_protocol::{
    EngineGameView, EngineResult, GameHeader, LeaderboardEntry, Side, Standing,
};
use rusqlite::{Connection, OptionalExtension, params};
use tokio::sync::mpsc;

use crate::shutdown::{Shutdown, TaskGuard};
use crate::storage::{Storage, StorageError, Write, now_ms};

/// The archive's tables, created beside the match tables.
pub const SCHEMA: &str = "
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
CREATE TABLE IF NOT EXISTS leaderboard (
    name    TEXT PRIMARY KEY,
    games   INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    strikes INTEGER NOT NULL
);
";

/// A write of the channel side, carried by [`Write::Channel`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelWrite {
    /// A game has started: its id is taken.
    Started(StartedGame),
    /// A finished game; `moves` space-separated.
    Game(FinishedGame),
    /// One more game for `name` on the leaderboard, with its correct guesses and strikes.
    Score(LeaderboardDelta),
}

/// Applies one channel write inside the storage writer's transaction.
pub fn apply(conn: &Connection, write: &ChannelWrite) -> rusqlite::Result<()> {
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
                "INSERT INTO leaderboard (name, games, correct, strikes) VALUES (?1, 1, ?2, ?3) \
                 ON CONFLICT(name) DO UPDATE SET games = games + 1, \
                 correct = correct + excluded.correct, strikes = strikes + excluded.strikes",
            )?
            .execute(params![delta.name, delta.correct, delta.strikes])?;
        }
    }
    Ok(())
}

/// What a channel hands to the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    Started(StartedGame),
    Finished(FinishedGame),
}

/// The storage writes for a record.
pub fn writes(record: &Record) -> Vec<Write> {
    match record {
        Record::Started(game) => vec![Write::Channel(ChannelWrite::Started(game.clone()))],
        Record::Finished(game) => {
            let mut writes = vec![Write::Channel(ChannelWrite::Game(game.clone()))];
            writes.extend(
                by_name(&game.standings)
                    .into_iter()
                    .map(|delta| Write::Channel(ChannelWrite::Score(delta))),
            );
            writes
        }
    }
}

/// Stores every record that arrives, until shutdown; then stores what is queued and stops
/// (dropping `guard`, so storage closes only after it).
pub async fn record(
    storage: Storage,
    mut finished: mpsc::UnboundedReceiver<Record>,
    mut shutdown: Shutdown,
    guard: Option<TaskGuard>,
) {
    loop {
        let game = tokio::select! {
            game = finished.recv() => game,
            _ = shutdown.recv() => None,
        };
        let Some(game) = game else { break };
        store(&storage, &game).await;
    }
    while let Ok(game) = finished.try_recv() {
        store(&storage, &game).await;
    }
    drop(guard);
}

async fn store(storage: &Storage, record: &Record) {
    if let Err(err) = storage.commit(writes(record)).await {
        tracing::error!(?record, %err, "engine game not archived");
    }
}

async fn read<T: Send + 'static>(
    path: PathBuf,
    query: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
) -> Result<T, StorageError> {
    tokio::task::spawn_blocking(move || -> Result<T, StorageError> {
        let conn = Connection::open(path)?;
        Ok(query(&conn)?)
    })
    .await
    .map_err(|e| StorageError::Join(e.to_string()))?
}

/// How far apart the channel versions of two server runs start: run `r` numbers every
/// channel's events from `r * RUN_VERSIONS + 1`, so a version is never used twice for one
/// channel id, across restarts and crashes too (2^32 events per channel and run is over a
/// century at the shortest ply interval of on-demand games; JSON stays exact up to 2^21 runs).
pub const RUN_VERSIONS: u64 = 1 << 32;

/// Records that a new server run starts and returns its number: 0 on a fresh database, then
/// one more at every start. Durable before it returns, so no crash can hand out a run twice.
pub async fn next_run(path: &Path) -> Result<u64, StorageError> {
    read(path.to_owned(), |conn| {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.execute_batch(SCHEMA)?;
        conn.execute(
            "INSERT INTO server_runs (started_ms) VALUES (?1)",
            params![now_ms()],
        )?;
        conn.query_row("SELECT COUNT(*) FROM server_runs", [], |row| {
            row.get::<_, i64>(0)
        })
    })
    .await
    .map(|runs| (runs as u64).saturating_sub(1))
}

/// The first archive id not yet used.
pub async fn next_game_id(path: &Path) -> Result<u64, StorageError> {
    read(path.to_owned(), |conn| {
        conn.execute_batch(SCHEMA)?;
        conn.query_row(
            "SELECT COALESCE(MAX(id), 0) + 1 FROM engine_games",
            [],
            |row| row.get::<_, i64>(0),
        )
    })
    .await
    .map(|id| id.max(1) as u64)
}

/// The best `limit` predictors: most correct guesses, then fewest strikes.
pub async fn leaderboard(path: &Path, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
    read(path.to_owned(), move |conn| {
        let mut stmt = conn.prepare(
            "SELECT name, games, correct, strikes FROM leaderboard \
             ORDER BY correct DESC, strikes ASC, name ASC LIMIT ?1",
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
    })
    .await
}

/// Archived game `game_id` as a finished view, ready to replay.
pub async fn archived(path: &Path, game_id: u64) -> Result<Option<EngineGameView>, StorageError> {
    read(path.to_owned(), move |conn| {
        conn.query_row(
            "SELECT serial, white, black, start_board, start_ply, moves, winner, reason \
             FROM engine_games WHERE id = ?1 AND reason IS NOT NULL",
            params![game_id as i64],
            |row| {
                let moves: String = row.get(5)?;
                let winner: Option<String> = row.get(6)?;
                Ok((
                    GameHeader {
                        game_id,
                        serial: row.get(0)?,
                        white: row.get(1)?,
                        black: row.get(2)?,
                    },
                    row.get::<_, String>(3)?,
                    row.get::<_, u32>(4)?,
                    moves
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect::<Vec<_>>(),
                    EngineResult {
                        winner: match winner.as_deref() {
                            Some("white") => Some(Side::White),
                            Some("black") => Some(Side::Black),
                            _ => None,
                        },
                        reason: row.get(7)?,
                    },
                ))
            },
        )
        .optional()
    })
    .await
    .map(|found| {
        found.map(|(header, start_board, start_ply, moves, result)| {
            super::game::finished_view(header, start_board, start_ply, moves, result)
        })
    })
}

/// A game that has just started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedGame {
    pub channel: String,
    pub header: GameHeader,
    pub start_board: String,
    pub start_ply: u32,
}

/// A finished engine game with its predictors' standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedGame {
    pub channel: String,
    pub header: GameHeader,
    pub start_board: String,
    pub start_ply: u32,
    /// Every move, `b1-c3`.
    pub moves: Vec<String>,
    pub result: EngineResult,
    pub standings: Vec<Standing>,
}

/// One name's share of a game for the leaderboard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaderboardDelta {
    pub name: String,
    pub correct: u32,
    pub strikes: u32,
}

/// The standings added up by display name (two "anonymous" connections are one name); each
/// name counts the game once.
pub fn by_name(standings: &[Standing]) -> Vec<LeaderboardDelta> {
    let mut deltas: Vec<LeaderboardDelta> = Vec::new();
    for standing in standings {
        match deltas.iter_mut().find(|d| d.name == standing.name) {
            Some(delta) => {
                delta.correct += standing.correct;
                delta.strikes += standing.strikes;
            }
            None => deltas.push(LeaderboardDelta {
                name: standing.name.clone(),
                correct: standing.correct,
                strikes: standing.strikes,
            }),
        }
    }
    deltas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standings_add_up_by_name() {
        let s = |name: &str, correct, strikes| Standing {
            name: name.into(),
            correct,
            strikes,
        };
        let deltas = by_name(&[s("anonymous", 3, 1), s("ann", 2, 0), s("anonymous", 1, 4)]);
        assert_eq!(
            deltas,
            vec![
                LeaderboardDelta {
                    name: "anonymous".into(),
                    correct: 4,
                    strikes: 5
                },
                LeaderboardDelta {
                    name: "ann".into(),
                    correct: 2,
                    strikes: 0
                },
            ]
        );
    }
}
