//! Issue 32's sounds and hidden-tab notice in the browser: the match page's one audio element
//! is given the sound of each move (a capture has its own), a muted page plays nothing and
//! keeps the choice over a reload, and the page asks for notifications only after its game has
//! started, then tells the player whose tab is hidden that it is their move.
//!
//! The browser's `Notification` is replaced by a recorder in the page (a headless browser
//! neither shows a permission prompt nor a notice); the sound module reads it when it is used.

use super::*;

/// Puts a recorder in place of `Notification`: `__asked` counts permission requests (granted),
/// `__shown` holds the notices made.
const FAKE_NOTIFICATION: &str = "
    window.__asked = 0;
    window.__shown = [];
    class Recorder {
        constructor(title, options) { window.__shown.push({ title, body: (options || {}).body || '' }); }
        close() {}
    }
    Recorder.permission = 'default';
    Recorder.requestPermission = () => {
        window.__asked += 1;
        Recorder.permission = 'granted';
        return Promise.resolve('granted');
    };
    window.Notification = Recorder;
";

/// The file name the audio element plays last, and how many sounds it has played.
async fn sound(browser: &Browser) -> (String, u64) {
    let got = browser
        .js(
            "const a = document.getElementById('sound');
             return a ? [a.getAttribute('src') || '', Number(a.dataset.played)] : ['', 0];",
            vec![],
        )
        .await;
    let file = got[0].as_str().unwrap_or_default();
    let file = file.rsplit('/').next().unwrap_or_default().to_owned();
    (file, got[1].as_u64().unwrap_or(0))
}

/// Waits until `browser`'s audio element was last given `file`.
async fn wait_sound(browser: &Browser, who: &str, file: &str) {
    browser
        .wait_until(
            &format!("{who}'s page to play {file}"),
            "const a = document.getElementById('sound');
             return a !== null && (a.getAttribute('src') || '').endsWith('/sounds/' + arguments[0]);",
            vec![json!(file)],
        )
        .await;
}

#[tokio::test]
async fn sounds_follow_moves_and_captures_a_mute_is_kept_and_notifications_wait_for_the_game() {
    let test =
        "sounds_follow_moves_and_captures_a_mute_is_kept_and_notifications_wait_for_the_game";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let all = plies(game);
    assert!(
        !all[0].capture && !all[1].capture && !all[2].capture && all[3].capture,
        "the reference game's first capture is its fourth ply"
    );
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    let created = create_match(&white, "15+10", "white").await;
    white.wait_for("#mute").await;
    white.js(FAKE_NOTIFICATION, vec![]).await;

    // Clicks and keys while the match waits for an opponent ask for nothing.
    white.click("[data-action=flip]").await;
    white.click("[data-action=flip]").await;
    white.press('f').await;
    white.press('f').await;
    assert_eq!(white.js("return window.__asked;", vec![]).await, json!(0));

    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;
    wait_presence(&white, "white", "black", "connected").await;
    wait_sound(&white, "white", "start.wav").await;
    wait_sound(&black, "black", "start.wav").await;
    assert_eq!(
        white.js("return window.__asked;", vec![]).await,
        json!(0),
        "nothing asked before the player's next gesture"
    );

    // White's first move (clicks) is the first gesture since the game started: asked once.
    play_by_clicks(&white, &all[0].route, all[0].capture, all[0].how).await;
    wait_fen(&black, "black", &game.fens[0]).await;
    wait_sound(&black, "black", "move.wav").await;
    wait_sound(&white, "white", "move.wav").await;
    assert_eq!(white.js("return window.__asked;", vec![]).await, json!(1));
    assert_eq!(
        white
            .js("return localStorage.getItem('bc.notifyAsked');", vec![])
            .await,
        json!("1")
    );

    // White's tab is hidden: Black's answer brings a notice that it is White's move.
    white
        .js(
            "Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });",
            vec![],
        )
        .await;
    assert_eq!(
        white.js("return window.__shown.length;", vec![]).await,
        json!(0)
    );
    play_by_clicks(&black, &all[1].route, all[1].capture, all[1].how).await;
    let shown = white
        .wait_until(
            "the notice of White's move",
            "return window.__shown.length > 0 ? window.__shown : null;",
            vec![],
        )
        .await;
    assert_eq!(shown[0]["title"], json!("Your turn"));
    let body = shown[0]["body"].as_str().unwrap_or_default();
    assert!(
        body.contains("Wytze") && body.contains(&game.moves[1]),
        "the notice names the opponent's move: {body}"
    );
    white
        .js(
            "Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });",
            vec![],
        )
        .await;
    play_by_clicks(&white, &all[2].route, all[2].capture, all[2].how).await;
    wait_fen(&black, "black", &game.fens[2]).await;
    assert_eq!(
        white.js("return window.__shown.length;", vec![]).await,
        json!(1),
        "no notice while the tab is shown, nor for one's own move"
    );

    // Black mutes: Black's capture sounds on White's page only, and the mute is kept.
    black.click("#mute").await;
    assert_eq!(
        black.attr("#mute", "aria-pressed").await.as_deref(),
        Some("true")
    );
    let (_, before) = sound(&black).await;
    play_by_clicks(&black, &all[3].route, all[3].capture, all[3].how).await;
    wait_fen(&black, "black", &game.fens[3]).await;
    wait_sound(&white, "white", "capture.wav").await;
    assert_eq!(
        sound(&black).await,
        ("move.wav".to_owned(), before),
        "a muted page plays nothing"
    );
    black.client.refresh().await.expect("reload");
    wait_match_page(&black, "black after reloading").await;
    assert!(
        black
            .js("return document.getElementById('mute') === null;", vec![])
            .await
            == json!(true),
        "the sound module is not part of the page's first load"
    );
    // The first click loads it (no sound would play before one anyway).
    black.click("[data-action=numbers]").await;
    black.wait_for("#mute").await;
    assert_eq!(
        black.attr("#mute", "aria-pressed").await.as_deref(),
        Some("true"),
        "the mute is remembered in this browser"
    );
    assert_eq!(
        black
            .js("return localStorage.getItem('bc.mute');", vec![])
            .await,
        json!("1")
    );
    white.close().await;
    black.close().await;
}
