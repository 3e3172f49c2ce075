//! The client's state machine: a pure function of the server messages received, connection
//! events and local commands. It never touches a socket, a terminal or a file; it only queues
//! what to send ([`App::out`]), what to tell the user ([`App::notes`]) and what to store
//! ([`App::store_ops`]), which the runners (`plain`, `tui`) carry out.

mod act;
pub mod channel;
pub mod chat;
pub mod command;
pub mod create;
pub mod entry;
pub mod fen;
pub mod game;
pub mod keys;
pub mod notes;
mod receive;
mod status;
pub mod view;

use std::collections::{BTreeMap, HashMap};

use boardcast_protocol::{
    ClientEnvelope, ClientMessage, Hello, Lobby, PROTOCOL_VERSION, Resume, Side, Target, Watch,
};

use channel::Channel;
use command::Command;
use game::Game;
use notes::Note;

use crate::i18n::{tr, tr_args};
pub use view::{Screen, UiState};

/// The seat this client holds. The token is a secret: it is never shown or logged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatInfo {
    pub match_id: String,
    pub side: Side,
    pub token: String,
    pub invite_code: String,
}

/// The `watch` of Frisian TV, answered by `featured`.
fn frisian_tv() -> Watch {
    Watch {
        target: Target::Channel(boardcast_protocol::FRISIAN_TV.to_owned()),
        since_v: None,
    }
}

/// Leaderboard entries asked for: the most the server gives, to find the viewer's place.
pub const LEADERBOARD_ASKED: usize = 100;

/// A change the runner must make to the seat store on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreOp {
    Save(SeatInfo),
    /// The match is over or the seat is gone.
    Remove(String),
}

/// A finished match's PDN to fetch from `url` into `dir`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnSave {
    pub match_id: String,
    pub url: String,
    pub dir: std::path::PathBuf,
}

/// What an envelope in flight asked for, to make sense of its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pending {
    /// A refused resume means the stored seat is dead.
    Resume,
    /// Re-sent after a reconnect until acknowledged (PROTOCOL.md §9).
    MatchAction,
    /// A refused guess is no longer pending.
    Guess,
    /// A refused watch of the shown match or channel: the screen says why instead of waiting.
    Watch,
    /// `join TEXT` by invite code: if no match has that code, TEXT is tried as a public match's
    /// id, since `boardcast list` and the lobby show seeks by id.
    JoinCode(String),
    /// The second try of a `join TEXT` (see [`Pending::JoinCode`]).
    JoinCodeAsId(String),
    /// A refused `play_now` ends the home screen's wait.
    PlayNow,
    Other,
}

/// The connection as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    Connecting,
    Online,
    Offline { reason: String },
}

pub struct App {
    pub name: String,
    /// A program plays through this app (`boardcast engine`): `hello` says so, and the server
    /// marks every seat it takes as a bot's. Never set for a person.
    pub bot: bool,
    /// The server as the user named it: for the friend's join command, links and PDN URLs.
    pub address: Option<crate::address::ServerAddress>,
    /// The address the server says to give out (`welcome.public_url`: its `--public-url`, or
    /// what it derived from this connection). The friend's command and link prefer it, since
    /// the address this client used may only work from here (a LAN address, a tunnel).
    public: Option<crate::address::ServerAddress>,
    pub link: Link,
    connects: u32,
    next_id: u64,
    pending: HashMap<u64, Pending>,
    /// Match actions not acknowledged yet, re-sent with their ids after a reconnect.
    unacked: BTreeMap<u64, ClientMessage>,
    /// What to do once connected the first time.
    intent: Option<Command>,
    pub lobby: Option<Lobby>,
    pub seat: Option<SeatInfo>,
    pub game: Option<Game>,
    pub channel: Option<Channel>,
    pub watching: Option<Target>,
    /// Following Frisian TV: the server names the match to show (`featured`) and this app
    /// watches it, moving on when told.
    pub tv: bool,
    pub watchers: u32,
    /// The all-time prediction leaderboard, best first, as last received.
    pub leaderboard: Option<Vec<boardcast_protocol::LeaderboardEntry>>,
    /// A seat from the store that `R` on the home screen resumes.
    pub stored: Option<SeatInfo>,
    pub ui: UiState,
    pub out: Vec<ClientEnvelope>,
    pub notes: Vec<Note>,
    pub store_ops: Vec<StoreOp>,
    pub quit: bool,
    /// Ack ids of what the start-up command (`join CODE`, `watch M`, …) sent.
    startup: std::ops::Range<u64>,
    /// `--save-pdn DIR`: save each finished match there without being asked.
    pub save_pdn: Option<std::path::PathBuf>,
    /// PDN downloads for the runner to start.
    pub pdn_saves: Vec<PdnSave>,
    /// Why the session cannot go on: the start-up command was refused, or the server was
    /// never reached. `--plain` exits non-zero with it on stderr.
    pub failed: Option<String>,
    /// Started on a screen of its own (`boardcast tv`, `watch`, `predict`, `ftv`): `q` leaves
    /// the program, back to the shell it came from, rather than to a home screen never seen.
    pub exit_on_back: bool,
    /// Why the match or channel asked for is not shown: the server refused the watch (`no
    /// channel or archived game tv3`) or the resume.
    pub unavailable: Option<String>,
    /// When the match or channel shown was asked for, until its snapshot comes: the screen
    /// says so when the server stays silent.
    pub asked_at: Option<std::time::Instant>,
    /// The player's turn has just come (the opponent moved, or joined with the player to
    /// move): the full-screen runner rings the terminal bell and clears it.
    pub ring: bool,
    /// Whether the bell rings at all: off with `--no-bell`, and `b` on the match screen turns
    /// it off and on while playing (a player in a quiet room need not restart the client).
    pub bell: bool,
    /// Why the server cannot be reached this way at all (`NetEvent::Failed`: an untrusted
    /// certificate): every runner, the full-screen one too, ends with it on stderr, whole.
    pub fatal: Option<String>,
    /// `--ca-file`: the friend told how to join a `wss://` match needs it too.
    pub ca_file: Option<std::path::PathBuf>,
    /// This connection's round trip (a moving average of its WebSocket pings): sent with each
    /// move as `lag_ms` for lag compensation, and shown beside one's name.
    pub round_trip: Option<std::time::Duration>,
    /// This connection is a signed-in member's (`welcome.account`): it may say free text in
    /// the chat, where a guest picks phrases.
    pub member: bool,
    /// The chat of the match shown (our room).
    pub chat: chat::MatchChat,
    /// Chat authors muted for ourselves (`m:Name` a member, `g:Name` a guest, as the web
    /// client keys them), oldest first: their lines are hidden in every match. Kept on disk
    /// by the runner (`Store::save_muted`) when [`App::muted_changed`] says so.
    pub muted: Vec<String>,
    pub muted_changed: bool,
    /// The ply at which the low-time bell last rang (once per turn).
    low_time_rung: Option<(String, usize)>,
    /// A move typed on the opponent's turn (a premove), and how many plies were played then:
    /// sent the moment the opponent's move arrives (its event, or a snapshot that holds it) if
    /// it is then legal, else dropped with a notice; Esc cancels it. It answers that one move:
    /// a snapshot of another position (a takeback's) forgets it.
    pub premove: Option<(String, usize)>,
}

/// Below this the player's own clock rings the bell once per turn (as the web page's
/// low-time sound).
pub const LOW_TIME_MS: u64 = 10_000;

impl App {
    /// `first_id` should grow across runs (the runners use the clock in milliseconds), since
    /// the server remembers a seat's ack ids even after this process is gone.
    pub fn new(name: &str, intent: Option<Command>, first_id: u64) -> App {
        let exit_on_back = matches!(intent, Some(Command::Watch(_) | Command::Predict(_)));
        App {
            name: name.to_owned(),
            bot: false,
            address: None,
            public: None,
            link: Link::Connecting,
            connects: 0,
            next_id: first_id.max(1),
            pending: HashMap::new(),
            unacked: BTreeMap::new(),
            intent,
            lobby: None,
            seat: None,
            game: None,
            channel: None,
            watching: None,
            tv: false,
            watchers: 0,
            leaderboard: None,
            stored: None,
            ui: UiState::default(),
            out: Vec::new(),
            notes: Vec::new(),
            store_ops: Vec::new(),
            quit: false,
            startup: 0..0,
            save_pdn: None,
            pdn_saves: Vec::new(),
            failed: None,
            exit_on_back,
            unavailable: None,
            asked_at: None,
            ring: false,
            premove: None,
            bell: true,
            fatal: None,
            ca_file: None,
            round_trip: None,
            member: false,
            chat: chat::MatchChat::default(),
            muted: Vec::new(),
            muted_changed: false,
            low_time_rung: None,
        }
    }

    /// Rings the bell ([`App::ring`]) once when the player's own clock drops under
    /// [`LOW_TIME_MS`] on their turn; the full-screen runner calls this as it draws.
    pub fn check_low_time(&mut self, now: std::time::Instant) {
        let Some(me) = self.my_side() else { return };
        let Some(game) = self.game.as_ref().filter(|g| !g.is_over() && g.turn == me) else {
            return;
        };
        let Some((white, black)) = game.clocks(now) else {
            return;
        };
        let mine = if me == Side::White { white } else { black };
        let turn = (game.match_id.clone(), game.moves.len());
        if mine < LOW_TIME_MS && self.low_time_rung.as_ref() != Some(&turn) {
            self.low_time_rung = Some(turn);
            self.ring = true;
        }
    }

    /// Whether the bell is to ring now: the turn came or time ran low, and the bell is on.
    /// Clears the ring either way, so a bell turned on later does not ring for old news.
    pub fn take_ring(&mut self) -> bool {
        std::mem::take(&mut self.ring) && self.bell
    }

    /// `b`: the bell off, or on again; the status line says which.
    pub fn toggle_bell(&mut self) {
        self.bell = !self.bell;
        let said = if self.bell { "bell-on" } else { "bell-off" };
        self.ui.log(crate::i18n::tr(said), false);
    }

    /// Queues a message; returns its ack id.
    fn send(&mut self, msg: ClientMessage, pending: Pending) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        if pending == Pending::MatchAction {
            self.unacked.insert(id, msg.clone());
        }
        self.pending.insert(id, pending);
        self.out.push(ClientEnvelope { id, msg });
        id
    }

    /// Queues a store change and keeps the home screen's resumable seat in step with it.
    fn store(&mut self, op: StoreOp) {
        match &op {
            StoreOp::Save(seat) => self.stored = Some(seat.clone()),
            StoreOp::Remove(id) => {
                if self.stored.as_ref().is_some_and(|s| &s.match_id == id) {
                    self.stored = None;
                }
            }
        }
        self.store_ops.push(op);
    }

    fn note(&mut self, note: Note) {
        if let Some((text, alert)) = self.status_text(&note) {
            self.ui.log(text, alert);
        }
        self.notes.push(note);
    }

    fn error(&mut self, code: &str, message: impl Into<String>) {
        self.note(Note::Error {
            code: code.to_owned(),
            message: message.into(),
            args: None,
            from_client: true,
        });
    }

    /// The connection is up (again): greet, then carry on where we were.
    pub fn connected(&mut self) {
        self.connects += 1;
        self.link = Link::Online;
        let again = self.connects > 1;
        self.note(Note::Connected { again });
        self.pending.clear();
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            client: concat!("boardcast-client/", env!("CARGO_PKG_VERSION")).to_owned(),
            name: self.name.clone(),
            bot: self.bot,
        };
        self.send(ClientMessage::Hello(hello), Pending::Other);
        if !again {
            if let Some(intent) = self.intent.take() {
                let first = self.next_id;
                self.command(intent);
                self.startup = first..self.next_id;
            }
            return;
        }
        self.resubscribe();
        let unacked = std::mem::take(&mut self.unacked);
        for (id, msg) in unacked {
            self.pending.insert(id, Pending::MatchAction);
            self.unacked.insert(id, msg.clone());
            self.out.push(ClientEnvelope { id, msg });
        }
    }

    pub fn disconnected(&mut self, reason: &str, retry_ms: u64) {
        if self.connects == 0 && self.failed.is_none() {
            self.failed = Some(tr_args(
                "local-unreachable",
                &[("reason", reason.to_owned().into())],
            ));
        }
        self.link = Link::Offline {
            reason: reason.to_owned(),
        };
        self.note(Note::Disconnected {
            reason: reason.to_owned(),
            retry_ms,
        });
    }

    /// The connection cannot be made at all (see [`Self::fatal`]).
    pub fn connection_failed(&mut self, reason: &str) {
        self.link = Link::Offline {
            reason: reason.to_owned(),
        };
        self.fatal = Some(reason.to_owned());
    }

    /// A frame from the server that did not decode (a newer server's message, or garbage):
    /// ignored as PROTOCOL.md §3 asks, with a note, and the session carries on.
    /// A ping came back after `trip`; each new one weighs a quarter, as on the server.
    pub fn round_trip(&mut self, trip: std::time::Duration) {
        self.round_trip = Some(match self.round_trip {
            Some(mean) => (mean * 3 + trip) / 4,
            None => trip,
        });
    }

    pub fn garbled(&mut self, error: &str) {
        self.note(Note::Info(tr_args(
            "local-garbled",
            &[("error", error.to_owned().into())],
        )));
    }

    /// Asks again for whatever we hold or watch, from the last version seen.
    fn resubscribe(&mut self) {
        if self.tv {
            // Told again which match TV features; the one shown is watched again below.
            self.send(ClientMessage::Watch(frisian_tv()), Pending::Other);
        }
        if let Some(seat) = self.seat.clone() {
            let since_v = self.since_v(&Target::Match(seat.match_id));
            let resume = Resume {
                token: seat.token,
                since_v,
            };
            self.send(ClientMessage::Resume(resume), Pending::Resume);
        } else {
            self.watch_again();
        }
    }

    /// Watches the shown target again from the last version seen (after a gap, PROTOCOL.md §8).
    fn watch_again(&mut self) {
        if let Some(target) = self.watching.clone() {
            let since_v = self.since_v(&target);
            let watch = Watch { target, since_v };
            self.send(ClientMessage::Watch(watch), Pending::Other);
        }
    }

    /// The last event version seen of `target`, if it is the one shown.
    fn since_v(&self, target: &Target) -> Option<u64> {
        match target {
            Target::Match(id) => self
                .game
                .as_ref()
                .filter(|g| &g.match_id == id)
                .map(|g| g.v),
            Target::Channel(id) => self
                .channel
                .as_ref()
                .filter(|c| &c.channel == id)
                .map(|c| c.v),
            Target::Event(_) => None,
        }
    }

    /// The side this client plays in the shown match, if any.
    pub fn my_side(&self) -> Option<Side> {
        let seat = self.seat.as_ref()?;
        let game = self.game.as_ref()?;
        (seat.match_id == game.match_id).then_some(seat.side)
    }

    /// Whether the shown match waits for this client's move.
    pub fn my_turn(&self) -> bool {
        match (&self.game, self.my_side()) {
            (Some(game), Some(side)) => !game.is_over() && game.turn == side,
            _ => false,
        }
    }

    /// How a friend joins the match this client waits in: the exact command (with the server
    /// address this client used) and the web client's link. Empty for anyone else.
    pub fn invite_lines(&self) -> Vec<String> {
        let Some(seat) = self.seat.as_ref().filter(|s| !s.invite_code.is_empty()) else {
            return Vec::new();
        };
        if self
            .game
            .as_ref()
            .is_none_or(|g| g.match_id != seat.match_id)
        {
            return Vec::new();
        }
        let code = &seat.invite_code;
        match self.public.as_ref().or(self.address.as_ref()) {
            Some(address) => vec![
                tr_args(
                    "local-friend-runs",
                    &[(
                        "command",
                        address.join_command(code, self.ca_file.as_deref()).into(),
                    )],
                ),
                tr_args(
                    "local-friend-opens",
                    &[("link", address.invite_link(code).into())],
                ),
            ],
            None => vec![tr_args(
                "local-friend-runs",
                &[("command", format!("boardcast join {code}").into())],
            )],
        }
    }

    /// Time-driven news: the moment the opponent has been gone long enough to be claimed
    /// against, said once.
    pub fn tick(&mut self, now: std::time::Instant) {
        let Some(me) = self.my_side() else { return };
        let Some(game) = self.game.as_mut().filter(|g| !g.is_over()) else {
            return;
        };
        let gone = me.opposite();
        let due = game.claim_in(gone, now).is_some_and(|left| left.is_zero());
        if !due || game.claim_told {
            return;
        }
        game.claim_told = true;
        let aborts = game.claim_aborts();
        self.note(Note::Claimable { side: gone, aborts });
    }

    /// Where the shown finished match's PDN is served, if it is over.
    pub fn pdn_url(&self) -> Option<String> {
        let game = self.game.as_ref().filter(|g| g.result.is_some())?;
        let address = self.address.as_ref()?;
        Some(address.pdn_url(&game.match_id))
    }

    /// Queues a download of the shown finished match's PDN into `dir`.
    pub fn save_pdn_to(&mut self, dir: std::path::PathBuf) {
        let (Some(url), Some(game)) = (self.pdn_url(), self.game.as_ref()) else {
            return self.error("not_over", tr("local-pdn-not-over"));
        };
        self.pdn_saves.push(PdnSave {
            match_id: game.match_id.clone(),
            url,
            dir,
        });
    }

    /// The answer of a PDN download.
    pub fn pdn_saved(&mut self, saved: Result<std::path::PathBuf, String>) {
        match saved {
            Ok(path) => self.note(Note::PdnSaved(path.display().to_string())),
            Err(why) => self.error("pdn", why),
        }
    }

    /// The viewer's place on the leaderboard: (1-based rank, entry), if listed.
    pub fn my_rank(&self) -> Option<(usize, &boardcast_protocol::LeaderboardEntry)> {
        self.leaderboard
            .as_ref()?
            .iter()
            .enumerate()
            .find(|(_, e)| e.name == self.name)
            .map(|(i, e)| (i + 1, e))
    }

    /// When the leaderboard came back as long as asked, those below it were cut off: the
    /// viewer missing from it is not in the top that many, rather than unranked.
    pub fn leaderboard_beyond(&self) -> Option<usize> {
        let listed = self.leaderboard.as_ref()?.len();
        (listed >= LEADERBOARD_ASKED).then_some(listed)
    }

    /// Takes every queued output, for the runner.
    pub fn drain(&mut self) -> (Vec<ClientEnvelope>, Vec<Note>, Vec<StoreOp>) {
        (
            std::mem::take(&mut self.out),
            std::mem::take(&mut self.notes),
            std::mem::take(&mut self.store_ops),
        )
    }
}

#[cfg(test)]
mod tests;
