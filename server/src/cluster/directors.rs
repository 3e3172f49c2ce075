//! Club events across nodes (issue 33): one node at a time runs each event's director.
//!
//! - **Ownership** is a row of kind `event` in PostgreSQL with a fencing epoch, as a TV
//!   channel's and the play-now pool's ([`Coordination::claim_owned`]). The node that creates
//!   an event claims it at once; every node looks at the unfinished events every third of a
//!   lease and claims each one that nobody alive owns, or that it owns but no longer runs (its
//!   director stopped when its lease lapsed). The one node that wins reads the event's records
//!   after the claim and runs the director from them ([`Events::run_claimed`]): the same state
//!   at the same version, so the next round is paired exactly once.
//! - **The fence.** The director writes each record under its epoch, and storage refuses a
//!   record of an older epoch (`boardcast_fence_owned`): a node frozen past its lease while
//!   another took the event over cannot add to the history when it wakes. Its director also
//!   stops at its first step after the lease lapsed ([`Lease::held_unbroken`]), before it
//!   creates a match or writes anything.
//! - **Requests** (join, withdraw) that reach a node not running the director go to the node
//!   that does on `bc:node:{owner}:e`, and its answer comes back the same way
//!   ([`EventTraffic`]). With no live owner (a take-over under way) or no answer within
//!   [`ANSWER_PATIENCE`], the request is refused `event_moving`: try again. Pages read the
//!   event from PostgreSQL on any node.
//! - **The games** are matches, owned, fenced and taken over as every match; the director
//!   reads their results from PostgreSQL, so a game that ended while no node ran the director
//!   is counted by the next one.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::bus::{Bus, BusEvent, names};
use super::lease::Lease;
use super::node::Node;
use crate::events::director::{Ask, Owner};
use crate::events::error::EventError;
use crate::events::{Events, OwnerLink};
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::{Coordination, NodeRef};

/// The kind of the events' ownership rows.
pub(crate) const KIND: &str = "event";
/// How long a forwarded request waits for the owner's answer before it is refused
/// `event_moving`.
const ANSWER_PATIENCE: Duration = Duration::from_secs(5);
/// Messages waiting for the node's event handler.
const MAILBOX: usize = 1024;

/// What nodes tell each other about events (`bc:node:{node}:{incarnation}:e`), postcard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum EventTraffic {
    /// To the node running event `event`'s director: node `from` asks `ask` for a member.
    Ask {
        request: u64,
        from: NodeRef,
        event: String,
        ask: Ask,
    },
    /// To the asking node: the director's answer to request `request`.
    Answer {
        request: u64,
        answer: Result<(), EventError>,
    },
}

/// This node's part in the events of the cluster; cheap to clone.
#[derive(Clone)]
pub(crate) struct ClusterEvents(Arc<Shared>);

struct Shared {
    events: Events,
    bus: Bus,
    coordination: Arc<dyn Coordination>,
    lease: Lease,
    /// Requests forwarded to an owner, waiting for its answer.
    pending: Mutex<HashMap<u64, oneshot::Sender<Result<(), EventError>>>>,
    next_request: AtomicU64,
    /// One claim at a time on this node: the creating request and the look at the unclaimed
    /// events never both start a director for one event.
    claiming: tokio::sync::Mutex<()>,
}

fn send(bus: &Bus, node: &NodeRef, traffic: &EventTraffic) {
    let payload = postcard::to_allocvec(traffic).expect("event traffic always encodes");
    if let Err(err) = bus.publish(&names::node_events(node), payload) {
        // The asker's patience runs out and it is told to try again.
        tracing::warn!(%err, %node, "event traffic not sent");
    }
}

impl ClusterEvents {
    fn pending(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<Result<(), EventError>>>> {
        self.0
            .pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Claims event `id` and runs its director here, unless it runs here already or another
    /// live node owns it (or this node's lease is not held).
    async fn claim_and_run(&self, id: &str) {
        let shared = &self.0;
        let _one_at_a_time = shared.claiming.lock().await;
        if shared.events.holds(id) || !shared.lease.is_held() {
            return;
        }
        // Taken before the claim: a lapse from here on stops the director.
        let held = shared.lease.held_unbroken();
        let claimed = shared
            .coordination
            .claim_owned(KIND.into(), id.into(), shared.lease.me())
            .await;
        let epoch = match claimed {
            Ok(Some(claimed)) => claimed.epoch,
            Ok(None) => return, // Another live node owns it.
            Err(err) => return tracing::warn!(event = id, %err, "event not claimed"),
        };
        if epoch > 1 {
            crate::ops::telemetry::took_over("event");
        }
        if let Err(err) = shared.events.run_claimed(id, Owner { epoch, held }).await {
            tracing::error!(event = id, epoch, %err, "cannot run a claimed event");
        }
    }

    async fn ask_owner(&self, id: &str, ask: Ask) -> Result<(), EventError> {
        let me = self.0.bus.node().clone();
        let owned = self
            .0
            .coordination
            .owner_of(KIND.into(), id.into())
            .await
            .map_err(|_| EventError::Moving)?;
        let owner = match owned {
            Some(owned) if owned.alive && owned.owner != me => owned.owner,
            // Nobody alive runs it (or this node does, and its director just stopped): the
            // next look at the events claims it within a third of a lease.
            _ => return Err(EventError::Moving),
        };
        let request = self.0.next_request.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.pending().insert(request, tx);
        let event = id.to_owned();
        send(
            &self.0.bus,
            &owner,
            &EventTraffic::Ask {
                request,
                from: me,
                event,
                ask,
            },
        );
        let answer = tokio::time::timeout(ANSWER_PATIENCE, rx).await;
        self.pending().remove(&request);
        match answer {
            Ok(Ok(answer)) => answer,
            // The owner died or its answer was lost: it may have been done all the same,
            // which the asking node looks up in storage (`Events::ask`).
            _ => Err(EventError::Moving),
        }
    }

    /// Handles what other nodes send this node's events.
    async fn listen(self, mut rx: mpsc::Receiver<BusEvent>, mut shutdown: Shutdown) {
        loop {
            let event = tokio::select! {
                _ = shutdown.recv() => return,
                event = rx.recv() => match event {
                    Some(event) => event,
                    None => return,
                },
            };
            let payload = match event {
                BusEvent::Message { payload, .. } => payload,
                // A lost request or answer runs out of patience and is tried again.
                BusEvent::Resync => continue,
            };
            match postcard::from_bytes(&payload) {
                Ok(EventTraffic::Ask {
                    request,
                    from,
                    event,
                    ask,
                }) => {
                    let (events, bus) = (self.0.events.clone(), self.0.bus.clone());
                    tokio::spawn(async move {
                        let answer = events.answer(&event, ask).await;
                        send(&bus, &from, &EventTraffic::Answer { request, answer });
                    });
                }
                Ok(EventTraffic::Answer { request, answer }) => {
                    if let Some(waiting) = self.pending().remove(&request) {
                        let _ = waiting.send(answer);
                    }
                }
                Err(err) => tracing::warn!(%err, "undecodable event traffic"),
            }
        }
    }

    /// Every third of a lease: claims the unfinished events that nobody alive runs.
    async fn watch(self, ttl: Duration, mut shutdown: Shutdown) {
        let lease = &self.0.lease;
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
            // A director that stopped here (its lease lapsed, a record was fenced) is claimed
            // again below if nobody else took its event.
            self.0.events.forget_stopped();
            if *lease_lost.borrow_and_update() || !lease.is_held() {
                continue; // The directors here stop at their next step.
            }
            let unfinished = match self.0.coordination.unfinished_events().await {
                Ok(unfinished) => unfinished,
                Err(err) => {
                    tracing::warn!(%err, "cannot look at the unfinished events");
                    continue;
                }
            };
            let me = lease.me();
            for (id, owned) in unfinished {
                if self.0.events.holds(&id) {
                    continue;
                }
                let claim = match owned {
                    None => true,
                    Some(owned) if owned.alive => owned.owner == me,
                    // Its owner died. Not right after an outage of this node's own: the nodes
                    // whose leases lapsed with it claim their own events back first.
                    Some(_) => lease.settled(),
                };
                if claim {
                    self.claim_and_run(&id).await;
                }
            }
        }
    }
}

impl OwnerLink for ClusterEvents {
    fn take(&self, id: &str) -> BoxFuture<'_, ()> {
        let id = id.to_owned();
        async move { self.claim_and_run(&id).await }.boxed()
    }

    fn forward(&self, id: &str, ask: Ask) -> BoxFuture<'_, Result<(), EventError>> {
        let id = id.to_owned();
        async move { self.ask_owner(&id, ask).await }.boxed()
    }
}

/// Starts this node's part in the cluster's events: its traffic, the look at the unclaimed
/// events every third of a lease, and the link its events use to claim and forward.
pub(crate) async fn start(events: &Events, node: &Node, shutdown: Shutdown) {
    let cluster = ClusterEvents(Arc::new(Shared {
        events: events.clone(),
        bus: node.bus.clone(),
        coordination: node.coordination.clone(),
        lease: node.lease.clone(),
        pending: Mutex::default(),
        next_request: AtomicU64::new(1),
        claiming: tokio::sync::Mutex::new(()),
    }));
    events.use_link(Arc::new(cluster.clone()));
    let (tx, rx) = mpsc::channel(MAILBOX);
    let mine = names::node_events(node.bus.node());
    node.bus.route(&mine, tx);
    node.bus.subscribe(&mine).await;
    tokio::spawn(cluster.clone().listen(rx, shutdown.clone()));
    tokio::spawn(cluster.watch(node.ttl, shutdown));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::director::Joining;

    #[test]
    fn event_traffic_round_trips_through_postcard() {
        let from = NodeRef {
            node: "b".into(),
            incarnation: 4,
        };
        let all = [
            EventTraffic::Ask {
                request: 7,
                from: from.clone(),
                event: "ab12cd34".into(),
                ask: Ask::Join(Joining {
                    account: 3,
                    name: "Wytske".into(),
                    rating: 1620,
                    request: Some("k3jd9".into()),
                }),
            },
            EventTraffic::Ask {
                request: 8,
                from,
                event: "ab12cd34".into(),
                ask: Ask::Withdraw {
                    account: 3,
                    request: None,
                },
            },
            EventTraffic::Answer {
                request: 7,
                answer: Ok(()),
            },
            EventTraffic::Answer {
                request: 8,
                answer: Err(EventError::NotEligible("rating 1620 above 1600".into())),
            },
            EventTraffic::Answer {
                request: 9,
                answer: Err(EventError::Moving),
            },
        ];
        for traffic in all {
            let bytes = postcard::to_allocvec(&traffic).unwrap();
            assert_eq!(
                postcard::from_bytes::<EventTraffic>(&bytes).unwrap(),
                traffic
            );
        }
    }
}
