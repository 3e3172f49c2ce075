//! `boardcast engine --hub …` through the real server, with the tests crate's Hub engine
//! (`hub-test-engine`): bridged engines play complete timed matches against each other, and a
//! misbehaving engine is logged, resigned and restarted for the next game (issue 20).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use boardcast_tests::TestServer;

const ENGINE: &str = env!("CARGO_BIN_EXE_hub-test-engine");

/// The `boardcast` client binary, built beside this package's binaries by
/// `cargo test --workspace` (a test cannot name another package's binary directly).
fn client_bin() -> PathBuf {
    let path = Path::new(ENGINE).with_file_name("boardcast");
    assert!(
        path.exists(),
        "{} is missing: run `cargo build -p boardcast-client` (cargo test --workspace builds it)",
        path.display()
    );
    path
}

fn server() -> TestServer {
    TestServer::start(Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e")), &[])
}

/// Starts one bridge: `name` plays `engine_args` with the bridge flags `flags`.
fn bridge(server: &TestServer, dir: &Path, name: &str, engine_args: &str, flags: &[&str]) -> Child {
    Command::new(client_bin())
        .args(["--server", &server.addr().to_string(), "--name", name])
        .arg("--data-dir")
        .arg(dir.join(name))
        .arg("engine")
        .args(["--hub", &format!("{ENGINE} {engine_args}")])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts")
}

/// Waits for a bridge to exit by itself (it does after `--games`), killing it after `limit`.
fn finish(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().expect("output");
            panic!(
                "the bridge did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.wait_with_output().expect("output")
}

fn lines(bytes: &[u8], prefix: &str) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

#[test]
fn two_bridged_engines_play_ten_complete_timed_matches() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let seeker = bridge(
        &server,
        dir.path(),
        "alpha",
        "--seed 3",
        &["--seek", "3+2", "--games", "10"],
    );
    let joiner = bridge(
        &server,
        dir.path(),
        "beta",
        "--seed 8",
        &["--accept-seeks", "--games", "10"],
    );
    let limit = Duration::from_secs(900);
    let (seeker, joiner) = (finish(seeker, limit), finish(joiner, limit));
    for output in [&seeker, &joiner] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let results = lines(&output.stdout, "result ");
        assert_eq!(results.len(), 10, "{results:?}\n{stderr}");
        // Every game ends on the board: no flag fall, no abort, no resignation.
        for result in &results {
            assert!(
                !result.contains("time") && !result.contains("abort") && !result.contains("resign"),
                "{result}\n{stderr}"
            );
        }
        assert_eq!(
            stderr.matches("engine HubTest 1.0 ready").count(),
            1,
            "{stderr}"
        );
    }
    // The server saw the same ten matches from both seats.
    assert_eq!(
        lines(&seeker.stdout, "result "),
        lines(&joiner.stdout, "result ")
    );
}

/// One faulty engine against a sound one for two games: the fault is logged with the
/// engine's last lines, the game is resigned, and the engine is restarted for the next game.
fn faulty_engine_resigns_and_restarts(fault: &str, logged: &str) {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let faulty = bridge(
        &server,
        dir.path(),
        "faulty",
        &format!("--seed 4 --fault {fault} --fault-at 3"),
        &["--seek", "3+2", "--games", "2"],
    );
    let sound = bridge(
        &server,
        dir.path(),
        "sound",
        "--seed 9",
        &["--accept-seeks", "--games", "2"],
    );
    let limit = Duration::from_secs(300);
    let (faulty, sound) = (finish(faulty, limit), finish(sound, limit));
    let stderr = String::from_utf8_lossy(&faulty.stderr);
    assert!(faulty.status.success(), "{stderr}");
    assert!(sound.status.success());
    assert!(stderr.contains(logged), "{stderr}");
    assert!(stderr.contains("its last lines: "), "{stderr}");
    assert!(
        stderr.contains(
            "resigning the game: the bridge never plays a move the engine did not choose"
        ),
        "{stderr}"
    );
    // Restarted after each fault: the second game is played by a fresh process, which fails
    // again at its own third search.
    assert_eq!(stderr.matches("resigning the game").count(), 2, "{stderr}");
    assert!(
        stderr.matches("engine HubTest 1.0 ready").count() >= 2,
        "{stderr}"
    );
    let results = lines(&faulty.stdout, "result ");
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results.iter().all(|r| r.contains("resign")), "{results:?}");
    // Nothing the engine made up reached the server: the faulty side's moves are the two
    // it chose soundly before its third search, in each game.
    for line in lines(&faulty.stdout, "error ") {
        assert!(!line.contains("illegal"), "{line}");
    }
}

#[test]
fn a_crashing_engine_is_resigned_and_restarted() {
    faulty_engine_resigns_and_restarts("crash", "the engine exited (exit status: 3)");
}

#[test]
fn an_illegal_engine_move_is_never_sent() {
    faulty_engine_resigns_and_restarts(
        "illegal",
        "the engine's move is refused: `1-50` is not a legal move here",
    );
}

#[test]
fn a_garbled_engine_move_is_never_sent() {
    faulty_engine_resigns_and_restarts(
        "garbage",
        "the engine's move is refused: `\u{fffd}%%` is not a move in Hub notation",
    );
}

#[test]
fn an_engine_error_resigns() {
    faulty_engine_resigns_and_restarts("error", "the engine answered error `told to fail`");
}

#[test]
fn a_hanging_engine_loses_on_time_without_a_move_sent_for_it() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let hanging = bridge(
        &server,
        dir.path(),
        "hanging",
        "--seed 4 --fault hang --fault-at 3",
        &["--seek", "1+0", "--games", "1"],
    );
    let sound = bridge(
        &server,
        dir.path(),
        "sound",
        "--seed 9",
        &["--accept-seeks", "--games", "1"],
    );
    let limit = Duration::from_secs(300);
    let (hanging, sound) = (finish(hanging, limit), finish(sound, limit));
    let stderr = String::from_utf8_lossy(&hanging.stderr);
    assert!(hanging.status.success(), "{stderr}");
    assert!(sound.status.success());
    assert!(
        stderr.contains("the engine did not move before its clock ran out; its last lines: "),
        "{stderr}"
    );
    assert!(!stderr.contains("resigning"), "{stderr}");
    let results = lines(&hanging.stdout, "result ");
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].contains("ran out of time"), "{results:?}");
}
