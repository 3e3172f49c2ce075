//! "Play now" wired to connections and matches: a member's `play_now` enters the pool task
//! ([`crate::ratings::play_now`]), and each pairing it reports becomes a new rated match at the
//! preset with both members seated at once, each told by a `paired` that answers their
//! `play_now` envelope (then a snapshot, as after `seat`).
//!
//! The pool is keyed by account id; who is waiting where (their connection and envelope) is
//! kept here beside it, so a member who presses again (from any device) replaces the earlier
//! wait, and a connection that closes takes its member out. A pairing whose match cannot be
//! created (storage refuses, the node is full) is answered to both with that refusal: nobody
//! is left believing they wait.
//!
//! **One node's pool.** Each node pools the members connected to it; in a cluster, members on
//! different nodes are not paired with each other (issue 31's report: owning one pool per
//! cluster through the lease machinery is the next step).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use boardcast_protocol::{BySide, ErrorCode, PoolPreset, Side, TimeControl};
use tokio::sync::{Semaphore, mpsc};

use crate::matches::local::Hub;
use crate::matches::{Command, Player, Setup};
use crate::ratings::play_now::{self, Outcome, PlayNowHandle};
use crate::ratings::pool::{Pairing, PoolSettings, Seeker};
use crate::refusal::Refusal;
use crate::room::outbox::{ConnId, Outbox};

/// How many pairings may be seated at once (each is one storage commit); more wait.
const SEATING_AT_ONCE: usize = 64;
/// How many pool reports may wait for the seater.
const OUTCOMES: usize = 1024;
/// The last opponents remembered (so the pool avoids an accidental rematch); beyond this the
/// memory starts again, which only makes an immediate rematch possible once.
const LAST_OPPONENTS: usize = 100_000;

/// The play-now service of this node; cheap to clone.
#[derive(Clone)]
pub(crate) struct PlayNow(Arc<Inner>);

struct Inner {
    pool: PlayNowHandle<i64>,
    state: Mutex<Waiting>,
}

#[derive(Default)]
struct Waiting {
    /// Who waits, by account.
    members: HashMap<i64, Waiter>,
    /// Whom each account was last paired with.
    last_opponent: HashMap<i64, i64>,
}

struct Waiter {
    outbox: Outbox,
    /// The `play_now` envelope the `paired` answers.
    id: u64,
    player: Player,
}

impl PlayNow {
    /// Starts the pool task and the seater that turns its pairings into matches on `hub`.
    pub(crate) fn start(hub: Hub) -> PlayNow {
        let (out, outcomes) = mpsc::channel(OUTCOMES);
        let pool = play_now::spawn(PoolSettings::default(), out);
        let service = PlayNow(Arc::new(Inner {
            pool,
            state: Mutex::default(),
        }));
        tokio::spawn(seat_pairings(service.clone(), hub, outcomes));
        service
    }

    fn state(&self) -> MutexGuard<'_, Waiting> {
        self.0
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Puts `player` (a member, with their rating) in the pool at `preset`; `id` is the
    /// envelope a later `paired` answers.
    pub(crate) fn join(
        &self,
        outbox: &Outbox,
        id: u64,
        player: Player,
        preset: PoolPreset,
    ) -> Result<(), Refusal> {
        let account = player.account.ok_or_else(members_only)?;
        let rating = player.rating.map_or(1500, |r| i32::from(r.rating));
        let mut state = self.state();
        let seeker = Seeker {
            id: account,
            rating,
            last_opponent: state.last_opponent.get(&account).copied(),
        };
        self.0.pool.join(seeker, preset)?;
        state.members.insert(
            account,
            Waiter {
                outbox: outbox.clone(),
                id,
                player,
            },
        );
        Ok(())
    }

    /// Takes `account` out of the pool; with `conn`, only if that connection is the one that
    /// is waiting (a connection that closes does not cancel the member's wait elsewhere).
    pub(crate) fn cancel(&self, account: i64, conn: Option<ConnId>) -> Result<(), Refusal> {
        let mut state = self.state();
        let waits_here = state
            .members
            .get(&account)
            .is_some_and(|w| conn.is_none_or(|conn| w.outbox.id() == conn));
        if waits_here {
            state.members.remove(&account);
            self.0.pool.cancel(account)?;
        }
        Ok(())
    }

    /// The two waiters of `pairing`, taken out of the waiting list; `None` if either has gone
    /// (cancelled after the pool paired them: the other one goes back to the pool).
    fn take_pair(&self, pairing: &Pairing<i64>) -> Option<(Waiter, Waiter)> {
        let mut state = self.state();
        let first = state.members.remove(&pairing.first.id);
        let second = state.members.remove(&pairing.second.id);
        match (first, second) {
            (Some(first), Some(second)) => {
                if state.last_opponent.len() >= LAST_OPPONENTS {
                    state.last_opponent.clear();
                }
                state
                    .last_opponent
                    .insert(pairing.first.id, pairing.second.id);
                state
                    .last_opponent
                    .insert(pairing.second.id, pairing.first.id);
                Some((first, second))
            }
            (one, other) => {
                drop(state);
                if let Some(left) = one.or(other) {
                    let account = left.player.account.unwrap_or_default();
                    // Back into the pool as if pressed again.
                    if let Err(refusal) =
                        self.join(&left.outbox, left.id, left.player, pairing.preset)
                    {
                        left_refused(account, &refusal);
                    }
                }
                None
            }
        }
    }
}

fn left_refused(account: i64, refusal: &Refusal) {
    tracing::warn!(account, %refusal, "a member left alone by a cancelled pairing could not wait again");
}

/// Rated play (a rated match, play now) is between two signed-in members: a guest is refused
/// here, before anything is created.
pub(crate) fn members_only() -> Refusal {
    Refusal::new(
        ErrorCode::MembersOnly,
        "rated games and play now are for signed-in members; a guest plays casual matches",
    )
}

/// Reads the pool's reports: each pairing is seated in a task of its own (at most
/// [`SEATING_AT_ONCE`] at a time, so their storage commits group); a refused join is answered.
async fn seat_pairings(service: PlayNow, hub: Hub, mut outcomes: mpsc::Receiver<Outcome<i64>>) {
    let seating = Arc::new(Semaphore::new(SEATING_AT_ONCE));
    while let Some(outcome) = outcomes.recv().await {
        match outcome {
            Outcome::Paired(pairing) => {
                let Some(pair) = service.take_pair(&pairing) else {
                    continue;
                };
                let Ok(permit) = seating.clone().acquire_owned().await else {
                    return;
                };
                let hub = hub.clone();
                tokio::spawn(async move {
                    seat(&hub, pairing.preset, pair).await;
                    drop(permit);
                });
            }
            Outcome::Refused { id, error } => {
                if let Some(waiter) = service.state().members.remove(&id) {
                    waiter
                        .outbox
                        .refuse(waiter.id, Refusal::new(ErrorCode::Busy, error.to_string()));
                }
            }
        }
    }
}

/// Creates the rated match of one pairing (colours drawn at random) and seats both.
async fn seat(hub: &Hub, preset: PoolPreset, (first, second): (Waiter, Waiter)) {
    let (white, black) = if rand::random::<bool>() {
        (first, second)
    } else {
        (second, first)
    };
    let TimeControl {
        initial_ms,
        increment_ms,
    } = preset.time_control();
    let setup = Setup {
        time_control: Some(TimeControl {
            initial_ms,
            increment_ms,
        }),
        public: true,
        rematch_of: None,
        start_fen: None,
        rated: true,
        rating_range: None,
    };
    let players = [
        (Side::White, white.player.clone()),
        (Side::Black, black.player.clone()),
    ];
    match hub.create_match(setup, &players, true).await {
        Ok((handle, _, _)) => {
            let arrived = handle.try_send(Command::Arrive {
                players: vec![
                    (white.outbox.clone(), Side::White),
                    (black.outbox.clone(), Side::Black),
                ],
                paired: Some((preset, BySide::new(white.id, black.id))),
            });
            if let Err(refusal) = arrived {
                tracing::warn!(%refusal, "a paired match did not take its players");
            }
        }
        Err(refusal) => {
            tracing::warn!(%refusal, "cannot create a paired match");
            white.outbox.refuse(white.id, refusal.clone());
            black.outbox.refuse(black.id, refusal);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use boardcast_protocol::{Encoding, PlayerRating};

    use super::*;
    use crate::matches::actor::Settings;
    use crate::room::outbox::{Inbox, next_conn_id, outbox};
    use crate::storage::Storage;

    fn member(account: i64, rating: u16) -> Player {
        Player {
            name: format!("m{account}"),
            bot: false,
            account: Some(account),
            rating: Some(PlayerRating {
                rating,
                provisional: false,
            }),
        }
    }

    /// Waits until `inbox` has had its `paired` and the snapshot after it: seated.
    async fn seated(inbox: &mut Inbox) -> String {
        let mut paired = None;
        while let Some(message) = inbox.rx.recv().await {
            let axum::extract::ws::Message::Text(text) = message else {
                continue;
            };
            if text.starts_with("{\"paired\"") {
                paired = Some(text.to_string());
            } else if text.starts_with("{\"match_snapshot\"") && paired.is_some() {
                return paired.unwrap_or_default();
            }
        }
        panic!("the connection closed before it was seated");
    }

    struct Bench {
        play_now: PlayNow,
        _dir: tempfile::TempDir,
        _trigger: crate::ops::shutdown::Trigger,
    }

    async fn bench() -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let (storage, _) = Storage::open(
            &crate::storage::Database::Sqlite(dir.path().join("db")),
            None,
        )
        .await
        .unwrap();
        let (trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let settings = Settings {
            grace: Duration::from_secs(60),
            first_move_timeout: Duration::from_secs(600),
            abandon_after: Duration::from_secs(600),
            linger: Duration::from_secs(600),
            max_matches: 10_000,
        };
        let hub = Hub::new(storage, settings, shutdown, tasks);
        Bench {
            play_now: PlayNow::start(hub),
            _dir: dir,
            _trigger: trigger,
        }
    }

    #[tokio::test]
    async fn two_members_of_close_rating_are_seated_together_and_a_cancelled_one_is_not() {
        let bench = bench().await;
        let preset = PoolPreset::ThreePlusTwo;
        let (gone, mut gone_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        bench
            .play_now
            .join(&gone, 7, member(3, 1500), preset)
            .unwrap();
        bench.play_now.cancel(3, Some(gone.id())).unwrap();
        let (a, mut a_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        let (b, mut b_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
        bench.play_now.join(&a, 5, member(1, 1500), preset).unwrap();
        bench.play_now.join(&b, 9, member(2, 1540), preset).unwrap();
        let (a_paired, b_paired) = tokio::join!(seated(&mut a_inbox), seated(&mut b_inbox));
        assert!(a_paired.contains("\"id\":5") && a_paired.contains("\"opponent\":\"m2\""));
        assert!(b_paired.contains("\"id\":9") && b_paired.contains("\"opponent\":\"m1\""));
        assert!(a_paired.contains("\"preset\":\"3+2\""), "{a_paired}");
        assert!(
            gone_inbox.rx.try_recv().is_err(),
            "the cancelled member is told nothing"
        );
        // A guest never waits.
        let guest = Player::person("guest");
        let refused = bench.play_now.join(&a, 11, guest, preset).unwrap_err();
        assert_eq!(refused.code, ErrorCode::MembersOnly);
    }

    /// Pairing latency from `play_now` to both seated (their `paired` and snapshot), with
    /// 1,000 members waiting in the pool who fit nobody, and then a burst of 1,000 members
    /// pressing at once. Run with `cargo test -p boardcast-server --lib --release
    /// pairing_latency -- --ignored --nocapture`; BENCHMARKS.md has the figures.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "a measurement, not a check"]
    async fn pairing_latency() {
        let bench = bench().await;
        let preset = PoolPreset::FivePlusThree;
        let mut keep = Vec::new();
        // 1,000 waiting, 1,000 points apart: nobody fits anybody.
        for i in 0..1000 {
            let (waiter, inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let rating = 10_000 + 1000 * i as u32;
            let mut player = member(i64::from(i) + 1, 0);
            player.rating = None;
            // Ratings beyond u16 go straight to the pool through a rating the pool reads.
            let seeker_rating = rating as i32;
            bench
                .play_now
                .0
                .pool
                .join(
                    Seeker {
                        id: player.account.unwrap(),
                        rating: seeker_rating,
                        last_opponent: None,
                    },
                    preset,
                )
                .unwrap();
            bench.play_now.state().members.insert(
                player.account.unwrap(),
                Waiter {
                    outbox: waiter,
                    id: 1,
                    player,
                },
            );
            keep.push(inbox);
        }
        let mut steady = Vec::new();
        for pair in 0..200i64 {
            let ids = (10_000 + 2 * pair, 10_001 + 2 * pair);
            let (a, mut a_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let (b, mut b_inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let started = Instant::now();
            bench
                .play_now
                .join(&a, 1, member(ids.0, 1500), preset)
                .unwrap();
            bench
                .play_now
                .join(&b, 1, member(ids.1, 1510), preset)
                .unwrap();
            tokio::join!(seated(&mut a_inbox), seated(&mut b_inbox));
            steady.push(started.elapsed());
        }
        report("one pair at a time, 1,000 waiting", &mut steady);

        // A burst: 1,000 members press at once, in close pairs.
        let mut inboxes = Vec::new();
        let started = Instant::now();
        for i in 0..1000i64 {
            let (o, inbox) = outbox(next_conn_id(), Encoding::Json, 64);
            let rating = 1000 + (i / 2) as u16;
            bench
                .play_now
                .join(&o, 1, member(20_000 + i, rating), preset)
                .unwrap();
            inboxes.push(inbox);
        }
        let waits = inboxes.iter_mut().map(|inbox| async move {
            seated(inbox).await;
            started.elapsed()
        });
        let mut burst = futures_util::future::join_all(waits).await;
        report("burst of 1,000 pressing at once", &mut burst);
        drop(keep);
    }

    fn report(what: &str, samples: &mut [Duration]) {
        samples.sort();
        let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize];
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        eprintln!(
            "{what}: {} samples, p50 {:?}, p99 {:?}, max {:?}; load average {}",
            samples.len(),
            at(0.5),
            at(0.99),
            samples[samples.len() - 1],
            load.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
