//! Writing whole tables into PostgreSQL and tallying them, for `migrate`.

use futures_util::StreamExt;
use futures_util::future::join_all;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Error, GenericClient, Statement};

use crate::storage::StorageError;
use crate::storage::table::{Kind, Row, Table, Tally, Value};

/// Connects to `url` and creates or migrates the tables.
pub(crate) async fn connect(url: &str) -> Result<Client, StorageError> {
    let config = super::parse_url(url)?;
    let mut client = super::setup::first_connection(&config).await?;
    super::schema::migrate(&mut client).await?;
    Ok(client)
}

/// The statement that writes one row of `table`: inserted, or the row with its key made
/// equal to it (so a second copy changes nothing and a newer source wins).
pub(crate) async fn upsert(client: &impl GenericClient, table: &Table) -> Result<Statement, Error> {
    let params: Vec<String> = (1..=table.columns.len()).map(|i| format!("${i}")).collect();
    let keys: Vec<&str> = table.columns[..table.key].iter().map(|c| c.0).collect();
    let updates: Vec<String> = table.columns[table.key..]
        .iter()
        .map(|(name, _)| format!("{name} = excluded.{name}"))
        .collect();
    let sql = format!(
        "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT ({}) DO UPDATE SET {}",
        table.name,
        table.column_list(),
        params.join(", "),
        keys.join(", "),
        updates.join(", ")
    );
    client.prepare(&sql).await
}

/// Writes `rows` with `statement`, pipelined.
pub(crate) async fn write(
    client: &impl GenericClient,
    statement: &Statement,
    rows: &[Row],
) -> Result<(), Error> {
    let writes = rows.iter().map(|row| {
        let params: Vec<&(dyn ToSql + Sync)> = row
            .iter()
            .map(|value| match value {
                Value::Int(v) => v as &(dyn ToSql + Sync),
                Value::Text(v) => v as &(dyn ToSql + Sync),
                Value::Bool(v) => v as &(dyn ToSql + Sync),
            })
            .collect();
        async move { client.execute(statement, &params).await }
    });
    for result in join_all(writes).await {
        result?;
    }
    Ok(())
}

/// Run numbers, account and token ids continue after the copied ones.
pub(crate) async fn continue_runs(client: &impl GenericClient) -> Result<(), Error> {
    client
        .batch_execute(
            "SELECT setval(pg_get_serial_sequence('server_runs', 'run'), \
             COALESCE(MAX(run), 0) + 1, false) FROM server_runs;
             SELECT setval(pg_get_serial_sequence('accounts', 'id'), \
             COALESCE(MAX(id), 0) + 1, false) FROM accounts;
             SELECT setval(pg_get_serial_sequence('tokens', 'id'), \
             COALESCE(MAX(id), 0) + 1, false) FROM tokens",
        )
        .await
}

/// The rows of `table` counted and checksummed.
pub(crate) async fn tally(client: &Client, table: &Table) -> Result<Tally, Error> {
    let sql = format!("SELECT {} FROM {}", table.column_list(), table.name);
    let rows = client
        .query_raw(&sql, std::iter::empty::<&(dyn ToSql + Sync)>())
        .await?;
    let mut rows = std::pin::pin!(rows);
    let mut tally = Tally::default();
    while let Some(row) = rows.next().await {
        let row = row?;
        let values: Row = table
            .columns
            .iter()
            .enumerate()
            .map(|(i, (_, kind))| match kind {
                Kind::Int => Value::Int(row.get(i)),
                Kind::Text => Value::Text(row.get(i)),
                Kind::Bool => Value::Bool(row.get(i)),
            })
            .collect();
        tally.add(&values);
    }
    Ok(tally)
}
