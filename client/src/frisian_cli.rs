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
        /// Deepest ply to count (1-20; each ply multiplies the time by about 5).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH as i64))]
        depth: u32,
        /// Also print the leaves below each legal move at the deepest ply.
        #[arg(long)]
        divide: bool,
        /// Worker threads (1-1024; the root moves are shared out among them).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
        threads: u16,
        /// Print one JSON object (counts per depth, divide, times) instead.
        #[arg(long)]
        json: bool,
    },
    /// Print whether the game goes on, and why: `ongoing|draw|white|black: reason`.
    Status {
        #[command(flatten)]
        fen: FenArg,
        /// Print one JSON object (`result`, `reason`) instead.
        #[arg(long)]
        json: bool,
    },
    /// Play moves in notation from a position and print the FEN after them.
    Play {
        #[command(flatten)]
        fen: FenArg,
        /// Moves such as 32-28, 28x19 or 9x18x16, one an argument or several in one
        /// separated by spaces; squares alone separated by spaces are one move, as the
        /// terminal client reads them: "32 28".
        moves: Vec<String>,
    },
}

/// The deepest `perft --depth`: depth 15 from the start already takes hours.
pub const MAX_DEPTH: u32 = 20;
/// The most `perft --threads`: far more than any machine's cores, well short of exhausting
/// the system's threads.
pub const MAX_THREADS: u16 = 1024;

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
            json,
        } => fen
            .position()
            .map(|p| println!("{}", perft(&p, depth, divide, usize::from(threads), json))),
        Command::Status { fen, json } => fen.position().map(|p| {
            if json {
                println!("{}", status_json(&p));
            } else {
                println!("{}", status_line(&p));
            }
        }),
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

/// The perft report: `perft D N` lines (after the divide lines at the deepest ply) and a
/// time line, or one JSON object with the same numbers.
fn perft(pos: &Position, depth: u32, divide: bool, threads: usize, json: bool) -> String {
    let started = Instant::now();
    let cpu_start = cpu_seconds();
    let mut counts = Vec::new();
    let mut divided = Vec::new();
    for d in 1..=depth {
        let parts = parallel_divide(pos, d, threads);
        if divide && d == depth {
            divided = parts
                .iter()
                .map(|(m, n)| (*m, pos.notation(*m), *n))
                .collect();
            divided.sort_by(|a, b| (a.0.from(), a.0.to(), &a.1).cmp(&(b.0.from(), b.0.to(), &b.1)));
        }
        counts.push(parts.iter().map(|(_, n)| n).sum::<u64>());
    }
    let total: u64 = counts.iter().sum();
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_start.and_then(|a| cpu_seconds().map(|b| b - a));
    let rate = |secs: f64| {
        if secs > 0.0 {
            total as f64 / secs / 1e6
        } else {
            0.0
        }
    };
    if json {
        let value = serde_json::json!({
            "depth": depth,
            "counts": counts,
            "divide": divide.then(|| divided
                .iter()
                .map(|(_, notation, n)| serde_json::json!({"move": notation, "leaves": n}))
                .collect::<Vec<_>>()),
            "leaves": total,
            "threads": threads,
            "seconds": wall,
            "cpu_seconds": cpu,
        });
        return value.to_string();
    }
    let mut out = String::new();
    for (_, notation, n) in &divided {
        out += &format!("{notation} {n}\n");
    }
    for (d, count) in counts.iter().enumerate() {
        out += &format!("perft {} {count}\n", d + 1);
    }
    let plural = if threads == 1 { "" } else { "s" };
    out += &format!(
        "time {}, {total} leaves, {:.1} M leaves/s ({threads} thread{plural})",
        duration_text(wall),
        rate(wall)
    );
    if let Some(cpu) = cpu {
        out += &format!(
            "; CPU time {}, {:.1} M leaves/s of CPU",
            duration_text(cpu),
            rate(cpu)
        );
    }
    out
}

/// Seconds as `1.234 s`, or `0.321 ms` below a tenth of a second (a shallow perft).
fn duration_text(seconds: f64) -> String {
    if seconds < 0.1 {
        format!("{:.3} ms", seconds * 1e3)
    } else {
        format!("{seconds:.3} s")
    }
}

/// CPU time of this process (all threads, those already ended too), in seconds, to the
/// nanosecond: on a machine shared with other jobs, wall time says more about the load than
/// about the generator. (`/proc/self/stat` counts in ticks of 10 ms, so a short run read 0.00.)
fn cpu_seconds() -> Option<f64> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; the call only writes into it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    (status == 0).then(|| now.tv_sec as f64 + now.tv_nsec as f64 / 1e9)
}

/// `status --json`: the result word and the reason, `null` while the game goes on with no
/// special rule in force.
fn status_json(pos: &Position) -> String {
    let status = pos.status();
    serde_json::json!({
        "result": status.result_word(),
        "reason": status.reason(),
        "turn": pos.turn().name(),
    })
    .to_string()
}

fn status_line(pos: &Position) -> String {
    let status = pos.status();
    let reason = status
        .reason()
        .unwrap_or_else(|| format!("{} to move", pos.turn()));
    format!("{}: {reason}", status.result_word())
}

/// The moves in `args`: whitespace separates moves, except that an argument of bare square
/// numbers (`"32 28"`, `"9 18 16"`) is one move, its squares in order, as the terminal
/// client reads a typed space.
fn split_moves(args: &[String]) -> Vec<String> {
    let mut moves = Vec::new();
    for arg in args {
        let words: Vec<&str> = arg.split_whitespace().collect();
        if words.len() > 1 && words.iter().all(|w| w.bytes().all(|b| b.is_ascii_digit())) {
            moves.push(words.join(" "));
        } else {
            moves.extend(words.into_iter().map(str::to_owned));
        }
    }
    moves
}

fn play(mut pos: Position, moves: &[String]) -> Result<(), String> {
    for text in split_moves(moves) {
        // Squares separated by spaces: the separator is the position's kind of move
        // (captures are compulsory, so all legal moves are captures or none is).
        let written = if text.contains(' ') {
            let capture = pos.legal_moves().iter().any(Move::is_capture);
            text.replace(' ', if capture { "x" } else { "-" })
        } else {
            text.clone()
        };
        let mv = pos
            .parse_move(&written)
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
    fn perft_reports_the_cpu_time_it_used() {
        let text = perft(&Position::start(), 6, false, 2, false);
        let time = text.lines().last().unwrap();
        let cpu = time.split("CPU time ").nth(1).expect(time);
        let mut words = cpu.split_whitespace();
        let number: f64 = words.next().unwrap().parse().unwrap();
        let unit = words.next().unwrap().trim_end_matches(',');
        assert!(number > 0.0 && ["ms", "s"].contains(&unit), "{time}");
        let json: serde_json::Value =
            serde_json::from_str(&perft(&Position::start(), 4, true, 1, true)).unwrap();
        assert_eq!(json["counts"], serde_json::json!([9, 81, 658, 3874]));
        assert_eq!(json["divide"].as_array().unwrap().len(), 9);
        assert!(json["cpu_seconds"].as_f64().unwrap() > 0.0, "{json}");
    }

    #[test]
    fn status_json_has_the_result_and_reason() {
        let value: serde_json::Value =
            serde_json::from_str(&status_json(&at("W:W46:B41,37"))).unwrap();
        assert_eq!(value["result"], "black");
        assert_eq!(value["reason"], "white has no legal move");
    }

    #[test]
    fn squares_separated_by_spaces_are_one_move_as_in_the_terminal_client() {
        let args = [
            "32 28".to_owned(),
            "19-23 28x19".to_owned(),
            "9 18 16".to_owned(),
        ];
        assert_eq!(split_moves(&args), ["32 28", "19-23", "28x19", "9 18 16"]);
        play(Position::start(), &["32 28".to_owned(), "19 23".to_owned()]).unwrap();
        // A capture written with spaces is a capture.
        let pos = Position::start()
            .parse_move("32-28")
            .map(|m| Position::start().play_legal(&m));
        let pos = pos.unwrap();
        let pos = pos.play_legal(&pos.parse_move("19-23").unwrap());
        play(pos, &["28 19".to_owned()]).unwrap();
    }

    #[test]
    fn parallel_divide_matches_one_thread() {
        let pos = Position::start();
        let one = frisian::divide(&pos, 4);
        let two = parallel_divide(&pos, 4, 2);
        assert_eq!(one, two);
    }
}
