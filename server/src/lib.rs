//! The Boardcast server: one port that serves WebSocket play and spectating at `/ws` and plain
//! HTTP beside it (the web client, `/healthz`, finished games as PDN).
//!
//! Data flows one way: socket → decode → match/channel task (single writer) → rules → event →
//! storage → encode once → every subscriber.

pub mod accounts;
pub mod channels;
pub mod cluster;
pub mod matches;
pub mod net;
pub mod ops;
pub mod ratings;
pub mod refusal;
pub mod room;
pub mod server;
pub mod storage;

pub use ops::config::Config;
pub use server::{Server, serve};
