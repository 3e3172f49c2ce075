//! `boardcast events` and `boardcast event ID`: club events (issue 33) as text that fits 80
//! columns, read from the server's event API (PROTOCOL.md §20) with no login, in the
//! player's language (the catalogues the web pages use).

use std::fmt::Write;
use std::process::ExitCode;

use fluent_bundle::FluentValue;
use serde_json::Value;

use super::{AccountOptions, Service, block_on, refusal_text};
use crate::i18n::{tr, tr_args};

/// The terminal's width, which every line keeps within.
const WIDTH: usize = 80;
/// A name's column in the pairings and standings (user names are at most 20 characters).
const NAME: usize = 20;

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or("")
}

fn num(v: &Value, key: &str) -> i64 {
    v[key].as_i64().unwrap_or(0)
}

/// At most `width` characters of `s`.
fn clip(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

/// `m:ss`, or `h:mm:ss` from an hour on.
fn countdown(ms: i64) -> String {
    let s = (ms.max(0) + 999) / 1000;
    let (h, m, s) = (s / 3600, s % 3600 / 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

/// What kind of event, its time control, rated or not, and how many play.
fn summary(e: &Value) -> String {
    let kind = match str_of(e, "kind") {
        "swiss" => tr_args(
            "event-kind-swiss",
            &[("rounds", FluentValue::from(num(e, "rounds_total")))],
        ),
        "arena" => tr_args(
            "event-kind-arena",
            &[("minutes", FluentValue::from(num(e, "minutes")))],
        ),
        _ if e["double"].as_bool() == Some(true) => tr("event-kind-double"),
        _ => tr("event-kind-round_robin"),
    };
    let players = e["players"].as_array().map_or(0, Vec::len);
    [
        kind,
        str_of(e, "time_control").to_owned(),
        tr(if e["rated"].as_bool() == Some(true) {
            "event-rated"
        } else {
            "event-casual"
        }),
        tr_args(
            "event-players",
            &[("count", FluentValue::from(players as i64))],
        ),
    ]
    .join(" · ")
}

/// The list: upcoming, running, then finished events, one line each; when the server left
/// out some upcoming or running ones (`more_current`), a line that says so; when older
/// finished events follow (`more`), the command that shows them (`page` is the API's, from 0).
pub fn events_text(list: &Value) -> String {
    let events = list["events"].as_array().cloned().unwrap_or_default();
    let mut out = String::new();
    for status in ["waiting", "playing", "finished"] {
        let _ = writeln!(out, "{}", tr(&format!("events-{status}")));
        let mine: Vec<&Value> = events
            .iter()
            .filter(|e| str_of(e, "status") == status)
            .collect();
        if mine.is_empty() {
            // The words the web's /events page shows in an empty list.
            let _ = writeln!(out, "  {}", tr(&format!("events-none-{status}")));
        }
        for e in mine {
            let line = format!(
                "  {:<8}  {}  {}",
                str_of(e, "id"),
                clip(str_of(e, "name"), 24),
                summary(e)
            );
            let _ = writeln!(out, "{}", clip(&line, WIDTH));
        }
        if status == "playing" && list["more_current"].as_bool() == Some(true) {
            let _ = writeln!(out, "  {}", tr("cli-events-more-current"));
        }
    }
    if list["more"].as_bool() == Some(true) {
        let next = list["page"].as_u64().unwrap_or(0) + 1;
        let command = format!("boardcast events --page {next}");
        let older = tr_args(
            "cli-events-older",
            &[("command", FluentValue::from(command))],
        );
        let _ = writeln!(out, "{older}");
    }
    out
}

/// One event at `now_ms`: the countdown, the standings (tie-breaks, or an arena's sheet),
/// each round's games with the match id to watch (`boardcast watch ID`).
pub fn event_text(e: &Value, now_ms: i64) -> String {
    let mut out = String::new();
    let status = str_of(e, "status");
    let _ = writeln!(out, "{}", clip(str_of(e, "name"), WIDTH));
    let _ = writeln!(out, "{}", clip(&summary(e), WIDTH));
    let clock = match (status, str_of(e, "kind")) {
        ("waiting", _) => tr_args(
            "event-starts-in",
            &[(
                "time",
                FluentValue::from(countdown(num(e, "starts_at") - now_ms)),
            )],
        ),
        ("playing", "arena") => tr_args(
            "event-ends-in",
            &[(
                "time",
                FluentValue::from(countdown(num(e, "ends_at_ms") - now_ms)),
            )],
        ),
        (status, _) => tr(&format!("event-status-{status}")),
    };
    let _ = writeln!(out, "{}", clip(&clock, WIDTH));
    let arena = str_of(e, "kind") == "arena";
    let standings = e["standings"].as_array().cloned().unwrap_or_default();
    if !standings.is_empty() {
        let title = if status == "finished" {
            "event-final"
        } else {
            "event-standings"
        };
        let _ = writeln!(out, "\n{}", tr(title));
        for s in &standings {
            let name = format!(
                "{}{}",
                str_of(s, "name"),
                if s["withdrawn"].as_bool() == Some(true) {
                    " -"
                } else {
                    ""
                }
            );
            let mut line = format!(
                "{:>3}  {:<NAME$}  {:>4}  {:>5}",
                num(s, "rank"),
                clip(&name, NAME),
                num(s, "rating"),
                str_of(s, "score"),
            );
            if arena {
                let fire = if s["on_fire"].as_bool() == Some(true) {
                    "*"
                } else {
                    " "
                };
                let _ = write!(line, " {fire} {}", str_of(s, "sheet"));
            } else {
                let _ = write!(
                    line,
                    "  {:>5}  {:>5}  {:>5}",
                    str_of(s, "buchholz"),
                    str_of(s, "buchholz_cut1"),
                    str_of(s, "sonneborn_berger")
                );
            }
            let _ = writeln!(out, "{}", clip(&line, WIDTH));
        }
    }
    for r in e["rounds"].as_array().into_iter().flatten() {
        let id = if arena { "event-wave" } else { "event-round" };
        let _ = writeln!(
            out,
            "\n{}",
            tr_args(id, &[("round", FluentValue::from(num(r, "round")))])
        );
        for g in r["games"].as_array().into_iter().flatten() {
            let line = format!(
                "  {:<NAME$} {:<NAME$} {:>5}  {}",
                clip(str_of(g, "white"), NAME),
                clip(str_of(g, "black"), NAME),
                str_of(g, "result"),
                str_of(g, "match_id"),
            );
            let _ = writeln!(out, "{}", clip(line.trim_end(), WIDTH));
        }
        if let Some(bye) = r["bye"].as_str() {
            let text = tr_args("event-bye", &[("name", FluentValue::from(bye))]);
            let _ = writeln!(out, "  {}", clip(&text, WIDTH - 2));
        }
    }
    out
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// `boardcast events`, `--page N` (from 0) for older finished events.
pub fn events(options: AccountOptions, page: u32) -> ExitCode {
    block_on(async move {
        let api = options.api(None)?;
        let list = api
            .events(page)
            .await
            .map_err(|e| format!("events: {}", refusal_text(&e, Service::Events)))?;
        print!("{}", events_text(&list));
        Ok(())
    })
}

/// `boardcast event ID`, and with `--follow` again at every change.
pub fn event(options: AccountOptions, id: String, follow: bool) -> ExitCode {
    if follow {
        return block_on(follow_event(options, id));
    }
    block_on(async move {
        let api = options.api(None)?;
        let shown = api
            .event(&id)
            .await
            .map_err(|e| format!("event {id}: {}", refusal_text(&e, Service::Events)))?;
        print!("{}", event_text(&shown, now_ms()));
        Ok(())
    })
}

/// `boardcast event ID --follow`: the event followed over the WebSocket as a spectator
/// (`watch` of `{"event": ID}`), printed whenever the server pushes a change, until it is
/// over. After a dropped connection it watches again from the version it showed, so it is
/// sent the event only if something changed meanwhile.
async fn follow_event(options: AccountOptions, id: String) -> Result<(), String> {
    use crate::net::NetEvent;
    use boardcast_protocol::{
        ClientEnvelope, ClientMessage, Encoding, ServerMessage, Target, Watch,
    };

    let tls = crate::tls::client_config(options.ca_file.as_deref())?;
    let (out, _local, mut events) = crate::net::spawn(
        options.address.ws_url(),
        Encoding::Json,
        tls,
        options.ca_file.clone(),
        None,
    );
    let mut shown_v = None;
    let mut next_id = 1;
    while let Some(event) = events.recv().await {
        match event {
            NetEvent::Connected => {
                let watch = ClientMessage::Watch(Watch {
                    target: Target::Event(id.clone()),
                    since_v: shown_v,
                });
                let _ = out.send(ClientEnvelope {
                    id: next_id,
                    msg: watch,
                });
                next_id += 1;
            }
            NetEvent::Message(message) => match *message {
                ServerMessage::ClubEvent(shown) if shown.id == id => {
                    // The pushed event has the fields of `GET /api/events/{id}`.
                    let value = serde_json::to_value(&shown).map_err(|e| e.to_string())?;
                    print!("\n{}", event_text(&value, now_ms()));
                    shown_v = Some(shown.v);
                    if shown.status == boardcast_protocol::ClubEventStatus::Finished {
                        return Ok(());
                    }
                }
                ServerMessage::Error(error) => {
                    let code = serde_json::to_value(error.code)
                        .ok()
                        .and_then(|code| code.as_str().map(str::to_owned))
                        .unwrap_or_default();
                    let words = crate::i18n::api_refusal("event", &code, &error.message);
                    return Err(format!("event {id}: {words}"));
                }
                _ => {}
            },
            NetEvent::Failed { reason } => return Err(reason),
            NetEvent::Disconnected { reason, .. } => {
                eprintln!("boardcast: {} ({reason})", tr("conn-offline"));
            }
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, speak_on_this_thread};
    use serde_json::json;

    fn event(id: &str, status: &str) -> Value {
        json!({"id": id, "name": id, "status": status, "kind": "swiss", "rounds_total": 3,
            "time_control": "5+3", "rated": false, "players": []})
    }

    /// A page with older finished events after it names the command that shows the next
    /// page (the API's page, from 0), and a list the server cut short says so under the
    /// running events, in the player's language; the last page and a whole list say neither.
    #[test]
    fn the_list_names_the_next_page_and_says_when_the_server_left_events_out() {
        speak_on_this_thread(Lang::En);
        let page = json!({"events": [event("w1", "waiting"), event("f1", "finished")],
            "page": 1, "per_page": 20, "more": true, "more_current": true});
        let shown = events_text(&page);
        assert!(
            shown.ends_with("  f1        f1  Swiss, 3 rounds · 5+3 · casual · 0 players\nolder: boardcast events --page 2\n"),
            "{shown}"
        );
        assert!(
            shown.contains(
                "Running\n  No event is running now.\n  More events are coming up or running than the server lists.\nFinished\n"
            ),
            "{shown}"
        );
        let last = json!({"events": [event("f1", "finished")], "page": 2, "more": false,
            "more_current": false});
        let shown = events_text(&last);
        assert!(!shown.contains("older"), "{shown}");
        assert!(!shown.contains("More events"), "{shown}");
        speak_on_this_thread(Lang::Nl);
        assert!(events_text(&page).contains("\nouder: boardcast events --page 2\n"));
        speak_on_this_thread(Lang::Fy);
        assert!(events_text(&page).contains("\nâlder: boardcast events --page 2\n"));
    }
}
