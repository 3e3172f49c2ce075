//! Round-robin schedules from the Berger tables, with FIDE's colours (FIDE Handbook C.05
//! Annex 1).
//!
//! The tables are generated rather than stored: in round `r` of a table for an even `n`,
//! player `n` meets player `p`, where `p = (r + 1) / 2` with `n` black in odd rounds and
//! `p = n / 2 + r / 2` with `n` white in even rounds; every other board `k` pairs `p + k`
//! (white) with `p - k` (black), counted modulo `n - 1` in `1..n-1`. This reproduces FIDE's
//! printed tables board for board (the tests compare it with them for 4, 6, 8 and 10).
//!
//! An odd number of players uses the table of the next even number; the last number is the
//! bye. A double round-robin plays the table twice with colours swapped in the second cycle;
//! FIDE recommends swapping the last two rounds of the first cycle so that nobody gets the same
//! colour three times in a row across the cycles, which [`schedule`] does.

use thiserror::Error;

/// A game of a round, by pairing number (1-based, as on the Berger table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: u32,
    pub black: u32,
}

/// One round: its games in board order, and who sits out when the count is odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub games: Vec<Game>,
    pub bye: Option<u32>,
}

/// Why a schedule cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum RoundRobinError {
    #[error("a round-robin needs at least two players, not {0}")]
    TooFewPlayers(u32),
    #[error("a round-robin of {0} players is too large (at most 1000)")]
    TooManyPlayers(u32),
}

/// The largest field: a round-robin of a thousand players is already 999 rounds.
pub const MAX_PLAYERS: u32 = 1000;

/// Round `round` (from 1) of the Berger table for an even `n`, as FIDE prints it.
pub fn berger_round(n: u32, round: u32) -> Vec<Game> {
    debug_assert!(n >= 2 && n.is_multiple_of(2) && (1..n).contains(&round));
    let modulus = n - 1;
    // A residue in 1..=n-1.
    let wrap = |x: i64| -> u32 { ((x - 1).rem_euclid(i64::from(modulus)) + 1) as u32 };
    let (p, n_white) = if round % 2 == 1 {
        (round.div_ceil(2), false)
    } else {
        (n / 2 + round / 2, true)
    };
    let mut games = Vec::with_capacity(n as usize / 2);
    games.push(if n_white {
        Game { white: n, black: p }
    } else {
        Game { white: p, black: n }
    });
    for k in 1..n / 2 {
        games.push(Game {
            white: wrap(i64::from(p) + i64::from(k)),
            black: wrap(i64::from(p) - i64::from(k)),
        });
    }
    games
}

/// The whole schedule for `players` (numbered 1..=players), single or double.
pub fn schedule(players: u32, double: bool) -> Result<Vec<Round>, RoundRobinError> {
    if players < 2 {
        return Err(RoundRobinError::TooFewPlayers(players));
    }
    if players > MAX_PLAYERS {
        return Err(RoundRobinError::TooManyPlayers(players));
    }
    let n = players + players % 2;
    let bye_number = (players % 2 == 1).then_some(n);
    let to_round = |games: Vec<Game>| {
        let mut bye = None;
        let games = games
            .into_iter()
            .filter(|g| {
                if Some(g.white) == bye_number {
                    bye = Some(g.black);
                    false
                } else if Some(g.black) == bye_number {
                    bye = Some(g.white);
                    false
                } else {
                    true
                }
            })
            .collect();
        Round { games, bye }
    };
    let mut first: Vec<Round> = (1..n).map(|r| to_round(berger_round(n, r))).collect();
    if !double {
        return Ok(first);
    }
    let second: Vec<Round> = first
        .iter()
        .map(|r| Round {
            games: r
                .games
                .iter()
                .map(|g| Game {
                    white: g.black,
                    black: g.white,
                })
                .collect(),
            bye: r.bye,
        })
        .collect();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 2, len - 1);
    }
    first.extend(second);
    Ok(first)
}
