//! The perft table of `perft.md`: the start position to depth 7 and every special position.

mod common;

use frisian::{Position, divide, perft};

/// Rows `| depth | leaves |` of the start table and `| `FEN` | a, b, … |` of the special one.
fn table() -> (Vec<u64>, Vec<(String, Vec<u64>)>) {
    let text = common::data("perft.md");
    let mut start = Vec::new();
    let mut special = Vec::new();
    for line in text.lines() {
        let cells: Vec<&str> = line
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        match cells[..] {
            [d, n] if d.parse::<u32>().is_ok() => start.push(n.replace(',', "").parse().unwrap()),
            [fen, counts] if fen.starts_with('`') => special.push((
                fen.split('`').nth(1).unwrap().to_string(),
                counts
                    .split(',')
                    .map(|c| c.trim().parse().unwrap())
                    .collect(),
            )),
            _ => {}
        }
    }
    (start, special)
}

#[test]
fn start_position_to_depth_7() {
    let (start, _) = table();
    assert_eq!(start.len(), 13);
    let pos = Position::start();
    for depth in 1..=7 {
        assert_eq!(
            perft(&pos, depth),
            start[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn special_positions() {
    let (_, special) = table();
    assert_eq!(special.len(), 8);
    for (fen, counts) in special {
        let pos = Position::from_fen(&fen).unwrap();
        for (i, &n) in counts.iter().enumerate() {
            assert_eq!(perft(&pos, i as u32 + 1), n, "{fen} depth {}", i + 1);
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::start();
    let parts = divide(&pos, 4);
    assert_eq!(parts.len(), 9);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 3874);
}

#[test]
fn men_keep_orthogonal_continuations() {
    let pos = Position::from_fen("W:W29:B17,21,23").unwrap();
    let moves: Vec<String> = pos
        .legal_moves_with_notation()
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    assert_eq!(moves, ["29x27"]);
}
