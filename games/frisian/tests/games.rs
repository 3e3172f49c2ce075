//! Replays every game of `games.jsonl` (legal counts, FEN after each ply, final status) and
//! round-trips each through PDN.

mod common;

use frisian::{Position, pdn};

#[test]
fn replay_every_game() {
    let games = common::jsonl("games.jsonl");
    assert_eq!(games.len(), 40);
    for g in &games {
        let id = g["id"].as_str().unwrap();
        let start = Position::from_fen(g["start_fen"].as_str().unwrap()).unwrap();
        let mut pos = start;
        let mut played = Vec::new();
        let fens = g["fens"].as_array().unwrap();
        let counts = g["legal_counts"].as_array().unwrap();
        for (ply, m) in g["moves"].as_array().unwrap().iter().enumerate() {
            let text = m.as_str().unwrap();
            assert_eq!(
                pos.legal_moves().len() as u64,
                counts[ply].as_u64().unwrap(),
                "{id} ply {ply}"
            );
            let mv = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{id} ply {ply} {text}: {e}"));
            assert_eq!(pos.notation(mv), text, "{id} ply {ply}");
            pos = pos
                .play(mv)
                .unwrap_or_else(|e| panic!("{id} ply {ply} {text}: {e}"));
            assert_eq!(pos.fen(), fens[ply].as_str().unwrap(), "{id} ply {ply}");
            played.push(mv);
        }
        assert_eq!(pos.fen(), g["final_fen"].as_str().unwrap(), "{id}");
        assert_eq!(
            common::status_pair(pos.status()),
            common::status_of(&g["status"]),
            "{id}"
        );

        let text = pdn::export(&start, &played, None).unwrap();
        let back = pdn::import(&text).unwrap_or_else(|e| panic!("{id}: {e}\n{text}"));
        assert_eq!(back.start, start, "{id}");
        assert_eq!(back.moves, played, "{id}");
        assert_eq!(back.end, pos, "{id}");
        assert_eq!(back.result, pdn::result_token(pos.outcome()), "{id}");
        assert_eq!(
            pdn::export(&back.start, &back.moves, None).unwrap(),
            text,
            "{id}"
        );
    }
}

#[test]
fn pdn_from_a_custom_start_carries_the_fen_tag() {
    let start = Position::from_fen("B:W26,31,K44:B1,5,6:H0:F10:+0+0").unwrap();
    let mv = start.parse_move("6-11").unwrap();
    let text = pdn::export(&start, &[mv], Some("*")).unwrap();
    assert!(text.contains("[GameType \"40\"]"), "{text}");
    assert!(
        text.contains("[FEN \"B:W26,31,K44:B1,5,6:H0:F10:+0+0\"]"),
        "{text}"
    );
    assert!(text.contains("10... 6-11 *"), "{text}");
    let back = pdn::import(&text).unwrap();
    assert_eq!(back.moves, [mv]);
}
