//! A withdrawn player who joins a Swiss again between rounds (lichess's Swiss takes them back):
//! paired again from the next round, the rounds missed absent with 0 points, the results they
//! had kept; refused while a round waits for results, and for a player who never left.

use boardcast_pairing::PlayerId;
use boardcast_pairing::swiss::{GameResult, Outcome, RoundRecord, Swiss, SwissConfig, SwissError};

/// Four players, rated 1590 down to 1560, in a Swiss of four rounds.
fn field() -> Swiss {
    let mut swiss = Swiss::new(SwissConfig {
        rounds: 4,
        ..SwissConfig::default()
    })
    .unwrap();
    for id in 1..=4 {
        swiss.add_player(PlayerId(id), 1600 - id * 10).unwrap();
    }
    swiss
}

/// Pairs the next round and records it with White winning every game; who was paired.
fn play_round(swiss: &mut Swiss) -> Vec<PlayerId> {
    let pairing = swiss.pair_next_round().unwrap().clone();
    let results: Vec<GameResult> = pairing
        .boards
        .iter()
        .map(|b| GameResult {
            white: b.white,
            black: b.black,
            outcome: Outcome::WhiteWins,
        })
        .collect();
    swiss.record_round(&results).unwrap();
    pairing
        .boards
        .iter()
        .flat_map(|b| [b.white, b.black])
        .chain(pairing.bye)
        .collect()
}

#[test]
fn a_withdrawn_player_who_rejoins_is_paired_from_the_next_round_and_the_missed_one_is_absent() {
    let leaving = PlayerId(4);
    let mut swiss = field();
    assert!(play_round(&mut swiss).contains(&leaving));
    let after_round_one = swiss.player(leaving).unwrap().score();
    swiss.withdraw(leaving).unwrap();
    assert!(
        !play_round(&mut swiss).contains(&leaving),
        "not paired while withdrawn"
    );

    assert_eq!(swiss.rejoin(leaving), Ok(()));
    let back = swiss.player(leaving).unwrap();
    assert!(!back.withdrawn);
    assert_eq!(back.rounds[1], RoundRecord::Absent, "the round missed");
    assert_eq!(
        back.score(),
        after_round_one,
        "the missed round scores nothing"
    );
    assert!(
        play_round(&mut swiss).contains(&leaving),
        "paired in round 3"
    );
    assert_eq!(swiss.player(leaving).unwrap().rounds.len(), 3);
}

#[test]
fn a_rejoin_is_refused_during_a_round_and_for_one_who_never_left() {
    let mut swiss = field();
    play_round(&mut swiss);
    swiss.withdraw(PlayerId(4)).unwrap();
    swiss.pair_next_round().unwrap();
    assert_eq!(
        swiss.rejoin(PlayerId(4)),
        Err(SwissError::RoundInProgress(2))
    );
    assert_eq!(
        swiss.rejoin(PlayerId(1)),
        Err(SwissError::RoundInProgress(2))
    );
    let mut swiss = field();
    assert_eq!(
        swiss.rejoin(PlayerId(1)),
        Err(SwissError::DuplicatePlayer(PlayerId(1))),
        "one who is in is not taken back"
    );
    assert_eq!(
        swiss.rejoin(PlayerId(9)),
        Err(SwissError::UnknownPlayer(PlayerId(9)))
    );
}
