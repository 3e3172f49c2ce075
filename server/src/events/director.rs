//! The event director: one actor per running event, the only writer of its history.
//!
//! Like a match, it stores each decision as a versioned record before acting on it, and a
//! restart replays the records to the same state ([`super::state`]). It pairs a round (stored
//! once: the round is a unique key), creates each board's match with both players seated (the
//! member's seat is theirs by account: `reclaim` takes it, and the match's first-move rule
//! turns a no-show into a forfeit), then reads each match back from storage once it has
//! finished and stores its result (once: the match id is a unique key). Reading results from
//! storage rather than from the match's actor means a result is never missed across restarts
//! or a match running elsewhere: what storage says finished is what counts.
//!
//! In a cluster the director runs on the node that owns the event ([`Owner`]): each record is
//! written under that ownership's epoch, so a record of a node that lost the event is refused
//! by storage, and the director stops at its first step after this node's lease lapsed.

use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{MatchEvent, Side};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use super::error::EventError;
use super::record::{EventRecord, Format};
use super::state::{EventState, Step, outcome_of};
use super::view::EventView;
use crate::matches::Directory;
use crate::matches::{Player, Record, Setup};
use crate::ops::shutdown::Shutdown;
use crate::storage::club::EventWrite;
use crate::storage::{MatchKey, Refused, Storage, StorageError, Write, now_ms};

/// Commands waiting for a director, at most.
pub(crate) const MAILBOX: usize = 64;

/// A member asking to play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Joining {
    pub account: i64,
    pub name: String,
    pub rating: u32,
    /// The id the member's page gave this request, the same each time it is sent again (after
    /// `event_moving`, or when no answer came): stored with the record that does it, so that
    /// the director answers the same request sent again, through whichever node, as done
    /// rather than `already_joined` or `not_joined`. A second tab's request has its own id.
    pub request: Option<String>,
}

/// What a member asks of a director, as data: it may travel to the node that runs the
/// director (`cluster::directors`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Ask {
    Join(Joining),
    Withdraw {
        account: i64,
        /// The id the member's page gave this request ([`Joining::request`]).
        request: Option<String>,
    },
}

impl Ask {
    /// The command that asks it, answered on `reply`.
    pub(crate) fn command(self, reply: oneshot::Sender<Result<(), EventError>>) -> Command {
        match self {
            Ask::Join(joining) => Command::Join { joining, reply },
            Ask::Withdraw { account, request } => Command::Withdraw {
                account,
                request,
                reply,
            },
        }
    }

    /// The member who asks.
    pub(crate) fn account(&self) -> i64 {
        match self {
            Ask::Join(joining) => joining.account,
            Ask::Withdraw { account, .. } => *account,
        }
    }

    /// Whether `state` shows it done: the member who joins is playing, the one who withdraws
    /// has withdrawn.
    pub(crate) fn done_in(&self, state: &EventState) -> bool {
        let entrant = state.entrant(self.account());
        match self {
            Ask::Join(_) => entrant.is_some_and(|e| !e.withdrawn),
            Ask::Withdraw { .. } => entrant.is_some_and(|e| e.withdrawn),
        }
    }

    /// Whether `refusal` is what the director answers when it was done already: a join
    /// `already_joined`, a withdrawal `not_joined`.
    pub(crate) fn refused_as_done(&self, refusal: &EventError) -> bool {
        matches!(
            (self, refusal),
            (Ask::Join(_), EventError::AlreadyJoined)
                | (Ask::Withdraw { .. }, EventError::NotJoined)
        )
    }
}

/// Whether `request` is the one that made the member's latest join or withdrawal: the same
/// request sent again. A request without an id is never taken for another.
fn asked_again(request: &Option<String>, latest: &Option<String>) -> bool {
    request.is_some() && request == latest
}

/// Whether this node's lease has been held, unbroken, since the event was claimed.
pub(crate) type StillHeld = Arc<dyn Fn() -> bool + Send + Sync>;

/// A director's ownership of its event in a cluster: the epoch of the event's ownership row
/// (kind `event`), which every record is written under, and whether the lease that won it is
/// still held.
#[derive(Clone)]
pub(crate) struct Owner {
    pub epoch: u64,
    pub held: StillHeld,
}

/// What the director is asked.
#[derive(Debug)]
pub(crate) enum Command {
    Join {
        joining: Joining,
        reply: oneshot::Sender<Result<(), EventError>>,
    },
    Withdraw {
        account: i64,
        request: Option<String>,
        reply: oneshot::Sender<Result<(), EventError>>,
    },
}

/// Why a director stopped before its event was over.
#[derive(Debug, thiserror::Error)]
enum Stopped {
    #[error("the server is shutting down")]
    Shutdown,
    #[error("storage refused the event's record: {0}")]
    Storage(#[from] StorageError),
    /// In a cluster: this node's lease lapsed since it claimed the event, so another node may
    /// run it now.
    #[error("the node's lease lapsed: another node may run the event now")]
    Lapsed,
}

impl Stopped {
    /// What a command that stopped the director is answered.
    fn refusal(&self) -> EventError {
        match self {
            Stopped::Lapsed | Stopped::Storage(StorageError::Fenced { .. }) => EventError::Moving,
            Stopped::Shutdown | Stopped::Storage(_) => EventError::Storage,
        }
    }
}

pub(crate) struct Director {
    state: EventState,
    storage: Storage,
    /// Creates the event's games: in a cluster, owned by this node (the cluster directory).
    directory: Arc<dyn Directory>,
    commands: mpsc::Receiver<Command>,
    view: watch::Sender<Arc<EventView>>,
    shutdown: Shutdown,
    /// How often the running games are looked up in storage.
    poll: Duration,
    /// In a cluster, the ownership it runs under; `None` on a single server.
    owner: Option<Owner>,
    /// The event's games created but never recorded as seated (their director stopped
    /// between the two), looked up once at its first seat when it was resumed with boards
    /// unseated; `None` until then.
    unrecorded: Option<Vec<Unrecorded>>,
}

/// A game of the event that storage holds unfinished but no `Seated` record names.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unrecorded {
    match_id: String,
    white: i64,
    black: i64,
}

impl Director {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        state: EventState,
        storage: Storage,
        directory: Arc<dyn Directory>,
        commands: mpsc::Receiver<Command>,
        view: watch::Sender<Arc<EventView>>,
        shutdown: Shutdown,
        poll: Duration,
        owner: Option<Owner>,
    ) -> Director {
        Director {
            state,
            storage,
            directory,
            commands,
            view,
            shutdown,
            poll,
            owner,
            unrecorded: None,
        }
    }

    /// Runs the event to its end (or until the server stops, or, in a cluster, this node no
    /// longer owns the event), and gives back the event as it left it: finished, its final
    /// state, which [`super::Events`] keeps (bounded) once the director has gone.
    pub(crate) async fn run(mut self) -> EventState {
        let id = self.state.id.clone();
        match self.drive().await {
            Ok(()) => tracing::info!(event = %id, "event finished"),
            Err(Stopped::Shutdown) => tracing::debug!(event = %id, "event director stopped"),
            Err(err @ (Stopped::Lapsed | Stopped::Storage(StorageError::Fenced { .. }))) => {
                tracing::warn!(event = %id, %err, "event director stopped here")
            }
            Err(err) => tracing::error!(event = %id, %err, "event director stopped"),
        }
        self.state
    }

    /// Whether this node may still act for the event: always on a single server.
    fn still_owner(&self) -> Result<(), Stopped> {
        match &self.owner {
            Some(owner) if !(owner.held)() => Err(Stopped::Lapsed),
            _ => Ok(()),
        }
    }

    async fn drive(&mut self) -> Result<(), Stopped> {
        if self.state.finished {
            // Its last owner stored the record that ends it but not yet the mark that keeps it
            // from being resumed (a crash between the two): the mark is stored again.
            self.storage
                .commit(vec![Write::ClubEvent(EventWrite::Finish {
                    id: self.state.id.clone(),
                })])
                .await?;
        }
        loop {
            if self.shutdown.is_shutdown() {
                return Err(Stopped::Shutdown);
            }
            self.still_owner()?;
            match self.state.next_step(now_ms()) {
                Step::Done => return Ok(()),
                Step::Record(record) => self.append(record).await?,
                Step::Seat { round, board } => self.seat(round, board).await?,
                Step::Until(at_ms) => {
                    let wait = Duration::from_millis((at_ms - now_ms()).max(0) as u64);
                    self.idle(wait.min(self.poll * 4)).await?;
                }
                Step::Await(games) => {
                    let mut any = false;
                    for (round, board, match_id) in games {
                        let found = self
                            .storage
                            .finished_match(MatchKey::Id(match_id.clone()))
                            .await;
                        let outcome = match found {
                            Ok(found) => found.and_then(|m| outcome_of(&m.events)),
                            Err(err) => {
                                tracing::warn!(%err, %match_id, "cannot read an event game");
                                None
                            }
                        };
                        if let Some(end) = outcome {
                            let arena = matches!(self.state.setup.format, Format::Arena { .. });
                            self.append(EventRecord::Result {
                                round,
                                board,
                                match_id: Some(match_id),
                                outcome: end.outcome,
                                plies: arena.then_some(end.plies),
                                berserk: end.berserk,
                            })
                            .await?;
                            any = true;
                        }
                    }
                    if !any {
                        self.idle(self.poll).await?;
                    }
                }
            }
        }
    }

    /// Answers commands for up to `wait`.
    async fn idle(&mut self, wait: Duration) -> Result<(), Stopped> {
        let deadline = tokio::time::sleep(wait);
        tokio::pin!(deadline);
        loop {
            tokio::select! {
                _ = &mut deadline => return Ok(()),
                _ = self.shutdown.recv() => return Err(Stopped::Shutdown),
                command = self.commands.recv() => match command {
                    Some(command) => self.handle(command).await?,
                    None => return Err(Stopped::Shutdown),
                },
            }
        }
    }

    async fn handle(&mut self, command: Command) -> Result<(), Stopped> {
        let (record, reply) = match command {
            Command::Join { joining, reply } => (self.join(joining), reply),
            Command::Withdraw {
                account,
                request,
                reply,
            } => (self.withdraw(account, request), reply),
        };
        let answer = match record {
            // Done already, by this very request: it was sent again.
            Ok(None) => Ok(()),
            Ok(Some(record)) => match self.append(record).await {
                Ok(()) => Ok(()),
                Err(err) => {
                    let _ = reply.send(Err(err.refusal()));
                    return Err(err);
                }
            },
            Err(err) => Err(err),
        };
        let _ = reply.send(answer);
        Ok(())
    }

    /// The record of `joining` entering, `None` if this very request entered them already
    /// (sent again, [`Joining::request`]), or why they may not now.
    fn join(&self, joining: Joining) -> Result<Option<EventRecord>, EventError> {
        let state = &self.state;
        if state.finished {
            return Err(EventError::Finished);
        }
        match state.entrant(joining.account) {
            Some(e) if !e.withdrawn && asked_again(&joining.request, &e.last_request) => {
                return Ok(None);
            }
            Some(e) if !e.withdrawn => return Err(EventError::AlreadyJoined),
            // One who left a round-robin that runs had their games left scored as lost: the
            // field is fixed, so they cannot come back. Everywhere else they may, by the
            // rules a newcomer joins by (below).
            Some(_)
                if state.started() && matches!(state.setup.format, Format::RoundRobin { .. }) =>
            {
                return Err(EventError::LeftForGood);
            }
            Some(_) | None => {}
        }
        if state.started() {
            match state.setup.format {
                Format::Arena { ends_at_ms, .. } if now_ms() >= ends_at_ms => {
                    return Err(EventError::Finished);
                }
                Format::Arena { .. } => {}
                Format::RoundRobin { .. } => return Err(EventError::Started),
                // A join during a round counts from the next one (lichess's Swiss); during
                // the last there is none.
                Format::Swiss { rounds }
                    if state.current().is_some() && state.rounds.len() as u32 >= rounds =>
                {
                    return Err(EventError::RoundInProgress);
                }
                Format::Swiss { .. } => {}
            }
        }
        Ok(Some(EventRecord::Joined {
            account: joining.account,
            name: joining.name,
            rating: joining.rating,
            request: joining.request,
        }))
    }

    /// The record of `account` leaving, `None` if this very request withdrew them already
    /// (sent again, [`Joining::request`]), or why they may not.
    fn withdraw(
        &self,
        account: i64,
        request: Option<String>,
    ) -> Result<Option<EventRecord>, EventError> {
        let state = &self.state;
        if state.finished {
            return Err(EventError::Finished);
        }
        match state.entrant(account) {
            None => return Err(EventError::NotJoined),
            Some(e) if e.withdrawn && asked_again(&request, &e.last_request) => return Ok(None),
            Some(e) if e.withdrawn => return Err(EventError::NotJoined),
            Some(_) => {}
        }
        Ok(Some(EventRecord::Withdrew {
            account,
            why: super::record::Leaving::Asked,
            request,
        }))
    }

    /// Stores `record` as the next version, then applies it and shows it.
    async fn append(&mut self, record: EventRecord) -> Result<(), Stopped> {
        let body = serde_json::to_string(&record).expect("a record serializes");
        let (round, match_id) = record.keys();
        let mut next = self.state.clone();
        if let Err(reason) = next.apply(&record) {
            // The state decided this record itself; it not applying is a bug, not bad input.
            return Err(Stopped::Storage(StorageError::Refused(
                Refused::Inconsistent(reason),
            )));
        }
        self.still_owner()?;
        self.storage
            .commit(vec![Write::ClubEvent(EventWrite::Record {
                event_id: self.state.id.clone(),
                v: next.v,
                at_ms: now_ms(),
                body,
                round,
                match_id,
                epoch: self.owner.as_ref().map(|owner| owner.epoch),
            })])
            .await?;
        if matches!(record, EventRecord::Finished) {
            self.storage
                .commit(vec![Write::ClubEvent(EventWrite::Finish {
                    id: self.state.id.clone(),
                })])
                .await?;
        }
        self.state = next;
        self.view
            .send_replace(Arc::new(EventView::of(&self.state, now_ms())));
        Ok(())
    }

    /// Creates the match of a board, both players seated by account, and records it; or
    /// records the board's game that a director before this one created but did not record.
    async fn seat(&mut self, round: u32, board: u32) -> Result<(), Stopped> {
        let paired = &self.state.rounds[round as usize - 1].boards[board as usize];
        let (white, black) = (paired.white, paired.black);
        if let Some(match_id) = self.unrecorded_game(white, black).await {
            tracing::info!(event = %self.state.id, %match_id, round, board,
                "an event game created before a restart or take-over is seated");
            return self
                .append(EventRecord::Seated {
                    round,
                    board,
                    match_id,
                })
                .await;
        }
        let players = loop {
            match self.seated(white, black).await {
                Ok(players) => break players,
                Err(err) => {
                    tracing::warn!(event = %self.state.id, %err,
                        "cannot read the players' preferences; trying again");
                    self.idle(self.poll * 4).await?;
                }
            }
        };
        let setup = Setup {
            time_control: Some(self.state.setup.time_control),
            public: true,
            rematch_of: None,
            start_fen: None,
            // Between two accounts, so the match rates them as any rated game (issue 31).
            rated: self.state.setup.rated,
            rating_range: None,
            // An arena's players may go berserk before their first move.
            berserk: matches!(self.state.setup.format, Format::Arena { .. }),
            // An event's game: no takebacks, casual or rated.
            event: Some(self.state.id.clone()),
        };
        loop {
            // A match created by a node that lost the event would be one nobody comes to.
            self.still_owner()?;
            // Presence is recorded from the start (no `arrivals_follow`): both players are
            // gone until each takes their seat, and `player_returned` tells everybody watching,
            // the player's own page too, when they do. A match waiting for arrivals records
            // nothing until a rematch's `Arrive`, which an event game never gets: its players
            // showed as gone on every page that watched before they sat down, and an opponent
            // who really left could never be claimed against.
            let created = self
                .directory
                .create(setup.clone(), players.to_vec(), false);
            match created.await {
                Ok((_, match_id, _)) => {
                    return self
                        .append(EventRecord::Seated {
                            round,
                            board,
                            match_id,
                        })
                        .await;
                }
                Err(refusal) => {
                    tracing::warn!(event = %self.state.id, reason = %refusal.message,
                        "cannot create an event game; trying again");
                    self.idle(self.poll * 4).await?;
                }
            }
        }
    }

    /// The unfinished game of the event between `white` and `black` that no record seats,
    /// taken from the list (so it is seated once). A director stores `Seated` after creating
    /// the match: one that stopped between the two left a game both players are seated in,
    /// which would otherwise end as a first-move abort beside a second game for the board.
    /// The list is read once, at the first seat of a director that started with the current
    /// round's boards partly unseated; a new event's director never reads it.
    async fn unrecorded_game(&mut self, white: i64, black: i64) -> Option<String> {
        if self.unrecorded.is_none() {
            self.unrecorded = Some(if self.state.v > 0 {
                self.read_unrecorded().await
            } else {
                Vec::new()
            });
        }
        let games = self.unrecorded.as_mut()?;
        let found = games
            .iter()
            .position(|game| game.white == white && game.black == black)?;
        Some(games.swap_remove(found).match_id)
    }

    /// The event's unfinished games that no record seats, with their players' accounts.
    /// Storage is asked for this event's games only: in a cluster many directors restart at
    /// once, and each reading every unfinished match would read them all once per event.
    async fn read_unrecorded(&self) -> Vec<Unrecorded> {
        let of_the_event = self.storage.unfinished_of_event(self.state.id.clone());
        let unfinished = match of_the_event.await {
            Ok(unfinished) => unfinished,
            Err(err) => {
                tracing::warn!(event = %self.state.id, %err, "cannot look for unrecorded games");
                return Vec::new();
            }
        };
        let seated: std::collections::HashSet<&str> = self
            .state
            .rounds
            .iter()
            .flat_map(|round| &round.boards)
            .filter_map(|board| board.match_id.as_deref())
            .collect();
        unfinished
            .into_iter()
            .filter(|stored| !seated.contains(stored.id.as_str()))
            .filter_map(|stored| {
                let mut seats = [None, None];
                for event in &stored.events {
                    let Ok(record) = serde_json::from_str::<Record>(&event.body) else {
                        continue;
                    };
                    if let MatchEvent::PlayerJoined(joined) = record.event {
                        seats[usize::from(joined.side == Side::Black)] = record.account;
                    }
                }
                Some(Unrecorded {
                    white: seats[0]?,
                    black: seats[1]?,
                    match_id: stored.id,
                })
            })
            .collect()
    }

    /// A board's two players, seated by account, each with the member's own preference about
    /// more time read from the account (as a seat taken from the lobby or the pool has it):
    /// a member who refuses "+15 s" refuses it in the event's games too.
    async fn seated(&self, white: i64, black: i64) -> Result<[(Side, Player); 2], StorageError> {
        let accounts = self.storage.accounts();
        let mut players = [(Side::White, white), (Side::Black, black)].map(|(side, account)| {
            let player = Player {
                name: self
                    .state
                    .entrant(account)
                    .map(|e| e.name.clone())
                    .unwrap_or_default(),
                bot: false,
                account: Some(account),
                rating: None,
                refuses_more_time: false,
            };
            (side, player)
        });
        for (_, player) in &mut players {
            if let Some(account) = player.account {
                player.refuses_more_time = accounts.preferences(account).await?.refuse_more_time;
            }
        }
        Ok(players)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::record::EventSetup;
    use crate::events::state::tests::setup;
    use crate::events::tests::TestClub;

    /// A director that stopped between creating a board's game and recording it left a game
    /// both players are seated in: the director that resumes the event seats that game on
    /// the board, and creates no second one.
    #[tokio::test]
    async fn a_game_created_but_not_recorded_before_a_restart_is_the_boards_game_after_it() {
        let club = TestClub::open().await;
        let (storage, hub) = (club.storage.clone(), club.hub.clone());
        let members = club.members().await;

        // A Swiss of one round, joined and paired, as stored by a director that then created
        // the board's game and stopped before recording it.
        let swiss = EventSetup {
            starts_at_ms: 0,
            ..setup(Format::Swiss { rounds: 1 })
        };
        let mut state = EventState::new("ev".into(), swiss.clone(), 0);
        let mut records: Vec<EventRecord> = members
            .iter()
            .map(|&account| EventRecord::Joined {
                account,
                name: format!("p{account}"),
                rating: 1500,
                request: None,
            })
            .collect();
        for record in &records {
            state.apply(record).unwrap();
        }
        let Step::Record(paired) = state.next_step(now_ms()) else {
            panic!("round 1 is paired next");
        };
        state.apply(&paired).unwrap();
        records.push(paired);
        let mut writes = vec![Write::ClubEvent(EventWrite::Create {
            id: "ev".into(),
            created_ms: 0,
            setup: serde_json::to_string(&swiss).unwrap(),
        })];
        writes.extend(records.iter().zip(1..).map(|(record, v)| {
            Write::ClubEvent(EventWrite::Record {
                event_id: "ev".into(),
                v,
                at_ms: 0,
                body: serde_json::to_string(record).unwrap(),
                round: record.keys().0,
                match_id: None,
                epoch: None,
            })
        }));
        storage.commit(writes).await.unwrap();
        let board = state.rounds[0].boards[0].clone();
        let player = |account| Player {
            name: format!("p{account}"),
            bot: false,
            account: Some(account),
            rating: None,
            refuses_more_time: false,
        };
        let game = |white, black, event: Option<&str>| {
            let setup = Setup {
                time_control: Some(swiss.time_control),
                public: true,
                rematch_of: None,
                start_fen: None,
                rated: false,
                rating_range: None,
                berserk: false,
                event: event.map(str::to_owned),
            };
            let players = vec![(Side::White, player(white)), (Side::Black, player(black))];
            hub.create(setup, players, false)
        };
        // The two also play a casual game of their own, which is not the event's.
        game(board.white, board.black, None).await.unwrap();
        let (_, created, _) = game(board.white, board.black, Some("ev")).await.unwrap();

        let events = club.node(storage.clone(), false).await;
        let mut waited = 0;
        let seated = loop {
            let view = events.view("ev").await.unwrap();
            if let Some(id) = view.rounds[0].games[0].match_id.clone() {
                break id;
            }
            assert!(waited < 500, "the board is never seated");
            waited += 1;
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        assert_eq!(seated, created, "the game created before is the board's");
        let of_the_event = storage
            .unfinished()
            .await
            .unwrap()
            .into_iter()
            .filter(|stored| stored.setup.contains(r#""event":"ev""#))
            .count();
        assert_eq!(of_the_event, 1, "no second game for the board");
    }
}
