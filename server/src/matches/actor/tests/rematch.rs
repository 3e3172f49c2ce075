//! A player who comes back to a finished match gets their seat in its rematch, also when
//! the rematch no longer runs on this node (it moved to another node of a cluster), and
//! only the match a rematch is of can hand its seats out that way.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Message;
use boardcast_protocol::{Encoding, FrameRef, MatchSummary, ServerMessage, Side};
use tokio::time::Instant;

use crate::matches::directory::{Created, Directory, Found};
use crate::matches::local::{Creator, Hub};
use crate::matches::{Action, Command, MatchHandle, Ownership, Player, SeatKey, Settings, Setup};
use crate::refusal::Refusal;
use crate::room::outbox::{Inbox, Outbox, next_conn_id, outbox};
use crate::storage::Storage;

/// The hub's directory, except that only the first match is "on this node": every other
/// one (the rematch) is found only by [`Directory::running_anywhere`], as a match another
/// node runs is in a cluster.
struct Elsewhere {
    hub: Hub,
    home: Mutex<Option<String>>,
}

impl Elsewhere {
    fn is_home(&self, id: &str) -> bool {
        self.home.lock().unwrap().as_deref() == Some(id)
    }
}

#[async_trait::async_trait]
impl Directory for Elsewhere {
    async fn find(&self, id: &str) -> Found {
        self.hub.find(id).await
    }
    async fn find_by_code(&self, code: &str) -> Found {
        self.hub.find_by_code(code).await
    }
    async fn find_by_token(&self, token: &str) -> Found {
        self.hub.find_by_token(token).await
    }
    fn running(&self, id: &str) -> Option<MatchHandle> {
        self.hub.running(id).filter(|_| self.is_home(id))
    }
    async fn running_anywhere(&self, id: &str) -> Option<MatchHandle> {
        self.hub.running(id)
    }
    fn is_public(&self, id: &str) -> bool {
        self.hub.is_public(id)
    }
    fn lobby(&self) -> (Vec<MatchSummary>, Vec<MatchSummary>) {
        self.hub.lobby()
    }
    fn register_token_hash(&self, token_hash: &str, match_id: &str) {
        self.hub.register_token_hash(token_hash, match_id);
    }
    fn update_summary(&self, summary: MatchSummary, public: bool) {
        self.hub.update_summary(summary, public);
    }
    fn remove(&self, id: &str) {
        self.hub.remove(id);
    }
    async fn create(
        &self,
        setup: Setup,
        players: Vec<(Side, Player)>,
        arrivals_follow: bool,
    ) -> Result<Created, Refusal> {
        self.hub.create(setup, players, arrivals_follow).await
    }
}

fn act(handle: &MatchHandle, outbox: &Outbox, token: &str, id: u64, action: Action) {
    handle
        .try_send(Command::Act {
            outbox: outbox.clone(),
            id,
            token: token.to_owned(),
            action,
            received: Instant::now(),
        })
        .unwrap();
}

/// The next `seat` the connection gets (other messages skipped).
async fn next_seat(inbox: &mut Inbox) -> boardcast_protocol::Seat {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), inbox.rx.recv())
            .await
            .expect("a seat in time")
            .expect("the connection is open");
        let Message::Text(text) = frame else {
            panic!("a JSON player gets text: {frame:?}");
        };
        let message = Encoding::Json
            .decode_server(FrameRef::Text(text.as_bytes()))
            .unwrap();
        if let ServerMessage::Seat(seat) = message {
            return seat;
        }
    }
}

#[tokio::test]
async fn a_player_back_in_a_finished_match_gets_the_seat_of_its_rematch_run_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let (storage, _) = Storage::open(
        &crate::storage::Database::Sqlite(dir.path().join("db")),
        None,
    )
    .await
    .unwrap();
    let (_trigger, shutdown) = crate::ops::shutdown::channel();
    let (tasks, _all_done) = crate::ops::shutdown::tasks();
    let settings = Settings::for_tests();
    let hub = Hub::new(storage, settings, shutdown, tasks);
    let directory = Arc::new(Elsewhere {
        hub: hub.clone(),
        home: Mutex::default(),
    });
    let setup = Setup::default();
    let players = [
        (Side::White, Player::person("w")),
        (Side::Black, Player::person("b")),
    ];
    let creator = Creator {
        directory: directory.clone(),
        node: None,
        ownership: |_: &str, _| Ownership::single(),
    };
    let (handle, id, tokens) = hub
        .create_owned(setup, &players, false, creator)
        .await
        .unwrap();
    *directory.home.lock().unwrap() = Some(id.clone());
    let token = |side| tokens.iter().find(|(s, _)| *s == side).unwrap().1.clone();
    let (white, mut white_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    let (black, _black_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    act(&handle, &white, &token(Side::White), 1, Action::Resign);
    act(
        &handle,
        &white,
        &token(Side::White),
        2,
        Action::OfferRematch,
    );
    act(
        &handle,
        &black,
        &token(Side::Black),
        1,
        Action::AcceptRematch,
    );
    // White's connection there gets its rematch seat as the rematch starts …
    let first = next_seat(&mut white_inbox).await;
    assert_ne!(first.match_id, id);
    assert_eq!(first.side, Side::Black, "colours swap");
    assert!(directory.running(&first.match_id).is_none(), "not here");

    // … and White, back on a new connection to the finished match, gets it too, though
    // the rematch is not on this node.
    let (back, mut back_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    handle
        .try_send(Command::Resume {
            outbox: back,
            id: 7,
            token: SeatKey::Token(token(Side::White)),
            since_v: None,
            carried: false,
        })
        .unwrap();
    let resumed = next_seat(&mut back_inbox).await;
    assert_eq!(resumed.match_id, id, "the old seat first");
    let rematch = next_seat(&mut back_inbox).await;
    assert_eq!(rematch.match_id, first.match_id);
    assert_eq!((rematch.id, rematch.side), (0, Side::Black));
    assert_eq!(rematch.token, first.token);

    // The rematch seats a player as the old match's only for the match it is the rematch
    // of: the same key naming any other match seats nobody.
    let rematch_handle = directory.running_anywhere(&first.match_id).await.unwrap();
    let (stranger, mut stranger_inbox) = outbox(next_conn_id(), Encoding::Json, 256);
    for (id, of) in [(5, "another-match"), (6, id.as_str())] {
        rematch_handle
            .try_send(Command::Resume {
                outbox: stranger.clone(),
                id,
                token: SeatKey::Rematch {
                    of: of.to_owned(),
                    side: Side::White,
                },
                since_v: None,
                carried: false,
            })
            .unwrap();
    }
    let seated = next_seat(&mut stranger_inbox).await;
    assert_eq!(
        (seated.id, seated.side),
        (6, Side::Black),
        "only the real key seats"
    );
}
