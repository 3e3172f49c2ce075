//! Members for end-to-end tests: created with `boardcast-server admin create-user`, as a
//! club's admin creates them, and logged in over HTTP for a session cookie. The suites that
//! need members (events, ratings) share these rather than each writing its own.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};

use boardcast_protocol::{Encoding, SeatAction};

use crate::client::{Client, ConnectOptions};

/// Creates member `name` with `password` in database `db` through `program`'s `admin
/// create-user` (a club admin with `admin`); panics with the command's error if it fails.
pub fn create_member(program: &Path, db: &Path, name: &str, password: &str, admin: bool) {
    create_member_with(
        program,
        &["--db", db.to_str().unwrap()],
        name,
        password,
        admin,
    );
}

/// [`create_member`] in the database at `url` (`postgres://…`: a cluster's).
pub fn create_member_in(program: &Path, url: &str, name: &str, password: &str) {
    create_member_with(program, &["--database", url], name, password, false);
}

fn create_member_with(program: &Path, database: &[&str], name: &str, password: &str, admin: bool) {
    let mut command = Command::new(program);
    command
        .args(database)
        .args(["admin", "create-user", name])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if admin {
        command.arg("--admin");
    }
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(format!("{password}\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Logs `name` in with `POST /api/login`; the `Cookie` header value of the new session.
pub fn login_cookie(addr: SocketAddr, name: &str, password: &str) -> String {
    let body = format!(r#"{{"name":"{name}","password":"{password}"}}"#);
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, answer) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split_whitespace().nth(1).unwrap_or("");
    assert_eq!(status, "200", "login of {name}: {answer}");
    let session = head
        .lines()
        .find_map(|line| {
            let lower = line.to_ascii_lowercase();
            lower
                .starts_with("set-cookie: boardcast_session=")
                .then(|| line["set-cookie: boardcast_session=".len()..].to_owned())
        })
        .and_then(|rest| rest.split(';').next().map(str::to_owned))
        .expect("a session cookie");
    format!("boardcast_session={session}")
}

/// A member at the board: connected with their session `cookie`, their seat in `match_id`
/// reclaimed by account; the connection and what it plays that seat with.
pub async fn sit(addr: SocketAddr, cookie: &str, match_id: &str) -> (Client, SeatAction) {
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.to_owned());
    let mut client = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    let seat = client.reclaim(match_id).await.unwrap();
    let action = SeatAction {
        match_id: seat.match_id,
        token: seat.token,
    };
    (client, action)
}

/// `method path` with a JSON `body` as a page of this site sends it (`Origin` and
/// `Sec-Fetch-Site: same-origin`, so the state-changing routes take it), with `headers` added
/// (each ending in CRLF: a cookie, a bearer token): the status, the response head and body.
pub fn same_origin_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    headers: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n{headers}\
         Sec-Fetch-Site: same-origin\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_owned(), body.to_owned())
}
