//! The web client in real headless browsers against the real server binary (issue 14):
//! people playing, watching, predicting, and what a hostile page can do.
//!
//! This file is the `browser` test: every test, in Chromium. `tests/firefox.rs` runs the tests
//! a browser engine can change (input, layout, storage, cookies, sound, languages) once more in
//! Firefox ([`ENGINE`]); the rest exercise the server through the page the same way in both.
//!
//! Each test starts its own server on a free loopback port with a temporary database and its
//! own WebDriver server; each player is a separate browser with its own empty profile. Without
//! the browser a developer sees "skipped: install …" (CI fails instead). One test binary per
//! browser, so that the tests take their turns (two or three browsers at a time is what two
//! cores take).

mod accounts;
mod buttons_and_endings;
mod chat;
mod events;
mod followups;
mod frisian_tv;
mod languages;
mod lobby;
mod more_time;
mod nav;
mod origin;
mod play;
mod premove;
mod ratings;
mod rules;
mod screens;
mod seat;
mod sounds;
mod stumbles;
mod takeback;
mod tv;
mod typed_and_clock;

include!("shared.rs");
