//! Follow-ups to issue 27's web fixes: an invite link typed the way a person types a code,
//! and the ring on movable pieces drawn whole at the board's edge.

use super::*;

/// A creator who opens their own invite link typed in lower case without the dash (as a
/// friend reading it aloud would type it) is taken to the seat they hold, not asked for a name
/// to join their own match: the page reads the code as the server does.
#[tokio::test]
async fn an_invite_link_typed_in_lower_case_without_the_dash_finds_the_seat_held() {
    let test = "an_invite_link_typed_in_lower_case_without_the_dash_finds_the_seat_held";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    let created = create_match(&host, "10+5", "white").await;
    let code = created
        .invite
        .rsplit('/')
        .next()
        .expect("a code at the end of the invite link");
    assert!(code.contains('-'), "codes are issued in two groups: {code}");
    let typed = code.replace('-', "").to_lowercase();
    host.goto(&format!("/i/{typed}")).await;
    let path = format!("/m/{}", created.match_id);
    host.wait_until(
        &format!("/i/{typed} to lead back to {path}"),
        "return location.pathname === arguments[0] ? location.pathname : null;",
        vec![json!(path)],
    )
    .await;
    wait_match_page(&host, "the host").await;
    host.close().await;
}

/// The yellow ring on every piece that may move lies wholly inside its square, so it is not
/// half cut off on the squares at the board's edge (square 35 for White at the start, 16 for
/// Black's turned board), on a desktop page and on a phone.
#[tokio::test]
async fn the_movable_ring_lies_wholly_inside_its_square_at_the_edge() {
    let test = "the_movable_ring_lies_wholly_inside_its_square_at_the_edge";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let white = driver.browser(server.addr(), 1280, 900).await;
    let black = driver.browser(server.addr(), 360, 780).await;
    let created = create_match(&white, "none", "white").await;
    accept_invite(&black, &created.invite, "Wytze").await;
    wait_match_page(&black, "black").await;
    wait_presence(&white, "white", "black", "connected").await;
    // Whatever inside a movable square is stroked in the movable colour, with its stroke's
    // reach, in the square's own units (the square is 0..1 both ways).
    let rings = "
        const probe = document.createElement('span');
        probe.style.color = 'var(--movable)';
        document.body.append(probe);
        const movable = getComputedStyle(probe).color;
        probe.remove();
        return [...document.querySelectorAll('#board .sq.movable')].map((sq) => {
          const painted = [...sq.querySelectorAll('*')].filter((el) => {
            const style = getComputedStyle(el);
            return style.stroke === movable && parseFloat(style.strokeWidth) > 0;
          });
          return {
            square: Number(sq.dataset.square),
            rings: painted.map((el) => {
              const box = el.getBBox();
              const half = parseFloat(getComputedStyle(el).strokeWidth) / 2;
              return [box.x - half, box.y - half, box.x + box.width + half, box.y + box.height + half];
            }),
          };
        });";
    for (who, browser, edge, shot) in [
        ("white", &white, 35, "movable-ring-1280.png"),
        ("black", &black, 16, "movable-ring-360.png"),
    ] {
        if who == "black" {
            let game = &reference_games()[0];
            let first = &plies(game)[0];
            play_by_clicks(&white, &first.route, first.capture, first.how).await;
            wait_fen(&black, "black", &game.fens[0]).await;
        }
        browser
            .wait_until(
                &format!("{who}'s movable pieces"),
                "return document.querySelector('#board .sq.movable') ? true : null;",
                vec![],
            )
            .await;
        browser.screenshot(&screenshot_dir().join(shot)).await;
        let squares = browser.js(rings, vec![]).await;
        let squares = squares.as_array().expect("a list of squares");
        assert!(
            squares.iter().any(|sq| sq["square"] == json!(edge)),
            "{who}: square {edge}, at the board's edge, is movable: {squares:?}"
        );
        for sq in squares {
            let rings = sq["rings"].as_array().expect("a list of rings");
            assert!(!rings.is_empty(), "{who}: {sq} carries a ring");
            for ring in rings {
                let reach: Vec<f64> = ring
                    .as_array()
                    .expect("a box")
                    .iter()
                    .map(|v| v.as_f64().expect("a number"))
                    .collect();
                let inside = reach[0] >= -1e-6
                    && reach[1] >= -1e-6
                    && reach[2] <= 1.0 + 1e-6
                    && reach[3] <= 1.0 + 1e-6;
                assert!(
                    inside,
                    "{who}: the ring of square {} reaches {reach:?}, outside its square 0..1",
                    sq["square"]
                );
            }
        }
    }
    white.close().await;
    black.close().await;
}

/// "Create match" clicked while the page is reconnecting is carried out once it is online
/// again, and the page says meanwhile that it is connecting (the request used to be dropped
/// without a word: the click did nothing).
#[tokio::test]
async fn create_match_clicked_while_reconnecting_is_carried_out_once_online() {
    let test = "create_match_clicked_while_reconnecting_is_carried_out_once_online";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let host = driver.browser(server.addr(), 1280, 900).await;
    host.goto("/healthz").await;
    host.on_new_document(HELD_SOCKET).await;
    host.goto("/").await;
    host.wait_visible("form#create").await;
    host.wait_until(
        "the lobby online",
        "return document.body.dataset.conn === 'online';",
        vec![],
    )
    .await;
    // The connection drops and cannot be made again for now.
    host.js(
        "window.__letConnect = false; window.__socket.close(); return true;",
        vec![],
    )
    .await;
    host.wait_until(
        "the lobby offline",
        "return document.body.dataset.conn === 'offline';",
        vec![],
    )
    .await;
    choose(&host, "form#create select[name=time]", "none").await;
    choose(&host, "form#create select[name=color]", "white").await;
    host.click("form#create [type=submit]").await;
    host.wait_until(
        "the page to say the request waits for the connection",
        "const n = document.getElementById('notice');
         return n && n.textContent.includes('connecting') ? n.textContent : null;",
        vec![],
    )
    .await;
    host.js("window.__letConnect = true; return true;", vec![])
        .await;
    let created = create_submitted(&host).await;
    wait_match_page(&host, "the host").await;
    assert!(created.invite.contains("/i/"), "{}", created.invite);
    host.close().await;
}
