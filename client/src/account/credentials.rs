//! Personal access tokens on disk, one per server, so that every later `boardcast` command
//! (play, engine, whoami) acts as the account `boardcast login` logged in.
//!
//! A token is kept by the server's web address (`http://host:port`), the origin that issued
//! it: one login per server, and a token is never sent to another server. One JSON file,
//! `credentials.json`, in the user's config directory (or `--config-dir`), readable and
//! writable by the user only (0600 on Unix), written whole through a temporary file so a
//! crash never leaves half a file. Tokens are secrets: nothing here prints them.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One stored login.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credential {
    /// The web address of the server that issued the token (`ServerAddress::web_base`).
    pub server: String,
    /// The account's name, as the server spells it.
    pub name: String,
    pub token: String,
    /// The token's id on the server, to revoke it at logout (absent in files of older
    /// clients).
    #[serde(default)]
    pub token_id: Option<i64>,
}

pub struct Credentials {
    path: PathBuf,
}

/// The default config directory (`~/.config/boardcast` on Linux).
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "boardcast").map(|dirs| dirs.config_dir().to_owned())
}

impl Credentials {
    pub fn new(dir: &Path) -> Credentials {
        Credentials {
            path: dir.join("credentials.json"),
        }
    }

    /// The file the tokens are kept in.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every stored login. A missing or unreadable file holds none.
    pub fn load(&self) -> Vec<Credential> {
        fs::read_to_string(&self.path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// The login kept for `server`, if any.
    pub fn get(&self, server: &str) -> Option<Credential> {
        self.load().into_iter().find(|c| c.server == server)
    }

    /// Keeps `credential`, replacing the one of its server.
    pub fn save(&self, credential: Credential) -> std::io::Result<()> {
        let mut all = self.load();
        all.retain(|c| c.server != credential.server);
        all.push(credential);
        self.write(&all)
    }

    /// Forgets the login of `server`; returns it, if there was one.
    pub fn remove(&self, server: &str) -> std::io::Result<Option<Credential>> {
        let mut all = self.load();
        let Some(at) = all.iter().position(|c| c.server == server) else {
            return Ok(None);
        };
        let removed = all.remove(at);
        self.write(&all)?;
        Ok(Some(removed))
    }

    fn write(&self, all: &[Credential]) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(all).map_err(std::io::Error::other)?;
        crate::store::write_private(&self.path, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn login(server: &str, name: &str) -> Credential {
        Credential {
            server: server.into(),
            name: name.into(),
            token: format!("bc_secret_{name}"),
            token_id: Some(7),
        }
    }

    #[test]
    fn one_login_per_server_is_kept_replaced_and_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let store = Credentials::new(&dir.path().join("nested"));
        assert_eq!(store.get("http://a:1"), None);
        store.save(login("http://a:1", "anne")).unwrap();
        store.save(login("http://b:1", "bob")).unwrap();
        store.save(login("http://a:1", "anna")).unwrap();
        assert_eq!(store.get("http://a:1").unwrap().name, "anna");
        assert_eq!(store.get("http://b:1").unwrap().token, "bc_secret_bob");
        assert_eq!(store.load().len(), 2);
        assert_eq!(
            store.remove("http://a:1").unwrap().map(|c| c.name),
            Some("anna".to_owned())
        );
        assert_eq!(store.remove("http://a:1").unwrap(), None);
        assert_eq!(store.get("http://a:1"), None);
        assert_eq!(store.get("http://b:1").unwrap().name, "bob");
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private_to_the_user_even_if_it_was_not() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let store = Credentials::new(dir.path());
        fs::write(store.path(), "[]").unwrap();
        fs::set_permissions(store.path(), fs::Permissions::from_mode(0o644)).unwrap();
        store.save(login("http://a:1", "anne")).unwrap();
        let mode = fs::metadata(store.path()).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
