//! The match page's buttons: draw offer, rematch, resignation, claiming the win.

use super::*;

/// Waits until the page shows the match `match_id` (its address and a board online).
async fn wait_on_match(browser: &Browser, who: &str, match_id: &str) {
    browser
        .wait_until(
            &format!("{who} on match {match_id}"),
            "return location.pathname === '/m/' + arguments[0];",
            vec![json!(match_id)],
        )
        .await;
    wait_match_page(browser, who).await;
}

/// The match page's buttons as two people use them: a draw offered and declined, offered again
/// (the old answer gone), standing through the offerer's move and accepted, a rematch
/// offered and accepted (colours swapped, both pages move to it), and a resignation that
/// asks first.
#[tokio::test]
async fn draw_offer_rematch_and_resignation_through_the_buttons() {
    let test = "draw_offer_rematch_and_resignation_through_the_buttons";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let (white, black, created) = seated_pair(&driver, server.addr(), "15+10").await;
    play_opening(&white, &black, game, 2).await;

    // Draw: offered by white and declined; the answer shows until white offers again.
    white.click("[data-action=offer-draw]").await;
    black.click("[data-action=decline-draw]").await;
    white
        .wait_until(
            "white told the draw offer was declined",
            "return document.getElementById('notice').textContent.includes('declined');",
            vec![],
        )
        .await;
    white.click("[data-action=offer-draw]").await;
    black.wait_visible("[data-action=accept-draw]").await;
    white
        .wait_until(
            "the old answer gone with the new offer",
            "return document.getElementById('notice').textContent === '';",
            vec![],
        )
        .await;
    // Over the board one offers, then moves: the offer stands for black, who accepts.
    let third = &plies(game)[2];
    play_by_clicks(&white, &third.route, third.capture, third.how).await;
    wait_fen(&black, "black", &game.fens[2]).await;
    black.click("[data-action=accept-draw]").await;
    for (who, browser) in [("white", &white), ("black", &black)] {
        let (result, text) = wait_result(browser, who, Duration::from_secs(30)).await;
        assert_eq!(result, "draw", "{who}");
        assert!(text.contains("draw by agreement"), "{who}: {text:?}");
    }

    // Rematch: offered by black, accepted by white; both pages go to the new match, where
    // the colours are swapped.
    black.click("[data-action=rematch]").await;
    white.click("[data-action=accept-rematch]").await;
    let rematch = white
        .wait_until(
            "the rematch's address",
            "const p = location.pathname;
             return p.startsWith('/m/') && p !== '/m/' + arguments[0] ? p.slice(3) : null;",
            vec![json!(created.match_id)],
        )
        .await;
    let rematch = rematch.as_str().expect("a match id").to_owned();
    wait_on_match(&white, "the old white player", &rematch).await;
    wait_on_match(&black, "the old black player", &rematch).await;
    // The new match's snapshot turns each board round (drawn on the page's next frame).
    white.wait_attr("#board", "data-orientation", "black").await;
    black.wait_attr("#board", "data-orientation", "white").await;

    // Resigning asks first: cancel keeps playing, confirm ends the game.
    let first = &plies(game)[0];
    play_by_clicks(&black, &first.route, first.capture, first.how).await;
    wait_fen(&white, "the new black player", &game.fens[0]).await;
    white.click("[data-action=resign]").await;
    white.click("[data-action=cancel]").await;
    white.wait_visible("[data-action=resign]").await;
    assert!(
        white.attr("#result", "data-result").await.is_none(),
        "cancel did not resign"
    );
    white.click("[data-action=resign]").await;
    white.click("[data-action=confirm]").await;
    for (who, browser) in [("white", &white), ("black", &black)] {
        let (result, text) = wait_result(browser, who, Duration::from_secs(30)).await;
        assert_eq!(result, "white", "{who}: the new white player wins");
        assert!(text.contains("black resigned"), "{who}: {text:?}");
    }
    white.close().await;
    black.close().await;
}

/// When the opponent has gone (closed the page), the player still there sees "Wytze left —
/// you may claim in m:ss", standing still on their own turn and running on the gone
/// player's, and then claims the win with the button. Both rows show connection bars.
#[tokio::test]
async fn a_player_claims_the_win_when_the_opponent_is_gone() {
    let test = "a_player_claims_the_win_when_the_opponent_is_gone";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--grace", "8s"]);
    let game = &reference_games()[0];
    let (white, black, _) = seated_pair(&driver, server.addr(), "15+10").await;
    // Both have moved (a player who never moved would rather see the match aborted).
    play_opening(&white, &black, game, 2).await;
    // Each page measures its round trip; the opponent's is the one counted for their move.
    white
        .wait_until(
            "both players' signal bars",
            "return [...document.querySelectorAll('.player .signal')]
               .filter((s) => !s.hidden && Number(s.dataset.bars) >= 1).length === 2;",
            vec![],
        )
        .await;

    // Black leaves on White's turn: the countdown stands still.
    black.close().await;
    wait_presence(&white, "white", "black", "gone").await;
    white.wait_visible("#claim").await;
    let paused = white.text("#claim").await;
    assert!(
        paused.contains("Wytze left — you may claim in 0:08 (paused while it is your move)"),
        "the countdown: {paused:?}"
    );
    white
        .screenshot(&screenshot_dir().join("claim-paused.png"))
        .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        white.text("#claim").await,
        paused,
        "it stands still on White's turn"
    );
    // White moves: Black's turn, it runs down.
    let third = &plies(game)[2];
    play_by_clicks(&white, &third.route, third.capture, third.how).await;
    wait_fen(&white, "white", &game.fens[2]).await;
    white
        .wait_until(
            "the countdown to run",
            "const c = document.querySelector('#claim');
             return c.dataset.paused === 'false' && /claim in 0:0[0-7]$/.test(c.textContent);",
            vec![],
        )
        .await;
    white
        .wait_until(
            "the claim button to be enabled",
            "const b = document.querySelector('[data-action=claim-win]');
             return b !== null && !b.disabled && b.getClientRects().length > 0;",
            vec![],
        )
        .await;
    white.click("[data-action=claim-win]").await;
    let (result, text) = wait_result(&white, "white", Duration::from_secs(30)).await;
    assert_eq!(result, "white", "claimed: {text:?}");
    white.close().await;
}
