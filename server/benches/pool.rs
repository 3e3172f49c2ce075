//! The play-now pool with 1,000 members (issue 31, "Measure"). Run with
//! `cargo bench -p boardcast-server --bench pool`.
//!
//! Two kinds of figure: the CPU time of the pool's decisions (divan: one join, one tick, and a
//! burst of 1,000 joins), and, printed before them, how long members *wait* in a simulated
//! evening of 1,000 members pressing "play now" (pool time, which the window policy decides).

use std::time::{Duration, Instant};

use boardcast_protocol::PoolPreset;
use boardcast_server::ratings::pool::{Pool, PoolSettings, Seeker};
use divan::{Bencher, black_box};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const MEMBERS: u32 = 1_000;
const PRESET: PoolPreset = PoolPreset::ThreePlusTwo;

fn main() {
    simulated_waits();
    divan::main();
}

fn seeker(id: u32, rating: i32) -> Seeker<u32> {
    Seeker {
        id,
        rating,
        last_opponent: None,
    }
}

/// A pool holding 1,000 members nobody of whom fits another (ratings 1,001 apart), so every
/// wave looks at all of them: the worst a join or tick meets with 1,000 waiting.
fn thousand_waiting(now: Instant) -> Pool<u32> {
    let mut pool = Pool::new(PoolSettings::default());
    for id in 0..MEMBERS {
        let pairings = pool
            .join(seeker(id, id as i32 * 1_001), PRESET, now)
            .unwrap();
        assert!(pairings.is_empty());
    }
    pool
}

/// A newcomer joins beside 1,000 waiting and is paired with the one it fits.
#[divan::bench(sample_count = 50)]
fn join_with_1000_waiting(bencher: Bencher) {
    let now = Instant::now();
    bencher
        .with_inputs(|| thousand_waiting(now))
        .bench_local_values(|mut pool| {
            let pairings = pool
                .join(seeker(MEMBERS, 500 * 1_001), PRESET, now)
                .unwrap();
            assert_eq!(pairings.len(), 1);
            pool
        });
}

/// The periodic wave over all presets with 1,000 waiting.
#[divan::bench(sample_count = 50)]
fn tick_with_1000_waiting(bencher: Bencher) {
    let now = Instant::now();
    let mut pool = thousand_waiting(now);
    bencher.bench_local(|| black_box(pool.tick(black_box(now + Duration::from_secs(5)))).len());
}

/// 1,000 members with ratings spread over 800–2,400 press "play now" at the same instant.
#[divan::bench(sample_count = 20)]
fn burst_of_1000_joins(bencher: Bencher) {
    let mut rng = StdRng::seed_from_u64(1);
    let ratings: Vec<i32> = (0..MEMBERS).map(|_| rng.random_range(800..2400)).collect();
    let now = Instant::now();
    bencher.bench_local(|| {
        let mut pool = Pool::new(PoolSettings::default());
        let mut paired = 0;
        for (id, &rating) in ratings.iter().enumerate() {
            paired += pool
                .join(seeker(id as u32, rating), PRESET, now)
                .unwrap()
                .len();
        }
        black_box(paired)
    });
}

/// 1,000 members (ratings normal around 1,500, sd 300) arrive over ten minutes, each pressing
/// "play now" again 1–10 minutes after being paired; the pool ticks every second. Prints the
/// simulated waits from pressing to being paired.
fn simulated_waits() {
    let mut rng = StdRng::seed_from_u64(31);
    let mut pool = Pool::new(PoolSettings::default());
    let start = Instant::now();
    let rating = |rng: &mut StdRng| {
        // Irwin–Hall: the sum of 12 uniforms is close to normal.
        let z: f64 = (0..12).map(|_| rng.random::<f64>()).sum::<f64>() - 6.0;
        (1500.0 + 300.0 * z).round() as i32
    };
    let ratings: Vec<i32> = (0..MEMBERS).map(|_| rating(&mut rng)).collect();
    let mut next_press: Vec<Option<Instant>> = (0..MEMBERS)
        .map(|_| Some(start + Duration::from_millis(rng.random_range(0..600_000))))
        .collect();
    let mut waits = Vec::new();
    let mut now = start;
    while now < start + Duration::from_secs(3_600) {
        now += Duration::from_secs(1);
        let mut pairings = Vec::new();
        for id in 0..MEMBERS {
            if next_press[id as usize].is_some_and(|at| at <= now) {
                next_press[id as usize] = None;
                pairings.extend(
                    pool.join(seeker(id, ratings[id as usize]), PRESET, now)
                        .unwrap(),
                );
            }
        }
        pairings.extend(pool.tick(now));
        for pairing in pairings {
            for side in [pairing.first, pairing.second] {
                waits.push(side.waited);
                let game = Duration::from_secs(rng.random_range(60..600));
                next_press[side.id as usize] = Some(now + game);
            }
        }
    }
    waits.sort();
    let at = |q: f64| waits[((waits.len() - 1) as f64 * q) as usize].as_secs_f64();
    println!(
        "simulated hour, {MEMBERS} members, pool ticks every 1 s: {} pairings; wait p50 {:.0} s, p90 {:.0} s, p99 {:.0} s, max {:.0} s; still waiting {}",
        waits.len() / 2,
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        pool.waiting(PRESET)
    );
}
