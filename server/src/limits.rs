//! Per-connection limits: the message-rate token bucket and the connection semaphore.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// A token bucket: `burst` messages at once, refilled at `rate` per second.
#[derive(Debug)]
pub struct RateLimit {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    pub fn new(rate: u32, burst: u32, now: Instant) -> Self {
        let burst = f64::from(burst.max(1));
        RateLimit {
            rate: f64::from(rate),
            burst,
            tokens: burst,
            last: now,
        }
    }

    /// Takes one token; `false` means the connection is over its limit.
    pub fn allow(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The connection limit: one permit per live WebSocket connection, held until it closes.
#[derive(Debug, Clone)]
pub struct ConnectionLimit(Arc<Semaphore>);

impl ConnectionLimit {
    pub fn new(max: usize) -> Self {
        ConnectionLimit(Arc::new(Semaphore::new(max)))
    }

    /// A permit if a connection slot is free.
    pub fn try_acquire(&self) -> Option<OwnedSemaphorePermit> {
        self.0.clone().try_acquire_owned().ok()
    }
}

/// Idle bookkeeping: when the peer was last heard from.
#[derive(Debug)]
pub struct Idle {
    timeout: Duration,
    last_heard: Instant,
}

impl Idle {
    pub fn new(timeout: Duration, now: Instant) -> Self {
        Idle {
            timeout,
            last_heard: now,
        }
    }

    pub fn heard(&mut self, now: Instant) {
        self.last_heard = now;
    }

    pub fn expired(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last_heard) >= self.timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_allows_a_burst_then_the_rate() {
        let t0 = Instant::now();
        let mut limit = RateLimit::new(10, 3, t0);
        assert!(limit.allow(t0));
        assert!(limit.allow(t0));
        assert!(limit.allow(t0));
        assert!(!limit.allow(t0));
        // 100 ms later one token is back.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limit.allow(t1));
        assert!(!limit.allow(t1));
    }

    #[test]
    fn semaphore_counts_connections() {
        let limit = ConnectionLimit::new(1);
        let permit = limit.try_acquire().unwrap();
        assert!(limit.try_acquire().is_none());
        drop(permit);
        assert!(limit.try_acquire().is_some());
    }

    #[test]
    fn idle_expires() {
        let t0 = Instant::now();
        let mut idle = Idle::new(Duration::from_secs(1), t0);
        assert!(!idle.expired(t0 + Duration::from_millis(999)));
        idle.heard(t0 + Duration::from_millis(500));
        assert!(!idle.expired(t0 + Duration::from_millis(1400)));
        assert!(idle.expired(t0 + Duration::from_millis(1500)));
    }
}
