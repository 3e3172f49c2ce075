//! "Play now" across nodes: one pool for the whole cluster, so members connected to different
//! nodes are paired with each other, each exactly once (issue 31).
//!
//! - **Ownership** is a row of kind `pool` in PostgreSQL with a fencing epoch, as a TV channel's
//!   ([`Coordination::claim_owned`]). Every node looks every third of a lease: a pool whose
//!   owner is gone (or that never had one) is claimed, and the one node that wins runs it
//!   ([`PlayNow::run_pool`]), empty; the others follow it ([`PlayNow::follow`]).
//! - **Entries.** A member's node keeps the member's wait (its connection, the envelope to
//!   answer) and sends the entry — the member, their rating, the preset — to the owner on
//!   `bc:node:{owner}:p`; a cancel or a closed connection sends a cancel. Whenever a node
//!   learns of a new owner, or Redis may have lost messages, it sends all its waiting members
//!   again (the pool replaces an entry it has). Entries of a node that left the live nodes are
//!   dropped by the owner.
//! - **Pairings.** The owner creates the rated match (it owns it, as any match it creates) and
//!   sends each member's node the seat ([`Delivery::Paired`]); that node seats its member with
//!   a `resume` answered `paired`. Before it creates the match, the owner writes the pool's
//!   row under its epoch ([`Coordination::save_owned_state`]): a node that lost the pool —
//!   frozen past its lease while another claimed it — is fenced off and pairs nobody.
//! - **Exactly once** holds on the member's side: a member's node ends a wait once, so a second
//!   pairing of the same wait (an old owner's, in flight as the pool moved) finds nobody waiting
//!   and aborts that match in the member's name instead of seating them twice.
//! - **The owner killed.** Its pool dies with it; the members' nodes keep the waits, the next
//!   owner claims within about a lease and a half, and the entries go there: waiting members are
//!   paired after the take-over without pressing again. A pairing whose match the dead owner
//!   had created but not yet announced is a match nobody comes to; it ends as an unrated
//!   first-move abort, and its members are paired again by the new owner.

use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::PoolPreset;
use serde::{Deserialize, Serialize};

use super::bus::{Bus, BusEvent, names};
use super::lease::Lease;
use crate::matches::Player;
use crate::net::pairing::{Delivery, PlayNow, PoolLink};
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::{Coordination, NodeRef};

/// The kind of the pool's ownership row.
pub(crate) const KIND: &str = "pool";
/// The key of the pool's ownership row: one pool for the cluster.
const KEY: &str = "play-now";
/// Messages waiting for the node's pool handler.
const MAILBOX: usize = 4096;

/// What nodes tell each other about play now (`bc:node:{node}:{incarnation}:p`), postcard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum PoolTraffic {
    /// To the owner: node `from`'s member `player` waits at `preset`.
    Join {
        from: NodeRef,
        player: Player,
        preset: PoolPreset,
    },
    /// To the owner: node `from`'s member `account` stops waiting.
    Cancel { from: NodeRef, account: i64 },
    /// To a member's node: how the wait of its member `account` ended.
    Ended { account: i64, delivery: Delivery },
}

/// This node's end of the link to the other nodes' play now.
struct BusLink {
    bus: Bus,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
}

impl BusLink {
    fn send(&self, node: &NodeRef, traffic: &PoolTraffic) {
        let payload = postcard::to_allocvec(traffic).expect("pool traffic always encodes");
        if let Err(err) = self.bus.publish(&names::node_pool(node), payload) {
            // A lost entry is sent again when Redis comes back (a resync); a lost pairing
            // leaves a match nobody comes to, which ends as a first-move abort.
            tracing::warn!(%err, %node, "play-now traffic not sent");
        }
    }
}

#[async_trait::async_trait]
impl PoolLink for BusLink {
    fn join(&self, owner: &NodeRef, player: &Player, preset: PoolPreset) {
        let from = self.bus.node().clone();
        let player = player.clone();
        self.send(
            owner,
            &PoolTraffic::Join {
                from,
                player,
                preset,
            },
        );
    }

    fn cancel(&self, owner: &NodeRef, account: i64) {
        let from = self.bus.node().clone();
        self.send(owner, &PoolTraffic::Cancel { from, account });
    }

    fn deliver(&self, home: &NodeRef, account: i64, delivery: Delivery) {
        self.send(home, &PoolTraffic::Ended { account, delivery });
    }

    async fn still_owner(&self, epoch: u64) -> bool {
        if !self.lease.is_held() {
            return false;
        }
        let fenced = self
            .coordination
            .save_owned_state(KIND.into(), KEY.into(), epoch, String::new())
            .await;
        match fenced {
            Ok(()) => true,
            Err(err) => {
                tracing::warn!(%err, epoch, "the play-now pool is not this node's any more");
                false
            }
        }
    }
}

/// Starts this node's part in the cluster's play now: its traffic, and the look at the pool's
/// owner every third of a lease (claiming the pool when nobody alive owns it).
pub(crate) async fn start(
    play_now: PlayNow,
    bus: Bus,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
    ttl: Duration,
    shutdown: Shutdown,
) {
    play_now.use_link(Arc::new(BusLink {
        bus: bus.clone(),
        coordination: coordination.clone(),
        lease: lease.clone(),
    }));
    let mine = names::node_pool(bus.node());
    let listener = play_now.clone();
    bus.listen(&[&mine], MAILBOX, shutdown.clone(), move |event| {
        heard(&listener, event);
    });
    bus.subscribe(&mine).await;
    tokio::spawn(watch_owner(
        play_now,
        bus,
        coordination,
        lease,
        ttl,
        shutdown,
    ));
}

/// Handles what other nodes send this node's play now.
fn heard(play_now: &PlayNow, event: BusEvent) {
    match event {
        BusEvent::Message { payload, .. } => match postcard::from_bytes(&payload) {
            Ok(PoolTraffic::Join {
                from,
                player,
                preset,
            }) => {
                let account = player.account.unwrap_or_default();
                if let Err(refusal) = play_now.entered_from(from.clone(), player, preset) {
                    let delivery = Delivery::Refused(refusal);
                    if let Some(link) = play_now.link() {
                        link.deliver(&from, account, delivery);
                    }
                }
            }
            Ok(PoolTraffic::Cancel { from, account }) => play_now.left_from(from, account),
            Ok(PoolTraffic::Ended { account, delivery }) => {
                let play_now = play_now.clone();
                tokio::spawn(async move { play_now.delivered(account, delivery).await });
            }
            Err(err) => tracing::warn!(%err, "undecodable play-now traffic"),
        },
        // Entries may have been lost: every waiting member goes to the owner again.
        BusEvent::Resync => play_now.send_all(),
    }
}

/// Every third of a lease: who owns the pool, claimed when nobody alive does.
async fn watch_owner(
    play_now: PlayNow,
    bus: Bus,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
    ttl: Duration,
    mut shutdown: Shutdown,
) {
    let me = bus.node().clone();
    let mut lease_lost = lease.lost();
    let mut every = tokio::time::interval(ttl / 3);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = shutdown.recv() => return,
            _ = every.tick() => {}
            changed = lease_lost.changed() => {
                if changed.is_err() {
                    return;
                }
            }
        }
        if *lease_lost.borrow_and_update() || !lease.is_held() {
            // Another node may claim the pool any moment: stop pairing now.
            if play_now.running_under().is_some() {
                tracing::warn!("the node's lease lapsed: the play-now pool stops here");
                play_now.lose_track();
            }
            continue;
        }
        let owned = match coordination.owner_of(KIND.into(), KEY.into()).await {
            Ok(owned) => owned,
            Err(err) => {
                tracing::warn!(%err, "play-now pool owner not read");
                continue;
            }
        };
        match owned {
            Some(owned) if owned.alive && owned.owner != me => {
                if play_now.followed().as_ref() != Some(&owned.owner) {
                    if play_now.running_under().is_some() {
                        tracing::warn!(owner = %owned.owner, "the play-now pool moved to another node");
                    }
                    play_now.follow(owned.owner);
                }
            }
            Some(owned) if owned.alive && play_now.running_under() == Some(owned.epoch) => {}
            _ => match coordination
                .claim_owned(KIND.into(), KEY.into(), me.clone())
                .await
            {
                Ok(Some(claimed)) => {
                    if claimed.epoch > 1 {
                        crate::ops::telemetry::took_over("pool");
                    }
                    tracing::info!(epoch = claimed.epoch, "the play-now pool runs here");
                    play_now.run_pool(claimed.epoch);
                }
                Ok(None) => {} // Another node won; the next look finds it.
                Err(err) => tracing::warn!(%err, "play-now pool not claimed"),
            },
        }
        let live = lease.live_nodes();
        play_now.forget_nodes(&|node| live.contains(node));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::ErrorCode;

    #[test]
    fn pool_traffic_round_trips_through_postcard() {
        let node = NodeRef {
            node: "b".into(),
            incarnation: 7,
        };
        let all = [
            PoolTraffic::Join {
                from: node.clone(),
                player: Player {
                    name: "wytze".into(),
                    bot: false,
                    account: Some(3),
                    rating: None,
                    refuses_more_time: false,
                },
                preset: PoolPreset::ThreePlusTwo,
            },
            PoolTraffic::Cancel {
                from: node,
                account: 3,
            },
            PoolTraffic::Ended {
                account: 3,
                delivery: Delivery::Paired {
                    match_id: "m1".into(),
                    token: "st.1".into(),
                    preset: PoolPreset::OnePlusOne,
                },
            },
            PoolTraffic::Ended {
                account: 4,
                delivery: Delivery::Refused(
                    crate::refusal::Refusal::new(ErrorCode::Busy, "full")
                        .with(boardcast_protocol::ErrorArgs::new("play_now_busy")),
                ),
            },
        ];
        for traffic in all {
            let bytes = postcard::to_allocvec(&traffic).unwrap();
            assert_eq!(
                postcard::from_bytes::<PoolTraffic>(&bytes).unwrap(),
                traffic
            );
        }
    }
}
