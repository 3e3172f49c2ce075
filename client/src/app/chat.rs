//! The match's chat in the terminal client (PROTOCOL.md §19): the lines of our room (the
//! server puts a player in the players' room and anybody else in the spectators'), and the
//! chat prompt of the full-screen UI (`/`): a member types a line, a guest picks one of the
//! phrases by its number. Lines are kept as the server sent them and cleaned of control
//! characters only when drawn, so no line can move the cursor or forge another.
//!
//! Anyone can mute an author for themselves (Tab in the chat prompt, then the author's
//! number): their lines are hidden from then on in every match, those already shown too, and
//! the server is not told (as the web client's `bc.chatMute`). The list is kept on disk beside
//! the seats (`crate::store`), so it outlives the run.

use boardcast_protocol::chat::MAX_CHAT_CHARS;
use boardcast_protocol::{
    Chat, ChatDeleted, ChatHistory, ChatLine, ChatPreset, ChatRoom, ChatSay, ClientMessage,
};

use super::{App, Pending};
use crate::i18n::tr;

/// Lines kept, as many as the server replays (its `chat_history`).
const KEPT: usize = 100;

/// Authors kept muted at most: muting one more forgets the oldest, so the file stays small.
pub const MUTED_KEPT: usize = 200;

/// Authors offered in the mute list at once (their numbers are the keys 1-9).
const MUTE_CHOICES: usize = 9;

/// Who wrote a line, as muting knows them: a member and a guest of one name are two people
/// (`m:Anne`, `g:Anne`), the same keys as the web client's.
pub fn author_key(line: &ChatLine) -> String {
    format!("{}:{}", if line.member { 'm' } else { 'g' }, line.author)
}

/// The name in an author key, cleaned for the terminal.
pub fn key_name(key: &str) -> String {
    clean(key.get(2..).unwrap_or(key))
}

/// The chat of the match shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MatchChat {
    pub match_id: String,
    pub room: Option<ChatRoom>,
    pub lines: Vec<ChatLine>,
}

impl MatchChat {
    /// Our room: as the server said, else the one our seat puts us in.
    pub fn room(&self, seated: bool) -> ChatRoom {
        self.room.unwrap_or(if seated {
            ChatRoom::Players
        } else {
            ChatRoom::Spectators
        })
    }
}

/// What a line says, in the reader's language, without control characters.
pub fn said(say: &ChatSay) -> String {
    match say {
        ChatSay::Text(text) => clean(text),
        ChatSay::Preset(preset) => preset_text(*preset),
    }
}

/// A phrase in the reader's language (`chat-preset-good_luck`).
pub fn preset_text(preset: ChatPreset) -> String {
    tr(&format!("chat-preset-{}", preset.id()))
}

/// `text` with every control character (and bidirectional override) as `?`: the server
/// refuses them, and a terminal must not obey one even from a server that did not.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}') {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// A line as the chat pane shows it: `Anne: good luck`, a guest's name marked.
pub fn line_text(line: &ChatLine) -> String {
    let guest = if line.member {
        String::new()
    } else {
        format!(" {}", tr("player-guest"))
    };
    format!("{}{guest}: {}", clean(&line.author), said(&line.say))
}

impl App {
    /// Whether `line`'s author is muted for us.
    pub fn is_muted(&self, line: &ChatLine) -> bool {
        !self.muted.is_empty() && self.muted.contains(&author_key(line))
    }

    /// Our own author key (never offered for muting).
    fn own_key(&self) -> String {
        format!("{}:{}", if self.member { 'm' } else { 'g' }, self.name)
    }

    /// The authors the mute list offers, by number: those muted first (so each can be heard
    /// again), then the others of this chat, newest first; at most nine.
    pub fn mute_choices(&self) -> Vec<String> {
        let me = self.own_key();
        let mut choices: Vec<String> = self.muted.iter().rev().cloned().collect();
        for line in self.chat.lines.iter().rev() {
            let key = author_key(line);
            if key != me && !choices.contains(&key) {
                choices.push(key);
            }
        }
        choices.truncate(MUTE_CHOICES);
        choices
    }

    /// Mutes `key` for us, or hears them again; the runner stores the list.
    pub fn toggle_mute(&mut self, key: String) {
        let name = key_name(&key);
        let said = if let Some(at) = self.muted.iter().position(|k| *k == key) {
            self.muted.remove(at);
            crate::i18n::tr_args("mute-undone", &[("name", name.into())])
        } else {
            self.muted.push(key);
            let over = self.muted.len().saturating_sub(MUTED_KEPT);
            self.muted.drain(..over);
            crate::i18n::tr_args("mute-now", &[("name", name.into())])
        };
        self.muted_changed = true;
        self.ui.log(said, false);
    }

    /// The chat of the match shown, if it is the one the lines are for.
    fn shown_chat(&mut self, match_id: &str) -> Option<&mut MatchChat> {
        let shown = self.game.as_ref().is_some_and(|g| g.match_id == match_id);
        if !shown {
            return None;
        }
        if self.chat.match_id != match_id {
            self.chat = MatchChat {
                match_id: match_id.to_owned(),
                ..MatchChat::default()
            };
        }
        Some(&mut self.chat)
    }

    pub(super) fn chat_history(&mut self, history: ChatHistory) {
        if let Some(chat) = self.shown_chat(&history.match_id) {
            chat.room = Some(history.room);
            chat.lines = history.lines;
            let over = chat.lines.len().saturating_sub(KEPT);
            chat.lines.drain(..over);
        }
    }

    pub(super) fn chat_line(&mut self, line: ChatLine) {
        if let Some(chat) = self.shown_chat(&line.match_id) {
            chat.room = Some(line.room);
            chat.lines.retain(|l| l.line != line.line);
            chat.lines.push(line);
            let over = chat.lines.len().saturating_sub(KEPT);
            chat.lines.drain(..over);
        }
    }

    pub(super) fn chat_deleted(&mut self, deleted: ChatDeleted) {
        if let Some(chat) = self.shown_chat(&deleted.match_id) {
            chat.lines.retain(|l| l.line != deleted.line);
        }
    }

    /// Says `say` in the chat of the match shown.
    pub fn say(&mut self, say: ChatSay) {
        let Some(game) = &self.game else { return };
        let msg = ClientMessage::Chat(Chat {
            match_id: game.match_id.clone(),
            say,
        });
        self.send(msg, Pending::Other);
    }

    /// A key while the chat prompt is open: a member types (Enter says it), a guest presses
    /// a phrase's number; Esc closes it.
    pub(super) fn chat_key(&mut self, code: crossterm::event::KeyCode) {
        use crossterm::event::KeyCode;
        if self.ui.chat.is_none() {
            return;
        }
        if code == KeyCode::Tab {
            self.ui.muting = !self.ui.muting;
            return;
        }
        if self.ui.muting {
            match code {
                KeyCode::Esc => {
                    self.ui.chat = None;
                    self.ui.muting = false;
                }
                KeyCode::Char(c @ '1'..='9') => {
                    let at = c as usize - '1' as usize;
                    if let Some(key) = self.mute_choices().into_iter().nth(at) {
                        self.toggle_mute(key);
                    }
                }
                _ => {}
            }
            return;
        }
        let Some(typed) = self.ui.chat.as_mut() else {
            return;
        };
        match code {
            KeyCode::Esc => self.ui.chat = None,
            KeyCode::Char(c @ '1'..='6') if !self.member => {
                self.ui.chat = None;
                let preset = ChatPreset::ALL[c as usize - '1' as usize];
                self.say(ChatSay::Preset(preset));
            }
            KeyCode::Char(c)
                if self.member && !c.is_control() && typed.chars().count() < MAX_CHAT_CHARS =>
            {
                typed.push(c);
            }
            KeyCode::Backspace => {
                typed.pop();
            }
            KeyCode::Enter => {
                let text = typed.trim().to_owned();
                self.ui.chat = None;
                if self.member && !text.is_empty() {
                    self.say(ChatSay::Text(text));
                }
            }
            _ => {}
        }
    }
}
