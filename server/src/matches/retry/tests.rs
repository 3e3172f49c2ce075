use std::time::Duration;

use tokio::time::Instant;

use super::{LOG_EVERY, MAX_RETRY, MIN_RETRY, Repeats, Retry};

#[test]
fn a_refused_owed_write_is_tried_again_after_a_doubling_back_off_up_to_the_writers_longest() {
    let start = Instant::now();
    let mut retry = Retry::default();
    // Not backing off: a timer fires when it is due.
    assert_eq!(retry.due(start), start);
    let mut waits = Vec::new();
    let mut now = start;
    for _ in 0..10 {
        let failed = retry.failed(now);
        waits.push(failed.retry_in);
        // A flag that fell in the past is tried again only after the back-off.
        assert_eq!(retry.due(start), now + failed.retry_in);
        now += failed.retry_in;
    }
    assert_eq!(waits[0], MIN_RETRY);
    assert!(waits.windows(2).all(|w| w[1] == (w[0] * 2).min(MAX_RETRY)));
    assert_eq!(*waits.last().unwrap(), MAX_RETRY);
    // A deadline later than the back-off is kept.
    let later = now + Duration::from_secs(60);
    assert_eq!(retry.due(later), later);
    assert!(retry.succeeded(), "it had failed");
    assert_eq!(retry.due(start), start, "no back-off once it went through");
    assert!(!retry.succeeded(), "nothing had failed since");
    assert_eq!(
        retry.failed(now).retry_in,
        MIN_RETRY,
        "a new outage starts short"
    );
}

#[test]
fn a_failure_that_repeats_is_logged_once_per_interval_with_how_many_it_stands_for() {
    let start = Instant::now();
    let mut repeats = Repeats::new();
    assert_eq!(repeats.count(start), Some(1), "the first is logged at once");
    // 121,000 failures in the next second (the hot loop of issue 28): not one line.
    let mut lines = 0;
    for i in 0..121_000u32 {
        let at = start + Duration::from_micros(u64::from(i) * 8);
        lines += usize::from(repeats.count(at).is_some());
    }
    assert_eq!(lines, 0);
    // The next line, an interval after the first, stands for all of them and itself.
    assert_eq!(repeats.count(start + LOG_EVERY), Some(121_001));
    assert_eq!(repeats.count(start + LOG_EVERY), None);
    repeats.reset();
    assert_eq!(
        repeats.count(start + LOG_EVERY),
        Some(1),
        "after a reset, at once"
    );
}
