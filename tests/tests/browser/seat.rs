//! Issue 14, browser test 2, and a lost connection: the seat survives a reload and a server restart.

use super::*;

/// Records every `data-state` the presence marker of `side` takes from now on.
const WATCH_PRESENCE: &str = "
    const el = document.querySelector('[data-presence=\"' + arguments[0] + '\"]');
    window.__presence = [el.getAttribute('data-state')];
    new MutationObserver(() => window.__presence.push(el.getAttribute('data-state')))
        .observe(el, { attributes: true, attributeFilter: ['data-state', 'data-presence'] });
";

/// Issue 14, browser test 2: a player reloads the page mid-game and keeps the seat and the
/// position; the opponent sees the absence and the return (and answers by drag-and-drop).
#[tokio::test]
async fn a_player_who_reloads_keeps_the_seat_and_the_opponent_sees_it() {
    let test = "a_player_who_reloads_keeps_the_seat_and_the_opponent_sees_it";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let (white, black, created) = seated_pair(&driver, server.addr(), "15+10").await;
    play_opening(&white, &black, game, 4).await;

    // Black's page notes every presence state of white from here on.
    black
        .wait_until(
            "white's presence marker",
            "return document.querySelector('[data-presence=\"white\"]') !== null;",
            vec![],
        )
        .await;
    black.js(WATCH_PRESENCE, vec![json!("white")]).await;
    white.client.refresh().await.expect("reload");
    wait_match_page(&white, "white after reloading").await;
    assert_eq!(
        board_fen(&white).await.as_deref(),
        Some(game.fens[3].as_str())
    );
    assert_eq!(
        white.attr("#board", "data-orientation").await.as_deref(),
        Some("white")
    );
    let url = white.url().await;
    assert!(
        url.ends_with(&format!("/m/{}", created.match_id)),
        "the seat token stays out of the URL: {url}"
    );
    wait_presence(&black, "black", "white", "connected").await;
    let seen = black.js("return window.__presence;", vec![]).await;
    let seen: Vec<&str> = seen
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|v| v.as_str())
        .collect();
    let gone = seen.iter().position(|s| *s == "gone");
    let back = seen.iter().rposition(|s| *s == "connected");
    assert!(
        matches!((gone, back), (Some(g), Some(b)) if g < b),
        "black saw white go and come back: {seen:?}"
    );

    // Still white's seat: the reloaded page plays on by clicks; black answers by dragging
    // the piece.
    let all = plies(game);
    let next = &all[4];
    play_by_clicks(&white, &next.route, next.capture, next.how).await;
    wait_fen(&black, "black", &game.fens[4]).await;
    wait_fen(&white, "white", &game.fens[4]).await;
    let answer = &all[5];
    assert!(!answer.capture, "ply 5 of the game is a quiet move");
    black
        .drag(
            &format!("#board [data-square=\"{}\"]", answer.route[0]),
            &format!("#board [data-square=\"{}\"]", answer.route[1]),
        )
        .await;
    wait_fen(&white, "white", &game.fens[5]).await;
    wait_fen(&black, "black", &game.fens[5]).await;
    white.close().await;
    black.close().await;
}

/// Waits until the page has lost its connection (`body[data-conn]` no longer `online`).
async fn wait_offline(browser: &Browser, who: &str) {
    browser
        .wait_until(
            &format!("{who}'s page to notice the lost connection"),
            "return document.body.dataset.conn !== 'online';",
            vec![],
        )
        .await;
}

/// A lost connection (the server restarts on the same address): both pages notice, reconnect
/// by themselves and resume their seats; a move clicked while offline is sent once the
/// connection is back and played exactly once.
#[tokio::test]
async fn pages_reconnect_by_themselves_and_resend_a_move_made_offline() {
    let test = "pages_reconnect_by_themselves_and_resend_a_move_made_offline";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = dir.path().join("boardcast.db");
    let addr = free_addr();
    let args = ["--log", "error"];
    let mut server =
        ServerProcess::start(&server_bin(), addr, &db, &args).expect("the server starts");
    let game = &reference_games()[0];
    let (white, black, _) = seated_pair(&driver, addr, "15+10").await;
    play_opening(&white, &black, game, 2).await;

    server
        .terminate(Duration::from_secs(20))
        .expect("the server stops on SIGTERM");
    wait_offline(&white, "white").await;
    wait_offline(&black, "black").await;

    // White moves while the server is away: the page keeps the move for later.
    let third = &plies(game)[2];
    play_by_clicks(&white, &third.route, third.capture, third.how).await;

    let _server = ServerProcess::start(&server_bin(), addr, &db, &args)
        .expect("the server starts again on the same address");
    for (who, browser) in [("white", &white), ("black", &black)] {
        browser
            .wait_until(
                &format!("{who}'s page back online"),
                "return document.body.dataset.conn === 'online';",
                vec![],
            )
            .await;
        wait_fen(browser, who, &game.fens[2]).await;
    }
    wait_presence(&black, "black", "white", "connected").await;
    wait_presence(&white, "white", "black", "connected").await;
    let listed = white.attrs("#moves [data-ply]", "data-ply").await;
    assert_eq!(
        listed.len(),
        3,
        "the offline move was played once: {listed:?}"
    );

    // Both seats still play.
    let fourth = &plies(game)[3];
    play_by_clicks(&black, &fourth.route, fourth.capture, fourth.how).await;
    wait_fen(&white, "white", &game.fens[3]).await;
    white.close().await;
    black.close().await;
}
