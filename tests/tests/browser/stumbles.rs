//! Issue 27, items 9–18: what made people stumble in the web client when they tried it from
//! outside (compulsory captures without a word, a move list that never scrolled, the chooser
//! out of the keyboard's reach, the invited friend without a name, long names, typing while
//! browsing the moves, and what axe and Lighthouse found).
//!
//! Positions are reached quickly: two protocol clients play a reference game's first plies,
//! and a browser is handed one of their seats (its token in `localStorage`, as the page keeps
//! the seats it holds), then does what a person does.

use super::*;

use boardcast_protocol::{ColorChoice, Seat};
use boardcast_tests::web::route_notation;

/// Two protocol clients seated in a new public match, White then Black.
pub(super) struct Table {
    pub(super) white: Client,
    pub(super) white_seat: Seat,
    black: Client,
    pub(super) black_seat: Seat,
}

impl Table {
    pub(super) async fn open(addr: std::net::SocketAddr) -> Table {
        let mut white = Client::connect(addr, Encoding::Json).await.unwrap();
        white.hello("Sietske").await.unwrap();
        let white_seat = white
            .create_match(ColorChoice::White, true, None)
            .await
            .unwrap();
        let mut black = Client::connect(addr, Encoding::Json).await.unwrap();
        black.hello("Wytze").await.unwrap();
        let black_seat = black.join_match(&white_seat.match_id).await.unwrap();
        Table {
            white,
            white_seat,
            black,
            black_seat,
        }
    }

    /// Plays the first `count` plies of `game`.
    pub(super) async fn play(&mut self, game: &RefGame, count: usize) {
        for (n, ply) in plies(game).iter().take(count).enumerate() {
            if game.mover(n) == Side::White {
                self.white.play(&self.white_seat, &ply.route).await.unwrap();
            } else {
                self.black.play(&self.black_seat, &ply.route).await.unwrap();
            }
        }
    }

    fn seat(&self, side: Side) -> &Seat {
        match side {
            Side::White => &self.white_seat,
            Side::Black => &self.black_seat,
        }
    }
}

/// Gives `browser` the seat (as if it had taken it itself) and opens its match page. Its ack
/// ids start far above the protocol client's, which used the same seat before.
pub(super) async fn hand_seat(browser: &Browser, seat: &Seat) {
    browser.goto("/").await;
    browser
        .js(
            "localStorage.setItem('bc.seat.' + arguments[0].match_id, JSON.stringify(arguments[0]));
             localStorage.setItem('bc.nextId', '1000000');",
            vec![json!({
                "match_id": seat.match_id,
                "token": seat.token,
                "side": if seat.side == Side::White { "white" } else { "black" },
                "invite_code": seat.invite_code,
            })],
        )
        .await;
    browser.goto(&format!("/m/{}", seat.match_id)).await;
    wait_match_page(browser, "the seated browser").await;
}

/// `28`, `28 or 33`, `28, 33 or 37`.
fn or_list(items: &[u8]) -> String {
    let words: Vec<String> = items.iter().map(u8::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// The reference game with the earliest ply whose capture must be settled in the chooser,
/// and that ply's index.
fn first_chooser_ply() -> (&'static RefGame, usize) {
    reference_games()
        .iter()
        .filter_map(|game| {
            plies(game)
                .iter()
                .position(|p| p.how == Ambiguity::Chooser)
                .map(|n| (game, n))
        })
        .min_by_key(|(_, n)| *n)
        .expect("a reference game with an ambiguous capture")
}

/// Item 9: clicking a piece that may not move while a capture is compulsory says which pieces
/// must capture, and the pieces that can move are marked on the board without any pointer.
#[tokio::test]
async fn a_piece_that_may_not_move_says_which_must_capture_and_movable_pieces_are_marked() {
    let test = "a_piece_that_may_not_move_says_which_must_capture_and_movable_pieces_are_marked";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = &reference_games()[0];
    let all = plies(game);
    let before = (0..all.len())
        .find(|&n| all[n].capture && game.mover(n) == Side::Black)
        .expect("black captures in the game");
    let mut table = Table::open(server.addr()).await;
    table.play(game, before).await;
    let position = frisian::Position::from_fen(&game.fens[before - 1]).expect("a FEN");
    let legal = position.legal_moves();
    assert!(legal.iter().all(|m| m.is_capture()), "a compulsory capture");
    let mut capturers: Vec<u8> = legal.iter().map(|m| m.from().number()).collect();
    capturers.sort_unstable();
    capturers.dedup();
    let idle = position
        .pieces(frisian::Color::Black)
        .iter()
        .map(|sq| sq.number())
        .find(|sq| !capturers.contains(sq))
        .expect("a black piece that may not move");

    let phone = driver.browser(server.addr(), 360, 780).await;
    hand_seat(&phone, table.seat(Side::Black)).await;
    wait_fen(&phone, "black", &game.fens[before - 1]).await;
    phone
        .click(&format!("#board [data-square=\"{idle}\"]"))
        .await;
    let expected = format!("{} must capture", or_list(&capturers));
    phone
        .wait_until(
            &format!("the notice {expected:?}"),
            "return document.querySelector('#notice').textContent === arguments[0];",
            vec![json!(expected)],
        )
        .await;
    // Marked by a ring on the square, visible without hovering: movable squares are drawn
    // differently from the idle piece's.
    let ring =
        "const ring = document.querySelector('#board [data-square=\"' + arguments[0] + '\"] .ring');
                return getComputedStyle(ring).stroke + ' ' + getComputedStyle(ring).strokeWidth;";
    let idle_look = phone.js(ring, vec![json!(idle)]).await;
    for square in &capturers {
        assert!(
            phone
                .attr(&format!("#board [data-square=\"{square}\"]"), "class")
                .await
                .unwrap_or_default()
                .contains("movable"),
            "{square} is marked movable"
        );
        let look = phone.js(ring, vec![json!(square)]).await;
        assert_ne!(
            look, idle_look,
            "{square} (can capture) looks like {idle} (cannot move)"
        );
    }
    phone
        .screenshot(&screenshot_dir().join("must-capture-360.png"))
        .await;
    // Picking a capturing piece takes the word away.
    phone
        .click(&format!("#board [data-square=\"{}\"]", capturers[0]))
        .await;
    phone
        .wait_until(
            "the notice gone",
            "return document.querySelector('#notice').textContent === '' ? 'gone' : null;",
            vec![],
        )
        .await;
    phone.close().await;
}

/// Item 10: the move list follows the game to its last move, and back to the first when one
/// steps there.
#[tokio::test]
async fn the_move_list_keeps_the_current_move_in_view() {
    let test = "the_move_list_keeps_the_current_move_in_view";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let game = reference_games()
        .iter()
        .find(|game| game.moves.len() >= 40)
        .expect("a reference game of 40 plies");
    let mut table = Table::open(server.addr()).await;
    let watcher = driver.browser(server.addr(), 1280, 900).await;
    watcher
        .goto(&format!("/m/{}", table.white_seat.match_id))
        .await;
    wait_match_page(&watcher, "the spectator").await;
    table.play(game, 40).await;
    wait_fen(&watcher, "the spectator", &game.fens[39]).await;
    let in_view = "const list = document.querySelector('#moves');
                   const b = list.querySelector('[data-ply=\"' + arguments[0] + '\"]');
                   if (b === null || !b.classList.contains('current')) return null;
                   const box = list.getBoundingClientRect(), r = b.getBoundingClientRect();
                   return [r.top >= box.top - 1 && r.bottom <= box.bottom + 1, list.scrollTop];";
    let last = watcher
        .wait_until("ply 40 current", in_view, vec![json!(40)])
        .await;
    assert_eq!(last[0], json!(true), "the last move is in view: {last}");
    watcher
        .screenshot(&screenshot_dir().join("moves-scrolled.png"))
        .await;
    watcher.press(char::from(Key::Home)).await;
    watcher.press(char::from(Key::Right)).await;
    let first = watcher
        .wait_until("ply 1 current", in_view, vec![json!(1)])
        .await;
    assert_eq!(first[0], json!(true), "the first move is in view: {first}");
    watcher.close().await;
}

/// Item 11: an ambiguous typed move opens the chooser with the focus in it and the move box
/// empty; once the route is chosen the focus is back in the move box.
#[tokio::test]
async fn a_typed_ambiguous_move_moves_the_focus_into_the_chooser_and_back() {
    let test = "a_typed_ambiguous_move_moves_the_focus_into_the_chooser_and_back";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let (game, n) = first_chooser_ply();
    let ply = &plies(game)[n];
    let mut table = Table::open(server.addr()).await;
    table.play(game, n).await;
    let player = driver.browser(server.addr(), 1280, 900).await;
    hand_seat(&player, table.seat(game.mover(n))).await;
    wait_fen(&player, "the player", &game.fens[n - 1]).await;
    let typed = format!("{}x{}", ply.route[0], ply.route.last().unwrap());
    player
        .type_into("#move-input", &format!("{typed}{}", char::from(Key::Enter)))
        .await;
    let focused = player
        .wait_until(
            "the focus in the chooser",
            "const a = document.activeElement;
             return a !== null && a.closest('#chooser') !== null ? a.dataset.route : null;",
            vec![],
        )
        .await;
    assert!(focused.is_string(), "a route has the focus: {focused}");
    assert_eq!(
        player
            .js(
                "return document.querySelector('#move-input').value;",
                vec![]
            )
            .await,
        json!(""),
        "the typed text is used up"
    );
    let full = route_notation(&ply.route, true);
    player.click(&format!("[data-route=\"{full}\"]")).await;
    wait_fen(&player, "the player", &game.fens[n]).await;
    player
        .wait_until(
            "the focus back in the move box",
            "return document.activeElement && document.activeElement.id === 'move-input';",
            vec![],
        )
        .await;
    player.close().await;
}

/// Item 16: a move typed while the list shows an earlier position is played on the live one.
#[tokio::test]
async fn a_move_typed_while_browsing_the_moves_is_played_on_the_live_position() {
    let test = "a_move_typed_while_browsing_the_moves_is_played_on_the_live_position";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let (game, n) = first_chooser_ply();
    let ply = &plies(game)[n];
    let mut table = Table::open(server.addr()).await;
    table.play(game, n).await;
    let player = driver.browser(server.addr(), 1280, 900).await;
    hand_seat(&player, table.seat(game.mover(n))).await;
    wait_fen(&player, "the player", &game.fens[n - 1]).await;
    player.press(char::from(Key::Home)).await;
    player
        .wait_until(
            "the first position shown",
            "return document.querySelector('#status').textContent.includes('after ply 0');",
            vec![],
        )
        .await;
    let typed = format!("{}x{}", ply.route[0], ply.route.last().unwrap());
    player
        .type_into("#move-input", &format!("{typed}{}", char::from(Key::Enter)))
        .await;
    player.wait_visible("#chooser [data-route]").await;
    assert_eq!(
        board_fen(&player).await.as_deref(),
        Some(game.fens[n - 1].as_str()),
        "the chooser is shown on the live position"
    );
    let full = route_notation(&ply.route, true);
    player.click(&format!("[data-route=\"{full}\"]")).await;
    wait_fen(&player, "the player", &game.fens[n]).await;
    player.close().await;
}

/// The ack-id counter is one per browser (every tab holds the same seats): a page open from
/// before another raised it, as a lobby in a second tab, does not put it back down when it
/// sends, so the seat's next move gets a new id and is played, not answered as a re-sent
/// duplicate of a move the seat made long ago (Firefox, slower to connect, met this in
/// `hand_seat` itself: the lobby's `hello` went out after the raise).
#[tokio::test]
async fn a_page_open_from_before_does_not_lower_the_ids_a_seat_moves_with() {
    let test = "a_page_open_from_before_does_not_lower_the_ids_a_seat_moves_with";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let (game, n) = first_chooser_ply();
    let ply = &plies(game)[n];
    let mut table = Table::open(server.addr()).await;
    table.play(game, n).await;
    let seat = table.seat(game.mover(n));
    let player = driver.browser(server.addr(), 1280, 900).await;
    player.goto("/").await;
    player
        .wait_until(
            "the lobby online",
            "return document.body.dataset.conn === 'online';",
            vec![],
        )
        .await;
    // Another tab takes the seat and raises the counter while this lobby stays open.
    player
        .js(
            "localStorage.setItem('bc.seat.' + arguments[0].match_id, JSON.stringify(arguments[0]));
             localStorage.setItem('bc.nextId', '1000000');",
            vec![json!({
                "match_id": seat.match_id,
                "token": seat.token,
                "side": if seat.side == Side::White { "white" } else { "black" },
                "invite_code": seat.invite_code,
            })],
        )
        .await;
    // The lobby sends (a new name) with its own, lower counter.
    player
        .type_into("input#name", &format!("Sietske{}", char::from(Key::Tab)))
        .await;
    player
        .wait_until(
            "the new name kept",
            "return localStorage.getItem('bc.name') === 'Sietske';",
            vec![],
        )
        .await;
    let kept = player
        .js("return Number(localStorage.getItem('bc.nextId'));", vec![])
        .await;
    assert!(
        kept.as_f64().is_some_and(|id| id >= 1_000_000.0),
        "the raised counter stands: {kept}"
    );
    player.goto(&format!("/m/{}", seat.match_id)).await;
    wait_match_page(&player, "the seated browser").await;
    wait_fen(&player, "the player", &game.fens[n - 1]).await;
    let full = route_notation(&ply.route, true);
    player
        .type_into("#move-input", &format!("{full}{}", char::from(Key::Enter)))
        .await;
    wait_fen(&player, "the player", &game.fens[n]).await;
    player.close().await;
}

/// Item 12: the friend who opens an invite link names themselves (the remembered name filled
/// in), and that name is the one the opponent sees and the game's record keeps.
#[tokio::test]
async fn the_invited_friend_gives_a_name_before_taking_the_seat() {
    let test = "the_invited_friend_gives_a_name_before_taking_the_seat";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let friend = driver.browser(server.addr(), 360, 780).await;
    set_name(&host, "Sietske").await;
    set_name(&friend, "Wytze").await;
    let created = create_match(&host, "10+5", "white").await;
    friend.goto(&created.invite).await;
    friend.wait_visible("form#join-form").await;
    assert_eq!(
        friend
            .js(
                "return document.querySelector('form#join-form input[name=name]').value;",
                vec![]
            )
            .await,
        json!("Wytze"),
        "the remembered name is filled in"
    );
    friend
        .screenshot(&screenshot_dir().join("invite-name-360.png"))
        .await;
    accept_invite(&friend, &created.invite, "Hylke").await;
    wait_match_page(&friend, "the friend").await;
    host.wait_until(
        "the friend's name on the host's page",
        "return document.querySelector('[data-presence=black] .name')?.textContent === 'Hylke';",
        vec![],
    )
    .await;
    host.click("[data-action=abort]").await;
    wait_result(&host, "the host", PATIENCE_END).await;
    let (status, pdn) =
        http_get(server.addr(), &format!("/games/{}.pdn", created.match_id)).expect("the PDN");
    assert_eq!(status, 200, "{pdn}");
    assert!(pdn.contains("[Black \"Hylke\"]"), "{pdn}");
    assert!(pdn.contains("[White \"Sietske\"]"), "{pdn}");
    host.close().await;
    friend.close().await;
}

/// How long a test waits for a result the page asked for itself.
const PATIENCE_END: Duration = Duration::from_secs(30);

/// Item 14: a name of 32 × W neither makes the lobby scroll sideways (desktop and phone) nor
/// cuts the colour label in the match header. At 360 px the guests' names are shown whole,
/// wrapped, not cut to a few letters, and each keeps its "(guest)" mark in view.
#[tokio::test]
async fn a_long_name_neither_widens_the_lobby_nor_cuts_the_colour_label() {
    let test = "a_long_name_neither_widens_the_lobby_nor_cuts_the_colour_label";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let long = "W".repeat(32);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let phone = driver.browser(server.addr(), 360, 780).await;
    // Someone else's lobby at desktop width: the host stays on the seek's page (a seek whose
    // creator left it leaves the lobby).
    let desktop = driver.browser(server.addr(), 1280, 900).await;
    set_name(&host, &long).await;
    let created = create_match(&host, "5+3", "white").await;
    let overflow = "return [document.documentElement.scrollWidth, window.innerWidth];";
    for (who, browser) in [("desktop", &desktop), ("phone", &phone)] {
        browser.goto("/").await;
        browser
            .wait_for(&format!("[data-seek=\"{}\"]", created.match_id))
            .await;
        let widths = browser.js(overflow, vec![]).await;
        assert!(
            widths[0].as_u64() <= widths[1].as_u64(),
            "the {who} lobby scrolls sideways with a long name: {widths}"
        );
    }
    phone
        .screenshot(&screenshot_dir().join("lobby-long-name-360.png"))
        .await;
    desktop.close().await;
    accept_invite(&phone, &created.invite, &long).await;
    wait_match_page(&phone, "the phone").await;
    let label = "const row = document.querySelector('[data-presence=\"' + arguments[0] + '\"]');
                 const c = row.querySelector('.colour'), n = row.querySelector('.name');
                 const g = row.querySelector('.guest');
                 const inView = (e) => { const r = e.getBoundingClientRect();
                                         return r.left >= 0 && r.right <= window.innerWidth && r.width > 0; };
                 return [c.textContent, inView(c), n.getAttribute('title'),
                         n.scrollWidth <= n.clientWidth && n.scrollHeight <= n.clientHeight,
                         !g.hidden && inView(g) ? g.textContent : null];";
    for side in ["white", "black"] {
        let shown = phone.js(label, vec![json!(side)]).await;
        assert_eq!(shown[0], json!(format!("· {side}")), "{shown}");
        assert_eq!(shown[1], json!(true), "the {side} label is cut: {shown}");
        assert_eq!(shown[2], json!(long), "the whole name in the title");
        assert_eq!(shown[3], json!(true), "the {side} name is cut: {shown}");
        assert_eq!(shown[4], json!("(guest)"), "the {side} guest mark: {shown}");
    }
    let widths = phone.js(overflow, vec![]).await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the match page scrolls sideways: {widths}"
    );
    phone
        .screenshot(&screenshot_dir().join("match-long-name-360.png"))
        .await;
    // The live list names both.
    host.goto("/").await;
    host.wait_for(&format!("[data-live=\"{}\"]", created.match_id))
        .await;
    let widths = host.js(overflow, vec![]).await;
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "the lobby with a live match scrolls sideways: {widths}"
    );
    host.close().await;
    phone.close().await;
}

/// Installed before the page's scripts: the sum of layout shifts not caused by input, with
/// the server's messages held back for a second as a slow phone network would (Lighthouse
/// throttles so), so that the lists fill in after the page was first drawn.
const SHIFT_RECORDER: &str = "
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const Native = window.WebSocket;
  const late = new WeakSet();
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        if (late.has(e)) return;
        e.stopImmediatePropagation();
        setTimeout(() => {
          const again = new MessageEvent('message', { data: e.data });
          late.add(again);
          this.dispatchEvent(again);
        }, 1000);
      });
    }
  };
";

/// Item 18, the lobby: one `h1`, a description, no link without `href`, "1 ply", a word in
/// an empty players list, and lists that fill in without shifting the page.
#[tokio::test]
async fn the_lobby_has_a_heading_words_for_empty_lists_and_does_not_shift() {
    let test = "the_lobby_has_a_heading_words_for_empty_lists_and_does_not_shift";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--channels", "2"]);
    let page = driver.browser(server.addr(), 1280, 900).await;
    page.goto("/").await;
    page.wait_until(
        "the players list filled in",
        "return document.querySelector('#players li')?.textContent;",
        vec![],
    )
    .await;
    assert_eq!(
        page.text("#players").await,
        "Nobody is seeking or playing right now."
    );
    let basics = "return [document.querySelectorAll('h1').length,
                          document.querySelector('meta[name=description]')?.content.length > 0,
                          document.querySelectorAll('a:not([href])').length];";
    assert_eq!(page.js(basics, vec![]).await, json!([1, true, 0]));

    // A live match of one ply, listed as such, and three open seeks.
    let game = &reference_games()[0];
    let mut table = Table::open(server.addr()).await;
    table.play(game, 1).await;
    let mut seekers = Vec::new();
    for name in ["Hylke", "Jitske", "Sjoerd"] {
        let mut seeker = Client::connect(server.addr(), Encoding::Json)
            .await
            .unwrap();
        seeker.hello(name).await.unwrap();
        seeker
            .create_match(ColorChoice::Random, true, None)
            .await
            .unwrap();
        seekers.push(seeker);
    }
    for (width, height) in [(360, 780), (1280, 900)] {
        let fresh = driver.browser(server.addr(), width, height).await;
        fresh.goto("/healthz").await;
        fresh.on_new_document(SHIFT_RECORDER).await;
        fresh.goto("/").await;
        let row = format!("[data-live=\"{}\"]", table.white_seat.match_id);
        fresh.wait_for(&row).await;
        fresh.wait_for("[data-channel=\"tv2\"]").await;
        fresh
            .wait_until(
                "three seeks",
                "return document.querySelectorAll('[data-seek]').length === 3;",
                vec![],
            )
            .await;
        assert!(
            fresh.text(&row).await.contains("· 1 ply ·"),
            "{}",
            fresh.text(&row).await
        );
        // Time for anything that shifts late (held-back messages, a lobby refresh).
        tokio::time::sleep(Duration::from_secs(2)).await;
        let shift = fresh.js("return window.__shift;", vec![]).await;
        eprintln!("lobby layout shift at {width} px: {shift}");
        fresh
            .screenshot(&screenshot_dir().join(format!("lobby-{width}.png")))
            .await;
        assert!(
            shift.as_f64().expect("a number") < 0.005,
            "the lobby shifts by {shift} at {width} px while its lists fill in"
        );
        fresh.close().await;
    }
    page.close().await;
}

/// Item 18, the match page: the board is a group of labelled buttons (not an image holding
/// focusable squares), presence is said in words, and no link lacks its `href`.
#[tokio::test]
async fn the_match_page_labels_its_board_and_says_presence_in_words() {
    let test = "the_match_page_labels_its_board_and_says_presence_in_words";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let created = create_match(&host, "10+5", "white").await;
    let checks = "const board = document.querySelector('#board');
                  const focusable = [...board.querySelectorAll('[tabindex]')];
                  return {
                    role: board.getAttribute('role'),
                    focusable: focusable.length,
                    unlabelled: focusable.filter((e) => e.getAttribute('role') !== 'button'
                                                     || !e.getAttribute('aria-label')).length,
                    h1: document.querySelectorAll('h1').length,
                    hrefless: document.querySelectorAll('a:not([href])').length,
                    white: document.querySelector('[data-presence=white] .presence-text')?.textContent,
                    black: document.querySelector('[data-presence=black] .presence-text')?.textContent,
                  };";
    let waiting = host.js(checks, vec![]).await;
    assert_eq!(waiting["hrefless"], json!(0), "waiting: {waiting}");
    assert_eq!(waiting["white"], json!("online"), "waiting: {waiting}");
    assert_eq!(waiting["h1"], json!(1), "waiting: {waiting}");

    let friend = driver.browser(server.addr(), 1280, 900).await;
    accept_invite(&friend, &created.invite, "Wytze").await;
    wait_match_page(&friend, "the friend").await;
    wait_presence(&host, "the host", "black", "connected").await;
    host.wait_for("#board .movable").await;
    let playing = host.js(checks, vec![]).await;
    assert_ne!(playing["role"], json!("img"), "{playing}");
    assert!(playing["focusable"].as_u64() > Some(0), "{playing}");
    assert_eq!(playing["unlabelled"], json!(0), "{playing}");
    assert_eq!(playing["black"], json!("online"), "{playing}");
    assert_eq!(playing["hrefless"], json!(0), "{playing}");
    host.screenshot(&screenshot_dir().join("match-presence.png"))
        .await;

    // The friend leaves: said in words on the host's page.
    friend.close().await;
    wait_presence(&host, "the host", "black", "gone").await;
    assert_eq!(
        host.text("[data-presence=black] .presence-text").await,
        "gone"
    );
    host.click("[data-action=abort]").await;
    wait_result(&host, "the host", PATIENCE_END).await;
    let ended = host.js(checks, vec![]).await;
    assert_eq!(ended["hrefless"], json!(0), "{ended}");
    host.wait_visible("[data-action=download-pdn]").await;
    host.close().await;
}

/// Item 18, the TV pages: the revealed moves can be focused (they scroll), and Frisian TV does
/// not show a finished match as live.
#[tokio::test]
async fn tv_lists_can_be_focused_and_frisian_tv_says_when_its_match_ended() {
    let test = "tv_lists_can_be_focused_and_frisian_tv_says_when_its_match_ended";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--channels", "1", "--ply-interval", "1s"]);
    let viewer = driver.browser(server.addr(), 1280, 900).await;
    viewer.goto("/tv/1").await;
    viewer.wait_for("#minit-board [data-piece]").await;
    let focused = viewer
        .js(
            "const list = document.querySelector('#revealed');
             list.focus();
             return [document.activeElement === list, document.querySelectorAll('h1').length,
                     document.querySelector('#minit-board').getAttribute('role')];",
            vec![],
        )
        .await;
    assert_eq!(focused, json!([true, 1, "group"]));

    let mut table = Table::open(server.addr()).await;
    viewer.goto("/ftv").await;
    viewer.wait_visible("#board").await;
    let banner = "return document.querySelector('#ftv-banner')?.textContent;";
    let live = viewer.wait_until("the banner", banner, vec![]).await;
    assert!(live.as_str().unwrap().contains("live match"), "{live}");
    let seat = table.white_seat.clone();
    table.white.resign(&seat).await.unwrap();
    viewer.wait_visible("#result").await;
    let ended = viewer
        .wait_until(
            "the banner to say the match ended",
            "const t = document.querySelector('#ftv-banner')?.textContent;
             return t && t.includes('ended') ? t : null;",
            vec![],
        )
        .await;
    assert!(
        !ended.as_str().unwrap().contains("live match,"),
        "a finished match shown as live: {ended}"
    );
    viewer.close().await;
}

/// The text of the first-move countdown, or "hidden".
const FIRST_MOVE_LINE: &str = "const e = document.querySelector('#first-move');
     return e === null || e.getClientRects().length === 0 ? 'hidden' : e.textContent;";

/// The seconds a countdown line such as "White must move within 0:23" shows.
fn countdown_seconds(line: &str) -> u64 {
    let (minutes, seconds) = line
        .rsplit(' ')
        .next()
        .and_then(|time| time.split_once(':'))
        .unwrap_or_else(|| panic!("no m:ss in {line:?}"));
    minutes.parse::<u64>().unwrap() * 60 + seconds.parse::<u64>().unwrap()
}

/// Item 18, the first-move countdown: the match page says who must make a first move within
/// how long (the server aborts the match at 0), counts it down each second, then the other
/// side's after White's first move, and nothing once both have moved.
#[tokio::test]
async fn the_match_page_counts_down_each_sides_first_move() {
    let test = "the_match_page_counts_down_each_sides_first_move";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&["--first-move-timeout", "40s"]);
    let mut table = Table::open(server.addr()).await;
    let watcher = driver.browser(server.addr(), 1280, 900).await;
    watcher
        .goto(&format!("/m/{}", table.white_seat.match_id))
        .await;
    wait_match_page(&watcher, "the watcher").await;
    let shown = |who: &'static str| {
        format!(
            "const line = (() => {{ {FIRST_MOVE_LINE} }})();
             return line.startsWith('{who} must move within ') ? line : null;"
        )
    };
    let white = watcher
        .wait_until("White's countdown", &shown("White"), vec![])
        .await;
    let first = countdown_seconds(white.as_str().unwrap());
    assert!((30..=40).contains(&first), "{white}");
    // It counts down by itself, a second at a time.
    let later = watcher
        .wait_until(
            "White's countdown a second later",
            &format!(
                "const line = (() => {{ {FIRST_MOVE_LINE} }})();
                 const m = /within (\\d+):(\\d\\d)$/.exec(line);
                 return m && Number(m[1]) * 60 + Number(m[2]) === {} ? line : null;",
                first - 1
            ),
            vec![],
        )
        .await;
    assert!(later.as_str().unwrap().starts_with("White"), "{later}");

    // White moves: Black's whole first-move time is shown.
    table
        .white
        .play(&table.white_seat, &[32, 28])
        .await
        .unwrap();
    let black = watcher
        .wait_until("Black's countdown", &shown("Black"), vec![])
        .await;
    assert!(
        (35..=40).contains(&countdown_seconds(black.as_str().unwrap())),
        "{black}"
    );
    watcher
        .screenshot(&screenshot_dir().join("match-first-move.png"))
        .await;

    // Black moves: nothing more is owed, and the line is gone.
    table
        .black
        .play(&table.black_seat, &[19, 23])
        .await
        .unwrap();
    watcher
        .wait_until(
            "no countdown once both moved",
            &format!("return (() => {{ {FIRST_MOVE_LINE} }})() === 'hidden';"),
            vec![],
        )
        .await;
    watcher.close().await;
}
