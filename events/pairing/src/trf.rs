//! The FIDE Tournament Report File (TRF16 layout) of a Swiss, so that anyone can check our
//! pairings with the federations' own pairing checkers (JaVaFo, bbpPairings `-c`), as lila
//! serves one at `/swiss/{id}.trf`.
//!
//! Only what pairing checkers read is written: the header lines 012 (name), 062 (number of
//! players), 092 (system), the JaVaFo/bbpPairings extensions XXR (number of rounds) and XXC
//! (initial colour), BBU when the pairing-allocated bye is not worth a win, and one 001 line
//! per player in the fixed columns of the TRF16 description: starting rank 5–8, name 15–47,
//! rating 49–52, points 81–84, rank 86–89, then per round a 10-column block (opponent's
//! starting rank, colour `w`/`b`/`-`, result). Results: `1` `=` `0` for games played, `+` `-`
//! for forfeits, `U` for the pairing-allocated bye, `Z` for a round not paired (late entry,
//! withdrawal). A round paired and not yet finished is written with its opponents and colours
//! and a blank result, the form in which a checker is given the round to verify.

use std::collections::HashMap;
use std::fmt::Write;

use crate::swiss::{RoundRecord, Swiss};
use crate::tiebreak::standings;
use crate::{Colour, PlayerId, Points};

/// What the TRF says about the event beyond its rounds.
#[derive(Clone, Debug, Default)]
pub struct TrfHeader {
    /// The event's name (line 012).
    pub name: String,
}

/// The TRF of `swiss`; `name_of` gives each player's display name (cut to 33 characters).
pub fn write_trf(
    swiss: &Swiss,
    header: &TrfHeader,
    name_of: impl Fn(PlayerId) -> String,
) -> String {
    let players = swiss.players();
    let numbers = swiss.pairing_numbers();
    let number_of: HashMap<PlayerId, u32> = players
        .iter()
        .zip(&numbers)
        .map(|(p, &n)| (p.id, n))
        .collect();
    let rank_of: HashMap<PlayerId, u32> = standings(players)
        .into_iter()
        .map(|s| (s.id, s.rank))
        .collect();
    let config = swiss.config();
    let mut out = String::new();
    let _ = writeln!(out, "012 {}", one_line(&header.name));
    let _ = writeln!(out, "062 {}", players.len());
    let _ = writeln!(out, "092 Individual: Swiss-System (FIDE Dutch)");
    let _ = writeln!(out, "XXR {}", config.rounds);
    let initial = match config.initial_colour {
        Colour::White => "white1",
        Colour::Black => "black1",
    };
    let _ = writeln!(out, "XXC {initial}");
    if config.bye_points != Points::ONE {
        let _ = writeln!(out, "BBU {}", decimal(config.bye_points));
    }
    // Player lines in starting-rank order.
    let mut by_number: Vec<usize> = (0..players.len()).collect();
    by_number.sort_by_key(|&i| numbers[i]);
    let pending = swiss.pending();
    for i in by_number {
        let p = &players[i];
        let name: String = one_line(&name_of(p.id)).chars().take(33).collect();
        let _ = write!(
            out,
            "001 {:>4} {:1}{:>3} {:<33} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            numbers[i],
            "",
            "",
            name,
            p.rating.min(9999),
            "",
            "",
            "",
            decimal(p.score()),
            rank_of[&p.id],
        );
        for r in &p.rounds {
            let (opponent, colour, result) = match *r {
                RoundRecord::Game {
                    opponent,
                    colour,
                    points,
                    forfeit,
                } => {
                    let result = match (forfeit, points.halves()) {
                        (false, 2) => '1',
                        (false, 1) => '=',
                        (false, _) => '0',
                        (true, 2) => '+',
                        (true, _) => '-',
                    };
                    (number_of[&opponent], colour_char(colour), result)
                }
                // Opponent 0 is written 0000: no opponent.
                RoundRecord::Bye { .. } => (0, '-', 'U'),
                RoundRecord::Absent => (0, '-', 'Z'),
            };
            let opponent = if opponent == 0 {
                "0000".to_string()
            } else {
                format!("{opponent:>4}")
            };
            let _ = write!(out, "  {opponent} {colour} {result}");
        }
        if let Some(round) = pending {
            let board = round
                .boards
                .iter()
                .find(|b| b.white == p.id || b.black == p.id);
            match board {
                Some(b) if b.white == p.id => {
                    let _ = write!(out, "  {:>4} w  ", number_of[&b.black]);
                }
                Some(b) => {
                    let _ = write!(out, "  {:>4} b  ", number_of[&b.white]);
                }
                None if round.bye == Some(p.id) => {
                    let _ = write!(out, "  0000 - U");
                }
                None => {
                    let _ = write!(out, "  0000 - Z");
                }
            }
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out
}

fn colour_char(c: Colour) -> char {
    match c {
        Colour::White => 'w',
        Colour::Black => 'b',
    }
}

/// Points as TRF writes them: `1.5`, `3.0`.
fn decimal(p: Points) -> String {
    format!(
        "{}.{}",
        p.halves() / 2,
        if p.halves() % 2 == 1 { 5 } else { 0 }
    )
}

/// A name on one line: line breaks would start a new TRF record.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}
