//! `boardcast frisian …`: offline Frisian draughts tools (legal moves, perft, status, playing
//! moves from a FEN). Errors go to stderr with exit status 2.

use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::{Args, Subcommand};
use frisian::{Move, Position};
use serde::Serialize;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print every legal move, one per line, sorted by (from, to, notation).
    Moves {
        #[command(flatten)]
        fen: FenArg,
        /// Print one JSON array of move objects instead.
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the move tree for each depth 1..=N.
    Perft {
        #[command(flatten)]
        fen: FenArg,
        /// Deepest ply to count.
        #[arg(long)]
        depth: u32,
        /// Also print the leaves below each legal move at the deepest ply.
        #[arg(long)]
        divide: bool,
        /// Worker threads (the root moves are shared out among them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Print whether the game goes on, and why: `ongoing|draw|white|black: reason`.
    Status {
        #[command(flatten)]
        fen: FenArg,
    },
    /// Play moves in notation from a position and print the FEN after them.
    Play {
        #[command(flatten)]
        fen: FenArg,
        /// Moves such as 32-28, 28x19 or 9x18x16.
        moves: Vec<String>,
    },
}

#[derive(Debug, Args)]
pub struct FenArg {
    /// Start from this FEN instead of the initial position.
    #[arg(long)]
    fen: Option<String>,
}

impl FenArg {
    fn position(&self) -> Result<Position, String> {
        match &self.fen {
            None => Ok(Position::start()),
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("bad FEN {fen:?}: {e}")),
        }
    }
}

pub fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Moves { fen, json } => fen.position().and_then(|p| moves(&p, json)),
        Command::Perft {
            fen,
            depth,
            divide,
            threads,
        } => fen
            .position()
            .map(|p| perft(&p, depth, divide, threads.max(1))),
        Command::Status { fen } => fen.position().map(|p| status(&p)),
        Command::Play { fen, moves } => fen.position().and_then(|p| play(p, &moves)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

#[derive(Serialize)]
struct MoveJson {
    notation: String,
    from: u8,
    to: u8,
    captures: Vec<u8>,
    promotes: bool,
    fen_after: String,
}

fn moves(pos: &Position, json: bool) -> Result<(), String> {
    let mut list = pos.legal_moves_with_notation();
    list.sort_by(|(a, na), (b, nb)| (a.from(), a.to(), na).cmp(&(b.from(), b.to(), nb)));
    if !json {
        for (_, notation) in &list {
            println!("{notation}");
        }
        return Ok(());
    }
    let out: Vec<MoveJson> = list
        .iter()
        .map(|(mv, notation)| MoveJson {
            notation: notation.clone(),
            from: mv.from().number(),
            to: mv.to().number(),
            captures: mv.captures().iter().map(|s| s.number()).collect(),
            promotes: mv.promotes(),
            fen_after: pos.play_legal(mv).fen(),
        })
        .collect();
    println!(
        "{}",
        serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?
    );
    Ok(())
}

/// Perft with the root moves shared out among `threads` workers.
fn parallel_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let roots = pos.legal_moves();
    if depth <= 1 || threads == 1 {
        return frisian::divide(pos, depth);
    }
    let next = AtomicUsize::new(0);
    let mut counts = vec![0u64; roots.len()];
    let parts: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(mv) = roots.get(i) else { break };
                        done.push((i, frisian::perft(&pos.play_legal(mv), depth - 1)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("perft worker panicked"))
            .collect()
    });
    for (i, n) in parts.into_iter().flatten() {
        counts[i] = n;
    }
    roots.iter().copied().zip(counts).collect()
}

fn perft(pos: &Position, depth: u32, divide: bool, threads: usize) {
    let started = Instant::now();
    let mut total = 0u64;
    for d in 1..=depth {
        let parts = parallel_divide(pos, d, threads);
        let count: u64 = if d == 0 {
            1
        } else {
            parts.iter().map(|(_, n)| n).sum()
        };
        if divide && d == depth {
            let mut named: Vec<(Move, String, u64)> = parts
                .iter()
                .map(|(m, n)| (*m, pos.notation(*m), *n))
                .collect();
            named.sort_by(|a, b| (a.0.from(), a.0.to(), &a.1).cmp(&(b.0.from(), b.0.to(), &b.1)));
            for (_, notation, n) in named {
                println!("{notation} {n}");
            }
        }
        println!("perft {d} {count}");
        total += count;
    }
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    println!(
        "time {secs:.3} s, {total} leaves, {:.1} M leaves/s ({threads} thread{})",
        rate / 1e6,
        if threads == 1 { "" } else { "s" }
    );
}

fn status(pos: &Position) {
    let status = pos.status();
    let reason = status
        .reason()
        .unwrap_or_else(|| format!("{} to move", pos.turn()));
    println!("{}: {reason}", status.result_word());
}

fn play(mut pos: Position, moves: &[String]) -> Result<(), String> {
    for text in moves.iter().flat_map(|m| m.split_whitespace()) {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {text}: {e}"))?;
        pos = pos.play(mv).map_err(|e| format!("move {text}: {e}"))?;
    }
    println!("{pos}");
    Ok(())
}
