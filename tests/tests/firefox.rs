//! The browser suite (tests/browser/) once more, in headless Firefox through geckodriver
//! instead of Chromium: the same tests, so that a club member on Firefox meets no surprise.
//! The suite picks the browser from this test's name (`ENGINE` in browser/main.rs).

#[path = "browser/main.rs"]
mod suite;
