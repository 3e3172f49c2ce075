//! Failed-login throttles: per account name (10 failures in 15 minutes) and per client
//! address (50 in 15 minutes), and sign-ups per address (10 an hour). Checked before any
//! password is hashed, so a flood costs no hashing; refused with 429 and `Retry-After`.
//!
//! In memory, per node: each key keeps the times of its recent failures in a sliding window.
//! The map is bounded: past [`MAX_KEYS`] keys the ones with nothing in their window are
//! dropped, and if all are busy the oldest key goes.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most keys a throttle remembers.
const MAX_KEYS: usize = 100_000;

/// One sliding-window limit: `limit` events per `window`.
#[derive(Debug, Clone)]
pub struct Throttle {
    limit: usize,
    window: Duration,
    seen: Arc<Mutex<HashMap<String, VecDeque<Instant>>>>,
}

impl Throttle {
    pub fn new(limit: usize, window: Duration) -> Throttle {
        Throttle {
            limit,
            window,
            seen: Arc::default(),
        }
    }

    /// `Err(retry after)` if `key` has had `limit` events in the window before `now`.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
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

    /// Counts one event of `key` at `now`.
    pub fn hit(&self, key: &str, now: Instant) {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_refuses_until_the_oldest_event_leaves_the_window() {
        let throttle = Throttle::new(3, Duration::from_secs(60));
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(throttle.check("anne", start), Ok(()));
            throttle.hit("anne", start + Duration::from_secs(i));
        }
        let later = start + Duration::from_secs(10);
        assert_eq!(throttle.check("anne", later), Err(Duration::from_secs(50)));
        assert_eq!(throttle.check("bob", later), Ok(()));
        assert_eq!(
            throttle.check("anne", start + Duration::from_secs(60)),
            Ok(())
        );
    }
}
