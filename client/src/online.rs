//! The online side of `boardcast`: options shared by every online subcommand, the seat store
//! they use, and the choice of a runner (plain lines or the full-screen TUI).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use boardcast_protocol::Encoding;

use crate::app::App;
use crate::app::command::Command;
use crate::effects::Effects;
use crate::store::Store;

/// How to reach the server and who we are.
#[derive(Debug, Clone)]
pub struct Options {
    /// The normalised WebSocket URL; seats are stored under it.
    pub server: String,
    pub address: crate::address::ServerAddress,
    pub name: String,
    pub encoding: Encoding,
    pub data_dir: Option<PathBuf>,
    pub plain: bool,
    pub show_token: bool,
    /// A certificate file to trust for `wss://` besides the system's roots (`--ca-file`).
    pub ca_file: Option<PathBuf>,
    /// Where finished matches' PDN are saved by themselves (`--save-pdn DIR`).
    pub save_pdn: Option<PathBuf>,
    /// Ring the terminal bell when the player's turn comes (`--no-bell` turns it off).
    pub bell: bool,
    /// The account's token for this server (`boardcast login`, or the engine's `--token`),
    /// sent as `Authorization: Bearer` on the WebSocket upgrade.
    pub token: Option<String>,
}

/// Ack ids that keep growing across runs of the program.
pub fn first_id() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| u64::try_from(d.as_millis()).unwrap_or(1))
}

pub fn store(options: &Options) -> Option<Store> {
    options
        .data_dir
        .clone()
        .or_else(crate::store::default_dir)
        .map(|dir| Store::new(&dir))
}

/// `boardcast resume [MATCH]`: the stored seat to take back; without one, a logged-in
/// player takes back the account's seat in MATCH (taken on another device).
pub fn resume_intent(options: &Options, match_id: Option<&str>) -> Result<Command, String> {
    let seat = store(options).and_then(|store| store.latest(&options.server, match_id));
    match (seat, match_id) {
        (Some(seat), _) => Ok(Command::Resume {
            token: seat.token,
            match_id: seat.match_id,
        }),
        (None, Some(id)) if options.token.is_some() => Ok(Command::Reclaim(id.to_owned())),
        (None, _) => Err(format!("no stored seat for {}", options.server)),
    }
}

/// Runs an online session until the user quits.
pub fn run(options: Options, intent: Option<Command>, list_only: bool) -> ExitCode {
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("boardcast: cannot start: {error}");
            return ExitCode::FAILURE;
        }
    };
    let store = store(&options);
    let mut app = App::new(&options.name, intent, first_id());
    app.address = Some(options.address.clone());
    app.save_pdn = options.save_pdn.clone();
    app.ca_file = options.ca_file.clone();
    app.muted = store.as_ref().map(Store::load_muted).unwrap_or_default();
    app.stored = store
        .as_ref()
        .and_then(|s| s.latest(&options.server, None))
        .map(|s| s.info());
    let tls = match crate::tls::client_config(options.ca_file.as_deref()) {
        Ok(tls) => tls,
        Err(error) => {
            eprintln!("boardcast: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async move {
        let (tx, local, events) = crate::net::spawn(
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
            store,
            show_token: options.show_token,
            tls,
        };
        if list_only {
            crate::plain::list(app, effects, events).await
        } else if options.plain {
            crate::plain::run(app, effects, events).await
        } else {
            crate::tui::run(app, effects, events, options.bell).await
        }
    });
    // The stdin reader blocks in a read no one can interrupt: do not wait for it, or a
    // session that ended by itself (a refused `join`) would hang until stdin closes.
    runtime.shutdown_background();
    code
}
