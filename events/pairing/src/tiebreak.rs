//! Final standings with tie-breaks. A Swiss ranks equal scores by Buchholz, Buchholz cut-1,
//! then Sonneborn-Berger ([`standings`]); a round robin by Sonneborn-Berger alone
//! ([`round_robin_standings`]), because there everyone meets everyone and, once every round is
//! played, players on equal scores have equal Buchholz. Rating, then player id, come last, so
//! that the order is total and every node ranks alike.
//!
//! - **Buchholz**: the sum of the final scores of one's opponents.
//! - **Buchholz cut-1**: the same without the lowest of those scores.
//! - **Sonneborn-Berger**: the sum of the scores of the opponents one beat, plus half the
//!   scores of those one drew with; kept in quarter points so it is exact.
//!
//! Unplayed rounds (byes, forfeits, absences) count as a game against a virtual opponent with
//! the player's own final score, as we read FIDE's tie-break regulations (C.07, 2023, §16):
//! a bye then neither helps nor harms one's Buchholz the way a weak or strong real opponent
//! would. The same records serve a round-robin, whose players' rounds are kept the same way.

use std::collections::HashMap;

use crate::swiss::{RoundRecord, SwissPlayer};
use crate::{PlayerId, Points};

/// One line of the final table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub id: PlayerId,
    /// Place, from 1; no two players share one (the last key is the id).
    pub rank: u32,
    pub score: Points,
    pub buchholz: Points,
    pub buchholz_cut1: Points,
    /// Sonneborn-Berger in quarter points: 6 is 1½.
    pub sonneborn_berger_quarters: u32,
    pub rating: u32,
}

/// The table of a Swiss's `players`, best first: score, Buchholz, Buchholz cut-1,
/// Sonneborn-Berger, rating, id.
pub fn standings(players: &[SwissPlayer]) -> Vec<Standing> {
    ranked(lines(players), |a, b| {
        b.buchholz
            .cmp(&a.buchholz)
            .then(b.buchholz_cut1.cmp(&a.buchholz_cut1))
            .then(
                b.sonneborn_berger_quarters
                    .cmp(&a.sonneborn_berger_quarters),
            )
    })
}

/// The table of a round robin's `players`, best first: score, Sonneborn-Berger, rating, id
/// (FIDE's tie-break regulations, C.07, name Sonneborn-Berger for round robins, not Buchholz).
pub fn round_robin_standings(players: &[SwissPlayer]) -> Vec<Standing> {
    ranked(lines(players), |a, b| {
        b.sonneborn_berger_quarters
            .cmp(&a.sonneborn_berger_quarters)
    })
}

/// `table` sorted by score, then `tie_breaks`, then rating and id, with the places written.
fn ranked(
    mut table: Vec<Standing>,
    tie_breaks: impl Fn(&Standing, &Standing) -> std::cmp::Ordering,
) -> Vec<Standing> {
    table.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| tie_breaks(a, b))
            .then(b.rating.cmp(&a.rating))
            .then(a.id.cmp(&b.id))
    });
    for (i, s) in table.iter_mut().enumerate() {
        s.rank = i as u32 + 1;
    }
    table
}

/// Each player's line, unranked.
fn lines(players: &[SwissPlayer]) -> Vec<Standing> {
    let score: HashMap<PlayerId, Points> = players.iter().map(|p| (p.id, p.score())).collect();
    players
        .iter()
        .map(|p| {
            let own = score[&p.id];
            let mut buchholz = Points::ZERO;
            let mut lowest: Option<Points> = None;
            let mut sb = 0u32;
            for r in &p.rounds {
                // The opponent's score for Buchholz, and this round's points for Sonneborn-Berger.
                let (opponent_score, points) = match *r {
                    RoundRecord::Game {
                        opponent,
                        points,
                        forfeit: false,
                        ..
                    } => (
                        score.get(&opponent).copied().unwrap_or(Points::ZERO),
                        points,
                    ),
                    other => (own, other.points()),
                };
                buchholz += opponent_score;
                lowest = Some(lowest.map_or(opponent_score, |l| l.min(opponent_score)));
                sb += points.halves() * opponent_score.halves();
            }
            Standing {
                id: p.id,
                rank: 0,
                score: own,
                buchholz,
                buchholz_cut1: Points(buchholz.0 - lowest.unwrap_or(Points::ZERO).0),
                sonneborn_berger_quarters: sb,
                rating: p.rating,
            }
        })
        .collect()
}
