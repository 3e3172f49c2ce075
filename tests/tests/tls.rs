//! TLS on the real server's port, with a certificate authority made at test time: a whole match
//! is played over `wss://`; a handshake that stalls is closed on the handshake timeout; a
//! plaintext request is refused with a readable `400`; a client that never reads is dropped as
//! in plain text; SIGHUP swaps the certificate while established connections — and the canary
//! match on them — live on.

use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_protocol::{Encoding, MatchPhase};
use boardcast_tests::canary::{Canary, assert_a_client_reading_nothing_is_dropped};
use boardcast_tests::client::{Client, ClientError, ConnectOptions, Pair};
use boardcast_tests::games::reference_games;
use boardcast_tests::tls::{Issued, TestCa};
use boardcast_tests::{TestServer, http_get};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite;

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

/// A TLS server with `issued` as its certificate, and a canary match over TLS.
async fn tls_server(
    issued: &Issued,
    ca: &TestCa,
    extra: &[&str],
) -> (TestServer, Canary, ConnectOptions) {
    let (cert, key) = (issued.cert.to_str().unwrap(), issued.key.to_str().unwrap());
    let mut args = vec!["--log", "error", "--tls-cert", cert, "--tls-key", key];
    args.extend_from_slice(extra);
    let server = TestServer::start(server_program(), &args);
    let options = ConnectOptions::encoding(Encoding::Json).tls(ca.client_config());
    let canary = Canary::start_with(
        server.addr(),
        options.clone(),
        Encoding::Json,
        reference_games()[0].clone(),
    )
    .await
    .expect("the canary match starts over TLS");
    (server, canary, options)
}

/// Reads until the server closes the connection; how long that took.
async fn closed_after(mut stream: TcpStream, within: Duration) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 1024];
    tokio::time::timeout(within, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .expect("the server closes the connection");
    started.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_match_is_played_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("Boardcast test CA");
    let issued = ca.issue(dir.path(), "server");
    let (server, mut canary, options) =
        tls_server(&issued, &ca, &["--rate", "1000", "--burst", "1000"]).await;
    let addr = server.addr();
    let game = reference_games()
        .iter()
        .find(|game| game.routes.len() >= 40 && reference_games()[0].start_fen == game.start_fen)
        .expect("a long reference game from the start position");
    let postcard = ConnectOptions {
        protocols: vec![Encoding::Postcard.subprotocol().to_owned()],
        ..options.clone()
    };
    let mut pair = Pair::start_with(addr, Encoding::Postcard, &postcard, &postcard)
        .await
        .expect("seated over TLS");
    assert_eq!(pair.white.peer_certificate(), Some(issued.der.clone()));
    for (ply, route) in game.routes.iter().enumerate() {
        pair.play(ply, route)
            .await
            .unwrap_or_else(|err| panic!("{} ply {ply}: {err}", game.id));
    }
    let mut late = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    assert_eq!(
        late.welcome.public_url,
        format!("https://localhost:{}", addr.port())
    );
    let snapshot = late.watch_match(pair.match_id()).await.unwrap();
    assert_eq!(snapshot.phase, MatchPhase::Finished);
    let notations: Vec<&str> = snapshot.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, game.moves);
    assert_eq!(&snapshot.fen, game.fens.last().unwrap());
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_handshakes_and_plaintext_are_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("Boardcast test CA");
    let issued = ca.issue(dir.path(), "server");
    let (server, mut canary, options) =
        tls_server(&issued, &ca, &["--handshake-timeout", "1s"]).await;
    let addr = server.addr();

    // A TLS handshake that never completes: the record header of a ClientHello, then
    // nothing; and a connection that sends nothing at all.
    let mut stalled = TcpStream::connect(addr).await.unwrap();
    stalled
        .write_all(&[0x16, 0x03, 0x01, 0x02, 0x00])
        .await
        .unwrap();
    let silent = TcpStream::connect(addr).await.unwrap();
    let stalled = tokio::spawn(closed_after(stalled, Duration::from_secs(20)));
    let silent = tokio::spawn(closed_after(silent, Duration::from_secs(20)));
    for took in [stalled.await.unwrap(), silent.await.unwrap()] {
        assert!(
            took >= Duration::from_millis(700) && took < Duration::from_secs(10),
            "closed after {took:?}, not on the 1 s handshake timeout"
        );
    }

    // Plain HTTP to the TLS port: a 400 that says what to do.
    let (status, body) = tokio::task::spawn_blocking(move || http_get(addr, "/healthz"))
        .await
        .unwrap()
        .expect("an HTTP answer");
    assert_eq!(
        (status, body.as_str()),
        (
            400,
            "This port speaks TLS: use https:// or wss:// to connect.\n"
        )
    );
    // A plain ws:// client sees the same refusal.
    match Client::connect(addr, Encoding::Json).await {
        Err(ClientError::Ws(tungstenite::Error::Http(response))) => {
            assert_eq!(response.status(), 400);
        }
        Err(other) => panic!("expected HTTP 400, got {other}"),
        Ok(_) => panic!("a plaintext WebSocket on the TLS port"),
    }
    // A client that does not trust the certificate is refused by its own TLS.
    let untrusting =
        ConnectOptions::encoding(Encoding::Json).tls(TestCa::new("Another CA").client_config());
    match Client::connect_with(addr, Encoding::Json, &untrusting).await {
        Err(ClientError::Ws(tungstenite::Error::Io(err))) => {
            assert!(err.to_string().contains("UnknownIssuer"), "{err}");
        }
        Err(other) => panic!("expected an unknown-issuer TLS error, got {other}"),
        Ok(_) => panic!("a client trusted a certificate from another CA"),
    }
    let mut fresh = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    fresh.ping().await.unwrap();
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_swaps_the_certificate_without_dropping_connections() {
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("Boardcast test CA");
    let first = ca.issue(dir.path(), "server");
    let (mut server, mut canary, options) = tls_server(&first, &ca, &[]).await;
    let addr = server.addr();
    let mut old = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    assert_eq!(old.peer_certificate(), Some(first.der.clone()));

    // The operator renews the certificate in place and signals the server.
    let renewed = ca.issue(dir.path(), "renewed");
    std::fs::copy(&renewed.cert, &first.cert).unwrap();
    std::fs::copy(&renewed.key, &first.key).unwrap();
    let pid = server.process.child.id() as libc::pid_t;
    // SAFETY: kill(2) with a child's pid and a signal number has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGHUP) }, 0);

    // Each new connection with a client of its own: a client that resumed its earlier TLS
    // session would be shown the certificate of that session.
    let fresh = || ConnectOptions::encoding(Encoding::Json).tls(ca.client_config());
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut new = Client::connect_with(addr, Encoding::Json, &fresh())
            .await
            .expect("new connections during the swap");
        if new.peer_certificate() == Some(renewed.der.clone()) {
            new.ping().await.unwrap();
            break;
        }
        assert!(Instant::now() < deadline, "the new certificate never came");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Established connections live on, with the keys they agreed on.
    assert!(server.process.is_running());
    old.ping().await.expect("an old connection lives on");
    assert_eq!(old.peer_certificate(), Some(first.der.clone()));
    canary.check().await.expect("canary");

    // A broken file on the next reload keeps the renewed certificate.
    std::fs::write(&first.cert, "not a certificate").unwrap();
    assert_eq!(unsafe { libc::kill(pid, libc::SIGHUP) }, 0);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut after = Client::connect_with(addr, Encoding::Json, &fresh())
        .await
        .unwrap();
    assert_eq!(after.peer_certificate(), Some(renewed.der.clone()));
    after.ping().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_over_tls_is_dropped() {
    // The slow-read defence under TLS: what removes a client that reads nothing is its
    // outbox overflowing (1008) once the capped socket buffers are full, as in plain text.
    let dir = tempfile::tempdir().unwrap();
    let ca = TestCa::new("Boardcast test CA");
    let issued = ca.issue(dir.path(), "server");
    let (server, mut canary, options) = tls_server(
        &issued,
        &ca,
        &[
            "--outbox",
            "16",
            "--channels",
            "8",
            "--ply-interval",
            "100ms",
            "--game-pause",
            "200ms",
            "--idle-timeout",
            "120s",
        ],
    )
    .await;
    let addr = server.addr();
    let stuck_options = ConnectOptions {
        recv_buffer: Some(2048),
        ..options
    };
    let mut stuck = Client::connect_with(addr, Encoding::Json, &stuck_options)
        .await
        .unwrap();
    for n in 1..=8 {
        stuck
            .send(boardcast_protocol::ClientMessage::Watch(
                boardcast_protocol::Watch {
                    target: boardcast_protocol::Target::Channel(format!("tv{n}")),
                    since_v: None,
                },
            ))
            .await
            .unwrap();
    }
    let stream = stuck.into_ws().into_inner();
    assert_a_client_reading_nothing_is_dropped(
        stream,
        &mut canary,
        Duration::from_secs(20),
        Duration::from_secs(10),
        "a TLS client",
    )
    .await;
}

/// `boardcast-server gen-cert` (issue 27): the certificate it writes serves TLS and is accepted
/// by a client that trusts that file alone (the terminal client's `--ca-file`); it never
/// overwrites a certificate or key already there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gen_cert_writes_a_certificate_that_a_client_trusting_only_it_accepts() {
    use rustls_pki_types::CertificateDer;
    use rustls_pki_types::pem::PemObject;

    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (dir.path().join("club.crt"), dir.path().join("club.key"));
    let gen_cert = || {
        std::process::Command::new(server_program())
            .args(["gen-cert", "localhost", "127.0.0.1", "--cert"])
            .arg(&cert)
            .arg("--key")
            .arg(&key)
            .output()
            .unwrap()
    };
    let made = gen_cert();
    let stdout = String::from_utf8_lossy(&made.stdout);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert!(
        stdout.contains(&format!("--ca-file {}", cert.display())),
        "{stdout}"
    );
    let again = gen_cert();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists"),
        "{again:?}"
    );

    let (cert_arg, key_arg) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let server = TestServer::start(
        server_program(),
        &[
            "--log",
            "error",
            "--tls-cert",
            cert_arg,
            "--tls-key",
            key_arg,
        ],
    );
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(CertificateDer::from_pem_file(&cert).unwrap())
        .unwrap();
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let options = ConnectOptions::encoding(Encoding::Json).tls(std::sync::Arc::new(config));
    let client = Client::connect_with(server.addr(), Encoding::Json, &options)
        .await
        .expect("a client trusting the generated certificate alone connects over TLS");
    assert_eq!(
        client.welcome.public_url,
        format!("https://localhost:{}", server.addr().port())
    );
}
