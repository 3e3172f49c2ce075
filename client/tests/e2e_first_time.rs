//! End to end, what a first-time user runs into (issue 16): the server address in the forms
//! people type, failures that exit non-zero, claims, illegal guesses and saving the PDN,
//! against the real server started in-process on a free port.

mod common;

use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

use boardcast_server::{Config, Server};

use common::Plain;

async fn start(dir: &std::path::Path) -> Server {
    Server::start(Config::for_tests(dir.join("boardcast.db")))
        .await
        .expect("the server starts")
}

/// Runs `boardcast ARGS…` to its end with empty stdin: (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let output = common::boardcast(args)
        .stdin(Stdio::null())
        .output()
        .expect("the boardcast binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Runs `boardcast --plain ARGS…` with its stdin held open, as in a terminal, until it ends by
/// itself: (exit code, stdout, stderr).
fn run_open(args: &[&str]) -> (Option<i32>, String, String) {
    let mut child = common::boardcast(&["--plain"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the boardcast binary starts");
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            // Only this test's own child, by handle.
            let _ = child.kill();
            panic!("boardcast {args:?} did not end by itself");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), out, err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_refused_start_up_command_or_an_unreachable_server_exits_non_zero_on_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let addr = server.local_addr().to_string();
    let data = dir.path().join("d");
    tokio::task::spawn_blocking(move || {
        let data = data.to_str().unwrap();
        let (code, out, err) =
            run_open(&["--server", &addr, "--data-dir", data, "join", "BADCODE"]);
        assert_eq!(code, Some(1), "{out}{err}");
        let refusal = err
            .trim()
            .strip_prefix("boardcast: not_found: ")
            .unwrap_or_else(|| panic!("{err}"));
        assert!(
            out.lines()
                .any(|l| l.starts_with("error not_found: ") && l.ends_with(refusal)),
            "{out}"
        );
        let (code, _, err) = run_open(&["--server", &addr, "--data-dir", data, "watch", "m404"]);
        assert_eq!(code, Some(1));
        assert!(err.starts_with("boardcast: not_found: "), "{err}");
        // A port nobody listens on (the server's own, once it is stopped, is not guaranteed
        // free; a bound and unused listener's is).
        let idle = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = idle.local_addr().unwrap().port();
        drop(idle);
        let (code, _, err) = run_open(&[
            "--server",
            &format!("127.0.0.1:{port}"),
            "--data-dir",
            data,
            "tv",
        ]);
        assert_eq!(code, Some(1));
        assert!(
            err.starts_with("boardcast: cannot reach the server: "),
            "{err}"
        );
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gone_opponent_is_announced_claimable_and_a_claim_before_both_moved_aborts() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let url = format!("{}", server.local_addr());
    let (data_a, data_b) = (dir.path().join("a"), dir.path().join("b"));
    let games = dir.path().join("games");
    tokio::task::spawn_blocking(move || {
        let (data_a, data_b) = (data_a.to_str().unwrap(), data_b.to_str().unwrap());
        let mut amy = Plain::start(&[
            "--server",
            &url,
            "--name",
            "amy",
            "--data-dir",
            data_a,
            "--save-pdn",
            games.to_str().unwrap(),
            "play",
            "--color",
            "white",
        ]);
        let seat = amy.expect("seat");
        let code = seat.rsplit(' ').next().unwrap().to_owned();
        let mut ben = Plain::start(&[
            "--server",
            &url,
            "--name",
            "ben",
            "--data-dir",
            data_b,
            "join",
            &code,
        ]);
        ben.expect("turn white");
        amy.expect("legal");
        amy.send("32-28");
        ben.expect("move 1. 32-28");
        // Ben's terminal is closed before he ever moved.
        drop(ben);
        assert_eq!(amy.expect("left"), "left black");
        assert_eq!(
            amy.expect("claimable"),
            "claimable black: claim aborts the match (not both sides have moved)"
        );
        amy.send("claim win");
        assert_eq!(
            amy.expect("result"),
            "result aborted: black left before both sides moved: aborted"
        );
        // Where the PDN is, and (with --save-pdn) the file saved from there.
        let id = seat.split(' ').nth(2).unwrap().to_owned();
        assert_eq!(
            amy.expect("info pdn"),
            format!("info pdn http://{url}/games/{id}.pdn")
        );
        let path = games.join(format!("{id}.pdn"));
        assert_eq!(
            amy.expect("info pdn saved"),
            format!("info pdn saved to {}", path.display())
        );
        let pdn = std::fs::read_to_string(&path).unwrap();
        assert!(
            pdn.contains("[Result \"*\"]") && pdn.contains("32-28"),
            "{pdn}"
        );
        amy.quit();
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
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

#[test]
fn a_name_the_server_would_refuse_stops_the_client_with_the_reason() {
    // Checked before connecting: the server named here is never reached.
    let (code, out, err) = run(&["--server", "127.0.0.1:9", "--name", "Siet\u{AD}ske", "tv"]);
    assert_eq!(code, Some(2), "{out}{err}");
    assert_eq!(
        err.trim(),
        "boardcast: --name: character 5 of the name is a soft hyphen (U+00AD), which does not \
         show and could make the name look like someone else's: remove it"
    );
}

/// An invite code is typed as a person reads it aloud: `boardcast join frj4kd7mqx` (lower
/// case, no dash) takes the seat of the code issued as `FRJ4K-D7MQX`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn join_takes_the_invite_code_in_lower_case_without_the_dash() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let url = format!("{}", server.local_addr());
    let (data_a, data_b) = (dir.path().join("a"), dir.path().join("b"));
    tokio::task::spawn_blocking(move || {
        let (data_a, data_b) = (data_a.to_str().unwrap(), data_b.to_str().unwrap());
        let mut amy = Plain::start(&[
            "--server",
            &url,
            "--name",
            "amy",
            "--data-dir",
            data_a,
            "play",
            "--color",
            "white",
        ]);
        let seat = amy.expect("seat");
        let code = seat.rsplit(' ').next().unwrap().to_owned();
        assert!(
            code.len() == 11 && code.as_bytes()[5] == b'-',
            "codes are issued as two groups of five: {seat}"
        );
        let typed = code.replace('-', "").to_lowercase();
        let mut ben = Plain::start(&[
            "--server",
            &url,
            "--name",
            "ben",
            "--data-dir",
            data_b,
            "join",
            &typed,
        ]);
        let id = seat.split(' ').nth(2).unwrap();
        assert_eq!(ben.expect("seat"), format!("seat black {id} invite {code}"));
        amy.expect("legal");
        amy.send("32-28");
        ben.expect("move 1. 32-28");
        amy.quit();
        ben.quit();
    })
    .await
    .unwrap();
    server.shutdown().await.unwrap();
}
