//! A Swiss event's state and its round cycle: pair a round, then record its results.
//!
//! The state is the list of players with one [`RoundRecord`] per round; everything the
//! pairing rules look at (scores, colours, floats, byes, who met whom) is derived from those
//! records, never stored beside them, so that a director replaying its stored events rebuilds
//! exactly the state it paired from. Late entries get an [`RoundRecord::Absent`] (0 points)
//! for each round they missed; a withdrawn player keeps their records and is no longer paired.
//!
//! Pairing numbers (C.04.3 A.2 b) follow the initial ranking: rating, highest first, then the
//! player id (standing in for FIDE's title and name). A late entry takes its place in that
//! order, which renumbers the players below it, as C.04.2 B allows.

use std::collections::HashMap;

use thiserror::Error;

use crate::dutch::{self, Board, DutchPlayer, Float, PairingError, RoundInput};
use crate::{Colour, PlayerId, Points};

/// How a Swiss is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwissConfig {
    /// Number of rounds.
    pub rounds: u32,
    /// Points of the pairing-allocated bye (C.04.1 c: a win's, unless the rules say otherwise).
    pub bye_points: Points,
    /// The colour of the top player in round 1 (drawn by lot before the event).
    pub initial_colour: Colour,
}

impl Default for SwissConfig {
    fn default() -> Self {
        SwissConfig {
            rounds: 5,
            bye_points: Points::ONE,
            initial_colour: Colour::White,
        }
    }
}

/// How a game ended, from White's side; forfeits are games not played (no colour counts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
    /// Black did not appear (or made no first move in time).
    WhiteWinsByForfeit,
    BlackWinsByForfeit,
    /// Neither appeared: both score 0.
    DoubleForfeit,
}

impl Outcome {
    /// Points of White and Black.
    pub fn points(self) -> (Points, Points) {
        match self {
            Outcome::WhiteWins | Outcome::WhiteWinsByForfeit => (Points::ONE, Points::ZERO),
            Outcome::Draw => (Points::HALF, Points::HALF),
            Outcome::BlackWins | Outcome::BlackWinsByForfeit => (Points::ZERO, Points::ONE),
            Outcome::DoubleForfeit => (Points::ZERO, Points::ZERO),
        }
    }

    /// Whether the game was decided without being played.
    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            Outcome::WhiteWinsByForfeit | Outcome::BlackWinsByForfeit | Outcome::DoubleForfeit
        )
    }
}

/// What one player did in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoundRecord {
    /// Paired against `opponent` with `colour`; `forfeit` when the game was not played.
    Game {
        opponent: PlayerId,
        colour: Colour,
        points: Points,
        forfeit: bool,
    },
    /// The pairing-allocated bye.
    Bye { points: Points },
    /// Not paired: not yet entered, withdrawn, or absent (0 points).
    Absent,
}

impl RoundRecord {
    /// The points this round gave.
    pub fn points(&self) -> Points {
        match *self {
            RoundRecord::Game { points, .. } | RoundRecord::Bye { points } => points,
            RoundRecord::Absent => Points::ZERO,
        }
    }
}

/// A player of a Swiss and their rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    pub id: PlayerId,
    pub rating: u32,
    /// One record per finished round.
    pub rounds: Vec<RoundRecord>,
    /// Withdrawn: no longer paired, records kept.
    pub withdrawn: bool,
}

impl SwissPlayer {
    /// The sum of the points of all rounds.
    pub fn score(&self) -> Points {
        self.rounds.iter().map(RoundRecord::points).sum()
    }

    /// The score before round `round` (from 1).
    pub fn score_before(&self, round: usize) -> Points {
        self.rounds
            .iter()
            .take(round.saturating_sub(1))
            .map(RoundRecord::points)
            .sum()
    }

    /// Colours of the games played (not forfeited), in order.
    pub fn colours(&self) -> Vec<Colour> {
        self.rounds
            .iter()
            .filter_map(|r| match r {
                RoundRecord::Game {
                    colour,
                    forfeit: false,
                    ..
                } => Some(*colour),
                _ => None,
            })
            .collect()
    }

    /// Everyone this player was paired against, forfeits included.
    pub fn opponents(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.rounds.iter().filter_map(|r| match r {
            RoundRecord::Game { opponent, .. } => Some(*opponent),
            _ => None,
        })
    }

    /// Had the pairing-allocated bye or a forfeit win: no further bye (C.04.1 d).
    pub fn had_bye(&self) -> bool {
        self.rounds.iter().any(|r| match r {
            RoundRecord::Bye { .. } => true,
            RoundRecord::Game {
                forfeit, points, ..
            } => *forfeit && *points == Points::ONE,
            RoundRecord::Absent => false,
        })
    }
}

/// A game of a paired round with its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub white: PlayerId,
    pub black: PlayerId,
    pub outcome: Outcome,
}

/// A paired round waiting for its results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPairing {
    /// The round, from 1.
    pub round: u32,
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
}

/// Why a Swiss refused a change; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SwissError {
    #[error("a Swiss needs at least one round")]
    NoRounds,
    #[error("player {0} is already in the event")]
    DuplicatePlayer(PlayerId),
    #[error("player {0} is not in the event")]
    UnknownPlayer(PlayerId),
    #[error("round {0} is paired and waiting for its results")]
    RoundInProgress(u32),
    #[error("no round is waiting for results")]
    NoRoundInProgress,
    #[error("all {0} rounds are played")]
    Finished(u32),
    #[error("fewer than two players to pair")]
    TooFewPlayers,
    #[error("the results do not match round {round}'s boards: {reason}")]
    ResultsMismatch { round: u32, reason: String },
    #[error(transparent)]
    Pairing(#[from] PairingError),
}

/// A Swiss event: its players and the round waiting for results, if any.
#[derive(Clone, Debug)]
pub struct Swiss {
    config: SwissConfig,
    players: Vec<SwissPlayer>,
    index: HashMap<PlayerId, usize>,
    rounds_done: u32,
    pending: Option<RoundPairing>,
}

impl Swiss {
    pub fn new(config: SwissConfig) -> Result<Swiss, SwissError> {
        if config.rounds == 0 {
            return Err(SwissError::NoRounds);
        }
        Ok(Swiss {
            config,
            players: Vec::new(),
            index: HashMap::new(),
            rounds_done: 0,
            pending: None,
        })
    }

    pub fn config(&self) -> &SwissConfig {
        &self.config
    }

    /// The players in the order they entered.
    pub fn players(&self) -> &[SwissPlayer] {
        &self.players
    }

    pub fn player(&self, id: PlayerId) -> Option<&SwissPlayer> {
        self.index.get(&id).map(|&i| &self.players[i])
    }

    /// Rounds whose results are recorded.
    pub fn rounds_done(&self) -> u32 {
        self.rounds_done
    }

    /// The round paired and waiting for results.
    pub fn pending(&self) -> Option<&RoundPairing> {
        self.pending.as_ref()
    }

    /// Enters a player, before the first round or between rounds (a late entry, with no
    /// points for the rounds missed).
    pub fn add_player(&mut self, id: PlayerId, rating: u32) -> Result<(), SwissError> {
        self.between_rounds()?;
        if self.index.contains_key(&id) {
            return Err(SwissError::DuplicatePlayer(id));
        }
        self.index.insert(id, self.players.len());
        self.players.push(SwissPlayer {
            id,
            rating,
            rounds: vec![RoundRecord::Absent; self.rounds_done as usize],
            withdrawn: false,
        });
        Ok(())
    }

    /// Withdraws a player between rounds: not paired from the next round on.
    pub fn withdraw(&mut self, id: PlayerId) -> Result<(), SwissError> {
        self.between_rounds()?;
        let &i = self.index.get(&id).ok_or(SwissError::UnknownPlayer(id))?;
        self.players[i].withdrawn = true;
        Ok(())
    }

    /// Brings back a withdrawn player between rounds: paired again from the next round on,
    /// with the records they had, the rounds missed absent (0 points), as lichess's Swiss
    /// takes back a player who left and joins again.
    pub fn rejoin(&mut self, id: PlayerId) -> Result<(), SwissError> {
        self.between_rounds()?;
        let &i = self.index.get(&id).ok_or(SwissError::UnknownPlayer(id))?;
        if !self.players[i].withdrawn {
            return Err(SwissError::DuplicatePlayer(id));
        }
        self.players[i].withdrawn = false;
        Ok(())
    }

    fn between_rounds(&self) -> Result<(), SwissError> {
        if let Some(p) = &self.pending {
            return Err(SwissError::RoundInProgress(p.round));
        }
        if self.rounds_done >= self.config.rounds {
            return Err(SwissError::Finished(self.config.rounds));
        }
        Ok(())
    }

    /// Pairing numbers (1 = top of the initial ranking), by the index of each player.
    pub fn pairing_numbers(&self) -> Vec<u32> {
        let mut by_rank: Vec<usize> = (0..self.players.len()).collect();
        by_rank.sort_by(|&a, &b| {
            let (pa, pb) = (&self.players[a], &self.players[b]);
            pb.rating.cmp(&pa.rating).then(pa.id.cmp(&pb.id))
        });
        let mut numbers = vec![0; self.players.len()];
        for (rank, &i) in by_rank.iter().enumerate() {
            numbers[i] = rank as u32 + 1;
        }
        numbers
    }

    /// The players of the next round as the Dutch rules see them.
    pub fn dutch_players(&self) -> Vec<DutchPlayer> {
        let numbers = self.pairing_numbers();
        let done = self.rounds_done as usize;
        // Scores before each finished round, to tell floats (A.4 b).
        let before: Vec<Vec<Points>> = (1..=done)
            .map(|r| self.players.iter().map(|p| p.score_before(r)).collect())
            .collect();
        let float_in = |i: usize, round: usize| -> Float {
            match self.players[i].rounds[round - 1] {
                RoundRecord::Bye { .. } => Float::Down,
                RoundRecord::Game {
                    opponent,
                    forfeit: false,
                    ..
                } => {
                    let j = self.index[&opponent];
                    let (mine, theirs) = (before[round - 1][i], before[round - 1][j]);
                    match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    }
                }
                _ => Float::None,
            }
        };
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.withdrawn)
            .map(|(i, p)| DutchPlayer {
                id: p.id,
                pairing_number: numbers[i],
                score: p.score(),
                colours: p.colours(),
                opponents: p.opponents().collect(),
                had_bye: p.had_bye(),
                floats: [
                    if done >= 1 {
                        float_in(i, done)
                    } else {
                        Float::None
                    },
                    if done >= 2 {
                        float_in(i, done - 1)
                    } else {
                        Float::None
                    },
                ],
            })
            .collect()
    }

    /// Pairs the next round by the Dutch system; it waits for [`Swiss::record_round`].
    pub fn pair_next_round(&mut self) -> Result<&RoundPairing, SwissError> {
        self.between_rounds()?;
        let players = self.dutch_players();
        if players.len() < 2 {
            return Err(SwissError::TooFewPlayers);
        }
        let round = self.rounds_done + 1;
        let pairing = dutch::pair(&RoundInput {
            players: &players,
            round,
            total_rounds: self.config.rounds,
            initial_colour: self.config.initial_colour,
        })?;
        Ok(self.pending.insert(RoundPairing {
            round,
            boards: pairing.boards,
            bye: pairing.bye,
        }))
    }

    /// Records the results of the paired round: one per board, in any order.
    pub fn record_round(&mut self, results: &[GameResult]) -> Result<(), SwissError> {
        let pending = self.pending.as_ref().ok_or(SwissError::NoRoundInProgress)?;
        let mismatch = |reason: String| SwissError::ResultsMismatch {
            round: pending.round,
            reason,
        };
        if results.len() != pending.boards.len() {
            return Err(mismatch(format!(
                "{} results for {} boards",
                results.len(),
                pending.boards.len()
            )));
        }
        let mut outcome_of: HashMap<(PlayerId, PlayerId), Outcome> = HashMap::new();
        for r in results {
            if outcome_of.insert((r.white, r.black), r.outcome).is_some() {
                return Err(mismatch(format!("{} against {} twice", r.white, r.black)));
            }
        }
        for board in &pending.boards {
            if !outcome_of.contains_key(&(board.white, board.black)) {
                return Err(mismatch(format!(
                    "no result for {} against {}",
                    board.white, board.black
                )));
            }
        }
        let pending = self.pending.take().expect("checked above");
        let mut record: Vec<RoundRecord> = vec![RoundRecord::Absent; self.players.len()];
        for board in &pending.boards {
            let outcome = outcome_of[&(board.white, board.black)];
            let (w, b) = outcome.points();
            let forfeit = outcome.is_forfeit();
            record[self.index[&board.white]] = RoundRecord::Game {
                opponent: board.black,
                colour: Colour::White,
                points: w,
                forfeit,
            };
            record[self.index[&board.black]] = RoundRecord::Game {
                opponent: board.white,
                colour: Colour::Black,
                points: b,
                forfeit,
            };
        }
        if let Some(id) = pending.bye {
            record[self.index[&id]] = RoundRecord::Bye {
                points: self.config.bye_points,
            };
        }
        for (player, r) in self.players.iter_mut().zip(record) {
            player.rounds.push(r);
        }
        self.rounds_done += 1;
        Ok(())
    }
}
