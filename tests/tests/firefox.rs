//! The browser tests a browser engine can change, once more in headless Firefox through
//! geckodriver instead of Chromium, so that a club member on Firefox meets no surprise: clicks,
//! drags and keys on the board, layout at 360 px, cookies and storage, sound and
//! notifications, the browser's languages, what the browser sends as `Origin`, and the
//! stumbles found from outside. The tests that drive the server through the page the same way
//! in any browser (lobby, TV, events, ratings, chat, rules, follow-ups) run in Chromium only
//! (`tests/browser/main.rs`): the whole suite twice took 7.7 of CI's minutes in Firefox alone.
//! The suite picks the browser from this test's name (`ENGINE` in browser/shared.rs).

#[path = "browser"]
#[allow(dead_code, unused_imports)] // helpers of the tests that run in Chromium only
mod suite {
    include!("browser/shared.rs");

    mod accounts;
    mod languages;
    mod nav;
    mod origin;
    mod play;
    mod premove;
    mod screens;
    mod seat;
    mod sounds;
    mod stumbles;
    mod typed_and_clock;
}
