//! Issue 32's chat in the browser: the players' room and the spectators' room of one match,
//! a member's free text, a guest's phrases, "mute for myself" kept across a reload, and lines
//! that try to be markup shown as the text they are.

use super::accounts::{screenshots, sign_up};
use super::*;

/// The lines `browser` shows, each as `author|text`.
async fn chat_lines(browser: &Browser) -> Vec<String> {
    let lines = browser
        .js(
            "return [...document.querySelectorAll('#chat-lines li')].map((li) =>
               li.querySelector('.chat-author').textContent + '|' + li.querySelector('.chat-text').textContent);",
            vec![],
        )
        .await;
    serde_json::from_value(lines).unwrap()
}

/// Waits until `browser` shows the line `author|text`.
async fn wait_line(browser: &Browser, who: &str, line: &str) {
    browser
        .wait_until(
            &format!("{who} to show the chat line {line}"),
            "return [...document.querySelectorAll('#chat-lines li')].some((li) =>
               li.querySelector('.chat-author').textContent + '|' + li.querySelector('.chat-text').textContent === arguments[0]);",
            vec![json!(line)],
        )
        .await;
}

/// A member and a guest play; a guest watches. Each room hears only its own; the member's
/// attempts at markup arrive as text and run nothing; the guest can only pick phrases; the
/// guest mutes the member for themselves, and the mute outlives a reload.
#[tokio::test]
async fn players_and_spectators_chat_apart_markup_stays_text_and_a_mute_is_kept() {
    let test = "players_and_spectators_chat_apart_markup_stays_text_and_a_mute_is_kept";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let member = driver.browser(server.addr(), 1280, 900).await;
    let guest = driver.browser(server.addr(), 1280, 900).await;
    let watcher = driver.browser(server.addr(), 1280, 900).await;
    sign_up(&member, "Sietske", None).await;
    let created = create_match(&member, "15+10", "white").await;
    accept_invite(&guest, &created.invite, "Wytze").await;
    wait_match_page(&guest, "the guest").await;
    set_name(&watcher, "Anne").await;
    watcher.goto(&format!("/m/{}", created.match_id)).await;
    for (browser, room) in [
        (&member, "players"),
        (&guest, "players"),
        (&watcher, "spectators"),
    ] {
        // The panel loads when opened; the button counts the lines meanwhile.
        browser.wait_visible("#chat-open").await;
        browser.click("#chat-open").await;
        browser
            .wait_visible(&format!("#chat[data-room={room}] .chat-presets"))
            .await;
    }

    // A member types; what looks like markup is shown as typed and nothing runs.
    let attacks = [
        r#"<img src=x onerror="window.pwned=1">"#,
        "<script>window.pwned=2</script>",
        "<b>bold</b> &amp; \"quotes\"",
    ];
    for attack in attacks {
        member.type_into("#chat-input", attack).await;
        member.click("#chat-form [type=submit]").await;
        for (browser, who) in [(&member, "the member"), (&guest, "the guest")] {
            wait_line(browser, who, &format!("Sietske|{attack}")).await;
        }
    }
    for browser in [&member, &guest] {
        let hostile = browser
            .js(
                "return [window.pwned === undefined,
                         document.querySelectorAll('#chat-lines img, #chat-lines script, #chat-lines b:not(.chat-author)').length];",
                vec![],
            )
            .await;
        assert_eq!(hostile, json!([true, 0]), "markup stays text");
    }

    // A guest has no text box, only the phrases.
    assert!(
        guest
            .js(
                "return document.getElementById('chat-form').hidden;",
                vec![]
            )
            .await
            .as_bool()
            .unwrap()
    );
    guest.click("[data-chat-preset=good_luck]").await;
    wait_line(&member, "the member", "Wytze (guest)|Good luck").await;
    watcher.click("[data-chat-preset=hello]").await;
    wait_line(&watcher, "the watcher", "Anne (guest)|Hello").await;

    // The rooms stay apart: the watcher hears no player, the players not the watcher.
    let heard = chat_lines(&watcher).await;
    assert_eq!(heard, ["Anne (guest)|Hello"], "the spectators' room");
    let players_room = chat_lines(&member).await;
    assert_eq!(players_room.len(), attacks.len() + 1, "{players_room:?}");
    assert!(
        players_room.iter().all(|line| !line.starts_with("Anne")),
        "{players_room:?}"
    );
    screenshots(&guest, "chat").await;
    guest.set_viewport(1280, 900).await;

    // The guest mutes the member for themselves: the lines go, a later one never shows, and
    // after a reload (the history replayed) the mute holds.
    guest
        .click("#chat-lines [data-chat-mute='m:Sietske']")
        .await;
    guest
        .wait_visible("#chat-muted [data-chat-mute='m:Sietske']")
        .await;
    assert_eq!(chat_lines(&guest).await, ["Wytze (guest)|Good luck"]);
    member.type_into("#chat-input", "can you hear me").await;
    member.click("#chat-form [type=submit]").await;
    wait_line(&member, "the member", "Sietske|can you hear me").await;
    guest.click("[data-chat-preset=thank_you]").await;
    wait_line(&guest, "the guest", "Wytze (guest)|Thank you").await;
    assert_eq!(
        chat_lines(&guest).await,
        ["Wytze (guest)|Good luck", "Wytze (guest)|Thank you"],
        "the muted member's line is not shown"
    );
    guest.goto(&format!("/m/{}", created.match_id)).await;
    guest.wait_visible("#chat-open").await;
    let closed = guest.text("#chat-open").await;
    assert!(
        closed.starts_with("Chat (") && !closed.contains("(0)"),
        "the closed chat counts the lines kept: {closed}"
    );
    guest.click("#chat-open").await;
    wait_line(
        &guest,
        "the guest after a reload",
        "Wytze (guest)|Thank you",
    )
    .await;
    assert_eq!(
        chat_lines(&guest).await,
        ["Wytze (guest)|Good luck", "Wytze (guest)|Thank you"],
        "the mute is kept by the browser"
    );
    // And undone from the list of the muted.
    guest
        .click("#chat-muted [data-chat-mute='m:Sietske']")
        .await;
    wait_line(
        &guest,
        "the guest after unmuting",
        "Sietske|can you hear me",
    )
    .await;

    member.close().await;
    guest.close().await;
    watcher.close().await;
}
