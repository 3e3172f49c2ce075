//! Every record of `positions.jsonl`: legal-move sets, captured sets, promotions, FEN after
//! each move, every listed route, status, perft and the derivation of derived positions.

mod common;

use std::collections::BTreeSet;

use frisian::{MoveError, Position, Square, perft};
use serde_json::Value;

fn squares(v: &Value) -> Vec<Square> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| Square::new(n.as_u64().unwrap() as u8).unwrap())
        .collect()
}

fn check(rec: &Value) {
    let id = rec["id"].as_str().unwrap();
    let pos =
        Position::from_fen(rec["fen"].as_str().unwrap()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let side = rec["side_to_move"].as_str().unwrap();
    assert_eq!(pos.turn().name(), side, "{id}");

    let ours: BTreeSet<String> = pos
        .legal_moves_with_notation()
        .into_iter()
        .map(|(_, n)| n)
        .collect();
    let theirs: BTreeSet<String> = rec["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(ours, theirs, "{id}: legal moves of {}", rec["fen"]);

    for d in rec["move_details"].as_array().unwrap() {
        let notation = d["notation"].as_str().unwrap();
        let mv = pos
            .parse_move(notation)
            .unwrap_or_else(|e| panic!("{id} {notation}: {e}"));
        assert_eq!(pos.notation(mv), notation, "{id}");
        assert_eq!(
            mv.from().number() as u64,
            d["from"].as_u64().unwrap(),
            "{id} {notation}"
        );
        assert_eq!(
            mv.to().number() as u64,
            d["to"].as_u64().unwrap(),
            "{id} {notation}"
        );
        assert_eq!(
            mv.captures().iter().collect::<Vec<_>>(),
            squares(&d["captures"]),
            "{id} {notation}"
        );
        assert_eq!(
            mv.promotes(),
            d["promotes"].as_bool().unwrap(),
            "{id} {notation}"
        );
        let after = if pos.outcome().is_some() {
            let refused = pos.play(mv).unwrap_err();
            assert_eq!(refused.error(), &MoveError::GameOver, "{id}");
            assert_eq!(refused.into_position(), pos, "{id}");
            pos.play_legal(&mv)
        } else {
            pos.play(mv)
                .unwrap_or_else(|e| panic!("{id} {notation}: {e}"))
        };
        assert_eq!(
            after.fen(),
            d["fen_after"].as_str().unwrap(),
            "{id} {notation}"
        );
        for route in d["routes"].as_array().unwrap() {
            let mut full = vec![mv.from()];
            full.extend(squares(route));
            let by_route = pos
                .move_from_route(&full)
                .unwrap_or_else(|e| panic!("{id} {full:?}: {e}"));
            assert_eq!(by_route, mv, "{id} route {full:?}");
            assert_eq!(by_route.route(), &full[..], "{id}");
        }
    }

    let expected = common::status_of(&rec["status"]);
    assert_eq!(
        common::status_pair(pos.status()),
        expected,
        "{id}: status of {}",
        rec["fen"]
    );

    if let Some(counts) = rec.get("perft").and_then(Value::as_array) {
        for (i, c) in counts.iter().enumerate() {
            assert_eq!(
                perft(&pos, i as u32 + 1),
                c.as_u64().unwrap(),
                "{id}: perft {}",
                i + 1
            );
        }
    }

    if let Some(from) = rec.get("derived_from").filter(|v| !v.is_null()) {
        let mut p = Position::from_fen(from["fen"].as_str().unwrap()).unwrap();
        for m in from["moves"].as_array().unwrap() {
            let mv = p
                .parse_move(m.as_str().unwrap())
                .unwrap_or_else(|e| panic!("{id} derive {m}: {e}"));
            p = p.play_legal(&mv);
        }
        assert_eq!(p, pos, "{id}: derived position");
    }
}

#[test]
fn every_reference_position() {
    let records = common::jsonl("positions.jsonl");
    assert_eq!(records.len(), 200);
    for rec in &records {
        check(rec);
    }
}

#[test]
fn canonical_fens_round_trip() {
    for rec in common::jsonl("positions.jsonl") {
        for d in rec["move_details"].as_array().unwrap() {
            let fen = d["fen_after"].as_str().unwrap();
            assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
        }
    }
}
