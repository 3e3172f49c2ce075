//! The match tables in PostgreSQL: writes as pipelined statements, recovery, finished matches.

use std::collections::HashMap;

use deadpool_postgres::Client as Pooled;
use tokio_postgres::{Client, Error, Row, Statement};

use crate::storage::coordination::NodeRef;
use crate::storage::{MatchKey, RatingChange, StoredEvent, StoredMatch};

pub(super) const CREATE_MATCH: &str = "INSERT INTO matches \
     (id, invite, created_ms, setup, owner_node, owner_incarnation, epoch) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";
/// The fence is folded into the insert: `boardcast_fence` raises SQLSTATE [`FENCED`] unless
/// `$5` is the match's epoch, under a row lock a take-over waits for.
pub(super) const APPEND_EVENT: &str = "INSERT INTO events (match_id, v, at_ms, body, epoch) \
     VALUES ($1, $2, $3, $4, boardcast_fence($1, $5))";
pub(super) const FINISH: &str = "UPDATE matches SET finished = TRUE, result = $2, pdn = $3 \
     WHERE id = $1 AND epoch = boardcast_fence($1, $4)";

/// Stores one player's rating change (schema migration 5); a second change of the same game,
/// or one from a stale rated-game count, breaks a key and refuses the request.
pub(super) const RATING: &str = "INSERT INTO rating_changes (match_id, account_id, games_before, \
     at_ms, rating_before, rating, deviation, volatility) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";

/// The SQLSTATE `boardcast_fence` raises (schema migration 2).
pub(super) const FENCED: &str = "BCF01";
/// Stores that the server is alive at `$1` (Unix ms, as text). A single node's heartbeat
/// lives in the `owned` table under kind `heartbeat`, which the cluster's things never use:
/// a row of its own, with no schema change.
pub(super) const HEARTBEAT: &str = "INSERT INTO owned AS o \
     (kind, key, owner_node, owner_incarnation, epoch, state) \
     VALUES ('heartbeat', '', '', 0, 0, $1) \
     ON CONFLICT (kind, key) DO UPDATE SET state = EXCLUDED.state";

/// Writes a heartbeat ([`HEARTBEAT`]).
pub(super) async fn heartbeat(
    client: &Client,
    statement: &Statement,
    at_ms: i64,
) -> Result<u64, Error> {
    client.execute(statement, &[&at_ms.to_string()]).await
}

/// The last heartbeat stored ([`HEARTBEAT`]).
pub(super) async fn last_heartbeat(client: &Client) -> Result<Option<i64>, Error> {
    let row = client
        .query_opt(
            "SELECT state FROM owned WHERE kind = 'heartbeat' AND key = ''",
            &[],
        )
        .await?;
    Ok(row
        .and_then(|row| row.get::<_, Option<String>>(0))
        .and_then(|at| at.parse().ok()))
}

/// Stores a new match, owned at epoch 1 by `owner` if a node created it in a cluster, at
/// epoch 0 by nobody otherwise.
pub(super) async fn create_match(
    client: &Client,
    statement: &Statement,
    id: &str,
    invite: Option<&str>,
    created_ms: i64,
    setup: &str,
    owner: Option<&NodeRef>,
) -> Result<u64, Error> {
    let owner_node = owner.map(|owner| owner.node.as_str());
    let owner_incarnation = owner.map(|owner| owner.incarnation as i64);
    let epoch: i64 = owner.map_or(0, |_| 1);
    client
        .execute(
            statement,
            &[
                &id,
                &invite,
                &created_ms,
                &setup,
                &owner_node,
                &owner_incarnation,
                &epoch,
            ],
        )
        .await
}

/// Appends event `v` of match `match_id`, written under `epoch`; a version stored before is
/// refused, and so is an epoch that is not the match's.
pub(super) async fn append_event(
    client: &Client,
    statement: &Statement,
    match_id: &str,
    v: u64,
    at_ms: i64,
    body: &str,
    epoch: u64,
) -> Result<u64, Error> {
    client
        .execute(
            statement,
            &[&match_id, &(v as i64), &at_ms, &body, &(epoch as i64)],
        )
        .await
}

/// Marks match `match_id` finished with its result and PDN, if `epoch` is its epoch.
pub(super) async fn finish(
    client: &Client,
    statement: &Statement,
    match_id: &str,
    result: &str,
    pdn: &str,
    epoch: u64,
) -> Result<u64, Error> {
    client
        .execute(statement, &[&match_id, &result, &pdn, &(epoch as i64)])
        .await
}

/// Stores rating change `change` ([`RATING`]).
pub(super) async fn rating(
    client: &Client,
    statement: &Statement,
    change: &RatingChange,
) -> Result<u64, Error> {
    client
        .execute(
            statement,
            &[
                &change.match_id,
                &change.account,
                &i64::from(change.games_before),
                &change.at_ms,
                &change.rating_before,
                &change.rating,
                &change.deviation,
                &change.volatility,
            ],
        )
        .await
}

/// Every unfinished match, oldest first, with its events in order.
pub(super) async fn unfinished(client: &Client) -> Result<Vec<StoredMatch>, Error> {
    let rows = client
        .query(
            "SELECT id, invite, created_ms, setup FROM matches WHERE NOT finished \
             ORDER BY created_ms, id",
            &[],
        )
        .await?;
    let mut matches: Vec<StoredMatch> = rows.iter().map(stored_match).collect();
    let rows = client
        .query(
            "SELECT e.match_id, e.v, e.at_ms, e.body FROM events e \
             JOIN matches m ON m.id = e.match_id WHERE NOT m.finished ORDER BY e.match_id, e.v",
            &[],
        )
        .await?;
    attach_events(&mut matches, &rows);
    Ok(matches)
}

/// The unfinished games of club event `$1`, oldest first: a search of `matches_of_event`
/// (migration 13), which spells the event of a set-up as this does.
pub(super) const OF_EVENT: &str = "SELECT id, invite, created_ms, setup FROM matches \
     WHERE NOT finished AND boardcast_json_text(setup, 'event') = $1 ORDER BY created_ms, id";

/// The unfinished games of club event `event`, oldest first, with their events: the matches
/// whose set-up names the event ([`OF_EVENT`]), and no other match's events.
pub(super) async fn unfinished_of_event(
    client: &Client,
    event: &str,
) -> Result<Vec<StoredMatch>, Error> {
    let rows = client.query(OF_EVENT, &[&event]).await?;
    let mut matches: Vec<StoredMatch> = rows.iter().map(stored_match).collect();
    let ids: Vec<&str> = matches.iter().map(|m| m.id.as_str()).collect();
    let rows = client
        .query(
            "SELECT match_id, v, at_ms, body FROM events WHERE match_id = ANY($1) \
             ORDER BY match_id, v",
            &[&ids],
        )
        .await?;
    attach_events(&mut matches, &rows);
    Ok(matches)
}

/// Gives each of `matches` its events from `rows` (match id, v, at_ms, body; in order).
fn attach_events(matches: &mut [StoredMatch], rows: &[tokio_postgres::Row]) {
    let mut events: HashMap<String, Vec<StoredEvent>> = HashMap::new();
    for row in rows {
        events
            .entry(row.get(0))
            .or_default()
            .push(stored_event(row, 1));
    }
    for m in matches {
        m.events = events.remove(&m.id).unwrap_or_default();
    }
}

/// The PDN of finished match `id`.
pub(super) async fn finished_pdn(client: &Pooled, id: &str) -> Result<Option<String>, Error> {
    let statement = client
        .prepare_cached("SELECT pdn FROM matches WHERE id = $1 AND finished")
        .await?;
    let row = client.query_opt(&statement, &[&id]).await?;
    Ok(row.and_then(|row| row.get(0)))
}

/// A finished match whole, named by id or by a seat token's hash.
pub(super) async fn finished_match(
    client: &Pooled,
    key: &MatchKey,
) -> Result<Option<StoredMatch>, Error> {
    let id = match key {
        MatchKey::Id(id) => id.clone(),
        MatchKey::TokenHash(hash) => match id_by_token_hash(client, hash).await? {
            Some(id) => id,
            None => return Ok(None),
        },
    };
    load(client, &id, Which::Finished).await
}

/// Which matches [`load`] reads back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Which {
    Finished,
    Any,
}

/// Match `id` whole (set-up and every event), if it exists and is `which`.
pub(super) async fn load(
    client: &Pooled,
    id: &str,
    which: Which,
) -> Result<Option<StoredMatch>, Error> {
    let by_id = client
        .prepare_cached(
            "SELECT id, invite, created_ms, setup FROM matches WHERE id = $1 AND (finished OR $2)",
        )
        .await?;
    let Some(row) = client
        .query_opt(&by_id, &[&id, &(which == Which::Any)])
        .await?
    else {
        return Ok(None);
    };
    let mut found = stored_match(&row);
    found.events = events_since(client, id, 0).await?;
    Ok(Some(found))
}

/// The events of match `id` after version `v`, in order.
pub(super) async fn events_since(
    client: &Pooled,
    id: &str,
    v: u64,
) -> Result<Vec<StoredEvent>, Error> {
    let events = client
        .prepare_cached(
            "SELECT v, at_ms, body FROM events WHERE match_id = $1 AND v > $2 ORDER BY v",
        )
        .await?;
    Ok(client
        .query(&events, &[&id, &(v.min(i64::MAX as u64) as i64)])
        .await?
        .iter()
        .map(|row| stored_event(row, 0))
        .collect())
}

/// The match that handed out a seat token whose hash is `$1`: a search of
/// `events_by_token_hash` (migration 12), which spells an event's token hash as this does.
pub(super) const BY_TOKEN_HASH: &str =
    "SELECT match_id FROM events WHERE boardcast_json_text(body, 'token_hash') = $1 LIMIT 1";

/// The match that handed out a seat token whose hash is `token_hash`, finished or not.
pub(super) async fn id_by_token_hash(
    client: &Pooled,
    token_hash: &str,
) -> Result<Option<String>, Error> {
    let by_hash = client.prepare_cached(BY_TOKEN_HASH).await?;
    Ok(client
        .query_opt(&by_hash, &[&token_hash])
        .await?
        .map(|row| row.get(0)))
}

/// A match row (`id, invite, created_ms, setup`), its events still to read.
fn stored_match(row: &Row) -> StoredMatch {
    StoredMatch {
        id: row.get(0),
        invite: row.get(1),
        created_ms: row.get(2),
        setup: row.get(3),
        events: Vec::new(),
    }
}

/// An event from columns `v, at_ms, body` starting at `first`.
fn stored_event(row: &Row, first: usize) -> StoredEvent {
    StoredEvent {
        v: row.get::<_, i64>(first) as u64,
        at_ms: row.get(first + 1),
        body: row.get(first + 2),
    }
}
