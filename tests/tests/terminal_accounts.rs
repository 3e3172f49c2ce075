//! The terminal client's accounts (issue 30) against the real server binary:
//! `boardcast login NAME` (the password on standard input), `whoami`, `logout`, and
//! `games NAME [--save FILE]`, each a separate run of the client as a player types it.

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use boardcast_tests::TestServer;
use boardcast_tests::members::same_origin_request;

/// The `boardcast` client binary, built beside this package's binaries by the test itself.
fn client_bin() -> PathBuf {
    boardcast_tests::client_bin::client_binary(Path::new(env!("CARGO_BIN_EXE_hub-test-engine")))
}

fn server() -> TestServer {
    TestServer::start(
        Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e")),
        &["--log", "error"],
    )
}

/// A password the server's strength estimator takes.
const PASSWORD: &str = "violet harbour lantern 93";

/// Runs `boardcast --server http://ADDR --config-dir DIR ARGS…` with `stdin` as its
/// standard input (a pipe: not a terminal).
fn run(addr: SocketAddr, config: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(client_bin())
        .args(["--server", &format!("http://{addr}")])
        .arg("--config-dir")
        .arg(config)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("the password goes in");
    child.wait_with_output().expect("the client ends")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Signs member `name` up with [`PASSWORD`] over HTTP, as the web's sign-up page does.
fn sign_up(addr: SocketAddr, name: &str) {
    let signup = serde_json::json!({ "name": name, "password": PASSWORD }).to_string();
    let (status, body) = post_json(addr, "/api/signup", &signup, None);
    assert_eq!(status, 201, "sign-up of {name}: {body}");
}

/// `POST path` with a JSON body, same-origin: status and body.
fn post_json(addr: SocketAddr, path: &str, body: &str, bearer: Option<&str>) -> (u16, String) {
    request(addr, "POST", path, body, bearer)
}

fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    bearer: Option<&str>,
) -> (u16, String) {
    let auth = bearer.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let (status, _, body) = same_origin_request(addr, method, path, body, &auth);
    (status, body)
}

#[test]
fn login_whoami_and_logout_with_the_password_on_standard_input() {
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    sign_up(addr, "Anne");

    // Logged out: whoami says so and fails.
    let out = run(addr, config.path(), &["whoami"], "");
    assert!(!out.status.success(), "whoami logged out: {}", stdout(&out));
    assert!(stderr(&out).contains("not logged in"), "{}", stderr(&out));

    // A wrong password: the server's reason, and nothing kept.
    let out = run(
        addr,
        config.path(),
        &["login", "Anne"],
        "not the password\n",
    );
    assert!(!out.status.success());
    assert!(stderr(&out).contains("login:"), "{}", stderr(&out));
    let file = config.path().join("credentials.json");
    assert!(!file.exists(), "nothing kept after a refused login");

    // The right one: logged in, the token kept for the user only and never printed.
    let out = run(
        addr,
        config.path(),
        &["login", "anne"],
        &format!("{PASSWORD}\n"),
    );
    assert!(out.status.success(), "login: {}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("logged in as Anne on http://{addr}\n"),
        "the account's own spelling of the name"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file)
            .expect("the credentials file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let kept: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    let token = kept[0]["token"].as_str().expect("a token").to_owned();
    assert!(!stdout(&out).contains(&token) && !stderr(&out).contains(&token));

    let out = run(addr, config.path(), &["whoami"], "");
    assert!(out.status.success(), "whoami: {}", stderr(&out));
    assert_eq!(stdout(&out), "Anne\n");
    // Another server (or none at that address) has no login of this one.
    let elsewhere = boardcast_tests::free_addr();
    let out = run(elsewhere, config.path(), &["whoami"], "");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not logged in"), "{}", stderr(&out));

    // The token acts as Anne on the API too.
    let (status, body) = request(addr, "GET", "/api/account", "", Some(&token));
    assert_eq!(status, 200, "{body}");

    // Logging out forgets the token here and revokes it on the server: it no longer acts
    // as Anne anywhere.
    let out = run(addr, config.path(), &["logout"], "");
    assert!(out.status.success(), "logout: {}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!("logged out Anne on http://{addr}\n"),
        "{}",
        stdout(&out)
    );
    let (status, body) = request(addr, "GET", "/api/account", "", Some(&token));
    assert_eq!(status, 401, "the logged-out token still acts: {body}");
    assert!(!stdout(&out).contains(&token));
    let out = run(addr, config.path(), &["whoami"], "");
    assert!(
        !out.status.success(),
        "whoami after logout: {}",
        stdout(&out)
    );
    assert!(stderr(&out).contains("not logged in"), "{}", stderr(&out));
    let out = run(addr, config.path(), &["logout"], "");
    assert_eq!(stdout(&out), format!("not logged in on http://{addr}\n"));
}

/// A refusal is told in the language the player chose, in the words of the web's pages: a
/// wrong password, a player or an event that does not exist, in Dutch and in Frisian, on the
/// line the client writes to standard error; nothing kept after the refused login.
#[test]
fn account_commands_say_the_servers_refusal_in_the_chosen_language() {
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    sign_up(addr, "Anne");
    for (lang, wrong_password, no_player, no_event) in [
        (
            "nl",
            "boardcast: login: Onbekende gebruikersnaam of verkeerd wachtwoord.\n",
            "boardcast: games Nobody: Er is geen speler die Nobody heet.\n",
            "boardcast: event e404: Dit toernooi bestaat niet.\n",
        ),
        (
            "fy",
            "boardcast: login: Unbekende brûkersnamme of ferkeard wachtwurd.\n",
            "boardcast: games Nobody: Der is gjin spiler dy't Nobody hjit.\n",
            "boardcast: event e404: Dit toernoai bestiet net.\n",
        ),
    ] {
        // `command` in `lang` fails; what it writes to standard error.
        let refusal = |command: &[&str], stdin: &str| {
            let args = [&["--lang", lang], command].concat();
            let out = run(addr, config.path(), &args, stdin);
            assert!(!out.status.success(), "{args:?}: {}", stdout(&out));
            stderr(&out)
        };
        let said = refusal(&["login", "Anne"], "not the password\n");
        assert_eq!(said, wrong_password, "{lang}");
        assert_eq!(refusal(&["games", "Nobody"], ""), no_player, "{lang}");
        assert_eq!(refusal(&["event", "e404"], ""), no_event, "{lang}");
    }
    assert!(
        !config.path().join("credentials.json").exists(),
        "nothing kept after a refused login"
    );
}

/// Every line the account commands print is in the language the player chose (issue 34):
/// logging in and out, not being logged in, a player with no games, the games saved, the
/// ladder's table and its empty notice, the empty event lists (the web's words), and a
/// server nobody answers at; each exactly, in Dutch and in Frisian.
#[test]
fn account_commands_say_every_line_in_the_chosen_language() {
    use boardcast_tests::ratings::{Rated, seed};
    let server = server();
    let addr = server.addr();
    let signup = serde_json::json!({ "name": "Anne", "password": PASSWORD }).to_string();
    assert_eq!(post_json(addr, "/api/signup", &signup, None).0, 201);
    let nobody = boardcast_tests::free_addr();
    let expected = |lang: &str| -> Vec<String> {
        let (server_url, nobody_url) = (format!("http://{addr}"), format!("http://{nobody}"));
        let lines: [&str; 11] = match lang {
            "nl" => [
                "niet ingelogd op {s} (boardcast --server {s} login NAAM)\n",
                "ingelogd als Anne op {s}\n",
                "Anne heeft nog geen gespeelde partijen\n",
                "partijen van Anne bewaard in {f} (0 bytes)\n",
                "Er staat nog niemand op de ranglijst: die toont leden met een vaste rating (RD\n\
                 hoogstens 75) die de afgelopen 7 dagen rated hebben gespeeld.\n",
                "   #  Speler                    Rating    RD  Partijen\n",
                "   1  Anne                        1801    50         1\n",
                "Binnenkort\n  Er staat geen toernooi gepland.\nBezig\n  Er loopt nu geen toernooi.\n\
                 Afgelopen\n  Er is nog geen toernooi afgelopen.\n",
                "Anne uitgelogd op {s}\n",
                "niet ingelogd op {s}\n",
                "boardcast: ladder: kan {n}/api/ladder niet bereiken: daar antwoordt niets \
                 (draait de server?)\n",
            ],
            _ => [
                "net ynlogd op {s} (boardcast --server {s} login NAMME)\n",
                "ynlogd as Anne op {s}\n",
                "Anne hat noch gjin spile partijen\n",
                "partijen fan Anne bewarre yn {f} (0 bytes)\n",
                "Der stiet noch net ien op de ranglist: dy toant leden mei in fêste rating (RD\n\
                 heechstens 75) dy't de ôfrûne 7 dagen rated spile hawwe.\n",
                "   #  Spiler                    Rating    RD  Partijen\n",
                "   1  Anne                        1801    50         1\n",
                "Aanstens\n  Der stiet gjin toernoai op it programma.\nDwaande\n  \
                 Der rint no gjin toernoai.\nOfrûn\n  Der is noch gjin toernoai ôfrûn.\n",
                "Anne útlogd op {s}\n",
                "net ynlogd op {s}\n",
                "boardcast: ladder: kin {n}/api/ladder net berikke: dêr antwurdet neat \
                 (draait de server?)\n",
            ],
        };
        lines
            .iter()
            .map(|line| line.replace("{s}", &server_url).replace("{n}", &nobody_url))
            .collect()
    };
    for lang in ["nl", "fy"] {
        let config = tempfile::tempdir().expect("a config directory");
        let pdn = config.path().join("anne.pdn");
        let want = expected(lang);
        let want = |i: usize| want[i].replace("{f}", &pdn.to_string_lossy());
        fn with<'a>(lang: &'a str, args: &[&'a str]) -> Vec<&'a str> {
            [&["--lang", lang][..], args].concat()
        }
        let with_lang = |args: &[&'static str]| with(lang, args);
        let out = run(addr, config.path(), &with_lang(&["whoami"]), "");
        assert_eq!(stderr(&out), format!("boardcast: {}", want(0)), "{lang}");
        let login = run(
            addr,
            config.path(),
            &with_lang(&["login", "Anne"]),
            &format!("{PASSWORD}\n"),
        );
        assert_eq!(stdout(&login), want(1), "{lang}: {}", stderr(&login));
        let out = run(addr, config.path(), &with_lang(&["games", "Anne"]), "");
        assert_eq!(stdout(&out), want(2), "{lang}");
        let path = pdn.to_string_lossy().into_owned();
        let out = run(
            addr,
            config.path(),
            &with(lang, &["games", "Anne", "--save", &path]),
            "",
        );
        assert_eq!(stdout(&out), want(3), "{lang}: {}", stderr(&out));
        let out = run(addr, config.path(), &with_lang(&["ladder"]), "");
        assert_eq!(stdout(&out), want(4), "{lang}");
        let out = run(addr, config.path(), &with_lang(&["events"]), "");
        assert_eq!(stdout(&out), want(7), "{lang}");
        let out = run(addr, config.path(), &with_lang(&["logout"]), "");
        assert_eq!(stdout(&out), want(8), "{lang}");
        let out = run(addr, config.path(), &with_lang(&["logout"]), "");
        assert_eq!(stdout(&out), want(9), "{lang}");
        let out = run(nobody, config.path(), &with_lang(&["ladder"]), "");
        assert!(!out.status.success(), "{lang}");
        assert_eq!(stderr(&out), want(10), "{lang}");
    }
    // On the ladder: the table's headings are the web's, its columns as wide as them.
    let rated = Rated {
        days_ago: 0.5,
        rating: 1801.0,
        rd: 50.0,
    };
    seed(&server.db(), "Anne", false, &[rated]).unwrap();
    for lang in ["nl", "fy"] {
        let config = tempfile::tempdir().expect("a config directory");
        let out = run(addr, config.path(), &["--lang", lang, "ladder"], "");
        let want = expected(lang);
        let table = stdout(&out);
        let lines: Vec<&str> = table.split_inclusive('\n').collect();
        assert_eq!(lines.len(), 2, "{lang}: {table}");
        assert_eq!(lines[0], want[5], "{lang}");
        // The RD as of now has grown a little since the game.
        let rd_at = lines[1].len() - "    50         1\n".len();
        assert_eq!(&lines[1][..rd_at], &want[6][..rd_at], "{lang}: {table}");
        assert!(lines[1][rd_at..].starts_with("    5"), "{lang}: {table}");
        assert!(lines[1].ends_with("         1\n"), "{lang}: {table}");
    }
}

#[test]
fn games_lists_a_players_games_and_saves_them_as_pdn() {
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    sign_up(addr, "Sietske");

    let out = run(addr, config.path(), &["games", "Sietske"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "Sietske has no finished games\n");
    let out = run(addr, config.path(), &["games", "Nobody"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("No player is called Nobody."),
        "{}",
        stderr(&out)
    );
    let file = config.path().join("sietske.pdn");
    let path = file.to_string_lossy().into_owned();
    let out = run(
        addr,
        config.path(),
        &["games", "Sietske", "--save", &path],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("saved Sietske's games to "),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("the file"),
        "",
        "no games: an empty PDN file"
    );
}

/// `boardcast ladder` prints the server's ladder (issue 31): established members who played
/// rated this week, best first, the bot tagged; a provisional member and one who has not
/// played for a fortnight are not on it; every line fits 80 columns.
#[test]
fn ladder_prints_the_established_current_members_best_first() {
    use boardcast_tests::ratings::{Rated, seed};
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    let out = run(addr, config.path(), &["ladder"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with("Nobody is on the ladder yet"),
        "{}",
        stdout(&out)
    );
    for name in ["Sietske", "Scan", "Anne", "Wytze"] {
        sign_up(addr, name);
    }
    let game = |days_ago, rating, rd| Rated {
        days_ago,
        rating,
        rd,
    };
    let db = server.db();
    seed(
        &db,
        "Sietske",
        false,
        &[game(3.0, 1650.0, 90.0), game(1.0, 1712.4, 60.0)],
    )
    .unwrap();
    seed(&db, "Scan", true, &[game(0.5, 1801.0, 50.0)]).unwrap();
    seed(&db, "Anne", false, &[game(0.5, 1900.0, 150.0)]).unwrap();
    seed(&db, "Wytze", false, &[game(14.0, 2000.0, 50.0)]).unwrap();

    let out = run(addr, config.path(), &["ladder"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{table}");
    assert_eq!(rows[0], ["#", "Player", "Rating", "RD", "Games"]);
    // The RD as of now: grown a little since the last game (rounded), never less.
    let rd = |row: &[&str]| row[row.len() - 2].parse::<u32>().unwrap();
    let without_rd = |row: &[&str]| {
        let mut row: Vec<String> = row.iter().map(|word| (*word).to_owned()).collect();
        row.remove(row.len() - 2);
        row
    };
    assert_eq!(
        without_rd(&rows[1]),
        ["1", "BOT", "Scan", "1801", "1"],
        "{table}"
    );
    assert!((50..=52).contains(&rd(&rows[1])), "{table}");
    assert_eq!(
        without_rd(&rows[2]),
        ["2", "Sietske", "1712", "2"],
        "{table}"
    );
    assert!((60..=62).contains(&rd(&rows[2])), "{table}");
    assert!(table.lines().all(|line| line.chars().count() <= 80));
}

/// An HTTP request as the member's browser sends it (same origin, its session cookie):
/// status, head and body.
fn browser_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    cookie: Option<&str>,
) -> (u16, String, String) {
    let cookie = cookie.map_or(String::new(), |c| format!("Cookie: {c}\r\n"));
    same_origin_request(addr, method, path, body, &cookie)
}

/// A terminal client connected with its login when that login is ended from the member's
/// browser (the token revoked on the account page): it stops, says the login ended and to run
/// `boardcast login` again, and exits non-zero, rather than dialling again with a dead token.
#[test]
fn a_terminal_whose_login_is_ended_elsewhere_stops_and_says_to_log_in_again() {
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    let data = tempfile::tempdir().expect("a data directory");
    let cookie = sign_up_and_log_in_the_terminal(addr, config.path());
    let terminal = connected_terminal(addr, config.path(), data.path());

    // In the browser, Anne revokes the terminal's token on her account page.
    let (status, _, list) = browser_request(addr, "GET", "/api/tokens", "", Some(&cookie));
    assert_eq!(status, 200, "{list}");
    let tokens: serde_json::Value = serde_json::from_str(&list).expect("JSON");
    let id = tokens[0]["id"]
        .as_i64()
        .expect("the terminal's token is listed");
    let (status, _, body) = browser_request(
        addr,
        "DELETE",
        &format!("/api/tokens/{id}"),
        "",
        Some(&cookie),
    );
    assert_eq!(status, 204, "{body}");
    terminal.ends_saying_the_login_ended();
}

/// "Log out everywhere" in the browser ends the member's `boardcast login` too (a member who
/// lost a laptop expects every login to end): the connected terminal stops and says so, and
/// `whoami` finds its stored login dead. A personal access token the member made by name on
/// the web (a script's) stays until it is revoked.
#[test]
fn logging_out_everywhere_ends_the_terminal_login_and_keeps_the_tokens_made_by_name() {
    let server = server();
    let addr = server.addr();
    let config = tempfile::tempdir().expect("a config directory");
    let data = tempfile::tempdir().expect("a data directory");
    let cookie = sign_up_and_log_in_the_terminal(addr, config.path());
    let (status, _, created) = browser_request(
        addr,
        "POST",
        "/api/tokens",
        r#"{"name":"my analysis script","scopes":["play"]}"#,
        Some(&cookie),
    );
    assert_eq!(status, 201, "{created}");
    let created: serde_json::Value = serde_json::from_str(&created).expect("JSON");
    let script = created["token"].as_str().expect("the new token").to_owned();
    let terminal = connected_terminal(addr, config.path(), data.path());

    let (status, _, body) = browser_request(addr, "POST", "/api/logout-all", "", Some(&cookie));
    assert_eq!(status, 204, "{body}");
    terminal.ends_saying_the_login_ended();
    let out = run(addr, config.path(), &["whoami"], "");
    assert!(!out.status.success(), "whoami: {}", stdout(&out));
    assert!(
        stderr(&out).contains("no longer valid") && stderr(&out).contains("logged out everywhere"),
        "{}",
        stderr(&out)
    );
    let (status, body) = request(addr, "GET", "/api/account", "", Some(&script));
    assert_eq!(status, 200, "the token made by name still works: {body}");
    let (status, _, body) = browser_request(addr, "GET", "/api/account", "", Some(&cookie));
    assert_eq!(status, 401, "the browser session ended too: {body}");
}

/// Anne signs up in the browser (its session cookie is returned) and runs `boardcast login`
/// with config directory `config`.
fn sign_up_and_log_in_the_terminal(addr: SocketAddr, config: &Path) -> String {
    let signup = serde_json::json!({ "name": "Anne", "password": PASSWORD }).to_string();
    let (status, head, body) = browser_request(addr, "POST", "/api/signup", &signup, None);
    assert_eq!(status, 201, "sign-up: {body}");
    let cookie = head
        .lines()
        .find_map(|line| {
            let (name, value) = line.split_once(':')?;
            name.eq_ignore_ascii_case("set-cookie")
                .then(|| value.trim().split(';').next().unwrap_or("").to_owned())
        })
        .expect("the browser's session cookie");
    let out = run(addr, config, &["login", "Anne"], &format!("{PASSWORD}\n"));
    assert!(out.status.success(), "login: {}", stderr(&out));
    cookie
}

/// A terminal client (`--plain`) connected with its stored login; its standard input stays
/// open, so it waits.
struct ConnectedTerminal {
    child: std::process::Child,
    lines: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
}

fn connected_terminal(addr: SocketAddr, config: &Path, data: &Path) -> ConnectedTerminal {
    use std::io::BufRead;
    let mut child = Command::new(client_bin())
        .args(["--server", &format!("http://{addr}"), "--plain"])
        .arg("--config-dir")
        .arg(config)
        .arg("--data-dir")
        .arg(data)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout")).lines();
    loop {
        let line = lines
            .next()
            .expect("the client printed nothing before it ended")
            .expect("a line");
        if line == "connected" {
            break;
        }
    }
    ConnectedTerminal { child, lines }
}

impl ConnectedTerminal {
    /// The terminal ends by itself, non-zero, saying the login ended and to run `boardcast
    /// login` again: a client that dialled again would wait on here.
    fn ends_saying_the_login_ended(mut self) {
        use std::time::{Duration, Instant};
        let deadline = Instant::now() + Duration::from_secs(30);
        let exit = loop {
            if let Some(exit) = self.child.try_wait().expect("the client's status") {
                break exit;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the terminal kept going after its login ended");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        drop(self.child.stdin.take());
        let mut said = String::new();
        self.child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut said)
            .expect("stderr");
        assert!(!exit.success(), "exited {exit} after the login ended");
        assert!(
            said.contains("your login has ended") && said.contains("boardcast login"),
            "{said}"
        );
        let rest: Vec<String> = self.lines.map_while(Result::ok).collect();
        assert!(
            !rest.iter().any(|line| line.starts_with("reconnected")),
            "dialled again: {rest:?}"
        );
    }
}

/// `POST path` as member `cookie` from the server's own page: the status and body.
fn post_as(addr: SocketAddr, cookie: &str, path: &str, body: &str) -> (u16, String) {
    let (status, _, body) = browser_request(addr, "POST", path, body, Some(cookie));
    (status, body)
}

/// `boardcast events` lists a club event under its status, and `boardcast event ID` shows it
/// on an 80×24 terminal: name, kind, countdown or status, the standings with tie-breaks and
/// round 1's games with the match id to watch, and the bye (issue 33).
#[test]
fn events_and_event_print_the_club_event_within_80_by_24() {
    use boardcast_tests::members::{create_member, login_cookie};
    let server = server();
    let addr = server.addr();
    let program = Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"));
    let config = tempfile::tempdir().expect("a config directory");
    create_member(program, &server.db(), "Organiser", PASSWORD, true);
    let out = run(addr, config.path(), &["events"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "Upcoming\n  No event is coming up.\nRunning\n  No event is running now.\n\
         Finished\n  No event has finished yet.\n",
        "the web's words for its empty lists"
    );
    let names = ["Sietske", "Anne", "Wytze"];
    for name in names {
        create_member(program, &server.db(), name, PASSWORD, false);
    }
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 5_000;
    let (status, body) = post_as(
        addr,
        &organiser,
        "/api/events",
        &format!(
            r#"{{"name":"Club Swiss","kind":"swiss","time_control":"5+3","rounds":4,"starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // Three members join before the start.
    for name in names {
        let cookie = login_cookie(addr, name, PASSWORD);
        let (status, body) = post_as(addr, &cookie, &format!("/api/events/{id}/join"), "");
        assert_eq!(status, 200, "{body}");
    }
    let out = run(addr, config.path(), &["event", &id], "");
    let waiting = stdout(&out);
    assert!(
        waiting.lines().nth(2).unwrap().starts_with("Starts in 0:0"),
        "{waiting}"
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let shown = loop {
        let out = run(addr, config.path(), &["event", &id], "");
        assert!(out.status.success(), "{}", stderr(&out));
        let shown = stdout(&out);
        if shown.contains("Round 1\n") && !shown.contains("Round 1\n\n") {
            break shown;
        }
        assert!(std::time::Instant::now() < deadline, "{shown}");
        std::thread::sleep(std::time::Duration::from_millis(300));
    };
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[0], "Club Swiss");
    assert!(
        lines[1].starts_with("Swiss, 4 rounds · 5+3 · casual · "),
        "{shown}"
    );
    assert_eq!(lines[2], "Being played");
    assert!(shown.contains("\nStandings\n"), "{shown}");
    let round = shown.split("Round 1\n").nth(1).unwrap();
    let games: Vec<&str> = round.lines().filter(|l| !l.starts_with("  Bye")).collect();
    assert!(!games.is_empty(), "{shown}");
    let (_, api) = request(addr, "GET", &format!("/api/events/{id}"), "", None);
    let api: serde_json::Value = serde_json::from_str(&api).unwrap();
    let matches: Vec<&str> = api["rounds"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["match_id"].as_str().unwrap())
        .collect();
    let printed: Vec<&str> = games
        .iter()
        .map(|game| game.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(printed, matches, "each game names its match to watch");
    assert!(lines.len() <= 24, "fits 24 lines:\n{shown}");
    assert!(shown.lines().all(|l| l.chars().count() <= 80), "{shown}");

    let out = run(addr, config.path(), &["events"], "");
    let listed = stdout(&out);
    let running = listed.split("Running\n").nth(1).unwrap();
    assert!(
        running.starts_with(&format!("  {id}  Club Swiss  Swiss, 4 rounds")),
        "{listed}"
    );
    let out = run(addr, config.path(), &["event", "nosuch"], "");
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        "boardcast: event nosuch: There is no such event.\n",
        "the web's words, after the id asked for"
    );
}

/// `boardcast events` shows the newest page of finished events and, when older ones follow,
/// the command that shows them; `--page 1` shows those (counted from 0, as the API counts),
/// and says nothing of older ones on the last page. `--help` says how pages are counted.
#[test]
fn events_pages_older_finished_events_and_says_where_they_are() {
    use boardcast_tests::members::{create_member, login_cookie};
    let server = server();
    let addr = server.addr();
    let program = Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"));
    let config = tempfile::tempdir().expect("a config directory");
    create_member(program, &server.db(), "Organiser", PASSWORD, true);
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    // 22 events that start now with nobody in them: each is over at once. A few
    // milliseconds apart, so newest first is one order.
    let mut made = Vec::new();
    for i in 0..22 {
        let body =
            format!(r#"{{"name":"Old {i}","kind":"swiss","time_control":"5+3","rounds":3}}"#);
        let (status, body) = post_as(addr, &organiser, "/api/events", &body);
        assert_eq!(status, 201, "{body}");
        let created: serde_json::Value = serde_json::from_str(&body).unwrap();
        made.push(created["id"].as_str().unwrap().to_owned());
        std::thread::sleep(std::time::Duration::from_millis(3));
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let newest = loop {
        let out = run(addr, config.path(), &["events"], "");
        assert!(out.status.success(), "{}", stderr(&out));
        let shown = stdout(&out);
        if shown.contains("Running\n  No event is running now.\nFinished\n") {
            break shown;
        }
        assert!(std::time::Instant::now() < deadline, "{shown}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(
        newest.ends_with("older: boardcast events --page 1\n"),
        "{newest}"
    );
    let finished = |shown: &str| -> Vec<String> {
        shown
            .split("Finished\n")
            .nth(1)
            .unwrap()
            .lines()
            .filter(|line| line.starts_with("  "))
            .map(|line| line.split_whitespace().next().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        finished(&newest),
        made[2..].iter().rev().cloned().collect::<Vec<_>>()
    );
    let out = run(addr, config.path(), &["events", "--page", "1"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    let older = stdout(&out);
    assert_eq!(
        finished(&older),
        [made[1].clone(), made[0].clone()],
        "{older}"
    );
    assert!(!older.contains("older:"), "the last page: {older}");
    let out = run(addr, config.path(), &["events", "--help"], "");
    assert!(stdout(&out).contains("counted from 0"), "{}", stdout(&out));
}

/// `boardcast event ID --follow` follows the event over the WebSocket (issue 33, "spectators
/// follow it live"): it prints the event, and prints it again whenever the server pushes a
/// change (a member joining over HTTP), without asking.
#[test]
fn event_follow_prints_the_event_again_at_each_pushed_change() {
    use boardcast_tests::members::{create_member, login_cookie};
    use std::io::BufRead;
    let server = server();
    let addr = server.addr();
    let program = Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"));
    let config = tempfile::tempdir().expect("a config directory");
    create_member(program, &server.db(), "Organiser", PASSWORD, true);
    create_member(program, &server.db(), "Sietske", PASSWORD, false);
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis()
        + 3_600_000;
    let (status, body) = post_as(
        addr,
        &organiser,
        "/api/events",
        &format!(
            r#"{{"name":"Club Swiss","kind":"swiss","time_control":"5+3","rounds":4,"starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut child = Command::new(client_bin())
        .args(["--server", &format!("http://{addr}")])
        .arg("--config-dir")
        .arg(config.path())
        .args(["event", &id, "--follow"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts");
    let (lines_tx, lines) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines_tx.send(line).is_err() {
                return;
            }
        }
    });
    let wait_line = |what: &str, want: &dyn Fn(&str) -> bool| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) if want(&line) => return line,
                Ok(_) => {}
                Err(err) => panic!("{what}: {err}"),
            }
        }
    };
    wait_line("the event", &|l| {
        l.starts_with("Swiss, 4 rounds · 5+3 · casual · 0 players")
    });
    let cookie = login_cookie(addr, "Sietske", PASSWORD);
    let (status, body) = post_as(addr, &cookie, &format!("/api/events/{id}/join"), "");
    assert_eq!(status, 200, "{body}");
    wait_line("the event again, pushed", &|l| {
        l.starts_with("Swiss, 4 rounds · 5+3 · casual · 1 player")
    });
    let _ = child.kill();
    let _ = child.wait();
}
