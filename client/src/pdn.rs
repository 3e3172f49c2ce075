//! Saving a finished match's PDN: `GET /games/{id}.pdn` from the server the client plays on,
//! written to `DIR/{id}.pdn`.
//!
//! The request goes through hyper's client (hyper-util's pooled client), the same HTTP stack
//! the server is built on, so the client gains no second one; `https://` goes through
//! hyper-rustls with the client's own TLS configuration (system roots plus `--ca-file`), the
//! one its `wss://` connection trusts.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Empty, Limited};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::ClientConfig;

/// A PDN larger than this is not a game this server wrote.
const MAX_PDN_BYTES: usize = 1 << 20;

/// Fetches `url` and writes the body to `dir/{match_id}.pdn`; returns the path written.
pub async fn save(
    url: &str,
    dir: &Path,
    match_id: &str,
    tls: Arc<ClientConfig>,
) -> Result<PathBuf, String> {
    let uri: hyper::Uri = url
        .parse()
        .map_err(|e| format!("bad PDN address {url}: {e}"))?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err(format!(
            "cannot fetch {url}: not an http:// or https:// address"
        ));
    }
    let body = fetch(uri, tls)
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

async fn fetch(uri: hyper::Uri, tls: Arc<ClientConfig>) -> Result<Bytes, String> {
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config((*tls).clone())
        .https_or_http()
        .enable_http1()
        .build();
    let client = Client::builder(TokioExecutor::new()).build::<_, Empty<Bytes>>(connector);
    let request = hyper::Request::get(uri)
        .body(Empty::new())
        .map_err(|e| e.to_string())?;
    let response = tokio::time::timeout(Duration::from_secs(10), client.request(request))
        .await
        .map_err(|_| "timed out".to_owned())?
        .map_err(|e| describe(&e))?;
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
    use boardcast_server::{Config, Server};

    /// Over https the request reaches the server through `--ca-file`'s trust: its own 404 for
    /// a match it does not know comes back, not a TLS or scheme error; and a client that does
    /// not trust the certificate never gets that far.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pdn_is_fetched_over_https_with_the_clients_own_trust() {
        let dir = tempfile::tempdir().unwrap();
        let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let cert = dir.path().join("server.crt");
        let key = dir.path().join("server.key");
        std::fs::write(&cert, issued.cert.pem()).unwrap();
        std::fs::write(&key, issued.signing_key.serialize_pem()).unwrap();
        let mut config = Config::for_tests(dir.path().join("boardcast.db"));
        config.tls_cert = Some(cert.clone());
        config.tls_key = Some(key);
        let server = Server::start(config).await.expect("the server starts");
        let url = format!(
            "https://localhost:{}/games/m404.pdn",
            server.local_addr().port()
        );
        let trusting = crate::tls::client_config(Some(&cert)).unwrap();
        let error = save(&url, dir.path(), "m404", trusting).await.unwrap_err();
        assert!(error.contains("404 Not Found"), "{error}");
        let other = dir.path().join("other.crt");
        let stranger = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        std::fs::write(&other, stranger.cert.pem()).unwrap();
        let untrusting = crate::tls::client_config(Some(&other)).unwrap();
        let error = save(&url, dir.path(), "m404", untrusting)
            .await
            .unwrap_err();
        assert!(
            !error.contains("404 Not Found") && error.contains("invalid peer certificate"),
            "{error}"
        );
        server.shutdown().await.unwrap();
    }
}
