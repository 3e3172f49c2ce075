//! Private matches and the lobby.

use super::*;

/// Waits until the lobby has shown its lists (an open seek or the "no open seeks" line).
async fn wait_lobby_loaded(browser: &Browser) {
    browser
        .wait_until(
            "the lobby's lists",
            "return document.body.dataset.conn === 'online'
                 && document.querySelector('#seeks li') !== null;",
            vec![],
        )
        .await;
}

/// Creates a public seek from `seeker`, who stays on its page (a seek whose creator left it
/// leaves the lobby), and a private match from `host`'s lobby; returns both, once a
/// passer-by's lobby lists the public seek.
async fn public_and_private(
    seeker: &Browser,
    host: &Browser,
    passer_by: &Browser,
) -> (Created, Created) {
    let public = create_match(seeker, "5+3", "white").await;
    passer_by.goto("/").await;
    passer_by
        .wait_for(&format!("[data-seek=\"{}\"]", public.match_id))
        .await;
    host.goto("/").await;
    host.wait_visible("form#create").await;
    host.wait_until(
        "the lobby online",
        "return document.body.dataset.conn === 'online';",
        vec![],
    )
    .await;
    choose(host, "form#create select[name=time]", "10+5").await;
    choose(host, "form#create select[name=color]", "white").await;
    host.click("form#create input[name=private]").await;
    host.click("form#create [type=submit]").await;
    let private = create_submitted(host).await;
    (public, private)
}

/// Reloads the lobby and lists the values of `attribute` on its `[attribute]` entries, once
/// the public seek `public` shows (so the lists have loaded).
async fn lobby_entries(passer_by: &Browser, public: &Created, attribute: &str) -> Vec<String> {
    passer_by.goto("/").await;
    wait_lobby_loaded(passer_by).await;
    passer_by
        .wait_for(&format!("[data-seek=\"{}\"]", public.match_id))
        .await;
    passer_by.attrs(&format!("[{attribute}]"), attribute).await
}

/// A private match is not offered in the lobby, while a public one is; its invite link seats
/// the friend.
#[tokio::test]
async fn a_private_match_is_not_offered_in_the_lobby_and_its_link_seats_the_friend() {
    let test = "a_private_match_is_not_offered_in_the_lobby_and_its_link_seats_the_friend";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let friend = driver.browser(server.addr(), 1280, 900).await;
    let passer_by = driver.browser(server.addr(), 1280, 900).await;
    let seeker = driver.browser(server.addr(), 1280, 900).await;
    let (public, private) = public_and_private(&seeker, &host, &passer_by).await;
    let seeks = lobby_entries(&passer_by, &public, "data-seek").await;
    assert!(
        !seeks.contains(&private.match_id),
        "the private match is offered in the lobby: {seeks:?}"
    );
    accept_invite(&friend, &private.invite, "Wytze").await;
    wait_match_page(&friend, "the friend").await;
    assert_eq!(
        friend.attr("#board", "data-orientation").await.as_deref(),
        Some("black")
    );
    wait_presence(&host, "the host", "black", "connected").await;
    for browser in [host, friend, passer_by, seeker] {
        browser.close().await;
    }
}

/// A private match being played is not listed among the lobby's live matches either (the
/// issue: "a private match is reachable only through its link").
#[tokio::test]
async fn a_private_match_in_play_is_not_listed_among_live_matches() {
    let test = "a_private_match_in_play_is_not_listed_among_live_matches";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let friend = driver.browser(server.addr(), 1280, 900).await;
    let passer_by = driver.browser(server.addr(), 1280, 900).await;
    let seeker = driver.browser(server.addr(), 1280, 900).await;
    let (public, private) = public_and_private(&seeker, &host, &passer_by).await;
    accept_invite(&friend, &private.invite, "Wytze").await;
    wait_match_page(&friend, "the friend").await;
    wait_presence(&host, "the host", "black", "connected").await;
    let live = lobby_entries(&passer_by, &public, "data-live").await;
    assert!(
        !live.contains(&private.match_id),
        "the private match is listed among live matches: {live:?}"
    );
    for browser in [host, friend, passer_by, seeker] {
        browser.close().await;
    }
}
