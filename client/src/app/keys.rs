//! Key bindings of the full-screen UI, per screen. Keys change [`super::UiState`] or become
//! [`Command`]s; the help overlay (`?`) lists the same bindings.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use boardcast_protocol::{ClaimKind, MatchPhase, Target};

use super::App;
use super::command::{Command, Reply};
use super::create::CreateForm;
use super::entry;
use super::fen::cell_square;
use super::view::{Confirm, PlayNowPanel, Prompt, PromptKind, Screen, Section};
use crate::i18n::{tr, tr_args};

/// A direction the cursor moves, as the viewer sees the board.
fn direction(code: KeyCode) -> Option<(i8, i8)> {
    match code {
        KeyCode::Up | KeyCode::Char('k') => Some((-1, 0)),
        KeyCode::Down | KeyCode::Char('j') => Some((1, 0)),
        KeyCode::Left | KeyCode::Char('h') => Some((0, -1)),
        KeyCode::Right | KeyCode::Char('l') => Some((0, 1)),
        _ => None,
    }
}

impl App {
    pub fn key(&mut self, key: KeyEvent) {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.ui.help || self.ui.leaderboard {
            self.ui.help = false;
            self.ui.leaderboard = false;
            return;
        }
        if let Some(confirm) = self.ui.confirm.take() {
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                self.command(match confirm {
                    Confirm::Resign => Command::Resign,
                    Confirm::Abort => Command::Abort,
                });
            }
            return;
        }
        if self.ui.chat.is_some() && self.ui.screen == Screen::Match {
            return self.chat_key(key.code);
        }
        if key.code == KeyCode::Char('?') && self.ui.prompt.is_none() {
            self.ui.help = true;
            return;
        }
        match self.ui.screen {
            Screen::Home => self.home_key(key.code),
            Screen::Match => self.match_key(key.code),
            Screen::Channel => self.channel_key(key.code),
        }
    }

    fn home_key(&mut self, code: KeyCode) {
        if self.ui.create.is_some() {
            return self.create_key(code);
        }
        if self.ui.play_now.is_some() {
            return self.play_now_key(code);
        }
        if let Some(prompt) = &mut self.ui.prompt {
            match code {
                KeyCode::Esc => self.ui.prompt = None,
                KeyCode::Backspace => {
                    prompt.text.pop();
                }
                KeyCode::Enter => {
                    if let Some(prompt) = self.ui.prompt.take() {
                        self.prompted(prompt);
                    }
                }
                KeyCode::Char(c)
                    if (c.is_ascii_graphic() || c == ' ') && prompt.text.len() < 64 =>
                {
                    prompt.text.push(c)
                }
                _ => {}
            }
            return;
        }
        let len = self.lobby.as_ref().map_or(0, |l| self.ui.section.len(l));
        match code {
            KeyCode::Char('q') => self.quit = true,
            KeyCode::Tab | KeyCode::Right | KeyCode::Char('l') => {
                self.ui.section = self.ui.section.next();
                self.ui.row = 0;
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.ui.section = self.ui.section.next().next();
                self.ui.row = 0;
            }
            KeyCode::Down | KeyCode::Char('j') if self.ui.row + 1 < len => self.ui.row += 1,
            KeyCode::Up | KeyCode::Char('k') => self.ui.row = self.ui.row.saturating_sub(1),
            KeyCode::Char('r') => self.command(Command::Lobby),
            KeyCode::Char('c') | KeyCode::Char('C') => {
                self.ui.create = Some(CreateForm::new(code == KeyCode::Char('c')));
            }
            KeyCode::Char('n') => self.ui.play_now = Some(PlayNowPanel::default()),
            KeyCode::Char('i') => self.ui.prompt = Some(Prompt::new(PromptKind::InviteCode)),
            KeyCode::Char('e') => self.ui.prompt = Some(Prompt::new(PromptKind::EngineGame)),
            KeyCode::Char('t') => self.command(Command::Watch(Target::Channel("tv1".into()))),
            KeyCode::Char('f') => self.command(Command::Watch(Target::Channel(
                boardcast_protocol::FRISIAN_TV.into(),
            ))),
            KeyCode::Char('R') => match self.stored.clone() {
                Some(seat) => self.command(Command::Resume {
                    token: seat.token,
                    match_id: seat.match_id,
                }),
                None => self.error("no_seat", tr("local-no-stored-seat")),
            },
            KeyCode::Enter | KeyCode::Char('w') => self.open_selected(false),
            KeyCode::Char('p') => self.open_selected(true),
            _ => {}
        }
    }

    /// Keys of the "play now" panel: ←→ (or 1–5) choose the preset, Enter starts looking;
    /// while looking, Esc (or x) stops, and the server is told.
    fn play_now_key(&mut self, code: KeyCode) {
        let Some(panel) = &mut self.ui.play_now else {
            return;
        };
        let presets = boardcast_protocol::PoolPreset::ALL.len();
        if panel.waiting {
            if matches!(code, KeyCode::Esc | KeyCode::Char('x')) {
                self.ui.play_now = None;
                self.command(Command::PlayNow(None));
            }
            return;
        }
        match code {
            KeyCode::Esc => self.ui.play_now = None,
            KeyCode::Left => panel.preset = (panel.preset + presets - 1) % presets,
            KeyCode::Right => panel.preset = (panel.preset + 1) % presets,
            KeyCode::Char(c @ '1'..='5') => panel.preset = usize::from(c as u8 - b'1'),
            KeyCode::Enter => {
                panel.waiting = true;
                let preset = panel.preset();
                self.command(Command::PlayNow(Some(preset)));
            }
            _ => {}
        }
    }

    /// Keys of the "new match" form: rows, values, a custom time control, Enter creates.
    fn create_key(&mut self, code: KeyCode) {
        let Some(form) = &mut self.ui.create else {
            return;
        };
        match code {
            KeyCode::Esc => self.ui.create = None,
            KeyCode::Up | KeyCode::BackTab => form.next_field(false),
            KeyCode::Down | KeyCode::Tab => form.next_field(true),
            KeyCode::Left => form.change(false),
            KeyCode::Right => form.change(true),
            KeyCode::Backspace if form.typing() => {
                form.custom.pop();
            }
            KeyCode::Char(c)
                if form.typing() && (c.is_ascii_digit() || c == '+') && form.custom.len() < 12 =>
            {
                form.custom.push(c);
                form.error = None;
            }
            KeyCode::Enter => match form.time_control() {
                Ok(time) => {
                    let create = Command::Create {
                        time,
                        color: form.color,
                        public: form.public,
                        rated: form.rated,
                    };
                    self.ui.create = None;
                    self.command(create);
                }
                Err(why) => form.error = Some(why),
            },
            _ => {}
        }
    }

    fn prompted(&mut self, prompt: Prompt) {
        let words: Vec<&str> = prompt.text.split_whitespace().collect();
        match (prompt.kind, words.as_slice()) {
            (_, []) => {}
            (PromptKind::InviteCode, [code]) => self.command(Command::JoinCode((*code).to_owned())),
            (PromptKind::EngineGame, [serial, white, black]) => self.command(Command::Engine {
                serial: serial.to_ascii_uppercase(),
                white: white.to_ascii_uppercase(),
                black: black.to_ascii_uppercase(),
            }),
            _ => self.error(
                "bad_input",
                tr_args(
                    "local-expected",
                    &[
                        ("what", prompt.label().into()),
                        ("got", prompt.text.trim().to_owned().into()),
                    ],
                ),
            ),
        }
    }

    fn open_selected(&mut self, predict: bool) {
        let Some(lobby) = &self.lobby else { return };
        let row = self.ui.row;
        let command = match self.ui.section {
            Section::Seeks => lobby
                .seeks
                .get(row)
                .map(|s| Command::JoinId(s.match_id.clone())),
            Section::Live => lobby
                .live
                .get(row)
                .map(|s| Command::Watch(Target::Match(s.match_id.clone()))),
            Section::Channels => lobby.channels.get(row).map(|c| match predict {
                true => Command::Predict(c.channel.clone()),
                false => Command::Watch(Target::Channel(c.channel.clone())),
            }),
        };
        if let Some(command) = command {
            self.command(command);
        }
    }

    /// `q` on a match or channel: home, or out of the program when it was started on this
    /// screen from the shell ([`App::exit_on_back`]).
    fn back_home(&mut self) {
        if self.exit_on_back {
            self.quit = true;
            return;
        }
        // The waiting screen of one's own seek is left for good (until `R`): the server is
        // told, so the seek leaves the lobby. A match being played or watched stays followed.
        if self.waiting_in_own_seek() {
            self.stop_watching();
        }
        self.ui.enter(Screen::Home);
        self.command(Command::Lobby);
    }

    /// `<` `>` Home End: step through the match's moves on the board; back at the last move
    /// the board is live again.
    fn browse(&mut self, code: KeyCode) {
        let Some(game) = &self.game else { return };
        let last = game.moves.len();
        let at = self.ui.browse.unwrap_or(last);
        let to = match code {
            KeyCode::Char('<' | ',') | KeyCode::PageUp => at.saturating_sub(1),
            KeyCode::Char('>' | '.') | KeyCode::PageDown => (at + 1).min(last),
            KeyCode::Home => 0,
            _ => last,
        };
        self.ui.browse = (to < last).then_some(to);
        self.ui.selected = None;
    }

    /// Whether `a` may abort the shown match now: before both sides have moved, as the
    /// server rules (PROTOCOL.md §10); afterwards the player is told why without a prompt.
    fn abort_allowed(&self) -> Result<(), String> {
        match &self.game {
            Some(game) if game.is_over() => Err(tr("local-match-over")),
            Some(game) if !game.claim_aborts() => Err(tr("local-abort-too-late")),
            _ => Ok(()),
        }
    }

    fn match_key(&mut self, code: KeyCode) {
        if let Some(choice) = self.ui.choice.clone() {
            let pick = |app: &mut App, picked: usize| {
                let route = choice
                    .get(picked)
                    .and_then(|&i| app.game.as_ref()?.legal.get(i).map(|m| m.route.clone()));
                if let Some(route) = route {
                    app.command(Command::Route(route));
                }
            };
            match code {
                KeyCode::Char(c @ '1'..='9') => pick(self, c as usize - '1' as usize),
                KeyCode::Enter | KeyCode::Char(' ') => pick(self, self.ui.choice_at),
                KeyCode::Up | KeyCode::Char('k') => {
                    self.ui.choice_at = self.ui.choice_at.saturating_sub(1);
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                    self.ui.choice_at = (self.ui.choice_at + 1) % choice.len().max(1);
                }
                KeyCode::Esc => self.ui.choice = None,
                _ => {}
            }
            return;
        }
        let flipped = self.board_flipped();
        if let Some((dr, dc)) = direction(code) {
            let (dr, dc) = if flipped { (-dr, -dc) } else { (dr, dc) };
            let (row, col) = self.ui.cursor;
            self.ui.cursor = (
                (row as i8 + dr).clamp(0, 9) as u8,
                (col as i8 + dc).clamp(0, 9) as u8,
            );
            return;
        }
        let me = self.my_side();
        if matches!(
            code,
            KeyCode::Char('<' | '>' | ',' | '.')
                | KeyCode::Home
                | KeyCode::End
                | KeyCode::PageUp
                | KeyCode::PageDown
        ) {
            return self.browse(code);
        }
        let typing = matches!(code, KeyCode::Char(c) if c.is_ascii_digit() || c == '-' || c == 'x')
            || matches!(code, KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Tab);
        if typing && me.is_some() {
            if !self.my_turn() {
                let game = self.game.as_ref().filter(|g| !g.is_over());
                let picking = matches!(code, KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Tab)
                    && self.ui.input.trim().is_empty();
                match game.filter(|g| g.phase == MatchPhase::Playing) {
                    // A move typed on the opponent's turn is a premove (`premove_instead`).
                    Some(_) if !picking => {}
                    Some(game) => {
                        let text = tr_args(
                            "local-wait-for-move",
                            &[("side", game.turn.to_string().into())],
                        );
                        return self.error("not_your_turn", text);
                    }
                    None => return,
                }
            }
            // A move is made on the live board.
            self.ui.browse = None;
        }
        // `d` and `m` accept the opponent's standing offer, or make one.
        let answer = |offer: Option<boardcast_protocol::Side>| match offer {
            Some(side) if Some(side) != me => Reply::Accept,
            _ => Reply::Offer,
        };
        match code {
            KeyCode::Char(c)
                if (c.is_ascii_digit() || c == '-' || c == 'x') && self.ui.input.len() < 64 =>
            {
                self.ui.input.push(c);
            }
            KeyCode::Backspace => {
                self.ui.input.pop();
            }
            KeyCode::Tab => {
                let legal = self.game.as_ref().map_or(&[][..], |g| g.legal.as_slice());
                if let Some(done) = entry::complete(&self.ui.input, legal) {
                    self.ui.input = done;
                }
            }
            // A space after a square separates it from the next one: `32 28` is `32-28`.
            KeyCode::Char(' ')
                if self.ui.input.ends_with(|c: char| c.is_ascii_digit())
                    && self.ui.input.len() < 64 =>
            {
                self.ui.input.push('-');
            }
            KeyCode::Char(' ') if !self.ui.input.is_empty() => {}
            KeyCode::Enter | KeyCode::Char(' ') => {
                if self.ui.input.trim().is_empty() {
                    self.pick_square();
                } else {
                    let text = std::mem::take(&mut self.ui.input);
                    self.command(Command::Move(text));
                }
            }
            KeyCode::Esc => {
                self.ui.input.clear();
                self.ui.selected = None;
                self.ui.browse = None;
                if let Some((text, _)) = self.premove.take() {
                    self.note(super::Note::Premove("cancelled", text));
                }
            }
            KeyCode::Char('q') => self.back_home(),
            KeyCode::Char('r') if me.is_some() => self.ui.confirm = Some(Confirm::Resign),
            KeyCode::Char('a') if me.is_some() => match self.abort_allowed() {
                Ok(()) => self.ui.confirm = Some(Confirm::Abort),
                Err(why) => self.error("not_allowed", why),
            },
            KeyCode::Char('d') if me.is_some() => {
                let offer = self.game.as_ref().and_then(|g| g.draw_offer);
                self.command(Command::Draw(answer(offer)));
            }
            KeyCode::Char('D') if me.is_some() => self.command(Command::Draw(Reply::Decline)),
            KeyCode::Char('m') if me.is_some() => {
                let game = self.game.as_ref();
                if let Some(id) = game.and_then(|g| g.rematch.clone()) {
                    return self.command(Command::Watch(Target::Match(id)));
                }
                let offer = game.and_then(|g| g.rematch_offer);
                self.command(Command::Rematch(answer(offer)));
            }
            KeyCode::Char('M') if me.is_some() => self.command(Command::Rematch(Reply::Decline)),
            KeyCode::Char('c') if me.is_some() => self.command(Command::Claim(ClaimKind::Win)),
            KeyCode::Char('C') if me.is_some() => self.command(Command::Claim(ClaimKind::Draw)),
            KeyCode::Char('s') => self.command(Command::SavePdn),
            KeyCode::Char('n') => self.ui.numbers = !self.ui.numbers,
            KeyCode::Char('f') => self.ui.flip = !self.ui.flip,
            KeyCode::Char('t') => self.ui.letters = !self.ui.letters,
            KeyCode::Char('/') => self.ui.chat = Some(String::new()),
            KeyCode::Char('+') if me.is_some() => self.command(Command::MoreTime),
            KeyCode::Char('u') if me.is_some() => {
                let offer = self.game.as_ref().and_then(|g| g.takeback_offer);
                self.command(Command::Takeback(answer(offer)));
            }
            KeyCode::Char('U') if me.is_some() => self.command(Command::Takeback(Reply::Decline)),
            KeyCode::Char('b') => self.toggle_bell(),
            // Shifted: berserk cannot be taken back.
            KeyCode::Char('B') if me.is_some() => self.command(Command::Berserk),
            _ => {}
        }
    }

    /// A left click at terminal cell (`x`, `y`): on a board square it moves the cursor there
    /// and picks it, as Enter does (a piece, then where it goes); elsewhere it does nothing.
    pub fn click(&mut self, x: u16, y: u16) {
        if self.ui.help || self.ui.leaderboard || self.ui.confirm.is_some() {
            return;
        }
        let Some(board) = self.ui.board.get() else {
            return;
        };
        let area = board.area;
        if !area.contains(ratatui::layout::Position { x, y }) || board.cell.0 == 0 {
            return;
        }
        let x = (x - area.x).checked_sub(board.label);
        let Some(x) = x else { return };
        let (col, row) = (x / board.cell.0, (y - area.y) / board.cell.1);
        match (self.ui.screen, board.squares) {
            (Screen::Match, 10) if col < 10 && row < 10 => {
                let (row, col) = if board.flipped {
                    (9 - row, 9 - col)
                } else {
                    (row, col)
                };
                if self.my_side().is_none() {
                    return;
                }
                self.ui.cursor = (row as u8, col as u8);
                self.ui.browse = None;
                if self.ui.choice.is_none() {
                    self.pick_square();
                }
            }
            (Screen::Channel, 5) if col < 5 && row < 6 => {
                self.ui.minit_cursor = usize::from(row * 5 + col);
                self.pick_minit_square();
            }
            _ => {}
        }
    }

    /// Whether the Frisian board is drawn with Black at the bottom.
    pub fn board_flipped(&self) -> bool {
        let black = self.my_side() == Some(boardcast_protocol::Side::Black);
        black != self.ui.flip
    }

    /// Enter on the cursor square: pick the origin, then the destination.
    fn pick_square(&mut self) {
        let Some(square) = cell_square(self.ui.cursor.0, self.ui.cursor.1) else {
            return;
        };
        let Some(game) = &self.game else { return };
        if game.phase != MatchPhase::Playing || !self.my_turn() {
            return self.error("not_your_turn", tr("local-not-your-turn"));
        }
        let legal = &game.legal;
        let Some(origin) = self.ui.selected else {
            if legal.iter().any(|m| m.route.first() == Some(&square)) {
                self.ui.selected = Some(square);
            } else {
                let square = square.to_string();
                self.error(
                    "bad_input",
                    tr_args("local-no-move-from", &[("square", square.into())]),
                );
            }
            return;
        };
        let candidates = entry::between(legal, origin, square);
        match candidates.as_slice() {
            [] if square == origin => self.ui.selected = None,
            [] if legal.iter().any(|m| m.route.first() == Some(&square)) => {
                self.ui.selected = Some(square)
            }
            [] => self.error(
                "bad_input",
                tr_args(
                    "local-no-move-from-to",
                    &[
                        ("from", origin.to_string().into()),
                        ("to", square.to_string().into()),
                    ],
                ),
            ),
            [one] => {
                let route = legal[*one].route.clone();
                self.command(Command::Route(route));
            }
            _ => self.ask_which(candidates),
        }
    }

    fn channel_key(&mut self, code: KeyCode) {
        if let Some((dr, dc)) = direction(code) {
            let row = (self.ui.minit_cursor / 5) as i8 + dr;
            let col = (self.ui.minit_cursor % 5) as i8 + dc;
            self.ui.minit_cursor = (row.clamp(0, 5) * 5 + col.clamp(0, 4)) as usize;
            return;
        }
        let typed = matches!(code, KeyCode::Char('a'..='e' | '1'..='6' | '-'));
        if typed && !self.ui.predicting {
            // Nothing is guessed while prediction is off: a typed move would count unseen.
            return self.error("prediction_off", tr("local-prediction-off"));
        }
        match code {
            KeyCode::Char(c @ ('a'..='e' | '1'..='6' | '-')) if self.ui.input.len() < 8 => {
                self.ui.input.push(c);
            }
            KeyCode::Backspace => {
                self.ui.input.pop();
            }
            KeyCode::Enter | KeyCode::Char(' ') => {
                if self.ui.input.trim().is_empty() {
                    return self.pick_minit_square();
                }
                let text = std::mem::take(&mut self.ui.input);
                if !self.ui.predicting {
                    return;
                }
                match super::channel::parse_guess(&text) {
                    Some((from, to)) => self.command(Command::Guess { from, to }),
                    None => self.error(
                        "bad_input",
                        tr_args("local-not-a-guess", &[("text", text.clone().into())]),
                    ),
                }
            }
            KeyCode::Char('f') => self.ui.flat = !self.ui.flat,
            KeyCode::Char('p') => {
                self.ui.predicting = !self.ui.predicting;
                self.ui.input.clear();
                self.ui.minit_from = None;
            }
            KeyCode::Char('L') => {
                self.ui.leaderboard = true;
                self.command(Command::Leaderboard);
            }
            KeyCode::Esc => {
                self.ui.input.clear();
                self.ui.minit_from = None;
            }
            KeyCode::Char('q') => self.back_home(),
            _ => {}
        }
    }

    /// Puts the MinitChess cursor on a piece that can move, unless it is on one already or a
    /// from square is picked, so that Enter right away starts a legal guess.
    pub(super) fn aim_minit_cursor(&mut self) {
        let Some(channel) = &self.channel else { return };
        if self.ui.minit_from.is_some() || !channel.targets_from(self.ui.minit_cursor).is_empty() {
            return;
        }
        let first = channel.legal_guesses().into_iter().next();
        if let Some(from) = first.and_then(|mv| super::channel::square_index(&mv[..2])) {
            self.ui.minit_cursor = from;
        }
    }

    fn pick_minit_square(&mut self) {
        if !self.ui.predicting {
            // The cursor is hidden while prediction is off: the first Enter (or click) turns
            // prediction on and shows it, rather than picking a square unseen.
            self.ui.predicting = true;
            return;
        }
        let square = self.ui.minit_cursor;
        let Some(channel) = &self.channel else { return };
        let movable = !channel.targets_from(square).is_empty();
        match self.ui.minit_from {
            Some(from) if from == square => self.ui.minit_from = None,
            None | Some(_) if movable => self.ui.minit_from = Some(square),
            None => self.error(
                "illegal_prediction",
                tr_args(
                    "local-no-move-from",
                    &[("square", super::channel::square_name(square).into())],
                ),
            ),
            Some(from) if !channel.targets_from(from).contains(&square) => self.error(
                "illegal_prediction",
                tr_args(
                    "local-cannot-go",
                    &[
                        ("from", super::channel::square_name(from).into()),
                        ("to", super::channel::square_name(square).into()),
                    ],
                ),
            ),
            Some(from) => {
                let from = super::channel::square_name(from);
                let to = super::channel::square_name(square);
                self.command(Command::Guess { from, to });
            }
        }
    }
}
