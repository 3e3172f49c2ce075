//! `boardcast`: the terminal client (play, watch, predict) and offline rule tools.

mod account;
mod address;
mod app;
mod effects;
mod engine;
mod frisian_cli;
mod i18n;
#[cfg(test)]
mod i18n_scan;
mod minitchess_cli;
mod net;
mod online;
mod pdn;
mod plain;
mod rules;
mod store;
mod tls;
mod tui;
mod ui;

use std::path::PathBuf;
use std::process::ExitCode;

use boardcast_protocol::{ColorChoice, Encoding, Target, TimeControl};
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};

use app::command::{Command as AppCommand, channel_name};

const PLAIN_HELP: &str = "\
Without a subcommand, boardcast opens the home screen (open seeks, live matches, TV).

--plain prints one line per event on stdout and reads one command per line on stdin:
  out: connected | reconnected | disconnected retry MS: REASON
       seat white m123 invite ABCD | match m123 white alice black bob playing
       history 32-28 19-23 | joined black bob | move 1. 32-28 | move 1... 19-23 | turn black
       legal 32-28 33-28 (only to the player to move) | ambiguous 9x18x16 9x20x16
       result white wins: black has no legal move | ratings White 1532 (+12) · Black 1662? (−12) | draw offered white | rematch started m124
       left black | returned black | error not_your_turn: not your turn | info ...
       seek ID HOST TIME free SIDE | live ID WHITE BLACK TIME plies N watchers N
       (a seat an engine plays shows its name as BOT NAME: joined black BOT scan)
       channel tv1 SERIAL L4 K7 watchers N | lobby end
       game tv1 42 CH3SS5 L4 K7 move 3 | revealed tv1 b1-c3 ... | ply tv1 4 b1-c3
       predicted tv1 4 b1-c3 correct|wrong actual b1-c3 score 3 strikes 1
       gameover tv1 white wins: king captured | standing alice 12 correct 1 strikes
       leader 1 alice 12 correct 1 strikes 3 games | you 4 dee 3 correct 2 strikes 1 games
       you - dee not ranked|not in the top 100 | claimable black: claim win or claim draw | info pdn URL
       featured ftv m123 (Frisian TV shows match m123 now; its match lines follow)
  in:  move 32-28 | 32-28 | resign | abort | draw offer|accept|decline
       rematch offer|accept|decline | claim win|draw | play [5+3] [white] [private] [rated] | playnow 3+2|cancel
       join CODE|MATCH | watch MATCH | tv [N] | ftv | predict GAME|tvN | predict b1-c3
       engine SERIAL L4 K7 | list | board | clock | legal | leaderboard | save | help | quit
End of input ends the session. A start-up command the server refuses (join BADCODE), or a
server never reached, ends it with status 1 and the error on stderr. Seat tokens are kept
(mode 0600) in the data directory and printed only with --show-token.";

#[derive(Debug, Parser)]
#[command(
    name = "boardcast",
    version,
    about = "Boardcast terminal client and offline tools",
    after_help = PLAIN_HELP
)]
struct Cli {
    #[command(flatten)]
    online: OnlineFlags,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Args)]
struct OnlineFlags {
    /// The server: HOST:PORT, or ws://HOST:PORT/ws (also wss://, http://, https://).
    #[arg(
        long,
        global = true,
        env = "BOARDCAST_SERVER",
        default_value = "ws://127.0.0.1:7878/ws"
    )]
    server: String,
    /// Your display name (1-32 characters).
    #[arg(long, global = true, env = "BOARDCAST_NAME")]
    name: Option<String>,
    /// Speak boardcast.v1.json instead of boardcast.v1.postcard.
    #[arg(long, global = true)]
    json: bool,
    /// Line mode: events on stdout, commands on stdin, no full-screen UI.
    #[arg(long, global = true)]
    plain: bool,
    /// Where seat tokens are kept (default: the user's data directory).
    #[arg(long, global = true, env = "BOARDCAST_DATA_DIR")]
    data_dir: Option<PathBuf>,
    /// Print seat tokens in --plain mode (`info token MATCH TOKEN`).
    #[arg(long, global = true)]
    show_token: bool,
    /// A PEM certificate (or several) to trust for wss:// besides the system's roots: the
    /// server's own self-signed certificate, or its private CA.
    #[arg(long, global = true, env = "BOARDCAST_CA_FILE", value_name = "PEM")]
    ca_file: Option<PathBuf>,
    /// Save every finished match's PDN to DIR/{match}.pdn (`s` or `save` saves one by hand).
    #[arg(long, global = true, value_name = "DIR")]
    save_pdn: Option<PathBuf>,
    /// No terminal bell when your turn comes or your clock drops under 10 s (full-screen client).
    #[arg(long, global = true)]
    no_bell: bool,
    /// The language shown: en, nl (Nederlands) or fy (Frysk); default from LC_ALL,
    /// LC_MESSAGES or LANG, else English.
    #[arg(long, global = true, value_enum, value_name = "LANG")]
    lang: Option<i18n::Lang>,
    /// Where `login` keeps its tokens (default: the user's config directory).
    #[arg(long, global = true, env = "BOARDCAST_CONFIG_DIR", value_name = "DIR")]
    config_dir: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Color {
    White,
    Black,
    Random,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Frisian draughts tools that need no server: legal moves, perft, status.
    #[command(subcommand)]
    Frisian(frisian_cli::Command),
    /// MinitChess engine games that need no server.
    #[command(subcommand)]
    Minitchess(minitchess_cli::Command),
    /// Print the rules of Frisian draughts, with a position for each (as the web's /rules).
    Rules,
    /// Create a Frisian match and wait for an opponent.
    Play {
        /// MINUTES+SECONDS, or `none` for an untimed match.
        #[arg(long, default_value = "5+3")]
        time: String,
        /// The side you play.
        #[arg(long, value_enum, default_value = "random")]
        color: Color,
        /// Not listed as an open seek: share the invite code instead.
        #[arg(long)]
        private: bool,
        /// A rated match: both players' ratings change (logged-in members only).
        #[arg(long)]
        rated: bool,
    },
    /// Join a match by invite code, or an open seek by the match id `list` prints.
    Join {
        #[arg(value_name = "CODE|MATCH")]
        code: String,
    },
    /// Watch a Frisian match.
    Watch { r#match: String },
    /// Watch a MinitChess TV channel (default 1).
    Tv { channel: Option<String> },
    /// Watch Frisian TV: the most-watched live Frisian match, then the next when it ends.
    Ftv,
    /// Predict the plies of an engine game: a channel id or tvN.
    Predict { game: String },
    /// Print open seeks, live matches and channels, then exit.
    List,
    /// Take back the stored seat (the newest one, or the one in MATCH); logged in, the
    /// account's seat in MATCH also without a stored one (taken on another device).
    Resume { r#match: Option<String> },
    /// Log in to the server as NAME (the password from standard input when it is not a
    /// terminal, else asked for); later commands on that server act as the account.
    Login { name: String },
    /// Forget the login of this server (and tell the server to end it).
    Logout,
    /// Print the name of the account logged in on this server; status 1 when logged out.
    Whoami,
    /// List a player's finished games, newest first, or save them all as one PDN file.
    Games {
        name: String,
        /// Save every game as PDN to FILE instead of listing them.
        #[arg(long, value_name = "FILE")]
        save: Option<PathBuf>,
    },
    /// Print the club's ladder: members with an established rating (RD at most 75) who
    /// played rated in the last 7 days, best first.
    Ladder,
    /// List the club's events: upcoming, running and finished (20 finished a page).
    Events {
        /// Page N of the finished events, counted from 0 (the newest) as the server's API
        /// counts them: `--page 1` shows the 20 before the newest 20.
        #[arg(long, value_name = "N", default_value_t = 0)]
        page: u32,
    },
    /// Show an event: countdown, standings with tie-breaks, each round's games (with the
    /// match id to watch).
    Event {
        id: String,
        /// Keep following it: shown again at every change the server pushes, until it is over.
        #[arg(long)]
        follow: bool,
    },
    /// Let a Hub-protocol engine (Scan and others) play Frisian matches as this player.
    Engine {
        /// The engine's command line, split into words as a shell does: `"./scan hub"`;
        /// quote a path with spaces: `"'/opt/my engines/scan' hub"`.
        #[arg(long, value_name = "CMD ARGS")]
        hub: String,
        /// An engine parameter, checked against the engine's declaration: `variant=frisian`.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Create public matches with this time control (MINUTES+SECONDS, or `none`).
        #[arg(long, value_name = "TIME")]
        seek: Option<String>,
        /// How many games to play before exiting.
        #[arg(long, default_value_t = 1)]
        games: u32,
        /// Join the match with this invite code.
        #[arg(long, value_name = "CODE")]
        join: Option<String>,
        /// Join other players' open seeks.
        #[arg(long)]
        accept_seeks: bool,
        /// How the engine answers draw offers.
        #[arg(long, value_enum, default_value = "never")]
        draw_policy: engine::DrawPolicy,
        /// A `bot`-scoped token of the engine's bot account (default: the stored login of
        /// this server, see `login`).
        #[arg(
            long,
            env = "BOARDCAST_TOKEN",
            value_name = "TOKEN",
            hide_env_values = true
        )]
        token: Option<String>,
    },
}

fn default_name() -> String {
    let name = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let name: String = name.chars().filter(|c| !c.is_control()).take(32).collect();
    // A login name the server would refuse is no reason to stop: the player did not type it.
    boardcast_protocol::names::normalize(&name).unwrap_or_else(|_| "player".to_owned())
}

fn time_control(text: &str) -> Result<Option<TimeControl>, String> {
    match text {
        "none" | "untimed" | "-" => Ok(None),
        text => text.parse().map(Some).map_err(|e| format!("{e}")),
    }
}

/// The command line, with the online flags hidden from the offline tools' help: they are
/// accepted anywhere (global) so `boardcast play --server X` works, but `frisian perft`
/// never reads them, and its `--help` should list what it does read.
fn command_line() -> clap::Command {
    let command = Cli::command();
    let online: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|arg| arg.is_global_set())
        .cloned()
        .collect();
    // A subcommand that has an argument of a global's id keeps its own: give the offline
    // tools hidden copies, which reach their subcommands in turn (still hidden).
    ["frisian", "minitchess", "rules"]
        .into_iter()
        .fold(command, |command, offline| {
            command.mut_subcommand(offline, |sub| {
                online
                    .iter()
                    .fold(sub, |sub, arg| sub.arg(arg.clone().hide(true)))
            })
        })
}

fn main() -> ExitCode {
    let cli = Cli::from_arg_matches(&command_line().get_matches()).unwrap_or_else(|e| e.exit());
    i18n::choose(cli.online.lang.unwrap_or_else(i18n::Lang::from_env));
    // The offline tools need no server, so a bad --server cannot stop them.
    match cli.command {
        Some(Command::Frisian(command)) => return frisian_cli::run(command),
        Some(Command::Minitchess(command)) => return minitchess_cli::run(command),
        Some(Command::Rules) => return rules::run(),
        _ => {}
    }
    let flags = cli.online;
    // The server's own rules, checked before connecting: a name it would refuse is never
    // replaced by another behind the player's back.
    let name = match boardcast_protocol::names::normalize(&flags.name.unwrap_or_else(default_name))
    {
        Ok(name) => name,
        Err(error) => {
            eprintln!("boardcast: --name: {error}");
            return ExitCode::from(2);
        }
    };
    let address = match address::ServerAddress::parse(&flags.server) {
        Ok(address) => address,
        Err(error) => {
            eprintln!("boardcast: --server: {error}");
            return ExitCode::from(2);
        }
    };
    let account = |address: address::ServerAddress| account::AccountOptions {
        address,
        config_dir: flags.config_dir.clone(),
        ca_file: flags.ca_file.clone(),
    };
    match cli.command {
        Some(Command::Login { name }) => return account::login(account(address), name),
        Some(Command::Logout) => return account::logout(account(address)),
        Some(Command::Whoami) => return account::whoami(account(address)),
        Some(Command::Games { name, save }) => {
            return account::games(account(address), name, save);
        }
        Some(Command::Ladder) => return account::ladder(account(address)),
        Some(Command::Events { page }) => {
            return account::events::events(account(address), page);
        }
        Some(Command::Event { id, follow }) => {
            return account::events::event(account(address), id, follow);
        }
        _ => {}
    }
    let token = account::stored_token(&address, flags.config_dir.as_deref());
    let options = online::Options {
        server: address.ws_url(),
        address,
        name,
        encoding: if flags.json {
            Encoding::Json
        } else {
            Encoding::Postcard
        },
        data_dir: flags.data_dir,
        plain: flags.plain,
        show_token: flags.show_token,
        ca_file: flags.ca_file,
        save_pdn: flags.save_pdn,
        bell: !flags.no_bell,
        token,
    };
    let intent = match cli.command {
        Some(
            Command::Frisian(_)
            | Command::Minitchess(_)
            | Command::Rules
            | Command::Login { .. }
            | Command::Logout
            | Command::Whoami
            | Command::Games { .. }
            | Command::Ladder
            | Command::Events { .. }
            | Command::Event { .. },
        ) => unreachable!("handled above"),
        Some(Command::Engine {
            hub,
            params,
            seek,
            games,
            join,
            accept_seeks,
            draw_policy,
            token,
        }) => {
            let mut assignments = Vec::new();
            for param in &params {
                match frisian_hub::split_assignment(param) {
                    Ok((name, value)) => assignments.push((name.to_owned(), value.to_owned())),
                    Err(error) => {
                        eprintln!("boardcast: --param: {error}");
                        return ExitCode::from(2);
                    }
                }
            }
            let seek = match seek.as_deref().map(time_control).transpose() {
                Ok(seek) => seek,
                Err(error) => {
                    eprintln!("boardcast: --seek: {error}");
                    return ExitCode::from(2);
                }
            };
            if seek.is_none() && join.is_none() && !accept_seeks {
                eprintln!("boardcast: engine needs --seek TIME, --join CODE or --accept-seeks");
                return ExitCode::from(2);
            }
            let bridge = engine::BridgeOptions {
                hub,
                params: assignments,
                seek,
                games: games.max(1),
                join,
                accept_seeks,
                draw_policy,
            };
            let options = online::Options {
                token: token.or(options.token),
                ..options
            };
            return engine::run(options, bridge);
        }
        None => None,
        Some(Command::Play {
            time,
            color,
            private,
            rated,
        }) => {
            let time = match time_control(&time) {
                Ok(time) => time,
                Err(error) => {
                    eprintln!("boardcast: --time: {error}");
                    return ExitCode::from(2);
                }
            };
            let color = match color {
                Color::White => ColorChoice::White,
                Color::Black => ColorChoice::Black,
                Color::Random => ColorChoice::Random,
            };
            Some(AppCommand::Create {
                time,
                color,
                public: !private,
                rated,
            })
        }
        Some(Command::Join { code }) => Some(AppCommand::JoinCode(code)),
        Some(Command::Watch { r#match }) => Some(AppCommand::Watch(Target::Match(r#match))),
        Some(Command::Tv { channel }) => Some(AppCommand::Watch(Target::Channel(channel_name(
            channel.as_deref().unwrap_or(""),
        )))),
        Some(Command::Ftv) => Some(AppCommand::Watch(Target::Channel(
            boardcast_protocol::FRISIAN_TV.to_owned(),
        ))),
        Some(Command::Predict { game }) => Some(AppCommand::Predict(channel_name(&game))),
        Some(Command::List) => {
            return online::run(options, Some(AppCommand::Lobby), true);
        }
        Some(Command::Resume { r#match }) => {
            match online::resume_intent(&options, r#match.as_deref()) {
                Ok(intent) => Some(intent),
                Err(error) => {
                    eprintln!("boardcast: {error}");
                    return ExitCode::FAILURE;
                }
            }
        }
    };
    online::run(options, intent.or(Some(AppCommand::Lobby)), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn help(args: &[&str]) -> String {
        match command_line().try_get_matches_from(args) {
            Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => e.to_string(),
            other => panic!("{args:?} showed no help: {other:?}"),
        }
    }

    #[test]
    fn the_offline_tools_help_lists_no_online_flags() {
        for args in [
            &["boardcast", "frisian", "perft", "--help"][..],
            &["boardcast", "frisian", "status", "--help"],
            &["boardcast", "minitchess", "game", "--help"],
        ] {
            let text = help(args);
            for online in ["--server", "--plain", "--ca-file", "--data-dir", "--name"] {
                assert!(!text.contains(online), "{args:?} lists {online}:\n{text}");
            }
        }
        assert!(help(&["boardcast", "frisian", "status", "--help"]).contains("--json"));
        // The online commands still list them, and take them after the subcommand too.
        assert!(help(&["boardcast", "play", "--help"]).contains("--server"));
        let cli = Cli::from_arg_matches(
            &command_line()
                .try_get_matches_from(["boardcast", "list", "--server", "h:1"])
                .unwrap(),
        )
        .unwrap();
        assert_eq!(cli.online.server, "h:1");
    }

    #[test]
    fn json_reaches_status_and_perft() {
        let parse = |args: &[&str]| {
            Cli::from_arg_matches(&command_line().try_get_matches_from(args).unwrap()).unwrap()
        };
        let cli = parse(&["boardcast", "frisian", "status", "--json"]);
        assert!(matches!(
            cli.command,
            Some(Command::Frisian(frisian_cli::Command::Status {
                json: true,
                ..
            }))
        ));
        let cli = parse(&["boardcast", "frisian", "perft", "--depth", "2", "--json"]);
        assert!(matches!(
            cli.command,
            Some(Command::Frisian(frisian_cli::Command::Perft {
                json: true,
                ..
            }))
        ));
    }

    #[test]
    fn perft_depth_and_threads_are_bounded() {
        for (args, needle) in [
            (&["--depth", "40"][..], "40 is not in 1..=20"),
            (&["--depth", "0"], "0 is not in 1..=20"),
            (&["--depth", "3", "--threads", "0"], "0 is not in 1..=1024"),
        ] {
            let full = [&["boardcast", "frisian", "perft"][..], args].concat();
            let error = command_line().try_get_matches_from(full).unwrap_err();
            assert!(error.to_string().contains(needle), "{args:?}: {error}");
        }
    }
}
