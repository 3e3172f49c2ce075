//! The server binary starts with flags, answers `/healthz`, and stops cleanly on SIGTERM.

use std::path::Path;
use std::time::Duration;

use boardcast_tests::{ServerProcess, free_addr, http_get};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

#[test]
fn healthz_answers_and_sigterm_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("startup.db");
    let mut server = ServerProcess::start(server_program(), free_addr(), &db, &[]).unwrap();

    let (status, body) = http_get(server.addr, "/healthz").unwrap();
    assert_eq!(status, 200);
    assert_eq!(body.trim(), "ok");

    let (status, _) = http_get(server.addr, "/no-such-page").unwrap();
    assert_eq!(status, 404);

    let exit = server.terminate(Duration::from_secs(10)).unwrap();
    assert!(exit.success(), "exit status after SIGTERM: {exit:?}");
}
