//! The Berger tables against FIDE's printed ones (FIDE Handbook C.05 Annex 1, "Berger Tables
//! for Round-Robin Tournaments"; the same tables are reproduced at
//! c.w.fox.tripod.com/chess/berger.html), and the schedule's invariants for odd and double
//! round-robins.

use std::collections::HashSet;

use boardcast_pairing::round_robin::{Game, RoundRobinError, berger_round, schedule};

/// A table as printed: one string per round, boards as `white-black`.
fn printed(rounds: &[&str]) -> Vec<Vec<Game>> {
    rounds
        .iter()
        .map(|r| {
            r.split(", ")
                .map(|g| {
                    let (w, b) = g.split_once('-').unwrap();
                    Game {
                        white: w.parse().unwrap(),
                        black: b.parse().unwrap(),
                    }
                })
                .collect()
        })
        .collect()
}

fn generated(n: u32) -> Vec<Vec<Game>> {
    (1..n).map(|r| berger_round(n, r)).collect()
}

#[test]
fn four_players_as_fide_prints_them() {
    assert_eq!(generated(4), printed(&["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"]));
}

#[test]
fn six_players_as_fide_prints_them() {
    let fide = printed(&[
        "1-6, 2-5, 3-4",
        "6-4, 5-3, 1-2",
        "2-6, 3-1, 4-5",
        "6-5, 1-4, 2-3",
        "3-6, 4-2, 5-1",
    ]);
    assert_eq!(generated(6), fide);
}

#[test]
fn eight_players_as_fide_prints_them() {
    let fide = printed(&[
        "1-8, 2-7, 3-6, 4-5",
        "8-5, 6-4, 7-3, 1-2",
        "2-8, 3-1, 4-7, 5-6",
        "8-6, 7-5, 1-4, 2-3",
        "3-8, 4-2, 5-1, 6-7",
        "8-7, 1-6, 2-5, 3-4",
        "4-8, 5-3, 6-2, 7-1",
    ]);
    assert_eq!(generated(8), fide);
}

#[test]
fn ten_players_as_fide_prints_them() {
    let fide = printed(&[
        "1-10, 2-9, 3-8, 4-7, 5-6",
        "10-6, 7-5, 8-4, 9-3, 1-2",
        "2-10, 3-1, 4-9, 5-8, 6-7",
        "10-7, 8-6, 9-5, 1-4, 2-3",
        "3-10, 4-2, 5-1, 6-9, 7-8",
        "10-8, 9-7, 1-6, 2-5, 3-4",
        "4-10, 5-3, 6-2, 7-1, 8-9",
        "10-9, 1-8, 2-7, 3-6, 4-5",
        "5-10, 6-4, 7-3, 8-2, 9-1",
    ]);
    assert_eq!(generated(10), fide);
}

#[test]
fn five_players_use_the_six_table_with_six_as_the_bye() {
    let rounds = schedule(5, false).unwrap();
    assert_eq!(rounds.len(), 5);
    // Round 1 of the six table is 1-6, 2-5, 3-4: player 1 sits out.
    assert_eq!(rounds[0].bye, Some(1));
    assert_eq!(rounds[0].games, printed(&["2-5, 3-4"])[0]);
    // Round 2 is 6-4, 5-3, 1-2: player 4 sits out.
    assert_eq!(rounds[1].bye, Some(4));
    assert_eq!(rounds[1].games, printed(&["5-3, 1-2"])[0]);
}

#[test]
fn every_pair_meets_once_per_cycle_and_colours_swap_in_the_second() {
    for players in 2..=21u32 {
        for double in [false, true] {
            let rounds = schedule(players, double).unwrap();
            let n = players + players % 2;
            let cycles = if double { 2 } else { 1 };
            assert_eq!(rounds.len() as u32, (n - 1) * cycles);
            let mut seen = HashSet::new();
            for round in &rounds {
                let mut in_round = HashSet::new();
                for g in &round.games {
                    assert!(g.white <= players && g.black <= players);
                    assert!(in_round.insert(g.white) && in_round.insert(g.black));
                    assert!(seen.insert((g.white, g.black)), "{players}: {g:?} twice");
                }
                if let Some(b) = round.bye {
                    assert!(in_round.insert(b));
                }
                assert_eq!(in_round.len() as u32, players);
            }
            let pairs = players * (players - 1) / 2;
            // Each pair once per cycle; in a double cycle once with each colour.
            assert_eq!(seen.len() as u32, pairs * cycles);
            if double {
                for &(w, b) in &seen {
                    assert!(seen.contains(&(b, w)));
                }
            }
        }
    }
}

#[test]
fn a_double_round_robin_gives_nobody_three_same_colours_in_a_row() {
    for players in [4u32, 6, 8, 10, 12] {
        let rounds = schedule(players, true).unwrap();
        for p in 1..=players {
            let colours: Vec<bool> = rounds
                .iter()
                .map(|r| r.games.iter().any(|g| g.white == p))
                .collect();
            for w in colours.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "{players} players: {p} {colours:?}"
                );
            }
        }
    }
}

#[test]
fn too_few_or_too_many_players_are_refused() {
    assert_eq!(schedule(1, false), Err(RoundRobinError::TooFewPlayers(1)));
    assert_eq!(
        schedule(1001, true),
        Err(RoundRobinError::TooManyPlayers(1001))
    );
}
