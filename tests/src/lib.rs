//! Helpers shared by the end-to-end tests and the load generator: start the real server
//! binary on a free port with a temporary database, and talk to it over WebSockets.

use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The server program under test: this package's `boardcast-server-e2e` binary, which runs
/// exactly `boardcast_server::cli::main`, the `boardcast-server` entry point. Integration
/// tests pass `env!("CARGO_BIN_EXE_boardcast-server-e2e")`.
pub const SERVER_BIN_ENV: &str = "CARGO_BIN_EXE_boardcast-server-e2e";

/// A running `boardcast-server` process, killed on drop.
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
}

impl ServerProcess {
    /// Starts the server binary on `addr` with `db`, and waits until it accepts connections.
    /// `program` is the server binary (see [`SERVER_BIN_ENV`]).
    pub fn start(
        program: &Path,
        addr: SocketAddr,
        db: &Path,
        extra_args: &[&str],
    ) -> std::io::Result<Self> {
        let child = Command::new(program)
            .arg("--listen")
            .arg(addr.to_string())
            .arg("--db")
            .arg(db)
            .args(extra_args)
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()?;
        let process = ServerProcess { child, addr };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(addr).is_err() {
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
