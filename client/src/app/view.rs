//! Local, presentation-only state of the full-screen UI: which screen, cursors, typed text,
//! overlays and display toggles. Changing it never talks to the server.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use boardcast_protocol::Lobby;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Screen {
    #[default]
    Home,
    Match,
    Channel,
}

/// An action that needs a `y` first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    Resign,
    Abort,
}

/// The three lists of the home screen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Section {
    #[default]
    Seeks,
    Live,
    Channels,
}

impl Section {
    pub fn next(self) -> Section {
        match self {
            Section::Seeks => Section::Live,
            Section::Live => Section::Channels,
            Section::Channels => Section::Seeks,
        }
    }

    pub fn len(self, lobby: &Lobby) -> usize {
        match self {
            Section::Seeks => lobby.seeks.len(),
            Section::Live => lobby.live.len(),
            Section::Channels => lobby.channels.len(),
        }
    }
}

/// What the home screen's text prompt asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    /// An invite code to join a private match.
    InviteCode,
    /// `SERIAL L4 K7`: an on-demand engine game to start and predict.
    EngineGame,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub text: String,
}

impl Prompt {
    pub fn new(kind: PromptKind) -> Prompt {
        Prompt {
            kind,
            text: String::new(),
        }
    }

    pub fn label(&self) -> &'static str {
        match self.kind {
            PromptKind::InviteCode => "invite code",
            PromptKind::EngineGame => "engine game (SERIAL WHITE BLACK, e.g. CH3SS5 L4 K7)",
        }
    }
}

const LOG_LINES: usize = 50;

/// How long the status line shows a message.
pub const STATUS_FOR: Duration = Duration::from_secs(8);

#[derive(Debug, Clone)]
pub struct UiState {
    pub screen: Screen,
    /// Typed move or guess.
    pub input: String,
    /// Board cursor of the Frisian view: (row, column) as White sees the board.
    pub cursor: (u8, u8),
    /// Origin picked with the cursor.
    pub selected: Option<u8>,
    /// Indices into the legal list when a typed or picked move was ambiguous.
    pub choice: Option<Vec<usize>>,
    /// The highlighted option of `choice` (its captures are marked on the board).
    pub choice_at: usize,
    pub confirm: Option<Confirm>,
    pub help: bool,
    /// The all-time leaderboard overlay (`L` on the MinitChess screen).
    pub leaderboard: bool,
    pub numbers: bool,
    /// Letters (w W b B) instead of symbols for Frisian pieces.
    pub letters: bool,
    /// Turn the board round from its natural orientation (White below, or Black for Black).
    pub flip: bool,
    /// MinitChess FLAT (letters) instead of FULL (figurines).
    pub flat: bool,
    /// What colours the terminal shows (detected by the full-screen runner).
    pub colors: crate::ui::palette::ColorMode,
    pub predicting: bool,
    /// MinitChess cursor and picked origin, board indices 0 (a6) – 29 (e1).
    pub minit_cursor: usize,
    pub minit_from: Option<usize>,
    pub section: Section,
    pub row: usize,
    /// Text being typed on the home screen.
    pub prompt: Option<Prompt>,
    /// The chat prompt of the match screen (`/`), with what a member has typed so far.
    pub chat: Option<String>,
    /// The chat prompt shows the authors to mute or unmute (Tab in the chat prompt).
    pub muting: bool,
    /// The "new match" form, while it is open.
    pub create: Option<super::create::CreateForm>,
    /// The "play now" panel of the home screen, while it is open.
    pub play_now: Option<PlayNowPanel>,
    pub log: VecDeque<String>,
    /// The message on the status line; cleared when the screen (or the match shown) changes,
    /// hidden after [`STATUS_FOR`].
    pub status: Option<Status>,
    /// Browsing the match's history: the number of plies shown on the board (`<` `>`),
    /// `None` for the live position.
    pub browse: Option<usize>,
    /// Where the last frame drew the board, for mouse clicks (written while drawing).
    pub board: std::cell::Cell<Option<BoardGeometry>>,
}

/// The home screen's "play now" panel: a preset chosen, then waiting to be paired until the
/// server's `paired` seats the player (or Esc stops looking).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayNowPanel {
    /// The chosen preset, an index into [`boardcast_protocol::PoolPreset::ALL`].
    pub preset: usize,
    /// `play_now` was sent and not refused: looking for an opponent.
    pub waiting: bool,
}

impl Default for PlayNowPanel {
    /// 3+2 chosen, not waiting yet.
    fn default() -> Self {
        PlayNowPanel {
            preset: 1,
            waiting: false,
        }
    }
}

impl PlayNowPanel {
    pub fn preset(&self) -> boardcast_protocol::PoolPreset {
        let all = boardcast_protocol::PoolPreset::ALL;
        all[self.preset.min(all.len() - 1)]
    }
}

/// Where a board was drawn: its squares' area, cell size, orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardGeometry {
    pub area: ratatui::layout::Rect,
    /// Cell width and height in terminal cells.
    pub cell: (u16, u16),
    /// Columns before the first file (MinitChess rank labels).
    pub label: u16,
    /// Squares per row: 10 (Frisian) or 5 (MinitChess).
    pub squares: u16,
    pub flipped: bool,
}

/// One message of the status line, in the TUI's own words (see `app::status`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub at: Instant,
    /// A refusal or failure, drawn to stand out.
    pub alert: bool,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            screen: Screen::Home,
            input: String::new(),
            cursor: (6, 1),
            selected: None,
            choice: None,
            choice_at: 0,
            confirm: None,
            help: false,
            leaderboard: false,
            numbers: true,
            letters: false,
            flip: false,
            flat: false,
            colors: crate::ui::palette::ColorMode::TrueColor,
            predicting: false,
            minit_cursor: 26,
            minit_from: None,
            section: Section::Seeks,
            row: 0,
            prompt: None,
            chat: None,
            muting: false,
            create: None,
            play_now: None,
            log: VecDeque::new(),
            status: None,
            browse: None,
            board: std::cell::Cell::new(None),
        }
    }
}

impl UiState {
    /// Puts `line` on the status line (and in the log); `alert` for refusals and failures.
    pub fn log(&mut self, line: String, alert: bool) {
        if self.log.len() == LOG_LINES {
            self.log.pop_front();
        }
        self.status = Some(Status {
            text: line.clone(),
            at: Instant::now(),
            alert,
        });
        self.log.push_back(line);
    }

    /// The status line's message at `now`, if it is still fresh.
    pub fn status_at(&self, now: Instant) -> Option<&Status> {
        let status = self.status.as_ref()?;
        (now.saturating_duration_since(status.at) < STATUS_FOR).then_some(status)
    }

    pub fn enter(&mut self, screen: Screen) {
        if self.screen != screen {
            self.screen = screen;
            self.status = None;
            self.input.clear();
            self.selected = None;
            self.choice = None;
            self.confirm = None;
            self.minit_from = None;
            self.browse = None;
            self.chat = None;
            self.muting = false;
            self.board.set(None);
        }
    }

    /// A move was played: any half-made selection is void.
    pub fn moved(&mut self) {
        self.selected = None;
        self.choice = None;
    }

    /// Keeps the home selection inside the list after a lobby update.
    pub fn home_clamp(&mut self, lobby: &Lobby) {
        let len = self.section.len(lobby);
        self.row = self.row.min(len.saturating_sub(1));
    }
}
