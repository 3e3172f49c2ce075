//! What a match is made of in storage: its [`Setup`], stored once, and its events as
//! [`Record`]s, one per version. The stored form of a move leaves out what replay derives
//! again from the position (the FEN and the legal moves after it), so storage holds each fact
//! once; [`super::MatchState::replay`] fills it back in.
//!
//! A seat token is a secret: whoever has it plays the seat. Storage keeps only its hash
//! ([`Record::token_hash`], the SHA-256 accounts keep of their secrets), so a database file
//! or a backup seats nobody; the token itself lives only in the memory of the actor that
//! handed it out ([`Record::token`], never written).

use boardcast_protocol::{
    EndReason, MatchEvent, MatchResult, Moved, PlayerJoined, PlayerRating, Side, TakenBack,
    TimeControl,
};
use serde::{Deserialize, Serialize};

use super::player::Player;
use crate::accounts::secret;
use crate::storage::Write;

/// What a match is created with; stored once as JSON. The default is what every absent field
/// is read as: a private casual game from the start position, without a clock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub time_control: Option<TimeControl>,
    pub public: bool,
    /// The match this one is a rematch of.
    pub rematch_of: Option<String>,
    /// A start position other than the initial one, as FEN (set by operators and tests
    /// through storage; the lobby always starts from the initial position).
    #[serde(default)]
    pub start_fen: Option<String>,
    /// Whether the result changes both players' ratings (only between two accounts). Read
    /// as false when absent: matches stored before rated play were casual.
    #[serde(default)]
    pub rated: bool,
    /// A rated seek's limit on the joiner's rating: at most this far from the creator's.
    #[serde(default)]
    pub rating_range: Option<u16>,
    /// An arena game: each side may go berserk before its first move (PROTOCOL.md §10
    /// *Berserk*). Read as false when absent.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub berserk: bool,
    /// The club event this match is a game of (no takebacks there). Absent for every other
    /// match, and read as `None` for matches stored before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// One stored event: the event everybody sees plus what only the server keeps (the seat and
/// ack id of the action that caused it, the hash of a seat token handed out). A move is
/// stored with an empty FEN and no legal moves; [`super::MatchState::replay`] derives them
/// again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub event: MatchEvent,
    #[serde(default)]
    pub ack: Option<(Side, u64)>,
    /// The seat token in plain text, while the actor that handed it out knows it; never
    /// written. Read back only from a record stored before tokens were hashed (a
    /// `"token"` field the migration had not reached), whose hash is then taken on read.
    #[serde(default, skip_serializing)]
    pub token: Option<String>,
    /// The hash ([`secret::hash`]) of the seat token handed out with this record: a
    /// `player_joined`'s, or one handed out again for a seat whose token the server no
    /// longer knew (a `player_returned`: [`Record::token_issued`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_hash: Option<String>,
    /// The account of a player who joined ([`Player::account`]); absent for a guest's seat
    /// and for every other record, so records stored before accounts read back alike.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<i64>,
    /// The rating a member joined with ([`Player::rating`]), for the lobby and a rated
    /// seek's range; absent for a guest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<PlayerRating>,
    /// A member who joined refusing more time ([`Player::refuses_more_time`]); absent
    /// (`false`) otherwise, so earlier records read back alike.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refuses_more_time: bool,
}

impl Record {
    pub fn new(event: MatchEvent) -> Self {
        Record {
            event,
            ack: None,
            token: None,
            token_hash: None,
            account: None,
            rating: None,
            refuses_more_time: false,
        }
    }

    /// The record of `player` taking `side` with seat `token`.
    pub fn joined(side: Side, player: &Player, token: String) -> Self {
        Record {
            event: MatchEvent::PlayerJoined(PlayerJoined {
                side,
                name: player.name.clone(),
                bot: player.bot,
                first_move_in_ms: None,
                account: player.account.is_some(),
            }),
            ack: None,
            token_hash: Some(secret::hash(&token)),
            token: Some(token),
            account: player.account,
            rating: player.rating,
            refuses_more_time: player.refuses_more_time,
        }
    }

    /// The record of `side`'s holder coming back and being handed a new seat `token` (valid
    /// beside the ones handed before): how a seat is handed out again once the server no
    /// longer knows its token (after a restart, only the hashes are left). Its event says
    /// what happened to everyone: the seat's player is back.
    pub fn token_issued(side: Side, token: String) -> Self {
        Record {
            token_hash: Some(secret::hash(&token)),
            token: Some(token),
            ..Record::new(MatchEvent::PlayerReturned(side))
        }
    }

    /// The hash of the seat token this record hands out, if any: the stored hash, or that
    /// of a plain token stored before tokens were hashed.
    pub fn seat_token_hash(&self) -> Option<String> {
        self.token_hash
            .clone()
            .or_else(|| self.token.as_deref().map(secret::hash))
    }

    /// The record of the match ending.
    pub fn ended(winner: Option<Side>, reason: EndReason, detail: String) -> Self {
        Record::new(MatchEvent::Ended(MatchResult {
            winner,
            reason,
            detail,
            rating_change: None,
        }))
    }

    /// The record as storage keeps it (JSON), without what replay derives again.
    pub fn stored_form(&self) -> Result<String, serde_json::Error> {
        match &self.event {
            MatchEvent::TakenBack(taken) => serde_json::to_string(&Record {
                event: MatchEvent::TakenBack(TakenBack {
                    fen: String::new(),
                    legal_moves: Vec::new(),
                    ..taken.clone()
                }),
                ..self.clone()
            }),
            MatchEvent::Moved(moved) => serde_json::to_string(&Record {
                rating: None,
                event: MatchEvent::Moved(Moved {
                    played: moved.played.clone(),
                    fen: String::new(),
                    clock: moved.clock,
                    legal_moves: Vec::new(),
                    king_counters: moved.king_counters,
                    first_move_in_ms: moved.first_move_in_ms,
                    lag_ms: moved.lag_ms,
                }),
                ack: self.ack,
                token: None,
                token_hash: self.token_hash.clone(),
                account: self.account,
                refuses_more_time: false,
            }),
            _ => serde_json::to_string(self),
        }
    }

    /// The write that stores this record as version `v` of match `match_id`, made at Unix
    /// time `at_ms` by the owner of the match's `epoch`.
    pub fn write(
        &self,
        match_id: &str,
        v: u64,
        at_ms: i64,
        epoch: u64,
    ) -> Result<Write, serde_json::Error> {
        Ok(Write::Event {
            match_id: match_id.to_owned(),
            v,
            at_ms,
            body: self.stored_form()?,
            epoch,
        })
    }
}
