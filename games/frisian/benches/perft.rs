//! Perft benchmarks: the start position (one thread, last ply counted in bulk, no
//! transposition table) and a position with kings. Run with `cargo bench -p frisian`.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use frisian::{Position, perft};

fn main() {
    divan::main();
}

fn run(bencher: Bencher, fen: &str, depth: u32) {
    let pos = Position::from_fen(fen).unwrap();
    let leaves = perft(&pos, depth);
    bencher
        .counter(ItemsCount::new(leaves))
        .bench(|| perft(black_box(&pos), black_box(depth)));
}

#[divan::bench(args = [7, 8, 9], sample_count = 5, sample_size = 1)]
fn start_position(bencher: Bencher, depth: u32) {
    run(bencher, "W:W31-50:B1-20:H0:F1:+0+0", depth);
}

#[divan::bench(args = [5], sample_count = 5, sample_size = 1)]
fn kings_and_men(bencher: Bencher, depth: u32) {
    run(
        bencher,
        "W:WK28,K46,39,40:BK5,K7,12,13:H0:F1:+205+228",
        depth,
    );
}

#[divan::bench(sample_count = 100)]
fn legal_moves_start(bencher: Bencher) {
    let pos = Position::start();
    bencher.bench(|| black_box(&pos).legal_moves().len());
}
