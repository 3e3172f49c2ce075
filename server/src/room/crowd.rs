//! How often a room (a match, a channel) tells its followers how many watch it.
//!
//! Watchers come and go in bursts (a link shared in a chat, a reconnect storm); sending every
//! change to every follower would multiply that burst by the crowd. So a change goes out at
//! once when none went out lately, and otherwise once, [`CrowdThrottle::every`] after the last
//! one, carrying whatever the count is by then. Time is tokio's, so a paused test clock
//! drives it.

use std::time::Duration;

use tokio::time::Instant;

/// The send times of one room's crowd counts.
#[derive(Debug, Clone)]
pub(crate) struct CrowdThrottle {
    every: Duration,
    /// When the last count went out.
    sent: Option<Instant>,
    /// When a count held back must go out.
    due: Option<Instant>,
}

impl CrowdThrottle {
    /// Counts go out at most once per `every`.
    pub(crate) fn new(every: Duration) -> Self {
        CrowdThrottle {
            every,
            sent: None,
            due: None,
        }
    }

    /// The count changed at `now`: `true` if it goes out now; else it is held back until
    /// [`CrowdThrottle::due`].
    pub(crate) fn changed(&mut self, now: Instant) -> bool {
        match self.sent {
            Some(sent) if now < sent + self.every => {
                self.due.get_or_insert(sent + self.every);
                false
            }
            _ => true,
        }
    }

    /// A count went out at `now` (nothing is held back any more).
    pub(crate) fn sent(&mut self, now: Instant) {
        self.sent = Some(now);
        self.due = None;
    }

    /// When a held-back count must go out, if one is held back.
    pub(crate) fn due(&self) -> Option<Instant> {
        self.due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_change_goes_out_at_once_and_the_next_ones_once_a_period_later() {
        let every = Duration::from_secs(2);
        let t0 = Instant::now();
        let mut crowd = CrowdThrottle::new(every);
        assert!(crowd.changed(t0));
        crowd.sent(t0);
        assert_eq!(crowd.due(), None);
        assert!(!crowd.changed(t0 + Duration::from_millis(100)));
        assert!(!crowd.changed(t0 + Duration::from_millis(900)));
        assert_eq!(crowd.due(), Some(t0 + every), "two changes, one count");
        crowd.sent(t0 + every);
        assert_eq!(crowd.due(), None);
        assert!(
            crowd.changed(t0 + every * 2),
            "a quiet period: at once again"
        );
    }
}
