//! `boardcast-server migrate --from sqlite:PATH --to postgres://…`: copies every match,
//! event, finished game, archived engine game, server run, leaderboard entry, account,
//! session, token, reset link and club event (with its history) from a SQLite database into PostgreSQL (the seats follow
//! the events), then proves the copy by row counts and checksums.
//!
//! The copy is one PostgreSQL transaction: it lands whole or not at all. Each row is
//! inserted, or made equal to the source if its key is already there, so running the command
//! again is safe (and brings over what the source gained since). A source that a running
//! server holds open is refused: a copy taken under it misses what it writes next (a game that
//! ends after the copy would stay live in PostgreSQL).

use std::fmt;

use tokio::sync::mpsc;

use super::table::{TABLES, Tally};
use super::{Database, StorageError, postgres, sqlite};

/// What was copied: each table with its tally, the same on both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub tables: Vec<(&'static str, Tally)>,
}

impl fmt::Display for Copied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, tally) in &self.tables {
            writeln!(
                f,
                "{name}: {} rows, checksum {:016x} on both sides",
                tally.rows, tally.checksum
            )?;
        }
        Ok(())
    }
}

/// Copies `from` (SQLite) into `to` (PostgreSQL) and verifies the copy.
pub async fn migrate(from: &Database, to: &Database) -> Result<Copied, StorageError> {
    let (Database::Sqlite(path), Database::Postgres(url)) = (from, to) else {
        return Err(StorageError::Database(format!(
            "migrate copies from sqlite:PATH to postgres://…, not from {from} to {to}"
        )));
    };
    if !path.is_file() {
        return Err(StorageError::Database(format!(
            "no SQLite database at {}",
            path.display()
        )));
    }
    let probed = path.clone();
    tokio::task::spawn_blocking(move || sqlite::export::refuse_if_in_use(&probed))
        .await
        .map_err(StorageError::Task)??;
    // A source from before the leaderboard was keyed by identity gets that first, as the
    // server would at its next start: the copy has the same columns on both sides.
    let source = path.clone();
    tokio::task::spawn_blocking(move || sqlite::export::upgrade(&source))
        .await
        .map_err(StorageError::Task)??;
    let mut client = postgres::copy::connect(url).await?;
    let tx = client.transaction().await?;
    let mut source = Vec::with_capacity(TABLES.len());
    for table in TABLES {
        let statement = postgres::copy::upsert(&tx, table).await?;
        let (chunks, mut arriving) = mpsc::channel(4);
        let path = path.clone();
        let reader = tokio::task::spawn_blocking(move || {
            sqlite::export::export(&path, table, |chunk| chunks.blocking_send(chunk).is_ok())
        });
        let mut tally = Tally::default();
        while let Some(chunk) = arriving.recv().await {
            chunk.iter().for_each(|row| tally.add(row));
            postgres::copy::write(&tx, &statement, &chunk).await?;
        }
        reader.await.map_err(StorageError::Task)??;
        source.push((table.name, tally));
    }
    postgres::copy::continue_runs(&tx).await?;
    tx.commit().await?;
    for (table, (name, expected)) in TABLES.iter().zip(&source) {
        let found = postgres::copy::tally(&client, table).await?;
        if found != *expected {
            return Err(StorageError::Database(format!(
                "{name}: SQLite has {} rows (checksum {:016x}) but PostgreSQL has {} rows \
                 ({:016x}) after the copy; was a server writing to either database?",
                expected.rows, expected.checksum, found.rows, found.checksum
            )));
        }
    }
    Ok(Copied { tables: source })
}
