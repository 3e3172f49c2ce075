//! Seat tokens on disk, so `boardcast resume` works after the terminal was closed.
//!
//! A seat is kept by its match: a match id names one match on a whole cluster, whichever node
//! (URL) the seat was taken on. So a player who took a seat through one node of a cluster and
//! comes back through another (its node died, or the balancer's address) still finds it:
//! seats taken on the server asked about come first, then those taken elsewhere, whose token
//! is tried there (the server answers `invalid_token` if it is not the same cluster).
//!
//! One JSON file, `seats.json`, in the user's data directory (or `--data-dir`), readable and
//! writable by the user only (0600 on Unix). Tokens are secrets: nothing here prints them.
//!
//! Beside it, `chat-muted.json`: the chat authors muted for oneself (`crate::app::chat`), a
//! list of at most `MUTED_KEPT` author keys, so muting outlives the run.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::app::SeatInfo;
use crate::app::chat::MUTED_KEPT;
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

    /// The newest seat (optionally in one match) taken on `server`; else the newest taken on
    /// another server (another node of the same cluster, as far as this client can tell).
    pub fn latest(&self, server: &str, match_id: Option<&str>) -> Option<StoredSeat> {
        let seats: Vec<StoredSeat> = self
            .load()
            .into_iter()
            .rev()
            .filter(|s| match_id.is_none_or(|id| s.match_id == id))
            .collect();
        let here = seats.iter().position(|s| s.server == server);
        seats.into_iter().nth(here.unwrap_or(0))
    }

    /// Keeps `seat`, taken on `server`: the one seat kept for its match.
    pub fn save(&self, server: &str, seat: &SeatInfo) -> std::io::Result<()> {
        let mut seats = self.load();
        seats.retain(|s| s.match_id != seat.match_id);
        seats.push(StoredSeat {
            server: server.to_owned(),
            match_id: seat.match_id.clone(),
            side: seat.side,
            token: seat.token.clone(),
            invite_code: seat.invite_code.clone(),
        });
        self.write(&seats)
    }

    /// Forgets the seat of `match_id`, whichever node it was taken on.
    pub fn remove(&self, match_id: &str) -> std::io::Result<()> {
        let mut seats = self.load();
        let before = seats.len();
        seats.retain(|s| s.match_id != match_id);
        if seats.len() == before {
            return Ok(());
        }
        self.write(&seats)
    }

    fn muted_path(&self) -> PathBuf {
        self.path.with_file_name("chat-muted.json")
    }

    /// The chat authors muted for oneself, oldest first: the newest `MUTED_KEPT` well-formed
    /// keys (`m:Name`, `g:Name`). A missing or unreadable file mutes nobody.
    pub fn load_muted(&self) -> Vec<String> {
        // Each entry on its own: one hand-edited bad entry does not unmute the rest.
        let keys: Vec<serde_json::Value> = fs::read_to_string(self.muted_path())
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        let mut keys: Vec<String> = keys
            .into_iter()
            .filter_map(|k| k.as_str().map(str::to_owned))
            .filter(|k| (k.starts_with("m:") || k.starts_with("g:")) && k.len() > 2)
            .collect();
        let over = keys.len().saturating_sub(MUTED_KEPT);
        keys.drain(..over);
        keys
    }

    /// Keeps `muted` (the newest `MUTED_KEPT` of them) in place of the list stored.
    pub fn save_muted(&self, muted: &[String]) -> std::io::Result<()> {
        let kept = &muted[muted.len().saturating_sub(MUTED_KEPT)..];
        let text = serde_json::to_string_pretty(kept).map_err(std::io::Error::other)?;
        write_private(&self.muted_path(), &text)
    }

    fn write(&self, seats: &[StoredSeat]) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(seats).map_err(std::io::Error::other)?;
        write_private(&self.path, &text)
    }
}

/// Writes `text` to `path` readable and writable by the user only (0600 on Unix), whole,
/// through a temporary file beside it, so a crash never leaves half a file: the files of
/// secrets (seat tokens here, personal access tokens in `crate::account::credentials`).
pub(crate) fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
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
        // A file left by an older run may have wider bits: `mode` applies on creation only.
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    fs::rename(&tmp, path)
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
        store.remove("m2").unwrap();
        assert_eq!(store.latest("ws://a", None).unwrap().match_id, "m1");
        assert_eq!(store.load().len(), 2);
    }

    #[test]
    fn a_seat_taken_on_one_node_is_found_through_another_node_of_the_cluster() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        // Taken through node a; node a died, and the player points at node b.
        store.save("ws://node-a:7878/ws", &seat("m1")).unwrap();
        let found = store.latest("ws://node-b:7878/ws", Some("m1")).unwrap();
        assert_eq!(
            (found.match_id.as_str(), found.token.as_str()),
            ("m1", "secret-m1")
        );
        assert_eq!(
            store.latest("ws://node-b:7878/ws", None).unwrap().match_id,
            "m1",
            "the home screen offers it too"
        );
        // Resumed through b: one seat for the match, now under b.
        store.save("ws://node-b:7878/ws", &seat("m1")).unwrap();
        assert_eq!(store.load().len(), 1);
        assert_eq!(store.load()[0].server, "ws://node-b:7878/ws");
        // A seat taken on the server asked about comes before a newer one taken elsewhere.
        store.save("ws://node-a:7878/ws", &seat("m2")).unwrap();
        assert_eq!(
            store.latest("ws://node-b:7878/ws", None).unwrap().match_id,
            "m1"
        );
        assert_eq!(
            store.latest("ws://node-c:7878/ws", None).unwrap().match_id,
            "m2"
        );
        // Forgotten whichever node it was taken on.
        store.remove("m2").unwrap();
        assert_eq!(store.latest("ws://node-a:7878/ws", Some("m2")), None);
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
