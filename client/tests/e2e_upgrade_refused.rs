//! `boardcast` against a real server asked on a wrong path: the WebSocket upgrade is answered
//! 404, and the session ends at once with a plain sentence saying what to check instead of
//! retrying forever (issue 27). That a busy server (503, `Retry-After`) is tried again is
//! `net`'s own test.

// Shared with the other end-to-end tests, which use the rest of it.
#[allow(dead_code)]
mod common;

use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use boardcast_server::{Config, Server};

/// `boardcast --plain ARGS…` in its interactive mode (the one that retries), stdin held open.
fn interactive(args: &[&str]) -> Child {
    common::boardcast(&["--plain"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the boardcast binary starts")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_wrong_path_ends_the_session_with_the_reason_instead_of_retrying() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(Config::for_tests(dir.path().join("boardcast.db")))
        .await
        .expect("the server starts");
    let url = format!("ws://127.0.0.1:{}/wsx", server.local_addr().port());
    let data = dir.path().join("data");

    tokio::task::spawn_blocking(move || {
        let mut child = interactive(&["--server", &url, "--data-dir", data.to_str().unwrap()]);
        let deadline = Instant::now() + Duration::from_secs(20);
        while child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = child.kill();
                let output = child.wait_with_output().unwrap();
                panic!(
                    "boardcast kept retrying a wrong path; stderr:\n{}",
                    String::from_utf8_lossy(&output.stderr)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "the server at {url} answered 404 Not Found for /wsx: is the path right? the default is /ws"
            )),
            "{stderr}"
        );
    })
    .await
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), server.shutdown())
        .await
        .expect("the server stops")
        .unwrap();
}
