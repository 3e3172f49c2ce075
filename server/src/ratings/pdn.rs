//! The PDN tags of a rated game, after lichess' PGN: the players' ratings *before* the game as
//! `WhiteElo`/`BlackElo` (what they played at), the change as `WhiteRatingDiff`/`BlackRatingDiff`
//! (`+12`, `-12`, `+0`), and `Rated "true"` so a reader need not infer it from the tags. A casual
//! game has none of them. They are written from the result's [`RatingChanges`], so a PDN
//! exported again after a restart says the same.

use boardcast_protocol::RatingChanges;

use super::glicko::{Change, GameChange};

/// The tag lines (each ending in a newline) to add to a rated game's PDN header.
pub fn rating_tags(change: &RatingChanges) -> String {
    format!(
        "[Rated \"true\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n\
         [WhiteRatingDiff \"{:+}\"]\n[BlackRatingDiff \"{:+}\"]\n",
        change.white.before, change.black.before, change.white.diff, change.black.diff,
    )
}

/// The change as the protocol shows it: rounded ratings before and after, and whether the
/// new one is provisional as of the game's end `at`.
pub fn shown(change: &GameChange, at: std::time::SystemTime) -> RatingChanges {
    let diff = |change: &Change| boardcast_protocol::RatingDiff {
        before: clamp(change.before.display_rating()),
        after: clamp(change.after.display_rating()),
        diff: i16::try_from(change.delta()).unwrap_or(0),
        provisional: change.after.is_provisional(at),
    };
    RatingChanges {
        white: diff(&change.white),
        black: diff(&change.black),
    }
}

/// A rating as a `u16` (ratings never go below the floor of 400, nor near 65,535).
fn clamp(rating: i32) -> u16 {
    u16::try_from(rating.max(0)).unwrap_or(u16::MAX)
}

#[cfg(test)]
mod tests {
    use std::time::SystemTime;

    use super::*;
    use crate::ratings::glicko::{Perf, Score, rate_game};

    #[test]
    fn a_rated_game_names_the_ratings_it_was_played_at_and_the_changes() {
        let mut strong = Perf::NEW;
        strong.glicko.rating = 1712.4;
        strong.glicko.deviation = 80.0;
        let change = rate_game(
            &strong,
            &Perf::NEW,
            Score::BlackWins,
            SystemTime::UNIX_EPOCH,
        );
        let shown = shown(&change, SystemTime::UNIX_EPOCH);
        let tags = rating_tags(&shown);
        let white_diff = change.white.delta();
        let black_diff = change.black.delta();
        assert!(white_diff < 0 && black_diff > 0);
        assert_eq!(i32::from(shown.white.diff), white_diff);
        assert_eq!(
            i32::from(shown.black.after),
            change.black.after.display_rating()
        );
        assert!(shown.black.provisional, "a new player stays provisional");
        assert_eq!(
            tags,
            format!(
                "[Rated \"true\"]\n[WhiteElo \"1712\"]\n[BlackElo \"1500\"]\n\
                 [WhiteRatingDiff \"{white_diff}\"]\n[BlackRatingDiff \"+{black_diff}\"]\n"
            )
        );
    }
}
