//! Rating changes in SQLite ([`crate::storage::RatingChange`]).
//!
//! One table, no derived one: an account's current rating is its newest row. The two keys are
//! the exactly-once rule: `(match_id, account_id)` refuses a game rated twice (a replayed or
//! taken-over Finish), `(account_id, games_before)` refuses a change computed from a rating
//! that has moved since it was read (compare-and-set on the rated game count). Either refusal
//! refuses the whole request, the game's Finish with it.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::storage::RatingChange;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rating_changes (
    match_id      TEXT NOT NULL,
    account_id    INTEGER NOT NULL REFERENCES accounts(id),
    games_before  INTEGER NOT NULL,
    at_ms         INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    rating        REAL NOT NULL,
    deviation     REAL NOT NULL,
    volatility    REAL NOT NULL,
    PRIMARY KEY (match_id, account_id),
    UNIQUE (account_id, games_before)
);
";

/// Creates the table if it is missing (after the accounts table it refers to).
pub(crate) fn create(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)
}

/// Stores one change; a second change of the same game or count is a constraint error.
pub(crate) fn insert(conn: &Connection, change: &RatingChange) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO rating_changes (match_id, account_id, games_before, at_ms, rating_before, \
         rating, deviation, volatility) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        change.match_id,
        change.account,
        change.games_before,
        change.at_ms,
        change.rating_before,
        change.rating,
        change.deviation,
        change.volatility
    ])?;
    Ok(())
}

const COLUMNS: &str = "match_id, account_id, games_before, at_ms, rating_before, rating, \
                       deviation, volatility FROM rating_changes WHERE account_id = ?1";

fn change(row: &Row<'_>) -> rusqlite::Result<RatingChange> {
    change_from(row, 0)
}

/// The change in the columns of `row` from `first` on.
fn change_from(row: &Row<'_>, first: usize) -> rusqlite::Result<RatingChange> {
    Ok(RatingChange {
        match_id: row.get(first)?,
        account: row.get(first + 1)?,
        games_before: row.get(first + 2)?,
        at_ms: row.get(first + 3)?,
        rating_before: row.get(first + 4)?,
        rating: row.get(first + 5)?,
        deviation: row.get(first + 6)?,
        volatility: row.get(first + 7)?,
    })
}

/// The newest change of every open account rated since `since_ms`, with its name and bot flag.
pub(crate) fn current_all(
    conn: &Connection,
    since_ms: i64,
) -> rusqlite::Result<Vec<crate::storage::accounts::LadderCandidate>> {
    conn.prepare_cached(crate::storage::accounts::CURRENT_RATINGS)?
        .query_map([since_ms], |row| {
            Ok((row.get(0)?, row.get(1)?, change_from(row, 2)?))
        })?
        .collect()
}

/// The newest change of `account`.
pub(crate) fn current(conn: &Connection, account: i64) -> rusqlite::Result<Option<RatingChange>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} ORDER BY games_before DESC LIMIT 1"
    ))?
    .query_row([account], change)
    .optional()
}

/// Every change of `account`, oldest first.
pub(crate) fn history(conn: &Connection, account: i64) -> rusqlite::Result<Vec<RatingChange>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} ORDER BY games_before"))?
        .query_map([account], change)?
        .collect()
}

#[cfg(test)]
mod tests {
    use rusqlite::Connection;

    /// The ladder's query walks the members and steps down the index to each one's newest
    /// change; the plan SQLite chose before scanned every change of every member instead.
    #[test]
    fn the_ladder_reads_each_members_newest_change_through_the_index() {
        let conn = Connection::open_in_memory().unwrap();
        super::super::create_tables(&conn).unwrap();
        let plan: Vec<String> = conn
            .prepare(&format!(
                "EXPLAIN QUERY PLAN {}",
                crate::storage::accounts::CURRENT_RATINGS
            ))
            .unwrap()
            .query_map([0], |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            plan.iter().any(|step| step.starts_with("SCAN a")),
            "{plan:?}"
        );
        assert!(
            plan.iter()
                .any(|step| step.starts_with("SEARCH r USING INDEX")),
            "{plan:?}"
        );
        assert!(
            !plan.iter().any(|step| step.starts_with("SCAN r")),
            "{plan:?}"
        );
    }
}
