//! The Boardcast server: one port that serves WebSocket play and spectating at `/ws` and plain
//! HTTP beside it (the web client, `/healthz`, finished games as PDN).
//!
//! Data flows one way: socket → decode → match/channel task (single writer) → rules → event →
//! storage → encode once → every subscriber.

//! The floors, from the ground up: [`ops`] (shutdown, telemetry, configuration) and
//! [`storage`]; [`room`] (a room's followers and their outboxes); the domain, [`matches`] and
//! [`channels`]; [`cluster`], which spreads the matches over nodes; [`net`], which accepts
//! connections and speaks the protocol; and [`server`], which wires them.
//!
//! Every module is private to the crate. What is public is the facade below: what the
//! binary, the integration tests, the load tool and the benches drive.
#![warn(unreachable_pub)]

mod accounts;
mod channels;
mod cluster;
mod events;
mod matches;
mod net;
mod ops;
// Public until the ratings branch wires it into the server (nothing here uses it yet).
pub mod ratings;
mod refusal;
mod room;
mod server;
mod storage;

// The server, its configuration and its command line.
pub use ops::config::Config;
pub use ops::{cli, duration, gen_cert, shutdown};
pub use server::{Server, serve};

// What tests drive beside the server: its socket options, its HTTP router, its storage, and
// matches and engine games written or played straight through them.
pub use channels::game::{GameSpec, RevealedGame};
pub use matches::{Player, Record, Setup};
pub use net::{accept, web};
pub use storage::coordination::NodeRef;
pub use storage::migrate::migrate;
pub use storage::{ChannelWrite, Database, LeaderboardDelta, Storage, Write};

// The cluster's pieces that its tests and the relay bench (examples/relay_cost.rs) use.
pub use cluster::bus::Bus;
pub use cluster::remote::relay_mirror;
pub use cluster::spread;
pub use room::fanout::Fanout;
pub use room::outbox::{Inbox, Outbox, outbox};
