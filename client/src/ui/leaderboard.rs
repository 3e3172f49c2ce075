//! The leaderboard overlay (`L` on the MinitChess screen): the best predictors of all time,
//! as many as fit, and the viewer's own place on the last line whatever the height.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::app::App;
use crate::app::notes::ranked;

pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let width = area.width.min(64);
    let height = area.height.min(24);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    // Inside the border: the rows, then the viewer's own lines and the key hint. A line
    // wider than the box is cut with `…` (a long name), never silently.
    let inner = usize::from(width.saturating_sub(2));
    let rows = usize::from(height.saturating_sub(5));
    let me = Style::default()
        .fg(Color::Yellow)
        .add_modifier(Modifier::BOLD);
    let mut lines: Vec<Line> = Vec::new();
    let mine = app.my_rank().map(|(rank, _)| rank);
    match &app.leaderboard {
        None => lines.push(Line::from("asking the server…")),
        Some(entries) if entries.is_empty() => lines.push(Line::from("nobody has predicted yet")),
        Some(entries) => {
            for (i, entry) in entries.iter().enumerate().take(rows) {
                let text = super::fit(&format!("{:>3}. {}", i + 1, ranked(entry)), inner);
                let style = if mine == Some(i + 1) {
                    me
                } else {
                    Style::default()
                };
                lines.push(Line::styled(text, style));
            }
        }
    }
    lines.truncate(rows);
    let own = match app.my_rank() {
        Some((rank, entry)) => format!("you: #{rank}  {}", ranked(entry)),
        None => match app.leaderboard_beyond() {
            Some(top) => format!("you: {} — not in the top {top}", app.name),
            None if app.leaderboard.is_some() => format!("you: {} — not ranked yet", app.name),
            None => format!("you: {}", app.name),
        },
    };
    let this_game = app
        .channel
        .as_ref()
        .map(|c| {
            format!(
                "this game: {} correct, {} strikes",
                c.score.correct, c.score.strikes
            )
        })
        .unwrap_or_default();
    while lines.len() < rows {
        lines.push(Line::from(""));
    }
    lines.push(Line::styled(super::fit(&own, inner), me));
    lines.push(Line::styled(super::fit(&this_game, inner), me));
    lines.push(Line::styled(
        "any key closes",
        Style::default().fg(Color::Gray),
    ));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .style(Style::default().fg(Color::White).bg(Color::Black))
            .block(Block::bordered().title(" prediction leaderboard ")),
        rect,
    );
}
