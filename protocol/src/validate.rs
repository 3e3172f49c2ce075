//! Field checks that serde cannot express: lengths and ranges of untrusted input.

use crate::client::*;
use crate::common::Target;
use crate::limits::{
    MAX_CLIENT_NUMBER, MAX_ID_BYTES, MAX_INCREMENT_MS, MAX_INITIAL_MS, MAX_LAG_CLAIM_MS,
    MAX_ROUTE_SQUARES, MIN_INITIAL_MS, RATING_RANGES, SERIAL_BYTES,
};

/// A decoded message whose fields are out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {problem}")]
pub struct ValidationError {
    pub field: &'static str,
    pub problem: String,
}

/// Checks a decoded message before anyone acts on it.
pub trait Validate {
    fn validate(&self) -> Result<(), ValidationError>;
}

fn fail(field: &'static str, problem: impl Into<String>) -> Result<(), ValidationError> {
    Err(ValidationError {
        field,
        problem: problem.into(),
    })
}

fn id(field: &'static str, value: &str) -> Result<(), ValidationError> {
    if value.is_empty() {
        return fail(field, "must not be empty");
    }
    if value.len() > MAX_ID_BYTES {
        return fail(field, format!("longer than {MAX_ID_BYTES} bytes"));
    }
    if !value.bytes().all(|b| b.is_ascii_graphic()) {
        return fail(field, "must be printable ASCII without spaces");
    }
    Ok(())
}

/// A MinitChess square: file `a`–`e`, rank `1`–`6`.
fn minit_square(field: &'static str, value: &str) -> Result<(), ValidationError> {
    match value.as_bytes() {
        [b'a'..=b'e', b'1'..=b'6'] => Ok(()),
        _ => fail(field, "must be a square a1 to e6"),
    }
}

/// A number the client chose: at most [`MAX_CLIENT_NUMBER`].
fn number(field: &'static str, value: u64) -> Result<(), ValidationError> {
    if value > MAX_CLIENT_NUMBER {
        return fail(
            field,
            format!(
                "must be at most {MAX_CLIENT_NUMBER} (2^53 - 1, the largest integer \
                 JavaScript holds exactly)"
            ),
        );
    }
    Ok(())
}

fn since_v(value: Option<u64>) -> Result<(), ValidationError> {
    value.map_or(Ok(()), |v| number("since_v", v))
}

fn target(value: &Target) -> Result<(), ValidationError> {
    match value {
        Target::Match(match_id) => id("target", match_id),
        Target::Channel(channel) => id("target", channel),
        Target::Event(event) => id("target", event),
    }
}

fn seat(action: &SeatAction) -> Result<(), ValidationError> {
    id("match_id", &action.match_id)?;
    id("token", &action.token)
}

impl Validate for ClientEnvelope {
    fn validate(&self) -> Result<(), ValidationError> {
        number("id", self.id)?;
        self.msg.validate()
    }
}

impl Validate for ClientMessage {
    fn validate(&self) -> Result<(), ValidationError> {
        match self {
            ClientMessage::Hello(hello) => {
                if let Err(err) = crate::names::normalize(&hello.name) {
                    return fail("name", err.to_string());
                }
                if hello.client.len() > MAX_ID_BYTES {
                    return fail("client", format!("longer than {MAX_ID_BYTES} bytes"));
                }
                if hello.client.chars().any(char::is_control) {
                    return fail("client", "must not contain control characters");
                }
                Ok(())
            }
            ClientMessage::Ping(ping) => number("nonce", ping.nonce),
            ClientMessage::ListLobby => Ok(()),
            ClientMessage::CreateMatch(create) => {
                rating_range(create)?;
                time_control(create)
            }
            ClientMessage::JoinMatch(
                JoinMatch::Id(value) | JoinMatch::Code(value) | JoinMatch::Myself(value),
            ) => id("join", value),
            ClientMessage::Resume(resume) => {
                id("token", &resume.token)?;
                since_v(resume.since_v)
            }
            ClientMessage::Reclaim(reclaim) => {
                id("match_id", &reclaim.match_id)?;
                since_v(reclaim.since_v)
            }
            ClientMessage::Move(play) => {
                id("match_id", &play.match_id)?;
                id("token", &play.token)?;
                if play.route.len() < 2 || play.route.len() > MAX_ROUTE_SQUARES {
                    return fail(
                        "route",
                        format!("must hold 2 to {MAX_ROUTE_SQUARES} squares (origin and landings)"),
                    );
                }
                if play.route.iter().any(|&square| !(1..=50).contains(&square)) {
                    return fail("route", "squares are numbered 1 to 50");
                }
                if play.lag_ms.is_some_and(|lag| lag > MAX_LAG_CLAIM_MS) {
                    return fail(
                        "lag_ms",
                        format!("must be at most {MAX_LAG_CLAIM_MS} (milliseconds of round trip)"),
                    );
                }
                Ok(())
            }
            ClientMessage::Resign(action)
            | ClientMessage::OfferDraw(action)
            | ClientMessage::AcceptDraw(action)
            | ClientMessage::DeclineDraw(action)
            | ClientMessage::Abort(action)
            | ClientMessage::OfferRematch(action)
            | ClientMessage::AcceptRematch(action)
            | ClientMessage::DeclineRematch(action)
            | ClientMessage::MoreTime(action)
            | ClientMessage::Berserk(action) => seat(action),
            ClientMessage::ProposeTakeback(action)
            | ClientMessage::AcceptTakeback(action)
            | ClientMessage::DeclineTakeback(action) => seat(action),
            ClientMessage::RefuseMoreTime(refuse) => {
                id("match_id", &refuse.match_id)?;
                id("token", &refuse.token)
            }
            ClientMessage::Claim(claim) => {
                id("match_id", &claim.match_id)?;
                id("token", &claim.token)
            }
            ClientMessage::Watch(watch) => {
                target(&watch.target)?;
                since_v(watch.since_v)
            }
            ClientMessage::Unwatch(watched) => target(watched),
            ClientMessage::StartEngineGame(start) => {
                id("serial", &start.serial)?;
                if start.serial.len() != SERIAL_BYTES {
                    return fail(
                        "serial",
                        format!("must be {SERIAL_BYTES} characters, as on the bomb (CH3SS5)"),
                    );
                }
                id("white", &start.white)?;
                id("black", &start.black)?;
                match start.ply_interval_ms {
                    Some(ms) if !(100..=600_000).contains(&ms) => {
                        fail("ply_interval_ms", "must be 100 to 600000")
                    }
                    _ => Ok(()),
                }
            }
            ClientMessage::Predict(predict) => {
                id("channel", &predict.channel)?;
                minit_square("from", &predict.from)?;
                minit_square("to", &predict.to)
            }
            ClientMessage::Leaderboard(_) => Ok(()),
            ClientMessage::PlayNow(_) | ClientMessage::CancelPlayNow => Ok(()),
            ClientMessage::Chat(chat) => {
                id("match_id", &chat.match_id)?;
                match &chat.say {
                    crate::ChatSay::Text(text) => crate::chat::check_text(text)
                        .map(drop)
                        .or_else(|err| fail("say", err.to_string())),
                    crate::ChatSay::Preset(_) => Ok(()),
                }
            }
            ClientMessage::ChatDelete(delete) => {
                id("match_id", &delete.match_id)?;
                number("line", delete.line)
            }
            ClientMessage::ChatMute(mute) => id("name", &mute.name),
        }
    }
}

/// The time control of a new match: within the server's bounds, or untimed.
fn time_control(create: &CreateMatch) -> Result<(), ValidationError> {
    match create.time_control {
        Some(tc) if tc.initial_ms < MIN_INITIAL_MS => fail(
            "time_control",
            format!(
                "the base time must be at least {} s (or play untimed: null)",
                MIN_INITIAL_MS / 1000
            ),
        ),
        Some(tc) if tc.initial_ms > MAX_INITIAL_MS => fail(
            "time_control",
            format!(
                "the base time must be at most {} minutes",
                MAX_INITIAL_MS / 60_000
            ),
        ),
        Some(tc) if tc.increment_ms > MAX_INCREMENT_MS => fail(
            "time_control",
            format!(
                "the increment must be at most {} s",
                MAX_INCREMENT_MS / 1000
            ),
        ),
        _ => Ok(()),
    }
}

/// A rating range belongs to a rated seek and is one of ±100 … ±500.
fn rating_range(create: &CreateMatch) -> Result<(), ValidationError> {
    match create.rating_range {
        Some(_) if !create.rated => fail("rating_range", "only a rated match has a rating range"),
        Some(range) if !RATING_RANGES.contains(&range) => fail(
            "rating_range",
            "must be 100, 200, 300, 400 or 500 (or null for anyone)",
        ),
        _ => Ok(()),
    }
}
