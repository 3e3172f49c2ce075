//! Frisian matches: each one a single-writer actor ([`actor`], addressed through its
//! [`handle`]) over a pure state machine ([`state`], deciding in [`decide`], folding events in
//! with [`apply`], shown through [`view`], stored as [`record`]s) with server-authoritative
//! clocks ([`clock`]); its last events are [`kept`] for replay. What a match needs from
//! outside itself is the [`directory`] seam.
//!
//! Beside them: the single-node directory of every match ([`local`]), the invite codes of
//! private matches ([`invite`]) and Frisian TV ([`tv`]), which features one of them.

pub mod actor;
pub mod apply;
pub mod clock;
pub mod decide;
pub mod directory;
pub mod handle;
pub mod heartbeat;
pub mod invite;
pub mod kept;
pub mod local;
pub mod ownership;
pub mod player;
pub mod plies;
pub mod record;
pub mod retry;
pub mod state;
pub mod tv;
pub mod view;

pub use actor::Settings;
pub use decide::{Action, Decision};
pub use directory::Directory;
pub use handle::{Command, Mailbox, MatchHandle};
pub use ownership::{Ownership, Owning};
pub use player::{Player, SeatKey};
pub use record::{Record, Setup};
pub use state::MatchState;
