//! Issue 32's premoves in the browser: on the opponent's turn a player clicks or drags a move;
//! it is marked on the board, Escape cancels it, and when the opponent's move arrives the
//! page plays it if it is legal then, or drops it with a notice when a capture became
//! compulsory. The moves are the first plies of a reference game, checked with the frisian
//! crate.

use super::accounts::screenshots;
use super::stumbles::{Table, hand_seat};
use super::*;

use boardcast_protocol::{ClientMessage, RefuseMoreTime};

/// The squares `browser`'s board marks as a premove, sorted.
async fn premove_squares(browser: &Browser) -> Vec<u8> {
    let mut squares: Vec<u8> = browser
        .attrs("#board [data-square].premove", "data-square")
        .await
        .iter()
        .filter_map(|s| s.parse().ok())
        .collect();
    squares.sort_unstable();
    squares
}

/// Waits until `browser`'s board marks exactly `squares` (sorted) as its premove.
async fn wait_premove(browser: &Browser, who: &str, squares: &[u8]) {
    browser
        .wait_until(
            &format!("{who}'s premove on {squares:?}"),
            "const marked = Array.from(document.querySelectorAll('#board [data-square].premove'),
                                       (e) => Number(e.getAttribute('data-square')));
             return JSON.stringify(marked.sort((a, b) => a - b)) === JSON.stringify(arguments[0]);",
            vec![json!(squares)],
        )
        .await;
}

/// The CSS selector of board square `n`.
/// The WCAG contrast ratio between a premove's square and a plain dark square (neither the
/// last move's, the picked piece's nor a destination), in the theme the page shows.
async fn premove_contrast(browser: &Browser) -> f64 {
    browser
        .js(
            "const light = (el) => {
               const [r, g, b] = getComputedStyle(el).fill.match(/[\\d.]+/g).map((v) => {
                 const c = Number(v) / 255;
                 return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
               });
               return 0.2126 * r + 0.7152 * g + 0.0722 * b;
             };
             const premove = document.querySelector('#board [data-square].premove rect');
             const plain = document.querySelector(
               '#board [data-square]:not(.premove):not(.last):not(.selected):not(.dest) rect');
             const [a, b] = [light(premove), light(plain)].sort((x, y) => y - x);
             return (a + 0.05) / (b + 0.05);",
            vec![],
        )
        .await
        .as_f64()
        .expect("a contrast ratio")
}

fn at(n: u8) -> String {
    format!("#board [data-square=\"{n}\"]")
}

/// A quiet move of Black's in the position after the opening's first ply (so one Black could
/// make), which a compulsory capture rules out after the third: its origin still holds a
/// black man and its square is empty, but Black must capture.
fn quiet_black_move(game: &RefGame) -> (u8, u8) {
    let position = |fen: &str| frisian::Position::from_fen(fen).expect("a reference FEN");
    let after_white = position(&game.fens[0]);
    let after_third = position(&game.fens[2]);
    let legal_then = after_third.legal_moves();
    assert!(
        legal_then.iter().all(|mv| mv.is_capture()),
        "Black must capture after the third ply"
    );
    let mv = after_white
        .legal_moves()
        .iter()
        .find(|mv| {
            !mv.is_capture()
                && after_third.piece_at(mv.from()) == after_white.piece_at(mv.from())
                && after_third.piece_at(mv.to()).is_none()
        })
        .copied()
        .expect("a quiet black move");
    (mv.from().number(), mv.to().number())
}

#[tokio::test]
async fn a_premove_is_played_when_legal_and_dropped_with_a_notice_when_a_capture_became_compulsory()
{
    let test =
        "a_premove_is_played_when_legal_and_dropped_with_a_notice_when_a_capture_became_compulsory";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let all = plies(game);
    assert!(
        !all[0].capture && !all[1].capture && !all[2].capture && all[3].capture && !all[4].capture,
        "the reference game's first capture is Black's, at the fourth ply"
    );
    let (quiet_from, quiet_to) = quiet_black_move(game);
    let (white, black, _) = seated_pair(&driver, server.addr(), "15+10").await;
    play_opening(&white, &black, game, 2).await;

    // White is to move: Black picks a quiet move by dragging, and Escape cancels it.
    black.drag(&at(quiet_from), &at(quiet_to)).await;
    let mut marked = vec![quiet_from, quiet_to];
    marked.sort_unstable();
    wait_premove(&black, "black", &marked).await;
    black
        .wait_visible("#premove [data-action=cancel-premove]")
        .await;
    black.press(char::from(Key::Escape)).await;
    wait_premove(&black, "black", &[]).await;
    assert!(
        black
            .js("return document.getElementById('premove').hidden;", vec![])
            .await
            == json!(true),
        "the premove's line goes with it"
    );

    // Again by clicks; White's move makes a capture compulsory: dropped, and said so.
    black.click(&at(quiet_from)).await;
    wait_premove(&black, "black", &[quiet_from]).await;
    black.click(&at(quiet_to)).await;
    wait_premove(&black, "black", &marked).await;
    screenshots(&black, "premove").await;
    // The move list shows an earlier position: the marks go, as they would say nothing true
    // of its pieces; the premove stands and is marked again at the live position.
    black.click("[data-action=first]").await;
    wait_premove(&black, "black", &[]).await;
    black
        .wait_visible("#premove [data-action=cancel-premove]")
        .await;
    black.click("[data-action=last]").await;
    wait_premove(&black, "black", &marked).await;
    play_by_clicks(&white, &all[2].route, all[2].capture, all[2].how).await;
    wait_fen(&black, "black", &game.fens[2]).await;
    black
        .wait_until(
            "the notice that the premove was dropped",
            "return document.getElementById('notice').getAttribute('data-code') === 'premove';",
            vec![],
        )
        .await;
    let notice = black.text("#notice").await;
    let capturer = all[3].route[0].to_string();
    assert!(
        notice.contains(&format!("{quiet_from}-{quiet_to}"))
            && notice.contains("compulsory")
            && notice.contains(&capturer),
        "the notice names the premove and the piece that must capture: {notice}"
    );
    assert_eq!(premove_squares(&black).await, Vec::<u8>::new());
    assert_eq!(
        board_fen(&black).await.as_deref(),
        Some(game.fens[2].as_str()),
        "nothing was played for Black"
    );
    screenshots(&black, "premove-dropped").await;

    // Black is to move: White premoves the game's next move of White's by clicks, and it is
    // played as soon as Black's capture arrives, with no click of White's after it.
    white.click(&at(all[4].route[0])).await;
    white.click(&at(*all[4].route.last().unwrap())).await;
    let mut next = vec![all[4].route[0], *all[4].route.last().unwrap()];
    next.sort_unstable();
    wait_premove(&white, "white", &next).await;
    play_by_clicks(&black, &all[3].route, all[3].capture, all[3].how).await;
    wait_fen(&white, "white", &game.fens[4]).await;
    wait_fen(&black, "black", &game.fens[4]).await;
    assert_eq!(premove_squares(&white).await, Vec::<u8>::new());
    assert_eq!(
        white
            .js(
                "return document.getElementById('notice').getAttribute('data-code');",
                vec![]
            )
            .await,
        json!(null),
        "no refusal of the premove"
    );
    white.close().await;
    black.close().await;
}

/// A premove made before the connection dropped, when the page comes back to a snapshot that
/// already holds the opponent's move (the server no longer keeps the events missed: more than
/// its twenty): it is played as when the move arrives, with nothing clicked after it. The
/// premove is also shown in the dark theme.
#[tokio::test]
async fn a_premove_is_played_when_a_reconnects_snapshot_shows_the_opponents_move() {
    let test = "a_premove_is_played_when_a_reconnects_snapshot_shows_the_opponents_move";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let all = plies(game);
    assert!(
        !all[2].capture && all[3].capture && all[3].how != Ambiguity::Chooser,
        "Black's fourth ply is a capture with one route from its square to its last"
    );
    let mut table = Table::open(server.addr()).await;
    table.play(game, 2).await;
    let black = driver.browser(server.addr(), 1280, 900).await;
    black.goto("/healthz").await;
    black.on_new_document(HELD_SOCKET).await;
    hand_seat(&black, &table.black_seat).await;
    wait_fen(&black, "black", &game.fens[1]).await;

    // White is to move: Black premoves the capture White's coming move will allow.
    let (from, to) = (all[3].route[0], *all[3].route.last().unwrap());
    black.click(&at(from)).await;
    black.click(&at(to)).await;
    let mut marked = vec![from, to];
    marked.sort_unstable();
    wait_premove(&black, "black", &marked).await;
    // In each theme the premove's squares stand out from the dark squares around them by
    // lightness, not by hue alone (which a colour-blind player or a dim screen may not tell
    // apart).
    let dark = "return matchMedia('(prefers-color-scheme: dark)').matches;";
    assert_eq!(
        black.js(dark, vec![]).await,
        json!(false),
        "the light theme"
    );
    let contrast = premove_contrast(&black).await;
    assert!(
        contrast >= 1.5,
        "the light theme's premove squares against a dark square: {contrast:.2}:1"
    );
    screenshots(&black, "premove-light").await;
    black.prefer_dark().await;
    black.wait_until("the dark theme", dark, vec![]).await;
    let contrast = premove_contrast(&black).await;
    assert!(
        contrast >= 1.5,
        "the dark theme's premove squares against a dark square: {contrast:.2}:1"
    );
    screenshots(&black, "premove-dark").await;

    // Black's connection drops and stays away while White moves and the match has more
    // events than the server keeps to replay (White's refusals of more time, on and off).
    black
        .js(
            "window.__letConnect = false; window.__socket.close(); return true;",
            vec![],
        )
        .await;
    black
        .wait_until(
            "black's page offline",
            "return document.body.dataset.conn !== 'online';",
            vec![],
        )
        .await;
    table
        .white
        .play(&table.white_seat, &all[2].route)
        .await
        .expect("White's move");
    for n in 0..24 {
        table
            .white
            .call(ClientMessage::RefuseMoreTime(RefuseMoreTime {
                match_id: table.white_seat.match_id.clone(),
                token: table.white_seat.token.clone(),
                refuse: n % 2 == 0,
            }))
            .await
            .expect("a refusal of more time");
    }

    // Back online: the snapshot shows Black to move, and the premove is played from it.
    black
        .js("window.__letConnect = true; return true;", vec![])
        .await;
    wait_fen(&black, "black", &game.fens[3]).await;
    assert_eq!(premove_squares(&black).await, Vec::<u8>::new());
    assert_eq!(
        black
            .js(
                "return document.getElementById('notice').getAttribute('data-code');",
                vec![]
            )
            .await,
        json!(null),
        "no refusal of the premove"
    );
    black.close().await;
}
