//! Issue 14, browser test 6, and the harness itself: which pages may open the WebSocket.

use super::*;

use futures_util::FutureExt;

/// Opens a WebSocket from the page the browser is on (so with that page's origin) and tells
/// how it went: `open`, or `closed:{code}` when the upgrade was refused.
const OPEN_SOCKET: &str = "
    const done = arguments[arguments.length - 1];
    const ws = new WebSocket(arguments[0], 'boardcast.v1.json');
    ws.onopen = () => { done('open'); ws.close(); };
    ws.onclose = (event) => done('closed:' + event.code);
";

#[tokio::test]
async fn the_harness_drives_chromium_against_the_server() {
    let Some(driver) =
        Driver::start_or_skip("the_harness_drives_chromium_against_the_server").await
    else {
        return;
    };
    let server = server(&[]);
    let browser = driver.browser(server.addr(), 1280, 800).await;
    browser.goto("/healthz").await;
    assert_eq!(browser.text("body").await, "ok");
    browser
        .screenshot(&screenshot_dir().join("harness-healthz.png"))
        .await;
    // A wait for something that never comes fails the test (after its patience).
    let gave_up = std::panic::AssertUnwindSafe(browser.wait_for_value(
        "an element that never comes",
        "return document.querySelector('#never');",
        vec![],
        Duration::from_secs(1),
    ))
    .catch_unwind()
    .await;
    assert!(gave_up.is_err(), "the wait gave up with a panic");
    browser.close().await;
}

/// Issue 14, browser test 6: a page on another origin cannot open a player's WebSocket (the
/// upgrade is refused), while the server's own pages can, and so can a client that sends no
/// `Origin` (not a browser).
#[tokio::test]
async fn a_page_from_another_origin_cannot_open_the_websocket() {
    let Some(driver) =
        Driver::start_or_skip("a_page_from_another_origin_cannot_open_the_websocket").await
    else {
        return;
    };
    let server = server(&[]);
    let ws_url = format!("ws://{}/ws", server.addr());
    let browser = driver.browser(server.addr(), 1024, 768).await;

    // The server's own origin may.
    browser.goto("/healthz").await;
    let own = browser
        .client
        .execute_async(OPEN_SOCKET, vec![json!(ws_url)])
        .await
        .expect("the socket script runs");
    assert_eq!(own, json!("open"), "a page of the server's own origin");

    // An attacker's page on 127.0.0.2 tries, with the script in the page itself.
    let site = ForeignSite::serve(format!(
        "<!doctype html><title>elsewhere</title><body data-ws=\"trying\"><script>
         const ws = new WebSocket({url}, 'boardcast.v1.json');
         ws.onopen = () => {{ document.body.dataset.ws = 'open'; }};
         ws.onclose = (event) => {{
           if (document.body.dataset.ws === 'trying') document.body.dataset.ws = 'closed:' + event.code;
         }};
         </script></body>",
        url = json!(ws_url)
    ))
    .await;
    browser.goto(&site.url).await;
    let outcome = browser
        .wait_for_value(
            "the foreign page's socket to open or close",
            "const s = document.body.dataset.ws; return s === 'trying' ? null : s;",
            vec![],
            Duration::from_secs(30),
        )
        .await;
    assert_eq!(
        outcome,
        json!("closed:1006"),
        "the upgrade from http://127.0.0.2 must be refused (never opened)"
    );

    // The same refusal without a browser: the handshake with that Origin is answered 403;
    // without Origin (a terminal client, a bot) it is accepted.
    let origin = site.url.trim_end_matches('/');
    assert_eq!(handshake_status(server.addr(), Some(origin)).await, 403);
    assert_eq!(handshake_status(server.addr(), None).await, 101);
    browser.close().await;
}

/// The HTTP status the server answers a WebSocket handshake with, sending `origin` if given.
async fn handshake_status(addr: std::net::SocketAddr, origin: Option<&str>) -> u16 {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::http::HeaderValue;
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("a request");
    let headers = request.headers_mut();
    headers.insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static("boardcast.v1.json"),
    );
    if let Some(origin) = origin {
        headers.insert("Origin", HeaderValue::from_str(origin).expect("an origin"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((_, response)) => response.status().as_u16(),
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(err) => panic!("handshake failed without an HTTP answer: {err}"),
    }
}
