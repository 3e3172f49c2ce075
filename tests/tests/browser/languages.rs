//! Issue 34: the page in the player's language. The language chosen in the menu is kept for
//! this browser (`bc.lang`); a refusal the server sends in English is shown in that language,
//! from its error code; at 360 px and 1280 px the menu and the refusal are whole on screen.

use super::*;

use boardcast_protocol::ColorChoice;

#[tokio::test]
async fn a_refusal_in_dutch_and_frisian_and_the_choice_is_kept() {
    let test = "a_refusal_in_dutch_and_frisian_and_the_choice_is_kept";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let dir = screenshot_dir();
    for (lang, refusal, width) in [
        ("nl", "Die zet is hier niet reglementair.", 360),
        ("fy", "Dy set is hjir net neffens de regels.", 1280),
    ] {
        let mut white = Client::connect(server.addr(), Encoding::Json)
            .await
            .unwrap();
        white.hello("Sietske").await.unwrap();
        let seat = white
            .create_match(ColorChoice::White, true, None)
            .await
            .unwrap();
        let mut black = Client::connect(server.addr(), Encoding::Json)
            .await
            .unwrap();
        black.hello("Wytze").await.unwrap();
        black.join_match(&seat.match_id).await.unwrap();
        let browser = driver.browser(server.addr(), width, 800).await;
        browser.goto("/").await;
        // The menu, chosen once: the page speaks it at once and after every reload.
        browser.wait_for("select#lang").await;
        browser
            .js(
                "const menu = document.getElementById('lang');
                 menu.value = arguments[0];
                 menu.dispatchEvent(new Event('change'));
                 localStorage.setItem('bc.seat.' + arguments[1].match_id, JSON.stringify(arguments[1]));
                 localStorage.setItem('bc.nextId', '1000000');",
                vec![
                    json!(lang),
                    json!({
                        "match_id": seat.match_id,
                        "token": seat.token,
                        "side": "white",
                        "invite_code": seat.invite_code,
                    }),
                ],
            )
            .await;
        browser.goto(&format!("/m/{}", seat.match_id)).await;
        wait_match_page(&browser, "the seated browser").await;
        browser
            .wait_until(
                "the page to speak the kept language",
                "return document.documentElement.lang === arguments[0]
                    && document.getElementById('lang').value === arguments[0] ? true : null;",
                vec![json!(lang)],
            )
            .await;
        // Sent as typed, refused by the server in English, shown in the chosen language.
        browser
            .type_into("#move-input", &format!("31-22{}", char::from(Key::Enter)))
            .await;
        browser
            .wait_until(
                "the refusal",
                "const n = document.querySelector('#notice');
                 return n !== null && n.getAttribute('data-code') === 'illegal_move' ? true : null;",
                vec![],
            )
            .await;
        assert_eq!(browser.text("#notice").await, refusal, "{lang}");
        // Whole on screen: the notice and the menu lie inside the viewport's width.
        let cut = browser
            .js(
                "return ['#notice', '#lang'].filter((css) => {
                   const r = document.querySelector(css).getBoundingClientRect();
                   return r.left < 0 || r.right > document.documentElement.clientWidth;
                 });",
                vec![],
            )
            .await;
        assert_eq!(cut, json!([]), "{lang} at {width} px");
        browser
            .screenshot(&dir.join(format!("refusal-{lang}-{width}.png")))
            .await;
        browser.close().await;
    }
}
