//! Seat tokens on disk, so `boardcast resume` works after the terminal was closed.
//!
//! One JSON file, `seats.json`, in the user's data directory (or `--data-dir`), readable and
//! writable by the user only (0600 on Unix). Tokens are secrets: nothing here prints them.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::app::SeatInfo;
use boardcast_protocol::Side;

/// One stored seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSeat {
    pub server: String,
    pub match_id: String,
    pub side: Side,
    pub token: String,
    pub invite_code: String,
}

impl StoredSeat {
    pub fn info(&self) -> SeatInfo {
        SeatInfo {
            match_id: self.match_id.clone(),
            side: self.side,
            token: self.token.clone(),
            invite_code: self.invite_code.clone(),
        }
    }
}

pub struct Store {
    path: PathBuf,
}

/// The default data directory (`~/.local/share/boardcast` on Linux).
pub fn default_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "boardcast").map(|dirs| dirs.data_dir().to_owned())
}

impl Store {
    pub fn new(dir: &Path) -> Store {
        Store {
            path: dir.join("seats.json"),
        }
    }

    /// Every stored seat, oldest first. A missing or unreadable file is an empty store.
    pub fn load(&self) -> Vec<StoredSeat> {
        fs::read_to_string(&self.path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// The newest seat held on `server`, optionally in one match.
    pub fn latest(&self, server: &str, match_id: Option<&str>) -> Option<StoredSeat> {
        self.load()
            .into_iter()
            .rev()
            .find(|s| s.server == server && match_id.is_none_or(|id| s.match_id == id))
    }

    pub fn save(&self, server: &str, seat: &SeatInfo) -> std::io::Result<()> {
        let mut seats = self.load();
        seats.retain(|s| !(s.server == server && s.match_id == seat.match_id));
        seats.push(StoredSeat {
            server: server.to_owned(),
            match_id: seat.match_id.clone(),
            side: seat.side,
            token: seat.token.clone(),
            invite_code: seat.invite_code.clone(),
        });
        self.write(&seats)
    }

    pub fn remove(&self, server: &str, match_id: &str) -> std::io::Result<()> {
        let mut seats = self.load();
        let before = seats.len();
        seats.retain(|s| !(s.server == server && s.match_id == match_id));
        if seats.len() == before {
            return Ok(());
        }
        self.write(&seats)
    }

    fn write(&self, seats: &[StoredSeat]) -> std::io::Result<()> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_string_pretty(seats).map_err(std::io::Error::other)?;
        let tmp = self.path.with_extension("json.tmp");
        let mut options = fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut file = options.open(&tmp)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(fs::Permissions::from_mode(0o600))?;
        }
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, &self.path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(id: &str) -> SeatInfo {
        SeatInfo {
            match_id: id.into(),
            side: Side::Black,
            token: format!("secret-{id}"),
            invite_code: "ABCD".into(),
        }
    }

    #[test]
    fn seats_round_trip_newest_first_and_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(&dir.path().join("nested"));
        assert_eq!(store.latest("ws://a", None), None);
        store.save("ws://a", &seat("m1")).unwrap();
        store.save("ws://a", &seat("m2")).unwrap();
        store.save("ws://b", &seat("m3")).unwrap();
        assert_eq!(store.latest("ws://a", None).unwrap().match_id, "m2");
        assert_eq!(
            store.latest("ws://a", Some("m1")).unwrap().token,
            "secret-m1"
        );
        store.remove("ws://a", "m2").unwrap();
        assert_eq!(store.latest("ws://a", None).unwrap().match_id, "m1");
        assert_eq!(store.load().len(), 2);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private_to_the_user() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        store.save("ws://a", &seat("m1")).unwrap();
        let mode = fs::metadata(dir.path().join("seats.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}
