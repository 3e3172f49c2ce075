//! The matching under the pairings against brute force on small graphs (up to 10 vertices):
//! plain maximum weight, and lexicographic weights packed by `WeightLayout`, whose optimum
//! must be the lexicographically best sum of criteria over all matchings.

use boardcast_pairing::matching::{WeightLayout, max_weight_matching, min_cost_perfect_matching};
use proptest::prelude::*;

/// Every matching of `n` vertices over the edges `allowed`, as mate lists.
fn all_matchings(n: usize, allowed: &dyn Fn(usize, usize) -> bool) -> Vec<Vec<Option<usize>>> {
    fn go(
        v: usize,
        mate: &mut Vec<Option<usize>>,
        allowed: &dyn Fn(usize, usize) -> bool,
        out: &mut Vec<Vec<Option<usize>>>,
    ) {
        if v == mate.len() {
            out.push(mate.clone());
            return;
        }
        if mate[v].is_some() {
            return go(v + 1, mate, allowed, out);
        }
        go(v + 1, mate, allowed, out);
        for u in (v + 1)..mate.len() {
            if mate[u].is_none() && allowed(v, u) {
                mate[v] = Some(u);
                mate[u] = Some(v);
                go(v + 1, mate, allowed, out);
                mate[v] = None;
                mate[u] = None;
            }
        }
    }
    let mut out = Vec::new();
    go(0, &mut vec![None; n], allowed, &mut out);
    out
}

fn edges_of(mate: &[Option<usize>]) -> impl Iterator<Item = (usize, usize)> + '_ {
    mate.iter()
        .enumerate()
        .filter_map(|(v, m)| m.filter(|&u| v < u).map(|u| (v, u)))
}

fn is_matching(mate: &[Option<usize>], w: &[i128], n: usize) -> bool {
    mate.iter().enumerate().all(|(v, m)| match m {
        None => true,
        Some(u) => mate[*u] == Some(v) && w[v * n + u] > 0,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn maximum_weight_equals_brute_force(
        n in 1usize..=10,
        raw in proptest::collection::vec(0i128..=60, 100),
    ) {
        // About a third of the pairs have no edge (weight 0).
        let mut w = vec![0i128; n * n];
        for v in 0..n {
            for u in (v + 1)..n {
                let x = raw[v * 10 + u];
                let weight = if x % 3 == 0 { 0 } else { x };
                w[v * n + u] = weight;
                w[u * n + v] = weight;
            }
        }
        let mate = max_weight_matching(&w, n);
        prop_assert!(is_matching(&mate, &w, n));
        let got: i128 = edges_of(&mate).map(|(v, u)| w[v * n + u]).sum();
        let best = all_matchings(n, &|v, u| w[v * n + u] > 0)
            .iter()
            .map(|m| edges_of(m).map(|(v, u)| w[v * n + u]).sum::<i128>())
            .max()
            .unwrap();
        prop_assert_eq!(got, best);
    }

    #[test]
    fn packed_criteria_give_the_lexicographic_optimum(
        n in 2usize..=10,
        raw in proptest::collection::vec((0u64..=1, 0u64..=9, 0u64..=3, any::<bool>()), 100),
    ) {
        let layout = WeightLayout::new(n / 2, [1, 1, 9, 3]).unwrap();
        let mut crit = vec![[0u64; 4]; n * n];
        let mut w = vec![0i128; n * n];
        for v in 0..n {
            for u in (v + 1)..n {
                let (a, b, c, present) = raw[v * 10 + u];
                if !present {
                    continue;
                }
                let values = [1, a, b, c];
                crit[v * n + u] = values;
                w[v * n + u] = layout.weight(values);
                w[u * n + v] = w[v * n + u];
            }
        }
        let sums = |m: &[Option<usize>]| {
            let mut s = [0u64; 4];
            for (v, u) in edges_of(m) {
                for k in 0..4 {
                    s[k] += crit[v * n + u][k];
                }
            }
            s
        };
        let mate = max_weight_matching(&w, n);
        prop_assert!(is_matching(&mate, &w, n));
        let best = all_matchings(n, &|v, u| w[v * n + u] > 0)
            .iter()
            .map(|m| sums(m))
            .max()
            .unwrap();
        prop_assert_eq!(sums(&mate), best);
    }

    #[test]
    fn minimum_cost_perfect_matching_equals_brute_force(
        half in 1usize..=5,
        raw in proptest::collection::vec(0i64..=1000, 100),
    ) {
        let n = half * 2;
        let mut c = vec![0i64; n * n];
        for v in 0..n {
            for u in (v + 1)..n {
                c[v * n + u] = raw[v * 10 + u];
                c[u * n + v] = raw[v * 10 + u];
            }
        }
        let mate = min_cost_perfect_matching(&c, n);
        let got: i64 = (0..n).filter(|&v| v < mate[v]).map(|v| c[v * n + mate[v]]).sum();
        prop_assert!((0..n).all(|v| mate[mate[v]] == v && mate[v] != v));
        let best = all_matchings(n, &|_, _| true)
            .iter()
            .filter(|m| m.iter().all(Option::is_some))
            .map(|m| edges_of(m).map(|(v, u)| c[v * n + u]).sum::<i64>())
            .min()
            .unwrap();
        prop_assert_eq!(got, best);
    }
}
