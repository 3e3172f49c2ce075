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
    ("Enter Space", "pick the piece, then its destination"),
    (
        "1-9 ↑↓ Enter",
        "choose the capture route (its captures are marked)",
    ),
    ("Esc", "clear the input and the selection"),
    ("r / a", "resign / abort (asks to confirm)"),
    ("d / D", "offer or accept a draw / decline"),
    ("m / M", "offer or accept a rematch / decline"),
    ("c / C", "claim the win / a draw when the opponent is gone"),
    ("n f t", "square numbers, flip board, letter pieces"),
    (
        "s",
        "save the finished match's PDN (--save-pdn DIR, or here)",
    ),
    ("q", "back to the home screen (the seat is kept)"),
];

pub const CHANNEL: &[(&str, &str)] = &[
    ("← → ↑ ↓ hjkl", "move the cursor"),
    ("Enter Space", "pick the from square, then the to square"),
    ("b1-c3 Enter", "type a guess for the coming ply"),
    ("p", "prediction on or off"),
    ("f", "FULL (figurines) or FLAT (letters) pieces"),
    ("L", "all-time prediction leaderboard, with your own place"),
    ("Esc", "clear the input and the picked square"),
    ("q", "back to the home screen"),
];

pub fn draw(frame: &mut Frame, screen: Screen, area: Rect) {
    let keys = match screen {
        Screen::Home => HOME,
        Screen::Match => MATCH,
        Screen::Channel => CHANNEL,
    };
    let lines: Vec<String> = keys
        .iter()
        .map(|(key, what)| format!("{key:>14}  {what}"))
        .chain(["".to_owned(), "      any key closes this help".to_owned()])
        .collect();
    let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 4;
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
            .block(Block::bordered().title(" keys ")),
        rect,
    );
}
