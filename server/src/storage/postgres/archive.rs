//! The channel side in PostgreSQL: archived engine games, the leaderboard and the server's runs.

use boardcast_protocol::{EngineResult, GameHeader, LeaderboardEntry, Side, names};
use deadpool_postgres::Client as Pooled;
use tokio_postgres::{Client, Error, Statement};

use crate::storage::read::stored_winner;
use crate::storage::{ArchivedGame, ChannelWrite, now_ms};

pub(super) const GAME_STARTED: &str = "INSERT INTO engine_games (id, channel, serial, white, black, \
     start_board, start_ply, moves) VALUES ($1, $2, $3, $4, $5, $6, $7, '')";
pub(super) const GAME_FINISHED: &str = "INSERT INTO engine_games (id, channel, serial, white, black, \
     start_board, start_ply, moves, winner, reason, finished_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
     ON CONFLICT (id) DO UPDATE SET moves = excluded.moves, winner = excluded.winner, \
     reason = excluded.reason, finished_ms = excluded.finished_ms";
/// One more game for a predictor, keyed by the identity of their name (the name kept is the
/// one first seen).
pub(super) const SCORE: &str = "INSERT INTO leaderboard (identity, name, games, correct, strikes) \
     VALUES ($1, $2, 1, $3, $4) ON CONFLICT (identity) DO UPDATE SET \
     games = leaderboard.games + 1, \
     correct = leaderboard.correct + excluded.correct, \
     strikes = leaderboard.strikes + excluded.strikes";

/// The archive's prepared statements on one connection.
#[derive(Debug)]
pub(super) struct Statements {
    pub started: Statement,
    pub finished: Statement,
    pub score: Statement,
}

/// Applies one channel write inside the writer's transaction.
pub(super) async fn apply(
    client: &Client,
    statements: &Statements,
    write: &ChannelWrite,
) -> Result<u64, Error> {
    match write {
        ChannelWrite::Started(game) => {
            let id = game.header.game_id as i64;
            let start_ply = i64::from(game.start_ply);
            client
                .execute(
                    &statements.started,
                    &[
                        &id,
                        &game.channel,
                        &game.header.serial,
                        &game.header.white,
                        &game.header.black,
                        &game.start_board,
                        &start_ply,
                    ],
                )
                .await
        }
        ChannelWrite::Game(game) => {
            let id = game.header.game_id as i64;
            let start_ply = i64::from(game.start_ply);
            let moves = game.moves.join(" ");
            let winner = game.result.winner.map(Side::as_str);
            client
                .execute(
                    &statements.finished,
                    &[
                        &id,
                        &game.channel,
                        &game.header.serial,
                        &game.header.white,
                        &game.header.black,
                        &game.start_board,
                        &start_ply,
                        &moves,
                        &winner,
                        &game.result.reason,
                        &now_ms(),
                    ],
                )
                .await
        }
        ChannelWrite::Score(delta) => {
            let correct = i64::from(delta.correct);
            let strikes = i64::from(delta.strikes);
            client
                .execute(
                    &statements.score,
                    &[
                        &names::identity(&delta.name),
                        &delta.name,
                        &correct,
                        &strikes,
                    ],
                )
                .await
        }
    }
}

/// Records a new server run, committed with `synchronous_commit` on, and returns its number
/// (0 on a fresh database). The identity hands out distinct numbers even to servers starting
/// at the same moment.
pub(super) async fn next_run(client: &mut Pooled) -> Result<u64, Error> {
    let tx = client.transaction().await?;
    tx.batch_execute("SET LOCAL synchronous_commit TO on")
        .await?;
    let run: i64 = tx
        .query_one(
            "INSERT INTO server_runs (started_ms) VALUES ($1) RETURNING run",
            &[&now_ms()],
        )
        .await?
        .get(0);
    tx.commit().await?;
    Ok((run as u64).saturating_sub(1))
}

/// The first archive id not yet used.
pub(super) async fn next_game_id(client: &Pooled) -> Result<u64, Error> {
    let id: i64 = client
        .query_one("SELECT COALESCE(MAX(id), 0) + 1 FROM engine_games", &[])
        .await?
        .get(0);
    Ok(id.max(1) as u64)
}

/// The best `limit` predictors in the order of [`crate::channels::predict::rank`]: most
/// correct − strikes, then most correct, then by name.
pub(super) async fn leaderboard(
    client: &Pooled,
    limit: u32,
) -> Result<Vec<LeaderboardEntry>, Error> {
    let statement = client
        .prepare_cached(
            "SELECT name, games, correct, strikes FROM leaderboard \
             ORDER BY correct - strikes DESC, correct DESC, name ASC LIMIT $1",
        )
        .await?;
    let count = |value: i64| u32::try_from(value).unwrap_or(u32::MAX);
    Ok(client
        .query(&statement, &[&i64::from(limit)])
        .await?
        .iter()
        .map(|row| LeaderboardEntry {
            name: row.get(0),
            games: count(row.get(1)),
            correct: count(row.get(2)),
            strikes: count(row.get(3)),
        })
        .collect())
}

/// Archived game `game_id`, if it finished.
pub(super) async fn archived_game(
    client: &Pooled,
    game_id: u64,
) -> Result<Option<ArchivedGame>, Error> {
    let statement = client
        .prepare_cached(
            "SELECT serial, white, black, start_board, start_ply, moves, winner, reason \
             FROM engine_games WHERE id = $1 AND reason IS NOT NULL",
        )
        .await?;
    let row = client.query_opt(&statement, &[&(game_id as i64)]).await?;
    Ok(row.map(|row| {
        let moves: String = row.get(5);
        let winner: Option<String> = row.get(6);
        ArchivedGame {
            header: GameHeader {
                game_id,
                serial: row.get(0),
                white: row.get(1),
                black: row.get(2),
            },
            start_board: row.get(3),
            start_ply: u32::try_from(row.get::<_, i64>(4)).unwrap_or(u32::MAX),
            moves: moves.split_whitespace().map(str::to_owned).collect(),
            result: EngineResult {
                winner: stored_winner(winner.as_deref()),
                reason: row.get(7),
            },
        }
    }))
}
