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
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::{App, Link, Screen};

pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let [main, status] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(frame.area());
    match app.ui.screen {
        Screen::Home => home::draw(frame, app, main),
        Screen::Match => match_view::draw(frame, app, main, now),
        Screen::Channel => predict_view::draw(frame, app, main, now),
    }
    let (link, colour) = match &app.link {
        Link::Connecting => ("connecting".to_owned(), Color::Yellow),
        Link::Online => ("online".to_owned(), Color::Green),
        Link::Offline { .. } => ("offline, reconnecting".to_owned(), Color::Red),
    };
    let last = app.ui.status_at(now).unwrap_or_default().to_owned();
    let line = Line::from(vec![
        Span::styled(format!("[{link}] "), Style::default().fg(colour)),
        Span::raw(last),
        Span::styled("  ? help", Style::default().fg(Color::DarkGray)),
    ]);
    frame.render_widget(Paragraph::new(line), status);
    if app.ui.leaderboard {
        leaderboard::draw(frame, app, main);
    }
    if app.ui.help {
        help::draw(frame, app.ui.screen, main);
    }
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
