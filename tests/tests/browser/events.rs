//! Issue 33 in the browser: `/events` lists a club event, and `/e/{id}` follows it live
//! over the page's WebSocket (players joining over HTTP and a game's result appear without a
//! reload, and the page never asks for the event), lets the member join, counts down to the
//! start, sends the member to their board when the director seats them, and shows each
//! round's pairings with a link to watch every game and the standings. An organiser creates
//! an event from the form on `/events`; a member without the right has no form.

use boardcast_protocol::{Reclaim, SeatAction};
use boardcast_tests::client::ConnectOptions;
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
    // Sietske's own game stays open while she is back on the event page (no first-move
    // forfeit), so round 2 is not paired, and she is not sent on, while the page is watched.
    let server = server(&["--first-move-timeout", "10m"]);
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
        + 30_000;
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
    // She withdraws and changes her mind before the start: the page offers the join again,
    // and the round-robin takes her back.
    browser.click("#event-withdraw").await;
    browser
        .wait_until(
            "the join offered again",
            "const join = document.querySelector('#event-join'); \
             return !join.hidden && join.textContent === 'Join again';",
            vec![],
        )
        .await;
    browser.click("#event-join").await;
    browser.wait_visible("#event-withdraw").await;
    browser
        .wait_until("Sietske in again", &says("2 players"), vec![])
        .await;
    let mut cookies = std::collections::HashMap::from([("Anne", anne.clone())]);
    for name in ["Wytze", "Jelle"] {
        let cookie = login_cookie(addr, name, PASSWORD);
        assert_eq!(
            post_as(addr, &cookie, &format!("/api/events/{id}/join"), "").0,
            200
        );
        cookies.insert(name, cookie);
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

    // The other game of round 1 ends, played over the protocol: the standings on the page
    // change without a reload.
    let (_, shown) = http_get(addr, &format!("/api/events/{id}")).unwrap();
    let shown: serde_json::Value = serde_json::from_str(&shown).unwrap();
    let other = shown["rounds"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["white"] != "Sietske" && g["black"] != "Sietske")
        .unwrap();
    let (white, black) = (
        other["white"].as_str().unwrap(),
        other["black"].as_str().unwrap(),
    );
    let match_id = other["match_id"].as_str().unwrap();
    let (mut white_client, white_seat) = at_board(addr, &cookies[white], match_id).await;
    let (mut black_client, black_seat) = at_board(addr, &cookies[black], match_id).await;
    white_client
        .call(ClientMessage::Move(boardcast_protocol::PlayMove {
            match_id: white_seat.match_id.clone(),
            token: white_seat.token.clone(),
            route: vec![32, 28],
            lag_ms: None,
        }))
        .await
        .unwrap();
    black_client
        .call(ClientMessage::Resign(black_seat))
        .await
        .unwrap();
    browser
        .wait_until(
            "the result beside the game, pushed",
            "return document.querySelector('#event-rounds').textContent.includes('1-0');",
            vec![],
        )
        .await;
    // Nothing on this page asked for the event: every change came pushed over its socket.
    let asked = "return performance.getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname.startsWith('/api/events/' + arguments[0])
            && !e.name.endsWith('/join') && !e.name.endsWith('/withdraw')).length;";
    assert_eq!(
        browser.js(asked, vec![json!(id)]).await,
        json!(0),
        "the event page asked for the event"
    );

    // A guest spectator's page: the round's last game ends (Sietske's opponent resigns), and
    // the standings change there without a reload (standings count whole rounds).
    let spectator = driver.browser(addr, 1280, 900).await;
    spectator.goto(&format!("/e/{id}")).await;
    spectator.wait_visible("#event-standings tbody tr").await;
    let hers = shown["rounds"][0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["white"] == "Sietske" || g["black"] == "Sietske")
        .unwrap();
    let opponent = if hers["white"] == "Sietske" {
        hers["black"].as_str().unwrap()
    } else {
        hers["white"].as_str().unwrap()
    };
    let (mut opponent_client, opponent_seat) =
        at_board(addr, &cookies[opponent], hers["match_id"].as_str().unwrap()).await;
    opponent_client
        .call(ClientMessage::Resign(opponent_seat))
        .await
        .unwrap();
    spectator
        .wait_until(
            "both winners' points on the spectator's page",
            "const points = (name) => {
                 const row = document.querySelector('#event-standings tr[data-standing=\"' + name + '\"]');
                 return row === null ? null : row.children[3].textContent.trim();
             };
             return points(arguments[0]) === '1' && points('Sietske') === '1';",
            vec![json!(white)],
        )
        .await;
    assert_eq!(
        spectator.js(asked, vec![json!(id)]).await,
        json!(0),
        "the spectator's page asked for the event"
    );
    spectator.close().await;
    opponent_client.close().await;
    white_client.close().await;
    black_client.close().await;
    browser.close().await;
}

/// A member at their board over the protocol: connected with their cookie, the seat their
/// account holds taken back.
async fn at_board(
    addr: std::net::SocketAddr,
    cookie: &str,
    match_id: &str,
) -> (Client, SeatAction) {
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.to_owned());
    let mut client = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    let id = client
        .send(ClientMessage::Reclaim(Reclaim {
            match_id: match_id.to_owned(),
            since_v: None,
        }))
        .await
        .unwrap();
    let seat = client
        .wait_for("seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap();
    let action = SeatAction {
        match_id: seat.match_id,
        token: seat.token,
    };
    (client, action)
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
    // Her own row shows her at the board (it showed "gone" beside "(you)": the event game
    // recorded no presence); Anne, who never came, is gone.
    let (_, shown) = http_get(addr, &format!("/api/events/{id}")).unwrap();
    let shown: serde_json::Value = serde_json::from_str(&shown).unwrap();
    let (mine, hers) = if shown["rounds"][0]["games"][0]["white"] == "Sietske" {
        ("white", "black")
    } else {
        ("black", "white")
    };
    wait_presence(&browser, "Sietske", mine, "connected").await;
    wait_presence(&browser, "Sietske", hers, "gone").await;
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

/// The form that creates an event (issue 33): an organiser (a member a club admin granted the
/// right) finds it on `/events`, each field checked in the page's language (English, then
/// Dutch), and the arena created from it appears in the list. A member without the right
/// gets no form, and the server refuses the same request from their page.
#[tokio::test]
async fn an_organiser_creates_an_arena_from_the_form_and_a_member_without_the_right_has_none() {
    let test =
        "an_organiser_creates_an_arena_from_the_form_and_a_member_without_the_right_has_none";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let addr = server.addr();
    for name in ["Organiser", "Sietske"] {
        create_member(&server_bin(), &server.db(), name, PASSWORD, false);
    }
    let granted = std::process::Command::new(server_bin())
        .args([
            "--db",
            server.db().to_str().unwrap(),
            "admin",
            "grant-organiser",
            "Organiser",
        ])
        .output()
        .unwrap();
    assert!(granted.status.success(), "{granted:?}");

    // A member without the right: no form, and the request refused from her page.
    let member = driver.browser(addr, 1280, 900).await;
    member.goto("/login?next=%2Fevents").await;
    member.type_into("#login-name", "Sietske").await;
    member.type_into("#login-password", PASSWORD).await;
    member.click("form#login-form [type=submit]").await;
    member.wait_visible("[data-empty=waiting]").await;
    assert_eq!(
        member.js("return document.getElementById('event-form') === null && document.getElementById('event-create').hidden;", vec![]).await,
        json!(true),
        "no form for a member without the right"
    );
    let refused = member
        .js(
            "return fetch('/api/events', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                 credentials: 'same-origin', referrerPolicy: 'same-origin',
                 body: JSON.stringify({ name: 'Mine', kind: 'arena', time_control: '3+2', minutes: 30 }) })
               .then((r) => r.json().then((b) => [r.status, b.error.code]));",
            vec![],
        )
        .await;
    assert_eq!(refused, json!([403, "not_organiser"]));
    member.close().await;

    let browser = driver.browser(addr, 1280, 900).await;
    browser.goto("/login?next=%2Fevents").await;
    browser.type_into("#login-name", "Organiser").await;
    browser.type_into("#login-password", PASSWORD).await;
    browser.click("form#login-form [type=submit]").await;
    browser.wait_visible("#event-form").await;
    browser.type_into("#event-form-name", "Dinsdagarena").await;
    browser.type_into("#event-form-minutes", "3").await;
    browser.type_into("#event-form-increment", "2").await;
    browser.type_into("#event-form-length", "10").await;
    browser.click("#event-form [type=submit]").await;
    browser.wait_visible("#event-form-length-error").await;
    assert_eq!(
        browser.text("#event-form-length-error").await,
        "An arena lasts 20 to 180 minutes."
    );
    assert_eq!(
        browser
            .attr("#event-form-length", "aria-invalid")
            .await
            .as_deref(),
        Some(""),
        "the field is marked"
    );
    screenshots(&browser, "event-form").await;

    // In Dutch: the page is built again in the language chosen, and so is its error.
    browser
        .js(
            "const menu = document.getElementById('lang');
             menu.value = 'nl';
             menu.dispatchEvent(new Event('change'));",
            vec![],
        )
        .await;
    browser
        .wait_until(
            "the form in Dutch",
            "const b = document.querySelector('#event-form [type=submit]');
             return b !== null && b.textContent === 'Toernooi aanmaken';",
            vec![],
        )
        .await;
    browser.type_into("#event-form-name", "Dinsdagarena").await;
    browser.type_into("#event-form-minutes", "3").await;
    browser.type_into("#event-form-increment", "2").await;
    browser.type_into("#event-form-length", "200").await;
    browser.type_into("#event-form-password", "abc").await;
    browser.click("#event-form [type=submit]").await;
    browser.wait_visible("#event-form-length-error").await;
    assert_eq!(
        browser.text("#event-form-length-error").await,
        "Een arena duurt 20 tot 180 minuten."
    );
    assert_eq!(
        browser.text("#event-form-password-error").await,
        "Een wachtwoord heeft 4 tot 64 tekens."
    );
    screenshots(&browser, "event-form-nl").await;

    // Right, and sent: the server makes the arena, and the list shows it.
    browser.type_into("#event-form-length", "30").await;
    browser.type_into("#event-form-password", "").await;
    browser.click("#event-form [type=submit]").await;
    browser
        .wait_until(
            "the new arena in the list",
            "return [...document.querySelectorAll('[data-event] a')].some((a) => a.textContent === 'Dinsdagarena');",
            vec![],
        )
        .await;
    assert_eq!(
        browser.text("#event-form-created").await,
        "Het toernooi is aangemaakt."
    );
    let (_, listed) = http_get(addr, "/api/events").unwrap();
    let listed: serde_json::Value = serde_json::from_str(&listed).unwrap();
    let arena = &listed["events"][0];
    assert_eq!(arena["name"], "Dinsdagarena");
    assert_eq!(arena["kind"], "arena");
    assert_eq!(arena["minutes"], 30);
    assert_eq!(arena["time_control"], "3+2");
    assert_eq!(arena["private"], false);
    assert_eq!(listed["can_create"], false, "a guest may not");
    browser.close().await;
}

/// `/events` of a club that ran more events than a page holds: the finished ones a page at a
/// time, newest first, with "Older" and "Newer" as the profile's games have them; the waiting
/// event stays listed on every page.
#[tokio::test]
async fn the_events_page_shows_finished_events_a_page_at_a_time() {
    let test = "the_events_page_shows_finished_events_a_page_at_a_time";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let addr = server.addr();
    create_member(&server_bin(), &server.db(), "Organiser", PASSWORD, true);
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let create = |body: serde_json::Value| {
        let (status, answer) = post_as(addr, &organiser, "/api/events", &body.to_string());
        assert_eq!(status, 201, "{answer}");
        serde_json::from_str::<serde_json::Value>(&answer).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let later = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 3_600_000;
    let waiting = create(
        json!({"name": "Next week", "kind": "swiss", "time_control": "5+3",
                                "rounds": 3, "starts_at": later}),
    );
    // 22 events that start now with nobody in them: each is over at once.
    let mut finished = Vec::new();
    for i in 0..22 {
        finished.push(create(
            json!({"name": format!("Old {i}"), "kind": "swiss", "time_control": "5+3", "rounds": 3}),
        ));
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    finished.reverse();

    let browser = driver.browser(addr, 1280, 900).await;
    browser.goto("/events").await;
    // Once `what` is on screen: the finished events shown are `page`, the waiting event is
    // still listed above them, and the button with no page to turn to (`shut`) is disabled.
    let shows = async |what: &str, page: &[String], shut: &str| {
        let listed = "[data-events=finished] [data-event]";
        let count = format!(
            "return document.querySelectorAll('{listed}').length === {};",
            page.len()
        );
        browser.wait_until(what, &count, vec![]).await;
        assert_eq!(browser.attrs(listed, "data-event").await, page);
        assert_eq!(
            browser
                .attrs("[data-events=waiting] [data-event]", "data-event")
                .await,
            [waiting.as_str()]
        );
        assert_eq!(
            browser
                .attr(&format!("[data-events-page={shut}]"), "disabled")
                .await
                .as_deref(),
            Some("")
        );
    };
    shows("a full page of finished events", &finished[..20], "newer").await;
    browser.click("[data-events-page=older]").await;
    shows("the older page", &finished[20..], "older").await;
    browser.click("[data-events-page=newer]").await;
    shows("the newest page again", &finished[..20], "newer").await;
}
