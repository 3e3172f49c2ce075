//! The server address a user types (`--server`, `BOARDCAST_SERVER`), in every form people
//! write it: `host:port`, `ws://…`, `wss://…`, `http://…`, `https://…`. It becomes one
//! WebSocket URL (default path `/ws`) and gives the web addresses of the same server: invite
//! links (`/i/{code}`) and finished games as PDN (`/games/{id}.pdn`).

use std::fmt;

use tokio_tungstenite::tungstenite::http::Uri;

/// The port the server listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7878;

/// A checked server address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerAddress {
    /// TLS (`wss`, `https`).
    secure: bool,
    /// `host:port`, `host`, `[::1]:7878`: as typed.
    authority: String,
    /// The WebSocket path, `/ws` unless one was given.
    path: String,
}

/// Why text is not a server address; shows the forms that are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a server address ({why}): expected HOST:PORT (e.g. 192.168.1.20:7878) \
     or ws://HOST:PORT/ws (also wss://, http://, https://)"
)]
pub struct AddressError {
    pub text: String,
    pub why: String,
}

impl ServerAddress {
    pub fn parse(text: &str) -> Result<ServerAddress, AddressError> {
        let fail = |why: &str| AddressError {
            text: text.to_owned(),
            why: why.to_owned(),
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(fail("it is empty"));
        }
        let bare = !trimmed.contains("://");
        let (secure, rest) = match trimmed.split_once("://") {
            None => (false, trimmed),
            Some((scheme, rest)) => match scheme.to_ascii_lowercase().as_str() {
                "ws" | "http" => (false, rest),
                "wss" | "https" => (true, rest),
                other => return Err(fail(&format!("unknown scheme {other}"))),
            },
        };
        let uri: Uri = format!("ws://{rest}")
            .parse()
            .map_err(|e| fail(&format!("{e}")))?;
        let Some(authority) = uri.authority() else {
            return Err(fail("no host"));
        };
        if uri.host().is_none_or(str::is_empty) {
            return Err(fail("no host"));
        }
        let after_host = authority.as_str().rsplit(']').next().unwrap_or_default();
        if after_host.contains(':') && uri.port_u16().is_none() {
            return Err(fail("the port must be a number from 1 to 65535"));
        }
        if authority.as_str().contains('@') {
            return Err(fail("user names are not part of a server address"));
        }
        if rest.contains('#') {
            return Err(fail("a fragment is not part of a server address"));
        }
        let path = match uri.path_and_query().map(|p| p.as_str()) {
            None | Some("" | "/") => "/ws".to_owned(),
            Some(path) => path.to_owned(),
        };
        let mut authority = authority.as_str().to_owned();
        if bare && uri.port().is_none() {
            // A bare host name means the Boardcast server on its usual port.
            authority = format!("{authority}:{DEFAULT_PORT}");
        }
        Ok(ServerAddress {
            secure,
            authority,
            path,
        })
    }

    /// `ws://host:port/ws` (or `wss://…`): what the client connects to.
    pub fn ws_url(&self) -> String {
        let scheme = if self.secure { "wss" } else { "ws" };
        format!("{scheme}://{}{}", self.authority, self.path)
    }

    /// `http://host:port` (or `https://…`): the web side of the same server.
    pub fn web_base(&self) -> String {
        let scheme = if self.secure { "https" } else { "http" };
        format!("{scheme}://{}", self.authority)
    }

    /// The web client's invite link for a private match.
    pub fn invite_link(&self, code: &str) -> String {
        format!("{}/i/{code}", self.web_base())
    }

    /// Where the server serves a finished match as PDN.
    pub fn pdn_url(&self, match_id: &str) -> String {
        format!("{}/games/{match_id}.pdn", self.web_base())
    }

    /// The command a friend runs to join the match with invite `code`; with `ca_file` (the
    /// player's `--ca-file`) a `wss://` server's friend is told to trust the same certificate.
    pub fn join_command(&self, code: &str, ca_file: Option<&std::path::Path>) -> String {
        match ca_file.filter(|_| self.secure) {
            Some(path) => {
                let path = path.to_string_lossy();
                let quoted = shlex::try_quote(&path).unwrap_or(path.clone());
                format!(
                    "boardcast --server {} --ca-file {quoted} join {code}",
                    self.ws_url()
                )
            }
            None => format!("boardcast --server {} join {code}", self.ws_url()),
        }
    }
}

impl fmt::Display for ServerAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.ws_url())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(text: &str) -> String {
        ServerAddress::parse(text).unwrap().ws_url()
    }

    #[test]
    fn every_common_form_becomes_one_websocket_url() {
        assert_eq!(ws("127.0.0.1:7878"), "ws://127.0.0.1:7878/ws");
        assert_eq!(ws("  localhost:9000 "), "ws://localhost:9000/ws");
        assert_eq!(ws("ws://127.0.0.1:7878/ws"), "ws://127.0.0.1:7878/ws");
        assert_eq!(ws("ws://127.0.0.1:7878"), "ws://127.0.0.1:7878/ws");
        assert_eq!(ws("ws://127.0.0.1:7878/"), "ws://127.0.0.1:7878/ws");
        assert_eq!(
            ws("wss://board.example:443/ws"),
            "wss://board.example:443/ws"
        );
        assert_eq!(ws("http://127.0.0.1:7878"), "ws://127.0.0.1:7878/ws");
        assert_eq!(ws("HTTPS://board.example"), "wss://board.example/ws");
        assert_eq!(ws("[::1]:7878"), "ws://[::1]:7878/ws");
        assert_eq!(ws("boards.lan"), "ws://boards.lan:7878/ws");
        assert_eq!(ws("ws://h:1/other/path"), "ws://h:1/other/path");
    }

    #[test]
    fn web_addresses_follow_the_scheme() {
        let plain = ServerAddress::parse("10.0.0.5:7878").unwrap();
        assert_eq!(plain.invite_link("6GC2X5"), "http://10.0.0.5:7878/i/6GC2X5");
        assert_eq!(plain.pdn_url("m12"), "http://10.0.0.5:7878/games/m12.pdn");
        assert_eq!(
            plain.join_command("6GC2X5", None),
            "boardcast --server ws://10.0.0.5:7878/ws join 6GC2X5"
        );
        let secure = ServerAddress::parse("wss://b.example:8443/ws").unwrap();
        assert_eq!(secure.invite_link("Q"), "https://b.example:8443/i/Q");
    }

    #[test]
    fn the_join_command_of_a_wss_server_carries_the_ca_file() {
        let secure = ServerAddress::parse("wss://b.example:8443/ws").unwrap();
        let ca = std::path::Path::new("/home/amy/my certs/boardcast.crt");
        assert_eq!(
            secure.join_command("Q7", Some(ca)),
            "boardcast --server wss://b.example:8443/ws --ca-file '/home/amy/my certs/boardcast.crt' join Q7"
        );
        assert_eq!(
            secure.join_command("Q7", None),
            "boardcast --server wss://b.example:8443/ws join Q7"
        );
        // No TLS, nothing to trust: the file is left out.
        let plain = ServerAddress::parse("10.0.0.5:7878").unwrap();
        assert_eq!(
            plain.join_command("Q7", Some(ca)),
            "boardcast --server ws://10.0.0.5:7878/ws join Q7"
        );
    }

    #[test]
    fn anything_else_is_refused_with_the_expected_form() {
        for bad in [
            "",
            "ftp://h:1",
            "h:99999",
            "ws://",
            "ws://:7878",
            "a b:1",
            "u@h:1",
            "h:1#x",
        ] {
            let error = ServerAddress::parse(bad).unwrap_err().to_string();
            assert!(
                error.contains("expected HOST:PORT (e.g. 192.168.1.20:7878) or ws://HOST:PORT/ws"),
                "{bad}: {error}"
            );
        }
        assert_eq!(
            ServerAddress::parse("ftp://h:1").unwrap_err().why,
            "unknown scheme ftp"
        );
    }
}
