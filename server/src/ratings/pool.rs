//! "Play now": members waiting at a preset time control are paired with a member of close
//! rating, the accepted rating gap widening the longer they wait (lila's pool idea,
//! `modules/pool/MatchMaking.scala`). A pure state machine: it is handed the time and returns
//! the pairings; the shell creates the matches, seats the two and tells them.
//!
//! **The window.** A member who has waited `t` seconds accepts an opponent within
//! `initial_window + widen_per_second × t` rating points, at most `max_window` (defaults: ±100
//! at once, +10 a second, ±500 from 40 s on). Two members fit when the gap is within *both*
//! windows, so a newcomer is never handed someone far away just because that one has waited
//! long (lila takes the smaller of the two "miss bonuses" for the same reason).
//!
//! **A wave** pairs within one preset: members in the order they arrived (the longest waiting
//! chooses first), each taking the closest-rated fitting member still unpaired. The pairing is
//! maximal: after a wave no two waiting members fit (a member who found nobody found nobody
//! because nobody fit, and fitting is symmetric). lila runs a weighted matching over each wave;
//! a club pool is small and comes in a few at a time, so greedy-by-seniority pairs as well and
//! explains itself more easily. A join runs a wave of its preset at once; [`Pool::tick`]
//! (the shell calls it every second or so) runs all of them, as windows have widened.
//!
//! **No rematch by accident.** Two members who just played each other are not paired again
//! while either has another fitting member waiting; only as a last resort, once both have
//! waited [`PoolSettings::repeat_after`], so that two players alone at their level still get a
//! game.
//!
//! A member waits in at most one pool: joining again (any preset) replaces the earlier wait.
//! Each preset's pool holds at most [`PoolSettings::capacity`] members.

use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;
use std::time::{Duration, Instant};

use boardcast_protocol::{ErrorArgs, PoolPreset};

/// The pool's numbers. The defaults are the ones described in the module docs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolSettings {
    /// The rating gap a member accepts the moment they join.
    pub initial_window: u32,
    /// How much the accepted gap grows per second of waiting.
    pub widen_per_second: u32,
    /// The accepted gap never grows beyond this: a 1200 and a 2200 are not paired at all.
    pub max_window: u32,
    /// How long two members who just played each other both wait before they are paired again.
    pub repeat_after: Duration,
    /// At most this many members wait at one preset; more are refused.
    pub capacity: usize,
}

impl Default for PoolSettings {
    fn default() -> Self {
        PoolSettings {
            initial_window: 100,
            widen_per_second: 10,
            max_window: 500,
            repeat_after: Duration::from_secs(15),
            capacity: 10_000,
        }
    }
}

impl PoolSettings {
    /// The rating gap accepted by a member who joined at `joined`, as of `now`.
    pub fn window(&self, joined: Instant, now: Instant) -> u32 {
        let waited = now.saturating_duration_since(joined);
        let widened = u64::from(self.widen_per_second) * waited.as_millis() as u64 / 1000;
        (u64::from(self.initial_window) + widened).min(u64::from(self.max_window)) as u32
    }

    /// Whether two waiting members accept each other's rating as of `now`.
    pub fn fits(&self, a: (i32, Instant), b: (i32, Instant), now: Instant) -> bool {
        let gap = a.0.abs_diff(b.0);
        gap <= self.window(a.1, now) && gap <= self.window(b.1, now)
    }
}

/// A member asking to be paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seeker<K> {
    pub id: K,
    /// The rating pairing goes by (the rounded Glicko-2 rating).
    pub rating: i32,
    /// Whom they played last, if anyone: not to be paired with again while others fit.
    pub last_opponent: Option<K>,
}

/// One side of a pairing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paired<K> {
    pub id: K,
    pub rating: i32,
    /// How long they waited in the pool.
    pub waited: Duration,
}

/// Two members to seat in a new match at `preset`; `first` waited longer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing<K> {
    pub preset: PoolPreset,
    pub first: Paired<K>,
    pub second: Paired<K>,
}

/// Why a member could not join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum JoinError {
    #[error("the {preset} pool is full ({capacity} waiting); try again shortly")]
    Full { preset: PoolPreset, capacity: usize },
}

impl JoinError {
    /// Its reason and arguments (PROTOCOL.md §12.1).
    pub fn args(&self) -> ErrorArgs {
        match self {
            JoinError::Full { preset, capacity } => ErrorArgs::new("pool_full")
                .number("capacity", *capacity as u64)
                .word("preset", preset.to_string()),
        }
    }
}

#[derive(Debug, Clone)]
struct Waiting<K> {
    rating: i32,
    joined: Instant,
    /// The order of arrival, which also breaks ties between equal ratings.
    seq: u64,
    last_opponent: Option<K>,
}

/// The members waiting at one preset, by id, by rating and by arrival.
#[derive(Debug)]
struct Queue<K> {
    members: HashMap<K, Waiting<K>>,
    by_rating: BTreeMap<(i32, u64), K>,
    by_arrival: BTreeMap<u64, K>,
}

impl<K: Clone + Eq + Hash> Queue<K> {
    fn new() -> Self {
        Queue {
            members: HashMap::new(),
            by_rating: BTreeMap::new(),
            by_arrival: BTreeMap::new(),
        }
    }

    fn insert(&mut self, id: K, waiting: Waiting<K>) {
        self.by_rating
            .insert((waiting.rating, waiting.seq), id.clone());
        self.by_arrival.insert(waiting.seq, id.clone());
        self.members.insert(id, waiting);
    }

    fn remove(&mut self, id: &K) -> Option<Waiting<K>> {
        let waiting = self.members.remove(id)?;
        self.by_rating.remove(&(waiting.rating, waiting.seq));
        self.by_arrival.remove(&waiting.seq);
        Some(waiting)
    }
}

/// The play-now pools, one per preset.
#[derive(Debug)]
pub struct Pool<K> {
    settings: PoolSettings,
    queues: Vec<Queue<K>>,
    /// Where each waiting member waits, so a member is never in two pools.
    preset_of: HashMap<K, PoolPreset>,
    next_seq: u64,
}

impl<K: Clone + Eq + Hash> Pool<K> {
    pub fn new(settings: PoolSettings) -> Self {
        Pool {
            settings,
            queues: PoolPreset::ALL.iter().map(|_| Queue::new()).collect(),
            preset_of: HashMap::new(),
            next_seq: 0,
        }
    }

    pub fn settings(&self) -> &PoolSettings {
        &self.settings
    }

    /// Puts `seeker` in the pool of `preset` (out of any pool they waited in) and pairs that
    /// pool at once: the pairings made, which may or may not include the seeker.
    pub fn join(
        &mut self,
        seeker: Seeker<K>,
        preset: PoolPreset,
        now: Instant,
    ) -> Result<Vec<Pairing<K>>, JoinError> {
        let rejoining = self.preset_of.get(&seeker.id) == Some(&preset);
        let queue = &self.queues[preset.index()];
        if !rejoining && queue.members.len() >= self.settings.capacity {
            return Err(JoinError::Full {
                preset,
                capacity: self.settings.capacity,
            });
        }
        self.cancel(&seeker.id);
        let waiting = Waiting {
            rating: seeker.rating,
            joined: now,
            seq: self.next_seq,
            last_opponent: seeker.last_opponent,
        };
        self.next_seq += 1;
        self.queues[preset.index()].insert(seeker.id.clone(), waiting);
        self.preset_of.insert(seeker.id, preset);
        Ok(self.wave(preset, now))
    }

    /// Takes `id` out of whatever pool they wait in; false if they were not waiting.
    pub fn cancel(&mut self, id: &K) -> bool {
        let Some(preset) = self.preset_of.remove(id) else {
            return false;
        };
        self.queues[preset.index()].remove(id).is_some()
    }

    /// Pairs every pool as of `now` (windows have widened since the last wave).
    pub fn tick(&mut self, now: Instant) -> Vec<Pairing<K>> {
        PoolPreset::ALL
            .iter()
            .flat_map(|&preset| self.wave(preset, now))
            .collect()
    }

    /// The preset `id` waits at, if they wait.
    pub fn waiting_at(&self, id: &K) -> Option<PoolPreset> {
        self.preset_of.get(id).copied()
    }

    /// How many members wait at `preset`.
    pub fn waiting(&self, preset: PoolPreset) -> usize {
        self.queues[preset.index()].members.len()
    }

    /// One wave over `preset`'s pool: first without repeat pairings, then, for those left,
    /// repeat pairings of members who both waited long enough.
    fn wave(&mut self, preset: PoolPreset, now: Instant) -> Vec<Pairing<K>> {
        let mut pairings = Vec::new();
        for allow_repeat in [false, true] {
            let arrivals: Vec<K> = self.queues[preset.index()]
                .by_arrival
                .values()
                .cloned()
                .collect();
            for id in arrivals {
                let queue = &self.queues[preset.index()];
                let Some(me) = queue.members.get(&id) else {
                    continue; // paired earlier in this wave
                };
                let Some(partner) = self.closest_fit(queue, &id, me, allow_repeat, now) else {
                    continue;
                };
                let queue = &mut self.queues[preset.index()];
                let (Some(mine), Some(theirs)) = (queue.remove(&id), queue.remove(&partner)) else {
                    unreachable!("both were found waiting in this queue");
                };
                self.preset_of.remove(&id);
                self.preset_of.remove(&partner);
                let paired = |id: K, waiting: &Waiting<K>| Paired {
                    id,
                    rating: waiting.rating,
                    waited: now.saturating_duration_since(waiting.joined),
                };
                let (first, second) = if mine.seq < theirs.seq {
                    (paired(id, &mine), paired(partner, &theirs))
                } else {
                    (paired(partner, &theirs), paired(id, &mine))
                };
                pairings.push(Pairing {
                    preset,
                    first,
                    second,
                });
            }
        }
        pairings
    }

    /// The fitting member closest in rating to `me` (earliest arrival on a tie), looking only
    /// within `me`'s window; a repeat opponent only when `allow_repeat` and both waited long
    /// enough.
    fn closest_fit(
        &self,
        queue: &Queue<K>,
        id: &K,
        me: &Waiting<K>,
        allow_repeat: bool,
        now: Instant,
    ) -> Option<K> {
        let window = self.settings.window(me.joined, now) as i32;
        let low = (me.rating.saturating_sub(window), 0);
        let high = (me.rating.saturating_add(window), u64::MAX);
        let mut best: Option<(u32, u64, &K)> = None;
        for ((rating, seq), other_id) in queue.by_rating.range(low..=high) {
            if other_id == id {
                continue;
            }
            let other = &queue.members[other_id];
            if !self
                .settings
                .fits((me.rating, me.joined), (other.rating, other.joined), now)
            {
                continue;
            }
            let repeat = me.last_opponent.as_ref() == Some(other_id)
                || other.last_opponent.as_ref() == Some(id);
            if repeat {
                let long_enough = |joined: Instant| {
                    now.saturating_duration_since(joined) >= self.settings.repeat_after
                };
                if !allow_repeat || !long_enough(me.joined) || !long_enough(other.joined) {
                    continue;
                }
            }
            let key = (rating.abs_diff(me.rating), *seq);
            if best.is_none_or(|(gap, seq, _)| key < (gap, seq)) {
                best = Some((key.0, key.1, other_id));
            }
        }
        best.map(|(_, _, id)| id.clone())
    }
}

#[cfg(test)]
mod tests;
