//! Frisian matches: each one a single-writer actor ([`actor`]) over a pure state machine
//! ([`state`]) with server-authoritative clocks ([`clock`]).

pub mod actor;
pub mod clock;
pub mod state;

pub use actor::{Command, MatchHandle, Settings};
pub use state::{Action, MatchState, Record, Refusal, Setup};
