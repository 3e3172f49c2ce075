//! The way out to one connection: a bounded queue of ready WebSocket frames, and messages that
//! are encoded once per encoding and shared by every subscriber.
//!
//! Nothing that sends to an [`Outbox`] ever waits: a full queue means the client is not
//! reading, so it is kicked (its connection closes with 1008) and the sender carries on.
//!
//! The queue is a `VecDeque` (flume's bounded channel) that the first frame allocates. The
//! writer takes frames one at a time while few wait, so the queue keeps its first small storage
//! from one delivery to the next, and takes them whole with the storage after a burst or with
//! the connection's regular ping ([`Frames::behind`]): a connection that has gone quiet keeps
//! no queue storage after its next ping. tokio's `mpsc` allocated a block of 32 slots (about
//! 1.5 KiB) per connection up front and kept it for the connection's life, the largest part of
//! an idle connection's memory (BENCHMARKS.md "Idle connections").
//!
//! The writer waits on one waker, in [`Kick`], that a queued frame, the kick and the last
//! outbox going all wake: no channel-side waiter to allocate, register and free per delivery
//! (flume's own `recv_async` allocated one each time it waited).
//!
//! In a cluster an outbox can be **remote**: it stands for a connection on another node, and
//! its frames go straight onto the bus towards that node ([`RemoteWay`], implemented in
//! `cluster/remote.rs`), so they keep their order with everything else this node publishes.

use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use axum::extract::ws::Message;
use boardcast_protocol::{Ack, Encoding, ErrorReply, Frame, ServerMessage};
use futures_util::task::AtomicWaker;

use crate::refusal::Refusal;

/// Identifies one connection for the lifetime of the process.
pub(crate) type ConnId = u64;

/// Hands out connection ids.
pub(crate) fn next_conn_id() -> ConnId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Turns an encoded protocol frame into a WebSocket message (no copy of the payload).
pub(crate) fn to_message(frame: Frame) -> Message {
    match frame {
        Frame::Text(text) => Message::Text(text.into()),
        Frame::Binary(bytes) => Message::Binary(bytes.into()),
    }
}

/// A server message encoded lazily, at most once per encoding; clones of the resulting
/// [`Message`] share the bytes.
#[derive(Debug)]
pub struct SharedMessage {
    message: ServerMessage,
    json: OnceLock<Message>,
    postcard: OnceLock<Message>,
}

impl SharedMessage {
    pub fn new(message: ServerMessage) -> Self {
        SharedMessage {
            message,
            json: OnceLock::new(),
            postcard: OnceLock::new(),
        }
    }

    /// The frame for `encoding`, encoded on first use.
    pub fn frame(&self, encoding: Encoding) -> Message {
        let cell = match encoding {
            Encoding::Json => &self.json,
            Encoding::Postcard => &self.postcard,
        };
        cell.get_or_init(|| to_message(encoding.encode(&self.message)))
            .clone()
    }
}

/// The sending side of one connection's outgoing queue.
#[derive(Debug)]
pub struct Outbox {
    id: ConnId,
    encoding: Encoding,
    way: Way,
    subscriptions: Subscriptions,
}

/// Where an outbox's frames go.
#[derive(Debug, Clone)]
enum Way {
    /// A connection of this process: its bounded queue (the signal that kicks it is in
    /// the outbox's [`Subscriptions`]).
    Local { tx: flume::Sender<Message> },
    /// A connection on another node.
    Remote(Arc<dyn RemoteWay>),
}

/// The way to a connection on another node: frames are handed on without waiting, and a way
/// that cannot take one more (the bus is full, the node left, the connection said goodbye)
/// is closed for good.
pub(crate) trait RemoteWay: std::fmt::Debug + Send + Sync + 'static {
    /// Sends one frame; `false` (and closed from now on) if it cannot.
    fn push(&self, message: Message) -> bool;
    fn is_closed(&self) -> bool;
}

/// The matches a connection is subscribed to, kept by the matches themselves so the
/// connection can say goodbye to each when it closes; and the signal that kicks it.
pub(crate) type Subscriptions = Arc<Ends>;

/// What a connection's outbox and its writer share. One allocation for both rather than an
/// `Arc` each: every idle connection holds it (BENCHMARKS.md "Idle connections").
#[derive(Debug, Default)]
pub(crate) struct Ends {
    followed: Mutex<Followed>,
    kick: Kick,
    /// The connection's [`Outbox`]es (clones count): the last one to go wakes the writer,
    /// which ends once what is queued is taken.
    outboxes: AtomicUsize,
}

/// The ends of a new connection, with its first outbox counted.
fn ends() -> Subscriptions {
    Arc::new(Ends {
        outboxes: AtomicUsize::new(1),
        ..Ends::default()
    })
}

/// What [`Subscriptions`] guards: the followed matches, and whether the connection has closed.
/// Both under one lock, so a match either records its subscription before the connection
/// reads the set (and is told goodbye) or learns that the connection is gone.
#[derive(Debug, Default)]
pub(crate) struct Followed {
    matches: HashSet<String>,
    closed: bool,
}

/// Marks the connection closed and returns the matches it followed. From here on no match
/// can record a subscription: each is either in the returned list or refused.
pub(crate) fn close_subscriptions(subscriptions: &Subscriptions) -> Vec<String> {
    match subscriptions.followed.lock() {
        Ok(mut followed) => {
            followed.closed = true;
            followed.matches.drain().collect()
        }
        Err(_) => Vec::new(),
    }
}

/// What the connection keeps: the queue to drain, and through it the signal that it was
/// kicked and the matches it follows.
#[derive(Debug)]
pub struct Inbox {
    pub rx: Frames,
}

impl Inbox {
    /// The signal that the connection was kicked for not reading.
    pub fn kick(&self) -> &Kick {
        self.rx.kick()
    }

    /// The matches the connection follows (and its kick).
    pub(crate) fn subscriptions(&self) -> &Subscriptions {
        &self.rx.ends
    }
}

impl Ends {
    /// The signal that the connection was kicked for not reading.
    pub(crate) fn kick(&self) -> &Kick {
        &self.kick
    }
}

/// The receiving end of an outbox's queue, drained by the connection's writer.
#[derive(Debug)]
pub struct Frames {
    rx: flume::Receiver<Message>,
    ends: Subscriptions,
}

/// The storage a queue keeps between takes: the four slots a `VecDeque` of frames allocates
/// first. A take of at most this many frames leaves it to the queue for the next frame; a
/// larger one, whose frames made the queue grow, takes the storage with it.
const KEPT_SLOTS: usize = 4;

impl Frames {
    /// The next frame; `None` once every outbox is gone and nothing is left queued.
    pub async fn recv(&mut self) -> Option<Message> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// The next frame, or `None` once every outbox is gone and nothing is left queued. While
    /// there is none, the caller is woken by the next frame, by a kick ([`Kick`] holds the
    /// one waker) and by the last outbox going: one task waits on a connection's queue, its
    /// writer.
    pub fn poll_recv(&self, cx: &mut Context<'_>) -> Poll<Option<Message>> {
        let kick = &self.ends.kick;
        kick.writer.register(cx.waker());
        // Set before the queue is looked at, under its lock: a sender that queues a frame
        // after that look sees it, and wakes the writer.
        kick.waiting.store(true, Ordering::Release);
        // Read before the queue: every frame queued before the last outbox went is seen below.
        let gone = self.ends.outboxes.load(Ordering::Acquire) == 0;
        let next = match self.rx.try_recv() {
            Ok(message) => Poll::Ready(Some(message)),
            Err(flume::TryRecvError::Disconnected) => Poll::Ready(None),
            Err(flume::TryRecvError::Empty) if gone => Poll::Ready(None),
            Err(flume::TryRecvError::Empty) => Poll::Pending,
        };
        if next.is_ready() {
            kick.waiting.store(false, Ordering::Relaxed);
        }
        next
    }

    /// The next frame if one is queued.
    pub fn try_recv(&mut self) -> Result<Message, flume::TryRecvError> {
        self.rx.try_recv()
    }

    /// The frames queued behind `first`, which was just taken, in order, as the writer takes
    /// them: one at a time while the take is within [`KEPT_SLOTS`], which leaves the queue its
    /// storage for the next frame (a watcher sent one frame at a time allocates none per
    /// delivery); beyond that, or behind a ping, the rest whole with the queue's storage. The
    /// connection pings every `--ping-interval`, so a connection that has gone quiet holds no
    /// queue storage after its next ping, and one that took a burst none after the burst.
    pub fn behind(&self, first: &Message) -> Behind<'_> {
        Behind::Singly {
            frames: self,
            left: if is_ping(first) { 0 } else { KEPT_SLOTS as u8 },
        }
    }

    /// The signal that the connection was kicked for not reading.
    pub fn kick(&self) -> &Kick {
        self.ends.kick()
    }
}

/// The connection's regular ping, after which the queue gives its storage back.
fn is_ping(message: &Message) -> bool {
    matches!(message, Message::Ping(_))
}

/// The frames queued behind one the writer took: see [`Frames::behind`]. An enum rather than
/// a struct with both: it lives in every connection's writer task, no larger than the queue
/// it takes whole.
pub enum Behind<'a> {
    /// Taken one at a time, leaving the queue its storage, `left` more at most.
    Singly { frames: &'a Frames, left: u8 },
    /// The rest, taken whole with the queue's storage.
    Whole(flume::Drain<'a, Message>),
}

impl Iterator for Behind<'_> {
    type Item = Message;

    fn next(&mut self) -> Option<Message> {
        match self {
            Behind::Singly { frames, left } if *left > 0 => {
                let message = frames.rx.try_recv().ok()?;
                *left = if is_ping(&message) { 0 } else { *left - 1 };
                Some(message)
            }
            Behind::Singly { frames, .. } => {
                let frames: &Frames = frames;
                *self = Behind::Whole(frames.rx.drain());
                self.next()
            }
            Behind::Whole(rest) => rest.next(),
        }
    }
}

/// The signal that a connection was kicked for not reading: raised once by a sender that
/// found its queue full, and kept until the connection's writer looks.
///
/// A flag beside the writer's waker rather than a `Notify`: the writer looks at it before
/// every frame it waits for, and a pending `Notify` would lock its list of waiters each time
/// — once per delivery, on the busiest path of a fan-out.
#[derive(Debug, Default)]
pub struct Kick {
    kicked: AtomicBool,
    /// Whether the writer waits for its next frame ([`Frames::poll_recv`]). Only then does a
    /// frame wake it: a frame queued while it writes is taken behind the others, and one
    /// queued while it waits for a slow socket must not wake it to try the socket again.
    waiting: AtomicBool,
    /// The writer's waker: woken by the kick, by a frame queued while the writer waits for
    /// one, and by the last outbox going.
    writer: AtomicWaker,
}

impl Kick {
    /// Kicks the connection.
    pub fn raise(&self) {
        self.kicked.store(true, Ordering::Release);
        self.writer.wake();
    }

    pub fn is_raised(&self) -> bool {
        self.kicked.load(Ordering::Acquire)
    }

    /// Completes once the connection is kicked (at once if it already was).
    pub fn raised(&self) -> impl Future<Output = ()> + '_ {
        std::future::poll_fn(|cx| {
            if self.is_raised() {
                return Poll::Ready(());
            }
            self.writer.register(cx.waker());
            // Raised between the first look and the registration: its wake may have missed.
            if self.is_raised() {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        })
    }
}

/// A connection's outbox and the inbox it drains, holding at most `capacity` messages.
pub fn outbox(id: ConnId, encoding: Encoding, capacity: usize) -> (Outbox, Inbox) {
    let (tx, rx) = flume::bounded(capacity.max(1));
    let subscriptions = ends();
    (
        Outbox {
            id,
            encoding,
            way: Way::Local { tx },
            subscriptions: subscriptions.clone(),
        },
        Inbox {
            rx: Frames {
                rx,
                ends: subscriptions,
            },
        },
    )
}

/// An outbox for a connection on another node, reached through `way`, and the record of the
/// matches it follows (closed when that connection says goodbye).
pub(crate) fn remote_outbox(
    id: ConnId,
    encoding: Encoding,
    way: Arc<dyn RemoteWay>,
) -> (Outbox, Subscriptions) {
    let subscriptions = ends();
    let outbox = Outbox {
        id,
        encoding,
        way: Way::Remote(way),
        subscriptions: subscriptions.clone(),
    };
    (outbox, subscriptions)
}

impl Clone for Outbox {
    fn clone(&self) -> Self {
        self.subscriptions.outboxes.fetch_add(1, Ordering::Relaxed);
        Outbox {
            id: self.id,
            encoding: self.encoding,
            way: self.way.clone(),
            subscriptions: self.subscriptions.clone(),
        }
    }
}

impl Drop for Outbox {
    fn drop(&mut self) {
        // The last outbox wakes the writer: nothing more will come, so it ends once it has
        // taken what is queued.
        if self.subscriptions.outboxes.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.subscriptions.kick.writer.wake();
        }
    }
}

impl Outbox {
    pub fn id(&self) -> ConnId {
        self.id
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Queues an already encoded message. `false` means the connection is gone or was kicked
    /// for not reading; the caller should forget it.
    pub fn push(&self, message: Message) -> bool {
        let tx = match &self.way {
            Way::Local { tx } => tx,
            Way::Remote(way) => return way.push(message),
        };
        match tx.try_send(message) {
            Ok(()) => {
                let kick = &self.subscriptions.kick;
                if kick.waiting.load(Ordering::Acquire) {
                    kick.writer.wake();
                }
                true
            }
            Err(flume::TrySendError::Full(_)) => {
                self.subscriptions.kick.raise();
                false
            }
            Err(flume::TrySendError::Disconnected(_)) => false,
        }
    }

    /// Closes the connection with `code` and `reason` once what is queued before has gone out.
    pub fn close(&self, code: u16, reason: &'static str) {
        self.push(Message::Close(Some(axum::extract::ws::CloseFrame {
            code,
            reason: reason.into(),
        })));
    }

    /// Encodes `message` for this connection alone and queues it.
    pub fn send(&self, message: &ServerMessage) -> bool {
        if let ServerMessage::Error(reply) = message {
            crate::ops::telemetry::refused(reply.code);
        }
        self.push(to_message(self.encoding.encode(message)))
    }

    /// Queues a shared message in this connection's encoding.
    pub fn send_shared(&self, message: &SharedMessage) -> bool {
        self.push(message.frame(self.encoding))
    }

    /// Acknowledges envelope `id`: it was carried out. (A reply to a connection that is
    /// gone is simply not delivered, like any message.)
    pub fn ack(&self, id: u64) {
        self.send(&ServerMessage::Ack(Ack {
            id,
            duplicate: false,
        }));
    }

    /// Acknowledges envelope `id` again: it had been carried out before, nothing changed now.
    pub fn ack_duplicate(&self, id: u64) {
        self.send(&ServerMessage::Ack(Ack {
            id,
            duplicate: true,
        }));
    }

    /// Answers envelope `id` (if it could be read) with why nothing changed.
    pub fn refuse(&self, id: impl Into<Option<u64>>, refusal: Refusal) {
        // Made by `Draft::with` only: every refusal goes out with its reason (issue 34).
        debug_assert!(refusal.args.is_some(), "{refusal:?} has no args");
        self.send(&ServerMessage::Error(ErrorReply {
            id: id.into(),
            code: refusal.code,
            message: refusal.message,
            last_id: refusal.last_id,
            args: refusal.args.map(Box::new),
        }));
    }

    /// Records that this connection now follows match `id` (or no longer does). False, and
    /// nothing recorded, once the connection has closed: it will not say goodbye to `id`.
    pub fn note_subscription(&self, id: &str, subscribed: bool) -> bool {
        let Ok(mut followed) = self.subscriptions.followed.lock() else {
            return false;
        };
        if followed.closed {
            return false;
        }
        if subscribed {
            followed.matches.insert(id.to_owned());
        } else {
            followed.matches.remove(id);
        }
        true
    }

    /// Whether the connection behind this outbox has gone.
    pub fn is_closed(&self) -> bool {
        match &self.way {
            Way::Local { tx } => tx.is_disconnected(),
            Way::Remote(way) => way.is_closed(),
        }
    }

    /// Whether this outbox stands for a connection on another node, whose node relays the
    /// match's events to it: a match sends it replies, never its broadcasts.
    pub fn is_remote(&self) -> bool {
        matches!(self.way, Way::Remote(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::Pong;

    #[test]
    fn a_closed_connection_hands_over_its_matches_and_records_no_more() {
        let (outbox, inbox) = outbox(next_conn_id(), Encoding::Json, 4);
        assert!(outbox.note_subscription("m1", true));
        assert!(outbox.note_subscription("m2", true));
        assert!(outbox.note_subscription("m2", false));
        assert_eq!(
            close_subscriptions(inbox.subscriptions()),
            vec!["m1".to_owned()]
        );
        // A match that seats this connection from now on learns it is gone instead of
        // waiting for a goodbye that will never come.
        assert!(!outbox.note_subscription("m3", true));
        assert!(close_subscriptions(inbox.subscriptions()).is_empty());
    }

    #[test]
    fn shared_messages_are_encoded_once_and_share_bytes() {
        let shared = SharedMessage::new(ServerMessage::Pong(Pong { nonce: 7 }));
        let (a, b) = (shared.frame(Encoding::Json), shared.frame(Encoding::Json));
        match (a, b) {
            (Message::Text(a), Message::Text(b)) => {
                assert_eq!(a.as_str().as_ptr(), b.as_str().as_ptr());
                assert!(a.as_str().contains("pong"));
            }
            other => panic!("expected text frames, got {other:?}"),
        }
        assert!(matches!(
            shared.frame(Encoding::Postcard),
            Message::Binary(_)
        ));
    }

    #[tokio::test]
    async fn a_full_outbox_kicks_its_connection() {
        let (outbox, mut inbox) = outbox(1, Encoding::Json, 2);
        let pong = ServerMessage::Pong(Pong { nonce: 1 });
        assert!(outbox.send(&pong));
        assert!(outbox.send(&pong));
        assert!(!inbox.kick().is_raised());
        assert!(!outbox.send(&pong), "third message does not fit");
        // The kick is remembered until the connection looks.
        assert!(inbox.kick().is_raised());
        tokio::time::timeout(std::time::Duration::from_secs(1), inbox.kick().raised())
            .await
            .expect("kicked");
        assert!(inbox.rx.recv().await.is_some());
        drop(inbox);
        assert!(!outbox.send(&pong));
        assert!(outbox.is_closed());
    }

    /// The cluster's bridges and the tests read an inbox until its outboxes are all gone: the
    /// last one to go wakes the waiting reader, after it had every frame queued before.
    #[tokio::test]
    async fn a_waiting_writer_ends_when_the_last_outbox_goes_and_not_before() {
        let (outbox, mut inbox) = outbox(1, Encoding::Json, 4);
        let copy = outbox.clone();
        let reading = tokio::spawn(async move {
            let mut frames = Vec::new();
            while let Some(frame) = inbox.rx.recv().await {
                frames.push(frame);
            }
            frames
        });
        tokio::task::yield_now().await;
        let pong = ServerMessage::Pong(Pong { nonce: 1 });
        assert!(outbox.send(&pong));
        drop(outbox);
        tokio::task::yield_now().await;
        assert!(
            !reading.is_finished(),
            "a copy of the outbox is still there"
        );
        assert!(copy.send(&pong));
        drop(copy);
        let frames = tokio::time::timeout(std::time::Duration::from_secs(5), reading)
            .await
            .expect("woken by the last outbox going")
            .expect("the reading task did not panic");
        assert_eq!(frames.len(), 2, "both frames, then the end");
    }

    /// However the writer takes them (one at a time, behind a ping, after a burst), every
    /// frame comes out once and in the order it was queued.
    #[tokio::test]
    async fn frames_taken_behind_the_first_come_in_order() {
        let (outbox, mut inbox) = outbox(1, Encoding::Json, 64);
        let frame = |n: u8| Message::Binary(vec![n].into());
        let ping = || Message::Ping(vec![0].into());
        let mut taken = Vec::new();
        for take in [
            vec![frame(1)],
            vec![frame(2), frame(3), ping(), frame(4)],
            {
                let mut burst = vec![ping()];
                burst.extend((5..20).map(frame));
                burst
            },
        ] {
            for message in take {
                assert!(outbox.push(message));
            }
            let first = inbox.rx.recv().await.expect("a frame");
            let behind: Vec<_> = inbox.rx.behind(&first).collect();
            taken.push(first);
            taken.extend(behind);
            assert!(inbox.rx.try_recv().is_err(), "everything taken");
        }
        let numbers: Vec<u8> = taken
            .iter()
            .filter_map(|message| match message {
                Message::Binary(bytes) => Some(bytes[0]),
                _ => None,
            })
            .collect();
        assert_eq!(numbers, (1..20).collect::<Vec<_>>());
        assert_eq!(taken.len(), 19 + 2, "and both pings");
    }

    #[tokio::test]
    async fn a_writer_waiting_for_its_kick_is_woken_by_it() {
        let kick = Arc::new(Kick::default());
        let waiting = tokio::spawn({
            let kick = kick.clone();
            async move { kick.raised().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "nobody kicked yet");
        kick.raise();
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("woken by the kick")
            .expect("the waiting task did not panic");
    }
}
