//! Any text given to the FEN reader is refused or read; what is read writes a canonical FEN
//! that reads back to the same position.

#![no_main]

use frisian::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(pos) = Position::from_fen(text) else { return };
    let fen = pos.fen();
    let again = Position::from_fen(&fen).expect("a canonical FEN must read back");
    assert_eq!(again, pos);
    assert_eq!(again.fen(), fen);
    let _ = pos.status();
});
