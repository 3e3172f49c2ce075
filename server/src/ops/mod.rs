//! Operations: how the server is started and configured ([`cli`], [`config`], [`duration`],
//! [`gen_cert`]), stopped ([`shutdown`]) and watched ([`telemetry`], [`activity`],
//! [`memory`]), and the ground-floor vocabulary every floor shares: who a client is
//! ([`address`]) and rate limits ([`rate`]).
//!
//! All but two of these are the ground floor and name nothing above it. [`cli`] and
//! [`config`] are the roof: they read the command line into every floor's settings and start
//! the [`crate::server`].

pub(crate) mod activity;
pub(crate) mod address;
pub mod cli;
pub(crate) mod config;
pub mod duration;
pub mod gen_cert;
pub(crate) mod memory;
pub(crate) mod rate;
pub mod shutdown;
pub(crate) mod telemetry;

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, also after a holder panicked: the server's mutexes guard plain data changed
/// whole under the lock, so it is consistent whatever panicked elsewhere.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
