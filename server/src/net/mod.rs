//! The network floor: accepting TCP and TLS ([`accept`], [`tls`]), the HTTP routes ([`http`],
//! [`web`], [`metrics_page`]), who the client is ([`address`], [`origin`], [`public_url`]),
//! what one address may do ([`limits`], [`per_address`]), and the WebSocket [`connection`] that
//! turns frames into commands for the matches and channels below it. What they share is [`app`].

pub mod accept;
pub(crate) mod address;
pub(crate) mod app;
pub(crate) mod connection;
pub(crate) mod http;
pub(crate) mod limits;
pub(crate) mod metrics_page;
pub(crate) mod origin;
pub(crate) mod pairing;
pub(crate) mod per_address;
pub(crate) mod public_url;
pub(crate) mod tls;
pub mod web;
