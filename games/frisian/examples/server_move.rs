//! `cargo run --release -p frisian --example server_move -- [ROUNDS] [new|old]`: the rules work
//! the server does per move (`server/src/matches/state.rs`), replayed over every ply of the
//! reference games (`tests/data/games.jsonl`, 3,190 plies). Prints the time per ply.
//!
//! - `new` (the default), as the server does it now: deciding a move generates the legal
//!   moves once into a local `MoveList` and resolves the route, writes its notation and plays
//!   it against that list (`move_from_route_in`, `notation_in`, `play_in`), then takes the
//!   status and the next side's `legal_moves_with_notation`; applying the committed event
//!   generates once more (`move_from_route_in`, `play_in`).
//! - `old`, as the server did it before: `move_from_route`, `notation`, `play`, `status`,
//!   `legal_moves_with_notation`, then `move_from_route` and `play` again to apply.
//!
//! For instruction counts, run under callgrind and count only the replay:
//! `valgrind --tool=callgrind --toggle-collect='*replay_all*' target/release/examples/server_move 1`
//! then divide the total by the plies printed.

use std::hint::black_box;
use std::time::Instant;

use frisian::{MoveList, Position, Square};

/// One ply of the server's work: the position after it, and a checksum.
type Ply = fn(Position, &[Square]) -> (Position, usize);

struct Game {
    start: Position,
    routes: Vec<Vec<Square>>,
}

fn games() -> Vec<Game> {
    let data = include_str!("../tests/data/games.jsonl");
    data.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let g: serde_json::Value = serde_json::from_str(line).unwrap();
            let start = Position::from_fen(g["start_fen"].as_str().unwrap()).unwrap();
            let mut pos = start;
            let routes = g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let mv = pos.parse_move(m.as_str().unwrap()).unwrap();
                    pos = pos.play(mv).unwrap();
                    mv.route().to_vec()
                })
                .collect();
            Game { start, routes }
        })
        .collect()
}

/// One server move, the way the server calls the rules now.
#[inline(never)]
fn replay_ply_new(pos: Position, route: &[Square]) -> (Position, usize) {
    // decide: one generation to parse the route, write its notation and play it; the status
    // and the next side's legal moves with notation.
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    let mv = pos.move_from_route_in(route, &legal).unwrap();
    let notation = pos.notation_in(mv, &legal);
    let after = pos.play_in(mv, &legal).unwrap();
    let outcome = after.status().outcome();
    let next = if outcome.is_some() {
        Vec::new()
    } else {
        after.legal_moves_with_notation()
    };
    // apply: the committed event is replayed on the state, with one generation.
    let mut legal = MoveList::new();
    pos.legal_moves_into(&mut legal);
    let mv = pos.move_from_route_in(route, &legal).unwrap();
    let applied = pos.play_in(mv, &legal).unwrap();
    (applied, black_box(notation).len() + black_box(next).len())
}

/// One server move through the public API, the way the server called it before.
#[inline(never)]
fn replay_ply_old(pos: Position, route: &[Square]) -> (Position, usize) {
    // decide: parse the route, write its notation, play it, the status, the next legal moves.
    let mv = pos.move_from_route(route).unwrap();
    let notation = pos.notation(mv);
    let after = pos.play(mv).unwrap();
    let outcome = after.status().outcome();
    let next = if outcome.is_some() {
        Vec::new()
    } else {
        after.legal_moves_with_notation()
    };
    // apply: the committed event is replayed on the state.
    let mv = pos.move_from_route(route).unwrap();
    let applied = pos.play(mv).unwrap();
    (applied, black_box(notation).len() + black_box(next).len())
}

#[inline(never)]
fn replay_all(games: &[Game], ply: Ply) -> usize {
    let mut sum = 0;
    for g in games {
        let mut pos = g.start;
        for route in &g.routes {
            let (next, n) = ply(pos, route);
            pos = next;
            sum += n;
        }
    }
    sum
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let (mode, ply): (_, Ply) = match args.next().as_deref() {
        None | Some("new") => ("new", replay_ply_new),
        Some("old") => ("old", replay_ply_old),
        Some(other) => panic!("mode {other:?}: new or old"),
    };
    let games = games();
    let plies: usize = games.iter().map(|g| g.routes.len()).sum();
    let started = Instant::now();
    let mut check = 0;
    for _ in 0..rounds {
        check += replay_all(black_box(&games), ply);
    }
    let secs = started.elapsed().as_secs_f64();
    let total = plies as f64 * rounds as f64;
    println!(
        "{mode}: {rounds} rounds of {plies} plies in {secs:.3} s: {:.0} ns per ply, {:.0} plies/s (check {check})",
        secs / total * 1e9,
        total / secs
    );
}
