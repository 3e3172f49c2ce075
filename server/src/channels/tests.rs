//! Channel actors under tokio's paused clock: whole TV games, reveal timing, watching with
//! replay, prediction scoring and slow watchers, without any socket.

use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{
    ChannelEvent, Encoding, EngineResult, ErrorCode, FrameRef, ServerMessage, Side, StartEngineGame,
};
use minitchess::Game;
use tokio::sync::{mpsc, watch};
use tokio::time::{Instant, sleep, sleep_until};

use super::actor::{self, ChannelHandle, ChannelSetup, Program, Saver};
use super::archive::{self, ArchiveRecord, Archiving, FinishedGame};
use super::game::GameSpec;
use super::game_ids::GameIds;
use super::schedule::{Resume, SavedChannel, WallClock};
use crate::ops::shutdown::{self, Trigger};
use crate::room::outbox::{Inbox, Outbox, outbox};

const INTERVAL: Duration = Duration::from_millis(100);
const PAUSE: Duration = Duration::from_millis(1000);

struct Fixture {
    handle: ChannelHandle,
    archive: mpsc::UnboundedReceiver<ArchiveRecord>,
    _trigger: Trigger,
}

fn tv(seed: u64) -> Fixture {
    spawn(Program::Tv {
        interval: INTERVAL,
        pause: PAUSE,
        seed,
    })
}

fn on_demand(serial: &str, white: &str, black: &str, from: u32) -> Fixture {
    let request = StartEngineGame {
        serial: serial.into(),
        white: white.into(),
        black: black.into(),
        ply_interval_ms: Some(INTERVAL.as_millis() as u64),
        reveal_from_ply: Some(from),
    };
    let spec = GameSpec::from_request(&request, Duration::from_secs(2)).unwrap();
    spawn(Program::OnDemand {
        spec,
        game_id: 42,
        linger: Duration::from_secs(60),
    })
}

fn spawn(program: Program) -> Fixture {
    let (archive_tx, archive) = archive::queue();
    let mut fx = spawn_archiving_to(program, archive_tx);
    fx.archive = instant_archive(archive);
    fx
}

/// An archive that stores at once: every record goes to the returned receiver, and whoever
/// waits for it to be stored is told so.
fn instant_archive(mut queue: mpsc::Receiver<Archiving>) -> mpsc::UnboundedReceiver<ArchiveRecord> {
    let (records, archive) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(archiving) = queue.recv().await {
            let _ = records.send(archiving.record);
            if let Some(stored) = archiving.stored {
                let _ = stored.send(());
            }
        }
    });
    archive
}

/// A channel running `program` whose records go to `archive_tx`, for a test that stores them
/// itself (the fixture's `archive` receives nothing).
fn spawn_archiving_to(program: Program, archive_tx: mpsc::Sender<Archiving>) -> Fixture {
    let (trigger, shutdown) = shutdown::channel();
    let (_, archive) = mpsc::unbounded_channel();
    let handle = actor::spawn(
        ChannelSetup {
            channel: "tv1".into(),
            program,
            replay: 256,
            first_version: 0,
            game_ids: GameIds::local(1),
            archive: archive_tx,
            clock: WallClock::now(),
            saver: None,
            resume: None,
            downstream: None,
            upstream: None,
        },
        shutdown,
    );
    Fixture {
        handle,
        archive,
        _trigger: trigger,
    }
}

/// The next finished game handed to the archive (each game's start record comes first).
async fn finished(archive: &mut mpsc::UnboundedReceiver<ArchiveRecord>) -> FinishedGame {
    let Some(ArchiveRecord::Started(started)) = archive.recv().await else {
        panic!("a game's start is recorded first");
    };
    match archive.recv().await {
        Some(ArchiveRecord::Finished(game)) => {
            assert_eq!(game.header, started.header);
            game
        }
        other => panic!("expected the finished game, got {other:?}"),
    }
}

fn decode(message: Message) -> ServerMessage {
    match message {
        Message::Text(text) => Encoding::Json
            .decode_server(FrameRef::Text(text.as_bytes()))
            .unwrap(),
        Message::Binary(bytes) => Encoding::Postcard
            .decode_server(FrameRef::Binary(&bytes))
            .unwrap(),
        other => panic!("unexpected frame {other:?}"),
    }
}

/// Everything queued for a connection right now.
fn drain(inbox: &mut Inbox) -> Vec<ServerMessage> {
    std::iter::from_fn(|| inbox.rx.try_recv().ok())
        .map(decode)
        .collect()
}

fn conn(id: u64) -> (Outbox, Inbox) {
    outbox(id, Encoding::Json, 1024)
}

/// Lets the actor run everything that is due now.
async fn settle() {
    for _ in 0..10 {
        tokio::task::yield_now().await;
    }
}

fn events(messages: &[ServerMessage]) -> Vec<(u64, ChannelEvent)> {
    messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::ChannelEvent(e) => Some((e.v, e.event.clone())),
            _ => None,
        })
        .collect()
}

#[tokio::test(start_paused = true)]
async fn a_watcher_sees_a_whole_tv_game_as_minitchess_plays_it_and_never_early() {
    let mut fx = tv(7);
    let (watcher, mut inbox) = conn(1);
    fx.handle.watched(watcher, None).await.unwrap();
    let start = Instant::now();
    let first = drain(&mut inbox);
    let ServerMessage::ChannelSnapshot(snapshot) = &first[0] else {
        panic!("a snapshot first: {first:?}");
    };
    let view = snapshot
        .game
        .clone()
        .expect("a TV channel starts a game at once");
    assert!(view.revealed.is_empty());
    assert_eq!(view.next_reveal_in_ms, Some(INTERVAL.as_millis() as u64));
    let white = view.header.white.parse().unwrap();
    let black = view.header.black.parse().unwrap();
    assert_ne!(
        view.header.white.as_bytes()[0],
        view.header.black.as_bytes()[0]
    );
    assert_ne!(
        view.header.white.as_bytes()[1],
        view.header.black.as_bytes()[1]
    );
    let mut reference = Game::new(&view.header.serial, white, black).unwrap();
    reference.run_to_end();
    let expected: Vec<String> = reference.moves().iter().map(|m| m.to_string()).collect();

    let mut seen = Vec::new();
    let mut v = snapshot.v;
    for (index, mv) in expected.iter().enumerate() {
        let reveal_at = start + INTERVAL * (index as u32 + 1);
        // Just before the reveal nothing new has arrived.
        sleep_until(reveal_at - Duration::from_millis(1)).await;
        settle().await;
        assert!(events(&drain(&mut inbox)).is_empty(), "ply {index} early");
        sleep_until(reveal_at).await;
        settle().await;
        for (ev_v, event) in events(&drain(&mut inbox)) {
            assert_eq!(ev_v, v + 1, "versions are gap-free");
            v = ev_v;
            match event {
                ChannelEvent::PlyRevealed(ply) => {
                    assert_eq!(ply.ply as usize, index);
                    assert_eq!(&ply.mv, mv);
                    seen.push(ply.mv);
                }
                ChannelEvent::GameEnded(ended) => {
                    let outcome = reference.outcome().unwrap();
                    assert_eq!(ended.result.reason, outcome.reason.to_string());
                    assert_eq!(ended.next_game_in_ms, Some(PAUSE.as_millis() as u64));
                    assert!(ended.standings.is_empty());
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    assert_eq!(seen, expected);
    let record = finished(&mut fx.archive).await;
    assert_eq!(record.moves, expected);
    assert_eq!(record.header, view.header);

    // Between games the snapshot has no game; after the pause a new one starts.
    let (late, mut late_inbox) = conn(2);
    fx.handle.watched(late, None).await.unwrap();
    let ServerMessage::ChannelSnapshot(between) = &drain(&mut late_inbox)[0] else {
        panic!("snapshot");
    };
    assert!(between.game.is_none());
    assert!(
        between
            .next_game_in_ms
            .is_some_and(|ms| ms <= PAUSE.as_millis() as u64)
    );
    sleep(PAUSE).await;
    settle().await;
    let next = events(&drain(&mut late_inbox));
    assert!(
        matches!(next.as_slice(), [(_, ChannelEvent::GameStarted(g))] if g.header.game_id == 2)
    );
}

#[tokio::test(start_paused = true)]
async fn late_joiners_see_the_same_state_and_since_v_replays_what_was_missed() {
    let fx = on_demand("CH3SS5", "L4", "K7", 0);
    let (early, mut early_inbox) = conn(1);
    fx.handle.watched(early, None).await.unwrap();
    sleep(INTERVAL * 3 + Duration::from_millis(50)).await;
    settle().await;
    let early_messages = drain(&mut early_inbox);
    let early_moves: Vec<String> = events(&early_messages)
        .into_iter()
        .filter_map(|(_, e)| match e {
            ChannelEvent::PlyRevealed(p) => Some(p.mv),
            _ => None,
        })
        .collect();
    assert_eq!(early_moves.len(), 3);
    assert_eq!(early_moves[0], "b1-c3");

    let (late, mut late_inbox) = conn(2);
    fx.handle.watched(late, None).await.unwrap();
    let ServerMessage::ChannelSnapshot(snapshot) = &drain(&mut late_inbox)[0] else {
        panic!("snapshot");
    };
    let game = snapshot.game.as_ref().unwrap();
    assert_eq!(game.revealed, early_moves);
    assert_eq!(snapshot.v, 4, "game started plus three plies");
    assert_eq!(game.next_reveal_in_ms, Some(50));
    assert_eq!(game.header.game_id, 42);

    // A reconnect after v 2 gets events 3 and 4, nothing else.
    let (back, mut back_inbox) = conn(3);
    fx.handle.watched(back, Some(2)).await.unwrap();
    let replayed = events(&drain(&mut back_inbox));
    assert_eq!(replayed.iter().map(|e| e.0).collect::<Vec<_>>(), vec![3, 4]);
    // Unknown future versions get a snapshot.
    let (odd, mut odd_inbox) = conn(4);
    fx.handle.watched(odd, Some(99)).await.unwrap();
    assert!(matches!(
        drain(&mut odd_inbox)[0],
        ServerMessage::ChannelSnapshot(_)
    ));
    assert!(fx.handle.unwatched(4).await.unwrap());
    assert!(!fx.handle.unwatched(4).await.unwrap());
    sleep(Duration::from_secs(1)).await;
    assert_eq!(fx.handle.summary().watchers, 3);
}

#[tokio::test(start_paused = true)]
async fn predictions_are_scored_at_the_reveal_and_late_guesses_refused() {
    let mut fx = on_demand("CH3SS5", "L4", "K7", 0);
    let mut reference = Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
    reference.run_to_end();
    let moves: Vec<String> = reference.moves().iter().map(|m| m.to_string()).collect();
    let (ann, mut ann_inbox) = conn(1);
    let (bob, mut bob_inbox) = conn(2);
    fx.handle.watched(ann.clone(), None).await.unwrap();

    // Ply 0: ann right after changing her mind, bob wrong.
    fx.handle
        .predicted(ann.clone(), local(), "ann", 0, "a2", "a3")
        .await
        .unwrap();
    fx.handle
        .predicted(ann.clone(), local(), "ann", 0, "b1", "c3")
        .await
        .unwrap();
    fx.handle
        .predicted(bob.clone(), local(), "bob", 0, "e2", "e3")
        .await
        .unwrap();
    // A move White cannot make here is refused and not recorded: bob's e2-e3 stands, and
    // cat, who only tried that, gets no verdict and no strike.
    let (cat, mut cat_inbox) = conn(3);
    for (who, name) in [(&bob, "bob"), (&cat, "cat")] {
        let illegal = fx
            .handle
            .predicted(who.clone(), local(), name, 0, "a2", "a4")
            .await;
        let refusal = illegal.unwrap_err();
        assert_eq!(
            (refusal.code, refusal.message.as_str()),
            (
                ErrorCode::IllegalPrediction,
                "a2-a4 is not a legal move for white before ply 0"
            )
        );
    }
    let future = fx
        .handle
        .predicted(bob.clone(), local(), "bob", 1, "a5", "a4")
        .await;
    assert_eq!(future.unwrap_err().code, ErrorCode::PredictionClosed);
    let bad = fx
        .handle
        .predicted(bob.clone(), local(), "bob", 0, "z9", "a4")
        .await;
    assert_eq!(bad.unwrap_err().code, ErrorCode::InvalidArgument);
    sleep(INTERVAL).await;
    settle().await;

    // After the reveal a guess for ply 0 is late.
    let late = fx
        .handle
        .predicted(bob.clone(), local(), "bob", 0, "b1", "c3")
        .await;
    assert_eq!(late.unwrap_err().code, ErrorCode::PredictionClosed);
    let ann_results: Vec<_> = drain(&mut ann_inbox)
        .into_iter()
        .filter_map(|m| match m {
            ServerMessage::PredictionResult(r) => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(ann_results.len(), 1);
    assert!(ann_results[0].correct);
    assert_eq!(ann_results[0].actual, "b1-c3");
    let bob_results = drain(&mut bob_inbox);
    assert!(
        matches!(&bob_results[..], [ServerMessage::PredictionResult(r)] if !r.correct && r.strikes == 1)
    );

    assert!(drain(&mut cat_inbox).is_empty());

    // Ply 1: bob right; then nobody guesses until the end.
    let (from, to) = moves[1].split_once('-').unwrap();
    fx.handle
        .predicted(bob.clone(), local(), "bob", 1, from, to)
        .await
        .unwrap();
    sleep(INTERVAL * 80).await;
    settle().await;
    let ended = events(&drain(&mut ann_inbox))
        .into_iter()
        .find_map(|(_, e)| match e {
            ChannelEvent::GameEnded(ended) => Some(ended),
            _ => None,
        })
        .expect("the game ended");
    let standings: Vec<(String, u32, u32)> = ended
        .standings
        .iter()
        .map(|s| (s.name.clone(), s.correct, s.strikes))
        .collect();
    assert_eq!(standings, vec![("ann".into(), 1, 0), ("bob".into(), 1, 1)]);
    assert_eq!(finished(&mut fx.archive).await.standings, ended.standings);
    let over = fx
        .handle
        .predicted(ann, local(), "ann", moves.len() as u32, "a1", "a2")
        .await;
    assert_eq!(over.unwrap_err().code, ErrorCode::GameOver);
}

#[tokio::test(start_paused = true)]
async fn the_puzzle_point_is_revealed_at_once_and_a_finished_game_lingers_then_closes() {
    let fx = on_demand("CH3SS5", "L4", "K7", 6);
    let (watcher, mut inbox) = conn(1);
    fx.handle.watched(watcher, None).await.unwrap();
    let ServerMessage::ChannelSnapshot(snapshot) = &drain(&mut inbox)[0] else {
        panic!("snapshot");
    };
    let game = snapshot.game.as_ref().unwrap();
    assert_eq!(game.revealed.len(), 6);
    assert_eq!(game.revealed[0], "b1-c3");
    assert_eq!((game.next_ply, game.move_number), (6, 4));
    sleep(INTERVAL * 80).await;
    settle().await;
    assert!(!fx.handle.is_closed(), "a finished game lingers");
    let ServerMessage::ChannelSnapshot(done) = ({
        let (again, mut again_inbox) = conn(2);
        fx.handle.watched(again, None).await.unwrap();
        drain(&mut again_inbox).remove(0)
    }) else {
        panic!("snapshot");
    };
    let mut reference = Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
    reference.run_to_end();
    let outcome = reference.outcome().unwrap();
    assert_eq!(
        done.game.unwrap().result,
        Some(EngineResult {
            winner: outcome.winner.map(Side::from),
            reason: outcome.reason.to_string(),
        })
    );
    sleep(Duration::from_secs(61)).await;
    settle().await;
    assert!(fx.handle.is_closed());
}

/// A game's end is published only once the archive has stored the game and its scores, so a
/// leaderboard asked for on hearing it has them; a database that never answers holds it up
/// for no longer than the patience.
#[tokio::test(start_paused = true)]
async fn a_game_end_is_published_once_its_scores_are_stored() {
    let request = StartEngineGame {
        serial: "CH3SS5".into(),
        white: "L4".into(),
        black: "K7".into(),
        ply_interval_ms: Some(INTERVAL.as_millis() as u64),
        reveal_from_ply: Some(6),
    };
    let spec = GameSpec::from_request(&request, Duration::from_secs(2)).unwrap();
    let (archive_tx, mut archive) = archive::queue();
    let fx = spawn_archiving_to(
        Program::OnDemand {
            spec,
            game_id: 42,
            linger: Duration::from_secs(60),
        },
        archive_tx,
    );
    let (watcher, mut inbox) = conn(1);
    fx.handle.watched(watcher, None).await.unwrap();
    let started = archive.recv().await.expect("the start is recorded");
    assert!(matches!(started.record, ArchiveRecord::Started(_)));
    // The game plays to its end; its record waits in the archive's queue, not yet stored.
    let finishing = archive
        .recv()
        .await
        .expect("the finished game is handed over");
    let ArchiveRecord::Finished(record) = &finishing.record else {
        panic!("the finished game, got {:?}", finishing.record);
    };
    settle().await;
    let before: Vec<_> = events(&drain(&mut inbox));
    assert!(
        before
            .iter()
            .all(|(_, e)| !matches!(e, ChannelEvent::GameEnded(_))),
        "the end is not published before the game is stored: {before:?}"
    );
    assert!(matches!(
        before.last(),
        Some((_, ChannelEvent::PlyRevealed(p))) if p.next_reveal_in_ms.is_none()
    ));
    finishing
        .stored
        .expect("the channel waits for the store")
        .send(())
        .unwrap();
    settle().await;
    let after = events(&drain(&mut inbox));
    let [(_, ChannelEvent::GameEnded(ended))] = after.as_slice() else {
        panic!("the end, once stored: {after:?}");
    };
    assert_eq!(ended.result, record.result);

    // Without word from the archive the end goes out after the patience, not before.
    let (archive_tx, mut archive) = archive::queue();
    let spec = GameSpec::from_request(&request, Duration::from_secs(2)).unwrap();
    let fx = spawn_archiving_to(
        Program::OnDemand {
            spec,
            game_id: 43,
            linger: Duration::from_secs(60),
        },
        archive_tx,
    );
    let (watcher, mut inbox) = conn(2);
    fx.handle.watched(watcher, None).await.unwrap();
    let _started = archive.recv().await;
    let _unanswered = archive.recv().await.expect("the finished game");
    let handed_over = Instant::now();
    let ended = loop {
        sleep(Duration::from_millis(100)).await;
        settle().await;
        let ended = events(&drain(&mut inbox))
            .into_iter()
            .any(|(_, e)| matches!(e, ChannelEvent::GameEnded(_)));
        if ended {
            break Instant::now();
        }
    };
    let waited = ended - handed_over;
    assert!(
        waited >= Duration::from_millis(1900) && waited <= Duration::from_millis(2100),
        "published {waited:?} after the handover"
    );
}

/// The archive's queue is bounded: when it is full (the database far behind) the finished
/// game is given up, and its end goes out with its last ply instead of waiting for a store
/// that will never come.
#[tokio::test(start_paused = true)]
async fn a_full_archive_queue_gives_the_game_up_and_does_not_hold_its_end() {
    let request = StartEngineGame {
        serial: "CH3SS5".into(),
        white: "L4".into(),
        black: "K7".into(),
        ply_interval_ms: Some(INTERVAL.as_millis() as u64),
        reveal_from_ply: Some(6),
    };
    let spec = GameSpec::from_request(&request, Duration::from_secs(2)).unwrap();
    // Room for one record, never read: the game's start fills it.
    let (archive_tx, _full) = mpsc::channel(1);
    let fx = spawn_archiving_to(
        Program::OnDemand {
            spec,
            game_id: 44,
            linger: Duration::from_secs(60),
        },
        archive_tx,
    );
    let (watcher, mut inbox) = conn(1);
    fx.handle.watched(watcher, None).await.unwrap();
    loop {
        sleep(INTERVAL).await;
        settle().await;
        let seen = events(&drain(&mut inbox));
        let last_ply = seen.iter().position(
            |(_, e)| matches!(e, ChannelEvent::PlyRevealed(p) if p.next_reveal_in_ms.is_none()),
        );
        if let Some(at) = last_ply {
            assert!(
                matches!(seen.get(at + 1), Some((_, ChannelEvent::GameEnded(_)))),
                "the end follows the last ply at once: {seen:?}"
            );
            break;
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_watcher_that_does_not_read_is_dropped_and_the_others_are_not_delayed() {
    let fx = tv(3);
    let (slow, _slow_inbox) = outbox(1, Encoding::Postcard, 2);
    let (fast, mut fast_inbox) = outbox(2, Encoding::Postcard, 1024);
    fx.handle.watched(slow, None).await.unwrap();
    fx.handle.watched(fast, None).await.unwrap();
    for n in 1..=5u32 {
        sleep(INTERVAL).await;
        settle().await;
        let revealed = events(&drain(&mut fast_inbox)).len();
        assert!(revealed >= 1, "reveal {n} arrived on time");
    }
    sleep(Duration::from_secs(1)).await;
    settle().await;
    assert_eq!(
        fx.handle.summary().watchers,
        1,
        "the slow watcher was dropped"
    );
}

/// The address every predictor in these tests guesses from.
fn local() -> crate::net::address::ClientAddr {
    crate::net::address::ClientAddr::of([127, 0, 0, 1].into())
}

/// A TV channel that saves its schedule, as a cluster owner does; its saves count as durable
/// once `durable` says so.
struct Saving {
    fx: Fixture,
    latest: watch::Receiver<Option<SavedChannel>>,
    durable: watch::Sender<u64>,
}

fn saving_tv(seed: u64, clock: WallClock, first_game_id: u64, resume: Option<Resume>) -> Saving {
    let (trigger, shutdown) = shutdown::channel();
    let (archive_tx, archive) = archive::queue();
    let archive = instant_archive(archive);
    let (latest_tx, latest) = watch::channel(None);
    let (durable, durable_rx) = watch::channel(u64::MAX);
    let handle = actor::spawn(
        ChannelSetup {
            channel: "tv1".into(),
            program: Program::Tv {
                interval: INTERVAL,
                pause: PAUSE,
                seed,
            },
            replay: 256,
            first_version: 0,
            game_ids: GameIds::local(first_game_id),
            archive: archive_tx,
            clock,
            saver: Some(Saver {
                latest: latest_tx,
                durable: durable_rx,
            }),
            resume,
            downstream: None,
            upstream: None,
        },
        shutdown,
    );
    Saving {
        fx: Fixture {
            handle,
            archive,
            _trigger: trigger,
        },
        latest,
        durable,
    }
}

/// Runs a TV channel beside a reference that is never stopped, stops it `stop_after` into its
/// first game, lets another "node" take it over from the saved schedule `gap` later, and checks
/// that the reconnecting watcher gets exactly the reference's events after the stop, each
/// ply at the same instant as the reference reveals it, until `until`.
async fn take_over_matches_the_reference(stop_after: Duration, gap: Duration, until: Duration) {
    let clock = WallClock::now();
    let start = Instant::now();
    let reference = tv(7);
    let (ref_watcher, mut ref_inbox) = conn(1);
    reference.handle.watched(ref_watcher, None).await.unwrap();
    let stopped = saving_tv(7, clock, 1, None);
    let (watcher, mut inbox) = conn(2);
    stopped.fx.handle.watched(watcher, None).await.unwrap();

    sleep_until(start + stop_after).await;
    settle().await;
    let seen = events(&drain(&mut inbox));
    assert_eq!(
        seen,
        events(&drain(&mut ref_inbox)),
        "a twin until the stop"
    );
    let last_v = seen.last().map_or(0, |(v, _)| *v);
    let saved = stopped
        .latest
        .borrow()
        .clone()
        .expect("the schedule was saved");
    let next_game_id = if saved.start_ms > clock.ms(Instant::now()) {
        3
    } else {
        2
    };
    drop(stopped);

    sleep(gap).await;
    let resume = Resume::from_saved(&saved, start + stop_after, &clock).unwrap();
    let taken = saving_tv(99, clock, next_game_id, Some(resume));
    let (back, mut back_inbox) = conn(3);
    taken.fx.handle.watched(back, Some(last_v)).await.unwrap();
    settle().await;
    assert_eq!(
        events(&drain(&mut back_inbox)),
        events(&drain(&mut ref_inbox)),
        "what was due during the gap arrives at once, and nothing else"
    );
    // Every event is due on the beat (start + k × interval): compare just before and at each.
    let mut revealed = 0;
    let mut beat = start + INTERVAL * (start.elapsed().as_millis() / INTERVAL.as_millis()) as u32;
    while beat < start + until {
        beat += INTERVAL;
        for at in [beat - Duration::from_millis(1), beat] {
            sleep_until(at).await;
            settle().await;
            let expected = events(&drain(&mut ref_inbox));
            revealed += expected.len();
            assert_eq!(
                events(&drain(&mut back_inbox)),
                expected,
                "at {:?}",
                start.elapsed()
            );
        }
    }
    assert!(revealed >= 3, "the comparison saw events ({revealed})");
}

#[tokio::test(start_paused = true)]
async fn a_channel_taken_over_mid_game_reveals_the_same_plies_at_the_same_times() {
    // Stopped after ply 4 was revealed, taken over at once: plies 5… on the same beat.
    take_over_matches_the_reference(INTERVAL * 5 + INTERVAL / 2, Duration::ZERO, INTERVAL * 20)
        .await;
}

#[tokio::test(start_paused = true)]
async fn a_channel_taken_over_late_sends_what_was_due_at_once_then_keeps_the_beat() {
    take_over_matches_the_reference(INTERVAL * 3 + INTERVAL / 4, INTERVAL * 4, INTERVAL * 20).await;
}

#[tokio::test(start_paused = true)]
async fn a_channel_taken_over_in_the_pause_starts_the_game_its_owner_chose_on_time() {
    // Stop in the pause after game 1 and follow game 2.
    let reference = tv(7);
    let (probe, mut probe_inbox) = conn(9);
    reference.handle.watched(probe, None).await.unwrap();
    let ServerMessage::ChannelSnapshot(first) = drain(&mut probe_inbox).remove(0) else {
        panic!("snapshot");
    };
    let header = first.game.unwrap().header;
    let mut plies = Game::new(
        &header.serial,
        header.white.parse().unwrap(),
        header.black.parse().unwrap(),
    )
    .unwrap();
    plies.run_to_end();
    let ended = INTERVAL * plies.moves().len() as u32;
    drop(reference);
    take_over_matches_the_reference(
        ended + PAUSE / 2,
        Duration::ZERO,
        ended + PAUSE + INTERVAL * 6,
    )
    .await;
}

#[tokio::test(start_paused = true)]
async fn a_planned_game_waits_until_its_schedule_is_saved() {
    let saving = saving_tv(7, WallClock::now(), 1, None);
    saving.durable.send_replace(0);
    let (watcher, mut inbox) = conn(1);
    saving.fx.handle.watched(watcher, None).await.unwrap();
    sleep(INTERVAL * 3).await;
    settle().await;
    let ServerMessage::ChannelSnapshot(snapshot) = drain(&mut inbox).remove(0) else {
        panic!("snapshot");
    };
    assert!(snapshot.game.is_none(), "not started before its save");
    let saved = saving.latest.borrow().clone().unwrap();
    assert_eq!((saved.game_id, saved.start_v), (1, 1));
    saving.durable.send_replace(1);
    settle().await;
    // Late, but on its schedule: the plies due meanwhile come at once.
    let got = events(&drain(&mut inbox));
    assert!(
        matches!(got[0], (1, ChannelEvent::GameStarted(_))),
        "{got:?}"
    );
    assert_eq!(
        got.len(),
        4,
        "started, and plies 0..=2 that were due: {got:?}"
    );
}
