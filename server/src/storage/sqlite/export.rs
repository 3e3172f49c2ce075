//! Reading a whole table out of SQLite, row by row, for `migrate`.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::storage::StorageError;
use crate::storage::table::{Kind, Row, Table, Value};

/// Brings the tables of the database at `path` up to this server's layout, as opening it
/// would (an older leaderboard is keyed by identity), so that its rows read as the tables of
/// [`crate::storage::table::TABLES`]. Blocking.
pub fn upgrade(path: &Path) -> Result<(), StorageError> {
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    super::archive::create(&conn)?;
    Ok(())
}

/// How many rows are handed on at once.
const CHUNK: usize = 500;

/// Reads every row of `table` from the database at `path` (opened read-only) and hands them
/// to `each` in chunks, until it returns false. Blocking.
pub fn export(
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
