//! Issue 34: the rules page (`/rules`) in each language. Its diagrams, stepped through with
//! the page's own buttons, show the positions the rules crate computes from the data file the
//! page reads (`web/rules/positions.json`); at 360 px and 1280 px nothing is cut; and
//! `/rules#{reason}`, where the match page's "why?" link leads, marks the section that
//! explains that refusal.

use std::collections::BTreeMap;

use serde_json::Value;

use super::languages::catalogue_text;
use super::*;

/// `square → wm|wk|bm|bk`, as the board draws `data-piece`.
fn pieces(position: &frisian::Position) -> BTreeMap<String, String> {
    frisian::Square::all()
        .filter_map(|square| {
            let code = match position.piece_at(square)? {
                frisian::Piece::Man(frisian::Color::White) => "wm",
                frisian::Piece::King(frisian::Color::White) => "wk",
                frisian::Piece::Man(frisian::Color::Black) => "bm",
                frisian::Piece::King(frisian::Color::Black) => "bk",
            };
            Some((square.number().to_string(), code.to_owned()))
        })
        .collect()
}

#[tokio::test]
async fn the_rules_page_steps_through_the_positions_the_rules_crate_computes_in_each_language() {
    let test =
        "the_rules_page_steps_through_the_positions_the_rules_crate_computes_in_each_language";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let dir = screenshot_dir();
    let data: Value =
        serde_json::from_str(include_str!("../../../web/rules/positions.json")).unwrap();
    let shown: Vec<&Value> = data["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|section| section["positions"].as_array().unwrap())
        .collect();
    for (lang, width, step_through) in [
        ("en", 1280, true),
        ("en", 360, false),
        ("nl", 360, true),
        ("nl", 1280, false),
        ("fy", 1280, true),
        ("fy", 360, false),
    ] {
        let browser = driver.browser(server.addr(), width, 800).await;
        browser.goto("/").await;
        browser
            .js(
                "localStorage.setItem('bc.lang', arguments[0]);",
                vec![json!(lang)],
            )
            .await;
        // The lobby links to the rules.
        browser.click("#rules-link").await;
        browser
            .wait_until(
                "every position drawn",
                "return document.querySelectorAll('figure[data-position] svg.board').length === arguments[0] ? true : null;",
                vec![json!(shown.len())],
            )
            .await;
        assert_eq!(
            browser.text("h1").await,
            catalogue_text(lang, "rules-page-title"),
            "{lang}"
        );
        let cut = browser
            .js(
                "const width = document.documentElement.clientWidth;
                 const out = [...document.querySelectorAll('figure, h1, h2, .rules-controls button')]
                   .filter((el) => { const r = el.getBoundingClientRect(); return r.left < 0 || r.right > width; })
                   .map((el) => el.outerHTML.slice(0, 80));
                 if (document.documentElement.scrollWidth > width) out.push('the page scrolls sideways');
                 return out;",
                vec![],
            )
            .await;
        assert_eq!(cut, json!([]), "{lang} at {width} px");
        browser
            .screenshot(&dir.join(format!("rules-{lang}-{width}.png")))
            .await;
        if !step_through {
            browser.close().await;
            continue;
        }
        for position in &shown {
            let id = position["id"].as_str().unwrap();
            // What the page shows at each step, stepping with its own "next" button.
            let seen = browser
                .js(
                    "const figure = document.querySelector(`figure[data-position='${arguments[0]}']`);
                     const drawn = () => Object.fromEntries([...figure.querySelectorAll('[data-square]')]
                       .filter((g) => g.querySelector('[data-piece]'))
                       .map((g) => [g.dataset.square, g.querySelector('[data-piece]').dataset.piece]));
                     const out = [drawn()];
                     const next = figure.querySelector('[data-rules=next]');
                     while (next && !next.disabled) { next.click(); out.push(drawn()); }
                     return out;",
                    vec![json!(id)],
                )
                .await;
            let mut position_now =
                frisian::Position::from_fen(position["fen"].as_str().unwrap()).unwrap();
            let mut expected = vec![pieces(&position_now)];
            for step in position["steps"].as_array().unwrap() {
                if let Some(play) = step["play"].as_str() {
                    let mv = position_now.parse_move(play).unwrap();
                    position_now = position_now.play(mv).unwrap();
                    expected.push(pieces(&position_now));
                }
            }
            assert_eq!(seen, json!(expected), "{lang}: {id}");
            let caption = browser
                .text(&format!("figure[data-position='{id}'] figcaption"))
                .await;
            assert_eq!(
                caption,
                catalogue_text(lang, &format!("rules-pos-{id}")),
                "{lang}: {id}"
            );
        }
        // Where a refusal's "why?" leads: the section on the value order, marked and in view.
        // (From another page: a link followed from the match page loads the page anew.)
        browser.goto("/").await;
        browser.goto("/rules#lower_value").await;
        browser.wait_for("section.rules-section.why").await;
        let marked = browser
            .js(
                "const section = document.querySelector('section.rules-section.why');
                 const top = section.getBoundingClientRect().top;
                 return [section.id, section.querySelector('[data-why]').textContent,
                   top > -2 && top < window.innerHeight];",
                vec![],
            )
            .await;
        assert_eq!(
            marked,
            json!([
                "rules-value",
                catalogue_text(lang, "rules-reason-here"),
                true
            ]),
            "{lang}"
        );
        browser
            .screenshot(&dir.join(format!("rules-why-{lang}-{width}.png")))
            .await;
        // On the open page, a new reason in the address (another "why?" followed) moves the
        // mark to its section; a contents link (`#rules-men`) leaves it there.
        browser.js("location.hash = 'king_frozen';", vec![]).await;
        browser
            .wait_for("section#rules-three-moves.why [data-why=king_frozen]")
            .await;
        browser.js("location.hash = 'rules-men';", vec![]).await;
        let marked = browser
            .js(
                "return [...document.querySelectorAll('section.why, [data-why]')]
                   .map((el) => el.id || el.closest('section').id);",
                vec![],
            )
            .await;
        assert_eq!(
            marked,
            json!(["rules-three-moves", "rules-three-moves"]),
            "{lang}"
        );
        browser.close().await;
    }
}
