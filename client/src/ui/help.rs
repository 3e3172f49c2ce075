//! The help overlay (`?`): every key of the current screen. The keys are as typed; each
//! description is a catalogue message id (`web/i18n/*.ftl`), shown in the player's language.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::app::{App, Screen};
use crate::i18n::{tr, tr_args};

pub const HOME: &[(&str, &str)] = &[
    ("Tab ← →", "help-home-switch"),
    ("↑ ↓ j k", "help-home-select"),
    ("Enter w", "help-home-join"),
    ("p", "help-home-predict"),
    ("n", "help-home-play-now"),
    ("c / C", "help-home-new"),
    ("i", "help-home-invite"),
    ("e", "help-home-engine"),
    ("t", "help-home-tv"),
    ("f", "help-home-ftv"),
    ("R", "help-home-resume"),
    ("r", "help-home-refresh"),
    ("q", "help-home-quit"),
];

pub const MATCH: &[(&str, &str)] = &[
    ("32-28 28x19", "help-match-type"),
    ("← → ↑ ↓ hjkl", "help-match-cursor"),
    ("Enter", "help-match-pick"),
    ("1-9 ↑↓ Enter", "help-match-route"),
    ("Esc", "help-match-clear"),
    ("r", "help-match-resign"),
    ("a", "help-match-abort"),
    ("d / D", "help-match-draw"),
    ("m / M", "help-match-rematch"),
    ("c / C", "help-match-claim"),
    ("< > Home End", "help-match-step"),
    ("n f t b", "help-match-view"),
    ("s", "help-match-save"),
    ("/ Tab", "help-match-chat"),
    // One row for both, so the overlay still fits 60x20.
    ("+ / B", "help-match-more-time"),
    ("q", "help-match-back"),
];

/// The takeback keys, after the draw's: listed to a player of a match that takes takebacks
/// only (not a rated match or a club event's game, where `u` is refused).
pub const TAKEBACK: (&str, &str) = ("u / U", "help-match-takeback");

pub const CHANNEL: &[(&str, &str)] = &[
    ("← → ↑ ↓ hjkl", "help-channel-cursor"),
    ("Enter", "help-channel-pick"),
    ("b1-c3 Enter", "help-channel-guess"),
    ("p", "help-channel-predict"),
    ("f", "help-channel-pieces"),
    ("L", "help-channel-leaders"),
    ("Esc", "help-channel-clear"),
    ("q", "help-channel-back"),
];

/// The keys of the screen `app` shows.
pub fn keys(app: &App) -> Vec<(&'static str, &'static str)> {
    match app.ui.screen {
        Screen::Home => HOME.to_vec(),
        Screen::Match => {
            let mut keys = MATCH.to_vec();
            let takebacks = app.game.as_ref().is_some_and(|game| game.takebacks);
            if takebacks && app.my_side().is_some() {
                let draw = keys.iter().position(|(_, id)| *id == "help-match-draw");
                keys.insert(draw.map_or(keys.len(), |at| at + 1), TAKEBACK);
            }
            keys
        }
        Screen::Channel => CHANNEL.to_vec(),
    }
}

/// The keys of the screen `app` shows in two columns, each description wrapped beside its key
/// to fit `area`; when even that is too tall, the last line says how many keys are not shown.
pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let keys = keys(app);
    let key_width = keys
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let keys: Vec<(&str, String)> = keys.iter().map(|(key, id)| (*key, tr(id))).collect();
    let widest = keys
        .iter()
        .map(|(_, w)| w.chars().count())
        .max()
        .unwrap_or(0);
    // Border and a space each side, the key column and two spaces.
    let room = usize::from(area.width).saturating_sub(4 + key_width + 2);
    let what_width = widest.min(room).max(12);
    let rows = usize::from(area.height.saturating_sub(2));
    let mut entries: Vec<Vec<String>> = keys
        .iter()
        .map(|(key, what)| {
            super::wrap_words(what, what_width, what_width)
                .iter()
                .enumerate()
                .map(|(i, part)| {
                    let key = if i == 0 { key } else { "" };
                    format!(" {key:>key_width$}  {part}")
                })
                .collect()
        })
        .collect();
    let height = |entries: &[Vec<String>]| entries.iter().map(Vec::len).sum::<usize>();
    if height(&entries) > rows {
        // Whole entries only, and a line to say what is left out.
        while !entries.is_empty() && height(&entries) + 1 > rows {
            entries.pop();
        }
        let more = keys.len() - entries.len();
        entries.push(vec![format!(
            " {}",
            tr_args("help-more", &[("count", more.into())])
        )]);
    }
    let lines: Vec<String> = entries.concat();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 3;
    let height = lines.len() as u16 + 2;
    let rect = Rect::new(
        area.x + area.width.saturating_sub(width) / 2,
        area.y + area.height.saturating_sub(height) / 2,
        width.min(area.width),
        height.min(area.height),
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines.join("\n"))
            .style(Style::default().fg(Color::White).bg(Color::Black))
            .block(
                Block::bordered()
                    .title(format!(" {} ", tr("help-title")))
                    .title_bottom(format!(" {} ", tr("help-close"))),
            ),
        rect,
    );
}
