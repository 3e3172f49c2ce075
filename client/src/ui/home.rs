//! The home screen: open seeks, live matches and channels, with the keys to create, join,
//! watch and predict.

use boardcast_protocol::{MatchSummary, PoolPreset};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, List, ListItem, ListState, Paragraph, Wrap};

use crate::app::App;
use crate::app::create::{CreateForm, Field, PRESETS};
use crate::app::notes::Note;
use crate::app::view::{PlayNowPanel, Section};
use crate::i18n::{tr, tr_args};

/// One lobby row, wrapped onto more lines when it is wider than `width` (long names), so
/// no row is cut at the list's edge.
fn item(note: Note, width: u16) -> ListItem<'static> {
    let text = note.to_string();
    let text = text
        .split_once(' ')
        .map_or(text.clone(), |(_, rest)| rest.to_owned());
    let width = usize::from(width.max(1));
    let lines: Vec<Line> = super::wrap_words(&text, width, width.saturating_sub(1))
        .into_iter()
        .enumerate()
        .map(|(i, line)| Line::from(if i == 0 { line } else { format!(" {line}") }))
        .collect();
    ListItem::new(lines)
}

/// A lobby line as the screen shows it: a name no account holds marked ` (guest)`, so a guest
/// never passes for the member of the same name (`--plain` lines keep the bare names).
fn marked(mut summary: MatchSummary) -> MatchSummary {
    let mark = |name: Option<String>, account: bool| {
        name.map(|n| {
            if account {
                n
            } else {
                format!("{n} {}", tr("player-guest"))
            }
        })
    };
    summary.white = mark(summary.white.take(), summary.white_account);
    summary.black = mark(summary.black.take(), summary.black_account);
    summary
}

pub fn draw(frame: &mut Frame, app: &App, area: Rect) {
    let keys = match &app.ui.prompt {
        Some(prompt) => format!(
            "{}: {}_   ({})",
            prompt.label(),
            prompt.text,
            tr("home-prompt-keys")
        ),
        None => super::pack_hints(
            &[
                "home-hint-list",
                "home-hint-select",
                "home-hint-join",
                "home-hint-predict",
                "home-hint-play-now",
                "home-hint-new",
                "home-hint-code",
                "home-hint-engine",
                "home-hint-tv",
                "home-hint-ftv",
                "home-hint-resume",
                "home-hint-refresh",
                "home-hint-help",
                "home-hint-quit",
            ]
            .map(tr)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
            area.width,
        )
        .join("\n"),
    };
    let keys = Paragraph::new(keys)
        .wrap(Wrap { trim: true })
        .style(Style::default().fg(Color::Gray));
    let keys_height = keys.line_count(area.width) as u16;
    let [title, lists, help] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Min(5),
        Constraint::Length(keys_height),
    ])
    .areas(area);
    let mut head = vec![Line::styled(
        tr_args("home-hello", &[("name", app.name.clone().into())]),
        Style::default().add_modifier(Modifier::BOLD),
    )];
    if let Some(seat) = &app.stored {
        head.push(Line::from(tr_args(
            "home-stored-seat",
            &[
                ("match", seat.match_id.clone().into()),
                ("side", tr(&format!("side-{}", seat.side)).into()),
            ],
        )));
    }
    frame.render_widget(Paragraph::new(head), title);

    // Side by side when each list is wide enough for its rows, else one above the other at
    // full width, so that no row is cut.
    let columns = if lists.width >= 120 {
        Layout::horizontal([
            Constraint::Percentage(33),
            Constraint::Percentage(34),
            Constraint::Percentage(33),
        ])
        .split(lists)
    } else {
        Layout::vertical([
            Constraint::Ratio(1, 3),
            Constraint::Ratio(1, 3),
            Constraint::Ratio(1, 3),
        ])
        .split(lists)
    };
    let empty = boardcast_protocol::Lobby {
        id: 0,
        seeks: Vec::new(),
        live: Vec::new(),
        channels: Vec::new(),
    };
    let lobby = app.lobby.as_ref().unwrap_or(&empty);
    // Inside the border, after the highlight symbol.
    let width = columns.first().map_or(0, |c| c.width.saturating_sub(4));
    let sections: [(Section, String, Vec<ListItem>); 3] = [
        (
            Section::Seeks,
            tr("lobby-seeks"),
            lobby
                .seeks
                .iter()
                .cloned()
                .map(|s| item(Note::Seek(marked(s)), width))
                .collect(),
        ),
        (
            Section::Live,
            tr("lobby-live"),
            lobby
                .live
                .iter()
                .cloned()
                .map(|s| item(Note::Live(marked(s)), width))
                .collect(),
        ),
        (
            Section::Channels,
            tr("home-channels"),
            lobby
                .channels
                .iter()
                .cloned()
                .map(|c| item(Note::Channel(c), width))
                .collect(),
        ),
    ];
    for ((section, name, items), column) in sections.into_iter().zip(columns.iter()) {
        let active = section == app.ui.section;
        let border = if active {
            Color::Yellow
        } else {
            Color::DarkGray
        };
        let count = items.len();
        let block = Block::bordered()
            .title(format!("{name} ({count})"))
            .border_style(Style::default().fg(border));
        let list = List::new(items)
            .block(block)
            .highlight_style(Style::default().add_modifier(Modifier::REVERSED))
            .highlight_symbol("> ");
        let mut state = ListState::default();
        if active && count > 0 {
            state.select(Some(app.ui.row));
        }
        frame.render_stateful_widget(list, *column, &mut state);
    }

    frame.render_widget(keys, help);
    if let Some(form) = &app.ui.create {
        draw_create(frame, form, area);
    }
    if let Some(panel) = &app.ui.play_now {
        draw_play_now(frame, panel, area);
    }
}

/// The "play now" panel over the middle of the home screen: the presets with the chosen one
/// marked, then, once Enter was pressed, the wait and how to stop it.
fn draw_play_now(frame: &mut Frame, panel: &PlayNowPanel, area: Rect) {
    let gray = Style::default().fg(Color::Gray);
    let mut presets = vec![Span::raw(" ")];
    for (index, preset) in PoolPreset::ALL.iter().enumerate() {
        let text = format!(" {preset} ");
        presets.push(if index == panel.preset {
            Span::styled(text, Style::default().add_modifier(Modifier::REVERSED))
        } else {
            Span::raw(text)
        });
        presets.push(Span::raw(" "));
    }
    let mut lines = vec![
        Line::styled(tr("play-now-hint"), gray),
        Line::from(""),
        Line::from(presets),
        Line::from(""),
    ];
    if panel.waiting {
        let preset = panel.preset().to_string();
        lines.push(Line::styled(
            tr_args("play-now-looking", &[("preset", preset.into())]),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
        lines.push(Line::styled(tr("home-play-now-waiting-keys"), gray));
    } else {
        lines.push(Line::styled(tr("home-play-now-keys"), gray));
    }
    draw_centred_box(frame, area, &tr("play-now-title"), lines);
}

/// The "new match" form over the middle of the home screen.
fn draw_create(frame: &mut Frame, form: &CreateForm, area: Rect) {
    let row = |field: Field, name: &str, value: String| {
        let selected = form.field == field;
        let text = format!("{} {name:<8} ◀ {value} ▶", if selected { ">" } else { " " });
        let style = if selected {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        Line::styled(text, style)
    };
    let mut lines = vec![
        row(Field::Time, &tr("home-form-time"), form.time_label()),
        Line::styled(
            format!(
                "  {:<8}   {} {} {}",
                "",
                PRESETS.join(" "),
                tr("tc-untimed"),
                tr("home-form-custom")
            ),
            Style::default().fg(Color::Gray),
        ),
        row(Field::Colour, &tr("home-form-colour"), form.colour_label()),
        row(
            Field::Visibility,
            &tr("home-form-seek"),
            form.visibility_label(),
        ),
        row(
            Field::Rated,
            &tr("form-game").to_lowercase(),
            form.rated_label(),
        ),
        Line::from(""),
    ];
    match &form.error {
        Some(error) => lines.push(Line::styled(error.clone(), Style::default().fg(Color::Red))),
        None => lines.push(Line::styled(
            tr("home-form-keys"),
            Style::default().fg(Color::Gray),
        )),
    }
    draw_centred_box(frame, area, &tr("home-form-title"), lines);
}

/// A bordered box of `lines` centred over `area`, at most 62 columns wide and as tall as the
/// lines take once wrapped (Dutch and Frisian run longer), with `title` in its border.
fn draw_centred_box(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'_>>) {
    let width = area.width.min(62);
    let inner = usize::from(width.saturating_sub(2)).max(1);
    // Wrapped lines count as many rows as they take.
    let rows: usize = lines
        .iter()
        .map(|line| line.width().div_ceil(inner).max(1))
        .sum();
    let height = (rows as u16 + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(format!(" {title} "))),
        rect,
    );
}
