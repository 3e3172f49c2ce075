//! How long pairing takes: every round of a 500-player Swiss of 9 rounds and a 1,000-player
//! arena wave, with random results. Run with
//! `cargo run --release -p boardcast-pairing --example pairing_time` (figures in the crate's
//! README); the load average is printed too, since the machine may be shared.

use std::time::Instant;

use boardcast_pairing::arena_pairing::{Waiting, pair_waiting};
use boardcast_pairing::swiss::{GameResult, Outcome, Swiss, SwissConfig};
use boardcast_pairing::{PlayerId, Points};

/// splitmix64: a fixed sequence, so runs are comparable.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// CPU time of this thread so far, in milliseconds, from /proc (utime + stime, in clock ticks
/// of 10 ms on Linux): on a shared machine the wall time mostly measures the other processes.
fn cpu_ms() -> u64 {
    std::fs::read_to_string("/proc/thread-self/stat")
        .ok()
        .and_then(|s| {
            // Fields after the command name, which is in parentheses and may hold spaces.
            let rest = s.rsplit_once(')')?.1;
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let utime: u64 = fields.get(11)?.parse().ok()?;
            let stime: u64 = fields.get(12)?.parse().ok()?;
            Some((utime + stime) * 10)
        })
        .unwrap_or(0)
}

fn main() {
    let mut rng = Rng(33);
    println!("load average before: {}", load_average());

    // The Swiss's size: 500 unless given as the first argument.
    let players: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(500);
    let rounds = 9;
    let mut swiss = Swiss::new(SwissConfig {
        rounds,
        bye_points: Points::ONE,
        ..SwissConfig::default()
    })
    .expect("rounds > 0");
    for n in 0..players {
        swiss
            .add_player(PlayerId(n + 1), 1000 + rng.below(1500) as u32)
            .expect("new id");
    }
    for round in 1..=rounds {
        let started = Instant::now();
        let cpu = cpu_ms();
        let boards = swiss.pair_next_round().expect("pairable").boards.clone();
        let took = started.elapsed();
        println!(
            "swiss {players} players, round {round}: {:>8.1} ms wall, {:>5} ms cpu ({} boards)",
            took.as_secs_f64() * 1e3,
            cpu_ms() - cpu,
            boards.len()
        );
        let results: Vec<GameResult> = boards
            .iter()
            .map(|b| GameResult {
                white: b.white,
                black: b.black,
                outcome: match rng.below(10) {
                    0..=3 => Outcome::WhiteWins,
                    4..=7 => Outcome::BlackWins,
                    _ => Outcome::Draw,
                },
            })
            .collect();
        swiss.record_round(&results).expect("all boards");
    }

    let n = 1000u32;
    let mut last: Vec<u32> = (1..=n).collect();
    for i in (1..last.len()).rev() {
        last.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut opponent = vec![0u32; n as usize + 1];
    for pair in last.chunks(2) {
        opponent[pair[0] as usize] = pair[1];
        opponent[pair[1] as usize] = pair[0];
    }
    let waiting: Vec<Waiting> = (1..=n)
        .map(|id| Waiting {
            id: PlayerId(id),
            rank: id,
            rating: 1000 + rng.below(1500) as u32,
            last_opponent: Some(PlayerId(opponent[id as usize])),
        })
        .collect();
    let cpu = cpu_ms();
    let waves = 20;
    for _ in 0..waves {
        let started = Instant::now();
        let wave = pair_waiting(&waiting);
        println!(
            "arena wave of {n} waiting players: {:>8.2} ms wall ({} pairs)",
            started.elapsed().as_secs_f64() * 1e3,
            wave.pairs.len()
        );
    }
    println!(
        "arena: {:.1} ms cpu per wave over {waves} waves",
        (cpu_ms() - cpu) as f64 / f64::from(waves)
    );
    println!("load average after: {}", load_average());
}
