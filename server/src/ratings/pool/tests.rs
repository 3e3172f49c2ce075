//! The pool against a model of its promises: every pairing within both windows, nobody with
//! themselves or in two pairings at once, no repeat opponent while another fitting member waits,
//! and nobody left waiting beside a fitting partner after a wave.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;

const SECOND: Duration = Duration::from_secs(1);

fn seeker(id: u32, rating: i32, last_opponent: Option<u32>) -> Seeker<u32> {
    Seeker {
        id,
        rating,
        last_opponent,
    }
}

fn ids(pairing: &Pairing<u32>) -> (u32, u32) {
    (pairing.first.id, pairing.second.id)
}

#[derive(Debug, Clone)]
struct Entry {
    preset: PoolPreset,
    rating: i32,
    joined: Instant,
    last_opponent: Option<u32>,
}

/// What the pool should hold, kept by the test from the calls it made and the pairings it got.
struct Model {
    settings: PoolSettings,
    waiting: HashMap<u32, Entry>,
    last_opponent: HashMap<u32, u32>,
    pairings: usize,
}

impl Model {
    fn new(settings: PoolSettings) -> Self {
        Model {
            settings,
            waiting: HashMap::new(),
            last_opponent: HashMap::new(),
            pairings: 0,
        }
    }

    fn repeat(&self, a: u32, b: u32) -> bool {
        self.waiting[&a].last_opponent == Some(b) || self.waiting[&b].last_opponent == Some(a)
    }

    fn fits(&self, a: u32, b: u32, now: Instant) -> bool {
        let (a, b) = (&self.waiting[&a], &self.waiting[&b]);
        let gap = a.rating.abs_diff(b.rating);
        a.preset == b.preset
            && gap <= self.settings.window(a.joined, now)
            && gap <= self.settings.window(b.joined, now)
    }

    fn waited_long_enough(&self, id: u32, now: Instant) -> bool {
        now.duration_since(self.waiting[&id].joined) >= self.settings.repeat_after
    }

    /// A join, as the model sees it; returns what to hand the pool.
    fn join(&mut self, id: u32, preset: PoolPreset, rating: i32, now: Instant) -> Seeker<u32> {
        let last_opponent = self.last_opponent.get(&id).copied();
        self.waiting.insert(
            id,
            Entry {
                preset,
                rating,
                joined: now,
                last_opponent,
            },
        );
        seeker(id, rating, last_opponent)
    }

    /// Checks the pairings one call made at `now`, and after it that `waved` presets are
    /// maximal and the pool holds who the model says.
    fn check(
        &mut self,
        pool: &Pool<u32>,
        pairings: &[Pairing<u32>],
        waved: &[PoolPreset],
        now: Instant,
    ) {
        let paired: Vec<u32> = pairings
            .iter()
            .flat_map(|p| [p.first.id, p.second.id])
            .collect();
        let unique: HashSet<u32> = paired.iter().copied().collect();
        assert_eq!(
            unique.len(),
            paired.len(),
            "someone paired twice at once: {pairings:?}"
        );
        for pairing in pairings {
            let (a, b) = ids(pairing);
            assert_ne!(a, b, "paired with themselves");
            for id in [a, b] {
                let entry = self
                    .waiting
                    .get(&id)
                    .unwrap_or_else(|| panic!("{id} was not waiting"));
                assert_eq!(entry.preset, pairing.preset);
            }
            assert!(
                self.fits(a, b, now),
                "{a} and {b} outside the window: {pairing:?}"
            );
            assert!(
                self.waiting[&a].joined <= self.waiting[&b].joined,
                "first waited longer"
            );
            if self.repeat(a, b) {
                assert!(
                    self.waited_long_enough(a, now) && self.waited_long_enough(b, now),
                    "{a} and {b} paired again before {:?}",
                    self.settings.repeat_after
                );
                for (&other, _) in self.waiting.iter().filter(|(id, _)| !paired.contains(id)) {
                    for me in [a, b] {
                        assert!(
                            other == a
                                || other == b
                                || self.repeat(me, other)
                                || !self.fits(me, other, now),
                            "{a} and {b} paired again while {other}, new to {me}, fit {me}"
                        );
                    }
                }
            }
        }
        for pairing in pairings {
            let (a, b) = ids(pairing);
            self.waiting.remove(&a);
            self.waiting.remove(&b);
            self.last_opponent.insert(a, b);
            self.last_opponent.insert(b, a);
        }
        self.pairings += pairings.len();
        for (&id, entry) in &self.waiting {
            assert_eq!(pool.waiting_at(&id), Some(entry.preset), "{id}'s wait");
        }
        for preset in PoolPreset::ALL {
            let here = self.waiting.values().filter(|e| e.preset == preset).count();
            assert_eq!(pool.waiting(preset), here, "members waiting at {preset}");
        }
        for &preset in waved {
            let left: Vec<u32> = self
                .waiting
                .iter()
                .filter(|(_, e)| e.preset == preset)
                .map(|(&id, _)| id)
                .collect();
            for (i, &a) in left.iter().enumerate() {
                for &b in &left[i + 1..] {
                    let may_pair = !self.repeat(a, b)
                        || (self.waited_long_enough(a, now) && self.waited_long_enough(b, now));
                    assert!(
                        !(self.fits(a, b, now) && may_pair),
                        "{a} and {b} left waiting though they fit"
                    );
                }
            }
        }
    }
}

#[test]
fn the_window_widens_with_waiting_up_to_its_maximum() {
    let settings = PoolSettings::default();
    let t0 = Instant::now();
    assert_eq!(settings.window(t0, t0), 100);
    assert_eq!(settings.window(t0, t0 + SECOND * 15), 250);
    assert_eq!(settings.window(t0, t0 + SECOND * 40), 500);
    assert_eq!(settings.window(t0, t0 + SECOND * 4000), 500);
    // Both windows must hold the gap: the newcomer's is still narrow.
    assert!(!settings.fits((1500, t0), (1750, t0 + SECOND * 30), t0 + SECOND * 30));
    assert!(settings.fits((1500, t0), (1750, t0 + SECOND * 30), t0 + SECOND * 45));
}

#[test]
fn close_ratings_pair_at_once_far_ones_after_waiting() {
    let mut pool = Pool::new(PoolSettings::default());
    let t0 = Instant::now();
    let preset = PoolPreset::FivePlusThree;
    assert!(
        pool.join(seeker(1, 1500, None), preset, t0)
            .unwrap()
            .is_empty()
    );
    assert!(
        pool.join(seeker(2, 1750, None), preset, t0)
            .unwrap()
            .is_empty()
    );
    assert!(pool.tick(t0 + SECOND * 14).is_empty(), "window 240 < 250");
    let pairings = pool.tick(t0 + SECOND * 15);
    assert_eq!(pairings.len(), 1);
    assert_eq!(ids(&pairings[0]), (1, 2));
    assert_eq!(pairings[0].first.waited, SECOND * 15);
    // A close rating pairs at once, with the closer of two.
    let t1 = t0 + SECOND * 20;
    pool.join(seeker(3, 1400, None), preset, t1).unwrap();
    pool.join(seeker(4, 1800, None), preset, t1).unwrap();
    let pairings = pool.join(seeker(5, 1450, None), preset, t1).unwrap();
    assert_eq!(pairings.len(), 1);
    assert_eq!(ids(&pairings[0]), (3, 5));
    assert_eq!(pool.waiting_at(&4), Some(preset));
}

#[test]
fn presets_are_separate_pools_and_a_member_waits_in_one() {
    let mut pool = Pool::new(PoolSettings::default());
    let t0 = Instant::now();
    pool.join(seeker(1, 1500, None), PoolPreset::OnePlusOne, t0)
        .unwrap();
    assert!(
        pool.join(seeker(2, 1500, None), PoolPreset::TenPlusFive, t0)
            .unwrap()
            .is_empty()
    );
    // Joining again moves the member; joining the same preset twice is one wait.
    assert!(
        pool.join(seeker(1, 1500, None), PoolPreset::OnePlusOne, t0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(pool.waiting(PoolPreset::OnePlusOne), 1);
    let pairings = pool
        .join(seeker(1, 1500, None), PoolPreset::TenPlusFive, t0)
        .unwrap();
    assert_eq!(pairings.len(), 1);
    assert_eq!(pairings[0].preset, PoolPreset::TenPlusFive);
    assert_eq!(pool.waiting(PoolPreset::OnePlusOne), 0);
}

#[test]
fn nobody_is_paired_with_themselves() {
    let mut pool = Pool::new(PoolSettings::default());
    let t0 = Instant::now();
    pool.join(seeker(7, 1500, None), PoolPreset::ThreePlusTwo, t0)
        .unwrap();
    pool.join(seeker(7, 1500, None), PoolPreset::ThreePlusTwo, t0)
        .unwrap();
    assert!(pool.tick(t0 + SECOND * 100).is_empty());
    assert_eq!(pool.waiting_at(&7), Some(PoolPreset::ThreePlusTwo));
}

#[test]
fn the_last_opponent_only_when_nobody_else_fits_and_both_waited() {
    let mut pool = Pool::new(PoolSettings::default());
    let t0 = Instant::now();
    let preset = PoolPreset::ThreePlusTwo;
    pool.join(seeker(1, 1500, Some(2)), preset, t0).unwrap();
    pool.join(seeker(2, 1500, Some(1)), preset, t0).unwrap();
    let pairings = pool.join(seeker(3, 1560, None), preset, t0).unwrap();
    assert_eq!(pairings.len(), 1);
    assert_eq!(
        ids(&pairings[0]),
        (1, 3),
        "1 takes 3, not 2 whom it just played"
    );
    // 2 waits alone with 4, whom it just played.
    pool.join(seeker(4, 1500, Some(2)), preset, t0 + SECOND)
        .unwrap();
    assert!(pool.tick(t0 + SECOND * 15).is_empty(), "4 waited only 14 s");
    let pairings = pool.tick(t0 + SECOND * 16);
    assert_eq!(ids(&pairings[0]), (2, 4), "a repeat as a last resort");
}

#[test]
fn cancel_takes_a_member_out() {
    let mut pool = Pool::new(PoolSettings::default());
    let t0 = Instant::now();
    pool.join(seeker(1, 1500, None), PoolPreset::OnePlusOne, t0)
        .unwrap();
    assert!(pool.cancel(&1));
    assert!(!pool.cancel(&1));
    assert!(
        pool.join(seeker(2, 1500, None), PoolPreset::OnePlusOne, t0)
            .unwrap()
            .is_empty()
    );
    assert_eq!(pool.waiting_at(&1), None);
}

#[test]
fn a_full_pool_refuses_newcomers_but_not_a_rejoin() {
    let settings = PoolSettings {
        capacity: 2,
        ..PoolSettings::default()
    };
    let mut pool = Pool::new(settings);
    let t0 = Instant::now();
    let preset = PoolPreset::OnePlusOne;
    pool.join(seeker(1, 1000, None), preset, t0).unwrap();
    pool.join(seeker(2, 2000, None), preset, t0).unwrap();
    assert_eq!(
        pool.join(seeker(3, 3000, None), preset, t0),
        Err(JoinError::Full {
            preset,
            capacity: 2
        })
    );
    assert!(pool.join(seeker(2, 2000, None), preset, t0).is_ok());
    assert!(
        pool.join(seeker(3, 3000, None), PoolPreset::TenPlusFive, t0)
            .is_ok()
    );
}

#[derive(Debug, Clone)]
enum Op {
    Join { id: u32, preset: usize, rating: i32 },
    Cancel { id: u32 },
    Wait { ms: u64 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0u32..14, 0usize..2, 1000i32..1900).prop_map(|(id, preset, rating)| Op::Join { id, preset, rating }),
        1 => (0u32..14).prop_map(|id| Op::Cancel { id }),
        3 => (0u64..12_000).prop_map(|ms| Op::Wait { ms }),
    ]
}

proptest! {
    #[test]
    fn every_pairing_keeps_the_pools_promises(ops in proptest::collection::vec(op(), 1..120)) {
        let settings = PoolSettings::default();
        let mut pool = Pool::new(settings);
        let mut model = Model::new(settings);
        let mut now = Instant::now();
        for op in ops {
            match op {
                Op::Join { id, preset, rating } => {
                    let preset = PoolPreset::ALL[preset];
                    let seeker = model.join(id, preset, rating, now);
                    let pairings = pool.join(seeker, preset, now).unwrap();
                    model.check(&pool, &pairings, &[preset], now);
                }
                Op::Cancel { id } => {
                    prop_assert_eq!(pool.cancel(&id), model.waiting.remove(&id).is_some());
                    model.check(&pool, &[], &[], now);
                }
                Op::Wait { ms } => {
                    now += Duration::from_millis(ms);
                    let pairings = pool.tick(now);
                    model.check(&pool, &pairings, &PoolPreset::ALL, now);
                }
            }
        }
    }
}

/// The scene: 40 members with spread ratings pressing "play now" for 30 s, playing
/// short games and coming back, some cancelling; the pool ticks every 100 ms.
#[test]
fn forty_members_pressing_play_now_for_thirty_seconds() {
    #[derive(Clone, Copy)]
    enum State {
        Idle { until: Instant },
        Waiting,
        Playing { until: Instant },
    }
    let settings = PoolSettings::default();
    let mut pool = Pool::new(settings);
    let mut model = Model::new(settings);
    let mut rng = StdRng::seed_from_u64(31);
    let t0 = Instant::now();
    let rating = |id: u32| 900 + id as i32 * 35;
    let mut states: Vec<State> = (0..40)
        .map(|_| State::Idle {
            until: t0 + Duration::from_millis(rng.random_range(0..3000)),
        })
        .collect();
    let mut waits = Vec::new();
    let step = Duration::from_millis(100);
    let mut now = t0;
    while now < t0 + SECOND * 30 {
        now += step;
        for id in 0..40u32 {
            match states[id as usize] {
                State::Idle { until } | State::Playing { until } if until <= now => {
                    let preset = PoolPreset::ALL[rng.random_range(0..2)];
                    let seeker = model.join(id, preset, rating(id), now);
                    states[id as usize] = State::Waiting;
                    let pairings = pool.join(seeker, preset, now).unwrap();
                    model.check(&pool, &pairings, &[preset], now);
                    for pairing in &pairings {
                        waits.extend([pairing.first.waited, pairing.second.waited]);
                        for id in [pairing.first.id, pairing.second.id] {
                            let game = Duration::from_millis(rng.random_range(2000..8000));
                            states[id as usize] = State::Playing { until: now + game };
                        }
                    }
                }
                State::Waiting if rng.random_ratio(1, 400) => {
                    assert!(pool.cancel(&id));
                    model.waiting.remove(&id);
                    states[id as usize] = State::Idle {
                        until: now + SECOND,
                    };
                }
                _ => {}
            }
        }
        let pairings = pool.tick(now);
        model.check(&pool, &pairings, &PoolPreset::ALL, now);
        for pairing in &pairings {
            waits.extend([pairing.first.waited, pairing.second.waited]);
            for id in [pairing.first.id, pairing.second.id] {
                let game = Duration::from_millis(rng.random_range(2000..8000));
                states[id as usize] = State::Playing { until: now + game };
            }
        }
    }
    assert!(
        model.pairings >= 60,
        "only {} pairings in 30 s",
        model.pairings
    );
    waits.sort();
    assert!(
        waits[waits.len() / 2] <= SECOND * 20,
        "median wait {:?}",
        waits[waits.len() / 2]
    );
}
