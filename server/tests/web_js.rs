//! The web client's pure modules (state, receive, actions) under `node --test`, when Node.js
//! is installed. Node is only a test tool here: the client needs no build and no Node to run.

use std::path::Path;
use std::process::Command;

#[test]
fn the_web_clients_state_receive_and_actions_modules_pass_their_tests() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
    let version = Command::new("node").arg("--version").output().ok();
    let Some(version) = version.filter(|out| out.status.success()) else {
        eprintln!(
            "skipped: the web client's JS unit tests need Node.js 20.10+ (apt-get install nodejs)"
        );
        return;
    };
    let output = Command::new("node")
        .args(["--experimental-detect-module", "--test", "test/"])
        .current_dir(&web)
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "node --test failed (node {}):\n{report}\n{}",
        String::from_utf8_lossy(&version.stdout).trim(),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("# fail 0"), "{report}");
}
