//! The help overlay (`?`): every key of the current screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::app::Screen;

pub const HOME: &[(&str, &str)] = &[
    ("Tab ← →", "switch list: seeks, live matches, channels"),
    ("↑ ↓ j k", "select"),
    ("Enter w", "join the seek / watch the match or channel"),
    ("p", "predict the selected channel"),
    (
        "c / C",
        "new match: time control, colour, public or private",
    ),
    ("i", "join a private match by invite code"),
    (
        "e",
        "start an engine game (serial, engines, seeds) and predict it",
    ),
    ("t", "watch TV channel 1"),
    ("f", "watch Frisian TV (the most-watched live match)"),
    ("R", "resume the stored seat"),
    ("r", "refresh"),
    ("q", "quit"),
];

pub const MATCH: &[(&str, &str)] = &[
    ("32-28 28x19", "type a move; Tab completes, Enter plays"),
    ("← → ↑ ↓ hjkl", "move the cursor"),
    ("Enter / click", "pick the piece, then its destination"),
    ("1-9 ↑↓ Enter", "choose the capture route (captures marked)"),
    ("Esc", "clear the input and the selection"),
    ("r", "resign (asks to confirm)"),
    ("a", "abort, only before both sides have moved"),
    ("d / D", "offer or accept a draw / decline"),
    ("m / M", "offer or accept a rematch / decline"),
    ("c / C", "claim win / draw when the opponent is gone"),
    ("< > Home End", "step through the moves (End: the game)"),
    ("n f t", "square numbers, flip board, letter pieces"),
    (
        "s",
        "save the finished match's PDN (--save-pdn DIR, or here)",
    ),
    ("q", "back to the home screen (the seat is kept)"),
];

pub const CHANNEL: &[(&str, &str)] = &[
    ("← → ↑ ↓ hjkl", "move the cursor"),
    ("Enter / click", "pick the from square, then the to square"),
    ("b1-c3 Enter", "type a guess for the coming ply"),
    ("p", "prediction on or off"),
    ("f", "FULL (figurines) or FLAT (letters) pieces"),
    ("L", "all-time prediction leaderboard, with your own place"),
    ("Esc", "clear the input and the picked square"),
    (
        "q",
        "back to the home screen (or quit, started as `boardcast tv`)",
    ),
];

/// The keys of `screen` in two columns, each description wrapped beside its key to fit
/// `area`; when even that is too tall, the last line says how many keys are not shown.
pub fn draw(frame: &mut Frame, screen: Screen, area: Rect) {
    let keys = match screen {
        Screen::Home => HOME,
        Screen::Match => MATCH,
        Screen::Channel => CHANNEL,
    };
    let key_width = keys
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
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
                    let key = if i == 0 { *key } else { "" };
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
            " … {more} more: a taller terminal shows them"
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
                    .title(" keys ")
                    .title_bottom(" any key closes "),
            ),
        rect,
    );
}
