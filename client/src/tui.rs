//! The full-screen runner: terminal set-up and restore, keys from a reader thread, a redraw
//! timer for the ticking clocks, and a lobby refresh while the home screen is shown.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use std::io::Write;

use crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};
use tokio::sync::mpsc;

use crate::app::{App, Screen};
use crate::effects::{Effects, net_event};
use crate::net::NetEvent;

/// Reads terminal events on a plain thread (crossterm's reader blocks) into a channel.
fn spawn_keys() -> mpsc::UnboundedReceiver<Event> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        while let Ok(event) = crossterm::event::read() {
            if tx.send(event).is_err() {
                break;
            }
        }
    });
    rx
}

/// Stops mouse reporting and gives the terminal back as it was.
fn restore() {
    let _ = crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture);
    ratatui::restore();
}

/// `bell`: ring the terminal bell when the player's turn comes and when their clock drops
/// under 10 s (off with `--no-bell`; `b` turns it off and on while the client runs).
pub async fn run(
    mut app: App,
    effects: Effects,
    mut events: mpsc::UnboundedReceiver<NetEvent>,
    bell: bool,
) -> ExitCode {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        eprintln!("boardcast: stdout is not a terminal; use --plain for line mode");
        return ExitCode::FAILURE;
    }
    let mut terminal = match ratatui::try_init() {
        Ok(terminal) => terminal,
        Err(error) => {
            restore();
            eprintln!("boardcast: cannot set up the terminal ({error}); use --plain for line mode");
            return ExitCode::FAILURE;
        }
    };
    // Clicks on a board pick pieces and squares. The mouse is reported only while a board is
    // shown: elsewhere (the waiting screen's command to copy) the terminal's own selection
    // works as usual.
    let mut mouse = false;
    app.ui.colors = crate::ui::palette::ColorMode::detect();
    app.bell = bell;
    let mut keys = spawn_keys();
    let mut redraw = tokio::time::interval(Duration::from_millis(100));
    let mut last_lobby = Instant::now();
    let code = loop {
        tokio::select! {
            event = events.recv() => match event {
                Some(event) => net_event(&mut app, event),
                None => break ExitCode::FAILURE,
            },
            key = keys.recv() => match key {
                Some(Event::Key(key)) if key.kind != KeyEventKind::Release => app.key(key),
                Some(Event::Mouse(mouse)) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                    app.click(mouse.column, mouse.row);
                }
                Some(_) => {}
                None => break ExitCode::FAILURE,
            },
            _ = redraw.tick() => {
                app.tick(Instant::now());
                let online = app.link == crate::app::Link::Online;
                if app.ui.screen == Screen::Home && online && last_lobby.elapsed() > Duration::from_secs(5) {
                    last_lobby = Instant::now();
                    app.command(crate::app::command::Command::Lobby);
                }
            }
        }
        // Notes are already in the app's log; the status line shows them.
        effects.flush(&mut app);
        if let Some(fatal) = app.fatal.take() {
            // Said whole on the shell's screen, not cut to the status line and retried.
            ratatui::restore();
            eprintln!("boardcast: {fatal}");
            return ExitCode::FAILURE;
        }
        if app.quit {
            break ExitCode::SUCCESS;
        }
        app.check_low_time(Instant::now());
        if app.take_ring() {
            // BEL: the terminal beeps or flashes, as the user set it up.
            let mut stdout = std::io::stdout();
            let _ = stdout.write_all(b"\x07").and_then(|()| stdout.flush());
        }
        if let Err(error) = terminal.draw(|frame| crate::ui::draw(frame, &app, Instant::now())) {
            restore();
            eprintln!("boardcast: cannot draw: {error}");
            return ExitCode::FAILURE;
        }
        let board = app.ui.board.get().is_some();
        if board != mouse {
            mouse = board;
            let _ = if board {
                crossterm::execute!(std::io::stdout(), crossterm::event::EnableMouseCapture)
            } else {
                crossterm::execute!(std::io::stdout(), crossterm::event::DisableMouseCapture)
            };
        }
    };
    restore();
    code
}
