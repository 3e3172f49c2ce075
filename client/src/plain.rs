//! `--plain`: the session as text lines, for scripts, screen readers and tests.
//!
//! Every event is one line on stdout starting with a keyword (see [`crate::app::notes`]);
//! commands are read one per line from stdin (see [`HELP`]). Output is flushed after every
//! line so a reader can wait for it. End of input ends the session.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

use crate::app::App;
use crate::app::command::parse_line;
use crate::app::fen::{Board, cell_square};
use crate::app::game::format_clock;
use crate::app::notes::Note;
use crate::effects::{Effects, net_event};
use crate::net::NetEvent;

/// The commands `--plain` reads, one per line.
pub const HELP: &str = "\
commands (one per line on stdin):
  move 32-28 | 32-28      play a move (notation, resolved against the legal list)
  resign | abort          resign, or abort before both sides moved
  moretime                give the opponent 15 s more (timed matches)
  takeback offer|accept|decline   take back one's last move (casual matches)
  draw offer|accept|decline, rematch offer|accept|decline, claim win|draw
  play [5+3] [white|black|random] [private]   create a match
  join CODE|MATCH | watch MATCH | tv [N] | predict GAME|tvN | list
  predict b1-c3           guess the coming ply of the watched engine game
  engine SERIAL L4 K7     start an on-demand engine game and predict it
  board | clock | legal   print the board, the clocks or the legal moves
  save                    save the finished match's PDN (to --save-pdn DIR or here)
  leaderboard | help | quit";

fn print(lines: impl IntoIterator<Item = String>) {
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        // A closed stdout (the reader went away) is not worth crashing for.
        let _ = writeln!(stdout, "{line}");
    }
    let _ = stdout.flush();
}

fn show(notes: impl IntoIterator<Item = Note>) {
    print(notes.into_iter().map(|note| note.to_string()));
}

/// A text board, White at the bottom, `w`/`b` men, `W`/`B` kings, `.` empty dark squares.
pub fn board_text(board: &Board) -> Vec<String> {
    (0..10u8)
        .map(|row| {
            let cells: String = (0..10u8)
                .map(|col| match cell_square(row, col) {
                    None => ' ',
                    Some(square) => match board.get(square) {
                        None => '.',
                        Some(piece) => match (piece.side, piece.king) {
                            (boardcast_protocol::Side::White, false) => 'w',
                            (boardcast_protocol::Side::White, true) => 'W',
                            (boardcast_protocol::Side::Black, false) => 'b',
                            (boardcast_protocol::Side::Black, true) => 'B',
                        },
                    },
                })
                .flat_map(|c| [c, ' '])
                .collect();
            format!("board {:>2} {}", row * 5 + 1, cells.trim_end())
        })
        .collect()
}

/// Commands answered locally, from what the app already knows. `None` if `line` is not one.
fn local(app: &App, line: &str) -> Option<Vec<String>> {
    let game = app.game.as_ref();
    match line.trim() {
        "help" => Some(HELP.lines().map(|l| format!("help {l}")).collect()),
        "board" => Some(match game {
            Some(game) => board_text(&game.board),
            None => match app.channel.as_ref().and_then(|c| c.game.as_ref()) {
                Some(engine) => engine
                    .board
                    .as_bytes()
                    .chunks(5)
                    .enumerate()
                    .map(|(row, cells)| {
                        format!("board {} {}", 6 - row, String::from_utf8_lossy(cells))
                    })
                    .collect(),
                None => vec!["error no_board: nothing is shown".to_owned()],
            },
        }),
        "clock" => Some(vec![match game.and_then(|g| g.clocks(Instant::now())) {
            Some((white, black)) => {
                format!(
                    "clock white {} black {}",
                    format_clock(white),
                    format_clock(black)
                )
            }
            None => "clock none".to_owned(),
        }]),
        "legal" => Some(vec![format!(
            "legal {}",
            match (game, &app.channel) {
                (Some(game), _) => game
                    .legal
                    .iter()
                    .map(|m| m.notation.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                // Watching an engine game: the guesses that can be right.
                (None, Some(channel)) => channel.legal_guesses().join(" "),
                (None, None) => String::new(),
            }
        )]),
        _ => None,
    }
}

pub async fn run(
    mut app: App,
    effects: Effects,
    mut events: mpsc::UnboundedReceiver<NetEvent>,
) -> ExitCode {
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut tick = tokio::time::interval(std::time::Duration::from_millis(200));
    loop {
        tokio::select! {
            _ = tick.tick() => app.tick(Instant::now()),
            event = events.recv() => match event {
                Some(event) => net_event(&mut app, event),
                None => return ExitCode::FAILURE,
            },
            line = lines.next_line() => match line {
                Ok(Some(line)) => {
                    if let Some(reply) = local(&app, &line) {
                        print(reply);
                    } else {
                        match parse_line(&line) {
                            Ok(Some(command)) => app.command(command),
                            Ok(None) => {}
                            Err(error) => print([format!("error bad_input: {error}")]),
                        }
                    }
                }
                Ok(None) | Err(_) => app.quit = true,
            },
        }
        show(effects.flush(&mut app));
        if let Some(failure) = app.fatal.take().or_else(|| app.failed.take()) {
            eprintln!("boardcast: {failure}");
            return ExitCode::FAILURE;
        }
        if app.quit {
            return ExitCode::SUCCESS;
        }
    }
}

/// `boardcast list`: print the lobby once and exit.
pub async fn list(
    mut app: App,
    effects: Effects,
    mut events: mpsc::UnboundedReceiver<NetEvent>,
) -> ExitCode {
    while let Some(event) = events.recv().await {
        let failed = matches!(
            event,
            NetEvent::Disconnected { .. } | NetEvent::Failed { .. }
        );
        net_event(&mut app, event);
        let notes = effects.flush(&mut app);
        let done = notes.contains(&Note::LobbyEnd);
        show(notes.into_iter().filter(|n| n.is_listing() || failed));
        if done {
            return ExitCode::SUCCESS;
        }
        if failed {
            let failure = app.fatal.take().or_else(|| app.failed.take());
            eprintln!(
                "boardcast: {}",
                failure.as_deref().unwrap_or("the connection dropped")
            );
            return ExitCode::FAILURE;
        }
    }
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_board_shows_men_and_kings_on_their_squares() {
        let board = Board::from_fen("W:W31-50,K5:B1-4,6-19,K20:H0:F1:+0+0");
        let lines = board_text(&board);
        assert_eq!(lines.len(), 10);
        assert_eq!(lines[0], "board  1   b   b   b   b   W");
        assert_eq!(lines[3], "board 16 b   b   b   b   B");
        assert_eq!(lines[5], "board 26 .   .   .   .   .");
        assert_eq!(lines[9], "board 46 w   w   w   w   w");
    }
}
