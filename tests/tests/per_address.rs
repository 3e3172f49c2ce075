//! Fair shares on the open internet: one client address (127.0.0.2, 127.0.0.3, … stand in for
//! other machines — Linux routes all of 127.0.0.0/8 to loopback) floods the real server with
//! connections, upgrades, matches and engine games, or spoofs `X-Forwarded-For`; it gets its
//! limit and the typed refusal, and players on other addresses — and the canary match — are
//! untouched.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_protocol::limits::close;
use boardcast_protocol::{
    ClientMessage, ColorChoice, Encoding, ErrorCode, JoinMatch, StartEngineGame,
};
use boardcast_tests::TestServer;
use boardcast_tests::canary::{Canary, start_with_canary};
use boardcast_tests::client::{Client, ClientError, ConnectOptions, Pair};
use boardcast_tests::games::reference_games;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite;

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

async fn setup(args: &[&str]) -> (TestServer, Canary) {
    start_with_canary(server_program(), args).await
}

fn ip(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

fn from(last: u8) -> ConnectOptions {
    from_ip(ip(last))
}

/// Connects from `source`: `127.0.N.M` stands for a machine on another IPv4 /24 than
/// `127.0.0.M` (the canary's network).
fn from_ip(source: IpAddr) -> ConnectOptions {
    ConnectOptions::encoding(Encoding::Json).from(source)
}

async fn connect(addr: SocketAddr, options: &ConnectOptions) -> Result<Client, ClientError> {
    Client::connect_with(addr, Encoding::Json, options).await
}

/// A raw TCP connection from `source` that never sends a byte (a slow-loris socket).
async fn silent_socket(addr: SocketAddr, source: IpAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(source, 0)).unwrap();
    socket.connect(addr).await.expect("TCP connect")
}

/// Asserts that the connection was upgraded only to be closed with 1013 and `reason`.
fn assert_closed_1013(result: Result<Client, ClientError>, reason: &str) {
    match result {
        Err(ClientError::Closed(Some((code, got)))) => {
            assert_eq!((code, got.as_str()), (close::TRY_AGAIN_LATER, reason));
        }
        Err(other) => panic!("expected close 1013 {reason:?}, got {other}"),
        Ok(_) => panic!("expected close 1013 {reason:?}, got a session"),
    }
}

/// Opens sessions with `options` until one is refused; returns the open ones and the
/// refusal.
async fn open_until_refused(
    addr: SocketAddr,
    options: &ConnectOptions,
    at_most: usize,
) -> (Vec<Client>, Result<Client, ClientError>) {
    let mut open = Vec::new();
    for _ in 0..at_most {
        match connect(addr, options).await {
            Ok(client) => open.push(client),
            refused => return (open, refused),
        }
    }
    panic!("{at_most} sessions and no refusal");
}

/// Connects with `options` once the server has given back a place (a closed connection's
/// place is given back when the server notices the close).
async fn connect_when_freed(addr: SocketAddr, options: &ConnectOptions) -> Client {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match connect(addr, options).await {
            Ok(client) => return client,
            Err(err) if Instant::now() > deadline => panic!("no place came free: {err}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Two players on two other addresses seat a match and play its first plies.
async fn others_play(addr: SocketAddr, white: IpAddr, black: IpAddr) {
    let game = &reference_games()[1];
    let mut pair = Pair::start_with(addr, Encoding::Json, &from_ip(white), &from_ip(black))
        .await
        .expect("players on other addresses seat a match");
    for (ply, route) in game.routes[..6].iter().enumerate() {
        pair.play(ply, route)
            .await
            .unwrap_or_else(|err| panic!("ply {ply}: {err}"));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_gets_its_connection_limit_and_others_still_play() {
    let (server, mut canary) = setup(&[
        "--max-connections-per-address",
        "6",
        "--handshake-timeout",
        "120s",
    ])
    .await;
    let addr = server.addr();
    // Two silent sockets count against the address like sessions do.
    let _silent = [
        silent_socket(addr, ip(2)).await,
        silent_socket(addr, ip(2)).await,
    ];
    let (mut flood, refused) = open_until_refused(addr, &from(2), 20).await;
    assert_eq!(flood.len(), 4, "6 places, 2 held by silent sockets");
    assert_closed_1013(refused, "too many connections from 127.0.0.2 (at most 6)");
    assert_closed_1013(
        connect(addr, &from(2)).await,
        "too many connections from 127.0.0.2 (at most 6)",
    );
    // The flood holds its places; others connect, create and play meanwhile.
    others_play(addr, ip(3), ip(4)).await;
    canary.check().await.expect("canary");
    for client in &mut flood {
        client
            .ping()
            .await
            .expect("the flood's sessions are served");
    }
    // A place given back is the address's again.
    flood.pop().unwrap().close().await;
    connect_when_freed(addr, &from(2))
        .await
        .ping()
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_from_a_few_addresses_leaves_the_reserve_to_newcomers() {
    let (server, mut canary) = setup(&[
        "--max-connections",
        "12",
        "--connection-reserve",
        "4",
        "--max-connections-per-address",
        "100",
    ])
    .await;
    let addr = server.addr();
    // The canary holds 3 places; 127.0.0.2 may fill up to the reserve (8), no further.
    let reserve = "server nearly full: its last places are kept for networks holding none, \
                   and 127.0.0.0/24 holds 8";
    let (flood, refused) = open_until_refused(addr, &from(2), 20).await;
    assert_eq!(flood.len(), 5);
    assert_closed_1013(refused, reserve);
    // Fresh addresses of the same /24 are no newcomers (issue 27: 64 of them took the whole
    // reserve, one place each).
    for last in 3..=6 {
        assert_closed_1013(connect(addr, &from(last)).await, reserve);
    }
    // An address of another network gets one place of the reserve; its neighbours do not.
    let other_net = |third: u8, last: u8| from_ip(IpAddr::from([127, 0, third, last]));
    let first = connect(addr, &other_net(1, 1))
        .await
        .expect("a newcomer's first place");
    assert_closed_1013(
        connect(addr, &other_net(1, 2)).await,
        "server nearly full: its last places are kept for networks holding none, \
         and 127.0.1.0/24 holds 1",
    );
    // Two more newcomers still seat a match and play: 11 of 12 places.
    others_play(
        addr,
        IpAddr::from([127, 0, 2, 1]),
        IpAddr::from([127, 0, 3, 1]),
    )
    .await;
    drop((flood, first));
    canary.keep_alive().await.expect("canary");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match canary.check().await {
            Ok(()) => break,
            Err(ClientError::Closed(Some((1013, _)))) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(err) => panic!("canary: {err}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_flooding_upgrades_and_creations_is_refused() {
    let (server, mut canary) = setup(&[
        "--upgrades-per-minute",
        "5",
        "--matches-per-minute",
        "3",
        "--open-seeks-per-address",
        "2",
        "--engine-games-per-minute",
        "2",
    ])
    .await;
    let addr = server.addr();

    // Upgrades: five a minute, then HTTP 429 with the reason and when to retry.
    for _ in 0..5 {
        connect(addr, &from(2))
            .await
            .expect("upgrade")
            .close()
            .await;
    }
    match connect(addr, &from(2)).await {
        Err(ClientError::Ws(tungstenite::Error::Http(response))) => {
            assert_eq!(response.status(), 429);
            let retry: u64 = response.headers()["retry-after"]
                .to_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((1..=12).contains(&retry), "Retry-After {retry}");
            let body = String::from_utf8(response.body().clone().unwrap()).unwrap();
            assert_eq!(
                body,
                format!(
                    "too many connections from 127.0.0.2: at most 5 a minute; \
                     try again in {retry} s\n"
                )
            );
        }
        Err(other) => panic!("expected HTTP 429, got {other}"),
        Ok(_) => panic!("expected HTTP 429, got a session"),
    }
    connect(addr, &from(3))
        .await
        .expect("another address upgrades");

    // Matches: two waiting at once, three a minute.
    let mut host = connect(addr, &from(4)).await.unwrap();
    let mut friend = connect(addr, &from(5)).await.unwrap();
    let create = || {
        ClientMessage::CreateMatch(boardcast_protocol::CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        })
    };
    let first = host
        .create_match(ColorChoice::White, false, None)
        .await
        .unwrap();
    host.create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let id = host.send(create()).await.unwrap();
    let refusal = host
        .expect_error(id, ErrorCode::AddressLimit)
        .await
        .unwrap();
    assert_eq!(
        refusal.message,
        "127.0.0.4 already has 2 matches waiting for an opponent (at most 2); \
         play or abort one first"
    );
    friend
        .join(boardcast_protocol::JoinMatch::Code(first.invite_code))
        .await
        .unwrap();
    let third = host
        .create_match(ColorChoice::Black, false, None)
        .await
        .unwrap();
    friend
        .join(boardcast_protocol::JoinMatch::Code(third.invite_code))
        .await
        .unwrap();
    let id = host.send(create()).await.unwrap();
    let refusal = host
        .expect_error(id, ErrorCode::AddressLimit)
        .await
        .unwrap();
    assert!(
        refusal
            .message
            .starts_with("too many new matches from 127.0.0.4: at most 3 a minute; try again in "),
        "{}",
        refusal.message
    );
    host.ping().await.expect("the connection stays open");
    friend
        .create_match(ColorChoice::Random, false, None)
        .await
        .expect("another address creates");

    // Engine games: a refused request costs nothing; two a minute.
    let start = |white: &str| {
        ClientMessage::StartEngineGame(StartEngineGame {
            serial: "CH3SS5".into(),
            white: white.into(),
            black: "K7".into(),
            ply_interval_ms: None,
            reveal_from_ply: None,
        })
    };
    let id = host.send(start("Q4")).await.unwrap();
    host.expect_error(id, ErrorCode::InvalidArgument)
        .await
        .unwrap();
    for _ in 0..2 {
        let id = host.send(start("L4")).await.unwrap();
        match host.expect_reply(id).await.unwrap() {
            boardcast_protocol::ServerMessage::GameCreated(_) => {}
            other => panic!("expected game_created, got {other:?}"),
        }
    }
    let id = host.send(start("L4")).await.unwrap();
    let refusal = host
        .expect_error(id, ErrorCode::AddressLimit)
        .await
        .unwrap();
    assert!(
        refusal.message.starts_with(
            "too many new engine games from 127.0.0.4: at most 2 a minute; try again in "
        ),
        "{}",
        refusal.message
    );
    let id = friend.send(start("L4")).await.unwrap();
    match friend.expect_reply(id).await.unwrap() {
        boardcast_protocol::ServerMessage::GameCreated(_) => {}
        other => panic!("another address starts a game: {other:?}"),
    }
    canary.check().await.expect("canary");
}

/// A home IPv6 connection is handed a /56 (256 /64s), a site a /48: each is counted with its
/// own cap besides the /64's, so one home cannot take the server's places /64 by /64. The
/// clients come through a trusted proxy (the test has no IPv6 addresses of its own).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipv6_56s_and_48s_have_their_own_caps() {
    let (server, mut canary) = setup(&[
        // The canary holds three places from 127.0.0.1, and its check opens a fourth.
        "--max-connections-per-address",
        "4",
        "--max-connections-per-ipv6-56",
        "5",
        "--max-connections-per-ipv6-48",
        "7",
        "--trusted-proxy",
        "127.0.0.9",
    ])
    .await;
    let addr = server.addr();
    let client = |v6: &str| from(9).header("X-Forwarded-For", v6);
    let mut open = Vec::new();
    for host in 1..=4 {
        let v6 = format!("2001:db8:1:100::{host}");
        open.push(connect(addr, &client(&v6)).await.expect("a place"));
    }
    assert_closed_1013(
        connect(addr, &client("2001:db8:1:100::5")).await,
        "too many connections from 2001:db8:1:100::/64 (at most 4)",
    );
    // Another /64 of the same home: one more place, then the /56 is full.
    open.push(connect(addr, &client("2001:db8:1:1ff::1")).await.unwrap());
    assert_closed_1013(
        connect(addr, &client("2001:db8:1:1fe::1")).await,
        "too many connections from 2001:db8:1:100::/56 (at most 5)",
    );
    // Other homes of the same site share the /48's seven.
    for v6 in ["2001:db8:1:200::1", "2001:db8:1:300::1"] {
        open.push(connect(addr, &client(v6)).await.expect("a place"));
    }
    assert_closed_1013(
        connect(addr, &client("2001:db8:1:400::1")).await,
        "too many connections from 2001:db8:1::/48 (at most 7)",
    );
    // Another site, and the places of a home that leaves, are free again.
    open.push(connect(addr, &client("2001:db8:2::1")).await.unwrap());
    open.truncate(1);
    connect_when_freed(addr, &client("2001:db8:1:400::1")).await;
    canary.check().await.expect("canary");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_for_is_believed_only_from_trusted_proxies() {
    let (server, mut canary) = setup(&[
        "--max-connections-per-address",
        "4",
        "--trusted-proxy",
        "127.0.0.9",
    ])
    .await;
    let addr = server.addr();
    let forwarded = |source: u8, chain: &str| from(source).header("X-Forwarded-For", chain);
    let mut open = Vec::new();
    let mut fill = async |options: &[ConnectOptions]| {
        for options in options {
            open.push(connect(addr, options).await.expect("a place"));
        }
    };

    // Not a trusted proxy: the header is ignored, whatever it says.
    fill(&[
        forwarded(2, "198.51.100.10"),
        forwarded(2, "198.51.100.11"),
        forwarded(2, "198.51.100.12"),
        forwarded(2, "198.51.100.13"),
    ])
    .await;
    assert_closed_1013(
        connect(addr, &forwarded(2, "198.51.100.14")).await,
        "too many connections from 127.0.0.2 (at most 4)",
    );

    // The trusted proxy: each forwarded client has its own places; the proxy has no limit of
    // its own beyond the server's.
    fill(&vec![forwarded(9, "198.51.100.1"); 4]).await;
    assert_closed_1013(
        connect(addr, &forwarded(9, "198.51.100.1")).await,
        "too many connections from 198.51.100.1 (at most 4)",
    );
    fill(&[forwarded(9, "198.51.100.2")]).await;
    // A client that writes its own header through the proxy: the proxy appends the address
    // it saw, and that one counts.
    let spoofing: Vec<ConnectOptions> = (1..=4)
        .map(|n| forwarded(9, &format!("10.1.1.{n}, 203.0.113.5")))
        .collect();
    fill(&spoofing).await;
    assert_closed_1013(
        connect(addr, &forwarded(9, "10.1.1.9, 203.0.113.5")).await,
        "too many connections from 203.0.113.5 (at most 4)",
    );
    // RFC 7239 `Forwarded` is read too, and IPv6 clients count by /64.
    let rfc = |host: u8| {
        from(9).header(
            "Forwarded",
            format!("for=\"[2001:db8:1:2::{host}]:4711\";proto=https"),
        )
    };
    fill(&[rfc(1), rfc(2), rfc(3), rfc(4)]).await;
    assert_closed_1013(
        connect(addr, &rfc(5)).await,
        "too many connections from 2001:db8:1:2::/64 (at most 4)",
    );
    canary.check().await.expect("canary");
}

/// Asserts that `client`'s `join_match` by `code` is refused with `code`, naming `says`.
async fn join_refused(client: &mut Client, code: &str, expected: ErrorCode, says: &str) {
    match client.join(JoinMatch::Code(code.into())).await {
        Err(ClientError::Refused(error)) => {
            assert_eq!(error.code, expected, "{code}: {error:?}");
            assert!(error.message.contains(says), "{code}: {error:?}");
        }
        other => panic!("{code}: expected {expected:?}, got {other:?}"),
    }
}

/// Invite codes are the only secret of a private match: they are long (two groups of five),
/// read in any case with or without the dash, and wrong guesses are throttled per address and
/// on the whole server, so that guessing takes years (see server/src/matches/invite.rs).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_invite_codes_are_throttled_per_address_and_in_all() {
    let (server, mut canary) = setup(&[
        "--failed-joins-per-minute",
        "3",
        "--failed-joins-per-minute-total",
        "5",
    ])
    .await;
    let addr = server.addr();
    let mut host = connect(addr, &from(2)).await.unwrap();
    let seat = host
        .create_match(ColorChoice::White, false, None)
        .await
        .unwrap();
    let code = seat.invite_code.clone();
    let (first, second) = code.split_once('-').expect("a dash between two groups");
    assert_eq!((first.len(), second.len()), (5, 5), "{code}");
    assert!(
        code.bytes()
            .filter(|b| *b != b'-')
            .all(|b| b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains(&b)),
        "{code}"
    );

    // Three wrong codes from one address, then it must wait; its right code is refused too
    // (the refusal comes before the lookup, so it tells nothing).
    let mut guesser = connect(addr, &from(3)).await.unwrap();
    for wrong in ["AAAAA-AAAAA", "BBBBBBBBBB", "FRJ4KD"] {
        join_refused(
            &mut guesser,
            wrong,
            ErrorCode::NotFound,
            "no match with invite code",
        )
        .await;
    }
    join_refused(
        &mut guesser,
        &code,
        ErrorCode::AddressLimit,
        "too many wrong invite codes from 127.0.0.3: at most 3 a minute",
    )
    .await;

    // The right code, typed in lower case without the dash, costs nothing.
    let mut friend = connect(addr, &from(4)).await.unwrap();
    let typed = code.replace('-', "").to_ascii_lowercase();
    let joined = friend.join(JoinMatch::Code(typed)).await.unwrap();
    assert_eq!(joined.match_id, seat.match_id);

    // Two more wrong codes from another address use up the server's five a minute: then
    // every address waits, whatever its own allowance.
    let mut other = connect(addr, &from(5)).await.unwrap();
    for wrong in ["CCCCC-CCCCC", "DDDDD-DDDDD"] {
        join_refused(
            &mut other,
            wrong,
            ErrorCode::NotFound,
            "no match with invite code",
        )
        .await;
    }
    let mut newcomer = connect(addr, &from(6)).await.unwrap();
    join_refused(
        &mut newcomer,
        "EEEEE-EEEEE",
        ErrorCode::Busy,
        "too many wrong invite codes on this server lately (at most 5 a minute from everyone)",
    )
    .await;
    canary.check().await.expect("canary");
}
