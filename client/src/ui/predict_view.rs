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
use crate::i18n::{tenths, tr, tr_args};

/// The module's display: `CH3SS5`, `L4 · K7`, `Move 3`.
pub fn header_lines(channel: &Channel, flat: bool) -> Vec<Line<'static>> {
    let kind = match channel.kind {
        ChannelKind::Tv => "TV".to_owned(),
        ChannelKind::OnDemand => tr("tui-engine-game"),
    };
    let set = if flat { "FLAT" } else { "FULL" };
    let mut lines = vec![Line::from(format!(
        "{kind} {} · {}",
        channel.channel,
        tr_args("tui-piece-set", &[("set", set.into())])
    ))];
    match &channel.game {
        Some(game) => {
            let bold = Style::default().add_modifier(Modifier::BOLD);
            let serial = game.header.serial.clone();
            lines.push(Line::styled(
                tr_args("tui-serial", &[("serial", serial.into())]),
                bold,
            ));
            let engines = [
                ("white", game.header.white.clone().into()),
                ("black", game.header.black.clone().into()),
            ];
            lines.push(Line::styled(tr_args("tui-engines", &engines), bold));
            match &game.result {
                Some(result) => lines.push(Line::styled(
                    tr_args("tui-game-over", &[("result", result_text(result).into())]),
                    bold.fg(Color::Yellow),
                )),
                None => {
                    let side = if game.next_ply % 2 == 0 {
                        "white"
                    } else {
                        "black"
                    };
                    // Plain figures: a move number and a ply are no amounts to group.
                    let args = [
                        ("side", side.into()),
                        ("move", game.move_number.to_string().into()),
                        ("ply", game.next_ply.to_string().into()),
                    ];
                    lines.push(Line::styled(tr_args("tui-move-number", &args), bold));
                }
            }
        }
        None => lines.push(Line::from(tr("tui-between-games"))),
    }
    lines
}

/// What the timer line counts down to: the next reveal while a game runs, else the next game.
pub fn timer_text(channel: &Channel, now: Instant) -> String {
    let running = channel.game.as_ref().is_some_and(|g| g.result.is_none());
    match channel.countdown(now) {
        Some(left) if running => tr_args(
            "tui-next-ply-in",
            &[("seconds", tenths(left.as_secs_f32()).into())],
        ),
        Some(left) => tr_args(
            "tui-next-game-in",
            &[("seconds", (left.as_secs_f32().ceil() as u64).into())],
        ),
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
        lines.push(Line::from(tr("tui-waiting-next-game")));
    } else if app.ui.predicting {
        let ply = channel.game.as_ref().map_or(0, |g| g.next_ply);
        lines.push(Line::from(match &score.pending {
            Some((p, guess)) if *p == ply => tr_args(
                "tui-guess-waiting",
                &[
                    ("ply", ply.to_string().into()),
                    ("guess", guess.clone().into()),
                ],
            ),
            _ => match app.ui.minit_from {
                Some(from) => {
                    let to: Vec<String> = channel
                        .targets_from(from)
                        .into_iter()
                        .map(square_name)
                        .collect();
                    let or = format!(" {} ", tr("tui-or"));
                    let args = [
                        ("ply", ply.to_string().into()),
                        ("from", square_name(from).into()),
                        ("to", to.join(&or).into()),
                    ];
                    tr_args("tui-guess-from", &args)
                }
                None => tr_args("tui-guess-pick", &[("ply", ply.to_string().into())]),
            },
        }));
    }
    if let Some(last) = &score.last {
        let (id, colour) = if last.correct {
            ("tui-verdict-correct", Color::Green)
        } else {
            ("tui-verdict-strike", Color::Red)
        };
        let args = [
            ("ply", last.ply.to_string().into()),
            ("guess", last.guess.clone().into()),
            ("actual", last.actual.clone().into()),
        ];
        lines.push(Line::styled(
            tr_args(id, &args),
            Style::default().fg(colour),
        ));
    }
    let counts =
        |correct: u32, strikes: u32| [("correct", correct.into()), ("strikes", strikes.into())];
    lines.push(Line::from(tr_args(
        "tui-score",
        &counts(score.correct, score.strikes),
    )));
    for standing in channel.standings.iter().take(5) {
        let counted = tr_args("tui-standing", &counts(standing.correct, standing.strikes));
        lines.push(Line::from(format!("  {} {counted}", standing.name)));
    }
    lines
}

pub fn draw(frame: &mut Frame, app: &App, area: Rect, now: Instant) {
    let Some(channel) = &app.channel else {
        return super::not_shown(frame, app, area, now, &tr("tui-channel-waiting"));
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
        prompt.push(Line::from(format!(
            "{}> {}_",
            tr("tui-guess-prompt"),
            app.ui.input
        )));
    }
    let hints = [
        "tui-hint-predict",
        "tui-hint-pieces",
        "tui-hint-leaderboard",
        "tui-hint-keys",
        if app.exit_on_back {
            "tui-hint-quit"
        } else {
            "tui-hint-back"
        },
    ]
    .map(tr);
    let hints = super::pack_hints(&hints.each_ref().map(String::as_str), input_area.width);
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
        .block(Block::bordered().title(tr("tui-prediction")));
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
            .block(Block::bordered().title(tr("tui-moves"))),
        moves_area,
    );
}
