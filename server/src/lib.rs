//! The Boardcast server: one port that serves WebSocket play and spectating at `/ws` and plain
//! HTTP beside it (the web client, `/healthz`, finished games as PDN).
//!
//! Data flows one way: socket → decode → match/channel task (single writer) → rules → event →
//! storage → encode once → every subscriber.

pub mod accept;
pub mod accounts;
pub mod activity;
pub mod address;
pub mod app;
pub mod channels;
pub mod cli;
pub mod cluster;
pub mod config;
pub mod connection;
pub mod crowd;
pub mod duration;
pub mod fanout;
pub mod frisian_tv;
pub mod gen_cert;
pub mod http;
pub mod hub;
pub mod invite;
pub mod limits;
pub mod matches;
pub mod memory;
pub mod metrics_page;
pub mod origin;
pub mod outbox;
pub mod per_address;
pub mod public_url;
pub mod refusal;
pub mod server;
pub mod shutdown;
pub mod storage;
pub mod telemetry;
pub mod tls;
pub mod web;

pub use config::Config;
pub use server::{Server, serve};
