//! Random boards: the bit-set move generator against a direct transcription of the module's
//! square-by-square scan (RULES.md §2), and layouts that survive a round trip.

use minitchess::{Board, Color, Move, Square, legal_moves};
use proptest::prelude::*;

/// The module's `Scan`: step (dx, dy) from (x, y) in board-string coordinates (y = 0 is
/// rank 6); `single` stops after one step; `capture` is Some(true) for capture-only, Some(false)
/// for never-capture, None for either.
fn scan(
    b: &[u8],
    x: i32,
    y: i32,
    (dx, dy): (i32, i32),
    single: bool,
    capture: Option<bool>,
) -> Vec<(usize, usize)> {
    let white = |c: u8| c.is_ascii_uppercase();
    let own = white(b[(y * 5 + x) as usize]);
    let (mut cx, mut cy) = (x, y);
    let mut out = Vec::new();
    loop {
        cx += dx;
        cy += dy;
        if !(0..5).contains(&cx) || !(0..6).contains(&cy) {
            break;
        }
        let c = b[(cy * 5 + cx) as usize];
        let mut last = single;
        if c != b'.' {
            if white(c) == own || capture == Some(false) {
                break;
            }
            last = true;
        } else if capture == Some(true) {
            break;
        }
        out.push(((y * 5 + x) as usize, (cy * 5 + cx) as usize));
        if last {
            break;
        }
    }
    out
}

fn oracle(layout: &str, side: Color) -> Vec<String> {
    let b = layout.as_bytes();
    let orth = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let diag = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut moves = Vec::new();
    for i in 0..30 {
        let c = b[i];
        if c == b'.' || c.is_ascii_uppercase() != (side == Color::White) {
            continue;
        }
        let (x, y) = ((i % 5) as i32, (i / 5) as i32);
        let mut add = |dirs: &[(i32, i32)], single, capture| {
            for &d in dirs {
                moves.extend(scan(b, x, y, d, single, capture));
            }
        };
        match c.to_ascii_uppercase() {
            b'K' => {
                add(&orth, true, None);
                add(&diag, true, None);
            }
            b'Q' => {
                add(&orth, false, None);
                add(&diag, false, None);
            }
            b'R' => add(&orth, false, None),
            b'B' => {
                add(&orth, true, Some(false));
                add(&diag, false, None);
            }
            b'N' => add(&knight, true, None),
            _ => {
                let dy = if side == Color::White { -1 } else { 1 };
                add(&[(-1, dy), (1, dy)], true, Some(true));
                add(&[(0, dy)], true, Some(false));
            }
        }
    }
    let name = |i: usize| Square::from_index(i).unwrap();
    let mut texts: Vec<String> = moves
        .into_iter()
        .map(|(f, t)| {
            Move {
                from: name(f),
                to: name(t),
            }
            .to_string()
        })
        .collect();
    texts.sort();
    texts
}

fn layouts() -> impl Strategy<Value = String> {
    // Mostly empty squares, like real positions.
    let cell = prop_oneof![
        12 => Just('.'),
        1 => prop::sample::select(b"KQRBNPkqrbnp".map(char::from).to_vec()),
    ];
    prop::collection::vec(cell, 30).prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn generator_matches_the_module_scan(layout in layouts()) {
        let board = Board::from_layout(&layout, &[]).unwrap();
        for side in [Color::White, Color::Black] {
            let got: Vec<String> = legal_moves(&board, side).iter().map(ToString::to_string).collect();
            prop_assert_eq!(&got, &oracle(&layout, side), "{} {}", layout, side);
        }
    }

    #[test]
    fn layouts_round_trip(layout in layouts()) {
        let board = Board::from_layout(&layout, &[]).unwrap();
        prop_assert_eq!(board.layout(), layout);
        for sq in Square::all() {
            let ch = board.piece(sq).map_or('.', |p| p.to_char());
            prop_assert_eq!(ch, board.layout().as_bytes()[sq.index()] as char);
        }
    }
}
