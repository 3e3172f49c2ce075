//! `boardcast` against the real server over TLS: `wss://` with the server's self-signed
//! certificate trusted through `--ca-file`, and refused by the client's own TLS without it;
//! a certificate the client cannot accept is explained in words, once, and the session ends
//! instead of retrying (issue 27).

// Shared with the other end-to-end tests, which use the rest of it.
#[allow(dead_code)]
mod common;

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

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

        let (status, stderr) = run_to_end(&["--server", &url, "--data-dir", data, "list"]);
        assert!(!status.success());
        assert!(stderr.contains("certificate is not trusted"), "{stderr}");

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

/// A server on `cert`/`key` (PEM files) for the duration of `client`, which gets its URL.
async fn with_tls_server(
    dir: &Path,
    cert: &Path,
    key: &Path,
    client: impl FnOnce(String) + Send + 'static,
) {
    let mut config = Config::for_tests(dir.join("boardcast.db"));
    config.tls_cert = Some(cert.to_owned());
    config.tls_key = Some(key.to_owned());
    let server = Server::start(config).await.expect("the server starts");
    let url = format!("wss://localhost:{}/ws", server.local_addr().port());
    tokio::task::spawn_blocking(move || client(url))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(10), server.shutdown())
        .await
        .expect("the server stops")
        .unwrap();
}

/// Runs `boardcast ARGS…` to its end (at most 20 s): its status and stderr.
fn run_to_end(args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut child = common::boardcast(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "boardcast {args:?} kept retrying; stderr:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_openssl_style_certificate_is_explained_in_words_and_not_retried() {
    // What `openssl req -x509 -subj /CN=localhost …` makes: CA:TRUE, the host in the common
    // name only.
    let dir = tempfile::tempdir().unwrap();
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "localhost");
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let key = rcgen::KeyPair::generate().unwrap();
    let issued = params.self_signed(&key).unwrap();
    let cert = dir.path().join("openssl.crt");
    let key_file = dir.path().join("openssl.key");
    std::fs::write(&cert, issued.pem()).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    let data = dir.path().join("data");
    let ca = cert.clone();
    with_tls_server(dir.path(), &cert, &key_file, move |url| {
        let data = data.to_str().unwrap();
        let ca = ca.to_str().unwrap();
        let base = ["--server", &url, "--data-dir", data];

        let with_ca = [&base[..], &["--ca-file", ca, "list"]].concat();
        let (status, stderr) = run_to_end(&with_ca);
        assert!(!status.success());
        assert!(stderr.contains("is a CA certificate"), "{stderr}");
        assert!(stderr.contains("boardcast-server gen-cert"), "{stderr}");
        assert!(!stderr.contains("CaUsedAsEndEntity"), "{stderr}");

        // Trusting it or not, the reason is the same: a CA is no server certificate.
        let (status, stderr) = run_to_end(&[&base[..], &["list"]].concat());
        assert!(!status.success());
        assert!(stderr.contains("is a CA certificate"), "{stderr}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_gen_cert_certificate_is_accepted_with_ca_file_and_untrusted_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (
        dir.path().join("boardcast.crt"),
        dir.path().join("boardcast.key"),
    );
    let names = ["localhost".to_owned(), "127.0.0.1".to_owned()];
    boardcast_server::gen_cert::write(&names, &cert, &key).unwrap();
    let data = dir.path().join("data");
    let ca = cert.clone();
    with_tls_server(dir.path(), &cert, &key, move |url| {
        let (data, ca) = (data.to_str().unwrap(), ca.to_str().unwrap());
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
    })
    .await;
}
