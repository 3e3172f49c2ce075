//! Complete engine games per second: every pairing of the 50 engines (5 kinds × 10 seeds) on a
//! few serials, each game from `Game::new` to its end, on one thread.
//!
//! Run with `cargo bench -p minitchess`; divan reports items (games) per second.

use divan::{Bencher, black_box, counter::ItemsCount};
use minitchess::{Engine, EngineKind, Game, Puzzle};

fn main() {
    divan::main();
}

const SERIALS: [&str; 4] = ["CH3SS5", "TZ1FG9", "904WF6", "D41WX5"];

fn pairings() -> Vec<(&'static str, Engine, Engine)> {
    let engines: Vec<Engine> = Engine::all().collect();
    SERIALS
        .into_iter()
        .flat_map(|s| {
            engines
                .iter()
                .flat_map(|&w| engines.iter().map(move |&b| (s, w, b)))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[divan::bench(sample_count = 20)]
fn complete_games(bencher: Bencher) {
    let inputs = pairings();
    bencher.counter(ItemsCount::new(inputs.len())).bench(|| {
        for &(serial, white, black) in &inputs {
            let mut game = Game::new(serial, white, black).unwrap();
            game.run_to_end();
            black_box(game.outcome());
        }
    });
}

#[divan::bench]
fn one_ply(bencher: Bencher) {
    let white = Engine {
        kind: EngineKind::S,
        seed: 3,
    };
    let black = Engine {
        kind: EngineKind::K,
        seed: 8,
    };
    let game = Game::new("CH3SS5", white, black).unwrap();
    bencher
        .with_inputs(|| game.clone())
        .bench_local_refs(|g| black_box(g.step()));
}

#[divan::bench(sample_count = 20)]
fn puzzle_generation(bencher: Bencher) {
    let mut state = 1u64;
    let mut rng = move |n: u32| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % u64::from(n)) as u32
    };
    bencher.bench_local(|| black_box(Puzzle::generate(&mut rng).start_ply));
}
