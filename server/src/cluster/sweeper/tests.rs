use std::collections::HashSet;

use super::*;

fn node(name: &str, incarnation: u64) -> NodeRef {
    NodeRef {
        node: name.to_owned(),
        incarnation,
    }
}

fn ids(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("m{i:04}")).collect()
}

#[test]
fn a_dead_nodes_orphans_spread_over_every_survivor_each_taken_by_one() {
    let live: HashSet<NodeRef> = [node("b", 3), node("c", 1), node("d", 7)].into();
    let orphans = ids(300);
    let mut shares = Vec::new();
    for me in &live {
        let mut waiting = Waiting::new();
        shares.push(share(orphans.clone(), me, &live, &mut waiting));
        assert_eq!(waiting.len() + shares.last().unwrap().len(), orphans.len());
    }
    // Every orphan in exactly one share on the first sweep.
    let mut all: Vec<&String> = shares.iter().flatten().collect();
    all.sort();
    assert_eq!(all, orphans.iter().collect::<Vec<_>>());
    for share in &shares {
        assert!(
            (60..=140).contains(&share.len()),
            "a third of 300 each, roughly: {:?}",
            shares.iter().map(Vec::len).collect::<Vec<_>>()
        );
    }
}

#[test]
fn an_orphan_left_by_its_chosen_node_is_taken_by_another_after_a_few_sweeps() {
    let live: HashSet<NodeRef> = [node("b", 1), node("c", 1)].into();
    let me = node("b", 1);
    let theirs: Vec<String> = ids(50)
        .into_iter()
        .filter(|id| chosen(id, &live).unwrap().node == "c")
        .collect();
    assert!(!theirs.is_empty());
    let mut waiting = Waiting::new();
    for _ in 0..PATIENT_SWEEPS {
        assert!(share(theirs.clone(), &me, &live, &mut waiting).is_empty());
    }
    assert_eq!(share(theirs.clone(), &me, &live, &mut waiting), theirs);
    // Taken (no longer an orphan): forgotten.
    assert!(share(Vec::new(), &me, &live, &mut waiting).is_empty());
    assert!(waiting.is_empty());
}

#[test]
fn the_choice_depends_on_the_node_ids_not_their_incarnations_nor_the_set_order() {
    let before: HashSet<NodeRef> = [node("b", 1), node("c", 1)].into();
    let after: HashSet<NodeRef> = [node("c", 2), node("b", 5)].into();
    for id in ids(40) {
        assert_eq!(
            chosen(&id, &before).unwrap().node,
            chosen(&id, &after).unwrap().node
        );
    }
}
