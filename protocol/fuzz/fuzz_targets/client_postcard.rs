//! Fuzzes the postcard decoder of frames a client sends: it must never panic, and whatever it
//! accepts must encode again and decode back to the same value.

#![no_main]

use boardcast_protocol::{Encoding, FrameRef};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(message) = Encoding::Postcard.decode_client(FrameRef::Binary(data)) {
        let again = Encoding::Postcard.encode(&message);
        assert_eq!(
            Encoding::Postcard.decode_client(again.as_ref()),
            Ok(message)
        );
    }
});
