//! The CPU cost of the club's rating arithmetic (issue 35, "the club's new costs"): one rated
//! game's Glicko-2 update (what a match's actor computes when a rated game ends, between
//! reading both members' ratings and writing both changes in the game's `Finish` request) and
//! the ladder's ranking of 1,000 and 10,000 members (what `GET /api/ladder` computes from the
//! stored ratings). Run with `cargo bench -p boardcast-server --bench club`.
//!
//! The storage side of both (the ladder's query, the update's reads and writes) is measured
//! against the real server by `boardcast-load ladder` (`tests/bench/club.sh`).

use std::time::{Duration, SystemTime};

use boardcast_server::ratings::glicko::{Glicko, Perf, Score, rate_game};
use boardcast_server::ratings::ladder::ladder;
use divan::{Bencher, black_box};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// How many rungs `/api/ladder` lists.
const LADDER_SIZE: usize = 200;

fn main() {
    divan::main();
}

/// An established member who played a day ago.
fn established(rating: f64, now: SystemTime) -> Perf {
    Perf {
        glicko: Glicko {
            rating,
            deviation: 60.0,
            volatility: 0.06,
        },
        rated_games: 40,
        last_rated: Some(now - Duration::from_secs(86_400)),
    }
}

/// One rated game between two established members, a win and a draw.
#[divan::bench(args = [Score::WhiteWins, Score::Draw])]
fn rate_one_game(bencher: Bencher, score: Score) {
    let now = SystemTime::now();
    let (white, black) = (established(1_620.0, now), established(1_540.0, now));
    bencher.bench_local(|| black_box(rate_game(black_box(&white), black_box(&black), score, now)));
}

/// A newcomer's first rated game against an established member: the widest update.
#[divan::bench]
fn rate_a_newcomers_first_game(bencher: Bencher) {
    let now = SystemTime::now();
    let black = established(1_540.0, now);
    bencher.bench_local(|| {
        black_box(rate_game(
            black_box(&Perf::NEW),
            black_box(&black),
            Score::WhiteWins,
            now,
        ))
    });
}

/// The ladder of `members` established members (ratings normal around 1,500, sd 300), every
/// one of them eligible: the most `/api/ladder` ever ranks for that many.
#[divan::bench(args = [1_000, 10_000])]
fn ladder_of(bencher: Bencher, members: usize) {
    let now = SystemTime::now();
    let mut rng = StdRng::seed_from_u64(35);
    let perfs: Vec<(String, Perf)> = (0..members)
        .map(|i| {
            let z: f64 = (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0;
            (format!("member{i}"), established(1_500.0 + 300.0 * z, now))
        })
        .collect();
    bencher.bench_local(|| black_box(ladder(black_box(&perfs), now, LADDER_SIZE)).len());
}
