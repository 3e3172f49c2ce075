//! The five engines D, K, L, M, S: their goal lists (§5) and how they pick a move (§4).
//!
//! Every goal compares squares exactly the way the module does, quirks included: K measures
//! the moving piece's own distance, S aims pawns along their own file and promoted queens at
//! the point left of a6, and the bishop's side-steps count as moves like any other.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, code};
use crate::movegen::{self, MoveList, Targets};
use crate::square::{Color, FILES, Move, RANKS, SQUARES, Square};

/// The five engines, by the letter the module displays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Dark squares are lava.
    D,
    /// The king must die.
    K,
    /// Light squares are lava.
    L,
    /// Mirror, mirror.
    M,
    /// Let's switch sides.
    S,
}

impl EngineKind {
    pub const ALL: [EngineKind; 5] = [
        EngineKind::D,
        EngineKind::K,
        EngineKind::L,
        EngineKind::M,
        EngineKind::S,
    ];

    pub const fn letter(self) -> char {
        match self {
            EngineKind::D => 'D',
            EngineKind::K => 'K',
            EngineKind::L => 'L',
            EngineKind::M => 'M',
            EngineKind::S => 'S',
        }
    }

    /// The module's name for the engine.
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::D => "Dark squares are lava",
            EngineKind::K => "The king must die",
            EngineKind::L => "Light squares are lava",
            EngineKind::M => "Mirror, mirror",
            EngineKind::S => "Let's switch sides",
        }
    }

    const fn goals(self) -> &'static [Goal] {
        match self {
            EngineKind::D => &[
                Goal::CaptureKing,
                Goal::Squares {
                    from_dark: true,
                    to_dark: false,
                },
                Goal::Squares {
                    from_dark: false,
                    to_dark: false,
                },
            ],
            EngineKind::L => &[
                Goal::CaptureKing,
                Goal::Squares {
                    from_dark: false,
                    to_dark: true,
                },
                Goal::Squares {
                    from_dark: true,
                    to_dark: true,
                },
            ],
            EngineKind::K => &[Goal::CaptureKing, Goal::CloserToKing],
            EngineKind::M => &[Goal::CaptureKing, Goal::MirrorLastMove, Goal::SameType],
            EngineKind::S => &[Goal::CaptureKing, Goal::CloserToEnemySetup],
        }
    }
}

/// Why an engine such as `L4` could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(
        "invalid engine {0:?}: expected a letter D, K, L, M or S followed by a seed 0-9, like L4"
    )]
    Format(String),
    #[error("unknown engine letter {0:?}: the engines are D, K, L, M and S")]
    UnknownKind(char),
    #[error("invalid seed {0:?}: a seed is a single digit 0-9")]
    Seed(String),
}

impl FromStr for EngineKind {
    type Err = EngineError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => EngineKind::ALL
                .into_iter()
                .find(|k| k.letter() == c)
                .ok_or(EngineError::UnknownKind(c)),
            _ => Err(EngineError::Format(s.to_owned())),
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// An engine with its seed, written like the module's display: `L4`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Engine {
    pub kind: EngineKind,
    /// 0..=9.
    pub seed: u8,
}

impl Engine {
    /// All 50 engines: D0 … D9, K0 … S9.
    pub fn all() -> impl Iterator<Item = Engine> {
        EngineKind::ALL
            .into_iter()
            .flat_map(|kind| (0..=9).map(move |seed| Engine { kind, seed }))
    }

    /// `None` if `seed` is not 0..=9.
    pub const fn new(kind: EngineKind, seed: u8) -> Option<Engine> {
        if seed <= 9 {
            Some(Engine { kind, seed })
        } else {
            None
        }
    }

    /// The goal-filtered candidates for `side`, in ascending move-text order: the moves of
    /// the first goal that keeps any legal move, or every legal move. `last` is the game's
    /// previous move.
    pub fn candidates(&self, board: &Board, side: Color, last: Option<Move>) -> MoveList {
        let legal = movegen::targets(board, side);
        let mut kept = [0; SQUARES];
        self.filter(board, side, last, &legal, &mut kept);
        MoveList::from_sets(&legal.from[..legal.len], &kept[..legal.len])
    }

    /// The move at `r mod len` of `list` sorted by move text, ascending if `prev` is even,
    /// descending if odd: the engines' pick rule on an explicit list. `list` must not be
    /// empty; its order is changed.
    pub fn pick(list: &mut [Move], r: u8, prev: u8) -> Move {
        let k = r as usize % list.len();
        let index = if prev.is_multiple_of(2) {
            k
        } else {
            list.len() - 1 - k
        };
        *list.select_nth_unstable_by_key(index, |m| m.text_key()).1
    }

    /// The move this engine plays for `side` with pick digit `r` and sort digit `prev`
    /// (`candidates` then `pick`, without building the list), or `None` without legal moves.
    pub fn choose(
        &self,
        board: &Board,
        side: Color,
        last: Option<Move>,
        r: u8,
        prev: u8,
    ) -> Option<Move> {
        self.choose_from(board, side, last, &movegen::targets(board, side), r, prev)
    }

    pub(crate) fn choose_from(
        &self,
        board: &Board,
        side: Color,
        last: Option<Move>,
        legal: &Targets,
        r: u8,
        prev: u8,
    ) -> Option<Move> {
        if legal.count == 0 {
            return None;
        }
        let mut kept = [0; SQUARES];
        let count = self.filter(board, side, last, legal, &mut kept);
        let k = u32::from(r) % count;
        let mut index = if prev.is_multiple_of(2) {
            k
        } else {
            count - 1 - k
        };
        // Pieces in square order, each piece's destinations in square order: text order.
        for (&from, &to) in legal.from.iter().zip(&kept[..legal.len]) {
            let n = to.count_ones();
            if index < n {
                return Some(Move {
                    from,
                    to: nth_square(to, index),
                });
            }
            index -= n;
        }
        None
    }

    /// Keeps in `kept` the destinations of the first goal that keeps any (else all of them)
    /// and returns how many moves that is.
    fn filter(
        &self,
        board: &Board,
        side: Color,
        last: Option<Move>,
        legal: &Targets,
        kept: &mut [u32; SQUARES],
    ) -> u32 {
        let context = Context::new(board, side, last);
        for goal in self.kind.goals() {
            let mut count = 0;
            let pieces = legal.from.iter().zip(&legal.to).take(legal.len);
            for (kept, (&from, &to)) in kept.iter_mut().zip(pieces) {
                *kept = goal.keep(&context, board, from, to);
                count += kept.count_ones();
            }
            if count > 0 {
                return count;
            }
        }
        kept[..legal.len].copy_from_slice(&legal.to[..legal.len]);
        legal.count
    }
}

fn nth_square(mut set: u32, n: u32) -> Square {
    for _ in 0..n {
        set &= set - 1;
    }
    Square::from_ord(set.trailing_zeros())
}

impl FromStr for Engine {
    type Err = EngineError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut chars = s.chars();
        let letter = chars
            .next()
            .ok_or_else(|| EngineError::Format(s.to_owned()))?;
        let kind: EngineKind = letter.to_string().parse()?;
        let seed = chars.as_str();
        match seed.as_bytes() {
            [d @ b'0'..=b'9'] => Ok(Engine {
                kind,
                seed: d - b'0',
            }),
            _ => Err(EngineError::Seed(seed.to_owned())),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.kind.letter(), self.seed)
    }
}

#[derive(Debug, Clone, Copy)]
enum Goal {
    CaptureKing,
    Squares { from_dark: bool, to_dark: bool },
    CloserToKing,
    MirrorLastMove,
    SameType,
    CloserToEnemySetup,
}

/// The point just left of a6 (file −1, rank 6): where the module aims when it looks up a
/// square that is not on the board (a promoted queen's start square, a missing king).
const OFF_BOARD: usize = SQUARES;

/// (file, rank − 1) of a square number or of `OFF_BOARD`.
const fn point(n: usize) -> (i8, i8) {
    if n == OFF_BOARD {
        (-1, RANKS as i8 - 1)
    } else {
        ((n / RANKS as usize) as i8, (n % RANKS as usize) as i8)
    }
}

const fn distance(a: (i8, i8), b: (i8, i8)) -> i8 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// `CLOSER[from][target]`: the squares strictly nearer to `target` than `from` is.
static CLOSER: [[u32; SQUARES + 1]; SQUARES] = {
    let mut t = [[0; SQUARES + 1]; SQUARES];
    let mut from = 0;
    while from < SQUARES {
        let mut target = 0;
        while target <= SQUARES {
            let before = distance(point(from), point(target));
            let mut sq = 0;
            while sq < SQUARES {
                if distance(point(sq), point(target)) < before {
                    t[from][target] |= 1 << sq;
                }
                sq += 1;
            }
            target += 1;
        }
        from += 1;
    }
    t
};

static DARK: u32 = {
    let mut set = 0;
    let mut sq = 0;
    while sq < SQUARES {
        if Square::from_ord(sq as u32).is_dark() {
            set |= 1 << sq;
        }
        sq += 1;
    }
    set
};

/// What the goals need to know about the position, worked out once per ply.
struct Context {
    /// The enemy king's square number (the first in board-string order), or `OFF_BOARD`.
    enemy_king: usize,
    /// The previous move and the kind (promoted flag dropped) now standing on its destination.
    last: Option<(Move, u8)>,
}

impl Context {
    fn new(board: &Board, side: Color, last: Option<Move>) -> Context {
        Context {
            enemy_king: board.king(side.opponent()).map_or(OFF_BOARD, Square::ord),
            last: last.map(|m| (m, code::kind(board.cell(m.to)))),
        }
    }
}

/// Where engine S sends the piece on `from` (RULES.md §5), as a square number.
fn setup_target(piece: u8, from: Square) -> usize {
    let white = code::color(piece) == Color::White;
    if piece & code::PROMOTED != 0 {
        return OFF_BOARD;
    }
    let rank_index = |rank: usize| rank - 1;
    let file = match code::kind(piece) {
        code::PAWN => {
            let rank = if white { 5 } else { 2 };
            return from.file() as usize * RANKS as usize + rank_index(rank);
        }
        code::KING => 0,
        code::QUEEN => 1,
        code::BISHOP => 2,
        code::KNIGHT => 3,
        _ => 4,
    };
    // Black's start squares are White's mirrored through the centre.
    if white {
        file * RANKS as usize + rank_index(6)
    } else {
        (FILES as usize - 1 - file) * RANKS as usize + rank_index(1)
    }
}

impl Goal {
    /// The part of `to` (destinations of the piece on `from`) this goal keeps.
    fn keep(self, context: &Context, board: &Board, from: Square, to: u32) -> u32 {
        let piece = board.cell(from);
        match self {
            Goal::CaptureKing => to & board.kings(),
            Goal::Squares { from_dark, to_dark } => {
                if from.is_dark() != from_dark {
                    0
                } else if to_dark {
                    to & DARK
                } else {
                    to & !DARK
                }
            }
            Goal::CloserToKing => to & CLOSER[from.ord()][context.enemy_king],
            Goal::MirrorLastMove => match context.last {
                Some((last, kind)) if code::kind(piece) == kind && from == last.from.mirror() => {
                    to & last.to.mirror().bit()
                }
                _ => 0,
            },
            Goal::SameType => match context.last {
                Some((_, kind)) if code::kind(piece) == kind => to,
                _ => 0,
            },
            Goal::CloserToEnemySetup => to & CLOSER[from.ord()][setup_target(piece, from)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::{BombNumber, Digits};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn sorted_candidates(
        engine: Engine,
        board: &Board,
        side: Color,
        last: Option<Move>,
    ) -> Vec<String> {
        let v: Vec<String> = engine
            .candidates(board, side, last)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(v.is_sorted(), "candidates come in move-text order: {v:?}");
        v
    }

    #[test]
    fn worked_example_l4_plays_b1_c3() {
        let engine: Engine = "L4".parse().unwrap();
        let digits = Digits::new(engine.seed, &BombNumber::from_serial("CH3SS5").unwrap());
        let (prev, r) = (digits.get(0), digits.get(1));
        assert_eq!((prev, r), (4, 7));
        let board = Board::start();
        let list = sorted_candidates(engine, &board, Color::White, None);
        assert_eq!(list, ["a2-a3", "b1-a3", "b1-c3", "c2-c3", "e2-e3"]);
        let mut list = engine.candidates(&board, Color::White, None).to_vec();
        assert_eq!(Engine::pick(&mut list, r, prev), mv("b1-c3"));
        assert_eq!(
            engine.choose(&board, Color::White, None, r, prev),
            Some(mv("b1-c3"))
        );
        assert_eq!(digits.get(2), 5, "White's next r = 7 + 8 → 5");
    }

    #[test]
    fn pick_sorts_descending_on_odd_prev() {
        let mut list = vec![
            mv("a2-a3"),
            mv("e2-e3"),
            mv("b1-c3"),
            mv("b1-a3"),
            mv("c2-c3"),
        ];
        assert_eq!(Engine::pick(&mut list, 0, 1), mv("e2-e3"));
        assert_eq!(Engine::pick(&mut list, 7, 1), mv("b1-c3"));
        assert_eq!(Engine::pick(&mut list, 8, 1), mv("b1-a3"));
        assert_eq!(Engine::pick(&mut list, 9, 0), mv("e2-e3"));
    }

    #[test]
    fn k_counts_the_moving_pieces_own_distance() {
        let b = Board::from_pieces(&[("a6", 'k'), ("e4", 'R'), ("e1", 'K')], &[]);
        let list = sorted_candidates("K0".parse().unwrap(), &b, Color::White, None);
        // The rook is already nearer than the king, yet the king's own approach counts.
        assert_eq!(
            list,
            [
                "e1-d1", "e1-d2", "e1-e2", "e4-a4", "e4-b4", "e4-c4", "e4-d4", "e4-e5", "e4-e6"
            ]
        );
    }

    #[test]
    fn s_aims_pawns_along_their_file_and_promoted_queens_left_of_a6() {
        let s: Engine = "S0".parse().unwrap();
        let b = Board::from_pieces(&[("a6", 'k'), ("a2", 'P'), ("b3", 'p'), ("d1", 'K')], &[]);
        let list = sorted_candidates(s, &b, Color::White, None);
        assert!(list.contains(&"a2-a3".to_string()));
        assert!(
            !list.contains(&"a2-b3".to_string()),
            "a capture leaves the pawn's file"
        );
        let pieces = [("c6", 'k'), ("a2", 'Q'), ("e1", 'K')];
        let promoted = Board::from_pieces(&pieces, &["a2"]);
        let original = Board::from_pieces(&pieces, &[]);
        let p = sorted_candidates(s, &promoted, Color::White, None);
        let o = sorted_candidates(s, &original, Color::White, None);
        assert!(p.contains(&"a2-a3".to_string()) && o.contains(&"a2-a3".to_string()));
        assert!(o.contains(&"a2-b3".to_string()), "b3 is nearer b6");
        assert!(
            !p.contains(&"a2-b3".to_string()),
            "file + row stays the same"
        );
    }

    #[test]
    fn m_mirrors_the_previous_move_then_moves_the_same_type() {
        let mut b = Board::start();
        let last = mv("b1-c3");
        b.apply(last);
        let m: Engine = "M0".parse().unwrap();
        assert_eq!(
            sorted_candidates(m, &b, Color::Black, Some(last)),
            ["d6-c4"]
        );
        let mut b = Board::start();
        let last = mv("a2-a3");
        b.apply(last);
        assert_eq!(
            sorted_candidates(m, &b, Color::Black, Some(last)),
            ["e5-e4"]
        );
        // Without a previous move both goals are empty: every legal move remains.
        assert_eq!(
            sorted_candidates(m, &Board::start(), Color::White, None).len(),
            7
        );
    }

    #[test]
    fn engine_text_round_trips_and_errors_are_precise() {
        for kind in EngineKind::ALL {
            for seed in 0..=9 {
                let e = Engine::new(kind, seed).unwrap();
                assert_eq!(e.to_string().parse::<Engine>(), Ok(e));
            }
        }
        assert_eq!("X4".parse::<Engine>(), Err(EngineError::UnknownKind('X')));
        assert_eq!("l4".parse::<Engine>(), Err(EngineError::UnknownKind('l')));
        assert_eq!("L10".parse::<Engine>(), Err(EngineError::Seed("10".into())));
        assert_eq!("L".parse::<Engine>(), Err(EngineError::Seed(String::new())));
        assert_eq!(
            "".parse::<Engine>(),
            Err(EngineError::Format(String::new()))
        );
        assert_eq!(Engine::new(EngineKind::D, 10), None);
    }
}
