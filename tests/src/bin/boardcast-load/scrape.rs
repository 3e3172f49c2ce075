//! The server's storage figures over a run, read from its Prometheus page (`/metrics`) before
//! and after the window: how many transactions, how many requests each grouped, how long each
//! took, and how often checkpoints ran. These say what a durable ack waited for (the group
//! commit's cadence) beside the latencies the clients saw.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::Error;

/// The page holds far less than this; more means it is not the page we want.
const MAX_PAGE: u64 = 4 * 1024 * 1024;

/// The counters read from one scrape: each histogram's `_sum` and `_count`, all labels added.
#[derive(Debug, Default)]
pub struct Storage {
    values: HashMap<String, f64>,
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
        for line in page
            .lines()
            .filter(|line| line.starts_with("boardcast_storage_"))
        {
            let Some((series, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let name = series.split('{').next().unwrap_or(series);
            if (name.ends_with("_sum") || name.ends_with("_count"))
                && let Ok(value) = value.parse::<f64>()
            {
                *values.entry(name.to_owned()).or_default() += value;
            }
        }
        Storage { values }
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
        lines
    }
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
    fn a_server_without_storage_figures_reports_nothing() {
        let page = Storage::parse("boardcast_moves_total 5\n");
        assert!(
            page.report_since(&Storage::default(), Duration::from_secs(1))
                .is_empty()
        );
    }
}
