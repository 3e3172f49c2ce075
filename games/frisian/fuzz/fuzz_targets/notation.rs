//! Input: a FEN on the first line (the start position if it does not read) and a move in
//! notation after it. A move that reads writes a notation that reads back to it, and plays.

#![no_main]

use frisian::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (fen, notation) = text.split_once('\n').unwrap_or(("", text));
    let pos = Position::from_fen(fen).unwrap_or_else(|_| Position::start());
    let Ok(mv) = pos.parse_move(notation) else { return };
    let written = pos.notation(mv);
    assert_eq!(pos.parse_move(&written).expect("written notation must read back"), mv);
    assert_eq!(pos.move_from_route(mv.route()).expect("its route must resolve"), mv);
    let _ = pos.play_legal(&mv).legal_moves();
});
