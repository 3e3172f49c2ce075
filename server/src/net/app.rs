//! What every request handler and connection shares: the server's parts, wired once by
//! [`crate::server`] and handed down. A leaf, so the arrows point one way:
//! server → http → connection → app.

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::accounts::http::Site;
use crate::channels::Channels;
use crate::matches::Directory;
use crate::matches::local::Hub;
use crate::net::address::TrustedProxies;
use crate::net::limits::ConnectionLimit;
use crate::net::origin::AllowedOrigins;
use crate::net::per_address::AddressLimits;
use crate::net::tls::Tls;
use crate::ops::config::Config;
use crate::ops::shutdown::{Shutdown, Tasks};

/// Everything a request handler or connection needs; cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    /// Where matches are: the lookups a connection makes (by id, invite code, seat token; the
    /// lobby) go through this seam, so a cluster directory can take the hub's place.
    pub directory: Arc<dyn Directory>,
    /// This process's matches: creating them, and reading finished ones back from storage.
    pub hub: Hub,
    /// MinitChess channels and Frisian TV.
    pub channels: Channels,
    pub limit: ConnectionLimit,
    pub address_limits: AddressLimits,
    pub proxies: TrustedProxies,
    /// TLS for the port, when --tls-cert and --tls-key are given.
    pub tls: Option<Tls>,
    pub shutdown: Shutdown,
    pub tasks: Tasks,
    /// Accounts, sessions and tokens (issue 30).
    pub accounts: Accounts,
    /// The play-now pool of this node (issue 31).
    pub(crate) play_now: crate::net::pairing::PlayNow,
    /// Club events and their directors (issue 33).
    pub(crate) events: crate::events::Events,
    /// Who follows which event over the WebSocket, and the pushes to them.
    pub(crate) event_followers: crate::events::follow::Followers,
}

impl App {
    /// The pages that may open a WebSocket or change an account: `--allowed-origin`s and the
    /// public URL's origin.
    pub(crate) fn origins(&self) -> AllowedOrigins {
        AllowedOrigins::new(&self.config.allowed_origins)
            .with_public(self.config.public_url.as_ref())
    }

    /// What the account and event routes are handed of the server.
    pub(crate) fn site(&self) -> Site {
        Site {
            accounts: self.accounts.clone(),
            origins: self.origins(),
            secure: self.tls.is_some()
                || (self.config.public_url.as_ref())
                    .is_some_and(|url| url.origin().starts_with("https://")),
        }
    }
}
