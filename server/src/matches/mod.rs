//! Frisian matches: each one a single-writer actor ([`actor`]) over a pure state machine
//! ([`state`], deciding in [`decide`], folding events in with [`apply`], shown through
//! [`view`], stored as [`record`]s) with server-authoritative clocks ([`clock`]).

pub mod actor;
pub mod apply;
pub mod clock;
pub mod decide;
pub mod record;
pub mod state;
pub mod view;

pub use actor::{Command, MatchHandle, Settings};
pub use decide::{Action, Decision};
pub use record::{Record, Setup};
pub use state::{MatchState, Refusal};
