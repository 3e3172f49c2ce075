//! Issue 33 in the browser: `/events` lists a club event, and `/e/{id}` follows it live
//! (players joining over HTTP appear without a reload), lets the member join, counts down to
//! the start, sends the member to their board when the director seats them, and shows each
//! round's pairings with a link to watch every game and the standings.

use boardcast_tests::members::{create_member, login_cookie};

use super::accounts::{post_json, screenshots};
use super::*;

const PASSWORD: &str = "violet harbour lantern 93";

/// `POST path` with `body` as a same-origin page of member `cookie`: the status and body.
fn post_as(addr: std::net::SocketAddr, cookie: &str, path: &str, body: &str) -> (u16, String) {
    let cookie = format!("Cookie: {cookie}\r\n");
    let (status, _, body) =
        boardcast_tests::members::same_origin_request(addr, "POST", path, body, &cookie);
    (status, body)
}

#[tokio::test]
async fn an_event_page_follows_the_event_live_and_sends_the_member_to_their_board() {
    let test = "an_event_page_follows_the_event_live_and_sends_the_member_to_their_board";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let addr = server.addr();
    create_member(&server_bin(), &server.db(), "Organiser", PASSWORD, true);
    for name in ["Sietske", "Anne", "Wytze", "Jelle"] {
        let body = json!({ "name": name, "password": PASSWORD }).to_string();
        assert_eq!(post_json(addr, "/api/signup", &body).0, 201, "{name}");
    }
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 25_000;
    let (status, body) = post_as(
        addr,
        &organiser,
        "/api/events",
        &json!({"name": "Club championship", "kind": "round_robin", "time_control": "10+5",
                "rated": true, "starts_at": starts_at})
        .to_string(),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();

    let browser = driver.browser(addr, 1280, 900).await;
    browser.goto("/login?next=%2Fevents").await;
    browser.type_into("#login-name", "Sietske").await;
    browser.type_into("#login-password", PASSWORD).await;
    browser.click("form#login-form [type=submit]").await;
    let listed = format!("[data-events=waiting] [data-event='{id}'] a");
    browser.wait_visible(&listed).await;
    assert_eq!(
        browser.attr("body", "data-page").await.as_deref(),
        Some("events")
    );
    assert!(
        browser
            .text(&format!("[data-event='{id}']"))
            .await
            .contains("Round-robin · 10+5 · rated"),
    );
    screenshots(&browser, "events").await;

    browser.click(&listed).await;
    browser.wait_visible("#event-join").await;
    assert_eq!(browser.text("h1").await, "Club championship");
    // Anne joins from elsewhere: the page shows her without a reload.
    let anne = login_cookie(addr, "Anne", PASSWORD);
    assert_eq!(
        post_as(addr, &anne, &format!("/api/events/{id}/join"), "").0,
        200
    );
    let says = |players: &str| {
        format!("return document.querySelector('#event-meta').textContent.includes('{players}');")
    };
    browser
        .wait_until("Anne on the page", &says("1 player"), vec![])
        .await;
    browser.click("#event-join").await;
    browser.wait_visible("#event-withdraw").await;
    browser
        .wait_until("Sietske in", &says("2 players"), vec![])
        .await;
    for name in ["Wytze", "Jelle"] {
        let cookie = login_cookie(addr, name, PASSWORD);
        assert_eq!(
            post_as(addr, &cookie, &format!("/api/events/{id}/join"), "").0,
            200
        );
    }
    browser
        .wait_until("all four in", &says("4 players"), vec![])
        .await;
    assert!(
        browser
            .text("#event-clock")
            .await
            .starts_with("Starts in 0:")
    );
    screenshots(&browser, "event-waiting").await;

    // The start: the director pairs round 1 and seats Sietske; the page sends her there.
    browser
        .wait_for_value(
            "the member sent to her board",
            "return location.pathname.startsWith('/m/');",
            vec![],
            Duration::from_secs(60),
        )
        .await;
    let board = browser.url().await;
    wait_match_page(&browser, "Sietske").await;

    browser.goto(&format!("/e/{id}")).await;
    browser.wait_visible("#event-rounds [data-watch]").await;
    let watch = browser.attrs("#event-rounds [data-watch]", "href").await;
    assert_eq!(
        watch.len(),
        2,
        "round 1's two games, each to watch: {watch:?}"
    );
    assert!(
        watch.iter().any(|href| board.ends_with(href.as_str())),
        "{board} among {watch:?}"
    );
    // The member's own game is drawn from the same answer as the rounds, but a browser may
    // report a paragraph's text only once it is shown (Firefox does).
    browser.wait_visible("#event-own-game").await;
    assert!(
        browser
            .text("#event-own-game")
            .await
            .contains("Your game against")
    );
    let standings = browser
        .attrs("#event-standings tbody tr", "data-standing")
        .await;
    assert_eq!(standings.len(), 4, "{standings:?}");
    assert_eq!(browser.text("#event-rounds h3").await, "Round 1");
    screenshots(&browser, "event-round").await;
    browser.close().await;
}

/// Berserk in an arena game (issue 33): the member sent to their board from the event page
/// is offered "Berserk" before their first move (the button's module loads for an arena
/// game only); pressing it halves their 3 minutes to 1:30 and the page says they went
/// berserk, and the button goes.
#[tokio::test]
async fn an_arena_player_goes_berserk_from_the_board_and_the_clock_is_halved() {
    let test = "an_arena_player_goes_berserk_from_the_board_and_the_clock_is_halved";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    // An arena lasts 20 minutes at least; a 3 s minute makes it one of a minute.
    let server = server(&["--arena-minute", "3s"]);
    let addr = server.addr();
    create_member(&server_bin(), &server.db(), "Organiser", PASSWORD, true);
    for name in ["Sietske", "Anne"] {
        let body = json!({ "name": name, "password": PASSWORD }).to_string();
        assert_eq!(post_json(addr, "/api/signup", &body).0, 201, "{name}");
    }
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 15_000;
    let (status, body) = post_as(
        addr,
        &organiser,
        "/api/events",
        &json!({"name": "Blitz arena", "kind": "arena", "time_control": "3+2",
                "minutes": 20, "starts_at": starts_at})
        .to_string(),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let anne = login_cookie(addr, "Anne", PASSWORD);
    assert_eq!(
        post_as(addr, &anne, &format!("/api/events/{id}/join"), "").0,
        200
    );

    let browser = driver.browser(addr, 1280, 900).await;
    browser.goto(&format!("/login?next=%2Fe%2F{id}")).await;
    browser.type_into("#login-name", "Sietske").await;
    browser.type_into("#login-password", PASSWORD).await;
    browser.click("form#login-form [type=submit]").await;
    browser.wait_visible("#event-join").await;
    browser.click("#event-join").await;
    browser.wait_visible("#event-withdraw").await;
    browser
        .wait_for_value(
            "the member sent to her board",
            "return location.pathname.startsWith('/m/');",
            vec![],
            Duration::from_secs(60),
        )
        .await;
    wait_match_page(&browser, "Sietske").await;
    browser.wait_visible("#berserk").await;
    assert_eq!(browser.text("#berserk").await, "Berserk");
    browser.click("#berserk").await;
    browser
        .wait_until(
            "her clock halved to 1:30",
            "return [...document.querySelectorAll('[data-clock]')].some((c) => c.textContent.trim() === '1:30');",
            vec![],
        )
        .await;
    browser.wait_visible("#berserked").await;
    assert_eq!(browser.text("#berserked").await, "Sietske went berserk");
    assert!(
        browser
            .js("return document.getElementById('berserk').hidden;", vec![])
            .await
            .as_bool()
            .unwrap(),
        "berserk once"
    );
    let clocks = browser
        .js(
            "return [...document.querySelectorAll('[data-clock]')].map((c) => c.textContent.trim());",
            vec![],
        )
        .await;
    assert!(
        clocks.as_array().unwrap().iter().any(|c| c == "3:00"),
        "the opponent keeps 3:00: {clocks}"
    );
    screenshots(&browser, "arena-berserk").await;
    browser.close().await;
}
