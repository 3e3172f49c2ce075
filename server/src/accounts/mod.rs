//! Accounts (issue 30): names nobody else can take, passwords, sessions for browsers,
//! personal access tokens for programs, throttles, and the HTTP routes and admin commands
//! over them. Storage keeps the rows ([`crate::storage::accounts`]); this room keeps the
//! rules.
//!
//! - [`names`]: what a name may be; [`password`]: Argon2id hashing on low-priority threads of its
//!   own behind a bounded queue, and the strength check; [`secret`]: session ids and tokens, stored hashed;
//!   [`sessions`]: who a request or WebSocket upgrade acts as; [`throttle`]: failed-login
//!   limits; [`exports`]: how many PDN downloads run at once; [`seen`]: a member's last use; [`cuts`]: ending the open connections of an ended session; [`http`]: the
//!   `/api/…` routes; [`admin`]: `boardcast-server admin …`.

pub(crate) mod admin;
pub(crate) mod cuts;
pub(crate) mod exports;
pub(crate) mod http;
pub(crate) mod names;
pub(crate) mod password;
pub(crate) mod secret;
pub(crate) mod seen;
pub(crate) mod sessions;
pub(crate) mod throttle;

use std::sync::Arc;

use crate::storage::accounts::AccountStore;

pub(crate) use sessions::{AuthError, Via, Who};

/// The accounts of this server: storage, the hasher and the throttles. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Accounts {
    pub store: Arc<dyn AccountStore>,
    pub hasher: password::Hasher,
    pub throttles: throttle::Throttles,
    pub(crate) cuts: cuts::Cuts,
    pub(crate) seen: seen::Seen,
    pub(crate) exports: exports::Exports,
}

impl Accounts {
    pub fn new(store: Arc<dyn AccountStore>) -> Accounts {
        Accounts {
            store,
            hasher: password::Hasher::default(),
            throttles: throttle::Throttles::default(),
            cuts: cuts::Cuts::default(),
            seen: seen::Seen::default(),
            exports: exports::Exports::default(),
        }
    }

    /// Member `account` connected or played now: "last seen" moves on (at most once a
    /// minute, [`seen`]).
    pub(crate) fn used(&self, account: i64) {
        self.seen.used(&self.store, account)
    }
}
