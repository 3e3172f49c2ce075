//! The idle scenario: open many Boardcast connections, hold them without sending anything,
//! and read the server's resident memory per connection from /proc.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::report;
use crate::ws::Ramp;
use crate::{Error, duration, loopback, sys};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The Boardcast server (loopback).
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = loopback)]
    pub addr: SocketAddr,
    /// Connections to open and hold.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// How long to hold them once all are open (the server's pings are answered meanwhile).
    #[arg(long, default_value = "10s", value_parser = duration)]
    pub hold: Duration,
    /// Wait this long after the last connection opened before reading memory.
    #[arg(long, default_value = "3s", value_parser = duration)]
    pub settle: Duration,
    /// The server's process id, to read its resident memory (VmRSS) from /proc.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Connections opened in parallel.
    #[arg(long, default_value_t = 64)]
    pub ramp: usize,
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("idle", &report::command_line());
    let needed = args.count as u64 + 64;
    if sys::nofile_limit() < needed {
        eprintln!(
            "warning: open-file limit {} is below the {needed} this run needs",
            sys::nofile_limit()
        );
    }
    let own_pid = std::process::id();
    let server_before = args.server_pid.map(memory).transpose()?;
    let own_before = sys::rss_kib(own_pid)?;

    let ramp = Ramp::new(args.ramp);
    let (stop_tx, stop_rx) = watch::channel(false);
    let closed_early = Arc::new(AtomicU64::new(0));
    let opened = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..args.count {
        let ramp = ramp.clone();
        let mut stop = stop_rx.clone();
        let closed_early = closed_early.clone();
        let opened = opened.clone();
        let failed = failed.clone();
        let addr = args.addr;
        tasks.spawn(async move {
            let mut client = match ramp.client(addr).await {
                Ok(client) => client,
                Err(err) => {
                    if failed.fetch_add(1, Ordering::Relaxed) < 3 {
                        eprintln!("connect: {err}");
                    }
                    return;
                }
            };
            opened.fetch_add(1, Ordering::Relaxed);
            // Read (so pings are answered) until told to stop.
            loop {
                tokio::select! {
                    message = client.recv() => {
                        if message.is_err() {
                            closed_early.fetch_add(1, Ordering::Relaxed);
                            return;
                        }
                    }
                    _ = stop.wait_for(|stop| *stop) => break,
                }
            }
            client.close().await;
        });
    }
    // Wait for every attempt to finish.
    while opened.load(Ordering::Relaxed) + failed.load(Ordering::Relaxed) < args.count as u64 {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let ramp_time = started.elapsed();
    tokio::time::sleep(args.settle).await;
    let open_now = opened.load(Ordering::Relaxed) - closed_early.load(Ordering::Relaxed);
    let server_settled = args.server_pid.map(memory).transpose()?;
    let server_fds = args.server_pid.and_then(|pid| sys::open_fds(pid).ok());
    let own_settled = sys::rss_kib(own_pid)?;
    tokio::time::sleep(args.hold).await;
    let server_held = args.server_pid.map(memory).transpose()?;
    let open_end = opened.load(Ordering::Relaxed) - closed_early.load(Ordering::Relaxed);
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    tasks.abort_all();

    println!(
        "opened  : {} of {} in {:.1} s ({} failed), {} still open after settling, {} after holding {:?}",
        opened.load(Ordering::Relaxed),
        args.count,
        ramp_time.as_secs_f64(),
        failed.load(Ordering::Relaxed),
        open_now,
        open_end,
        args.hold
    );
    let per = |before: u64, after: u64, n: u64| -> f64 {
        if n == 0 {
            0.0
        } else {
            after.saturating_sub(before) as f64 / n as f64
        }
    };
    println!(
        "load generator RSS: {own_before} KiB -> {own_settled} KiB ({:.1} KiB per connection)",
        per(own_before, own_settled, open_now)
    );
    if let (Some(before), Some(settled), Some(held)) = (server_before, server_settled, server_held)
    {
        if let Some(fds) = server_fds {
            println!("server fds: {fds} open after settling");
        }
        println!(
            "server RSS: {} KiB before, {} KiB after settling, {} KiB after holding (anonymous: {} -> {} -> {} KiB)",
            before.0, settled.0, held.0, before.1, settled.1, held.1
        );
        let settled_per = per(before.0, settled.0, open_now);
        let held_per = per(before.0, held.0, open_end);
        println!(
            "server RSS per idle connection: {settled_per:.2} KiB after settling, {held_per:.2} KiB after holding"
        );
        let worst = settled_per.max(held_per);
        if args.count >= 10_000 {
            report::target(
                worst <= 5.0 && open_end as usize >= args.count,
                &format!(
                    "at most 5 KiB of server memory per idle connection at 10,000 connections (measured {worst:.2} KiB, {open_end} open)"
                ),
            );
        }
    } else {
        println!("server RSS: not measured (pass --server-pid)");
    }
    Ok(())
}

/// (VmRSS, RssAnon) of a process in KiB.
fn memory(pid: u32) -> Result<(u64, u64), Error> {
    Ok((sys::rss_kib(pid)?, sys::rss_anon_kib(pid)?))
}
