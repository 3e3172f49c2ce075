//! Who a request acts as: the `boardcast_session` cookie (browsers) or `Authorization:
//! Bearer` (programs), looked up by the SHA-256 of the secret on every request — nothing is
//! cached, so a logout on any node of a cluster is seen by every node at once.
//!
//! A session ends after [`IDLE`] unused or [`ABSOLUTE`] after its login, whichever comes
//! first; its last use is written at most every [`TOUCH_EVERY`].

use std::time::Duration;

use axum::http::{HeaderMap, header};
use boardcast_protocol::account::Scope;

use super::{Accounts, secret};
use crate::storage::accounts::AccountRow;
use crate::storage::now_ms;

/// The session cookie's name.
pub(crate) const COOKIE: &str = "boardcast_session";
/// A session unused this long has ended.
pub(crate) const IDLE: Duration = Duration::from_secs(30 * 24 * 3600);
/// A session this old has ended, however used.
pub(crate) const ABSOLUTE: Duration = Duration::from_secs(365 * 24 * 3600);
/// How often a session's (and an account's) last use is written.
const TOUCH_EVERY: Duration = Duration::from_secs(3600);

/// How a request proved who it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// A browser session; the SHA-256 of its id.
    Session(String),
    /// A personal access token: its id, the SHA-256 of it, and its scopes.
    Token {
        id: i64,
        hash: String,
        scopes: Vec<Scope>,
    },
}

/// The account a request or connection acts as.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Who {
    pub id: i64,
    pub name: String,
    pub bot: bool,
    pub admin: bool,
    pub created_ms: i64,
    pub via: Via,
}

impl Who {
    fn of(account: &AccountRow, via: Via) -> Who {
        Who {
            id: account.id,
            name: account.name.clone(),
            bot: account.bot,
            admin: account.admin,
            created_ms: account.created_ms,
            via,
        }
    }
}

/// Why a credential was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuthError {
    /// Unknown, expired or revoked.
    Unauthenticated,
    /// The account is closed.
    Closed,
    /// Storage could not answer.
    Storage(String),
}

/// The session cookie's value, if the request carries one.
pub(crate) fn cookie(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim())
        .filter(|value| !value.is_empty())
}

/// The bearer token, if the request carries one.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then_some(token.trim())
        .filter(|token| !token.is_empty())
}

impl Accounts {
    /// Starts a new session for `account`: a fresh id (never one the client chose), stored
    /// hashed. Returns the id for the cookie.
    pub async fn start_session(&self, account: i64) -> Result<String, AuthError> {
        let id = secret::new_secret("");
        self.store
            .create_session(secret::hash(&id), account, now_ms())
            .await
            .map_err(|err| AuthError::Storage(err.to_string()))?;
        Ok(id)
    }

    /// Who the request acts as: `Ok(None)` with neither cookie nor bearer (a guest). A
    /// bearer is taken over a cookie.
    pub async fn authenticate(&self, headers: &HeaderMap) -> Result<Option<Who>, AuthError> {
        if let Some(token) = bearer(headers) {
            return self.by_token(token).await.map(Some);
        }
        match cookie(headers) {
            Some(session) => self.by_session(session).await.map(Some),
            None => Ok(None),
        }
    }

    /// The account of session id `session`, if it is live.
    pub async fn by_session(&self, session: &str) -> Result<Who, AuthError> {
        self.by_session_hash(secret::hash(session)).await
    }

    /// Who `who`'s credential acts as now: the same again, or why it no longer does (an
    /// open connection's recheck, [`super::cuts`]).
    pub(crate) async fn recheck(&self, who: &Who) -> Result<Who, AuthError> {
        match &who.via {
            Via::Session(hash) => self.by_session_hash(hash.clone()).await,
            Via::Token { hash, .. } => self.by_token_hash(hash.clone()).await,
        }
    }

    async fn by_session_hash(&self, hash: String) -> Result<Who, AuthError> {
        let storage = |err: crate::storage::StorageError| AuthError::Storage(err.to_string());
        let Some(row) = self.store.session(hash.clone()).await.map_err(storage)? else {
            return Err(AuthError::Unauthenticated);
        };
        let now = now_ms();
        let age = |since: i64| Duration::from_millis(now.saturating_sub(since).max(0) as u64);
        if age(row.used_ms) >= IDLE || age(row.created_ms) >= ABSOLUTE {
            self.store.delete_session(hash).await.map_err(storage)?;
            return Err(AuthError::Unauthenticated);
        }
        let account = self.live_account(row.account).await?;
        if age(row.used_ms) >= TOUCH_EVERY {
            self.store
                .touch_session(hash.clone(), now)
                .await
                .map_err(storage)?;
            self.store
                .touch_account(account.id, now)
                .await
                .map_err(storage)?;
        }
        Ok(Who::of(&account, Via::Session(hash)))
    }

    /// The account of personal access token `token`.
    pub async fn by_token(&self, token: &str) -> Result<Who, AuthError> {
        self.by_token_hash(secret::hash(token)).await
    }

    async fn by_token_hash(&self, hash: String) -> Result<Who, AuthError> {
        let storage = |err: crate::storage::StorageError| AuthError::Storage(err.to_string());
        let Some(row) = self.store.token(hash.clone()).await.map_err(storage)? else {
            return Err(AuthError::Unauthenticated);
        };
        let account = self.live_account(row.account).await?;
        let now = now_ms();
        if row
            .used_ms
            .is_none_or(|used| now.saturating_sub(used) >= TOUCH_EVERY.as_millis() as i64)
        {
            self.store.touch_token(row.id, now).await.map_err(storage)?;
            self.store
                .touch_account(account.id, now)
                .await
                .map_err(storage)?;
        }
        let scopes = row.scopes.split(' ').filter_map(Scope::parse).collect();
        Ok(Who::of(
            &account,
            Via::Token {
                id: row.id,
                hash,
                scopes,
            },
        ))
    }

    async fn live_account(&self, id: i64) -> Result<AccountRow, AuthError> {
        match self.store.account_by_id(id).await {
            Ok(Some(account)) if account.closed => Err(AuthError::Closed),
            Ok(Some(account)) => Ok(account),
            Ok(None) => Err(AuthError::Unauthenticated),
            Err(err) => Err(AuthError::Storage(err.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn the_cookie_and_the_bearer_are_read_from_their_headers() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("theme=dark; boardcast_session=abc ; x=1"),
        );
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer bc_xyz"),
        );
        assert_eq!(cookie(&headers), Some("abc"));
        assert_eq!(bearer(&headers), Some("bc_xyz"));
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic Zm9v"),
        );
        assert_eq!(bearer(&headers), None);
    }
}
