//! The `boardcast` terminal client binary for tests that run it (the engine bridge).
//!
//! Cargo hands an integration test the paths of its own package's binaries only
//! (`CARGO_BIN_EXE_*`); the client is another package's, so `cargo test --workspace` happened
//! to build it and `cargo test -p boardcast-tests` did not, and the tests failed with "missing".
//! Here the test builds it itself, once per test process, with the cargo that runs the tests
//! and into the same target directory and profile, so one crate's tests run alone and never
//! use a client older than the source. (Cargo's artifact dependencies would say this in
//! Cargo.toml, but they are unstable.)

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The path of the `boardcast` binary, built (or found up to date) by
/// `cargo build -p boardcast-client --bin boardcast` beside `sibling`, a binary of this package
/// (`env!("CARGO_BIN_EXE_…")`): its directory names the target directory and profile. Panics
/// with cargo's output when the build fails.
pub fn client_binary(sibling: &Path) -> PathBuf {
    static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    BUILT
        .get_or_init(|| build(sibling))
        .clone()
        .unwrap_or_else(|why| panic!("cannot build the boardcast client for this test: {why}"))
}

fn build(sibling: &Path) -> Result<PathBuf, String> {
    // target/<profile dir>/<binary>: the profile is the directory's name ("debug" is the dev
    // profile's). Cross-built tests (target/<triple>/…) are not run here.
    let bin_dir = sibling
        .parent()
        .ok_or_else(|| format!("{} has no directory", sibling.display()))?;
    let profile = match bin_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") | None => "dev",
        Some(name) => name,
    };
    let target_dir = bin_dir
        .parent()
        .ok_or_else(|| format!("{} is not in a target directory", bin_dir.display()))?;
    // The cargo running the tests sets CARGO; fall back to the one that built them.
    let cargo = std::env::var_os("CARGO")
        .or_else(|| option_env!("CARGO").map(Into::into))
        .unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command
        .args([
            "build",
            "--quiet",
            "-p",
            "boardcast-client",
            "--bin",
            "boardcast",
        ])
        .args(["--profile", profile])
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let output = command
        .output()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(&cargo).display()))?;
    if !output.status.success() {
        return Err(format!(
            "{command:?} failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let path = bin_dir.join(format!("boardcast{}", std::env::consts::EXE_SUFFIX));
    if path.exists() {
        Ok(path)
    } else {
        Err(format!(
            "{command:?} succeeded but left no {}",
            path.display()
        ))
    }
}
