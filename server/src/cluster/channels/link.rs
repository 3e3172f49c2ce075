//! The two ends of a channel's link between nodes: the owner's [`Relay`] (each event once to
//! every node) and a follower's [`ChannelUpstream`] (guesses, snapshot requests and its crowd,
//! to the owner), with the owner's stand-in for a guessing connection on another node
//! ([`bridge`]).

use super::*;

pub(super) fn send_to(bus: &Bus, node: &NodeRef, traffic: &ChannelTraffic) {
    let payload = postcard::to_allocvec(traffic).expect("channel traffic always encodes");
    if let Err(err) = bus.publish(&names::node_channels(node), payload) {
        tracing::warn!(%err, %node, "channel traffic not sent");
    }
}

pub(super) fn moved(channel: &str) -> Refusal {
    Refusal::new(
        ErrorCode::StorageUnavailable,
        format!("{channel} is moving to another server; send the guess again"),
    )
    .with(ErrorArgs::new("channel_moving").word("channel", channel))
}

/// An outbox on the owner that stands for connection `conn` of node `node`: what the channel
/// sends it (a guess's result) goes back there. It lives as long as the channel holds the
/// guess.
pub(super) fn bridge(bus: Bus, node: NodeRef, conn: u64) -> Outbox {
    let (bridge, mut frames) = outbox(next_conn_id(), Encoding::Postcard, 16);
    tokio::spawn(async move {
        while let Some(frame) = frames.rx.recv().await {
            if let Message::Binary(bytes) = frame {
                let message = bytes.to_vec();
                send_to(&bus, &node, &ChannelTraffic::Deliver { conn, message });
            }
        }
    });
    bridge
}

/// The owner's end: each event once on `bc:chan:{name}`.
#[derive(Debug)]
pub(super) struct Relay {
    pub(super) bus: Bus,
    pub(super) channel: String,
    pub(super) epoch: u64,
}

impl Downstream for Relay {
    fn event(&self, v: u64, message: &ServerMessage) {
        let message = postcard::to_allocvec(message).expect("server messages encode");
        let relay = ChannelRelay::Event {
            epoch: self.epoch,
            v,
            message,
        };
        self.publish(&relay);
    }

    fn crowd(&self, watchers: u32) {
        let epoch = self.epoch;
        self.publish(&ChannelRelay::Crowd { epoch, watchers });
    }
}

impl Relay {
    fn publish(&self, relay: &ChannelRelay) {
        let payload = postcard::to_allocvec(relay).expect("relays encode");
        if let Err(err) = self.bus.publish(&self.channel, payload) {
            // Followers step over a lost event (the game is deterministic); a lost count is
            // corrected by the next.
            tracing::warn!(channel = %self.channel, %err, "channel relay not published");
        }
    }
}

/// A follower's end: guesses and snapshot requests to the owner.
#[derive(Debug)]
pub(super) struct ChannelUpstream {
    pub(super) channel: String,
    pub(super) shared: Weak<Shared>,
}

impl ChannelUpstream {
    /// The node that owns the channel, when it is another node than this one (and the
    /// cluster side of this node is still up).
    fn owner_elsewhere(&self) -> Option<(Arc<Shared>, NodeRef)> {
        let shared = self.shared.upgrade()?;
        let owner = lock(&shared.seats)
            .get(&self.channel)
            .filter(|seat| seat.mine.is_none())
            .and_then(|seat| seat.owner.clone())?;
        Some((shared, owner))
    }
}

impl Upstream for ChannelUpstream {
    fn predict(&self, guess: Guess, answer: Answer) {
        let Some(shared) = self.shared.upgrade() else {
            return answer(Err(moved(&self.channel)));
        };
        let owner = lock(&shared.seats)
            .get(&self.channel)
            .and_then(|seat| seat.owner.clone());
        let Some(owner) = owner else {
            return answer(Err(moved(&self.channel)));
        };
        let request = shared.next_request.fetch_add(1, Ordering::Relaxed);
        let conn = guess.outbox.id();
        {
            let mut guessers = lock(&shared.guessers);
            guessers.retain(|_, outbox| !outbox.is_closed());
            guessers.insert(conn, guess.outbox);
        }
        lock(&shared.pending).insert(request, answer);
        let traffic = ChannelTraffic::Predict {
            channel: self.channel.clone(),
            from: shared.bus.node().clone(),
            request,
            conn,
            client: guess.client,
            name: guess.name,
            ply: guess.ply,
            from_square: guess.from,
            to_square: guess.to,
        };
        send_to(&shared.bus, &owner, &traffic);
        let (weak, channel) = (self.shared.clone(), self.channel.clone());
        tokio::spawn(async move {
            tokio::time::sleep(VERDICT_PATIENCE).await;
            let late = weak
                .upgrade()
                .and_then(|shared| lock(&shared.pending).remove(&request));
            if let Some(answer) = late {
                answer(Err(moved(&channel)));
            }
        });
    }

    fn crowd(&self, watchers: u32) {
        if let Some((shared, owner)) = self.owner_elsewhere() {
            let traffic = ChannelTraffic::Crowd {
                channel: self.channel.clone(),
                from: shared.bus.node().clone(),
                watchers,
            };
            send_to(&shared.bus, &owner, &traffic);
        }
    }

    fn resync(&self) {
        if let Some((shared, owner)) = self.owner_elsewhere() {
            let from = shared.bus.node().clone();
            let channel = self.channel.clone();
            send_to(
                &shared.bus,
                &owner,
                &ChannelTraffic::SnapshotPlease { channel, from },
            );
        }
    }
}
