//! The puzzle a bomb shows (RULES.md §6): two different engines with two different seeds,
//! re-rolled until the game lasts past ply 12, then rewound 4–6 plies (one more if M would
//! move first, since its mirror of the previous move would be invisible to the defuser).

use crate::digits::{RandomSource, Serial};
use crate::engine::{Engine, EngineKind};
use crate::game::{EndReason, Game, Outcome};
use crate::square::{Color, Move};

/// The module re-rolls games that end before this ply.
const MIN_END_PLY: u32 = 12;
/// Draws of engines and seeds before falling back to a scan of every pairing, so that a
/// serial on which no pairing qualifies, or a biased random source, cannot loop forever.
const RANDOM_ATTEMPTS: u32 = 500;
/// White kind, black kind (different), white seed, black seed (different).
const PAIRINGS: u32 = 5 * 4 * 10 * 9;

/// A Lousy Chess puzzle: the engines, the rewind point and the game standing at it.
#[derive(Debug, Clone)]
pub struct Puzzle {
    pub serial: Serial,
    pub white: Engine,
    pub black: Engine,
    /// The rewind point: the first ply the defuser has to play.
    pub start_ply: u32,
    /// The game from ply 0, stepped up to `start_ply`; stepping it on gives the solution.
    pub game: Game,
    /// The ply the module's game stopped at: the ply of the last move, or for a side without
    /// moves the ply it could not play.
    pub end_ply: u32,
    /// How the whole game ends.
    pub outcome: Outcome,
}

impl Puzzle {
    /// A puzzle on a random KTANE-style serial.
    pub fn generate(rng: &mut impl RandomSource) -> Puzzle {
        loop {
            let serial = Serial::random(rng);
            if let Some(puzzle) = Puzzle::for_serial(serial, rng) {
                return puzzle;
            }
        }
    }

    /// A puzzle for `serial`, or `None` if no pairing of engines and seeds lasts past ply 12
    /// on it (the module would re-roll forever).
    pub fn for_serial(serial: Serial, rng: &mut impl RandomSource) -> Option<Puzzle> {
        let offset = rng.below(PAIRINGS);
        let random = (0..RANDOM_ATTEMPTS).map(|_| rng.below(PAIRINGS));
        let scan = (0..PAIRINGS).map(|i| (offset + i) % PAIRINGS);
        let (white, black, game) = random.chain(scan).find_map(|index| {
            let (white, black) = pairing(index);
            let mut game = Game::new(serial.as_str(), white, black).ok()?;
            game.run_to_end();
            (end_ply(&game) >= MIN_END_PLY).then_some((white, black, game))
        })?;
        let end_ply = end_ply(&game);
        let mut start_ply = end_ply - (4 + rng.below(3));
        let mover = |ply: u32| match Color::on_ply(ply) {
            Color::White => white,
            Color::Black => black,
        };
        if mover(start_ply).kind == EngineKind::M {
            start_ply -= 1;
        }
        let outcome = game.outcome()?;
        let mut at = Game::new(serial.as_str(), white, black).ok()?;
        for _ in 0..start_ply {
            at.step();
        }
        Some(Puzzle {
            serial,
            white,
            black,
            start_ply,
            game: at,
            end_ply,
            outcome,
        })
    }

    /// The move number the module displays: `start_ply div 2 + 1`.
    pub fn move_number(&self) -> u32 {
        self.start_ply / 2 + 1
    }

    /// The moves the defuser must enter, from the rewind point to the end.
    pub fn solution(&self) -> Vec<Move> {
        let mut game = self.game.clone();
        std::iter::from_fn(|| game.step()).collect()
    }
}

/// Pairing `index` (0..PAIRINGS) as (white, black): kinds and seeds differ by construction.
fn pairing(index: u32) -> (Engine, Engine) {
    let (kinds, seeds) = (index / 90, index % 90);
    let (wk, bk) = (kinds / 4, kinds % 4);
    let (ws, bs) = (seeds / 9, seeds % 9);
    let skip = |other: u32, own: u32| if other >= own { other + 1 } else { other };
    let engine = |kind: u32, seed: u32| Engine {
        kind: EngineKind::ALL[kind as usize],
        seed: seed as u8,
    };
    (engine(wk, ws), engine(skip(bk, wk), skip(bs, ws)))
}

/// The module's ply counter when its game stops.
fn end_ply(game: &Game) -> u32 {
    let played = game.moves().len() as u32;
    match game.outcome().map(|o| o.reason) {
        Some(EndReason::NoLegalMoves) => played,
        _ => played.saturating_sub(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn lcg(seed: u64) -> impl FnMut(u32) -> u32 {
        let mut state = seed;
        move |n| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % n as u64) as u32
        }
    }

    #[test]
    fn pairings_cover_every_distinct_combination_once() {
        let all: HashSet<(Engine, Engine)> = (0..PAIRINGS).map(pairing).collect();
        assert_eq!(all.len(), PAIRINGS as usize);
        assert!(
            all.iter()
                .all(|(w, b)| w.kind != b.kind && w.seed != b.seed)
        );
    }

    #[test]
    fn generated_puzzles_follow_the_module() {
        let mut rng = lcg(7);
        for _ in 0..40 {
            let p = Puzzle::generate(&mut rng);
            assert_ne!(p.white.kind, p.black.kind);
            assert_ne!(p.white.seed, p.black.seed);
            assert!(p.end_ply >= MIN_END_PLY);
            let back = p.end_ply - p.start_ply;
            let m_first = p.game.engine(p.game.side_to_move()).kind == EngineKind::M;
            assert!(!m_first, "M never moves first");
            assert!((4..=7).contains(&back), "rewound {back}");
            assert_eq!(p.game.ply(), p.start_ply);
            assert_eq!(p.game.outcome(), None);
            let solution = p.solution();
            let mut full = Game::new(p.serial.as_str(), p.white, p.black).unwrap();
            full.run_to_end();
            assert_eq!(&full.moves()[p.start_ply as usize..], &solution[..]);
            assert_eq!(full.outcome(), Some(p.outcome));
        }
    }

    #[test]
    fn a_constant_random_source_still_terminates() {
        let serial: Serial = "CH3SS5".parse().unwrap();
        let p = Puzzle::for_serial(serial, &mut |_| 0).unwrap();
        assert!(p.end_ply >= MIN_END_PLY);
    }
}
