//! The moves of a match, packed: each ply is kept as its route alone (a byte for its length,
//! then a byte per square), about three bytes a ply against 32 for a `frisian::Move` and over a
//! hundred for a `PlayedMove` with its three heap allocations. Everything else about a move
//! (its notation, captures, promotion, the position after it) follows from its route and the
//! position before it, so it is derived where it is shown: in a snapshot, a replayed event, the
//! PDN. A route is kept as the player gave it, since several routes can make the same capture.

use frisian::{Move, MoveError, MoveList, Position, Square};

/// A match's plies, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Plies {
    /// Per ply: the route's length, then its square numbers.
    routes: Vec<u8>,
    count: usize,
}

/// How long [`Plies`] were, to cut them back to: see [`Plies::truncate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PliesMark {
    bytes: usize,
    count: usize,
}

/// One ply as a walk over the plies meets it.
pub(crate) struct Ply<'a> {
    /// 0 for the first.
    pub index: u32,
    pub before: &'a Position,
    /// The legal moves of `before`.
    pub legal: &'a MoveList,
    pub mv: Move,
}

impl Plies {
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Adds the ply that played `mv`.
    pub(crate) fn push(&mut self, mv: &Move) {
        let route = mv.route();
        self.routes.push(route.len() as u8);
        self.routes.extend(route.iter().map(|sq| sq.number()));
        self.count += 1;
    }

    /// Where the plies end now.
    pub(crate) fn mark(&self) -> PliesMark {
        PliesMark {
            bytes: self.routes.len(),
            count: self.count,
        }
    }

    /// Forgets the plies added since `mark`.
    pub(crate) fn truncate(&mut self, mark: PliesMark) {
        self.routes.truncate(mark.bytes);
        self.count = mark.count;
    }

    /// Keeps the first `count` plies and forgets the rest (a takeback); `false`, changing
    /// nothing, if there are fewer than `count`.
    pub(crate) fn keep_first(&mut self, count: usize) -> bool {
        if count > self.count {
            return false;
        }
        let mut bytes = 0;
        for _ in 0..count {
            bytes += 1 + usize::from(self.routes[bytes]);
        }
        self.truncate(PliesMark { bytes, count });
        true
    }

    /// Plays the plies from `start`, handing each to `visit` with the position before it and
    /// its legal moves; returns the position after the last. A stored route that does not
    /// replay (which `apply` never lets in) stops the walk with the rules' reason.
    pub(crate) fn walk(
        &self,
        start: Position,
        mut visit: impl FnMut(Ply<'_>),
    ) -> Result<Position, MoveError> {
        let mut position = start;
        let mut legal = MoveList::new();
        let mut route = [Square::new(1).expect("a square"); 21];
        let mut bytes = self.routes.iter().copied();
        let mut index = 0;
        while let Some(len) = bytes.next() {
            let len = usize::from(len);
            for (slot, number) in route[..len].iter_mut().zip(&mut bytes) {
                *slot = Square::new(number).ok_or(MoveError::NotLegal)?;
            }
            position.legal_moves_into(&mut legal);
            let mv = position.move_from_route_in(&route[..len], &legal)?;
            visit(Ply {
                index,
                before: &position,
                legal: &legal,
                mv,
            });
            position = position
                .play_in(mv, &legal)
                .map_err(|err| err.error().clone())?;
            index += 1;
        }
        Ok(position)
    }

    /// The moves as the rules see them (for PDN).
    pub(crate) fn moves(&self, start: Position) -> Result<Vec<Move>, MoveError> {
        let mut moves = Vec::with_capacity(self.count);
        self.walk(start, |ply| moves.push(ply.mv))?;
        Ok(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(numbers: &[u8]) -> Vec<Square> {
        numbers.iter().map(|&n| Square::new(n).unwrap()).collect()
    }

    #[test]
    fn plies_give_back_the_moves_and_positions_they_were_made_of() {
        let start = Position::start();
        let mut position = start;
        let mut plies = Plies::default();
        let mut played = Vec::new();
        for numbers in [&[32, 28][..], &[19, 23], &[28, 19], &[14, 23]] {
            let mv = position.move_from_route(&route(numbers)).unwrap();
            plies.push(&mv);
            played.push(mv);
            position = position.play(mv).unwrap();
        }
        assert_eq!(plies.len(), 4);
        assert_eq!(plies.moves(start).unwrap(), played);
        let mut seen = Vec::new();
        let end = plies
            .walk(start, |ply| {
                seen.push((ply.index, ply.before.turn(), ply.mv.route().len()));
                assert_eq!(ply.legal.len(), ply.before.legal_moves().len());
            })
            .unwrap();
        assert_eq!(end, position);
        assert_eq!(
            seen,
            vec![
                (0, frisian::Color::White, 2),
                (1, frisian::Color::Black, 2),
                (2, frisian::Color::White, 2),
                (3, frisian::Color::Black, 2)
            ]
        );
        // Three bytes a ply for these.
        assert_eq!(plies.routes.len(), 12);
    }

    #[test]
    fn truncating_to_a_mark_forgets_the_later_plies() {
        let start = Position::start();
        let mut plies = Plies::default();
        let first = start.move_from_route(&route(&[32, 28])).unwrap();
        plies.push(&first);
        let mark = plies.mark();
        let second = start
            .play(first)
            .unwrap()
            .move_from_route(&route(&[19, 23]))
            .unwrap();
        plies.push(&second);
        plies.truncate(mark);
        assert_eq!(plies.moves(start).unwrap(), vec![first]);
        // Keeping the first plies (a takeback) comes to the same.
        plies.push(&second);
        assert!(!plies.keep_first(3), "there are only two");
        assert!(plies.keep_first(1));
        assert_eq!(
            (plies.mark(), plies.moves(start).unwrap()),
            (mark, vec![first])
        );
    }
}
