//! One WebSocket connection.
//!
//! The connection greets the client, then reads frames until the client leaves, the server
//! shuts down, or a limit is hit: each frame counts against the message rate, is decoded with a
//! size limit, and is dispatched by one flat table to its concern's handlers: [`matches`] (the
//! lobby, seats, and every seat action through one path to the match's actor), [`channels`]
//! (everything for [`crate::channels`], Frisian TV included) and [`accounts`]. Everything the client receives goes
//! through one bounded outbox drained by a writer task; a client that does not read is dropped.
//! Every few seconds the server pings; a client silent for the idle timeout is closed.

mod accounts;
mod channels;
mod chat;
mod matches;

use std::future::Future;
use std::sync::Arc;
use std::task::Poll;
use std::time::{Duration, Instant};

use crate::channels::ChannelRequest;
use crate::matches::lag::{self, RoundTrips};
use crate::matches::{Command, Player};
use crate::net::address::ClientAddr;
use crate::net::app::App;
use crate::net::limits::LimitKind;
use crate::net::limits::{Idle, RateLimit, SessionPlaces};
use crate::ops::shutdown::TaskGuard;
use crate::refusal::Refusal;
use crate::room::outbox::{self, Inbox, Outbox};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use boardcast_protocol::limits::close;
use boardcast_protocol::{
    ClientEnvelope, ClientMessage, Encoding, ErrorArgs, ErrorCode, FrameRef, Limits,
    PROTOCOL_VERSION, Pong, ServerMessage, ShutdownNotice, Target, Watch, Welcome,
};
use futures_util::{SinkExt, StreamExt};

/// How long one frame may take to write before the client counts as not reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the closing handshake may take.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the closing handshake may take when the server shuts down.
const SHUTDOWN_CLOSE_TIMEOUT: Duration = Duration::from_millis(250);
/// How long the socket stays open after a close sent for a broken read (an oversized frame,
/// a protocol error), so the client can read why before the kernel resets the connection.
const LINGER_AFTER_BROKEN_READ: Duration = Duration::from_millis(500);

/// What the connection holds while it lives.
pub(crate) struct Connection {
    /// Shared by every connection: one pointer each instead of a copy of the whole `App`
    /// (over a kilobyte) in every connection's task.
    app: Arc<App>,
    outbox: Outbox,
    encoding: Encoding,
    /// Who this connection's seats are shown as: the `hello` name, and whether it said a
    /// program plays.
    player: Player,
    rate: RateLimit,
    idle: Idle,
    /// The connection's round trips, from the server's WebSocket pings (lag compensation).
    round_trips: RoundTrips,
    /// The client's address, as the per-address limits count it.
    client: ClientAddr,
    /// The account this connection acts as, `None` for a guest.
    account: Option<crate::accounts::Who>,
    /// This connection's places under the connection limits.
    _places: SessionPlaces,
    _guard: TaskGuard,
}

/// What the HTTP upgrade hands a new session: who the client is, the address to give out,
/// and what it holds under the limits and shutdown.
pub(crate) struct Session {
    /// The account the upgrade authenticated (cookie or bearer), `None` for a guest.
    pub account: Option<crate::accounts::Who>,
    pub client: ClientAddr,
    pub public_url: String,
    pub places: SessionPlaces,
    pub guard: TaskGuard,
}

/// Why the read loop stopped, and how to close.
enum Close {
    /// The client closed or the socket failed: nothing more to send.
    Gone,
    /// Close with this code and reason.
    With(u16, &'static str),
    /// A read failed (an oversized frame, a protocol error): close with this code and reason.
    /// The socket can no longer be read, so bytes the client is still sending stay unread.
    Broken(u16, &'static str),
}

/// Serves one upgraded socket until it closes: sets the connection up and greets the client
/// at once, and returns the future that reads until the connection ends.
///
/// A plain function rather than an `async fn`, and the session boxed, for the memory of an
/// idle connection: an `async fn` keeps its arguments (the socket, the session) in its task
/// for the connection's whole life even after they have been moved into the connection, and
/// a boxed session leaves the upgrade's closure a pointer to hold instead of the session.
// The box is the point: see above.
#[allow(clippy::boxed_local)]
pub(crate) fn run(
    socket: WebSocket,
    encoding: Encoding,
    app: Arc<App>,
    session: Box<Session>,
) -> impl Future<Output = ()> + Send + 'static {
    let Session {
        account,
        client,
        public_url,
        places,
        guard,
    } = *session;
    crate::ops::telemetry::session(encoding, true);
    let (outbox, inbox) = outbox::outbox(outbox::next_conn_id(), encoding, app.config.outbox);
    let now = Instant::now();
    let mut connection = Connection {
        rate: RateLimit::new(app.config.rate, app.config.burst, now),
        idle: Idle::new(app.config.idle_timeout, now),
        round_trips: RoundTrips::default(),
        app,
        outbox,
        encoding,
        // A member plays under the account's name, as a bot exactly when it is a bot
        // account; `hello` cannot change that.
        player: match &account {
            Some(who) => Player {
                name: who.name.clone(),
                bot: who.bot,
                account: Some(who.id),
                rating: None,
                refuses_more_time: false,
            },
            None => Player::person(boardcast_protocol::names::DEFAULT_NAME),
        },
        account,
        client,
        _places: places,
        _guard: guard,
    };
    let (sink, mut stream) = socket.split();
    let subscriptions = inbox.subscriptions().clone();
    let mut writer = tokio::spawn(write_loop(sink, inbox));
    // The address to give out is said once, in `welcome`, and not kept for the connection's life.
    connection.welcome(public_url);
    async move {
        let close = connection.read_loop(&mut stream, &mut writer).await;
        // Boxed: the closing handshake and the goodbyes run once, when the connection ends;
        // inline, their futures (timers, a match's command queue) would size the task of
        // every idle connection.
        Box::pin(connection.finish(close, stream, writer, subscriptions)).await;
        crate::ops::telemetry::session(encoding, false);
    }
}

/// How a failed read ends the connection: a frame over the size limit closes with 1009, a
/// text frame that is not UTF-8 with 1007, a frame that breaks RFC 6455 with 1002 and what it
/// broke (PROTOCOL.md §13); any other error means the socket is gone. After a protocol error
/// tungstenite can still write, so the client learns why instead of seeing the TCP close.
fn close_for_read_error(err: axum::Error) -> Close {
    use tokio_tungstenite::tungstenite::Error;
    use tokio_tungstenite::tungstenite::error::ProtocolError;
    let broken = |why| Close::Broken(close::PROTOCOL_ERROR, why);
    match err.into_inner().downcast::<Error>().map(|err| *err) {
        Ok(Error::Capacity(_)) => Close::Broken(close::TOO_BIG, "frame too large"),
        Ok(Error::Utf8(_)) => Close::Broken(close::INVALID_DATA, "text frame is not valid UTF-8"),
        Ok(Error::Protocol(protocol)) => {
            match protocol {
                // The peer closed TCP (or kept sending after its close): nobody to tell.
                ProtocolError::ResetWithoutClosingHandshake
                | ProtocolError::ReceivedAfterClosing => Close::Gone,
                ProtocolError::UnknownDataFrameType(_)
                | ProtocolError::UnknownControlFrameType(_) => broken("reserved opcode"),
                ProtocolError::ControlFrameTooBig => broken("control frame over 125 bytes"),
                ProtocolError::FragmentedControlFrame => broken("fragmented control frame"),
                ProtocolError::UnexpectedContinueFrame => {
                    broken("continuation frame with no message to continue")
                }
                ProtocolError::ExpectedFragment(_) => {
                    broken("new message before the fragmented one ended")
                }
                ProtocolError::NonZeroReservedBits => broken("reserved bits set"),
                ProtocolError::UnmaskedFrameFromClient => broken("unmasked frame from a client"),
                _ => broken("WebSocket protocol error"),
            }
        }
        _ => Close::Gone,
    }
}

/// Drains the outbox into the socket; stops after a close frame, or drops a client that does
/// not read ([`drop_slow`]): when its outbox overflowed (the kick), or a write did not finish
/// within [`WRITE_TIMEOUT`]. The kick is watched while a write waits too: a client that stopped
/// reading blocks exactly there.
async fn write_loop(mut sink: futures_util::stream::SplitSink<WebSocket, Message>, inbox: Inbox) {
    let Inbox { rx } = inbox;
    let kick = rx.kick();
    loop {
        // One waker for both: a frame and the kick wake it.
        let first = std::future::poll_fn(|cx| {
            let next = rx.poll_recv(cx);
            // A kicked connection is closed before anything else it has queued goes out.
            if kick.is_raised() {
                Poll::Ready(Err(()))
            } else {
                next.map(Ok)
            }
        })
        .await;
        let first = match first {
            Ok(Some(message)) => message,
            Ok(None) => return,
            Err(()) => return drop_slow(&mut sink).await,
        };
        // What was queued behind it goes out in the same writes; the queue keeps its small
        // storage for the next frame, or gives it back after a burst or a ping
        // (`Frames::behind`), so a connection gone quiet holds no queue memory.
        let mut queued = rx.behind(&first);
        let mut next = Some(first);
        while next.is_some() {
            if kick.is_raised() {
                return drop_slow(&mut sink).await;
            }
            let mut batch = Batch::default();
            let mut write = |cx: &mut std::task::Context<'_>| {
                batch.poll_write(&mut sink, &mut next, &mut queued, cx)
            };
            // Almost every batch is written at once (the socket had room): only one that has
            // to wait for the client gets a timer, instead of one set up and torn down per
            // delivery. The wait is boxed: inline, its timer would size every connection's
            // writer.
            let written = match std::future::poll_fn(|cx| Poll::Ready(write(cx))).await {
                Poll::Ready(written) => Some(written),
                Poll::Pending => {
                    Box::pin(async {
                        tokio::select! {
                            biased;
                            written = std::future::poll_fn(&mut write) => Some(written),
                            () = kick.raised() => None,
                            () = tokio::time::sleep(WRITE_TIMEOUT) => None,
                        }
                    })
                    .await
                }
            };
            match written {
                None => return drop_slow(&mut sink).await,
                Some(Ok(Written::More)) => next = queued.next(),
                Some(_) => return,
            }
        }
    }
}

/// Drops a client that does not read: counts it, and queues the 1008 close behind what the
/// socket already holds, waiting up to [`WRITE_TIMEOUT`] for it to go out. A client that
/// reads again within that time gets every frame written so far and then the reason; one
/// that never does is cut off when the wait ends. Boxed: it runs at most once, and inline its
/// timer would size every connection's writer.
fn drop_slow(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + '_>> {
    Box::pin(async move {
        crate::ops::telemetry::slow_client_dropped();
        tracing::debug!("dropping a client that does not read fast enough");
        let close = Message::Close(Some(CloseFrame {
            code: close::POLICY,
            reason: "not reading fast enough".into(),
        }));
        let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(close)).await;
    })
}

/// Frames written with one flush at most. A writer that fell behind (a burst of reveals, a
/// watcher on a slow link) catches up with one `write` for many frames instead of one each;
/// a frame never waits for another that has not been queued yet.
const BATCH: usize = 64;

/// What [`Batch::poll_write`] left behind.
enum Written {
    More,
    Closed,
}

/// Where a batch of frames is: how many were fed, and whether it is flushing.
///
/// A poll function over the writer's own `next` frame rather than an `async fn`: an `async fn`
/// keeps its argument, its current frame and the `Feed` or `Send` future's frame apart in its
/// state, which sized every idle connection's writer task for the one moment it writes.
#[derive(Default)]
struct Batch {
    fed: usize,
    flushing: bool,
    closing: bool,
}

impl Batch {
    /// Feeds `next` and the frames already taken from the queue behind it (up to [`BATCH`]
    /// in all) into the WebSocket's write buffer, then flushes once; a close frame is flushed
    /// at once and ends the batch. The frames' bytes are shared with every other subscriber up
    /// to here; tungstenite copies each once, into the write buffer. Leaves `next` empty once
    /// the batch is written.
    fn poll_write(
        &mut self,
        sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
        next: &mut Option<Message>,
        queued: &mut impl Iterator<Item = Message>,
        cx: &mut std::task::Context<'_>,
    ) -> Poll<Result<Written, axum::Error>> {
        use futures_util::Sink;
        let mut sink = std::pin::Pin::new(sink);
        loop {
            if self.flushing {
                std::task::ready!(sink.as_mut().poll_flush(cx))?;
                return Poll::Ready(Ok(if self.closing {
                    Written::Closed
                } else {
                    Written::More
                }));
            }
            std::task::ready!(sink.as_mut().poll_ready(cx))?;
            let Some(message) = next.take() else {
                self.flushing = true;
                continue;
            };
            self.closing = matches!(message, Message::Close(_));
            sink.as_mut().start_send(message)?;
            self.fed += 1;
            if self.closing || self.fed >= BATCH {
                self.flushing = true;
            } else {
                match queued.next() {
                    Some(message) => *next = Some(message),
                    None => self.flushing = true,
                }
            }
        }
    }
}

/// How often a move may trigger a ping of its own between the regular ones, so that the
/// round trip a move is credited follows the connection during a game.
const MOVE_PING_EVERY: Duration = Duration::from_secs(2);

impl Connection {
    /// Sends a WebSocket ping whose pong measures the round trip.
    fn ping(&mut self, now: Instant) {
        let payload = self.round_trips.ping(now);
        self.outbox.push(Message::Ping(payload.to_vec().into()));
    }

    /// The round trip counted for a move sent now with the client's estimate `claimed`
    /// (milliseconds): see [`lag::trusted_round_trip`]. Measures again when due.
    fn move_round_trip(&mut self, claimed: Option<u32>) -> u32 {
        let claimed = claimed.map(|ms| Duration::from_millis(ms.into()));
        let counted = lag::trusted_round_trip(self.round_trips.estimate(), claimed);
        let now = Instant::now();
        if self.round_trips.due(now, MOVE_PING_EVERY) {
            self.ping(now);
        }
        counted.as_millis().min(u32::MAX as u128) as u32
    }

    fn welcome(&self, public_url: String) {
        let config = &self.app.config;
        self.outbox.send(&ServerMessage::Welcome(Welcome {
            protocol: PROTOCOL_VERSION,
            server: format!("boardcast-server {}", env!("CARGO_PKG_VERSION")),
            limits: Limits {
                max_frame_bytes: config.max_message as u32,
                messages_per_second: config.rate,
                message_burst: config.burst,
                idle_timeout_ms: config.idle_timeout.as_millis() as u64,
            },
            public_url,
            account: self
                .account
                .as_ref()
                .map(|who| boardcast_protocol::AccountInfo {
                    name: who.name.clone(),
                    bot: who.bot,
                    admin: who.admin,
                }),
        }));
    }

    /// Ends the connection after its read loop stopped: the closing handshake `close` asks
    /// for, then the goodbyes (the matches it followed, the channels, the play-now pool), then
    /// a last wait for the writer.
    async fn finish(
        self,
        close: Close,
        mut stream: futures_util::stream::SplitStream<WebSocket>,
        mut writer: tokio::task::JoinHandle<()>,
        subscriptions: outbox::Subscriptions,
    ) {
        match close {
            Close::With(code, reason) | Close::Broken(code, reason) => {
                let frame = Message::Close(Some(CloseFrame {
                    code,
                    reason: reason.into(),
                }));
                if self.outbox.push(frame) {
                    // Shutting down, nobody waits long for slow clients.
                    let wait = if self.app.shutdown.is_shutdown() {
                        SHUTDOWN_CLOSE_TIMEOUT
                    } else {
                        CLOSE_TIMEOUT
                    };
                    if matches!(close, Close::Broken(..)) {
                        // tungstenite reads nothing after an error, and closing a socket with
                        // unread bytes (the rest of an oversized frame) resets it at once, often
                        // before the client read the close frame. So the close goes out first and
                        // the socket stays open a moment for the client to read it.
                        let linger = async {
                            let _ = (&mut writer).await;
                            tokio::time::sleep(LINGER_AFTER_BROKEN_READ).await;
                        };
                        let _ = tokio::time::timeout(wait, linger).await;
                    } else {
                        // The closing handshake: read (and drop) what the client still sends
                        // until its close arrives, so the socket is not reset under unread data.
                        let drain = async { while let Some(Ok(_)) = stream.next().await {} };
                        let _ = tokio::time::timeout(wait, drain).await;
                    }
                } else {
                    writer.abort();
                }
            }
            Close::Gone => writer.abort(),
        }
        // Say goodbye to every match this connection followed, so seats show as empty.
        let followed = outbox::close_subscriptions(&subscriptions);
        for id in followed {
            if let Some(handle) = self.app.directory.running(&id) {
                handle
                    .send(Command::Leave {
                        conn: self.outbox.id(),
                    })
                    .await;
            }
        }
        self.app.channels.leave(&self.outbox).await;
        if let Some(who) = &self.account {
            // Whoever closes stops waiting to be paired (a wait from another device stays).
            let _ = self.app.play_now.cancel(who.id, Some(self.outbox.id()));
        }
        if !writer.is_finished() {
            let wait = if self.app.shutdown.is_shutdown() {
                SHUTDOWN_CLOSE_TIMEOUT
            } else {
                WRITE_TIMEOUT
            };
            let _ = tokio::time::timeout(wait, &mut writer).await;
            writer.abort();
        }
    }

    async fn read_loop(
        &mut self,
        stream: &mut futures_util::stream::SplitStream<WebSocket>,
        writer: &mut tokio::task::JoinHandle<()>,
    ) -> Close {
        let mut shutdown = self.app.shutdown.clone();
        let mut ping = tokio::time::interval(self.app.config.ping_interval);
        ping.tick().await;
        // Measured at once, so that a first move is already compensated.
        self.ping(Instant::now());
        // A member's connection ends with its session or token (`accounts::cuts`): at once
        // when a route of any node ends it, or at the next recheck.
        let cut = self.account.as_ref().map(|who| {
            self.app.accounts.used(who.id);
            self.app.accounts.cuts.register(who.id, who.via.clone())
        });
        // A guest has nothing to recheck, and no timer for it.
        let mut recheck = cut.as_ref().map(|_| {
            let every = self.app.config.session_recheck;
            let mut recheck = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
            recheck.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            recheck
        });
        loop {
            tokio::select! {
                            _ = shutdown.recv() => {
                                self.outbox.send(&ServerMessage::Shutdown(ShutdownNotice {
                                    reason: "the server is shutting down".into(),
                                    reconnect_after_ms: 1_000,
                                }));
                                return Close::With(close::GOING_AWAY, "server shutting down");
                            }
                            _ = &mut *writer => return Close::Gone,
                            () = async { cut.as_ref().expect("only for a member").cut().await }, if cut.is_some() => {
                                return Close::With(close::SESSION_ENDED, "session ended");
                            }
                            _ = async { recheck.as_mut().expect("only for a member").tick().await }, if recheck.is_some() => {
                                // Boxed: the lookup runs rarely, and inline it would size every connection.
                                if !Box::pin(self.still_logged_in()).await {
                                    return Close::With(close::SESSION_ENDED, "session ended");
                                }
                            }
                            _ = ping.tick() => {
                                if self.idle.expired(Instant::now()) {
                                    return Close::With(close::IDLE, "idle timeout");
                                }
                                self.ping(Instant::now());
                            }
                            frame = stream.next() => {
                                let frame = match frame {
                                    Some(Ok(frame)) => frame,
                                    Some(Err(err)) => return close_for_read_error(err),
                                    None => return Close::Gone,
                                };
                                let now = Instant::now();
                                self.idle.heard(now);
                                match &frame {
                                    Message::Close(_) => return Close::Gone,
                                    Message::Pong(payload) => self.round_trips.pong(payload, now),
                                    _ => {}
                                }
                                let payload = match &frame {
                                    Message::Text(text) => Some(FrameRef::Text(text.as_str().as_bytes())),
                                    Message::Binary(bytes) => Some(FrameRef::Binary(bytes)),
                                    Message::Close(_) | Message::Ping(_) | Message::Pong(_) => None,
                                };
                                // Every frame counts, WebSocket pings too.
                                if !self.rate.allow(now) {
                                    let id = payload.and_then(|payload| self.envelope_id(payload));
                                    self.outbox.refuse(id, Refusal::new(ErrorCode::RateLimited, "too many messages")
            .with(ErrorArgs::new("too_many_messages")));
                                    self.app.address_limits.hit(
                                        LimitKind::MessageRate,
                                        self.client,
                                        "message rate limit exceeded; connection closed",
                                    );
                                    return Close::With(close::POLICY, "message rate limit exceeded");
                                }
                                let Some(payload) = payload else { continue };
                                match self.decode(payload) {
                                    // Boxed: dispatch is the largest state of a connection's future and runs rarely;
                                    // inline, it would size the task of every idle connection.
                                    Ok(envelope) => Box::pin(self.dispatch(envelope)).await,
                                    // The refusal names the envelope whenever its id could be read.
                                    Err(refusal) => self.outbox.refuse(self.envelope_id(payload), refusal),
                                }
                            }
                        }
        }
    }

    /// Whether this member connection's session or token still acts as its account. Only
    /// an answer that it ended says no: a storage failure keeps the connection.
    async fn still_logged_in(&self) -> bool {
        let Some(who) = &self.account else {
            return true;
        };
        match self.app.accounts.recheck(who).await {
            Ok(_) | Err(crate::accounts::AuthError::Storage(_)) => true,
            Err(
                crate::accounts::AuthError::Unauthenticated | crate::accounts::AuthError::Closed,
            ) => false,
        }
    }

    /// Decodes and validates a frame within the configured size limit. A message type the
    /// protocol does not know is reported by name (still `malformed`).
    fn decode(&self, frame: FrameRef<'_>) -> Result<ClientEnvelope, Refusal> {
        self.encoding
            .decode_client_within(frame, self.app.config.max_message)
            .map_err(|err| Refusal::new(err.code(), err.to_string()).with(err.args()))
    }

    /// The ack id of a frame that did not decode, if at least that can be read.
    fn envelope_id(&self, frame: FrameRef<'_>) -> Option<u64> {
        self.encoding
            .envelope_id(frame, self.app.config.max_message)
    }

    fn reply(&self, message: ServerMessage) {
        self.outbox.send(&message);
    }

    /// Carries out one client message: each concern's handlers are in their own module
    /// ([`matches`], [`channels`], [`accounts`]); none waits for an answer, it goes through the
    /// outbox.
    async fn dispatch(&mut self, ClientEnvelope { id, msg }: ClientEnvelope) {
        use ClientMessage as M;
        let result = match msg {
            M::Hello(hello) => self.hello(id, hello),
            M::Ping(ping) => {
                self.reply(ServerMessage::Pong(Pong { nonce: ping.nonce }));
                Ok(())
            }
            M::ListLobby => self.list_lobby(id).await,
            M::CreateMatch(create) => self.create_match(id, create).await,
            M::PlayNow(play) => self.play_now(id, play).await,
            M::CancelPlayNow => self.cancel_play_now(id),
            M::JoinMatch(join) => self.join_match(id, join).await,
            M::Resume(resume) => self.resume(id, resume).await,
            M::Reclaim(reclaim) => self.reclaim(id, reclaim).await,
            M::Chat(chat) => self.chat(id, chat).await,
            M::ChatDelete(delete) => self.chat_delete(id, delete).await,
            M::ChatMute(mute) => self.chat_mute(id, mute).await,
            seat @ (M::Move(_)
            | M::Resign(_)
            | M::OfferDraw(_)
            | M::AcceptDraw(_)
            | M::DeclineDraw(_)
            | M::Abort(_)
            | M::Claim(_)
            | M::OfferRematch(_)
            | M::AcceptRematch(_)
            | M::DeclineRematch(_)
            | M::MoreTime(_)
            | M::RefuseMoreTime(_)
            | M::Berserk(_)
            | M::ProposeTakeback(_)
            | M::AcceptTakeback(_)
            | M::DeclineTakeback(_)) => self.act(id, seat).await,
            M::Watch(Watch {
                target: Target::Match(match_id),
                since_v,
            }) => self.watch_match(id, &match_id, since_v).await,
            M::Unwatch(Target::Match(match_id)) => self.unwatch_match(id, &match_id),
            M::Watch(Watch {
                target: Target::Channel(channel),
                since_v,
            }) => self.channel(id, ChannelRequest::Watch { channel, since_v }),
            M::Unwatch(Target::Channel(channel)) => {
                self.channel(id, ChannelRequest::Unwatch { channel })
            }
            M::Watch(Watch {
                target: Target::Event(event),
                since_v,
            }) => {
                (self.app.event_followers)
                    .watch(&self.outbox, id, event, since_v)
                    .await
            }
            M::Unwatch(Target::Event(event)) => {
                (self.app.event_followers).unwatch(&self.outbox, id, &event)
            }
            M::StartEngineGame(start) => self.start_engine_game(id, start),
            M::Predict(predict) => self.predict(id, predict),
            M::Leaderboard(query) => self.channel(id, ChannelRequest::Leaderboard(query)),
        };
        if let Err(refusal) = result {
            self.outbox.refuse(id, refusal);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of the futures `f` returns.
    fn future_size<A, B, C, D, F: Future>(_: fn(A, B, C, D) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    fn writer_size<A, B, F: Future>(_: fn(A, B) -> F) -> usize {
        std::mem::size_of::<F>()
    }

    /// Every idle connection's task holds its reading future and its writer's for its whole
    /// life, sized for their largest state: what runs rarely (a dispatch, the closing
    /// handshake and goodbyes, a session recheck, a slow client's drop) is boxed so it does
    /// not size them, and the connection points at the shared `App` instead of holding a
    /// copy. Before, the reading future alone was over 5 KiB in a debug build (1.1 KiB of it
    /// an `App`); these bounds are for debug builds, release ones are smaller.
    #[test]
    fn an_idle_connection_s_futures_stay_small() {
        let reading = future_size(run);
        let writing = writer_size(write_loop);
        assert!(
            reading <= 1_536,
            "a connection's reading future takes {reading} bytes"
        );
        assert!(
            writing <= 768,
            "a connection's writer future takes {writing} bytes"
        );
        assert!(std::mem::size_of::<Connection>() <= 512);
    }
}
