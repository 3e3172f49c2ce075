//! Arena scoring: a table of game sequences with their exact points, by lila's rules
//! (`ArenaSheet.scala`: win 2, draw 1, double on fire after two wins, a draw under 20 plies
//! scores 0, a berserk win of at least 14 plies scores 1 more). And arena pairing: by standing,
//! no immediate rematch when avoidable, everyone at most once per wave.

use std::collections::{HashMap, HashSet};

use boardcast_pairing::PlayerId;
use boardcast_pairing::arena_pairing::{Waiting, pair_waiting};
use boardcast_pairing::arena_score::{ArenaGame, ArenaResult, Sheet};
use proptest::prelude::*;

/// A game written as in the table: `W`, `D`, `L`, then optional `b` (berserk) and the plies.
fn game(text: &str) -> ArenaGame {
    let result = match &text[..1] {
        "W" => ArenaResult::Win,
        "D" => ArenaResult::Draw,
        "L" => ArenaResult::Loss,
        other => panic!("unknown result {other}"),
    };
    let berserk = text[1..].starts_with('b');
    let plies = text[1 + usize::from(berserk)..].parse().unwrap_or(40);
    ArenaGame {
        result,
        plies,
        berserk,
    }
}

#[test]
fn the_scoring_table() {
    // (games in finishing order, points of each game, total)
    let table: &[(&str, &[u32], u32)] = &[
        ("W", &[2], 2),
        ("D", &[1], 1),
        ("L", &[0], 0),
        // Two wins light the fire: the third win scores double, and so does a fourth.
        ("W W W W", &[2, 2, 4, 4], 12),
        // A draw on fire scores double and puts the fire out.
        ("W W D W", &[2, 2, 2, 2], 8),
        // A loss puts it out too; two new wins are needed.
        ("W W L W W W", &[2, 2, 0, 2, 2, 4], 12),
        // Short draws (under 20 plies) score nothing, on fire or not, and end the streak.
        ("D19", &[0], 0),
        ("D20", &[1], 1),
        ("W W D10 W", &[2, 2, 0, 2], 6),
        // Berserk: +1 on a win of at least 14 plies, never doubled; nothing on a draw or loss.
        ("Wb14", &[3], 3),
        ("Wb13", &[2], 2),
        ("Db40 Lb40", &[1, 0], 1),
        ("W W Wb30", &[2, 2, 5], 9),
        // A quick berserk win still counts as a win for the streak.
        ("Wb10 W W", &[2, 2, 4], 8),
        // Draws do not start a streak.
        ("D D W W D", &[1, 1, 2, 2, 2], 8),
    ];
    for (games, points, total) in table {
        let mut sheet = Sheet::new();
        let got: Vec<u32> = games.split(' ').map(|g| sheet.add(game(g))).collect();
        assert_eq!(&got, points, "{games}");
        assert_eq!(sheet.total(), *total, "{games}");
        assert_eq!(Sheet::from_games(games.split(' ').map(game)), sheet);
    }
}

#[test]
fn the_first_wave_pairs_neighbours_in_the_standings() {
    let waiting: Vec<Waiting> = (1..=7)
        .map(|r| Waiting {
            id: PlayerId(100 - r),
            rank: r,
            rating: 1500,
            last_opponent: None,
        })
        .collect();
    let wave = pair_waiting(&waiting);
    assert_eq!(
        wave.pairs,
        [
            (PlayerId(99), PlayerId(98)),
            (PlayerId(97), PlayerId(96)),
            (PlayerId(95), PlayerId(94))
        ]
    );
    assert_eq!(wave.waits, Some(PlayerId(93)));
}

#[test]
fn the_last_opponent_is_avoided_for_the_next_neighbour() {
    // 1 and 2 just played; 3 and 4 too. The next wave pairs them across: 1-3 and 2-4, or
    // 1-4 and 2-3 (the same total rank gap).
    let w = |id: u32, rank: u32, last: u32| Waiting {
        id: PlayerId(id),
        rank,
        rating: 1500,
        last_opponent: Some(PlayerId(last)),
    };
    let wave = pair_waiting(&[w(1, 1, 2), w(2, 2, 1), w(3, 3, 4), w(4, 4, 3)]);
    let pairs: HashSet<(PlayerId, PlayerId)> = wave.pairs.into_iter().collect();
    let across = [
        HashSet::from([(PlayerId(1), PlayerId(3)), (PlayerId(2), PlayerId(4))]),
        HashSet::from([(PlayerId(1), PlayerId(4)), (PlayerId(2), PlayerId(3))]),
    ];
    assert!(across.contains(&pairs), "{pairs:?}");
}

#[test]
fn a_rematch_is_accepted_when_it_is_the_only_game() {
    let w = |id: u32, last: u32| Waiting {
        id: PlayerId(id),
        rank: id,
        rating: 1500,
        last_opponent: Some(PlayerId(last)),
    };
    let wave = pair_waiting(&[w(1, 2), w(2, 1)]);
    assert_eq!(wave.pairs, [(PlayerId(1), PlayerId(2))]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random waves after a previous wave: everyone plays at most once, all but at most one
    /// play, and nobody meets their last opponent again (always avoidable with four or more).
    #[test]
    fn waves_pair_everyone_once_without_immediate_rematches(
        n in 4usize..=300,
        seed in any::<u64>(),
    ) {
        let mut ids: Vec<u32> = (1..=n as u32).collect();
        // Shuffle the previous wave's pairs with a small generator.
        let mut s = seed;
        for i in (1..ids.len()).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ids.swap(i, (s >> 33) as usize % (i + 1));
        }
        let mut last = HashMap::new();
        for pair in ids.chunks(2) {
            if let [a, b] = pair {
                last.insert(*a, *b);
                last.insert(*b, *a);
            }
        }
        let waiting: Vec<Waiting> = (1..=n as u32)
            .map(|id| Waiting {
                id: PlayerId(id),
                rank: id,
                rating: 1000 + (id * 37 % 900),
                last_opponent: last.get(&id).map(|&o| PlayerId(o)),
            })
            .collect();
        let wave = pair_waiting(&waiting);
        let mut seen = HashSet::new();
        for &(a, b) in &wave.pairs {
            prop_assert!(seen.insert(a) && seen.insert(b));
            prop_assert!(last.get(&a.0) != Some(&b.0), "{} meets {} again", a, b);
        }
        prop_assert_eq!(wave.pairs.len(), n / 2);
        prop_assert_eq!(wave.waits.is_some(), n % 2 == 1);
        if let Some(w) = wave.waits {
            prop_assert!(!seen.contains(&w));
        }
    }
}
