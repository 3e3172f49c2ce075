//! Which pages may open a WebSocket here: the `Origin` check of the upgrade.
//!
//! A browser sends `Origin` with every WebSocket handshake, and a page on another site could
//! otherwise drive a visitor's seat (cross-site WebSocket hijacking). Browsers from an origin
//! not allowed are refused with 403 before the upgrade. Programs that send no `Origin` (the
//! terminal client, bots, tests) are not browsers and pass, as in lila-ws.

use axum::http::{HeaderMap, header};

/// The origins allowed to open a WebSocket: the listed ones, or (none listed) pages served by
/// this host, i.e. an `Origin` whose host and port are the request's `Host`; and always the
/// origin of `--public-url`, the address the server gives out for its own pages (behind a
/// proxy that rewrites `Host`, the same-host rule alone would refuse them).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AllowedOrigins {
    listed: Vec<String>,
    public: Option<String>,
}

impl AllowedOrigins {
    /// `origins` as given to `--allowed-origin` (`https://play.example.org`); empty means
    /// "same host as the request".
    pub(crate) fn new(origins: &[String]) -> AllowedOrigins {
        AllowedOrigins {
            listed: origins
                .iter()
                .map(|origin| origin.trim().trim_end_matches('/').to_ascii_lowercase())
                .filter(|origin| !origin.is_empty())
                .collect(),
            public: None,
        }
    }

    /// Also allows the pages of the server's public URL.
    pub(crate) fn with_public(
        mut self,
        public: Option<&crate::net::public_url::PublicUrl>,
    ) -> AllowedOrigins {
        self.public = public.map(crate::net::public_url::PublicUrl::origin);
        self
    }

    /// Whether a handshake with these headers may be upgraded; `Err` says why not.
    pub(crate) fn check(&self, headers: &HeaderMap) -> Result<(), String> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let origin = origin
            .to_str()
            .map_err(|_| "unreadable Origin header".to_owned())?
            .trim()
            .to_ascii_lowercase();
        let allowed = if self.public.as_deref() == Some(origin.as_str()) {
            true
        } else if self.listed.is_empty() {
            let host = headers
                .get(header::HOST)
                .and_then(|host| host.to_str().ok())
                .map(|host| host.trim().to_ascii_lowercase());
            let authority = origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"));
            matches!((authority, host), (Some(authority), Some(host)) if authority == host)
        } else {
            self.listed.contains(&origin)
        };
        if allowed {
            Ok(())
        } else {
            Err(format!(
                "pages from {origin} may not open a WebSocket here (see --allowed-origin)"
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&'static str>, host: &'static str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static(host));
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_static(origin));
        }
        headers
    }

    #[test]
    fn pages_of_the_public_url_pass_behind_a_proxy_that_rewrites_host() {
        let public: crate::net::public_url::PublicUrl =
            "https://Play.Example.org/club".parse().unwrap();
        let allowed = AllowedOrigins::default().with_public(Some(&public));
        let proxied = |origin| headers(Some(origin), "127.0.0.1:7878");
        assert_eq!(allowed.check(&proxied("https://play.example.org")), Ok(()));
        assert_eq!(
            allowed.check(&proxied("https://evil.example")),
            Err("pages from https://evil.example may not open a WebSocket here (see --allowed-origin)".to_owned())
        );
        let listed =
            AllowedOrigins::new(&["https://other.example".to_owned()]).with_public(Some(&public));
        assert_eq!(listed.check(&proxied("https://play.example.org")), Ok(()));
        assert_eq!(listed.check(&proxied("https://other.example")), Ok(()));
    }

    #[test]
    fn by_default_only_pages_of_the_same_host_and_port_pass() {
        let same = AllowedOrigins::default();
        assert_eq!(
            same.check(&headers(Some("http://127.0.0.1:7878"), "127.0.0.1:7878")),
            Ok(())
        );
        assert_eq!(
            same.check(&headers(
                Some("https://Play.Example:443"),
                "play.example:443"
            )),
            Ok(())
        );
        assert_eq!(
            same.check(&headers(Some("http://127.0.0.1:9999"), "127.0.0.1:7878")),
            Err("pages from http://127.0.0.1:9999 may not open a WebSocket here (see --allowed-origin)".to_owned())
        );
        assert!(
            same.check(&headers(Some("null"), "127.0.0.1:7878"))
                .is_err()
        );
        assert!(
            same.check(&headers(Some("http://evil.example"), "127.0.0.1:7878"))
                .is_err()
        );
    }

    #[test]
    fn programs_without_origin_pass() {
        assert_eq!(
            AllowedOrigins::default().check(&headers(None, "127.0.0.1:7878")),
            Ok(())
        );
        let listed = AllowedOrigins::new(&["https://play.example".to_owned()]);
        assert_eq!(listed.check(&headers(None, "127.0.0.1:7878")), Ok(()));
    }

    #[test]
    fn listed_origins_replace_the_same_host_rule() {
        let listed = AllowedOrigins::new(&["https://play.example/".to_owned()]);
        assert_eq!(
            listed.check(&headers(Some("https://play.example"), "10.0.0.1:7878")),
            Ok(())
        );
        assert!(
            listed
                .check(&headers(Some("http://10.0.0.1:7878"), "10.0.0.1:7878"))
                .is_err()
        );
    }
}
