//! The bulk leaf count of perft: the number of legal moves of a position without building the
//! simple ones, and perft 2 of a position without captures without making its moves.

use crate::board::{Bits, DIAGONALS, ManStep, back, each_dir, shift};
use crate::jumps::{fast_pext, jump_landings, jumped, jumpers_onto, jumps_over};
use crate::movegen::{KING_VALUE, MAN_VALUE};
use crate::moves::MoveList;
use crate::position::Position;

/// How many captures of two or more pieces, of the best value, men have: counted without
/// building moves (perft's last ply), once some capture is known to go on after its first jump.
struct MenCount {
    enemy: u64,
    enemy_kings: u64,
    board_empty: u64,
    /// `board_empty` and the moving man's origin, which stays empty for its whole move.
    empty: u64,
    origin: u16,
    best: u32,
    count: u64,
    /// The captures of three or more pieces of the best value so far, as captured set and
    /// origin and destination: only those can be made by two routes (the second route of a
    /// two-piece capture would have to jump back over its first victim), so only they are
    /// compared.
    long_captured: [u64; LONG_CAPTURES],
    long_ends: [u16; LONG_CAPTURES],
    long_len: usize,
    /// More long captures than the arrays hold: the caller counts with the full search.
    overflow: bool,
}

const LONG_CAPTURES: usize = 16;

impl MenCount {
    fn new(enemy: u64, enemy_kings: u64, empty: u64) -> MenCount {
        MenCount {
            enemy,
            enemy_kings,
            board_empty: empty,
            empty,
            origin: 0,
            best: 0,
            count: 0,
            long_captured: [0; LONG_CAPTURES],
            long_ends: [0; LONG_CAPTURES],
            long_len: 0,
            overflow: false,
        }
    }

    /// Counts the captures that begin with `man` jumping `first` onto bit `land`.
    #[inline(always)]
    fn after_first_jump<const PEXT: bool>(&mut self, man: u64, first: u64, land: u32) {
        self.empty = self.board_empty | man;
        self.origin = man.trailing_zeros() as u16;
        let next = jump_landings::<PEXT>(land, self.enemy & !first, self.empty);
        self.go_on::<PEXT>(land, next, first, self.value_of(first), 1);
    }

    /// The count, or `None` when there were more long captures than it compares.
    fn total(&self) -> Option<u64> {
        (!self.overflow).then_some(self.count)
    }

    /// Goes on with a capture from bit `here` to each of `lands`.
    fn go_on<const PEXT: bool>(
        &mut self,
        here: u32,
        lands: u64,
        ghosts: u64,
        value: u32,
        taken: u32,
    ) {
        for land in Bits(lands) {
            let victim = jumped(here, land);
            let (ghosts, value) = (ghosts | victim, value + self.value_of(victim));
            let there = land.trailing_zeros();
            let next = jump_landings::<PEXT>(there, self.enemy & !ghosts, self.empty);
            if next == 0 {
                self.record(there, ghosts, value, taken + 1);
            } else {
                self.go_on::<PEXT>(there, next, ghosts, value, taken + 1);
            }
        }
    }

    #[inline(always)]
    fn value_of(&self, captured: u64) -> u32 {
        if captured & self.enemy_kings != 0 {
            KING_VALUE
        } else {
            MAN_VALUE
        }
    }

    #[inline(always)]
    fn record(&mut self, end: u32, captured: u64, value: u32, taken: u32) {
        if value < self.best {
            return;
        }
        if value > self.best {
            self.best = value;
            self.count = 0;
            self.long_len = 0;
        }
        if taken >= 3 {
            self.record_long(end, captured);
        } else {
            self.count += 1;
        }
    }

    fn record_long(&mut self, end: u32, captured: u64) {
        let ends = self.origin | (end as u16) << 8;
        let seen = &self.long_captured[..self.long_len];
        if (0..seen.len()).any(|i| seen[i] == captured && self.long_ends[i] == ends) {
            return;
        }
        if self.long_len == LONG_CAPTURES {
            self.overflow = true;
            return;
        }
        self.long_captured[self.long_len] = captured;
        self.long_ends[self.long_len] = ends;
        self.long_len += 1;
        self.count += 1;
    }
}

/// The replies to each simple move of a position where no side has a king and the opponent
/// has no capture. A simple move changes the board on two squares only, so every capture the
/// opponent then has jumps the moved man or lands where it stood, and its simple moves gain
/// the square left and lose the square taken: each reply count comes from those two squares
/// instead of the whole board.
struct Replies {
    /// The side that made the simple move, before it.
    mover: u64,
    /// The side to reply: men only.
    men: u64,
    empty: u64,
    /// The movers' two steps: a reply man steps onto a square from one step ahead of it.
    mover_steps: [ManStep; 2],
    /// The simple moves of the replying men before the move.
    quiet: u64,
}

impl Replies {
    /// From the position after a simple move's turn change, its board still as before the
    /// move; `None` when a king is about or the side to reply has a capture already.
    #[inline(always)]
    fn new(before: &Position) -> Option<Replies> {
        if before.kings != 0 || before.capturers() != 0 {
            return None;
        }
        let (men, mover) = before.sides();
        let empty = before.empty();
        let [s1, s2] = before.men_steps();
        let mut mover_turn = *before;
        mover_turn.turn = before.turn.opposite();
        Some(Replies {
            mover,
            men,
            empty,
            mover_steps: mover_turn.men_steps(),
            quiet: count_two(s1.ahead(men) & empty, s2.ahead(men) & empty) as u64,
        })
    }

    /// The number of replies after the mover's man goes from `from` to `to`; `None` when the
    /// reply must be counted on the whole board: a man crowned (kings change the capture
    /// values), or more long captures than `MenCount` compares.
    #[inline(always)]
    fn after<const PEXT: bool>(&self, from: u64, to: u64, promo: u64) -> Option<u64> {
        if to & promo != 0 {
            return None;
        }
        let empty = self.empty ^ from ^ to;
        let (from_bit, to_bit) = (from.trailing_zeros(), to.trailing_zeros());
        // Jumps over the moved man (one may land where it stood), and jumps onto its old
        // square over a man that stayed.
        let over = jumps_over::<PEXT>(to_bit, self.men, empty);
        let onto = jumpers_onto::<PEXT>(from_bit, self.mover, self.men);
        if over | onto == 0 {
            let [s1, s2] = self.mover_steps;
            let steps_onto = |square: u64| (s1.ahead(square) | s2.ahead(square)) & self.men;
            return Some(
                self.quiet + count_sparse(steps_onto(from)) - count_sparse(steps_onto(to)),
            );
        }
        // A capture goes on only from a landing with another jump: jumping its first victim
        // back would land on the capturer's origin, which `empty` leaves out.
        let mover = self.mover ^ from ^ to;
        let landings = over | if onto != 0 { from } else { 0 };
        let goes_on = |land: u64| jump_landings::<PEXT>(land.trailing_zeros(), mover, empty) != 0;
        if !Bits(landings).any(goes_on) {
            return Some(count_sparse(over) + count_sparse(onto));
        }
        // These are all the first jumps there are: count the longer captures from them.
        let mut count = MenCount::new(mover, 0, empty);
        for land in Bits(over) {
            let land = land.trailing_zeros();
            count.after_first_jump::<PEXT>(1 << (2 * to_bit - land), to, land);
        }
        for man in Bits(onto) {
            count.after_first_jump::<PEXT>(man, jumped(from_bit, man), from_bit);
        }
        count.total()
    }
}

impl Position {
    /// Perft 2 of a position whose side to move has no capture, without building moves:
    /// each simple move is made on the bitboards and the replies are counted in bulk.
    pub(crate) fn perft_2_quiet<const PEXT: bool>(&self) -> u64 {
        let us = self.turn.index();
        let empty = self.empty();
        let promo = self.promo_row();
        let men = self.pieces[us] & !self.kings;
        // The replies depend on the opponent's counter only, which a simple move leaves as it
        // is; so the child needs just the moved piece and the turn.
        let mut child = *self;
        child.turn = self.turn.opposite();
        // Without pext/pdep the jumps round the two squares are found by loops over their
        // neighbours, which cost more than the full count saves (callgrind, perft 8 of the
        // start, x86-64 build: 211.1 M instructions without, 216.5 M with).
        let replies = if PEXT { Replies::new(&child) } else { None };
        let mut leaves = 0;
        for man_step in self.men_steps() {
            for to in Bits(man_step.ahead(men) & empty) {
                let from = man_step.behind(to);
                leaves += match replies
                    .as_ref()
                    .and_then(|r| r.after::<PEXT>(from, to, promo))
                {
                    Some(n) => n,
                    None => {
                        child.pieces[us] = self.pieces[us] ^ from ^ to;
                        child.kings = self.kings | (to & promo);
                        child.count_legal_with::<PEXT>()
                    }
                };
            }
        }
        for king in Bits(self.pieces[us] & self.kings & !self.frozen_king()) {
            for d in DIAGONALS {
                let mut to = shift(king, d) & empty;
                while to != 0 {
                    child.pieces[us] = self.pieces[us] ^ king ^ to;
                    child.kings = self.kings ^ king ^ to;
                    leaves += child.count_legal_with::<PEXT>();
                    to = shift(to, d) & empty;
                }
            }
        }
        leaves
    }

    /// The number of legal captures of a side without kings (0 when it has none), from one
    /// pass of the shifts that find its capturers. A single jump is one (man, direction) pair,
    /// so when no capture can go on the pairs are simply counted; when one can, only the pairs
    /// whose landing starts a second jump are searched, since any capture of two pieces is
    /// worth more than every single one (art. 11: a king is worth less than two men).
    #[inline(always)]
    fn count_men_captures<const PEXT: bool>(&self) -> u64 {
        let (us, them) = self.sides();
        let empty = self.empty();
        let enemy_kings = them & self.kings;
        // `jump_squares` holds every square a jump could start from, whoever stands there.
        // On a landing it is exactly "a second jump exists": the one jump it might wrongly
        // allow crosses the first victim back to the mover's origin, and the origin is not in
        // `empty` here.
        let (mut jump_squares, mut landings) = (0, 0);
        let (mut captures, mut king_captures) = (0, 0);
        each_dir(|d| {
            let from = shift(shift(empty, d) & them, d);
            jump_squares |= from;
            let these = from & us;
            if these != 0 {
                landings |= shift(shift(these, back(d)), back(d));
                captures += count_sparse(these);
                if enemy_kings != 0 {
                    king_captures += count_sparse(shift(shift(empty, d) & enemy_kings, d) & these);
                }
            }
        });
        if landings & empty & jump_squares != 0 {
            return self.count_men_continuations::<PEXT>(landings & empty & jump_squares);
        }
        // Art. 11: a king is worth more than a man, so taking one is compulsory if possible.
        if king_captures > 0 {
            king_captures
        } else {
            captures
        }
    }

    /// The captures of at least two pieces by men, from the first jumps that land on one of
    /// `starts`, where a second jump exists.
    #[cold]
    fn count_men_continuations<const PEXT: bool>(&self, starts: u64) -> u64 {
        let them = self.sides().1;
        let mut count = MenCount::new(them, them & self.kings, self.empty());
        self.each_first_jump::<PEXT>(starts, |man, first, land| {
            count.after_first_jump::<PEXT>(man, first, land)
        });
        count
            .total()
            .unwrap_or_else(|| self.search_men_continuations::<PEXT>(starts))
    }

    /// Calls `f` with each man's first jump onto one of `starts`, as (man, victim, landing's
    /// bit index): a jump read backwards, from the landing over an enemy to one of our men.
    #[inline(always)]
    pub(crate) fn each_first_jump<const PEXT: bool>(
        &self,
        starts: u64,
        mut f: impl FnMut(u64, u64, u32),
    ) {
        let (us, them) = self.sides();
        for land in Bits(starts) {
            let here = land.trailing_zeros();
            for man in Bits(jumpers_onto::<PEXT>(here, them, us)) {
                f(man, jumped(here, man), here);
            }
        }
    }

    /// The number of legal captures, with the full search. Out of line: its move list would
    /// make every leaf count's frame 16 KiB, probed page by page on each call.
    #[inline(never)]
    fn count_captures<const PEXT: bool>(&self, capturers: u64) -> u64 {
        let mut list = MoveList::new();
        let singles = self.search_captures::<PEXT>(capturers, &mut list, true);
        singles + list.len() as u64
    }

    /// Number of legal moves, without building the simple ones.
    pub(crate) fn count_legal(&self) -> u64 {
        if fast_pext() {
            self.count_legal_with::<true>()
        } else {
            self.count_legal_with::<false>()
        }
    }

    /// `count_legal` with the jump primitives chosen (see `jumps`).
    pub(crate) fn count_legal_with<const PEXT: bool>(&self) -> u64 {
        if self.pieces[self.turn.index()] & self.kings == 0 {
            let captures = self.count_men_captures::<PEXT>();
            if captures > 0 {
                return captures;
            }
        } else {
            let capturers = self.capturers();
            if capturers != 0 {
                return self.count_captures::<PEXT>(capturers);
            }
        }
        let (us, _) = self.sides();
        let empty = self.empty();
        let men = us & !self.kings;
        let [s1, s2] = self.men_steps();
        let mut n = count_two(s1.ahead(men) & empty, s2.ahead(men) & empty);
        let kings = us & self.kings & !self.frozen_king();
        if kings != 0 {
            for d in DIAGONALS {
                let mut x = shift(kings, d) & empty;
                while x != 0 {
                    n += x.count_ones();
                    x = shift(x, d) & empty;
                }
            }
        }
        n as u64
    }
}

/// `a.count_ones() + b.count_ones()`. Without `popcnt` (the baseline x86-64 target), with one
/// tail of the bit-counting ladder for both: the nibble sums of two boards (at most 8) fit.
#[inline(always)]
fn count_two(a: u64, b: u64) -> u32 {
    if cfg!(target_feature = "popcnt") {
        return a.count_ones() + b.count_ones();
    }
    const M1: u64 = 0x5555_5555_5555_5555;
    const M2: u64 = 0x3333_3333_3333_3333;
    const M4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    const H01: u64 = 0x0101_0101_0101_0101;
    let nibbles = |x: u64| {
        let x = x - ((x >> 1) & M1);
        (x & M2) + ((x >> 2) & M2)
    };
    let x = nibbles(a) + nibbles(b);
    let x = (x & M4) + ((x >> 4) & M4);
    (x.wrapping_mul(H01) >> 56) as u32
}

/// Set bits of a bitboard that usually holds one or two. Without `popcnt`, a loop of
/// `x & (x - 1)` beats the software `count_ones`.
#[inline(always)]
fn count_sparse(mut x: u64) -> u64 {
    if cfg!(target_feature = "popcnt") {
        return x.count_ones() as u64;
    }
    let mut n = 0;
    while x != 0 {
        x &= x - 1;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jumps::has_bmi2;
    use crate::moves::MoveList;

    /// Positions of men only along pseudo-random games from the start.
    fn men_positions() -> Vec<Position> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut found = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..300 {
            let mut pos = Position::start();
            for _ in 0..60 {
                if pos.kings != 0 {
                    break;
                }
                found.push(pos);
                pos.legal_moves_into(&mut list);
                if list.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play_unchecked(&list[seed as usize % list.len()]);
            }
        }
        found
    }

    #[test]
    fn replies_from_the_two_squares_match_the_full_count() {
        // Replies counted, by the longest capture of the reply (0: simple moves only).
        let mut counted = [0; 3];
        let mut handed_back = 0;
        for pos in men_positions() {
            if pos.capturers() != 0 {
                continue;
            }
            let mut child = pos;
            child.turn = pos.turn.opposite();
            let Some(replies) = Replies::new(&child) else {
                continue;
            };
            let mut moves = MoveList::new();
            pos.legal_moves_into(&mut moves);
            for mv in moves.iter() {
                let (from, to) = (mv.from().bit(), mv.to().bit());
                let after = pos.play_unchecked(mv);
                let by_loops = replies.after::<false>(from, to, pos.promo_row());
                if has_bmi2() {
                    assert_eq!(replies.after::<true>(from, to, pos.promo_row()), by_loops);
                }
                match by_loops {
                    Some(n) => {
                        assert_eq!(n, after.count_legal(), "{} after {mv:?}", pos.fen());
                        let replies = after.legal_moves();
                        let longest = replies.iter().map(|m| m.captures().len()).max();
                        counted[longest.unwrap_or(0).min(2)] += 1;
                    }
                    None => handed_back += 1,
                }
            }
        }
        // Every way of counting occurs often along real games: simple replies, single
        // captures, longer captures; crowned men are handed back to the full count.
        assert!(counted.iter().all(|&n| n > 1_000), "{counted:?} counted");
        assert!(handed_back > 50, "{handed_back} handed back");
    }
}
