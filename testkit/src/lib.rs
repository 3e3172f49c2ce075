//! Real components for Boardcast's tests, started by the tests and stopped when dropped.
//!
//! A development-only crate: the server's own tests and the end-to-end tests both use it, so
//! the harness is written once. [`postgres`] runs a real PostgreSQL server on a free loopback
//! port in a temporary directory; [`client`] is the one WebSocket client every test talks to the
//! server with.

pub mod client;
pub mod postgres;

/// Whether this is a CI run (`CI` set and not `false`/`0`): there a missing component fails
/// the tests instead of skipping them.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}
