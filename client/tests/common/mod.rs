//! Helpers for driving the `boardcast` binary in `--plain` mode from a test: start it, write
//! commands to its stdin, and wait for lines on its stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// `boardcast ARGS…`, untouched by the developer's own `BOARDCAST_SERVER` and `BOARDCAST_NAME`.
pub fn boardcast(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardcast"));
    command
        .args(args)
        .env_remove("BOARDCAST_SERVER")
        .env_remove("BOARDCAST_NAME");
    command
}

pub struct Plain {
    pub child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    /// Every line read so far, for failure messages and secrecy checks.
    pub seen: Vec<String>,
}

impl Plain {
    /// Starts `boardcast --plain ARGS…`.
    pub fn start(args: &[&str]) -> Plain {
        let mut child = boardcast(&["--plain"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the boardcast binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Plain {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the client reads stdin");
        self.stdin.flush().unwrap();
    }

    /// Waits for the next line starting with `prefix` (skipping others); returns it.
    pub fn expect(&mut self, prefix: &str) -> String {
        self.expect_any(&[prefix])
    }

    /// Waits for the next line starting with any of `prefixes`; returns it.
    pub fn expect_any(&mut self, prefixes: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if prefixes.iter().any(|p| line.starts_with(p)) {
                        return line;
                    }
                }
                Err(_) => panic!("no line starting with {prefixes:?}; saw {:#?}", self.seen),
            }
        }
    }

    /// Closes stdin with `quit` and waits for a clean exit.
    pub fn quit(mut self) -> Vec<String> {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                break;
            }
            assert!(Instant::now() < deadline, "the client did not quit");
            std::thread::sleep(Duration::from_millis(20));
        }
        while let Ok(line) = self.lines.try_recv() {
            self.seen.push(line);
        }
        std::mem::take(&mut self.seen)
    }
}

impl Drop for Plain {
    fn drop(&mut self) {
        // Only this test's own child process, by handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
