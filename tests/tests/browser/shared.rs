// What every browser test shares: the imports, the browser this build drives, the server and
// the helpers for playing through the page. Included by `main.rs` (Chromium, every test) and by
// `../firefox.rs` (Firefox, the tests a browser engine can change), so it has no inner docs.

use std::path::PathBuf;
use std::time::Duration;

use boardcast_protocol::{
    ChannelEvent, ClientMessage, Encoding, ServerMessage, Side, Target, Watch,
};
use boardcast_tests::browser::{self, Browser, Driver, Engine, ForeignSite};
use boardcast_tests::client::Client;
use boardcast_tests::games::{RefGame, reference_games};
use boardcast_tests::web::{
    Ambiguity, Created, accept_invite, board_fen, choose, create_match, create_submitted,
    dest_squares, play_by_clicks, set_name, wait_fen, wait_match_page, wait_presence, wait_result,
};
use boardcast_tests::{ServerProcess, TestServer, free_addr, http_get};
use fantoccini::key::Key;
use serde_json::json;

/// The browser this build of the suite drives: Firefox as the `firefox` test, else Chromium.
const ENGINE: Engine = match env!("CARGO_CRATE_NAME").as_bytes() {
    b"firefox" => Engine::Firefox,
    _ => Engine::Chromium,
};

/// `Driver::start_or_skip(test)` in every test starts the driver of this build's [`ENGINE`].
trait StartDriver {
    async fn start_or_skip(test: &str) -> Option<Driver>;
}

impl StartDriver for Driver {
    async fn start_or_skip(test: &str) -> Option<Driver> {
        Driver::start_or_skip_in(ENGINE, test).await
    }
}

/// Where this build's screenshots go (Firefox's beside Chromium's, in `firefox/`).
fn screenshot_dir() -> PathBuf {
    browser::screenshot_dir(ENGINE)
}

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

/// Seats two browsers in a new match (white creates with `time`, black opens the invite).
async fn seated_pair(
    driver: &Driver,
    server: std::net::SocketAddr,
    time: &str,
) -> (Browser, Browser, Created) {
    let white = driver.browser(server, 1280, 900).await;
    let black = driver.browser(server, 1280, 900).await;
    let created = create_match(&white, time, "white").await;
    accept_invite(&black, &created.invite, "Wytze").await;
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

/// Installed before the page's own scripts: the page's socket is `window.__socket`, and while
/// `window.__letConnect` is false every socket it opens fails at once, as one to a server that
/// cannot be reached does (a stand-in: real failed attempts make Chromium throttle the next
/// ones to the same address, the server's).
const HELD_SOCKET: &str = r#"
(() => {
  const Native = window.WebSocket;
  window.__letConnect = true;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      if (!window.__letConnect) {
        const failing = { readyState: 3, send() {}, close() {} };
        setTimeout(() => failing.onclose && failing.onclose({ code: 1006, reason: '' }), 50);
        return failing;
      }
      super(url, protocols);
      window.__socket = this;
    }
  };
})();
"#;
