//! Property tests over random games and random positions: FEN round-trip, notation and
//! routes parse back to the same move, playing and regenerating never panics, and
//! perft(2) equals the sum of divide; the `_in` variants, given the legal moves, agree with
//! the functions that generate them.

use frisian::{Color, MoveError, MoveList, Position, divide, perft};
use proptest::prelude::*;

/// A random game from the start: at each ply the choice picks one legal move.
fn playout(choices: &[usize]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_legal(&moves[c % moves.len()]);
        seen.push(pos);
    }
    seen
}

/// A random placement: each square empty or holding one of four pieces; men never stand on
/// their own crowning row.
fn random_position() -> impl Strategy<Value = Position> {
    placement(0u8..8)
}

/// A random placement of men only: the positions where perft counts captures by shifts alone.
fn random_men_position() -> impl Strategy<Value = Position> {
    placement(prop_oneof![Just(0u8), Just(2u8), 4u8..8])
}

/// A random position from one cell strategy: 0 a white man, 1 a white king, 2 a black man,
/// 3 a black king, anything else empty.
fn placement(cell: impl Strategy<Value = u8>) -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(cell, 50),
        any::<bool>(),
        0u16..30,
        1u16..200,
    )
        .prop_map(|(cells, white_to_move, h, f)| {
            let mut white = Vec::new();
            let mut black = Vec::new();
            for (i, c) in cells.iter().enumerate() {
                let n = i as u8 + 1;
                match c {
                    0 if n > 5 => white.push(n.to_string()),
                    1 => white.push(format!("K{n}")),
                    2 if n < 46 => black.push(n.to_string()),
                    3 => black.push(format!("K{n}")),
                    _ => {}
                }
            }
            let turn = if white_to_move { "W" } else { "B" };
            let fen = format!("{turn}:W{}:B{}:H{h}:F{f}", white.join(","), black.join(","));
            Position::from_fen(&fen).unwrap()
        })
}

proptest! {
    #[test]
    fn random_games_are_consistent(choices in prop::collection::vec(any::<usize>(), 0..120)) {
        for pos in playout(&choices) {
            let fen = pos.fen();
            let back = Position::from_fen(&fen).unwrap();
            prop_assert_eq!(back, pos);
            prop_assert_eq!(back.fen(), fen.clone());
            let _ = pos.status();
            for (mv, notation) in pos.legal_moves_with_notation() {
                prop_assert_eq!(pos.parse_move(&notation).unwrap(), mv, "{} in {}", notation, fen);
                let by_route = pos.move_from_route(mv.route()).unwrap();
                prop_assert_eq!(by_route, mv);
                prop_assert_eq!(by_route.route(), mv.route());
                let after = pos.play_legal(&mv);
                let _ = after.legal_moves();
                let _ = after.status();
            }
        }
    }

    #[test]
    fn random_positions_round_trip_and_never_panic(pos in random_position()) {
        let fen = pos.fen();
        prop_assert_eq!(Position::from_fen(&fen).unwrap(), pos);
        let _ = pos.status();
        let moves = pos.legal_moves();
        for mv in moves.iter() {
            let notation = pos.notation(*mv);
            prop_assert_eq!(pos.parse_move(&notation).unwrap(), *mv, "{} in {}", notation, fen);
            let after = pos.play_legal(mv);
            prop_assert_eq!(Position::from_fen(&after.fen()).unwrap(), after);
            let _ = after.legal_moves();
        }
        let sum: u64 = divide(&pos, 2).iter().map(|(_, n)| n).sum();
        prop_assert_eq!(sum, perft(&pos, 2));
    }

    #[test]
    fn the_in_variants_agree_with_the_generating_ones(
        pos in random_position(),
        other in random_position(),
        pick in any::<usize>(),
    ) {
        let mut legal = MoveList::new();
        pos.legal_moves_into(&mut legal);
        prop_assert_eq!(&legal[..], &pos.legal_moves()[..]);
        let over = pos.status().outcome().is_some();
        // Moves of this position, and moves of another one (mostly illegal here).
        let theirs = other.legal_moves();
        let candidates = legal.iter().chain(theirs.iter().skip(pick % (theirs.len() + 1)).take(3));
        for mv in candidates {
            let route = mv.route();
            prop_assert_eq!(pos.move_from_route_in(route, &legal), pos.move_from_route(route));
            let played = pos.play(*mv);
            prop_assert_eq!(pos.play_in(*mv, &legal), played.clone());
            if over {
                prop_assert_eq!(played.map_err(|e| e.error().clone()), Err(MoveError::GameOver));
            }
            if legal.contains(mv) {
                prop_assert_eq!(pos.notation_in(*mv, &legal), pos.notation(*mv));
            }
        }
    }

    #[test]
    fn perft_1_counts_the_legal_moves(
        choices in prop::collection::vec(any::<usize>(), 0..120),
        men in random_men_position(),
        mixed in random_position(),
    ) {
        for pos in playout(&choices).into_iter().chain([men, mixed]) {
            prop_assert_eq!(perft(&pos, 1), pos.legal_moves().len() as u64, "{}", pos.fen());
        }
    }

    #[test]
    fn perft_2_is_the_sum_of_divide_in_games(choices in prop::collection::vec(any::<usize>(), 0..80)) {
        let pos = *playout(&choices).last().unwrap();
        let sum: u64 = divide(&pos, 2).iter().map(|(_, n)| n).sum();
        prop_assert_eq!(sum, perft(&pos, 2));
    }

    #[test]
    fn any_text_is_refused_or_read_without_panic(text in "\\PC{0,60}") {
        let _ = Position::from_fen(&text);
        let _ = Position::start().parse_move(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[WB]:[WB][K0-9,\\-]{0,40}:[WB][K0-9,\\-]{0,40}(:H[0-9]{1,3})?(:F[0-9]{1,3})?(:\\+[0-9]{1,3}\\+[0-9]{1,3})?") {
        if let Ok(pos) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&pos.fen()).unwrap(), pos);
            prop_assert!(pos.turn() == Color::White || pos.turn() == Color::Black);
        }
    }
}
