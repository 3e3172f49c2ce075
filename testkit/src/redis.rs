//! A real Redis server for tests: Debian's `redis-server` on a free loopback port in a
//! temporary directory, with persistence off (`--save ''`, `--appendonly no`): the cluster keeps
//! nothing in Redis that must survive, and a restarted Redis must come back empty, as it would
//! in production after a crash.
//!
//! A server may require a password (`requirepass`, as the README's recipe sets one up):
//! [`Redis::start_with_password`]; its [`Redis::url`] then carries it (`redis://:PASSWORD@…`).
//!
//! The tests stop Redis and start it again on the same port ([`Redis::stop`],
//! [`Redis::start_again`]) to see the nodes lose it and reconnect. As for PostgreSQL, a small
//! watchdog process holds a pipe from the test process: when the [`Redis`] is dropped — or the
//! test process dies, even by `kill -9` — the pipe closes and the watchdog kills the server (by
//! the pid file Redis writes) and removes the directory.
//!
//! Without `redis-server` a developer's `cargo test` prints [`SKIP_LINE`] and passes; in CI
//! ([`crate::in_ci`]) it fails instead.

use std::io::{Read, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::{free_port, tail};

/// The line a developer without Redis sees (and the fix).
pub const SKIP_LINE: &str = "skipped: install redis-server (apt-get install -y redis-server)";

/// How long a starting server may take to answer `PING` on a loaded machine.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A running `redis-server`, stopped and removed on drop.
#[derive(Debug)]
pub struct Redis {
    /// The `redis-server` program.
    bin: PathBuf,
    /// The temporary directory: the pid file and the log.
    dir: PathBuf,
    /// Chosen once: a restart comes back on the same port, so nodes reconnect to the same URL.
    port: u16,
    /// What clients must `AUTH` with (`requirepass`), if anything.
    password: Option<String>,
    /// The server process while it runs.
    server: Mutex<Option<Child>>,
    /// Its stdin is the pipe whose end stops the server; see the module doc.
    watchdog: Mutex<Option<Child>>,
}

impl Redis {
    /// Starts a server, or returns `None` after printing [`SKIP_LINE`] when `redis-server` is
    /// not installed on a developer's machine. In CI, or when it is installed but cannot
    /// start, the test fails.
    pub fn start_or_skip(test: &str) -> Option<Redis> {
        installed_or_skip(test)?;
        Some(Redis::start().unwrap_or_else(|err| panic!("{test}: {err}")))
    }

    /// Makes a directory and starts the server on a free loopback port.
    pub fn start() -> Result<Redis, String> {
        Redis::start_requiring(None)
    }

    /// As [`Redis::start_or_skip`], for a server that refuses clients without `password`.
    pub fn start_with_password_or_skip(test: &str, password: &str) -> Option<Redis> {
        installed_or_skip(test)?;
        Some(
            Redis::start_requiring(Some(password.to_owned()))
                .unwrap_or_else(|err| panic!("{test}: {err}")),
        )
    }

    /// Starts a server that requires `password`, if given.
    fn start_requiring(password: Option<String>) -> Result<Redis, String> {
        let bin = find_bin()?;
        let dir = tempfile::Builder::new()
            .prefix("boardcast-redis-")
            .tempdir()
            .map_err(|err| format!("cannot make a temporary directory: {err}"))?
            .keep();
        let mut redis = Redis {
            bin,
            dir,
            port: 0,
            password,
            server: Mutex::new(None),
            watchdog: Mutex::new(None),
        };
        redis.spawn_watchdog()?;
        // A port found free can be taken before the server binds it: try a few.
        let mut last = String::new();
        for _ in 0..5 {
            redis.port = free_port()?;
            match redis.start_again() {
                Ok(()) => return Ok(redis),
                Err(err) => last = err,
            }
        }
        Err(last)
    }

    /// The loopback port the server listens on (the same after a restart).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL nodes connect to: `redis://127.0.0.1:PORT`, or `redis://:PASSWORD@127.0.0.1:PORT`
    /// when the server requires a password.
    pub fn url(&self) -> String {
        match &self.password {
            Some(password) => format!("redis://:{password}@127.0.0.1:{}", self.port),
            None => format!("redis://127.0.0.1:{}", self.port),
        }
    }

    /// Kills the server at once (SIGKILL, as a crash would) and waits until it is gone: every
    /// connection to it breaks and everything it held is lost. Does nothing when it is
    /// stopped already.
    pub fn stop(&self) {
        let mut server = self.server.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(mut child) = server.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        // Killed, Redis leaves its pid file behind; the watchdog must not kill that pid later.
        let _ = std::fs::remove_file(self.pid_file());
    }

    /// The running server's process id, if it runs (to freeze it with SIGSTOP, say).
    pub fn pid(&self) -> Option<u32> {
        let server = self.server.lock().unwrap_or_else(|e| e.into_inner());
        server.as_ref().map(std::process::Child::id)
    }

    /// Starts the (stopped) server on its port, empty; waits until it answers `PING`.
    pub fn start_again(&self) -> Result<(), String> {
        let mut server = self.server.lock().unwrap_or_else(|e| e.into_inner());
        if server.is_some() {
            return Err("redis-server is running already".to_owned());
        }
        let log = self.dir.join("redis.log");
        let port = self.port.to_string();
        let pid_file = self.pid_file().display().to_string();
        let mut command = Command::new(&self.bin);
        if let Some(password) = &self.password {
            command.args(["--requirepass", password]);
        }
        let mut child = command
            .args(["--port", &port, "--bind", "127.0.0.1", "--save", ""])
            .args(["--appendonly", "no", "--daemonize", "no"])
            .args(["--pidfile", &pid_file])
            .arg("--logfile")
            .arg(&log)
            .arg("--dir")
            .arg(&self.dir)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| format!("cannot run {}: {err}", self.bin.display()))?;
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            if self.ping().is_ok() {
                *server = Some(child);
                return Ok(());
            }
            let failed = match child.try_wait() {
                Ok(Some(status)) => Some(format!("redis-server exited ({status})")),
                Ok(None) if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    Some(format!(
                        "redis-server did not answer within {START_TIMEOUT:?}"
                    ))
                }
                Ok(None) => None,
                Err(err) => Some(format!("cannot watch redis-server: {err}")),
            };
            if let Some(failed) = failed {
                return Err(format!("{failed} on port {port}; its log:\n{}", tail(&log)));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Whether the server is running (started and not stopped).
    pub fn is_running(&self) -> bool {
        let mut server = self.server.lock().unwrap_or_else(|e| e.into_inner());
        server
            .as_mut()
            .is_some_and(|child| matches!(child.try_wait(), Ok(None)))
    }

    /// Sends `PING` and checks for `+PONG`.
    pub fn ping(&self) -> Result<(), String> {
        ping(self.addr(), self.password.as_deref())
    }

    fn addr(&self) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], self.port))
    }

    fn pid_file(&self) -> PathBuf {
        self.dir.join("redis.pid")
    }

    /// Starts the process that kills the server and removes the directory once its stdin
    /// closes. It checks the pid file names a `redis-server` before killing it.
    fn spawn_watchdog(&self) -> Result<(), String> {
        let script = r#"read _ ; pid=$(cat "$1/redis.pid" 2>/dev/null) ; if [ -n "$pid" ] && grep -q redis "/proc/$pid/comm" 2>/dev/null ; then kill -9 "$pid" ; fi ; rm -rf "$1""#;
        let dir = self.dir.display().to_string();
        let child = Command::new("sh")
            .args(["-c", script, "sh", &dir])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|err| format!("cannot start the Redis watchdog: {err}"))?;
        *self.watchdog.lock().unwrap_or_else(|e| e.into_inner()) = Some(child);
        Ok(())
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
        let watchdog = self.watchdog.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(mut child) = watchdog.take() {
            drop(child.stdin.take());
            let _ = child.wait();
        }
    }
}

/// A raw RESP `PING` over TCP (the server's own protocol; no client library needed for one
/// command).
fn ping(addr: SocketAddr, password: Option<&str>) -> Result<(), String> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(2))
        .map_err(|err| format!("cannot connect to redis at {addr}: {err}"))?;
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .map_err(|err| err.to_string())?;
    if let Some(password) = password {
        let auth = format!("*2\r\n$4\r\nAUTH\r\n${}\r\n{password}\r\n", password.len());
        let reply = command(&mut stream, auth.as_bytes(), "AUTH")?;
        if reply != b"+OK\r\n" {
            // The password itself stays out of the message.
            return Err(format!(
                "AUTH answered {:?}",
                String::from_utf8_lossy(&reply)
            ));
        }
    }
    let reply = command(&mut stream, b"*1\r\n$4\r\nPING\r\n", "PING")?;
    if reply == b"+PONG\r\n" {
        Ok(())
    } else {
        Err(format!(
            "PING answered {:?}",
            String::from_utf8_lossy(&reply)
        ))
    }
}

/// Sends one encoded command and reads its one-line reply.
fn command(stream: &mut TcpStream, encoded: &[u8], name: &str) -> Result<Vec<u8>, String> {
    stream
        .write_all(encoded)
        .map_err(|err| format!("cannot send {name}: {err}"))?;
    let mut reply = Vec::new();
    let mut byte = [0u8; 1];
    while !reply.ends_with(b"\r\n") && reply.len() < 512 {
        match stream.read(&mut byte) {
            Ok(1) => reply.push(byte[0]),
            Ok(_) => break,
            Err(err) => return Err(format!("no answer to {name}: {err}")),
        }
    }
    Ok(reply)
}

/// `Some(())` when `redis-server` is here; otherwise prints [`SKIP_LINE`] (past the test
/// harness's capture, so a passing `cargo test` still shows it), or panics in CI.
fn installed_or_skip(test: &str) -> Option<()> {
    match find_bin() {
        Ok(_) => Some(()),
        Err(missing) if crate::in_ci() => {
            panic!("{test}: the Redis tests must run in CI but cannot: {missing}")
        }
        Err(missing) => {
            let _ = writeln!(std::io::stderr(), "{test}: {SKIP_LINE} ({missing})");
            None
        }
    }
}

/// The `redis-server` program: `BOARDCAST_REDIS_SERVER`, else PATH, else `/usr/bin` and
/// `/usr/sbin` (where Debian puts it; `/usr/sbin` is not on every user's PATH).
pub fn find_bin() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("BOARDCAST_REDIS_SERVER") {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(format!(
                "BOARDCAST_REDIS_SERVER={} is not a file",
                path.display()
            ))
        };
    }
    let on_path = std::env::var_os("PATH")
        .map(|path| std::env::split_paths(&path).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .iter()
        .map(PathBuf::as_path)
        .chain([Path::new("/usr/bin"), Path::new("/usr/sbin")])
        .map(|dir| dir.join("redis-server"))
        .find(|path| path.is_file())
        .ok_or_else(|| "no redis-server on PATH or in /usr/bin, /usr/sbin".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_answers_ping_comes_back_on_its_port_and_is_gone_after_drop() {
        let Some(redis) = Redis::start_or_skip("testkit redis") else {
            return;
        };
        let port = redis.port();
        assert_eq!(redis.url(), format!("redis://127.0.0.1:{port}"));
        redis.ping().expect("a fresh server answers PING");
        assert!(redis.is_running());

        redis.stop();
        assert!(!redis.is_running());
        let refused = redis.ping();
        assert!(
            refused
                .as_ref()
                .is_err_and(|err| err.starts_with("cannot connect to redis")),
            "a stopped server does not answer: {refused:?}"
        );

        redis.start_again().expect("starts again");
        assert_eq!(redis.port(), port, "a restart keeps the port");
        redis.ping().expect("the restarted server answers PING");

        let dir = redis.dir.clone();
        drop(redis);
        assert!(!dir.exists(), "the directory is removed");
        assert!(
            TcpStream::connect(("127.0.0.1", port)).is_err(),
            "the server is stopped"
        );
    }

    #[test]
    fn the_watchdog_kills_the_server_when_the_test_process_lets_go() {
        let Some(redis) = Redis::start_or_skip("testkit redis watchdog") else {
            return;
        };
        let port = redis.port();
        let dir = redis.dir.clone();
        // As if the test process died: the server is left running, only the pipe closes.
        let mut server = redis.server.lock().unwrap().take().expect("running");
        let mut watchdog = redis.watchdog.lock().unwrap().take().expect("watching");
        // Its drop would stop the server itself (and remove the pid file the watchdog reads).
        std::mem::forget(redis);
        drop(watchdog.stdin.take());
        watchdog.wait().expect("the watchdog ends");
        let status = server.wait().expect("the server ends");
        assert!(
            !status.success(),
            "killed, not stopped by itself: {status:?}"
        );
        assert!(!dir.exists(), "the directory is removed");
        assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
    }
}
