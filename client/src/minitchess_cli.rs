//! `boardcast minitchess …`: offline MinitChess engine games, one at a time or in batches.
//! Errors go to stderr with exit status 2.
//!
//! The JSON records are written by hand rather than through serde: every value is a fixed
//! ASCII alphabet (checked serials, engine names, squares, layouts), so nothing needs escaping,
//! and batch mode stays within a few percent of the bare game loop.

use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, Subcommand};
use minitchess::{Board, BombNumber, Color, Engine, Game, Serial, Square};

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one engine game: one move per line, then `result: …` (or one JSON object).
    Game(GameArgs),
    /// Play a batch: read `SERIAL WHITE BLACK` lines (like `CH3SS5 L4 K7`) from standard
    /// input and write one JSON object per line.
    Games,
}

#[derive(Debug, Args)]
pub struct GameArgs {
    /// Serial number: upper-case letters and digits, like CH3SS5.
    #[arg(long)]
    serial: Serial,
    /// White's engine and seed, like L4 (engines D, K, L, M, S; seeds 0-9).
    #[arg(long)]
    white: Engine,
    /// Black's engine and seed, like K7.
    #[arg(long)]
    black: Engine,
    /// Start from this 30-character board (a6 … e6, a5 … e1; KQRBNP white, kqrbnp black).
    #[arg(long)]
    board: Option<String>,
    /// Squares of the board whose queens are promoted pawns, like a5,c3.
    #[arg(long, value_delimiter = ',', requires = "board")]
    promoted: Vec<Square>,
    /// The ply to play first (0-79; White moves on even plies).
    #[arg(long)]
    ply: Option<u32>,
    /// Print one JSON object (moves, result, winner, reason, boards, digits) instead.
    #[arg(long)]
    json: bool,
}

enum Failure {
    /// Bad input: exit status 2.
    Input(String),
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

pub fn run(command: Command) -> ExitCode {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let result = match command {
        Command::Game(args) => game(&args, &mut out),
        Command::Games => games(io::stdin().lock(), &mut out),
    }
    .and_then(|()| out.flush().map_err(Failure::from));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            // Whatever was complete before the bad input is still delivered.
            let _ = out.flush();
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            eprintln!("error: cannot write the output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A game to play and report: the start position is `None` for the usual start.
struct Setup<'a> {
    serial: &'a Serial,
    white: Engine,
    black: Engine,
    position: Option<(Board, u32)>,
}

fn game(args: &GameArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = match (&args.board, args.ply) {
        (None, None) => None,
        (board, ply) => {
            let board = match board {
                Some(layout) => Board::from_layout(layout, &args.promoted)
                    .map_err(|e| Failure::Input(format!("bad board {layout:?}: {e}")))?,
                None => Board::start(),
            };
            Some((board, ply.unwrap_or(0)))
        }
    };
    let setup = Setup {
        serial: &args.serial,
        white: args.white,
        black: args.black,
        position,
    };
    if args.json {
        write_record(&setup, out)
    } else {
        let game = play(&setup, |_| {})?;
        for mv in game.moves() {
            writeln!(out, "{mv}")?;
        }
        let outcome = game
            .outcome()
            .expect("a game run to its end has an outcome");
        writeln!(out, "result: {outcome}")?;
        Ok(())
    }
}

/// Plays every good line; a bad line is skipped with its number, so one typo in a batch of
/// thousands costs one game, and the error (exit status 2) names every line skipped.
fn games(input: impl BufRead, out: &mut impl Write) -> Result<(), Failure> {
    let mut bad = Vec::new();
    for (number, line) in input.lines().enumerate() {
        let line = line.map_err(|e| Failure::Input(format!("cannot read standard input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        match game_line(&line, out) {
            Ok(()) => {}
            Err(Failure::Input(message)) => bad.push(format!("line {}: {message}", number + 1)),
            Err(output) => return Err(output),
        }
    }
    if bad.is_empty() {
        Ok(())
    } else {
        // `run` writes `error: ` before the first; the rest get theirs here.
        Err(Failure::Input(bad.join("\nerror: ")))
    }
}

/// One `SERIAL WHITE BLACK` line: its game's record.
fn game_line(line: &str, out: &mut impl Write) -> Result<(), Failure> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [serial, white, black] = fields[..] else {
        return Err(Failure::Input(format!(
            "expected SERIAL WHITE BLACK, like CH3SS5 L4 K7, got {line:?}"
        )));
    };
    let serial: Serial = serial
        .parse()
        .map_err(|e| Failure::Input(format!("bad serial {serial:?}: {e}")))?;
    let white: Engine = white
        .parse()
        .map_err(|e| Failure::Input(format!("bad white engine {white:?}: {e}")))?;
    let black: Engine = black
        .parse()
        .map_err(|e| Failure::Input(format!("bad black engine {black:?}: {e}")))?;
    let setup = Setup {
        serial: &serial,
        white,
        black,
        position: None,
    };
    write_record(&setup, out)
}

/// Plays the whole game, handing `each_board` the start board and the board after every ply.
fn play(setup: &Setup<'_>, mut each_board: impl FnMut(&Board)) -> Result<Game, Failure> {
    let serial = setup.serial.as_str();
    let mut game = match setup.position {
        None => Game::new(serial, setup.white, setup.black),
        Some((board, ply)) => Game::from_position(serial, setup.white, setup.black, board, ply),
    }
    .map_err(|e| Failure::Input(e.to_string()))?;
    each_board(game.board());
    while game.step().is_some() {
        each_board(game.board());
    }
    Ok(game)
}

/// One line of JSON with the reference files' fields, in their order.
fn write_record(setup: &Setup<'_>, out: &mut impl Write) -> Result<(), Failure> {
    let mut boards: Vec<u8> = Vec::with_capacity(81 * 33);
    let game = play(setup, |board| {
        if !boards.is_empty() {
            boards.push(b',');
        }
        boards.push(b'"');
        boards.extend_from_slice(&board.layout_bytes());
        boards.push(b'"');
    })?;
    let outcome = game
        .outcome()
        .expect("a game run to its end has an outcome");
    let mut line: Vec<u8> = Vec::with_capacity(boards.len() + 8 * game.moves().len() + 400);
    write!(
        line,
        r#"{{"serial":"{}","white":"{}","black":"{}","moves":["#,
        setup.serial, setup.white, setup.black
    )?;
    for (i, mv) in game.moves().iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        line.push(b'"');
        line.extend_from_slice(&mv.text_bytes());
        line.push(b'"');
    }
    let winner = outcome.winner.map_or("null", |c| match c {
        Color::White => r#""white""#,
        Color::Black => r#""black""#,
    });
    write!(
        line,
        r#"],"result":"{outcome}","winner":{winner},"reason":"{}","boards":["#,
        outcome.reason
    )?;
    line.extend_from_slice(&boards);
    let bomb = BombNumber::from_serial(setup.serial.as_str())
        .map_err(|e| Failure::Input(e.to_string()))?;
    line.extend_from_slice(br#"],"base_number":""#);
    line.extend(ascii_digits(bomb.digits()));
    line.extend_from_slice(br#"","white_random":""#);
    line.extend(ascii_digits(game.digits(Color::White).as_array()));
    line.extend_from_slice(br#"","black_random":""#);
    line.extend(ascii_digits(game.digits(Color::Black).as_array()));
    line.push(b'"');
    if let Some((board, ply)) = &setup.position {
        let promoted: Vec<String> = board
            .promoted_queens()
            .iter()
            .map(|sq| format!("\"{sq}\""))
            .collect();
        write!(
            line,
            r#","start_board":"{board}","start_ply":{ply},"promoted_queens":[{}]"#,
            promoted.join(",")
        )?;
    }
    line.extend_from_slice(b"}\n");
    out.write_all(&line)?;
    Ok(())
}

fn ascii_digits(digits: &[u8]) -> impl Iterator<Item = u8> + '_ {
    digits.iter().map(|d| b'0' + d)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = include_str!("../../games/minitchess/tests/data/games.jsonl");
    const POSITIONS: &str = include_str!("../../games/minitchess/tests/data/positions.jsonl");

    fn output(f: impl FnOnce(&mut Vec<u8>) -> Result<(), Failure>) -> Result<String, String> {
        let mut out = Vec::new();
        match f(&mut out) {
            Ok(()) => Ok(String::from_utf8(out).unwrap()),
            Err(Failure::Input(m)) => Err(m),
            Err(Failure::Output(e)) => panic!("{e}"),
        }
    }

    fn args(line: &[&str]) -> GameArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct Wrapper {
            #[command(subcommand)]
            command: Command,
        }
        let full = ["boardcast", "game"].iter().chain(line);
        match Wrapper::try_parse_from(full).map(|w| w.command) {
            Ok(Command::Game(a)) => a,
            Ok(Command::Games) => unreachable!(),
            Err(e) => panic!("{e}"),
        }
    }

    fn value(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn batch_output_equals_every_reference_game() {
        let input: String = GAMES
            .lines()
            .map(|l| {
                let v = value(l);
                format!("{} {} {}\n", v["serial"], v["white"], v["black"]).replace('"', "")
            })
            .collect();
        let text = output(|out| games(input.as_bytes(), out)).unwrap();
        let produced: Vec<_> = text.lines().map(value).collect();
        let expected: Vec<_> = GAMES.lines().map(value).collect();
        assert_eq!(produced.len(), 152);
        assert_eq!(produced, expected);
    }

    #[test]
    fn json_game_from_a_position_equals_the_reference() {
        for line in POSITIONS.lines() {
            let v = value(line);
            let s = |k: &str| v[k].as_str().unwrap().to_owned();
            let promoted: Vec<String> = v["promoted_queens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect();
            let ply = v["start_ply"].to_string();
            let mut argv = vec!["--serial", &s("serial")]
                .into_iter()
                .map(str::to_owned)
                .collect::<Vec<_>>();
            argv.extend(["--white".into(), s("white"), "--black".into(), s("black")]);
            argv.extend([
                "--board".into(),
                s("start_board"),
                "--ply".into(),
                ply,
                "--json".into(),
            ]);
            if !promoted.is_empty() {
                argv.extend(["--promoted".into(), promoted.join(",")]);
            }
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            let text = output(|out| game(&args(&argv), out)).unwrap();
            assert_eq!(value(&text), v, "{line}");
        }
    }

    #[test]
    fn text_output_is_moves_then_result() {
        let a = args(&["--serial", "CH3SS5", "--white", "D1", "--black", "K4"]);
        let text = output(|out| game(&a, out)).unwrap();
        let expected = "d2-d3\na5-a4\nb2-b3\nb5-b4\nb3-a4\na6-a5\nc1-d2\na5-a4\nd2-b4\na4-b3\n\
                        c2-b3\nresult: white wins (king captured)\n";
        assert_eq!(text, expected);
    }

    #[test]
    fn a_bad_line_is_reported_with_its_number_and_the_batch_goes_on() {
        let input = "CH3SS5 L4 K7\nCH3SS5 X4 K7\nCH3SS5 D1 K4\nnonsense\n";
        let mut out = Vec::new();
        let Err(Failure::Input(message)) = games(input.as_bytes(), &mut out) else {
            panic!("the bad lines are not reported");
        };
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
        assert!(message.starts_with("line 2: bad white engine"), "{message}");
        assert!(
            message.contains("\nerror: line 4: expected SERIAL WHITE BLACK"),
            "{message}"
        );
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let bad_board = args(&[
            "--serial", "CH3SS5", "--white", "L4", "--black", "K7", "--board", "kqbnr",
        ]);
        let e = output(|out| game(&bad_board, out)).unwrap_err();
        assert!(e.contains("30 characters"), "{e}");
        let late = args(&[
            "--serial", "CH3SS5", "--white", "L4", "--black", "K7", "--ply", "80",
        ]);
        assert!(output(|out| game(&late, out)).unwrap_err().contains("80"));
        for (input, needle) in [
            ("ch3ss5 L4 K7\n", "line 1: bad serial"),
            ("CH3SS5 L4 K7\nCH3SS5 X4 K7\n", "line 2: bad white engine"),
            ("CH3SS5 L4 K10\n", "bad black engine"),
            ("CH3SS5 L4\n", "expected SERIAL WHITE BLACK"),
        ] {
            let e = output(|out| games(input.as_bytes(), out)).unwrap_err();
            assert!(e.contains(needle), "{input:?}: {e}");
        }
    }
}
