//! The secrets the server hands out — session ids, personal access tokens, reset links —
//! and the only form in which it stores them: 256 random bits, base64url; the SHA-256 (hex)
//! kept in the database, so a dump of it logs nobody in.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A new secret: 32 random bytes from rand's thread generator (a CSPRNG seeded and reseeded
/// from the operating system), base64url.
pub(crate) fn new_secret(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(bytes))
}

/// The stored form of `secret`: its SHA-256 in hex. One allocation: a seat token is hashed
/// at every action a player sends.
pub(crate) fn hash(secret: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut hex = String::with_capacity(64);
    for byte in Sha256::digest(secret.as_bytes()) {
        hex.push(char::from(HEX[usize::from(byte >> 4)]));
        hex.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    hex
}

/// Whether two hashes are equal, comparing every byte whatever the first difference (no
/// early exit whose timing tells how much of a guess was right).
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |diff, (x, y)| diff | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_fresh_256_bit_and_stored_only_as_their_hash() {
        let (a, b) = (new_secret("bc_"), new_secret("bc_"));
        assert_ne!(a, b);
        assert_eq!(a.len(), 3 + 43);
        assert_eq!(hash(&a).len(), 64);
        assert_ne!(hash(&a), a);
        assert!(same(&hash(&a), &hash(&a)));
        assert!(!same(&hash(&a), &hash(&b)));
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
