//! Issue 34: the page in the player's language. The language chosen in the menu is kept for
//! this browser (`bc.lang`); a refusal the server sends in English is shown in that language,
//! worded from its reason and arguments (squares filled in); at 360 px and 1280 px the menu and the refusal are whole on screen.

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
        (
            "nl",
            "Een schijf gaat één veld schuin vooruit: 31-22 is geen schijfzet.",
            360,
        ),
        (
            "fy",
            "In houtsje giet ien fjild skean foarút: 31-22 is gjin houtsjeset.",
            1280,
        ),
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
        let start = frisian::Position::start().fen();
        assert_eq!(refusal_text(lang, &start, &[31, 22]), refusal, "{lang}");
        // "Why?" beside it leads to the rule that refused it (the rules page's section).
        assert_eq!(
            browser.text("#why").await,
            catalogue_text(lang, "notice-why")
        );
        let href = browser
            .js(
                "return document.getElementById('why').getAttribute('href');",
                vec![],
            )
            .await;
        assert_eq!(href, json!("/rules#not_a_man_move"), "{lang}");
        // Whole on screen: the notice and the menu lie inside the viewport's width.
        let cut = browser
            .js(
                "return ['#notice', '#why', '#lang'].filter((css) => {
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

/// The catalogue's text of `id` in `lang` (a one-line message without arguments), read from
/// the same files the page fetches (`{lang}.ftl`, and `pages-{lang}.ftl` with the pages
/// loaded on their own).
pub(super) fn catalogue_text(lang: &str, id: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/i18n");
    let source = [format!("{lang}.ftl"), format!("pages-{lang}.ftl")]
        .map(|file| std::fs::read_to_string(dir.join(file)).unwrap())
        .join("\n");
    source
        .lines()
        .find_map(|line| line.strip_prefix(&format!("{id} = ")))
        .unwrap_or_else(|| panic!("{id} in {lang}.ftl"))
        .to_owned()
}

/// The catalogue's words in `lang` for the server's refusal of `route` in `fen`: its reason
/// and arguments as the rules crate finds them, filled into the catalogue's message.
fn refusal_text(lang: &str, fen: &str, route: &[u8]) -> String {
    use frisian::MoveError;
    let position = frisian::Position::from_fen(fen).unwrap();
    let squares: Vec<_> = route
        .iter()
        .map(|&n| frisian::Square::new(n).unwrap())
        .collect();
    let (id, args) = match position.move_from_route(&squares).unwrap_err() {
        MoveError::NotAManMove { from, to } => (
            "error-illegal_move-not_a_man_move",
            vec![("from", from.to_string()), ("to", to.to_string())],
        ),
        MoveError::OwnPiece(square) => (
            "error-illegal_move-own_piece",
            vec![("square", square.to_string())],
        ),
        MoveError::Occupied(square) => (
            "error-illegal_move-occupied",
            vec![("square", square.to_string())],
        ),
        MoveError::CaptureCompulsory { example } => (
            "error-illegal_move-capture_compulsory",
            vec![("example", example)],
        ),
        other => panic!("no catalogue text for {other:?} here"),
    };
    args.iter()
        .fold(catalogue_text(lang, id), |text, (name, value)| {
            text.replace(&format!("{{ ${name} }}"), value)
        })
}

/// Issue 34: a match played by two browsers that speak Dutch (then Frisian) from their first
/// page: the lobby's form, the invite, the status and buttons, the result banner and a
/// refusal are all in that language, and at 360 px and at 1280 px nothing on the match page
/// is cut (no element past the viewport's edge, no sideways scrolling).
#[tokio::test]
async fn a_match_played_in_dutch_and_frisian_with_nothing_cut() {
    let test = "a_match_played_in_dutch_and_frisian_with_nothing_cut";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let dir = screenshot_dir();
    let game = &reference_games()[0];
    for lang in ["nl", "fy"] {
        let speak = format!("localStorage.setItem('bc.lang', '{lang}');");
        let white = driver.browser(server.addr(), 1280, 900).await;
        let black = driver.browser(server.addr(), 1280, 900).await;
        white.on_new_document(&speak).await;
        black.on_new_document(&speak).await;
        let created = create_match(&white, "15+10", "white").await;
        assert_eq!(
            white.text("#invite [data-action=copy-invite]").await,
            catalogue_text(lang, "match-copy-link"),
            "{lang}"
        );
        accept_invite(&black, &created.invite, "Wytze").await;
        wait_match_page(&black, "black").await;
        wait_presence(&white, "white", "black", "connected").await;
        // White to move first: the status starts with the catalogue's "your turn".
        let status = white.text("#status").await;
        assert!(
            status.starts_with(&catalogue_text(lang, "status-your-turn")),
            "{lang}: {status}"
        );
        play_opening(&white, &black, game, 2).await;
        assert_eq!(
            white.text("#status").await,
            catalogue_text(lang, "status-your-turn"),
            "{lang}"
        );
        assert_eq!(
            black.text("[data-action=resign]").await,
            catalogue_text(lang, "match-resign"),
            "{lang}"
        );
        // A refusal: sent as typed, refused by the server in English, shown in the language.
        white
            .type_into("#move-input", &format!("31-22{}", char::from(Key::Enter)))
            .await;
        white
            .wait_until(
                "the refusal",
                "const n = document.querySelector('#notice');
                 return n !== null && n.getAttribute('data-code') === 'illegal_move' ? true : null;",
                vec![],
            )
            .await;
        let fen = board_fen(&white).await.expect("the board's position");
        assert_eq!(
            white.text("#notice").await,
            refusal_text(lang, &fen, &[31, 22]),
            "{lang}"
        );
        // Nothing cut, on a phone and on a desktop.
        for width in [360, 1280] {
            white.set_viewport(width, 800).await;
            let cut = white
                .js(
                    "const width = document.documentElement.clientWidth;
                     const cut = [...document.querySelectorAll('body *')].filter((el) => {
                       const r = el.getBoundingClientRect();
                       return r.width > 0 && r.height > 0 && (r.left < -0.5 || r.right > width + 0.5);
                     }).map((el) => el.id || el.className || el.tagName);
                     if (document.documentElement.scrollWidth > width) cut.push('sideways scroll');
                     return cut;",
                    vec![],
                )
                .await;
            assert_eq!(cut, json!([]), "{lang} at {width} px");
            white
                .screenshot(&dir.join(format!("match-{lang}-{width}.png")))
                .await;
        }
        // The end, in the language: white resigns (confirmed), the banner says who won.
        white.set_viewport(1280, 900).await;
        white.click("[data-action=resign]").await;
        white.click("[data-action=confirm]").await;
        black.wait_visible("#result").await;
        let banner = black.text("#result").await;
        let victorious = catalogue_text(lang, "result-victorious")
            .replace("{ $side }", &catalogue_text(lang, "side-black-title"));
        assert!(banner.contains(&victorious), "{lang}: {banner}");
        assert!(
            banner.contains(&catalogue_text(lang, "reason-resignation")),
            "{lang}: {banner}"
        );
        white.close().await;
        black.close().await;
    }
}

/// Issue 34: the account pages in Dutch and Frisian. The sign-up form checks a short
/// password in the page's words; signed up, the account and token pages speak the chosen
/// language whole, a wrong login is refused in it (the server's code worded by the page);
/// each page at 1280 px and 360 px, nothing scrolling sideways.
#[tokio::test]
async fn the_account_pages_in_dutch_and_frisian() {
    let test = "the_account_pages_in_dutch_and_frisian";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    for (lang, name, short) in [
        ("nl", "Sietske", "Een wachtwoord heeft minstens 8 tekens."),
        ("fy", "Wytze", "In wachtwurd hat op syn minst 8 tekens."),
    ] {
        let browser = driver.browser(server.addr(), 1280, 900).await;
        browser.goto("/").await;
        browser
            .js(
                "localStorage.setItem('bc.lang', arguments[0]);",
                vec![json!(lang)],
            )
            .await;
        browser.goto("/signup").await;
        browser.wait_visible("form#signup-form").await;
        assert_eq!(
            browser.text("h1").await,
            catalogue_text(lang, "account-signup-title"),
            "{lang}"
        );
        // Checked on the page first: the password's least length, in the page's words.
        browser.type_into("#signup-name", name).await;
        browser.type_into("#signup-password", "kort").await;
        browser.type_into("#signup-confirm", "kort").await;
        browser
            .js(
                "document.getElementById('signup-password').removeAttribute('minlength');
                 document.querySelector('form#signup-form [type=submit]').click();",
                vec![],
            )
            .await;
        browser
            .wait_until(
                "the short password refused",
                "const n = document.getElementById('notice');
                 return n && n.textContent === arguments[0] ? true : null;",
                vec![json!(short)],
            )
            .await;
        super::accounts::screenshots(&browser, &format!("account-signup-{lang}")).await;
        super::accounts::sign_up(&browser, name, None).await;

        browser.goto("/account").await;
        browser.wait_visible(".who-line").await;
        assert_eq!(
            browser.text("h1").await,
            catalogue_text(lang, "account-title"),
            "{lang}"
        );
        assert_eq!(
            browser.text("#password-title").await,
            catalogue_text(lang, "account-change-password"),
            "{lang}"
        );
        super::accounts::screenshots(&browser, &format!("account-{lang}")).await;

        browser.goto("/account/tokens").await;
        browser.wait_visible("form#token-form").await;
        browser.type_into("#token-name", "laptop").await;
        browser.click("form#token-form [type=submit]").await;
        browser.wait_visible("#new-token").await;
        browser.wait_for("#tokens [data-token] button").await;
        assert_eq!(
            browser.text("#tokens [data-token] button").await,
            catalogue_text(lang, "account-token-revoke"),
            "{lang}"
        );
        assert_eq!(
            browser.text("#token-title").await,
            catalogue_text(lang, "account-token-new"),
            "{lang}"
        );
        super::accounts::screenshots(&browser, &format!("account-tokens-{lang}")).await;

        browser.close().await;

        // In another browser, not logged in, a wrong password: the server's code in the
        // page's words.
        let browser = driver.browser(server.addr(), 1280, 900).await;
        browser.goto("/").await;
        browser
            .js(
                "localStorage.setItem('bc.lang', arguments[0]);",
                vec![json!(lang)],
            )
            .await;
        browser.goto("/login").await;
        browser.wait_visible("form#login-form").await;
        browser.type_into("#login-name", name).await;
        browser
            .type_into("#login-password", "not the password")
            .await;
        browser.click("form#login-form [type=submit]").await;
        let refused = catalogue_text(lang, "account-error-bad_credentials");
        browser
            .wait_until(
                "the wrong password refused",
                "const n = document.getElementById('notice');
                 return n && n.textContent === arguments[0] ? true : null;",
                vec![json!(refused)],
            )
            .await;
        super::accounts::screenshots(&browser, &format!("account-login-{lang}")).await;
        browser.close().await;
    }
}
