//! A real `redis-server` for the server crate's own tests, on a free loopback port in a
//! temporary directory, killed on drop. (The cluster harness for whole-server tests lives in
//! `testkit`; this is the minimum the bus and the inbox need.)
//!
//! Without `redis-server` a developer's `cargo test` prints a "skipped" line and passes; in CI
//! it fails.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SKIP_LINE: &str = "skipped: install redis-server (apt-get install -y redis-server)";

#[derive(Debug)]
pub struct TestRedis {
    port: u16,
    dir: tempfile::TempDir,
    child: Option<Child>,
}

impl TestRedis {
    /// A fresh server, or `None` after the "skipped" line when `redis-server` is missing.
    pub fn start_or_skip(test: &str) -> Option<TestRedis> {
        if Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_err()
        {
            assert!(!boardcast_testkit::in_ci(), "{test}: {SKIP_LINE}");
            eprintln!("{test}: {SKIP_LINE}");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free loopback port")
            .port();
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut redis = TestRedis {
            port,
            dir,
            child: None,
        };
        redis.start();
        Some(redis)
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kills the server (as a crash would) and starts a new, empty one on the same port.
    pub fn restart(&mut self) {
        self.kill();
        self.start();
    }

    fn start(&mut self) {
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string()])
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .current_dir(self.dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        self.kill();
    }
}
