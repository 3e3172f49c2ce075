//! The server's storage figures over a run, read from its Prometheus page (`/metrics`) before
//! and after the window: how many transactions, how many requests each grouped, how long each
//! took, how long a request waited in the queue before its group began, how often checkpoints
//! ran, and the server's own move→ack (a move's arrival at its match to its ack). These say
//! what a durable ack waited for (the group commit's cadence) beside the latencies the clients
//! saw. Quantiles come from the histograms' buckets, so each is given as the bucket bound it
//! falls under (`≤ 4 ms`).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::Error;

/// The page holds far less than this; more means it is not the page we want.
const MAX_PAGE: u64 = 4 * 1024 * 1024;

/// The histograms whose buckets are kept, with their names in the report.
const DISTRIBUTIONS: [(&str, &str); 3] = [
    ("boardcast_storage_commit_seconds", "commit"),
    ("boardcast_storage_queue_seconds", "queue wait"),
    ("boardcast_move_ack_seconds", "server's move->ack"),
];

/// The counters read from one scrape: each histogram's `_sum` and `_count`, all labels added,
/// and the cumulative bucket counts of the [`DISTRIBUTIONS`].
#[derive(Debug, Default)]
pub struct Storage {
    values: HashMap<String, f64>,
    /// Histogram name → (upper bound in seconds, samples at or under it), bounds ascending.
    buckets: HashMap<String, Vec<(f64, f64)>>,
}

impl Storage {
    /// Reads `http://addr/metrics`.
    pub async fn read(addr: SocketAddr) -> Result<Storage, Error> {
        let mut stream =
            tokio::time::timeout(Duration::from_secs(5), TcpStream::connect(addr)).await??;
        let request = format!("GET /metrics HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await?;
        let mut page = String::new();
        tokio::time::timeout(
            Duration::from_secs(10),
            (&mut stream).take(MAX_PAGE).read_to_string(&mut page),
        )
        .await??;
        Ok(Storage::parse(&page))
    }

    fn parse(page: &str) -> Storage {
        let mut values = HashMap::new();
        let mut buckets: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
        for line in page.lines().filter(|line| {
            line.starts_with("boardcast_storage_") || line.starts_with("boardcast_move_ack_")
        }) {
            let Some((series, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.parse::<f64>() else {
                continue;
            };
            let name = series.split('{').next().unwrap_or(series);
            if name.ends_with("_sum") || name.ends_with("_count") {
                *values.entry(name.to_owned()).or_default() += value;
            } else if let Some(histogram) = name.strip_suffix("_bucket")
                && DISTRIBUTIONS.iter().any(|(kept, _)| *kept == histogram)
                && let Some(bound) = bucket_bound(series)
            {
                let counts = buckets.entry(histogram.to_owned()).or_default();
                match counts.iter_mut().find(|(le, _)| *le == bound) {
                    Some((_, count)) => *count += value,
                    None => counts.push((bound, value)),
                }
            }
        }
        for counts in buckets.values_mut() {
            counts.sort_by(|a, b| a.0.total_cmp(&b.0));
        }
        Storage { values, buckets }
    }

    /// The bucket bound under which quantile `q` of `histogram`'s samples between `before`
    /// and `self` fall, and how many samples there were; `None` without samples. A quantile
    /// past the last finite bound is infinite.
    fn quantile_since(&self, before: &Storage, histogram: &str, q: f64) -> Option<(f64, f64)> {
        let after = self.buckets.get(histogram)?;
        let earlier = |bound: f64| {
            before
                .buckets
                .get(histogram)
                .and_then(|counts| counts.iter().find(|(le, _)| *le == bound))
                .map_or(0.0, |(_, count)| *count)
        };
        let deltas: Vec<(f64, f64)> = after
            .iter()
            .map(|&(bound, count)| (bound, count - earlier(bound)))
            .collect();
        let total = deltas.last()?.1;
        if total <= 0.0 {
            return None;
        }
        let bound = deltas
            .iter()
            .find(|(_, count)| *count >= q * total)
            .map_or(f64::INFINITY, |(bound, _)| *bound);
        Some((bound, total))
    }

    fn get(&self, name: &str) -> f64 {
        self.values.get(name).copied().unwrap_or(0.0)
    }

    /// The lines describing what happened between `before` and `self` over `window`.
    pub fn report_since(&self, before: &Storage, window: Duration) -> Vec<String> {
        let delta = |name: &str| self.get(name) - before.get(name);
        let commits = delta("boardcast_storage_commit_seconds_count");
        if commits <= 0.0 {
            return Vec::new();
        }
        let seconds = window.as_secs_f64();
        let mut lines = vec![format!(
            "storage : {commits:.0} commits ({:.0}/s, one every {:.2} ms), {:.1} requests a \
             group, {:.3} ms a commit (server's /metrics)",
            commits / seconds,
            seconds * 1000.0 / commits,
            delta("boardcast_storage_group_size_sum") / commits,
            delta("boardcast_storage_commit_seconds_sum") * 1000.0 / commits,
        )];
        let checkpoints = delta("boardcast_storage_checkpoint_seconds_count");
        if checkpoints > 0.0 {
            lines.push(format!(
                "storage : {checkpoints:.0} WAL checkpoints beside the writer, {:.3} ms each",
                delta("boardcast_storage_checkpoint_seconds_sum") * 1000.0 / checkpoints,
            ));
        }
        let quantiles: Vec<String> = DISTRIBUTIONS
            .iter()
            .filter_map(|(histogram, label)| {
                let at = |q| self.quantile_since(before, histogram, q);
                let ((p50, _), (p90, _), (p99, _)) = (at(0.50)?, at(0.90)?, at(0.99)?);
                Some(format!(
                    "{label} p50/p90/p99 <= {} / {} / {}",
                    bound_ms(p50),
                    bound_ms(p90),
                    bound_ms(p99)
                ))
            })
            .collect();
        if !quantiles.is_empty() {
            lines.push(format!(
                "storage : {} (buckets of the server's /metrics)",
                quantiles.join("; ")
            ));
        }
        lines
    }
}

/// The `le` bound of a bucket series (`name_bucket{le="0.005"}`), in seconds.
fn bucket_bound(series: &str) -> Option<f64> {
    let (_, rest) = series.split_once("le=\"")?;
    let (bound, _) = rest.split_once('"')?;
    match bound {
        "+Inf" => Some(f64::INFINITY),
        bound => bound.parse().ok(),
    }
}

/// A bucket bound in seconds as milliseconds (`4 ms`, `0.25 ms`, `inf`).
fn bound_ms(seconds: f64) -> String {
    if seconds.is_infinite() {
        return "inf".to_owned();
    }
    let ms = format!("{:.3}", seconds * 1000.0);
    format!("{} ms", ms.trim_end_matches('0').trim_end_matches('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_gives_commits_group_size_and_checkpoints_over_the_window() {
        let before = Storage::parse(
            "# HELP boardcast_storage_group_size x\n\
             boardcast_storage_group_size_bucket{le=\"1\"} 3\n\
             boardcast_storage_group_size_sum 10\n\
             boardcast_storage_group_size_count 4\n\
             boardcast_storage_commit_seconds_sum 0.004\n\
             boardcast_storage_commit_seconds_count 4\n",
        );
        let after = Storage::parse(
            "boardcast_storage_group_size_sum 1010\n\
             boardcast_storage_group_size_count 104\n\
             boardcast_storage_commit_seconds_sum 0.204\n\
             boardcast_storage_commit_seconds_count 104\n\
             boardcast_storage_checkpoint_seconds_sum{by=\"thread\"} 0.03\n\
             boardcast_storage_checkpoint_seconds_count{by=\"thread\"} 3\n\
             boardcast_storage_checkpoint_seconds_sum{by=\"writer\"} 0.01\n\
             boardcast_storage_checkpoint_seconds_count{by=\"writer\"} 1\n\
             boardcast_moves_total 5000\n",
        );
        assert_eq!(
            after.report_since(&before, Duration::from_secs(2)),
            [
                "storage : 100 commits (50/s, one every 20.00 ms), 10.0 requests a group, \
                 2.000 ms a commit (server's /metrics)",
                "storage : 4 WAL checkpoints beside the writer, 10.000 ms each",
            ]
        );
    }

    #[test]
    fn quantiles_are_read_from_the_buckets_filled_during_the_window() {
        let before = Storage::parse(
            "boardcast_storage_commit_seconds_bucket{le=\"0.0005\"} 10\n\
             boardcast_storage_commit_seconds_bucket{le=\"0.001\"} 10\n\
             boardcast_storage_commit_seconds_bucket{le=\"0.004\"} 10\n\
             boardcast_storage_commit_seconds_bucket{le=\"+Inf\"} 10\n\
             boardcast_storage_commit_seconds_sum 0.002\n\
             boardcast_storage_commit_seconds_count 10\n",
        );
        // 100 commits in the window: 50 under 0.5 ms, 45 more under 1 ms, 4 under 4 ms and
        // one beyond every bound. Move acks carry a label: its series are added up.
        let after = Storage::parse(
            "boardcast_storage_commit_seconds_bucket{le=\"0.0005\"} 60\n\
             boardcast_storage_commit_seconds_bucket{le=\"0.001\"} 105\n\
             boardcast_storage_commit_seconds_bucket{le=\"0.004\"} 109\n\
             boardcast_storage_commit_seconds_bucket{le=\"+Inf\"} 110\n\
             boardcast_storage_commit_seconds_sum 0.102\n\
             boardcast_storage_commit_seconds_count 110\n\
             boardcast_move_ack_seconds_bucket{x=\"a\",le=\"0.00025\"} 1\n\
             boardcast_move_ack_seconds_bucket{x=\"b\",le=\"0.00025\"} 0\n\
             boardcast_move_ack_seconds_bucket{x=\"a\",le=\"0.015\"} 1\n\
             boardcast_move_ack_seconds_bucket{x=\"b\",le=\"0.015\"} 1\n\
             boardcast_move_ack_seconds_bucket{x=\"a\",le=\"+Inf\"} 1\n\
             boardcast_move_ack_seconds_bucket{x=\"b\",le=\"+Inf\"} 1\n",
        );
        assert_eq!(
            after.report_since(&before, Duration::from_secs(1)),
            [
                "storage : 100 commits (100/s, one every 10.00 ms), 0.0 requests a group, \
                 1.000 ms a commit (server's /metrics)",
                "storage : commit p50/p90/p99 <= 0.5 ms / 1 ms / 4 ms; server's move->ack \
                 p50/p90/p99 <= 0.25 ms / 15 ms / 15 ms (buckets of the server's /metrics)",
            ]
        );
    }

    #[test]
    fn a_server_without_storage_figures_reports_nothing() {
        let page = Storage::parse("boardcast_moves_total 5\n");
        assert!(
            page.report_since(&Storage::default(), Duration::from_secs(1))
                .is_empty()
        );
    }
}
