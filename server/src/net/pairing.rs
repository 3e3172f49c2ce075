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
