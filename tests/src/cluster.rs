//! Several `boardcast-server` nodes as one, for the cluster tests: a real PostgreSQL (one
//! database per cluster), a real `redis-server` of its own, and N real server processes on free
//! loopback ports, each started as an operator would:
//!
//! ```text
//! boardcast-server --listen 127.0.0.1:P --database postgres://… --redis redis://… \
//!                  --node-id a --lease-ms 1500
//! ```
//!
//! A test can kill a node (`kill -9`), freeze it past its lease (SIGSTOP) and thaw it
//! (SIGCONT), start it again on the same port, stop and start Redis, and cut one node's way to
//! PostgreSQL (a relay of its own) and give it back. Each node's log goes
//! to a file; [`Cluster::logs`] gives their last lines for a failure message.
//!
//! Without PostgreSQL or Redis a developer's `cargo test` prints the component's "skipped:
//! install …" line and passes; in CI the test fails (see `boardcast_testkit`).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boardcast_testkit::postgres::Cluster as Postgres;
use boardcast_testkit::redis::Redis;
use boardcast_testkit::tail;

use crate::{ServerProcess, UNLIMITED_ADDRESSES, free_addr, http_get};

/// The lease the tests give nodes: short, so a take-over happens within seconds.
pub const TEST_LEASE_MS: u64 = 1500;

/// How a cluster's nodes are started.
#[derive(Debug, Clone)]
pub struct ClusterOptions {
    /// `--lease-ms` of every node.
    pub lease_ms: u64,
    /// Flags every node gets besides the cluster's own (`--channels`, `--ply-interval`, …).
    pub args: Vec<String>,
    /// The password Redis requires (`requirepass`), as the README's recipe sets it up; the
    /// nodes then connect with `redis://:PASSWORD@…`.
    pub redis_password: Option<String>,
    /// A PostgreSQL server of the cluster's own (instead of the test process's shared one),
    /// for a test that stops and starts it ([`Cluster::postgres`]).
    pub own_postgres: bool,
    /// The nodes that reach PostgreSQL through a TCP relay of their own, which the test can
    /// cut to take PostgreSQL away from that node alone ([`Cluster::cut_postgres`]).
    pub relayed_postgres: Vec<String>,
}

impl Default for ClusterOptions {
    /// [`TEST_LEASE_MS`], warnings only in the logs, the per-connection message rate lifted
    /// (the tests' players move as fast as the server answers) and the per-address limits too
    /// (every test client comes from 127.0.0.1).
    fn default() -> Self {
        let mut args: Vec<String> = ["--log", "warn", "--rate", "100000", "--burst", "100000"]
            .map(String::from)
            .to_vec();
        for (flag, value) in UNLIMITED_ADDRESSES {
            args.extend([flag.to_owned(), value.to_owned()]);
        }
        ClusterOptions {
            lease_ms: TEST_LEASE_MS,
            args,
            redis_password: None,
            own_postgres: false,
            relayed_postgres: Vec::new(),
        }
    }
}

impl ClusterOptions {
    /// Adds flags for every node.
    pub fn with_args(mut self, args: &[&str]) -> Self {
        self.args.extend(args.iter().map(|arg| (*arg).to_owned()));
        self
    }

    /// Logs at `level` instead of `warn` (to read what a node says at `info`).
    pub fn with_log(mut self, level: &str) -> Self {
        if let Some(at) = self.args.iter().position(|arg| arg == "--log") {
            self.args[at + 1] = level.to_owned();
        }
        self
    }

    /// The cluster gets a PostgreSQL server of its own, to stop and start.
    pub fn with_own_postgres(mut self) -> Self {
        self.own_postgres = true;
        self
    }

    /// Node `id` reaches PostgreSQL through a relay the test can cut.
    pub fn with_relayed_postgres(mut self, id: &str) -> Self {
        self.relayed_postgres.push(id.to_owned());
        self
    }

    /// Redis requires `password`.
    pub fn with_redis_password(mut self, password: &str) -> Self {
        self.redis_password = Some(password.to_owned());
        self
    }
}

/// One node: its id, its address (kept across restarts) and its process while it runs.
#[derive(Debug)]
struct Node {
    id: String,
    addr: SocketAddr,
    process: Option<ServerProcess>,
    log: PathBuf,
    /// Its own way to PostgreSQL, if the test asked for one to cut.
    postgres_relay: Option<Relay>,
}

/// PostgreSQL, Redis and the nodes; every process is stopped on drop.
#[derive(Debug)]
pub struct Cluster {
    program: PathBuf,
    options: ClusterOptions,
    database: String,
    /// The cluster's own PostgreSQL server, if it asked for one.
    own_postgres: Option<Postgres>,
    redis: Redis,
    nodes: Vec<Node>,
    /// The nodes' logs, and `pids`: every node process started, for the watchdog.
    dir: tempfile::TempDir,
    /// Its stdin is a pipe from this process: when the test process dies without dropping
    /// the cluster (killed, or a timeout), the pipe closes and the watchdog kills every node
    /// listed in `pids` that is still a `boardcast` process.
    watchdog: std::process::Child,
}

impl Cluster {
    /// Starts PostgreSQL (shared by the test process, a fresh database), Redis and one node
    /// per id in `nodes`; `None` when PostgreSQL or Redis is missing on a developer's machine.
    pub fn start_or_skip(
        test: &str,
        program: &Path,
        nodes: &[&str],
        options: ClusterOptions,
    ) -> Option<Cluster> {
        let own_postgres = if options.own_postgres {
            Some(Postgres::start_or_skip(test)?)
        } else {
            None
        };
        let postgres = match &own_postgres {
            Some(own) => own,
            None => Postgres::shared_or_skip(test)?,
        };
        let redis = match &options.redis_password {
            Some(password) => Redis::start_with_password_or_skip(test, password)?,
            None => Redis::start_or_skip(test)?,
        };
        let dir = tempfile::tempdir().expect("a temporary directory for the logs");
        let script = r#"read _ ; for pid in $(cat "$1/pids" 2>/dev/null) ; do if grep -q boardcast "/proc/$pid/comm" 2>/dev/null ; then kill -CONT "$pid" ; kill -9 "$pid" ; fi ; done"#;
        let watchdog = Command::new("sh")
            .args(["-c", script, "sh"])
            .arg(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the nodes' watchdog");
        let mut cluster = Cluster {
            program: program.to_owned(),
            options,
            database: postgres.create_database(),
            own_postgres,
            redis,
            nodes: Vec::new(),
            dir,
            watchdog,
        };
        for id in nodes {
            cluster.add_node(id);
        }
        Some(cluster)
    }

    /// Starts one more node `id` on a free port and waits until it serves.
    pub fn add_node(&mut self, id: &str) -> SocketAddr {
        assert!(
            self.nodes.iter().all(|node| node.id != id),
            "node {id} exists already"
        );
        let log = self.dir.path().join(format!("{id}.log"));
        let postgres_relay = self
            .options
            .relayed_postgres
            .iter()
            .any(|relayed| relayed == id)
            .then(|| Relay::start(&self.database));
        let mut last = None;
        for _ in 0..5 {
            let addr = free_addr();
            let database = postgres_relay
                .as_ref()
                .map_or(self.database.clone(), |relay| relay.url.clone());
            match self.spawn(id, addr, &log, &database) {
                Ok(process) => {
                    self.nodes.push(Node {
                        id: id.to_owned(),
                        addr,
                        process: Some(process),
                        log,
                        postgres_relay,
                    });
                    return addr;
                }
                Err(err) => last = Some(err),
            }
        }
        panic!("node {id} did not start: {last:?}\n{}", tail(&log));
    }

    /// The PostgreSQL URL every node stores in.
    pub fn database_url(&self) -> &str {
        &self.database
    }

    /// The live owner of every unfinished match, by match id (`None`: no live node owns it),
    /// as PostgreSQL says now.
    pub async fn owners(&self) -> Result<BTreeMap<String, Option<String>>, String> {
        let (client, connection) = tokio_postgres::connect(&self.database, tokio_postgres::NoTls)
            .await
            .map_err(|err| format!("connect to {}: {err}", self.database))?;
        tokio::spawn(connection);
        let rows = client
            .query(
                "SELECT id, CASE WHEN boardcast_alive(owner_node, owner_incarnation) \
                 THEN owner_node END FROM matches WHERE NOT finished",
                &[],
            )
            .await
            .map_err(|err| format!("read the owners: {err}"))?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    /// The node that owns the play-now pool and whether it is alive, as PostgreSQL says now
    /// (`None`: nobody claimed it yet).
    pub async fn pool_owner(&self) -> Result<Option<(String, bool)>, String> {
        let (client, connection) = tokio_postgres::connect(&self.database, tokio_postgres::NoTls)
            .await
            .map_err(|err| format!("connect to {}: {err}", self.database))?;
        tokio::spawn(connection);
        let row = client
            .query_opt(
                "SELECT owner_node, boardcast_alive(owner_node, owner_incarnation) FROM owned \
                 WHERE kind = 'pool' AND key = 'play-now'",
                &[],
            )
            .await
            .map_err(|err| format!("read the pool's owner: {err}"))?;
        Ok(row.map(|row| (row.get(0), row.get(1))))
    }

    /// Who owns (`kind`, `key`) in the `owned` table (a club event's director: kind `event`),
    /// as PostgreSQL says now: the node, the epoch and whether its lease runs (`None`: nobody
    /// claimed it yet).
    pub async fn owned(
        &self,
        kind: &str,
        key: &str,
    ) -> Result<Option<(String, u64, bool)>, String> {
        let (client, connection) = tokio_postgres::connect(&self.database, tokio_postgres::NoTls)
            .await
            .map_err(|err| format!("connect to {}: {err}", self.database))?;
        tokio::spawn(connection);
        let row = client
            .query_opt(
                "SELECT owner_node, epoch, boardcast_alive(owner_node, owner_incarnation) \
                 FROM owned WHERE kind = $1 AND key = $2",
                &[&kind, &key],
            )
            .await
            .map_err(|err| format!("read the owner of {kind} {key}: {err}"))?;
        Ok(row.map(|row| (row.get(0), row.get::<_, i64>(1) as u64, row.get(2))))
    }

    /// The cluster's own PostgreSQL server, to stop and start again; only with
    /// [`ClusterOptions::with_own_postgres`].
    pub fn postgres(&self) -> &Postgres {
        self.own_postgres
            .as_ref()
            .expect("a PostgreSQL server of the cluster's own (ClusterOptions::with_own_postgres)")
    }

    /// The Redis server, to stop and start again.
    pub fn redis(&self) -> &Redis {
        &self.redis
    }

    /// The address clients connect to on node `id`.
    pub fn addr(&self, id: &str) -> SocketAddr {
        self.node(id).addr
    }

    /// The process id of node `id` while it runs.
    pub fn pid(&self, id: &str) -> Option<u32> {
        self.node(id).process.as_ref().map(|p| p.child.id())
    }

    /// Kills node `id` with SIGKILL (no chance to flush or say goodbye) and reaps it; a node
    /// the test killed already at a moment of its choosing (by [`Cluster::pid`]) is reaped.
    pub fn kill9(&mut self, id: &str) {
        let node = self.node_mut(id);
        let mut process = node
            .process
            .take()
            .unwrap_or_else(|| panic!("node {id} is not running"));
        let _ = process.child.kill();
        process.child.wait().expect("reap the node");
    }

    /// Freezes node `id` (SIGSTOP): its sockets stay open but it does nothing, its lease
    /// lapses, and its clock keeps running.
    ///
    /// Returns once every thread of the node is stopped (a signal is delivered a moment after
    /// `kill` returns).
    pub fn freeze(&self, id: &str) {
        self.signal(id, libc::SIGSTOP);
        let pid = self.pid(id).expect("running");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !all_threads_stopped(pid) {
            assert!(
                std::time::Instant::now() < deadline,
                "node {id} did not stop after SIGSTOP"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Lets a frozen node run on (SIGCONT), believing whatever it believed when it froze.
    pub fn thaw(&self, id: &str) {
        self.signal(id, libc::SIGCONT);
    }

    /// Starts the (killed) node `id` again with the same id, on its old port if it is still
    /// free (else a new one); waits until it serves. PostgreSQL gives it a new incarnation.
    pub fn restart(&mut self, id: &str) -> SocketAddr {
        let (old, log, database) = {
            let node = self.node(id);
            assert!(node.process.is_none(), "node {id} is still running");
            (node.addr, node.log.clone(), self.node_database(id))
        };
        let mut last = None;
        for addr in std::iter::once(old).chain(std::iter::repeat_with(free_addr).take(4)) {
            match self.spawn(id, addr, &log, &database) {
                Ok(process) => {
                    let node = self.node_mut(id);
                    node.addr = addr;
                    node.process = Some(process);
                    return addr;
                }
                Err(err) => last = Some(err),
            }
        }
        panic!("node {id} did not start again: {last:?}\n{}", tail(&log));
    }

    /// Stops node `id` as an operator does (SIGTERM) and returns how it exited.
    pub fn terminate(&mut self, id: &str) -> std::process::ExitStatus {
        let node = self.node_mut(id);
        let mut process = node
            .process
            .take()
            .unwrap_or_else(|| panic!("node {id} is not running"));
        process
            .terminate(Duration::from_secs(60))
            .unwrap_or_else(|err| panic!("node {id}: {err}"))
    }

    /// Waits up to `within` for node `id` to exit on its own; its exit status, or `None` if
    /// it still runs.
    pub fn wait_exit(&mut self, id: &str, within: Duration) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + within;
        loop {
            let process = self.node_mut(id).process.as_mut()?;
            if let Ok(Some(status)) = process.child.try_wait() {
                self.node_mut(id).process = None;
                return Some(status);
            }
            if std::time::Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Starts another run of node `id` (the same `--node-id`) on a free port, beside the one
    /// running (an operator's mistake), logging to a file of its own. Killed on drop.
    pub fn start_another_run(&self, id: &str) -> ServerProcess {
        let log = self.dir.path().join(format!("{id}-another-run.log"));
        let mut last = None;
        let database = self.node_database(id);
        for _ in 0..5 {
            match self.spawn(id, free_addr(), &log, &database) {
                Ok(process) => return process,
                Err(err) => last = Some(err),
            }
        }
        panic!(
            "another run of node {id} did not start: {last:?}\n{}",
            tail(&log)
        );
    }

    /// Takes PostgreSQL away from node `id` alone (started
    /// [`ClusterOptions::with_relayed_postgres`]): its connections through the relay are cut
    /// and new ones are closed at once, until [`Cluster::restore_postgres`].
    pub fn cut_postgres(&self, id: &str) {
        self.relay(id).cut();
    }

    /// Gives node `id` its way to PostgreSQL back.
    pub fn restore_postgres(&self, id: &str) {
        self.relay(id).restore();
    }

    fn relay(&self, id: &str) -> &Relay {
        self.node(id).postgres_relay.as_ref().unwrap_or_else(|| {
            panic!("node {id} has no relay to PostgreSQL (ClusterOptions::with_relayed_postgres)")
        })
    }

    /// The PostgreSQL URL node `id` is started with: through its relay if it has one.
    fn node_database(&self, id: &str) -> String {
        self.nodes
            .iter()
            .find(|node| node.id == id)
            .and_then(|node| node.postgres_relay.as_ref())
            .map_or(self.database.clone(), |relay| relay.url.clone())
    }

    /// Node `id`'s whole log so far.
    pub fn log(&self, id: &str) -> String {
        std::fs::read_to_string(&self.node(id).log).unwrap_or_default()
    }

    /// Whether node `id`'s process is alive (frozen counts as alive).
    pub fn is_running(&mut self, id: &str) -> bool {
        self.node_mut(id)
            .process
            .as_mut()
            .is_some_and(ServerProcess::is_running)
    }

    /// The last lines of every node's log, for a failure message.
    pub fn logs(&self) -> String {
        self.nodes
            .iter()
            .map(|node| format!("--- node {} ---\n{}", node.id, tail(&node.log)))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn node(&self, id: &str) -> &Node {
        self.nodes
            .iter()
            .find(|node| node.id == id)
            .unwrap_or_else(|| panic!("no node {id}"))
    }

    fn node_mut(&mut self, id: &str) -> &mut Node {
        self.nodes
            .iter_mut()
            .find(|node| node.id == id)
            .unwrap_or_else(|| panic!("no node {id}"))
    }

    fn signal(&self, id: &str, signal: libc::c_int) {
        let pid = self
            .pid(id)
            .unwrap_or_else(|| panic!("node {id} is not running")) as libc::pid_t;
        // SAFETY: kill(2) with our child's pid and a signal number has no memory effects.
        let sent = unsafe { libc::kill(pid, signal) };
        assert_eq!(sent, 0, "signal {signal} to node {id}");
    }

    /// Runs node `id` on `addr` with `database`, appending to its log, and waits until its
    /// HTTP side answers.
    fn spawn(
        &self,
        id: &str,
        addr: SocketAddr,
        log: &Path,
        database: &str,
    ) -> std::io::Result<ServerProcess> {
        let log_file = File::options().create(true).append(true).open(log)?;
        let mut command = Command::new(&self.program);
        command
            .arg("--listen")
            .arg(addr.to_string())
            .args(["--database", database])
            .args(["--redis", &self.redis.url()])
            .args(["--node-id", id])
            .args(["--lease-ms", &self.options.lease_ms.to_string()])
            .args(&self.options.args)
            // The log lines go to stderr, anything else a node prints to stdout: both kept.
            .stdout(log_file.try_clone()?)
            .stderr(log_file);
        let process = ServerProcess::spawn(command, addr)?;
        let mut pids = File::options()
            .create(true)
            .append(true)
            .open(self.dir.path().join("pids"))?;
        writeln!(pids, "{}", process.child.id())?;
        // Listening comes first; a node serves once its store and bus are up.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        loop {
            if matches!(http_get(addr, "/healthz"), Ok((200, _))) {
                return Ok(process);
            }
            if std::time::Instant::now() > deadline {
                return Err(std::io::Error::other("/healthz did not answer 200"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        for node in &mut self.nodes {
            if let Some(process) = &node.process {
                // SIGKILL ends a frozen process too; thawing first keeps a test that failed
                // between freeze and thaw from leaving anything half-stopped.
                // SAFETY: kill(2) with our child's pid has no memory effects.
                unsafe { libc::kill(process.child.id() as libc::pid_t, libc::SIGCONT) };
            }
            // Dropping the process kills and reaps it.
            node.process = None;
        }
        // Every node is gone and reaped: stop the watchdog without letting it act (a pid it
        // lists may belong to another process by now).
        let _ = self.watchdog.kill();
        let _ = self.watchdog.wait();
    }
}

/// Whether every thread of process `pid` is stopped (state `T` in `/proc/PID/task/*/stat`).
fn all_threads_stopped(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().all(|task| {
        std::fs::read_to_string(task.path().join("stat")).is_ok_and(|stat| {
            // `pid (comm) S …`: the state follows the last `)` (comm may hold spaces).
            stat.rsplit_once(')')
                .and_then(|(_, rest)| rest.trim_start().chars().next())
                .is_some_and(|state| state == 'T' || state == 't')
        })
    })
}

/// A TCP relay between one node and PostgreSQL, as a network that can fail between those two
/// alone: cut, it closes every connection it carries and every new one at once (the node's
/// driver sees the connection end and cannot connect again); restored, it carries new ones.
#[derive(Debug)]
struct Relay {
    /// The database URL through the relay.
    url: String,
    /// Both ends of every connection it carries, to cut.
    streams: Arc<Mutex<Vec<TcpStream>>>,
    cut: Arc<AtomicBool>,
}

impl Relay {
    /// A relay to the PostgreSQL server of `database` (`postgres://user@127.0.0.1:PORT/db`).
    fn start(database: &str) -> Relay {
        let (head, tail) = database
            .rsplit_once("127.0.0.1:")
            .unwrap_or_else(|| panic!("a loopback PostgreSQL URL: {database}"));
        let (port, path) = tail.split_once('/').expect("a database in the URL");
        let server: SocketAddr = format!("127.0.0.1:{port}").parse().expect("a port");
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port for the relay");
        let url = format!(
            "{head}127.0.0.1:{}/{path}",
            listener.local_addr().expect("bound").port()
        );
        let streams = Arc::new(Mutex::new(Vec::new()));
        let cut = Arc::new(AtomicBool::new(false));
        let (kept, is_cut) = (Arc::clone(&streams), Arc::clone(&cut));
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if is_cut.load(Ordering::SeqCst) {
                    let _ = client.shutdown(std::net::Shutdown::Both);
                    continue;
                }
                let Ok(upstream) = TcpStream::connect(server) else {
                    continue;
                };
                let (Ok(client_copy), Ok(upstream_copy)) =
                    (client.try_clone(), upstream.try_clone())
                else {
                    continue;
                };
                kept.lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .extend([client_copy, upstream_copy]);
                for (from, to) in [
                    (client.try_clone(), upstream.try_clone()),
                    (Ok(upstream), Ok(client)),
                ] {
                    let (Ok(mut from), Ok(mut to)) = (from, to) else {
                        continue;
                    };
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Relay { url, streams, cut }
    }

    fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
        let streams = std::mem::take(
            &mut *self
                .streams
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner()),
        );
        for stream in streams {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }

    fn restore(&self) {
        self.cut.store(false, Ordering::SeqCst);
    }
}
