//! The account routes (PROTOCOL.md §18): sign-up, login, logout, the account, password,
//! tokens, reset links, profiles and their PDN. Every state-changing route first checks that
//! the request comes from the server's own pages ([`same_origin`]); every refusal is a typed
//! [`ApiError`] whose message never holds a secret.

use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use boardcast_protocol::Side;
use boardcast_protocol::account::{
    AccountInfo, AccountPreferences, AccountView, ApiError, ApiErrorCode, CreatedToken,
    Credentials, GameCounts, LadderRung, NewToken, Opponent, Outcome, PasswordChange,
    PasswordReset, ProfileGame, ProfileGames, RatingPoint, Scope, TokenInfo, TokenLogin,
    UserProfile,
};
use serde::Deserialize;
use serde_json::json;

use super::cuts::Ending;
use super::sessions::{COOKIE, IDLE};
use super::{Accounts, AuthError, Via, Who, names, password, secret};
use crate::net::address::Peer;
use crate::net::origin::AllowedOrigins;
use crate::storage::accounts::{AccountRow, outcome};
use crate::storage::{StorageError, now_ms};

/// Games on one page of a profile.
pub(crate) const PER_PAGE: u32 = 20;

/// What the account routes need of the server, handed down once by its router: they see
/// nothing else of it (the arrow points from `net` down to here).
#[derive(Debug, Clone)]
pub(crate) struct Site {
    pub(crate) accounts: Accounts,
    /// The pages that may change an account: those the WebSocket accepts.
    pub(crate) origins: AllowedOrigins,
    /// Whether the session cookie carries `Secure`: the public URL is https, or the server
    /// serves TLS itself.
    pub(crate) secure: bool,
}

/// The account routes with what they need, for the server's router.
pub(crate) fn routes<S>(site: Site) -> Router<S> {
    Router::new()
        .route("/api/signup", post(signup))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/logout-all", post(logout_all))
        .route("/api/account", get(account))
        .route("/api/password", post(change_password))
        .route("/api/preferences", post(set_preferences))
        .route("/api/tokens", post(create_token).get(list_tokens))
        .route("/api/tokens/{id}", delete(delete_token))
        .route("/api/token", post(token_login))
        .route("/api/reset/{token}", get(reset_link).post(reset_password))
        .route("/api/user/{name}", get(user))
        .route("/api/user/{name}/games", get(user_games))
        .route("/api/user/{name}/rating-history", get(user_rating_history))
        .route("/api/ladder", get(ladder))
        .route("/@/{name}/games.pdn", get(user_pdn))
        .with_state(site)
}

/// A refused request: its status, body and, for 429, when to try again.
#[derive(Debug)]
pub struct Refused {
    status: StatusCode,
    error: ApiError,
    retry_after: Option<Duration>,
}

impl Refused {
    pub fn new(status: StatusCode, code: ApiErrorCode, message: impl Into<String>) -> Refused {
        Refused {
            status,
            error: ApiError::new(code, message),
            retry_after: None,
        }
    }

    fn invalid((code, message): (ApiErrorCode, String)) -> Refused {
        Refused::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 429 for a throttled `kind` (`login`, `signup`), counted on /metrics.
    fn throttled(kind: &'static str, retry_after: Duration) -> Refused {
        metrics::counter!("boardcast_account_throttled_total", "kind" => kind).increment(1);
        Refused {
            retry_after: Some(retry_after),
            ..Refused::new(
                StatusCode::TOO_MANY_REQUESTS,
                ApiErrorCode::Throttled,
                "too many failed attempts: try again later",
            )
        }
    }

    fn bad_credentials() -> Refused {
        Refused::new(
            StatusCode::UNAUTHORIZED,
            ApiErrorCode::BadCredentials,
            "wrong name or password",
        )
    }

    fn unauthenticated() -> Refused {
        Refused::new(
            StatusCode::UNAUTHORIZED,
            ApiErrorCode::Unauthenticated,
            "log in first (no valid session or token)",
        )
    }

    fn closed() -> Refused {
        Refused::new(
            StatusCode::FORBIDDEN,
            ApiErrorCode::AccountClosed,
            "this account is closed",
        )
    }

    fn not_found(what: impl Into<String>) -> Refused {
        Refused::new(StatusCode::NOT_FOUND, ApiErrorCode::NotFound, what)
    }
}

impl From<StorageError> for Refused {
    fn from(err: StorageError) -> Refused {
        tracing::warn!(%err, "an account request failed in storage");
        let status = match err {
            StorageError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        Refused::new(status, ApiErrorCode::Internal, "storage failed: try again")
    }
}

impl From<password::HashError> for Refused {
    fn from(err: password::HashError) -> Refused {
        match err {
            password::HashError::Busy => Refused {
                retry_after: Some(password::busy_retry_after()),
                ..Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ApiErrorCode::Busy,
                    err.to_string(),
                )
            },
            password::HashError::Failed(why) => {
                tracing::error!(%why, "cannot hash a password");
                Refused::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ApiErrorCode::Internal,
                    "cannot hash the password: try again",
                )
            }
        }
    }
}

impl From<AuthError> for Refused {
    fn from(err: AuthError) -> Refused {
        match err {
            AuthError::Unauthenticated => Refused::unauthenticated(),
            AuthError::Closed => Refused::closed(),
            AuthError::Storage(err) => {
                tracing::warn!(%err, "cannot check a session");
                Refused::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ApiErrorCode::Internal,
                    "storage failed: try again",
                )
            }
        }
    }
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.error)).into_response();
        if let Some(after) = self.retry_after {
            let seconds = after.as_secs_f64().ceil().max(1.0) as u64;
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

type Answer = Result<Response, Refused>;

/// The WebSocket's refusal of a credential, before the upgrade: 401/403 with the typed body.
pub(crate) fn refuse_upgrade(err: AuthError) -> Response {
    Refused::from(err).into_response()
}

/// Whether a state-changing request comes from the server's own pages: its `Origin` is one
/// the WebSocket would accept, and `Sec-Fetch-Site` (when sent) says same-origin or a
/// request the user made directly. Programs send neither and pass.
pub(crate) fn same_origin(site: &Site, headers: &HeaderMap) -> Result<(), Refused> {
    let refused = |why: String| Refused::new(StatusCode::FORBIDDEN, ApiErrorCode::CrossOrigin, why);
    if let Some(site) = headers.get("sec-fetch-site") {
        let site = site.to_str().unwrap_or("");
        if site != "same-origin" && site != "none" {
            return Err(refused(format!(
                "a request from another site ({site}) cannot change an account"
            )));
        }
    }
    site.origins
        .check(headers)
        .map_err(|_| refused("a page of another site cannot change an account here".into()))
}

/// The JSON body, or a typed 400.
fn body<T: for<'de> Deserialize<'de>>(bytes: &Bytes) -> Result<T, Refused> {
    serde_json::from_slice(bytes).map_err(|err| {
        Refused::new(
            StatusCode::BAD_REQUEST,
            ApiErrorCode::BadRequest,
            format!("the body is not the JSON this route takes: {err}"),
        )
    })
}

/// The `Set-Cookie` of a new session `id` (or, `None`, of its removal).
fn session_cookie(site: &Site, id: Option<&str>) -> HeaderValue {
    let secure = if site.secure { "; Secure" } else { "" };
    let text = match id {
        Some(id) => format!(
            "{COOKIE}={id}; HttpOnly; SameSite=Lax; Path=/; Max-Age={}{secure}",
            IDLE.as_secs()
        ),
        None => format!("{COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&text).expect("a session cookie is ASCII")
}

fn info(account: &AccountRow) -> AccountInfo {
    AccountInfo {
        name: account.name.clone(),
        bot: account.bot,
        admin: account.admin,
    }
}

impl Accounts {
    /// Checks `password` for account `name` under the throttles: the account, or why not.
    /// Unknown names and wrong passwords are answered alike, in the same time (a dummy hash
    /// is verified for an unknown name).
    pub async fn check_password(
        &self,
        name: &str,
        password: &str,
        address: &str,
    ) -> Result<AccountRow, Refused> {
        let name_key = name.to_ascii_lowercase();
        let throttles = &self.throttles;
        // The account's limit holds for the addresses that failed on it: an address that
        // never did (its owner at home) still gets its try, so an attacker cannot lock the
        // owner out; each new address of the attacker's gets one try per window.
        let pair = format!("{name_key} {address}");
        let account_limit = match throttles.per_account.check(&name_key).await {
            Ok(()) => Ok(()),
            Err(after) => throttles.per_pair.check(&pair).await.map_err(|_| after),
        };
        if let Err(after) = throttles
            .per_address
            .check(address)
            .await
            .and(account_limit)
        {
            return Err(Refused::throttled("login", after));
        }
        // A flood of logins beyond the hashing queue is told to come back before it costs a
        // database read (about five of every six tries of 200 logins at once).
        self.hasher.refuse_if_full()?;
        let found = self.store.account_by_name(name.to_owned()).await?;
        let hash = found.as_ref().map(|account| account.password.clone());
        if !self.hasher.verify(password.to_owned(), hash).await? {
            throttles.per_address.hit(address).await;
            throttles.per_account.hit(&name_key).await;
            throttles.per_pair.hit(&pair).await;
            metrics::counter!("boardcast_account_login_failures_total").increment(1);
            return Err(Refused::bad_credentials());
        }
        let account = found.expect("a password verified only against a stored account");
        if account.closed {
            return Err(Refused::closed());
        }
        Ok(account)
    }
}

/// `Who` of the request, or 401.
async fn who(site: &Site, headers: &HeaderMap) -> Result<Who, Refused> {
    site.accounts
        .authenticate(headers)
        .await?
        .ok_or_else(Refused::unauthenticated)
}

/// `Who` of the request's cookie session (token management and password changes are for
/// people at their browser, not for tokens).
async fn session_who(site: &Site, headers: &HeaderMap) -> Result<(Who, String), Refused> {
    let who = who(site, headers).await?;
    match &who.via {
        Via::Session(hash) => {
            let hash = hash.clone();
            Ok((who, hash))
        }
        Via::Token { .. } => Err(Refused::new(
            StatusCode::FORBIDDEN,
            ApiErrorCode::Forbidden,
            "this needs a logged-in browser session, not a token",
        )),
    }
}

async fn signup(
    State(site): State<Site>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    same_origin(&site, &headers)?;
    let Credentials { name, password } = body(&bytes)?;
    let address = peer.client.to_string();
    let accounts = &site.accounts;
    if let Err(after) = accounts.throttles.signups.check(&address).await {
        return Err(Refused::throttled("signup", after));
    }
    names::check(&name).map_err(Refused::invalid)?;
    password::check(&password, &name).map_err(Refused::invalid)?;
    accounts.throttles.signups.hit(&address).await;
    let hash = accounts.hasher.hash(password).await?;
    let Some(id) = accounts
        .store
        .create_account(name.clone(), hash, false, false, now_ms())
        .await?
    else {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            ApiErrorCode::NameTaken,
            format!("the name {name} is taken"),
        ));
    };
    let session = accounts.start_session(id).await?;
    tracing::info!(account = %name, "account signed up");
    Ok((
        StatusCode::CREATED,
        [(header::SET_COOKIE, session_cookie(&site, Some(&session)))],
        Json(json!({ "name": name })),
    )
        .into_response())
}

async fn login(
    State(site): State<Site>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    same_origin(&site, &headers)?;
    let Credentials { name, password } = body(&bytes)?;
    let accounts = &site.accounts;
    let account = accounts
        .check_password(&name, &password, &peer.client.to_string())
        .await?;
    // A new id at every login: a session id planted before it is never promoted.
    if let Some(old) = super::sessions::cookie(&headers) {
        accounts.store.delete_session(secret::hash(old)).await?;
    }
    let session = accounts.start_session(account.id).await?;
    accounts.store.touch_account(account.id, now_ms()).await?;
    Ok((
        [(header::SET_COOKIE, session_cookie(&site, Some(&session)))],
        Json(info(&account)),
    )
        .into_response())
}

async fn logout(State(site): State<Site>, headers: HeaderMap) -> Answer {
    same_origin(&site, &headers)?;
    if let Some(session) = super::sessions::cookie(&headers) {
        let hash = secret::hash(session);
        if let Ok(who) = site.accounts.by_session(session).await {
            site.accounts.cuts.end(Ending::Session {
                account: who.id,
                hash: hash.clone(),
            });
        }
        site.accounts.store.delete_session(hash).await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, session_cookie(&site, None))],
    )
        .into_response())
}

async fn logout_all(State(site): State<Site>, headers: HeaderMap) -> Answer {
    same_origin(&site, &headers)?;
    let who = who(&site, &headers).await?;
    site.accounts.end_logins(who.id, None).await?;
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, session_cookie(&site, None))],
    )
        .into_response())
}

async fn account(State(site): State<Site>, headers: HeaderMap) -> Answer {
    let who = who(&site, &headers).await?;
    let preferences = site.accounts.store.preferences(who.id).await?;
    Ok(Json(AccountView {
        name: who.name,
        bot: who.bot,
        admin: who.admin,
        created_at: who.created_ms,
        refuse_more_time: preferences.refuse_more_time,
    })
    .into_response())
}

/// A member's own preferences (issue 32): stored on the account, and applied by the server to
/// each seat the member takes from then on (a match already under way keeps its seats').
async fn set_preferences(State(site): State<Site>, headers: HeaderMap, bytes: Bytes) -> Answer {
    same_origin(&site, &headers)?;
    let who = who(&site, &headers).await?;
    let AccountPreferences { refuse_more_time } = body(&bytes)?;
    let preferences = crate::storage::accounts::Preferences { refuse_more_time };
    site.accounts
        .store
        .set_preferences(who.id, preferences)
        .await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn change_password(
    State(site): State<Site>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    same_origin(&site, &headers)?;
    let (who, session) = session_who(&site, &headers).await?;
    let PasswordChange { old, new } = body(&bytes)?;
    let accounts = &site.accounts;
    accounts
        .check_password(&who.name, &old, &peer.client.to_string())
        .await?;
    password::check(&new, &who.name).map_err(Refused::invalid)?;
    let hash = accounts.hasher.hash(new).await?;
    accounts.store.set_password(who.id, hash).await?;
    accounts.end_logins(who.id, Some(session)).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// Checks a token's name and scopes.
fn token_fields(name: &str, scopes: &[Scope]) -> Result<String, Refused> {
    if name.trim().is_empty() || name.chars().count() > 64 {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            ApiErrorCode::BadRequest,
            "a token's name is 1 to 64 characters",
        ));
    }
    if scopes.is_empty() {
        return Err(Refused::new(
            StatusCode::BAD_REQUEST,
            ApiErrorCode::BadRequest,
            "a token needs at least one scope: play or bot",
        ));
    }
    let mut names: Vec<&str> = scopes.iter().map(|scope| scope.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    Ok(names.join(" "))
}

impl Accounts {
    /// Makes a personal access token for `account`; returns its id and the token (shown once).
    /// It lasts until it is revoked: "log out everywhere" leaves it ([`Accounts::new_login_token`]).
    pub async fn new_token(
        &self,
        account: i64,
        name: &str,
        scopes: &[Scope],
    ) -> Result<CreatedToken, Refused> {
        self.make_token(account, name, scopes, false).await
    }

    /// Makes the `play` token of a password login (`boardcast login`): a login like a browser
    /// session's, so "log out everywhere" and a password change or reset end it too (a member
    /// who lost a laptop expects every login to end).
    pub(crate) async fn new_login_token(
        &self,
        account: i64,
        name: &str,
    ) -> Result<CreatedToken, Refused> {
        self.make_token(account, name, &[Scope::Play], true).await
    }

    /// Ends every login of `account`, here and on every node: its browser sessions but `keep`
    /// (the SHA-256 of the session that changed the password) and its password logins'
    /// tokens (`boardcast login`). Tokens made by name stay until they are revoked.
    async fn end_logins(&self, account: i64, keep: Option<String>) -> Result<(), Refused> {
        self.store.delete_sessions(account, keep.clone()).await?;
        let ids = self.store.delete_login_tokens(account).await?;
        self.cuts.end(Ending::Sessions { account, keep });
        if !ids.is_empty() {
            self.cuts.end(Ending::Tokens { account, ids });
        }
        Ok(())
    }

    async fn make_token(
        &self,
        account: i64,
        name: &str,
        scopes: &[Scope],
        login: bool,
    ) -> Result<CreatedToken, Refused> {
        let scopes = token_fields(name, scopes)?;
        let token = secret::new_secret("bc_");
        let id = self
            .store
            .create_token(
                secret::hash(&token),
                account,
                name.trim().to_owned(),
                scopes,
                login,
                now_ms(),
            )
            .await?;
        Ok(CreatedToken { id, token })
    }
}

async fn create_token(State(site): State<Site>, headers: HeaderMap, bytes: Bytes) -> Answer {
    same_origin(&site, &headers)?;
    let (who, _) = session_who(&site, &headers).await?;
    let NewToken { name, scopes } = body(&bytes)?;
    let created = site.accounts.new_token(who.id, &name, &scopes).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

async fn list_tokens(State(site): State<Site>, headers: HeaderMap) -> Answer {
    let (who, _) = session_who(&site, &headers).await?;
    let tokens: Vec<TokenInfo> = site
        .accounts
        .store
        .tokens(who.id)
        .await?
        .into_iter()
        .map(|row| TokenInfo {
            id: row.id,
            name: row.name,
            scopes: row.scopes.split(' ').filter_map(Scope::parse).collect(),
            created_at: row.created_ms,
            last_used: row.used_ms,
        })
        .collect();
    Ok(Json(tokens).into_response())
}

/// A browser session revokes any of its account's tokens; a token revokes only itself (what
/// `boardcast logout` does, so a logged-out terminal leaves no live token behind).
async fn delete_token(State(site): State<Site>, Path(id): Path<i64>, headers: HeaderMap) -> Answer {
    same_origin(&site, &headers)?;
    let who = who(&site, &headers).await?;
    if let Via::Token { id: own, .. } = &who.via
        && *own != id
    {
        return Err(Refused::new(
            StatusCode::FORBIDDEN,
            ApiErrorCode::Forbidden,
            "a token may revoke only itself; revoke others from a logged-in browser",
        ));
    }
    if site.accounts.store.delete_token(who.id, id).await? {
        site.accounts.cuts.end(Ending::Token {
            account: who.id,
            id,
        });
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(Refused::not_found(format!("no token {id} of yours")))
    }
}

async fn token_login(
    State(site): State<Site>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    same_origin(&site, &headers)?;
    let TokenLogin {
        name,
        password,
        token_name,
    } = body(&bytes)?;
    let accounts = &site.accounts;
    let account = accounts
        .check_password(&name, &password, &peer.client.to_string())
        .await?;
    let created = accounts.new_login_token(account.id, &token_name).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// The account reset link `token` is for while it is valid (`use_up`: and uses it up), or a
/// typed 404.
async fn reset_account(site: &Site, token: &str, use_up: bool) -> Result<AccountRow, Refused> {
    let store = &site.accounts.store;
    let invalid = || Refused::not_found("this reset link is used up, expired or wrong");
    let id = store
        .reset(secret::hash(token), now_ms(), use_up)
        .await?
        .ok_or_else(invalid)?;
    store.account_by_id(id).await?.ok_or_else(invalid)
}

async fn reset_link(State(site): State<Site>, Path(token): Path<String>) -> Answer {
    let account = reset_account(&site, &token, false).await?;
    Ok(Json(json!({ "name": account.name })).into_response())
}

async fn reset_password(
    State(site): State<Site>,
    Path(token): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    same_origin(&site, &headers)?;
    let PasswordReset { password } = body(&bytes)?;
    let accounts = &site.accounts;
    let store = &accounts.store;
    let account = reset_account(&site, &token, false).await?;
    password::check(&password, &account.name).map_err(Refused::invalid)?;
    let phc = accounts.hasher.hash(password).await?;
    // Used up before the password changes: of two requests with one link, one wins.
    let id = reset_account(&site, &token, true).await?.id;
    store.set_password(id, phc).await?;
    accounts.end_logins(id, None).await?;
    Ok(Json(json!({ "name": account.name })).into_response())
}

async fn profile_account(site: &Site, name: &str) -> Result<AccountRow, Refused> {
    site.accounts
        .store
        .account_by_name(name.to_owned())
        .await?
        .ok_or_else(|| Refused::not_found(format!("no account {name}")))
}

async fn user(State(site): State<Site>, Path(name): Path<String>) -> Answer {
    let account = profile_account(&site, &name).await?;
    let tally = site.accounts.store.tally(account.id).await?;
    let perf = crate::ratings::stored::read_perf(&*site.accounts.store, account.id).await?;
    let best_win = site.accounts.store.best_win(account.id).await?;
    let now = std::time::SystemTime::now();
    Ok(Json(UserProfile {
        name: account.name,
        bot: account.bot,
        created_at: account.created_ms,
        last_seen: account.last_seen_ms,
        closed: account.closed,
        games: GameCounts {
            played: tally.won + tally.drawn + tally.lost,
            won: tally.won,
            drawn: tally.drawn,
            lost: tally.lost,
        },
        rating: perf.glicko.rating,
        rd: perf.deviation_at(now),
        volatility: perf.glicko.volatility,
        provisional: perf.is_provisional(now),
        rated_games: perf.rated_games,
        best_win,
    })
    .into_response())
}

/// Members on the ladder at most.
const LADDER_SIZE: usize = 200;

/// The ladder: members with an established rating (RD ≤ 75) and a rated game in the last 7
/// days, best first (`crate::ratings::ladder`).
async fn ladder(State(site): State<Site>) -> Answer {
    use crate::ratings::{glicko, ladder, stored};
    let now = std::time::SystemTime::now();
    let since_ms = now_ms().saturating_sub(glicko::LADDER_RECENT.as_millis() as i64);
    // The name and the bot flag together rank as the name does (a name is unique).
    let members: Vec<((String, bool), glicko::Perf)> = site
        .accounts
        .store
        .current_ratings(since_ms)
        .await?
        .into_iter()
        .map(|(name, bot, newest)| ((name, bot), stored::perf_of(Some(&newest))))
        .collect();
    let rungs: Vec<LadderRung> = ladder::ladder(&members, now, LADDER_SIZE)
        .into_iter()
        .map(|rung| LadderRung {
            rank: u32::try_from(rung.rank).unwrap_or(u32::MAX),
            name: rung.name.0,
            bot: rung.name.1,
            rating: rung.rating,
            rd: rung.deviation,
            rated_games: rung.rated_games,
        })
        .collect();
    Ok(Json(rungs).into_response())
}

/// The rating chart's points: the last rated game of each UTC day, oldest first.
async fn user_rating_history(State(site): State<Site>, Path(name): Path<String>) -> Answer {
    let account = profile_account(&site, &name).await?;
    let changes: Vec<_> = site
        .accounts
        .store
        .rating_history(account.id)
        .await?
        .iter()
        .map(|change| {
            (
                crate::ratings::stored::time_of(change.at_ms),
                change.rating,
                change.deviation,
            )
        })
        .collect();
    let points: Vec<RatingPoint> = crate::ratings::ladder::daily_history(&changes)
        .into_iter()
        .map(|point| RatingPoint {
            date: point.date.to_string(),
            rating: point.rating,
            rd: point.deviation,
        })
        .collect();
    Ok(Json(points).into_response())
}

#[derive(Debug, Deserialize)]
struct PageQuery {
    #[serde(default)]
    page: u32,
}

async fn user_games(
    State(site): State<Site>,
    Path(name): Path<String>,
    Query(PageQuery { page }): Query<PageQuery>,
) -> Answer {
    let account = profile_account(&site, &name).await?;
    let rows = site
        .accounts
        .store
        .games(account.id, page.saturating_mul(PER_PAGE), PER_PAGE)
        .await?;
    let games = rows
        .into_iter()
        .filter_map(|row| {
            let outcome = match outcome(&row.result, &row.side)? {
                std::cmp::Ordering::Greater => Outcome::Won,
                std::cmp::Ordering::Equal => Outcome::Drawn,
                std::cmp::Ordering::Less => Outcome::Lost,
            };
            let setup: Option<crate::matches::Setup> = serde_json::from_str(&row.setup).ok();
            Some(ProfileGame {
                id: row.match_id,
                colour: if row.side == "black" {
                    Side::Black
                } else {
                    Side::White
                },
                opponent: row.opponent.map(|name| Opponent {
                    name,
                    account: row.opponent_account,
                }),
                outcome,
                result: row.result,
                time_control: setup.and_then(|setup| setup.time_control),
                date: row.created_ms,
            })
        })
        .collect();
    Ok(Json(ProfileGames {
        page,
        per_page: PER_PAGE,
        games,
    })
    .into_response())
}

/// A member's finished games as one PDN file, streamed as the client reads it. At most a
/// few run at once per address and on the node ([`super::exports`]): past them, 503 `busy`.
async fn user_pdn(
    State(site): State<Site>,
    Extension(peer): Extension<Peer>,
    Path(name): Path<String>,
) -> Answer {
    let account = profile_account(&site, &name).await?;
    let Some(slot) = site.accounts.exports.start(peer.client) else {
        return Err(Refused {
            retry_after: Some(password::busy_retry_after()),
            ..Refused::new(
                StatusCode::SERVICE_UNAVAILABLE,
                ApiErrorCode::Busy,
                "too many game downloads at once: try again in a moment",
            )
        });
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(8);
    let store = site.accounts.store.clone();
    // The export's place is given back when the export ends: every game sent, or the
    // download dropped (its channel closes and the next send fails).
    tokio::spawn(async move {
        store.pdn(account.id, tx).await;
        drop(slot);
    });
    let stream = futures_util::stream::poll_fn(move |cx| {
        rx.poll_recv(cx).map(|next| {
            next.map(|game: Result<String, StorageError>| {
                game.map(|pdn| Bytes::from(format!("{}\n\n", pdn.trim_end())))
            })
        })
    });
    Ok((
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/x-draughts-pdn; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"{}.pdn\"", account.name))
                    .expect("account names are ASCII"),
            ),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}
