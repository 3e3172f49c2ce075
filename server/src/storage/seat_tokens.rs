//! Seat tokens at rest: only their hashes. A match event that hands out a seat stores the
//! SHA-256 of its token (`"token_hash"`, [`crate::accounts::secret::hash`], as accounts
//! store their sessions), and both backends index that field, so a finished match is found by
//! the hash of a presented token. A database file or a backup therefore seats nobody.
//!
//! Databases written before kept the token itself (`"token"`). Opening one rewrites each such
//! body with [`hashed_body`] — the one function both backends migrate with, so they agree
//! byte for byte and `migrate` copies one to the other unchanged — and drops the index of
//! plain tokens. A body the migration did not reach still reads back: the record hashes a
//! plain token on read ([`crate::matches::Record::seat_token_hash`]).

use serde_json::Value;

use crate::accounts::secret;

/// The body with its plain seat token (a JSON string field `"token"`) replaced by that
/// token's hash (`"token_hash"`); `None` if it holds none (not JSON, or no such field), so
/// it is left as it is.
pub(crate) fn hashed_body(body: &str) -> Option<String> {
    let Ok(Value::Object(mut record)) = serde_json::from_str::<Value>(body) else {
        return None;
    };
    let Some(Value::String(token)) = record.remove("token") else {
        return None;
    };
    record.insert("token_hash".to_owned(), Value::String(secret::hash(&token)));
    serde_json::to_string(&record).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_token_becomes_its_hash_and_any_other_body_is_left_alone() {
        let old = r#"{"event":{"player_joined":{"side":"white"}},"ack":null,"token":"abc"}"#;
        let new = hashed_body(old).unwrap();
        assert!(!new.contains(r#""abc""#), "{new}");
        let record: Value = serde_json::from_str(&new).unwrap();
        assert_eq!(
            record["token_hash"],
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(record["event"]["player_joined"]["side"], "white");
        assert_eq!(record.get("token"), None);
        for untouched in [
            "x",
            r#"{"event":"x"}"#,
            r#"{"event":"x","token":null}"#,
            r#"{"event":"x","token_hash":"ab"}"#,
            r#"["token"]"#,
        ] {
            assert_eq!(hashed_body(untouched), None, "{untouched}");
        }
    }
}
