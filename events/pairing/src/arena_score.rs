//! Arena scoring as lila scores it (`modules/tournament/src/main/arena/ArenaSheet.scala`).
//!
//! A win scores 2, a draw 1, a loss 0. After two wins in a row a player is "on fire": every
//! game scores double (a win 4, a draw 2) until a game that is not a win ends the streak. A
//! draw in fewer than 20 plies scores 0 and is never doubled, so two players cannot farm
//! points by agreeing quick draws. A berserk player (half the clock, no increment) who wins a
//! game of at least 14 plies scores 1 more, never doubled; a berserk win in fewer plies gets
//! nothing extra, so berserk-and-abort farming does not pay.
//!
//! A [`Sheet`] folds a player's games in the order they finished; the points of a game depend
//! only on the games before it, so a sheet rebuilt from stored games gives the same total.

/// A game's result for the player whose sheet it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaResult {
    Win,
    Draw,
    Loss,
}

/// One finished game of an arena, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaGame {
    pub result: ArenaResult,
    /// Plies played (half-moves), to tell short draws and quick berserk wins.
    pub plies: u32,
    /// This player went berserk in this game.
    pub berserk: bool,
}

/// Points of a win, a draw and a loss before any streak.
pub const WIN: u32 = 2;
pub const DRAW: u32 = 1;
/// A draw of fewer plies scores nothing (lila's `quickDraw`).
pub const SHORT_DRAW_PLIES: u32 = 20;
/// A berserk win needs at least this many plies for its bonus point (lila's
/// `notSoQuickFinish`).
pub const BERSERK_MIN_PLIES: u32 = 14;

/// How a game was scored, for the standings' little flames and the sheet's digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredGame {
    pub game: ArenaGame,
    pub points: u32,
    /// Scored double: the player was on fire.
    pub doubled: bool,
}

/// A player's arena sheet: the games in the order they finished and the running total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    games: Vec<ScoredGame>,
    total: u32,
}

impl Sheet {
    pub fn new() -> Sheet {
        Sheet::default()
    }

    /// A sheet from games in finishing order.
    pub fn from_games(games: impl IntoIterator<Item = ArenaGame>) -> Sheet {
        let mut sheet = Sheet::new();
        for g in games {
            sheet.add(g);
        }
        sheet
    }

    /// Whether the next game scores double: the last two games were wins.
    pub fn on_fire(&self) -> bool {
        matches!(
            self.games.as_slice(),
            [.., a, b] if a.game.result == ArenaResult::Win && b.game.result == ArenaResult::Win
        )
    }

    /// Scores the next finished game and returns its points.
    pub fn add(&mut self, game: ArenaGame) -> u32 {
        let fire = self.on_fire();
        let short_draw = game.result == ArenaResult::Draw && game.plies < SHORT_DRAW_PLIES;
        let base = match game.result {
            ArenaResult::Win => WIN,
            ArenaResult::Draw if short_draw => 0,
            ArenaResult::Draw => DRAW,
            ArenaResult::Loss => 0,
        };
        let doubled = fire && base > 0;
        let berserk_bonus = u32::from(
            game.berserk && game.result == ArenaResult::Win && game.plies >= BERSERK_MIN_PLIES,
        );
        let points = if doubled { base * 2 } else { base } + berserk_bonus;
        self.games.push(ScoredGame {
            game,
            points,
            doubled,
        });
        self.total += points;
        points
    }

    pub fn total(&self) -> u32 {
        self.total
    }

    pub fn games(&self) -> &[ScoredGame] {
        &self.games
    }
}
