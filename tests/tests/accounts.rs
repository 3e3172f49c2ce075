//! Accounts end to end on the real server binary (issue 30): sign-up and login over HTTP with
//! the cookie's flags, the admin command, the same-origin rule, WebSocket authentication by
//! cookie and bearer (wrong and closed refused with a typed 401/403), a session hash from the
//! database that logs nobody in, and a member's seat that survives `kill -9` and comes back
//! on a new connection without its seat token.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use boardcast_protocol::{
    ClientMessage, ColorChoice, CreateMatch, Encoding, ErrorCode, Reclaim, ServerMessage,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ConnectOptions, connect_ws};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

/// A blocking HTTP/1.1 request from 127.0.0.1; returns the status, head and body.
fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    request_from([127, 0, 0, 1], addr, method, path, headers, body)
}

/// [`request`] from loopback address `source` (Linux routes all of 127.0.0.0/8 to loopback).
fn request_from(
    source: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.bind(&SocketAddr::from((source, 0)).into()).unwrap();
    socket.connect(&addr.into()).unwrap();
    let mut stream: TcpStream = socket.into();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    write!(stream, "{head}\r\n{body}").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_owned(), body.to_owned())
}

/// The session id the response sets.
fn session_of(head: &str) -> String {
    head.lines()
        .find_map(|line| {
            line.strip_prefix("set-cookie: boardcast_session=")
                .or_else(|| line.strip_prefix("Set-Cookie: boardcast_session="))
        })
        .and_then(|rest| rest.split(';').next())
        .expect("a session cookie")
        .to_owned()
}

fn admin(server: &TestServer, args: &[&str], stdin: &str) -> (bool, String, String) {
    admin_on(&["--db", server.db().to_str().unwrap()], args, stdin)
}

/// `boardcast-server DATABASE admin ARGS` with `stdin`: success, stdout, stderr.
fn admin_on(database: &[&str], args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(server_program())
        .args(database)
        .arg("admin")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const PASSWORD: &str = "Tulpen-in-Dokkum-1921";

#[tokio::test(flavor = "multi_thread")]
async fn a_member_signs_up_logs_in_and_plays_as_the_account_and_forged_credentials_are_refused() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let signup = format!(r#"{{"name":"Anne","password":"{PASSWORD}"}}"#);

    // Weak password and reserved name: typed 400s.
    let (status, _, body) = request(
        addr,
        "POST",
        "/api/signup",
        &[],
        r#"{"name":"Anne","password":"password1"}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains(r#""code":"password_weak""#), "{body}");
    let (status, _, body) = request(
        addr,
        "POST",
        "/api/signup",
        &[],
        &format!(r#"{{"name":"Guest","password":"{PASSWORD}"}}"#),
    );
    assert_eq!(status, 400);
    assert!(body.contains("name_reserved"), "{body}");

    // A form posted from another site is refused before anything happens.
    let (status, _, body) = request(
        addr,
        "POST",
        "/api/signup",
        &[
            ("Origin", "https://evil.example"),
            ("Sec-Fetch-Site", "cross-site"),
        ],
        &signup,
    );
    assert_eq!(status, 403);
    assert!(body.contains("cross_origin"), "{body}");

    let (status, head, _) = request(addr, "POST", "/api/signup", &[], &signup);
    assert_eq!(status, 201, "{head}");
    let (status, _, body) = request(
        addr,
        "POST",
        "/api/signup",
        &[],
        &signup.replace("Anne", "ANNE"),
    );
    assert_eq!(status, 400);
    assert!(body.contains("name_taken"), "{body}");

    // Login: the cookie's flags, and who the cookie is.
    let (status, head, body) = request(addr, "POST", "/api/login", &[], &signup);
    assert_eq!(status, 200, "{body}");
    let cookie_line = head
        .lines()
        .find(|line| line.to_ascii_lowercase().starts_with("set-cookie:"))
        .unwrap();
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie_line.contains(flag), "{cookie_line}");
    }
    let session = session_of(&head);
    let cookie = format!("boardcast_session={session}");
    let (status, _, body) = request(addr, "GET", "/api/account", &[("Cookie", &cookie)], "");
    assert_eq!(status, 200);
    assert!(body.contains(r#""name":"Anne""#), "{body}");

    // Wrong password and unknown user: the same answer.
    let wrong = request(
        addr,
        "POST",
        "/api/login",
        &[],
        &signup.replace(PASSWORD, "x1234567"),
    );
    let unknown = request(
        addr,
        "POST",
        "/api/login",
        &[],
        &signup.replace("Anne", "Nobody"),
    );
    assert_eq!((wrong.0, &wrong.2), (unknown.0, &unknown.2));
    assert_eq!(wrong.0, 401);

    // The session's hash, as a database dump shows it, logs nobody in.
    let conn = rusqlite::Connection::open(server.db()).unwrap();
    let stored: String = conn
        .query_row("SELECT hash FROM sessions LIMIT 1", [], |row| row.get(0))
        .unwrap();
    assert_ne!(stored, session);
    let (status, _, _) = request(
        addr,
        "GET",
        "/api/account",
        &[("Cookie", &format!("boardcast_session={stored}"))],
        "",
    );
    assert_eq!(status, 401);

    // The WebSocket acts as the account by its cookie; a wrong bearer is refused with 401.
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.clone());
    let mut anne = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    assert_eq!(anne.welcome.account.as_ref().unwrap().name, "Anne");
    let forged =
        ConnectOptions::encoding(Encoding::Json).header("Authorization", "Bearer bc_forged");
    match connect_ws(addr, &forged).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 401)
        }
        other => panic!("a forged token was not refused: {:?}", other.map(|_| ())),
    }

    // Anne opens a match; her seat is the account's.
    let id = anne
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }))
        .await
        .unwrap();
    let seat = anne
        .wait_for("seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap();
    drop(anne);

    // A token from the admin command, then the account closed: its token is refused (403).
    let (ok, token, stderr) = admin(&server, &["create-token", "anne", "--scope", "play"], "");
    assert!(ok, "{stderr}");
    let token = token.trim().to_owned();
    assert!(token.starts_with("bc_"), "the token is printed");
    let (status, _, _) = request(
        addr,
        "GET",
        "/api/account",
        &[("Authorization", &format!("Bearer {token}"))],
        "",
    );
    assert_eq!(status, 200);

    // kill -9 and restart: Anne's seat is still her account's, reclaimed by the token alone
    // on a new connection.
    let mut server = server;
    server.process.kill9().unwrap();
    server.restart(server_program());
    let addr = server.addr();
    let bearer =
        ConnectOptions::encoding(Encoding::Json).header("Authorization", format!("Bearer {token}"));
    let mut again = Client::connect_with(addr, Encoding::Json, &bearer)
        .await
        .unwrap();
    let back = again.reclaim(&seat.match_id).await.unwrap();
    // The server keeps only the seat token's hash, so after the restart it hands out a new
    // one (recorded as valid for the seat); the old one, on Anne's other device, still holds
    // the seat too.
    assert_eq!(back.side, seat.side);
    assert_ne!(back.token, seat.token);
    for token in [&back.token, &seat.token] {
        let mut device = Client::connect(addr, Encoding::Json).await.unwrap();
        let resumed = device.resume(token, None).await.unwrap();
        assert_eq!((resumed.side, &resumed.token), (seat.side, token));
    }
    // Reclaimed again, the seat is handed with the token the server knows now: no new one.
    let twice = again.reclaim(&seat.match_id).await.unwrap();
    assert!([&back.token, &seat.token].contains(&&twice.token));
    // A guest cannot reclaim it.
    let mut guest = Client::connect(addr, Encoding::Json).await.unwrap();
    let id = guest
        .send(ClientMessage::Reclaim(Reclaim {
            match_id: seat.match_id.clone(),
            since_v: None,
        }))
        .await
        .unwrap();
    guest.expect_error(id, ErrorCode::NotAllowed).await.unwrap();

    let (ok, _, stderr) = admin(&server, &["close", "Anne"], "");
    assert!(ok, "{stderr}");
    match connect_ws(addr, &bearer).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 403)
        }
        other => panic!(
            "a closed account's token was not refused: {:?}",
            other.map(|_| ())
        ),
    }
    let (ok, _, stderr) = admin(&server, &["close", "Nobody"], "");
    assert!(!ok);
    assert!(stderr.contains("no account Nobody"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_thousand_wrong_passwords_throttle_the_attackers_and_the_owner_still_logs_in_elsewhere() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let (ok, _, stderr) = admin(&server, &["create-user", "Wytze"], &format!("{PASSWORD}\n"));
    assert!(ok, "{stderr}");
    let wrong = r#"{"name":"wytze","password":"not-his-password"}"#;
    let mut throttled = 0;
    let mut retry_after = None;
    for attempt in 0..1000u32 {
        // Several addresses, as a botnet would come.
        let source = [127, 0, 1, (attempt % 5) as u8 + 1];
        let (status, head, _) = request_from(source, addr, "POST", "/api/login", &[], wrong);
        match status {
            401 => {}
            429 => {
                throttled += 1;
                retry_after = head.lines().find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("retry-after: ")
                        .map(str::to_owned)
                });
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert!(throttled >= 985, "only {throttled} of 1000 throttled");
    // The owner, from an address of their own, still logs in.
    let (status, _, body) = request_from(
        [127, 0, 2, 1],
        addr,
        "POST",
        "/api/login",
        &[],
        &format!(r#"{{"name":"Wytze","password":"{PASSWORD}"}}"#),
    );
    assert_eq!(status, 200, "{body}");
    assert!(retry_after.is_some(), "429 carries Retry-After");
    let (_, metrics) = boardcast_tests::http_get(addr, "/metrics").unwrap();
    assert!(
        metrics.contains("boardcast_account_throttled_total"),
        "counted on /metrics"
    );
    assert!(!metrics.contains("not-his-password"));
}

/// Takes a seat: the `seat` answering envelope `id`.
async fn seat_for(client: &mut Client, id: u64) -> boardcast_protocol::Seat {
    client
        .wait_for("seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_members_finished_game_is_on_the_profile_and_in_games_pdn_and_timing_is_reported() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let (ok, _, stderr) = admin(
        &server,
        &["create-user", "Sietske"],
        &format!("{PASSWORD}\n"),
    );
    assert!(ok, "{stderr}");
    let login = format!(r#"{{"name":"Sietske","password":"{PASSWORD}"}}"#);
    let (status, head, _) = request(addr, "POST", "/api/login", &[], &login);
    assert_eq!(status, 200);
    let cookie = format!("boardcast_session={}", session_of(&head));

    // The member opens a private match, a guest joins it by code and resigns.
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.clone());
    let mut member = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    let id = member
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }))
        .await
        .unwrap();
    let mine = seat_for(&mut member, id).await;
    let mut guest = Client::connect(addr, Encoding::Json).await.unwrap();
    let id = guest
        .send(ClientMessage::JoinMatch(
            boardcast_protocol::JoinMatch::Code(mine.invite_code.clone()),
        ))
        .await
        .unwrap();
    let theirs = seat_for(&mut guest, id).await;
    // The member's seat shows as a member's, the guest's as a guest's.
    let snapshot = guest
        .wait_for("snapshot", |m| match m {
            ServerMessage::MatchSnapshot(s) if s.black.is_some() => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    assert!(snapshot.white.as_ref().unwrap().account);
    assert!(!snapshot.black.as_ref().unwrap().account);
    let id = guest
        .send(ClientMessage::Resign(boardcast_protocol::SeatAction {
            match_id: theirs.match_id.clone(),
            token: theirs.token.clone(),
        }))
        .await
        .unwrap();
    guest.expect_ack(id).await.unwrap();

    let (status, _, body) = request(addr, "GET", "/api/user/sietske", &[], "");
    assert_eq!(status, 200, "{body}");
    let profile: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(profile["name"], "Sietske");
    assert_eq!(profile["games"]["played"], 1);
    assert_eq!(profile["games"]["won"], 1);
    // A casual game against a guest changes no rating (issue 31): a new member's rating.
    assert_eq!(profile["rating"], 1500.0, "{body}");
    assert_eq!(profile["rd"], 500.0);
    assert_eq!(profile["volatility"], 0.09);
    assert_eq!(profile["provisional"], true);
    assert_eq!(profile["rated_games"], 0);
    let (status, _, body) = request(addr, "GET", "/api/user/sietske/rating-history", &[], "");
    assert_eq!((status, body.as_str()), (200, "[]"));
    let (status, _, body) = request(addr, "GET", "/api/ladder", &[], "");
    assert_eq!(
        (status, body.as_str()),
        (200, "[]"),
        "no rated game, nobody on the ladder"
    );
    let (_, _, body) = request(addr, "GET", "/api/user/Sietske/games?page=0", &[], "");
    let games: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(games["games"][0]["id"], mine.match_id.as_str(), "{body}");
    assert_eq!(games["games"][0]["outcome"], "won");
    assert_eq!(games["games"][0]["opponent"]["account"], false);
    let (status, _, _) = request(addr, "GET", "/api/user/nobody", &[], "");
    assert_eq!(status, 404);
    let (_, one) =
        boardcast_tests::http_get(addr, &format!("/games/{}.pdn", mine.match_id)).unwrap();
    let (status, all) = boardcast_tests::http_get(addr, "/@/Sietske/games.pdn").unwrap();
    assert_eq!(status, 200);
    assert!(
        all.contains(one.trim_end()),
        "games.pdn holds the game exactly:\n{all}"
    );

    // Timing of "no such user" against "wrong password", and logins per second: reported,
    // not asserted (no timed assertions).
    let time = |name: &str| {
        let body = format!(r#"{{"name":"{name}","password":"wrong-password-1"}}"#);
        let mut samples: Vec<u128> = (0..9)
            .map(|i| {
                let started = std::time::Instant::now();
                let (status, _, _) =
                    request_from([127, 0, 3, i + 1], addr, "POST", "/api/login", &[], &body);
                assert_eq!(status, 401);
                started.elapsed().as_micros()
            })
            .collect();
        samples.sort_unstable();
        samples[samples.len() / 2]
    };
    let unknown = time("NoSuchUser");
    let wrong = time("Sietske");
    eprintln!("median login time: unknown user {unknown} µs, wrong password {wrong} µs");
    let started = std::time::Instant::now();
    let logins = 16u32;
    let tasks: Vec<_> = (0..logins)
        .map(|_| {
            let login = login.clone();
            std::thread::spawn(move || request(addr, "POST", "/api/login", &[], &login).0)
        })
        .collect();
    for task in tasks {
        assert_eq!(task.join().unwrap(), 200);
    }
    eprintln!(
        "{logins} concurrent logins in {:?}: {:.1} logins/s",
        started.elapsed(),
        f64::from(logins) / started.elapsed().as_secs_f64()
    );
}

/// Logs `name` in on `addr` from 127.0.0.1: the `Cookie` header of the new session.
fn login_cookie(addr: SocketAddr, name: &str) -> String {
    let login = format!(r#"{{"name":"{name}","password":"{PASSWORD}"}}"#);
    let (status, head, body) = request(addr, "POST", "/api/login", &[], &login);
    assert_eq!(status, 200, "{body}");
    format!("boardcast_session={}", session_of(&head))
}

/// A JSON connection to `addr` that sends `header`.
async fn member(addr: SocketAddr, header: (&'static str, String)) -> Client {
    let options = ConnectOptions::encoding(Encoding::Json).header(header.0, header.1);
    Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap()
}

/// Whether `client`'s connection still answers.
async fn answers(client: &mut Client) -> bool {
    client.send(ClientMessage::ListLobby).await.unwrap();
    matches!(
        client.recv(Duration::from_secs(10)).await,
        Ok(ServerMessage::Lobby(_))
    )
}

/// Waits for the server to close `client`'s connection because its session ended.
async fn expect_ended(client: &mut Client) {
    let code = client.expect_close(Duration::from_secs(10)).await.unwrap();
    assert_eq!(
        code,
        Some(boardcast_protocol::limits::close::SESSION_ENDED),
        "closed for another reason"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn ending_a_session_closes_exactly_its_open_connections() {
    // The recheck is far off: whatever closes here is the route's own doing.
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--session-recheck", "60m"],
    );
    let addr = server.addr();
    let (ok, _, stderr) = admin(&server, &["create-user", "Anne"], &format!("{PASSWORD}\n"));
    assert!(ok, "{stderr}");
    let phone_cookie = login_cookie(addr, "Anne");
    let laptop_cookie = login_cookie(addr, "Anne");
    let mut phone = member(addr, ("Cookie", phone_cookie.clone())).await;
    let mut laptop = member(addr, ("Cookie", laptop_cookie.clone())).await;
    let mut laptop_tab = member(addr, ("Cookie", laptop_cookie.clone())).await;
    let bearer = |token: String| ("Authorization", format!("Bearer {}", token.trim()));
    let (ok, token, stderr) = admin(&server, &["create-token", "Anne", "--scope", "play"], "");
    assert!(ok, "{stderr}");
    let mut bot = member(addr, bearer(token)).await;

    // Logging out on the phone ends the phone's connection, nobody else's.
    let (status, _, _) = request(
        addr,
        "POST",
        "/api/logout",
        &[("Cookie", &phone_cookie)],
        "",
    );
    assert_eq!(status, 204);
    expect_ended(&mut phone).await;
    assert!(answers(&mut laptop).await);

    // "Log out everywhere" ends every browser session's connections (both laptop tabs); a
    // personal access token is not a browser session and stays.
    let (status, _, _) = request(
        addr,
        "POST",
        "/api/logout-all",
        &[("Cookie", &laptop_cookie)],
        "",
    );
    assert_eq!(status, 204);
    for tab in [&mut laptop, &mut laptop_tab] {
        expect_ended(tab).await;
    }
    assert!(answers(&mut bot).await);

    // Revoking the token from a browser ends the token's connection.
    let browser = login_cookie(addr, "Anne");
    let (_, _, list) = request(addr, "GET", "/api/tokens", &[("Cookie", &browser)], "");
    let id = list
        .split(r#""id":"#)
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("the token is listed: {list}"));
    let (status, _, _) = request(
        addr,
        "DELETE",
        &format!("/api/tokens/{id}"),
        &[("Cookie", &browser)],
        "",
    );
    assert_eq!(status, 204);
    expect_ended(&mut bot).await;

    // Closing the account from the admin command (another process, which tells the server
    // nothing) ends its connections at their next recheck.
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--session-recheck", "1s"],
    );
    let (ok, _, stderr) = admin(&server, &["create-user", "Anne"], &format!("{PASSWORD}\n"));
    assert!(ok, "{stderr}");
    let (ok, token, stderr) = admin(&server, &["create-token", "Anne", "--scope", "play"], "");
    assert!(ok, "{stderr}");
    let mut bot = member(server.addr(), bearer(token)).await;
    let mut browser = member(
        server.addr(),
        ("Cookie", login_cookie(server.addr(), "Anne")),
    )
    .await;
    let (ok, _, stderr) = admin(&server, &["close", "Anne"], "");
    assert!(ok, "{stderr}");
    for open in [&mut bot, &mut browser] {
        expect_ended(open).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reset_link_names_its_account_sets_one_password_and_ends_the_sessions() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let (ok, _, stderr) = admin(&server, &["create-user", "Anne"], &format!("{PASSWORD}\n"));
    assert!(ok, "{stderr}");
    let mut phone = member(addr, ("Cookie", login_cookie(addr, "Anne"))).await;
    let (ok, link, stderr) = admin(&server, &["reset-password", "Anne"], "");
    assert!(ok, "{stderr}");
    let token = link.trim().rsplit('/').next().unwrap().to_owned();
    let route = format!("/api/reset/{token}");

    let (status, _, body) = request(addr, "GET", &route, &[], "");
    assert_eq!((status, body.as_str()), (200, r#"{"name":"Anne"}"#));
    let (status, _, body) = request(addr, "GET", "/api/reset/not-a-link", &[], "");
    assert_eq!(status, 404, "{body}");

    let new = r#"{"password":"Kievitsei-op-Terschelling-7"}"#;
    let (status, _, body) = request(addr, "POST", &route, &[], new);
    assert_eq!((status, body.as_str()), (200, r#"{"name":"Anne"}"#));
    expect_ended(&mut phone).await;
    // Used up: neither shown nor used again.
    let (status, _, _) = request(addr, "GET", &route, &[], "");
    assert_eq!(status, 404);
    let (status, _, _) = request(addr, "POST", &route, &[], new);
    assert_eq!(status, 404);
    let login = r#"{"name":"Anne","password":"Kievitsei-op-Terschelling-7"}"#;
    let (status, _, body) = request(addr, "POST", "/api/login", &[], login);
    assert_eq!(status, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_member_who_connects_is_last_seen_then_on_the_profile() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let signup = format!(r#"{{"name":"Anne","password":"{PASSWORD}"}}"#);
    let (status, head, body) = request(addr, "POST", "/api/signup", &[], &signup);
    assert_eq!(status, 201, "{body}");
    let cookie = format!("boardcast_session={}", session_of(&head));
    let last_seen = || {
        let (status, _, body) = request(addr, "GET", "/api/user/Anne", &[], "");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str::<serde_json::Value>(&body).unwrap()["last_seen"].as_i64()
    };
    assert_eq!(last_seen(), None, "signing up is not a visit");

    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let _anne = member(addr, ("Cookie", cookie)).await;
    // Written off the connection's path: it lands shortly after.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    let seen = loop {
        if let Some(seen) = last_seen() {
            break seen;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "a connected member is never seen"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        seen >= before,
        "last seen {seen} is before the visit at {before}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_login_on_node_a_plays_on_b_and_logging_out_everywhere_on_c_ends_it_on_a_and_b() {
    let Some(cluster) = boardcast_tests::cluster::Cluster::start_or_skip(
        "accounts across a cluster",
        server_program(),
        &["a", "b", "c"],
        boardcast_tests::cluster::ClusterOptions::default(),
    ) else {
        return;
    };
    let (ok, _, stderr) = admin_on(
        &["--database", cluster.database_url()],
        &["create-user", "Anne"],
        &format!("{PASSWORD}\n"),
    );
    assert!(ok, "{stderr}");
    let login = format!(r#"{{"name":"Anne","password":"{PASSWORD}"}}"#);
    let (status, head, body) = request(cluster.addr("a"), "POST", "/api/login", &[], &login);
    assert_eq!(status, 200, "{body}");
    let cookie = format!("boardcast_session={}", session_of(&head));

    // Valid on node b: the account plays there.
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.clone());
    let mut anne = Client::connect_with(cluster.addr("b"), Encoding::Json, &options)
        .await
        .unwrap();
    assert_eq!(anne.welcome.account.as_ref().unwrap().name, "Anne");
    let id = anne
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }))
        .await
        .unwrap();
    seat_for(&mut anne, id).await;
    let mut anne_on_a = member(cluster.addr("a"), ("Cookie", cookie.clone())).await;

    // Log out everywhere on node c: the session ends on a and b, its open connections too.
    let (status, _, _) = request(
        cluster.addr("c"),
        "POST",
        "/api/logout-all",
        &[("Cookie", &cookie)],
        "",
    );
    assert_eq!(status, 204);
    for open in [&mut anne, &mut anne_on_a] {
        expect_ended(open).await;
    }
    for node in ["a", "b"] {
        let (status, _, _) = request(
            cluster.addr(node),
            "GET",
            "/api/account",
            &[("Cookie", &cookie)],
            "",
        );
        assert_eq!(status, 401, "node {node}");
    }
    match connect_ws(cluster.addr("b"), &options).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status().as_u16(), 401)
        }
        other => panic!("an ended session still upgrades: {:?}", other.map(|_| ())),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn failed_logins_and_sign_ups_are_throttled_across_the_nodes_of_a_cluster() {
    let Some(cluster) = boardcast_tests::cluster::Cluster::start_or_skip(
        "throttles across a cluster",
        server_program(),
        &["a", "b"],
        boardcast_tests::cluster::ClusterOptions::default(),
    ) else {
        return;
    };
    let (ok, _, stderr) = admin_on(
        &["--database", cluster.database_url()],
        &["create-user", "Anne"],
        &format!("{PASSWORD}\n"),
    );
    assert!(ok, "{stderr}");
    let node = |i: usize| cluster.addr(if i.is_multiple_of(2) { "a" } else { "b" });

    // Ten wrong passwords, five on each node: under each node's own count, at the account's
    // limit of the cluster.
    let wrong = r#"{"name":"Anne","password":"not-her-password"}"#;
    for i in 0..10 {
        let (status, _, body) = request(node(i), "POST", "/api/login", &[], wrong);
        assert_eq!(status, 401, "try {i}: {body}");
    }
    for i in 0..2 {
        let (status, head, body) = request(node(i), "POST", "/api/login", &[], wrong);
        assert_eq!(status, 429, "{body}");
        assert!(head.to_ascii_lowercase().contains("retry-after:"), "{head}");
    }

    // Ten sign-ups from one address, five on each node: the eleventh is refused on both.
    for i in 0..10 {
        let signup = format!(r#"{{"name":"Member{i}","password":"{PASSWORD}"}}"#);
        let (status, _, body) = request(node(i), "POST", "/api/signup", &[], &signup);
        assert_eq!(status, 201, "sign-up {i}: {body}");
    }
    for i in 0..2 {
        let signup = format!(r#"{{"name":"Late{i}","password":"{PASSWORD}"}}"#);
        let (status, _, body) = request(node(i), "POST", "/api/signup", &[], &signup);
        assert_eq!(status, 429, "{body}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_login_flood_beyond_the_hash_queue_is_refused_as_busy_and_play_goes_on() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let (ok, _, stderr) = admin(&server, &["create-user", "Anne"], &format!("{PASSWORD}\n"));
    assert!(ok, "{stderr}");

    // Two guests play a reference game while 200 logins arrive at once.
    let mut white = Client::connect(addr, Encoding::Json).await.unwrap();
    let id = white
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public: false,
            rated: false,
            rating_range: None,
        }))
        .await
        .unwrap();
    let white_seat = seat_for(&mut white, id).await;
    let mut black = Client::connect(addr, Encoding::Json).await.unwrap();
    let id = black
        .send(ClientMessage::JoinMatch(
            boardcast_protocol::JoinMatch::Code(white_seat.invite_code.clone()),
        ))
        .await
        .unwrap();
    let black_seat = seat_for(&mut black, id).await;
    let game = boardcast_tests::games::reference_games()
        .iter()
        .filter(|g| g.start_fen == boardcast_tests::games::reference_games()[0].start_fen)
        .max_by_key(|g| g.routes.len())
        .expect("a reference game");

    let login = format!(r#"{{"name":"Anne","password":"{PASSWORD}"}}"#);
    // From ten loopback addresses, within each address's allowance of connections.
    let flood: Vec<_> = (0..200u8)
        .map(|i| {
            let login = login.clone();
            let source = [127, 0, 4, i % 10 + 1];
            std::thread::spawn(move || {
                request_from(source, addr, "POST", "/api/login", &[], &login)
            })
        })
        .collect();
    // Every move of the game is acknowledged while the flood is answered (at a pace under
    // the per-connection message rate).
    let mut seats = [(&mut white, &white_seat), (&mut black, &black_seat)];
    for (ply, route) in game.routes.iter().enumerate().take(40) {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let (client, seat) = &mut seats[ply % 2];
        let id = client
            .send(ClientMessage::Move(boardcast_protocol::PlayMove {
                match_id: seat.match_id.clone(),
                token: seat.token.clone(),
                route: route.clone(),
                lag_ms: None,
            }))
            .await
            .unwrap();
        client.expect_ack(id).await.unwrap();
    }

    // Beyond the queue a login is refused with the typed `busy` and when to come back, 1 to
    // 3 s, not the same for all (so they do not all come back together); the rest log in.
    // Nothing else (no 401: the password is right; no 500).
    let (mut logged_in, mut busy) = (0, 0);
    let mut retry_afters = std::collections::BTreeSet::new();
    for answer in flood {
        let (status, head, body) = answer.join().unwrap();
        match status {
            200 => logged_in += 1,
            503 => {
                busy += 1;
                assert!(body.contains(r#""code":"busy""#), "{body}");
                let seconds: u64 = head
                    .lines()
                    .find_map(|line| {
                        line.to_ascii_lowercase()
                            .strip_prefix("retry-after: ")?
                            .trim()
                            .parse()
                            .ok()
                    })
                    .unwrap_or_else(|| panic!("a busy answer without Retry-After: {head}"));
                assert!((1..=3).contains(&seconds), "{head}");
                retry_afters.insert(seconds);
            }
            _ => panic!("a login in the flood answered {status}: {body}"),
        }
    }
    assert!(busy > 0, "200 logins at once fit the queue");
    if busy >= 10 {
        assert!(
            retry_afters.len() > 1,
            "{busy} busy answers all said Retry-After {retry_afters:?}"
        );
    }
    assert!(logged_in > 0, "no login of the flood got through");
    // The flood left nothing behind: the owner logs in afterwards.
    assert!(login_cookie(addr, "Anne").starts_with("boardcast_session="));
    let (_, metrics) = boardcast_tests::http_get(addr, "/metrics").unwrap();
    assert!(
        metrics.contains("boardcast_account_hash_busy_total"),
        "busy refusals are counted"
    );
    eprintln!("200 logins at once: {logged_in} logged in, {busy} refused as busy");
}

/// Issue 32: a member refuses more time on the account page (`POST /api/preferences`, stored
/// on the account), and every match they play from then on has their seat refusing it from
/// the start: the opponent's snapshot says so and their "+15 s" is refused. Nothing is sent
/// from the member's client for it; the account page reads the choice back.
#[tokio::test(flavor = "multi_thread")]
async fn a_members_refusal_of_more_time_is_kept_on_the_account_and_applied_to_each_match() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let (ok, _, stderr) = admin(
        &server,
        &["create-user", "Sietske"],
        &format!("{PASSWORD}\n"),
    );
    assert!(ok, "{stderr}");
    let cookie = login_cookie(addr, "Sietske");
    let with_cookie = format!("Cookie: {cookie}\r\n");
    let (status, _, body) = request(addr, "GET", "/api/account", &[("Cookie", &cookie)], "");
    assert_eq!(status, 200, "{body}");
    let view: boardcast_protocol::account::AccountView = serde_json::from_str(&body).unwrap();
    assert!(!view.refuse_more_time, "not refused until chosen");
    // A request from another site is refused; the page's own is stored.
    let (status, _, _) = request(
        addr,
        "POST",
        "/api/preferences",
        &[("Cookie", &cookie), ("Origin", "https://evil.example")],
        r#"{"refuse_more_time":true}"#,
    );
    assert_eq!(status, 403);
    let (status, _, body) = boardcast_tests::members::same_origin_request(
        addr,
        "POST",
        "/api/preferences",
        r#"{"refuse_more_time":true}"#,
        &with_cookie,
    );
    assert_eq!(status, 204, "{body}");
    let (_, _, body) = request(addr, "GET", "/api/account", &[("Cookie", &cookie)], "");
    let view: boardcast_protocol::account::AccountView = serde_json::from_str(&body).unwrap();
    assert!(view.refuse_more_time);

    // Two matches in turn, created by the member as White and as Black: each time the
    // guest who joins sees the member's seat refusing, and "+15 s" for it is refused.
    for color in [ColorChoice::White, ColorChoice::Black] {
        let mut member = member(addr, ("Cookie", cookie.clone())).await;
        let id = member
            .send(ClientMessage::CreateMatch(CreateMatch {
                time_control: Some(boardcast_protocol::TimeControl {
                    initial_ms: 300_000,
                    increment_ms: 3_000,
                }),
                color,
                public: false,
                rated: false,
                rating_range: None,
            }))
            .await
            .unwrap();
        let mine = seat_for(&mut member, id).await;
        let mut guest = Client::connect(addr, Encoding::Json).await.unwrap();
        let id = guest
            .send(ClientMessage::JoinMatch(
                boardcast_protocol::JoinMatch::Code(mine.invite_code.clone()),
            ))
            .await
            .unwrap();
        let theirs = seat_for(&mut guest, id).await;
        let snapshot = guest
            .wait_for("snapshot", |m| match m {
                ServerMessage::MatchSnapshot(s)
                    if s.phase == boardcast_protocol::MatchPhase::Playing =>
                {
                    Some(s.clone())
                }
                _ => None,
            })
            .await
            .unwrap();
        let refusals = snapshot.refuses_more_time;
        let (member_refuses, guest_refuses) = match mine.side {
            boardcast_protocol::Side::White => (refusals.white, refusals.black),
            boardcast_protocol::Side::Black => (refusals.black, refusals.white),
        };
        assert!(member_refuses, "the member's seat refuses: {refusals:?}");
        assert!(!guest_refuses, "the guest chose nothing: {refusals:?}");
        let id = guest
            .send(ClientMessage::MoreTime(boardcast_protocol::SeatAction {
                match_id: theirs.match_id.clone(),
                token: theirs.token.clone(),
            }))
            .await
            .unwrap();
        let refused = guest
            .wait_for("the refusal of +15 s", |m| match m {
                ServerMessage::Error(e) if e.id == Some(id) => Some(e.code),
                _ => None,
            })
            .await
            .unwrap();
        assert_eq!(refused, ErrorCode::NotAllowed);
    }
}
