//! Per-connection limits: the message-rate token bucket, the connection limit, and idle
//! bookkeeping.

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

/// Connections over the limit that may be open at once just to be refused (their upgrade
/// closes with 1013); beyond these, new connections wait in the kernel's backlog.
pub const REFUSAL_HEADROOM: usize = 64;

/// The connection limit: one permit per open TCP connection (and the WebSocket session it
/// becomes), held until it closes, plus [`REFUSAL_HEADROOM`] places for connections over the
/// limit that are only answered with a refusal.
#[derive(Debug, Clone)]
pub struct ConnectionLimit {
    slots: Arc<Semaphore>,
    refusals: Arc<Semaphore>,
}

/// A connection's place under the limit; cheap to clone, given back when the last clone is
/// dropped (by the HTTP connection and, after an upgrade, its WebSocket session).
#[derive(Debug, Clone)]
pub enum Admission {
    /// Within the limit: the connection may become a WebSocket session.
    Slot(Arc<OwnedSemaphorePermit>),
    /// Over the limit: plain HTTP is still answered, a WebSocket upgrade is closed at once
    /// with 1013.
    Refused(Arc<OwnedSemaphorePermit>),
}

impl Admission {
    pub fn has_slot(&self) -> bool {
        matches!(self, Admission::Slot(_))
    }
}

impl ConnectionLimit {
    pub fn new(max: usize) -> Self {
        ConnectionLimit {
            slots: Arc::new(Semaphore::new(max)),
            refusals: Arc::new(Semaphore::new(REFUSAL_HEADROOM)),
        }
    }

    /// A permit if a connection slot is free.
    pub fn try_acquire(&self) -> Option<OwnedSemaphorePermit> {
        self.slots.clone().try_acquire_owned().ok()
    }

    /// A place for the next connection: a slot if one is free, else a refusal place, else
    /// whichever frees up first.
    pub async fn admit(&self) -> Admission {
        if let Some(permit) = self.try_acquire() {
            return Admission::Slot(Arc::new(permit));
        }
        // The semaphores are never closed, so neither acquire fails; a failed one just
        // leaves the other to answer.
        let slot = async {
            match self.slots.clone().acquire_owned().await {
                Ok(permit) => permit,
                Err(_) => std::future::pending().await,
            }
        };
        let refusal = async {
            match self.refusals.clone().acquire_owned().await {
                Ok(permit) => permit,
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            permit = slot => Admission::Slot(Arc::new(permit)),
            permit = refusal => Admission::Refused(Arc::new(permit)),
        }
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

    #[tokio::test]
    async fn connections_over_the_limit_get_a_refusal_place_then_wait() {
        use futures_util::FutureExt;
        let limit = ConnectionLimit::new(1);
        let slot = limit.admit().await;
        assert!(slot.has_slot());
        let mut refused = Vec::new();
        for _ in 0..REFUSAL_HEADROOM {
            let admission = limit.admit().await;
            assert!(!admission.has_slot());
            refused.push(admission);
        }
        // Every place is taken: the next connection waits until one is given back.
        let waiting = limit.admit();
        tokio::pin!(waiting);
        assert!(waiting.as_mut().now_or_never().is_none());
        // A clone (the WebSocket session's) keeps the slot taken.
        let session = slot.clone();
        drop(slot);
        assert!(waiting.as_mut().now_or_never().is_none());
        drop(session);
        assert!(waiting.await.has_slot());
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
