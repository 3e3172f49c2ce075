//! The five engines D, K, L, M, S: their goal lists (§5) and how they pick a move (§4).
//!
//! Every goal compares squares exactly the way the module does, quirks included: K measures
//! the moving piece's own distance, S aims pawns along their own file and promoted queens at
//! the point left of a6, and the bishop's side-steps count as moves like any other.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, code};
use crate::movegen::MoveList;
use crate::square::{Color, FILES, Move, Square};

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
    /// `None` if `seed` is not 0..=9.
    pub const fn new(kind: EngineKind, seed: u8) -> Option<Engine> {
        if seed <= 9 {
            Some(Engine { kind, seed })
        } else {
            None
        }
    }

    /// Fills `out` with the goal-filtered candidates for `side` (unsorted): the moves of the
    /// first goal that keeps any of `legal`, or all of `legal`. `last` is the game's
    /// previous move.
    pub fn candidates(
        &self,
        board: &Board,
        side: Color,
        last: Option<Move>,
        legal: &MoveList,
        out: &mut MoveList,
    ) {
        let context = Context::new(board, side, last);
        for goal in self.kind.goals() {
            out.clear();
            for &mv in legal.iter() {
                if goal.keeps(&context, board, mv) {
                    out.push(mv);
                }
            }
            if !out.is_empty() {
                return;
            }
        }
        out.set(legal);
    }

    /// The move at `r mod len` of `list` sorted by move text, ascending if `prev` is even,
    /// descending if odd. `list` must not be empty; its order is changed.
    pub fn pick(list: &mut [Move], r: u8, prev: u8) -> Move {
        let k = r as usize % list.len();
        let index = if prev % 2 == 0 { k } else { list.len() - 1 - k };
        *list.select_nth_unstable_by_key(index, |m| m.text_key()).1
    }
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

/// What the goals need to know about the position, worked out once per ply.
struct Context {
    side: Color,
    /// The enemy king's (file, row); the module's "not found" is the point (−1, 0).
    enemy_king: (i8, i8),
    /// The previous move and the kind (promoted flag dropped) now standing on its destination.
    last: Option<(Move, u8)>,
}

impl Context {
    fn new(board: &Board, side: Color, last: Option<Move>) -> Context {
        Context {
            side,
            enemy_king: board.king(side.opponent()).map_or((-1, 0), coords),
            last: last.map(|m| (m, code::kind(board.cell(m.to.index())))),
        }
    }
}

fn coords(sq: Square) -> (i8, i8) {
    (sq.file() as i8, sq.row() as i8)
}

fn closer(from: Square, to: Square, target: (i8, i8)) -> bool {
    let dist = |(f, r): (i8, i8)| (f - target.0).abs() + (r - target.1).abs();
    dist(coords(to)) < dist(coords(from))
}

/// Where engine S sends the piece on `from` (RULES.md §5).
fn setup_target(piece: u8, from: Square) -> (i8, i8) {
    let white = code::color(piece) == Color::White;
    if piece & code::PROMOTED != 0 {
        return (-1, 0);
    }
    let file = match code::kind(piece) {
        code::PAWN => return (from.file() as i8, if white { 1 } else { 4 }),
        code::KING => 0,
        code::QUEEN => 1,
        code::BISHOP => 2,
        code::KNIGHT => 3,
        _ => 4,
    };
    // Black's start squares are White's mirrored through the centre.
    if white {
        (file, 0)
    } else {
        (FILES as i8 - 1 - file, 5)
    }
}

impl Goal {
    fn keeps(self, context: &Context, board: &Board, mv: Move) -> bool {
        let piece = board.cell(mv.from.index());
        match self {
            Goal::CaptureKing => code::kind(board.cell(mv.to.index())) == code::KING,
            Goal::Squares { from_dark, to_dark } => {
                mv.from.is_dark() == from_dark && mv.to.is_dark() == to_dark
            }
            Goal::CloserToKing => closer(mv.from, mv.to, context.enemy_king),
            Goal::MirrorLastMove => context.last.is_some_and(|(last, kind)| {
                code::kind(piece) == kind
                    && mv.from == last.from.mirror()
                    && mv.to == last.to.mirror()
            }),
            Goal::SameType => context
                .last
                .is_some_and(|(_, kind)| code::kind(piece) == kind),
            Goal::CloserToEnemySetup => {
                debug_assert_eq!(code::color(piece), context.side);
                closer(mv.from, mv.to, setup_target(piece, mv.from))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::digits::{BombNumber, Digits};
    use crate::movegen::legal_moves;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn sorted_candidates(
        engine: Engine,
        board: &Board,
        side: Color,
        last: Option<Move>,
    ) -> Vec<String> {
        let legal = legal_moves(board, side);
        let mut out = MoveList::new();
        engine.candidates(board, side, last, &legal, &mut out);
        let mut v: Vec<String> = out.iter().map(ToString::to_string).collect();
        v.sort();
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
        let legal = legal_moves(&board, Color::White);
        let mut out = MoveList::new();
        engine.candidates(&board, Color::White, None, &legal, &mut out);
        assert_eq!(Engine::pick(out.as_mut_slice(), r, prev), mv("b1-c3"));
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
