//! The glue between the connection task, the app state machine and the seat store, shared by
//! both runners (plain and TUI): [`Effects`] carries out what the app queued, [`net_event`]
//! feeds what the connection reports back into the app.

use std::time::Instant;

use tokio::sync::mpsc;

use boardcast_protocol::ClientEnvelope;

use crate::app::notes::Note;
use crate::app::{App, StoreOp};
use crate::net::NetEvent;
use crate::store::Store;

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
        if std::mem::take(&mut app.muted_changed)
            && let Some(store) = &self.store
            && let Err(error) = store.save_muted(&app.muted)
        {
            app.ui
                .log(format!("Cannot store the muted list: {error}"), true);
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
                StoreOp::Remove(match_id) => store.remove(match_id),
            };
            if let Err(error) = result {
                let note = Note::Error {
                    code: "store".to_owned(),
                    message: format!("cannot store the seat: {error}"),
                    args: None,
                };
                app.ui.log(format!("Cannot store the seat: {error}"), true);
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
        NetEvent::Failed { reason } => app.connection_failed(&reason),
        NetEvent::PdnSaved(saved) => app.pdn_saved(saved),
        NetEvent::RoundTrip(trip) => app.round_trip(trip),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::{Seat, ServerMessage, Side};
    use std::time::Instant;

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

    /// The authors muted for oneself outlive the run: flushing writes them beside the seats,
    /// and the next run's store (the same directory) reads them back, bounded.
    #[test]
    fn the_muted_list_survives_a_restart_and_stays_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, _rx) = mpsc::unbounded_channel();
        let effects = Effects {
            server: "ws://test/ws".into(),
            tx,
            local: None,
            store: Some(Store::new(dir.path())),
            show_token: false,
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
        app.toggle_mute("m:Anne".into());
        app.toggle_mute("g:bob".into());
        effects.flush(&mut app);
        assert!(!app.muted_changed);

        // The next run.
        let store = Store::new(dir.path());
        assert_eq!(store.load_muted(), ["m:Anne", "g:bob"]);
        let mut next = App::new("amy", None, 2);
        next.muted = store.load_muted();
        next.toggle_mute("m:Anne".into());
        effects.flush(&mut next);
        assert_eq!(Store::new(dir.path()).load_muted(), ["g:bob"]);

        // Bounded: the oldest are forgotten, and a hand-edited file's junk is ignored.
        for i in 0..crate::app::chat::MUTED_KEPT + 5 {
            next.toggle_mute(format!("g:guest{i}"));
        }
        effects.flush(&mut next);
        let kept = Store::new(dir.path()).load_muted();
        assert_eq!(kept.len(), crate::app::chat::MUTED_KEPT);
        assert_eq!(kept.first().unwrap(), "g:guest5");
        std::fs::write(
            dir.path().join("chat-muted.json"),
            r#"["m:Anne", 7, "x:y", "g:"]"#,
        )
        .unwrap();
        assert_eq!(Store::new(dir.path()).load_muted(), ["m:Anne"]);
        std::fs::write(dir.path().join("chat-muted.json"), "not json").unwrap();
        assert!(Store::new(dir.path()).load_muted().is_empty());
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
