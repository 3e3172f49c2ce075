//! The Boardcast server: one port that serves WebSocket play and spectating at `/ws` and plain
//! HTTP beside it (`/healthz`, PGN-style game downloads).
//!
//! Data flows one way: socket → decode → match/channel task (single writer) → rules → event →
//! storage → encode once → every subscriber.

pub mod cli;
pub mod config;
pub mod server;
pub mod shutdown;

pub use config::Config;
pub use server::{Server, serve};
