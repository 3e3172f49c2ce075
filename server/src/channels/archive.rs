//! Finished engine games and prediction scores on their way to storage.
//!
//! Channel actors never wait for the disk: they hand each started and finished game to a
//! bounded queue ([`QUEUE`]; a game starts and ends at most every few seconds per channel, so
//! a full queue means the database has been gone for long, and the record is given up, as
//! [`store`] gives one up after a minute) and the
//! [`record`] task turns each into one storage commit through the server's single writer. A
//! started game reserves its archive id (so ids are never reused, even after a restart); a
//! finished one completes the row (serial, engines, seeds, moves, result) and adds each
//! predictor's totals to the leaderboard by display name. Reads go through
//! [`Storage`]'s typed methods.
//!
//! A channel publishes a game's end only once its [`Archiving::stored`] is told that the game
//! and its scores are stored: whoever asks for the leaderboard on hearing the game end then
//! finds that game's scores in it.

use std::time::Duration;

use boardcast_protocol::Standing;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

use crate::ops::shutdown::{Shutdown, TaskGuard};
use crate::storage::{ChannelWrite, Storage, StorageError, Write};
pub(crate) use crate::storage::{FinishedGame, LeaderboardDelta, StartedGame};

/// What a channel hands to the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchiveRecord {
    Started(StartedGame),
    Finished(FinishedGame),
}

/// A record on its way to storage, with whoever waits for it to be stored.
#[derive(Debug)]
pub struct Archiving {
    pub record: ArchiveRecord,
    /// Told once the record is stored, or given up (a dropped sender says the same): the
    /// channel waits for it before it publishes the game's end.
    pub stored: Option<oneshot::Sender<()>>,
}

impl Archiving {
    /// `record`, with nobody waiting for it.
    pub fn unawaited(record: ArchiveRecord) -> Archiving {
        Archiving {
            record,
            stored: None,
        }
    }
}

/// Records waiting for the archive, across all channels.
pub(crate) const QUEUE: usize = 1024;

/// The queue from the channels to [`record`].
pub(crate) fn queue() -> (mpsc::Sender<Archiving>, mpsc::Receiver<Archiving>) {
    mpsc::channel(QUEUE)
}

/// The storage writes for a record.
pub(crate) fn writes(record: &ArchiveRecord) -> Vec<Write> {
    match record {
        ArchiveRecord::Started(game) => vec![Write::Channel(ChannelWrite::Started(game.clone()))],
        ArchiveRecord::Finished(game) => {
            let mut writes = vec![Write::Channel(ChannelWrite::Game(game.clone()))];
            writes.extend(
                by_name(&game.standings)
                    .into_iter()
                    .map(|delta| Write::Channel(ChannelWrite::Score(delta))),
            );
            writes
        }
    }
}

/// Stores every record that arrives, in order, and tells whoever waits for it; until
/// shutdown; then stores what is queued and stops (dropping `guard`, so storage closes only
/// after it).
pub(crate) async fn record(
    storage: Storage,
    mut finished: mpsc::Receiver<Archiving>,
    mut shutdown: Shutdown,
    guard: Option<TaskGuard>,
) {
    loop {
        let game = tokio::select! {
            game = finished.recv() => game,
            _ = shutdown.recv() => None,
        };
        let Some(game) = game else { break };
        archive(&storage, game).await;
    }
    while let Ok(game) = finished.try_recv() {
        archive(&storage, game).await;
    }
    drop(guard);
}

/// Stores `archiving`'s record, then tells whoever waits for it.
async fn archive(storage: &Storage, archiving: Archiving) {
    store(storage, &archiving.record).await;
    if let Some(stored) = archiving.stored {
        // Nobody listening (the channel stopped) is fine: the record is stored.
        let _ = stored.send(());
    }
}

/// How long a record waits for an unavailable database (PostgreSQL restarting) before it is
/// given up, and the longest pause between two tries.
const PATIENCE: Duration = Duration::from_secs(60);
const MAX_PAUSE: Duration = Duration::from_secs(5);

/// Stores `record`; while the database is unavailable, tries again with backoff (no player
/// waits for an archive write, and the games and scores are worth keeping).
async fn store(storage: &Storage, record: &ArchiveRecord) {
    let started = Instant::now();
    let mut pause = Duration::from_millis(250);
    loop {
        match storage.commit(writes(record)).await {
            Ok(()) => return,
            Err(StorageError::Unavailable(_)) if started.elapsed() < PATIENCE => {
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MAX_PAUSE);
            }
            Err(err) => {
                tracing::error!(?record, %err, "engine game not archived");
                return;
            }
        }
    }
}

/// How far apart the channel versions of two server runs start: run `r` numbers every
/// channel's events from `r * RUN_VERSIONS + 1`, so a version is never used twice for one
/// channel id, across restarts and crashes too (2^32 events per channel and run is over a
/// century at the shortest ply interval of on-demand games; JSON stays exact up to 2^21 runs).
pub(crate) const RUN_VERSIONS: u64 = 1 << 32;

/// The standings added up by display name (two "anonymous" connections are one name); each
/// name counts the game once.
pub(crate) fn by_name(standings: &[Standing]) -> Vec<LeaderboardDelta> {
    let mut deltas: Vec<LeaderboardDelta> = Vec::new();
    for standing in standings {
        match deltas.iter_mut().find(|d| d.name == standing.name) {
            Some(delta) => {
                delta.correct += standing.correct;
                delta.strikes += standing.strikes;
            }
            None => deltas.push(LeaderboardDelta {
                name: standing.name.clone(),
                correct: standing.correct,
                strikes: standing.strikes,
            }),
        }
    }
    deltas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_archive_record_waits_for_postgres_to_come_back() {
        use boardcast_protocol::GameHeader;
        use boardcast_testkit::postgres::Cluster;

        let Some(cluster) = Cluster::start_or_skip("archive while PostgreSQL restarts") else {
            return;
        };
        let url = cluster.create_database();
        let (storage, _) = Storage::open(&crate::storage::Database::Postgres(url.to_owned()), None)
            .await
            .unwrap();
        cluster.stop();
        let record = ArchiveRecord::Started(StartedGame {
            channel: "tv1".into(),
            header: GameHeader {
                game_id: 7,
                serial: "S".into(),
                white: "D".into(),
                black: "K".into(),
            },
            start_board: "board".into(),
            start_ply: 0,
        });
        let storing = tokio::spawn({
            let storage = storage.clone();
            async move { store(&storage, &record).await }
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(!storing.is_finished(), "still waiting for the database");
        cluster.start_again().unwrap();
        storing.await.unwrap();
        assert_eq!(
            storage.next_game_id().await.unwrap(),
            8,
            "game 7 is archived"
        );
        storage.close().await;
    }

    #[test]
    fn standings_add_up_by_name() {
        let s = |name: &str, correct, strikes| Standing {
            name: name.into(),
            correct,
            strikes,
        };
        let deltas = by_name(&[s("anonymous", 3, 1), s("ann", 2, 0), s("anonymous", 1, 4)]);
        assert_eq!(
            deltas,
            vec![
                LeaderboardDelta {
                    name: "anonymous".into(),
                    correct: 4,
                    strikes: 5
                },
                LeaderboardDelta {
                    name: "ann".into(),
                    correct: 2,
                    strikes: 0
                },
            ]
        );
    }
}
