//! What the load generator needs from the operating system: the open-file limit, resident
//! memory from /proc, and the machine's description for reports.

use std::io;

/// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the new (soft, hard).
pub fn raise_nofile_limit() -> io::Result<(u64, u64)> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit only read and write the struct passed by pointer.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return Err(io::Error::last_os_error());
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) != 0 {
                return Err(io::Error::last_os_error());
            }
            limit = raised;
        }
    }
    Ok((limit.rlim_cur, limit.rlim_max))
}

/// The current soft open-file limit.
pub fn nofile_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: as above.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return 0;
    }
    limit.rlim_cur
}

/// Resident memory of a process in KiB (`VmRSS` from /proc/PID/status).
pub fn rss_kib(pid: u32) -> io::Result<u64> {
    status_field(pid, "VmRSS:")
}

/// Resident memory of several processes (the nodes of a cluster) together, in KiB; `None`
/// when there are none or one cannot be read.
pub fn rss_kib_all(pids: &[u32]) -> Option<u64> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().map(|pid| rss_kib(*pid).ok()).sum()
}

/// Resident anonymous memory (heap, stacks) in KiB (`RssAnon`).
pub fn rss_anon_kib(pid: u32) -> io::Result<u64> {
    status_field(pid, "RssAnon:")
}

fn status_field(pid: u32, field: &str) -> io::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .ok_or_else(|| io::Error::other(format!("no {field} in /proc/{pid}/status")))
}

/// Number of open file descriptors of a process.
pub fn open_fds(pid: u32) -> io::Result<usize> {
    Ok(std::fs::read_dir(format!("/proc/{pid}/fd"))?.count())
}

/// `2 cores, 23.4 GiB` for the report header.
pub fn machine() -> String {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(0);
    let mem_kib = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("MemTotal:"))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kib| kib.parse::<u64>().ok())
        })
        .unwrap_or(0);
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("model name"))
                .map(|rest| rest.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned());
    format!(
        "{cores} cores ({model}), {:.1} GiB memory",
        mem_kib as f64 / 1024.0 / 1024.0
    )
}

/// The 1-minute load average, to show how busy the machine was.
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// CPU time (user + system) a process has used, from /proc/PID/stat.
pub fn cpu_time(pid: u32) -> io::Result<std::time::Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The fields after the command name, which is in parentheses and may contain spaces.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, rest)| rest)
        .ok_or_else(|| io::Error::other("malformed /proc/PID/stat"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat; `rest` starts at field 3.
    let ticks = |i: usize| -> io::Result<u64> {
        fields
            .get(i)
            .and_then(|f| f.parse().ok())
            .ok_or_else(|| io::Error::other("malformed /proc/PID/stat"))
    };
    let total = ticks(11)? + ticks(12)?;
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Ok(std::time::Duration::from_micros(total * 1_000_000 / hz))
}

/// Per thread name: (time on a CPU, time runnable but waiting for a CPU), summed over the
/// process's threads, from /proc/PID/task/*/schedstat (nanoseconds).
pub fn sched_by_thread(pid: u32) -> io::Result<std::collections::BTreeMap<String, (u64, u64)>> {
    let mut threads = std::collections::BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task"))? {
        let dir = task?.path();
        let (Ok(comm), Ok(stat)) = (
            std::fs::read_to_string(dir.join("comm")),
            std::fs::read_to_string(dir.join("schedstat")),
        ) else {
            continue;
        };
        let mut fields = stat
            .split_whitespace()
            .map(|f| f.parse::<u64>().unwrap_or(0));
        let run = fields.next().unwrap_or(0);
        let wait = fields.next().unwrap_or(0);
        let entry = threads.entry(comm.trim().to_owned()).or_insert((0, 0));
        entry.0 += run;
        entry.1 += wait;
    }
    Ok(threads)
}
