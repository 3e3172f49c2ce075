//! Which live node a match without a live owner belongs to: rendezvous hashing.
//!
//! Every node that finds an orphan (the sweeper, a proxy whose owner died) asks [`chosen`], so
//! the orphans of a dead node spread over the survivors instead of all going to whoever
//! noticed first (issue 28, item 9), and a node leaving moves only its own share. The hash is
//! SipHash-1-3 with fixed keys from the `siphasher` crate, not `std`'s `DefaultHasher`, whose
//! algorithm may change between Rust releases: nodes built by different compilers must still
//! agree on every match's node.

use std::collections::HashSet;
use std::hash::Hasher;

use siphasher::sip::SipHasher13;

use crate::storage::coordination::NodeRef;

/// The live node match `id` belongs to: the one whose node id hashes highest with it.
pub fn chosen<'a>(id: &str, live: &'a HashSet<NodeRef>) -> Option<&'a NodeRef> {
    live.iter()
        .max_by_key(|node| (weight(id, &node.node), node.node.as_str()))
}

/// The weight of node `node` for match `id`: the same on every node and every build.
fn weight(id: &str, node: &str) -> u64 {
    let mut hasher = SipHasher13::new_with_keys(0, 0);
    hasher.write(id.as_bytes());
    // A separator byte no id or node id holds, so ("ab", "c") and ("a", "bc") differ.
    hasher.write_u8(0xff);
    hasher.write(node.as_bytes());
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pinned values: a change of hash would move matches between nodes built apart.
    #[test]
    fn the_weight_is_the_same_on_every_build() {
        assert_eq!(weight("m0001", "a"), weight("m0001", "a"));
        assert_ne!(weight("ab", "c"), weight("a", "bc"));
        let pinned = [weight("m0001", "a"), weight("m0001", "b")];
        assert_eq!(pinned, PINNED);
    }

    const PINNED: [u64; 2] = [8_810_789_536_436_179_052, 9_506_921_869_600_311_194];
}
