//! A real PostgreSQL server for tests: Debian's `postgresql` programs (`initdb`, `pg_ctl`) run
//! in a temporary directory on a free loopback port, with `fsync` and `synchronous_commit` on
//! as in production.
//!
//! PostgreSQL refuses to run as root, so when the tests run as root the server runs as an
//! unprivileged system user ([`OS_USER`], created once, idempotently) that owns the directory.
//! A small watchdog process, started first, holds a pipe from the test process: when the
//! [`Cluster`] is dropped — or the test process dies, even by `kill -9` — the pipe closes and
//! the watchdog stops the server and removes the directory. So no server outlives its tests.
//!
//! Without PostgreSQL a developer's `cargo test` prints [`SKIP_LINE`] and passes; in CI
//! ([`crate::in_ci`]) it fails instead.

use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::{free_port, tail};

/// The line a developer without PostgreSQL sees (and the fix).
pub const SKIP_LINE: &str = "skipped: install postgresql (apt-get install -y postgresql)";

/// The unprivileged system user the server runs as when the tests run as root.
pub const OS_USER: &str = "boardcast-pg";

/// The database superuser `initdb` creates; loopback connections are trusted.
pub const SUPERUSER: &str = "boardcast";

/// Settings beside `initdb`'s defaults: loopback only, durable commits, small memory (many
/// test servers may run at once on a small machine).
const SETTINGS: &str = "
listen_addresses = '127.0.0.1'
fsync = on
synchronous_commit = on
max_connections = 200
shared_buffers = 32MB
log_min_messages = warning
";

/// A running PostgreSQL server, stopped and removed on drop.
#[derive(Debug)]
pub struct Cluster {
    /// The PostgreSQL programs.
    bin: PathBuf,
    /// The temporary directory: `data/`, the socket, the logs.
    dir: PathBuf,
    port: AtomicU16,
    /// The OS user the programs run as (root only), or `None` for the current user.
    run_as: Option<String>,
    /// Its stdin is the pipe whose end stops the server; see the module doc.
    watchdog: Mutex<Option<Child>>,
    /// Databases made so far, for fresh names.
    databases: AtomicU32,
}

impl Cluster {
    /// Starts a server of its own (for a test that stops and restarts it), or returns `None`
    /// after printing [`SKIP_LINE`] when PostgreSQL is not installed on a developer's machine.
    /// In CI, or when PostgreSQL is installed but cannot start, the test fails.
    pub fn start_or_skip(test: &str) -> Option<Cluster> {
        installed_or_skip(test)?;
        Some(Cluster::start().unwrap_or_else(|err| panic!("{test}: {err}")))
    }

    /// One server shared by every test of this test process, each test in a database of its
    /// own ([`Cluster::create_database`]); `None` (after [`SKIP_LINE`]) as for
    /// [`Cluster::start_or_skip`]. It stops when the test process ends.
    pub fn shared_or_skip(test: &str) -> Option<&'static Cluster> {
        static SHARED: OnceLock<Result<Cluster, String>> = OnceLock::new();
        installed_or_skip(test)?;
        match SHARED.get_or_init(Cluster::start) {
            Ok(cluster) => Some(cluster),
            Err(err) => panic!("{test}: {err}"),
        }
    }

    /// Makes a directory, runs `initdb` and starts the server on a free loopback port.
    pub fn start() -> Result<Cluster, String> {
        let bin = find_bin()?;
        let run_as = if is_root() {
            Some(ensure_os_user()?)
        } else {
            None
        };
        let dir = tempfile::Builder::new()
            .prefix("boardcast-pg-")
            .tempdir()
            .map_err(|err| format!("cannot make a temporary directory: {err}"))?
            .keep();
        if let Some(user) = &run_as {
            let uid = os_user_id(user)?;
            std::os::unix::fs::chown(&dir, Some(uid), None)
                .map_err(|err| format!("cannot give {} to {user}: {err}", dir.display()))?;
        }
        let cluster = Cluster {
            bin,
            dir,
            port: AtomicU16::new(0),
            run_as,
            watchdog: Mutex::new(None),
            databases: AtomicU32::new(0),
        };
        cluster.spawn_watchdog()?;
        cluster.initdb()?;
        // A port found free can be taken before the server binds it: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            cluster.port.store(free_port()?, Ordering::SeqCst);
            match cluster.start_again() {
                Ok(()) => return Ok(cluster),
                Err(err) => last = err,
            }
        }
        Err(last)
    }

    /// The loopback port the server listens on.
    pub fn port(&self) -> u16 {
        self.port.load(Ordering::SeqCst)
    }

    /// The URL of `database` on this server, as the superuser.
    pub fn url(&self, database: &str) -> String {
        format!(
            "postgres://{SUPERUSER}@127.0.0.1:{}/{database}",
            self.port()
        )
    }

    /// Creates an empty database of its own and returns its URL.
    pub fn create_database(&self) -> String {
        let name = format!("t{}", self.databases.fetch_add(1, Ordering::SeqCst) + 1);
        let port = self.port().to_string();
        self.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port, "-U", SUPERUSER, &name],
            "createdb",
        )
        .unwrap_or_else(|err| panic!("{err}"));
        self.url(&name)
    }

    /// Stops the server (fast shutdown: every connection is closed); [`Cluster::start_again`]
    /// brings it back on the same port with the same data.
    pub fn stop(&self) {
        let data = self.data();
        self.run(
            "pg_ctl",
            &["-D", &data, "-m", "fast", "-w", "-t", "60", "stop"],
            "pg_ctl-stop",
        )
        .unwrap_or_else(|err| panic!("{err}"));
    }

    /// Starts the (stopped) server again on its port; waits until it accepts connections.
    pub fn start_again(&self) -> Result<(), String> {
        let data = self.data();
        let log = self.dir.join("server.log").display().to_string();
        let options = format!("-p {} -k {}", self.port(), self.dir.display());
        self.run(
            "pg_ctl",
            &[
                "-D", &data, "-l", &log, "-o", &options, "-w", "-t", "120", "start",
            ],
            "pg_ctl-start",
        )
        .map_err(|err| format!("{err}\nserver log:\n{}", tail(&self.dir.join("server.log"))))
    }

    fn data(&self) -> String {
        self.dir.join("data").display().to_string()
    }

    fn initdb(&self) -> Result<(), String> {
        let data = self.data();
        self.run(
            "initdb",
            &[
                "-D",
                &data,
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            "initdb",
        )?;
        OpenOptions::new()
            .append(true)
            .open(self.dir.join("data/postgresql.conf"))
            .and_then(|mut conf| conf.write_all(SETTINGS.as_bytes()))
            .map_err(|err| format!("cannot configure the test server: {err}"))
    }

    /// Starts the process that stops the server and removes the directory once its stdin
    /// closes.
    fn spawn_watchdog(&self) -> Result<(), String> {
        let script = r#"read _ ; "$1/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1 ; rm -rf "$2""#;
        let bin = self.bin.display().to_string();
        let dir = self.dir.display().to_string();
        let child = self
            .command("sh", &["-c", script, "sh", &bin, &dir])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| format!("cannot start the PostgreSQL watchdog: {err}"))?;
        *self.watchdog.lock().unwrap_or_else(|e| e.into_inner()) = Some(child);
        Ok(())
    }

    /// `program` (a PostgreSQL program, or any other on PATH) as the server's OS user, in the
    /// server's directory.
    fn command(&self, program: &str, args: &[&str]) -> Command {
        let program = match self.bin.join(program) {
            path if path.is_file() => path,
            _ => PathBuf::from(program),
        };
        let mut command = match &self.run_as {
            Some(user) => {
                let mut command = Command::new("runuser");
                command.args(["-u", user, "--"]).arg(program);
                command
            }
            None => Command::new(program),
        };
        command
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null());
        command
    }

    /// Runs `program` to completion, its output in `<log>.log`; the output is the error.
    fn run(&self, program: &str, args: &[&str], log: &str) -> Result<(), String> {
        let path = self.dir.join(format!("{log}.log"));
        let out = File::create(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        let err = out.try_clone().map_err(|err| err.to_string())?;
        let status = self
            .command(program, args)
            .stdout(out)
            .stderr(err)
            .status()
            .map_err(|err| format!("cannot run {program}: {err}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!(
                "{program} {} failed ({status}):\n{}",
                args.join(" "),
                tail(&path)
            ))
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let watchdog = self.watchdog.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(mut child) = watchdog.take() {
            drop(child.stdin.take());
            let _ = child.wait();
        }
    }
}

/// `Some(())` when PostgreSQL's programs are here; otherwise prints [`SKIP_LINE`] (past the
/// test harness's capture, so a passing `cargo test` still shows it), or panics in CI.
fn installed_or_skip(test: &str) -> Option<()> {
    match find_bin() {
        Ok(_) => Some(()),
        Err(missing) if crate::in_ci() => {
            panic!("{test}: the PostgreSQL tests must run in CI but cannot: {missing}")
        }
        Err(missing) => {
            let _ = writeln!(std::io::stderr(), "{test}: {SKIP_LINE} ({missing})");
            None
        }
    }
}

/// Whether any row of any table of the database at `url` holds `text` anywhere in its text
/// form: how a test proves that a secret (a seat token) is not at rest in a store.
pub async fn tables_hold(url: &str, text: &str) -> bool {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let tables = client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
            &[],
        )
        .await
        .unwrap();
    for table in tables {
        let table: String = table.get(0);
        let sql = format!("SELECT EXISTS (SELECT 1 FROM {table} t WHERE strpos(t::text, $1) > 0)");
        if client.query_one(&sql, &[&text]).await.unwrap().get(0) {
            return true;
        }
    }
    false
}

/// The directory holding `initdb` and `pg_ctl`: `BOARDCAST_PG_BIN`, else PATH, else the
/// newest `/usr/lib/postgresql/<version>/bin` (where Debian puts them).
pub fn find_bin() -> Result<PathBuf, String> {
    let complete = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    if let Some(dir) = std::env::var_os("BOARDCAST_PG_BIN") {
        let dir = PathBuf::from(dir);
        return if complete(&dir) {
            Ok(dir)
        } else {
            Err(format!(
                "BOARDCAST_PG_BIN={} has no initdb and pg_ctl",
                dir.display()
            ))
        };
    }
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(dir) = on_path.into_iter().find(|dir| complete(dir)) {
        return Ok(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, dir)| complete(dir))
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, dir)| dir)
        .ok_or_else(|| "no initdb and pg_ctl in /usr/lib/postgresql/*/bin or on PATH".to_owned())
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|me| me.uid() == 0)
}

/// Creates [`OS_USER`] if it does not exist yet (several test processes may race to).
fn ensure_os_user() -> Result<String, String> {
    static CREATING: Mutex<()> = Mutex::new(());
    let _one = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    if os_user_id(OS_USER).is_ok() {
        return Ok(OS_USER.to_owned());
    }
    let created = Command::new("useradd")
        .args([
            "--system",
            "--user-group",
            "--no-create-home",
            "--home-dir",
            "/nonexistent",
            "--shell",
            "/usr/sbin/nologin",
            OS_USER,
        ])
        .output()
        .map_err(|err| format!("cannot run useradd: {err}"))?;
    // Another process may have made it in the meantime: what counts is that it exists now.
    os_user_id(OS_USER)
        .map(|_| OS_USER.to_owned())
        .map_err(|_| {
            format!(
                "PostgreSQL will not run as root and the user {OS_USER} could not be made: {}",
                String::from_utf8_lossy(&created.stderr).trim()
            )
        })
}

fn os_user_id(user: &str) -> Result<u32, String> {
    let out = Command::new("id")
        .args(["-u", user])
        .output()
        .map_err(|err| format!("cannot run id: {err}"))?;
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .map_err(|_| format!("no user {user}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cluster_serves_fresh_databases_and_is_gone_after_drop() {
        let Some(cluster) = Cluster::start_or_skip("testkit") else {
            return;
        };
        let first = cluster.create_database();
        let second = cluster.create_database();
        assert_eq!(
            first,
            format!("postgres://boardcast@127.0.0.1:{}/t1", cluster.port())
        );
        assert_ne!(first, second);
        let dir = cluster.dir.clone();
        let port = cluster.port();
        cluster.stop();
        cluster.start_again().unwrap();
        drop(cluster);
        assert!(!dir.exists(), "the directory is removed");
        assert!(
            std::net::TcpStream::connect(("127.0.0.1", port)).is_err(),
            "the server is stopped"
        );
    }
}
