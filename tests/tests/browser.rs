//! The web client in real headless Chromium against the real server binary (issue 14):
//! people playing, watching, predicting, and what a hostile page can do.
//!
//! Each test starts its own server on a free loopback port with a temporary database and its
//! own chromedriver; each player is a separate Chromium with its own empty profile. Without
//! Chromium a developer sees "skipped: install chromium" (CI fails instead).

use std::path::PathBuf;
use std::time::Duration;

use boardcast_protocol::{
    ChannelEvent, ClientMessage, Encoding, ServerMessage, Side, Target, Watch,
};
use boardcast_tests::browser::{Browser, Driver, ForeignSite, screenshot_dir};
use boardcast_tests::client::Client;
use boardcast_tests::games::{RefGame, reference_games};
use boardcast_tests::web::{
    Ambiguity, Created, board_fen, choose, create_match, create_submitted, dest_squares,
    play_by_clicks, set_name, wait_fen, wait_match_page, wait_presence, wait_result,
};
use boardcast_tests::{ServerProcess, TestServer, free_addr, http_get};
use fantoccini::key::Key;
use serde_json::json;

/// The server under test: this package's build of it, or `BOARDCAST_SERVER_BIN` (for example
/// a release build, to measure the page budget as users get it).
fn server_bin() -> PathBuf {
    std::env::var_os("BOARDCAST_SERVER_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_boardcast-server-e2e")))
}

/// Starts the server quietly with `args`.
fn server(args: &[&str]) -> TestServer {
    let mut all = vec!["--log", "error"];
    all.extend_from_slice(args);
    TestServer::start(&server_bin(), &all)
}

/// Opens a WebSocket from the page the browser is on (so with that page's origin) and tells
/// how it went: `open`, or `closed:{code}` when the upgrade was refused.
const OPEN_SOCKET: &str = "
    const done = arguments[arguments.length - 1];
    const ws = new WebSocket(arguments[0], 'boardcast.v1.json');
    ws.onopen = () => { done('open'); ws.close(); };
    ws.onclose = (event) => done('closed:' + event.code);
";

#[tokio::test]
async fn the_harness_drives_chromium_against_the_server() {
    let Some(driver) =
        Driver::start_or_skip("the_harness_drives_chromium_against_the_server").await
    else {
        return;
    };
    let server = server(&[]);
    let browser = driver.browser(server.addr(), 1280, 800).await;
    browser.goto("/healthz").await;
    assert_eq!(browser.text("body").await, "ok");
    browser
        .screenshot(&screenshot_dir().join("harness-healthz.png"))
        .await;
    browser.close().await;
}

/// Issue 14, browser test 6: a page on another origin cannot open a player's WebSocket (the
/// upgrade is refused), while the server's own pages can, and so can a client that sends no
/// `Origin` (not a browser).
#[tokio::test]
async fn a_page_from_another_origin_cannot_open_the_websocket() {
    let Some(driver) =
        Driver::start_or_skip("a_page_from_another_origin_cannot_open_the_websocket").await
    else {
        return;
    };
    let server = server(&[]);
    let ws_url = format!("ws://{}/ws", server.addr());
    let browser = driver.browser(server.addr(), 1024, 768).await;

    // The server's own origin may.
    browser.goto("/healthz").await;
    let own = browser
        .client
        .execute_async(OPEN_SOCKET, vec![json!(ws_url)])
        .await
        .expect("the socket script runs");
    assert_eq!(own, json!("open"), "a page of the server's own origin");

    // An attacker's page on 127.0.0.2 tries, with the script in the page itself.
    let site = ForeignSite::serve(format!(
        "<!doctype html><title>elsewhere</title><body data-ws=\"trying\"><script>
         const ws = new WebSocket({url}, 'boardcast.v1.json');
         ws.onopen = () => {{ document.body.dataset.ws = 'open'; }};
         ws.onclose = (event) => {{
           if (document.body.dataset.ws === 'trying') document.body.dataset.ws = 'closed:' + event.code;
         }};
         </script></body>",
        url = json!(ws_url)
    ))
    .await;
    browser.goto(&site.url).await;
    let outcome = browser
        .wait_for_value(
            "the foreign page's socket to open or close",
            "const s = document.body.dataset.ws; return s === 'trying' ? null : s;",
            vec![],
            Duration::from_secs(30),
        )
        .await;
    assert_eq!(
        outcome,
        json!("closed:1006"),
        "the upgrade from http://127.0.0.2 must be refused (never opened)"
    );

    // The same refusal without a browser: the handshake with that Origin is answered 403;
    // without Origin (a terminal client, a bot) it is accepted.
    let origin = site.url.trim_end_matches('/');
    assert_eq!(handshake_status(server.addr(), Some(origin)).await, 403);
    assert_eq!(handshake_status(server.addr(), None).await, 101);
    browser.close().await;
}

/// The HTTP status the server answers a WebSocket handshake with, sending `origin` if given.
async fn handshake_status(addr: std::net::SocketAddr, origin: Option<&str>) -> u16 {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::HeaderValue;
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("a request");
    let headers = request.headers_mut();
    headers.insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("boardcast.v1.json"),
    );
    if let Some(origin) = origin {
        headers.insert("Origin", HeaderValue::from_str(origin).expect("an origin"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(err) => panic!("handshake failed without an HTTP answer: {err}"),
    }
}

/// Every ply of a reference game, as a player clicks it: the route, whether it captures,
/// and how to settle it on the board.
struct Ply {
    route: Vec<u8>,
    capture: bool,
    how: Ambiguity,
    promotes: bool,
}

/// The plies of `game`, with the frisian crate telling captures, promotions and routes that
/// share origin and destination with another legal capture.
fn plies(game: &RefGame) -> Vec<Ply> {
    let mut position = frisian::Position::from_fen(&game.start_fen).expect("the start FEN");
    let mut plies = Vec::new();
    for notation in &game.moves {
        let mv = position.parse_move(notation).expect("a reference move");
        let legal = position.legal_moves();
        let route: Vec<u8> = mv.route().iter().map(|sq| sq.number()).collect();
        let twins = legal
            .iter()
            .filter(|m| m.from() == mv.from() && m.to() == mv.to())
            .count();
        // The page plays a click on a square that is the next landing of exactly one legal
        // route at once: when another route's first landing is this one's destination, a
        // click on the destination alone would play that one, so click the route through.
        let shadowed = legal
            .iter()
            .any(|m| m.from() == mv.from() && *m != mv && m.route().get(1) == mv.route().last());
        let how = if twins > 1 {
            Ambiguity::Chooser
        } else if shadowed {
            Ambiguity::ClickThrough
        } else {
            Ambiguity::None
        };
        plies.push(Ply {
            route,
            capture: mv.is_capture(),
            how,
            promotes: mv.promotes(),
        });
        position = position.play(mv).expect("a legal reference move");
    }
    plies
}

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
    black.goto(&created.invite).await;
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

/// Seats two browsers in a new match (white creates with `time`, black opens the invite).
async fn seated_pair(
    driver: &Driver,
    server: std::net::SocketAddr,
    time: &str,
) -> (Browser, Browser, Created) {
    let white = driver.browser(server, 1280, 900).await;
    let black = driver.browser(server, 1280, 900).await;
    let created = create_match(&white, time, "white").await;
    black.goto(&created.invite).await;
    wait_match_page(&black, "black").await;
    wait_presence(&white, "white", "black", "connected").await;
    (white, black, created)
}

/// Plays the first `count` plies of `game` by clicks, alternating between the two browsers.
async fn play_opening(white: &Browser, black: &Browser, game: &RefGame, count: usize) {
    for (n, ply) in plies(game).iter().take(count).enumerate() {
        let mover = if game.mover(n) == Side::White {
            white
        } else {
            black
        };
        play_by_clicks(mover, &ply.route, ply.capture, ply.how).await;
        wait_fen(white, "white", &game.fens[n]).await;
        wait_fen(black, "black", &game.fens[n]).await;
    }
}

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
    let reason = position
        .move_from_route(&[quiet.0, quiet.1])
        .expect_err("the quiet move is illegal while a capture is compulsory")
        .to_string();
    let reason = if reason.starts_with("illegal move") {
        reason
    } else {
        format!("illegal move: {reason}")
    };
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
    // Fifteen seconds, no increment: white's clock runs from black's arrival, so leave
    // white time for the first move by clicks on a busy machine.
    white
        .type_into("form#create input[name=minutes]", "0.25")
        .await;
    white
        .type_into("form#create input[name=increment]", "0")
        .await;
    choose(&white, "form#create select[name=color]", "white").await;
    white.click("form#create [type=submit]").await;
    let created = create_submitted(&white).await;
    black.goto(&created.invite).await;
    wait_match_page(&black, "black").await;

    // White plays one move; black lets the clock run.
    let game = &reference_games()[0];
    play_opening(&white, &black, game, 1).await;
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

/// A position of a channel's game as the server revealed it (or as the snapshot had it).
#[derive(Debug, Clone)]
struct Reveal {
    game_id: u64,
    /// Plies revealed, this one included (the `next_ply` after it).
    plies: u32,
    /// The move revealed (`None` for a game's start or the snapshot).
    mv: Option<String>,
    board: String,
    /// When our own protocol watcher received it (ms since the epoch, as `Date.now()`).
    at_ms: u64,
}

fn epoch_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as u64
}

/// Watches `channel` with a protocol client of our own and records every position it
/// reveals, with the time it arrived, until aborted.
async fn record_reveals(
    addr: std::net::SocketAddr,
    channel: &str,
) -> (
    std::sync::Arc<std::sync::Mutex<Vec<Reveal>>>,
    tokio::task::JoinHandle<()>,
) {
    let mut watcher = Client::connect(addr, Encoding::Json)
        .await
        .expect("a protocol client");
    let id = watcher
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(channel.into()),
            since_v: None,
        }))
        .await
        .expect("watch");
    watcher.expect_ack(id).await.expect("watch acknowledged");
    let reveals = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = reveals.clone();
    let task = tokio::spawn(async move {
        let mut game_id = 0;
        while let Ok(message) = watcher.recv(Duration::from_secs(120)).await {
            let at_ms = epoch_ms();
            let game = match message {
                ServerMessage::ChannelSnapshot(snapshot) => snapshot.game,
                ServerMessage::ChannelEvent(event) => match event.event {
                    ChannelEvent::GameStarted(game) => Some(game),
                    ChannelEvent::PlyRevealed(revealed) => {
                        log.lock().expect("the log").push(Reveal {
                            game_id,
                            plies: revealed.ply + 1,
                            mv: Some(revealed.mv),
                            board: revealed.board,
                            at_ms,
                        });
                        None
                    }
                    ChannelEvent::GameEnded(_) => None,
                },
                _ => None,
            };
            if let Some(game) = game {
                game_id = game.header.game_id;
                log.lock().expect("the log").push(Reveal {
                    game_id,
                    plies: game.next_ply,
                    mv: None,
                    board: game.board,
                    at_ms,
                });
            }
        }
    });
    (reveals, task)
}

/// Installed before the TV page's own scripts: notes, at every change of the page, the game,
/// the plies revealed, the board as drawn and the page's markup (without the ticking
/// countdown and the viewer's own guess), with the time.
const TV_RECORDER: &str = r#"
(() => {
  window.__tv = [];
  let lastKey = '';
  const record = () => {
    const ply = document.querySelector('#game-info [data-role=ply]');
    const board = document.querySelector('#minit-board');
    const head = document.querySelector('#game-info .headline');
    if (!ply || !board || !head || !document.body) return;
    const game = /game (\d+)/.exec(head.textContent);
    if (!game) return;
    let layout = '';
    for (let rank = 6; rank >= 1; rank--) {
      for (const file of 'abcde') {
        const piece = board.querySelector('[data-square="' + file + rank + '"] [data-piece]');
        const code = piece ? piece.getAttribute('data-piece') : '';
        layout += code ? (code[0] === 'w' ? code[1].toUpperCase() : code[1].toLowerCase()) : '.';
      }
    }
    const markup = document.body.outerHTML
      .replace(/<span id="countdown"[^>]*>[^<]*<\/span>/, '')
      .replace(/<p id="prediction"[^>]*>[^<]*<\/p>/, '');
    const key = game[1] + ':' + ply.textContent + ':' + layout + ':' + markup;
    if (key === lastKey) return;
    lastKey = key;
    window.__tv.push({ t: Date.now(), game: Number(game[1]), plies: Number(ply.textContent), layout, markup });
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();
"#;

/// The plies-revealed counter the TV page shows.
async fn tv_plies(browser: &Browser) -> u32 {
    browser
        .text("#game-info [data-role=ply]")
        .await
        .parse()
        .unwrap_or(0)
}

/// Issue 14, browser test 5: the TV page reveals plies on time; a prediction made by clicking
/// a piece and a square gets its right/wrong mark and the standing; the page never holds a
/// ply before the server revealed it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tv_page_reveals_plies_on_time_and_takes_a_prediction_by_clicks() {
    let test = "the_tv_page_reveals_plies_on_time_and_takes_a_prediction_by_clicks";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let interval_ms: u64 = 2500;
    let interval = format!("{interval_ms}ms");
    let server = server(&[
        "--channels",
        "1",
        "--ply-interval",
        &interval,
        "--game-pause",
        "2s",
    ]);
    let (reveals, recorder) = record_reveals(server.addr(), "tv1").await;
    let viewer = driver.browser(server.addr(), 1280, 900).await;
    viewer.on_new_document(TV_RECORDER).await;
    viewer.goto("/tv/1").await;
    viewer
        .wait_until(
            "the TV board with pieces",
            "return document.body.dataset.conn === 'online'
                 && document.querySelector('#minit-board [data-piece]') !== null;",
            vec![],
        )
        .await;

    // Right after a reveal, pick a piece and a square for the coming ply.
    let shown = tv_plies(&viewer).await;
    viewer
        .wait_until(
            "the next reveal",
            "const p = document.querySelector('#game-info [data-role=ply]');
             return p !== null && Number(p.textContent) !== arguments[0]
                 && document.querySelector('#minit-board .movable') !== null;",
            vec![json!(shown)],
        )
        .await;
    let ply = tv_plies(&viewer).await;
    let layout = viewer
        .js("return window.__tv[window.__tv.length - 1].layout;", vec![])
        .await;
    let board = minitchess::Board::from_layout(layout.as_str().expect("a layout"), &[])
        .expect("the page's board is a board");
    let side = if ply % 2 == 0 {
        minitchess::Color::White
    } else {
        minitchess::Color::Black
    };
    let legal: Vec<String> = minitchess::legal_moves(&board, side)
        .iter()
        .map(|mv| mv.to_string())
        .collect();
    let from = viewer
        .attrs("#minit-board [data-square].movable", "data-square")
        .await
        .into_iter()
        .next()
        .expect("a piece to move");
    viewer
        .click(&format!("#minit-board [data-square=\"{from}\"]"))
        .await;
    viewer.wait_for("#minit-board .dest").await;
    let mut offered = viewer
        .attrs("#minit-board [data-square].dest", "data-square")
        .await;
    offered.sort();
    let mut expected: Vec<String> = legal
        .iter()
        .filter_map(|mv| mv.strip_prefix(&format!("{from}-")).map(str::to_owned))
        .collect();
    expected.sort();
    assert_eq!(
        offered, expected,
        "only legal squares from {from} are offered"
    );
    let guess = format!("{from}-{}", offered[0]);
    viewer
        .click(&format!("#minit-board [data-square=\"{}\"]", offered[0]))
        .await;
    viewer
        .wait_until(
            "the guess to be shown",
            "const p = document.querySelector('#prediction');
             return p.getAttribute('data-state') === 'waiting' && p.textContent.includes(arguments[0]);",
            vec![json!(guess)],
        )
        .await;
    let mark = viewer
        .wait_until(
            "the right/wrong mark",
            "const s = document.querySelector('#prediction').getAttribute('data-state');
             return s === 'correct' || s === 'wrong' ? s : null;",
            vec![],
        )
        .await;
    let actual = reveals
        .lock()
        .expect("the log")
        .iter()
        .find(|r| r.plies == ply + 1 && r.mv.is_some())
        .and_then(|r| r.mv.clone())
        .expect("the server revealed the predicted ply");
    let right = actual == guess;
    assert_eq!(
        mark,
        json!(if right { "correct" } else { "wrong" }),
        "guessed {guess}, the server revealed {actual}"
    );
    assert!(viewer.text("#prediction").await.contains(&actual));
    let standing = viewer.text("#standing").await;
    let expected_standing = if right {
        "1 right, 0 strikes"
    } else {
        "0 right, 1 strikes"
    };
    assert!(
        standing.contains(expected_standing),
        "standing {standing:?} after one {mark} guess"
    );

    // Two more reveals, then check everything the page ever showed.
    let now = tv_plies(&viewer).await;
    viewer
        .wait_until(
            "two more reveals",
            "return Number(document.querySelector('#game-info [data-role=ply]').textContent) >= arguments[0];",
            vec![json!(now + 2)],
        )
        .await;
    let log = viewer.js("return window.__tv;", vec![]).await;
    recorder.abort();
    let reveals = reveals.lock().expect("the log").clone();
    check_tv_log(&log, &reveals, &guess, interval_ms);
    viewer
        .screenshot(&screenshot_dir().join("tv-prediction.png"))
        .await;
    viewer.close().await;
}

/// Every state the TV page showed: its board is the server's board after the plies it says
/// are revealed, shown no earlier than the server revealed them, without the coming move
/// anywhere in the page; and reveals followed one another at the channel's pace.
fn check_tv_log(log: &serde_json::Value, reveals: &[Reveal], guess: &str, interval_ms: u64) {
    let entries = log.as_array().expect("the page's log");
    assert!(!entries.is_empty(), "the page recorded nothing");
    let mut first_shown: Vec<(u64, u32, u64)> = Vec::new();
    for entry in entries {
        let game = entry["game"].as_u64().expect("game");
        let plies = entry["plies"].as_u64().expect("plies") as u32;
        let t = entry["t"].as_u64().expect("time");
        let layout = entry["layout"].as_str().expect("layout");
        let markup = entry["markup"].as_str().expect("markup");
        let Some(reveal) = reveals
            .iter()
            .find(|r| r.game_id == game && r.plies == plies)
        else {
            panic!(
                "the page showed game {game} after {plies} plies, which the server never revealed to our watcher"
            );
        };
        assert_eq!(
            layout, reveal.board,
            "game {game}, {plies} plies: the board drawn"
        );
        assert!(
            t + 300 >= reveal.at_ms,
            "game {game}: ply {plies} was on the page at {t}, before the server revealed it at {}",
            reveal.at_ms
        );
        let played: Vec<&str> = reveals
            .iter()
            .filter(|r| r.game_id == game && r.plies <= plies)
            .filter_map(|r| r.mv.as_deref())
            .collect();
        if let Some(coming) = reveals
            .iter()
            .find(|r| r.game_id == game && r.plies == plies + 1)
            .and_then(|r| r.mv.as_deref())
        {
            if !played.contains(&coming) && coming != guess {
                assert!(
                    !markup.contains(coming),
                    "game {game}: the page held the coming move {coming} after only {plies} plies"
                );
            }
        }
        if first_shown
            .last()
            .is_none_or(|&(g, p, _)| (g, p) != (game, plies))
        {
            first_shown.push((game, plies, t));
        }
    }
    // Pace: consecutive reveals of one game no sooner than the interval allows, and each shown
    // soon after the server sent it (generous bounds for a loaded machine).
    // (The first state is the page loading, not a reveal.)
    let mut gaps = Vec::new();
    for pair in first_shown[1..].windows(2) {
        let ((g1, p1, t1), (g2, p2, t2)) = (pair[0], pair[1]);
        if g1 == g2 && p2 == p1 + 1 {
            gaps.push(t2 - t1);
        }
    }
    eprintln!(
        "TV page: reveals shown {interval_ms} ms apart as planned, measured gaps {gaps:?} ms"
    );
    assert!(
        gaps.len() >= 2,
        "the page showed at least three consecutive reveals: {first_shown:?}"
    );
    for gap in &gaps {
        assert!(
            *gap * 10 >= interval_ms * 6 && *gap <= interval_ms * 3,
            "reveals {interval_ms} ms apart were shown {gap} ms apart"
        );
    }
    let server_gaps: Vec<u64> = reveals
        .windows(2)
        .filter(|w| {
            w[0].game_id == w[1].game_id && w[1].plies == w[0].plies + 1 && w[0].mv.is_some()
        })
        .map(|w| w[1].at_ms - w[0].at_ms)
        .collect();
    for gap in &server_gaps {
        assert!(
            *gap * 10 >= interval_ms * 8,
            "the server revealed plies {gap} ms apart, less than its interval {interval_ms} ms"
        );
    }
}

/// Installed before the match page's own scripts: the time (ms from navigation start) when
/// the board first shows a position with the socket online.
const INTERACTIVE_RECORDER: &str = r#"
(() => {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('open', () => {
        if (window.__socketOpen === undefined) window.__socketOpen = performance.now();
      });
    }
  };
  const check = () => {
    if (window.__interactive !== undefined || !document.body) return;
    const board = document.getElementById('board');
    if (board && board.getAttribute('data-fen') && document.body.dataset.conn === 'online') {
      window.__interactive = performance.now();
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();
"#;

/// Everything the page downloaded: the document and every resource, uncompressed and as
/// transferred, and the number of requests.
const DOWNLOADED: &str = "
    const nav = performance.getEntriesByType('navigation')[0];
    const res = performance.getEntriesByType('resource');
    return {
      decoded: nav.decodedBodySize + res.reduce((sum, r) => sum + r.decodedBodySize, 0),
      transferred: nav.transferSize + res.reduce((sum, r) => sum + r.transferSize, 0),
      requests: 1 + res.length,
      document_ms: nav.responseEnd,
      socket_open_ms: window.__socketOpen,
      dom_ready_ms: nav.domContentLoadedEventEnd,
      loaded_ms: nav.loadEventEnd,
      files: res.map(r => r.name.replace(location.origin, '') + ' ' + r.decodedBodySize),
    };
";

/// The match page's budget (issue 14: at most 150 KB uncompressed). Returns the bytes and the
/// time to interactive measured by a browser with an empty cache.
async fn measure_match_page(driver: &Driver, server: &TestServer, match_id: &str) -> (u64, f64) {
    let fresh = driver.browser(server.addr(), 1280, 900).await;
    // A running browser (its first page costs a renderer's start) with an empty cache: a
    // page of the site that loads none of the client's files.
    fresh.goto("/healthz").await;
    fresh.on_new_document(INTERACTIVE_RECORDER).await;
    fresh.goto(&format!("/m/{match_id}")).await;
    let interactive = fresh
        .wait_until(
            "the match page to become interactive",
            "return window.__interactive === undefined ? null : window.__interactive;",
            vec![],
        )
        .await
        .as_f64()
        .expect("a time");
    let downloaded = fresh.js(DOWNLOADED, vec![]).await;
    fresh.close().await;
    let bytes = downloaded["decoded"].as_u64().expect("bytes");
    eprintln!(
        "match page: {bytes} bytes uncompressed, {} transferred, {} requests; document at {:.0} ms, \
         DOMContentLoaded {:.0} ms, load {:.0} ms, socket open {:.0} ms, interactive (board and \
         socket online) {interactive:.0} ms; files {}",
        downloaded["transferred"],
        downloaded["requests"],
        downloaded["document_ms"].as_f64().unwrap_or(f64::NAN),
        downloaded["dom_ready_ms"].as_f64().unwrap_or(f64::NAN),
        downloaded["loaded_ms"].as_f64().unwrap_or(f64::NAN),
        downloaded["socket_open_ms"].as_f64().unwrap_or(f64::NAN),
        downloaded["files"]
    );
    (bytes, interactive)
}

/// Issue 14, browser test 7: screenshots of the lobby, a match in progress (desktop and a
/// 360 px phone) and the TV page under `target/screenshots/`; the phone page does not scroll
/// sideways; and the match page's size and time to interactive for BENCHMARKS.md.
#[tokio::test]
async fn screenshots_of_lobby_match_and_tv_and_the_match_page_budget() {
    let test = "screenshots_of_lobby_match_and_tv_and_the_match_page_budget";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--channels", "1", "--ply-interval", "1s"]);
    let dir = screenshot_dir();
    let white = driver.browser(server.addr(), 1280, 900).await;
    let phone = driver.browser(server.addr(), 360, 780).await;
    set_name(&white, "Sietske").await;
    set_name(&phone, "Wytze").await;
    let created = create_match(&white, "10+5", "white").await;
    phone.goto(&created.invite).await;
    wait_match_page(&phone, "black on the phone").await;
    let game = &reference_games()[1];
    play_opening(&white, &phone, game, 9).await;

    // The match in progress, desktop and phone (the phone player's own view).
    white.screenshot(&dir.join("match-desktop.png")).await;
    phone.screenshot(&dir.join("match-360.png")).await;
    // And in the dark theme, as a system set to dark shows it.
    white
        .cdp(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
        )
        .await;
    white
        .wait_until(
            "the dark theme",
            "return matchMedia('(prefers-color-scheme: dark)').matches;",
            vec![],
        )
        .await;
    white.screenshot(&dir.join("match-desktop-dark.png")).await;
    let widths = phone
        .js(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await;
    assert_eq!(
        widths[1],
        json!(360),
        "the phone's viewport is 360 CSS pixels"
    );
    assert!(
        widths[0].as_u64() <= Some(360),
        "the match page scrolls sideways at 360 px: {widths}"
    );

    // Budget, by a browser that has never seen the site.
    let mut figures = Vec::new();
    for _ in 0..3 {
        figures.push(measure_match_page(&driver, &server, &created.match_id).await);
    }
    let bytes = figures[0].0;
    let mut times: Vec<f64> = figures.iter().map(|f| f.1).collect();
    times.sort_by(f64::total_cmp);
    eprintln!(
        "match page budget: {bytes} bytes uncompressed (limit 153600); interactive {times:?} ms from navigation start"
    );
    assert!(
        bytes <= 150 * 1024,
        "the match page downloads {bytes} bytes, over the 150 KB budget"
    );

    // The lobby with the live match and the TV channel listed.
    let lobby = driver.browser(server.addr(), 1280, 900).await;
    lobby.goto("/").await;
    lobby
        .wait_for(&format!("[data-live=\"{}\"]", created.match_id))
        .await;
    lobby.wait_for("[data-channel=\"tv1\"]").await;
    lobby.screenshot(&dir.join("lobby.png")).await;

    // The TV page with a few plies revealed, desktop and phone.
    lobby.goto("/tv/1").await;
    lobby
        .wait_until(
            "a few plies on TV",
            "const p = document.querySelector('#game-info [data-role=ply]');
             return p !== null && Number(p.textContent) >= 3;",
            vec![],
        )
        .await;
    lobby.screenshot(&dir.join("tv.png")).await;
    phone.goto("/tv/1").await;
    phone.wait_for("#minit-board [data-piece]").await;
    phone.screenshot(&dir.join("tv-360.png")).await;
    let width = phone
        .js("return document.documentElement.scrollWidth;", vec![])
        .await;
    assert!(
        width.as_u64() <= Some(360),
        "the TV page scrolls sideways at 360 px: {width}"
    );
    for browser in [white, phone, lobby] {
        browser.close().await;
    }
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

/// Creates a public and a private match from `host`'s lobby; returns both, once a passer-by's
/// lobby lists the public seek.
async fn public_and_private(host: &Browser, passer_by: &Browser) -> (Created, Created) {
    let public = create_match(host, "5+3", "white").await;
    passer_by.goto("/").await;
    passer_by
        .wait_for(&format!("[data-seek=\"{}\"]", public.match_id))
        .await;
    host.goto("/").await;
    host.wait_visible("form#create").await;
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
    let (public, private) = public_and_private(&host, &passer_by).await;
    let seeks = lobby_entries(&passer_by, &public, "data-seek").await;
    assert!(
        !seeks.contains(&private.match_id),
        "the private match is offered in the lobby: {seeks:?}"
    );
    friend.goto(&private.invite).await;
    wait_match_page(&friend, "the friend").await;
    assert_eq!(
        friend.attr("#board", "data-orientation").await.as_deref(),
        Some("black")
    );
    wait_presence(&host, "the host", "black", "connected").await;
    for browser in [host, friend, passer_by] {
        browser.close().await;
    }
}

/// A private match being played is not listed among the lobby's live matches either (the
/// issue: "a private match is reachable only through its link").
#[tokio::test]
#[ignore = "the server lists private matches among live matches (Hub::lobby); see the issue-14 test report"]
async fn a_private_match_in_play_is_not_listed_among_live_matches() {
    let test = "a_private_match_in_play_is_not_listed_among_live_matches";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let friend = driver.browser(server.addr(), 1280, 900).await;
    let passer_by = driver.browser(server.addr(), 1280, 900).await;
    let (public, private) = public_and_private(&host, &passer_by).await;
    friend.goto(&private.invite).await;
    wait_match_page(&friend, "the friend").await;
    wait_presence(&host, "the host", "black", "connected").await;
    let live = lobby_entries(&passer_by, &public, "data-live").await;
    assert!(
        !live.contains(&private.match_id),
        "the private match is listed among live matches: {live:?}"
    );
    for browser in [host, friend, passer_by] {
        browser.close().await;
    }
}

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

/// The match page's buttons as two people use them: a draw offered and accepted, a rematch
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

    // Draw: offered by white, accepted by black.
    white.click("[data-action=offer-draw]").await;
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
    assert_eq!(
        white.attr("#board", "data-orientation").await.as_deref(),
        Some("black")
    );
    assert_eq!(
        black.attr("#board", "data-orientation").await.as_deref(),
        Some("white")
    );

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

/// When the opponent has gone (closed the page) for the grace period, the player still there
/// sees the countdown and then claims the win with the button.
#[tokio::test]
async fn a_player_claims_the_win_when_the_opponent_is_gone() {
    let test = "a_player_claims_the_win_when_the_opponent_is_gone";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--grace", "8s"]);
    let game = &reference_games()[0];
    let (white, black, _) = seated_pair(&driver, server.addr(), "15+10").await;
    play_opening(&white, &black, game, 1).await;

    black.close().await;
    wait_presence(&white, "white", "black", "gone").await;
    white.wait_visible("#claim").await;
    assert!(
        white
            .text("#claim")
            .await
            .contains("you may claim the game in"),
        "the countdown: {:?}",
        white.text("#claim").await
    );
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
