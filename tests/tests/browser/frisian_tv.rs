//! Issue 20: Frisian TV in the browser, and the BOT tag of an engine's seat.

use super::*;

/// A public match, started: `white` (who says it is a program when `bot`) creates it and
/// `black` joins. Returns both connections and White's seat.
async fn live_match(
    addr: std::net::SocketAddr,
    white: &str,
    bot: bool,
    black: &str,
) -> (Client, boardcast_protocol::Seat, Client) {
    let mut w = Client::connect(addr, Encoding::Json).await.unwrap();
    let id = w
        .send(ClientMessage::Hello(boardcast_protocol::Hello {
            protocol: boardcast_protocol::PROTOCOL_VERSION,
            client: "browser-test".into(),
            name: white.into(),
            bot,
        }))
        .await
        .unwrap();
    w.expect_ack(id).await.unwrap();
    let seat = w
        .create_match(boardcast_protocol::ColorChoice::White, true, None)
        .await
        .unwrap();
    let mut b = Client::connect(addr, Encoding::Json).await.unwrap();
    b.hello(black).await.unwrap();
    b.join_match(&seat.match_id).await.unwrap();
    (w, seat, b)
}

/// `/ftv` shows the featured match (an engine's seat tagged BOT, its moves as they come), and
/// moves on to the next match after this one ends; the lobby offers TV and tags the engine.
#[tokio::test]
async fn frisian_tv_follows_the_featured_match_and_tags_the_engines_seat() {
    let test = "frisian_tv_follows_the_featured_match_and_tags_the_engines_seat";
    let Some(driver) = Driver::start_or_skip(test).await else {
        return;
    };
    let server = server(&[]);
    let (mut engine, seat, _person) = live_match(server.addr(), "Scan", true, "Sietske").await;
    let viewer = driver.browser(server.addr(), 1280, 900).await;

    viewer.goto("/").await;
    viewer
        .wait_for(&format!("[data-live=\"{}\"] [data-bot]", seat.match_id))
        .await;
    viewer.wait_for("a[data-tv=ftv]").await;

    viewer.goto("/ftv").await;
    viewer.wait_visible("#ftv-banner").await;
    viewer.wait_visible("#board").await;
    let tags = "const t = [...document.querySelectorAll('[data-presence]')].map((p) => \
                p.dataset.presence + ':' + !p.querySelector('[data-bot]').hidden).sort().join(' '); \
                return t === 'black:false white:true' && t;";
    viewer
        .wait_until("the BOT tag on White's seat only", tags, vec![])
        .await;
    engine.play(&seat, &[32, 28]).await.unwrap();
    viewer
        .wait_until(
            "the move on the featured match's board",
            "return document.querySelector('#moves [data-ply=\"1\"]')?.textContent === '32-28';",
            vec![],
        )
        .await;

    // The match ends and another is being played: TV shows it after the result.
    let (_w2, _, _b2) = live_match(server.addr(), "Hylke", false, "Wytze").await;
    engine.resign(&seat).await.unwrap();
    viewer.wait_visible("#result").await;
    viewer
        .wait_until(
            "the next match on TV",
            "return document.querySelector('[data-presence=white] .name')?.textContent.startsWith('Hylke');",
            vec![],
        )
        .await;
    assert_eq!(
        viewer.attr("body", "data-page").await.as_deref(),
        Some("ftv")
    );
    viewer.close().await;
}
