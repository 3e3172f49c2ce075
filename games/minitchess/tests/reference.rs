//! Replays every reference game (copies of `shared/minitchess/*.jsonl`) one ply at a time and
//! compares digits, moves, boards, winner, reason and result exactly.

use minitchess::{Board, BombNumber, Color, Game, Square};
use serde::Deserialize;

#[derive(Deserialize)]
struct Record {
    serial: String,
    white: String,
    black: String,
    moves: Vec<String>,
    result: String,
    winner: Option<String>,
    reason: String,
    boards: Vec<String>,
    base_number: String,
    white_random: String,
    black_random: String,
    start_board: Option<String>,
    start_ply: Option<u32>,
    promoted_queens: Option<Vec<String>>,
}

fn records(text: &str) -> Vec<Record> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("reference line parses"))
        .collect()
}

fn replay(r: &Record, what: &str) {
    let id = format!("{what} {} {} {}", r.serial, r.white, r.black);
    let white = r.white.parse().unwrap();
    let black = r.black.parse().unwrap();
    assert_eq!(
        BombNumber::from_serial(&r.serial).unwrap().to_string(),
        r.base_number,
        "{id}"
    );
    let mut game = match &r.start_board {
        None => Game::new(&r.serial, white, black).unwrap(),
        Some(layout) => {
            let promoted: Vec<Square> = r
                .promoted_queens
                .iter()
                .flatten()
                .map(|s| s.parse().unwrap())
                .collect();
            let board = Board::from_layout(layout, &promoted).unwrap();
            let start = r.start_ply.expect("positions carry a start ply");
            Game::from_position(&r.serial, white, black, board, start).unwrap()
        }
    };
    assert_eq!(
        game.digits(Color::White).to_string(),
        r.white_random,
        "{id}"
    );
    assert_eq!(
        game.digits(Color::Black).to_string(),
        r.black_random,
        "{id}"
    );
    assert_eq!(game.board().layout(), r.boards[0], "{id} start");
    for (i, expected) in r.moves.iter().enumerate() {
        assert_eq!(game.outcome(), None, "{id}: over before move {i}");
        let mv = game.step().unwrap_or_else(|| panic!("{id}: no move {i}"));
        assert_eq!(&mv.to_string(), expected, "{id}: move {i}");
        assert_eq!(
            game.board().layout(),
            r.boards[i + 1],
            "{id}: board after move {i}"
        );
    }
    assert_eq!(game.step(), None, "{id}: game goes on past the reference");
    let outcome = game.outcome().expect("finished");
    assert_eq!(outcome.winner.map(|c| c.to_string()), r.winner, "{id}");
    assert_eq!(outcome.reason.to_string(), r.reason, "{id}");
    assert_eq!(outcome.to_string(), r.result, "{id}");
    assert_eq!(game.moves().len(), r.moves.len(), "{id}");

    let mut whole = match &r.start_board {
        None => Game::new(&r.serial, white, black).unwrap(),
        Some(_) => return,
    };
    whole.run_to_end();
    assert_eq!(
        whole.moves(),
        game.moves(),
        "{id}: run_to_end differs from stepping"
    );
}

#[test]
fn every_reference_game_from_the_start() {
    let games = records(include_str!("data/games.jsonl"));
    assert_eq!(games.len(), 152);
    for r in &games {
        replay(r, "games.jsonl");
    }
}

#[test]
fn every_reference_game_from_a_custom_position() {
    let positions = records(include_str!("data/positions.jsonl"));
    assert_eq!(positions.len(), 40);
    for r in &positions {
        replay(r, "positions.jsonl");
    }
}

#[test]
fn fixtures_match_the_shared_reference_when_present() {
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/minitchess/");
    for (name, copy) in [
        ("games.jsonl", include_str!("data/games.jsonl")),
        ("positions.jsonl", include_str!("data/positions.jsonl")),
    ] {
        if let Ok(original) = std::fs::read_to_string(format!("{shared}{name}")) {
            assert_eq!(original, copy, "tests/data/{name} is out of date");
        }
    }
}
