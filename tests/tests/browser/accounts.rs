//! Issue 30 in the browser: sign up, log out, log in on another browser and get the seat
//! back; a member and a guest play a whole reference game, and the member's profile lists it
//! with its PDN; the session cookie's flags.

use super::*;

/// A password the server's strength estimator takes (four unrelated words and a number).
const PASSWORD: &str = "violet harbour lantern 93";

/// Signs up `name` on the sign-up page and waits until the page, reloaded as the new
/// account, names it in the header.
pub(super) async fn sign_up(browser: &Browser, name: &str, shots: Option<&str>) {
    browser.goto("/signup").await;
    browser.wait_visible("form#signup-form").await;
    browser.type_into("#signup-name", name).await;
    browser.type_into("#signup-password", PASSWORD).await;
    browser.type_into("#signup-confirm", PASSWORD).await;
    if let Some(prefix) = shots {
        screenshots(browser, &format!("{prefix}-signup")).await;
    }
    browser.click("form#signup-form [type=submit]").await;
    wait_member(browser, name).await;
}

/// Waits until the header's menu names `name` (the page is the account's).
async fn wait_member(browser: &Browser, name: &str) {
    browser
        .wait_until(
            &format!("the header to name {name}"),
            "const s = document.querySelector('#who [data-who=member]');
             return s !== null && s.textContent.trim() === arguments[0];",
            vec![json!(name)],
        )
        .await;
}

/// Logs in on the login page (reached through `next`, the page to come back to).
async fn log_in(browser: &Browser, name: &str, next: &str) {
    browser
        .goto(&format!("/login?next={}", next.replace('/', "%2F")))
        .await;
    browser.type_into("#login-name", name).await;
    browser.type_into("#login-password", PASSWORD).await;
    browser.click("form#login-form [type=submit]").await;
    wait_member(browser, name).await;
}

/// A desktop and a 360 px screenshot of the page as it is.
pub(super) async fn screenshots(browser: &Browser, name: &str) {
    browser
        .screenshot(&screenshot_dir().join(format!("{name}.png")))
        .await;
    browser.set_viewport(360, 740).await;
    browser
        .screenshot(&screenshot_dir().join(format!("{name}-360.png")))
        .await;
    let overflow = browser
        .js(
            "return document.documentElement.scrollWidth <= window.innerWidth;",
            vec![],
        )
        .await;
    assert_eq!(overflow, json!(true), "{name} scrolls sideways at 360 px");
    browser.set_viewport(1280, 900).await;
}

/// `POST path` with a JSON body, as a same-origin page would send it: status, head, body.
pub(super) fn post_json(
    addr: std::net::SocketAddr,
    path: &str,
    body: &str,
) -> (u16, String, String) {
    boardcast_tests::members::same_origin_request(addr, "POST", path, body, "")
}

/// Sign up, log out, log in on a second browser and get the seat back in a running match:
/// the second browser never held the seat token. Names: the member links to a profile, the
/// guest is marked. The session cookie is HttpOnly, SameSite=Lax, Path=/.
#[tokio::test]
async fn a_member_logs_in_on_a_second_browser_and_gets_the_seat_back() {
    let test = "a_member_logs_in_on_a_second_browser_and_gets_the_seat_back";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let anne = driver.browser(server.addr(), 1280, 900).await;
    let guest = driver.browser(server.addr(), 1280, 900).await;
    sign_up(&anne, "Anne", Some("accounts")).await;

    // What the browser keeps of the session: a cookie scripts cannot read, sent to this
    // site's own pages only.
    let cookies = anne.client.get_all_cookies().await.expect("the cookies");
    assert_eq!(cookies.len(), 1, "one session cookie: {cookies:?}");
    let session = &cookies[0];
    assert_eq!(session.http_only(), Some(true), "{session:?}");
    assert_eq!(
        session.same_site().map(|s| s.to_string()).as_deref(),
        Some("Lax"),
        "{session:?}"
    );
    assert_eq!(session.path(), Some("/"), "{session:?}");
    assert_eq!(
        anne.js("return document.cookie;", vec![]).await,
        json!(""),
        "scripts never see the session"
    );

    let created = create_match(&anne, "15+10", "white").await;
    accept_invite(&guest, &created.invite, "Wytze").await;
    wait_match_page(&guest, "the guest").await;
    wait_presence(&anne, "Anne", "black", "connected").await;
    // Across the board: the member is linked to her profile, the guest is marked.
    guest
        .wait_for("[data-presence=white] .name a[href=\"/@/Anne\"]")
        .await;
    let marked = "const g = document.querySelector('[data-presence=' + arguments[0] + '] .guest');
                  return g !== null && !g.hidden;";
    assert_eq!(guest.js(marked, vec![json!("black")]).await, json!(true));
    assert_eq!(guest.js(marked, vec![json!("white")]).await, json!(false));
    anne.wait_until(
        "the guest marked on Anne's page",
        marked,
        vec![json!("black")],
    )
    .await;
    play_opening(&anne, &guest, game, 2).await;
    anne.screenshot(&screenshot_dir().join("accounts-match-member.png"))
        .await;

    // Anne logs out from the header's menu; the page is a guest's again.
    anne.click("#account-menu summary").await;
    anne.click("#account-menu [data-account=logout]").await;
    anne.wait_for("#who:not(.pending) [data-who=login]").await;
    assert!(
        anne.client
            .get_all_cookies()
            .await
            .expect("the cookies")
            .iter()
            .all(|c| c.value().is_empty()),
        "no session left after logging out"
    );
    anne.close().await;

    // A second browser that never held the seat's token: Anne logs in and opens the match.
    let second = driver.browser(server.addr(), 1280, 900).await;
    let path = format!("/m/{}", created.match_id);
    log_in(&second, "Anne", &path).await;
    assert!(second.url().await.ends_with(&path), "back at the match");
    second
        .wait_until(
            "the seat back: the move box of white's player",
            "const f = document.querySelector('#move-form');
             return f !== null && !f.hidden && !f.closest('[hidden]')
                 && document.querySelector('#board').getAttribute('data-orientation') === 'white';",
            vec![],
        )
        .await;
    wait_fen(&second, "Anne's second browser", &game.fens[1]).await;
    let third = &plies(game)[2];
    play_by_clicks(&second, &third.route, third.capture, third.how).await;
    wait_fen(&guest, "the guest", &game.fens[2]).await;
    second.close().await;
    guest.close().await;

    // The login answer itself sets the cookie with those flags.
    let body = json!({ "name": "Anne", "password": PASSWORD }).to_string();
    let (status, head, _) = post_json(server.addr(), "/api/login", &body);
    assert_eq!(status, 200, "{head}");
    let set_cookie = head
        .lines()
        .find(|l| l.to_ascii_lowercase().starts_with("set-cookie:"))
        .expect("a Set-Cookie header")
        .to_ascii_lowercase();
    for flag in ["httponly", "samesite=lax", "path=/"] {
        assert!(set_cookie.contains(flag), "{flag} in {set_cookie}");
    }
}

/// A guest and a member play a whole reference game; the member's profile lists it (the
/// guest as a guest, the result, links to the game and its PDN), and `games.pdn` holds it
/// exactly as the game's own PDN.
#[tokio::test]
async fn a_member_and_a_guest_play_a_whole_game_and_the_profile_lists_it() {
    let test = "a_member_and_a_guest_play_a_whole_game_and_the_profile_lists_it";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = reference_games()
        .iter()
        .min_by_key(|game| game.moves.len())
        .expect("a reference game");
    let member = driver.browser(server.addr(), 1280, 900).await;
    let guest = driver.browser(server.addr(), 1280, 900).await;
    sign_up(&member, "Sietske", None).await;
    let created = create_match(&member, "15+10", "white").await;
    accept_invite(&guest, &created.invite, "Wytze").await;
    wait_match_page(&guest, "the guest").await;
    wait_presence(&member, "the member", "black", "connected").await;
    play_opening(&member, &guest, game, game.moves.len()).await;
    let (result, _) = wait_result(&member, "the member", Duration::from_secs(30)).await;
    let expected = match game.winner {
        Some(Side::White) => "white",
        Some(Side::Black) => "black",
        None => "draw",
    };
    assert_eq!(result, expected);

    member.goto("/@/Sietske").await;
    let row = format!("#games [data-game=\"{}\"]", created.match_id);
    member.wait_visible(&row).await;
    let cells = member
        .js(
            "return Array.from(document.querySelectorAll(arguments[0] + ' td'), td => td.innerText.trim());",
            vec![json!(row)],
        )
        .await;
    let cells: Vec<&str> = cells
        .as_array()
        .expect("cells")
        .iter()
        .filter_map(|c| c.as_str())
        .collect();
    assert_eq!(cells[1], "Wytze (guest)", "{cells:?}");
    assert_eq!(cells[2], "white", "{cells:?}");
    let outcome = match game.winner {
        Some(Side::White) => "won 2-0",
        Some(Side::Black) => "lost 0-2",
        None => "drawn 1-1",
    };
    assert_eq!(cells[3], outcome, "{cells:?}");
    assert_eq!(cells[4], "15+10", "{cells:?}");
    let links = member.attrs(&format!("{row} a"), "href").await;
    assert_eq!(
        links,
        [
            format!("/m/{}", created.match_id),
            format!("/games/{}.pdn", created.match_id)
        ]
    );
    // The facts come from /api/user, the rows from the games' page: two answers.
    member.wait_text("[data-fact=games]", "1").await;
    assert_eq!(
        member.attr("#games-pdn", "href").await.as_deref(),
        Some("/@/Sietske/games.pdn")
    );
    screenshots(&member, "accounts-profile").await;

    // Both downloads as the browser gets them (games.pdn is streamed in chunks).
    let texts = member
        .js(
            "return Promise.all([arguments[0], '/@/Sietske/games.pdn'].map(
                 (url) => fetch(url).then((r) => r.ok ? r.text() : 'HTTP ' + r.status)));",
            vec![json!(links[1])],
        )
        .await;
    let one = texts[0].as_str().expect("the game's PDN");
    let all = texts[1].as_str().expect("games.pdn");
    assert!(one.contains(game.moves.last().expect("moves")), "{one}");
    assert_eq!(
        all.trim(),
        one.trim(),
        "games.pdn holds the one game exactly"
    );

    // The guest's page shows the member linked to the profile.
    guest
        .wait_for("[data-presence=white] .name a[href=\"/@/Sietske\"]")
        .await;
    member.close().await;
    guest.close().await;
}

/// A page whose session ends elsewhere ("log out everywhere" on another browser) is closed
/// with 4001 and lands on the login page, which says why; logging in again brings the member
/// back to the page they were on.
#[tokio::test]
async fn a_page_whose_session_ends_elsewhere_lands_on_the_login_page_saying_why() {
    let test = "a_page_whose_session_ends_elsewhere_lands_on_the_login_page_saying_why";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let phone = driver.browser(server.addr(), 1280, 900).await;
    let laptop = driver.browser(server.addr(), 1280, 900).await;
    sign_up(&phone, "Anne", None).await;
    phone.goto("/ladder").await;
    wait_member(&phone, "Anne").await;
    log_in(&laptop, "Anne", "/").await;
    laptop.click("#account-menu summary").await;
    laptop
        .click("#account-menu [data-account=logout-all]")
        .await;
    let search = phone
        .wait_until(
            "the phone on the login page, saying why",
            "const why = document.getElementById('session-ended');
             return location.pathname === '/login' && why && !why.hidden ? location.search : null;",
            vec![],
        )
        .await;
    assert_eq!(search, json!("?ended=1&next=%2Fladder"));
    assert!(
        phone
            .text("#session-ended")
            .await
            .contains("logged out everywhere"),
        "the reason is given"
    );
    screenshots(&phone, "session-ended").await;
    phone.set_viewport(1280, 900).await;
    phone.type_into("#login-name", "Anne").await;
    phone.type_into("#login-password", PASSWORD).await;
    phone.click("form#login-form [type=submit]").await;
    wait_member(&phone, "Anne").await;
    phone
        .wait_until(
            "the member back on the page they were on",
            "return location.pathname === '/ladder' ? true : null;",
            vec![],
        )
        .await;
    for browser in [phone, laptop] {
        browser.close().await;
    }
}
