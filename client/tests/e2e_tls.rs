//! `boardcast` against the real server over TLS: `wss://` with the server's self-signed
//! certificate trusted through `--ca-file`, and refused by the client's own TLS without it.

// Shared with the other end-to-end tests, which use the rest of it.
#[allow(dead_code)]
mod common;

use std::time::Duration;

use boardcast_server::{Config, Server};

use common::Plain;

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn wss_with_ca_file_lists_the_lobby_and_without_it_the_certificate_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    let cert = dir.path().join("server.crt");
    let key = dir.path().join("server.key");
    std::fs::write(&cert, issued.cert.pem()).unwrap();
    std::fs::write(&key, issued.signing_key.serialize_pem()).unwrap();
    let mut config = Config::for_tests(dir.path().join("boardcast.db"));
    config.tls_cert = Some(cert.clone());
    config.tls_key = Some(key);
    let server = Server::start(config).await.expect("the server starts");
    let url = format!("wss://localhost:{}/ws", server.local_addr().port());
    let data = dir.path().join("data");

    tokio::task::spawn_blocking(move || {
        let data = data.to_str().unwrap();
        let ca = cert.to_str().unwrap();
        let mut list = Plain::start(&[
            "--server",
            &url,
            "--data-dir",
            data,
            "--ca-file",
            ca,
            "list",
        ]);
        list.expect("lobby end");
        assert!(list.child.wait().unwrap().success());

        let mut untrusting = Plain::start(&["--server", &url, "--data-dir", data, "list"]);
        let line = untrusting.expect("disconnected");
        assert!(line.contains("certificate"), "{line}");
        let _ = untrusting.child.kill();

        let missing = dir.path().join("missing.pem");
        let status = common::boardcast(&["--plain", "--server", &url, "--ca-file"])
            .arg(&missing)
            .arg("list")
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success());
    })
    .await
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), server.shutdown())
        .await
        .expect("the server stops")
        .unwrap();
}
