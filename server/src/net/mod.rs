//! The network floor: accepting TCP and TLS ([`accept`], [`tls`]), the HTTP routes ([`http`],
//! [`web`], [`metrics_page`]), who the client is ([`address`], [`origin`], [`public_url`]),
//! what one address may do ([`limits`], [`per_address`]), and the WebSocket [`connection`] that
//! turns frames into commands for the matches and channels below it. What they share is [`app`].

pub mod accept;
pub mod address;
pub mod app;
pub mod connection;
pub mod http;
pub mod limits;
pub mod metrics_page;
pub mod origin;
pub mod per_address;
pub mod public_url;
pub mod tls;
pub mod web;
