//! Failed-login throttles: per account name (10 failures in 15 minutes) and per client
//! address (50 in 15 minutes), and sign-ups per address (10 an hour). Checked before any
//! password is hashed, so a flood costs no hashing; refused with 429 and `Retry-After`.
//!
//! In memory on a single node: each key keeps the times of its recent failures in a sliding
//! window. The map is bounded: past [`MAX_KEYS`] keys the ones with nothing in their window
//! are dropped, and if all are busy the oldest key goes.
//!
//! In a cluster an attacker could spread tries over the nodes, so the windows live in Redis
//! ([`Shared`]): one sorted set a key (`bc:throttle:{throttle}:{SHA-256 of the key}`, so no
//! name or address is stored in Redis), scored by the wall clock in milliseconds, trimmed to
//! the last `limit` events and expiring with its window. Every event is counted in memory
//! too: while Redis cannot answer, each node's own window holds instead of none.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use redis::aio::MultiplexedConnection;
use redis::{AsyncConnectionConfig, RedisResult};

use crate::ops::lock;
use crate::storage::now_ms;

/// The most keys a throttle remembers.
const MAX_KEYS: usize = 100_000;
/// Redis answers within this on loopback even on a loaded machine; slower and the node's own
/// window decides.
const REDIS_TIMEOUT: Duration = Duration::from_secs(2);

/// One sliding-window limit: `limit` events per `window`.
#[derive(Debug, Clone)]
pub struct Throttle {
    limit: usize,
    window: Duration,
    seen: Arc<Mutex<HashMap<String, VecDeque<Instant>>>>,
    /// The cluster's windows, with this throttle's name in their keys.
    shared: Option<(Shared, &'static str)>,
}

impl Throttle {
    pub fn new(limit: usize, window: Duration) -> Throttle {
        Throttle {
            limit,
            window,
            seen: Arc::default(),
            shared: None,
        }
    }

    /// `Err(retry after)` if `key` has had `limit` events in the window: the cluster's
    /// window when there is one and Redis answers, else this node's.
    pub async fn check(&self, key: &str) -> Result<(), Duration> {
        if let Some((shared, name)) = &self.shared {
            match shared.check(name, key, self.limit, self.window).await {
                Ok(verdict) => return verdict,
                Err(err) => {
                    tracing::warn!(%err, "the cluster's throttles cannot answer: this node's decide")
                }
            }
        }
        self.check_at(key, Instant::now())
    }

    /// Counts one event of `key`, here and in the cluster's window.
    pub async fn hit(&self, key: &str) {
        self.hit_at(key, Instant::now());
        if let Some((shared, name)) = &self.shared
            && let Err(err) = shared.hit(name, key, self.limit, self.window).await
        {
            tracing::warn!(%err, "cannot count a failure in the cluster's throttles");
        }
    }

    /// `Err(retry after)` if `key` has had `limit` events in this node's window before `now`.
    pub fn check_at(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut seen = lock(&self.seen);
        let Some(times) = seen.get_mut(key) else {
            return Ok(());
        };
        while times
            .front()
            .is_some_and(|&t| now.duration_since(t) >= self.window)
        {
            times.pop_front();
        }
        if times.len() >= self.limit {
            let oldest = times[times.len() - self.limit];
            return Err(self.window.saturating_sub(now.duration_since(oldest)));
        }
        Ok(())
    }

    /// Counts one event of `key` at `now` in this node's window.
    pub fn hit_at(&self, key: &str, now: Instant) {
        let mut seen = lock(&self.seen);
        if seen.len() >= MAX_KEYS && !seen.contains_key(key) {
            let window = self.window;
            seen.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|&t| now.duration_since(t) < window)
            });
            if seen.len() >= MAX_KEYS {
                let oldest = seen
                    .iter()
                    .min_by_key(|(_, times)| times.back().copied())
                    .map(|(key, _)| key.clone());
                if let Some(oldest) = oldest {
                    seen.remove(&oldest);
                }
            }
        }
        let times = seen.entry(key.to_owned()).or_default();
        times.push_back(now);
        while times.len() > self.limit {
            times.pop_front();
        }
    }
}

/// The cluster's throttle windows in Redis; cheap to clone. The connection is made again
/// after a failure, at the next use.
#[derive(Clone)]
pub struct Shared {
    client: redis::Client,
    connection: Arc<tokio::sync::Mutex<Option<MultiplexedConnection>>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Shared(redis)")
    }
}

impl Shared {
    /// The windows in the Redis at `url` (connected at first use).
    pub fn new(url: &str) -> RedisResult<Shared> {
        Ok(Shared {
            client: redis::Client::open(url)?,
            connection: Arc::default(),
        })
    }

    async fn connection(&self) -> RedisResult<MultiplexedConnection> {
        let mut held = self.connection.lock().await;
        if let Some(connection) = held.as_ref() {
            return Ok(connection.clone());
        }
        let config = AsyncConnectionConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT));
        let connection = self
            .client
            .get_multiplexed_async_connection_with_config(&config)
            .await?;
        *held = Some(connection.clone());
        Ok(connection)
    }

    /// Runs `pipe`, dropping the connection after a failure so the next use reconnects.
    async fn run<T: redis::FromRedisValue>(&self, pipe: &redis::Pipeline) -> RedisResult<T> {
        let mut connection = self.connection().await?;
        let answer = pipe.query_async(&mut connection).await;
        if answer.is_err() {
            *self.connection.lock().await = None;
        }
        answer
    }

    fn key(name: &str, key: &str) -> String {
        format!("bc:throttle:{name}:{}", super::secret::hash(key))
    }

    async fn check(
        &self,
        name: &str,
        key: &str,
        limit: usize,
        window: Duration,
    ) -> RedisResult<Result<(), Duration>> {
        let now = now_ms();
        let window_ms = window.as_millis() as i64;
        let mut pipe = redis::pipe();
        pipe.cmd("ZREMRANGEBYSCORE")
            .arg(Self::key(name, key))
            .arg("-inf")
            .arg(now - window_ms)
            .ignore()
            .cmd("ZRANGE")
            .arg(Self::key(name, key))
            .arg(0)
            .arg(-1)
            .arg("WITHSCORES");
        let (times,): (Vec<(String, i64)>,) = self.run(&pipe).await?;
        Ok(retry_after(
            times.iter().map(|(_, at)| *at),
            limit,
            window_ms,
            now,
        ))
    }

    async fn hit(&self, name: &str, key: &str, limit: usize, window: Duration) -> RedisResult<()> {
        let now = now_ms();
        // Two failures in one millisecond are two events.
        let event = format!("{now}:{:016x}", rand::random::<u64>());
        let mut pipe = redis::pipe();
        pipe.cmd("ZADD")
            .arg(Self::key(name, key))
            .arg(now)
            .arg(event)
            .ignore()
            .cmd("ZREMRANGEBYRANK")
            .arg(Self::key(name, key))
            .arg(0)
            .arg(-(limit as i64) - 1)
            .ignore()
            .cmd("PEXPIRE")
            .arg(Self::key(name, key))
            .arg(window.as_millis() as u64)
            .ignore();
        self.run::<()>(&pipe).await
    }
}

/// `Err(retry after)` if `limit` of the event times (milliseconds, oldest first, all within
/// the window before `now`) are there: the wait until the oldest of the last `limit` leaves.
fn retry_after(
    mut times: impl ExactSizeIterator<Item = i64>,
    limit: usize,
    window_ms: i64,
    now: i64,
) -> Result<(), Duration> {
    let count = times.len();
    if count < limit {
        return Ok(());
    }
    let oldest = times.nth(count - limit).unwrap_or(now);
    let left = (window_ms - (now - oldest)).max(0);
    Err(Duration::from_millis(left as u64))
}

/// The throttles of the account routes.
#[derive(Debug, Clone)]
pub struct Throttles {
    /// Failed logins per account name (lower case).
    pub per_account: Throttle,
    /// Failed logins per client address.
    pub per_address: Throttle,
    /// Sign-ups per client address.
    pub signups: Throttle,
    /// Failed logins per account name and address: over the account's limit, an address
    /// with a failure of its own on the account is refused, one without is not.
    pub per_pair: Throttle,
}

impl Default for Throttles {
    fn default() -> Self {
        let quarter = Duration::from_secs(15 * 60);
        Throttles {
            per_account: Throttle::new(10, quarter),
            per_address: Throttle::new(50, quarter),
            signups: Throttle::new(10, Duration::from_secs(3600)),
            per_pair: Throttle::new(1, quarter),
        }
    }
}

impl Throttles {
    /// The same limits, counted across the nodes of a cluster through `shared`.
    pub fn clustered(shared: Shared) -> Throttles {
        let with = |throttle: Throttle, name| Throttle {
            shared: Some((shared.clone(), name)),
            ..throttle
        };
        let local = Throttles::default();
        Throttles {
            per_account: with(local.per_account, "account"),
            per_address: with(local.per_address, "address"),
            signups: with(local.signups, "signup"),
            per_pair: with(local.per_pair, "pair"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_refuses_until_the_oldest_event_leaves_the_window() {
        let throttle = Throttle::new(3, Duration::from_secs(60));
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(throttle.check_at("anne", start), Ok(()));
            throttle.hit_at("anne", start + Duration::from_secs(i));
        }
        let later = start + Duration::from_secs(10);
        assert_eq!(
            throttle.check_at("anne", later),
            Err(Duration::from_secs(50))
        );
        assert_eq!(throttle.check_at("bob", later), Ok(()));
        assert_eq!(
            throttle.check_at("anne", start + Duration::from_secs(60)),
            Ok(())
        );
    }

    #[test]
    fn the_shared_window_waits_for_the_oldest_of_the_last_limit_events() {
        let times = [1_000, 2_000, 3_000, 4_000];
        assert_eq!(
            retry_after(times.into_iter(), 3, 60_000, 10_000),
            Err(Duration::from_millis(52_000))
        );
        assert_eq!(retry_after(times.into_iter(), 5, 60_000, 10_000), Ok(()));
    }
}
