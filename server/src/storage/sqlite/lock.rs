//! One server per SQLite database. Two `boardcast-server --db X` processes on one file would
//! both run matches and both write: each believes it alone holds every match it recovered, so
//! moves to one are never seen by the other and a match can fork. SQLite's own locks allow
//! that (it serialises writes, it does not keep a second writer out), so a server holds an
//! exclusive advisory lock (`flock`) on a file beside the database, `X.lock`, for as long as
//! it runs, and a second server is refused at start-up.
//!
//! The kernel lets go of the lock when the process ends however it ends (kill -9 included), so
//! a lock file left behind by a dead server never keeps the next one from starting. Only the
//! server takes it: tools that read the database (`migrate`, `sqlite3`) do not.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::path::{Path, PathBuf};

use crate::storage::StorageError;

/// The lock held on `X.lock` while this process serves database `X`; dropping it (or the
/// process ending) lets go.
#[derive(Debug)]
pub(crate) struct ServerLock {
    _file: File,
}

/// The lock file of database `path`: the database's file name with `.lock` appended.
pub(crate) fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

impl ServerLock {
    /// Takes the lock of database `path` at once, or says which server holds it. The lock file
    /// holds the process id of the server holding it, for that message.
    pub(crate) fn take(path: &Path) -> Result<ServerLock, StorageError> {
        // A missing directory is said as opening the database would say it.
        super::existing_directory(path)?;
        let lock = lock_path(path);
        let cannot = |err: std::io::Error| StorageError::Setup {
            problem: format!("cannot lock {}: {err}", lock.display()),
            remedy: "let the user running boardcast-server create and write files in the \
                     database's directory"
                .to_owned(),
        };
        // Not truncated on open: the pid in it belongs to the holder until we hold the lock.
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(cannot)?;
        // Called as the trait's function: `File::try_lock` of newer Rust has another signature.
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => {}
            Err(fs4::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let who = if holder.is_empty() {
                    "another boardcast-server".to_owned()
                } else {
                    format!("another boardcast-server (process {holder})")
                };
                return Err(StorageError::Setup {
                    problem: format!("{who} is already running on {}", path.display()),
                    remedy: "two servers on one SQLite database would both write to it; stop \
                             the other server first, or give this one another --db"
                        .to_owned(),
                });
            }
            Err(fs4::TryLockError::Error(err)) => return Err(cannot(err)),
        }
        let pid = std::process::id();
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{pid}"))
            .map_err(cannot)?;
        Ok(ServerLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_database_is_refused_naming_the_holder_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("boardcast.db");
        let first = ServerLock::take(&db).unwrap();
        assert_eq!(
            std::fs::read_to_string(lock_path(&db)).unwrap().trim(),
            std::process::id().to_string()
        );
        let refused = ServerLock::take(&db).unwrap_err().to_string();
        assert!(
            refused.contains(&format!("process {}", std::process::id()))
                && refused.contains("already running")
                && refused.contains("another --db"),
            "{refused}"
        );
        drop(first);
        ServerLock::take(&db).expect("free again once the holder let go");
    }

    #[test]
    fn a_database_in_a_directory_that_does_not_exist_is_said_so_before_any_lock() {
        let dir = tempfile::tempdir().unwrap();
        let err = ServerLock::take(&dir.path().join("missing/boardcast.db")).unwrap_err();
        assert!(
            matches!(err, StorageError::Setup { .. }) && err.to_string().contains("does not exist"),
            "{err}"
        );
    }
}
