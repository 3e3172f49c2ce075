//! Accounts over HTTP: the JSON bodies of `/api/signup`, `/api/login`, `/api/account`,
//! `/api/tokens`, `/api/user/{name}` and their typed errors (PROTOCOL.md §18), and the one
//! account field the WebSocket carries ([`AccountInfo`] in `welcome`).
//!
//! These bodies travel as JSON only (HTTP), never as postcard; [`AccountInfo`] also travels in
//! `welcome` and so keeps to what both encodings support.

use serde::{Deserialize, Serialize};

use crate::common::{Side, TimeControl};

/// Shortest and longest account name, in characters (all ASCII).
pub const NAME_MIN: usize = 2;
pub const NAME_MAX: usize = 20;
/// Shortest and longest password, in characters.
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;

/// Whether `name` has the shape of an account name: 2–20 of `A-Z a-z 0-9 _ -`. Uniqueness
/// (ignoring case) and the reserved names are the server's to check.
pub fn name_shape_ok(name: &str) -> bool {
    (NAME_MIN..=NAME_MAX).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Who a connection or request acts as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountInfo {
    pub name: String,
    /// A bot account: its seats are shown as a program's (the BOT tag).
    pub bot: bool,
    /// A club admin.
    pub admin: bool,
}

/// `POST /api/signup` and `POST /api/login`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    pub name: String,
    pub password: String,
}

/// `POST /api/token`: a personal access token (scope `play`) for a program that has the
/// password but no cookie (`boardcast login`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenLogin {
    pub name: String,
    pub password: String,
    pub token_name: String,
}

/// `POST /api/password`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

/// `POST /reset/{token}` (JSON): the new password of a one-time reset link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordReset {
    pub password: String,
}

/// `GET /api/account` (and `whoami`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountView {
    pub name: String,
    pub bot: bool,
    pub admin: bool,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    /// The member refuses being given more time in every match ([`AccountPreferences`]).
    /// Read as `false` when absent (an older server).
    #[serde(default)]
    pub refuse_more_time: bool,
}

/// `POST /api/preferences`: a member's own preferences, applied by the server to every match
/// they play (guests choose per browser instead).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountPreferences {
    /// Refuse "+15 s" from opponents (PROTOCOL.md §10 *More time*): recorded with each seat
    /// the member takes from then on.
    pub refuse_more_time: bool,
}

/// What a personal access token allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Play as the account (the terminal client, scripts).
    Play,
    /// Play as a bot account's engine (`boardcast engine`): only a bot account's `bot`
    /// token shows its seats as a program's.
    Bot,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Play => "play",
            Scope::Bot => "bot",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "play" => Some(Scope::Play),
            "bot" => Some(Scope::Bot),
            _ => None,
        }
    }
}

/// `POST /api/tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewToken {
    pub name: String,
    pub scopes: Vec<Scope>,
}

/// A token just made: `token` is shown this once and never stored in the clear.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreatedToken {
    pub id: i64,
    pub token: String,
}

/// One row of `GET /api/tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenInfo {
    pub id: i64,
    pub name: String,
    pub scopes: Vec<Scope>,
    pub created_at: i64,
    pub last_used: Option<i64>,
}

/// Finished games of an account, by outcome for it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCounts {
    pub played: u64,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
}

/// `GET /api/user/{name}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserProfile {
    pub name: String,
    pub bot: bool,
    /// Milliseconds since the Unix epoch.
    pub created_at: i64,
    pub last_seen: Option<i64>,
    pub closed: bool,
    pub games: GameCounts,
    /// The Glicko-2 rating (issue 31; 1500 before the first rated game).
    #[serde(default = "new_rating")]
    pub rating: f64,
    /// The rating deviation as of now: it grows while the member does not play rated.
    #[serde(default = "new_deviation")]
    pub rd: f64,
    #[serde(default = "new_volatility")]
    pub volatility: f64,
    /// Shown as `1500?`: the RD is still 110 or more.
    #[serde(default = "yes")]
    pub provisional: bool,
    #[serde(default)]
    pub rated_games: u32,
    /// The highest-rated member this one beat in a rated game (`null`: none yet).
    #[serde(default)]
    pub best_win: Option<BestWin>,
}

/// A member's best win: the opponent's name, their rating when the game began (unrounded),
/// and the game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BestWin {
    pub name: String,
    pub rating: f64,
    pub match_id: String,
}

fn new_rating() -> f64 {
    1500.0
}

fn new_deviation() -> f64 {
    500.0
}

fn new_volatility() -> f64 {
    0.09
}

fn yes() -> bool {
    true
}

/// One line of `GET /api/ladder`, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LadderRung {
    /// 1 for the best; equal rounded ratings share a rank.
    pub rank: u32,
    pub name: String,
    /// A program plays for the account (shown with a BOT tag).
    #[serde(default)]
    pub bot: bool,
    /// Rounded.
    pub rating: i32,
    /// The rating deviation as of now.
    pub rd: f64,
    pub rated_games: u32,
}

/// One point of `GET /api/user/{name}/rating-history`: the rating and RD after the member's
/// last rated game of a UTC day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// `YYYY-MM-DD` (UTC).
    pub date: String,
    pub rating: f64,
    pub rd: f64,
}

/// How a finished game ended for the profile's owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Won,
    Drawn,
    Lost,
}

/// The player across the board in a profile's game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opponent {
    pub name: String,
    /// A member (link to `/@/{name}`) or a guest.
    pub account: bool,
}

/// One row of `GET /api/user/{name}/games?page=N`, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileGame {
    /// The match id: the game is at `/m/{id}`, its PDN at `/games/{id}.pdn`.
    pub id: String,
    pub colour: Side,
    pub opponent: Option<Opponent>,
    pub outcome: Outcome,
    /// The PDN result: `2-0`, `1-1`, `0-2`.
    pub result: String,
    pub time_control: Option<TimeControl>,
    /// When the match was created, milliseconds since the Unix epoch.
    pub date: i64,
}

/// A page of `GET /api/user/{name}/games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileGames {
    pub page: u32,
    pub per_page: u32,
    pub games: Vec<ProfileGame>,
}

/// Why an account request was refused; the `code` of [`ApiError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApiErrorCode {
    /// 400: not 2–20 of `A-Z a-z 0-9 _ -`.
    NameInvalid,
    /// 400: an account has this name (ignoring case).
    NameTaken,
    /// 400: a reserved name (`admin`, `bot`, `guest`, …).
    NameReserved,
    /// 400: fewer than 8 characters.
    PasswordTooShort,
    /// 400: more than 128 characters.
    PasswordTooLong,
    /// 400: the strength estimator rates it weak; the message says why.
    PasswordWeak,
    /// 400: the body is not the JSON this route takes.
    BadRequest,
    /// 401: unknown name or wrong password (the same answer, in the same time).
    BadCredentials,
    /// 401: no session cookie or bearer token, or one that is unknown, expired or revoked.
    Unauthenticated,
    /// 403: the account is closed.
    AccountClosed,
    /// 403: a state-changing request from another site (`Origin` / `Sec-Fetch-Site`).
    CrossOrigin,
    /// 403: the token lacks the scope, or the route needs a cookie session.
    Forbidden,
    /// 404: no such account, token or reset link.
    NotFound,
    /// 429: too many failed attempts; `Retry-After` says when to try again.
    Throttled,
    /// 500/503: the server could not carry it out (storage); try again.
    Internal,
    /// 503: the password hashing queue is full (a login flood); `Retry-After` says when to
    /// try again. Answered before any account is looked at, so it tells nothing about one.
    Busy,
}

impl ApiErrorCode {
    /// Every code, in declaration order: what a client must have words for.
    pub const ALL: [ApiErrorCode; 16] = [
        ApiErrorCode::NameInvalid,
        ApiErrorCode::NameTaken,
        ApiErrorCode::NameReserved,
        ApiErrorCode::PasswordTooShort,
        ApiErrorCode::PasswordTooLong,
        ApiErrorCode::PasswordWeak,
        ApiErrorCode::BadRequest,
        ApiErrorCode::BadCredentials,
        ApiErrorCode::Unauthenticated,
        ApiErrorCode::AccountClosed,
        ApiErrorCode::CrossOrigin,
        ApiErrorCode::Forbidden,
        ApiErrorCode::NotFound,
        ApiErrorCode::Throttled,
        ApiErrorCode::Internal,
        ApiErrorCode::Busy,
    ];
}

/// The body of every refused account request: `{"error":{"code":…,"message":…}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiError {
    pub error: ApiErrorBody,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiErrorBody {
    pub code: ApiErrorCode,
    pub message: String,
}

impl ApiError {
    pub fn new(code: ApiErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            error: ApiErrorBody {
                code,
                message: message.into(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_shape_takes_2_to_20_ascii_letters_digits_underscore_and_dash() {
        assert!(name_shape_ok("Anne"));
        assert!(name_shape_ok("a_-9"));
        assert!(name_shape_ok("ab"));
        assert!(name_shape_ok(&"x".repeat(20)));
        assert!(!name_shape_ok("a"));
        assert!(!name_shape_ok(&"x".repeat(21)));
        assert!(!name_shape_ok("Anne Bakker"));
        assert!(!name_shape_ok("Änne"));
        assert!(!name_shape_ok("a.b"));
    }

    /// `ALL` holds every code once, in order: the match below has no wildcard, so a new code
    /// does not compile until it has its place here, and then in `ALL`.
    #[test]
    fn all_lists_every_code_once_in_order() {
        let place = |code: ApiErrorCode| match code {
            ApiErrorCode::NameInvalid => 0,
            ApiErrorCode::NameTaken => 1,
            ApiErrorCode::NameReserved => 2,
            ApiErrorCode::PasswordTooShort => 3,
            ApiErrorCode::PasswordTooLong => 4,
            ApiErrorCode::PasswordWeak => 5,
            ApiErrorCode::BadRequest => 6,
            ApiErrorCode::BadCredentials => 7,
            ApiErrorCode::Unauthenticated => 8,
            ApiErrorCode::AccountClosed => 9,
            ApiErrorCode::CrossOrigin => 10,
            ApiErrorCode::Forbidden => 11,
            ApiErrorCode::NotFound => 12,
            ApiErrorCode::Throttled => 13,
            ApiErrorCode::Internal => 14,
            ApiErrorCode::Busy => 15,
        };
        let places: Vec<usize> = ApiErrorCode::ALL.into_iter().map(place).collect();
        assert_eq!(places, (0..ApiErrorCode::ALL.len()).collect::<Vec<_>>());
    }

    #[test]
    fn an_error_is_code_and_message_under_error() {
        let error = ApiError::new(ApiErrorCode::NameTaken, "taken");
        assert_eq!(
            serde_json::to_string(&error).unwrap(),
            r#"{"error":{"code":"name_taken","message":"taken"}}"#
        );
    }
}
