//! The writer's fence and node sessions, on a real PostgreSQL server (testkit's harness).

use std::collections::BTreeSet;

use super::GROUP_TIMEOUT;
use crate::storage::coordination::NodeRef;
use crate::storage::tests::PostgresDatabase;
use crate::storage::{Storage, StorageError, StoredEvent, Unavailable, Write};

/// A long lease: it does not run out during a test.
const LONG: u64 = 600_000;

fn create(id: &str, owner: Option<&NodeRef>) -> Write {
    Write::CreateMatch {
        id: id.into(),
        invite: None,
        created_ms: 1,
        setup: "{}".into(),
        owner: owner.cloned(),
    }
}

fn event(id: &str, v: u64, epoch: u64) -> Write {
    Write::Event {
        match_id: id.into(),
        v,
        at_ms: 2,
        body: format!("{id} v{v} under epoch {epoch}"),
        epoch,
    }
}

fn finish(id: &str, epoch: u64) -> Write {
    Write::Finish {
        match_id: id.into(),
        result: "0-2".into(),
        pdn: String::new(),
        epoch,
    }
}

/// A plain connection to `url`, for looking behind the store.
async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    client
}

/// `(v, epoch)` of every stored event of `id`.
async fn stored_epochs(client: &tokio_postgres::Client, id: &str) -> Vec<(i64, i64)> {
    client
        .query(
            "SELECT v, epoch FROM events WHERE match_id = $1 ORDER BY v",
            &[&id],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| (row.get(0), row.get(1)))
        .collect()
}

#[tokio::test]
async fn a_fenced_request_is_refused_and_the_rest_of_its_group_commits() {
    let Some(db) = PostgresDatabase::new("fence") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let c = storage.coordination().unwrap();
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    storage
        .commit(vec![create("m", Some(&a)), create("n", Some(&a))])
        .await
        .unwrap();
    assert_eq!(c.match_owner("m".into()).await.unwrap().unwrap().epoch, 1);
    storage.commit(vec![event("m", 1, 1)]).await.unwrap();
    // a pauses past its lease; b takes m over.
    assert!(c.renew_node(a.clone(), 0).await.unwrap());
    assert_eq!(c.claim_match("m".into(), b.clone()).await.unwrap(), Some(2));
    // a's late write of m, a's write of n (still its own), and b's write of m, all at once.
    let (late, other, new) = tokio::join!(
        storage.commit(vec![event("m", 2, 1)]),
        storage.commit(vec![event("n", 1, 1)]),
        storage.commit(vec![event("m", 2, 2)]),
    );
    let late = late.unwrap_err();
    assert!(
        matches!(&late, StorageError::Fenced { match_id, epoch: 1 } if match_id == "m"),
        "{late:?}"
    );
    assert_eq!(
        late.to_string(),
        "m has moved to another node: epoch 1 is no longer its epoch, nothing was stored"
    );
    other.unwrap();
    new.unwrap();
    let client = connect(&db.url).await;
    assert_eq!(stored_epochs(&client, "m").await, [(1, 1), (2, 2)]);
    assert_eq!(stored_epochs(&client, "n").await, [(1, 1)]);
    assert_eq!(
        c.events_since("m".into(), 1).await.unwrap(),
        [StoredEvent {
            v: 2,
            at_ms: 2,
            body: "m v2 under epoch 2".into()
        }],
        "the new owner's event, not the old one's"
    );
    storage.close().await;
}

#[tokio::test]
async fn a_fenced_request_stores_none_of_its_writes_and_a_fenced_finish_finishes_nothing() {
    let Some(db) = PostgresDatabase::new("fence") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let c = storage.coordination().unwrap();
    let a = c.register_node("a".into(), LONG).await.unwrap();
    storage
        .commit(vec![create("m", Some(&a)), create("n", Some(&a))])
        .await
        .unwrap();
    // a claims m again (a restart of its actor, say): epoch 2; the old actor's writes are fenced.
    assert_eq!(c.claim_match("m".into(), a.clone()).await.unwrap(), Some(2));
    let refused = storage
        .commit(vec![event("n", 1, 1), event("m", 1, 1), finish("m", 1)])
        .await
        .unwrap_err();
    assert!(
        matches!(&refused, StorageError::Fenced { match_id, epoch: 1 } if match_id == "m"),
        "{refused:?}"
    );
    let refused = storage.commit(vec![finish("m", 1)]).await.unwrap_err();
    assert!(
        matches!(refused, StorageError::Fenced { epoch: 1, .. }),
        "{refused:?}"
    );
    let client = connect(&db.url).await;
    assert_eq!(
        stored_epochs(&client, "n").await,
        [],
        "nothing of the request"
    );
    assert_eq!(stored_epochs(&client, "m").await, []);
    let owner = c.match_owner("m".into()).await.unwrap().unwrap();
    assert!(!owner.finished, "a fenced finish finishes nothing");
    storage
        .commit(vec![event("m", 1, 2), finish("m", 2)])
        .await
        .unwrap();
    assert!(c.match_owner("m".into()).await.unwrap().unwrap().finished);
    // A duplicate version under the right epoch is still an ordinary refusal.
    let duplicate = storage.commit(vec![event("m", 1, 2)]).await.unwrap_err();
    assert!(
        matches!(duplicate, StorageError::Refused(_)),
        "{duplicate:?}"
    );
    storage.close().await;
}

/// The backend pids of the sessions named `application` on the database of `client`.
async fn sessions(client: &tokio_postgres::Client, application: &str) -> BTreeSet<i32> {
    client
        .query(
            "SELECT pid FROM pg_stat_activity WHERE application_name = $1 \
             AND datname = current_database()",
            &[&application],
        )
        .await
        .unwrap()
        .iter()
        .map(|row| row.get(0))
        .collect()
}

#[tokio::test]
async fn a_node_ends_only_its_own_earlier_sessions_and_recovers_nothing_at_start() {
    let Some(db) = PostgresDatabase::new("node sessions") else {
        return;
    };
    let client = connect(&db.url).await;
    let (single, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    single.commit(vec![create("m", None)]).await.unwrap();
    let (a, recovered) = Storage::open(
        &crate::storage::Database::Postgres(db.url.to_owned()),
        Some("a"),
    )
    .await
    .unwrap();
    assert_eq!(recovered, [], "a node starts only the matches it claims");
    let (b, _) = Storage::open(
        &crate::storage::Database::Postgres(db.url.to_owned()),
        Some("b"),
    )
    .await
    .unwrap();
    b.commit(vec![event("m", 1, 0)]).await.unwrap();
    let b_sessions = sessions(&client, "boardcast-server/b").await;
    let a_sessions = sessions(&client, "boardcast-server/a").await;
    let single_sessions = sessions(&client, "boardcast-server").await;
    assert!(!b_sessions.is_empty() && !a_sessions.is_empty() && !single_sessions.is_empty());
    // Node a restarts: its earlier run's sessions end, nobody else's.
    let (a_again, _) = Storage::open(
        &crate::storage::Database::Postgres(db.url.to_owned()),
        Some("a"),
    )
    .await
    .unwrap();
    let now = sessions(&client, "boardcast-server/a").await;
    assert!(now.is_disjoint(&a_sessions), "{now:?} vs {a_sessions:?}");
    assert_eq!(sessions(&client, "boardcast-server/b").await, b_sessions);
    assert_eq!(sessions(&client, "boardcast-server").await, single_sessions);
    b.commit(vec![event("m", 2, 0)]).await.unwrap();
    a_again.commit(vec![event("m", 3, 0)]).await.unwrap();
    // A single server ends the single server's earlier sessions only.
    let (single_again, recovered) =
        Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
            .await
            .unwrap();
    assert_eq!(recovered.len(), 1, "a single server reads its matches back");
    assert_eq!(recovered[0].events.len(), 3);
    assert!(
        sessions(&client, "boardcast-server")
            .await
            .is_disjoint(&single_sessions)
    );
    assert_eq!(sessions(&client, "boardcast-server/b").await, b_sessions);
    for storage in [single, a, b, a_again, single_again] {
        storage.close().await;
    }
}

#[tokio::test]
async fn a_cluster_node_on_sqlite_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let database = crate::storage::Database::Sqlite(dir.path().join("t.db"));
    let err = Storage::open(&database, Some("a")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "database: sqlite:{}: several nodes share one PostgreSQL database, not SQLite",
            dir.path().join("t.db").display()
        )
    );
}

#[tokio::test]
async fn a_node_stopped_inside_a_transaction_does_not_hold_a_take_over_up() {
    use crate::storage::Store;
    use crate::storage::postgres::Postgres;
    let Some(db) = PostgresDatabase::new("stopped node") else {
        return;
    };
    let (node, _) = Postgres::connect(&db.url, Some("a")).await.unwrap();
    let c = node.coordination().unwrap();
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    node.commit(vec![create("m", Some(&a))]).await.unwrap();
    // Node a is stopped halfway through a group: its transaction holds the match's row lock.
    let mut stopped = super::super::pooled(&node.pool).await.unwrap();
    let transaction = stopped.transaction().await.unwrap();
    transaction
        .query_one("SELECT boardcast_fence('m', 1)", &[])
        .await
        .unwrap();
    assert!(
        c.renew_node(a, 0).await.unwrap(),
        "its lease runs out meanwhile"
    );
    let claim = tokio::time::timeout(
        std::time::Duration::from_secs(30),
        c.claim_match("m".into(), b),
    )
    .await
    .expect("the take-over does not wait for the stopped node");
    assert_eq!(claim.unwrap(), Some(2));
    assert!(
        transaction.commit().await.is_err(),
        "the stopped node's transaction was ended"
    );
    node.close().await;
}

#[tokio::test]
async fn a_take_over_reads_every_write_the_old_owner_had_acknowledged_and_it_can_ack_no_more() {
    let Some(db) = PostgresDatabase::new("fence race") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let c = storage.coordination().unwrap();
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    const MATCHES: usize = 20;
    let ids: Vec<String> = (0..MATCHES).map(|m| format!("m{m}")).collect();
    storage
        .commit(ids.iter().map(|id| create(id, Some(&a))).collect())
        .await
        .unwrap();
    // Node a's matches write as fast as they can, each until the fence stops it, as an actor.
    let writers: Vec<_> = ids
        .iter()
        .map(|id| {
            let (storage, id) = (storage.clone(), id.clone());
            tokio::spawn(async move {
                let mut acked = Vec::new();
                for v in 1.. {
                    match storage.commit(vec![event(&id, v, 1)]).await {
                        Ok(()) => acked.push(v),
                        Err(StorageError::Fenced { epoch: 1, .. }) => return acked,
                        Err(err) => panic!("{id} v{v}: {err}"),
                    }
                }
                unreachable!()
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    // a's lease runs out; b takes every match over and reads it at once.
    assert!(c.renew_node(a, 0).await.unwrap());
    let taken = futures_util::future::join_all(ids.iter().map(|id| {
        let (c, b, id) = (c.clone(), b.clone(), id.clone());
        async move {
            assert_eq!(c.claim_match(id.clone(), b).await.unwrap(), Some(2));
            let read = c.load_match(id).await.unwrap().unwrap();
            read.events.iter().map(|e| e.v).collect::<Vec<u64>>()
        }
    }))
    .await;
    let client = connect(&db.url).await;
    for ((id, writer), read) in ids.iter().zip(writers).zip(taken) {
        let acked = writer.await.unwrap();
        assert!(!acked.is_empty(), "{id} wrote before the take-over");
        assert_eq!(
            read, acked,
            "{id}: the new owner reads exactly what was acknowledged"
        );
        let stored = stored_epochs(&client, id).await;
        assert_eq!(
            stored.len(),
            acked.len(),
            "{id}: nothing landed after the take-over"
        );
        assert!(stored.iter().all(|&(_, epoch)| epoch == 1));
    }
    storage.close().await;
}

#[tokio::test]
async fn a_group_whose_commit_outlasted_the_writers_patience_is_answered_as_stored_when_it_was() {
    let Some(db) = PostgresDatabase::new("commit in doubt") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    storage
        .commit(vec![create("m", None), event("m", 1, 0)])
        .await
        .unwrap();
    // A commit that takes longer than the writer waits for a group (a stalled disk, say).
    let stall = GROUP_TIMEOUT + std::time::Duration::from_secs(1);
    let client = connect(&db.url).await;
    client
        .batch_execute(&format!(
            "CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_sleep({}); RETURN NULL; END $$;
             CREATE CONSTRAINT TRIGGER stall AFTER INSERT ON events
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
                 WHEN (NEW.body = 'm v2 under epoch 0') EXECUTE FUNCTION stall();",
            stall.as_secs_f64()
        ))
        .await
        .unwrap();
    let started = tokio::time::Instant::now();
    let stored = storage.commit(vec![event("m", 2, 0)]).await;
    assert!(
        started.elapsed() >= stall,
        "answered only once its fate was known"
    );
    assert_eq!(
        stored.map_err(|err| err.to_string()),
        Ok(()),
        "it was stored, so it is acknowledged"
    );
    // The match goes on from v2, on a new connection.
    storage.commit(vec![event("m", 3, 0)]).await.unwrap();
    assert_eq!(stored_epochs(&client, "m").await, [(1, 0), (2, 0), (3, 0)]);
    storage.close().await;
}

#[tokio::test]
async fn a_group_in_doubt_that_did_not_commit_is_answered_unavailable_and_can_be_sent_again() {
    let Some(db) = PostgresDatabase::new("commit in doubt") else {
        return;
    };
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    storage.commit(vec![create("m", None)]).await.unwrap();
    let client = connect(&db.url).await;
    client
        .batch_execute(
            "CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_sleep(60); RETURN NULL; END $$;
             CREATE CONSTRAINT TRIGGER stall AFTER INSERT ON events
                 DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION stall();",
        )
        .await
        .unwrap();
    let waiting = tokio::spawn({
        let storage = storage.clone();
        async move { storage.commit(vec![event("m", 1, 0)]).await }
    });
    // The writer's session dies in the middle of its COMMIT: the transaction is rolled back.
    // Only this test's database: the other tests of this process share the PostgreSQL server,
    // and one of them stalls a COMMIT of its own in `pg_sleep`.
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let ended = client
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name = 'boardcast-server' AND wait_event = 'PgSleep' \
                 AND datname = current_database()",
                &[],
            )
            .await
            .unwrap();
        if !ended.is_empty() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the commit never stalled"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let answer = waiting.await.unwrap();
    assert!(
        matches!(
            &answer,
            Err(StorageError::Unavailable(Unavailable::NotStored))
        ),
        "{answer:?}"
    );
    client
        .batch_execute("DROP TRIGGER stall ON events")
        .await
        .unwrap();
    storage.commit(vec![event("m", 1, 0)]).await.unwrap();
    assert_eq!(stored_epochs(&client, "m").await, [(1, 0)]);
    storage.close().await;
}
