//! `cargo run --release -p frisian --example perft -- [DEPTH] [FEN]`: perft of one position at
//! one depth, timed, for profiling without the client binary.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(9);
    let pos = match args.next() {
        Some(fen) => frisian::Position::from_fen(&fen).expect("bad FEN"),
        None => frisian::Position::start(),
    };
    let started = Instant::now();
    let leaves = frisian::perft(&pos, depth);
    let secs = started.elapsed().as_secs_f64();
    println!(
        "perft {depth} {leaves} in {secs:.3} s: {:.1} M leaves/s",
        leaves as f64 / secs / 1e6
    );
}
