//! Issue 31 in the browser: the ladder page (`/ladder`) and a member's rating on the profile
//! with its history chart, drawn from what the server answers. The ratings are written into
//! the database (`boardcast_tests::ratings`): these tests are about showing them.

use boardcast_tests::ratings::{Rated, seed};

use super::accounts::{post_json, screenshots};
use super::*;

const PASSWORD: &str = "violet harbour lantern 93";

/// Signs `names` up through the API.
fn sign_up_all(addr: std::net::SocketAddr, names: &[&str]) {
    for name in names {
        let body = json!({ "name": name, "password": PASSWORD }).to_string();
        assert_eq!(post_json(addr, "/api/signup", &body).0, 201, "{name}");
    }
}

const fn game(days_ago: f64, rating: f64, rd: f64) -> Rated {
    Rated {
        days_ago,
        rating,
        rd,
    }
}

/// The ladder lists established members who played rated this week, best first, each linked
/// to their profile, the bot tagged; a provisional member is not on it.
#[tokio::test]
async fn the_ladder_page_lists_established_members_best_first() {
    let test = "the_ladder_page_lists_established_members_best_first";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    sign_up_all(server.addr(), &["Sietske", "Scan", "Anne"]);
    let db = server.db();
    seed(
        &db,
        "Sietske",
        false,
        &[game(3.0, 1650.0, 90.0), game(1.0, 1712.4, 60.0)],
    )
    .unwrap();
    seed(&db, "Scan", true, &[game(0.5, 1801.0, 50.0)]).unwrap();
    seed(&db, "Anne", false, &[game(0.5, 1900.0, 150.0)]).unwrap();

    let browser = driver.browser(server.addr(), 1280, 900).await;
    browser.goto("/ladder").await;
    browser.wait_visible("table#ladder tr[data-rung]").await;
    assert_eq!(
        browser.attr("body", "data-page").await.as_deref(),
        Some("ladder")
    );
    let rows = browser
        .js(
            "return [...document.querySelectorAll('#ladder tbody tr')].map((tr) =>
               [...tr.cells].map((td) => td.textContent.trim()));",
            vec![],
        )
        .await;
    let rows: Vec<Vec<String>> = serde_json::from_value(rows).unwrap();
    assert_eq!(
        rows.len(),
        2,
        "the provisional member is not listed: {rows:?}"
    );
    assert_eq!(
        (
            rows[0][0].as_str(),
            rows[0][1].as_str(),
            rows[0][2].as_str()
        ),
        ("1", "BOTScan", "1801"),
        "{rows:?}"
    );
    assert_eq!(
        (
            rows[1][0].as_str(),
            rows[1][1].as_str(),
            rows[1][2].as_str(),
            rows[1][4].as_str()
        ),
        ("2", "Sietske", "1712", "2"),
        "{rows:?}"
    );
    browser
        .wait_for("#ladder tr[data-rung=Scan] [data-bot]")
        .await;
    assert_eq!(
        browser
            .attr("#ladder tr[data-rung=Sietske] a", "href")
            .await
            .as_deref(),
        Some("/@/Sietske")
    );
    screenshots(&browser, "ladder").await;
    browser.close().await;
}

/// A profile shows the rating (`1500?` while provisional), RD, rated games and the history
/// chart with one point per day from `/api/user/{name}/rating-history`, in date order, each
/// point higher the higher its rating.
#[tokio::test]
async fn the_profile_charts_the_rating_history_from_the_data() {
    let test = "the_profile_charts_the_rating_history_from_the_data";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    sign_up_all(server.addr(), &["Sietske", "Anne"]);
    // Two games on one day make one point: the day's last rating.
    seed(
        &server.db(),
        "Sietske",
        false,
        &[
            game(9.0, 1580.0, 300.0),
            game(6.2, 1540.0, 250.0),
            game(6.1, 1620.0, 220.0),
            game(2.0, 1690.0, 140.0),
            game(1.0, 1660.0, 100.0),
        ],
    )
    .unwrap();

    let browser = driver.browser(server.addr(), 1280, 900).await;
    browser.goto("/@/Sietske").await;
    browser.wait_visible("svg#rating-chart circle").await;
    // The facts come from /api/user, the chart from its rating history: two answers.
    browser.wait_text("[data-fact=rating]", "1660").await;
    browser.wait_text("[data-fact=rated]", "5").await;
    let (_, history) = http_get(server.addr(), "/api/user/Sietske/rating-history").unwrap();
    let history: Vec<serde_json::Value> = serde_json::from_str(&history).unwrap();
    let drawn = browser
        .js(
            "return [...document.querySelectorAll('#rating-chart circle')].map((c) => ({
               date: c.dataset.date, rating: Number(c.dataset.rating),
               x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) }));",
            vec![],
        )
        .await;
    let drawn: Vec<serde_json::Value> = serde_json::from_value(drawn).unwrap();
    assert_eq!(drawn.len(), history.len(), "one point per day: {drawn:?}");
    assert!(history.len() >= 4, "{history:?}");
    for (point, day) in drawn.iter().zip(&history) {
        assert_eq!(point["date"], day["date"]);
        assert_eq!(point["rating"].as_f64(), day["rating"].as_f64());
    }
    for pair in drawn.windows(2) {
        assert!(
            pair[0]["x"].as_f64() < pair[1]["x"].as_f64(),
            "later is further right"
        );
        let (r0, r1) = (
            pair[0]["rating"].as_f64().unwrap(),
            pair[1]["rating"].as_f64().unwrap(),
        );
        let (y0, y1) = (
            pair[0]["y"].as_f64().unwrap(),
            pair[1]["y"].as_f64().unwrap(),
        );
        assert_eq!(r0 < r1, y0 > y1, "higher rating, higher point: {pair:?}");
    }
    let line = browser
        .attr("#rating-chart polyline", "points")
        .await
        .unwrap();
    let expected: Vec<String> = drawn
        .iter()
        .map(|p| format!("{},{}", p["x"], p["y"]))
        .collect();
    assert_eq!(line, expected.join(" "), "the line runs through the points");
    screenshots(&browser, "profile-rating").await;

    // A member without rated games: provisional, no chart yet.
    browser.goto("/@/Anne").await;
    browser.wait_visible("#rating-chart-empty").await;
    browser.wait_text("[data-fact=rating]", "1500?").await;
    browser.close().await;
}

/// Issue 31's end to end in the browser: two members sign up in two browsers, press "play
/// now" at 15+10, are paired into a rated game, and play a reference game to its end by
/// clicks; both result banners show the new ratings and changes. The figures are Glicko-2 of
/// two new players (1500, RD 500, volatility 0.09, τ 0.75), one win, computed by hand from
/// Glickman's steps (the same as `tests/tests/ratings.rs`'s independent implementation):
/// the winner 1741.62 (RD 396.81, still provisional), the loser 1258.38. The winner's profile
/// then shows the new rating.
#[tokio::test]
async fn two_members_play_now_a_rated_game_by_clicks_and_both_see_their_new_ratings() {
    let test = "two_members_play_now_a_rated_game_by_clicks_and_both_see_their_new_ratings";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    // The shortest decisive reference game with at least two moves a side (a rated result).
    let (game, plies) = reference_games()
        .iter()
        .filter(|game| game.winner.is_some() && game.moves.len() >= 4)
        .map(|game| (game.clone(), plies(game)))
        .min_by_key(|(game, _)| game.moves.len())
        .expect("a decisive reference game");
    let server = server(&[]);
    let sietske = driver.browser(server.addr(), 1280, 900).await;
    let wytze = driver.browser(server.addr(), 1280, 900).await;
    super::accounts::sign_up(&sietske, "Sietske", None).await;
    super::accounts::sign_up(&wytze, "Wytze", None).await;
    for browser in [&sietske, &wytze] {
        browser.goto("/").await;
        browser
            .wait_visible("#play-now [data-play-now='15+10']")
            .await;
        browser.click("#play-now [data-play-now='15+10']").await;
    }
    for (who, browser) in [("Sietske", &sietske), ("Wytze", &wytze)] {
        browser
            .wait_until(
                &format!("{who} to be seated by play now"),
                "return location.pathname.startsWith('/m/') && document.querySelector('#board') ? true : null;",
                vec![],
            )
            .await;
    }
    // Play now chooses the colours: the board's orientation says whose is whose.
    let (white, black) =
        if sietske.attr("#board", "data-orientation").await.as_deref() == Some("white") {
            ((&sietske, "Sietske"), (&wytze, "Wytze"))
        } else {
            ((&wytze, "Wytze"), (&sietske, "Sietske"))
        };
    assert_eq!(
        black.0.attr("#board", "data-orientation").await.as_deref(),
        Some("black"),
        "the other member holds black"
    );
    for (n, ply) in plies.iter().enumerate() {
        let mover = if game.mover(n) == Side::White {
            white.0
        } else {
            black.0
        };
        play_by_clicks(mover, &ply.route, ply.capture, ply.how).await;
        for (who, browser) in [("white", white.0), ("black", black.0)] {
            wait_fen(browser, who, &game.fens[n]).await;
        }
    }
    let (winner, loser) = if game.winner == Some(Side::White) {
        (("White", white.1), ("Black", black.1))
    } else {
        (("Black", black.1), ("White", white.1))
    };
    for (who, browser) in [("white", white.0), ("black", black.0)] {
        wait_result(browser, who, Duration::from_secs(30)).await;
        let ratings = browser
            .wait_until(
                &format!("{who}'s new ratings under the result"),
                "const e = document.querySelector('#result-ratings');
                 return e && !e.hidden && e.textContent.trim() ? e.textContent.trim() : null;",
                vec![],
            )
            .await;
        let ratings = ratings.as_str().expect("text");
        assert!(
            ratings.contains(&format!("{} 1742? (+242)", winner.0))
                && ratings.contains(&format!("{} 1258? (−242)", loser.0)),
            "{who} reads {ratings:?}"
        );
    }
    screenshots(white.0, "rated-result").await;
    white.0.goto(&format!("/@/{}", winner.1)).await;
    white
        .0
        .wait_until(
            "the winner's profile to show the new rating",
            "return document.body.textContent.includes('1742?') ? true : null;",
            vec![],
        )
        .await;
    for browser in [sietske, wytze] {
        browser.close().await;
    }
}
