//! The event routes: create (admins and organisers), join, withdraw, list, show, and each
//! Swiss's FIDE TRF. State-changing routes are for the server's own pages and for tokens, as
//! the account routes are ([`crate::accounts::http::same_origin`]); every refusal is a typed
//! [`EventError`].

use std::str::FromStr;

use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use boardcast_protocol::TimeControl;
use serde::Deserialize;
use serde_json::json;

use super::Events;
use super::director::Joining;
use super::error::EventError;
use super::record::{EventSetup, Format};
use crate::accounts::Who;
use crate::accounts::http::{Site, same_origin};
use crate::storage::now_ms;

/// What the event routes need of the server: the account routes' [`Site`] (who asks, and
/// from which page) and the events; they see nothing else of it.
#[derive(Clone)]
pub(crate) struct Club {
    site: Site,
    events: Events,
}

/// The event routes with what they need, for the server's router.
pub(crate) fn routes<S>(site: Site, events: Events) -> Router<S> {
    Router::new()
        .route("/api/events", post(create).get(list))
        .route("/api/events/{id}", get(show))
        .route("/api/events/{id}/join", post(join))
        .route("/api/events/{id}/withdraw", post(withdraw))
        .route("/api/organisers", post(organiser))
        .route("/e/{file}", get(trf))
        .with_state(Club { site, events })
}

type Answer = Result<Response, EventError>;

/// The longest an event may be announced ahead.
const MAX_LEAD_MS: i64 = 90 * 24 * 3600 * 1000;

/// What a member asks for when creating an event.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateEvent {
    name: String,
    /// `swiss`, `round_robin` or `arena`.
    kind: String,
    /// `5+3`: minutes and seconds of increment.
    time_control: String,
    #[serde(default)]
    rated: bool,
    /// When the first round starts (Unix ms); now if absent.
    starts_at: Option<i64>,
    /// A Swiss's rounds.
    rounds: Option<u32>,
    /// A round-robin played twice.
    #[serde(default)]
    double: bool,
    /// An arena's length in minutes (20–180).
    minutes: Option<u32>,
    password: Option<String>,
    #[serde(default)]
    min_rated_games: u32,
    rating_min: Option<u32>,
    rating_max: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinEvent {
    password: Option<String>,
    /// The id the page gave this join, the same when it sends it again ([`request_id`]).
    request: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct WithdrawEvent {
    /// As [`JoinEvent::request`].
    request: Option<String>,
}

/// A join's or withdrawal's body: what it asks, and the id its page gave it.
trait Asked: for<'de> Deserialize<'de> + Default {
    /// The id the page gave the request ([`JoinEvent::request`]), taken out unchecked.
    fn take_request(&mut self) -> Option<String>;
}

impl Asked for JoinEvent {
    fn take_request(&mut self) -> Option<String> {
        self.request.take()
    }
}

impl Asked for WithdrawEvent {
    fn take_request(&mut self) -> Option<String> {
        self.request.take()
    }
}

/// The member who asks to join or withdraw (signed in, from the server's own pages), what
/// they ask, and its request id checked ([`request_id`]): read alike for both.
async fn member_asking<T: Asked>(
    club: &Club,
    headers: &HeaderMap,
    bytes: &Bytes,
) -> Result<(Who, T, Option<String>), EventError> {
    let who = who(club, headers).await?;
    let mut asked: T = body(bytes)?;
    let request = request_id(asked.take_request())?;
    Ok((who, asked, request))
}

/// The longest request id a page may give a join or withdrawal.
const MAX_REQUEST_ID: usize = 64;

/// Checks the id a page gave a join or withdrawal (stored with the record that does it):
/// 1 to [`MAX_REQUEST_ID`] letters, digits, `-` or `_`.
fn request_id(request: Option<String>) -> Result<Option<String>, EventError> {
    match request {
        Some(id)
            if id.is_empty()
                || id.len() > MAX_REQUEST_ID
                || !id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Err(invalid(
                "request: 1 to 64 letters, digits, '-' or '_', the same when sent again",
            ))
        }
        request => Ok(request),
    }
}

fn invalid(message: impl Into<String>) -> EventError {
    EventError::Invalid(message.into())
}

fn body<T: for<'de> Deserialize<'de> + Default>(bytes: &Bytes) -> Result<T, EventError> {
    if bytes.is_empty() {
        return Ok(T::default());
    }
    serde_json::from_slice(bytes).map_err(|err| invalid(format!("bad request body: {err}")))
}

async fn who(club: &Club, headers: &HeaderMap) -> Result<Who, EventError> {
    same_origin(&club.site, headers).map_err(|_| {
        invalid("this request must come from the server's own pages or carry a token")
    })?;
    match club.site.accounts.authenticate(headers).await {
        Ok(Some(who)) => Ok(who),
        _ => Err(EventError::Unauthenticated),
    }
}

/// Checks `create` field by field; the set-up, its password not yet hashed.
///
/// `minute_ms` is how long one of an arena's minutes lasts: 60 000, unless the server was
/// started with a shorter `--arena-minute` (for tests).
fn validate(
    create: CreateEvent,
    organiser: i64,
    now: i64,
    minute_ms: i64,
) -> Result<EventSetup, EventError> {
    let name = create.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 60 {
        return Err(invalid("name: 1 to 60 characters"));
    }
    let time_control = TimeControl::from_str(&create.time_control)
        .map_err(|err| invalid(format!("time_control: {err}")))?;
    if !(60_000..=180 * 60_000).contains(&time_control.initial_ms)
        || time_control.increment_ms > 60_000
    {
        return Err(invalid(
            "time_control: 1 to 180 minutes, at most 60 seconds of increment",
        ));
    }
    let format = match create.kind.as_str() {
        "swiss" => {
            let rounds = create
                .rounds
                .ok_or_else(|| invalid("rounds: a Swiss needs its number of rounds"))?;
            if !(1..=20).contains(&rounds) {
                return Err(invalid("rounds: 1 to 20"));
            }
            Format::Swiss { rounds }
        }
        "round_robin" => Format::RoundRobin {
            double: create.double,
        },
        "arena" => {
            let minutes = create
                .minutes
                .ok_or_else(|| invalid("minutes: an arena needs its length"))?;
            if !(20..=180).contains(&minutes) {
                return Err(invalid("minutes: an arena lasts 20 to 180 minutes"));
            }
            Format::Arena {
                minutes,
                // Filled in below, once the start is known.
                ends_at_ms: 0,
            }
        }
        other => {
            return Err(invalid(format!(
                "kind: swiss, round_robin or arena, not {other:?}"
            )));
        }
    };
    if create.kind != "swiss" && create.rounds.is_some() {
        return Err(invalid("rounds: only a Swiss has a number of rounds"));
    }
    if create.kind != "arena" && create.minutes.is_some() {
        return Err(invalid("minutes: only an arena has a length"));
    }
    let starts_at_ms = create.starts_at.unwrap_or(now);
    if starts_at_ms < now - 60_000 || starts_at_ms > now + MAX_LEAD_MS {
        return Err(invalid("starts_at: from now to 90 days ahead"));
    }
    let format = match format {
        Format::Arena { minutes, .. } => Format::Arena {
            minutes,
            ends_at_ms: starts_at_ms + i64::from(minutes) * minute_ms,
        },
        other => other,
    };
    if let Some(password) = &create.password
        && !(4..=64).contains(&password.chars().count())
    {
        return Err(invalid("password: 4 to 64 characters"));
    }
    if create.min_rated_games > 10_000 {
        return Err(invalid("min_rated_games: at most 10000"));
    }
    let rating_range = match (create.rating_min, create.rating_max) {
        (None, None) => None,
        (min, max) => {
            let (min, max) = (min.unwrap_or(0), max.unwrap_or(4000));
            if min > max || max > 4000 {
                return Err(invalid("rating_min and rating_max: 0 ≤ min ≤ max ≤ 4000"));
            }
            Some((min, max))
        }
    };
    Ok(EventSetup {
        name,
        format,
        time_control,
        rated: create.rated,
        starts_at_ms,
        password: create.password,
        min_rated_games: create.min_rated_games,
        rating_range,
        organiser,
    })
}

async fn create(State(club): State<Club>, headers: HeaderMap, bytes: Bytes) -> Answer {
    let who = who(&club, &headers).await?;
    if !who.admin && !club.events.is_organiser(who.id).await? {
        return Err(EventError::NotOrganiser);
    }
    let create: CreateEvent = serde_json::from_slice(&bytes)
        .map_err(|err| invalid(format!("bad request body: {err}")))?;
    let mut setup = validate(create, who.id, now_ms(), club.events.arena_minute_ms())?;
    if let Some(password) = setup.password.take() {
        setup.password = Some(
            club.site
                .accounts
                .hasher
                .hash(password)
                .await
                .map_err(|err| {
                    tracing::error!(%err, "cannot hash an event password");
                    EventError::Storage
                })?,
        );
    }
    let id = club.events.create(setup).await?;
    Ok((StatusCode::CREATED, Json(json!({ "id": id }))).into_response())
}

/// A club admin grants a member the organiser right (or takes it back).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Organiser {
    name: String,
    #[serde(default = "yes")]
    granted: bool,
}

fn yes() -> bool {
    true
}

async fn organiser(State(club): State<Club>, headers: HeaderMap, bytes: Bytes) -> Answer {
    let who = who(&club, &headers).await?;
    if !who.admin {
        return Err(EventError::NotAdmin);
    }
    let asked: Organiser = serde_json::from_slice(&bytes)
        .map_err(|err| invalid(format!("bad request body: {err}")))?;
    let account = club
        .site
        .accounts
        .store
        .account_by_name(asked.name.clone())
        .await
        .map_err(|_| EventError::Storage)?
        .ok_or_else(|| EventError::NotFound(format!("account {}", asked.name)))?;
    club.events.grant(account.id, asked.granted).await?;
    Ok(Json(json!({ "name": account.name, "organiser": asked.granted })).into_response())
}

async fn join(
    State(club): State<Club>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let (who, asked, request) = member_asking::<JoinEvent>(&club, &headers, &bytes).await?;
    let setup = club.events.setup(&id).await?;
    if setup.password.is_some()
        && !club
            .site
            .accounts
            .hasher
            .verify(asked.password.unwrap_or_default(), setup.password.clone())
            .await
            .map_err(|err| match err {
                crate::accounts::password::HashError::Busy => EventError::Busy,
                crate::accounts::password::HashError::Failed(_) => EventError::Storage,
            })?
    {
        return Err(EventError::WrongPassword);
    }
    let perf = crate::ratings::stored::read_perf(&*club.site.accounts.store, who.id)
        .await
        .map_err(|_| EventError::Storage)?;
    let rating = perf.glicko.rating.round().max(0.0) as u32;
    if perf.rated_games < setup.min_rated_games {
        return Err(EventError::NotEligible(format!(
            "this event needs {} rated games; you have {}",
            setup.min_rated_games, perf.rated_games
        )));
    }
    if let Some((min, max)) = setup.rating_range
        && !(min..=max).contains(&rating)
    {
        return Err(EventError::NotEligible(format!(
            "this event is for ratings {min} to {max}; yours is {rating}"
        )));
    }
    club.events
        .join(
            &id,
            Joining {
                account: who.id,
                name: who.name,
                rating,
                request,
            },
        )
        .await?;
    Ok(Json(json!({ "joined": id })).into_response())
}

async fn withdraw(
    State(club): State<Club>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Bytes,
) -> Answer {
    let (who, _, request) = member_asking::<WithdrawEvent>(&club, &headers, &bytes).await?;
    club.events.withdraw(&id, who.id, request).await?;
    Ok(Json(json!({ "withdrew": id })).into_response())
}

/// `?page=N` of the list of events (from 0).
#[derive(Debug, Deserialize)]
struct PageQuery {
    #[serde(default)]
    page: u32,
}

/// Page `page` of the events: every waiting and running one (at most 200, `more_current` if
/// some are left out), then `per_page` finished ones (newest first; `more` if older ones
/// follow), and whether the one asking may create events
/// (`can_create`: the list page shows its form only then).
async fn list(
    State(club): State<Club>,
    query: Result<Query<PageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Answer {
    let Query(PageQuery { page }) =
        query.map_err(|_| invalid("page: a page number from 0, as ?page=N"))?;
    let listed = club.events.list(page).await?;
    let events: Vec<&super::view::EventView> = listed
        .unfinished
        .iter()
        .chain(&listed.finished)
        .map(|view| &**view)
        .collect();
    let can_create = match club.site.accounts.authenticate(&headers).await {
        Ok(Some(who)) => who.admin || club.events.is_organiser(who.id).await.unwrap_or(false),
        _ => false,
    };
    Ok(Json(json!({
        "events": events,
        "can_create": can_create,
        "page": page,
        "per_page": super::PER_PAGE,
        "more": listed.more,
        "more_current": listed.more_current,
    }))
    .into_response())
}

async fn show(State(club): State<Club>, Path(id): Path<String>) -> Answer {
    let view = club.events.view(&id).await?;
    Ok(Json(&*view).into_response())
}

/// `/e/{id}.trf`: the Swiss's FIDE TRF; `/e/{id}` is the event's page (the web shell).
async fn trf(State(club): State<Club>, Path(file): Path<String>, headers: HeaderMap) -> Answer {
    let Some(id) = file.strip_suffix(".trf") else {
        return Ok(crate::net::web::shell(headers).await);
    };
    let state = club.events.state(id).await?;
    let trf = state
        .trf()
        .ok_or_else(|| invalid("a TRF is written for a Swiss only"))?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], trf).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swiss() -> CreateEvent {
        serde_json::from_value(json!({
            "name": "Tuesday Swiss", "kind": "swiss", "time_control": "5+3", "rounds": 5
        }))
        .unwrap()
    }

    #[test]
    fn a_valid_swiss_is_accepted_and_bad_fields_are_named() {
        let setup = validate(swiss(), 7, 1_000_000, 60_000).unwrap();
        assert_eq!(setup.format, Format::Swiss { rounds: 5 });
        assert_eq!(setup.starts_at_ms, 1_000_000);
        let refused = |change: serde_json::Value| {
            let mut body = serde_json::to_value(json!({
                "name": "Tuesday Swiss", "kind": "swiss", "time_control": "5+3", "rounds": 5
            }))
            .unwrap();
            for (k, v) in change.as_object().unwrap() {
                body[k] = v.clone();
            }
            match validate(serde_json::from_value(body).unwrap(), 7, 1_000_000, 60_000) {
                Err(EventError::Invalid(message)) => message,
                other => panic!("{other:?}"),
            }
        };
        assert!(refused(json!({"rounds": 0})).starts_with("rounds"));
        assert!(refused(json!({"name": "  "})).starts_with("name"));
        assert!(refused(json!({"time_control": "0+0"})).starts_with("time_control"));
        assert!(refused(json!({"time_control": "five"})).contains("MINUTES+SECONDS"));
        assert!(refused(json!({"kind": "knockout"})).starts_with("kind"));
        assert!(
            refused(json!({"kind": "arena", "rounds": null, "minutes": 10})).starts_with("minutes")
        );
        assert!(refused(json!({"starts_at": 1})).starts_with("starts_at"));
        assert!(refused(json!({"password": "abc"})).starts_with("password"));
        assert!(refused(json!({"rating_min": 1800, "rating_max": 1200})).starts_with("rating"));
        assert!(refused(json!({"kind": "round_robin"})).starts_with("rounds"));
    }
}
