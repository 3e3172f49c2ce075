//! Operations: how the server is started and configured ([`cli`], [`config`], [`duration`],
//! [`gen_cert`]), stopped ([`shutdown`]) and watched ([`telemetry`], [`activity`],
//! [`memory`]).

pub(crate) mod activity;
pub mod cli;
pub(crate) mod config;
pub mod duration;
pub mod gen_cert;
pub(crate) mod memory;
pub mod shutdown;
pub(crate) mod telemetry;
