//! Typed refusals: the error codes a server answers with, and what can go wrong decoding.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Why the server refused a message. Every refusal leaves everything as it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame could not be decoded: not JSON/postcard, wrong shape, unknown message type.
    Malformed,
    /// The message decoded but a field is out of range (name too long, route too long, …).
    InvalidArgument,
    /// The frame was larger than the limit.
    TooLarge,
    UnsupportedVersion,
    /// No match, channel, game or seat with that id or code.
    NotFound,
    /// The seat token is unknown, malformed, or belongs to another match.
    InvalidToken,
    /// The token is valid but it is the other side's turn.
    NotYourTurn,
    /// The move is not legal here; the message says why.
    IllegalMove,
    /// The match or game is over.
    GameOver,
    /// Both seats are taken.
    MatchFull,
    /// The action is not allowed now (abort after both moved, claim before the grace period
    /// ran out, accepting an offer nobody made, …); the message says why.
    NotAllowed,
    /// A prediction for a ply that is already revealed (or not the coming one).
    PredictionClosed,
    /// Too many messages; the connection is closed right after this. A match action refused
    /// for its own limit (a takeback proposed too soon) leaves the connection open.
    RateLimited,
    /// The server is at a limit (connections, matches, games); try later.
    Busy,
    /// The server is shutting down.
    ShuttingDown,
    /// Something failed inside the server (storage); nothing was applied.
    Internal,
    /// The server understood the message but does not offer this feature (yet).
    Unsupported,
    /// A match action's ack id is not above the highest id already carried out for the seat,
    /// and is not one of those ids either: ids must increase per seat, across reconnects.
    /// Nothing was applied.
    StaleId,
    /// A prediction that is not a legal move of the side to move in the position shown
    /// before the coming ply; it is not recorded, so it can never count as a strike.
    IllegalPrediction,
    /// The client's address (an IPv4 address, or an IPv6 /64) is at one of its per-address
    /// limits: matches created or engine games started per minute, or matches waiting for an
    /// opponent. The message names the limit and when to try again; nothing changed, and the
    /// connection stays open.
    AddressLimit,
    /// The server's database cannot be reached now (it is restarting, or the network to it is
    /// down): nothing was stored and nothing applied. The connection stays open and the
    /// server reconnects by itself; send the same command again later.
    StorageUnavailable,
    /// Rated play (a rated match or seek, joining one, play now) needs a signed-in member on
    /// both seats; a guest is refused and nothing changed.
    MembersOnly,
    /// The member's rating is outside the rated seek's rating range; the lobby does not list
    /// such a seek to them.
    OutsideRatingRange,
    /// A club admin has muted this member in every chat of the server; nothing was said.
    ChatMuted,
    /// Chat lines came faster than the chat allows (a short burst, then one every few
    /// seconds); this line was not said. The connection stays open.
    ChatTooFast,
}

impl ErrorCode {
    /// Every error code, in declaration (and postcard variant) order.
    pub const ALL: [ErrorCode; 25] = [
        ErrorCode::Malformed,
        ErrorCode::InvalidArgument,
        ErrorCode::TooLarge,
        ErrorCode::UnsupportedVersion,
        ErrorCode::NotFound,
        ErrorCode::InvalidToken,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::GameOver,
        ErrorCode::MatchFull,
        ErrorCode::NotAllowed,
        ErrorCode::PredictionClosed,
        ErrorCode::RateLimited,
        ErrorCode::Busy,
        ErrorCode::ShuttingDown,
        ErrorCode::Internal,
        ErrorCode::Unsupported,
        ErrorCode::StaleId,
        ErrorCode::IllegalPrediction,
        ErrorCode::AddressLimit,
        ErrorCode::StorageUnavailable,
        ErrorCode::MembersOnly,
        ErrorCode::OutsideRatingRange,
        ErrorCode::ChatMuted,
        ErrorCode::ChatTooFast,
    ];
}

/// A refusal's structured arguments, beside its English `message`: which refusal within the
/// code (`reason`) and what it names — squares, a side, counts, limits — so a client words it
/// in the player's language from its own catalogue (`error-{code}-{reason}`, the arguments
/// as its placeables) while the English text stays for programs and logs.
///
/// Numbers and words are two maps (keys sorted, so one refusal has one encoding) rather than
/// one map of tagged values: in JSON each reads as a plain object
/// (`"numbers":{"from":32,"to":23}`). [`REASONS`] lists every reason and its argument names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorArgs {
    /// Which refusal of the code this is, in snake_case (`capture_compulsory`). A client
    /// that does not know it shows the English `message`.
    pub reason: String,
    /// Squares (1 to 50), counts, limits, plies, seconds, by argument name.
    pub numbers: BTreeMap<String, u64>,
    /// Words by argument name: a side (`white`/`black`), a move in notation (`32x23`), a name.
    pub words: BTreeMap<String, String>,
}

impl ErrorArgs {
    /// The arguments of `reason`, none set yet.
    pub fn new(reason: &str) -> Self {
        ErrorArgs {
            reason: reason.to_owned(),
            ..ErrorArgs::default()
        }
    }

    /// With the number `name`.
    pub fn number(mut self, name: &str, value: impl Into<u64>) -> Self {
        self.numbers.insert(name.to_owned(), value.into());
        self
    }

    /// With the word `name`.
    pub fn word(mut self, name: &str, value: impl Into<String>) -> Self {
        self.words.insert(name.to_owned(), value.into());
        self
    }
}

/// One reason a server may give within a code, and the names of its arguments: numbers
/// first, then words. A client's catalogue has `error-{code}-{reason}` for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReasonSpec {
    pub code: ErrorCode,
    pub reason: &'static str,
    pub numbers: &'static [&'static str],
    pub words: &'static [&'static str],
}

const fn reason(
    code: ErrorCode,
    reason: &'static str,
    numbers: &'static [&'static str],
    words: &'static [&'static str],
) -> ReasonSpec {
    ReasonSpec {
        code,
        reason,
        numbers,
        words,
    }
}

/// Every reason this server gives, with its arguments (PROTOCOL.md §12 documents each).
/// A later server may add reasons: a client shows the English message for one it lacks.
pub const REASONS: &[ReasonSpec] = &[
    reason(ErrorCode::NotYourTurn, "side_to_move", &[], &["side"]),
    reason(ErrorCode::InvalidArgument, "not_a_square", &["number"], &[]),
    reason(ErrorCode::IllegalMove, "route_too_short", &[], &[]),
    reason(ErrorCode::IllegalMove, "no_piece", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "not_your_piece", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "occupied", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "not_on_line", &["from", "to"], &[]),
    reason(
        ErrorCode::IllegalMove,
        "not_a_man_move",
        &["from", "to"],
        &[],
    ),
    reason(
        ErrorCode::IllegalMove,
        "not_a_king_move",
        &["from", "to"],
        &[],
    ),
    reason(
        ErrorCode::IllegalMove,
        "blocked",
        &["at", "from", "to"],
        &[],
    ),
    reason(
        ErrorCode::IllegalMove,
        "capture_compulsory",
        &[],
        &["example"],
    ),
    reason(
        ErrorCode::IllegalMove,
        "nothing_captured",
        &["from", "to"],
        &[],
    ),
    reason(ErrorCode::IllegalMove, "own_piece", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "already_captured", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "two_pieces", &["from", "to"], &[]),
    reason(ErrorCode::IllegalMove, "man_too_far", &["from", "to"], &[]),
    reason(ErrorCode::IllegalMove, "must_continue", &["square"], &[]),
    reason(
        ErrorCode::IllegalMove,
        "lower_value",
        &["best_kings", "best_men", "kings", "men"],
        &["example"],
    ),
    reason(ErrorCode::IllegalMove, "king_precedence", &[], &["example"]),
    reason(ErrorCode::IllegalMove, "king_frozen", &["square"], &[]),
    reason(ErrorCode::IllegalMove, "not_legal", &[], &[]),
    reason(ErrorCode::GameOver, "game_over", &[], &[]),
    reason(ErrorCode::GameOver, "time_ran_out", &[], &[]),
    reason(ErrorCode::NotAllowed, "not_started", &[], &[]),
    reason(ErrorCode::NotAllowed, "draw_offer_stands", &[], &[]),
    reason(ErrorCode::NotAllowed, "no_draw_offer", &[], &[]),
    reason(
        ErrorCode::StaleId,
        "not_above_last",
        &["id", "last_id"],
        &[],
    ),
    reason(
        ErrorCode::PredictionClosed,
        "already_revealed",
        &["next", "ply"],
        &[],
    ),
    reason(
        ErrorCode::PredictionClosed,
        "not_coming",
        &["next", "ply"],
        &[],
    ),
    reason(
        ErrorCode::AddressLimit,
        "per_minute",
        &["limit", "retry_after_s"],
        &[],
    ),
    reason(ErrorCode::AddressLimit, "waiting", &["limit"], &[]),
    reason(ErrorCode::Busy, "engine_games", &["count"], &[]),
    // Takebacks (PROTOCOL.md §10 *Takebacks*).
    reason(
        ErrorCode::NotAllowed,
        "takeback_casual_only",
        &[],
        &["match"],
    ),
    reason(ErrorCode::NotAllowed, "nothing_to_take_back", &[], &[]),
    reason(ErrorCode::NotAllowed, "takeback_proposal_stands", &[], &[]),
    reason(ErrorCode::NotAllowed, "opponent_takeback_stands", &[], &[]),
    reason(ErrorCode::NotAllowed, "no_takeback_proposal", &[], &[]),
    reason(
        ErrorCode::RateLimited,
        "takeback_too_soon",
        &["every_s", "retry_after_s"],
        &[],
    ),
    reason(ErrorCode::Busy, "archive_busy", &[], &[]),
    reason(ErrorCode::NotFound, "no_channel", &[], &["channel"]),
    reason(ErrorCode::NotFound, "no_event", &[], &["event"]),
    reason(
        ErrorCode::InvalidArgument,
        "not_a_minit_square",
        &[],
        &["square"],
    ),
    reason(ErrorCode::InvalidArgument, "invalid_field", &[], &["field"]),
    reason(ErrorCode::NotFound, "channel_closed", &[], &["channel"]),
    reason(ErrorCode::NotFound, "no_match", &[], &["match_id"]),
    reason(ErrorCode::NotFound, "no_open_match", &[], &["match_id"]),
    reason(ErrorCode::NotFound, "no_invite_code", &[], &["code"]),
    reason(
        ErrorCode::NotFound,
        "no_chat_line",
        &["line"],
        &["match_id"],
    ),
    reason(ErrorCode::NotFound, "match_stopped", &[], &[]),
    reason(ErrorCode::NotFound, "no_account", &[], &["name"]),
    reason(ErrorCode::NotFound, "paired_match_gone", &[], &["match_id"]),
    reason(ErrorCode::Busy, "channel_busy", &[], &["channel"]),
    reason(ErrorCode::Busy, "event_busy", &[], &["event"]),
    reason(ErrorCode::Busy, "drawing_ids", &[], &[]),
    reason(ErrorCode::Busy, "taking_over", &[], &[]),
    reason(ErrorCode::Busy, "commands_waiting", &[], &[]),
    reason(ErrorCode::Busy, "relay_full", &[], &[]),
    reason(ErrorCode::Busy, "match_moved", &[], &[]),
    reason(ErrorCode::Busy, "too_many_matches", &[], &[]),
    reason(ErrorCode::Busy, "too_many_finished", &[], &[]),
    reason(ErrorCode::Busy, "failed_joins", &[], &[]),
    reason(ErrorCode::Busy, "pool_full", &["capacity"], &["preset"]),
    reason(ErrorCode::Busy, "play_now_busy", &[], &[]),
    reason(ErrorCode::NotAllowed, "no_game_running", &[], &["channel"]),
    reason(
        ErrorCode::NotAllowed,
        "played_live",
        &[],
        &["black", "channel", "serial", "white"],
    ),
    reason(
        ErrorCode::NotAllowed,
        "no_seat_for_account",
        &[],
        &["match_id"],
    ),
    reason(
        ErrorCode::NotAllowed,
        "myself_other_seat",
        &[],
        &["match_id"],
    ),
    reason(
        ErrorCode::NotAllowed,
        "holds_other_seat",
        &[],
        &["match_id"],
    ),
    reason(ErrorCode::NotAllowed, "chat_full", &["limit"], &[]),
    reason(ErrorCode::NotAllowed, "abort_after_moves", &[], &[]),
    reason(ErrorCode::NotAllowed, "opponent_connected", &[], &[]),
    reason(ErrorCode::NotAllowed, "grace_running", &["wait_s"], &[]),
    reason(ErrorCode::NotAllowed, "grace_paused", &["wait_s"], &[]),
    reason(ErrorCode::NotAllowed, "rematch_not_over", &[], &[]),
    reason(ErrorCode::NotAllowed, "rematch_exists", &[], &["match_id"]),
    reason(ErrorCode::NotAllowed, "no_opponent", &[], &[]),
    reason(ErrorCode::NotAllowed, "rematch_offer_stands", &[], &[]),
    reason(ErrorCode::NotAllowed, "own_rematch_offer", &[], &[]),
    reason(ErrorCode::NotAllowed, "no_rematch_offer", &[], &[]),
    reason(ErrorCode::NotAllowed, "more_time_untimed", &[], &[]),
    reason(ErrorCode::NotAllowed, "more_time_refused", &[], &[]),
    reason(ErrorCode::NotAllowed, "flagged", &[], &[]),
    reason(ErrorCode::NotAllowed, "berserk_arena_only", &[], &[]),
    reason(ErrorCode::NotAllowed, "berserk_already", &[], &[]),
    reason(ErrorCode::NotAllowed, "berserk_after_move", &[], &[]),
    reason(ErrorCode::NotAllowed, "reclaim_needs_login", &[], &[]),
    reason(ErrorCode::NotAllowed, "admins_only", &[], &[]),
    reason(ErrorCode::NotAllowed, "rated_against_oneself", &[], &[]),
    reason(
        ErrorCode::IllegalPrediction,
        "not_legal",
        &["next"],
        &["move", "side"],
    ),
    reason(
        ErrorCode::StorageUnavailable,
        "channel_moving",
        &[],
        &["channel"],
    ),
    reason(ErrorCode::StorageUnavailable, "changing_servers", &[], &[]),
    reason(ErrorCode::StorageUnavailable, "match_moved", &[], &[]),
    reason(ErrorCode::StorageUnavailable, "unreachable", &[], &[]),
    reason(ErrorCode::StorageUnavailable, "chat_unreadable", &[], &[]),
    reason(
        ErrorCode::StorageUnavailable,
        "event_unreadable",
        &[],
        &["event"],
    ),
    reason(ErrorCode::StorageUnavailable, "lease_lost", &[], &[]),
    reason(ErrorCode::ShuttingDown, "shutting_down", &[], &[]),
    reason(ErrorCode::ShuttingDown, "play_now_stopped", &[], &[]),
    reason(ErrorCode::InvalidToken, "watcher", &[], &["match_id"]),
    reason(ErrorCode::InvalidToken, "unknown_token", &[], &[]),
    reason(ErrorCode::Internal, "internal", &[], &[]),
    reason(ErrorCode::Internal, "does_not_replay", &[], &[]),
    reason(ErrorCode::Internal, "no_invite_code", &[], &[]),
    reason(ErrorCode::Internal, "storage_failed", &[], &[]),
    reason(ErrorCode::MembersOnly, "free_chat", &[], &[]),
    reason(ErrorCode::MembersOnly, "rated_play", &[], &[]),
    reason(ErrorCode::MembersOnly, "rated_seek", &[], &[]),
    reason(
        ErrorCode::ChatTooFast,
        "chat_too_fast",
        &["burst", "every_s", "wait_s"],
        &[],
    ),
    reason(ErrorCode::RateLimited, "more_time_often", &["every_s"], &[]),
    reason(ErrorCode::RateLimited, "too_many_messages", &[], &[]),
    reason(
        ErrorCode::UnsupportedVersion,
        "protocol_version",
        &["ours", "theirs"],
        &[],
    ),
    reason(ErrorCode::ChatMuted, "muted", &[], &["by"]),
    reason(
        ErrorCode::OutsideRatingRange,
        "outside_range",
        &["creator", "range", "rating"],
        &[],
    ),
    reason(ErrorCode::MatchFull, "both_seats_taken", &[], &[]),
    reason(
        ErrorCode::TooLarge,
        "frame_too_large",
        &["limit", "size"],
        &[],
    ),
    reason(
        ErrorCode::Malformed,
        "wrong_frame_type",
        &[],
        &["expected", "got"],
    ),
    reason(ErrorCode::Malformed, "invalid_utf8", &[], &[]),
    reason(ErrorCode::Malformed, "not_a_message", &[], &[]),
    reason(ErrorCode::Malformed, "unknown_type", &[], &["type"]),
];

/// Why bytes from the network did not become a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("frame of {size} bytes is over the limit of {limit} bytes")]
    TooLarge { size: usize, limit: usize },
    #[error("{got} frame on a {expected} connection")]
    WrongFrameType {
        got: &'static str,
        expected: &'static str,
    },
    #[error("text frame is not valid UTF-8")]
    InvalidUtf8,
    #[error("not a valid message: {0}")]
    Malformed(String),
    /// The frame is well-formed as far as its message type, and that type is not one this
    /// protocol version knows: the JSON tag (`"msg": {"castle": …}`) or, in postcard, the
    /// variant index written as `#21`. Truncated to 64 bytes.
    #[error("unknown message type {0:?}")]
    UnknownType(String),
    #[error("invalid message: {0}")]
    Invalid(#[from] crate::validate::ValidationError),
}

impl DecodeError {
    /// The error code a server answers this with.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::TooLarge { .. } => ErrorCode::TooLarge,
            DecodeError::Invalid(_) => ErrorCode::InvalidArgument,
            DecodeError::WrongFrameType { .. }
            | DecodeError::InvalidUtf8
            | DecodeError::Malformed(_)
            | DecodeError::UnknownType(_) => ErrorCode::Malformed,
        }
    }

    /// The reason and arguments a server answers this with (PROTOCOL.md §12.1).
    pub fn args(&self) -> ErrorArgs {
        match self {
            DecodeError::TooLarge { size, limit } => ErrorArgs::new("frame_too_large")
                .number("size", *size as u64)
                .number("limit", *limit as u64),
            DecodeError::WrongFrameType { got, expected } => ErrorArgs::new("wrong_frame_type")
                .word("got", *got)
                .word("expected", *expected),
            DecodeError::InvalidUtf8 => ErrorArgs::new("invalid_utf8"),
            DecodeError::Malformed(_) => ErrorArgs::new("not_a_message"),
            DecodeError::UnknownType(name) => {
                ErrorArgs::new("unknown_type").word("type", name.as_str())
            }
            DecodeError::Invalid(invalid) => {
                ErrorArgs::new("invalid_field").word("field", invalid.field)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A refusal from a server that sends no `args` still reads, as `args: null`.
    #[test]
    fn an_error_without_args_reads_as_none() {
        let frame =
            r#"{"error":{"id":6,"code":"not_your_turn","message":"not your turn","last_id":null}}"#;
        let message = crate::Encoding::Json
            .decode_server(crate::FrameRef::Text(frame.as_bytes()))
            .unwrap();
        let crate::ServerMessage::Error(reply) = message else {
            panic!("not an error: {message:?}");
        };
        assert_eq!(reply.args, None);
    }

    /// Walks the codes: every code a server sends has at least one reason, so no refusal goes
    /// out without its arguments (the server's `Refusal` cannot be built without them). The
    /// one code without a reason, `unsupported`, is one no server sends yet.
    #[test]
    fn every_code_a_server_sends_has_its_reasons() {
        let never_sent = [ErrorCode::Unsupported];
        for code in ErrorCode::ALL {
            let reasons = REASONS.iter().filter(|spec| spec.code == code).count();
            if never_sent.contains(&code) {
                assert_eq!(reasons, 0, "{code:?} has reasons: take it off never_sent");
            } else {
                assert!(reasons > 0, "{code:?} has no reason in REASONS");
            }
        }
        let mut stack =
            vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source = std::fs::read_to_string(&path).unwrap();
                    for code in never_sent {
                        assert!(
                            !source.contains(&format!("ErrorCode::{code:?},"))
                                && !source.contains(&format!("ErrorCode::{code:?})")),
                            "{} sends {code:?}: give it its reasons",
                            path.display()
                        );
                    }
                }
            }
        }
    }

    /// PROTOCOL.md §12.1 has a row for every reason, with its arguments, and no reason twice.
    #[test]
    fn protocol_md_lists_every_reason() {
        let md = include_str!("../../PROTOCOL.md");
        let quoted = |names: &[&str]| {
            names
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (i, spec) in REASONS.iter().enumerate() {
            let code = serde_json::to_value(spec.code).unwrap();
            let row = format!(
                "| `{}` | `{}` | {} | {} |",
                code.as_str().unwrap(),
                spec.reason,
                quoted(spec.numbers),
                quoted(spec.words)
            )
            .replace("|  |", "| |")
            .replace("|  |", "| |");
            assert!(md.contains(&row), "PROTOCOL.md lacks {row}");
            assert!(
                !REASONS[..i]
                    .iter()
                    .any(|other| other.code == spec.code && other.reason == spec.reason),
                "{} twice",
                spec.reason
            );
        }
    }
}
