//! `ladder`: `GET /api/ladder` asked again and again, one at a time, each on a connection of
//! its own (`Connection: close`). Reports the time to the whole answer and the server's CPU per
//! query: the ladder's cost on the server with the members and rating changes the database
//! holds (issue 35's club costs; `tests/bench/club.sh` seeds the database and runs this).

use std::net::SocketAddr;
use std::time::Instant;

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
    /// Queries, one after another.
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// The server's process id, to report its CPU per query.
    #[arg(long)]
    pub server_pid: Option<u32>,
}

/// One `GET /api/ladder`: its status and the rungs it listed.
async fn query(addr: SocketAddr) -> Result<(u16, usize), Error> {
    let mut stream = TcpStream::connect(addr).await?;
    let request = format!("GET /api/ladder HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .ok_or_else(|| format!("no HTTP status in the answer: {head:?}"))?;
    Ok((status, body.matches("\"rank\"").count()))
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("ladder", &report::command_line());
    let pids: Vec<u32> = args.server_pid.into_iter().collect();
    let mut times = report::histogram();
    let mut rungs = 0;
    let before = Cpu::now(&pids);
    let started = Instant::now();
    for _ in 0..args.count {
        let asked = Instant::now();
        let (status, listed) = query(args.addr).await?;
        if status != 200 {
            return Err(format!("/api/ladder answered {status}").into());
        }
        report::record(&mut times, asked.elapsed());
        rungs = listed;
    }
    let window = started.elapsed();
    let after = Cpu::now(&pids);
    println!(
        "ladder  : {} queries in {:.2} s, {:.1} queries/s, {rungs} rungs each",
        args.count,
        window.as_secs_f64(),
        report::rate(args.count as u64, window),
    );
    println!("{}", report::latency_line("asked → whole answer", &times));
    if let Some(used) = Cpu::server_used(&before, &after) {
        println!(
            "server  : {:.2} ms of CPU per query (connection and HTTP included)",
            used.as_secs_f64() * 1e3 / args.count as f64
        );
    }
    report::cpu_line(&before, &after, window);
    Ok(())
}
