//! Issue 32's "+15 s" in the browser: a player gives the opponent 15 s, both pages show the
//! clock with it, a second press at once is refused, and an opponent whose browser refuses
//! more time (a setting kept in the browser) is shown no button for it.

use super::*;

/// The text of `side`'s clock on `browser`'s page.
async fn clock(browser: &Browser, side: &str) -> String {
    browser.text(&format!("[data-clock={side}]")).await
}

#[tokio::test]
async fn more_time_adds_15_s_to_the_opponent_and_a_refusal_hides_the_button() {
    let test = "more_time_adds_15_s_to_the_opponent_and_a_refusal_hides_the_button";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    let created = create_match(&white, "15+10", "white").await;
    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;
    wait_presence(&white, "white", "black", "connected").await;
    assert_eq!(clock(&white, "black").await, "15:00");

    // No clock runs before the first moves: Black's 15:00 becomes 15:15 on both pages.
    white.click("[data-action=more-time]").await;
    for (browser, who) in [(&white, "white"), (&black, "black")] {
        browser
            .wait_until(
                &format!("{who} to show Black's clock with 15 s more"),
                "return document.querySelector('[data-clock=black]').textContent.trim() === '15:15';",
                vec![],
            )
            .await;
    }
    assert_eq!(
        clock(&black, "white").await,
        "15:00",
        "the giver gets nothing"
    );

    // At once again: refused, said under the board, and the clock stays.
    white.click("[data-action=more-time]").await;
    white
        .wait_until(
            "the refusal of a second +15 s at once",
            "return document.getElementById('notice').getAttribute('data-code') === 'rate_limited';",
            vec![],
        )
        .await;
    assert_eq!(clock(&black, "black").await, "15:15");

    // Black refuses more time: the setting is kept in the browser and White's button goes.
    black.click("[data-action=no-more-time]").await;
    black
        .wait_attr("[data-action=no-more-time]", "aria-pressed", "true")
        .await;
    white
        .wait_until(
            "White's +15 s button to go",
            "return document.querySelector('[data-action=more-time]').hidden;",
            vec![],
        )
        .await;
    let kept = black
        .js("return localStorage.getItem('bc.noMoreTime');", vec![])
        .await;
    assert_eq!(kept, json!("1"));
    white.close().await;
    black.close().await;
}
