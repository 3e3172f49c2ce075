//! One round of the FIDE Dutch system (FIDE Handbook C.04.3, the rules of 2017, in force until
//! 30 June 2025), as a sequence of maximum-weight matchings, one per score bracket.
//!
//! The Dutch rules describe a search: split each bracket into S1 and S2, try transpositions and
//! exchanges in a fixed order, and take the first candidate that meets the absolute criteria
//! and is best by the quality criteria C.5–C.19. Enumerating candidates is exponential in the
//! worst case, so, like bbpPairings (the engine lila runs), this module states the criteria
//! as edge weights and lets a blossom matching find the best candidate directly:
//!
//! - Brackets are paired from the top score down. For each bracket the matching runs over
//!   *all* players not yet paired, the bracket's and the lower ones: its first criterion is to
//!   pair everybody (one bye when the count is odd), which is the completion criterion C.4; a
//!   bracket can therefore never float a player whom the rest of the round cannot absorb.
//! - Next, the bye goes to the lowest score possible, and then to a player with as few
//!   unplayed games as possible: the two bye rules of FIDE's 2025 revision of C.04.3 (as
//!   bbpPairings applies them), which keep a leader from being floated only so that a
//!   1-point player sits out, and a late entry from sitting out twice.
//! - The next criteria only weigh edges that touch the bracket: as many pairs inside the
//!   bracket as possible (C.5), the smallest score differences (C.6), floaters that the next
//!   bracket can pair (C.7), the topscorers' colour limits of the last round (C.8, C.9), colour
//!   preferences granted (C.10, C.11), repeated floats avoided (C.12–C.15), and last the order
//!   of the rules' own candidate list (S1 against S2, the lowest-ranked player floats).
//! - The pairs inside the bracket are fixed; its unpaired players move down to the next one.
//!
//! The absolute criteria are never weighed, they remove edges: no two players meet twice
//! (C.1), nobody gets a second bye (C.2), and two non-topscorers with the same absolute colour
//! preference do not meet (C.3). What is exact and what is approximated is listed in the
//! crate's README.
//!
//! Speed: a bracket costs one O(n³) matching over the players still unpaired. The weight
//! matrix is one buffer reused by every bracket, the met-before test is a bit matrix, and the
//! per-edge criteria are computed on stack arrays, so the inner loops do not allocate.

use std::collections::HashMap;

use thiserror::Error;

use crate::colour::{Preference, Side, Strength, allocate};
use crate::matching::{WeightLayout, WeightsTooWide, max_weight_matching};
use crate::{Colour, PlayerId, Points};

/// A float a player received in an earlier round (C.04.3 A.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Float {
    #[default]
    None,
    /// Met a lower-scored opponent, or had the pairing-allocated bye.
    Down,
    /// Met a higher-scored opponent.
    Up,
}

/// A player to pair, with everything the Dutch rules look at.
#[derive(Clone, Debug)]
pub struct DutchPlayer {
    pub id: PlayerId,
    /// Rank in the initial ranking list, 1 for the highest (C.04.3 A.2 b).
    pub pairing_number: u32,
    pub score: Points,
    /// Colours of the games played, in order (byes, forfeits and absences give none).
    pub colours: Vec<Colour>,
    /// Everyone this player was paired against (C.1).
    pub opponents: Vec<PlayerId>,
    /// Already had a pairing-allocated bye or a forfeit win (C.2).
    pub had_bye: bool,
    /// The float of the last round, then of the round before it (C.12–C.15).
    pub floats: [Float; 2],
}

/// The round to pair.
#[derive(Clone, Copy, Debug)]
pub struct RoundInput<'a> {
    /// The players to pair: present, not withdrawn.
    pub players: &'a [DutchPlayer],
    /// The round being paired, from 1.
    pub round: u32,
    /// The event's number of rounds: the last one has topscorers (A.7).
    pub total_rounds: u32,
    /// The colour the first player gets in round 1 (the "initial colour", drawn by lot).
    pub initial_colour: Colour,
}

/// A game of the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A round's pairing: boards in the order of C.04.2 (top score first), and the bye.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DutchPairing {
    pub boards: Vec<Board>,
    pub bye: Option<PlayerId>,
}

/// Why a round could not be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PairingError {
    /// The absolute criteria leave no way to pair everybody: every pairing repeats a game,
    /// gives a second bye or pairs two players who both must have the same colour.
    #[error(
        "no valid pairing exists: every pairing repeats a game, gives a second bye or breaks an absolute colour preference"
    )]
    NoValidPairing,
    #[error("player {0} appears twice in the round to pair")]
    DuplicatePlayer(PlayerId),
    #[error(transparent)]
    TooWide(#[from] WeightsTooWide),
}

/// The criteria of a bracket's matching, most important first (see the module docs).
const PAIR: usize = 0;
const BYE_SCORE: usize = 1;
const IN_BRACKET: usize = 2;
const PSD: usize = 3;
const NEXT_BRACKET: usize = 4;
const BYE_PLAYED: usize = 5;
const TOP_DIFFERENCE: usize = 6;
const TOP_THREE_IN_A_ROW: usize = 7;
const COLOUR: usize = 8;
const STRONG_COLOUR: usize = 9;
const DOWN_AGAIN: usize = 10;
const UP_AGAIN: usize = 11;
const DOWN_TWO_BEFORE: usize = 12;
const UP_TWO_BEFORE: usize = 13;
const ORDER: usize = 14;
const CRITERIA: usize = 15;

/// Pairs one round by the Dutch system.
pub fn pair(input: &RoundInput<'_>) -> Result<DutchPairing, PairingError> {
    Round::new(input)?.pair()
}

/// What the brackets share: players in rank order and their derived facts.
struct Round<'a> {
    input: &'a RoundInput<'a>,
    players: &'a [DutchPlayer],
    /// Player indices by score, then pairing number (C.04.3 A.2).
    order: Vec<usize>,
    /// Position of each player in `order`.
    rank: Vec<usize>,
    prefs: Vec<Preference>,
    topscorer: Vec<bool>,
    /// Bit matrix: `met[i * words + j / 64]` bit `j % 64` when i and j were paired before.
    met: Vec<u64>,
    words: usize,
}

/// A vertex of a bracket's matching.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Vertex {
    Player(usize),
    Bye,
}

impl<'a> Round<'a> {
    fn new(input: &'a RoundInput<'a>) -> Result<Self, PairingError> {
        let players = input.players;
        let n = players.len();
        let mut index = HashMap::with_capacity(n);
        for (i, p) in players.iter().enumerate() {
            if index.insert(p.id, i).is_some() {
                return Err(PairingError::DuplicatePlayer(p.id));
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            let (pa, pb) = (&players[a], &players[b]);
            pb.score
                .cmp(&pa.score)
                .then(pa.pairing_number.cmp(&pb.pairing_number))
                .then(pa.id.cmp(&pb.id))
        });
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let words = n.div_ceil(64).max(1);
        let mut met = vec![0u64; n * words];
        for (i, p) in players.iter().enumerate() {
            for opponent in &p.opponents {
                if let Some(&j) = index.get(opponent) {
                    met[i * words + j / 64] |= 1 << (j % 64);
                    met[j * words + i / 64] |= 1 << (i % 64);
                }
            }
        }
        let prefs = players.iter().map(|p| Preference::of(&p.colours)).collect();
        // A.7: in the last round, a topscorer has more than half the points played for.
        let last = input.round >= input.total_rounds && input.round > 1;
        let half_of_max = input.round.saturating_sub(1);
        let topscorer = players
            .iter()
            .map(|p| last && p.score.halves() > half_of_max)
            .collect();
        Ok(Round {
            input,
            players,
            order,
            rank,
            prefs,
            topscorer,
            met,
            words,
        })
    }

    fn met(&self, i: usize, j: usize) -> bool {
        self.met[i * self.words + j / 64] & (1 << (j % 64)) != 0
    }

    /// The absolute criteria C.1–C.3: may these two vertices be paired at all?
    fn allowed(&self, a: Vertex, b: Vertex) -> bool {
        match (a, b) {
            (Vertex::Player(i), Vertex::Player(j)) => {
                if self.met(i, j) {
                    return false;
                }
                let (pi, pj) = (&self.prefs[i], &self.prefs[j]);
                let same_absolute = pi.strength == Strength::Absolute
                    && pj.strength == Strength::Absolute
                    && pi.colour == pj.colour;
                !same_absolute || self.topscorer[i] || self.topscorer[j]
            }
            (Vertex::Player(i), Vertex::Bye) | (Vertex::Bye, Vertex::Player(i)) => {
                !self.players[i].had_bye
            }
            (Vertex::Bye, Vertex::Bye) => false,
        }
    }

    fn side(&self, i: usize) -> Side<'_> {
        Side {
            preference: self.prefs[i],
            colours: &self.players[i].colours,
            pairing_number: self.players[i].pairing_number,
        }
    }

    /// The colour `higher` gets against `lower` (E.1–E.5).
    fn colour_of_higher(&self, higher: usize, lower: usize) -> Colour {
        allocate(
            &self.side(higher),
            &self.side(lower),
            self.input.initial_colour,
        )
    }

    fn pair(&self) -> Result<DutchPairing, PairingError> {
        let n = self.players.len();
        let with_bye = n % 2 == 1;
        let spread = match (self.order.first(), self.order.last()) {
            (Some(&top), Some(&bottom)) => {
                self.players[top].score.halves() - self.players[bottom].score.halves()
            }
            _ => 0,
        };
        let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n / 2);
        let mut bye = None;
        let mut carried: Vec<usize> = Vec::new();
        let mut bracket: Vec<usize> = Vec::with_capacity(n);
        let mut vertices: Vec<Vertex> = Vec::with_capacity(n + 1);
        let mut ideal: Vec<usize> = Vec::with_capacity(n);
        let mut weights: Vec<i128> = Vec::with_capacity((n + 1) * (n + 1));
        let mut start = 0;
        while start < n {
            let group_score = self.players[self.order[start]].score;
            let group_end = self.group_end(start);
            let next_end = if group_end < n {
                self.group_end(group_end)
            } else {
                n
            };
            bracket.clear();
            bracket.extend_from_slice(&carried);
            bracket.extend_from_slice(&self.order[start..group_end]);
            vertices.clear();
            vertices.extend(bracket.iter().map(|&i| Vertex::Player(i)));
            vertices.extend(self.order[group_end..].iter().map(|&i| Vertex::Player(i)));
            if with_bye {
                vertices.push(Vertex::Bye);
            }
            let b = bracket.len();
            let m = vertices.len();
            ideal_partners(carried.len(), b, &mut ideal);

            let in_last_round = self.input.round >= self.input.total_rounds;
            let has = |f: &dyn Fn(&DutchPlayer) -> bool| {
                u64::from(bracket.iter().any(|&i| f(&self.players[i])))
            };
            let top_max = if in_last_round && bracket.iter().any(|&i| self.topscorer[i]) {
                2
            } else {
                0
            };
            let psd_max = u64::from(spread + 2).pow(2);
            let top_score = self.players[self.order[0]].score.halves();
            // Below PAIR, only edges that touch the bracket weigh anything (the others are 0):
            // once IN_BRACKET is settled their number is fixed (the pairs inside plus one edge
            // per floater), so those fields need room for `b` edges, not for the whole round.
            let mut edges = [b; CRITERIA];
            edges[PAIR] = m / 2;
            // A matching has at most one bye edge.
            edges[BYE_SCORE] = 1;
            edges[BYE_PLAYED] = 1;
            let layout = WeightLayout::<CRITERIA>::with_edges(
                edges,
                [
                    1,
                    u64::from(top_score) + 1,
                    1,
                    psd_max,
                    1,
                    u64::from(self.input.round),
                    top_max,
                    top_max,
                    1,
                    1,
                    has(&|p| p.floats[0] == Float::Down),
                    has(&|p| p.floats[0] == Float::Up),
                    has(&|p| p.floats[1] == Float::Down),
                    has(&|p| p.floats[1] == Float::Up),
                    b as u64,
                ],
            )?;
            // The floaters' score difference is taken against one point below the bracket (A.8).
            let floor = group_score.halves() as i64 - 2;

            weights.clear();
            weights.resize(m * m, 0);
            for u in 0..m {
                for v in (u + 1)..m {
                    let (a, c) = (vertices[u], vertices[v]);
                    if !self.allowed(a, c) {
                        continue;
                    }
                    let w = if v < b {
                        let (Vertex::Player(i), Vertex::Player(j)) = (a, c) else {
                            unreachable!("the bracket holds players only")
                        };
                        self.inside_weight(&layout, i, j, ideal[u].abs_diff(v))
                    } else if u < b {
                        let Vertex::Player(i) = a else {
                            unreachable!("the bracket holds players only")
                        };
                        let to_next = match c {
                            Vertex::Player(j) => self.rank[j] < next_end,
                            Vertex::Bye => false,
                        };
                        let sd = (self.players[i].score.halves() as i64 - floor).max(0) as u64;
                        let mut values =
                            self.floater_values(&layout, i, sd * sd, to_next, (b - 1 - u) as u64);
                        if c == Vertex::Bye {
                            self.bye_values(&mut values, i, top_score);
                        }
                        layout.weight(values)
                    } else {
                        let mut values = [0u64; CRITERIA];
                        values[PAIR] = 1;
                        if let (Vertex::Player(i), Vertex::Bye) = (a, c) {
                            self.bye_values(&mut values, i, top_score);
                        }
                        layout.weight(values)
                    };
                    weights[u * m + v] = w;
                    weights[v * m + u] = w;
                }
            }
            let mate = max_weight_matching(&weights, m);
            if mate.iter().any(Option::is_none) {
                return Err(PairingError::NoValidPairing);
            }
            carried.clear();
            for u in 0..b {
                let v = mate[u].expect("checked above");
                let Vertex::Player(i) = vertices[u] else {
                    unreachable!("the bracket holds players only")
                };
                if v < b {
                    if u < v {
                        let Vertex::Player(j) = vertices[v] else {
                            unreachable!("the bracket holds players only")
                        };
                        pairs.push((i, j));
                    }
                } else if group_end == n {
                    // The last bracket: its only partner outside is the bye.
                    debug_assert!(vertices[v] == Vertex::Bye);
                    bye = Some(i);
                } else {
                    carried.push(i);
                }
            }
            start = group_end;
        }
        Ok(self.boards(pairs, bye))
    }

    /// The end (exclusive, in `order`) of the score group starting at `start`.
    fn group_end(&self, start: usize) -> usize {
        let score = self.players[self.order[start]].score;
        let mut end = start;
        while end < self.order.len() && self.players[self.order[end]].score == score {
            end += 1;
        }
        end
    }

    /// The weight of a pair inside the bracket; `i` is the higher-ranked player and
    /// `order_cost` how far `j` is from `i`'s partner in the rules' first candidate.
    fn inside_weight(
        &self,
        layout: &WeightLayout<CRITERIA>,
        i: usize,
        j: usize,
        order_cost: usize,
    ) -> i128 {
        let (pi, pj) = (&self.players[i], &self.players[j]);
        let sd = u64::from(pi.score.halves() - pj.score.halves());
        let (prefi, prefj) = (&self.prefs[i], &self.prefs[j]);
        let clash = prefi.clashes_with(prefj);
        let strong_unmet =
            clash && prefi.strength >= Strength::Strong && prefj.strength >= Strength::Strong;
        let mut values = layout_max(layout);
        values[IN_BRACKET] = 1;
        values[PSD] -= (sd * sd).min(values[PSD]);
        values[NEXT_BRACKET] = 0;
        if self.topscorer[i] || self.topscorer[j] {
            let ci = self.colour_of_higher(i, j);
            let (wide, three) = colour_excess(pi, ci);
            let (wide_j, three_j) = colour_excess(pj, ci.opposite());
            values[TOP_DIFFERENCE] -= (wide + wide_j).min(values[TOP_DIFFERENCE]);
            values[TOP_THREE_IN_A_ROW] -= (three + three_j).min(values[TOP_THREE_IN_A_ROW]);
        }
        values[COLOUR] -= u64::from(clash).min(values[COLOUR]);
        values[STRONG_COLOUR] -= u64::from(strong_unmet).min(values[STRONG_COLOUR]);
        if sd > 0 {
            values[DOWN_AGAIN] -= u64::from(pi.floats[0] == Float::Down).min(values[DOWN_AGAIN]);
            values[DOWN_TWO_BEFORE] -=
                u64::from(pi.floats[1] == Float::Down).min(values[DOWN_TWO_BEFORE]);
            values[UP_AGAIN] -= u64::from(pj.floats[0] == Float::Up).min(values[UP_AGAIN]);
            values[UP_TWO_BEFORE] -=
                u64::from(pj.floats[1] == Float::Up).min(values[UP_TWO_BEFORE]);
        }
        values[ORDER] -= (order_cost as u64).min(values[ORDER]);
        layout.weight(values)
    }

    /// The criteria of giving player `i` the bye (FIDE's 2025 revision, as bbpPairings applies
    /// it): the lowest score possible, then the fewest games already unplayed (a late entry
    /// or a returning player is not left out again when someone else can be).
    fn bye_values(&self, values: &mut [u64; CRITERIA], i: usize, top_score: u32) {
        let p = &self.players[i];
        values[BYE_SCORE] = u64::from(top_score - p.score.halves()) + 1;
        let unplayed = (self.input.round - 1).saturating_sub(p.colours.len() as u32);
        values[BYE_PLAYED] = u64::from(self.input.round.saturating_sub(unplayed));
    }

    /// The criteria of sending bracket player `i` down to a lower player or the bye.
    fn floater_values(
        &self,
        layout: &WeightLayout<CRITERIA>,
        i: usize,
        psd_cost: u64,
        to_next: bool,
        order_cost: u64,
    ) -> [u64; CRITERIA] {
        let p = &self.players[i];
        let mut values = layout_max(layout);
        values[IN_BRACKET] = 0;
        values[PSD] -= psd_cost.min(values[PSD]);
        values[NEXT_BRACKET] = u64::from(to_next);
        values[DOWN_AGAIN] -= u64::from(p.floats[0] == Float::Down).min(values[DOWN_AGAIN]);
        values[DOWN_TWO_BEFORE] -=
            u64::from(p.floats[1] == Float::Down).min(values[DOWN_TWO_BEFORE]);
        values[ORDER] -= order_cost.min(values[ORDER]);
        values
    }

    /// Boards of the round: colours by E.1–E.5, ordered by the higher score on the board,
    /// then the sum of scores, then the higher-ranked player (C.04.2).
    fn boards(&self, pairs: Vec<(usize, usize)>, bye: Option<usize>) -> DutchPairing {
        let mut keyed: Vec<_> = pairs
            .into_iter()
            .map(|(a, b)| {
                let (hi, lo) = if self.rank[a] < self.rank[b] {
                    (a, b)
                } else {
                    (b, a)
                };
                let (sh, sl) = (self.players[hi].score, self.players[lo].score);
                ((sh.max(sl), sh + sl, self.rank[hi]), hi, lo)
            })
            .collect();
        keyed.sort_by(|x, y| {
            y.0.0
                .cmp(&x.0.0)
                .then(y.0.1.cmp(&x.0.1))
                .then(x.0.2.cmp(&y.0.2))
        });
        let boards = keyed
            .into_iter()
            .map(|(_, hi, lo)| {
                let (h, l) = (self.players[hi].id, self.players[lo].id);
                match self.colour_of_higher(hi, lo) {
                    Colour::White => Board { white: h, black: l },
                    Colour::Black => Board { white: l, black: h },
                }
            })
            .collect();
        DutchPairing {
            boards,
            bye: bye.map(|i| self.players[i].id),
        }
    }
}

/// Every criterion at its best, for edges of the bracket; the bye criteria are 0 except on
/// the bye's edge.
fn layout_max(layout: &WeightLayout<CRITERIA>) -> [u64; CRITERIA] {
    let mut values = [0u64; CRITERIA];
    for (k, v) in values.iter_mut().enumerate() {
        *v = layout.max(k);
    }
    values[PAIR] = 1;
    values[BYE_SCORE] = 0;
    values[BYE_PLAYED] = 0;
    values
}

/// For a topscorer pair (C.8, C.9): whether `p`, given `colour`, ends with a colour difference
/// beyond ±2, and whether with the same colour three times in a row.
fn colour_excess(p: &DutchPlayer, colour: Colour) -> (u64, u64) {
    let step = if colour == Colour::White { 1 } else { -1 };
    let difference = crate::colour::colour_difference(&p.colours) + step;
    let three = matches!(p.colours.as_slice(), [.., a, b] if *a == colour && *b == colour);
    (u64::from(difference.abs() > 2), u64::from(three))
}

/// Each bracket position's partner in the rules' first candidate: in a heterogeneous bracket
/// the moved-down players (the first `moved` positions) meet the top residents in order, and
/// the remaining residents, like a homogeneous bracket, pair their first half with their second
/// (S1[k] against S2[k]); a player left over is its own "partner" (it floats).
fn ideal_partners(moved: usize, len: usize, ideal: &mut Vec<usize>) {
    ideal.clear();
    ideal.extend(0..len);
    let residents = len - moved;
    // S1 holds as many moved-down players as there are residents to meet them (B.2); the
    // others wait in "limbo" and float on (their own "partner").
    let paired = moved.min(residents);
    for k in 0..paired {
        ideal[k] = moved + k;
        ideal[moved + k] = k;
    }
    let start = moved + paired;
    let half = (len - start) / 2;
    for k in 0..half {
        ideal[start + k] = start + k + half;
        ideal[start + k + half] = start + k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ideal_partners_split_s1_and_s2() {
        let mut ideal = Vec::new();
        ideal_partners(0, 5, &mut ideal);
        assert_eq!(ideal, [2, 3, 0, 1, 4]);
        ideal_partners(1, 5, &mut ideal);
        assert_eq!(ideal, [1, 0, 3, 2, 4]);
        // Three moved down onto two residents: the third waits in limbo.
        ideal_partners(3, 5, &mut ideal);
        assert_eq!(ideal, [3, 4, 2, 0, 1]);
    }
}
