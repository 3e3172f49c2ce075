//! Match chat (PROTOCOL.md §Chat): the words of a line and the two rooms it can be said in.
//!
//! Each match has two rooms, as on lichess: the players talk in [`ChatRoom::Players`], the
//! spectators in [`ChatRoom::Spectators`], and neither reads the other's. The server puts a
//! line in the room of whoever says it (a seat holder speaks to the players), so a client
//! never names a room. Members say free text; guests pick one of the [`ChatPreset`] phrases,
//! sent by id, so nothing a guest types ever reaches another screen.

use serde::{Deserialize, Serialize};

/// Longest line a member may say, in characters after trimming.
pub const MAX_CHAT_CHARS: usize = 140;

/// The two rooms of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatRoom {
    /// The two players (a connection holding a seat).
    Players,
    /// Everybody watching.
    Spectators,
}

impl ChatRoom {
    /// The room's name on the wire and in storage.
    pub fn as_str(self) -> &'static str {
        match self {
            ChatRoom::Players => "players",
            ChatRoom::Spectators => "spectators",
        }
    }

    /// The room named `name` ([`ChatRoom::as_str`]).
    pub fn parse(name: &str) -> Option<ChatRoom> {
        match name {
            "players" => Some(ChatRoom::Players),
            "spectators" => Some(ChatRoom::Spectators),
            _ => None,
        }
    }
}

/// The phrases a guest picks from (and a member may send too), sent by id; clients show them
/// in the reader's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatPreset {
    Hello,
    GoodLuck,
    HaveFun,
    GoodGame,
    WellPlayed,
    ThankYou,
}

impl ChatPreset {
    /// Every preset, in the order clients offer them.
    pub const ALL: [ChatPreset; 6] = [
        ChatPreset::Hello,
        ChatPreset::GoodLuck,
        ChatPreset::HaveFun,
        ChatPreset::GoodGame,
        ChatPreset::WellPlayed,
        ChatPreset::ThankYou,
    ];

    /// The phrase in English.
    pub fn text(self) -> &'static str {
        match self {
            ChatPreset::Hello => "Hello",
            ChatPreset::GoodLuck => "Good luck",
            ChatPreset::HaveFun => "Have fun",
            ChatPreset::GoodGame => "Good game",
            ChatPreset::WellPlayed => "Well played",
            ChatPreset::ThankYou => "Thank you",
        }
    }

    /// The preset's id on the wire and in storage (`good_luck`).
    pub fn id(self) -> &'static str {
        match self {
            ChatPreset::Hello => "hello",
            ChatPreset::GoodLuck => "good_luck",
            ChatPreset::HaveFun => "have_fun",
            ChatPreset::GoodGame => "good_game",
            ChatPreset::WellPlayed => "well_played",
            ChatPreset::ThankYou => "thank_you",
        }
    }

    /// The preset with id `id` ([`ChatPreset::id`]).
    pub fn parse(id: &str) -> Option<ChatPreset> {
        ChatPreset::ALL.into_iter().find(|preset| preset.id() == id)
    }
}

/// What a line says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatSay {
    /// Free text (members only): at most [`MAX_CHAT_CHARS`] characters once trimmed, no
    /// control characters. Clients show it as text, never as markup.
    Text(String),
    /// A preset phrase.
    Preset(ChatPreset),
}

/// Why a free-text line is refused ([`check_text`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChatTextError {
    #[error("a chat line must not be empty")]
    Empty,
    #[error("a chat line is at most {MAX_CHAT_CHARS} characters, not {0}")]
    TooLong(usize),
    #[error("a chat line must not contain control characters")]
    Control,
}

/// The line a member typed as it is said: trimmed, at most [`MAX_CHAT_CHARS`] characters,
/// without control characters (a newline or escape sequence would forge lines on a
/// terminal), or why not.
pub fn check_text(text: &str) -> Result<&str, ChatTextError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ChatTextError::Empty);
    }
    // Counting stops past the limit, so a huge line costs no more than a long one.
    let chars = trimmed.chars().take(MAX_CHAT_CHARS + 1).count();
    if chars > MAX_CHAT_CHARS {
        return Err(ChatTextError::TooLong(trimmed.chars().count()));
    }
    if trimmed.chars().any(is_refused) {
        return Err(ChatTextError::Control);
    }
    Ok(trimmed)
}

/// Control characters, and the bidirectional overrides and isolates that would make a line
/// read as something else.
fn is_refused(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Say a line in a match's chat ([`crate::ClientMessage::Chat`]); answered by
/// [`crate::Ack`] once it is stored, and the line goes to the room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chat {
    pub match_id: String,
    pub say: ChatSay,
}

/// A club admin deletes line `line` of a match's chat ([`crate::ClientMessage::ChatDelete`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatDelete {
    pub match_id: String,
    pub line: u64,
}

/// A club admin mutes (or unmutes) member `name` in every chat of the server
/// ([`crate::ClientMessage::ChatMute`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMute {
    pub name: String,
    pub muted: bool,
}

/// One line of a match's chat ([`crate::ServerMessage::ChatLine`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    pub match_id: String,
    pub room: ChatRoom,
    /// The line's number in its match, increasing (both rooms count together): what an
    /// admin deletes it by.
    pub line: u64,
    /// Who said it: a member's account name, or a guest's display name.
    pub author: String,
    /// Whether the author is a signed-in member (else a guest).
    pub member: bool,
    pub say: ChatSay,
    /// When it was said (Unix ms).
    pub at_ms: i64,
}

/// The lines of a room so far, oldest first, sent to whoever starts following the match
/// ([`crate::ServerMessage::ChatHistory`]): players get the players' room, spectators the
/// spectators'. Deleted lines are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatHistory {
    pub match_id: String,
    pub room: ChatRoom,
    pub lines: Vec<ChatLine>,
}

/// An admin deleted line `line` of a room: clients remove it
/// ([`crate::ServerMessage::ChatDeleted`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatDeleted {
    pub match_id: String,
    pub room: ChatRoom,
    pub line: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_trimmed_and_held_to_140_characters_without_control_characters() {
        assert_eq!(check_text("  good game!  "), Ok("good game!"));
        assert_eq!(check_text(" \t "), Err(ChatTextError::Empty));
        let longest = "é".repeat(MAX_CHAT_CHARS);
        assert_eq!(check_text(&longest), Ok(longest.as_str()));
        assert_eq!(
            check_text(&"x".repeat(MAX_CHAT_CHARS + 1)),
            Err(ChatTextError::TooLong(MAX_CHAT_CHARS + 1))
        );
        for forged in ["a\nb", "a\rb", "\u{1b}[2J", "a\u{7f}", "a\u{202e}b"] {
            assert_eq!(
                check_text(forged),
                Err(ChatTextError::Control),
                "{forged:?}"
            );
        }
    }

    #[test]
    fn presets_and_rooms_read_back_from_their_ids() {
        for preset in ChatPreset::ALL {
            assert_eq!(ChatPreset::parse(preset.id()), Some(preset));
        }
        for room in [ChatRoom::Players, ChatRoom::Spectators] {
            assert_eq!(ChatRoom::parse(room.as_str()), Some(room));
        }
        assert_eq!(ChatPreset::parse("gg"), None);
    }
}
