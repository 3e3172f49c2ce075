//! `Position`: the board, the side to move and the counters that outlive a move; making moves.

use crate::board::{BOARD, PROMO_BLACK, PROMO_WHITE};
use crate::error::MoveError;
use crate::moves::{Move, MoveList};
use crate::types::{Color, Piece, Square, SquareSet};

/// One side's three-move counter (art. 17); `square == 0` means none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Counter {
    pub(crate) count: u8,
    pub(crate) square: u8,
}

impl Counter {
    pub(crate) const NONE: Counter = Counter {
        count: 0,
        square: 0,
    };
}

/// A validated position: pieces, side to move, three-move counters, draw-rule ply counter (H)
/// and move number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pieces: [u64; 2],
    pub(crate) kings: u64,
    pub(crate) turn: Color,
    pub(crate) counters: [Counter; 2],
    pub(crate) halfmoves: u16,
    pub(crate) fullmove: u16,
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

impl Position {
    /// Black men on 1–20, White men on 31–50, White to move.
    pub fn start() -> Position {
        let set =
            |lo: u8, hi: u8| (lo..=hi).fold(0, |b, n| b | Square::from_number_unchecked(n).bit());
        Position {
            pieces: [set(31, 50), set(1, 20)],
            kings: 0,
            turn: Color::White,
            counters: [Counter::NONE; 2],
            halfmoves: 0,
            fullmove: 1,
        }
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Plies since the draw-rule material of §7 appeared (H in the FEN).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmoves as u32
    }

    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// The effective three-move counter of `color`: how many consecutive simple moves the king
    /// on the returned square has made.
    pub fn king_counter(&self, color: Color) -> Option<(u8, Square)> {
        let c = self.counters[color.index()];
        Square::new(c.square)
            .filter(|_| c.count > 0)
            .map(|sq| (c.count, sq))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let b = sq.bit();
        let king = self.kings & b != 0;
        [Color::White, Color::Black]
            .into_iter()
            .find(|c| self.pieces[c.index()] & b != 0)
            .map(|c| if king { Piece::King(c) } else { Piece::Man(c) })
    }

    /// Squares of `color`'s pieces (men and kings).
    pub fn pieces(&self, color: Color) -> SquareSet {
        SquareSet(self.pieces[color.index()])
    }

    pub fn men(&self, color: Color) -> SquareSet {
        SquareSet(self.pieces[color.index()] & !self.kings)
    }

    pub fn kings(&self, color: Color) -> SquareSet {
        SquareSet(self.pieces[color.index()] & self.kings)
    }

    #[inline(always)]
    pub(crate) fn sides(&self) -> (u64, u64) {
        let t = self.turn.index();
        (self.pieces[t], self.pieces[t ^ 1])
    }

    #[inline(always)]
    pub(crate) fn empty(&self) -> u64 {
        BOARD & !(self.pieces[0] | self.pieces[1])
    }

    #[inline(always)]
    pub(crate) fn promo_row(&self) -> u64 {
        match self.turn {
            Color::White => PROMO_WHITE,
            Color::Black => PROMO_BLACK,
        }
    }

    /// Exactly one king each, or two kings against one, and nothing else: the material the
    /// draw rules of §7 (and H) are about.
    pub(crate) fn is_draw_material(&self) -> bool {
        let all = self.pieces[0] | self.pieces[1];
        let (w, b) = (self.pieces[0].count_ones(), self.pieces[1].count_ones());
        all & !self.kings == 0 && matches!((w, b), (1, 1) | (2, 1) | (1, 2))
    }

    /// Drops every counter that is no longer effective (RULES.md §5 and §6): a side with only
    /// kings is not bound, and a counter follows one king on one square.
    pub(crate) fn normalize_counters(&mut self) {
        for side in 0..2 {
            let c = self.counters[side];
            let own = self.pieces[side];
            let on_square =
                Square::new(c.square).is_some_and(|sq| own & self.kings & sq.bit() != 0);
            if c.count == 0 || own & !self.kings == 0 || !on_square {
                self.counters[side] = Counter::NONE;
            }
        }
    }

    /// Makes a move known to be legal here.
    #[inline]
    pub(crate) fn play_unchecked(&self, mv: &Move) -> Position {
        let mut p = *self;
        let us = self.turn.index();
        let them = us ^ 1;
        let from = mv.from().bit();
        let to = mv.to().bit();
        p.pieces[us] = (p.pieces[us] & !from) | to;
        p.pieces[them] &= !mv.captured;
        if self.kings == 0 {
            // Only men on the board: no counter is set, and no draw-rule material can follow.
            p.kings = if mv.promotes { to } else { 0 };
            p.halfmoves = 0;
        } else {
            p.after_king_move_rules(self, mv, from, to);
        }
        if self.turn == Color::Black {
            p.fullmove = p.fullmove.saturating_add(1);
        }
        p.turn = self.turn.opposite();
        p
    }

    /// Kings, three-move counters and H after `mv` (from `before`), when kings are about.
    fn after_king_move_rules(&mut self, before: &Position, mv: &Move, from: u64, to: u64) {
        let us = before.turn.index();
        let was_king = before.kings & from != 0;
        self.kings &= !(from | mv.captured);
        if was_king || mv.promotes {
            self.kings |= to;
        }
        let has_men = self.pieces[us] & !self.kings != 0;
        if was_king && mv.captured == 0 && has_men {
            let c = &mut self.counters[us];
            if c.square != 0 && c.square != mv.from().number() {
                c.count = 0;
            }
            c.count += 1;
            c.square = mv.to().number();
        } else {
            self.counters[us] = Counter::NONE;
        }
        self.normalize_counters();
        // H counts plies of draw-rule material; the capture or promotion creating it is ply 0.
        let material_changed = mv.captured != 0 || mv.promotes;
        self.halfmoves = if self.is_draw_material() && !material_changed {
            before.halfmoves.saturating_add(1)
        } else {
            0
        };
    }

    /// Plays `mv` if it is legal here and the game is not over; otherwise hands the position
    /// back with the reason. Generates the legal moves once; a caller that already holds them
    /// should use [`Position::play_in`].
    pub fn play(self, mv: Move) -> Result<Position, PlayError> {
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        self.play_in(mv, &legal)
    }

    /// [`Position::play`] against `legal`, this position's legal moves (as
    /// [`Position::legal_moves_into`] fills them), so that they are not generated again.
    pub fn play_in(self, mv: Move, legal: &MoveList) -> Result<Position, PlayError> {
        match self.check_move(&mv, legal) {
            Ok(legal) => Ok(self.play_unchecked(&legal)),
            Err(error) => Err(PlayError {
                position: self,
                error,
            }),
        }
    }

    /// The legal move equal to `mv` (same origin, destination and captured set).
    fn check_move(&self, mv: &Move, legal: &MoveList) -> Result<Move, MoveError> {
        if self.status_among(legal).outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        match legal.iter().find(|m| *m == mv) {
            Some(m) => Ok(*m),
            None => Err(self.diagnose_among(legal, mv.route(), false)),
        }
    }
}

/// `Position::play` refused a move; the position is handed back unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct PlayError {
    pub(crate) position: Position,
    pub(crate) error: MoveError,
}

impl PlayError {
    pub fn into_position(self) -> Position {
        self.position
    }

    pub fn error(&self) -> &MoveError {
        &self.error
    }

    pub fn position(&self) -> &Position {
        &self.position
    }
}
