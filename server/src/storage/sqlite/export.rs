//! Reading a whole table out of SQLite, row by row, for `migrate`.

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};

use crate::storage::StorageError;
use crate::storage::table::{Kind, Real, Row, Table, Value};

/// Brings the tables of the database at `path` up to this server's layout, as opening it
/// would (an older leaderboard is keyed by identity, plain seat tokens become hashes), so
/// that its rows read as the tables of [`crate::storage::table::TABLES`]. Blocking.
pub(crate) fn upgrade(path: &Path) -> Result<(), StorageError> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    // Seat tokens hashed before they are copied: PostgreSQL never receives one.
    super::matches::create(&conn)?;
    super::archive::create(&conn)?;
    super::accounts::create(&conn)?;
    super::club::create(&conn)?;
    super::chat::create(&conn)?;
    Ok(())
}

/// How many rows are handed on at once.
const CHUNK: usize = 500;

/// Reads every row of `table` from the database at `path` (opened read-only) and hands them
/// to `each` in chunks, until it returns false. Blocking.
pub(crate) fn export(
    path: &Path,
    table: &Table,
    mut each: impl FnMut(Vec<Row>) -> bool,
) -> Result<(), StorageError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let sql = format!("SELECT {} FROM {}", table.column_list(), table.name);
    let mut statement = conn.prepare(&sql)?;
    let mut rows = statement.query([])?;
    let mut chunk = Vec::with_capacity(CHUNK);
    while let Some(row) = rows.next()? {
        let mut values = Vec::with_capacity(table.columns.len());
        for (i, (_, kind)) in table.columns.iter().enumerate() {
            values.push(match kind {
                Kind::Int => Value::Int(row.get(i)?),
                Kind::Text => Value::Text(row.get(i)?),
                Kind::Bool => Value::Bool(row.get::<_, i64>(i)? != 0),
                Kind::Real => Value::Real(Real(row.get(i)?)),
            });
        }
        chunk.push(values);
        if chunk.len() == CHUNK && !each(std::mem::take(&mut chunk)) {
            return Ok(());
        }
    }
    if !chunk.is_empty() {
        each(chunk);
    }
    Ok(())
}

/// Refuses a database that a running server (or any other program) holds open: a copy taken
/// while the server runs misses what it writes next — a game that ends after the copy stays
/// live in it.
///
/// SQLite's own locks tell: a connection in `EXCLUSIVE` locking mode can read a WAL database
/// only when no other connection has it open, and a server keeps its writer's connection open
/// for as long as it runs. The probe lets go of the lock at once, so the copy's own readers
/// are not in its way. Blocking.
pub(crate) fn refuse_if_in_use(path: &Path) -> Result<(), StorageError> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // Answer at once: a server holds its connection for hours, not milliseconds.
    conn.busy_timeout(Duration::ZERO)?;
    conn.pragma_update(None, "locking_mode", "EXCLUSIVE")?;
    match conn.query_row("SELECT count(*) FROM sqlite_master", [], |row| {
        row.get::<_, i64>(0)
    }) {
        Ok(_) => Ok(()),
        Err(err)
            if matches!(
                err.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ) =>
        {
            Err(StorageError::Setup {
                problem: format!(
                    "sqlite:{} is in use by a running boardcast-server (or another program)",
                    path.display()
                ),
                remedy: "stop the server first, then migrate: a copy taken while it runs \
                         misses what it writes next"
                    .to_owned(),
            })
        }
        Err(err) => Err(err.into()),
    }
}
