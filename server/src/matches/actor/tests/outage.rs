//! A short storage outage on a single node (PROTOCOL.md §12): the side to move is not
//! charged the time in which no move of theirs could be stored, and no flag falls in it.
//! The same store wrapper counts the chat reads: a new match reads none.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{
    ChatPreset, ChatRoom, ChatSay, ClockState, Encoding, ErrorCode, FrameRef, MatchEvent,
    ServerMessage, Side, TimeControl,
};
use tokio::time::Instant;

use crate::matches::local::Hub;
use crate::matches::{Action, ChatRequest, Command, MatchHandle, Player, Settings, Setup};
use crate::room::outbox::{Inbox, Outbox, next_conn_id, outbox};
use crate::storage::club::StoredClubEvent;
use crate::storage::{
    ArchivedGame, ChatLineRow, MatchKey, Storage, StorageError, Store, StoredMatch, Unavailable,
    Write,
};
use boardcast_protocol::LeaderboardEntry;

/// A store that refuses every write while `failing` (an unreachable database, a full disk)
/// and otherwise writes to a real SQLite file; it counts the chat reads in `chat_reads`.
#[derive(Debug)]
struct Flaky {
    inner: Storage,
    failing: Arc<AtomicBool>,
    chat_reads: Arc<AtomicUsize>,
}

#[async_trait::async_trait]
impl Store for Flaky {
    async fn commit(&self, writes: Vec<Write>) -> Result<(), StorageError> {
        if self.failing.load(Ordering::SeqCst) {
            return Err(StorageError::Unavailable(Unavailable::SwitchedOff));
        }
        self.inner.commit(writes).await
    }
    async fn unfinished(&self) -> Result<Vec<StoredMatch>, StorageError> {
        self.inner.unfinished().await
    }
    async fn unfinished_of_event(&self, event: String) -> Result<Vec<StoredMatch>, StorageError> {
        self.inner.unfinished_of_event(event).await
    }
    async fn chat_lines(&self, match_id: String) -> Result<Vec<ChatLineRow>, StorageError> {
        self.chat_reads.fetch_add(1, Ordering::SeqCst);
        self.inner.chat_lines(match_id).await
    }
    async fn finished_pdn(&self, id: String) -> Result<Option<String>, StorageError> {
        self.inner.finished_pdn(id).await
    }
    async fn finished_match(&self, key: MatchKey) -> Result<Option<StoredMatch>, StorageError> {
        self.inner.finished_match(key).await
    }
    async fn leaderboard(&self, limit: u32) -> Result<Vec<LeaderboardEntry>, StorageError> {
        self.inner.leaderboard(limit).await
    }
    async fn archived_game(&self, id: u64) -> Result<Option<ArchivedGame>, StorageError> {
        self.inner.archived_game(id).await
    }
    async fn next_game_id(&self) -> Result<u64, StorageError> {
        self.inner.next_game_id().await
    }
    async fn next_run(&self) -> Result<u64, StorageError> {
        self.inner.next_run().await
    }
    async fn last_heartbeat(&self) -> Result<Option<i64>, StorageError> {
        self.inner.last_heartbeat().await
    }
    fn accounts(&self) -> std::sync::Arc<dyn crate::storage::accounts::AccountStore> {
        self.inner.accounts()
    }
    async fn club_events(
        &self,
        unfinished_only: bool,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        self.inner.club_events(unfinished_only).await
    }
    async fn club_event_heads(
        &self,
        finished: bool,
        offset: u64,
        limit: u32,
    ) -> Result<Vec<StoredClubEvent>, StorageError> {
        self.inner.club_event_heads(finished, offset, limit).await
    }
    async fn club_event(&self, id: String) -> Result<Option<StoredClubEvent>, StorageError> {
        self.inner.club_event(id).await
    }
    async fn club_event_records(
        &self,
        id: String,
        after: u64,
        limit: u32,
    ) -> Result<Vec<crate::storage::StoredEvent>, StorageError> {
        self.inner.club_event_records(id, after, limit).await
    }
    async fn is_organiser(&self, account: i64) -> Result<bool, StorageError> {
        self.inner.is_organiser(account).await
    }
    async fn close(&self) {
        self.inner.close().await
    }
}

/// What a player's connection got in reply to envelope `id`, and the clocks of the move
/// that followed an ack; other messages are skipped.
async fn reply(inbox: &mut Inbox, id: u64) -> Result<Option<ClockState>, ErrorCode> {
    let mut acked = false;
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), inbox.rx.recv())
            .await
            .expect("a reply in time")
            .expect("the connection is open");
        let Message::Text(text) = frame else {
            panic!("a JSON player gets text: {frame:?}");
        };
        match Encoding::Json
            .decode_server(FrameRef::Text(text.as_bytes()))
            .unwrap()
        {
            ServerMessage::Ack(ack) if ack.id == id => acked = true,
            ServerMessage::Error(error) if error.id == Some(id) => return Err(error.code),
            ServerMessage::MatchEvent(event) if acked => match event.event {
                MatchEvent::Moved(moved) => return Ok(moved.clock),
                MatchEvent::Ended(result) => panic!("the match ended instead: {result:?}"),
                _ => {}
            },
            _ => {}
        }
    }
}

fn play(handle: &MatchHandle, outbox: &Outbox, token: &str, id: u64, route: Vec<u8>) {
    handle
        .try_send(Command::Act {
            outbox: outbox.clone(),
            id,
            token: token.to_owned(),
            action: Action::play(route),
            received: Instant::now(),
        })
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_outage_charges_the_side_to_move_nothing_and_flags_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let (sqlite, _) = Storage::open(
        &crate::storage::Database::Sqlite(dir.path().join("db")),
        None,
    )
    .await
    .unwrap();
    let failing = Arc::new(AtomicBool::new(false));
    let storage = Storage::new(Flaky {
        inner: sqlite,
        failing: failing.clone(),
        chat_reads: Arc::default(),
    });
    let (_trigger, shutdown) = crate::ops::shutdown::channel();
    let (tasks, _all_done) = crate::ops::shutdown::tasks();
    let settings = Settings::for_tests();
    let hub = Hub::new(storage, settings, shutdown, tasks);
    let two_seconds = TimeControl {
        initial_ms: 2_000,
        increment_ms: 0,
    };
    let setup = Setup {
        time_control: Some(two_seconds),
        public: false,
        rematch_of: None,
        start_fen: None,
        rated: false,
        rating_range: None,
        berserk: false,
        event: None,
    };
    let players = [
        (Side::White, Player::person("w")),
        (Side::Black, Player::person("b")),
    ];
    let (handle, _, tokens) = hub.create_match(setup, &players, false).await.unwrap();
    let token = |side| tokens.iter().find(|(s, _)| *s == side).unwrap().1.clone();
    let (white, mut white_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    let (black, mut black_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    play(&handle, &white, &token(Side::White), 1, vec![32, 28]);
    reply(&mut white_inbox, 1).await.unwrap();
    // Black's first move starts White's 2 s: no earlier than it is sent.
    let turn_began = Instant::now();
    play(&handle, &black, &token(Side::Black), 1, vec![19, 23]);
    reply(&mut black_inbox, 1).await.unwrap();

    // Storage refuses writes: White's move is refused, nothing applied …
    failing.store(true, Ordering::SeqCst);
    play(&handle, &white, &token(Side::White), 2, vec![28, 19]);
    assert_eq!(
        reply(&mut white_inbox, 2).await,
        Err(ErrorCode::StorageUnavailable)
    );
    let outage_began = turn_began.elapsed();
    // … for longer than White had left: no flag falls.
    let outage = Duration::from_millis(2_500);
    tokio::time::sleep(outage).await;
    failing.store(false, Ordering::SeqCst);
    play(&handle, &white, &token(Side::White), 2, vec![28, 19]);
    let clock = reply(&mut white_inbox, 2)
        .await
        .expect("the move is accepted once storage is back")
        .expect("a clock");
    let charged = Duration::from_millis(two_seconds.initial_ms - clock.white_ms);
    let since_back = turn_began.elapsed() - outage_began - outage;
    assert!(
        charged <= outage_began + since_back,
        "White was charged {charged:?}: more than the {outage_began:?} before the outage \
         and the {since_back:?} after it"
    );
    assert_eq!(clock.running, Some(Side::Black));
}

/// The first message on `inbox` that `wanted` picks; others are skipped.
async fn until<T>(inbox: &mut Inbox, mut wanted: impl FnMut(ServerMessage) -> Option<T>) -> T {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), inbox.rx.recv())
            .await
            .expect("a message in time")
            .expect("the connection is open");
        let Message::Text(text) = frame else {
            panic!("a JSON follower gets text: {frame:?}");
        };
        let message = Encoding::Json
            .decode_server(FrameRef::Text(text.as_bytes()))
            .unwrap();
        if let Some(found) = wanted(message) {
            return found;
        }
    }
}

/// Follows `handle` as a spectator and says a preset line as `author`, returning what the
/// spectator was sent as the chat so far (none if nothing was said yet).
async fn watch_and_say(handle: &MatchHandle, author: &str) -> Vec<ChatSay> {
    let (watcher, mut inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    handle
        .try_send(Command::Watch {
            outbox: watcher.clone(),
            id: 1,
            since_v: None,
            carried: false,
        })
        .unwrap();
    handle
        .try_send(Command::Chat {
            outbox: watcher,
            id: 2,
            request: ChatRequest::Say {
                author: Player::person(author),
                say: ChatSay::Preset(ChatPreset::GoodLuck),
            },
        })
        .unwrap();
    let mut history = Vec::new();
    until(&mut inbox, |message| match message {
        ServerMessage::ChatHistory(h) if h.room == ChatRoom::Spectators => {
            history = h.lines.into_iter().map(|line| line.say).collect();
            None
        }
        ServerMessage::Ack(ack) if ack.id == 2 => Some(()),
        ServerMessage::Error(error) => panic!("refused: {error:?}"),
        _ => None,
    })
    .await;
    history
}

/// A match created here has nothing stored in its chat yet, so its actor reads none (a read
/// is a SQLite connection on a blocking thread per new match); a match read back after a
/// restart reads its lines once, and a spectator gets them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_match_reads_no_chat_and_a_recovered_one_reads_its_lines_back() {
    let dir = tempfile::tempdir().unwrap();
    let (sqlite, _) = Storage::open(
        &crate::storage::Database::Sqlite(dir.path().join("db")),
        None,
    )
    .await
    .unwrap();
    let chat_reads = Arc::new(AtomicUsize::new(0));
    let storage = Storage::new(Flaky {
        inner: sqlite,
        failing: Arc::default(),
        chat_reads: chat_reads.clone(),
    });
    let settings = Settings::for_tests();
    let setup = Setup::default();
    let players = [
        (Side::White, Player::person("w")),
        (Side::Black, Player::person("b")),
    ];
    let (_trigger, shutdown) = crate::ops::shutdown::channel();
    let (tasks, _all_done) = crate::ops::shutdown::tasks();
    let hub = Hub::new(storage.clone(), settings, shutdown.clone(), tasks.clone());
    let (handle, _, tokens) = hub.create_match(setup, &players, false).await.unwrap();
    assert_eq!(watch_and_say(&handle, "fan").await, vec![]);
    assert_eq!(
        watch_and_say(&handle, "another fan").await,
        vec![ChatSay::Preset(ChatPreset::GoodLuck)]
    );
    assert_eq!(
        chat_reads.load(Ordering::SeqCst),
        0,
        "a new match's chat is read"
    );

    // The node restarts: the match is read back, and its chat with it.
    let restarted = Hub::new(storage.clone(), settings, shutdown, tasks);
    let stored = storage.unfinished().await.unwrap();
    assert_eq!(restarted.recover(stored, None), 1);
    let recovered = restarted.running_by_token(&tokens[0].1).unwrap();
    assert_eq!(
        watch_and_say(&recovered, "third fan").await,
        vec![ChatSay::Preset(ChatPreset::GoodLuck); 2]
    );
    assert_eq!(chat_reads.load(Ordering::SeqCst), 1);
}
