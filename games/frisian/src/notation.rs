//! Move notation (art. 22): `32-28`, `28x19`, and the full landing path `9x18x16` only when
//! two legal captures share origin and destination.

use crate::error::{MoveError, NotationError};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::Square;

/// Writes `mv` as it stands among `legal` (the legal moves of its position).
pub(crate) fn notation_among(legal: &[Move], mv: &Move) -> String {
    let twins = legal
        .iter()
        .filter(|m| m.from() == mv.from() && m.to() == mv.to())
        .count();
    if twins > 1 {
        let canonical = legal.iter().find(|m| *m == mv).unwrap_or(mv);
        full_path(canonical)
    } else {
        let sep = if mv.is_capture() { 'x' } else { '-' };
        let mut out = String::with_capacity(5);
        push_square(&mut out, mv.from());
        out.push(sep);
        push_square(&mut out, mv.to());
        out
    }
}

/// The route written out, `9x18x16` (or `32-28` for a simple move).
pub(crate) fn full_path(mv: &Move) -> String {
    let sep = if mv.is_capture() { 'x' } else { '-' };
    let mut out = String::with_capacity(3 * mv.route().len());
    for (i, &sq) in mv.route().iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        push_square(&mut out, sq);
    }
    out
}

/// Appends the square's number (1 to 50), as its `Display` writes it.
fn push_square(out: &mut String, sq: Square) {
    let n = sq.number();
    if n >= 10 {
        out.push(char::from(b'0' + n / 10));
    }
    out.push(char::from(b'0' + n % 10));
}

impl Position {
    /// The move in notation; the full path is written only when another legal capture has
    /// the same origin and destination (then the smallest route of this move). Generates the
    /// legal moves; to write several moves of one position use [`Position::notation_in`] or
    /// [`Position::legal_moves_with_notation`].
    pub fn notation(&self, mv: Move) -> String {
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        notation_among(&legal, &mv)
    }

    /// [`Position::notation`] among `legal`, this position's legal moves (as
    /// [`Position::legal_moves_into`] fills them), without generating them again.
    pub fn notation_in(&self, mv: Move, legal: &MoveList) -> String {
        notation_among(legal, &mv)
    }

    /// Every legal move with its notation (the legal moves are generated once).
    pub fn legal_moves_with_notation(&self) -> Vec<(Move, String)> {
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        legal
            .iter()
            .map(|m| (*m, notation_among(&legal, m)))
            .collect()
    }

    /// Reads `32-28`, `28x19`, or any full landing path of a legal route.
    pub fn parse_move(&self, notation: &str) -> Result<Move, NotationError> {
        let text = notation.trim();
        if text.is_empty() {
            return Err(NotationError::Empty);
        }
        let syntax = || NotationError::Syntax(text.to_string());
        let sep = if text.contains('x') { 'x' } else { '-' };
        let route = text
            .split(sep)
            .map(|t| t.trim().parse::<u8>().ok().and_then(Square::new))
            .collect::<Option<Vec<Square>>>()
            .ok_or_else(syntax)?;
        if route.len() < 2
            || (sep == '-' && route.len() != 2)
            || route.len() > crate::moves::MAX_ROUTE
        {
            return Err(syntax());
        }
        if route.len() > 2 {
            return Ok(self.move_from_route(&route)?);
        }
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        let mut found = legal
            .iter()
            .filter(|m| m.from() == route[0] && m.to() == route[1]);
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(*m),
            (Some(_), Some(_)) => Err(NotationError::Ambiguous {
                notation: text.to_string(),
                options: legal
                    .iter()
                    .filter(|m| m.from() == route[0] && m.to() == route[1])
                    .map(full_path)
                    .collect(),
            }),
            (None, _) => Err(self.diagnose_among(&legal, &route, sep == 'x').into()),
        }
    }

    /// Resolves a route (origin plus every landing square; a simple move is `[from, to]`) to
    /// the legal move it plays, or says precisely why it is illegal. Like `legal_moves`, it
    /// does not consult the draw rules: `play` refuses moves once the game is over.
    pub fn move_from_route(&self, route: &[Square]) -> Result<Move, MoveError> {
        let mut legal = MoveList::new();
        self.legal_moves_into(&mut legal);
        self.resolve(&legal, route, false)
    }

    /// [`Position::move_from_route`] among `legal`, this position's legal moves (as
    /// [`Position::legal_moves_into`] fills them), without generating them again: parse a
    /// route, write its notation ([`Position::notation_in`]) and play it
    /// ([`Position::play_in`]) with one generation.
    pub fn move_from_route_in(
        &self,
        route: &[Square],
        legal: &MoveList,
    ) -> Result<Move, MoveError> {
        self.resolve(legal, route, false)
    }

    /// `capture` says the route was written as a capture (`28x19`) even if it has one leg.
    pub(crate) fn resolve(
        &self,
        legal: &MoveList,
        route: &[Square],
        capture: bool,
    ) -> Result<Move, MoveError> {
        if route.len() < 2 {
            return Err(MoveError::RouteTooShort);
        }
        let walk = self.walk(route, capture)?;
        let (from, to) = (route[0], route[route.len() - 1]);
        let hit = legal.iter().find(|m| {
            m.from() == from
                && m.to() == to
                && m.captured == walk.captured
                && m.len as usize == route.len()
        });
        match hit {
            Some(m) => {
                let mut mv = *m;
                mv.route[..route.len()].copy_from_slice(route);
                Ok(mv)
            }
            None => Err(self.explain(legal, route, &walk)),
        }
    }

    /// Why `route` is not legal among `legal`, this position's legal moves (`NotLegal` if no
    /// finer reason is found).
    pub(crate) fn diagnose_among(
        &self,
        legal: &MoveList,
        route: &[Square],
        capture: bool,
    ) -> MoveError {
        match self.resolve(legal, route, capture) {
            Ok(_) => MoveError::NotLegal,
            Err(e) => e,
        }
    }
}
