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

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, ORIGIN, RETRY_AFTER};
use hyper::{Method, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

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
        /// Seconds to wait, from `Retry-After` (429).
        retry_after: Option<u64>,
    },
    /// The server was not reached, or answered something that is not the API's.
    #[error("{0}")]
    Transport(String),
}

/// `GET /api/account`: who a token or session acts as.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Account {
    pub name: String,
    #[serde(default)]
    pub bot: bool,
    #[serde(default)]
    pub admin: bool,
}

/// One finished game of a player's list (`GET /api/user/{name}/games`), as the player's side
/// of it: fields the list may leave out read as empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLine {
    pub id: String,
    pub opponent: String,
    /// Whether the opponent played as an account (else a guest).
    pub opponent_account: bool,
    pub colour: String,
    pub result: String,
    pub time_control: String,
    pub date: String,
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

    /// `POST /api/token`: a new `play` token for `name`, named `token_name`: its id and
    /// the token itself (shown this once).
    pub async fn create_token(
        &self,
        name: &str,
        password: &str,
        token_name: &str,
    ) -> Result<(Option<i64>, String), ApiError> {
        let body = json!({ "name": name, "password": password, "token_name": token_name });
        let answer = self.json(Method::POST, "/api/token", Some(body)).await?;
        let token = answer
            .get("token")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| ApiError::Transport("the server's answer holds no token".to_owned()))?;
        Ok((answer.get("id").and_then(Value::as_i64), token))
    }

    /// `DELETE /api/tokens/{id}` as the token: the server forgets it.
    pub async fn revoke_token(&self, id: i64) -> Result<(), ApiError> {
        self.json(
            Method::DELETE,
            &format!("/api/tokens/{id}"),
            Some(json!({})),
        )
        .await
        .map(drop)
    }

    /// `GET /api/account` as the token.
    pub async fn account(&self) -> Result<Account, ApiError> {
        let answer = self.json(Method::GET, "/api/account", None).await?;
        serde_json::from_value(answer)
            .map_err(|e| ApiError::Transport(format!("the server's account answer: {e}")))
    }

    /// One page (from 1) of `name`'s finished games, newest first.
    pub async fn games(&self, name: &str, page: u32) -> Result<Vec<GameLine>, ApiError> {
        let path = format!("/api/user/{}/games?page={page}", path_segment(name));
        let answer = self.json(Method::GET, &path, None).await?;
        Ok(game_lines(&answer))
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
            .map_err(|e| ApiError::Transport(format!("cannot write {}: {e}", file.display())))?;
        let mut body = response.into_body();
        let mut written = 0u64;
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(|e| ApiError::Transport(describe(&e)))?;
            if let Ok(data) = frame.into_data() {
                out.write_all(&data).await.map_err(|e| {
                    ApiError::Transport(format!("cannot write {}: {e}", file.display()))
                })?;
                written += data.len() as u64;
            }
        }
        out.flush()
            .await
            .map_err(|e| ApiError::Transport(format!("cannot write {}: {e}", file.display())))?;
        Ok(written)
    }

    /// A request whose answer is JSON; a refusal becomes [`ApiError::Refused`].
    async fn json(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
    ) -> Result<Value, ApiError> {
        let response = self.send(method, path, body).await?;
        if !response.status().is_success() {
            return Err(refusal(response).await);
        }
        let bytes = collect(response).await?;
        if bytes.is_empty() {
            return Ok(Value::Null);
        }
        serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::Transport(format!("the server's answer is not JSON: {e}")))
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
                .map_err(|_| ApiError::Transport("the stored token is not valid text".into()))?;
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
        let request = request
            .body(body)
            .map_err(|e| ApiError::Transport(format!("bad address {url}: {e}")))?;
        tokio::time::timeout(TIMEOUT, self.client.request(request))
            .await
            .map_err(|_| ApiError::Transport(format!("{url}: the server did not answer in time")))?
            .map_err(|e| ApiError::Transport(format!("cannot reach {url}: {}", describe(&e))))
    }
}

async fn collect(response: hyper::Response<hyper::body::Incoming>) -> Result<Bytes, ApiError> {
    Limited::new(response.into_body(), MAX_ANSWER_BYTES)
        .collect()
        .await
        .map(|body| body.to_bytes())
        .map_err(|e| ApiError::Transport(format!("reading the answer: {e}")))
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

fn status_code_name(status: StatusCode) -> String {
    match status {
        StatusCode::NOT_FOUND => "not_found".to_owned(),
        StatusCode::UNAUTHORIZED => "unauthorized".to_owned(),
        other => format!("http_{}", other.as_u16()),
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

/// The games of a list answer: a bare array, or an object holding one under `games`.
fn game_lines(answer: &Value) -> Vec<GameLine> {
    let games = answer
        .as_array()
        .or_else(|| answer.get("games").and_then(Value::as_array));
    games
        .map(|games| games.iter().map(game_line).collect())
        .unwrap_or_default()
}

fn game_line(game: &Value) -> GameLine {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let opponent = game.get("opponent");
    let (opponent_name, opponent_account) = match opponent {
        Some(Value::Object(o)) => (
            text(o.get("name")),
            o.get("account").and_then(Value::as_bool).unwrap_or(false),
        ),
        other => (
            text(other),
            game.get("opponent_account")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        ),
    };
    let time_control = match game.get("time_control") {
        Some(Value::Object(tc)) => {
            let ms = |k: &str| tc.get(k).and_then(Value::as_u64).unwrap_or(0);
            crate::account::time_control_text(ms("initial_ms"), ms("increment_ms"))
        }
        Some(Value::Null) | None => "untimed".to_owned(),
        other => text(other),
    };
    GameLine {
        id: text(game.get("id").or_else(|| game.get("match_id"))),
        opponent: opponent_name,
        opponent_account,
        colour: text(game.get("colour").or_else(|| game.get("color"))),
        result: text(game.get("result")),
        time_control,
        date: text(game.get("date").or_else(|| game.get("finished_at"))),
    }
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

    #[test]
    fn a_games_list_is_read_in_either_shape() {
        let one = json!({
            "id": "m12", "opponent": {"name": "Wytze", "account": false}, "colour": "white",
            "result": "2-0", "time_control": {"initial_ms": 300000, "increment_ms": 3000},
            "date": "2026-11-26"
        });
        let expected = GameLine {
            id: "m12".into(),
            opponent: "Wytze".into(),
            opponent_account: false,
            colour: "white".into(),
            result: "2-0".into(),
            time_control: "5+3".into(),
            date: "2026-11-26".into(),
        };
        assert_eq!(game_lines(&json!([one.clone()])), vec![expected.clone()]);
        assert_eq!(
            game_lines(&json!({"games": [one], "page": 1})),
            vec![expected]
        );
        let flat = json!([{"id": "m3", "opponent": "anne", "opponent_account": true,
            "colour": "black", "result": "1-1", "time_control": null, "date": "2026-11-25"}]);
        let line = &game_lines(&flat)[0];
        assert_eq!(
            (
                line.opponent.as_str(),
                line.opponent_account,
                line.time_control.as_str()
            ),
            ("anne", true, "untimed")
        );
    }
}
