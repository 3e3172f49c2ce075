//! What the server counts for `/metrics`: the `metrics` facade, recorded by
//! `metrics-exporter-prometheus` and rendered in the Prometheus text format.
//!
//! Counters and histograms are recorded where things happen (a move acknowledged, a group
//! committed, a refusal sent, a limit hit, a slow client dropped); gauges of what exists (matches
//! by phase, channels and their watchers) are read from the hub and the channel registry when
//! scraped ([`crate::net::metrics_page`] serves them). One recorder serves the whole process.

use std::sync::OnceLock;
use std::time::Duration;

use boardcast_protocol::{Encoding, ErrorCode, MatchPhase};
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::ops::rate::LimitKind;

const MOVES: &str = "boardcast_moves_total";
const MOVE_ACK: &str = "boardcast_move_ack_seconds";
const COMMIT: &str = "boardcast_storage_commit_seconds";
const GROUP: &str = "boardcast_storage_group_size";
const QUEUE: &str = "boardcast_storage_queue_seconds";
const CHECKPOINT: &str = "boardcast_storage_checkpoint_seconds";
const CONNECTIONS: &str = "boardcast_connections";
const REFUSALS: &str = "boardcast_refusals_total";
const LIMIT_HITS: &str = "boardcast_limit_hits_total";
const SLOW_CLIENTS: &str = "boardcast_slow_clients_dropped_total";
const MATCHES: &str = "boardcast_matches";
const CHANNELS: &str = "boardcast_channels";
const WATCHERS: &str = "boardcast_channel_watchers";
const REVEAL: &str = "boardcast_channel_reveal_seconds";
const LEASES_LOST: &str = "boardcast_cluster_leases_lost_total";
const TAKEOVERS: &str = "boardcast_cluster_takeovers_total";

/// Latency buckets, in seconds: from a fraction of a millisecond to a few seconds, finer
/// around the 10 ms that a move's acknowledgement is aimed to stay under.
const LATENCY_BUCKETS: [f64; 19] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.008, 0.01, 0.015, 0.02, 0.05,
    0.1, 0.2, 0.5, 1.0, 2.0, 5.0,
];
/// Commit group sizes (requests per transaction).
const GROUP_BUCKETS: [f64; 9] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];
/// How often histograms are drained when nobody scrapes.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The process's recorder, installed on first use.
pub(crate) fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(MOVE_ACK.into()), &LATENCY_BUCKETS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(COMMIT.into()), &LATENCY_BUCKETS))
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(GROUP.into()), &GROUP_BUCKETS))
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(QUEUE.into()), &LATENCY_BUCKETS))
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Full(CHECKPOINT.into()), &LATENCY_BUCKETS)
            })
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(REVEAL.into()), &LATENCY_BUCKETS))
            .expect("bucket lists are not empty");
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics will be empty");
        }
        describe();
        let upkeep = handle.clone();
        let _ = std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(UPKEEP_EVERY);
                    upkeep.run_upkeep();
                }
            });
        handle
    })
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        MOVES,
        "Frisian moves acknowledged (committed) to their player."
    );
    describe_histogram!(
        MOVE_ACK,
        Unit::Seconds,
        "From a move's arrival at its match to its acknowledgement (after the commit)."
    );
    describe_histogram!(
        COMMIT,
        Unit::Seconds,
        "One storage transaction, fsync included."
    );
    describe_histogram!(GROUP, "Commit requests grouped into one transaction.");
    describe_histogram!(
        QUEUE,
        Unit::Seconds,
        "How long a commit request waited in the queue before its group's transaction began."
    );
    describe_histogram!(
        CHECKPOINT,
        Unit::Seconds,
        "One WAL checkpoint (SQLite): by its own thread, or by the writer to restart the log."
    );

    describe_gauge!(CONNECTIONS, "Open WebSocket sessions, by encoding.");
    describe_counter!(REFUSALS, "Error replies sent, by error code.");
    describe_counter!(
        LIMIT_HITS,
        "Requests and connections refused by a limit, by limit."
    );
    describe_counter!(
        SLOW_CLIENTS,
        "Connections dropped because they did not read fast enough."
    );
    describe_gauge!(MATCHES, "Matches in memory, by phase.");
    // Counters exist from the start, so a rate over them is defined before the first event.
    counter!(MOVES).absolute(0);
    counter!(SLOW_CLIENTS).absolute(0);
    for limit in LimitKind::ALL {
        counter!(LIMIT_HITS, "limit" => limit.label()).absolute(0);
    }
    describe_gauge!(CHANNELS, "MinitChess channels running (TV and on-demand).");
    describe_gauge!(
        WATCHERS,
        "Watchers of MinitChess channels, all channels together."
    );
    describe_counter!(
        LEASES_LOST,
        "Times this node stopped believing in its lease (cluster mode): it dropped what it owned."
    );
    describe_counter!(
        TAKEOVERS,
        "Matches and TV channels this node took over from a node that was gone (cluster mode), \
         by kind."
    );
    counter!(LEASES_LOST).absolute(0);
    for kind in ["match", "channel"] {
        counter!(TAKEOVERS, "kind" => kind).absolute(0);
    }
    describe_histogram!(
        REVEAL,
        Unit::Seconds,
        "How late a channel's ply reveal was, from the time it was due: its move computed \
         (stage computed), and queued for every watcher on this node (stage queued)."
    );
}

/// Brings the gauges of what exists up to date (read when the page is scraped).
pub(crate) fn gauges(matches_by_phase: &[(MatchPhase, usize)], channels: usize, watchers: u64) {
    for &(phase, count) in matches_by_phase {
        gauge!(MATCHES, "phase" => phase_label(phase)).set(count as f64);
    }
    gauge!(CHANNELS).set(channels as f64);
    gauge!(WATCHERS).set(watchers as f64);
}

fn phase_label(phase: MatchPhase) -> &'static str {
    match phase {
        MatchPhase::Waiting => "waiting",
        MatchPhase::Playing => "playing",
        MatchPhase::Finished => "finished",
    }
}

fn encoding_label(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::Json => "json",
        Encoding::Postcard => "postcard",
    }
}

/// A WebSocket session opened (`open`) or closed.
pub(crate) fn session(encoding: Encoding, open: bool) {
    let gauge = gauge!(CONNECTIONS, "encoding" => encoding_label(encoding));
    if open {
        gauge.increment(1.0);
    } else {
        gauge.decrement(1.0);
    }
}

/// A move was committed and acknowledged `latency` after it reached its match.
pub(crate) fn move_acked(latency: Duration) {
    counter!(MOVES).increment(1);
    histogram!(MOVE_ACK).record(latency.as_secs_f64());
}

/// A storage transaction of `group` requests took `took`.
pub(crate) fn committed(group: usize, took: Duration) {
    histogram!(COMMIT).record(took.as_secs_f64());
    histogram!(GROUP).record(group as f64);
}

/// A commit request waited `waited` in the queue before the writer took it into a group.
pub(crate) fn queued(waited: Duration) {
    histogram!(QUEUE).record(waited.as_secs_f64());
}

/// A WAL checkpoint took `took`; `by_writer`: run by the writer itself to let the log start
/// over, rather than by the checkpoint thread beside it.
pub(crate) fn checkpointed(took: Duration, by_writer: bool) {
    let by = if by_writer { "writer" } else { "thread" };
    histogram!(CHECKPOINT, "by" => by).record(took.as_secs_f64());
}

/// An error reply with `code` was sent.
pub(crate) fn refused(code: ErrorCode) {
    // The wire name (`not_your_turn`), so the metric reads like the protocol.
    let label = serde_json::to_value(code)
        .ok()
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("{code:?}"));
    counter!(REFUSALS, "code" => label).increment(1);
}

/// A request or connection was refused by `limit`.
pub(crate) fn limit_hit(limit: LimitKind) {
    counter!(LIMIT_HITS, "limit" => limit.label()).increment(1);
}

/// A connection was dropped for not reading.
pub(crate) fn slow_client_dropped() {
    counter!(SLOW_CLIENTS).increment(1);
}

/// How far a channel's ply reveal had got when it was [`RevealStage`] later than it was due.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RevealStage {
    /// The move is computed (the channel's task ran, the engine moved).
    Computed,
    /// The reveal is queued for every watcher on this node; what remains is their writers'.
    Queued,
}

/// A channel's ply reveal reached `stage` `late` after it was due.
pub(crate) fn reveal(stage: RevealStage, late: Duration) {
    let stage = match stage {
        RevealStage::Computed => "computed",
        RevealStage::Queued => "queued",
    };
    histogram!(REVEAL, "stage" => stage).record(late.as_secs_f64());
}

/// This node stopped believing in its lease (cluster mode).
pub(crate) fn lease_lost() {
    counter!(LEASES_LOST).increment(1);
}

/// This node took a `kind` (`match` or `channel`) over from a node that was gone.
pub(crate) fn took_over(kind: &'static str) {
    counter!(TAKEOVERS, "kind" => kind).increment(1);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The count of the reveal histogram's bucket `le` for `stage` on a freshly rendered page.
    fn bucket(stage: &str, le: &str) -> f64 {
        let series = format!("{REVEAL}_bucket{{stage=\"{stage}\",le=\"{le}\"}} ");
        handle()
            .render()
            .lines()
            .find_map(|line| line.strip_prefix(&series))
            .map_or(0.0, |count| count.parse().expect("a count"))
    }

    #[test]
    fn a_late_reveal_is_counted_in_its_stage_and_bucket() {
        handle();
        // Between 2 and 5 s late: no other test's channel is that late, so exactly this
        // sample lands there (other tests may record reveals into the same recorder).
        let in_bucket = |stage| bucket(stage, "5") - bucket(stage, "2");
        let (queued, computed) = (in_bucket("queued"), in_bucket("computed"));
        reveal(RevealStage::Queued, Duration::from_millis(4_500));
        assert_eq!(in_bucket("queued"), queued + 1.0);
        assert_eq!(in_bucket("computed"), computed);
    }
}
