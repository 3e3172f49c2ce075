//! Issue 14, browser test 5: the TV page, predictions, and no ply before its reveal.

use super::*;

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
        "0 right, 1 strike"
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
