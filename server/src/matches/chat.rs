//! A match's chat (PROTOCOL.md §19): two rooms, the players' and the spectators', kept by the
//! match's actor beside its events.
//!
//! Chat follows the path of a move: the connection checks who speaks (a member, a guest, a
//! muted account) and hands the line to the match's actor; the actor decides the room from
//! what the connection is to the match (a seat holder speaks to the players), checks the
//! line and the author's rate, stores it, and only then sends it to the room. So a line is
//! acknowledged only once it is durable, is numbered by the one writer of the match, and
//! after a restart or a take-over by another node the new actor reads the match's lines back
//! ([`MatchChat::load`]) before it replays any.
//!
//! Lines are not match events: they carry no event version (a version gap-free stream of
//! moves is what resuming relies on, and a chat line must never be shown to the other room),
//! so they go to each room's followers directly and are replayed whole as a `chat_history`.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use boardcast_protocol::chat::check_text;
use boardcast_protocol::{
    ChatDeleted, ChatHistory, ChatLine, ChatPreset, ChatRoom, ChatSay, ErrorArgs, ErrorCode,
};
use serde::{Deserialize, Serialize};

use super::Player;
use crate::ops::rate::RateLimit;
use crate::refusal::Refusal;
use crate::room::outbox::ConnId;
use crate::storage::{ChatLineRow, ChatWrite, Write};

/// Lines of each room kept in memory for `chat_history`.
pub(crate) const KEPT: usize = 100;
/// Lines a match stores at most (both rooms, deleted ones counted).
pub(crate) const MAX_LINES: u64 = 1_000;
/// Lines an author may say at once…
const BURST: u32 = 5;
/// …then one per this long.
const EVERY: Duration = Duration::from_secs(2);
/// Authors whose rate is remembered before the ones with a full bucket are let go.
const RATES: usize = 64;

/// What a connection asks of a match's chat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChatRequest {
    /// Say a line, as `author` (the connection's player: a member's account, or a guest).
    Say { author: Player, say: ChatSay },
    /// A club admin (`by`, their name) deletes line `line`.
    Delete { by: String, line: u64 },
}

/// Who is rate-limited: a member however many connections they use, else the connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Speaker {
    Account(i64),
    Connection(ConnId),
}

/// A match's chat: the last lines of each room, the number of the next line and each
/// author's rate.
#[derive(Debug, Default)]
pub(crate) struct MatchChat {
    /// Whether the stored lines have been read (a match read back from storage may have
    /// some; a new one has none, but cannot tell them apart without asking).
    loaded: bool,
    players: VecDeque<ChatLine>,
    spectators: VecDeque<ChatLine>,
    /// The room of every line said so far (index: line − 1), for deleting one no longer
    /// kept in memory; at most [`MAX_LINES`].
    rooms: Vec<ChatRoom>,
    rates: HashMap<Speaker, RateLimit>,
}

impl MatchChat {
    /// The chat of a match just created on this node: nothing can be stored under its new id
    /// yet, so it counts as read. Reading it would open a SQLite connection on a blocking
    /// thread for every new match; a burst of new matches kept hundreds of those threads, and
    /// their allocator caches, alive (BENCHMARKS.md, "A live match's own memory").
    pub(crate) fn of_new_match() -> Self {
        MatchChat {
            loaded: true,
            ..MatchChat::default()
        }
    }

    pub(crate) fn is_loaded(&self) -> bool {
        self.loaded
    }

    /// Takes the stored lines of match `match_id` (oldest first).
    pub(crate) fn load(&mut self, match_id: &str, rows: Vec<ChatLineRow>) {
        self.loaded = true;
        for row in rows {
            let room = ChatRoom::parse(&row.room).unwrap_or(ChatRoom::Spectators);
            self.rooms.push(room);
            if row.deleted {
                continue;
            }
            let say = match (&row.preset, row.text) {
                (Some(preset), _) => match ChatPreset::parse(preset) {
                    Some(preset) => ChatSay::Preset(preset),
                    None => continue,
                },
                (None, Some(text)) => ChatSay::Text(text),
                (None, None) => continue,
            };
            self.keep(ChatLine {
                match_id: match_id.to_owned(),
                room,
                line: row.line,
                author: row.author,
                member: row.account.is_some(),
                say,
                at_ms: row.at_ms,
            });
        }
    }

    fn room_mut(&mut self, room: ChatRoom) -> &mut VecDeque<ChatLine> {
        match room {
            ChatRoom::Players => &mut self.players,
            ChatRoom::Spectators => &mut self.spectators,
        }
    }

    fn keep(&mut self, line: ChatLine) {
        let room = self.room_mut(line.room);
        if room.len() == KEPT {
            room.pop_front();
        }
        room.push_back(line);
    }

    /// What `author` (on connection `conn`) saying `say` in `room` at `at_ms` becomes: the
    /// line and its write, or why it is refused. Nothing is kept until [`MatchChat::said`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn say(
        &mut self,
        match_id: &str,
        room: ChatRoom,
        author: &Player,
        conn: ConnId,
        say: ChatSay,
        now: Instant,
        at_ms: i64,
    ) -> Result<(ChatLine, Write), Refusal> {
        let say = match say {
            ChatSay::Text(_) if author.account.is_none() => {
                return Err(Refusal::new(
                    ErrorCode::MembersOnly,
                    "guests chat with the preset phrases; free text is for signed-in members",
                )
                .with(ErrorArgs::new("free_chat")));
            }
            ChatSay::Text(text) => ChatSay::Text(
                check_text(&text)
                    .map_err(|err| {
                        Refusal::new(ErrorCode::InvalidArgument, err.to_string())
                            .with(ErrorArgs::new("invalid_field").word("field", "text"))
                    })?
                    .to_owned(),
            ),
            preset => preset,
        };
        let line = self.rooms.len() as u64 + 1;
        if line > MAX_LINES {
            return Err(Refusal::new(
                ErrorCode::NotAllowed,
                format!("this match's chat is full ({MAX_LINES} lines)"),
            )
            .with(ErrorArgs::new("chat_full").number("limit", MAX_LINES)));
        }
        let speaker = match author.account {
            Some(account) => Speaker::Account(account),
            None => Speaker::Connection(conn),
        };
        if self.rates.len() >= RATES && !self.rates.contains_key(&speaker) {
            // Only authors who said something lately are remembered.
            self.rates
                .retain(|_, rate| rate.retry_after(now) > Duration::ZERO);
        }
        let rate = self
            .rates
            .entry(speaker)
            .or_insert_with(|| RateLimit::every(EVERY, BURST, now));
        if !rate.allow(now) {
            return Err(Refusal::new(
                ErrorCode::ChatTooFast,
                format!(
                    "chat lines come {BURST} at once, then one every {} s: wait {:.1} s",
                    EVERY.as_secs(),
                    rate.retry_after(now).as_secs_f64()
                ),
            )
            .with(
                ErrorArgs::new("chat_too_fast")
                    .number("burst", u64::from(BURST))
                    .number("every_s", EVERY.as_secs())
                    .number("wait_s", rate.retry_after(now).as_secs_f64().ceil() as u64),
            ));
        }
        let (preset, text) = match &say {
            ChatSay::Preset(preset) => (Some(preset.id().to_owned()), None),
            ChatSay::Text(text) => (None, Some(text.clone())),
        };
        let write = Write::Chat(ChatWrite::Line(ChatLineRow {
            match_id: match_id.to_owned(),
            line,
            room: room.as_str().to_owned(),
            author: author.name.clone(),
            account: author.account,
            preset,
            text,
            at_ms,
            deleted: false,
        }));
        let line = ChatLine {
            match_id: match_id.to_owned(),
            room,
            line,
            author: author.name.clone(),
            member: author.account.is_some(),
            say,
            at_ms,
        };
        Ok((line, write))
    }

    /// Keeps `line`, now stored.
    pub(crate) fn said(&mut self, line: ChatLine) {
        self.rooms.push(line.room);
        self.keep(line);
    }

    /// The deletion of line `line` by `by` at `at_ms`, and what its room is told; refused
    /// for a line never said.
    pub(crate) fn delete(
        &self,
        match_id: &str,
        line: u64,
        by: String,
        at_ms: i64,
    ) -> Result<(ChatDeleted, Write), Refusal> {
        let Some(&room) = usize::try_from(line)
            .ok()
            .and_then(|line| line.checked_sub(1))
            .and_then(|index| self.rooms.get(index))
        else {
            return Err(Refusal::new(
                ErrorCode::NotFound,
                format!("no chat line {line} in match {match_id}"),
            )
            .with(
                ErrorArgs::new("no_chat_line")
                    .number("line", line)
                    .word("match_id", match_id),
            ));
        };
        let write = Write::Chat(ChatWrite::Delete {
            match_id: match_id.to_owned(),
            line,
            by,
            at_ms,
        });
        let deleted = ChatDeleted {
            match_id: match_id.to_owned(),
            room,
            line,
        };
        Ok((deleted, write))
    }

    /// Forgets line `line`, now deleted in storage.
    pub(crate) fn deleted(&mut self, room: ChatRoom, line: u64) {
        self.room_mut(room).retain(|kept| kept.line != line);
    }

    /// The lines of `room` kept, oldest first.
    pub(crate) fn history(&self, match_id: &str, room: ChatRoom) -> ChatHistory {
        let lines = match room {
            ChatRoom::Players => &self.players,
            ChatRoom::Spectators => &self.spectators,
        };
        ChatHistory {
            match_id: match_id.to_owned(),
            room,
            lines: lines.iter().cloned().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, account: i64) -> Player {
        Player {
            name: name.into(),
            bot: false,
            account: Some(account),
            rating: None,
            refuses_more_time: false,
        }
    }

    fn said(chat: &mut MatchChat, room: ChatRoom, author: &Player, text: &str) -> u64 {
        let (line, _) = chat
            .say(
                "m1",
                room,
                author,
                ConnId::default(),
                ChatSay::Text(text.into()),
                Instant::now(),
                1,
            )
            .expect("said");
        let number = line.line;
        chat.said(line);
        number
    }

    #[test]
    fn the_rooms_replay_apart_and_a_deleted_line_leaves_its_room() {
        let mut chat = MatchChat::default();
        let anne = member("Anne", 1);
        let wytze = member("Wytze", 2);
        let first = said(&mut chat, ChatRoom::Players, &anne, "  good luck  ");
        said(&mut chat, ChatRoom::Spectators, &wytze, "nice");
        let players = chat.history("m1", ChatRoom::Players);
        assert_eq!(players.lines.len(), 1);
        assert_eq!(players.lines[0].say, ChatSay::Text("good luck".into()));
        let spectators = chat.history("m1", ChatRoom::Spectators);
        assert_eq!(spectators.lines.len(), 1);
        assert_eq!(spectators.lines[0].author, "Wytze");

        let (deleted, _) = chat.delete("m1", first, "admin".into(), 2).expect("a line");
        assert_eq!(deleted.room, ChatRoom::Players);
        chat.deleted(deleted.room, deleted.line);
        assert!(chat.history("m1", ChatRoom::Players).lines.is_empty());
        assert_eq!(
            chat.delete("m1", 99, "admin".into(), 2).unwrap_err().code,
            ErrorCode::NotFound
        );
    }

    #[test]
    fn guests_say_presets_only_and_a_flood_is_cut_to_the_burst() {
        let mut chat = MatchChat::default();
        let guest = Player::person("Anne");
        let now = Instant::now();
        let refused = chat
            .say(
                "m1",
                ChatRoom::Players,
                &guest,
                ConnId::default(),
                ChatSay::Text("hi".into()),
                now,
                1,
            )
            .unwrap_err();
        assert_eq!(refused.code, ErrorCode::MembersOnly);
        let mut accepted = 0;
        let mut too_fast = 0;
        for _ in 0..50 {
            match chat.say(
                "m1",
                ChatRoom::Players,
                &guest,
                ConnId::default(),
                ChatSay::Preset(ChatPreset::GoodLuck),
                now,
                1,
            ) {
                Ok((line, _)) => {
                    accepted += 1;
                    chat.said(line);
                }
                Err(refusal) => {
                    assert_eq!(refusal.code, ErrorCode::ChatTooFast);
                    too_fast += 1;
                }
            }
        }
        assert_eq!((accepted, too_fast), (BURST, 50 - BURST));
        // The bucket refills: one more line after the period.
        assert!(
            chat.say(
                "m1",
                ChatRoom::Players,
                &guest,
                ConnId::default(),
                ChatSay::Preset(ChatPreset::Hello),
                now + EVERY,
                1,
            )
            .is_ok()
        );
    }

    #[test]
    fn stored_lines_load_back_without_the_deleted_ones_and_numbering_goes_on() {
        let row = |line: u64, room: &str, deleted: bool| ChatLineRow {
            match_id: "m1".into(),
            line,
            room: room.into(),
            author: "Anne".into(),
            account: Some(1),
            preset: None,
            text: Some(format!("line {line}")),
            at_ms: 1,
            deleted,
        };
        let mut chat = MatchChat::default();
        chat.load(
            "m1",
            vec![
                row(1, "players", false),
                row(2, "players", true),
                row(3, "spectators", false),
            ],
        );
        assert!(chat.is_loaded());
        let players = chat.history("m1", ChatRoom::Players);
        assert_eq!(players.lines.len(), 1);
        assert_eq!(players.lines[0].line, 1);
        let next = said(&mut chat, ChatRoom::Spectators, &member("Wytze", 2), "hi");
        assert_eq!(next, 4);
    }
}
