//! Command-line flags and environment variables: everything an operator can set.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::cluster::settings::{ClusterConfigError, ClusterSettings, NodeId, RedisUrl};
use crate::ops::duration::parse_duration;
use crate::storage::Database;

/// Boardcast server: Frisian draughts matches and MinitChess engine channels.
#[derive(Debug, Clone, Parser)]
#[command(name = "boardcast-server", version, about)]
pub struct Config {
    /// Address to listen on (WebSocket at /ws, HTTP beside it): 127.0.0.1:7878 for this
    /// machine only, 0.0.0.0:7878 (or :7878) for every network, localhost:7878, [::]:7878.
    #[arg(long, env = "BOARDCAST_LISTEN", default_value = "127.0.0.1:7878", value_parser = parse_listen)]
    pub listen: SocketAddr,

    /// TLS certificate chain (PEM, leaf first): with --tls-key, the port serves https://
    /// and wss:// instead of plain HTTP. Read again on SIGHUP.
    #[arg(
        long,
        env = "BOARDCAST_TLS_CERT",
        value_name = "PEM",
        requires = "tls_key"
    )]
    pub tls_cert: Option<PathBuf>,

    /// TLS private key (PEM) of --tls-cert.
    #[arg(
        long,
        env = "BOARDCAST_TLS_KEY",
        value_name = "PEM",
        requires = "tls_cert"
    )]
    pub tls_key: Option<PathBuf>,

    /// SQLite database file (created if missing).
    #[arg(long, env = "BOARDCAST_DB", default_value = "boardcast.db")]
    pub db: PathBuf,

    /// Store in this database instead of --db: postgres://user:password@host/database (tables
    /// are created or migrated at start), or sqlite:PATH.
    #[arg(
        long,
        env = "BOARDCAST_DATABASE",
        value_name = "URL",
        conflicts_with = "db"
    )]
    pub database: Option<Database>,

    /// Run as one node of a cluster whose nodes talk through this Redis server
    /// (redis://host:port): any node then serves any match. Needs --database postgres://…
    /// (shared by every node) and --node-id. Without it the server is a single node.
    #[arg(long, env = "BOARDCAST_REDIS", value_name = "URL")]
    pub redis: Option<RedisUrl>,

    /// This node's id in the cluster (1 to 32 of a-z, 0-9 and -), unique among the nodes;
    /// a node restarted under the same id takes its own matches back.
    #[arg(long, env = "BOARDCAST_NODE_ID", value_name = "ID", requires = "redis")]
    pub node_id: Option<NodeId>,

    /// How long (milliseconds) a node's lease lasts without renewal: after this much silence
    /// from a node, other nodes take its matches over. Renewed every third of it.
    #[arg(
        long,
        env = "BOARDCAST_LEASE_MS",
        value_name = "N",
        default_value_t = 5000,
        value_parser = clap::value_parser!(u64).range(300..=600_000)
    )]
    pub lease_ms: u64,

    /// Log filter in `tracing_subscriber::EnvFilter` syntax (RUST_LOG takes precedence).
    #[arg(long, env = "BOARDCAST_LOG", default_value = "info")]
    pub log: String,

    /// Log lines as human-readable text, or as one JSON object per line (for a log
    /// collector).
    #[arg(long, env = "BOARDCAST_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Serve `GET /metrics` (Prometheus text format) on this address instead of the public
    /// port, so it need not be public.
    #[arg(long, env = "BOARDCAST_METRICS_LISTEN", value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,

    /// Most connections at once (WebSocket sessions, and connections still in their HTTP
    /// request); an upgrade beyond it is closed with 1013.
    #[arg(long, env = "BOARDCAST_MAX_CONNECTIONS", default_value_t = 1024)]
    pub max_connections: usize,

    /// Most connections from one client address (an IPv4 address or an IPv6 /64); an
    /// upgrade beyond it is closed with 1013.
    #[arg(
        long,
        env = "BOARDCAST_MAX_CONNECTIONS_PER_ADDRESS",
        default_value_t = 32
    )]
    pub max_connections_per_address: usize,

    /// Most connections from one IPv6 /56, all its /64s together (a home connection is
    /// often handed a /56: 256 /64s); an upgrade beyond it is closed with 1013.
    #[arg(
        long,
        env = "BOARDCAST_MAX_CONNECTIONS_PER_IPV6_56",
        default_value_t = 64
    )]
    pub max_connections_per_ipv6_56: usize,

    /// Most connections from one IPv6 /48, all its /56s together (a site's allocation); an
    /// upgrade beyond it is closed with 1013.
    #[arg(
        long,
        env = "BOARDCAST_MAX_CONNECTIONS_PER_IPV6_48",
        default_value_t = 128
    )]
    pub max_connections_per_ipv6_48: usize,

    /// The last places under --max-connections, kept for addresses from networks (IPv4 /24,
    /// IPv6 /48) that hold no connection yet (at most half of --max-connections): a flood
    /// from a few addresses, or from many fresh ones of one network, never locks out a
    /// newcomer.
    #[arg(long, env = "BOARDCAST_CONNECTION_RESERVE", default_value_t = 64)]
    pub connection_reserve: usize,

    /// WebSocket upgrades one address may make per minute; beyond it, HTTP 429.
    #[arg(long, env = "BOARDCAST_UPGRADES_PER_MINUTE", default_value_t = 60)]
    pub upgrades_per_minute: u32,

    /// Matches one address may create per minute (refused `address_limit` beyond it).
    #[arg(long, env = "BOARDCAST_MATCHES_PER_MINUTE", default_value_t = 10)]
    pub matches_per_minute: u32,

    /// On-demand engine games one address may start per minute (refused `address_limit`).
    #[arg(long, env = "BOARDCAST_ENGINE_GAMES_PER_MINUTE", default_value_t = 10)]
    pub engine_games_per_minute: u32,

    /// Wrong invite codes one address may try per minute (then `join_match` by code is
    /// refused `address_limit` until the minute has passed).
    #[arg(long, env = "BOARDCAST_FAILED_JOINS_PER_MINUTE", default_value_t = 20)]
    pub failed_joins_per_minute: u32,

    /// Wrong invite codes the whole server takes per minute from every address together
    /// (then `join_match` by code is refused `busy` for everyone until the minute has
    /// passed): with 2^50 codes this makes guessing an open match's code take centuries.
    #[arg(
        long,
        env = "BOARDCAST_FAILED_JOINS_PER_MINUTE_TOTAL",
        default_value_t = 600
    )]
    pub failed_joins_per_minute_total: u32,

    /// Matches one address may have waiting for an opponent at once (refused
    /// `address_limit`).
    #[arg(long, env = "BOARDCAST_OPEN_SEEKS_PER_ADDRESS", default_value_t = 5)]
    pub open_seeks_per_address: usize,

    /// The address people should give out to reach this server (invite links), e.g.
    /// `https://draughts.example.org`; sent to every client in `welcome`. Default: derived
    /// from each request's Host (and X-Forwarded-Host/-Proto from a trusted proxy).
    #[arg(long, env = "BOARDCAST_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<crate::net::public_url::PublicUrl>,

    /// Reverse proxies (CIDR ranges or addresses, comma-separated or repeated) whose
    /// `Forwarded` / `X-Forwarded-For` headers name the client; from any other peer these
    /// headers are ignored and the socket's address is the client.
    #[arg(long = "trusted-proxy", env = "BOARDCAST_TRUSTED_PROXY", value_name = "CIDR", value_delimiter = ',', num_args = 1..)]
    pub trusted_proxies: Vec<crate::net::address::ProxyRange>,

    /// A connection that has not sent a complete HTTP request head this long after it
    /// opened (or after its last response) is closed.
    #[arg(long, env = "BOARDCAST_HANDSHAKE_TIMEOUT", default_value = "10s", value_parser = parse_duration)]
    pub handshake_timeout: Duration,

    /// Largest client message, in bytes: larger ones are refused with `too_large`, and a
    /// frame over twice this closes the connection (1009).
    #[arg(long, env = "BOARDCAST_MAX_MESSAGE", default_value_t = boardcast_protocol::limits::MAX_CLIENT_FRAME_BYTES)]
    pub max_message: usize,

    /// Sustained messages per second one connection may send (closed with 1008 beyond it).
    #[arg(long, env = "BOARDCAST_RATE", default_value_t = 20)]
    pub rate: u32,

    /// Messages a connection may send in a burst above the sustained rate.
    #[arg(long, env = "BOARDCAST_BURST", default_value_t = 40)]
    pub burst: u32,

    /// Outgoing messages queued per connection; a client that falls further behind is dropped.
    #[arg(long, env = "BOARDCAST_OUTBOX", default_value_t = 256)]
    pub outbox: usize,

    /// How long one minute of an arena's length lasts: a minute, except in tests, which run a
    /// 20-minute arena in seconds.
    #[arg(long, env = "BOARDCAST_ARENA_MINUTE", default_value = "60s", value_parser = parse_duration)]
    pub arena_minute: Duration,

    /// A connection that sends nothing (not even a pong) for this long is closed.
    #[arg(long, env = "BOARDCAST_IDLE_TIMEOUT", default_value = "60s", value_parser = parse_duration)]
    pub idle_timeout: Duration,

    /// How often a member's connection checks its session or token again: one ended by an
    /// admin command (`admin close`), or whose end the cluster's bus lost, closes within this.
    #[arg(long, env = "BOARDCAST_SESSION_RECHECK", default_value = "60s", value_parser = parse_duration)]
    pub session_recheck: Duration,

    /// How often the server pings a connection.
    #[arg(long, env = "BOARDCAST_PING_INTERVAL", default_value = "20s", value_parser = parse_duration)]
    pub ping_interval: Duration,

    /// Most matches waiting or playing at once; creating more is refused as `busy`. Finished
    /// matches held in memory for their watchers do not count: they have a bound of their own
    /// of the same size (watching one more old match is then refused as `busy`).
    #[arg(long, env = "BOARDCAST_MAX_MATCHES", default_value_t = 10_000)]
    pub max_matches: usize,

    /// How long a player may be gone before the opponent may claim the win or a draw, at most:
    /// untimed matches get all of it, timed ones a sixth of an average game, at least an
    /// eighth of it (PROTOCOL.md §10, "Leaving and claiming"). Counted only on the absent
    /// player's turns.
    #[arg(long, env = "BOARDCAST_GRACE", default_value = "120s", value_parser = parse_duration)]
    pub grace: Duration,

    /// How long each player has to make their first move once it is due (clocks do not run
    /// before a player's first move); a match whose player misses it is aborted.
    #[arg(long, env = "BOARDCAST_FIRST_MOVE_TIMEOUT", default_value = "30s", value_parser = parse_duration)]
    pub first_move_timeout: Duration,

    /// A match in which no connection holds a seat for this long ends (aborted if a side has
    /// not moved yet, else abandoned without a winner) and leaves memory.
    #[arg(long, env = "BOARDCAST_ABANDON_AFTER", default_value = "10m", value_parser = parse_duration)]
    pub abandon_after: Duration,

    /// How long a finished match that nobody follows any more stays in memory (for rematch
    /// offers and late watchers) before it leaves; it stays in storage, watchable and as PDN.
    #[arg(long, env = "BOARDCAST_FINISHED_LINGER", default_value = "5m", value_parser = parse_duration)]
    pub finished_linger: Duration,

    /// MinitChess TV channels playing engine games forever (`tv1`, `tv2`, …).
    #[arg(long, env = "BOARDCAST_CHANNELS", default_value_t = 2)]
    pub channels: usize,

    /// Time between two revealed plies of an engine game; `2s,tv2=500ms` sets one channel's.
    #[arg(long, env = "BOARDCAST_PLY_INTERVAL", default_value = "2s")]
    pub ply_interval: crate::channels::flags::PlyIntervals,

    /// Pause between two games of a TV channel.
    #[arg(long, env = "BOARDCAST_GAME_PAUSE", default_value = "10s", value_parser = parse_duration)]
    pub game_pause: Duration,

    /// Origin whose pages may open a WebSocket here (`https://play.example.org`); repeat the
    /// flag or separate with commas. Without it, only pages served by this very host (the
    /// request's `Host`) may. Clients that send no `Origin` (not browsers) always may.
    #[arg(
        long = "allowed-origin",
        env = "BOARDCAST_ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    pub allowed_origins: Vec<String>,

    /// A maintenance command to run instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `boardcast-server COMMAND` does instead of serving.
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// Copy every match, event, finished game, archived engine game, server run and
    /// leaderboard entry from a SQLite database into PostgreSQL, then verify row counts and
    /// checksums. Safe to run again. Stop the server that uses the source first.
    Migrate {
        /// The database to copy from: sqlite:PATH.
        #[arg(long, value_name = "sqlite:PATH")]
        from: Database,
        /// The database to copy into: postgres://user:password@host/database.
        #[arg(long, value_name = "URL")]
        to: Database,
    },
    /// Write a self-signed TLS certificate for this server that the terminal client (with
    /// --ca-file), curl and browsers accept, and its key; print the commands that use them.
    GenCert {
        /// The host names and IP addresses players connect to: boards.example.org 192.168.1.20.
        #[arg(required = true, value_name = "NAME")]
        names: Vec<String>,
        /// Where to write the certificate (public: players trust it with --ca-file).
        #[arg(long, value_name = "FILE", default_value = "boardcast.crt")]
        cert: PathBuf,
        /// Where to write the private key (mode 0600; --tls-key).
        #[arg(long, value_name = "FILE", default_value = "boardcast.key")]
        key: PathBuf,
    },
    /// The club admin's account commands, on this server's database (--db or --database),
    /// also while the server runs.
    Admin {
        #[command(subcommand)]
        action: crate::accounts::admin::Admin,
    },
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// `--listen` as people write it: `IP:PORT`, `[IPv6]:PORT`, `:PORT` (every IPv4 network, as
/// in Go and most servers), or `HOST:PORT` with a name this machine resolves (`localhost`
/// means 127.0.0.1, what a browser tries for it too). Anything else is refused with examples.
pub(crate) fn parse_listen(text: &str) -> Result<SocketAddr, String> {
    let refused = |why: &str| {
        format!(
            "`{text}` is not an address to listen on ({why}): use IP:PORT, e.g. 127.0.0.1:7878 \
             (this machine only), 0.0.0.0:7878 or :7878 (every network), localhost:7878 or \
             [::]:7878"
        )
    };
    if let Ok(addr) = text.parse::<SocketAddr>() {
        return Ok(addr);
    }
    let Some((host, port)) = text.rsplit_once(':') else {
        return Err(refused("no port"));
    };
    let port: u16 = port
        .parse()
        .map_err(|_| refused(&format!("`{port}` is not a port number")))?;
    match host {
        "" => Ok(SocketAddr::from(([0, 0, 0, 0], port))),
        host if host.eq_ignore_ascii_case("localhost") => {
            Ok(SocketAddr::from(([127, 0, 0, 1], port)))
        }
        host => (host, port)
            .to_socket_addrs()
            .ok()
            .and_then(|mut addrs| addrs.next())
            .ok_or_else(|| refused(&format!("`{host}` is not a name this machine resolves"))),
    }
}

impl Config {
    /// Defaults for tests: an ephemeral port on loopback, the given database, a short
    /// disconnect grace period, and no per-address limits (every test client is 127.0.0.1).
    pub fn for_tests(db: PathBuf) -> Self {
        let mut config = Config::parse_from(["boardcast-server"]);
        config.listen = SocketAddr::from(([127, 0, 0, 1], 0));
        config.db = db;
        config.log = "warn".to_owned();
        config.grace = Duration::from_millis(300);
        config.lift_address_limits();
        config
    }

    /// The database to store into: --database, else the SQLite file --db.
    pub fn database(&self) -> Database {
        self.database
            .clone()
            .unwrap_or_else(|| Database::Sqlite(self.db.clone()))
    }

    /// The cluster this server is a node of, checked: `None` without --redis (a single node).
    pub fn cluster(&self) -> Result<Option<ClusterSettings>, ClusterConfigError> {
        crate::cluster::settings::settings(
            self.redis.as_ref(),
            self.node_id.as_ref(),
            &self.database(),
            self.lease_ms,
        )
    }

    /// Lifts every per-address limit (and the reserve) out of the way: for tests and
    /// benchmarks whose clients all come from one address and that exercise something else.
    pub fn lift_address_limits(&mut self) {
        self.max_connections_per_address = usize::MAX;
        self.max_connections_per_ipv6_56 = usize::MAX;
        self.max_connections_per_ipv6_48 = usize::MAX;
        self.connection_reserve = 0;
        self.upgrades_per_minute = u32::MAX;
        self.matches_per_minute = u32::MAX;
        self.engine_games_per_minute = u32::MAX;
        self.open_seeks_per_address = usize::MAX;
        self.failed_joins_per_minute = u32::MAX;
        self.failed_joins_per_minute_total = u32::MAX;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_parse_without_flags() {
        let config = Config::parse_from(["boardcast-server"]);
        assert_eq!(config.listen.to_string(), "127.0.0.1:7878");
        assert_eq!(config.db, PathBuf::from("boardcast.db"));
        assert_eq!(config.idle_timeout, Duration::from_secs(60));
        assert_eq!(config.handshake_timeout, Duration::from_secs(10));
        assert_eq!(config.max_connections_per_address, 32);
        assert!(config.trusted_proxies.is_empty());
        assert_eq!(config.channels, 2);
        assert_eq!(config.ply_interval.to_string(), "2000ms");
        assert_eq!(config.game_pause, Duration::from_secs(10));
    }

    #[test]
    fn listen_takes_the_forms_people_write_and_refuses_others_with_examples() {
        let listen = |text: &str| parse_listen(text).map(|addr| addr.to_string());
        assert_eq!(listen("127.0.0.1:7878").unwrap(), "127.0.0.1:7878");
        assert_eq!(listen("[::]:7878").unwrap(), "[::]:7878");
        assert_eq!(listen(":7878").unwrap(), "0.0.0.0:7878");
        assert_eq!(listen("localhost:7878").unwrap(), "127.0.0.1:7878");
        assert_eq!(listen("LocalHost:80").unwrap(), "127.0.0.1:80");
        let examples = "use IP:PORT, e.g. 127.0.0.1:7878 (this machine only), 0.0.0.0:7878 \
                        or :7878 (every network), localhost:7878 or [::]:7878";
        for (text, why) in [
            ("7878", "no port"),
            ("localhost", "no port"),
            ("localhost:http", "`http` is not a port number"),
            (":70000", "`70000` is not a port number"),
            (
                "no-such-host.invalid:7878",
                "`no-such-host.invalid` is not a name this machine resolves",
            ),
        ] {
            assert_eq!(
                parse_listen(text),
                Err(format!(
                    "`{text}` is not an address to listen on ({why}): {examples}"
                )),
                "{text}"
            );
        }
        let config = Config::parse_from(["boardcast-server", "--listen", ":9000"]);
        assert_eq!(config.listen.to_string(), "0.0.0.0:9000");
    }

    #[test]
    fn migrate_names_its_source_and_target() {
        let config = Config::parse_from([
            "boardcast-server",
            "migrate",
            "--from",
            "sqlite:old.db",
            "--to",
            "postgres://club@127.0.0.1/boardcast",
        ]);
        assert_eq!(
            config.command,
            Some(Command::Migrate {
                from: Database::Sqlite(PathBuf::from("old.db")),
                to: Database::Postgres("postgres://club@127.0.0.1/boardcast".to_owned()),
            })
        );
        assert_eq!(Config::parse_from(["boardcast-server"]).command, None);
    }

    #[test]
    fn database_names_postgres_and_db_stays_the_sqlite_default() {
        let url = "postgres://club:pw@127.0.0.1:5432/boardcast";
        let config = Config::parse_from(["boardcast-server", "--database", url]);
        assert_eq!(config.database(), Database::Postgres(url.to_owned()));
        let config = Config::parse_from(["boardcast-server", "--db", "x.db"]);
        assert_eq!(config.database(), Database::Sqlite(PathBuf::from("x.db")));
        let config = Config::parse_from(["boardcast-server"]);
        assert_eq!(
            config.database(),
            Database::Sqlite(PathBuf::from("boardcast.db"))
        );
        let both = Config::try_parse_from(["boardcast-server", "--db", "x.db", "--database", url])
            .unwrap_err();
        assert_eq!(both.kind(), clap::error::ErrorKind::ArgumentConflict);
        let wrong =
            Config::try_parse_from(["boardcast-server", "--database", "mysql://x/y"]).unwrap_err();
        assert!(
            wrong.to_string().contains(
                "\"mysql://x/y\" is not a database: use postgres://user:password@host/database \
                 or sqlite:PATH"
            ),
            "{wrong}"
        );
    }

    #[test]
    fn redis_makes_a_node_of_a_cluster_with_its_id_on_a_shared_postgres() {
        let postgres = "postgres://club@127.0.0.1:5432/boardcast";
        let config = Config::parse_from([
            "boardcast-server",
            "--database",
            postgres,
            "--redis",
            "redis://127.0.0.1:6379",
            "--node-id",
            "node-2",
            "--lease-ms",
            "1500",
        ]);
        let cluster = config.cluster().unwrap().unwrap();
        assert_eq!(cluster.redis.as_str(), "redis://127.0.0.1:6379");
        assert_eq!(cluster.node_id.as_str(), "node-2");
        assert_eq!(cluster.postgres, postgres);
        assert_eq!(cluster.lease, Duration::from_millis(1500));

        let single = Config::parse_from(["boardcast-server", "--database", postgres]);
        assert_eq!(single.cluster(), Ok(None));
        assert_eq!(single.lease_ms, 5000);
    }

    #[test]
    fn a_cluster_node_without_postgres_or_a_node_id_does_not_start() {
        let sqlite = Config::parse_from([
            "boardcast-server",
            "--redis",
            "redis://127.0.0.1:6379",
            "--node-id",
            "a",
        ]);
        assert_eq!(
            sqlite.cluster().unwrap_err().to_string(),
            "--redis needs --database postgres://…: the nodes of a cluster share one \
             PostgreSQL database (SQLite serves a single node)"
        );
        let nameless = Config::parse_from([
            "boardcast-server",
            "--redis",
            "redis://127.0.0.1:6379",
            "--database",
            "postgres://club@127.0.0.1/boardcast",
        ]);
        assert_eq!(
            nameless.cluster().unwrap_err().to_string(),
            "--redis needs --node-id ID (env BOARDCAST_NODE_ID): every node of a cluster has \
             its own id"
        );
    }

    #[test]
    fn cluster_flags_refuse_bad_values_by_name() {
        let refused = |args: &[&str]| {
            let mut argv = vec!["boardcast-server"];
            argv.extend_from_slice(args);
            Config::try_parse_from(argv).unwrap_err().to_string()
        };
        let id = refused(&["--redis", "redis://h:1", "--node-id", "Node_A"]);
        assert!(
            id.contains(
                "invalid value 'Node_A' for '--node-id <ID>': \"Node_A\" is not a node id: use \
                 1 to 32 of a-z, 0-9 and -"
            ),
            "{id}"
        );
        let url = refused(&["--redis", "localhost:6379"]);
        assert!(
            url.contains("invalid value 'localhost:6379' for '--redis <URL>'"),
            "{url}"
        );
        let lease = refused(&["--redis", "redis://h:1", "--lease-ms", "10"]);
        assert!(
            lease.contains("invalid value '10' for '--lease-ms <N>': 10 is not in 300..=600000"),
            "{lease}"
        );
        let alone = refused(&["--node-id", "a"]);
        assert!(
            alone.contains("the following required arguments were not provided")
                && alone.contains("--redis <URL>"),
            "{alone}"
        );
    }

    #[test]
    fn trusted_proxies_take_lists_and_repeats() {
        let config = Config::parse_from([
            "boardcast-server",
            "--trusted-proxy",
            "10.0.0.0/8,::1",
            "--trusted-proxy",
            "192.168.1.7",
        ]);
        let ranges: Vec<String> = config
            .trusted_proxies
            .iter()
            .map(|r| r.to_string())
            .collect();
        assert_eq!(ranges, ["10.0.0.0/8", "::1/128", "192.168.1.7/32"]);
        let refused = Config::try_parse_from(["boardcast-server", "--trusted-proxy", "nope"])
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("invalid value 'nope' for '--trusted-proxy"),
            "{refused}"
        );
    }
}
