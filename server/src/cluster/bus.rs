//! The Redis bus between nodes: what one node publishes reaches every subscribing node in the
//! order it was queued, across channels, and each node hands what it receives to its handlers
//! without ever waiting on one of them.
//!
//! Two connections per node, each with one task:
//! - **publishing**: [`Bus::publish`] puts the message on one bounded queue and returns; one task
//!   drains the queue in batches into one pipelined connection. One queue and one connection is
//!   what keeps the order across channels: a reply frame queued before a relayed event reaches
//!   the asking node before it. A full queue refuses ([`BusError::Full`]); while Redis is down
//!   the task keeps draining and drops what it takes, counted, because nothing acknowledged
//!   depends on Redis (PostgreSQL holds every committed event).
//! - **subscribing**: one task reads the subscriber connection and routes each message by
//!   channel to the handler registered with [`Bus::route`], with `try_send` into the handler's
//!   bounded mailbox. A full mailbox drops the message and owes the handler a
//!   [`BusEvent::Resync`], delivered before anything newer; after a reconnect (and the
//!   resubscription of every channel) every handler gets one too. A handler that receives
//!   `Resync` re-reads what it shows from PostgreSQL by version.
//!
//! A message this node could not publish (the queue was full, or Redis was down when its turn
//! came) is lost for every other node too, and they cannot see that from what they receive
//! (the lost one may have been a match's last event). So the next batch that does go out
//! starts with a notice on [`names::BUS_LOST`], and every node that hears it resyncs all its
//! handlers, as after a reconnect.
//!
//! Channel names come only from the functions in [`names`].

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use redis::AsyncConnectionConfig;
use redis::aio::{MultiplexedConnection, PubSubSink, PubSubStream};
use tokio::sync::{Notify, mpsc, watch};

use crate::ops::lock;
use crate::ops::shutdown::Shutdown;
use crate::storage::coordination::NodeRef;

/// How many messages the publish queue holds: about a second of a busy node's traffic.
pub(crate) const PUBLISH_QUEUE: usize = 32_768;
/// How many queued messages go into one pipeline.
const BATCH: usize = 512;
/// Reconnect delays: doubling from the first to the last.
const BACKOFF_FIRST: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(2);
/// How often a handler whose mailbox was full is offered its `Resync` again when no message
/// comes to carry it.
const RESYNC_RETRY_EVERY: Duration = Duration::from_millis(100);
/// How often the subscriber connection is pinged: a Redis that stopped answering (paused, or
/// a network that dropped) is noticed within two of these.
/// (Shorter in tests, so a test can see several go by.)
const PING_EVERY: Duration = if cfg!(test) {
    Duration::from_millis(200)
} else {
    Duration::from_secs(2)
};
/// Redis answers within this on loopback even on a loaded machine; slower means trouble.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(5);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The channel names, in one place (lila-ws `Bus.scala` style): call sites never spell them.
pub(crate) mod names {
    use crate::storage::coordination::NodeRef;

    /// Match traffic to one node incarnation: commands to the owner, replies to the asker.
    pub(crate) fn node_matches(node: &NodeRef) -> String {
        format!("bc:node:{}:{}:m", node.node, node.incarnation)
    }

    /// TV channel traffic to one node incarnation (predictions to the channel's owner).
    pub(crate) fn node_channels(node: &NodeRef) -> String {
        format!("bc:node:{}:{}:c", node.node, node.incarnation)
    }

    /// Play-now traffic to one node incarnation: entries and cancels to the pool's owner,
    /// pairings back to the members' nodes (`cluster::pool`).
    pub(crate) fn node_pool(node: &NodeRef) -> String {
        format!("bc:node:{}:{}:p", node.node, node.incarnation)
    }

    /// Club-event traffic to one node incarnation: members' requests to the node that runs
    /// the event's director, its answers back (`cluster::directors`).
    pub(crate) fn node_events(node: &NodeRef) -> String {
        format!("bc:node:{}:{}:e", node.node, node.incarnation)
    }

    /// The committed events of one match, from its owner to every node.
    pub(crate) fn match_events(match_id: &str) -> String {
        format!("bc:match:{match_id}")
    }

    /// The reveals of one TV channel, from its owner to every node.
    pub(crate) fn tv_channel(name: &str) -> String {
        format!("bc:chan:{name}")
    }

    /// Replies to one node incarnation's connections (`ToAsker`), apart from `node_matches`
    /// so a receiver never has to guess which of the two enums a payload is.
    pub(crate) fn node_replies(node: &NodeRef) -> String {
        format!("bc:node:{}:{}:r", node.node, node.incarnation)
    }

    /// Notices that a node could not publish some messages: every node resyncs on one.
    pub(crate) const BUS_LOST: &str = "bc:bus:lost";

    /// Lobby lines (seeks, live matches) of every node.
    pub(crate) const LOBBY: &str = "bc:lobby";

    /// Sessions and tokens that ended: every node cuts its connections of them.
    pub(crate) const ACCOUNTS: &str = "bc:accounts";
}

/// What a handler's mailbox receives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BusEvent {
    Message {
        channel: String,
        payload: Vec<u8>,
    },
    /// Messages may have been lost (Redis reconnected, or this mailbox overflowed): re-read
    /// what you show from PostgreSQL.
    Resync,
}

#[derive(Debug, thiserror::Error)]
pub enum BusError {
    #[error("invalid Redis address: {0}")]
    Address(#[source] redis::RedisError),
    #[error("cannot reach Redis: {0}")]
    Unreachable(#[source] redis::RedisError),
    #[error("the bus's publish queue is full")]
    Full,
    #[error("the bus has stopped")]
    Stopped,
}

/// What the bus has counted since it started.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BusStats {
    /// Messages handed to Redis.
    pub published: u64,
    /// Messages dropped because Redis was unreachable when their turn came.
    pub dropped_redis_down: u64,
    /// Messages refused at [`Bus::publish`] because the queue was full.
    pub refused_full: u64,
    /// Messages put into a handler's mailbox.
    pub delivered: u64,
    /// Messages dropped because their handler's mailbox was full.
    pub dropped_mailbox_full: u64,
    /// Messages that arrived on a channel no handler was routed for.
    pub unrouted: u64,
    /// Times the subscriber connection was re-established.
    pub reconnects: u64,
}

/// The node's bus: cheap to clone, every clone shares the two connections.
#[derive(Debug, Clone)]
pub struct Bus {
    shared: Arc<Shared>,
    queue: mpsc::Sender<Outgoing>,
}

#[derive(Debug)]
struct Outgoing {
    channel: String,
    payload: Vec<u8>,
}

#[derive(Debug)]
struct Shared {
    node: NodeRef,
    routes: Mutex<Routes>,
    /// The channels this node wants to hear, with how many holders each has.
    wanted: Mutex<Wanted>,
    /// Wakes the task that brings the subscriber connection in line with `wanted`.
    wanted_changed: Notify,
    /// Which version of `wanted` the subscriber connection has carried out.
    synced: watch::Sender<Synced>,
    /// A message was refused or dropped since the last notice went out: the next batch
    /// starts with one ([`names::BUS_LOST`]).
    owes_notice: AtomicBool,
    counters: Counters,
}

#[derive(Debug, Default)]
struct Wanted {
    channels: HashMap<String, usize>,
    /// Grows at every change of the set of channel names.
    version: u64,
}

#[derive(Debug, Clone, Copy)]
struct Synced {
    version: u64,
    connected: bool,
}

#[derive(Debug, Default)]
struct Counters {
    published: AtomicU64,
    dropped_redis_down: AtomicU64,
    refused_full: AtomicU64,
    delivered: AtomicU64,
    dropped_mailbox_full: AtomicU64,
    unrouted: AtomicU64,
    reconnects: AtomicU64,
}

impl Counters {
    fn add(counter: &AtomicU64, n: usize, metric: &'static str, reason: &'static str) {
        counter.fetch_add(n as u64, Ordering::Relaxed);
        if !reason.is_empty() {
            metrics::counter!(metric, "reason" => reason).increment(n as u64);
        }
    }
}

/// Where messages go: exact channel names first, then the longest matching prefix.
#[derive(Debug, Default)]
struct Routes {
    exact: HashMap<String, Mailbox>,
    /// Longest first, so the first match is the most specific.
    prefixes: Vec<(String, Mailbox)>,
}

#[derive(Debug)]
struct Mailbox {
    tx: mpsc::Sender<BusEvent>,
    /// A message to this handler was dropped: it gets `Resync` before anything newer.
    owes_resync: bool,
}

/// What became of one offer to a mailbox.
enum Offer {
    Delivered,
    Dropped,
    /// The handler is gone; its route goes too.
    Gone,
}

const DROPPED: &str = "boardcast_bus_dropped_total";

impl Mailbox {
    fn new(tx: mpsc::Sender<BusEvent>) -> Self {
        Mailbox {
            tx,
            owes_resync: false,
        }
    }

    /// Puts `event` into the mailbox, after the `Resync` it may be owed.
    fn offer(&mut self, event: BusEvent) -> Offer {
        if self.owes_resync && !self.settle() {
            return if self.tx.is_closed() {
                Offer::Gone
            } else {
                Offer::Dropped
            };
        }
        match self.tx.try_send(event) {
            Ok(()) => Offer::Delivered,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.owes_resync = true;
                Offer::Dropped
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Offer::Gone,
        }
    }

    /// Delivers an owed `Resync` if there is room; true when nothing is owed any more.
    fn settle(&mut self) -> bool {
        if self.owes_resync && self.tx.try_send(BusEvent::Resync).is_ok() {
            self.owes_resync = false;
        }
        !self.owes_resync
    }
}

impl Routes {
    fn find(&mut self, channel: &str) -> Option<&mut Mailbox> {
        if let Some(mailbox) = self.exact.get_mut(channel) {
            return Some(mailbox);
        }
        self.prefixes
            .iter_mut()
            .find(|(prefix, _)| channel.starts_with(prefix.as_str()))
            .map(|(_, mailbox)| mailbox)
    }

    fn remove(&mut self, pattern: &str) {
        match pattern.strip_suffix('*') {
            Some(prefix) => self.prefixes.retain(|(p, _)| p != prefix),
            None => {
                self.exact.remove(pattern);
            }
        }
    }

    /// Whether the route for `pattern` leads to `tx`.
    fn leads_to(&self, pattern: &str, tx: &mpsc::Sender<BusEvent>) -> bool {
        let mailbox = match pattern.strip_suffix('*') {
            Some(prefix) => self
                .prefixes
                .iter()
                .find(|(p, _)| p == prefix)
                .map(|(_, m)| m),
            None => self.exact.get(pattern),
        };
        mailbox.is_some_and(|m| m.tx.same_channel(tx))
    }

    fn mailboxes(&mut self) -> impl Iterator<Item = &mut Mailbox> {
        self.exact
            .values_mut()
            .chain(self.prefixes.iter_mut().map(|(_, m)| m))
    }

    /// Offers every owed `Resync` again and forgets handlers that are gone.
    fn settle(&mut self) {
        self.exact.retain(|_, m| {
            m.settle();
            !m.tx.is_closed()
        });
        self.prefixes.retain_mut(|(_, m)| {
            m.settle();
            !m.tx.is_closed()
        });
    }

    fn resync_all(&mut self) {
        for mailbox in self.mailboxes() {
            mailbox.owes_resync = true;
        }
        self.settle();
    }
}

impl Bus {
    /// Connects both connections to Redis at `url` (failing at once if it cannot be reached,
    /// so a node with a wrong address does not start) and starts their tasks, which reconnect
    /// by themselves from then on and stop at `shutdown`.
    pub async fn connect(url: &str, node: NodeRef, shutdown: Shutdown) -> Result<Bus, BusError> {
        Self::connect_with(url, node, shutdown, PUBLISH_QUEUE).await
    }

    /// [`Bus::connect`] with a publish queue of `queue` messages.
    pub async fn connect_with(
        url: &str,
        node: NodeRef,
        shutdown: Shutdown,
        queue: usize,
    ) -> Result<Bus, BusError> {
        let client = redis::Client::open(url).map_err(BusError::Address)?;
        let (sink, stream) = connect_subscriber(&client)
            .await
            .map_err(BusError::Unreachable)?;
        let publisher = connect_publisher(&client)
            .await
            .map_err(BusError::Unreachable)?;
        let (synced, _) = watch::channel(Synced {
            version: 0,
            connected: true,
        });
        let shared = Arc::new(Shared {
            node,
            routes: Mutex::default(),
            // Every node hears the others' notices of lost messages.
            wanted: Mutex::new(Wanted {
                channels: HashMap::from([(names::BUS_LOST.to_owned(), 1)]),
                version: 1,
            }),
            wanted_changed: Notify::new(),
            synced,
            owes_notice: AtomicBool::new(false),
            counters: Counters::default(),
        });
        let (tx, rx) = mpsc::channel(queue.max(1));
        tokio::spawn(publish_loop(
            shared.clone(),
            client.clone(),
            publisher,
            rx,
            shutdown.clone(),
        ));
        tokio::spawn(subscribe_loop(
            shared.clone(),
            client,
            (sink, stream),
            shutdown,
        ));
        Ok(Bus { shared, queue: tx })
    }

    /// This node incarnation.
    pub fn node(&self) -> &NodeRef {
        &self.shared.node
    }

    /// Queues `payload` for `channel` without waiting. It reaches Redis after everything this
    /// node queued before it.
    pub fn publish(&self, channel: &str, payload: Vec<u8>) -> Result<(), BusError> {
        let outgoing = Outgoing {
            channel: channel.to_owned(),
            payload,
        };
        match self.queue.try_send(outgoing) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.shared.owes_notice.store(true, Ordering::Relaxed);
                Counters::add(&self.shared.counters.refused_full, 1, DROPPED, "queue_full");
                Err(BusError::Full)
            }
            Err(mpsc::error::TrySendError::Closed(_)) => Err(BusError::Stopped),
        }
    }

    /// Sends what arrives on `pattern` to `mailbox`: an exact channel name, or a prefix ending
    /// in `*` (`bc:match:*`). An exact route wins over a prefix, a longer prefix over a shorter
    /// one; a new route for the same pattern replaces the old one. The route goes when the
    /// mailbox's receiver is dropped, or at [`Bus::unroute`].
    pub fn route(&self, pattern: &str, mailbox: mpsc::Sender<BusEvent>) {
        let mut routes = lock(&self.shared.routes);
        routes.remove(pattern);
        match pattern.strip_suffix('*') {
            Some(prefix) => {
                let at = routes
                    .prefixes
                    .iter()
                    .position(|(p, _)| p.len() < prefix.len())
                    .unwrap_or(routes.prefixes.len());
                routes
                    .prefixes
                    .insert(at, (prefix.to_owned(), Mailbox::new(mailbox)));
            }
            None => {
                routes
                    .exact
                    .insert(pattern.to_owned(), Mailbox::new(mailbox));
            }
        }
    }

    /// The one listen loop of the bus's handlers: routes every pattern of `patterns` to one
    /// mailbox of `mailbox` events and hands what arrives there, in order, to `heard` on a
    /// task of its own until `shutdown` (or until no route leads to it). The routes are in
    /// place when it returns, so whatever the caller subscribes afterwards is heard.
    pub(crate) fn listen(
        &self,
        patterns: &[&str],
        mailbox: usize,
        mut shutdown: Shutdown,
        mut heard: impl FnMut(BusEvent) + Send + 'static,
    ) {
        let (tx, mut rx) = mpsc::channel(mailbox);
        for pattern in patterns {
            self.route(pattern, tx.clone());
        }
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = shutdown.recv() => return,
                    event = rx.recv() => match event {
                        Some(event) => heard(event),
                        None => return,
                    },
                }
            }
        });
    }

    /// Removes the route for `pattern`.
    pub fn unroute(&self, pattern: &str) {
        lock(&self.shared.routes).remove(pattern);
    }

    /// Removes the route for `pattern` if it still leads to `mailbox`: a newer route for the
    /// same pattern (another handler's) stays.
    pub fn unroute_mailbox(&self, pattern: &str, mailbox: &mpsc::Sender<BusEvent>) {
        let mut routes = lock(&self.shared.routes);
        if routes.leads_to(pattern, mailbox) {
            routes.remove(pattern);
        }
    }

    /// Starts hearing `channel` (one more holder of it). Completes once Redis has confirmed
    /// the subscription, or at once while Redis is unreachable: the subscription is then made
    /// on reconnect, and the `Resync` that follows covers what was missed.
    pub async fn subscribe(&self, channel: &str) {
        let version = {
            let mut wanted = lock(&self.shared.wanted);
            let holders = wanted.channels.entry(channel.to_owned()).or_default();
            *holders += 1;
            if *holders == 1 {
                wanted.version += 1;
            }
            wanted.version
        };
        self.shared.wanted_changed.notify_one();
        let mut synced = self.shared.synced.subscribe();
        let _ = synced
            .wait_for(|s| s.version >= version || !s.connected)
            .await;
    }

    /// One holder of `channel` stops hearing it; the last one unsubscribes.
    pub fn unsubscribe(&self, channel: &str) {
        {
            let mut wanted = lock(&self.shared.wanted);
            let Some(holders) = wanted.channels.get_mut(channel) else {
                return;
            };
            *holders -= 1;
            if *holders > 0 {
                return;
            }
            wanted.channels.remove(channel);
            wanted.version += 1;
        }
        self.shared.wanted_changed.notify_one();
    }

    pub fn stats(&self) -> BusStats {
        let c = &self.shared.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        BusStats {
            published: get(&c.published),
            dropped_redis_down: get(&c.dropped_redis_down),
            refused_full: get(&c.refused_full),
            delivered: get(&c.delivered),
            dropped_mailbox_full: get(&c.dropped_mailbox_full),
            unrouted: get(&c.unrouted),
            reconnects: get(&c.reconnects),
        }
    }
}

impl Shared {
    /// Routes one received message. Synchronous: the dispatch task never waits on a handler.
    fn deliver(&self, channel: &str, payload: &[u8]) {
        let mut routes = lock(&self.routes);
        if channel == names::BUS_LOST {
            let node = String::from_utf8_lossy(payload);
            tracing::info!(%node, "bus: a node lost messages; resyncing");
            routes.resync_all();
            return;
        }
        let Some(mailbox) = routes.find(channel) else {
            Counters::add(&self.counters.unrouted, 1, DROPPED, "unrouted");
            return;
        };
        let event = BusEvent::Message {
            channel: channel.to_owned(),
            payload: payload.to_vec(),
        };
        match mailbox.offer(event) {
            Offer::Delivered => Counters::add(&self.counters.delivered, 1, "", ""),
            Offer::Dropped => Counters::add(
                &self.counters.dropped_mailbox_full,
                1,
                DROPPED,
                "mailbox_full",
            ),
            Offer::Gone => routes.settle(),
        }
    }

    fn wanted(&self) -> (HashSet<String>, u64) {
        let wanted = lock(&self.wanted);
        (wanted.channels.keys().cloned().collect(), wanted.version)
    }
}

/// Reconnect delays: 0.1 s doubling to 2 s, back to the start after a success.
struct Backoff(Duration);

impl Backoff {
    fn new() -> Self {
        Backoff(BACKOFF_FIRST)
    }

    fn next(&mut self) -> Duration {
        let now = self.0;
        self.0 = (self.0 * 2).min(BACKOFF_MAX);
        now
    }

    fn reset(&mut self) {
        self.0 = BACKOFF_FIRST;
    }
}

fn connection_config() -> AsyncConnectionConfig {
    AsyncConnectionConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(RESPONSE_TIMEOUT))
}

async fn connect_publisher(client: &redis::Client) -> redis::RedisResult<MultiplexedConnection> {
    client
        .get_multiplexed_async_connection_with_config(&connection_config())
        .await
}

async fn connect_subscriber(
    client: &redis::Client,
) -> redis::RedisResult<(PubSubSink, PubSubStream)> {
    match tokio::time::timeout(CONNECT_TIMEOUT, client.get_async_pubsub()).await {
        Ok(pubsub) => Ok(pubsub?.split()),
        Err(_) => Err(redis::RedisError::from(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "connecting to Redis timed out",
        ))),
    }
}

/// Drains the publish queue into Redis, in order, a pipeline at a time.
async fn publish_loop(
    shared: Arc<Shared>,
    client: redis::Client,
    connection: MultiplexedConnection,
    mut queue: mpsc::Receiver<Outgoing>,
    mut shutdown: Shutdown,
) {
    let counters = &shared.counters;
    let mut connection = Some(connection);
    let mut backoff = Backoff::new();
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let Some(redis) = connection.as_mut() else {
            // Redis is down: keep the queue moving (dropping, counted) until it is time to try
            // again, so publishers are not refused for a full queue meanwhile.
            let retry = tokio::time::sleep(backoff.next());
            tokio::pin!(retry);
            loop {
                tokio::select! {
                    _ = &mut retry => break,
                    _ = shutdown.recv() => return,
                    n = queue.recv_many(&mut batch, BATCH) => {
                        if n == 0 {
                            return;
                        }
                        batch.clear();
                        shared.owes_notice.store(true, Ordering::Relaxed);
                        Counters::add(&counters.dropped_redis_down, n, DROPPED, "redis_down");
                    }
                }
            }
            match connect_publisher(&client).await {
                Ok(c) => {
                    tracing::info!("bus: publishing to Redis again");
                    connection = Some(c);
                    backoff.reset();
                }
                Err(e) => tracing::debug!(error = %e, "bus: Redis still unreachable"),
            }
            continue;
        };
        let stopping = tokio::select! {
            n = queue.recv_many(&mut batch, BATCH) => {
                if n == 0 {
                    return;
                }
                false
            }
            _ = shutdown.recv() => {
                // What is already queued still goes out (the last events of a stopping node).
                while batch.len() < BATCH * 4 {
                    match queue.try_recv() {
                        Ok(m) => batch.push(m),
                        Err(_) => break,
                    }
                }
                true
            }
        };
        let n = batch.len();
        if n == 0 && stopping {
            // A clean stop with nothing queued: an empty pipeline is no command at all (Redis
            // would refuse it, and the stop would log a failure that is none).
            return;
        }
        let mut pipe = redis::pipe();
        if shared.owes_notice.swap(false, Ordering::Relaxed) {
            pipe.cmd("PUBLISH")
                .arg(names::BUS_LOST)
                .arg(shared.node.to_string())
                .ignore();
        }
        for message in batch.drain(..) {
            pipe.cmd("PUBLISH")
                .arg(message.channel.as_str())
                .arg(message.payload.as_slice())
                .ignore();
        }
        match pipe.query_async::<()>(redis).await {
            Ok(()) => Counters::add(&counters.published, n, "", ""),
            Err(e) => {
                tracing::warn!(error = %e, dropped = n, "bus: publishing to Redis failed");
                shared.owes_notice.store(true, Ordering::Relaxed);
                Counters::add(&counters.dropped_redis_down, n, DROPPED, "redis_down");
                connection = None;
            }
        }
        if stopping {
            return;
        }
    }
}

/// Keeps one subscriber connection up, subscribed to every wanted channel, and routes what
/// it receives; after each reconnect every handler is told to resync.
async fn subscribe_loop(
    shared: Arc<Shared>,
    client: redis::Client,
    first: (PubSubSink, PubSubStream),
    mut shutdown: Shutdown,
) {
    let mut next = Some(first);
    let mut backoff = Backoff::new();
    let mut reconnected = false;
    loop {
        let connection = match next.take() {
            Some(connection) => Ok(connection),
            None => {
                tokio::select! {
                    _ = tokio::time::sleep(backoff.next()) => {}
                    _ = shutdown.recv() => return,
                }
                connect_subscriber(&client).await
            }
        };
        let (sink, stream) = match connection {
            Ok(connection) => connection,
            Err(e) => {
                tracing::debug!(error = %e, "bus: Redis still unreachable");
                continue;
            }
        };
        let (channels, version) = shared.wanted();
        if let Err(e) = change_subscriptions(&sink, &channels, &HashSet::new()).await {
            tracing::warn!(error = %e, "bus: subscribing failed");
            continue;
        }
        backoff.reset();
        shared.synced.send_replace(Synced {
            version,
            connected: true,
        });
        if reconnected {
            tracing::info!(
                channels = channels.len(),
                "bus: subscribed again; resyncing"
            );
            Counters::add(&shared.counters.reconnects, 1, "", "");
            lock(&shared.routes).resync_all();
        }
        tokio::select! {
            _ = dispatch(&shared, stream) => tracing::warn!("bus: lost the Redis subscriber connection"),
            e = keep_subscriptions(&shared, sink, channels) => {
                tracing::warn!(error = %e, "bus: the Redis subscriber connection stopped answering");
            }
            _ = shutdown.recv() => return,
        }
        shared.synced.send_modify(|s| s.connected = false);
        reconnected = true;
    }
}

/// Routes every received message until the connection ends.
async fn dispatch(shared: &Shared, mut stream: PubSubStream) {
    let mut settle = tokio::time::interval(RESYNC_RETRY_EVERY);
    settle.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            message = stream.next() => match message {
                Some(message) => {
                    shared.deliver(message.get_channel_name(), message.get_payload_bytes());
                }
                None => return,
            },
            _ = settle.tick() => lock(&shared.routes).settle(),
        }
    }
}

/// Brings the connection's subscriptions in line with what is wanted, at every change, and
/// pings it meanwhile; returns the error that ended it.
async fn keep_subscriptions(
    shared: &Shared,
    mut sink: PubSubSink,
    mut active: HashSet<String>,
) -> redis::RedisError {
    loop {
        let changed = tokio::select! {
            _ = shared.wanted_changed.notified() => true,
            _ = tokio::time::sleep(PING_EVERY) => false,
        };
        if !changed {
            match tokio::time::timeout(RESPONSE_TIMEOUT, sink.ping::<redis::Value>()).await {
                Ok(Ok(_)) => continue,
                Ok(Err(e)) => return e,
                Err(_) => {
                    return redis::RedisError::from(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "Redis did not answer a ping",
                    ));
                }
            }
        }
        let (wanted, version) = shared.wanted();
        if let Err(e) = change_subscriptions(&sink, &wanted, &active).await {
            return e;
        }
        active = wanted;
        shared
            .synced
            .send_modify(|s| s.version = s.version.max(version));
    }
}

/// Subscribes to what is wanted and not active, and unsubscribes what is active and no longer
/// wanted. One command per channel, all sent at once: redis-rs matches one reply to one
/// command, and Redis answers a many-channel SUBSCRIBE with one reply per channel.
async fn change_subscriptions(
    sink: &PubSubSink,
    wanted: &HashSet<String>,
    active: &HashSet<String>,
) -> redis::RedisResult<()> {
    type Change<'a> = std::pin::Pin<Box<dyn Future<Output = redis::RedisResult<()>> + Send + 'a>>;
    let mut changes: Vec<Change<'_>> = Vec::new();
    for channel in wanted.difference(active) {
        let mut sink = sink.clone();
        changes.push(Box::pin(
            async move { sink.subscribe(channel.as_str()).await },
        ));
    }
    for channel in active.difference(wanted) {
        let mut sink = sink.clone();
        changes.push(Box::pin(
            async move { sink.unsubscribe(channel.as_str()).await },
        ));
    }
    let results = tokio::time::timeout(RESPONSE_TIMEOUT, futures_util::future::join_all(changes))
        .await
        .map_err(|_| {
            redis::RedisError::from(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "Redis did not confirm the subscriptions",
            ))
        })?;
    results.into_iter().collect()
}

#[cfg(test)]
mod tests;
