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
        Command::Moves { fen, json } => fen
            .position()
            .and_then(|p| moves_text(&p, json))
            .map(|text| print!("{text}")),
        Command::Perft {
            fen,
            depth,
            divide,
            threads,
        } => fen
            .position()
            .map(|p| perft(&p, depth, divide, threads.max(1))),
        Command::Status { fen } => fen.position().map(|p| println!("{}", status_line(&p))),
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

/// The `moves` output: notation lines, or one JSON array.
fn moves_text(pos: &Position, json: bool) -> Result<String, String> {
    let mut list = pos.legal_moves_with_notation();
    list.sort_by(|(a, na), (b, nb)| (a.from(), a.to(), na).cmp(&(b.from(), b.to(), nb)));
    if !json {
        return Ok(list
            .iter()
            .map(|(_, notation)| format!("{notation}\n"))
            .collect());
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
    let text = serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?;
    Ok(text + "\n")
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
    let cpu_start = cpu_seconds();
    let mut total = 0u64;
    for d in 1..=depth {
        let parts = parallel_divide(pos, d, threads);
        let count: u64 = parts.iter().map(|(_, n)| n).sum();
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
    let wall = started.elapsed().as_secs_f64();
    let rate = |secs: f64| {
        if secs > 0.0 {
            total as f64 / secs / 1e6
        } else {
            0.0
        }
    };
    let plural = if threads == 1 { "" } else { "s" };
    let mut line = format!(
        "time {wall:.3} s, {total} leaves, {:.1} M leaves/s ({threads} thread{plural})",
        rate(wall)
    );
    if let (Some(a), Some(b)) = (cpu_start, cpu_seconds()) {
        line += &format!(
            "; CPU time {:.2} s, {:.1} M leaves/s of CPU",
            b - a,
            rate(b - a)
        );
    }
    println!("{line}");
}

/// CPU time of this process (all threads) from `/proc/self/stat`, in seconds: on a machine
/// shared with other jobs, wall time says more about the load than about the generator.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name start with the state (field 3); utime and
    // stime are fields 14 and 15, in clock ticks of 1/100 s on Linux.
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn status_line(pos: &Position) -> String {
    let status = pos.status();
    let reason = status
        .reason()
        .unwrap_or_else(|| format!("{} to move", pos.turn()));
    format!("{}: {reason}", status.result_word())
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn moves_are_sorted_by_from_to_notation() {
        let text = moves_text(&Position::start(), false).unwrap();
        assert_eq!(
            text,
            "31-26\n31-27\n32-27\n32-28\n33-28\n33-29\n34-29\n34-30\n35-30\n"
        );
        let ambiguous = moves_text(&at("W:W12,22:B23,27,32,38"), false).unwrap();
        assert_eq!(ambiguous, "22x31x33x13\n22x42x33x13\n22x42\n");
    }

    #[test]
    fn moves_json_has_every_field() {
        let text = moves_text(&at("W:W33:B34"), true).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value,
            serde_json::json!([{
                "notation": "33x35", "from": 33, "to": 35, "captures": [34],
                "promotes": false, "fen_after": "B:W35:B:H0:F1:+0+0"
            }])
        );
    }

    #[test]
    fn status_lines() {
        assert_eq!(status_line(&Position::start()), "ongoing: white to move");
        assert_eq!(
            status_line(&at("B:WK2,K6:BK50:H14:F30:+0+0")),
            "draw: two kings v one king, 7 moves (art. 18)"
        );
        assert_eq!(
            status_line(&at("W:W46:B41,37")),
            "black: white has no legal move"
        );
        assert_eq!(
            status_line(&at("W:WK5:BK28:H2:F61")),
            "ongoing: king v king, white can capture (art. 21a)"
        );
    }

    #[test]
    fn parallel_divide_matches_one_thread() {
        let pos = Position::start();
        let one = frisian::divide(&pos, 4);
        let two = parallel_divide(&pos, 4, 2);
        assert_eq!(one, two);
    }
}
