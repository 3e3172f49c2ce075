//! The disk probe: how long one small append plus `fsync` takes where the database lives. A
//! durable move waits for at least one such sync (SQLite in WAL mode with `synchronous=FULL`
//! syncs the WAL at every commit), so this is the floor under move→ack latency.

use std::io::{Seek, Write};
use std::path::PathBuf;
use std::time::Instant;

use crate::Error;
use crate::report;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Directory to probe (the one holding the server's `--db`).
    #[arg(long, default_value = "/tmp")]
    pub dir: PathBuf,
    /// Appends to time.
    #[arg(long, default_value_t = 300)]
    pub count: usize,
    /// Bytes per append (a WAL frame is a page, 4 KiB, plus a header).
    #[arg(long, default_value_t = 4120)]
    pub size: usize,
}

pub async fn run(args: Args) -> Result<(), Error> {
    report::header("fsync", &report::command_line());
    let path = args
        .dir
        .join(format!("boardcast-load-fsync-{}.tmp", std::process::id()));
    let result = tokio::task::spawn_blocking(move || -> Result<_, Error> {
        let mut file = std::fs::File::create(&path)?;
        let block = vec![0x5a; args.size];
        // Appends that grow the file (a fresh WAL), then the same writes over the now
        // allocated blocks (a WAL reused after a checkpoint).
        let mut append = report::histogram();
        let started = Instant::now();
        for _ in 0..args.count {
            let t = Instant::now();
            file.write_all(&block)?;
            file.sync_data()?;
            report::record(&mut append, t.elapsed());
        }
        let append_time = started.elapsed();
        file.seek(std::io::SeekFrom::Start(0))?;
        let mut overwrite = report::histogram();
        let started = Instant::now();
        for _ in 0..args.count {
            let t = Instant::now();
            file.write_all(&block)?;
            file.sync_data()?;
            report::record(&mut overwrite, t.elapsed());
        }
        let overwrite_time = started.elapsed();
        drop(file);
        let _ = std::fs::remove_file(&path);
        Ok((append, append_time, overwrite, overwrite_time, path))
    })
    .await??;
    let (append, append_time, overwrite, overwrite_time, path) = result;
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
