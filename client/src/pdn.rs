//! Saving a finished match's PDN: `GET /games/{id}.pdn` from the server the client plays on,
//! written to `DIR/{id}.pdn`.
//!
//! The request goes through hyper's client (hyper-util's pooled client), the same HTTP stack
//! the server is built on, so the client gains no second one. Only `http://` for now: a server
//! reached over `wss://` is fetched once the client has TLS.

use std::path::{Path, PathBuf};
use std::time::Duration;

use http_body_util::{BodyExt, Empty, Limited};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// A PDN larger than this is not a game this server wrote.
const MAX_PDN_BYTES: usize = 1 << 20;

/// Fetches `url` and writes the body to `dir/{match_id}.pdn`; returns the path written.
pub async fn save(url: &str, dir: &Path, match_id: &str) -> Result<PathBuf, String> {
    let uri: hyper::Uri = url
        .parse()
        .map_err(|e| format!("bad PDN address {url}: {e}"))?;
    if uri.scheme_str() != Some("http") {
        return Err(format!(
            "cannot fetch {url}: this client fetches PDN over http:// only"
        ));
    }
    let body = fetch(uri)
        .await
        .map_err(|e| format!("cannot fetch {url}: {e}"))?;
    // The id comes from the server: keep only what is safe in a file name.
    let name: String = match_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .collect();
    if name.is_empty() {
        return Err(format!("match id {match_id:?} makes no file name"));
    }
    let path = dir.join(format!("{name}.pdn"));
    tokio::fs::create_dir_all(dir)
        .await
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    tokio::fs::write(&path, &body)
        .await
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

async fn fetch(uri: hyper::Uri) -> Result<Bytes, String> {
    let client = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
    let request = hyper::Request::get(uri)
        .body(Empty::new())
        .map_err(|e| e.to_string())?;
    let response = tokio::time::timeout(Duration::from_secs(10), client.request(request))
        .await
        .map_err(|_| "timed out".to_owned())?
        .map_err(|e| e.to_string())?;
    let status = response.status();
    let body = Limited::new(response.into_body(), MAX_PDN_BYTES)
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        return Err(format!("{status}: {}", text.trim()));
    }
    Ok(body)
}
