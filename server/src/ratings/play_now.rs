//! The task that runs the play-now [`Pool`]: the one writer of the pool, fed through a bounded
//! mailbox, ticking every second so that windows widen, and handing each pairing to whoever
//! seats the two (the match creation) through a bounded channel.
//!
//! Connections never wait on it: [`PlayNowHandle::join`] and [`PlayNowHandle::cancel`] queue
//! without waiting, and a full mailbox is refused as `busy`. The task itself waits for room in
//! the pairing channel, so a slow seater slows pairing down rather than losing a pairing.
//!
//! One task serves one node. Members are keyed by `K` (an account id once accounts exist); a
//! cluster runs the pool on one node at a time (`crate::cluster::pool`).

use std::hash::Hash;
use std::time::Duration;

use boardcast_protocol::{ErrorArgs, ErrorCode, PoolPreset};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior};

use super::pool::{JoinError, Pairing, Pool, PoolSettings, Seeker};
use crate::refusal::Refusal;

/// How many requests may wait for the pool task; more are refused as busy.
pub const MAILBOX: usize = 1024;
/// How often the task pairs every pool again, as windows widen.
pub const TICK: Duration = Duration::from_secs(1);

enum Request<K> {
    Join {
        seeker: Seeker<K>,
        preset: PoolPreset,
    },
    Cancel(K),
}

/// A cheap handle to the play-now task.
#[derive(Debug)]
pub struct PlayNowHandle<K> {
    tx: mpsc::Sender<Request<K>>,
}

impl<K> Clone for PlayNowHandle<K> {
    fn clone(&self) -> Self {
        PlayNowHandle {
            tx: self.tx.clone(),
        }
    }
}

impl<K> std::fmt::Debug for Request<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Join { preset, .. } => write!(f, "Join({preset})"),
            Request::Cancel(_) => write!(f, "Cancel"),
        }
    }
}

impl<K: Send + 'static> PlayNowHandle<K> {
    /// Asks to wait at `preset`; the pairing, when it comes, arrives on the task's pairing
    /// channel. A full pool is refused by the task itself and never reported here: the
    /// member simply stays unpaired (see [`spawn`]).
    pub fn join(&self, seeker: Seeker<K>, preset: PoolPreset) -> Result<(), Refusal> {
        self.queue(Request::Join { seeker, preset })
    }

    /// Stops `id` waiting (nothing happens if they were not waiting).
    pub fn cancel(&self, id: K) -> Result<(), Refusal> {
        self.queue(Request::Cancel(id))
    }

    fn queue(&self, request: Request<K>) -> Result<(), Refusal> {
        self.tx.try_send(request).map_err(|err| match err {
            mpsc::error::TrySendError::Full(_) => Refusal::new(
                ErrorCode::Busy,
                "too many players are pressing play now at once; try again",
            )
            .with(ErrorArgs::new("play_now_busy")),
            mpsc::error::TrySendError::Closed(_) => {
                Refusal::new(ErrorCode::ShuttingDown, "play now has stopped")
                    .with(ErrorArgs::new("play_now_stopped"))
            }
        })
    }
}

/// What the task reports besides pairings: a member it could not put in a pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<K> {
    Paired(Pairing<K>),
    /// The member's preset pool was full; they are not waiting.
    Refused {
        id: K,
        error: JoinError,
    },
}

/// Starts the task: pairings (and refusals) go to `out`, a bounded channel the caller reads.
/// The task ends when every handle is dropped or `out` is closed.
pub fn spawn<K>(settings: PoolSettings, out: mpsc::Sender<Outcome<K>>) -> PlayNowHandle<K>
where
    K: Clone + Eq + Hash + Send + 'static,
{
    let (tx, rx) = mpsc::channel(MAILBOX);
    tokio::spawn(run(Pool::new(settings), rx, out));
    PlayNowHandle { tx }
}

async fn run<K>(
    mut pool: Pool<K>,
    mut rx: mpsc::Receiver<Request<K>>,
    out: mpsc::Sender<Outcome<K>>,
) where
    K: Clone + Eq + Hash + Send + 'static,
{
    let mut tick = tokio::time::interval(TICK);
    // After a stall, one tick catches up: the windows depend on the time, not on tick counts.
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let outcomes: Vec<Outcome<K>> = tokio::select! {
            request = rx.recv() => match request {
                None => return,
                Some(Request::Join { seeker, preset }) => {
                    let id = seeker.id.clone();
                    match pool.join(seeker, preset, Instant::now().into_std()) {
                        Ok(pairings) => pairings.into_iter().map(Outcome::Paired).collect(),
                        Err(error) => vec![Outcome::Refused { id, error }],
                    }
                }
                Some(Request::Cancel(id)) => {
                    pool.cancel(&id);
                    Vec::new()
                }
            },
            _ = tick.tick() => pool
                .tick(Instant::now().into_std())
                .into_iter()
                .map(Outcome::Paired)
                .collect(),
        };
        for outcome in outcomes {
            if out.send(outcome).await.is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeker(id: u32, rating: i32) -> Seeker<u32> {
        Seeker {
            id,
            rating,
            last_opponent: None,
        }
    }

    async fn next(rx: &mut mpsc::Receiver<Outcome<u32>>) -> Outcome<u32> {
        rx.recv().await.expect("the task runs")
    }

    #[tokio::test(start_paused = true)]
    async fn close_members_pair_at_once_far_ones_once_the_windows_have_widened() {
        let (out, mut rx) = mpsc::channel(16);
        let handle = spawn(PoolSettings::default(), out);
        let preset = PoolPreset::FivePlusThree;
        handle.join(seeker(1, 1500), preset).unwrap();
        handle.join(seeker(2, 1560), preset).unwrap();
        let Outcome::Paired(pairing) = next(&mut rx).await else {
            panic!("paired expected");
        };
        assert_eq!((pairing.first.id, pairing.second.id), (1, 2));
        assert_eq!(pairing.first.waited, Duration::ZERO);

        let start = Instant::now();
        handle.join(seeker(3, 1500), preset).unwrap();
        handle.join(seeker(4, 1800), preset).unwrap();
        let Outcome::Paired(pairing) = next(&mut rx).await else {
            panic!("paired expected");
        };
        assert_eq!((pairing.first.id, pairing.second.id), (3, 4));
        // ±100 + 10 a second reaches 300 after 20 s; the task ticks every second.
        let waited = start.elapsed();
        assert!(
            waited >= Duration::from_secs(20) && waited <= Duration::from_secs(21),
            "{waited:?}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_cancelled_member_is_never_paired() {
        let (out, mut rx) = mpsc::channel(16);
        let handle = spawn(PoolSettings::default(), out);
        handle
            .join(seeker(1, 1500), PoolPreset::OnePlusOne)
            .unwrap();
        handle.cancel(1).unwrap();
        handle
            .join(seeker(2, 1500), PoolPreset::OnePlusOne)
            .unwrap();
        handle
            .join(seeker(3, 1520), PoolPreset::OnePlusOne)
            .unwrap();
        let Outcome::Paired(pairing) = next(&mut rx).await else {
            panic!("paired expected");
        };
        assert_eq!((pairing.first.id, pairing.second.id), (2, 3));
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_pool_is_reported_and_a_full_mailbox_refused_as_busy() {
        let (out, mut rx) = mpsc::channel(16);
        let settings = PoolSettings {
            capacity: 1,
            ..PoolSettings::default()
        };
        let handle = spawn(settings, out);
        handle
            .join(seeker(1, 1000), PoolPreset::OnePlusOne)
            .unwrap();
        handle
            .join(seeker(2, 2000), PoolPreset::OnePlusOne)
            .unwrap();
        assert_eq!(
            next(&mut rx).await,
            Outcome::Refused {
                id: 2,
                error: JoinError::Full {
                    preset: PoolPreset::OnePlusOne,
                    capacity: 1
                }
            }
        );
        // The task cannot run between these synchronous calls: the mailbox fills.
        let refused = (0..=MAILBOX as u32)
            .map(|id| handle.cancel(id))
            .find_map(Result::err)
            .expect("a full mailbox refuses");
        assert_eq!(refused.code, ErrorCode::Busy);
    }
}
