//! The server binary starts with flags, answers `/healthz`, and stops cleanly on SIGTERM; a
//! start that cannot work (no such directory, certificate or database) exits at once, non-zero,
//! with the reason and what to do on stderr.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use boardcast_protocol::{ColorChoice, Encoding};
use boardcast_testkit::postgres::{Cluster, SUPERUSER};
use boardcast_tests::client::{Client, Pair};
use boardcast_tests::tls::TestCa;
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

/// Runs the server with `args` (on a free port unless they say `--listen`) and expects it to give up: its exit status and
/// what it wrote on stderr. A server that is still running after [`GIVE_UP_WITHIN`] is killed
/// and the test fails with what it had said — the hang this guards against.
fn refused_start(args: &[&str]) -> (ExitStatus, String) {
    let mut command = Command::new(server_program());
    if !args.contains(&"--listen") {
        command.args(["--listen", &free_addr().to_string()]);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary runs");
    let mut stderr = child.stderr.take().expect("stderr is piped");
    // Read stderr beside the wait, so a chatty server cannot block on a full pipe.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let deadline = Instant::now() + GIVE_UP_WITHIN;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the server") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the server still runs {GIVE_UP_WITHIN:?} after a start that cannot work; \
                 stderr:\n{}",
                reader.join().unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, reader.join().expect("stderr is read"))
}

/// How long a start that cannot work may take to say so and exit (PostgreSQL's connect
/// timeout is 5 s).
const GIVE_UP_WITHIN: Duration = Duration::from_secs(15);

/// Asserts that a refused start exited non-zero, said `expected` (every part) on stderr, and
/// never claimed to listen.
fn assert_refused(args: &[&str], expected: &[&str]) {
    let (status, stderr) = refused_start(args);
    assert_eq!(status.code(), Some(1), "exit status; stderr:\n{stderr}");
    for part in expected {
        assert!(
            stderr.contains(part),
            "{part:?} missing from stderr:\n{stderr}"
        );
    }
    assert!(
        !stderr.contains("listening"),
        "a server that cannot start must not say it listens:\n{stderr}"
    );
}

#[test]
fn a_database_in_a_directory_that_does_not_exist_is_refused_with_the_command_to_make_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("var/lib/boardcast");
    let db = missing.join("boardcast.db");
    assert_refused(
        &["--db", db.to_str().unwrap()],
        &[
            &format!("the directory {} does not exist", missing.display()),
            &format!("mkdir -p {}", missing.display()),
        ],
    );
}

/// Two servers on one SQLite file would both recover its matches and both write to it: the
/// second is refused at start-up, at once, naming the first. A server killed with SIGKILL
/// leaves its lock file behind, and that does not keep the next one from starting.
#[test]
fn a_second_server_on_one_sqlite_database_is_refused_and_a_killed_ones_lock_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("boardcast.db");
    let mut first = ServerProcess::start(server_program(), free_addr(), &db, &[]).unwrap();
    assert_refused(
        &["--db", db.to_str().unwrap()],
        &[
            &format!(
                "another boardcast-server (process {}) is already running on {}",
                first.child.id(),
                db.display()
            ),
            "stop the other server first, or give this one another --db",
        ],
    );
    // The refused start changed nothing for the first.
    assert_eq!(http_get(first.addr, "/healthz").unwrap().0, 200);

    first.kill9().unwrap();
    let mut next = ServerProcess::start(server_program(), free_addr(), &db, &[])
        .expect("a server starts on the database of one killed with SIGKILL");
    assert_eq!(http_get(next.addr, "/healthz").unwrap().0, 200);
    assert!(next.terminate(Duration::from_secs(10)).unwrap().success());
}

#[test]
fn a_missing_certificate_or_a_key_that_does_not_fit_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let db = db.to_str().unwrap();
    let absent = dir.path().join("absent.pem");
    let absent = absent.to_str().unwrap();
    let ca = TestCa::new("startup test CA");
    let one = ca.issue(dir.path(), "one");
    let other = ca.issue(dir.path(), "other");
    let (cert, key) = (one.cert.to_str().unwrap(), one.key.to_str().unwrap());

    assert_refused(
        &["--db", db, "--tls-cert", absent, "--tls-key", key],
        &["cannot serve TLS", absent],
    );
    assert_refused(
        &["--db", db, "--tls-cert", cert, "--tls-key", absent],
        &["cannot serve TLS", absent],
    );
    assert_refused(
        &[
            "--db",
            db,
            "--tls-cert",
            cert,
            "--tls-key",
            other.key.to_str().unwrap(),
        ],
        &["does not fit the certificate"],
    );
}

#[test]
fn a_postgres_url_with_a_wrong_database_role_or_port_is_refused_with_the_fix() {
    let Some(postgres) = Cluster::shared_or_skip("startup: wrong PostgreSQL URL") else {
        return;
    };
    let port = postgres.port();
    let no_database = format!("postgres://{SUPERUSER}@127.0.0.1:{port}/no_such_db");
    assert_refused(
        &["--database", &no_database],
        &[
            "has no database \"no_such_db\"",
            &format!("createdb -O {SUPERUSER} no_such_db"),
        ],
    );
    let no_role = format!("postgres://no_such_role@127.0.0.1:{port}/no_such_db");
    assert_refused(
        &["--database", &no_role],
        &["no_such_role", "createuser --pwprompt no_such_role"],
    );
    let closed = free_addr().port();
    let nobody_there = format!("postgres://{SUPERUSER}@127.0.0.1:{closed}/boardcast");
    assert_refused(
        &["--database", &nobody_there],
        &[
            &format!("no PostgreSQL server answers at 127.0.0.1:{closed}"),
            "systemctl start postgresql",
        ],
    );
}

/// Starts the server binary on a free port with `args`, its stderr (the log) into `log`.
fn start_logging_to(log: &Path, args: &[&str]) -> ServerProcess {
    let addr = free_addr();
    let mut command = Command::new(server_program());
    command
        .args(["--listen", &addr.to_string()])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(log).expect("a log file"));
    ServerProcess::spawn(command, addr).expect("the server starts")
}

#[test]
fn a_restart_on_postgres_logs_no_schema_notice() {
    let Some(postgres) = Cluster::shared_or_skip("startup: no schema notice") else {
        return;
    };
    let url = postgres.create_database();
    let dir = tempfile::tempdir().unwrap();
    for run in ["first", "second"] {
        let log = dir.path().join(format!("{run}.log"));
        let mut server = start_logging_to(&log, &["--database", &url, "--log", "info"]);
        let exit = server.terminate(Duration::from_secs(10)).unwrap();
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(exit.success(), "{run} run: {exit:?}, logged:\n{text}");
        assert!(text.contains("listening"), "{run} run logged:\n{text}");
        // The second start finds the schema_version table: `CREATE TABLE IF NOT EXISTS`
        // answers a NOTICE that is no news to an operator.
        assert!(!text.contains("NOTICE"), "{run} run logged:\n{text}");
    }
}

#[test]
fn migrate_refuses_a_sqlite_database_a_running_server_holds_and_copies_it_once_stopped() {
    let Some(postgres) = Cluster::shared_or_skip("startup: migrate under a running server") else {
        return;
    };
    let target = postgres.create_database();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("boardcast.db");
    let source = format!("sqlite:{}", db.display());
    let migrate = || {
        Command::new(server_program())
            .args(["migrate", "--from", &source, "--to", &target])
            .stdin(Stdio::null())
            .output()
            .expect("migrate runs")
    };
    let mut server = ServerProcess::start(server_program(), free_addr(), &db, &[]).unwrap();

    let refused = migrate();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{source} is in use by a running boardcast-server (or another program): stop the \
             server first"
        )),
        "{stderr}"
    );
    // The server is not disturbed by the probe.
    assert_eq!(http_get(server.addr, "/healthz").unwrap().0, 200);

    assert!(server.terminate(Duration::from_secs(10)).unwrap().success());
    let copied = migrate();
    let stdout = String::from_utf8_lossy(&copied.stdout);
    assert!(
        copied.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&copied.stderr)
    );
    assert!(stdout.contains("verified"), "{stdout}");
}

/// The log of a server that ran `args` with `--listen listen` (which reaches `addr`) while
/// `scenario` ran against it, then stopped.
async fn log_of<F: std::future::Future<Output = ()>>(
    listen: &str,
    addr: std::net::SocketAddr,
    args: &[&str],
    scenario: impl FnOnce(std::net::SocketAddr) -> F,
) -> String {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let db = dir.path().join("b.db");
    let mut command = Command::new(server_program());
    command
        .args([
            "--listen",
            listen,
            "--db",
            db.to_str().unwrap(),
            "--log",
            "info",
        ])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(File::create(&log).unwrap());
    let mut server = ServerProcess::spawn(command, addr).expect("the server starts");
    scenario(addr).await;
    assert!(server.terminate(Duration::from_secs(10)).unwrap().success());
    std::fs::read_to_string(&log).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_says_where_to_go_and_what_happens_without_colour_codes() {
    let addr = free_addr();
    let port = addr.port();
    // `localhost:PORT` is taken as 127.0.0.1.
    let listen = format!("localhost:{port}");
    let log = log_of(&listen, addr, &["--channels", "1"], |addr| async move {
        let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
        pair.play(0, &[32, 28]).await.unwrap();
        pair.black.resign(&pair.black_seat).await.unwrap();
    })
    .await;
    let listening = log.find("listening").expect("a listening line");
    let directions = log
        .find(&format!(
            "open http://127.0.0.1:{port}/ in a browser; terminal client: boardcast --server \
             127.0.0.1:{port}"
        ))
        .unwrap_or_else(|| panic!("no directions in the log:\n{log}"));
    assert!(listening < directions, "{log}");
    for line in [
        "match created",
        "match joined",
        "match ended",
        "engine game started",
    ] {
        assert!(log.contains(line), "{line:?} missing from the log:\n{log}");
    }
    // stderr is a file here, not a terminal: plain text.
    assert!(!log.contains('\u{1b}'), "colour codes in the log:\n{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_matches_is_logged_at_a_bounded_rate_and_the_rest_counted() {
    const FLOOD: usize = 150;
    let addr = free_addr();
    let log = log_of(
        &addr.to_string(),
        addr,
        &[
            "--channels",
            "0",
            "--matches-per-minute",
            "1000000",
            "--open-seeks-per-address",
            "1000000",
            "--rate",
            "100000",
            "--burst",
            "100000",
        ],
        |addr| async move {
            let mut client = Client::connect(addr, Encoding::Json).await.unwrap();
            for _ in 0..FLOOD {
                client
                    .create_match(ColorChoice::White, false, None)
                    .await
                    .unwrap();
            }
            // A line's worth of allowance comes back within a second: the next line is
            // allowed, after one that counts what was left out.
            tokio::time::sleep(Duration::from_millis(1_500)).await;
            client
                .create_match(ColorChoice::White, false, None)
                .await
                .unwrap();
        },
    )
    .await;
    let logged = log.matches("match created").count();
    let left_out: usize = log
        .lines()
        .filter(|line| line.contains("activity lines left out"))
        .map(|line| {
            let count = line.split("left_out=").nth(1).expect("a count");
            count
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert!(logged < FLOOD, "{logged} creations logged:\n{log}");
    assert_eq!(logged + left_out, FLOOD + 1, "{log}");
}

#[test]
fn listen_takes_a_bare_port_for_every_network_and_refuses_a_port_alone_with_examples() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    let port = free_addr().port();
    let mut command = Command::new(server_program());
    command
        .args([
            "--listen",
            &format!(":{port}"),
            "--db",
            db.to_str().unwrap(),
        ])
        .args(["--log", "warn"])
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut server = ServerProcess::spawn(command, loopback).expect("listens on every network");
    assert_eq!(http_get(loopback, "/healthz").unwrap().0, 200);
    assert!(server.terminate(Duration::from_secs(10)).unwrap().success());

    let refused = Command::new(server_program())
        .args(["--listen", "7878", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "`7878` is not an address to listen on (no port): use IP:PORT, e.g. \
             127.0.0.1:7878 (this machine only), 0.0.0.0:7878 or :7878 (every network)"
        ),
        "{stderr}"
    );
}

#[test]
fn a_port_in_use_is_refused_at_once_with_what_to_do() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("b.db");
    assert_refused(
        &["--listen", &addr, "--db", db.to_str().unwrap()],
        &[
            &format!("cannot listen on {addr} (--listen)"),
            "another program (another boardcast-server?) listens there",
        ],
    );
    assert!(!db.exists(), "nothing was opened");
}
