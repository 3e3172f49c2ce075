//! The coordination rules on a real PostgreSQL server (testkit's harness).

use std::sync::Arc;

use crate::storage::coordination::{Claimed, Coordination, MatchOwner, NodeRef, Owned};
use crate::storage::tests::PostgresDatabase;
use crate::storage::{Storage, StorageError, StoredEvent, Write};

/// A long lease: it does not run out during a test.
const LONG: u64 = 600_000;

/// A fresh database and its store and coordination, or `None` without PostgreSQL.
async fn open(test: &str) -> Option<(PostgresDatabase, Storage, Arc<dyn Coordination>)> {
    let db = PostgresDatabase::new(test)?;
    let (storage, _) = Storage::open(&crate::storage::Database::Postgres(db.url.to_owned()), None)
        .await
        .unwrap();
    let coordination = storage
        .coordination()
        .expect("PostgreSQL coordinates nodes");
    Some((db, storage, coordination))
}

fn create(id: &str) -> Write {
    Write::CreateMatch {
        id: id.into(),
        invite: Some(format!("INV-{id}")),
        created_ms: 1,
        setup: "{}".into(),
        owner: None,
    }
}

fn event(id: &str, v: u64, body: &str) -> Write {
    Write::Event {
        match_id: id.into(),
        v,
        at_ms: 10 * v as i64,
        body: body.into(),
        epoch: 0,
    }
}

fn finish(id: &str, epoch: u64) -> Write {
    Write::Finish {
        match_id: id.into(),
        result: "2-0".into(),
        pdn: "[Result \"2-0\"]".into(),
        epoch,
    }
}

/// Lets `node`'s lease run out now (a renew for no time at all).
async fn kill(coordination: &Arc<dyn Coordination>, node: &NodeRef) {
    assert!(coordination.renew_node(node.clone(), 0).await.unwrap());
}

#[tokio::test]
async fn registering_again_starts_a_new_incarnation_and_the_old_one_cannot_renew() {
    let Some((_db, storage, c)) = open("coordination: register").await else {
        return;
    };
    let a1 = c.register_node("a".into(), LONG).await.unwrap();
    let b1 = c.register_node("b".into(), LONG).await.unwrap();
    assert_eq!(
        a1,
        NodeRef {
            node: "a".into(),
            incarnation: 1
        }
    );
    assert_eq!(
        b1,
        NodeRef {
            node: "b".into(),
            incarnation: 1
        }
    );
    assert!(
        c.renew_node(a1.clone(), LONG).await.unwrap(),
        "a live lease renews"
    );
    let a2 = c.register_node("a".into(), LONG).await.unwrap();
    assert_eq!(
        a2,
        NodeRef {
            node: "a".into(),
            incarnation: 2
        }
    );
    assert!(
        !c.renew_node(a1, LONG).await.unwrap(),
        "the row belongs to a#2 now"
    );
    assert_eq!(c.live_nodes().await.unwrap(), [a2.clone(), b1.clone()]);
    kill(&c, &b1).await;
    assert_eq!(c.live_nodes().await.unwrap(), std::slice::from_ref(&a2));
    // A lease that ran out may be renewed by its own incarnation: it is alive again.
    assert!(c.renew_node(b1.clone(), LONG).await.unwrap());
    assert_eq!(c.live_nodes().await.unwrap(), [a2, b1]);
    storage.close().await;
}

#[tokio::test]
async fn two_claimers_of_one_match_never_both_win() {
    let Some((_db, storage, c)) = open("coordination: concurrent claims").await else {
        return;
    };
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    const MATCHES: usize = 40;
    let ids: Vec<String> = (0..MATCHES).map(|i| format!("m{i}")).collect();
    storage
        .commit(ids.iter().map(|id| create(id)).collect())
        .await
        .unwrap();
    // Every match claimed by both at the same moment, all matches at once.
    let claims = ids.iter().map(|id| {
        let (c, a, b, id) = (c.clone(), a.clone(), b.clone(), id.clone());
        tokio::spawn(async move {
            let (by_a, by_b) = tokio::join!(
                c.claim_match(id.clone(), a.clone()),
                c.claim_match(id.clone(), b.clone())
            );
            (id, by_a.unwrap(), by_b.unwrap())
        })
    });
    let mut wins = [0, 0];
    for claim in futures_util::future::join_all(claims).await {
        let (id, by_a, by_b) = claim.unwrap();
        let winner = match (by_a, by_b) {
            (Some(1), None) => {
                wins[0] += 1;
                &a
            }
            (None, Some(1)) => {
                wins[1] += 1;
                &b
            }
            other => panic!("{id}: exactly one claim wins epoch 1, got {other:?}"),
        };
        assert_eq!(
            c.match_owner(id.clone()).await.unwrap(),
            Some(MatchOwner {
                owner: Some(winner.clone()),
                epoch: 1,
                alive: true,
                finished: false,
            }),
            "{id}"
        );
    }
    assert_eq!(wins[0] + wins[1], MATCHES);
    // Now the owners are alive: claiming again wins nothing, even all at once.
    let again = ids.iter().map(|id| {
        let (c, a, b, id) = (c.clone(), a.clone(), b.clone(), id.clone());
        async move {
            let owner = c
                .match_owner(id.clone())
                .await
                .unwrap()
                .unwrap()
                .owner
                .unwrap();
            let other = if owner == a { b } else { a };
            c.claim_match(id, other).await.unwrap()
        }
    });
    let again = futures_util::future::join_all(again).await;
    assert!(again.iter().all(Option::is_none), "{again:?}");
    storage.close().await;
}

#[tokio::test]
async fn a_live_owners_match_cannot_be_claimed_and_a_dead_owners_can() {
    let Some((_db, storage, c)) = open("coordination: owners").await else {
        return;
    };
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    storage.commit(vec![create("m")]).await.unwrap();
    assert_eq!(
        c.match_owner("m".into()).await.unwrap(),
        Some(MatchOwner {
            owner: None,
            epoch: 0,
            alive: false,
            finished: false,
        }),
        "a match nobody claimed yet"
    );
    assert_eq!(c.claim_match("m".into(), a.clone()).await.unwrap(), Some(1));
    assert_eq!(c.claim_match("m".into(), b.clone()).await.unwrap(), None);
    // Claiming its own match again moves the epoch on (it fences what it ran before).
    assert_eq!(c.claim_match("m".into(), a.clone()).await.unwrap(), Some(2));
    kill(&c, &a).await;
    assert_eq!(
        c.match_owner("m".into()).await.unwrap(),
        Some(MatchOwner {
            owner: Some(a.clone()),
            epoch: 2,
            alive: false,
            finished: false,
        })
    );
    assert_eq!(c.claim_match("m".into(), b.clone()).await.unwrap(), Some(3));
    assert_eq!(
        c.match_owner("m".into()).await.unwrap(),
        Some(MatchOwner {
            owner: Some(b.clone()),
            epoch: 3,
            alive: true,
            finished: false,
        })
    );
    // A claimer whose own lease ran out wins nothing, even over a dead owner.
    kill(&c, &b).await;
    assert_eq!(c.claim_match("m".into(), a.clone()).await.unwrap(), None);
    assert_eq!(c.match_owner("m".into()).await.unwrap().unwrap().epoch, 3);
    assert_eq!(
        c.claim_match("nothing".into(), b).await.unwrap(),
        None,
        "no such match"
    );
    assert_eq!(c.match_owner("nothing".into()).await.unwrap(), None);
    storage.close().await;
}

#[tokio::test]
async fn an_older_incarnation_of_me_is_claimed_over_but_never_another_live_node() {
    let Some((_db, storage, c)) = open("coordination: incarnations").await else {
        return;
    };
    let a1 = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    storage.commit(vec![create("m")]).await.unwrap();
    assert_eq!(
        c.claim_match("m".into(), a1.clone()).await.unwrap(),
        Some(1)
    );
    // Node a restarts: its old incarnation's lease would still run, but the row is a#2's.
    let a2 = c.register_node("a".into(), LONG).await.unwrap();
    assert_eq!(
        c.match_owner("m".into()).await.unwrap().map(|o| o.alive),
        Some(false),
        "a#1 is no longer alive once a#2 registered"
    );
    assert_eq!(
        c.claim_match("m".into(), a2.clone()).await.unwrap(),
        Some(2)
    );
    assert_eq!(
        c.claim_match("m".into(), a1).await.unwrap(),
        None,
        "a#1 is dead"
    );
    assert_eq!(
        c.claim_match("m".into(), b).await.unwrap(),
        None,
        "a#2 is alive"
    );
    storage.close().await;
}

#[tokio::test]
async fn orphaned_matches_are_exactly_the_unfinished_matches_without_a_live_owner() {
    let Some((_db, storage, c)) = open("coordination: orphans").await else {
        return;
    };
    let live = c.register_node("live".into(), LONG).await.unwrap();
    let dead = c.register_node("dead".into(), LONG).await.unwrap();
    let ids = [
        "never-owned",
        "dead-running",
        "dead-finished",
        "live-running",
        "dead-2",
    ];
    storage
        .commit(ids.iter().map(|id| create(id)).collect())
        .await
        .unwrap();
    for id in ["dead-running", "dead-finished", "dead-2"] {
        assert_eq!(
            c.claim_match(id.into(), dead.clone()).await.unwrap(),
            Some(1)
        );
    }
    assert_eq!(
        c.claim_match("live-running".into(), live.clone())
            .await
            .unwrap(),
        Some(1)
    );
    storage
        .commit(vec![finish("dead-finished", 1)])
        .await
        .unwrap();
    assert_eq!(
        c.orphaned_matches(10).await.unwrap(),
        ["never-owned"],
        "while every owner is alive, only the match nobody owns"
    );
    kill(&c, &dead).await;
    let orphans = c.orphaned_matches(10).await.unwrap();
    assert_eq!(orphans, ["dead-2", "dead-running", "never-owned"]);
    assert_eq!(c.orphaned_matches(2).await.unwrap(), orphans[..2]);
    // Claimed by a live node, an orphan is one no more.
    assert_eq!(c.claim_match("dead-2".into(), live).await.unwrap(), Some(2));
    assert_eq!(
        c.orphaned_matches(10).await.unwrap(),
        ["dead-running", "never-owned"]
    );
    storage.close().await;
}

#[tokio::test]
async fn matches_are_found_by_code_and_token_hash_and_read_back_in_any_state() {
    let Some((_db, storage, c)) = open("coordination: lookups").await else {
        return;
    };
    let joined = |id: &str, v: u64, token_hash: &str| {
        event(
            id,
            v,
            &format!(r#"{{"event":"joined","token_hash":"{token_hash}"}}"#),
        )
    };
    storage
        .commit(vec![
            create("a"),
            joined("a", 1, "ta"),
            event("a", 2, "e2"),
            event("a", 3, "e3"),
            create("b"),
            joined("b", 1, "tb"),
            finish("b", 0),
        ])
        .await
        .unwrap();
    for (id, token) in [("a", "ta"), ("b", "tb")] {
        assert_eq!(
            c.match_id_by_code(format!("INV-{id}"))
                .await
                .unwrap()
                .as_deref(),
            Some(id)
        );
        assert_eq!(
            c.match_id_by_token_hash(token.into())
                .await
                .unwrap()
                .as_deref(),
            Some(id)
        );
    }
    assert_eq!(c.match_id_by_code("INV-c".into()).await.unwrap(), None);
    assert_eq!(c.match_id_by_token_hash("tc".into()).await.unwrap(), None);
    let a = c
        .load_match("a".into())
        .await
        .unwrap()
        .expect("unfinished a");
    assert_eq!((a.id.as_str(), a.invite.as_deref()), ("a", Some("INV-a")));
    assert_eq!(a.events.iter().map(|e| e.v).collect::<Vec<_>>(), [1, 2, 3]);
    let b = c.load_match("b".into()).await.unwrap().expect("finished b");
    assert_eq!(b.events.len(), 1);
    assert_eq!(c.load_match("c".into()).await.unwrap(), None);
    assert_eq!(
        c.events_since("a".into(), 1).await.unwrap(),
        [
            StoredEvent {
                v: 2,
                at_ms: 20,
                body: "e2".into()
            },
            StoredEvent {
                v: 3,
                at_ms: 30,
                body: "e3".into()
            },
        ]
    );
    assert_eq!(c.events_since("a".into(), 3).await.unwrap(), []);
    assert_eq!(c.events_since("c".into(), 0).await.unwrap(), []);
    storage.close().await;
}

#[tokio::test]
async fn an_owned_thing_is_claimed_with_its_state_and_a_stale_owner_cannot_save() {
    let Some((_db, storage, c)) = open("coordination: owned").await else {
        return;
    };
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    let owned = |owner: &NodeRef, epoch, alive| Owned {
        owner: owner.clone(),
        epoch,
        alive,
    };
    let (kind, key) = (|| "channel".to_owned(), || "tv".to_owned());
    assert_eq!(
        c.owner_of(kind(), key()).await.unwrap(),
        None,
        "never claimed"
    );
    assert_eq!(
        c.claim_owned(kind(), key(), a.clone()).await.unwrap(),
        Some(Claimed {
            epoch: 1,
            state: None
        })
    );
    c.save_owned_state(kind(), key(), 1, "ply 7".into())
        .await
        .unwrap();
    assert_eq!(c.claim_owned(kind(), key(), b.clone()).await.unwrap(), None);
    assert_eq!(
        c.owner_of(kind(), key()).await.unwrap(),
        Some(owned(&a, 1, true))
    );
    kill(&c, &a).await;
    assert_eq!(
        c.owner_of(kind(), key()).await.unwrap(),
        Some(owned(&a, 1, false))
    );
    assert_eq!(
        c.claim_owned(kind(), key(), b.clone()).await.unwrap(),
        Some(Claimed {
            epoch: 2,
            state: Some("ply 7".into())
        }),
        "the new owner gets the state the last one saved"
    );
    let stale = c.save_owned_state(kind(), key(), 1, "ply 8".into()).await;
    assert!(
        matches!(&stale, Err(StorageError::Fenced { epoch: 1, .. })),
        "{stale:?}"
    );
    assert_eq!(
        stale.unwrap_err().to_string(),
        "channel tv has moved to another node: epoch 1 is no longer its epoch, nothing was stored"
    );
    c.save_owned_state(kind(), key(), 2, "ply 8".into())
        .await
        .unwrap();
    assert_eq!(
        c.owner_of(kind(), key()).await.unwrap(),
        Some(owned(&b, 2, true))
    );
    // Another key of the same kind is a thing of its own.
    assert_eq!(
        c.claim_owned(kind(), "tv2".into(), a.clone())
            .await
            .unwrap(),
        None,
        "a's lease has run out"
    );
    assert!(c.renew_node(a.clone(), LONG).await.unwrap());
    assert_eq!(
        c.claim_owned(kind(), "tv2".into(), a).await.unwrap(),
        Some(Claimed {
            epoch: 1,
            state: None
        })
    );
    storage.close().await;
}

fn club_record(event: &str, v: u64, round: Option<u32>, epoch: Option<u64>) -> Write {
    Write::ClubEvent(crate::storage::club::EventWrite::Record {
        event_id: event.into(),
        v,
        at_ms: 10 * v as i64,
        body: format!("r{v}"),
        round,
        match_id: None,
        epoch,
    })
}

#[tokio::test]
async fn a_club_event_is_owned_like_a_channel_and_an_older_owners_record_is_fenced() {
    let Some((_db, storage, c)) = open("coordination: club events").await else {
        return;
    };
    let a = c.register_node("a".into(), LONG).await.unwrap();
    let b = c.register_node("b".into(), LONG).await.unwrap();
    let created = |id: &str, at: i64| {
        Write::ClubEvent(crate::storage::club::EventWrite::Create {
            id: id.into(),
            created_ms: at,
            setup: "{}".into(),
        })
    };
    storage
        .commit(vec![created("ev", 1), created("ev2", 2)])
        .await
        .unwrap();
    assert_eq!(
        c.unfinished_events().await.unwrap(),
        [("ev".to_owned(), None), ("ev2".to_owned(), None)],
        "nobody claimed them yet"
    );
    let claimed = c.claim_owned("event".into(), "ev".into(), a.clone()).await;
    assert_eq!(claimed.unwrap().map(|c| c.epoch), Some(1));
    storage
        .commit(vec![club_record("ev", 1, None, Some(1))])
        .await
        .unwrap();
    kill(&c, &a).await;
    assert_eq!(
        c.unfinished_events().await.unwrap()[0],
        (
            "ev".to_owned(),
            Some(Owned {
                owner: a.clone(),
                epoch: 1,
                alive: false
            })
        ),
        "a's lease ran out"
    );
    let claimed = c.claim_owned("event".into(), "ev".into(), b.clone()).await;
    assert_eq!(claimed.unwrap().map(|c| c.epoch), Some(2));
    // a, frozen past its lease, wakes and pairs round 1: refused, nothing stored.
    let stale = storage
        .commit(vec![club_record("ev", 2, Some(1), Some(1))])
        .await;
    assert!(
        matches!(&stale, Err(StorageError::Fenced { epoch: 1, .. })),
        "{stale:?}"
    );
    storage
        .commit(vec![club_record("ev", 2, Some(1), Some(2))])
        .await
        .unwrap();
    let read = storage.club_event("ev".into()).await.unwrap().unwrap();
    let bodies: Vec<&str> = read.records.iter().map(|r| r.body.as_str()).collect();
    assert_eq!(bodies, ["r1", "r2"], "the new owner's round 1, once");
    // A single server fences nothing; a record under an epoch the event never had is refused.
    storage
        .commit(vec![club_record("ev2", 1, None, None)])
        .await
        .unwrap();
    let never = storage
        .commit(vec![club_record("ev2", 2, None, Some(1))])
        .await;
    assert!(
        matches!(&never, Err(StorageError::Fenced { .. })),
        "{never:?}"
    );
    storage
        .commit(vec![Write::ClubEvent(
            crate::storage::club::EventWrite::Finish { id: "ev".into() },
        )])
        .await
        .unwrap();
    assert_eq!(
        c.unfinished_events().await.unwrap(),
        [("ev2".to_owned(), None)],
        "a finished event is nobody's concern"
    );
    storage.close().await;
}

#[tokio::test]
async fn a_store_without_coordination_is_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let (storage, _) = Storage::open(
        &crate::storage::Database::Sqlite(dir.path().join("t.db")),
        None,
    )
    .await
    .unwrap();
    assert!(storage.coordination().is_none());
    storage.close().await;
}

#[tokio::test]
async fn game_ids_are_never_handed_out_twice_and_pass_every_archived_id() {
    let Some((_db, storage, c)) = open("coordination: game ids").await else {
        return;
    };
    use crate::storage::{ChannelWrite, StartedGame};
    assert_eq!(c.reserve_game_id().await.unwrap(), 1, "a fresh database");
    // Many nodes at once.
    let ids = futures_util::future::join_all((0..20).map(|_| c.reserve_game_id())).await;
    let mut ids: Vec<u64> = ids.into_iter().map(Result::unwrap).collect();
    ids.sort_unstable();
    assert_eq!(ids, (2..=21).collect::<Vec<_>>());
    // A single-node run archived games with ids of its own counting.
    storage
        .commit(vec![Write::Channel(ChannelWrite::Started(StartedGame {
            channel: "tv".into(),
            header: boardcast_protocol::GameHeader {
                game_id: 40,
                serial: "S40".into(),
                white: "D".into(),
                black: "K".into(),
            },
            start_board: "board".into(),
            start_ply: 0,
        }))])
        .await
        .unwrap();
    assert_eq!(c.reserve_game_id().await.unwrap(), 41);
    assert_eq!(c.reserve_game_id().await.unwrap(), 42);
    storage.close().await;
}
