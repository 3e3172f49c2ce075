//! Plays every pairing of the 50 engines on a set of serials, `ROUNDS` times over, and prints
//! how many complete games per second one thread managed. Run it under `perf stat` (or
//! `time`) to read CPU time as well when the machine is shared.
//!
//! `cargo run --release -p minitchess --example throughput [rounds]`

use std::time::Instant;

use minitchess::{Engine, Game};

const SERIALS: [&str; 4] = ["CH3SS5", "TZ1FG9", "904WF6", "D41WX5"];

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(20, |r| r.parse().expect("rounds is a number"));
    let engines: Vec<Engine> = Engine::all().collect();
    let started = Instant::now();
    let (mut games, mut plies) = (0u64, 0u64);
    for _ in 0..rounds {
        for serial in SERIALS {
            for &white in &engines {
                for &black in &engines {
                    let mut game = Game::new(serial, white, black).expect("valid serial");
                    game.run_to_end();
                    games += 1;
                    plies += game.moves().len() as u64;
                }
            }
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{games} games, {plies} plies in {seconds:.3} s: {:.0} games/s, {:.1} plies/game",
        games as f64 / seconds,
        plies as f64 / games as f64
    );
}
