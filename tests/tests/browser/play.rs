//! Issue 14, browser test 1: a complete reference game played by clicks, watched.

use super::*;

/// The shortest reference game with an ambiguous capture and a promotion.
fn game_with_ambiguous_capture_and_promotion() -> (RefGame, Vec<Ply>) {
    reference_games()
        .iter()
        .map(|game| (game.clone(), plies(game)))
        .filter(|(_, plies)| {
            plies.iter().any(|p| p.how == Ambiguity::Chooser) && plies.iter().any(|p| p.promotes)
        })
        .min_by_key(|(game, _)| game.moves.len())
        .expect("a reference game with an ambiguous capture and a promotion")
}

fn side_name(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::White) => "white",
        Some(Side::Black) => "black",
        None => "draw",
    }
}

/// Issue 14, browser test 1: two people in separate browsers play a complete reference game
/// by clicking squares (an ambiguous capture settled in the route chooser, a promotion),
/// while a third browser watches; all three end on the same position and result.
#[tokio::test]
async fn two_browsers_play_a_reference_game_by_clicking_while_a_third_watches() {
    let test = "two_browsers_play_a_reference_game_by_clicking_while_a_third_watches";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let (game, plies) = game_with_ambiguous_capture_and_promotion();
    let server = server(&[]);
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    let watcher = driver.browser(server.addr(), 1280, 900).await;

    set_name(&white, "Sietske").await;
    set_name(&black, "Wytze").await;
    let created = create_match(&white, "15+10", "white").await;
    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;
    assert_eq!(
        black.attr("#board", "data-orientation").await.as_deref(),
        Some("black"),
        "the invited player gets the black seat and sees the board from its side"
    );
    watcher.goto(&format!("/m/{}", created.match_id)).await;
    wait_match_page(&watcher, "the spectator").await;
    wait_presence(&white, "white", "black", "connected").await;

    white
        .wait_until(
            "white to count one spectator",
            "return document.querySelector('#spectators').textContent.trim() === '1';",
            vec![],
        )
        .await;

    let everyone = [
        ("white", &white),
        ("black", &black),
        ("spectator", &watcher),
    ];
    for (n, ply) in plies.iter().enumerate() {
        let mover = if game.mover(n) == Side::White {
            &white
        } else {
            &black
        };
        play_by_clicks(mover, &ply.route, ply.capture, ply.how).await;
        for (who, browser) in everyone {
            wait_fen(browser, who, &game.fens[n]).await;
        }
    }
    let expected = side_name(game.winner);
    for (who, browser) in everyone {
        let (result, text) = wait_result(browser, who, Duration::from_secs(30)).await;
        assert_eq!(result, expected, "{who}'s result");
        assert!(
            text.contains(&game.reason),
            "{who}'s result banner {text:?} gives the reason {:?}",
            game.reason
        );
        assert_eq!(
            board_fen(browser).await.as_deref(),
            game.fens.last().map(String::as_str)
        );
    }
    // The spectator's move list is the game in standard notation (the full route only for
    // the ambiguous capture), and the arrow keys step through it.
    let notation = watcher
        .js(
            "return Array.from(document.querySelectorAll('#moves [data-ply]'), b => b.textContent.trim());",
            vec![],
        )
        .await;
    assert_eq!(notation, json!(game.moves), "the spectator's move list");
    let last = game.fens.len() - 1;
    watcher.press(char::from(Key::Left)).await;
    wait_fen(&watcher, "the spectator one ply back", &game.fens[last - 1]).await;
    assert_eq!(
        watcher.attr("#moves [data-ply].current", "data-ply").await,
        Some(last.to_string())
    );
    watcher.press(char::from(Key::Left)).await;
    wait_fen(
        &watcher,
        "the spectator two plies back",
        &game.fens[last - 2],
    )
    .await;
    watcher.press(char::from(Key::End)).await;
    wait_fen(&watcher, "the spectator back at the end", &game.fens[last]).await;

    // The finished game's PDN is offered and holds the game.
    let pdn = watcher
        .attr("[data-action=download-pdn]", "href")
        .await
        .expect("a PDN link once the game is over");
    assert_eq!(pdn, format!("/games/{}.pdn", created.match_id));
    let (status, body) = http_get(server.addr(), &pdn).expect("the PDN");
    assert_eq!(status, 200);
    assert!(
        body.contains(game.moves.last().expect("moves")),
        "the PDN holds the last move: {body}"
    );
    for browser in [white, black, watcher] {
        browser.close().await;
    }
}
