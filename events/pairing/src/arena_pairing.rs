//! Pairing an arena's waiting players, the way lila does (`arena/PairingSystem.scala`,
//! `arena/AntmaPairing.scala`): by standing, never against the same opponent twice in a row
//! when another pairing exists.
//!
//! Players are sorted by their rank in the standings and cut into groups of at most
//! [`GROUP_SIZE`] neighbours; each group is paired by a minimum-cost perfect matching whose cost
//! is the rank gap (weighted by [`RANK_FACTOR`]) plus the rating gap, plus a penalty larger
//! than every other cost together for meeting one's last opponent again. The groups keep each
//! matching small (O(g³) with g ≤ 44, so a wave of a thousand players is ~23 small matchings
//! instead of one of O(10⁹)), and neighbours in the standings meet, which is what an arena wants.
//!
//! In the very first wave nobody has a standing yet that means anything: players are paired
//! with their neighbour by rank (1–2, 3–4, …), as lila does right after the start.
//!
//! With an odd count, one player waits for the next wave: the lowest-ranked, unless that forces
//! a rematch somewhere else.

use crate::PlayerId;
use crate::matching::min_cost_perfect_matching;

/// The most players in one matching (lila pairs in groups of about this size).
pub const GROUP_SIZE: usize = 44;
/// The cost of one place of rank gap, against one point of rating gap.
pub const RANK_FACTOR: i64 = 1000;
/// Meeting the last opponent again: more than all other costs of a group together.
const REMATCH: i64 = 1 << 40;

/// A player waiting for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub id: PlayerId,
    /// Place in the standings, 1 for the leader.
    pub rank: u32,
    pub rating: u32,
    /// The opponent of this player's last game in the arena.
    pub last_opponent: Option<PlayerId>,
}

/// A wave of pairings; colours are the director's business (lila alternates them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Wave {
    pub pairs: Vec<(PlayerId, PlayerId)>,
    /// The player left for the next wave, when the count is odd.
    pub waits: Option<PlayerId>,
}

/// Pairs the waiting players.
pub fn pair_waiting(waiting: &[Waiting]) -> Wave {
    let mut sorted: Vec<Waiting> = waiting.to_vec();
    sorted.sort_by_key(|w| (w.rank, w.id));
    let mut wave = Wave::default();
    if sorted.iter().all(|w| w.last_opponent.is_none()) {
        for pair in sorted.chunks(2) {
            match pair {
                [a, b] => wave.pairs.push((a.id, b.id)),
                [a] => wave.waits = Some(a.id),
                _ => unreachable!("chunks of two"),
            }
        }
        return wave;
    }
    let groups = sorted.len().div_ceil(GROUP_SIZE).max(1);
    // Even group sizes, as equal as possible; the last group takes an odd player out.
    let even_size = (sorted.len() / groups) & !1;
    let mut costs: Vec<i64> = Vec::with_capacity((GROUP_SIZE + 2) * (GROUP_SIZE + 2));
    let mut start = 0;
    for g in 0..groups {
        let end = if g + 1 == groups {
            sorted.len()
        } else {
            start + even_size
        };
        pair_group(&sorted[start..end], &mut costs, &mut wave);
        start = end;
    }
    wave
}

/// Pairs one group by minimum cost; an odd group gets a "waits" vertex.
fn pair_group(group: &[Waiting], costs: &mut Vec<i64>, wave: &mut Wave) {
    let odd = group.len() % 2 == 1;
    let n = group.len() + usize::from(odd);
    if n < 2 {
        if let Some(w) = group.first() {
            wave.waits = Some(w.id);
        }
        return;
    }
    costs.clear();
    costs.resize(n * n, 0);
    for i in 0..n {
        for j in (i + 1)..n {
            let c = if j == group.len() {
                // Waiting a wave: cheapest for the lowest-ranked.
                (group.len() - 1 - i) as i64 * RANK_FACTOR
            } else {
                let (a, b) = (&group[i], &group[j]);
                let rematch = a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id);
                i64::from(a.rank.abs_diff(b.rank)) * RANK_FACTOR
                    + i64::from(a.rating.abs_diff(b.rating))
                    + if rematch { REMATCH } else { 0 }
            };
            costs[i * n + j] = c;
            costs[j * n + i] = c;
        }
    }
    let mate = min_cost_perfect_matching(costs, n);
    for (i, &j) in mate.iter().enumerate() {
        if j == group.len() {
            wave.waits = Some(group[i].id);
        } else if i < j && i < group.len() {
            wave.pairs.push((group[i].id, group[j].id));
        }
    }
}
