//! Fuzzes the json decoder of frames a client sends: it must never panic, and whatever it
//! accepts must encode again and decode back to the same value.

#![no_main]

use boardcast_protocol::{Encoding, FrameRef};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(message) = Encoding::Json.decode_client(FrameRef::Text(data)) {
        let again = Encoding::Json.encode(&message);
        assert_eq!(Encoding::Json.decode_client(again.as_ref()), Ok(message));
    }
});
