//! Presence: which seats a live connection holds, and the `PlayerLeft` / `PlayerReturned`
//! events that keep the match's record of it true. An absent player's opponent may claim once
//! the grace period (by time control, counted on the absent player's turns: [`grace`]) has
//! passed; a match nobody holds a seat of ends after a while.
//!
//! [`grace`]: crate::matches::grace

use boardcast_protocol::{Absence, BySide, MatchEvent, MatchPhase, Side};
use tokio::time::Instant;

use super::Actor;
use crate::matches::grace::grace_period;
use crate::matches::record::Record;

impl Actor {
    /// Starts or stops counting the time nobody holds a seat of this unfinished match.
    pub(super) fn note_unseated(&mut self) {
        let unseated = self.state.phase() != MatchPhase::Finished
            && !self.awaiting_players
            && self.connected(&[]) == BySide::default();
        match (unseated, self.unseated_since) {
            (true, None) => self.unseated_since = Some(Instant::now()),
            (false, Some(_)) => self.unseated_since = None,
            _ => {}
        }
    }

    /// Records `PlayerLeft` / `PlayerReturned` so the events match who holds a seat now;
    /// `arriving` are seats being taken by connections not subscribed yet.
    pub(super) async fn reconcile_presence(&mut self, arriving: &[Side]) {
        // Suspended, nothing can be written: recorded once the match is claimed back.
        if self.state.phase() != MatchPhase::Playing || self.awaiting_players || self.suspended {
            return;
        }
        let connected = self.connected(arriving);
        let grace = grace_period(self.settings.grace, self.state.setup.time_control);
        let mut records = Vec::new();
        for side in [Side::White, Side::Black] {
            let here = connected[side];
            if here && self.state.is_absent(side) {
                records.push(Record::new(MatchEvent::PlayerReturned(side)));
            } else if !here && !self.state.is_absent(side) {
                records.push(Record::new(MatchEvent::PlayerLeft(Absence {
                    side,
                    claim_in_ms: grace.as_millis() as u64,
                })));
            }
        }
        if !records.is_empty()
            && let Err(refusal) = self.commit(records).await
        {
            tracing::error!(match_id = %self.state.id, %refusal, "cannot record presence");
        }
    }

    /// Which seats a live connection holds, counting `arriving` as held.
    pub(super) fn connected(&self, arriving: &[Side]) -> BySide<bool> {
        let held = |side| {
            arriving.contains(&side)
                || self
                    .fanout
                    .followers()
                    .any(|sub| sub.role.holds(side) && !sub.outbox.is_closed())
        };
        BySide::from_fn(held)
    }
}
