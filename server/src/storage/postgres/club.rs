//! Club events in PostgreSQL ([`crate::storage::club`]); the tables mirror SQLite's.

use tokio_postgres::{Client, Error, Statement};

use crate::storage::StoredEvent;
use crate::storage::club::{EventWrite, StoredClubEvent};

pub(super) const CREATE: &str =
    "INSERT INTO club_events (id, created_ms, setup) VALUES ($1, $2, $3)";
/// The fence is folded into the insert, as for a match's events: `boardcast_fence_owned`
/// raises SQLSTATE `BCF01` unless `$7` is still the event's epoch (a `NULL` epoch, a single
/// server's, passes), under a row lock that a take-over's claim waits for (migration 11).
pub(super) const RECORD: &str = "INSERT INTO club_event_log (event_id, v, at_ms, body, round, \
     match_id, epoch) VALUES ($1, $2, $3, $4, $5, $6, boardcast_fence_owned('event', $1, $7))";
pub(super) const FINISH: &str = "UPDATE club_events SET finished = TRUE WHERE id = $1";
/// Grants (`$2` true) or takes back the organiser right of account `$1`.
pub(super) const ORGANISER: &str = "WITH granted AS (INSERT INTO club_organisers (account_id) \
     SELECT $1 WHERE $2 ON CONFLICT DO NOTHING) \
     DELETE FROM club_organisers WHERE account_id = $1 AND NOT $2";

/// The event writes' prepared statements on the writer's connection.
#[derive(Debug)]
pub(super) struct Statements {
    pub create: Statement,
    pub record: Statement,
    pub finish: Statement,
    pub organiser: Statement,
}

/// Applies one event write inside the writer's transaction.
pub(super) async fn apply(
    client: &Client,
    statements: &Statements,
    write: &EventWrite,
) -> Result<u64, Error> {
    match write {
        EventWrite::Create {
            id,
            created_ms,
            setup,
        } => {
            client
                .execute(&statements.create, &[id, created_ms, setup])
                .await
        }
        EventWrite::Record {
            event_id,
            v,
            at_ms,
            body,
            round,
            match_id,
            epoch,
        } => {
            let v = *v as i64;
            let round = round.map(i64::from);
            let epoch = epoch.map(|epoch| epoch as i64);
            client
                .execute(
                    &statements.record,
                    &[event_id, &v, at_ms, body, &round, match_id, &epoch],
                )
                .await
        }
        EventWrite::Finish { id } => client.execute(&statements.finish, &[id]).await,
        EventWrite::Organiser { account, granted } => {
            client
                .execute(&statements.organiser, &[account, granted])
                .await
        }
    }
}

fn event(row: &tokio_postgres::Row) -> StoredClubEvent {
    StoredClubEvent {
        id: row.get(0),
        created_ms: row.get(1),
        setup: row.get(2),
        finished: row.get(3),
        records: Vec::new(),
    }
}

fn record(row: &tokio_postgres::Row) -> StoredEvent {
    StoredEvent {
        v: row.get::<_, i64>(0) as u64,
        at_ms: row.get(1),
        body: row.get(2),
    }
}

async fn records(client: &Client, id: &str) -> Result<Vec<StoredEvent>, Error> {
    let rows = client
        .query(
            "SELECT v, at_ms, body FROM club_event_log WHERE event_id = $1 ORDER BY v",
            &[&id],
        )
        .await?;
    Ok(rows.iter().map(record).collect())
}

/// Event `id`'s records after version `after`, in order, at most `limit`: a range of the
/// primary key `(event_id, v)`.
pub(super) async fn records_after(
    client: &Client,
    id: &str,
    after: u64,
    limit: u32,
) -> Result<Vec<StoredEvent>, Error> {
    let after = i64::try_from(after).unwrap_or(i64::MAX);
    let rows = client
        .query(
            "SELECT v, at_ms, body FROM club_event_log WHERE event_id = $1 AND v > $2 \
             ORDER BY v LIMIT $3",
            &[&id, &after, &i64::from(limit)],
        )
        .await?;
    Ok(rows.iter().map(record).collect())
}

/// Every event (only the unfinished ones with `unfinished_only`), oldest first, with its
/// records.
pub(super) async fn all(
    client: &Client,
    unfinished_only: bool,
) -> Result<Vec<StoredClubEvent>, Error> {
    let rows = client
        .query(
            "SELECT id, created_ms, setup, finished FROM club_events \
             WHERE NOT finished OR NOT $1 ORDER BY created_ms, id",
            &[&unfinished_only],
        )
        .await?;
    let mut events: Vec<StoredClubEvent> = rows.iter().map(event).collect();
    for found in &mut events {
        found.records = records(client, &found.id).await?;
    }
    Ok(events)
}

/// The events without their records (`records` empty), newest first (by creation, then id):
/// the unfinished ones if `finished` is false, else the finished ones; `limit` of them from
/// the `offset`-th. One range of `club_events_by_state` (migration 13).
pub(super) const HEADS: &str = "SELECT id, created_ms, setup, finished FROM club_events \
     WHERE finished = $1 ORDER BY created_ms DESC, id DESC LIMIT $2 OFFSET $3";

/// A page of the list of events ([`HEADS`]).
pub(super) async fn heads(
    client: &Client,
    finished: bool,
    offset: u64,
    limit: u32,
) -> Result<Vec<StoredClubEvent>, Error> {
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let rows = client
        .query(HEADS, &[&finished, &i64::from(limit), &offset])
        .await?;
    Ok(rows.iter().map(event).collect())
}

/// Event `id` with its records.
pub(super) async fn one(client: &Client, id: &str) -> Result<Option<StoredClubEvent>, Error> {
    let row = client
        .query_opt(
            "SELECT id, created_ms, setup, finished FROM club_events WHERE id = $1",
            &[&id],
        )
        .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let mut found = event(&row);
    found.records = records(client, id).await?;
    Ok(Some(found))
}

/// Whether `account` may create events.
pub(super) async fn is_organiser(client: &Client, account: i64) -> Result<bool, Error> {
    Ok(client
        .query_opt(
            "SELECT 1 FROM club_organisers WHERE account_id = $1",
            &[&account],
        )
        .await?
        .is_some())
}
