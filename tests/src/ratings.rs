//! Ratings written straight into a server's SQLite database (issue 31), for the tests of the
//! pages and commands that show them (the ladder, a profile's chart): an established rating
//! takes dozens of rated games to earn, and these tests are about showing one, not earning it
//! (the rated games themselves are tested end to end elsewhere).

use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// One rated game's outcome for a member: `days_ago` (may be fractional), the rating and RD
/// after it.
#[derive(Debug, Clone, Copy)]
pub struct Rated {
    pub days_ago: f64,
    pub rating: f64,
    pub rd: f64,
}

/// Milliseconds since the Unix epoch, now.
fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Writes `games` (oldest first) as `name`'s rating changes in the database at `db`, marking
/// the account a bot when `bot`; the account must exist. Each change has its own made-up match
/// id, as a rated game does.
pub fn seed(db: &Path, name: &str, bot: bool, games: &[Rated]) -> rusqlite::Result<()> {
    let conn = rusqlite::Connection::open(db)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    let account: i64 =
        conn.query_row("SELECT id FROM accounts WHERE name = ?1", [name], |row| {
            row.get(0)
        })?;
    if bot {
        conn.execute("UPDATE accounts SET bot = 1 WHERE id = ?1", [account])?;
    }
    let mut before = 1500.0;
    for (i, game) in games.iter().enumerate() {
        let at_ms = now_ms() - (game.days_ago * 86_400_000.0) as i64;
        conn.execute(
            "INSERT INTO rating_changes (match_id, account_id, games_before, at_ms, \
             rating_before, rating, deviation, volatility) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0.06)",
            rusqlite::params![
                format!("seed-{name}-{i}"),
                account,
                i as i64,
                at_ms,
                before,
                game.rating,
                game.rd
            ],
        )?;
        before = game.rating;
    }
    Ok(())
}
