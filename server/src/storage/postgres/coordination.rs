//! [`Coordination`] in PostgreSQL: node leases in `nodes`, match owners in `matches`, other
//! owned things in `owned` (schema migration 2).
//!
//! Whether a node is alive is asked of PostgreSQL's clock (`boardcast_alive`), so nodes never
//! compare their clocks. Every claim is one `UPDATE … RETURNING` (or upsert) in a
//! `REPEATABLE READ` transaction: when two nodes claim the same row at once, the second one's
//! transaction fails to serialize and is run again on a fresh snapshot, where it sees the
//! first one's live claim and wins nothing. (At `READ COMMITTED` the re-check after the row
//! lock would still judge liveness on the old snapshot: a claimer registered after it was taken
//! would look dead.) Claims and leases commit with `synchronous_commit` on, so an epoch handed
//! out is never handed out again after a crash of the database server.

use deadpool_postgres::Pool;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{IsolationLevel, Row};

use super::matches::{self, Which};
use super::pooled;
use crate::storage::coordination::{
    Claimed, Coordination, EventOwners, MatchOwner, NodeRef, Owned,
};
use crate::storage::{StorageError, StoredEvent, StoredMatch};

/// How many times a claim is run again after failing to serialize with a concurrent one.
const SERIALIZE_RETRIES: usize = 8;

/// Starts incarnation 1 of a node id, or the next one, with a lease of `$2` ms.
const REGISTER_NODE: &str = "INSERT INTO nodes AS n (id, incarnation, lease_until) \
     VALUES ($1, 1, now() + $2::bigint::float8 * interval '1 millisecond') \
     ON CONFLICT (id) DO UPDATE SET incarnation = n.incarnation + 1, \
     lease_until = EXCLUDED.lease_until RETURNING incarnation";

/// Extends a lease, if the row still belongs to that incarnation (even after it ran out: the
/// node stopped believing in it first, and its old epochs are fenced).
const RENEW_NODE: &str = "UPDATE nodes \
     SET lease_until = now() + $3::bigint::float8 * interval '1 millisecond' \
     WHERE id = $1 AND incarnation = $2 RETURNING 1";

/// Makes `($2, $3)` owner of match `$1` with the next epoch: only a live claimer, and only
/// over no owner, a dead one, or itself (an older incarnation, or this one: the epoch then
/// fences whatever this node still ran of the match).
const CLAIM_MATCH: &str = "UPDATE matches m \
     SET owner_node = $2, owner_incarnation = $3, epoch = m.epoch + 1 \
     WHERE m.id = $1 AND boardcast_alive($2, $3) \
     AND (m.owner_node IS NULL OR (m.owner_node = $2 AND m.owner_incarnation <= $3) \
          OR NOT boardcast_alive(m.owner_node, m.owner_incarnation)) \
     RETURNING m.epoch";

/// The same rule as [`CLAIM_MATCH`] for an owned thing, created at epoch 1 when missing.
const CLAIM_OWNED: &str = "INSERT INTO owned AS o (kind, key, owner_node, owner_incarnation, epoch) \
     SELECT $1, $2, $3, $4, 1 WHERE boardcast_alive($3, $4) \
     ON CONFLICT (kind, key) DO UPDATE \
     SET owner_node = EXCLUDED.owner_node, owner_incarnation = EXCLUDED.owner_incarnation, \
         epoch = o.epoch + 1 \
     WHERE (o.owner_node = $3 AND o.owner_incarnation <= $4) \
        OR NOT boardcast_alive(o.owner_node, o.owner_incarnation) \
     RETURNING o.epoch, o.state";

/// Draws the next engine-game id: never one handed out before, and past every archived id
/// (a single-node run counts on its own, without the sequence). Under [`GAME_IDS_LOCK`], so
/// the catch-up and the draw are one step for every node.
const RESERVE_GAME_ID: &str = "SELECT setval('engine_game_ids', GREATEST( \
         (SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END \
          FROM engine_game_ids), \
         (SELECT COALESCE(MAX(id), 0) + 1 FROM engine_games)), false), \
     nextval('engine_game_ids')";

/// An arbitrary key for `pg_advisory_xact_lock`: one node drawing a game id at a time.
const GAME_IDS_LOCK: i64 = 0x6263_6761_6d65_6964;

/// Saves an owned thing's state under its current epoch only.
const SAVE_OWNED_STATE: &str =
    "UPDATE owned SET state = $4 WHERE kind = $1 AND key = $2 AND epoch = $3 RETURNING 1";

/// The coordination of the nodes sharing one PostgreSQL database, over the store's read pool.
#[derive(Debug)]
pub(crate) struct PgCoordination {
    pool: Pool,
    /// This node's lease length, as last registered or renewed (every node of a cluster runs
    /// the same): a lease's end less it is when that lease was last renewed.
    lease_ms: std::sync::atomic::AtomicU64,
}

impl PgCoordination {
    pub(crate) fn new(pool: Pool) -> PgCoordination {
        PgCoordination {
            pool,
            lease_ms: std::sync::atomic::AtomicU64::new(0),
        }
    }

    fn note_lease(&self, ttl_ms: u64) {
        self.lease_ms
            .store(ttl_ms, std::sync::atomic::Ordering::Relaxed);
    }
}

/// A node reference as stored: its incarnation as a `BIGINT`.
fn stored_incarnation(node: &NodeRef) -> i64 {
    i64::try_from(node.incarnation).unwrap_or(i64::MAX)
}

fn node_ref(row: &Row, node: usize, incarnation: usize) -> Option<NodeRef> {
    let id: Option<String> = row.get(node);
    let incarnation: Option<i64> = row.get(incarnation);
    Some(NodeRef {
        node: id?,
        incarnation: incarnation? as u64,
    })
}

/// A statement's parameter.
type Param = dyn ToSql + Sync;

impl PgCoordination {
    /// Runs `sql` (prepared once per connection); returns its rows.
    async fn read(&self, sql: &str, params: &[&Param]) -> Result<Vec<Row>, StorageError> {
        let client = pooled(&self.pool).await?;
        let statement = client.prepare_cached(sql).await?;
        Ok(client.query(&statement, params).await?)
    }

    /// Runs `sql`, which returns one row at most.
    async fn read_one(&self, sql: &str, params: &[&Param]) -> Result<Option<Row>, StorageError> {
        let client = pooled(&self.pool).await?;
        let statement = client.prepare_cached(sql).await?;
        Ok(client.query_opt(&statement, params).await?)
    }

    /// Runs `sql` as a durable `REPEATABLE READ` transaction of its own and returns its row, if
    /// any; run again on a fresh snapshot when it failed to serialize with a concurrent one.
    async fn write_one(&self, sql: &str, params: &[&Param]) -> Result<Option<Row>, StorageError> {
        let mut client = pooled(&self.pool).await?;
        let statement = client.prepare_cached(sql).await?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let tx = client
                .build_transaction()
                .isolation_level(IsolationLevel::RepeatableRead)
                .start()
                .await?;
            let written: Result<Option<Row>, tokio_postgres::Error> = async {
                tx.batch_execute("SET LOCAL synchronous_commit TO on")
                    .await?;
                let row = tx.query_opt(&statement, params).await?;
                tx.commit().await?;
                Ok(row)
            }
            .await;
            match written {
                Err(err)
                    if attempt < SERIALIZE_RETRIES
                        && err.code() == Some(&SqlState::T_R_SERIALIZATION_FAILURE) =>
                {
                    tracing::debug!(attempt, "a claim met a concurrent one; running it again");
                    continue;
                }
                other => return Ok(other?),
            }
        }
    }
}

#[async_trait::async_trait]
impl Coordination for PgCoordination {
    async fn register_node(&self, node: String, ttl_ms: u64) -> Result<NodeRef, StorageError> {
        self.note_lease(ttl_ms);
        let row = self
            .write_one(REGISTER_NODE, &[&node, &(ttl_ms as i64)])
            .await?
            .ok_or_else(|| StorageError::Database("registering a node returned no row".into()))?;
        Ok(NodeRef {
            node,
            incarnation: row.get::<_, i64>(0) as u64,
        })
    }

    async fn renew_node(&self, me: NodeRef, ttl_ms: u64) -> Result<bool, StorageError> {
        self.note_lease(ttl_ms);
        let params: [&Param; 3] = [&me.node, &stored_incarnation(&me), &(ttl_ms as i64)];
        Ok(self.write_one(RENEW_NODE, &params).await?.is_some())
    }

    async fn last_renewal_ms(&self, node: NodeRef) -> Result<Option<i64>, StorageError> {
        let lease_ms = self.lease_ms.load(std::sync::atomic::Ordering::Relaxed);
        if lease_ms == 0 {
            return Ok(None);
        }
        let sql = "SELECT (extract(epoch FROM lease_until) * 1000)::bigint FROM nodes \
                   WHERE id = $1 AND incarnation = $2";
        let row = self
            .read_one(sql, &[&node.node, &stored_incarnation(&node)])
            .await?;
        Ok(row.map(|row| row.get::<_, i64>(0) - lease_ms as i64))
    }

    async fn live_nodes(&self) -> Result<Vec<NodeRef>, StorageError> {
        let sql = "SELECT id, incarnation FROM nodes WHERE lease_until > now() ORDER BY id";
        let rows = self.read(sql, &[]).await?;
        Ok(rows.iter().filter_map(|row| node_ref(row, 0, 1)).collect())
    }

    async fn match_owner(&self, id: String) -> Result<Option<MatchOwner>, StorageError> {
        let sql = "SELECT owner_node, owner_incarnation, epoch, finished, \
                   boardcast_alive(owner_node, owner_incarnation) FROM matches WHERE id = $1";
        Ok(self.read_one(sql, &[&id]).await?.map(|row| MatchOwner {
            owner: node_ref(&row, 0, 1),
            epoch: row.get::<_, i64>(2) as u64,
            finished: row.get(3),
            alive: row.get(4),
        }))
    }

    async fn claim_match(&self, id: String, me: NodeRef) -> Result<Option<u64>, StorageError> {
        let params: [&Param; 3] = [&id, &me.node, &stored_incarnation(&me)];
        let row = self.write_one(CLAIM_MATCH, &params).await?;
        Ok(row.map(|row| row.get::<_, i64>(0) as u64))
    }

    async fn orphaned_matches(&self, limit: u32) -> Result<Vec<String>, StorageError> {
        // No owner at all (a match from a single-node run) counts as a dead one.
        let sql = "SELECT id FROM matches WHERE NOT finished \
                   AND NOT boardcast_alive(owner_node, owner_incarnation) \
                   ORDER BY created_ms, id LIMIT $1";
        let rows = self.read(sql, &[&i64::from(limit)]).await?;
        Ok(rows.iter().map(|row| row.get(0)).collect())
    }

    async fn match_id_by_code(&self, code: String) -> Result<Option<String>, StorageError> {
        let sql = "SELECT id FROM matches WHERE invite = $1";
        Ok(self.read_one(sql, &[&code]).await?.map(|row| row.get(0)))
    }

    async fn match_id_by_token_hash(
        &self,
        token_hash: String,
    ) -> Result<Option<String>, StorageError> {
        Ok(matches::id_by_token_hash(&pooled(&self.pool).await?, &token_hash).await?)
    }

    async fn load_match(&self, id: String) -> Result<Option<StoredMatch>, StorageError> {
        Ok(matches::load(&pooled(&self.pool).await?, &id, Which::Any).await?)
    }

    async fn events_since(&self, id: String, v: u64) -> Result<Vec<StoredEvent>, StorageError> {
        Ok(matches::events_since(&pooled(&self.pool).await?, &id, v).await?)
    }

    async fn claim_owned(
        &self,
        kind: String,
        key: String,
        me: NodeRef,
    ) -> Result<Option<Claimed>, StorageError> {
        let params: [&Param; 4] = [&kind, &key, &me.node, &stored_incarnation(&me)];
        Ok(self
            .write_one(CLAIM_OWNED, &params)
            .await?
            .map(|row| Claimed {
                epoch: row.get::<_, i64>(0) as u64,
                state: row.get(1),
            }))
    }

    async fn owner_of(&self, kind: String, key: String) -> Result<Option<Owned>, StorageError> {
        let sql = "SELECT owner_node, owner_incarnation, epoch, \
                   boardcast_alive(owner_node, owner_incarnation) FROM owned \
                   WHERE kind = $1 AND key = $2";
        let row = self.read_one(sql, &[&kind, &key]).await?;
        Ok(row.and_then(|row| {
            Some(Owned {
                owner: node_ref(&row, 0, 1)?,
                epoch: row.get::<_, i64>(2) as u64,
                alive: row.get(3),
            })
        }))
    }

    async fn unfinished_events(&self) -> Result<EventOwners, StorageError> {
        let sql = "SELECT e.id, o.owner_node, o.owner_incarnation, o.epoch, \
                   boardcast_alive(o.owner_node, o.owner_incarnation) \
                   FROM club_events e LEFT JOIN owned o ON o.kind = 'event' AND o.key = e.id \
                   WHERE NOT e.finished ORDER BY e.created_ms, e.id";
        let rows = self.read(sql, &[]).await?;
        Ok(rows
            .iter()
            .map(|row| {
                let owned = node_ref(row, 1, 2).map(|owner| Owned {
                    owner,
                    epoch: row.get::<_, i64>(3) as u64,
                    alive: row.get(4),
                });
                (row.get(0), owned)
            })
            .collect())
    }

    async fn reserve_game_id(&self) -> Result<u64, StorageError> {
        let mut client = pooled(&self.pool).await?;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&GAME_IDS_LOCK])
            .await?;
        let id: i64 = tx.query_one(RESERVE_GAME_ID, &[]).await?.get(1);
        tx.commit().await?;
        Ok(id as u64)
    }

    async fn save_owned_state(
        &self,
        kind: String,
        key: String,
        epoch: u64,
        state: String,
    ) -> Result<(), StorageError> {
        let params: [&Param; 4] = [&kind, &key, &(epoch as i64), &state];
        match self.write_one(SAVE_OWNED_STATE, &params).await? {
            Some(_) => Ok(()),
            None => Err(StorageError::Fenced {
                match_id: format!("{kind} {key}"),
                epoch,
            }),
        }
    }
}

#[cfg(test)]
mod tests;
