//! Between the Glicko-2 numbers and storage: an account's [`Perf`] read from its newest
//! [`RatingChange`], and a rated game's two changes as the [`Write::Rating`]s that go into
//! the request of the game's `Finish` (see the module doc of [`crate::ratings`]).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use boardcast_protocol::PlayerRating;

use super::glicko::{Change, GameChange, Glicko, Perf};
use crate::storage::accounts::AccountStore;
use crate::storage::{RatingChange, StorageError, Write};

/// The perf a stored newest change leaves (a new account's without one).
pub fn perf_of(newest: Option<&RatingChange>) -> Perf {
    match newest {
        None => Perf::NEW,
        Some(row) => Perf {
            glicko: Glicko {
                rating: row.rating,
                deviation: row.deviation,
                volatility: row.volatility,
            },
            rated_games: row.games_before.saturating_add(1),
            last_rated: Some(time_of(row.at_ms)),
        },
    }
}

/// The stored perf of `account`.
pub async fn read_perf(accounts: &dyn AccountStore, account: i64) -> Result<Perf, StorageError> {
    Ok(perf_of(accounts.rating(account).await?.as_ref()))
}

/// The rating of `account` as shown beside their name now (`1500?` while provisional).
pub async fn read_shown(
    accounts: &dyn AccountStore,
    account: i64,
) -> Result<PlayerRating, StorageError> {
    let perf = read_perf(accounts, account).await?;
    Ok(PlayerRating {
        rating: u16::try_from(perf.display_rating().max(0)).unwrap_or(u16::MAX),
        provisional: perf.is_provisional(SystemTime::now()),
    })
}

/// The write of one player's `change` by game `match_id`, which ended at `at_ms`.
fn write_of(match_id: &str, account: i64, change: &Change, at_ms: i64) -> Write {
    Write::Rating(RatingChange {
        match_id: match_id.to_owned(),
        account,
        games_before: change.before.rated_games,
        at_ms,
        rating_before: change.before.glicko.rating,
        rating: change.after.glicko.rating,
        deviation: change.after.glicko.deviation,
        volatility: change.after.glicko.volatility,
    })
}

/// Both writes of a rated game between accounts `white` and `black`.
pub fn writes_of(
    match_id: &str,
    (white, black): (i64, i64),
    game: &GameChange,
    at_ms: i64,
) -> [Write; 2] {
    [
        write_of(match_id, white, &game.white, at_ms),
        write_of(match_id, black, &game.black, at_ms),
    ]
}

/// Unix milliseconds as a wall-clock time (before 1970 counts as 1970).
pub fn time_of(at_ms: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(u64::try_from(at_ms).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ratings::glicko::{Score, rate_game};

    #[test]
    fn a_stored_change_reads_back_as_the_perf_it_left() {
        let at = time_of(1_700_000_000_000);
        let game = rate_game(&Perf::NEW, &Perf::NEW, Score::WhiteWins, at);
        let [Write::Rating(white), Write::Rating(black)] =
            writes_of("m", (1, 2), &game, 1_700_000_000_000)
        else {
            panic!("two rating writes")
        };
        assert_eq!(perf_of(Some(&white)), game.white.after);
        assert_eq!(perf_of(Some(&black)), game.black.after);
        assert_eq!(white.games_before, 0);
        assert_eq!(perf_of(None), Perf::NEW);
    }
}
