//! `boardcast engine`: a Hub engine plays on the server as a player.
//!
//! The bridge is one more runner of the client's [`App`] state machine, like `--plain` and the
//! full-screen UI: the app owns the connection, the seat tokens, resuming by token with
//! `since_v` and re-sent ack ids. The bridge only watches the app's match and, when it is the
//! engine's turn, sends the engine the position after the last irreversible move with the
//! moves since (`pos`), the clock (`level`) and `go think`; the answer is checked with the
//! Frisian rules before it becomes a move.
//!
//! Faults, and what the bridge does (each logged with the engine's last lines):
//! - the engine exits, prints a move that is not legal or not a move, or answers `error`:
//!   the bridge resigns the game at once (it will not play for the engine) and restarts the
//!   engine before the next game;
//! - the engine does not answer before its clock runs out: the bridge sends nothing and lets
//!   the server flag it, then restarts the engine.

mod process;

use std::collections::HashSet;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use boardcast_protocol::{ColorChoice, MatchPhase, Side, TimeControl};
use frisian::{Move, Position};
use frisian_hub::{EngineMessage, Line, Search, level_line, move_text, parse_engine_move};

use crate::app::App;
use crate::app::command::{Command, Reply};
use crate::effects::{Effects, net_event};
use crate::online::Options;
use process::Engine;

/// The shortest time between two moves the bridge sends.
const MIN_MOVE_INTERVAL: Duration = Duration::from_millis(100);

/// How draw offers are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DrawPolicy {
    /// Decline every offer.
    Never,
    /// Accept when the engine's last reported score is a man or more behind.
    AcceptWhenBehind,
    /// Accept every offer.
    Always,
}

/// What `boardcast engine` was told.
#[derive(Debug, Clone)]
pub struct BridgeOptions {
    pub hub: String,
    pub params: Vec<(String, String)>,
    /// `--seek`: create public matches with this time control.
    pub seek: Option<Option<TimeControl>>,
    pub games: u32,
    pub join: Option<String>,
    pub accept_seeks: bool,
    pub draw_policy: DrawPolicy,
}

/// A search under way: for which match and ply, and when the engine's clock runs out.
struct Thinking {
    match_id: String,
    ply: usize,
    position: Position,
    deadline: Option<tokio::time::Instant>,
}

struct Bridge {
    options: BridgeOptions,
    engine: Option<Engine>,
    thinking: Option<Thinking>,
    finished: HashSet<String>,
    played: u32,
    /// Draw offers already answered, by match and ply.
    answered: HashSet<(String, usize)>,
    /// The engine's last `info score=` (in men, from its side).
    score: Option<f64>,
    /// A `go` was sent and its `done` has not come yet: the engine is busy, and a `done` that
    /// comes after the game moved on is read and dropped, never matched to a later search.
    searching: bool,
    /// The match and ply the engine last moved in, so a ply is searched only once.
    moved: Option<(String, usize)>,
    /// The match resigned for a faulty engine: nothing more is searched in it.
    resigned: Option<String>,
    /// When the engine's last move was sent, to keep under the server's message rate.
    last_move_at: Option<tokio::time::Instant>,
    /// Seeks we tried to join, so a refused one is not tried again and again.
    tried: HashSet<String>,
}

fn log(line: &str) {
    eprintln!("engine-bridge: {line}");
}

/// Replays the match's moves from the start position with the rules crate.
fn replay(moves: &[boardcast_protocol::PlayedMove]) -> Result<(Position, Vec<Move>), String> {
    let start = Position::start();
    let mut position = start;
    let mut played = Vec::with_capacity(moves.len());
    for mv in moves {
        let squares: Vec<frisian::Square> = mv
            .route
            .iter()
            .map(|&n| frisian::Square::new(n).ok_or(format!("square {n}")))
            .collect::<Result<_, _>>()?;
        let legal = position
            .move_from_route(&squares)
            .map_err(|e| format!("move {}: {e}", mv.notation))?;
        position = position
            .play(legal)
            .map_err(|e| format!("move {}: {}", mv.notation, e.error()))?;
        played.push(legal);
    }
    Ok((start, played))
}

impl Bridge {
    async fn engine(&mut self) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let engine = Engine::start(&self.options.hub, &self.options.params).await?;
            log(&format!("engine {} ready", engine.id.display_name()));
            self.engine = Some(engine);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }

    /// The engine failed in this game: log, resign, and drop it (restarted for the next game).
    async fn fault(&mut self, app: &mut App, what: &str, resign: bool) {
        let tail = self.engine.as_ref().map(Engine::tail).unwrap_or_default();
        log(&format!("{what}{tail}"));
        if let Some(engine) = self.engine.take() {
            engine.stop().await;
        }
        self.thinking = None;
        self.searching = false;
        if resign {
            log("resigning the game: the bridge never plays a move the engine did not choose");
            self.resigned = app.game.as_ref().map(|g| g.match_id.clone());
            app.command(Command::Resign);
        }
    }

    /// Looks at the app after every event and does what the engine's seat needs.
    async fn step(&mut self, app: &mut App) {
        let Some(game) = app.game.clone() else {
            self.join_a_seek(app);
            return;
        };
        if game.is_over() {
            let flagged = game
                .result
                .as_ref()
                .is_some_and(|r| r.reason == boardcast_protocol::EndReason::TimeForfeit);
            if self.thinking.is_some() && flagged {
                // The server flagged the engine before the bridge's own deadline: a hang.
                self.fault(
                    app,
                    "the engine did not move before its clock ran out",
                    false,
                )
                .await;
            }
            if self.thinking.take().is_some()
                && let Some(engine) = self.engine.as_mut()
            {
                // The engine must still answer `done`, which `searching` then drops.
                let _ = engine.send(&Line::new("stop")).await;
            }
            if self.finished.insert(game.match_id.clone()) {
                self.played += 1;
                log(&format!(
                    "game {} over ({}/{})",
                    game.match_id, self.played, self.options.games
                ));
                if self.played >= self.options.games {
                    app.quit = true;
                } else if let Some(time) = self.options.seek {
                    app.command(Command::Create {
                        time,
                        color: ColorChoice::Random,
                        public: true,
                        rated: false,
                    });
                } else {
                    app.command(Command::Lobby);
                }
            }
            self.join_a_seek(app);
            return;
        }
        let Some(me) = app.my_side() else { return };
        if let Some(offerer) = game.draw_offer
            && offerer != me
            && self
                .answered
                .insert((game.match_id.clone(), game.moves.len()))
        {
            let accept = match self.options.draw_policy {
                DrawPolicy::Never => false,
                DrawPolicy::Always => true,
                DrawPolicy::AcceptWhenBehind => self.score.is_some_and(|s| s <= -1.0),
            };
            app.command(Command::Draw(if accept {
                Reply::Accept
            } else {
                Reply::Decline
            }));
        }
        let ply = game.moves.len();
        let here = Some((game.match_id.clone(), ply));
        let busy =
            self.searching || self.moved == here || self.resigned.as_ref() == Some(&game.match_id);
        if game.phase != MatchPhase::Playing && game.phase != MatchPhase::Waiting
            || game.turn != me
            || busy
        {
            return;
        }
        if game.phase == MatchPhase::Waiting && game.player(me.opposite()).is_none() {
            return;
        }
        let (start, moves) = match replay(&game.moves) {
            Ok(replayed) => replayed,
            Err(error) => return log(&format!("cannot follow the match: {error}")),
        };
        let search = match Search::new(&start, &moves) {
            Ok(search) => search,
            Err(error) => return log(&format!("cannot follow the match: {}", error.error())),
        };
        // The protocol never asks an engine to search a finished position: the server's `ended`
        // is on its way.
        if search.current.legal_moves().is_empty() {
            return;
        }
        let (remaining, increment) = match (game.clocks(Instant::now()), game.time_control) {
            (Some((white, black)), Some(tc)) => (
                Some(Duration::from_millis(if me == Side::White {
                    white
                } else {
                    black
                })),
                Duration::from_millis(tc.increment_ms),
            ),
            _ => (None, Duration::ZERO),
        };
        let level = match remaining {
            Some(remaining) => level_line(remaining, increment),
            None => Line::new("level").arg("move-time", 1),
        };
        let new_game = ply < 2;
        let sent = async {
            let engine = self.engine().await?;
            if new_game {
                engine.send(&Line::new("new-game")).await?;
            }
            engine.send(&search.pos_line()).await?;
            engine.send(&level).await?;
            engine.send(&Line::new("go").flag("think")).await
        }
        .await;
        if let Err(error) = sent {
            return self.fault(app, &error, true).await;
        }
        self.searching = true;
        self.thinking = Some(Thinking {
            match_id: game.match_id.clone(),
            ply,
            position: search.current,
            deadline: remaining.map(|r| tokio::time::Instant::now() + r),
        });
    }

    fn join_a_seek(&mut self, app: &mut App) {
        if !self.options.accept_seeks || app.game.as_ref().is_some_and(|g| !g.is_over()) {
            return;
        }
        let Some(lobby) = &app.lobby else { return };
        if let Some(seek) = lobby.seeks.iter().find(|s| {
            Some(&s.white) != Some(&Some(app.name.clone())) && !self.tried.contains(&s.match_id)
        }) {
            self.tried.insert(seek.match_id.clone());
            app.command(Command::JoinId(seek.match_id.clone()));
        }
    }

    /// One line from the engine while it may be thinking.
    async fn engine_line(&mut self, app: &mut App, line: String) {
        let message = match EngineMessage::parse(&line) {
            Ok(message) => message,
            // Lines that are not Hub lines are ignored (they stay in the tail for the log).
            Err(_) => return,
        };
        match message {
            EngineMessage::Info(info) => {
                if let Some(score) = info.get("score").and_then(|s| s.parse().ok()) {
                    self.score = Some(score);
                }
            }
            // An `error` during a search answers the `go`, like `done`.
            EngineMessage::Error { message } if self.searching => {
                self.searching = false;
                if self.thinking.take().is_some() {
                    self.fault(app, &format!("the engine answered error `{message}`"), true)
                        .await;
                }
            }
            EngineMessage::Done { mv, .. } => {
                self.searching = false;
                let Some(thinking) = self.thinking.take() else {
                    return;
                };
                let current = app.game.as_ref().filter(|g| {
                    g.match_id == thinking.match_id && g.moves.len() == thinking.ply && !g.is_over()
                });
                if current.is_none() {
                    return; // The game moved on while the engine thought (resign, flag).
                }
                match parse_engine_move(&thinking.position, &mv) {
                    Ok(legal) => {
                        let route = legal.route().iter().map(|s| s.number()).collect();
                        // Two instant engines on loopback would otherwise outrun the server's
                        // per-connection message rate (PROTOCOL.md: closed with 1008).
                        if let Some(at) = self.last_move_at {
                            tokio::time::sleep_until(at + MIN_MOVE_INTERVAL).await;
                        }
                        self.last_move_at = Some(tokio::time::Instant::now());
                        log(&format!("plays {}", move_text(&legal)));
                        self.moved = Some((thinking.match_id.clone(), thinking.ply));
                        app.command(Command::Route(route));
                    }
                    Err(error) => {
                        self.fault(app, &format!("the engine's move is refused: {error}"), true)
                            .await;
                    }
                }
            }
            _ => {}
        }
    }
}

/// Runs the bridge until it has played `--games` games (or forever with `--accept-seeks`).
pub fn run(options: Options, bridge: BridgeOptions) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("boardcast: cannot start: {error}");
            return ExitCode::FAILURE;
        }
    };
    let intent = match (&bridge.join, bridge.seek) {
        (Some(code), _) => Command::JoinCode(code.clone()),
        (None, Some(time)) => Command::Create {
            time,
            color: ColorChoice::Random,
            public: true,
            rated: false,
        },
        (None, None) => Command::Lobby,
    };
    let tls = match crate::tls::client_config(options.ca_file.as_deref()) {
        Ok(tls) => tls,
        Err(error) => {
            eprintln!("boardcast: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        let mut app = App::new(&options.name, Some(intent), crate::online::first_id());
        app.bot = true;
        app.address = Some(options.address.clone());
        let (tx, local, mut events) = crate::net::spawn(
            options.server.clone(),
            options.encoding,
            tls.clone(),
            options.ca_file.clone(),
            options.token.clone(),
        );
        let effects = Effects {
            server: options.server.clone(),
            tx,
            local: Some(local),
            store: crate::online::store(&options),
            show_token: false,
            tls,
        };
        let mut bridge = Bridge {
            options: bridge,
            engine: None,
            thinking: None,
            finished: HashSet::new(),
            played: 0,
            answered: HashSet::new(),
            score: None,
            tried: HashSet::new(),
            searching: false,
            moved: None,
            last_move_at: None,
            resigned: None,
        };
        // Start the engine before the first game, so a bad command fails at once.
        if let Err(error) = bridge.engine().await {
            eprintln!("boardcast engine: {error}");
            return ExitCode::FAILURE;
        }
        let mut poll = tokio::time::interval(Duration::from_millis(500));
        loop {
            let deadline = bridge.thinking.as_ref().and_then(|t| t.deadline);
            tokio::select! {
                event = events.recv() => {
                    let Some(event) = event else { return ExitCode::FAILURE };
                    // A move sent just before the connection dropped is not asked for again:
                    // the app re-sends it with its ack id once connected (applied once), and
                    // until the missed events arrive its match is stale, so a new search
                    // would answer a position the server has left behind.
                    net_event(&mut app, event);
                }
                line = async {
                    match bridge.engine.as_mut() {
                        Some(engine) => engine.next_line().await,
                        None => std::future::pending().await,
                    }
                } => {
                    match line {
                        Some(line) => bridge.engine_line(&mut app, line).await,
                        None => {
                            let status = match bridge.engine.as_mut() {
                                Some(engine) => engine.exit_status().await,
                                None => None,
                            };
                            let what = format!("the engine exited ({})", status.unwrap_or_else(|| "closed its output".into()));
                            let resign = bridge.thinking.is_some() || app.game.as_ref().is_some_and(|g| !g.is_over());
                            bridge.fault(&mut app, &what, resign).await;
                        }
                    }
                }
                () = async {
                    match deadline {
                        Some(deadline) => tokio::time::sleep_until(deadline).await,
                        None => std::future::pending().await,
                    }
                } => {
                    // Lets the server flag the engine: nothing unchecked is ever sent.
                    bridge.fault(&mut app, "the engine did not move before its clock ran out", false).await;
                }
                _ = poll.tick() => {
                    let idle = app.game.as_ref().is_none_or(|g| g.is_over());
                    if idle && bridge.options.accept_seeks {
                        app.command(Command::Lobby);
                    }
                }
            }
            bridge.step(&mut app).await;
            for note in effects.flush(&mut app) {
                println!("{note}");
            }
            if let Some(fatal) = app.fatal.take() {
                if let Some(engine) = bridge.engine.take() {
                    engine.stop().await;
                }
                eprintln!("boardcast engine: {fatal}");
                return ExitCode::FAILURE;
            }
            if app.quit {
                if let Some(engine) = bridge.engine.take() {
                    engine.stop().await;
                }
                return ExitCode::SUCCESS;
            }
        }
    });
    runtime.shutdown_background();
    code
}
