//! The MinitChess screen for TV, on-demand games and prediction: engines, seeds, serial and
//! move number as the module displays them, the board in the FULL or FLAT set, revealed moves,
//! the countdown to the next reveal, and the viewer's guess, strikes and score.

use std::time::Instant;

use boardcast_protocol::ChannelKind;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::minit_board::MinitBoard;
use crate::app::App;
use crate::app::channel::{Channel, result_text, square_index, square_name};

/// The module's display: `CH3SS5`, `L4 · K7`, `Move 3`.
pub fn header_lines(channel: &Channel, flat: bool) -> Vec<Line<'static>> {
    let kind = match channel.kind {
        ChannelKind::Tv => "TV",
        ChannelKind::OnDemand => "engine game",
    };
    let mut lines = vec![Line::from(format!(
        "{kind} {} · {} set",
        channel.channel,
        if flat { "FLAT" } else { "FULL" }
    ))];
    match &channel.game {
        Some(game) => {
            let bold = Style::default().add_modifier(Modifier::BOLD);
            lines.push(Line::styled(format!("Serial {}", game.header.serial), bold));
            lines.push(Line::styled(
                format!("White {}  Black {}", game.header.white, game.header.black),
                bold,
            ));
            match &game.result {
                Some(result) => lines.push(Line::styled(
                    format!("Game over: {}", result_text(result)),
                    bold.fg(Color::Yellow),
                )),
                None => {
                    let side = if game.next_ply % 2 == 0 {
                        "White"
                    } else {
                        "Black"
                    };
                    lines.push(Line::styled(
                        format!(
                            "Move {}  ({side} to play, ply {})",
                            game.move_number, game.next_ply
                        ),
                        bold,
                    ));
                }
            }
        }
        None => lines.push(Line::from("between games")),
    }
    lines
}

/// What the timer line counts down to: the next reveal while a game runs, else the next game.
pub fn timer_text(channel: &Channel, now: Instant) -> String {
    let running = channel.game.as_ref().is_some_and(|g| g.result.is_none());
    match channel.countdown(now) {
        Some(left) if running => format!("next ply in {:.1}s", left.as_secs_f32()),
        Some(left) => format!("next game in {}s", left.as_secs_f32().ceil() as u64),
        None => String::new(),
    }
}

/// The prediction panel: what is being guessed, the last verdict, the score.
pub fn prediction_lines(app: &App, channel: &Channel) -> Vec<Line<'static>> {
    let score = &channel.score;
    let mut lines = Vec::new();
    if let Some(result) = channel.result() {
        lines.push(Line::styled(
            result_text(result),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
    } else if app.ui.predicting && channel.game.is_none() {
        // Between games there is no ply to guess; the timer line says when the next starts.
        lines.push(Line::from("waiting for the next game"));
    } else if app.ui.predicting {
        let ply = channel.game.as_ref().map_or(0, |g| g.next_ply);
        lines.push(Line::from(match &score.pending {
            Some((p, guess)) if *p == ply => format!("your guess for ply {ply}: {guess} (waiting)"),
            _ => match app.ui.minit_from {
                Some(from) => {
                    let to: Vec<String> = channel
                        .targets_from(from)
                        .into_iter()
                        .map(square_name)
                        .collect();
                    format!(
                        "guess ply {ply}: from {} to {}",
                        square_name(from),
                        to.join(" or ")
                    )
                }
                None => format!("guess ply {ply}: pick a from square or type b1-c3"),
            },
        }));
    }
    if let Some(last) = &score.last {
        let (mark, colour) = if last.correct {
            ("correct", Color::Green)
        } else {
            ("strike", Color::Red)
        };
        lines.push(Line::styled(
            format!(
                "ply {}: you said {}, it was {} — {mark}",
                last.ply, last.guess, last.actual
            ),
            Style::default().fg(colour),
        ));
    }
    lines.push(Line::from(format!(
        "score {}  strikes {}",
        score.correct, score.strikes
    )));
    for standing in channel.standings.iter().take(5) {
        lines.push(Line::from(format!(
            "  {} {} correct, {} strikes",
            standing.name, standing.correct, standing.strikes
        )));
    }
    lines
}

pub fn draw(frame: &mut Frame, app: &App, area: Rect, now: Instant) {
    let Some(channel) = &app.channel else {
        return super::not_shown(frame, app, area, now, "waiting for the channel…");
    };
    // The board grows with the terminal, leaving the panel at least 48 columns.
    let room = Rect::new(
        0,
        0,
        area.width.saturating_sub(50),
        area.height.saturating_sub(3),
    );
    let cell = MinitBoard::fit(room);
    let (bw, bh) = MinitBoard::size(cell);
    let [left, right] =
        Layout::horizontal([Constraint::Length(bw + 2), Constraint::Min(24)]).areas(area);
    let [board_area, input_area] =
        Layout::vertical([Constraint::Length(bh + 2), Constraint::Min(1)]).areas(left);
    let input_area = input_area.intersection(area);
    let block = Block::bordered().title(format!(" {} ", channel.channel));
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    let board = channel.game.as_ref().map_or("", |g| g.board.as_str());
    frame.render_widget(
        MinitBoard {
            board,
            flat: app.ui.flat,
            last: channel.last_move(),
            cursor: app.ui.predicting.then_some(app.ui.minit_cursor),
            from: app.ui.minit_from,
            guess: channel.score.pending.as_ref().and_then(|(_, guess)| {
                let (from, to) = guess.split_once('-')?;
                Some((square_index(from)?, square_index(to)?))
            }),
            targets: app
                .ui
                .minit_from
                .map_or_else(Vec::new, |from| channel.targets_from(from)),
            colors: app.ui.colors,
            cell,
        },
        inner,
    );
    app.ui.board.set(Some(crate::app::view::BoardGeometry {
        area: inner,
        cell,
        label: super::minit_board::LABEL,
        squares: 5,
        flipped: false,
    }));
    let mut prompt = Vec::new();
    if app.ui.predicting {
        prompt.push(Line::from(format!("guess> {}_", app.ui.input)));
    }
    let hints = super::pack_hints(
        &[
            "p predict",
            "f FULL/FLAT",
            "L leaderboard",
            "? keys",
            if app.exit_on_back { "q quit" } else { "q back" },
        ],
        input_area.width,
    );
    prompt.extend(
        hints
            .into_iter()
            .map(|hint| Line::styled(hint, Style::default().fg(Color::Gray))),
    );
    frame.render_widget(Paragraph::new(prompt).wrap(Wrap { trim: true }), input_area);

    let header = header_lines(channel, app.ui.flat);
    // Both take the lines they need once wrapped to the panel, so nothing of them is cut.
    let header = Paragraph::new(header).wrap(Wrap { trim: true });
    let prediction = Paragraph::new(prediction_lines(app, channel))
        .wrap(Wrap { trim: true })
        .block(Block::bordered().title("prediction"));
    let [header_area, timer_area, predict_area, moves_area] = Layout::vertical([
        Constraint::Length(header.line_count(right.width) as u16),
        Constraint::Length(1),
        Constraint::Length(prediction.line_count(right.width) as u16),
        Constraint::Min(3),
    ])
    .areas(right);
    frame.render_widget(header, header_area);
    frame.render_widget(Paragraph::new(timer_text(channel, now)), timer_area);
    frame.render_widget(prediction, predict_area);
    let moves = channel.game.as_ref().map_or_else(String::new, |game| {
        game.revealed
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| {
                format!(
                    "{}. {}",
                    (game.start_ply / 2) as usize + i + 1,
                    pair.join(" ")
                )
            })
            .collect::<Vec<_>>()
            .join("  ")
    });
    frame.render_widget(
        Paragraph::new(moves)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title("moves")),
        moves_area,
    );
}
