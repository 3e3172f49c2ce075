//! The PDN tags of a rated game, after lichess' PGN: the players' ratings *before* the game as
//! `WhiteElo`/`BlackElo` (what they played at), the change as `WhiteRatingDiff`/`BlackRatingDiff`
//! (`+12`, `-12`, `+0`), and `Rated "true"` so a reader need not infer it from the tags. A casual
//! game has none of them.

use super::glicko::GameChange;

/// The tag lines (each ending in a newline) to add to a rated game's PDN header.
pub fn rating_tags(change: &GameChange) -> String {
    format!(
        "[Rated \"true\"]\n[WhiteElo \"{}\"]\n[BlackElo \"{}\"]\n\
         [WhiteRatingDiff \"{:+}\"]\n[BlackRatingDiff \"{:+}\"]\n",
        change.white.before.display_rating(),
        change.black.before.display_rating(),
        change.white.delta(),
        change.black.delta(),
    )
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
        let tags = rating_tags(&change);
        let white_diff = change.white.delta();
        let black_diff = change.black.delta();
        assert!(white_diff < 0 && black_diff > 0);
        assert_eq!(
            tags,
            format!(
                "[Rated \"true\"]\n[WhiteElo \"1712\"]\n[BlackElo \"1500\"]\n\
                 [WhiteRatingDiff \"{white_diff}\"]\n[BlackRatingDiff \"+{black_diff}\"]\n"
            )
        );
    }
}
