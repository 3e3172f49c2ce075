//! Invite codes: what a player gives a friend to join a private match (`boardcast join CODE`,
//! or the link `/i/CODE`). A code is the only secret of a private match, so it must not be
//! guessed; and a person types it, so it must be easy to read and type.
//!
//! A code is [`LENGTH`] characters of [`ALPHABET`] (32 letters and digits without 0/O and 1/I),
//! written in two groups of five (`FRJ4K-D7MQX`): 32^10 = 2^50 ≈ 1.13 × 10^15 codes. Typed
//! codes are read in any case, with or without the dash ([`normalize`]).
//!
//! Why that is enough, with the throttle on wrong guesses ([`crate::net::per_address`]: by default
//! 20 a minute per address and 600 a minute on the whole server, whatever the number of
//! addresses):
//!
//! * Against a full server (`--max-matches` 10,000, all open private matches) one guess hits
//!   with probability 10^4 / 1.13 × 10^15 ≈ 8.9 × 10^-12, so the expected number of guesses to
//!   a first hit is 1.13 × 10^11. At the server-wide 10 wrong guesses a second that takes
//!   1.13 × 10^10 s ≈ 357 years; one address alone (20 a minute) would need ~10,700 years.
//! * Even with both throttles lifted, the rate measured from 94 addresses (597 guesses/s each,
//!   56,000/s in all) against 100 open matches needs 1.13 × 10^13 guesses ≈ 2.0 × 10^8 s
//!   ≈ 6.4 years. The six-character codes this replaces (2^30) fell in ~3 minutes.
//!
//! Codes are checked against the open matches when issued, so no two open matches share one.

use rand::Rng;

/// The characters of a code: no 0/O or 1/I to misread.
pub(crate) const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// Characters in a code, not counting the dash.
pub(crate) const LENGTH: usize = 10;

/// Where the dash goes: after this many characters.
const GROUP: usize = 5;

/// A fresh random code, in its written form (`FRJ4K-D7MQX`).
pub(crate) fn new_code() -> String {
    let mut rng = rand::rng();
    let plain: String = (0..LENGTH)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    written(&plain)
}

/// A typed code in the form codes are issued in: upper case, and the dash where it belongs
/// whether it was typed or not (`frj4kd7mqx` and `FRJ4K-D7MQX` are the same code). A code of
/// another length (the six-character codes of matches created before codes grew) is only
/// upper-cased, so it still finds its match.
pub(crate) fn normalize(typed: &str) -> String {
    let plain: String = typed
        .chars()
        .filter(|c| *c != '-')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if plain.len() == LENGTH {
        written(&plain)
    } else {
        typed.to_ascii_uppercase()
    }
}

/// `plain` (exactly [`LENGTH`] ASCII characters) with the dash put in.
fn written(plain: &str) -> String {
    format!("{}-{}", &plain[..GROUP], &plain[GROUP..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_two_groups_of_five_from_the_alphabet() {
        let code = new_code();
        assert_eq!(code.len(), LENGTH + 1, "{code}");
        let (first, second) = code.split_once('-').unwrap();
        assert_eq!((first.len(), second.len()), (GROUP, LENGTH - GROUP));
        assert!(
            code.bytes()
                .filter(|b| *b != b'-')
                .all(|b| ALPHABET.contains(&b)),
            "{code}"
        );
        // 2^50 codes: two draws alike would mean a broken generator.
        assert_ne!(new_code(), new_code());
    }

    #[test]
    fn typed_codes_are_read_in_any_case_with_or_without_the_dash() {
        for typed in ["FRJ4K-D7MQX", "frj4kd7mqx", "Frj4k-d7mqx", "FRJ4KD7-MQX"] {
            assert_eq!(normalize(typed), "FRJ4K-D7MQX", "{typed}");
        }
        // Codes of other lengths (issued before codes grew) keep their shape.
        assert_eq!(normalize("frj4kd"), "FRJ4KD");
        assert_eq!(normalize("ABC"), "ABC");
    }
}
