//! How many PDN exports (`/@/{name}/games.pdn`) run at once: at most [`PER_ADDRESS`] from one
//! client address and [`ON_NODE`] on the node; past either the download is refused `503 busy`
//! with a `Retry-After`, as a login is when the hashing queue is full.
//!
//! An export holds nothing of the database while its client reads (it reads a page of games
//! at a time, [`crate::storage::accounts::send_pdn_pages`]), but each one is a task, a page of
//! games in memory and a read per page for as long as its client takes, and a client that
//! never reads keeps it for ever. The bound makes that cost small and fixed: a few hostile
//! clients cannot start thousands, and one address cannot take the node's whole share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::net::address::ClientAddr;
use crate::ops::lock;

/// Exports from one client address at once: a member downloading on two devices, or a
/// retried download whose first connection the server has not seen close yet.
pub(crate) const PER_ADDRESS: usize = 2;
/// Exports on the node at once.
pub(crate) const ON_NODE: usize = 16;

/// The exports running now, by client address. Cheap to clone.
#[derive(Debug, Clone, Default)]
pub(crate) struct Exports {
    running: Arc<Mutex<HashMap<ClientAddr, usize>>>,
}

/// One running export's place; it is given back when dropped (the download ended, or its
/// client went away).
#[derive(Debug)]
pub(crate) struct ExportSlot {
    running: Arc<Mutex<HashMap<ClientAddr, usize>>>,
    client: ClientAddr,
}

impl Exports {
    /// A place for one more export from `client`, or `None` if it or the node has as many
    /// running as it may.
    pub(crate) fn start(&self, client: ClientAddr) -> Option<ExportSlot> {
        let mut running = lock(&self.running);
        let on_node: usize = running.values().sum();
        let mine = running.get(&client).copied().unwrap_or(0);
        if on_node >= ON_NODE || mine >= PER_ADDRESS {
            return None;
        }
        *running.entry(client).or_default() += 1;
        Some(ExportSlot {
            running: self.running.clone(),
            client,
        })
    }
}

impl Drop for ExportSlot {
    fn drop(&mut self) {
        let mut running = lock(&self.running);
        if let Some(count) = running.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                running.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(last: u8) -> ClientAddr {
        ClientAddr::of(std::net::IpAddr::from([192, 0, 2, last]))
    }

    #[test]
    fn an_address_runs_two_exports_at_once_and_the_node_sixteen() {
        let exports = Exports::default();
        let first = exports.start(client(1)).expect("first");
        let _second = exports.start(client(1)).expect("second");
        assert!(
            exports.start(client(1)).is_none(),
            "a third from one address"
        );
        drop(first);
        let _again = exports
            .start(client(1))
            .expect("a place given back is free");

        let others: Vec<_> = (2..=15)
            .map(|last| exports.start(client(last)).expect("room on the node"))
            .collect();
        assert_eq!(others.len() + 2, ON_NODE);
        assert!(exports.start(client(99)).is_none(), "the node is full");
        drop(others);
        assert!(lock(&exports.running).values().sum::<usize>() == 2);
        assert!(exports.start(client(99)).is_some());
    }

    /// Over HTTP: two downloads from one address that are not being read keep their places,
    /// a third is refused 503 `busy` with a `Retry-After`, another address is served, and a
    /// download dropped gives its place back.
    #[tokio::test]
    async fn a_third_unread_download_from_one_address_is_refused_busy_until_one_is_dropped() {
        use axum::body::Body;
        use axum::http::{Request, StatusCode, header};
        use tower::ServiceExt;

        use crate::net::address::Peer;
        use crate::storage::tests::{Place, SqliteFile, ten_games_of_anne};

        let place = SqliteFile::new();
        let (storage, _) = place.open().await;
        ten_games_of_anne(&storage).await;
        let site = crate::accounts::http::Site {
            accounts: crate::accounts::Accounts::new(storage.accounts()),
            origins: crate::net::origin::AllowedOrigins::new(&[]),
            secure: false,
        };
        let router: axum::Router = crate::accounts::http::routes(site.clone());
        let download = |last: u8| {
            let mut request = Request::get("/@/anne/games.pdn")
                .body(Body::empty())
                .unwrap();
            request.extensions_mut().insert(Peer {
                client: client(last),
                via_proxy: false,
            });
            router.clone().oneshot(request)
        };
        // Ten games: more than the export's channel holds, so an unread one keeps running.
        let first = download(1).await.unwrap();
        let second = download(1).await.unwrap();
        assert_eq!(
            (first.status(), second.status()),
            (StatusCode::OK, StatusCode::OK)
        );
        let refused = download(1).await.unwrap();
        assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
        let retry: u64 = refused.headers()[header::RETRY_AFTER]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1..=3).contains(&retry), "{retry}");
        let body = axum::body::to_bytes(refused.into_body(), 4096)
            .await
            .unwrap();
        let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(error["error"]["code"], "busy", "{error}");

        let other = download(2).await.unwrap();
        let all = axum::body::to_bytes(other.into_body(), 1 << 20)
            .await
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&all).matches("[Event").count(), 10);

        drop(first);
        // The export notices at its next send that its download is gone.
        let mut again = download(1).await.unwrap();
        for _ in 0..100 {
            if again.status() == StatusCode::OK {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            again = download(1).await.unwrap();
        }
        assert_eq!(again.status(), StatusCode::OK);
        drop((second, again));
        storage.close().await;
    }
}
