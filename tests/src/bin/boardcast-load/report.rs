//! Shared reporting: latency histograms in microseconds, rates, and the report header.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hdrhistogram::Histogram;

/// A latency histogram in microseconds, 1 µs to 10 minutes, 3 significant figures.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 600_000_000, 3).expect("valid histogram bounds")
}

/// A histogram several tasks record into.
#[derive(Clone)]
pub struct Shared(Arc<Mutex<Histogram<u64>>>);

impl Shared {
    pub fn new() -> Self {
        Shared(Arc::new(Mutex::new(histogram())))
    }

    pub fn record(&self, latency: Duration) {
        let micros = (latency.as_micros() as u64).clamp(1, 600_000_000);
        self.0
            .lock()
            .expect("histogram lock")
            .record(micros)
            .expect("value within bounds");
    }

    pub fn snapshot(&self) -> Histogram<u64> {
        self.0.lock().expect("histogram lock").clone()
    }
}

/// Records one duration into a plain histogram.
pub fn record(histogram: &mut Histogram<u64>, latency: Duration) {
    let micros = (latency.as_micros() as u64).clamp(1, 600_000_000);
    histogram.record(micros).expect("value within bounds");
}

/// `1.234 ms` from microseconds.
pub fn ms(micros: u64) -> String {
    format!("{:.3} ms", micros as f64 / 1000.0)
}

/// The median of a histogram in microseconds.
pub fn p50(histogram: &Histogram<u64>) -> u64 {
    histogram.value_at_quantile(0.50)
}

/// One line: `name: n=…  p50 …  p90 …  p99 …  max …`.
pub fn latency_line(name: &str, histogram: &Histogram<u64>) -> String {
    if histogram.is_empty() {
        return format!("{name}: no samples");
    }
    format!(
        "{name}: n={}  p50 {}  p90 {}  p99 {}  max {}  (mean {})",
        histogram.len(),
        ms(histogram.value_at_quantile(0.50)),
        ms(histogram.value_at_quantile(0.90)),
        ms(histogram.value_at_quantile(0.99)),
        ms(histogram.max()),
        ms(histogram.mean() as u64),
    )
}

/// Events per second over a window.
pub fn rate(count: u64, window: Duration) -> f64 {
    let secs = window.as_secs_f64();
    if secs > 0.0 { count as f64 / secs } else { 0.0 }
}

/// The header every report starts with: date, machine, load.
pub fn header(scenario: &str, command: &str) {
    println!("== boardcast-load {scenario} ==");
    println!("command : {command}");
    println!("date    : {}", utc_now());
    println!("machine : {}", crate::sys::machine());
    println!("loadavg : {} (1 min, at start)", crate::sys::loadavg());
}

/// A target line: `TARGET met/MISSED: what (measured vs target)`.
pub fn target(met: bool, what: &str) {
    println!("TARGET {}: {what}", if met { "met   " } else { "MISSED" });
}

/// The current UTC time as `YYYY-MM-DD HH:MM:SS UTC`, without a date crate.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = secs / 86_400;
    let rem = secs % 86_400;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The command line this process was started with, for the report.
pub fn command_line() -> String {
    std::env::args().collect::<Vec<_>>().join(" ")
}

/// CPU time used so far by the server (if known) and by this process, and the machine's load.
pub struct Cpu {
    server: Option<Duration>,
    server_threads: Option<std::collections::BTreeMap<String, (u64, u64)>>,
    own: Duration,
    loadavg: String,
}

impl Cpu {
    /// Readings of the server processes `server_pids` (several nodes count together; none:
    /// the server is not measured) and of the load generator.
    pub fn now(server_pids: &[u32]) -> Self {
        let server = match server_pids {
            [] => None,
            pids => pids
                .iter()
                .map(|pid| crate::sys::cpu_time(*pid).ok())
                .sum::<Option<Duration>>(),
        };
        // Threads by name; with several nodes, by node process and name.
        let server_threads = match server_pids {
            [] => None,
            [pid] => crate::sys::sched_by_thread(*pid).ok(),
            pids => pids
                .iter()
                .map(|pid| {
                    let threads = crate::sys::sched_by_thread(*pid).ok()?;
                    Some(
                        threads
                            .into_iter()
                            .map(move |(name, times)| (format!("{pid}/{name}"), times)),
                    )
                })
                .collect::<Option<Vec<_>>>()
                .map(|all| all.into_iter().flatten().collect()),
        };
        Cpu {
            server,
            server_threads,
            own: crate::sys::cpu_time(std::process::id()).unwrap_or_default(),
            loadavg: crate::sys::loadavg(),
        }
    }
}

impl Cpu {
    /// The server's CPU time between two readings, when its process id was given.
    pub fn server_used(before: &Cpu, after: &Cpu) -> Option<Duration> {
        Some(after.server?.saturating_sub(before.server?))
    }

    /// The load generator's own CPU time between two readings.
    pub fn own_used(before: &Cpu, after: &Cpu) -> Duration {
        after.own.saturating_sub(before.own)
    }
}

/// `cpu     : server 1.23 cores, load generator 0.80 cores (of 2); loadavg 3.1 -> 4.2`.
pub fn cpu_line(before: &Cpu, after: &Cpu, window: Duration) {
    let cores = |a: Duration, b: Duration| {
        b.saturating_sub(a).as_secs_f64() / window.as_secs_f64().max(1e-9)
    };
    let server = match (before.server, after.server) {
        (Some(a), Some(b)) => format!("server {:.2} cores, ", cores(a, b)),
        _ => String::new(),
    };
    println!(
        "cpu     : {server}load generator {:.2} cores (of {}); loadavg {} -> {}",
        cores(before.own, after.own),
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(0),
        before.loadavg,
        after.loadavg
    );
    // Where the server's threads spent the window: on a CPU, or runnable and waiting for one
    // (the machine was busy). Idle time is the rest.
    if let (Some(a), Some(b)) = (&before.server_threads, &after.server_threads) {
        let secs = window.as_secs_f64().max(1e-9);
        let parts: Vec<String> = b
            .iter()
            .map(|(name, (run, wait))| {
                let (run0, wait0) = a.get(name).copied().unwrap_or((0, 0));
                format!(
                    "{name} {:.2} on-CPU / {:.2} waiting-for-CPU",
                    run.saturating_sub(run0) as f64 / 1e9 / secs,
                    wait.saturating_sub(wait0) as f64 / 1e9 / secs
                )
            })
            .collect();
        println!("threads : server, in cores: {}", parts.join(", "));
    }
}

/// `127.0.0.1:7878` or `127.0.0.1:7878, 127.0.0.1:7879 (2 nodes)`.
pub fn addresses(addrs: &[std::net::SocketAddr]) -> String {
    let list: Vec<String> = addrs.iter().map(ToString::to_string).collect();
    match addrs.len() {
        1 => list.join(""),
        n => format!("{} ({n} nodes)", list.join(", ")),
    }
}
