//! The ack ids of the actions one seat has carried out (PROTOCOL.md §9: an action re-sent
//! with one of them is acknowledged again as a duplicate, any other id up to the last one is
//! refused as stale), packed.
//!
//! A match keeps every id its seats used, so a live match grew by eight bytes an action, and
//! its `Vec` by doubling: 1 KiB at 70 plies (BENCHMARKS.md, "A live match's own memory").
//! Ids ascend, so the gaps between them are small and are kept as varints instead: a byte an
//! action while a seat's ids climb by less than 128. Only the last id is read on every action;
//! the others are looked through only when an id at or below it comes back (a resend).

use integer_encoding::VarInt;

/// The ids one seat has carried out, ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AckIds {
    /// The first id, then the gap to each next one, as varints.
    gaps: Vec<u8>,
    /// The last id (meaningless while `gaps` is empty).
    last: u64,
}

/// Where [`AckIds`] ended, to cut them back to: see [`AckIds::truncate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AckIdsMark {
    bytes: usize,
    last: u64,
}

impl AckIds {
    /// The last id carried out, if any.
    pub(crate) fn last(&self) -> Option<u64> {
        (!self.gaps.is_empty()).then_some(self.last)
    }

    /// Adds `id` if it is above the last; `false` (nothing added) otherwise.
    pub(crate) fn push(&mut self, id: u64) -> bool {
        let gap = match self.last() {
            Some(last) if id <= last => return false,
            Some(last) => id - last,
            None => id,
        };
        let mut varint = [0; 10];
        let len = gap.encode_var(&mut varint);
        self.gaps.extend_from_slice(&varint[..len]);
        self.last = id;
        true
    }

    /// Every id, ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let mut rest = self.gaps.as_slice();
        let mut id = 0u64;
        std::iter::from_fn(move || {
            let (gap, len) = u64::decode_var(rest)?;
            rest = &rest[len..];
            id += gap;
            Some(id)
        })
    }

    /// Whether `id` was carried out.
    pub(crate) fn contains(&self, id: u64) -> bool {
        self.iter()
            .take_while(|&carried| carried <= id)
            .any(|carried| carried == id)
    }

    /// Where the ids end now.
    pub(crate) fn mark(&self) -> AckIdsMark {
        AckIdsMark {
            bytes: self.gaps.len(),
            last: self.last,
        }
    }

    /// Forgets the ids added since `mark`.
    pub(crate) fn truncate(&mut self, mark: AckIdsMark) {
        self.gaps.truncate(mark.bytes);
        self.last = mark.last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_back_as_pushed_and_only_ascending_ones_are_kept() {
        let ids = [0, 1, 2, 130, 131, 100_000, u64::MAX - 1, u64::MAX];
        let mut acks = AckIds::default();
        assert_eq!(acks.last(), None);
        for id in ids {
            assert!(acks.push(id), "{id}");
            assert!(!acks.push(id), "{id} again");
        }
        assert!(!acks.push(7), "below the last");
        assert_eq!(acks.iter().collect::<Vec<_>>(), ids);
        assert_eq!(acks.last(), Some(u64::MAX));
        for id in ids {
            assert!(acks.contains(id), "{id}");
        }
        for id in [3, 129, 132, 99_999, u64::MAX - 2] {
            assert!(!acks.contains(id), "{id}");
        }
    }

    #[test]
    fn a_seat_whose_ids_climb_slowly_costs_a_byte_an_action() {
        let mut acks = AckIds::default();
        for id in (10..1_000).step_by(2) {
            acks.push(id);
        }
        assert_eq!(acks.gaps.len(), 495);
        assert!(acks.contains(998) && !acks.contains(997));
    }

    #[test]
    fn truncating_to_a_mark_forgets_what_came_after_it() {
        let mut acks = AckIds::default();
        let empty = acks.mark();
        acks.push(5);
        let one = acks.mark();
        acks.push(300);
        acks.truncate(one);
        assert_eq!(acks.iter().collect::<Vec<_>>(), [5]);
        assert_eq!(acks.last(), Some(5));
        assert!(acks.push(6));
        acks.truncate(empty);
        assert_eq!(acks.last(), None);
        assert!(acks.push(1));
        assert_eq!(acks.iter().collect::<Vec<_>>(), [1]);
    }
}
