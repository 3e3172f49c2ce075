//! The web client's pages as a person uses them, for the browser tests: create a match in the
//! lobby, open an invite link, play a move by clicking squares, read the board and the result.
//! Everything goes through the page's visible controls and the hooks of `web/README.md`.

use std::time::Duration;

use fantoccini::Locator;
use fantoccini::key::Key;
use serde_json::{Value, json};

use crate::browser::Browser;

/// Chooses `value` in the `<select>` matching `select` by clicking its option, as a user does.
pub async fn choose(browser: &Browser, select: &str, value: &str) {
    // Options of a closed list have no layout of their own: WebDriver selects them on click.
    browser.wait_visible(select).await;
    let option = format!("{select} option[value=\"{value}\"]");
    browser
        .client
        .find(Locator::Css(&option))
        .await
        .unwrap_or_else(|err| panic!("finding {option}: {err}"))
        .click()
        .await
        .unwrap_or_else(|err| panic!("choosing {option}: {err}"));
    let chosen = browser
        .js(
            "return document.querySelector(arguments[0]).value;",
            vec![json!(select)],
        )
        .await;
    assert_eq!(chosen, json!(value), "{select} did not take {value}");
}

/// Sets the player's name on the lobby (`input#name`, kept by the page).
pub async fn set_name(browser: &Browser, name: &str) {
    browser.goto("/").await;
    // The page keeps the name when the field changes: Tab leaves the field.
    browser
        .type_into("input#name", &format!("{name}{}", char::from(Key::Tab)))
        .await;
    browser
        .wait_until(
            "the name to be kept",
            "return localStorage.length > 0
                 && Object.values(localStorage).some(v => v.includes(arguments[0]));",
            vec![json!(name)],
        )
        .await;
}

/// A match created in the lobby: its id and invite link.
#[derive(Debug, Clone)]
pub struct Created {
    pub match_id: String,
    pub invite: String,
}

/// Creates a match from the lobby form with time control `time` (`15+10`, `none`, …) and
/// `color`, and waits for the match page with the invite link.
pub async fn create_match(browser: &Browser, time: &str, color: &str) -> Created {
    browser.goto("/").await;
    browser.wait_visible("form#create").await;
    // Not waiting for "online": a request made while the page connects is sent once it is.
    choose(browser, "form#create select[name=time]", time).await;
    choose(browser, "form#create select[name=color]", color).await;
    browser.click("form#create [type=submit]").await;
    create_submitted(browser).await
}

/// After the create form was submitted: waits for the match page and its invite link.
pub async fn create_submitted(browser: &Browser) -> Created {
    let path = browser
        .wait_until(
            "the match page after creating",
            "return location.pathname.startsWith('/m/') ? location.pathname : null;",
            vec![],
        )
        .await;
    let match_id = path
        .as_str()
        .and_then(|p| p.strip_prefix("/m/"))
        .expect("a match path")
        .to_owned();
    let invite = browser
        .wait_until(
            "the invite link",
            "const e = document.querySelector('#invite-link');
             if (e === null) return null;
             const link = e.href || e.value || e.textContent.trim();
             return link.includes('/i/') ? link : null;",
            vec![],
        )
        .await;
    Created {
        match_id,
        invite: invite.as_str().expect("a link").to_owned(),
    }
}

/// Opens an invite link as the invited friend does: the page asks for a name (filled in with
/// the one this browser remembers) before it takes the seat; `name` replaces it.
pub async fn accept_invite(browser: &Browser, invite: &str, name: &str) {
    browser.goto(invite).await;
    browser
        .type_into("form#join-form input[name=name]", name)
        .await;
    browser.click("form#join-form [type=submit]").await;
}

/// The FEN the board shows (`#board[data-fen]`).
pub async fn board_fen(browser: &Browser) -> Option<String> {
    browser.attr("#board", "data-fen").await
}

/// Waits until the board shows `fen`.
pub async fn wait_fen(browser: &Browser, who: &str, fen: &str) {
    browser
        .wait_until(
            &format!("{who}'s board to show {fen}"),
            "const b = document.querySelector('#board');
             return b !== null && b.getAttribute('data-fen') === arguments[0];",
            vec![json!(fen)],
        )
        .await;
}

/// Waits until the page is connected (`body[data-conn=online]`) and shows a board.
pub async fn wait_match_page(browser: &Browser, who: &str) {
    browser
        .wait_until(
            &format!("{who}'s match page online with a board"),
            "const b = document.querySelector('#board');
             return document.body.dataset.conn === 'online' && b !== null
                 && (b.getAttribute('data-fen') || '') !== '';",
            vec![],
        )
        .await;
}

/// The squares marked as legal destinations (`.dest`), sorted.
pub async fn dest_squares(browser: &Browser) -> Vec<u8> {
    let mut squares: Vec<u8> = browser
        .attrs("#board [data-square].dest", "data-square")
        .await
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect();
    squares.sort_unstable();
    squares
}

/// Full-route notation of a capture route (`9x18x16`), or `32-28` for a step.
pub fn route_notation(route: &[u8], capture: bool) -> String {
    let sep = if capture { "x" } else { "-" };
    route
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(sep)
}

/// How to settle a capture whose origin and destination leave several routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ambiguity {
    /// Not ambiguous: origin and destination say it all.
    None,
    /// Pick the route from the chooser (`[data-route]`).
    Chooser,
    /// Click every landing square of the route in turn.
    ClickThrough,
}

/// Plays `route` by clicking squares: the origin, then the destination (or every landing
/// square), then the route in the chooser when it is ambiguous.
pub async fn play_by_clicks(browser: &Browser, route: &[u8], capture: bool, how: Ambiguity) {
    let square = |n: u8| format!("#board [data-square=\"{n}\"]");
    browser.click(&square(route[0])).await;
    browser
        .wait_until(
            &format!("square {} selected with destinations", route[0]),
            "return document.querySelector(arguments[0] + '.selected') !== null
                 && document.querySelector('#board .dest') !== null;",
            vec![json!(square(route[0]))],
        )
        .await;
    match how {
        Ambiguity::ClickThrough => {
            for &landing in &route[1..] {
                browser.click(&square(landing)).await;
            }
        }
        Ambiguity::None | Ambiguity::Chooser => {
            browser
                .click(&square(*route.last().expect("a route")))
                .await;
        }
    }
    if how == Ambiguity::Chooser {
        let full = route_notation(route, capture);
        browser.click(&format!("[data-route=\"{full}\"]")).await;
    }
}

/// The result banner: `(data-result, text)` once it is shown.
pub async fn wait_result(browser: &Browser, who: &str, patience: Duration) -> (String, String) {
    let value = browser
        .wait_for_value(
            &format!("{who}'s result banner"),
            "const r = document.querySelector('#result');
             if (r === null || r.hidden || r.getClientRects().length === 0) return null;
             const result = r.getAttribute('data-result');
             return result ? [result, r.innerText.trim()] : null;",
            vec![],
            patience,
        )
        .await;
    let pair = |i: usize| {
        value
            .get(i)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    (pair(0), pair(1))
}

/// Waits until `[data-presence=side]` has `data-state` `state`.
pub async fn wait_presence(browser: &Browser, who: &str, side: &str, state: &str) {
    browser
        .wait_until(
            &format!("{who} to see {side} {state}"),
            "const e = document.querySelector('[data-presence=\"' + arguments[0] + '\"]');
             return e !== null && e.getAttribute('data-state') === arguments[1];",
            vec![json!(side), json!(state)],
        )
        .await;
}
