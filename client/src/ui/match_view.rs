//! The Frisian match screen: board, both players with ticking clocks, whose turn, offers,
//! king counters, the move list, the live list of legal moves, the move input, and the
//! result banner, resign confirmation and "which capture?" prompt.

use std::time::Instant;

use boardcast_protocol::{ChatPreset, Side};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::frisian_board::{Cell, FrisianBoard};
use crate::app::App;
use crate::app::chat;
use crate::app::entry;
use crate::app::game::{Game, format_clock, rating_change_parts, result_text};
use crate::app::view::{BoardGeometry, Confirm};
use crate::i18n::{tr, tr_args};

/// One player's line: clock (▶ on the side to move), side, BOT tag, name, `(guest)` for a
/// seat no account holds (so a guest never passes for a member), `(you)`, `berserk` and `[gone]`. When it is wider than `width` the clock's padding goes first, then the name is
/// cut with `…`, so the tags after it always show whole.
fn player_line(app: &App, game: &Game, side: Side, now: Instant, width: u16) -> Line<'static> {
    let player = game.player(side);
    let name = player.map_or("(free seat)".to_owned(), |p| p.name.clone());
    let me = app.my_side() == Some(side);
    let gone = !me && (player.is_some_and(|p| !p.connected) || game.claim_in(side, now).is_some());
    let ms = game
        .clocks(now)
        .map(|(w, b)| if side == Side::White { w } else { b });
    let clock = ms.map(format_clock).unwrap_or_default();
    let to_move = game.phase == boardcast_protocol::MatchPhase::Playing && game.turn == side;
    let you = if me { " (you)" } else { "" };
    let gone_tag = if gone { " [gone]" } else { "" };
    // An arena player who went berserk plays on half the time, as lidraughts marks it.
    let berserk = if game.berserk.as_ref().is_some_and(|b| b.contains(&side)) {
        " berserk"
    } else {
        ""
    };
    let net = lag_tag(app, game, side, me);
    let bot = player.is_some_and(|p| p.bot);
    let guest = if player.is_some_and(|p| !p.account) {
        " (guest)"
    } else {
        ""
    };
    let low = ms.is_some_and(|ms| ms < 10_000);
    let mut clock_style = Style::default();
    if to_move {
        clock_style = clock_style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
    }
    if low {
        clock_style = clock_style.fg(Color::Red);
    }
    let marker = if to_move { "▶" } else { " " };
    let side_label = format!(" {side}: ");
    let width = usize::from(width);
    let tags = side_label.chars().count()
        + if bot { 4 } else { 0 }
        + guest.chars().count()
        + you.chars().count()
        + gone_tag.chars().count()
        + berserk.chars().count()
        + net.as_ref().map_or(0, |(text, _)| text.chars().count());
    let padded = format!("{marker} {clock:<7}");
    let clock_text = if padded.chars().count() + tags + name.chars().count() <= width {
        padded
    } else {
        format!("{marker} {clock}")
    };
    let room = width
        .saturating_sub(clock_text.chars().count() + tags)
        .max(1);
    let mut spans = vec![Span::styled(clock_text, clock_style), Span::raw(side_label)];
    if bot {
        // A tag in its own colours, so no person can pass for a program by their name.
        spans.push(Span::styled(
            "BOT",
            Style::default()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(" "));
    }
    spans.push(Span::raw(super::fit(&name, room)));
    if !guest.is_empty() {
        spans.push(Span::styled(guest, Style::default().fg(Color::DarkGray)));
    }
    spans.push(Span::raw(you));
    if !berserk.is_empty() {
        spans.push(Span::styled(berserk, Style::default().fg(Color::Magenta)));
    }
    if gone {
        spans.push(Span::styled(gone_tag, Style::default().fg(Color::Red)));
    }
    if let Some((text, colour)) = net {
        spans.push(Span::styled(text, Style::default().fg(colour)));
    }
    Line::from(spans)
}

/// A player's connection quality as a figure, ` 42ms`, coloured as the web's signal bars
/// are filled (green under 150 ms, yellow under 400 ms, red above): one's own from this
/// client's pings, the opponent's from the round trip the server counted for their last move.
fn lag_tag(app: &App, game: &Game, side: Side, me: bool) -> Option<(String, Color)> {
    let ms = if me {
        app.round_trip.map(|trip| trip.as_millis() as u64)
    } else {
        game.lag_ms[side].map(u64::from)
    }?;
    let colour = match ms {
        0..150 => Color::Green,
        150..400 => Color::Yellow,
        _ => Color::Red,
    };
    Some((format!(" {ms}ms"), colour))
}

/// The lines of the side panel between the two players.
pub fn status_lines(app: &App, game: &Game, now: Instant, width: u16) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    if let Some(at) = app.ui.browse {
        let viewing = match at.checked_sub(1).and_then(|i| game.moves.get(i)) {
            Some(mv) => {
                let dots = if mv.side == Side::White { "." } else { "…" };
                let number = game.move_number(at - 1);
                format!("viewing {number}{dots} {}", mv.notation)
            }
            None => "viewing the start".to_owned(),
        };
        let hints = [viewing.as_str(), "< > step", "End back to the game"];
        for hint in super::pack_hints(&hints, width) {
            lines.push(Line::styled(
                hint,
                Style::default().fg(Color::Black).bg(Color::Yellow),
            ));
        }
    }
    if app.tv {
        lines.push(Line::styled(
            "Frisian TV: the most-watched live match",
            Style::default().add_modifier(Modifier::BOLD),
        ));
    }
    let tc = game
        .time_control
        .map_or("untimed".to_owned(), |tc| tc.to_string());
    // Packed so that no part is split: "0 watching" on a line of its own read as the
    // player's own role.
    let id = format!("match {}", game.match_id);
    let crowd = match app.watchers {
        1 => "1 spectator".to_owned(),
        n => format!("{n} spectators"),
    };
    for line in super::pack_hints(&[id.as_str(), tc.as_str(), crowd.as_str()], width) {
        lines.push(Line::from(line));
    }
    if let Some(seat) = &app.seat {
        if seat.match_id == game.match_id && !seat.invite_code.is_empty() {
            lines.push(Line::from(format!("invite code: {}", seat.invite_code)));
        }
    }
    if let Some(result) = &game.result {
        lines.push(Line::styled(
            result_text(result),
            Style::default()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        ));
        if let Some([white, black]) = rating_change_parts(result) {
            // Each player's part whole on a line: a rating torn from its change misreads.
            for line in super::pack_hints(&[white.as_str(), black.as_str()], width) {
                lines.push(Line::styled(line, Style::default().fg(Color::Yellow)));
            }
        }
        if let Some(url) = app.pdn_url() {
            // On one line, shortened in the middle if the panel is narrow: wrapped inside
            // the address it read as two; `s` saves from the whole address all the same.
            let frame = "PDN  (s saves)".chars().count();
            let room = usize::from(width).saturating_sub(frame);
            lines.push(Line::from(format!(
                "PDN {} (s saves)",
                super::fit_middle(&url, room)
            )));
        }
        if app.my_side().is_some() && game.rematch.is_none() && game.rematch_offer.is_none() {
            lines.push(Line::styled(
                "m offers a rematch",
                Style::default().fg(Color::Green),
            ));
        }
    } else if game.phase == boardcast_protocol::MatchPhase::Waiting {
        lines.push(Line::from("waiting for an opponent"));
    } else if app.my_turn() {
        lines.push(Line::styled(
            "your move",
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        ));
    } else if app.my_side().is_some() {
        lines.push(Line::from("your opponent's move"));
    } else {
        lines.push(Line::from(format!("{} to move", game.turn)));
    }
    // The first move the side to move owes: the server aborts the match when this is up.
    if let Some(left) = game.first_move_in(now) {
        let who = if app.my_side() == Some(game.turn) {
            "you".to_owned()
        } else {
            game.turn.to_string()
        };
        let seconds = left.as_millis().div_ceil(1000);
        lines.push(Line::styled(
            format!(
                "{who} must move within {}:{:02}",
                seconds / 60,
                seconds % 60
            ),
            Style::default().fg(Color::Yellow),
        ));
    }
    let me = app.my_side();
    if let Some(side) = game.draw_offer {
        lines.push(Line::from(offer_text(me, side, "a draw", 'd')));
    }
    if let Some(side) = game.rematch_offer {
        lines.push(Line::from(offer_text(me, side, "a rematch", 'm')));
    }
    if !game.is_over() {
        for side in [Side::White, Side::Black] {
            let Some(left) = game.claim_in(side, now) else {
                continue;
            };
            let text = match (app.my_side() == Some(side.opposite()), left.is_zero()) {
                (true, true) if game.claim_aborts() => {
                    format!("{side} is gone: c aborts the match")
                }
                (true, true) => format!("{side} is gone: claim now (c win, C draw)"),
                (true, false) => {
                    let seconds = left.as_millis().div_ceil(1000);
                    format!(
                        "{} left — you may claim in {}:{:02}",
                        game.player(side)
                            .map_or(side.to_string(), |p| p.name.clone()),
                        seconds / 60,
                        seconds % 60
                    )
                }
                (false, _) => format!("{side} is gone"),
            };
            lines.push(Line::styled(text, Style::default().fg(Color::Red)));
            // The countdown stands still on one's own turn (PROTOCOL.md §10).
            if app.my_side() == Some(side.opposite()) && !left.is_zero() && game.turn != side {
                lines.push(Line::from("(paused while it is your move)"));
            }
        }
    }
    if let Some(id) = &game.rematch {
        lines.push(Line::from(format!("rematch: {id} (m to go there)")));
    }
    for (side, counter) in [
        (Side::White, game.counters.white),
        (Side::Black, game.counters.black),
    ] {
        if let Some(counter) = counter.filter(|c| c.count > 0) {
            let note = if counter.count >= 3 {
                " — no more simple moves"
            } else {
                ""
            };
            lines.push(Line::styled(
                format!(
                    "{side} king on {}: {}/3 moves{note}",
                    counter.square, counter.count
                ),
                Style::default().fg(if counter.count >= 3 {
                    Color::Red
                } else {
                    Color::Yellow
                }),
            ));
        }
    }
    lines
}

/// A standing offer as `me` sees it: the offerer waits, the opponent gets the keys to
/// answer, a spectator is only told.
fn offer_text(me: Option<Side>, by: Side, what: &str, key: char) -> String {
    match me {
        Some(me) if me == by => format!("you offered {what} (waiting)"),
        Some(_) => format!(
            "{by} offers {what} ({key} accept, {} decline)",
            key.to_ascii_uppercase()
        ),
        None => format!("{by} offers {what}"),
    }
}

/// Move list as `1. 32-28  19-23`, last rows first when space is short. A game whose first
/// recorded move is Black's (one set up from a position) starts `1... 19-23`, and White's next
/// move opens move 2: rows follow the moves' sides, not pairs of plies.
pub fn move_rows(game: &Game) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    for (index, mv) in game.moves.iter().enumerate() {
        let number = game.move_number(index);
        match (mv.side, rows.last_mut()) {
            (Side::White, _) => rows.push(format!("{number:>3}. {}", mv.notation)),
            (Side::Black, Some(row)) => {
                row.push_str("  ");
                row.push_str(&mv.notation);
            }
            (Side::Black, None) => rows.push(format!("{number:>3}... {}", mv.notation)),
        }
    }
    rows
}

/// Columns the side panel needs at least; the board takes what is left. At 80x24 this picks
/// 4x2 cells (square on a terminal) over 5x2 ones, leaving the panel 38 columns: names,
/// tags and the legal moves read whole there instead of being cut at 28.
const PANEL_MIN: u16 = 36;

/// The legal moves packed into lines of `width`, at most `rows` of them: when they do not
/// all fit, the last line ends with `+N more` so that no move is dropped unsaid.
pub fn legal_lines(names: &[&str], width: usize, rows: usize) -> Vec<String> {
    let all = super::pack_words(names, width);
    if all.len() <= rows {
        return all;
    }
    if rows == 0 {
        return Vec::new();
    }
    let mut lines = all[..rows - 1].to_vec();
    let mut shown: usize = lines.iter().map(|l| l.split(' ').count()).sum();
    let mut last = String::new();
    for name in &names[shown..] {
        let left = names.len() - shown - 1;
        let more = if left > 0 {
            format!(" +{left} more").chars().count()
        } else {
            0
        };
        let gap = usize::from(!last.is_empty());
        if last.chars().count() + gap + name.chars().count() + more > width {
            break;
        }
        if gap == 1 {
            last.push(' ');
        }
        last.push_str(name);
        shown += 1;
    }
    let left = names.len() - shown;
    if left > 0 {
        if !last.is_empty() {
            last.push(' ');
        }
        last.push_str(&format!("+{left} more"));
    }
    lines.push(last);
    lines
}

/// The chat prompt (`/`): what a member types, its end in view; or the phrases a guest picks
/// by number.
fn chat_prompt(app: &App, typed: &str, width: u16) -> Vec<Line<'static>> {
    let cyan = Style::default().fg(Color::Cyan);
    if app.ui.muting {
        return mute_list(app, width);
    }
    if app.member {
        let prompt = format!("{}> ", tr("chat-say"));
        let room = usize::from(width).saturating_sub(prompt.chars().count() + 1);
        let typed = chat::clean(typed);
        let skip = typed.chars().count().saturating_sub(room);
        let tail: String = typed.chars().skip(skip).collect();
        return vec![Line::styled(format!("{prompt}{tail}_"), cyan)];
    }
    let phrases: Vec<String> = ChatPreset::ALL
        .iter()
        .enumerate()
        .map(|(i, preset)| format!("{} {}", i + 1, chat::preset_text(*preset)))
        .chain(["Esc".to_owned()])
        .collect();
    let phrases: Vec<&str> = phrases.iter().map(String::as_str).collect();
    super::pack_hints(&phrases, width)
        .into_iter()
        .map(|line| Line::styled(line, cyan))
        .collect()
}

/// The mute list of the chat prompt (Tab): each author by number, the muted ones first with
/// what their number does (hear them again), then Tab (back to saying) and Esc.
fn mute_list(app: &App, width: u16) -> Vec<Line<'static>> {
    let cyan = Style::default().fg(Color::Cyan);
    let choices: Vec<String> = app
        .mute_choices()
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let name = chat::key_name(key);
            let id = if app.muted.contains(key) {
                "chat-unmute"
            } else {
                "chat-mute"
            };
            format!("{} {}", i + 1, tr_args(id, &[("name", name.into())]))
        })
        .chain(["Tab".to_owned(), "Esc".to_owned()])
        .collect();
    let choices: Vec<&str> = choices.iter().map(String::as_str).collect();
    super::pack_hints(&choices, width)
        .into_iter()
        .map(|line| Line::styled(line, cyan))
        .collect()
}

/// The chat pane: our room's newest lines, wrapped, as many as fit in `area`. The lines of
/// authors muted for us are left out, and the pane's first row says how many.
fn chat_pane(frame: &mut Frame, app: &App, area: Rect) {
    let width = usize::from(area.width.saturating_sub(2)).max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut hidden = 0usize;
    for line in &app.chat.lines {
        if app.is_muted(line) {
            hidden += 1;
            continue;
        }
        rows.extend(super::wrap_words(&chat::line_text(line), width, width));
    }
    let mut visible = usize::from(area.height.saturating_sub(2));
    let notice = (hidden > 0).then(|| {
        let count = i64::try_from(hidden).unwrap_or(i64::MAX);
        tr_args("mute-hidden", &[("count", count.into())])
    });
    if notice.is_some() {
        visible = visible.saturating_sub(1);
    }
    let mut rows = rows.split_off(rows.len().saturating_sub(visible));
    if let Some(notice) = notice {
        rows.insert(0, super::wrap_words(&notice, width, width).remove(0));
    }
    let room = app.chat.room(app.my_side().is_some());
    frame.render_widget(
        Paragraph::new(rows.join("\n"))
            .block(Block::bordered().title(tr(&format!("chat-{}", room.as_str())))),
        area,
    );
}

/// The line(s) under the legal list: the move prompt for the player to move, whom the other
/// player waits for, and the keys of a finished game or of a spectator.
fn input_lines(app: &App, game: &Game, width: u16) -> Vec<Line<'static>> {
    let gray = Style::default().fg(Color::Gray);
    if let Some(typed) = &app.ui.chat {
        return chat_prompt(app, typed, width);
    }
    let back = if app.exit_on_back { "q quit" } else { "q back" };
    let hints = |hints: &[&str]| -> Vec<Line<'static>> {
        super::pack_hints(hints, width)
            .into_iter()
            .map(|hint| Line::styled(hint, gray))
            .collect()
    };
    match app.my_side() {
        Some(_) if game.is_over() => hints(&["m rematch", "s save PDN", "< > moves", "q home"]),
        Some(_) if app.my_turn() => vec![Line::from(format!("move> {}_", app.ui.input))],
        Some(_) if game.phase == boardcast_protocol::MatchPhase::Playing => {
            let side = game.turn;
            let who = game.player(side).map_or_else(
                || side.to_string(),
                |p| crate::app::notes::player_name(&p.name, p.bot),
            );
            // Wrapped whole over two lines at most; a long name is cut with `…` on the second.
            let text = format!("waiting for {who} ({side}) to move");
            let width = usize::from(width);
            let mut lines = super::wrap_words(&text, width, width);
            if lines.len() > 2 {
                let rest = lines[1..].join(" ");
                lines.truncate(1);
                lines.push(super::fit(&rest, width));
            }
            lines
                .into_iter()
                .map(|line| Line::styled(line, gray))
                .collect()
        }
        Some(_) => Vec::new(),
        None => hints(&[
            "spectator",
            back,
            "f flip",
            "n numbers",
            "< > moves",
            "? keys",
        ]),
    }
}

pub fn draw(frame: &mut Frame, app: &App, area: Rect, now: Instant) {
    let Some(game) = &app.game else {
        let what = if app.tv {
            "Frisian TV: waiting for a live match…"
        } else {
            "waiting for the match…"
        };
        return super::not_shown(frame, app, area, now, what);
    };
    if game.phase == boardcast_protocol::MatchPhase::Waiting {
        return draw_waiting(frame, app, game, area);
    }
    let flipped = app.board_flipped();
    let room = Rect::new(
        0,
        0,
        area.width.saturating_sub(PANEL_MIN + 2),
        area.height.saturating_sub(2),
    );
    let (bw, bh) = Cell::fit(room).board_size();
    let [board_area, panel] =
        Layout::horizontal([Constraint::Length(bw + 2), Constraint::Min(20)]).areas(area);
    let board_area = Rect {
        height: board_area.height.min(bh + 2),
        ..board_area
    };
    // Browsing the history: that position on the board, its move marked.
    let browsed = app.ui.browse.filter(|&n| n < game.moves.len());
    let past = browsed.and_then(|n| game.board_at(n).map(|board| (n, board)));
    let title = match &past {
        Some((n, _)) => format!(" {} · ply {n} of {} ", game.match_id, game.moves.len()),
        None => format!(" {} ", game.match_id),
    };
    let block = Block::bordered().title(title);
    let inner = block.inner(board_area);
    frame.render_widget(block, board_area);
    // The route being chosen among several, or the moves of the picked piece.
    let chosen = app
        .ui
        .choice
        .as_ref()
        .and_then(|choice| game.legal.get(*choice.get(app.ui.choice_at)?));
    let targets = match chosen {
        Some(route) => route.route[1..].to_vec(),
        None => app.ui.selected.map_or_else(Vec::new, |origin| {
            game.legal
                .iter()
                .filter(|m| m.route.first() == Some(&origin))
                .filter_map(|m| m.route.last().copied())
                .collect()
        }),
    };
    let no_counters = boardcast_protocol::KingCounters {
        white: None,
        black: None,
    };
    let (board, last, counters) = match &past {
        Some((n, board)) => (
            board,
            n.checked_sub(1)
                .and_then(|i| game.moves.get(i))
                .map_or(&[][..], |m| m.route.as_slice()),
            no_counters,
        ),
        None => (&game.board, game.last_route(), game.counters),
    };
    let widget = FrisianBoard {
        board,
        flipped,
        numbers: app.ui.numbers,
        letters: app.ui.letters,
        last,
        cursor: (app.my_side().is_some() && past.is_none()).then_some(app.ui.cursor),
        selected: chosen
            .and_then(|m| m.route.first().copied())
            .or(app.ui.selected),
        targets,
        captured: chosen.map_or_else(Vec::new, |m| m.captures.clone()),
        counters,
        colors: app.ui.colors,
    };
    frame.render_widget(widget, inner);
    let cell = Cell::fit(inner);
    app.ui.board.set(Some(BoardGeometry {
        area: Rect {
            width: inner.width.min(cell.width * 10),
            height: inner.height.min(cell.height * 10),
            ..inner
        },
        cell: (cell.width, cell.height),
        label: 0,
        squares: 10,
        flipped,
    }));
    if let Some(result) = game.result.as_ref().filter(|_| past.is_none()) {
        banner(frame, inner, &result_text(result));
    }

    // A wide panel puts the move list in a column of its own beside the rest.
    let (panel, side_moves) = if panel.width >= 80 {
        let [left, right] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(36)]).areas(panel);
        (left, Some(right))
    } else {
        (panel, None)
    };
    let (top, bottom) = if flipped {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    let status =
        Paragraph::new(status_lines(app, game, now, panel.width)).wrap(Wrap { trim: true });
    let status_height = status.line_count(panel.width) as u16;
    let input = input_lines(app, game, panel.width);
    let input_height = input.len() as u16;
    // The waiting player is not shown the opponent's moves; the chooser takes their room.
    let waiting = app.my_side().is_some() && !app.my_turn();
    let names: Vec<&str> = if waiting || app.ui.choice.is_some() {
        Vec::new()
    } else {
        entry::matching(&app.ui.input, &game.legal)
            .into_iter()
            .map(|m| m.notation.as_str())
            .collect()
    };
    let moves_min = if side_moves.is_some() { 0 } else { 3 };
    let room = panel
        .height
        .saturating_sub(2 + status_height + input_height + moves_min);
    let legal_rows = legal_lines(
        &names,
        usize::from(panel.width.saturating_sub(2)),
        usize::from(room.saturating_sub(2)),
    );
    let legal_height = if names.is_empty() || legal_rows.is_empty() {
        0
    } else {
        legal_rows.len() as u16 + 2
    };
    let legal = Paragraph::new(legal_rows.join("\n"))
        .block(Block::bordered().title(format!("legal ({})", names.len())));
    let [
        top_area,
        status_area,
        middle_area,
        legal_area,
        input_area,
        bottom_area,
    ] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(status_height),
        Constraint::Min(0),
        Constraint::Length(legal_height),
        Constraint::Length(input_height),
        Constraint::Length(1),
    ])
    .areas(panel);
    frame.render_widget(
        Paragraph::new(player_line(app, game, top, now, top_area.width)),
        top_area,
    );
    frame.render_widget(status, status_area);
    // The chat shares the middle with the move list once it has something to show (a wide
    // panel puts the moves beside it, and the chat takes the whole middle).
    let chatting = !app.chat.lines.is_empty() || app.ui.chat.is_some();
    let (moves_area, chat_area) = match side_moves {
        Some(moves) => (moves, chatting.then_some(middle_area)),
        None if chatting && middle_area.height >= 6 => {
            let [moves, chat] = Layout::vertical([
                Constraint::Min(3),
                Constraint::Length(middle_area.height / 2),
            ])
            .areas(middle_area);
            (moves, Some(chat))
        }
        None => (middle_area, None),
    };
    if let Some(area) = chat_area {
        chat_pane(frame, app, area);
    }
    let rows = move_rows(game);
    let visible = moves_area.height.saturating_sub(2) as usize;
    // The browsed move's row stays in view and is marked; live, the last rows show.
    let marked = browsed
        .and_then(|n| n.checked_sub(1))
        .map(|index| game.move_number(index) - 1);
    let skip = match marked {
        Some(row) => (row + 1).saturating_sub(visible),
        None => rows.len().saturating_sub(visible),
    };
    let shown: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(skip)
        .map(|(i, r)| match marked == Some(i) {
            true => Line::styled(r.clone(), Style::default().add_modifier(Modifier::REVERSED)),
            false => Line::from(r.clone()),
        })
        .collect();
    frame.render_widget(
        Paragraph::new(shown).block(Block::bordered().title("moves")),
        moves_area,
    );
    if let Some(choice) = &app.ui.choice {
        // Beside the board, never over it: the board shows what the highlighted route takes.
        chooser(frame, app, game, choice, middle_area);
    }
    if legal_height > 0 {
        frame.render_widget(legal, legal_area);
    }
    frame.render_widget(Paragraph::new(input), input_area);
    frame.render_widget(
        Paragraph::new(player_line(app, game, bottom, now, bottom_area.width)),
        bottom_area,
    );

    if let Some(confirm) = app.ui.confirm {
        let text = match confirm {
            Confirm::Resign => "Resign this game? y / n",
            Confirm::Abort => "Abort this game? y / n",
        };
        banner(frame, inner, text);
    }
}

/// "Which capture?": the routes that fit, each with the pieces it takes; the highlighted one
/// is marked on the board.
fn chooser(frame: &mut Frame, app: &App, game: &Game, choice: &[usize], area: Rect) {
    let mut lines = Vec::new();
    for (n, &i) in choice.iter().enumerate() {
        let Some(route) = game.legal.get(i) else {
            continue;
        };
        let takes: Vec<String> = route.captures.iter().map(u8::to_string).collect();
        let text = format!("{}) {}  takes {}", n + 1, route.notation, takes.join(" "));
        let style = if n == app.ui.choice_at {
            Style::default()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::default()
        };
        lines.push(Line::styled(text, style));
    }
    lines.push(Line::styled(
        "1-9 or ↑↓ Enter picks, Esc cancels",
        Style::default().fg(Color::Gray),
    ));
    frame.render_widget(Clear, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(Block::bordered().title("which capture?")),
        area,
    );
}

/// Before the opponent comes: the whole screen tells how a friend joins, in full (the
/// command is to be copied, so it is never wrapped when the terminal is at least as wide).
fn draw_waiting(frame: &mut Frame, app: &App, game: &Game, area: Rect) {
    let tc = game
        .time_control
        .map_or("untimed".to_owned(), |tc| tc.to_string());
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::from(format!("match {} · {tc}", game.match_id))];
    match app.my_side() {
        Some(side) => lines.push(Line::styled(
            format!("You play {side}. Waiting for an opponent…"),
            bold,
        )),
        None => lines.push(Line::styled("Waiting for an opponent…", bold)),
    }
    let invite = app.invite_lines();
    if !invite.is_empty() {
        lines.push(Line::from(""));
        for line in invite {
            let (label, value) = line.split_once(": ").unwrap_or(("", &line));
            lines.push(Line::from(format!("{label}:")));
            lines.push(Line::styled(format!("  {value}"), bold.fg(Color::Cyan)));
        }
        if let Some(seat) = &app.seat {
            lines.push(Line::from(format!("invite code: {}", seat.invite_code)));
        }
    }
    lines.push(Line::from(""));
    lines.push(Line::styled(
        "a abort · q home (the seat is kept) · ? keys",
        Style::default().fg(Color::Gray),
    ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::bordered().title(format!(" {} ", game.match_id))),
        area,
    );
}

/// A message box over the middle of `area`.
pub fn banner(frame: &mut Frame, area: Rect, text: &str) {
    let chars = text.chars().count() as u16;
    let width = (chars + 4).min(area.width);
    let rows = chars.div_ceil(width.saturating_sub(4).max(1));
    let height = (rows + 2).min(area.height);
    let rect = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    frame.render_widget(Clear, rect);
    let paragraph = Paragraph::new(text.to_owned())
        .style(
            Style::default()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
        )
        .block(Block::bordered())
        .wrap(Wrap { trim: true });
    frame.render_widget(paragraph, rect);
}
