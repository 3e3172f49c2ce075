//! The end of the game (§7): no legal move loses, two kings v one king after 14 plies, and the
//! exact three-ply king v king test of art. 21.1.

use std::fmt;

use crate::moves::MoveList;
use crate::position::Position;
use crate::types::Color;

/// Plies of two kings v one king after which the game is drawn (art. 18: 7 moves each).
pub const TWO_KINGS_V_ONE_PLIES: u32 = 14;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecisiveReason {
    /// The loser, to move, has no legal move (art. 20).
    NoLegalMove { loser: Color },
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    KingVsKing,
    TwoKingsVsOneKing,
}

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Decisive {
        winner: Color,
        reason: DecisiveReason,
    },
    Draw {
        reason: DrawReason,
    },
}

/// Why a king v king game goes on (art. 21.1 a–c), for the side `0` to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OngoingNote {
    CanCapture(Color),
    MustAllowCapture(Color),
    CanForceCapture(Color),
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Ongoing { note: Option<OngoingNote> },
    Over(Outcome),
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Decisive { winner, .. } => Some(*winner),
            Outcome::Draw { .. } => None,
        }
    }
}

impl Status {
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Status::Over(o) => Some(*o),
            Status::Ongoing { .. } => None,
        }
    }

    /// `ongoing`, `draw`, `white` or `black` (the winner), as the reference data writes it.
    pub fn result_word(&self) -> &'static str {
        match self {
            Status::Ongoing { .. } => "ongoing",
            Status::Over(Outcome::Draw { .. }) => "draw",
            Status::Over(Outcome::Decisive { winner, .. }) => winner.name(),
        }
    }

    /// The reason as RULES.md §7 words it, if any.
    pub fn reason(&self) -> Option<String> {
        match self {
            Status::Ongoing { note } => note.map(|n| n.to_string()),
            Status::Over(o) => Some(o.to_string()),
        }
    }
}

impl fmt::Display for DecisiveReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecisiveReason::NoLegalMove { loser } => write!(f, "{loser} has no legal move"),
        }
    }
}

impl fmt::Display for DrawReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DrawReason::KingVsKing => "king v king (art. 21)",
            DrawReason::TwoKingsVsOneKing => "two kings v one king, 7 moves (art. 18)",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Decisive { reason, .. } => reason.fmt(f),
            Outcome::Draw { reason } => reason.fmt(f),
        }
    }
}

impl fmt::Display for OngoingNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OngoingNote::CanCapture(c) => write!(f, "king v king, {c} can capture (art. 21a)"),
            OngoingNote::MustAllowCapture(c) => {
                write!(f, "king v king, {c} must allow a capture (art. 21b)")
            }
            OngoingNote::CanForceCapture(c) => {
                write!(f, "king v king, {c} can force a capture (art. 21c)")
            }
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.result_word())?;
        if let Some(reason) = self.reason() {
            write!(f, ": {reason}")?;
        }
        Ok(())
    }
}

impl Position {
    /// The state of the game in this position.
    pub fn status(&self) -> Status {
        self.status_given(self.count_legal() == 0, None)
    }

    /// [`Position::status`] when this position's legal moves are at hand.
    pub(crate) fn status_among(&self, legal: &MoveList) -> Status {
        self.status_given(legal.is_empty(), Some(legal))
    }

    /// The status, given whether the side to move has no legal move and, if at hand, its
    /// legal moves.
    fn status_given(&self, no_move: bool, legal: Option<&MoveList>) -> Status {
        if no_move {
            let loser = self.turn;
            let reason = DecisiveReason::NoLegalMove { loser };
            return Status::Over(Outcome::Decisive {
                winner: loser.opposite(),
                reason,
            });
        }
        let (w, b) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        if !self.is_draw_material() {
            return Status::Ongoing { note: None };
        }
        if w + b == 3 {
            if self.halfmove_clock() >= TWO_KINGS_V_ONE_PLIES {
                return Status::Over(Outcome::Draw {
                    reason: DrawReason::TwoKingsVsOneKing,
                });
            }
            return Status::Ongoing { note: None };
        }
        match self.king_v_king_exception(legal) {
            Some(note) => Status::Ongoing { note: Some(note) },
            None => Status::Over(Outcome::Draw {
                reason: DrawReason::KingVsKing,
            }),
        }
    }

    /// `Some` once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.status().outcome()
    }

    /// Art. 21.1 with X to move: (a) X can capture, (b) every move of X lets the opponent
    /// capture, (c) X has a move that leaves the opponent no capture and every reply lets X
    /// capture. `legal`: X's legal moves, if at hand.
    fn king_v_king_exception(&self, legal: Option<&MoveList>) -> Option<OngoingNote> {
        let x = self.turn;
        if self.has_capture() {
            return Some(OngoingNote::CanCapture(x));
        }
        let mut own = MoveList::new();
        let moves = match legal {
            Some(legal) => legal,
            None => {
                self.legal_moves_into(&mut own);
                &own
            }
        };
        if moves.iter().all(|m| self.play_unchecked(m).has_capture()) {
            return Some(OngoingNote::MustAllowCapture(x));
        }
        let mut replies = MoveList::new();
        let forces = moves.iter().any(|m| {
            let after = self.play_unchecked(m);
            if after.has_capture() {
                return false;
            }
            after.legal_moves_into(&mut replies);
            replies
                .iter()
                .all(|r| after.play_unchecked(r).has_capture())
        });
        forces.then_some(OngoingNote::CanForceCapture(x))
    }
}
