//! One history per match, whoever saw it: every client of a test feeds what it received into a
//! shared [`Ledger`], which refuses the second of two different events under one version and
//! a snapshot whose moves disagree with the moves already seen. So "no client ever sees two
//! different histories" is checked on every message, on every node, across fail-overs.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use boardcast_protocol::{MatchEvent, MatchSnapshot, PlayedMove, ServerMessage};

/// Everything the clients of a test saw of one match.
#[derive(Debug, Default)]
pub struct Ledger {
    match_id: String,
    /// Every event, by version, with the client that saw it first.
    events: BTreeMap<u64, (MatchEvent, String)>,
    /// Every move, by ply, from events and snapshots alike.
    moves: BTreeMap<u32, (PlayedMove, String)>,
    /// The first disagreement; kept so a test reports the first fork, not the last.
    fork: Option<String>,
}

/// A ledger shared by the tasks of a test.
pub type SharedLedger = Arc<Mutex<Ledger>>;

impl Ledger {
    pub fn new(match_id: &str) -> Ledger {
        Ledger {
            match_id: match_id.to_owned(),
            ..Ledger::default()
        }
    }

    pub fn shared(match_id: &str) -> SharedLedger {
        Arc::new(Mutex::new(Ledger::new(match_id)))
    }

    /// Folds in one message `who` received; messages of other matches are ignored.
    pub fn record(&mut self, who: &str, message: &ServerMessage) -> Result<(), String> {
        let outcome = match message {
            ServerMessage::MatchEvent(event) if event.match_id == self.match_id => {
                self.event(who, event.v, &event.event)
            }
            ServerMessage::MatchSnapshot(snapshot) if snapshot.match_id == self.match_id => {
                self.snapshot(who, snapshot)
            }
            _ => Ok(()),
        };
        if let Err(fork) = &outcome {
            self.fork.get_or_insert_with(|| fork.clone());
        }
        outcome
    }

    /// Folds in every message of `messages` (a client's backlog, say).
    pub fn record_all<'a>(
        &mut self,
        who: &str,
        messages: impl IntoIterator<Item = &'a ServerMessage>,
    ) -> Result<(), String> {
        messages
            .into_iter()
            .try_for_each(|message| self.record(who, message))
    }

    /// Folds in the replies connection `who` got that answered no envelope waiting for one
    /// ([`crate::client::Client::extra_answers`]): each is a second reply to one envelope,
    /// which PROTOCOL §3.3 rules out (an ack and then a refusal, two acks, …).
    pub fn answers(&mut self, who: &str, extra: &[ServerMessage]) -> Result<(), String> {
        if extra.is_empty() {
            return Ok(());
        }
        let problem = format!(
            "match {}: {who} got {} replies to envelopes answered already: {extra:?}",
            self.match_id,
            extra.len()
        );
        self.fork.get_or_insert_with(|| problem.clone());
        Err(problem)
    }

    /// Folds in the id-0 replies connection `who` got ([`crate::client::Client::unasked`]):
    /// PROTOCOL §3.5 allows one only for a rematch (none is played here). A seat or watch
    /// carried over when the match moved to another server comes as a `resumed`, so any
    /// `seat`, `ack` or `error` with id 0 is an unasked reply no client can place.
    pub fn unasked(&mut self, who: &str, replies: &[ServerMessage]) -> Result<(), String> {
        let stray: Vec<&ServerMessage> = replies.iter().collect();
        if stray.is_empty() {
            return Ok(());
        }
        let problem = format!(
            "match {}: {who} got {} undocumented replies with id 0: {stray:?}",
            self.match_id,
            stray.len()
        );
        self.fork.get_or_insert_with(|| problem.clone());
        Err(problem)
    }

    /// `Err` with the first disagreement any client ran into.
    pub fn check(&self) -> Result<(), String> {
        match &self.fork {
            Some(fork) => Err(fork.clone()),
            None => Ok(()),
        }
    }

    /// The events seen, by version.
    pub fn events(&self) -> BTreeMap<u64, MatchEvent> {
        self.events
            .iter()
            .map(|(v, (event, _))| (*v, event.clone()))
            .collect()
    }

    /// The notation of every move seen, in ply order, and whether no ply is missing.
    pub fn notations(&self) -> (Vec<String>, bool) {
        let complete = self
            .moves
            .keys()
            .enumerate()
            .all(|(index, ply)| index as u32 == *ply);
        let notations = self
            .moves
            .values()
            .map(|(played, _)| played.notation.clone())
            .collect();
        (notations, complete)
    }

    fn event(&mut self, who: &str, v: u64, event: &MatchEvent) -> Result<(), String> {
        if let Some((known, first)) = self.events.get(&v) {
            if known != event {
                return Err(format!(
                    "match {}: two histories at v {v}: {first} saw {known:?}, {who} saw {event:?}",
                    self.match_id
                ));
            }
            return Ok(());
        }
        self.events.insert(v, (event.clone(), who.to_owned()));
        match event {
            MatchEvent::Moved(moved) => self.played(who, &moved.played, v),
            _ => Ok(()),
        }
    }

    fn snapshot(&mut self, who: &str, snapshot: &MatchSnapshot) -> Result<(), String> {
        if snapshot.moves.len() as u64 > snapshot.v {
            return Err(format!(
                "match {}: {who} got a snapshot at v {} holding {} moves",
                self.match_id,
                snapshot.v,
                snapshot.moves.len()
            ));
        }
        // Every move known up to this snapshot's version must be in it.
        let known_moves = self
            .events
            .range(..=snapshot.v)
            .filter(|(_, (event, _))| matches!(event, MatchEvent::Moved(_)))
            .count();
        if known_moves > snapshot.moves.len() {
            return Err(format!(
                "match {}: {who} got a snapshot at v {} with {} moves, but {known_moves} moves \
                 were seen up to that version",
                self.match_id,
                snapshot.v,
                snapshot.moves.len()
            ));
        }
        snapshot
            .moves
            .iter()
            .try_for_each(|played| self.played(who, played, snapshot.v))
    }

    fn played(&mut self, who: &str, played: &PlayedMove, v: u64) -> Result<(), String> {
        match self.moves.get(&played.ply) {
            Some((known, first)) if known != played => Err(format!(
                "match {}: two histories at ply {}: {first} saw {} ({:?}), {who} saw {} ({:?}) at v {v}",
                self.match_id,
                played.ply,
                known.notation,
                known.route,
                played.notation,
                played.route
            )),
            Some(_) => Ok(()),
            None => {
                self.moves
                    .insert(played.ply, (played.clone(), who.to_owned()));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::{KingCounters, MatchEventMsg, Moved, Side};

    fn moved(ply: u32, notation: &str, route: &[u8]) -> MatchEvent {
        MatchEvent::Moved(Moved {
            played: PlayedMove {
                ply,
                side: if ply.is_multiple_of(2) {
                    Side::White
                } else {
                    Side::Black
                },
                notation: notation.into(),
                route: route.to_vec(),
                captures: Vec::new(),
                promotes: false,
            },
            fen: String::new(),
            clock: None,
            legal_moves: Vec::new(),
            king_counters: KingCounters {
                white: None,
                black: None,
            },
            first_move_in_ms: None,
            lag_ms: None,
        })
    }

    fn message(v: u64, event: MatchEvent) -> ServerMessage {
        ServerMessage::MatchEvent(MatchEventMsg {
            match_id: "m1".into(),
            v,
            event,
        })
    }

    #[test]
    fn the_same_event_twice_is_one_history_and_another_under_its_version_is_a_fork() {
        let mut ledger = Ledger::new("m1");
        ledger
            .record("white", &message(3, moved(0, "32-28", &[32, 28])))
            .unwrap();
        ledger
            .record("watcher", &message(3, moved(0, "32-28", &[32, 28])))
            .unwrap();
        ledger.check().unwrap();
        let fork = ledger
            .record("old owner", &message(3, moved(0, "31-27", &[31, 27])))
            .unwrap_err();
        assert!(
            fork.starts_with("match m1: two histories at v 3: white saw Moved(")
                && fork.contains("notation: \"32-28\"")
                && fork.contains("old owner saw Moved(")
                && fork.contains("notation: \"31-27\""),
            "{fork}"
        );
        assert_eq!(ledger.check(), Err(fork));
        assert_eq!(ledger.notations(), (vec!["32-28".to_owned()], true));
    }

    #[test]
    fn a_move_under_another_version_that_contradicts_a_ply_is_a_fork() {
        let mut ledger = Ledger::new("m1");
        ledger
            .record("white", &message(3, moved(0, "32-28", &[32, 28])))
            .unwrap();
        let fork = ledger
            .record("black", &message(4, moved(0, "31-27", &[31, 27])))
            .unwrap_err();
        assert_eq!(
            fork,
            "match m1: two histories at ply 0: white saw 32-28 ([32, 28]), black saw 31-27 \
             ([31, 27]) at v 4"
        );
        // Other matches' messages are none of its business.
        let mut other = Ledger::new("m2");
        other
            .record("white", &message(3, moved(0, "32-28", &[32, 28])))
            .unwrap();
        assert_eq!(other.notations(), (Vec::new(), true));
    }
}
