//! The header leads to the club: from the lobby a member reaches `/events` and `/ladder` by
//! clicking the header's links, in English, Dutch and Frisian, and at 360 px the header's
//! pieces stay on screen without overlapping. `/events` says what it is to a member who may
//! not create events. An event's standings show the tie-breaks of its format (a round-robin's
//! Sonneborn-Berger, not the Buchholz every round-robin player shares), and on a phone one
//! compact row per player: rank, name, points, the first tie-break. The header marks the
//! link of the page the reader is on (`aria-current`, and not by its colour alone); `/events`
//! leaves no empty line under its explanation, and says in words that a list is empty; its
//! events' start dates are in the page's language (Dutch-style on a Frisian page, which
//! Chromium has no dates for). `/ladder` says nobody is on it as `/events` says an empty list
//! (the same size), with no empty line under it.

use boardcast_tests::members::{create_member, login_cookie, same_origin_request};

use super::accounts::screenshots;
use super::languages::catalogue_text;
use super::*;

const PASSWORD: &str = "violet harbour lantern 93";

/// The header's pieces (brand, page links, account corner, connection, language menu) that
/// overlap another or leave the window, as `"a / b"` pairs and `"a off screen"`.
const HEADER_CLASHES: &str = "
    const parts = [...document.querySelectorAll(
        'header.top .brand, header.top nav a, #who > *, #conn, #lang')]
        .filter((e) => e.getClientRects().length > 0)
        .map((e) => [e.id || e.textContent.trim() || e.className, e.getBoundingClientRect()]);
    const clashes = [];
    for (const [name, r] of parts) {
        if (r.left < 0 || r.right > window.innerWidth) clashes.push(name + ' off screen');
    }
    const over = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
        && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    parts.forEach(([a, ra], i) => parts.slice(i + 1).forEach(([b, rb]) => {
        if (over(ra, rb)) clashes.push(a + ' / ' + b);
    }));
    return clashes;";

/// The header's links marked as the page the reader is on (`aria-current="page"`), each with
/// whether it looks unlike an unmarked link in more than its colour (its weight, its
/// underline): a mark that colour-blind readers see too.
const CURRENT_LINKS: &str = "
    const links = [...document.querySelectorAll('header.top nav a')];
    const look = (a) => {
        const s = getComputedStyle(a);
        return [s.fontWeight, s.textDecorationLine, s.textDecorationThickness].join(' ');
    };
    const other = links.find((a) => !a.hasAttribute('aria-current'));
    return links.filter((a) => a.getAttribute('aria-current') === 'page')
        .map((a) => [a.getAttribute('href'), look(a) !== look(other)]);";

/// The height, in px, that `/events` gives below its explanation beyond the explanation's own
/// margin and its card's padding and border: the notice's line, when it has nothing to say.
const BELOW_THE_EXPLANATION: &str = "
    const about = document.getElementById('events-about');
    const card = getComputedStyle(about.parentElement);
    const gap = about.parentElement.getBoundingClientRect().bottom
        - about.getBoundingClientRect().bottom;
    return gap - parseFloat(getComputedStyle(about).marginBottom)
        - parseFloat(card.paddingBottom) - parseFloat(card.borderBottomWidth);";

/// The height, in px, that `/ladder` gives below its "nobody on the ladder" sentence beyond
/// its card's padding and border: the notice's line, when it has nothing to say.
const BELOW_THE_EMPTY_LADDER: &str = "
    const empty = document.getElementById('ladder-empty');
    const card = getComputedStyle(empty.parentElement);
    const gap = empty.parentElement.getBoundingClientRect().bottom
        - empty.getBoundingClientRect().bottom;
    return gap - parseFloat(getComputedStyle(empty).marginBottom)
        - parseFloat(card.paddingBottom) - parseFloat(card.borderBottomWidth);";

/// Milliseconds since the epoch, read as local time, as Dutch writes a date and its time to
/// the minute (`Intl` `dateStyle: 'medium', timeStyle: 'short'`): `27 nov 2026, 14:16`.
fn dutch_date_time(local_ms: i64) -> String {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec",
    ];
    let at = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(local_ms) * 1_000_000)
        .expect("a time within the calendar");
    format!(
        "{} {} {}, {:02}:{:02}",
        at.day(),
        MONTHS[usize::from(u8::from(at.month())) - 1],
        at.year(),
        at.hour(),
        at.minute()
    )
}

/// Each standings row at this width: its height in px, how many of its cells are shown, and
/// the height of one line of its text (the rank's).
const STANDING_ROWS: &str = "
    return [...document.querySelectorAll('#event-standings tbody tr')].map((tr) => {
        const line = document.createRange();
        line.selectNodeContents(tr.children[0]);
        return [
            tr.getBoundingClientRect().height,
            [...tr.children].filter((td) => getComputedStyle(td).display !== 'none').length,
            line.getBoundingClientRect().height,
        ];
    });";

#[tokio::test]
async fn the_header_leads_from_the_lobby_to_the_events_and_the_ladder_and_standings_fit_a_phone() {
    let test =
        "the_header_leads_from_the_lobby_to_the_events_and_the_ladder_and_standings_fit_a_phone";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let addr = server.addr();
    create_member(&server_bin(), &server.db(), "Organiser", PASSWORD, true);
    let members = ["Sietske", "Anne", "Wytze", "Jelle", "Hylkje"];
    for name in members {
        let body = json!({ "name": name, "password": PASSWORD }).to_string();
        let (status, _, body) = same_origin_request(addr, "POST", "/api/signup", &body, "");
        assert_eq!(status, 201, "{name}: {body}");
    }
    // Two events an hour away, each with all five in: their standings are shown already.
    let organiser = format!("Cookie: {}\r\n", login_cookie(addr, "Organiser", PASSWORD));
    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 3_600_000;
    let mut ids = Vec::new();
    for setup in [
        json!({"name": "Club round-robin", "kind": "round_robin"}),
        json!({"name": "Club Swiss", "kind": "swiss", "rounds": 3}),
    ] {
        let mut setup = setup;
        setup["time_control"] = json!("10+5");
        setup["starts_at"] = json!(starts_at);
        let (status, _, body) =
            same_origin_request(addr, "POST", "/api/events", &setup.to_string(), &organiser);
        assert_eq!(status, 201, "{body}");
        let id = serde_json::from_str::<serde_json::Value>(&body).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned();
        for name in members {
            let cookie = format!("Cookie: {}\r\n", login_cookie(addr, name, PASSWORD));
            let path = format!("/api/events/{id}/join");
            let (status, _, body) = same_origin_request(addr, "POST", &path, "", &cookie);
            assert_eq!(status, 200, "{name} joins {id}: {body}");
        }
        ids.push(id);
    }

    let browser = driver.browser(addr, 1280, 900).await;
    // A guest's header ("Log in" in the account corner) fits at 360 px too.
    browser.set_viewport(360, 740).await;
    browser.goto("/").await;
    browser.wait_visible("[data-who=login]").await;
    let clashes = browser.js(HEADER_CLASHES, vec![]).await;
    assert_eq!(clashes, json!([]), "a guest's header at 360 px");
    browser.set_viewport(1280, 900).await;
    browser.goto("/login").await;
    browser.type_into("#login-name", "Sietske").await;
    browser.type_into("#login-password", PASSWORD).await;
    browser.click("form#login-form [type=submit]").await;
    browser.wait_visible("[data-who=member]").await;
    let page = || browser.attr("body", "data-page");

    for lang in ["en", "nl", "fy"] {
        browser
            .js(
                "localStorage.setItem('bc.lang', arguments[0]);",
                vec![json!(lang)],
            )
            .await;
        browser.goto("/").await;
        browser
            .wait_until(
                "the lobby in the chosen language",
                "return document.documentElement.lang === arguments[0]
                    && document.body.dataset.page === 'lobby';",
                vec![json!(lang)],
            )
            .await;
        // The member's name in the header, as it is measured.
        browser.wait_visible("[data-who=member]").await;
        let links = browser.attrs("header.top nav a", "href").await;
        assert_eq!(links, ["/", "/tv/1", "/events", "/ladder"], "{lang}");
        let current = browser.js(CURRENT_LINKS, vec![]).await;
        assert_eq!(
            current,
            json!([["/", true]]),
            "{lang}: the lobby's link marked"
        );
        for (href, words) in [("/events", "web-nav-events"), ("/ladder", "web-nav-ladder")] {
            assert_eq!(
                browser
                    .text(&format!("header.top nav a[href='{href}']"))
                    .await,
                catalogue_text(lang, words),
                "{lang}"
            );
        }
        for width in [360, 1280] {
            browser.set_viewport(width, 740).await;
            let clashes = browser.js(HEADER_CLASHES, vec![]).await;
            assert_eq!(clashes, json!([]), "the header in {lang} at {width} px");
        }
        browser.set_viewport(1280, 900).await;

        // From the lobby to the events by the header, and on to the ladder.
        browser.click("header.top nav a[href='/events']").await;
        browser.wait_visible("#events-about").await;
        assert_eq!(page().await.as_deref(), Some("events"), "{lang}");
        assert_eq!(
            browser.text("#events-about").await,
            catalogue_text(lang, "events-about"),
            "{lang}: the page says what it is to a member who may not create events"
        );
        browser
            .wait_visible(&format!("[data-event='{}'] a", ids[0]))
            .await;
        browser.wait_visible("[data-who=member]").await;
        let current = browser.js(CURRENT_LINKS, vec![]).await;
        assert_eq!(
            current,
            json!([["/events", true]]),
            "{lang}: the events' link"
        );
        // No empty line under the explanation; an empty list says so in a sentence, in its
        // place, as the lobby's do (both events are upcoming: none running or finished).
        let below = browser.js(BELOW_THE_EXPLANATION, vec![]).await;
        assert!(below.as_f64().unwrap().abs() < 1.0, "{lang}: {below} px");
        for status in ["playing", "finished"] {
            assert_eq!(
                browser
                    .text(&format!("ul[data-events={status}] > li.empty"))
                    .await,
                catalogue_text(lang, &format!("events-none-{status}")),
                "{lang}"
            );
        }
        assert_eq!(
            browser
                .js(
                    "return document.querySelector('[data-empty=waiting]');",
                    vec![]
                )
                .await,
            json!(null),
            "{lang}: the upcoming list has its events, not the sentence"
        );
        // When the events start, in the page's language: a Frisian page writes it as the
        // Dutch do (Chromium has no Frisian dates), never in the browser's US English.
        if lang != "en" {
            let offset_min = browser
                .js(
                    "return new Date(arguments[0]).getTimezoneOffset();",
                    vec![json!(starts_at)],
                )
                .await
                .as_i64()
                .unwrap();
            let expected = dutch_date_time(starts_at as i64 - offset_min * 60_000);
            // Firefox has Frisian dates ("27 Nov 2026 16:07"), which the page then uses: the
            // same day, year and 24-hour time as the Dutch, written the Frisian way.
            let frisian_dates = lang == "fy"
                && browser
                    .js(
                        "return Intl.DateTimeFormat.supportedLocalesOf(['fy']).length > 0;",
                        vec![],
                    )
                    .await
                    == json!(true);
            let parts: Vec<&str> = expected
                .split([' ', ','])
                .filter(|p| !p.is_empty())
                .collect();
            for id in &ids {
                let shown = browser.text(&format!("[data-event='{id}'] time")).await;
                if frisian_dates {
                    let (day, year, time) = (parts[0], parts[2], parts[3]);
                    assert!(
                        shown.starts_with(&format!("{day} "))
                            && shown.contains(year)
                            && shown.ends_with(time)
                            && !shown.contains("AM")
                            && !shown.contains("PM"),
                        "{lang}: {shown:?} against the Dutch {expected:?}"
                    );
                } else {
                    assert_eq!(shown, expected, "{lang}");
                }
            }
        }
        let empty_font = browser
            .js(
                "return getComputedStyle(document.querySelector('li.empty')).fontSize;",
                vec![],
            )
            .await;
        screenshots(&browser, &format!("events-nav-{lang}")).await;

        browser.click("header.top nav a[href='/ladder']").await;
        browser.wait_visible("#ladder-empty").await;
        browser.wait_visible("[data-who=member]").await;
        assert_eq!(page().await.as_deref(), Some("ladder"), "{lang}");
        let current = browser.js(CURRENT_LINKS, vec![]).await;
        assert_eq!(
            current,
            json!([["/ladder", true]]),
            "{lang}: the ladder's link"
        );
        // Nobody on the ladder is said as /events says an empty list (the same size), and no
        // empty line is left under it.
        let font = browser
            .js(
                "return getComputedStyle(document.getElementById('ladder-empty')).fontSize;",
                vec![],
            )
            .await;
        assert_eq!(font, empty_font, "{lang}: as /events' empty lists");
        // Read until the page has settled (Firefox once measured it mid-layout).
        browser
            .wait_until(
                &format!("{lang}: no empty line under the empty ladder"),
                &format!("return Math.abs((function () {{ {BELOW_THE_EMPTY_LADDER} }})()) < 1;"),
                vec![],
            )
            .await;
        screenshots(&browser, &format!("ladder-nav-{lang}")).await;
    }

    // A round-robin shows Sonneborn-Berger as its tie-break, a Swiss its Buchholz first.
    let heads = |kind: &'static str| {
        let mut shown = vec!["#", "Player", "Rating", "Points"];
        shown.extend(match kind {
            "round_robin" => vec!["Sonneborn-Berger"],
            _ => vec!["Buchholz", "Buchholz cut-1", "Sonneborn-Berger"],
        });
        shown
    };
    browser
        .js("localStorage.setItem('bc.lang', 'en');", vec![])
        .await;
    for (id, kind, shot) in [
        (&ids[0], "round_robin", "event-standings-round-robin"),
        (&ids[1], "swiss", "event-standings-swiss"),
    ] {
        browser.goto("/events").await;
        browser.click(&format!("[data-event='{id}'] a")).await;
        browser.wait_visible("#event-standings tbody tr").await;
        browser.wait_visible("[data-who=member]").await;
        assert_eq!(
            browser.attrs("#event-standings th", "data-col").await,
            heads(kind),
            "{kind}"
        );
        let rows = browser.js(STANDING_ROWS, vec![]).await;
        let rows = rows.as_array().unwrap();
        assert_eq!(rows.len(), members.len(), "{kind}");
        assert!(
            rows.iter().all(|r| r[1] == json!(heads(kind).len())),
            "{kind} at 1280 px: every column shown: {rows:?}"
        );
        screenshots(&browser, shot).await;
        // On a phone: rank, name, points and the first tie-break, in one line per player.
        browser.set_viewport(360, 740).await;
        let rows = browser.js(STANDING_ROWS, vec![]).await;
        for row in rows.as_array().unwrap() {
            assert_eq!(row[1], json!(4), "{kind} at 360 px: {rows:?}");
            let (height, line) = (row[0].as_f64().unwrap(), row[2].as_f64().unwrap());
            assert!(
                line > 0.0 && height < 2.0 * line,
                "{kind} at 360 px: a row of one line: {rows:?}"
            );
        }
        browser.set_viewport(1280, 900).await;
    }
    browser.close().await;
}
