//! How an operator turns a server into one node of a cluster: `--redis URL` switches cluster
//! mode on, `--node-id ID` names the node, `--lease-ms N` sets how long its lease lasts. The
//! combination is checked once at start-up ([`crate::Config::cluster`]), so a node never starts
//! half-configured: cluster mode needs a PostgreSQL database every node shares.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::storage::Database;
use crate::storage::without_password;

/// The longest node id: it goes into Redis channel names and PostgreSQL's `application_name`.
pub(crate) const MAX_NODE_ID: usize = 32;

/// A node's name, as the operator gave it: 1 to 32 of `a-z`, `0-9` and `-`, so it can go into
/// channel names, log lines and `application_name` as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NodeId(String);

impl NodeId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for NodeId {
    type Err = String;

    fn from_str(id: &str) -> Result<NodeId, String> {
        let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-';
        if id.is_empty() || id.len() > MAX_NODE_ID || !id.chars().all(allowed) {
            return Err(format!(
                "{id:?} is not a node id: use 1 to {MAX_NODE_ID} of a-z, 0-9 and -"
            ));
        }
        Ok(NodeId(id.to_owned()))
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Where the Redis server that carries messages between nodes is: `redis://[user:password@]
/// host[:port][/db]`. Plain TCP only (no `rediss://`): Redis belongs on loopback or a private
/// network beside the nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RedisUrl(String);

impl RedisUrl {
    /// The URL whole, password included: for connecting, never for logging.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for RedisUrl {
    type Err = String;

    fn from_str(url: &str) -> Result<RedisUrl, String> {
        match url.strip_prefix("redis://") {
            Some(rest) if !rest.is_empty() => Ok(RedisUrl(url.to_owned())),
            _ => Err(format!(
                "{url:?} is not a Redis server: use redis://host:port"
            )),
        }
    }
}

/// The URL as it may be logged: without its password.
impl fmt::Display for RedisUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&without_password(&self.0))
    }
}

/// Everything a node of a cluster needs to know about itself, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSettings {
    pub redis: RedisUrl,
    pub node_id: NodeId,
    /// The PostgreSQL database every node shares (its URL).
    pub postgres: String,
    /// How long a node's lease lasts without renewal; renewed every third of it.
    pub lease: Duration,
}

/// Why the flags do not make a node (the text is the start-up error an operator reads).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClusterConfigError {
    #[error(
        "--redis needs --database postgres://…: the nodes of a cluster share one PostgreSQL \
         database (SQLite serves a single node)"
    )]
    NeedsPostgres,
    #[error(
        "--redis needs --node-id ID (env BOARDCAST_NODE_ID): every node of a cluster has its own id"
    )]
    NeedsNodeId,
}

/// Checks the cluster flags: `Ok(None)` without `--redis` (a single node, as always).
pub(crate) fn settings(
    redis: Option<&RedisUrl>,
    node_id: Option<&NodeId>,
    database: &Database,
    lease_ms: u64,
) -> Result<Option<ClusterSettings>, ClusterConfigError> {
    let Some(redis) = redis else {
        return Ok(None);
    };
    let Database::Postgres(postgres) = database else {
        return Err(ClusterConfigError::NeedsPostgres);
    };
    let node_id = node_id.ok_or(ClusterConfigError::NeedsNodeId)?;
    Ok(Some(ClusterSettings {
        redis: redis.clone(),
        node_id: node_id.clone(),
        postgres: postgres.clone(),
        lease: Duration::from_millis(lease_ms),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_short_lower_case_letters_digits_and_dashes() {
        assert_eq!("a".parse::<NodeId>().unwrap().as_str(), "a");
        assert_eq!(
            "eu-west-2".parse::<NodeId>().unwrap().to_string(),
            "eu-west-2"
        );
        let long = "n".repeat(32);
        assert_eq!(long.parse::<NodeId>().unwrap().as_str(), long);
        for bad in ["", "A", "node_1", "node 1", "é", &"n".repeat(33)] {
            assert_eq!(
                bad.parse::<NodeId>(),
                Err(format!(
                    "{bad:?} is not a node id: use 1 to 32 of a-z, 0-9 and -"
                ))
            );
        }
    }

    #[test]
    fn redis_urls_are_named_by_scheme_and_logged_without_password() {
        let url: RedisUrl = "redis://:s3cret@127.0.0.1:6379/0".parse().unwrap();
        assert_eq!(url.as_str(), "redis://:s3cret@127.0.0.1:6379/0");
        assert_eq!(url.to_string(), "redis://127.0.0.1:6379/0");
        for bad in ["127.0.0.1:6379", "redis://", "rediss://cache.example:6380"] {
            assert_eq!(
                bad.parse::<RedisUrl>(),
                Err(format!(
                    "{bad:?} is not a Redis server: use redis://host:port"
                ))
            );
        }
    }
}
