//! The proxy against a fake cluster: what it forwards, what each follower is sent and in
//! which order, and what it does when the match changes owner.

use std::collections::HashSet;
use std::sync::Mutex;

use boardcast_protocol::{Ack, BySide, Frame, MatchEvent, Side};

use super::*;
use crate::matches::{Action, MatchState, Setup};
use crate::room::outbox::{Inbox, next_conn_id, outbox};

const ID: &str = "m1";

fn node(name: &str, incarnation: u64) -> NodeRef {
    NodeRef {
        node: name.to_owned(),
        incarnation,
    }
}

/// A cluster in memory: what the proxy sent, who is alive, what PostgreSQL holds.
struct Fake {
    sent: Mutex<Vec<(NodeRef, ToOwner)>>,
    alive: Mutex<HashSet<NodeRef>>,
    /// Every committed event of the match, as PostgreSQL would give it back.
    stored: Mutex<Vec<MatchEventMsg>>,
    /// What a take-over gives.
    actor: Mutex<Option<MatchHandle>>,
    me: NodeRef,
}

impl Fake {
    fn new() -> Arc<Fake> {
        let fake = Fake {
            sent: Mutex::default(),
            alive: Mutex::default(),
            stored: Mutex::default(),
            actor: Mutex::default(),
            me: node("b", 1),
        };
        fake.alive.lock().unwrap().insert(node("a", 1));
        Arc::new(fake)
    }

    fn take_sent(&self) -> Vec<(NodeRef, ToOwner)> {
        std::mem::take(&mut *self.sent.lock().unwrap())
    }
}

#[async_trait::async_trait]
impl Link for Fake {
    fn me(&self) -> &NodeRef {
        &self.me
    }

    fn send(&self, owner: &NodeRef, message: ToOwner) -> bool {
        self.sent.lock().unwrap().push((owner.clone(), message));
        true
    }

    fn is_alive(&self, node: &NodeRef) -> bool {
        self.alive.lock().unwrap().contains(node)
    }

    async fn take_over(&self, _id: &str) -> TakeOver {
        match self.actor.lock().unwrap().take() {
            Some(actor) => TakeOver::Here(actor),
            None => TakeOver::Failed,
        }
    }

    async fn owner(&self, _id: &str) -> Option<(Option<NodeRef>, u64)> {
        let alive = self.alive.lock().unwrap();
        let owner = alive.iter().find(|n| **n != self.me).cloned();
        Some((owner, 1))
    }

    async fn events_after(&self, _id: &str, v: u64) -> Option<Vec<MatchEventMsg>> {
        let stored = self.stored.lock().unwrap();
        Some(stored.iter().filter(|e| e.v > v).cloned().collect())
    }
}

fn event(v: u64) -> MatchEventMsg {
    let side = if v.is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    MatchEventMsg {
        match_id: ID.to_owned(),
        v,
        event: MatchEvent::DrawOffered(side),
    }
}

/// The owner commits event `v`: stored, then relayed (postcard).
fn commit(fake: &Fake, v: u64) -> FromCluster {
    fake.stored.lock().unwrap().push(event(v));
    let message = match Encoding::Postcard.encode(&ServerMessage::MatchEvent(event(v))) {
        Frame::Binary(bytes) => bytes,
        Frame::Text(_) => unreachable!("postcard is binary"),
    };
    FromCluster::Relay(MatchRelay::Event {
        epoch: 1,
        v,
        message,
    })
}

/// A reply frame of the owner for `conn`, in JSON.
fn reply(conn: ConnId, message: ServerMessage) -> FromCluster {
    reply_from(node("a", 1), conn, message)
}

/// A reply frame of `owner` for `conn`, in JSON.
fn reply_from(owner: NodeRef, conn: ConnId, message: ServerMessage) -> FromCluster {
    let bytes = match Encoding::Json.encode(&message) {
        Frame::Text(text) => text.into_bytes(),
        Frame::Binary(_) => unreachable!("JSON is text"),
    };
    FromCluster::Reply(ToAsker::Frame {
        match_id: ID.to_owned(),
        owner,
        conn,
        binary: false,
        bytes,
    })
}

fn snapshot(v: u64) -> ServerMessage {
    let setup = Setup {
        time_control: None,
        public: true,
        rematch_of: None,
        start_fen: None,
        rated: false,
        rating_range: None,
        berserk: false,
        event: None,
    };
    let state = MatchState::new(ID.to_owned(), "ABCDEF".to_owned(), setup).unwrap();
    let mut snapshot = state.snapshot(Instant::now().into_std(), BySide::default());
    snapshot.v = v;
    ServerMessage::MatchSnapshot(snapshot)
}

fn ack(id: u64) -> ServerMessage {
    ServerMessage::Ack(Ack {
        id,
        duplicate: false,
    })
}

/// What a connection has received: `e{v}` for an event, `s{v}` for a snapshot, `ack{id}`.
fn received(inbox: &mut Inbox) -> Vec<String> {
    std::iter::from_fn(|| inbox.rx.try_recv().ok())
        .map(|message| match message {
            Message::Text(text) => {
                match Encoding::Json.decode_server(FrameRef::Text(text.as_bytes())) {
                    Ok(ServerMessage::MatchEvent(e)) => format!("e{}", e.v),
                    Ok(ServerMessage::MatchSnapshot(s)) => format!("s{}", s.v),
                    Ok(ServerMessage::Ack(a)) => format!("ack{}", a.id),
                    Ok(ServerMessage::Seat(s)) => format!("seat{}", s.id),
                    Ok(other) => format!("{other:?}"),
                    Err(err) => format!("garbled: {err}"),
                }
            }
            other => format!("{other:?}"),
        })
        .collect()
}

struct Running {
    handle: MatchHandle,
    inbox: ProxyInbox,
    _trigger: crate::ops::shutdown::Trigger,
    _all_done: crate::ops::shutdown::AllDone,
}

fn start(fake: &Arc<Fake>) -> Running {
    let (trigger, shutdown) = crate::ops::shutdown::channel();
    let (tasks, all_done) = crate::ops::shutdown::tasks();
    let (handle, inbox) = spawn(
        ID.to_owned(),
        node("a", 1),
        1,
        fake.clone(),
        shutdown,
        tasks.guard().unwrap(),
        Box::new(|| {}),
    );
    Running {
        handle,
        inbox,
        _trigger: trigger,
        _all_done: all_done,
    }
}

/// Lets the proxy's task run until it has nothing left to do.
async fn settle() {
    for _ in 0..50 {
        tokio::task::yield_now().await;
    }
}

fn connection() -> (Outbox, Inbox) {
    outbox(next_conn_id(), Encoding::Json, 64)
}

#[tokio::test]
async fn a_watcher_gets_its_snapshot_then_every_later_event_once_in_order() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (watcher, mut watcher_in) = connection();
    let conn = watcher.id();
    proxy
        .handle
        .try_send(Command::Watch {
            outbox: watcher,
            id: 7,
            since_v: None,
            carried: false,
        })
        .unwrap();
    settle().await;
    let sent = fake.take_sent();
    assert!(
        matches!(&sent[..], [(owner, ToOwner::Command { command: RemoteCommand::Watch { id: 7, since_v: None, carried: false }, conn: c, encoding: Encoding::Json, .. }), (_, ToOwner::Crowd { watchers: 1, .. })] if *owner == node("a", 1) && *c == conn),
        "{sent:?}"
    );
    // Events committed before the watch was answered: not for this watcher.
    proxy.inbox.deliver(commit(&fake, 1));
    proxy.inbox.deliver(commit(&fake, 2));
    proxy.inbox.deliver(reply(conn, ack(7)));
    proxy.inbox.deliver(reply(conn, snapshot(2)));
    for v in 3..=5 {
        proxy.inbox.deliver(commit(&fake, v));
    }
    // A duplicate relay changes nothing.
    proxy.inbox.deliver(commit(&fake, 5));
    settle().await;
    assert_eq!(received(&mut watcher_in), ["ack7", "s2", "e3", "e4", "e5"]);
}

#[tokio::test]
async fn a_resumed_player_gets_its_catch_up_before_an_event_relayed_meanwhile() {
    let fake = Fake::new();
    let proxy = start(&fake);
    for v in 1..=3 {
        proxy.inbox.deliver(commit(&fake, v));
    }
    settle().await;
    let (player, mut player_in) = connection();
    let conn = player.id();
    proxy
        .handle
        .try_send(Command::Resume {
            outbox: player,
            id: 9,
            token: "tok".into(),
            since_v: Some(1),
            carried: false,
        })
        .unwrap();
    settle().await;
    // Seating the player commits event 4 (it returned) before the catch-up is sent.
    proxy.inbox.deliver(reply(
        conn,
        ServerMessage::Seat(boardcast_protocol::Seat {
            id: 9,
            match_id: ID.to_owned(),
            invite_code: "ABCDEF".into(),
            side: Side::White,
            token: "tok".into(),
        }),
    ));
    proxy.inbox.deliver(commit(&fake, 4));
    for v in 2..=4 {
        proxy
            .inbox
            .deliver(reply(conn, ServerMessage::MatchEvent(event(v))));
    }
    proxy.inbox.deliver(commit(&fake, 5));
    settle().await;
    assert_eq!(received(&mut player_in), ["seat9", "e2", "e3", "e4", "e5"]);
}

#[tokio::test]
async fn a_gap_in_relayed_events_is_filled_from_the_store_in_order() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (watcher, mut watcher_in) = connection();
    let conn = watcher.id();
    proxy
        .handle
        .try_send(Command::Watch {
            outbox: watcher,
            id: 1,
            since_v: None,
            carried: false,
        })
        .unwrap();
    settle().await;
    proxy.inbox.deliver(reply(conn, ack(1)));
    proxy.inbox.deliver(reply(conn, snapshot(0)));
    proxy.inbox.deliver(commit(&fake, 1));
    // Redis lost 2 and 3.
    let _ = commit(&fake, 2);
    let _ = commit(&fake, 3);
    proxy.inbox.deliver(commit(&fake, 4));
    settle().await;
    assert_eq!(
        received(&mut watcher_in),
        ["ack1", "s0", "e1", "e2", "e3", "e4"]
    );
    // A resync after more was lost catches up too.
    let _ = commit(&fake, 5);
    proxy.inbox.deliver(FromCluster::Resync);
    settle().await;
    assert_eq!(received(&mut watcher_in), ["e5"]);
}

#[tokio::test]
async fn a_new_owner_gets_the_pending_commands_and_the_players_again() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (player, _player_in) = connection();
    let conn = player.id();
    proxy
        .handle
        .try_send(Command::Resume {
            outbox: player.clone(),
            id: 1,
            token: "tok".into(),
            since_v: None,
            carried: false,
        })
        .unwrap();
    settle().await;
    proxy.inbox.deliver(reply(
        conn,
        ServerMessage::Seat(boardcast_protocol::Seat {
            id: 1,
            match_id: ID.to_owned(),
            invite_code: "ABCDEF".into(),
            side: Side::White,
            token: "tok".into(),
        }),
    ));
    proxy.inbox.deliver(reply(conn, snapshot(3)));
    proxy
        .handle
        .try_send(Command::Act {
            outbox: player,
            id: 2,
            token: "tok".into(),
            action: Action::OfferDraw,
            received: Instant::now(),
        })
        .unwrap();
    settle().await;
    fake.take_sent();
    // Node a died; c took the match over and says so before a answered the draw offer.
    *fake.alive.lock().unwrap() = HashSet::from([node("c", 1)]);
    proxy.inbox.deliver(FromCluster::Relay(MatchRelay::Owner {
        epoch: 2,
        owner: node("c", 1),
    }));
    settle().await;
    let sent: Vec<(String, RemoteCommand)> = fake
        .take_sent()
        .into_iter()
        .filter_map(|(owner, message)| match message {
            ToOwner::Command { command, .. } => Some((owner.to_string(), unstamped(command))),
            _ => None,
        })
        .collect();
    assert_eq!(
        sent,
        [
            (
                "c#1".to_owned(),
                RemoteCommand::Resume {
                    id: 0,
                    token: "tok".into(),
                    since_v: Some(3),
                    carried: true
                }
            ),
            (
                "c#1".to_owned(),
                RemoteCommand::Act {
                    id: 2,
                    token: "tok".into(),
                    action: Action::OfferDraw,
                    received_ms: 0,
                }
            ),
        ]
    );
}

#[tokio::test]
async fn when_the_owner_dies_the_followers_go_to_the_actor_started_here() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (watcher, _watcher_in) = connection();
    let conn = watcher.id();
    proxy
        .handle
        .try_send(Command::Watch {
            outbox: watcher,
            id: 4,
            since_v: None,
            carried: false,
        })
        .unwrap();
    settle().await;
    proxy.inbox.deliver(reply(conn, ack(4)));
    proxy.inbox.deliver(reply(conn, snapshot(6)));
    settle().await;
    let (shutdown_trigger, shutdown) = crate::ops::shutdown::channel();
    let (actor, mut mailbox) = MatchHandle::channel(shutdown);
    *fake.actor.lock().unwrap() = Some(actor);
    fake.alive.lock().unwrap().clear();
    let handed = tokio::time::timeout(Duration::from_secs(5), mailbox.recv())
        .await
        .expect("the watcher is handed over")
        .unwrap();
    assert!(
        matches!(&handed, Command::Watch { outbox, id: 0, since_v: Some(6), carried: true } if outbox.id() == conn),
        "{handed:?}"
    );
    // The proxy has stopped: its handle refuses, and lookups find the actor instead.
    tokio::time::timeout(Duration::from_secs(5), async {
        while !proxy.handle.is_stopped() {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap();
    drop(shutdown_trigger);
}

#[tokio::test]
async fn a_move_the_dead_owner_had_carried_out_is_acked_once_as_new() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (player, mut player_in) = connection();
    let conn = player.id();
    proxy
        .handle
        .try_send(Command::Act {
            outbox: player,
            id: 14,
            token: "tok".into(),
            action: Action::OfferDraw,
            received: Instant::now(),
        })
        .unwrap();
    settle().await;
    // The owner committed it and died before answering; c took over and is asked again.
    *fake.alive.lock().unwrap() = HashSet::from([node("c", 1)]);
    proxy.inbox.deliver(FromCluster::Relay(MatchRelay::Owner {
        epoch: 2,
        owner: node("c", 1),
    }));
    settle().await;
    proxy.inbox.deliver(reply_from(
        node("c", 1),
        conn,
        ServerMessage::Ack(Ack {
            id: 14,
            duplicate: true,
        }),
    ));
    settle().await;
    let acks: Vec<Ack> = std::iter::from_fn(|| player_in.rx.try_recv().ok())
        .filter_map(|message| match message {
            Message::Text(text) => Encoding::Json
                .decode_server(FrameRef::Text(text.as_bytes()))
                .ok(),
            _ => None,
        })
        .filter_map(|message| match message {
            ServerMessage::Ack(ack) => Some(ack),
            _ => None,
        })
        .collect();
    assert_eq!(
        acks,
        [Ack {
            id: 14,
            duplicate: false
        }]
    );
    // A duplicate the connection itself caused (it sent the id again) stays one.
    let (again, mut again_in) = connection();
    let again_conn = again.id();
    proxy
        .handle
        .try_send(Command::Act {
            outbox: again,
            id: 14,
            token: "tok".into(),
            action: Action::OfferDraw,
            received: Instant::now(),
        })
        .unwrap();
    settle().await;
    proxy.inbox.deliver(reply(
        again_conn,
        ServerMessage::Ack(Ack {
            id: 14,
            duplicate: true,
        }),
    ));
    settle().await;
    assert_eq!(received(&mut again_in), ["ack14"]);
}

#[tokio::test]
async fn after_a_resync_pending_actions_go_again_but_a_join_does_not() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (player, _player_in) = connection();
    let (joiner, _joiner_in) = connection();
    proxy
        .handle
        .try_send(Command::Act {
            outbox: player,
            id: 5,
            token: "tok".into(),
            action: Action::OfferDraw,
            received: Instant::now(),
        })
        .unwrap();
    proxy
        .handle
        .try_send(Command::Join {
            outbox: joiner,
            id: 1,
            player: crate::matches::Player::person("Baukje"),
            myself: false,
        })
        .unwrap();
    settle().await;
    fake.take_sent();
    proxy.inbox.deliver(FromCluster::Resync);
    settle().await;
    let again: Vec<RemoteCommand> = fake
        .take_sent()
        .into_iter()
        .filter_map(|(_, message)| match message {
            ToOwner::Command { command, .. } => Some(unstamped(command)),
            _ => None,
        })
        .collect();
    assert_eq!(
        again,
        [RemoteCommand::Act {
            id: 5,
            token: "tok".into(),
            action: Action::OfferDraw,
            received_ms: 0,
        }]
    );
}

/// `command` with its arrival stamp taken out, to compare; the stamp must be the arrival at
/// this node, a moment ago.
fn unstamped(command: RemoteCommand) -> RemoteCommand {
    match command {
        RemoteCommand::Act {
            id,
            token,
            action,
            received_ms,
        } => {
            let ago = crate::storage::now_ms() - received_ms;
            assert!((0..5_000).contains(&ago), "stamped {ago} ms ago");
            RemoteCommand::Act {
                id,
                token,
                action,
                received_ms: 0,
            }
        }
        other => other,
    }
}

fn act(proxy: &Running, outbox: Outbox, id: u64) {
    proxy
        .handle
        .try_send(Command::Act {
            outbox,
            id,
            token: "tok".into(),
            action: Action::OfferDraw,
            received: Instant::now(),
        })
        .unwrap();
}

fn seat_in(match_id: &str, id: u64) -> ServerMessage {
    ServerMessage::Seat(boardcast_protocol::Seat {
        id,
        match_id: match_id.to_owned(),
        invite_code: "ABCDEF".into(),
        side: Side::White,
        token: "tok".into(),
    })
}

/// Issue 28, 2 and 7: one envelope, one answer. Repeats of an answer (the owner answering a
/// re-send of a command already answered) and answers to the proxy's own re-seating (id 0)
/// never reach the connection; a rematch's seat (another match, id 0) does.
#[tokio::test]
async fn a_command_is_answered_once_and_the_proxys_own_re_seating_is_not_answered_to_the_player() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (player, mut player_in) = connection();
    let conn = player.id();
    act(&proxy, player, 7);
    settle().await;
    proxy.inbox.deliver(reply(conn, ack(7)));
    proxy.inbox.deliver(reply(
        conn,
        ServerMessage::Ack(Ack {
            id: 7,
            duplicate: true,
        }),
    ));
    proxy.inbox.deliver(reply(conn, ack(7)));
    proxy.inbox.deliver(reply(conn, ack(0)));
    proxy.inbox.deliver(reply(conn, seat_in(ID, 0)));
    proxy.inbox.deliver(reply(conn, seat_in("rematch", 0)));
    settle().await;
    assert_eq!(received(&mut player_in), ["ack7", "seat0"]);
}

/// Issue 28, 1: the old owner refuses a command ("the match moved, send it again") after the
/// proxy has sent it on to the new owner, which carries it out. The connection gets the new
/// owner's ack only: a refusal followed by an ack would put a client that believed it out of
/// step.
#[tokio::test]
async fn an_older_owners_refusal_of_a_command_sent_on_to_a_new_owner_is_not_relayed() {
    let fake = Fake::new();
    let proxy = start(&fake);
    let (player, mut player_in) = connection();
    let conn = player.id();
    act(&proxy, player, 9);
    settle().await;
    *fake.alive.lock().unwrap() = HashSet::from([node("c", 1)]);
    proxy.inbox.deliver(FromCluster::Relay(MatchRelay::Owner {
        epoch: 2,
        owner: node("c", 1),
    }));
    settle().await;
    proxy.inbox.deliver(reply_from(
        node("a", 1),
        conn,
        ServerMessage::Error(boardcast_protocol::ErrorReply {
            id: Some(9),
            code: ErrorCode::StorageUnavailable,
            message: "the match moved to another server; send it again".into(),
            last_id: None,
            args: None,
        }),
    ));
    settle().await;
    assert_eq!(received(&mut player_in), Vec::<String>::new());
    proxy.inbox.deliver(reply_from(node("c", 1), conn, ack(9)));
    proxy.inbox.deliver(reply_from(node("a", 1), conn, ack(9)));
    settle().await;
    assert_eq!(received(&mut player_in), ["ack9"]);
}
