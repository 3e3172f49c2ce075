//! `hub-test-engine`: a small Frisian engine speaking the Hub protocol (version 2) exactly, for
//! the bridge tests. It plays a legal move chosen from its seed and the position, and can be
//! told to misbehave once, at its N-th search, the way real engines do:
//!
//! ```text
//! hub-test-engine [--seed N] [--name NAME] [--think-ms MS]
//!                 [--fault crash|hang|garbage|illegal|error --fault-at N]
//! ```
//!
//! `crash` exits with status 3 without answering, `hang` never answers (the bridge must let its
//! clock run out or stop it), `garbage` prints a line that is not a move, `illegal` answers a
//! well-formed move that is not legal, `error` answers `error message=…` instead of a move.
//! Every line it reads and writes is also what Scan reads and writes; unknown commands are
//! ignored, as the protocol asks.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use frisian::Position;
use frisian_hub::{EngineMoveError, Line, move_text, parse_engine_move, parse_position_text};

#[derive(Clone, Copy, PartialEq)]
enum Fault {
    Crash,
    Hang,
    Garbage,
    Illegal,
    Error,
}

struct Options {
    seed: u64,
    name: String,
    think: Duration,
    fault: Option<(Fault, u32)>,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        seed: 1,
        name: "HubTest".to_string(),
        think: Duration::ZERO,
        fault: None,
    };
    let mut fault = None;
    let mut fault_at = 1;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => options.seed = value()?.parse().map_err(|_| "bad --seed")?,
            "--name" => options.name = value()?,
            "--think-ms" => {
                options.think =
                    Duration::from_millis(value()?.parse().map_err(|_| "bad --think-ms")?)
            }
            "--fault" => {
                fault = Some(match value()?.as_str() {
                    "crash" => Fault::Crash,
                    "hang" => Fault::Hang,
                    "garbage" => Fault::Garbage,
                    "illegal" => Fault::Illegal,
                    "error" => Fault::Error,
                    other => return Err(format!("unknown fault {other}")),
                })
            }
            "--fault-at" => fault_at = value()?.parse().map_err(|_| "bad --fault-at")?,
            // Scan is started as `scan hub`: accept the word so tests can mimic it.
            "hub" => {}
            other => return Err(format!("unknown argument {other}")),
        }
    }
    options.fault = fault.map(|f| (f, fault_at));
    Ok(options)
}

/// splitmix64: a reproducible choice from the seed and the ply, no state between searches.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn set_position(line: &Line) -> Result<(Position, u64), String> {
    let text = line.get("pos").ok_or("pos without pos=")?;
    let mut position = parse_position_text(text).map_err(|e| e.to_string())?;
    let mut plies = 0;
    for mv in line.get("moves").unwrap_or("").split_whitespace() {
        let parsed =
            parse_engine_move(&position, mv).map_err(|e: EngineMoveError| e.to_string())?;
        position = position.play(parsed).map_err(|e| e.error().to_string())?;
        plies += 1;
    }
    Ok((position, plies))
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("hub-test-engine: {message}");
            return ExitCode::from(2);
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut position: Option<(Position, u64)> = None;
    let mut searches = 0u32;
    let say = |out: &mut std::io::StdoutLock, line: &str| {
        // A closed stdout means the GUI is gone: quit like stdin's end.
        writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
    };
    for input in stdin.lock().lines() {
        let Ok(input) = input else { break };
        let Ok(line) = Line::parse(&input) else {
            continue;
        };
        let ok = match line.command.as_str() {
            "hub" => {
                let id = Line::new("id")
                    .arg("name", &options.name)
                    .arg("version", "1.0")
                    .arg("author", "Boardcast tests")
                    .arg("country", "Netherlands");
                say(&mut out, &id.to_string())
                    && say(
                        &mut out,
                        r#"param name=variant value=normal type=enum values="normal frisian""#,
                    )
                    && say(&mut out, "param name=threads value=1 type=int min=1 max=16")
                    && say(&mut out, "param name=book value=true type=bool")
                    && say(&mut out, "wait")
            }
            "init" => say(&mut out, "ready"),
            "ping" => say(&mut out, "pong"),
            "pos" => match set_position(&line) {
                Ok(p) => {
                    position = Some(p);
                    true
                }
                Err(message) => {
                    position = None;
                    say(
                        &mut out,
                        &Line::new("error").arg("message", message).to_string(),
                    )
                }
            },
            "go" => {
                searches += 1;
                std::thread::sleep(options.think);
                let fault = options
                    .fault
                    .filter(|&(_, at)| at == searches)
                    .map(|(f, _)| f);
                match (fault, &position) {
                    (Some(Fault::Crash), _) => return ExitCode::from(3),
                    (Some(Fault::Hang), _) => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    (Some(Fault::Garbage), _) => say(&mut out, "done move=\u{fffd}%%"),
                    (Some(Fault::Illegal), _) => say(&mut out, "done move=1-50"),
                    (Some(Fault::Error), _) => say(&mut out, r#"error message="told to fail""#),
                    (None, None) => say(&mut out, r#"error message="go without pos""#),
                    (None, Some((pos, plies))) => {
                        let legal = pos.legal_moves();
                        if legal.is_empty() {
                            say(&mut out, r#"error message="no legal move""#)
                        } else {
                            let pick =
                                mix(options.seed ^ mix(*plies + pos.fullmove_number() as u64));
                            let mv = legal[(pick % legal.len() as u64) as usize];
                            say(&mut out, "info depth=1 score=0.00 nodes=1")
                                && say(&mut out, &format!("done move={}", move_text(&mv)))
                        }
                    }
                }
            }
            "quit" => break,
            // set-param, level, new-game, stop, ponder-hit and anything unknown need no answer.
            _ => true,
        };
        if !ok {
            break;
        }
    }
    ExitCode::SUCCESS
}
