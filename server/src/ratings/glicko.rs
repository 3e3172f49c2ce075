//! Glicko-2 as lila rates a game today, on the `skillratings` crate: pure numbers, no I/O.
//!
//! `skillratings` does the Glicko-2 update itself (Glickman's steps 1–8); this module adds what
//! lila puts around it, with lila's current parameters (`lila modules/rating/.../Glicko.scala`):
//!
//! - a new account starts at 1500, RD 500, volatility 0.09; τ = 0.75;
//! - **every rated game is its own rating period**;
//! - before the game, the player's RD grows with the time since their last rated game, at
//!   [`RATING_PERIODS_PER_DAY`] *fractional* periods (Glickman's step 6, `φ* = √(φ² + σ²·t)`).
//!   `skillratings` only decays whole periods (`decay_deviation`), so [`Perf::deviation_at`]
//!   does this step itself;
//! - after the update: RD kept within [45, 500], volatility at most 0.1, the rating moves at most
//!   700 points in one game and never below 400.
//!
//! Whether a game counts at all (played to a result, two moves a side) is [`rated_score`]; who may
//! play rated (two accounts, never a guest) is decided where the match is created.
//!
//! Times are wall-clock ([`SystemTime`]) because they are stored and compared across restarts
//! and nodes; a clock that went backwards counts as no time elapsed.

use std::time::{Duration, SystemTime};

use boardcast_protocol::{EndReason, MatchResult, Side};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// lila's τ: how much the volatility may change in one period.
pub const TAU: f64 = 0.75;
/// Glickman's suggested tolerance for the volatility iteration (step 5).
pub const CONVERGENCE_TOLERANCE: f64 = 0.000_001;
/// How fast RD grows while a player does not play: lila's "RD 60 → 110 in 1 year".
pub const RATING_PERIODS_PER_DAY: f64 = 0.21436;
/// RD never goes below this, so a rating stays able to move.
pub const MIN_DEVIATION: f64 = 45.0;
/// RD never goes above this: a new player's RD, the most uncertain a rating gets.
pub const MAX_DEVIATION: f64 = 500.0;
/// The volatility is capped so one streak cannot make a rating swing for months.
pub const MAX_VOLATILITY: f64 = 0.1;
/// No rating goes below this.
pub const RATING_FLOOR: f64 = 400.0;
/// At most this many points change in one game (a new player's first games move far).
pub const MAX_CHANGE_PER_GAME: f64 = 700.0;
/// A rating whose RD is at least this is provisional, shown as `1500?`.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// On the ladder only with an RD of at most this …
pub const LADDER_DEVIATION: f64 = 75.0;
/// … and a rated game at most this long ago.
pub const LADDER_RECENT: Duration = Duration::from_secs(7 * 24 * 3600);
/// A game counts only if each side made at least two moves (lila: fewer is an abort).
pub const MIN_PLIES: usize = 4;

const SECONDS_PER_DAY: f64 = 86_400.0;
/// Glicko-2's scale factor between the displayed scale and its internal one (Glickman, step 2).
const GLICKO2_SCALE: f64 = 173.7178;

/// A Glicko-2 rating on the displayed scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    /// The rating deviation (RD): how uncertain the rating is.
    pub deviation: f64,
    /// How erratic the player's results are (σ).
    pub volatility: f64,
}

impl Glicko {
    /// A new account's rating: 1500, RD 500, volatility 0.09 (lila's defaults).
    pub const NEW: Glicko = Glicko {
        rating: 1500.0,
        deviation: MAX_DEVIATION,
        volatility: 0.09,
    };

    fn to_skillratings(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_skillratings(rating: Glicko2Rating) -> Glicko {
        Glicko {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }
}

/// A player's rating with what its rules need to know: how many rated games, and when the last.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Perf {
    pub glicko: Glicko,
    pub rated_games: u32,
    /// When the last rated game ended; `None` before the first.
    pub last_rated: Option<SystemTime>,
}

impl Perf {
    /// A new account's perf: no games yet.
    pub const NEW: Perf = Perf {
        glicko: Glicko::NEW,
        rated_games: 0,
        last_rated: None,
    };

    /// The RD as of `now`: the stored RD grown by the (fractional) rating periods since the last
    /// rated game, `√(RD² + (σ·173.7178)²·t)` with `t = days × 0.21436`, at most 500.
    pub fn deviation_at(&self, now: SystemTime) -> f64 {
        let Some(last) = self.last_rated else {
            return self.glicko.deviation.min(MAX_DEVIATION);
        };
        let days = now
            .duration_since(last)
            .unwrap_or(Duration::ZERO)
            .as_secs_f64()
            / SECONDS_PER_DAY;
        let periods = days * RATING_PERIODS_PER_DAY;
        let phi = self.glicko.deviation / GLICKO2_SCALE;
        let sigma = self.glicko.volatility;
        let grown = (phi * phi + sigma * sigma * periods).sqrt() * GLICKO2_SCALE;
        grown.min(MAX_DEVIATION)
    }

    /// Shown with a `?` (lila: RD ≥ 110), judged on the RD as of `now`, so a rating long left
    /// alone becomes provisional again.
    pub fn is_provisional(&self, now: SystemTime) -> bool {
        self.deviation_at(now) >= PROVISIONAL_DEVIATION
    }

    /// On the ladder: RD at most 75 and a rated game in the last 7 days.
    pub fn on_ladder(&self, now: SystemTime) -> bool {
        let recent = self.last_rated.is_some_and(|last| {
            now.duration_since(last).unwrap_or(Duration::ZERO) <= LADDER_RECENT
        });
        recent && self.deviation_at(now) <= LADDER_DEVIATION
    }

    /// The rating rounded for display and ranking.
    pub fn display_rating(&self) -> i32 {
        self.glicko.rating.round() as i32
    }
}

/// The result of a rated game from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Score {
    /// The points `side` scored: 1, ½ or 0.
    pub fn points(self, side: Side) -> f64 {
        match (self, side) {
            (Score::Draw, _) => 0.5,
            (Score::WhiteWins, Side::White) | (Score::BlackWins, Side::Black) => 1.0,
            _ => 0.0,
        }
    }
}

/// Why a finished game changes no rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Unrated {
    /// Aborted (also a missed first move) or abandoned before anyone won: no result to rate.
    #[error("the game has no result to rate (aborted or abandoned without a winner)")]
    NoResult,
    /// Fewer than two moves a side: lila counts such a game as aborted.
    #[error("the game is too short to be rated: {plies} moves played, {MIN_PLIES} needed")]
    TooShort { plies: usize },
}

/// The score a finished game is rated with, or why it is not rated: an aborted game (which
/// includes a first-move timeout), an abandoned game nobody won, or one with fewer than two
/// moves a side changes nothing.
pub fn rated_score(result: &MatchResult, plies: usize) -> Result<Score, Unrated> {
    let score = match (result.reason, result.winner) {
        (EndReason::Aborted, _) | (EndReason::Abandoned, None) => return Err(Unrated::NoResult),
        (_, Some(Side::White)) => Score::WhiteWins,
        (_, Some(Side::Black)) => Score::BlackWins,
        (_, None) => Score::Draw,
    };
    if plies < MIN_PLIES {
        return Err(Unrated::TooShort { plies });
    }
    Ok(score)
}

/// One player's rating before and after a game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub before: Perf,
    pub after: Perf,
}

impl Change {
    /// The displayed change, e.g. `+12`: difference of the rounded ratings, so that
    /// `before + delta == after` as the players read them.
    pub fn delta(&self) -> i32 {
        self.after.display_rating() - self.before.display_rating()
    }
}

/// Both players' changes from one rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameChange {
    pub white: Change,
    pub black: Change,
}

/// Rates one game that ended at `at`: each player's RD first grows with their time away,
/// then one Glicko-2 period with the game as its only result, then lila's limits.
pub fn rate_game(white: &Perf, black: &Perf, score: Score, at: SystemTime) -> GameChange {
    let config = Glicko2Config {
        tau: TAU,
        convergence_tolerance: CONVERGENCE_TOLERANCE,
    };
    let white_now = Glicko {
        deviation: white.deviation_at(at),
        ..white.glicko
    };
    let black_now = Glicko {
        deviation: black.deviation_at(at),
        ..black.glicko
    };
    let white_new = rating_period(
        white_now,
        &[(black_now, score.points(Side::White))],
        &config,
    );
    let black_new = rating_period(
        black_now,
        &[(white_now, score.points(Side::Black))],
        &config,
    );
    GameChange {
        white: Change {
            before: *white,
            after: limited(white, white_new, at),
        },
        black: Change {
            before: *black,
            after: limited(black, black_new, at),
        },
    }
}

/// One Glicko-2 rating period (Glickman's steps 1–8) by `skillratings`, no limits applied:
/// `results` are the opponents with the points scored against each.
pub fn rating_period(player: Glicko, results: &[(Glicko, f64)], config: &Glicko2Config) -> Glicko {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|&(opponent, points)| (opponent.to_skillratings(), outcome(points)))
        .collect();
    Glicko::from_skillratings(glicko2_rating_period(
        &player.to_skillratings(),
        &results,
        config,
    ))
}

fn outcome(points: f64) -> Outcomes {
    if points > 0.75 {
        Outcomes::WIN
    } else if points < 0.25 {
        Outcomes::LOSS
    } else {
        Outcomes::DRAW
    }
}

/// lila's limits on a game's outcome: the rating within 700 of where it was and at least 400,
/// RD within [45, 500], volatility at most 0.1.
fn limited(before: &Perf, new: Glicko, at: SystemTime) -> Perf {
    let old = before.glicko.rating;
    let rating = new
        .rating
        .clamp(old - MAX_CHANGE_PER_GAME, old + MAX_CHANGE_PER_GAME)
        .max(RATING_FLOOR);
    Perf {
        glicko: Glicko {
            rating,
            deviation: new.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: new.volatility.min(MAX_VOLATILITY),
        },
        rated_games: before.rated_games.saturating_add(1),
        last_rated: Some(at),
    }
}

#[cfg(test)]
mod tests;
