//! `logins`: many concurrent `POST /api/login` of one account, each one retried after the
//! server's `Retry-After` when it answers 503 `busy` (the password-hashing queue is full), until
//! every one has logged in. Reports logins per second with the server's Argon2id parameters, the
//! time to a successful login, and how many answers were `busy`. Run it beside `matches` to see
//! what a login flood does to play (BENCHMARKS.md, issue 30).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::report::{self, Cpu};
use crate::{Error, loopback};

#[derive(Debug, Parser)]
pub struct Args {
    /// The Boardcast server (loopback).
    #[arg(long, default_value = "127.0.0.1:7878", value_parser = loopback)]
    pub addr: SocketAddr,
    /// The account to log in as (create it first with `boardcast-server admin create-user`).
    #[arg(long)]
    pub name: String,
    /// Its password.
    #[arg(long)]
    pub password: String,
    /// Logins started at the same instant.
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// The server's process id, to report its CPU and its threads' (the hashing threads are
    /// `hash-N`).
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// One login: its status and, for 503, the seconds of `Retry-After`.
async fn login(addr: SocketAddr, body: &str) -> Result<(u16, Option<u64>), Error> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!(
        "POST /api/login HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response);
    let head = response.split("\r\n\r\n").next().unwrap_or_default();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("no HTTP status in the answer: {head:?}"))?;
    let retry_after = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("retry-after")
            .then(|| value.trim().parse().ok())?
    });
    Ok((status, retry_after))
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("logins", &report::command_line());
    let body = serde_json::json!({ "name": args.name, "password": args.password }).to_string();
    let body = Arc::new(body);
    let busy = Arc::new(AtomicU64::new(0));
    let times = report::Shared::new();
    let pids: Vec<u32> = args.server_pid.into_iter().collect();
    let before = Cpu::now(&pids);
    let started = Instant::now();
    let tasks: Vec<_> = (0..args.count)
        .map(|_| {
            let (body, busy, times) = (Arc::clone(&body), Arc::clone(&busy), times.clone());
            tokio::spawn(async move {
                loop {
                    match login(args.addr, &body).await? {
                        (200, _) => {
                            times.record(started.elapsed());
                            return Ok::<(), Error>(());
                        }
                        (503, after) => {
                            busy.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_secs(after.unwrap_or(1))).await;
                        }
                        (status, _) => return Err(format!("a login answered {status}").into()),
                    }
                }
            })
        })
        .collect();
    for task in tasks {
        task.await??;
    }
    let window = started.elapsed();
    let after = Cpu::now(&pids);
    println!(
        "logins  : {} in {:.2} s, {:.1} logins/s; {} answers were 503 busy (retried after Retry-After)",
        args.count,
        window.as_secs_f64(),
        report::rate(args.count as u64, window),
        busy.load(Ordering::Relaxed)
    );
    println!(
        "{}",
        report::latency_line("start → logged in", &times.snapshot())
    );
    report::cpu_line(&before, &after, window);
    Ok(())
}
