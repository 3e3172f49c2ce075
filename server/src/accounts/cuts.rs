//! Open WebSocket connections of a session that has ended: "log out everywhere", a password
//! change or reset, a revoked token, a logout, a closed account. The HTTP route that ends a
//! session also ends the connections it opened, on every node: this node at once through its
//! registry, the others through the cluster's Redis bus (`bc:accounts`, carried by
//! `cluster::cuts`; the accounts never see the bus), each of which cuts its own.
//!
//! Redis may lose a message, and the admin command (`admin close`) runs in another process
//! that tells no server anything; so every member's connection also checks its credential
//! again every `--session-recheck` (`net::connection`), which catches whatever the bus did
//! not carry. A cut connection closes with [`close::SESSION_ENDED`].
//!
//! [`close::SESSION_ENDED`]: boardcast_protocol::limits::close::SESSION_ENDED

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, mpsc};

use super::Via;

/// Endings waiting to go to the other nodes; past that they are dropped and the other
/// nodes' recheck catches up.
const MAILBOX: usize = 1024;

/// Which credentials of an account have ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Ending {
    /// Every browser session of the account, but `keep` (the SHA-256 of the session that
    /// changed the password): "log out everywhere", a password change or reset.
    Sessions { account: i64, keep: Option<String> },
    /// One browser session (its SHA-256): a logout.
    Session { account: i64, hash: String },
    /// One personal access token: revoked.
    Token { account: i64, id: i64 },
    /// Every credential: the account was closed.
    Account { account: i64 },
    /// These personal access tokens: password logins' (`boardcast login`) ended with the
    /// browser sessions. (Last, so the bus's older messages keep their encoding.)
    Tokens { account: i64, ids: Vec<i64> },
}

impl Ending {
    fn account(&self) -> i64 {
        match self {
            Ending::Sessions { account, .. }
            | Ending::Session { account, .. }
            | Ending::Token { account, .. }
            | Ending::Account { account }
            | Ending::Tokens { account, .. } => *account,
        }
    }

    /// Whether a connection that authenticated `via` has ended.
    fn ends(&self, via: &Via) -> bool {
        match (self, via) {
            (Ending::Account { .. }, _) => true,
            (Ending::Sessions { keep, .. }, Via::Session(hash)) => keep.as_ref() != Some(hash),
            (Ending::Session { hash: ended, .. }, Via::Session(hash)) => ended == hash,
            (Ending::Token { id: ended, .. }, Via::Token { id, .. }) => ended == id,
            (Ending::Tokens { ids, .. }, Via::Token { id, .. }) => ids.contains(id),
            _ => false,
        }
    }
}

/// The member connections of this node, by account, and the bus that tells the other nodes.
/// Cheap to clone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Cuts {
    shared: Arc<Shared>,
}

#[derive(Debug, Default)]
struct Shared {
    open: Mutex<HashMap<i64, Vec<Open>>>,
    next: AtomicU64,
    /// Set once when this node joins a cluster: where this node's endings go for the others.
    others: OnceLock<mpsc::Sender<Ending>>,
}

#[derive(Debug)]
struct Open {
    key: u64,
    via: Via,
    cut: Arc<Notify>,
}

/// A registered connection: [`Registered::cut`] completes when its credential ends; dropping
/// it takes the connection off the registry.
#[derive(Debug)]
pub(crate) struct Registered {
    cuts: Cuts,
    account: i64,
    key: u64,
    cut: Arc<Notify>,
}

impl Registered {
    /// Completes once this connection's session or token has ended.
    pub(crate) async fn cut(&self) {
        self.cut.notified().await
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut open = self.cuts.open();
        if let Some(list) = open.get_mut(&self.account) {
            list.retain(|entry| entry.key != self.key);
            if list.is_empty() {
                open.remove(&self.account);
            }
        }
    }
}

impl Cuts {
    fn open(&self) -> MutexGuard<'_, HashMap<i64, Vec<Open>>> {
        // Plain lists, each change whole under the lock: still consistent after a panic.
        self.shared
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Registers a connection of `account` that authenticated `via`.
    pub(crate) fn register(&self, account: i64, via: Via) -> Registered {
        let key = self.shared.next.fetch_add(1, Ordering::Relaxed);
        let cut = Arc::new(Notify::new());
        self.open().entry(account).or_default().push(Open {
            key,
            via,
            cut: cut.clone(),
        });
        Registered {
            cuts: self.clone(),
            account,
            key,
            cut,
        }
    }

    /// Ends the connections `ending` names, here and (in a cluster) on every other node.
    pub(crate) fn end(&self, ending: Ending) {
        if let Some(others) = self.shared.others.get()
            && others.try_send(ending.clone()).is_err()
        {
            // The other nodes' recheck ends them within one interval.
            tracing::warn!("cannot tell the other nodes of an ended session");
        }
        self.cut_here(&ending);
    }

    /// Ends this node's connections that `ending` names; returns how many.
    pub(crate) fn cut_here(&self, ending: &Ending) -> usize {
        let open = self.open();
        let Some(list) = open.get(&ending.account()) else {
            return 0;
        };
        let mut cut = 0;
        for entry in list.iter().filter(|entry| ending.ends(&entry.via)) {
            // A stored permit: a connection that is not waiting right now still sees it.
            entry.cut.notify_one();
            cut += 1;
        }
        cut
    }

    /// Makes this node's endings go to the other nodes too: the cluster takes them from the
    /// receiver, and hands theirs to [`Cuts::cut_here`]. `None` if it joined already.
    pub(crate) fn join_cluster(&self) -> Option<mpsc::Receiver<Ending>> {
        let (tx, rx) = mpsc::channel(MAILBOX);
        self.shared.others.set(tx).ok()?;
        Some(rx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn session(hash: &str) -> Via {
        Via::Session(hash.into())
    }

    async fn is_cut(registered: &Registered) -> bool {
        tokio::time::timeout(Duration::from_millis(50), registered.cut())
            .await
            .is_ok()
    }

    #[tokio::test]
    async fn an_ending_cuts_exactly_the_connections_of_the_credentials_it_names() {
        let cuts = Cuts::default();
        let phone = cuts.register(1, session("phone"));
        let laptop = cuts.register(1, session("laptop"));
        let bot = cuts.register(
            1,
            Via::Token {
                id: 7,
                hash: "t".into(),
                scopes: vec![],
            },
        );
        let other = cuts.register(2, session("phone"));

        // A password changed on the laptop ends the phone's session only.
        cuts.end(Ending::Sessions {
            account: 1,
            keep: Some("laptop".into()),
        });
        assert!(is_cut(&phone).await);
        assert!(!is_cut(&laptop).await);
        assert!(!is_cut(&bot).await);
        assert!(!is_cut(&other).await);

        cuts.end(Ending::Token { account: 1, id: 7 });
        assert!(is_cut(&bot).await);
        // A password login's token, ended with the browser sessions; a named one stays.
        let token = |id| Via::Token {
            id,
            hash: "t".into(),
            scopes: vec![],
        };
        let terminal = cuts.register(1, token(8));
        let script = cuts.register(1, token(9));
        cuts.end(Ending::Tokens {
            account: 1,
            ids: vec![8],
        });
        assert!(is_cut(&terminal).await);
        assert!(!is_cut(&script).await);
        cuts.end(Ending::Account { account: 1 });
        assert!(is_cut(&laptop).await);
        assert!(!is_cut(&other).await);
    }

    #[tokio::test]
    async fn a_closed_connection_leaves_the_registry() {
        let cuts = Cuts::default();
        let phone = cuts.register(1, session("phone"));
        drop(phone);
        assert!(cuts.open().is_empty());
        assert_eq!(cuts.cut_here(&Ending::Account { account: 1 }), 0);
    }
}
