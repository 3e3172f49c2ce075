//! The browser client: the files of `web/`, embedded in the binary at compile time and served
//! on the same port as the WebSocket.
//!
//! Every page (`/`, `/m/{id}`, `/i/{code}`, `/tv/{n}`, `/g/{id}`, `/ftv`, `/login`, `/signup`,
//! `/account`, `/account/tokens`, `/@/{name}`, `/ladder`) is the one shell
//! `web/index.html`; its module script reads the path, and every module is preloaded except
//! those under `js/pages/` (the ladder, a profile's rating chart), which the script imports
//! only on their own routes so that the match page never downloads them. The shell refers to the other files
//! under `/assets/{version}/…`, where `version` is a digest of every embedded file: the shell
//! is revalidated on each visit (`no-cache` + `ETag`), the versioned files are cached for a
//! year, so a new build is picked up at once and an unchanged one costs one 304.
//!
//! Every response carries a strict Content-Security-Policy: only this origin's scripts, styles
//! and images, no inline code, and WebSockets only back to the host the page came from.

use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::OnceLock;

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::Embed;
use tower_http::compression::CompressionLayer;

/// The files of `web/`, in the binary (also in debug builds: no run-time reads of the tree).
#[derive(Embed)]
#[folder = "../web/"]
struct Files;

/// Where the shell's placeholder `%ASSETS%` points: `/assets/{version}`.
const ASSETS_PLACEHOLDER: &str = "%ASSETS%";
/// Replaced by a `modulepreload` link for every module the page's script imports (directly
/// or through another), so the browser fetches them all at once instead of discovering them
/// import by import. A module loaded by `import()` (a page's own, such as `/rules` or the
/// account pages) is left out: it is fetched only where it is used.
const PRELOAD_PLACEHOLDER: &str = "%PRELOAD%";
/// The page's script, where the static imports start.
const ENTRY_MODULE: &str = "js/main.js";

/// Versioned assets never change under their URL.
const CACHE_IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// The shell, and an asset asked for under an old version: use it, but ask again next time.
const CACHE_REVALIDATE: &str = "no-cache";

/// The routes of the web client, for any router state.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(shell))
        .route("/m/{id}", get(shell))
        .route("/i/{code}", get(shell))
        .route("/tv/{n}", get(shell))
        .route("/g/{id}", get(shell))
        .route("/ftv", get(shell))
        // The account pages (issue 30): the same shell; the script shows the page the path
        // names (a real address for each, so password managers and scripts find the forms),
        // and the page a reset link opens.
        .route("/login", get(shell))
        .route("/signup", get(shell))
        .route("/account", get(shell))
        .route("/account/tokens", get(shell))
        .route("/@/{name}", get(shell))
        // The ladder (issue 31): the same shell, which loads `js/pages/ladder.js` for it.
        .route("/ladder", get(shell))
        // Club events (issue 33); `/e/{id}` is routed with the TRF in `events::http`.
        .route("/events", get(shell))
        // The rules page (issue 34): the shell loads `js/pages/rules.js` and `rules/positions.json`.
        .route("/rules", get(shell))
        .route("/reset/{token}", get(shell))
        .route("/assets/{version}/{*path}", get(asset))
        .layer(CompressionLayer::new())
}

/// The content type of a file we serve, by extension; anything else in `web/` (notes, tests)
/// is not served.
fn content_type(path: &str) -> Option<&'static str> {
    let extension = path.rsplit_once('.')?.1;
    Some(match extension {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        // The match page's sounds (`sounds/*.wav`, js/sound.js).
        "wav" => "audio/wav",
        "webmanifest" => "application/manifest+json",
        // The Fluent catalogues (`i18n/*.ftl`), shared with the terminal client.
        "ftl" => "text/plain; charset=utf-8",
        // The rules page's positions (`rules/positions.json`).
        "json" => "application/json",
        _ => return None,
    })
}

/// The shell with its placeholder filled in, and its validator.
struct Shell {
    body: String,
    etag: HeaderValue,
}

/// A digest of every served file, and the shell built with it; computed once.
fn build() -> &'static (String, Shell) {
    static BUILD: OnceLock<(String, Shell)> = OnceLock::new();
    BUILD.get_or_init(|| {
        let mut names: Vec<_> = Files::iter()
            .filter(|name| content_type(name).is_some())
            .collect();
        names.sort();
        let mut hasher = DefaultHasher::new();
        for name in &names {
            name.hash(&mut hasher);
            if let Some(file) = Files::get(name) {
                file.metadata.sha256_hash().hash(&mut hasher);
            }
        }
        let version = format!("{:016x}", hasher.finish());
        let template = Files::get("index.html").map_or_else(String::new, |file| {
            String::from_utf8_lossy(&file.data).into_owned()
        });
        let prefix = format!("/assets/{version}");
        let preload: String = statically_imported(ENTRY_MODULE)
            .iter()
            .map(|name| format!("<link rel=\"modulepreload\" href=\"{prefix}/{name}\">\n"))
            .collect();
        let body = template
            .replace(PRELOAD_PLACEHOLDER, preload.trim_end())
            .replace(ASSETS_PLACEHOLDER, &prefix);
        let etag = etag_for(&version, "shell");
        (version, Shell { body, etag })
    })
}

/// The `/assets/{version}` prefix the running build's pages use.
pub fn assets_prefix() -> String {
    format!("/assets/{}", build().0)
}

/// A weak validator (the compression layer may change the bytes, not the meaning).
fn etag_for(version: &str, what: &str) -> HeaderValue {
    HeaderValue::from_str(&format!("W/\"{version}-{what}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""))
}

/// `true` when the request's `If-None-Match` already names `etag`.
fn not_modified(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let Some(wanted) = etag.to_str().ok().map(weak_opaque) else {
        return false;
    };
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(|tag| weak_opaque(tag.trim()))
        .any(|tag| tag == "*" || tag == wanted)
}

/// An entity tag without its weakness mark, for the weak comparison of RFC 9110 §8.8.3.2.
fn weak_opaque(tag: &str) -> &str {
    tag.strip_prefix("W/").unwrap_or(tag)
}

/// The page shell; also `/e/{id}`, which shares its route with the event's TRF.
pub(crate) async fn shell(headers: HeaderMap) -> Response {
    let (_, shell) = build();
    let mut response = if not_modified(&headers, &shell.etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        shell.body.clone().into_response()
    };
    let out = response.headers_mut();
    out.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    out.insert(header::ETAG, shell.etag.clone());
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_REVALIDATE),
    );
    secure(out, &headers);
    response
}

async fn asset(Path((version, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    let (current, _) = build();
    let served = content_type(&path)
        .filter(|_| path != "index.html")
        .and_then(|kind| Files::get(&path).map(|file| (kind, file)));
    let Some((kind, file)) = served else {
        return (StatusCode::NOT_FOUND, "no such file\n").into_response();
    };
    let digest = file.metadata.sha256_hash();
    let etag = etag_for(&hex(&digest[..8]), "asset");
    let mut response = if not_modified(&headers, &etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        match file.data {
            Cow::Borrowed(bytes) => bytes.into_response(),
            Cow::Owned(bytes) => bytes.into_response(),
        }
    };
    let out = response.headers_mut();
    out.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    out.insert(header::ETAG, etag);
    out.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if version == *current {
            CACHE_IMMUTABLE
        } else {
            CACHE_REVALIDATE
        }),
    );
    secure(out, &headers);
    response
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The security headers of every web response.
fn secure(out: &mut HeaderMap, request: &HeaderMap) {
    if let Ok(policy) = HeaderValue::from_str(&content_security_policy(request)) {
        out.insert(header::CONTENT_SECURITY_POLICY, policy);
    }
    out.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    out.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    out.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

/// `default-src 'self'` and nothing inline. WebSockets are named by scheme and host because
/// some browsers never matched `ws:` against `'self'`; `wss:` too, for a TLS proxy in front.
pub fn content_security_policy(request: &HeaderMap) -> String {
    let sockets = request
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .filter(|host| is_host(host))
        .map(|host| format!(" ws://{host} wss://{host}"))
        .unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; \
         connect-src 'self'{sockets}; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'; object-src 'none'"
    )
}

/// A `Host` value safe to repeat in a header: a name or address, and maybe a port.
pub fn is_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// `entry` and every module it imports statically, directly or through another, by their
/// names under `web/` (sorted): what a browser must fetch before the page runs. Our modules
/// write a static import as `import … from './x.js';` (or `import './x.js';`), one a line
/// (or its last line, for a long list); `import('./x.js')` is dynamic and not followed.
pub fn statically_imported(entry: &str) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    let mut stack = vec![entry.to_owned()];
    while let Some(name) = stack.pop() {
        let Some(file) = Files::get(&name) else {
            continue;
        };
        if !seen.insert(name.clone()) {
            continue;
        }
        let dir = name.rsplit_once('/').map_or("", |(dir, _)| dir);
        for line in String::from_utf8_lossy(&file.data).lines() {
            let line = line.trim();
            let spec = if let Some((_, rest)) = line.split_once("} from '") {
                rest
            } else if line.starts_with("import ") && !line.starts_with("import(") {
                match line
                    .split_once(" from '")
                    .or_else(|| line.split_once("import '"))
                {
                    Some((_, rest)) => rest,
                    None => continue,
                }
            } else {
                continue;
            };
            let Some((spec, _)) = spec.split_once('\'') else {
                continue;
            };
            stack.push(resolve(dir, spec));
        }
    }
    seen.into_iter().collect()
}

/// `spec` (`./x.js`, `../y/z.js`) relative to the directory `dir`, as a name under `web/`.
fn resolve(dir: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|part| !part.is_empty()).collect();
    for part in spec.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}
