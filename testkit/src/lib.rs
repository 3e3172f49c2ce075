//! Real components for Boardcast's tests, started by the tests and stopped when dropped.
//!
//! A development-only crate: the server's own tests and the end-to-end tests both use it, so
//! the harness is written once. [`postgres`] runs a real PostgreSQL server on a free loopback
//! port in a temporary directory, [`redis`] a real Redis server the same way; [`client`] is the
//! one WebSocket client every test talks to the server with.

use std::net::TcpListener;
use std::path::Path;

pub mod client;
pub mod postgres;
pub mod redis;

/// Whether this is a CI run (`CI` set and not `false`/`0`): there a missing component fails
/// the tests instead of skipping them.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !value.is_empty() && value != "false" && value != "0")
}

/// A loopback port that was free a moment ago.
pub(crate) fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|err| format!("no free loopback port: {err}"))
}

/// The last lines of a log file, for an error message.
pub fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}
