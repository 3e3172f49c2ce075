//! The directory of live matches: lookup by id, invite code and seat token, the lobby listing,
//! match creation (and rematches), recovery of unfinished matches at start-up, and finished
//! matches read back from storage on demand.
//!
//! The hub only finds matches; it never changes one. Each match is changed by its own actor.
//! It is the local [`Directory`]: what a match and a connection need to find matches goes
//! through that seam, so a cluster directory can take its place. The hub does not know what
//! wraps it: whoever has it start a match says how that match is owned and which directory
//! its actor talks to ([`Creator`]; alone, the hub itself and [`Ownership::single`]), and a
//! cluster that shares the lobby learns which lobby lines changed by watching them
//! ([`Hub::watch_lobby`]).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

use boardcast_protocol::{
    ColorChoice, CreateMatch, ErrorArgs, ErrorCode, MatchEvent, MatchPhase, MatchSummary, Side,
};
use rand::Rng;

use crate::accounts::secret;
use crate::matches::actor::{self, Settings};
use crate::matches::apply::ApplyError;
use crate::matches::chat::MatchChat;
use crate::matches::directory::{Created, Directory, Found};
use crate::matches::player::Player;
use crate::matches::state::{SetupError, new_token};
use crate::matches::{MatchHandle, MatchState, Ownership, Record, Setup};
use crate::ops::address::ClientAddr;
use crate::ops::lock;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::refusal::Refusal;
use crate::room::outbox::Outbox;
use crate::storage::coordination::NodeRef;
use crate::storage::{MatchKey, Storage, StoredMatch, Write, now_ms};

const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

fn random_string(alphabet: &[u8], len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| alphabet[rng.random_range(0..alphabet.len())] as char)
        .collect()
}

/// The directory of the matches this process runs; cheap to clone.
#[derive(Clone)]
pub struct Hub(Arc<Inner>);

struct Inner {
    storage: Storage,
    settings: Settings,
    shutdown: Shutdown,
    tasks: Tasks,
    index: Mutex<Index>,
    /// Take-overs in progress on this node, one turn per match ([`Hub::take_over_turn`]).
    taking_over: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Wakes the lobby's watcher ([`Hub::watch_lobby`]) when a line changed.
    lobby_changed: tokio::sync::Notify,
}

/// The maps behind the lookups, under one lock so they always agree.
#[derive(Default)]
struct Index {
    matches: HashMap<String, Entry>,
    invites: HashMap<String, String>,
    /// Match ids by the hash of each seat token they handed out: after a restart the hashes
    /// are all storage gives back, so this is what a presented token is looked up by.
    token_hashes: HashMap<String, String>,
    /// How many of `matches` are finished: those do not count against
    /// [`Settings::max_matches`] (a visitor watching old games must not block creations) and
    /// have their own bound of the same size.
    finished: usize,
    /// The matches whose lobby line changed (started, updated, gone) since the lobby's watcher
    /// last looked; `None` while nobody watches (a single node). At most one entry per match
    /// in memory or just gone, so it is bounded by the matches.
    lobby_changes: Option<BTreeSet<String>>,
}

struct Entry {
    handle: MatchHandle,
    invite: String,
    token_hashes: Vec<String>,
    summary: MatchSummary,
    public: bool,
    /// The address that opened the match from the lobby, for `--open-seeks-per-address`.
    creator: Option<ClientAddr>,
}

impl Hub {
    pub fn new(storage: Storage, settings: Settings, shutdown: Shutdown, tasks: Tasks) -> Hub {
        Hub(Arc::new(Inner {
            storage,
            settings,
            shutdown,
            tasks,
            index: Mutex::new(Index::default()),
            taking_over: Mutex::default(),
            lobby_changed: tokio::sync::Notify::new(),
        }))
    }

    /// Waits for this node's turn to take match `id` over and holds it until the turn is
    /// dropped. Two take-overs of one match on one node would fence each other (a claim
    /// raises the epoch even over this node's own running actor), so they go one at a time
    /// and the second finds the match running.
    pub async fn take_over_turn(&self, id: &str) -> TakeOverTurn {
        let turn = lock(&self.0.taking_over)
            .entry(id.to_owned())
            .or_default()
            .clone();
        TakeOverTurn {
            guard: Some(turn.lock_owned().await),
            hub: self.clone(),
            id: id.to_owned(),
        }
    }

    /// Starts telling which lobby lines change, for whoever shares the lobby beyond this
    /// process (a cluster's directory). Called once, before any match starts.
    pub(crate) fn watch_lobby(&self) -> LobbyWatch {
        self.index().lobby_changes.get_or_insert_with(BTreeSet::new);
        LobbyWatch { hub: self.clone() }
    }

    /// The directory the actors of a single node register with: the hub.
    fn alone(&self) -> Arc<dyn Directory> {
        Arc::new(self.clone())
    }

    /// Starts stored match `stored`, which this node has just claimed under
    /// `ownership.epoch`, from its events (the same replay as recovery), its actor talking to
    /// `directory`. A match already running here is left as it is. `last_alive_ms`: when the
    /// previous owner was last known alive ([`rebuild`]).
    pub(crate) fn adopt(
        &self,
        stored: &StoredMatch,
        last_alive_ms: Option<i64>,
        directory: Arc<dyn Directory>,
        ownership: Ownership,
    ) -> Result<MatchHandle, Refusal> {
        if let Some(handle) = self.running(&stored.id)
            && !handle.is_stopped()
        {
            return Ok(handle);
        }
        self.check_room()?;
        let (state, records) = rebuild(stored, now(), last_alive_ms).map_err(|err| {
            tracing::error!(match_id = %stored.id, %err, "cannot replay a stored match");
            Refusal::new(ErrorCode::Internal, "the stored match does not replay")
                .with(ErrorArgs::new("does_not_replay"))
        })?;
        self.start(
            state,
            &records,
            MatchChat::default(),
            false,
            directory,
            ownership,
        )
    }

    fn index(&self) -> MutexGuard<'_, Index> {
        // A poisoned lock only means another thread panicked mid-update of plain maps.
        lock(&self.0.index)
    }

    pub fn storage(&self) -> &Storage {
        &self.0.storage
    }

    /// Refuses a new match in memory once the server holds [`Settings::max_matches`] that
    /// are waiting or playing. Finished matches in memory (watched, or read back from
    /// storage for a watcher) do not count: they are bounded apart ([`Hub::check_room_to_replay`]).
    fn check_room(&self) -> Result<(), Refusal> {
        let dir = self.index();
        if dir.matches.len() - dir.finished >= self.0.settings.max_matches {
            return Err(Refusal::new(
                ErrorCode::Busy,
                "the server holds as many matches as it may; try later",
            )
            .with(ErrorArgs::new("too_many_matches")));
        }
        Ok(())
    }

    /// Refuses to read one more finished match back from storage once [`Settings::max_matches`]
    /// finished matches are in memory: watching old games is bounded by its own count, so it
    /// never takes the room of new matches.
    fn check_room_to_replay(&self) -> Result<(), Refusal> {
        if self.index().finished >= self.0.settings.max_matches {
            return Err(Refusal::new(
                ErrorCode::Busy,
                "the server has as many finished matches open as it may; try later",
            )
            .with(ErrorArgs::new("too_many_finished")));
        }
        Ok(())
    }

    /// Creates a match of this node alone with `players` seated, stores it, and starts its
    /// actor. Returns the actor, the match id and each player's seat token. With
    /// `arrivals_follow` the actor records no presence until a
    /// [`crate::matches::Command::Arrive`] brings the players. A node of a cluster creates
    /// through its [`Directory::create`] instead, which owns the match under its lease.
    pub async fn create_match(
        &self,
        setup: Setup,
        players: &[(Side, Player)],
        arrivals_follow: bool,
    ) -> Result<Created, Refusal> {
        let creator = Creator {
            directory: self.alone(),
            node: None,
            ownership: |_: &str, _| Ownership::single(),
        };
        self.create_owned(setup, players, arrivals_follow, creator)
            .await
    }

    /// [`Hub::create_match`] owned as `creator` says.
    pub(crate) async fn create_owned(
        &self,
        setup: Setup,
        players: &[(Side, Player)],
        arrivals_follow: bool,
        creator: Creator<impl FnOnce(&str, u64) -> Ownership + Send>,
    ) -> Result<Created, Refusal> {
        self.check_room()?;
        let id = random_string(ID_ALPHABET, 10);
        let invite = self.fresh_invite().await?;
        let mut state =
            MatchState::new(id.clone(), invite.clone(), setup.clone()).map_err(|err| {
                Refusal::new(ErrorCode::InvalidArgument, err.to_string())
                    .with(ErrorArgs::new("invalid_field").word("field", "start_fen"))
            })?;
        let now = now();
        let mut records = Vec::new();
        let mut tokens = Vec::new();
        // In a cluster the creating node owns the match at epoch 1; a single node writes 0
        // (no owner, nothing to fence).
        let Creator {
            directory,
            node: owner,
            ownership,
        } = creator;
        let epoch = u64::from(owner.is_some());
        let mut writes = vec![Write::CreateMatch {
            id: id.clone(),
            invite: Some(invite.clone()),
            created_ms: now_ms(),
            setup: serde_json::to_string(&setup).map_err(|err| {
                Refusal::new(ErrorCode::Internal, err.to_string()).with(ErrorArgs::new("internal"))
            })?,
            owner: owner.clone(),
        }];
        for (side, player) in players {
            let token = new_token();
            let mut record = Record::joined(*side, player, token.clone());
            let at_ms = now_ms();
            state.apply_new(&record, now, at_ms).map_err(|err| {
                Refusal::new(ErrorCode::Internal, err.to_string()).with(ErrorArgs::new("internal"))
            })?;
            state.announce_first_move(&mut record, now, self.0.settings.first_move_timeout);
            let write = record.write(&id, state.v, at_ms, epoch).map_err(|err| {
                Refusal::new(ErrorCode::Internal, err.to_string()).with(ErrorArgs::new("internal"))
            })?;
            writes.push(write);
            records.push(record);
            tokens.push((*side, token));
        }
        self.0.storage.commit(writes).await.map_err(|err| {
            tracing::error!(%err, "cannot store a new match");
            Refusal::storage(&err, "no match was created")
        })?;
        let handle = self.start(
            state,
            &records,
            MatchChat::of_new_match(),
            arrivals_follow,
            directory,
            ownership(&id, epoch),
        )?;
        crate::ops::activity::record(|| tracing::info!(match_id = %id, "match created"));
        Ok((handle, id, tokens))
    }

    /// An invite code no open match holds: in a cluster the directory asks the other nodes
    /// too. With 2^50 codes a clash is all but impossible; it is checked all the same, since
    /// a clash would seat a stranger. This node's own matches are always checked; when the
    /// other nodes cannot be asked (the cluster's lookup failed) the code is used, rather
    /// than refusing a match over a one-in-10^11 chance.
    async fn fresh_invite(&self) -> Result<String, Refusal> {
        self.fresh_invite_from(crate::matches::invite::new_code)
            .await
    }

    /// [`Hub::fresh_invite`] with the codes drawn by `draw`.
    async fn fresh_invite_from(&self, mut draw: impl FnMut() -> String) -> Result<String, Refusal> {
        // The other nodes' matches are in the database they share.
        let shared = self.0.storage.coordination();
        for _ in 0..8 {
            let code = draw();
            if self.find_by_code(&code).await?.is_some() {
                tracing::warn!("a new invite code clashed with an open match's; drawing another");
                continue;
            }
            let Some(shared) = &shared else {
                return Ok(code);
            };
            match shared.match_id_by_code(code.to_ascii_uppercase()).await {
                Ok(Some(_)) => {
                    tracing::warn!(
                        "a new invite code clashed with an open match's; drawing another"
                    );
                }
                Ok(None) => return Ok(code),
                Err(err) => {
                    tracing::debug!(
                        %err,
                        "cannot ask the cluster about a new invite code; using it"
                    );
                    return Ok(code);
                }
            }
        }
        Err(Refusal::new(
            ErrorCode::Internal,
            "no unused invite code could be drawn; no match was created",
        )
        .with(ErrorArgs::new("no_invite_code")))
    }

    /// The match in memory in which `token` holds a seat.
    pub fn running_by_token(&self, token: &str) -> Option<MatchHandle> {
        let hash = secret::hash(token);
        let dir = self.index();
        dir.token_hashes
            .get(&hash)
            .and_then(|id| dir.matches.get(id))
            .map(|e| e.handle.clone())
    }

    /// Matches opened from `creator` that still wait for an opponent.
    pub fn open_seeks_of(&self, creator: ClientAddr) -> usize {
        self.index()
            .matches
            .values()
            .filter(|e| e.creator == Some(creator) && e.summary.phase == MatchPhase::Waiting)
            .count()
    }

    /// How many matches in memory are in each phase.
    pub fn count_by_phase(&self) -> [(MatchPhase, usize); 3] {
        let mut counts = [
            (MatchPhase::Waiting, 0),
            (MatchPhase::Playing, 0),
            (MatchPhase::Finished, 0),
        ];
        for entry in self.index().matches.values() {
            if let Some((_, count)) = counts.iter_mut().find(|(p, _)| *p == entry.summary.phase) {
                *count += 1;
            }
        }
        counts
    }

    /// A new match from a lobby request by `creator`: the creator takes the chosen colour.
    /// Whether `player` may create it rated (an account) is the connection's to check. It is
    /// created through `directory` (the hub itself, or the cluster's around it), on this node.
    pub async fn create_seek(
        &self,
        directory: &dyn Directory,
        creator: ClientAddr,
        player: &Player,
        create: CreateMatch,
    ) -> Result<(MatchHandle, String, String), Refusal> {
        let side = match create.color {
            ColorChoice::White => Side::White,
            ColorChoice::Black => Side::Black,
            ColorChoice::Random => {
                if rand::rng().random_bool(0.5) {
                    Side::White
                } else {
                    Side::Black
                }
            }
        };
        let setup = Setup {
            time_control: create.time_control,
            public: create.public,
            rematch_of: None,
            start_fen: None,
            rated: create.rated,
            rating_range: create.rating_range.filter(|_| create.rated),
            berserk: false,
            event: None,
        };
        let (handle, id, mut tokens) = directory
            .create(setup, vec![(side, player.clone())], false)
            .await?;
        if let Some(entry) = self.index().matches.get_mut(&id) {
            entry.creator = Some(creator);
        }
        let token = tokens.pop().map(|(_, token)| token).ok_or_else(|| {
            Refusal::new(ErrorCode::Internal, "no seat was created")
                .with(ErrorArgs::new("internal"))
        })?;
        Ok((handle, id, token))
    }

    /// Registers `state` and starts its actor, owned as `ownership` says and talking to
    /// `directory`, with `chat` (read from storage when first needed, unless the match is
    /// new); a match already running is left as it is and its actor returned.
    fn start(
        &self,
        state: MatchState,
        records: &[Record],
        chat: MatchChat,
        awaiting_players: bool,
        directory: Arc<dyn Directory>,
        ownership: Ownership,
    ) -> Result<MatchHandle, Refusal> {
        let guard = self.0.tasks.guard().ok_or_else(|| {
            Refusal::new(ErrorCode::ShuttingDown, "the server is shutting down")
                .with(ErrorArgs::new("shutting_down"))
        })?;
        let mut dir = self.index();
        match dir.matches.get(&state.id) {
            Some(entry) if !entry.handle.is_stopped() => return Ok(entry.handle.clone()),
            // An actor that stopped (its match moved away, and is now claimed back) gives
            // way to the new one.
            Some(_) => dir.remove(&state.id),
            None => {}
        }
        let id = state.id.clone();
        let invite = state.invite.clone();
        let public = state.setup.public;
        let summary = state.summary(0);
        let finished = summary.phase == MatchPhase::Finished;
        let token_hashes: Vec<String> = [Side::White, Side::Black]
            .into_iter()
            .filter_map(|side| state.seat(side))
            .flat_map(|seat| seat.token_hashes.iter().cloned())
            .collect();
        let handle = actor::spawn(
            state,
            records,
            chat,
            awaiting_players,
            directory,
            self.0.storage.clone(),
            self.0.settings,
            ownership,
            self.0.shutdown.clone(),
            guard,
        );
        dir.invites.insert(invite.clone(), id.clone());
        for hash in &token_hashes {
            dir.token_hashes.insert(hash.clone(), id.clone());
        }
        dir.matches.insert(
            id.clone(),
            Entry {
                handle: handle.clone(),
                invite,
                token_hashes,
                summary,
                public,
                creator: None,
            },
        );
        dir.finished += usize::from(finished);
        // Its first lobby line: the actor only tells of changes.
        self.lobby_line_changed(&mut dir, &id);
        Ok(handle)
    }

    /// Notes for the lobby's watcher, if any, that match `id`'s lobby line changed.
    fn lobby_line_changed(&self, dir: &mut Index, id: &str) {
        if let Some(changes) = &mut dir.lobby_changes {
            changes.insert(id.to_owned());
            self.0.lobby_changed.notify_one();
        }
    }

    /// Starts every unfinished match read back from storage. `last_alive_ms`: when the
    /// previous run was last known alive (its last heartbeat), to which the side to move is
    /// charged the thinking it had done ([`rebuild`]). Returns how many resumed.
    pub fn recover(&self, stored: Vec<StoredMatch>, last_alive_ms: Option<i64>) -> usize {
        let now = now();
        let mut resumed = 0;
        for m in stored {
            match rebuild(&m, now, last_alive_ms) {
                Ok((state, records)) => {
                    let started = self.start(
                        state,
                        &records,
                        MatchChat::default(),
                        false,
                        self.alone(),
                        Ownership::single(),
                    );
                    if started.is_ok() {
                        resumed += 1;
                    }
                }
                Err(err) => tracing::error!(match_id = %m.id, %err, "cannot recover match"),
            }
        }
        resumed
    }

    /// A finished match that is no longer in memory (evicted, or finished before a restart),
    /// read back from storage by replaying its events and started again: it answers
    /// snapshots, seats and `game_over`, and leaves memory once nobody has followed it for a
    /// while. `None` if `key` names no finished match.
    pub async fn load_finished(&self, key: MatchKey) -> Result<Option<MatchHandle>, Refusal> {
        let stored = self.0.storage.finished_match(key).await.map_err(|err| {
            tracing::error!(%err, "cannot read a finished match");
            Refusal::storage(&err, "cannot read the match")
        })?;
        let Some(stored) = stored else {
            return Ok(None);
        };
        if let Some(handle) = self.running(&stored.id) {
            return Ok(Some(handle));
        }
        self.check_room_to_replay()?;
        let (state, records) = rebuild(&stored, now(), None).map_err(|err| {
            tracing::error!(match_id = %stored.id, %err, "cannot replay a finished match");
            Refusal::new(ErrorCode::Internal, "the stored match does not replay")
                .with(ErrorArgs::new("does_not_replay"))
        })?;
        self.start(
            state,
            &records,
            MatchChat::default(),
            false,
            self.alone(),
            Ownership::single(),
        )
        .map(Some)
    }
}

#[async_trait::async_trait]
impl Directory for Hub {
    async fn find(&self, id: &str) -> Found {
        match self.running(id) {
            Some(handle) => Ok(Some(handle)),
            None => self.load_finished(MatchKey::Id(id.to_owned())).await,
        }
    }

    async fn find_by_code(&self, code: &str) -> Found {
        // A code only invites to an open match, which is always in memory.
        let found = {
            let dir = self.index();
            dir.invites
                .get(&code.to_ascii_uppercase())
                .and_then(|id| dir.matches.get(id))
                .map(|e| e.handle.clone())
        };
        Ok(found)
    }

    async fn find_by_token(&self, token: &str) -> Found {
        match self.running_by_token(token) {
            Some(handle) => Ok(Some(handle)),
            None => {
                self.load_finished(MatchKey::TokenHash(secret::hash(token)))
                    .await
            }
        }
    }

    fn running(&self, id: &str) -> Option<MatchHandle> {
        self.index().matches.get(id).map(|e| e.handle.clone())
    }

    fn is_public(&self, id: &str) -> bool {
        self.index().matches.get(id).is_some_and(|e| e.public)
    }

    fn register_token_hash(&self, token_hash: &str, match_id: &str) {
        let mut dir = self.index();
        dir.token_hashes
            .insert(token_hash.to_owned(), match_id.to_owned());
        if let Some(entry) = dir.matches.get_mut(match_id) {
            entry.token_hashes.push(token_hash.to_owned());
        }
    }

    fn update_summary(&self, summary: MatchSummary, public: bool) {
        let mut dir = self.index();
        let id = summary.match_id.clone();
        if let Some(entry) = dir.matches.get_mut(&id) {
            let was_finished = entry.summary.phase == MatchPhase::Finished;
            let is_finished = summary.phase == MatchPhase::Finished;
            entry.summary = summary;
            entry.public = public;
            match (was_finished, is_finished) {
                (false, true) => dir.finished += 1,
                (true, false) => dir.finished -= 1,
                _ => {}
            }
            self.lobby_line_changed(&mut dir, &id);
        }
    }

    fn remove(&self, id: &str) {
        let mut dir = self.index();
        dir.remove(id);
        self.lobby_line_changed(&mut dir, id);
    }

    fn moved(&self, id: &str, followers: Vec<Outbox>) {
        {
            // The stopped actor goes, not one started here since (a claim back).
            let mut dir = self.index();
            if dir.matches.get(id).is_some_and(|e| e.handle.is_stopped()) {
                dir.remove(id);
            }
            self.lobby_line_changed(&mut dir, id);
        }
        crate::matches::directory::close_moved(followers);
    }

    fn lobby(&self) -> (Vec<MatchSummary>, Vec<MatchSummary>) {
        let dir = self.index();
        let mut seeks = Vec::new();
        let mut live = Vec::new();
        for entry in dir.matches.values().filter(|entry| entry.public) {
            match entry.summary.phase {
                MatchPhase::Waiting => seeks.push(entry.summary.clone()),
                MatchPhase::Playing => live.push(entry.summary.clone()),
                MatchPhase::Finished => {}
            }
        }
        seeks.sort_by(|a, b| a.match_id.cmp(&b.match_id));
        live.sort_by(|a, b| a.match_id.cmp(&b.match_id));
        (seeks, live)
    }

    async fn create(
        &self,
        setup: Setup,
        players: Vec<(Side, Player)>,
        arrivals_follow: bool,
    ) -> Result<Created, Refusal> {
        self.create_match(setup, &players, arrivals_follow).await
    }
}

/// How a match the hub creates for a caller is owned, and which directory its actor talks
/// to (registers with, finds and creates its rematch through). The caller decides: alone the
/// hub gives itself and [`Ownership::single`]; a node of a cluster its cluster directory and
/// its lease (`cluster/remote.rs`). So the hub keeps no pointer to whatever wraps it.
pub(crate) struct Creator<F> {
    pub(crate) directory: Arc<dyn Directory>,
    /// The node that creates and owns the match (stored with it); `None` on a single node.
    pub(crate) node: Option<NodeRef>,
    /// The match's ownership, given its id and epoch.
    pub(crate) ownership: F,
}

/// The lobby lines of a hub as they change ([`Hub::watch_lobby`]).
pub(crate) struct LobbyWatch {
    hub: Hub,
}

/// A match's lobby line now (its summary, and whether it is public), or `None` once the
/// match has left this node.
pub(crate) type LobbyLine = Option<(MatchSummary, bool)>;

impl LobbyWatch {
    /// Waits until some lobby lines changed and returns each of them as it is now, by match
    /// id. Changes in between fold into one: a watcher that is slow sees the newest lines.
    pub(crate) async fn changed(&self) -> Vec<(String, LobbyLine)> {
        loop {
            let lines: Vec<(String, LobbyLine)> = {
                let mut dir = self.hub.index();
                let ids = dir
                    .lobby_changes
                    .as_mut()
                    .map(std::mem::take)
                    .unwrap_or_default();
                ids.into_iter()
                    .map(|id| {
                        let line = dir
                            .matches
                            .get(&id)
                            .map(|entry| (entry.summary.clone(), entry.public));
                        (id, line)
                    })
                    .collect()
            };
            if !lines.is_empty() {
                return lines;
            }
            // A change noted since the look above left a permit: this returns at once.
            self.hub.0.lobby_changed.notified().await;
        }
    }
}

/// One take-over's turn of a match on this node ([`Hub::take_over_turn`]).
pub struct TakeOverTurn {
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
    hub: Hub,
    id: String,
}

impl Drop for TakeOverTurn {
    fn drop(&mut self) {
        self.guard.take();
        let mut turns = lock(&self.hub.0.taking_over);
        // Nobody else waits for this match's turn: forget it.
        if turns
            .get(&self.id)
            .is_some_and(|turn| Arc::strong_count(turn) == 1)
        {
            turns.remove(&self.id);
        }
    }
}

impl Index {
    fn remove(&mut self, id: &str) {
        if let Some(entry) = self.matches.remove(id) {
            if entry.summary.phase == MatchPhase::Finished {
                self.finished -= 1;
            }
            self.invites.remove(&entry.invite);
            for hash in entry.token_hashes {
                self.token_hashes.remove(&hash);
            }
        }
        self.shrink();
    }

    /// Gives back the maps' room once they hold a quarter of it: a map keeps its largest
    /// size, and after a busy hour that is tens of thousands of empty slots. Halving at a
    /// quarter keeps a map that goes up and down by a few from reallocating every time.
    fn shrink(&mut self) {
        fn shrink<V>(map: &mut HashMap<String, V>) {
            if map.capacity() > 64 && map.len() < map.capacity() / 4 {
                map.shrink_to(map.len() * 2);
            }
        }
        shrink(&mut self.matches);
        shrink(&mut self.invites);
        shrink(&mut self.token_hashes);
    }
}

/// The time now on tokio's clock (which tests may pause), as the state machine takes it.
fn now() -> std::time::Instant {
    tokio::time::Instant::now().into_std()
}

/// Why a stored match does not replay (a corrupted or foreign store).
#[derive(Debug, thiserror::Error)]
pub(crate) enum RebuildError {
    #[error("set-up: {0}")]
    Setup(#[source] serde_json::Error),
    #[error(transparent)]
    Start(#[from] SetupError),
    #[error("event {got} follows {had}")]
    OutOfOrder { got: u64, had: u64 },
    #[error("event {v}: {source}")]
    Body {
        v: u64,
        #[source]
        source: serde_json::Error,
    },
    #[error("event {v}: {source}")]
    Apply {
        v: u64,
        #[source]
        source: ApplyError,
    },
}

/// Replays a stored match into its state; every event must apply.
///
/// The clock of the side to move restarts at `now`; if the server that ran the match was
/// last known alive at `last_alive_ms` (its last heartbeat before a crash), the thinking
/// done from the start of that turn up to then is charged (PROTOCOL.md §12: not refunded
/// time in which a move could have been accepted). Only the time after the last heartbeat
/// — at most one heartbeat interval of it before the crash — is charged to nobody.
pub(crate) fn rebuild(
    m: &StoredMatch,
    now: std::time::Instant,
    last_alive_ms: Option<i64>,
) -> Result<(MatchState, Vec<Record>), RebuildError> {
    let setup: Setup = serde_json::from_str(&m.setup).map_err(RebuildError::Setup)?;
    let mut state = MatchState::new(m.id.clone(), m.invite.clone().unwrap_or_default(), setup)?;
    let mut records = Vec::with_capacity(m.events.len());
    // When the running clock's turn began: the move that set the clocks last.
    let mut turn_began_ms = None;
    for event in &m.events {
        let v = event.v;
        if v != state.v + 1 {
            return Err(RebuildError::OutOfOrder {
                got: v,
                had: state.v,
            });
        }
        let record: Record =
            serde_json::from_str(&event.body).map_err(|source| RebuildError::Body { v, source })?;
        let record = state
            .replay(record, now, event.at_ms)
            .map_err(|source| RebuildError::Apply { v, source })?;
        if let MatchEvent::Moved(moved) = &record.event
            && moved.clock.is_some()
        {
            turn_began_ms = Some(event.at_ms);
        }
        records.push(record);
    }
    if let (Some(began), Some(alive)) = (turn_began_ms, last_alive_ms) {
        let thought = u64::try_from(alive.saturating_sub(began)).unwrap_or(0);
        state.charge_thinking(std::time::Duration::from_millis(thought));
    }
    Ok((state, records))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::time::Instant;

    use boardcast_protocol::Encoding;

    use super::*;
    use crate::matches::{Action, Command};

    #[test]
    fn the_index_gives_back_its_room_once_matches_have_left() {
        let (_trigger, shutdown) = crate::ops::shutdown::channel();
        let setup = Setup::default();
        let mut index = Index::default();
        for i in 0..4000 {
            let id = format!("m{i}");
            let state = MatchState::new(id.clone(), format!("I{i}"), setup.clone()).unwrap();
            index.invites.insert(format!("I{i}"), id.clone());
            index.token_hashes.insert(format!("t{i}"), id.clone());
            index.matches.insert(
                id,
                Entry {
                    handle: MatchHandle::channel(shutdown.clone()).0,
                    invite: format!("I{i}"),
                    token_hashes: vec![format!("t{i}")],
                    summary: state.summary(0),
                    public: false,
                    creator: None,
                },
            );
        }
        let peak = index.matches.capacity();
        assert!(peak >= 4000, "{peak}");
        for i in 10..4000 {
            index.remove(&format!("m{i}"));
        }
        for map in [index.invites.capacity(), index.token_hashes.capacity()] {
            assert!(map <= 128, "{map} slots kept for 10 entries");
        }
        assert!(
            index.matches.capacity() <= 128,
            "{}",
            index.matches.capacity()
        );
        assert_eq!(index.matches.len(), 10);
        assert_eq!(index.token_hashes.get("t9").map(String::as_str), Some("m9"));
        assert_eq!(index.invites.get("I0").map(String::as_str), Some("m0"));
    }

    fn settings(max_matches: usize) -> Settings {
        Settings {
            grace: Duration::from_secs(60),
            first_move_timeout: Duration::from_secs(30),
            abandon_after: Duration::from_secs(600),
            linger: Duration::from_secs(60),
            max_matches,
        }
    }

    /// An untimed casual seek for White.
    fn casual_seek(public: bool) -> CreateMatch {
        CreateMatch {
            time_control: None,
            color: ColorChoice::White,
            public,
            rated: false,
            rating_range: None,
        }
    }

    /// Alice's seek (White, untimed) from one address, public or private.
    async fn alice_seeks(hub: &Hub, public: bool) -> (MatchHandle, String, String) {
        hub.create_seek(
            hub,
            crate::ops::address::ClientAddr::of([127, 0, 0, 1].into()),
            &Player::person("alice"),
            casual_seek(public),
        )
        .await
        .unwrap()
    }

    /// A match between two players that `white` resigned, once it is stored as finished.
    async fn resigned_match(hub: &Hub) -> String {
        let players = [
            (Side::White, Player::person("w")),
            (Side::Black, Player::person("b")),
        ];
        let setup = Setup::default();
        let (handle, id, tokens) = hub.create_match(setup, &players, false).await.unwrap();
        let (outbox, _inbox) =
            crate::room::outbox::outbox(crate::room::outbox::next_conn_id(), Encoding::Json, 8);
        handle
            .try_send(Command::Act {
                outbox,
                id: 1,
                token: tokens[0].1.clone(),
                action: Action::Resign,
                received: Instant::now(),
            })
            .unwrap();
        while hub
            .storage()
            .finished_match(MatchKey::Id(id.clone()))
            .await
            .unwrap()
            .is_none()
        {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        id
    }

    /// A single node's storage on a fresh SQLite file in `dir`.
    async fn sqlite_storage(dir: &std::path::Path) -> Storage {
        let (storage, _) = Storage::open(&crate::storage::Database::Sqlite(dir.join("db")), None)
            .await
            .unwrap();
        storage
    }

    #[tokio::test]
    async fn watching_finished_matches_leaves_room_to_create_new_ones() {
        let dir = tempfile::tempdir().unwrap();
        let storage = sqlite_storage(dir.path()).await;
        let (_trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let earlier = Hub::new(
            storage.clone(),
            settings(10),
            shutdown.clone(),
            tasks.clone(),
        );
        let mut finished = Vec::new();
        for _ in 0..3 {
            finished.push(resigned_match(&earlier).await);
        }
        // A server started afterwards holds none of them, and may hold two matches.
        let hub = Hub::new(storage, settings(2), shutdown, tasks);
        for id in &finished[..2] {
            assert!(hub.find(id).await.unwrap().is_some(), "{id} is read back");
        }
        // Finished matches in memory have a bound of their own …
        let refusal = hub.find(&finished[2]).await.unwrap_err();
        assert_eq!(refusal.code, ErrorCode::Busy, "{refusal}");
        // … and do not take the room of new matches.
        let seek = |n: u8| {
            let hub = hub.clone();
            async move {
                hub.create_seek(
                    &hub,
                    crate::ops::address::ClientAddr::of([127, 0, 0, n].into()),
                    &Player::person("alice"),
                    casual_seek(true),
                )
                .await
            }
        };
        seek(1).await.unwrap();
        seek(2).await.unwrap();
        assert_eq!(seek(3).await.unwrap_err().code, ErrorCode::Busy);
    }

    /// Waits (a few seconds at most) until `hub`'s lobby lists `id` as a seek or not.
    async fn until_listed(hub: &Hub, id: &str, listed: bool) {
        let lists = || hub.lobby().0.iter().any(|seek| seek.match_id == id);
        tokio::time::timeout(Duration::from_secs(5), async {
            while lists() != listed {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{id} listed: {} instead of {listed}", lists()));
    }

    #[tokio::test]
    async fn a_seek_leaves_the_lobby_while_its_creator_holds_no_connection() {
        let dir = tempfile::tempdir().unwrap();
        let storage = sqlite_storage(dir.path()).await;
        let (_trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let hub = Hub::new(storage, settings(10), shutdown, tasks);
        let (handle, id, token) = alice_seeks(&hub, true).await;
        let seat = |conn| {
            let (outbox, inbox) = crate::room::outbox::outbox(conn, Encoding::Json, 64);
            handle
                .try_send(Command::Resume {
                    outbox,
                    id: 1,
                    token: token.clone().into(),
                    since_v: None,
                    carried: false,
                })
                .unwrap();
            inbox
        };
        let first = crate::room::outbox::next_conn_id();
        let _inbox = seat(first);
        until_listed(&hub, &id, true).await;
        assert!(hub.is_public(&id), "joinable by id");
        // The creator's connection closes (a closed browser, a quit client): nobody to play.
        handle.try_send(Command::Leave { conn: first }).unwrap();
        until_listed(&hub, &id, false).await;
        assert!(!hub.is_public(&id), "not joinable by id either");
        // The creator comes back with their seat: listed again.
        let _inbox = seat(crate::room::outbox::next_conn_id());
        until_listed(&hub, &id, true).await;
    }

    #[tokio::test]
    async fn the_lobby_watch_sees_a_line_appear_change_and_go() {
        let dir = tempfile::tempdir().unwrap();
        let storage = sqlite_storage(dir.path()).await;
        let (_trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let hub = Hub::new(storage, settings(10), shutdown, tasks);
        let watch = hub.watch_lobby();
        let next = || tokio::time::timeout(Duration::from_secs(5), watch.changed());
        let (_handle, id, _token) = alice_seeks(&hub, true).await;
        let started = next().await.expect("the new seek is told");
        let line = started.iter().find(|(changed, _)| *changed == id);
        let (summary, public) = line.and_then(|(_, line)| line.clone()).expect("listed");
        assert_eq!(summary.phase, MatchPhase::Waiting);
        assert!(public);
        // A change the actor reports is told as the line is now.
        let mut private = summary.clone();
        private.watchers = 7;
        hub.update_summary(private, false);
        let updated = next().await.expect("the change is told");
        assert!(
            updated.iter().any(|(changed, line)| *changed == id
                && line
                    .as_ref()
                    .is_some_and(|(s, public)| s.watchers == 7 && !public)),
            "{updated:?}"
        );
        // Gone: told as no line.
        hub.remove(&id);
        let gone = next().await.expect("the removal is told");
        assert!(gone.contains(&(id.clone(), None)), "{gone:?}");
    }

    #[tokio::test]
    async fn a_new_invite_code_never_repeats_an_open_matchs() {
        let dir = tempfile::tempdir().unwrap();
        let storage = sqlite_storage(dir.path()).await;
        let (_trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let hub = Hub::new(storage, settings(10), shutdown, tasks);
        let (_handle, id, _) = alice_seeks(&hub, false).await;
        let taken = hub.index().matches[&id].invite.clone();
        assert_eq!(taken.len(), crate::matches::invite::LENGTH + 1, "{taken}");
        // A draw that repeats the open match's code is drawn again.
        let mut draws = vec![taken.clone(), taken.clone(), "NEWCD-EFGHJ".to_owned()].into_iter();
        let fresh = hub
            .fresh_invite_from(|| draws.next().unwrap())
            .await
            .unwrap();
        assert_eq!(fresh, "NEWCD-EFGHJ");
        // A generator stuck on taken codes gives up with a refusal, never a clash.
        let refused = hub.fresh_invite_from(|| taken.clone()).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::Internal);
    }

    #[tokio::test]
    async fn a_match_stopped_by_shutdown_refuses_as_shutting_down() {
        let dir = tempfile::tempdir().unwrap();
        let storage = sqlite_storage(dir.path()).await;
        let (trigger, shutdown) = crate::ops::shutdown::channel();
        let (tasks, _all_done) = crate::ops::shutdown::tasks();
        let hub = Hub::new(storage, settings(10), shutdown, tasks);
        let (handle, _, token) = alice_seeks(&hub, false).await;
        trigger.fire();
        while !handle.is_stopped() {
            tokio::task::yield_now().await;
        }
        let (outbox, _inbox) =
            crate::room::outbox::outbox(crate::room::outbox::next_conn_id(), Encoding::Json, 8);
        let refusal = handle
            .try_send(Command::Act {
                outbox,
                id: 1,
                token,
                action: Action::Resign,
                received: Instant::now(),
            })
            .unwrap_err();
        assert_eq!(refusal.code, ErrorCode::ShuttingDown, "{refusal}");
    }
}
