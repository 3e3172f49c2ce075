//! The leaderboard overlay (`L` on the MinitChess screen): the best predictors of all time,
//! as many as fit, and the viewer's own place on the last line whatever the height.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Clear, Paragraph};

use crate::app::App;
use crate::app::notes::ranked;
use crate::i18n::{tr, tr_args};

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
        None => lines.push(Line::from(tr("leaderboard-asking"))),
        Some(entries) if entries.is_empty() => lines.push(Line::from(tr("leaderboard-empty"))),
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
        Some((rank, entry)) => tr_args(
            "leaderboard-you-ranked",
            &[("rank", rank.into()), ("entry", ranked(entry).into())],
        ),
        None => match app.leaderboard_beyond() {
            Some(top) => tr_args(
                "leaderboard-you-beyond",
                &[("name", app.name.clone().into()), ("top", top.into())],
            ),
            None if app.leaderboard.is_some() => tr_args(
                "leaderboard-you-unranked",
                &[("name", app.name.clone().into())],
            ),
            None => tr_args("leaderboard-you", &[("name", app.name.clone().into())]),
        },
    };
    let this_game = app
        .channel
        .as_ref()
        .map(|c| {
            tr_args(
                "leaderboard-this-game",
                &[
                    ("correct", c.score.correct.into()),
                    ("strikes", c.score.strikes.into()),
                ],
            )
        })
        .unwrap_or_default();
    while lines.len() < rows {
        lines.push(Line::from(""));
    }
    lines.push(Line::styled(super::fit(&own, inner), me));
    lines.push(Line::styled(super::fit(&this_game, inner), me));
    lines.push(Line::styled(
        tr("leaderboard-close"),
        Style::default().fg(Color::Gray),
    ));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .style(Style::default().fg(Color::White).bg(Color::Black))
            .block(Block::bordered().title(format!(" {} ", tr("leaderboard-title")))),
        rect,
    );
}
