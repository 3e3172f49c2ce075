//! Issue 14, browser tests 3 and 4: typed moves, legal destinations, a clock running out.

use super::*;

/// Issue 14, browser test 3: a typed illegal move shows the server's reason, and the board
/// offers exactly the legal destinations the server lists.
#[tokio::test]
async fn a_typed_illegal_move_shows_the_servers_reason_and_the_board_offers_only_legal_moves() {
    let test =
        "a_typed_illegal_move_shows_the_servers_reason_and_the_board_offers_only_legal_moves";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let (white, black, created) = seated_pair(&driver, server.addr(), "15+10").await;
    // A spectator connection of our own hears the server's legal moves.
    let mut spectator = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("a protocol client");
    spectator
        .watch_match(&created.match_id)
        .await
        .expect("watch");

    // Black's first capture in the game: play up to the position before it.
    let all = plies(game);
    let before_capture = (0..all.len())
        .find(|&n| all[n].capture && game.mover(n) == Side::Black)
        .expect("black captures in the game");
    play_opening(&white, &black, game, before_capture).await;
    let position = frisian::Position::from_fen(&game.fens[before_capture - 1]).expect("a FEN");
    let snapshot = spectator
        .watch_match(&created.match_id)
        .await
        .expect("a fresh snapshot");
    assert_eq!(snapshot.fen, game.fens[before_capture - 1]);
    let server_legal: Vec<Vec<u8>> = snapshot
        .legal_moves
        .iter()
        .map(|m| m.route.clone())
        .collect();
    assert!(!server_legal.is_empty());

    // Every black piece: selecting it offers exactly the next and final landing squares of
    // the server's legal routes from it (nothing at all for a piece that may not move).
    for square in position
        .pieces(frisian::Color::Black)
        .iter()
        .map(|sq| sq.number())
    {
        let mut expected: Vec<u8> = server_legal
            .iter()
            .filter(|route| route[0] == square)
            .flat_map(|route| [route[1], *route.last().expect("a route")])
            .collect();
        expected.sort_unstable();
        expected.dedup();
        black
            .click(&format!("#board [data-square=\"{square}\"]"))
            .await;
        let offered = if expected.is_empty() {
            // Nothing must light up; give the page a moment's worth of checks to show that.
            black
                .wait_until(
                    &format!("no destinations from {square}"),
                    "return document.querySelector('#board .dest') === null ? 'none' : null;",
                    vec![],
                )
                .await;
            dest_squares(&black).await
        } else {
            black
                .wait_until(
                    &format!("destinations from {square}"),
                    "return document.querySelector('#board .dest') !== null;",
                    vec![],
                )
                .await;
            dest_squares(&black).await
        };
        assert_eq!(
            offered, expected,
            "destinations offered from square {square}"
        );
    }

    // A quiet move typed while a capture is compulsory: the server refuses it and the page
    // shows its reason.
    let quiet = position
        .pieces(frisian::Color::Black)
        .iter()
        .flat_map(|from| {
            [4, 5, 6].into_iter().filter_map(move |step| {
                frisian::Square::new(from.number() + step).map(|to| (from, to))
            })
        })
        .find(|(_, to)| position.piece_at(*to).is_none())
        .expect("a quiet step for black");
    let typed = format!("{}-{}", quiet.0.number(), quiet.1.number());
    // Worded from the refusal's reason and its example move (PROTOCOL.md §12.1).
    let frisian::MoveError::CaptureCompulsory { example } = position
        .move_from_route(&[quiet.0, quiet.1])
        .expect_err("the quiet move is illegal while a capture is compulsory")
    else {
        panic!("not refused for the compulsory capture");
    };
    let reason = format!("Capturing is compulsory (for example {example}).");
    black
        .type_into("#move-input", &format!("{typed}{}", char::from(Key::Enter)))
        .await;
    black
        .wait_until(
            "the refusal of the typed move",
            "const n = document.querySelector('#notice');
             return n !== null && n.getAttribute('data-code') === 'illegal_move';",
            vec![],
        )
        .await;
    assert_eq!(black.text("#notice").await, reason, "typed {typed}");
    assert_eq!(
        board_fen(&black).await.as_deref(),
        Some(game.fens[before_capture - 1].as_str()),
        "nothing was played"
    );
    white.close().await;
    black.close().await;
}

/// Issue 14, browser test 4: a short time control runs out in the browser and both players
/// see the result.
#[tokio::test]
async fn a_clock_runs_out_in_the_browser_and_both_see_the_result() {
    let test = "a_clock_runs_out_in_the_browser_and_both_see_the_result";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    white.goto("/").await;
    white.wait_visible("form#create").await;
    choose(&white, "form#create select[name=time]", "custom").await;
    // Fifteen seconds (the shortest the server allows), no increment.
    white
        .type_into("form#create input[name=minutes]", "0.25")
        .await;
    white
        .type_into("form#create input[name=increment]", "0")
        .await;
    choose(&white, "form#create select[name=color]", "white").await;
    white.click("form#create [type=submit]").await;
    let created = create_submitted(&white).await;
    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;

    // A clock runs once its player has made a first move: after three plies black is to
    // move with a running clock, and lets it run out.
    let game = &reference_games()[0];
    play_opening(&white, &black, game, 3).await;
    black
        .wait_until(
            "black's clock running",
            "const c = document.querySelector('[data-clock=\"black\"]');
             return c !== null && c.classList.contains('running');",
            vec![],
        )
        .await;
    for (who, browser) in [("white", &white), ("black", &black)] {
        let (result, text) = wait_result(browser, who, Duration::from_secs(60)).await;
        assert_eq!(result, "white", "{who}: black's time ran out, white wins");
        assert!(text.contains("black ran out of time"), "{who}: {text:?}");
        assert_eq!(
            browser.text("[data-clock=\"black\"]").await,
            "0:00.0",
            "{who}: black's clock shows the time gone"
        );
    }
    white.close().await;
    black.close().await;
}
