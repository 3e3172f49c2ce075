//! Small Dutch-system pairings worked by hand from the text of the rules (FIDE Handbook
//! C.04.3, 2017 version; each fixture names the articles it follows), paired here identically.
//! Players are entered with ratings that make their pairing numbers 1, 2, 3, … in id order.

use boardcast_pairing::swiss::{GameResult, Outcome, Swiss, SwissConfig};
use boardcast_pairing::{Colour, PlayerId, Points};

fn event(players: u32, rounds: u32) -> Swiss {
    let mut swiss = Swiss::new(SwissConfig {
        rounds,
        bye_points: Points::ONE,
        initial_colour: Colour::White,
    })
    .unwrap();
    for n in 1..=players {
        swiss.add_player(PlayerId(n), 2500 - n * 10).unwrap();
    }
    swiss
}

/// The round's boards as `white-black` by pairing number, and the bye.
fn boards(swiss: &mut Swiss) -> (Vec<String>, Option<u32>) {
    let round = swiss.pair_next_round().unwrap();
    let boards = round
        .boards
        .iter()
        .map(|b| format!("{}-{}", b.white.0, b.black.0))
        .collect();
    (boards, round.bye.map(|p| p.0))
}

fn results(swiss: &mut Swiss, games: &[(u32, u32, Outcome)]) {
    let results: Vec<GameResult> = games
        .iter()
        .map(|&(w, b, outcome)| GameResult {
            white: PlayerId(w),
            black: PlayerId(b),
            outcome,
        })
        .collect();
    swiss.record_round(&results).unwrap();
}

/// Round 1 of 8: one bracket, S1 = 1–4 against S2 = 5–8 (C.04.3 B.1, B.2, the first candidate
/// of D.1); colours by E.5: the higher-ranked player gets the initial colour (white) on an odd
/// pairing number, black on an even one.
#[test]
fn round_one_of_eight_pairs_top_half_against_bottom_half() {
    let mut swiss = event(8, 5);
    assert_eq!(
        boards(&mut swiss),
        (
            vec!["1-5".into(), "6-2".into(), "3-7".into(), "8-4".into()],
            None
        )
    );
}

/// Round 1 of 7: S1 = 1–3, S2 = 4–7; the lowest-ranked player is left over and gets the
/// pairing-allocated bye (A.5, C.04.1 c).
#[test]
fn round_one_of_seven_gives_the_bye_to_the_last_player() {
    let mut swiss = event(7, 5);
    assert_eq!(
        boards(&mut swiss),
        (vec!["1-4".into(), "5-2".into(), "3-6".into()], Some(7))
    );
}

/// Round 2 of 4 after 1 and 2 won: brackets {1, 2} and {3, 4}. Each player had one colour, so
/// each has a strong preference for the other (A.6 b) and both are granted (E.1).
#[test]
fn round_two_grants_both_strong_preferences() {
    let mut swiss = event(4, 3);
    assert_eq!(boards(&mut swiss).0, ["1-3", "4-2"]);
    results(
        &mut swiss,
        &[(1, 3, Outcome::WhiteWins), (4, 2, Outcome::BlackWins)],
    );
    assert_eq!(boards(&mut swiss).0, ["2-1", "3-4"]);
}

/// Round 2 of 6: 1 and 2 won, 3–6 was drawn, 4 and 5 lost. The ½ bracket {3, 6} cannot pair
/// (they met, C.1), so both move down (A.4 a) into {4, 5}; the moved-down players are paired
/// first, in order, S1 = {3, 6} against S2 = {4, 5} (A.3, B.2); every colour preference is
/// granted (C.10, E.1). Boards by the higher score, then the sum, then rank (C.04.2).
#[test]
fn round_two_floats_a_bracket_whose_players_met() {
    let mut swiss = event(6, 5);
    assert_eq!(boards(&mut swiss).0, ["1-4", "5-2", "3-6"]);
    results(
        &mut swiss,
        &[
            (1, 4, Outcome::WhiteWins),
            (5, 2, Outcome::BlackWins),
            (3, 6, Outcome::Draw),
        ],
    );
    assert_eq!(boards(&mut swiss).0, ["2-1", "4-3", "6-5"]);
    // And the floats are remembered: 3 and 6 downfloated, 4 and 5 upfloated (A.4 b).
    results(
        &mut swiss,
        &[
            (2, 1, Outcome::Draw),
            (4, 3, Outcome::Draw),
            (6, 5, Outcome::Draw),
        ],
    );
    let floats: Vec<_> = swiss
        .dutch_players()
        .iter()
        .map(|p| (p.id.0, p.floats[0]))
        .collect();
    use boardcast_pairing::dutch::Float::{Down, None as No, Up};
    assert_eq!(
        floats,
        [(1, No), (2, No), (3, Down), (4, Up), (5, Up), (6, Down)]
    );
}

/// Round 3 of 5 with 5 players: the player who had the bye in round 1 cannot have it again
/// (C.2), even as the lowest-ranked player of the lowest bracket.
#[test]
fn nobody_gets_a_second_bye() {
    let mut swiss = event(5, 3);
    assert_eq!(
        boards(&mut swiss),
        (vec!["1-3".into(), "4-2".into()], Some(5))
    );
    // 5 has 1 point from the bye; make everyone else lose or draw so 5 sits at the bottom.
    results(&mut swiss, &[(1, 3, Outcome::Draw), (4, 2, Outcome::Draw)]);
    let (_, bye) = boards(&mut swiss);
    assert!(bye.is_some() && bye != Some(5));
}

/// Late entries join with 0 points and take their place in the initial ranking (A.2 b): 9,
/// rated highest, becomes pairing number 1 and 10 number 6. The 0-point bracket in pairing
/// number order is 9, 3, 4, 10: S1 = {9, 3} against S2 = {4, 10}; 9 has no colour preference,
/// so 4's strong one is granted (E.1), and 3's against 10.
#[test]
fn a_late_entry_starts_with_zero_points_at_the_bottom() {
    let mut swiss = event(4, 3);
    boards(&mut swiss);
    results(
        &mut swiss,
        &[(1, 3, Outcome::WhiteWins), (4, 2, Outcome::BlackWins)],
    );
    swiss.add_player(PlayerId(9), 2600).unwrap();
    swiss.add_player(PlayerId(10), 1000).unwrap();
    let (boards, bye) = boards(&mut swiss);
    assert_eq!(bye, None);
    assert_eq!(boards, ["2-1", "9-4", "3-10"]);
    assert_eq!(swiss.player(PlayerId(9)).unwrap().score(), Points::ZERO);
}

/// From bbpPairings' tests of FIDE's 2025 revision (`test/tests/dutch_2025_C5.input` and
/// `.output.expected` in BieremaBoyzProgramming/bbpPairings), replayed through our Swiss: 6
/// players, 4 absent in round 3. Pairing 1 and 3, the two leaders, would leave 2 and 5 (who
/// met) to float and a 1-point player with the bye; the 2025 rules give the bye to the lowest
/// score possible first, so bbpPairings pairs 1-5, 3-2 and gives 6 the bye.
#[test]
fn bbp_2025_c5_the_bye_goes_to_the_lowest_score_possible() {
    let mut swiss = event(6, 3);
    assert_eq!(boards(&mut swiss).0, ["1-4", "5-2", "3-6"]);
    results(
        &mut swiss,
        &[
            (1, 4, Outcome::WhiteWins),
            (5, 2, Outcome::BlackWins),
            (3, 6, Outcome::WhiteWins),
        ],
    );
    assert_eq!(boards(&mut swiss).0, ["2-1", "4-3", "6-5"]);
    results(
        &mut swiss,
        &[
            (2, 1, Outcome::BlackWins),
            (4, 3, Outcome::BlackWins),
            (6, 5, Outcome::BlackWins),
        ],
    );
    swiss.withdraw(PlayerId(4)).unwrap();
    assert_eq!(
        boards(&mut swiss),
        (vec!["1-5".into(), "3-2".into()], Some(6))
    );
}

/// From bbpPairings' `test/tests/dutch_2025_C9.input` and `.output.expected`: 5 enters late,
/// after round 1. In round 2 the 0-point bracket is 3, 4, 5; the bye goes to the player with
/// the fewest unplayed games, so not to 5, who already missed round 1: 3-5, and 4 has the bye.
#[test]
fn bbp_2025_c9_the_bye_avoids_a_player_who_already_missed_a_round() {
    let mut swiss = event(4, 3);
    assert_eq!(boards(&mut swiss).0, ["1-3", "4-2"]);
    results(
        &mut swiss,
        &[(1, 3, Outcome::WhiteWins), (4, 2, Outcome::BlackWins)],
    );
    swiss.add_player(PlayerId(5), 2500 - 50).unwrap();
    assert_eq!(
        boards(&mut swiss),
        (vec!["2-1".into(), "3-5".into()], Some(4))
    );
}
