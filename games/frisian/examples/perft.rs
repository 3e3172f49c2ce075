//! `cargo run --release -p frisian --example perft -- [DEPTH | FIRST..LAST] [FEN]`: perft of one
//! position, timed, for profiling without the client binary. A range (`1..10`) runs each depth
//! in turn and reports the sum, as Scan's perft does.

use std::ops::RangeInclusive;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depths = args.next().map_or(9..=9, |d| parse_depths(&d));
    let pos = match args.next() {
        Some(fen) => frisian::Position::from_fen(&fen).expect("bad FEN"),
        None => frisian::Position::start(),
    };
    let ranged = depths.start() != depths.end();
    let started = Instant::now();
    let mut total = 0;
    for depth in depths.clone() {
        let leaves = frisian::perft(&pos, depth);
        total += leaves;
        if ranged {
            println!("{depth} {leaves}");
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let label = if ranged {
        format!("{}..{}", depths.start(), depths.end())
    } else {
        depths.start().to_string()
    };
    println!(
        "perft {label} {total} in {secs:.3} s: {:.1} M leaves/s",
        total as f64 / secs / 1e6
    );
}

fn parse_depths(text: &str) -> RangeInclusive<u32> {
    let depth = |d: &str| {
        d.parse::<u32>()
            .expect("DEPTH is a number or a range FIRST..LAST")
    };
    match text.split_once("..") {
        Some((first, last)) => depth(first)..=depth(last),
        None => depth(text)..=depth(text),
    }
}
