//! Helpers shared by the end-to-end tests and the load generator: start the real server
//! binary on a free port with a temporary database, and talk to it over WebSockets.

pub mod browser;
pub mod canary;
pub mod client_bin;
pub mod cluster;
/// The one WebSocket test client, shared with the server's own tests.
pub use boardcast_testkit::client;
pub mod games;
pub mod ledger;
pub mod members;
pub mod ratings;
pub mod tls;
pub mod web;

use std::future::Future;
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server program under test: this package's `boardcast-server-e2e` binary, which runs
/// exactly `boardcast_server::cli::main`, the `boardcast-server` entry point. Integration
/// tests pass `env!("CARGO_BIN_EXE_boardcast-server-e2e")`.
pub const SERVER_BIN_ENV: &str = "CARGO_BIN_EXE_boardcast-server-e2e";

/// A running `boardcast-server` process, killed on drop.
#[derive(Debug)]
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
}

impl ServerProcess {
    /// Starts the server binary on `addr` with `db` (unless `extra_args` name a `--database`),
    /// and waits until it accepts connections.
    /// `program` is the server binary (see [`SERVER_BIN_ENV`]).
    pub fn start(
        program: &Path,
        addr: SocketAddr,
        db: &Path,
        extra_args: &[&str],
    ) -> std::io::Result<Self> {
        let mut command = Command::new(program);
        command.arg("--listen").arg(addr.to_string());
        // `--database` (PostgreSQL) and `--db` name the store two ways: one of them.
        if !extra_args.contains(&"--database") {
            command.arg("--db").arg(db);
        }
        // The server logs on stderr, which the test shows: its warnings and errors, not
        // every match it starts, unless the test asks for a level.
        if !extra_args.contains(&"--log") {
            command.args(["--log", "warn"]);
        }
        command
            .args(extra_args)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        Self::spawn(command, addr)
    }

    /// Runs `command` (a server told to listen on `addr`) and waits until it accepts
    /// connections.
    pub fn spawn(mut command: Command, addr: SocketAddr) -> std::io::Result<Self> {
        let child = command.spawn()?;
        let mut process = ServerProcess { child, addr };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(addr).is_err() {
            if let Some(status) = process.child.try_wait()? {
                return Err(std::io::Error::other(format!(
                    "server exited before listening: {status}"
                )));
            }
            if Instant::now() > deadline {
                return Err(std::io::Error::other("server did not start listening"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(process)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback address with a port that was free a moment ago.
pub fn free_addr() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind an ephemeral port");
    listener.local_addr().expect("local address")
}

impl ServerProcess {
    /// Sends SIGTERM and waits for the exit status, at most `timeout`.
    pub fn terminate(&mut self, timeout: Duration) -> std::io::Result<std::process::ExitStatus> {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status()?;
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(status);
            }
            if Instant::now() > deadline {
                return Err(std::io::Error::other("server did not exit after SIGTERM"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// A minimal blocking HTTP/1.1 GET; returns the status code and the body.
pub fn http_get(addr: SocketAddr, path: &str) -> std::io::Result<(u16, String)> {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut response = String::new();
    stream.read_to_string(&mut response)?;
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("not an HTTP response: {response:?}")))?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

impl ServerProcess {
    /// Kills the server with SIGKILL (no chance to flush anything) and reaps it.
    pub fn kill9(&mut self) -> std::io::Result<std::process::ExitStatus> {
        self.child.kill()?;
        self.child.wait()
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

/// Per-address limits high enough never to matter for tests that are about something else.
pub const UNLIMITED_ADDRESSES: [(&str, &str); 6] = [
    ("--max-connections-per-address", "1000000"),
    ("--connection-reserve", "0"),
    ("--upgrades-per-minute", "1000000"),
    ("--matches-per-minute", "1000000"),
    ("--open-seeks-per-address", "1000000"),
    ("--engine-games-per-minute", "1000000"),
];

/// A server process on a temporary database that outlives restarts.
pub struct TestServer {
    pub process: ServerProcess,
    pub dir: tempfile::TempDir,
    pub args: Vec<String>,
}

impl TestServer {
    /// The database file inside the temporary directory.
    pub fn db(&self) -> std::path::PathBuf {
        self.dir.path().join("boardcast.db")
    }

    pub fn addr(&self) -> SocketAddr {
        self.process.addr
    }

    /// Starts `program` on a free loopback port with a fresh database and `args`; retries on
    /// another port if the chosen one was taken meanwhile.
    ///
    /// Every client of a test comes from 127.0.0.1, so the per-address limits are lifted
    /// ([`UNLIMITED_ADDRESSES`]) unless `args` sets them.
    pub fn start(program: &Path, args: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
        for (flag, value) in UNLIMITED_ADDRESSES {
            if !args.iter().any(|arg| arg == flag) {
                args.extend([flag.to_owned(), value.to_owned()]);
            }
        }
        let process = start_on_free_port(program, &dir.path().join("boardcast.db"), &args);
        TestServer { process, dir, args }
    }

    /// Starts the server again on the same database (on a new free port); the old process
    /// must have stopped.
    pub fn restart(&mut self, program: &Path) {
        let process = start_on_free_port(program, &self.db(), &self.args);
        // Assigning drops (and kills) the old process, which has already exited.
        self.process = process;
    }
}

fn start_on_free_port(program: &Path, db: &Path, args: &[String]) -> ServerProcess {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut last = None;
    for _ in 0..5 {
        match ServerProcess::start(program, free_addr(), db, &args) {
            Ok(process) => return process,
            Err(err) => last = Some(err),
        }
    }
    panic!("the server did not start: {last:?}");
}

/// Runs every task at once and returns their results in the order given; panics with every
/// failure, one a line, if any task failed (each test's matches run side by side this way).
pub async fn all_in_order<T, F>(tasks: impl IntoIterator<Item = F>) -> Vec<T>
where
    T: Send + 'static,
    F: Future<Output = Result<T, String>> + Send + 'static,
{
    let mut set = tokio::task::JoinSet::new();
    for (index, task) in tasks.into_iter().enumerate() {
        set.spawn(async move { (index, task.await) });
    }
    let mut out: Vec<Option<T>> = Vec::new();
    let mut failures = Vec::new();
    while let Some(done) = set.join_next().await {
        let (index, result) = done.expect("a task panicked");
        if out.len() <= index {
            out.resize_with(index + 1, || None);
        }
        match result {
            Ok(value) => out[index] = Some(value),
            Err(failure) => failures.push(failure),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    out.into_iter()
        .map(|value| value.expect("every task"))
        .collect()
}
