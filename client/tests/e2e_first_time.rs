//! End to end, what a first-time user runs into (issue 16): the server address in the forms
//! people type, failures that exit non-zero, claims, illegal guesses and saving the PDN,
//! against the real server started in-process on a free port.

use std::process::{Command, Stdio};

use boardcast_server::{Config, Server};

async fn start(dir: &std::path::Path) -> Server {
    Server::start(Config::for_tests(dir.join("boardcast.db")))
        .await
        .expect("the server starts")
}

/// Runs `boardcast ARGS…` to its end with empty stdin: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_boardcast"))
        .args(args)
        .env_remove("BOARDCAST_SERVER")
        .env_remove("BOARDCAST_NAME")
        .stdin(Stdio::null())
        .output()
        .expect("the boardcast binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_server_address_works_as_host_port_and_http_and_a_bad_one_says_the_form() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.local_addr().to_string();
    let data = dir.path().join("d");
    tokio::task::spawn_blocking(move || {
        let data = data.to_str().unwrap();
        for form in [
            addr.clone(),
            format!("http://{addr}"),
            format!("ws://{addr}"),
        ] {
            let (code, out, err) = run(&["--server", &form, "--data-dir", data, "list"]);
            assert_eq!(code, Some(0), "{form}: {out}{err}");
            assert!(out.lines().any(|l| l == "lobby end"), "{form}: {out}");
        }
        let (code, out, err) = run(&["--server", "ftp://example", "list"]);
        assert_eq!(code, Some(2), "{out}{err}");
        assert!(out.is_empty());
        assert_eq!(
            err.trim(),
            "boardcast: --server: `ftp://example` is not a server address (unknown scheme \
             ftp): expected HOST:PORT (e.g. 192.168.1.20:7878) or ws://HOST:PORT/ws (also \
             wss://, http://, https://)"
        );
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}
