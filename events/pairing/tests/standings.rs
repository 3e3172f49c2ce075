//! Tie-breaks worked by hand, and the TRF export read back column by column.

use boardcast_pairing::swiss::{GameResult, Outcome, RoundRecord, Swiss, SwissConfig, SwissPlayer};
use boardcast_pairing::tiebreak::{round_robin_standings, standings};
use boardcast_pairing::trf::{TrfHeader, write_trf};
use boardcast_pairing::{Colour, PlayerId, Points};

fn game(opponent: u32, colour: Colour, halves: u32) -> RoundRecord {
    RoundRecord::Game {
        opponent: PlayerId(opponent),
        colour,
        points: Points(halves),
        forfeit: false,
    }
}

fn player(id: u32, rating: u32, rounds: Vec<RoundRecord>) -> SwissPlayer {
    SwissPlayer {
        id: PlayerId(id),
        rating,
        rounds,
        withdrawn: false,
    }
}

/// A (1) beat B (2), drew C (3), had the bye; B beat D (4), drew C; C beat D; D was absent in
/// round 3. Scores: A 2½, C 2, B 1½, D 0.
#[test]
fn buchholz_cut1_and_sonneborn_berger_by_hand() {
    use Colour::{Black as B, White as W};
    let players = vec![
        player(
            1,
            1500,
            vec![
                game(2, W, 2),
                game(3, B, 1),
                RoundRecord::Bye {
                    points: Points::ONE,
                },
            ],
        ),
        player(2, 1500, vec![game(1, B, 0), game(4, W, 2), game(3, B, 1)]),
        player(3, 1500, vec![game(4, W, 2), game(1, W, 1), game(2, W, 1)]),
        player(
            4,
            1500,
            vec![game(3, B, 0), game(2, B, 0), RoundRecord::Absent],
        ),
    ];
    let table = standings(&players);
    let line = |id: u32| table.iter().find(|s| s.id == PlayerId(id)).unwrap();
    let ids: Vec<u32> = table.iter().map(|s| s.id.0).collect();
    assert_eq!(ids, [1, 3, 2, 4]);
    // A: B 1½ + C 2 + the bye as a virtual opponent with A's own 2½ = 6; cut-1 drops 1½.
    assert_eq!(line(1).buchholz, Points(12));
    assert_eq!(line(1).buchholz_cut1, Points(9));
    // A's Sonneborn-Berger: 1 × 1½ (B) + ½ × 2 (C) + 1 × 2½ (bye) = 5 = 20 quarters.
    assert_eq!(line(1).sonneborn_berger_quarters, 20);
    // B: A 2½ + D 0 + C 2; cut-1 drops D's 0. SB: ½ × 2 (C) = 1.
    assert_eq!(line(2).buchholz, Points(9));
    assert_eq!(line(2).buchholz_cut1, Points(9));
    assert_eq!(line(2).sonneborn_berger_quarters, 4);
    // C: D 0 + A 2½ + B 1½. SB: ½ × 2½ + ½ × 1½ = 2 = 8 quarters.
    assert_eq!(line(3).buchholz, Points(8));
    assert_eq!(line(3).sonneborn_berger_quarters, 8);
    // D: C 2 + B 1½ + its own 0 for the absence.
    assert_eq!(line(4).buchholz, Points(7));
    assert_eq!(line(4).sonneborn_berger_quarters, 0);
}

#[test]
fn equal_scores_go_by_buchholz_then_rating() {
    use Colour::{Black as B, White as W};
    // 1 beat 3, 4 beat 2, then 3 beat 2: 1, 4 and 3 have 1 point. 1's opponent 3 has a point
    // (and 1's absence counts 1's own point): 1 leads on Buchholz despite the lowest rating. 4
    // and 3 tie on everything (Buchholz 1, cut-1 1, Sonneborn-Berger 0): the rating decides,
    // as it does between 6 and 5 with nothing at all.
    let players = vec![
        player(1, 1400, vec![game(3, W, 2), RoundRecord::Absent]),
        player(2, 1500, vec![game(4, B, 0), game(3, B, 0)]),
        player(3, 1500, vec![game(1, B, 0), game(2, W, 2)]),
        player(4, 1600, vec![game(2, W, 2), RoundRecord::Absent]),
        player(5, 1300, vec![RoundRecord::Absent, RoundRecord::Absent]),
        player(6, 1350, vec![RoundRecord::Absent, RoundRecord::Absent]),
    ];
    let ids: Vec<u32> = standings(&players).iter().map(|s| s.id.0).collect();
    assert_eq!(ids, [1, 4, 3, 2, 6, 5]);
}

/// Two rounds of a six-player round robin (the results below). Players 2 and 4 both have 1
/// point: 2 lost to 5 (2 points) and beat 3 (½), Buchholz 2½ and Sonneborn-Berger ½; 4 drew 3 (½) and 6 (1½), Buchholz 2 and Sonneborn-Berger 1. A Swiss ranks 2 first on
/// Buchholz; a round robin ranks 4 first on Sonneborn-Berger, and the same lines show both.
#[test]
fn a_round_robin_ranks_equal_scores_by_sonneborn_berger_where_a_swiss_goes_by_buchholz() {
    use Colour::{Black as B, White as W};
    // Round 1: 1–6 0-1, 2–5 0-1, 3–4 ½-½. Round 2: 1–5 0-1, 6–4 ½-½, 2–3 1-0.
    let players = vec![
        player(1, 1500, vec![game(6, W, 0), game(5, W, 0)]),
        player(2, 1500, vec![game(5, W, 0), game(3, W, 2)]),
        player(3, 1500, vec![game(4, W, 1), game(2, B, 0)]),
        player(4, 1500, vec![game(3, B, 1), game(6, B, 1)]),
        player(5, 1500, vec![game(2, B, 2), game(1, B, 2)]),
        player(6, 1500, vec![game(1, B, 2), game(4, W, 1)]),
    ];
    let order = |table: Vec<boardcast_pairing::tiebreak::Standing>| -> Vec<u32> {
        table.iter().map(|s| s.id.0).collect()
    };
    let swiss = standings(&players);
    let line = |id: u32| *swiss.iter().find(|s| s.id == PlayerId(id)).unwrap();
    assert_eq!((line(2).buchholz, line(4).buchholz), (Points(5), Points(4)));
    assert_eq!(
        (
            line(2).sonneborn_berger_quarters,
            line(4).sonneborn_berger_quarters
        ),
        (2, 4)
    );
    assert_eq!(order(swiss), [5, 6, 2, 4, 3, 1]);
    let round_robin = round_robin_standings(&players);
    assert_eq!(order(round_robin.clone()), [5, 6, 4, 2, 3, 1]);
    // The lines themselves do not depend on the order they are ranked in.
    let by_id = |mut t: Vec<boardcast_pairing::tiebreak::Standing>| {
        t.sort_by_key(|s| s.id);
        t.into_iter()
            .map(|s| (s.id, s.score, s.buchholz, s.sonneborn_berger_quarters))
            .collect::<Vec<_>>()
    };
    assert_eq!(by_id(round_robin), by_id(standings(&players)));
}

/// Two rounds of five players (and a sixth from round 2) through the Swiss, then the TRF read
/// back by its columns.
#[test]
fn the_trf_has_the_rounds_in_their_columns() {
    let mut swiss = Swiss::new(SwissConfig {
        rounds: 3,
        bye_points: Points::ONE,
        initial_colour: Colour::White,
    })
    .unwrap();
    for n in 1..=5u32 {
        swiss.add_player(PlayerId(n), 2000 - n).unwrap();
    }
    for round in 1..=2 {
        if round == 2 {
            // A late entry: round 1 is written as a zero-point absence.
            swiss.add_player(PlayerId(6), 1500).unwrap();
        }
        let boards = swiss.pair_next_round().unwrap().boards.clone();
        let results: Vec<GameResult> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| GameResult {
                white: b.white,
                black: b.black,
                outcome: match (round, i) {
                    (1, 0) => Outcome::WhiteWins,
                    (1, _) => Outcome::Draw,
                    (_, 0) => Outcome::BlackWinsByForfeit,
                    _ => Outcome::BlackWins,
                },
            })
            .collect();
        swiss.record_round(&results).unwrap();
    }
    swiss.pair_next_round().unwrap();
    let trf = write_trf(
        &swiss,
        &TrfHeader {
            name: "Club Swiss\nnight".into(),
        },
        |id| format!("Player {}", id.0),
    );
    let lines: Vec<&str> = trf.lines().collect();
    assert_eq!(lines[0], "012 Club Swiss night");
    assert!(lines.contains(&"062 6"));
    assert!(lines.contains(&"XXR 3"));
    assert!(lines.contains(&"XXC white1"));
    let players: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("001"))
        .collect();
    assert_eq!(players.len(), 6);
    let late = players.iter().find(|l| l.contains("Player 6")).unwrap();
    assert_eq!(late.get(91..101), Some("0000 - Z  "));
    let numbers = swiss.pairing_numbers();
    let pending = swiss.pending().unwrap().clone();
    for (k, line) in players.iter().enumerate() {
        let col = |from: usize, to: usize| line.get(from - 1..to).unwrap_or("").trim();
        // Lines in starting-rank order; ids were entered in rating order.
        let start: u32 = col(5, 8).parse().unwrap();
        assert_eq!(start, k as u32 + 1);
        let p = &swiss.players()[numbers.iter().position(|&n| n == start).unwrap()];
        assert_eq!(col(15, 47), format!("Player {}", p.id.0));
        assert_eq!(col(49, 52), p.rating.to_string());
        let pts = p.score().halves();
        assert_eq!(
            col(81, 84),
            format!("{}.{}", pts / 2, if pts % 2 == 1 { 5 } else { 0 })
        );
        for (r, record) in p.rounds.iter().enumerate() {
            let base = 92 + 10 * r;
            let (opp, colour, result) = (
                col(base, base + 3),
                col(base + 5, base + 5),
                col(base + 7, base + 7),
            );
            match *record {
                RoundRecord::Game {
                    opponent,
                    colour: c,
                    points,
                    forfeit,
                } => {
                    let o = swiss
                        .players()
                        .iter()
                        .position(|q| q.id == opponent)
                        .unwrap();
                    assert_eq!(opp.parse::<u32>().unwrap(), numbers[o]);
                    assert_eq!(colour, if c == Colour::White { "w" } else { "b" });
                    let expected = match (forfeit, points.halves()) {
                        (false, 2) => "1",
                        (false, 1) => "=",
                        (false, _) => "0",
                        (true, 2) => "+",
                        (true, _) => "-",
                    };
                    assert_eq!(result, expected);
                }
                RoundRecord::Bye { .. } => assert_eq!((opp, colour, result), ("0000", "-", "U")),
                RoundRecord::Absent => assert_eq!((opp, colour, result), ("0000", "-", "Z")),
            }
        }
        // The pending round 3: opponent and colour, no result yet.
        let base = 92 + 20;
        let board = pending
            .boards
            .iter()
            .find(|b| b.white == p.id || b.black == p.id);
        match board {
            Some(b) => {
                let (opponent, c) = if b.white == p.id {
                    (b.black, "w")
                } else {
                    (b.white, "b")
                };
                let o = swiss
                    .players()
                    .iter()
                    .position(|q| q.id == opponent)
                    .unwrap();
                assert_eq!(col(base, base + 3).parse::<u32>().unwrap(), numbers[o]);
                assert_eq!(col(base + 5, base + 5), c);
                assert_eq!(col(base + 7, base + 7), "");
            }
            None => assert_eq!(col(base, base + 7), "0000 - U"),
        }
    }
}
