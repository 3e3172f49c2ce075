//! Finished engine games and prediction scores on their way to storage.
//!
//! Channel actors never wait for the disk: they hand each finished game to an unbounded queue
//! (a game ends at most every few seconds per channel) and the recorder task turns it into
//! storage writes: the archived game, and each predictor's totals added to the leaderboard by
//! display name.

use boardcast_protocol::{EngineResult, GameHeader, Standing};

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
