//! Issue 32's takebacks in the browser: in a casual match a player proposes a takeback, the
//! opponent sees the proposal and accepts it (both boards go back) or declines it (the
//! proposer is told); in a rated match there is no such button.

use super::accounts::{screenshots, sign_up};
use super::*;

/// Waits until `browser`'s `#takeback` line says `words`.
async fn wait_takeback_line(browser: &Browser, who: &str, words: &str) {
    browser
        .wait_until(
            &format!("{who}'s takeback line to say {words:?}"),
            "const e = document.getElementById('takeback');
             return e !== null && e.textContent.includes(arguments[0]);",
            vec![json!(words)],
        )
        .await;
}

/// Whether `css` is on `browser`'s page and shown.
async fn shown(browser: &Browser, css: &str) -> bool {
    browser
        .js(
            "const e = document.querySelector(arguments[0]);
             return e !== null && !e.closest('[hidden]');",
            vec![json!(css)],
        )
        .await
        == json!(true)
}

/// Waits until the element matching `css` is gone or hidden on `who`'s page: what the other
/// page did reaches this one through the server, and is drawn on this page's next frame.
async fn wait_hidden(browser: &Browser, who: &str, css: &str) {
    browser
        .wait_until(
            &format!("{css} to go from {who}'s page"),
            "const e = document.querySelector(arguments[0]);
             return e === null || e.closest('[hidden]') !== null;",
            vec![json!(css)],
        )
        .await;
}

#[tokio::test]
async fn a_takeback_accepted_brings_the_position_back_and_a_declined_one_is_said() {
    let test = "a_takeback_accepted_brings_the_position_back_and_a_declined_one_is_said";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let all = plies(game);
    let (white, black, _) = seated_pair(&driver, server.addr(), "15+10").await;
    assert!(
        !shown(&white, "[data-action=takeback]").await,
        "nothing to take back before one's first move"
    );
    play_opening(&white, &black, game, 3).await;

    // White proposes: Black is asked, White waits.
    white.click("[data-action=takeback]").await;
    wait_takeback_line(&black, "black", "asks to take back their last move").await;
    wait_takeback_line(&white, "white", "Takeback proposed: waiting for Wytze").await;
    assert!(shown(&black, "[data-action=accept-takeback]").await);
    assert!(shown(&black, "[data-action=decline-takeback]").await);
    assert!(!shown(&white, "[data-action=takeback]").await);
    assert!(!shown(&white, "[data-action=accept-takeback]").await);
    screenshots(&black, "takeback").await;

    // Accepted: White's last move is taken back on both boards, and it is White's move again.
    black.click("[data-action=accept-takeback]").await;
    wait_fen(&white, "white", &game.fens[1]).await;
    wait_fen(&black, "black", &game.fens[1]).await;
    assert_eq!(
        white.attr("#board", "data-turn").await.as_deref(),
        Some("white")
    );
    black
        .wait_until(
            "Black's takeback line to go",
            "return document.getElementById('takeback').textContent === '';",
            vec![],
        )
        .await;
    assert!(!shown(&black, "[data-action=accept-takeback]").await);

    // Played again; after Black's capture, Black proposes and White declines.
    play_by_clicks(&white, &all[2].route, all[2].capture, all[2].how).await;
    wait_fen(&black, "black", &game.fens[2]).await;
    play_by_clicks(&black, &all[3].route, all[3].capture, all[3].how).await;
    wait_fen(&white, "white", &game.fens[3]).await;
    black.click("[data-action=takeback]").await;
    wait_takeback_line(&white, "white", "Wytze asks to take back their last move").await;
    white.click("[data-action=decline-takeback]").await;
    black
        .wait_until(
            "Black to be told of the decline",
            "return document.getElementById('notice').getAttribute('data-code') === 'takeback';",
            vec![],
        )
        .await;
    assert_eq!(black.text("#notice").await, "your takeback was declined");
    assert_eq!(
        board_fen(&white).await.as_deref(),
        Some(game.fens[3].as_str()),
        "a declined takeback leaves the game as it is"
    );
    wait_hidden(&white, "White", "[data-action=decline-takeback]").await;
    black.wait_text("#takeback", "").await;
    white.close().await;
    black.close().await;
}

#[tokio::test]
async fn a_rated_match_has_no_takeback_button() {
    let test = "a_rated_match_has_no_takeback_button";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    sign_up(&white, "Sietske", None).await;
    sign_up(&black, "Wytze", None).await;
    white.goto("/").await;
    white.wait_visible("form#create").await;
    choose(&white, "form#create select[name=time]", "15+10").await;
    choose(&white, "form#create select[name=color]", "white").await;
    choose(&white, "form#create select[name=mode]", "rated").await;
    white.click("form#create [type=submit]").await;
    let created = create_submitted(&white).await;
    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;
    wait_presence(&white, "white", "black", "connected").await;
    play_opening(&white, &black, game, 2).await;
    // The premove module has drawn for this seat by now (its line is on the page): the
    // takeback module, had it been loaded, would have too.
    white.wait_for("#premove").await;
    for (browser, who) in [(&white, "white"), (&black, "black")] {
        assert_eq!(
            browser
                .js(
                    "return document.querySelector('[data-action=takeback]') === null;",
                    vec![]
                )
                .await,
            json!(true),
            "{who} has no takeback button in a rated match"
        );
    }
    white.close().await;
    black.close().await;
}
