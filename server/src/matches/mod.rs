//! Frisian matches: each one a single-writer actor ([`actor`], addressed through its
//! [`handle`]) over a pure state machine ([`state`], deciding in [`decide`], folding events in
//! with [`apply`], shown through [`view`], stored as [`record`]s) with server-authoritative
//! clocks ([`clock`]); its last events are [`kept`] for replay. What a match needs from
//! outside itself is the [`directory`] seam.
//!
//! Beside them: the single-node directory of every match ([`local`]), the invite codes of
//! private matches ([`invite`]) and Frisian TV ([`tv`]), which features one of them.

pub(crate) mod acks;
pub(crate) mod actor;
pub(crate) mod apply;
pub(crate) mod chat;
pub(crate) mod clock;
pub(crate) mod decide;
pub(crate) mod directory;
pub(crate) mod grace;
pub(crate) mod handle;
pub(crate) mod heartbeat;
pub(crate) mod invite;
pub(crate) mod kept;
pub(crate) mod lag;
pub(crate) mod local;
pub(crate) mod ownership;
pub(crate) mod player;
pub(crate) mod plies;
pub(crate) mod record;
pub(crate) mod retry;
pub(crate) mod state;
pub(crate) mod takeback;
pub(crate) mod tv;
pub(crate) mod view;

pub(crate) use actor::Settings;
pub(crate) use chat::ChatRequest;
pub(crate) use decide::Action;
pub(crate) use directory::Directory;
pub(crate) use handle::{Command, Mailbox, MatchHandle};
pub(crate) use ownership::Ownership;
pub use player::Player;
pub(crate) use player::SeatKey;
pub use record::{Record, Setup};
pub(crate) use state::MatchState;
