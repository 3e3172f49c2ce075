//! The disk probe: how long one small append plus `fsync` takes where the database lives. A
//! durable move waits for at least one such sync (SQLite in WAL mode with `synchronous=FULL`
//! syncs the WAL at every commit), so this is the floor under move→ack latency.

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::Error;
use crate::report;

/// One SQLite WAL frame: a 4 KiB page plus its 24-byte header.
pub const WAL_FRAME_BYTES: usize = 4120;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to probe (the one holding the server's `--db`).
    #[arg(long, default_value = "/tmp")]
    pub dir: PathBuf,
    /// Appends to time.
    #[arg(long, default_value_t = 300)]
    pub count: usize,
    /// Bytes per append (a WAL frame is a page, 4 KiB, plus a header).
    #[arg(long, default_value_t = WAL_FRAME_BYTES)]
    pub size: usize,
}

/// One probe: syncs timed while the file grows, then while it is overwritten in place.
pub struct Probe {
    pub path: PathBuf,
    pub append: Histogram<u64>,
    pub append_time: Duration,
    pub overwrite: Histogram<u64>,
    pub overwrite_time: Duration,
}

/// Times `count` appends of `size` bytes with an `fdatasync` after each in a temporary file
/// in `dir`, then as many overwrites; the file is removed afterwards.
pub async fn probe(dir: &Path, count: usize, size: usize) -> Result<Probe, Error> {
    let path = dir.join(format!("boardcast-load-fsync-{}.tmp", std::process::id()));
    tokio::task::spawn_blocking(move || -> Result<_, Error> {
        let mut file = std::fs::File::create(&path)?;
        let block = vec![0x5a; size];
        // Appends that grow the file (a fresh WAL), then the same writes over the now
        // allocated blocks (a WAL reused after a checkpoint).
        let (append, append_time) = timed_syncs(&mut file, &block, count)?;
        file.seek(std::io::SeekFrom::Start(0))?;
        let (overwrite, overwrite_time) = timed_syncs(&mut file, &block, count)?;
        drop(file);
        let _ = std::fs::remove_file(&path);
        Ok(Probe {
            path,
            append,
            append_time,
            overwrite,
            overwrite_time,
        })
    })
    .await?
}

fn timed_syncs(
    file: &mut std::fs::File,
    block: &[u8],
    count: usize,
) -> Result<(Histogram<u64>, Duration), Error> {
    let mut syncs = report::histogram();
    let started = Instant::now();
    for _ in 0..count {
        let t = Instant::now();
        file.write_all(block)?;
        file.sync_data()?;
        report::record(&mut syncs, t.elapsed());
    }
    Ok((syncs, started.elapsed()))
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("fsync", &report::command_line());
    let Probe {
        path,
        append,
        append_time,
        overwrite,
        overwrite_time,
    } = probe(&args.dir, args.count, args.size).await?;
    println!(
        "probe   : {} writes of {} bytes + fdatasync each to {}, appending, then overwriting",
        args.count,
        args.size,
        path.display()
    );
    println!(
        "syncs/s : {:.0} appending, {:.0} overwriting (one after another)",
        report::rate(append.len(), append_time),
        report::rate(overwrite.len(), overwrite_time)
    );
    println!("{}", report::latency_line("append+fdatasync", &append));
    println!(
        "{}",
        report::latency_line("overwrite+fdatasync", &overwrite)
    );
    Ok(())
}
