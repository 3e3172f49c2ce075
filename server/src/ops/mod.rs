//! Operations: how the server is started and configured ([`cli`], [`config`], [`duration`],
//! [`gen_cert`]), stopped ([`shutdown`]) and watched ([`telemetry`], [`activity`],
//! [`memory`]).

pub mod activity;
pub mod cli;
pub mod config;
pub mod duration;
pub mod gen_cert;
pub mod memory;
pub mod shutdown;
pub mod telemetry;
