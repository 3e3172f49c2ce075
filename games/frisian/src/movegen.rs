//! Legal move generation: the capture search (maximum value, king precedence, ghosts, merged
//! routes) and simple moves. Perft's bulk leaf count is in `count.rs`.

use crate::board::{Bits, DIAGONALS, Dir, ManStep, each_dir, shift};
use crate::jumps::{fast_pext, jump_landings, jumped};
use crate::moves::{MAX_ROUTE, Move, MoveList};
use crate::position::Position;
use crate::types::Square;

/// Capture values of art. 11: any n kings are worth less than 2n men and more than 2n − 1.
pub(crate) const MAN_VALUE: u32 = 100;
pub(crate) const KING_VALUE: u32 = 199;

/// The depth-first capture search of one side; it keeps only moves of the best key so far.
struct Search<'a> {
    list: &'a mut MoveList,
    /// `value * 2 + 1 if a king captures`: higher value wins, and at equal value a king.
    best: u32,
    empty: u64,
    enemy: u64,
    enemy_kings: u64,
    promo: u64,
    king: bool,
    path: [Square; MAX_ROUTE],
    /// When only counting, single captures are counted here instead of listed.
    count_only: bool,
    singles: u64,
}

impl Search<'_> {
    #[inline(always)]
    fn value_of(&self, captured: u64) -> u32 {
        if captured & self.enemy_kings != 0 {
            KING_VALUE
        } else {
            MAN_VALUE
        }
    }

    /// Continues a man's capture from bit `here` to each of `lands`.
    fn man<const PEXT: bool>(
        &mut self,
        here: u32,
        lands: u64,
        len: usize,
        ghosts: u64,
        value: u32,
    ) {
        for land in Bits(lands) {
            let victim = jumped(here, land);
            self.path[len] = Square::from_bit(land);
            let (ghosts, value) = (ghosts | victim, value + self.value_of(victim));
            let there = land.trailing_zeros();
            match jump_landings::<PEXT>(there, self.enemy & !ghosts, self.empty) {
                0 => self.record(land, len + 1, ghosts, value),
                next => self.man::<PEXT>(there, next, len + 1, ghosts, value),
            }
        }
    }

    fn king(&mut self, at: u64, len: usize, ghosts: u64, value: u32) {
        let mut ended = true;
        each_dir(|d| {
            let mut victim = shift(at, d);
            while victim & self.empty != 0 {
                victim = shift(victim, d);
            }
            // Ghosts are neither empty nor capturable: they stop the slide.
            if victim & self.enemy & !ghosts == 0 {
                return;
            }
            let v = value + self.value_of(victim);
            let mut land = shift(victim, d) & self.empty;
            while land != 0 {
                ended = false;
                self.path[len] = Square::from_bit(land);
                self.king(land, len + 1, ghosts | victim, v);
                land = shift(land, d) & self.empty;
            }
        });
        if ended && len > 1 {
            self.record(at, len, ghosts, value);
        }
    }

    fn record(&mut self, at: u64, len: usize, ghosts: u64, value: u32) {
        let key = value * 2 + self.king as u32;
        if key < self.best {
            return;
        }
        if key > self.best {
            self.list.clear();
            self.singles = 0;
            self.best = key;
        }
        // One capture is fixed by its origin and destination (the only piece between them),
        // so it has one route: counting it needs neither the duplicate check nor a `Move`.
        if self.count_only && len == 2 {
            self.singles += 1;
            return;
        }
        let from = self.path[0];
        let to = Square::from_bit(at);
        for m in self.list.iter_mut() {
            if m.captured == ghosts && m.route[0] == from && m.to() == to {
                // The notation writes the smallest route of a move, so keep that one.
                if self.path[..len] < m.route[..len] {
                    m.route = self.path;
                }
                return;
            }
        }
        let promotes = !self.king && at & self.promo != 0;
        self.list.push(Move {
            captured: ghosts,
            route: self.path,
            len: len as u8,
            king: self.king,
            promotes,
        });
    }
}

impl Position {
    /// The two forward diagonals of the side to move's men.
    pub(crate) fn men_dirs(&self) -> [Dir; 2] {
        match self.turn {
            crate::Color::White => [Dir::UpLeft, Dir::UpRight],
            crate::Color::Black => [Dir::DownLeft, Dir::DownRight],
        }
    }

    /// The side to move's men's two steps, for loops over both colours that should not branch
    /// on the colour at each step.
    #[inline(always)]
    pub(crate) fn men_steps(&self) -> [ManStep; 2] {
        self.men_dirs().map(ManStep::along)
    }

    /// The pieces of the side to move that have a capture: a handful of shifts, no search.
    #[inline]
    pub(crate) fn capturers(&self) -> u64 {
        let (us, them) = self.sides();
        let empty = self.empty();
        let men = us & !self.kings;
        let kings = us & self.kings;
        let mut found = 0;
        each_dir(|d| {
            found |= shift(shift(empty, d) & them, d) & men;
        });
        if kings != 0 {
            each_dir(|b| {
                // Squares from which a slide over empties, opposite to `b`, meets a jumpable enemy.
                let mut x = shift(shift(empty, b) & them, b);
                while x != 0 {
                    found |= x & kings;
                    x = shift(x & empty, b);
                }
            });
        }
        found
    }

    /// Whether the side to move has any capture.
    #[inline]
    pub(crate) fn has_capture(&self) -> bool {
        self.capturers() != 0
    }

    /// The king (as a bit) that the three-move rule stops from making simple moves.
    #[inline]
    pub(crate) fn frozen_king(&self) -> u64 {
        let c = self.counters[self.turn.index()];
        if c.count >= 3 {
            Square::from_number_unchecked(c.square).bit() & self.kings
        } else {
            0
        }
    }

    /// Every legal capture, already filtered to the maximum value and king precedence.
    pub(crate) fn gen_captures<const PEXT: bool>(&self, capturers: u64, list: &mut MoveList) {
        self.search_captures::<PEXT>(capturers, list, false);
    }

    /// The capture search from each of `capturers`; with `count_only`, single captures are
    /// not listed but counted, and the count is returned.
    pub(crate) fn search_captures<const PEXT: bool>(
        &self,
        capturers: u64,
        list: &mut MoveList,
        count_only: bool,
    ) -> u64 {
        let (_, them) = self.sides();
        let mut search = Search {
            list,
            best: 0,
            empty: 0,
            enemy: them,
            enemy_kings: them & self.kings,
            promo: self.promo_row(),
            king: false,
            path: [Square::from_number_unchecked(1); MAX_ROUTE],
            count_only,
            singles: 0,
        };
        for piece in Bits(capturers) {
            // The mover's own square counts as empty for the whole move.
            search.empty = self.empty() | piece;
            search.king = piece & self.kings != 0;
            search.path[0] = Square::from_bit(piece);
            if search.king {
                search.king(piece, 1, 0, 0);
            } else {
                let here = piece.trailing_zeros();
                let lands = jump_landings::<PEXT>(here, search.enemy, search.empty);
                search.man::<PEXT>(here, lands, 1, 0, 0);
            }
        }
        search.singles
    }

    fn gen_quiet(&self, list: &mut MoveList) {
        let (us, _) = self.sides();
        let empty = self.empty();
        let men = us & !self.kings;
        let promo = self.promo_row();
        for man_step in self.men_steps() {
            for to in Bits(man_step.ahead(men) & empty) {
                let from = man_step.behind(to);
                list.push(Move::simple(
                    Square::from_bit(from),
                    Square::from_bit(to),
                    false,
                    to & promo != 0,
                ));
            }
        }
        for k in Bits(us & self.kings & !self.frozen_king()) {
            let from = Square::from_bit(k);
            for d in DIAGONALS {
                let mut x = shift(k, d) & empty;
                while x != 0 {
                    list.push(Move::simple(from, Square::from_bit(x), true, false));
                    x = shift(x, d) & empty;
                }
            }
        }
    }

    /// Every legal move of the side to move (draw rules are not consulted).
    ///
    /// The list is built in this function's frame and returned by value, which copies all of
    /// it (16 KiB, whatever its length: one `memcpy` per call; inlining only moves that copy
    /// into the caller). Where that matters, fill a list of your own with
    /// [`Position::legal_moves_into`].
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.legal_moves_into(&mut list);
        list
    }

    /// Fills `list` (cleared first) with the legal moves: for searches that reuse one list.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        if fast_pext() {
            self.legal_moves_with::<true>(list);
        } else {
            self.legal_moves_with::<false>(list);
        }
    }

    /// `legal_moves_into` with the jump primitives chosen (see `jumps`).
    pub(crate) fn legal_moves_with<const PEXT: bool>(&self, list: &mut MoveList) {
        list.clear();
        let capturers = self.capturers();
        if capturers != 0 {
            self.gen_captures::<PEXT>(capturers, list);
        } else {
            self.gen_quiet(list);
        }
    }

    /// As `count_men_continuations`, with the full search: for the rare position with more
    /// long captures than `MenCount` compares.
    #[cold]
    pub(crate) fn search_men_continuations<const PEXT: bool>(&self, starts: u64) -> u64 {
        let them = self.sides().1;
        let empty = self.empty();
        let mut list = MoveList::new();
        let mut search = Search {
            list: &mut list,
            best: 0,
            empty: 0,
            enemy: them,
            enemy_kings: them & self.kings,
            promo: self.promo_row(),
            king: false,
            path: [Square::from_number_unchecked(1); MAX_ROUTE],
            count_only: true,
            singles: 0,
        };
        self.each_first_jump::<PEXT>(starts, |man, first, here| {
            search.empty = empty | man;
            search.path[0] = Square::from_bit(man);
            search.path[1] = Square::from_bit(1 << here);
            let next = jump_landings::<PEXT>(here, them & !first, search.empty);
            search.man::<PEXT>(here, next, 2, first, search.value_of(first));
        });
        list.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use crate::Position;

    /// The routes of the moves from `fen`, as square numbers, sorted.
    fn routes(fen: &str) -> Vec<Vec<u8>> {
        let pos = Position::from_fen(fen).unwrap();
        let mut routes: Vec<Vec<u8>> = pos
            .legal_moves()
            .iter()
            .map(|m| m.route().iter().map(|s| s.number()).collect())
            .collect();
        routes.sort();
        routes
    }

    /// RULES.md §4: of several routes of one move, the one smallest square by square. A king
    /// taking 37 then 19 down the long diagonal may stop on 32, 28 or 23 between them; every
    /// list shows 23, whichever order the search met the routes in.
    #[test]
    fn a_move_of_several_routes_lists_the_smallest_route_square_by_square() {
        assert_eq!(
            routes("W:WK46:B37,19"),
            [vec![46, 23, 5], vec![46, 23, 10], vec![46, 23, 14]]
        );
        // The same capture the other way up: behind 14 the smallest stop is 19, the nearest.
        assert_eq!(
            routes("W:WK5:B14,32"),
            [vec![5, 19, 37], vec![5, 19, 41], vec![5, 19, 46]]
        );
    }
}
