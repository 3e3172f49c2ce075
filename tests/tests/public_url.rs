//! `welcome.public_url`: the address clients and pages give out for invite links — the
//! operator's `--public-url`, or derived from the request (its Host; behind a trusted proxy
//! the forwarded host and scheme, from anyone else those headers ignored).

use std::path::Path;

use boardcast_protocol::Encoding;
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ConnectOptions};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

async fn welcome_url(addr: std::net::SocketAddr, options: &ConnectOptions) -> String {
    Client::connect_with(addr, Encoding::Json, options)
        .await
        .expect("connect")
        .welcome
        .public_url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn derived_from_the_request_and_forwarded_only_by_trusted_proxies() {
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--trusted-proxy", "127.0.0.9"],
    );
    let addr = server.addr();
    let plain = ConnectOptions::encoding(Encoding::Json);
    assert_eq!(welcome_url(addr, &plain).await, format!("http://{addr}"));
    let forwarded = |options: ConnectOptions| {
        options
            .header("X-Forwarded-Host", "draughts.example.org")
            .header("X-Forwarded-Proto", "https")
    };
    let proxy = forwarded(plain.clone().from([127, 0, 0, 9].into()));
    assert_eq!(
        welcome_url(addr, &proxy).await,
        "https://draughts.example.org"
    );
    let spoofed = forwarded(plain.clone().from([127, 0, 0, 2].into()));
    assert_eq!(welcome_url(addr, &spoofed).await, format!("http://{addr}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_s_public_url_wins() {
    let server = TestServer::start(
        server_program(),
        &[
            "--log",
            "error",
            "--public-url",
            "https://club.example.org/draughts/",
        ],
    );
    let options = ConnectOptions::encoding(Encoding::Json);
    assert_eq!(
        welcome_url(server.addr(), &options).await,
        "https://club.example.org/draughts"
    );
}
