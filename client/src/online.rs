//! The online side of `boardcast`: options shared by every online subcommand, and the glue
//! between the connection task, the app state machine and the seat store.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use tokio::sync::mpsc;

use boardcast_protocol::{ClientEnvelope, Encoding};

use crate::app::command::Command;
use crate::app::notes::Note;
use crate::app::{App, StoreOp};
use crate::net::NetEvent;
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
}

/// Carries out the app's queued output: send, store, show.
pub struct Effects {
    pub server: String,
    pub tx: mpsc::UnboundedSender<ClientEnvelope>,
    /// Where a background PDN download reports back.
    pub local: Option<mpsc::UnboundedSender<NetEvent>>,
    pub store: Option<Store>,
    pub show_token: bool,
    /// The TLS trust of the connection, for PDN downloads from an `https://` server.
    pub tls: std::sync::Arc<rustls::ClientConfig>,
}

impl Effects {
    /// Sends, stores, and returns the notes for the runner to show.
    pub fn flush(&self, app: &mut App) -> Vec<Note> {
        for save in std::mem::take(&mut app.pdn_saves) {
            let Some(local) = self.local.clone() else {
                continue;
            };
            let tls = self.tls.clone();
            tokio::spawn(async move {
                let saved =
                    crate::pdn::save(&save.url, &save.dir, &save.match_id, tls.clone()).await;
                let _ = local.send(NetEvent::PdnSaved(saved));
            });
        }
        let (out, mut notes, ops) = app.drain();
        for envelope in out {
            // A closed channel means the connection task ended; the runner notices on its own.
            let _ = self.tx.send(envelope);
        }
        for op in ops {
            let Some(store) = &self.store else { continue };
            let result = match &op {
                StoreOp::Save(seat) => {
                    if self.show_token {
                        notes.push(Note::Info(format!(
                            "token {} {}",
                            seat.match_id, seat.token
                        )));
                    }
                    store.save(&self.server, seat)
                }
                StoreOp::Remove(match_id) => store.remove(&self.server, match_id),
            };
            if let Err(error) = result {
                let note = Note::Error {
                    code: "store".to_owned(),
                    message: format!("cannot store the seat: {error}"),
                };
                app.ui.log(note.to_string());
                notes.push(note);
            }
        }
        notes
    }
}

/// Feeds one connection event into the app.
pub fn net_event(app: &mut App, event: NetEvent) {
    match event {
        NetEvent::Connected => app.connected(),
        NetEvent::Message(message) => app.receive(*message, Instant::now()),
        NetEvent::Garbled(error) => app.garbled(&error),
        NetEvent::Disconnected { reason, retry_ms } => app.disconnected(&reason, retry_ms),
        NetEvent::PdnSaved(saved) => app.pdn_saved(saved),
    }
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

/// `boardcast resume [MATCH]`: the stored seat to take back.
pub fn resume_intent(options: &Options, match_id: Option<&str>) -> Result<Command, String> {
    let store = store(options).ok_or("no data directory to read seats from")?;
    let seat = store
        .latest(&options.server, match_id)
        .ok_or_else(|| format!("no stored seat for {}", options.server))?;
    Ok(Command::Resume {
        token: seat.token,
        match_id: seat.match_id,
    })
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
        let (tx, local, events) =
            crate::net::spawn(options.server.clone(), options.encoding, tls.clone());
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
            crate::tui::run(app, effects, events).await
        }
    });
    // The stdin reader blocks in a read no one can interrupt: do not wait for it, or a
    // session that ended by itself (a refused `join`) would hang until stdin closes.
    runtime.shutdown_background();
    code
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::{Seat, ServerMessage, Side};

    fn seated(show_token: bool) -> (Vec<String>, Store, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let (tx, mut rx) = mpsc::unbounded_channel();
        let effects = Effects {
            server: "ws://test/ws".into(),
            tx,
            local: None,
            store: Some(Store::new(dir.path())),
            show_token,
            tls: std::sync::Arc::new(
                rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
                    rustls::crypto::ring::default_provider(),
                ))
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(rustls::RootCertStore::empty())
                .with_no_client_auth(),
            ),
        };
        let mut app = App::new("amy", None, 1);
        app.connected();
        app.receive(
            ServerMessage::Seat(Seat {
                id: 0,
                match_id: "m5".into(),
                invite_code: "QQ".into(),
                side: Side::Black,
                token: "tok-5".into(),
            }),
            Instant::now(),
        );
        let notes = effects.flush(&mut app);
        assert!(
            matches!(rx.try_recv(), Ok(e) if matches!(e.msg, boardcast_protocol::ClientMessage::Hello(_)))
        );
        let lines = notes.iter().map(ToString::to_string).collect();
        (lines, Store::new(dir.path()), dir)
    }

    #[test]
    fn flushing_sends_stores_and_prints_the_token_only_when_asked() {
        let (lines, store, _dir) = seated(false);
        assert_eq!(lines, ["connected", "seat black m5 invite QQ"]);
        assert_eq!(store.latest("ws://test/ws", None).unwrap().token, "tok-5");
        let (lines, _, _dir) = seated(true);
        assert_eq!(lines.last().unwrap(), "info token m5 tok-5");
    }
}
