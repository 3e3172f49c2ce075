//! Maximum-weight matching with lexicographic weights: the engine under the Swiss and arena
//! pairings.
//!
//! A pairing rule such as FIDE's Dutch system is a list of criteria in priority order ("first
//! pair as many players as possible, then minimise the score differences, then give as many
//! players as possible their colour, …"). Each criterion is a sum over the chosen pairs, so the
//! best pairing is a matching that maximises a *lexicographic* sum. [`WeightLayout`] packs
//! the criteria into one integer per edge, each criterion in a bit field wide enough that the
//! sum over any matching cannot carry into the field above it; then the single maximum-weight
//! matching is the lexicographic optimum. This is how bbpPairings (the pairing engine lila
//! runs) turns the Dutch rules into a matching problem.
//!
//! The matching itself is Edmonds' blossom algorithm (primal-dual, O(n³)) from the
//! `integer-blossom` crate: it works on general graphs (any player may meet any other, so an
//! assignment solver for bipartite graphs does not fit), takes `i128` weights (room for about
//! ten criteria over hundreds of players), and keeps its O(n²) buffers in a per-thread pool,
//! so pairing round after round allocates once. `petgraph` has maximum *cardinality*
//! matching only, and `mwmatching` (2018) takes `i32` weights, too narrow for the criteria.

use thiserror::Error;

/// The most bits a packed weight may use. `integer-blossom` bounds its duals by `i128::MAX /
/// 4` and doubles slacks, so a few bits stay free as headroom.
pub const MAX_WEIGHT_BITS: u32 = 120;

/// The criteria do not fit in one `i128`: too many players, or criteria with too large a
/// range, for one matching. The caller says so instead of pairing with carries between
/// criteria, which would silently break their order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "the pairing criteria need {bits} bits per weight, more than the {MAX_WEIGHT_BITS} available"
)]
pub struct WeightsTooWide {
    /// How many bits the layout would have needed.
    pub bits: u32,
}

/// Where each of `N` criteria sits in a packed weight, the first criterion the most important.
///
/// Every criterion is a *benefit* between 0 and its maximum per edge (a cost `c` is entered as
/// `max - c`); its field is wide enough for the sum over `max_edges` edges, the most any
/// matching of the graph can have.
#[derive(Clone, Copy, Debug)]
pub struct WeightLayout<const N: usize> {
    shift: [u32; N],
    max: [u64; N],
}

impl<const N: usize> WeightLayout<N> {
    /// Lays out criteria whose per-edge maxima are `max` (most important first) for matchings
    /// of at most `max_edges` edges.
    pub fn new(max_edges: usize, max: [u64; N]) -> Result<Self, WeightsTooWide> {
        Self::with_edges([max_edges; N], max)
    }

    /// Like [`WeightLayout::new`], when criterion `k` is non-zero on at most `edges[k]` edges
    /// of any matching the caller compares (a narrower field for a criterion that only
    /// concerns part of the graph).
    pub fn with_edges(edges: [usize; N], max: [u64; N]) -> Result<Self, WeightsTooWide> {
        let mut shift = [0u32; N];
        let mut used = 0u32;
        for k in (0..N).rev() {
            shift[k] = used;
            let largest_sum = u128::from(max[k]) * edges[k].max(1) as u128;
            used += u128::BITS - largest_sum.leading_zeros();
            if used > MAX_WEIGHT_BITS {
                return Err(WeightsTooWide { bits: used });
            }
        }
        Ok(WeightLayout { shift, max })
    }

    /// The packed weight of one edge; each value at most its criterion's maximum.
    #[inline]
    pub fn weight(&self, values: [u64; N]) -> i128 {
        let mut w = 0i128;
        for (k, value) in values.into_iter().enumerate() {
            debug_assert!(value <= self.max[k], "criterion {k} above its maximum");
            w |= i128::from(value.min(self.max[k])) << self.shift[k];
        }
        w
    }

    /// The maximum of criterion `k`, to turn a cost into a benefit.
    #[inline]
    pub fn max(&self, k: usize) -> u64 {
        self.max[k]
    }
}

/// Maximum-weight matching of the graph whose weights are the row-major `n × n` matrix
/// `weights` (the upper triangle is read; zero or negative means "no edge"). Returns each
/// vertex's mate.
pub fn max_weight_matching(weights: &[i128], n: usize) -> Vec<Option<usize>> {
    debug_assert_eq!(weights.len(), n * n);
    integer_blossom::max_weight_matching(weights, n)
}

/// Minimum-cost perfect matching of a complete graph of even order `n` (costs non-negative,
/// row-major, upper triangle read). Returns each vertex's mate.
pub fn min_cost_perfect_matching(costs: &[i64], n: usize) -> Vec<usize> {
    debug_assert!(n.is_multiple_of(2));
    integer_blossom::min_weight_perfect_matching(costs, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_higher_criterion_outweighs_any_sum_of_lower_ones() {
        let layout = WeightLayout::new(4, [1, 100]).unwrap();
        // Four edges at the lower criterion's maximum stay below one unit of the higher.
        assert!(layout.weight([1, 0]) > 4 * layout.weight([0, 100]));
    }

    #[test]
    fn too_many_bits_is_an_error() {
        let err = WeightLayout::new(1 << 20, [u64::MAX >> 1; 3]).unwrap_err();
        assert!(err.bits > MAX_WEIGHT_BITS);
    }
}
