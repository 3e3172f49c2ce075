//! The server's account API (`/api/…`, `/@/{name}/games.pdn`) over hyper's client, the same
//! HTTP stack the PDN download uses, on the client's own TLS configuration (system roots plus
//! `--ca-file`).
//!
//! Refusals come back typed: the server answers `{error: {code, message}}`, and its message
//! is what the player reads. A state-changing request carries `Origin` set to the server's
//! own web address: the server refuses posts from other sites, and this client is no other
//! site. The token goes in `Authorization: Bearer`, never in a URL.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::account::{AccountView, CreatedToken, LadderRung, ProfileGames};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, ORIGIN, RETRY_AFTER};
use hyper::{Method, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::i18n::{tr, tr_args};

/// An answer larger than this is not one of the API's (games.pdn is streamed, not held).
const MAX_ANSWER_BYTES: usize = 1 << 20;
/// How long a request may take before the player is told the server does not answer.
const TIMEOUT: Duration = Duration::from_secs(20);

/// Why a request did not succeed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The server answered with a refusal: its status, code and message.
    #[error("{message}")]
    Refused {
        status: u16,
        code: String,
        message: String,
        /// Seconds to wait, from `Retry-After` (429 `throttled`, 503 `busy`).
        retry_after: Option<u64>,
    },
    /// The server was not reached, or answered something that is not the API's.
    #[error("{0}")]
    Transport(String),
}

type HttpsClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// A client of one server's API, acting as `token` when given.
pub struct Api {
    /// `http://host:port` (or https): the server's web address, also the `Origin` sent.
    base: String,
    token: Option<String>,
    client: HttpsClient,
}

impl Api {
    pub fn new(base: String, tls: Arc<rustls::ClientConfig>, token: Option<String>) -> Api {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config((*tls).clone())
            .https_or_http()
            .enable_http1()
            .build();
        Api {
            base,
            token,
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    /// `POST /api/token`: a new `play` token for `name`, named `token_name`, shown this once.
    pub async fn create_token(
        &self,
        name: &str,
        password: &str,
        token_name: &str,
    ) -> Result<CreatedToken, ApiError> {
        let body = json!({ "name": name, "password": password, "token_name": token_name });
        self.json(Method::POST, "/api/token", Some(body)).await
    }

    /// `DELETE /api/tokens/{id}` as the token: the server forgets it.
    pub async fn revoke_token(&self, id: i64) -> Result<(), ApiError> {
        let path = format!("/api/tokens/{id}");
        self.json::<Value>(Method::DELETE, &path, Some(json!({})))
            .await
            .map(drop)
    }

    /// `GET /api/account` as the token.
    pub async fn account(&self) -> Result<AccountView, ApiError> {
        self.json(Method::GET, "/api/account", None).await
    }

    /// One page (from 0) of `name`'s finished games, newest first.
    pub async fn games(&self, name: &str, page: u32) -> Result<ProfileGames, ApiError> {
        let path = format!("/api/user/{}/games?page={page}", path_segment(name));
        self.json(Method::GET, &path, None).await
    }

    /// `GET /api/events?page=N`: every waiting and running club event, then page `page`
    /// (from 0, the newest) of the finished ones (PROTOCOL.md §20).
    pub async fn events(&self, page: u32) -> Result<Value, ApiError> {
        let path = format!("/api/events?page={page}");
        self.json(Method::GET, &path, None).await
    }

    /// `GET /api/events/{id}`: one event as it stands.
    pub async fn event(&self, id: &str) -> Result<Value, ApiError> {
        let path = format!("/api/events/{}", path_segment(id));
        self.json(Method::GET, &path, None).await
    }

    /// `GET /api/ladder`: the members with an established, current rating, best first.
    pub async fn ladder(&self) -> Result<Vec<LadderRung>, ApiError> {
        self.json(Method::GET, "/api/ladder", None).await
    }

    /// `GET /@/{name}/games.pdn`, streamed into `file` as it comes; returns the bytes written.
    pub async fn save_games_pdn(&self, name: &str, file: &Path) -> Result<u64, ApiError> {
        let path = format!("/@/{}/games.pdn", path_segment(name));
        let response = self.send(Method::GET, &path, None).await?;
        if !response.status().is_success() {
            return Err(refusal(response).await);
        }
        let mut out = tokio::fs::File::create(file)
            .await
            .map_err(|e| cannot_write(file, &e))?;
        let mut body = response.into_body();
        let mut written = 0u64;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| ApiError::Transport(describe(&e)))?;
            if let Ok(data) = frame.into_data() {
                out.write_all(&data)
                    .await
                    .map_err(|e| cannot_write(file, &e))?;
                written += data.len() as u64;
            }
        }
        out.flush().await.map_err(|e| cannot_write(file, &e))?;
        Ok(written)
    }

    /// A request whose answer is JSON of type `T` (an empty answer reads as JSON `null`);
    /// a refusal becomes [`ApiError::Refused`].
    async fn json<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<T, ApiError> {
        let response = self.send(method, path, body).await?;
        if !response.status().is_success() {
            return Err(refusal(response).await);
        }
        let bytes = collect(response).await?;
        let bytes: &[u8] = if bytes.is_empty() { b"null" } else { &bytes };
        serde_json::from_slice(bytes).map_err(|e| {
            ApiError::Transport(tr_args(
                "api-not-the-apis",
                &[("error", e.to_string().into())],
            ))
        })
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, ApiError> {
        let url = format!("{}{path}", self.base);
        let mut request = hyper::Request::builder().method(method).uri(&url);
        if let Some(token) = &self.token {
            let value = HeaderValue::from_str(&format!("Bearer {token}"))
                .map_err(|_| ApiError::Transport(tr("api-bad-token")))?;
            request = request.header(AUTHORIZATION, value);
        }
        let body = match body {
            Some(body) => {
                request = request
                    .header(CONTENT_TYPE, "application/json")
                    .header(ORIGIN, &self.base);
                Full::new(Bytes::from(body.to_string()))
            }
            None => Full::new(Bytes::new()),
        };
        let request = request.body(body).map_err(|e| {
            ApiError::Transport(tr_args(
                "api-bad-address",
                &[("url", url.clone().into()), ("error", e.to_string().into())],
            ))
        })?;
        tokio::time::timeout(TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| {
                ApiError::Transport(tr_args(
                    "api-no-answer-in-time",
                    &[("url", url.clone().into())],
                ))
            })?
            .map_err(|e| unreachable(&url, &e))
    }
}

async fn collect(response: hyper::Response<hyper::body::Incoming>) -> Result<Bytes, ApiError> {
    Limited::new(response.into_body(), MAX_ANSWER_BYTES)
        .collect()
        .await
        .map(|body| body.to_bytes())
        .map_err(|e| {
            ApiError::Transport(tr_args(
                "api-reading-answer",
                &[("error", e.to_string().into())],
            ))
        })
}

/// The server's `{error: {code, message}}`, or the status in words when the body is not one.
async fn refusal(response: hyper::Response<hyper::body::Incoming>) -> ApiError {
    let status = response.status();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok());
    let body = collect(response).await.unwrap_or_default();
    let error = serde_json::from_slice::<Value>(&body).ok();
    let error = error.as_ref().and_then(|v| v.get("error"));
    let field = |name: &str| {
        error
            .and_then(|e| e.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    ApiError::Refused {
        status: status.as_u16(),
        code: field("code").unwrap_or_else(|| status_code_name(status)),
        message: field("message").unwrap_or_else(|| {
            format!(
                "the server answered {} {}",
                status.as_u16(),
                status.canonical_reason().unwrap_or("")
            )
            .trim_end()
            .to_owned()
        }),
        retry_after,
    }
}

/// The code of a refusal whose body is not the API's `{error: …}` (a proxy's page, an
/// older server's route that does not exist): `http_` and its status.
pub const NOT_THE_APIS: &str = "http_";

/// The API's code a bare status stands for (404 and 401 mean what they mean on every route),
/// else [`NOT_THE_APIS`] and the status.
pub(super) fn status_code_name(status: StatusCode) -> String {
    match status {
        StatusCode::NOT_FOUND => "not_found".to_owned(),
        StatusCode::UNAUTHORIZED => "unauthenticated".to_owned(),
        other => format!("{NOT_THE_APIS}{}", other.as_u16()),
    }
}

/// A user name as one path segment: names are `A-Z a-z 0-9 _ -`, and anything else a user
/// types is percent-encoded rather than allowed to change the path.
fn path_segment(name: &str) -> String {
    name.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// A server not reached, in the player's language: a refused connection (nothing listens
/// there, the commonest case: a wrong port, a server not started) said in words; any other
/// failure with its causes, which come from the operating system or the TLS library and so
/// stay as they wrote them.
fn unreachable(url: &str, error: &(dyn std::error::Error + 'static)) -> ApiError {
    let mut cause = Some(error);
    while let Some(at) = cause {
        if at
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
        {
            return ApiError::Transport(tr_args(
                "api-connection-refused",
                &[("url", url.to_owned().into())],
            ));
        }
        cause = at.source();
    }
    ApiError::Transport(tr_args(
        "api-cannot-reach",
        &[
            ("url", url.to_owned().into()),
            ("error", describe(error).into()),
        ],
    ))
}

/// A file the PDN download could not be written to.
fn cannot_write(file: &Path, error: &std::io::Error) -> ApiError {
    ApiError::Transport(tr_args(
        "api-cannot-write",
        &[
            ("file", file.display().to_string().into()),
            ("error", error.to_string().into()),
        ],
    ))
}

/// An error with its causes (hyper's own says only "client error (Connect)").
fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_one_path_segment() {
        assert_eq!(path_segment("Anne_de-Vries2"), "Anne_de-Vries2");
        assert_eq!(path_segment("../admin"), "%2E%2E%2Fadmin");
        assert_eq!(path_segment("a b?x"), "a%20b%3Fx");
    }
}
