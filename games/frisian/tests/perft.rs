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

/// Leaves counted by the men's capture count at the last ply, against the move list (which
/// the position suite checks route by route): a capture that comes back round a loop (two
/// routes, one move); 19 and 18 distinct captures of seven and five pieces, more than the
/// count compares before it hands over to the full search; six 14-piece captures of 1,664
/// routes.
#[test]
fn men_capture_leaves_count_each_move_once() {
    let cases: [(&str, [u64; 3]); 4] = [
        ("W:W28:B9,18,20,29:H0:F1:+0+0", [1, 0, 0]),
        (
            "W:W45:B13,14,18,19,22,24,27,28,33,37,38,39,40,44",
            [19, 196, 428],
        ),
        (
            "W:W24,30,33:B8,12,14,17,18,19,23,28,32,34,37,38,39,42,43",
            [18, 28, 65],
        ),
        (
            "W:W50:B18,22,23,24,27,29,32,33,34,38,40,42,43,44,K49",
            [6, 12, 20],
        ),
    ];
    for (fen, counts) in cases {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(pos.legal_moves().len() as u64, counts[0], "{fen}");
        for (depth, &n) in (1..).zip(&counts) {
            assert_eq!(perft(&pos, depth), n, "{fen} depth {depth}");
        }
        let below: u64 = divide(&pos, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(below, counts[2], "{fen}");
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
