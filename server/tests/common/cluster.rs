//! Nodes of one cluster in one test process: PostgreSQL and Redis started by the testkit, and
//! `Server`s with their own node ids on them.

use boardcast_server::Config;
use boardcast_server::Database;
use boardcast_testkit::postgres::Cluster;
use boardcast_testkit::redis::Redis;

use super::{TestServer, temp_db};

/// Lease of the test nodes: short, so a stopped owner is replaced quickly.
pub const LEASE_MS: u64 = 1500;

/// A node `id` of the cluster on `postgres` and `redis`.
pub async fn node(postgres: &str, redis: &Redis, id: &str) -> TestServer {
    let (_unused, db) = temp_db();
    let mut config = Config::for_tests(db);
    config.database = Some(Database::Postgres(postgres.to_owned()));
    config.redis = Some(redis.url().parse().expect("a Redis URL"));
    config.node_id = Some(id.parse().expect("a node id"));
    config.lease_ms = LEASE_MS;
    TestServer::start_with(config).await
}

/// PostgreSQL and Redis for one test, or `None` (after a "skipped" line) without them.
pub fn backends(test: &str) -> Option<(&'static Cluster, Redis)> {
    let postgres = Cluster::shared_or_skip(test)?;
    let redis = Redis::start_or_skip(test)?;
    Some((postgres, redis))
}
