//! What happens, at info level: a match created, joined or ended, an engine game started, so
//! an operator who reads the log sees the server in use. The lines share one allowance of
//! [`LINES_PER_MINUTE`] (a token bucket): a client that creates matches as fast as it may,
//! from many addresses, cannot fill the disk with them. What was left out is counted, and the
//! count is logged before the next line that is allowed.
//!
//! At a level above info nothing here takes the lock: the check for the level comes first.

use std::sync::{LazyLock, Mutex};
use std::time::Instant;

use crate::ops::lock;
use crate::ops::rate::RateLimit;

/// How many activity lines the log takes per minute, all kinds together (at once after a
/// quiet minute, then evenly).
pub(crate) const LINES_PER_MINUTE: u32 = 60;

/// The shared allowance and what it left out.
#[derive(Debug)]
struct Allowance {
    bucket: RateLimit,
    /// Lines refused since the last line that was logged.
    left_out: u64,
}

impl Allowance {
    fn new(now: Instant) -> Allowance {
        Allowance {
            bucket: RateLimit::per_minute(LINES_PER_MINUTE, now),
            left_out: 0,
        }
    }

    /// Whether a line may be logged at `now`: `Some(n)` with the `n` lines left out before
    /// it, or `None` (counted as left out).
    fn admit(&mut self, now: Instant) -> Option<u64> {
        if self.bucket.allow(now) {
            Some(std::mem::take(&mut self.left_out))
        } else {
            self.left_out += 1;
            None
        }
    }
}

static ALLOWANCE: LazyLock<Mutex<Allowance>> =
    LazyLock::new(|| Mutex::new(Allowance::new(Instant::now())));

/// Logs `line` (an info line) if the allowance has room, after a line that says how many were
/// left out since the last one.
pub(crate) fn record(line: impl FnOnce()) {
    if !tracing::enabled!(tracing::Level::INFO) {
        return;
    }
    let admitted = lock(&ALLOWANCE).admit(Instant::now());
    match admitted {
        None => {}
        Some(0) => line(),
        Some(left_out) => {
            tracing::info!(
                left_out,
                "activity lines left out (more than {LINES_PER_MINUTE} a minute)"
            );
            line();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_flood_is_cut_at_the_allowance_and_the_next_line_says_how_much_was_left_out() {
        let start = Instant::now();
        let mut allowance = Allowance::new(start);
        for _ in 0..LINES_PER_MINUTE {
            assert_eq!(allowance.admit(start), Some(0));
        }
        for _ in 0..500 {
            assert_eq!(allowance.admit(start), None);
        }
        // A line's worth of allowance comes back every second (60 a minute).
        assert_eq!(allowance.admit(start + Duration::from_millis(500)), None);
        assert_eq!(allowance.admit(start + Duration::from_secs(2)), Some(501));
        assert_eq!(allowance.admit(start + Duration::from_secs(3)), Some(0));
    }
}
