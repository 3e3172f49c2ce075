//! Drawing the app with ratatui: one function from the app state to a frame, so every screen
//! can be rendered into a `TestBackend` and checked cell by cell.

pub mod frisian_board;
pub mod help;
pub mod home;
pub mod leaderboard;
pub mod match_view;
pub mod minit_board;
pub mod palette;
pub mod predict_view;

use std::time::Instant;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::{App, Link, Screen};
use crate::i18n::{tr, tr_args};

/// The most lines the status bar grows to for a long message before it is cut with `…`.
const STATUS_LINES: usize = 3;

pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    // Set again below only if this frame draws a board (for clicks on it).
    app.ui.board.set(None);
    let status = status_lines(app, now, frame.area().width);
    let [main, status_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(status.len() as u16)])
            .areas(frame.area());
    match app.ui.screen {
        Screen::Home => home::draw(frame, app, main),
        Screen::Match => match_view::draw(frame, app, main, now),
        Screen::Channel => predict_view::draw(frame, app, main, now),
    }
    frame.render_widget(Paragraph::new(status), status_area);
    if app.ui.leaderboard {
        leaderboard::draw(frame, app, main);
    }
    if app.ui.help {
        // Over the status bar too: every line counts on a small terminal.
        help::draw(frame, app, frame.area());
    }
}

/// The status bar: the link state, the latest message and the help key, on one line when
/// they fit; a longer message wraps onto up to [`STATUS_LINES`] lines (the last one cut with
/// `…`), so a refusal is read whole rather than cut at the edge.
fn status_lines(app: &App, now: Instant, width: u16) -> Vec<Line<'static>> {
    let (link, colour) = match &app.link {
        Link::Connecting => ("tui-link-connecting", Color::Yellow),
        Link::Online => ("tui-link-online", Color::Green),
        Link::Offline { .. } => ("tui-link-offline", Color::Red),
    };
    let link = Span::styled(format!("[{}] ", tr(link)), Style::default().fg(colour));
    let help = Span::styled(
        format!("  {}", tr("tui-hint-help")),
        Style::default().fg(Color::DarkGray),
    );
    let Some(status) = app.ui.status_at(now) else {
        return vec![Line::from(vec![link, help])];
    };
    let style = if status.alert {
        Style::default().fg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::default()
    };
    let width = usize::from(width.max(1));
    let head = link.content.chars().count();
    let whole = head + status.text.chars().count() + help.content.chars().count();
    if whole <= width {
        return vec![Line::from(vec![
            link,
            Span::styled(status.text.clone(), style),
            help,
        ])];
    }
    // The first line starts after the link state; the help key gives its room to the message.
    let mut rows = wrap_words(&status.text, width.saturating_sub(head).max(1), width);
    if rows.len() > STATUS_LINES {
        rows.truncate(STATUS_LINES);
        if let Some(last) = rows.last_mut() {
            *last = ellipsis(last, width.saturating_sub(1));
            last.push('…');
        }
    }
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| match i {
            0 => Line::from(vec![link.clone(), Span::styled(row, style)]),
            _ => Line::styled(row, style),
        })
        .collect()
}

/// `text` cut to at most `width` characters.
fn ellipsis(text: &str, width: usize) -> String {
    text.chars().take(width).collect()
}

/// `text` cut to `width` characters, its end replaced by `…` when it was longer.
pub fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut = ellipsis(text, width.saturating_sub(1));
    if width > 0 {
        cut.push('…');
    }
    cut
}

/// `text` cut to `width` characters by putting `…` in its middle when it was longer: for an
/// address, whose start (the server) and end (the file) both say which one it is.
pub fn fit_middle(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return text.to_owned();
    }
    let Some(room) = width.checked_sub(1) else {
        return String::new();
    };
    // The end names the file: it gets the larger half.
    let head = room / 3;
    let tail = room - head;
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

/// Words packed into lines, the first `first` wide and the rest `rest` wide; a word longer
/// than a line is split.
pub fn wrap_words(text: &str, first: usize, rest: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let width = if lines.len() == 1 { first } else { rest }.max(1);
            let line = lines.last_mut().expect("never empty");
            let used = line.chars().count();
            let gap = usize::from(used > 0);
            if used + gap + word.len() <= width {
                if gap == 1 {
                    line.push(' ');
                }
                line.extend(word.iter());
                break;
            }
            if used == 0 {
                // Longer than a whole line: split it.
                let (head, tail) = word.split_at(width);
                line.extend(head.iter());
                word = tail.to_vec();
            }
            lines.push(String::new());
        }
    }
    lines
}

/// Words joined with single spaces, packed into lines of `width` so that no word is split.
pub fn pack_words(words: &[&str], width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in words {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 1 + word.chars().count() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push((*word).to_owned()),
        }
    }
    lines
}

/// Seconds without an answer after which a screen waiting for a match or channel says so.
pub const SILENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// The screen of a match or channel not shown (yet): waiting for it, why the server refused
/// it, or that the server has not answered, with the key back.
pub fn not_shown(
    frame: &mut Frame,
    app: &App,
    area: ratatui::layout::Rect,
    now: Instant,
    what: &str,
) {
    let back = tr(if app.exit_on_back {
        "tui-quits"
    } else {
        "tui-goes-back"
    });
    let mut lines = Vec::new();
    match (&app.unavailable, app.asked_at) {
        (Some(why), _) => {
            lines.push(Line::styled(
                tr_args("tui-not-available", &[("why", why.clone().into())]),
                Style::default().fg(Color::Red).add_modifier(Modifier::BOLD),
            ));
        }
        (None, Some(at)) if now.saturating_duration_since(at) >= SILENCE => {
            lines.push(Line::from(what.to_owned()));
            lines.push(Line::styled(
                tr_args(
                    "tui-no-answer",
                    &[(
                        "seconds",
                        now.saturating_duration_since(at).as_secs().into(),
                    )],
                ),
                Style::default().fg(Color::Red),
            ));
        }
        _ => lines.push(Line::from(what.to_owned())),
    }
    lines.push(Line::styled(back, Style::default().fg(Color::Gray)));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: true })
            .block(ratatui::widgets::Block::bordered()),
        area,
    );
}

/// Key hints joined with ` · `, packed into lines of `width` so that no hint is split.
pub fn pack_hints(hints: &[&str], width: u16) -> Vec<String> {
    let width = usize::from(width.max(1));
    let mut lines: Vec<String> = Vec::new();
    for hint in hints {
        match lines.last_mut() {
            Some(line) if line.chars().count() + 3 + hint.chars().count() <= width => {
                line.push_str(" · ");
                line.push_str(hint);
            }
            _ => lines.push((*hint).to_owned()),
        }
    }
    lines
}

#[cfg(test)]
mod tests;
