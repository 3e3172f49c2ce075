//! Frisian TV (`ftv`): which public match is most worth watching, and who watches TV.
//!
//! TV owns no match state and copies no moves. It only picks the match to feature, from the
//! lobby's summaries (which carry each match's crowd), and tells its watchers with `featured`;
//! each watcher then watches that match like any other. So what TV shows is the match's own
//! snapshot and events, with their versions and replay, and nothing TV could get wrong.
//!
//! A summary change is not announced to anyone, so TV looks again every [`POLL`] while somebody
//! watches it. That reads the directory's summaries only (no match actor is asked), and a
//! viewer learns of a new match at most one poll late.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use boardcast_protocol::{FRISIAN_TV, Featured, MatchSummary, ServerMessage};
use tokio::time::Instant;

use crate::matches::Directory;
use crate::ops::lock;
use crate::ops::shutdown::Shutdown;
use crate::room::outbox::{ConnId, Outbox, SharedMessage};

/// How often TV looks at the lobby while it has watchers.
pub(crate) const POLL: Duration = Duration::from_millis(250);

/// How long a featured match that ended stays on screen before TV moves on, so its viewers
/// see the result.
pub(crate) const LINGER: Duration = Duration::from_secs(3);

/// The channel: cheap to clone, one per server.
#[derive(Clone)]
pub(crate) struct FrisianTv(Arc<Inner>);

struct Inner {
    directory: Arc<dyn Directory>,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    on_air: Option<OnAir>,
    /// The connections watching TV. Each is told every change; one that has gone is dropped at
    /// the next poll (or the first send that fails).
    watchers: HashMap<ConnId, Outbox>,
}

/// The featured match, and since when it has been over (it is no longer listed as live).
#[derive(Debug, Clone, PartialEq, Eq)]
struct OnAir {
    match_id: String,
    ended_at: Option<Instant>,
}

impl FrisianTv {
    /// TV over `directory`'s public matches; its poller stops at `shutdown`.
    pub(crate) fn start(directory: Arc<dyn Directory>, mut shutdown: Shutdown) -> FrisianTv {
        let tv = FrisianTv(Arc::new(Inner {
            directory,
            state: Mutex::new(State::default()),
        }));
        let poller = tv.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(POLL);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = shutdown.recv() => return,
                    _ = every.tick() => poller.poll(),
                }
            }
        });
        tv
    }

    /// `watch` of `ftv`: acknowledged, then the match featured now.
    pub(crate) fn watch(&self, outbox: &Outbox, id: u64) {
        let featured = {
            let mut state = self.state();
            state.watchers.insert(outbox.id(), outbox.clone());
            self.look(&mut state, Instant::now());
            featured(state.on_air.as_ref())
        };
        outbox.ack(id);
        outbox.send(&featured);
    }

    /// `unwatch` of `ftv`: no more `featured` for this connection.
    pub(crate) fn unwatch(&self, outbox: &Outbox, id: u64) {
        self.state().watchers.remove(&outbox.id());
        outbox.ack(id);
    }

    fn poll(&self) {
        let mut state = self.state();
        state.watchers.retain(|_, outbox| !outbox.is_closed());
        if state.watchers.is_empty() {
            return;
        }
        if self.look(&mut state, Instant::now()) {
            let message = SharedMessage::new(featured(state.on_air.as_ref()));
            state
                .watchers
                .retain(|_, outbox| outbox.send_shared(&message));
        }
    }

    /// Picks again at `now`; true when the featured match changed.
    fn look(&self, state: &mut State, now: Instant) -> bool {
        let (_, live) = self.0.directory.lobby();
        let next = next_on_air(state.on_air.as_ref(), &live, now);
        let changed =
            next.as_ref().map(|n| &n.match_id) != state.on_air.as_ref().map(|o| &o.match_id);
        state.on_air = next;
        changed
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the watcher map half-changed: every change is one call.
        lock(&self.0.state)
    }
}

fn featured(on_air: Option<&OnAir>) -> ServerMessage {
    ServerMessage::Featured(Featured {
        channel: FRISIAN_TV.to_owned(),
        match_id: on_air.map(|o| o.match_id.clone()),
    })
}

/// What TV features after looking at the `live` public matches at `now`: the match on air
/// while it is live, and for [`LINGER`] after it ended; then the most-watched live match (more
/// plies, then the lower id, break ties), or the ended one while nothing else is live.
fn next_on_air(current: Option<&OnAir>, live: &[MatchSummary], now: Instant) -> Option<OnAir> {
    if let Some(on_air) = current {
        if live.iter().any(|m| m.match_id == on_air.match_id) {
            return Some(OnAir {
                match_id: on_air.match_id.clone(),
                ended_at: None,
            });
        }
        let ended_at = on_air.ended_at.unwrap_or(now);
        if now.duration_since(ended_at) < LINGER {
            return Some(OnAir {
                match_id: on_air.match_id.clone(),
                ended_at: Some(ended_at),
            });
        }
        return Some(most_watched(live).unwrap_or(OnAir {
            match_id: on_air.match_id.clone(),
            ended_at: Some(ended_at),
        }));
    }
    most_watched(live)
}

fn most_watched(live: &[MatchSummary]) -> Option<OnAir> {
    live.iter()
        .max_by(|a, b| {
            (a.watchers, a.plies)
                .cmp(&(b.watchers, b.plies))
                .then_with(|| b.match_id.cmp(&a.match_id))
        })
        .map(|m| OnAir {
            match_id: m.match_id.clone(),
            ended_at: None,
        })
}

#[cfg(test)]
mod tests {
    use boardcast_protocol::MatchPhase;

    use super::*;

    fn live(match_id: &str, watchers: u32, plies: u32) -> MatchSummary {
        MatchSummary {
            match_id: match_id.into(),
            white: Some("w".into()),
            black: Some("b".into()),
            time_control: None,
            phase: MatchPhase::Playing,
            plies,
            watchers,
            white_bot: false,
            black_bot: false,
            white_account: false,
            black_account: false,
            rated: false,
            rating_range: None,
            white_rating: None,
            black_rating: None,
        }
    }

    fn on(id: &str) -> Option<String> {
        Some(id.to_owned())
    }

    fn id(on_air: &Option<OnAir>) -> Option<String> {
        on_air.as_ref().map(|o| o.match_id.clone())
    }

    #[test]
    fn the_most_watched_live_match_goes_on_air_with_plies_then_the_lower_id_breaking_ties() {
        let now = Instant::now();
        assert_eq!(next_on_air(None, &[], now), None);
        let lobby = [live("m1", 2, 10), live("m2", 5, 3), live("m3", 5, 3)];
        assert_eq!(id(&next_on_air(None, &lobby, now)), on("m2"));
        let lobby = [live("m1", 5, 10), live("m2", 5, 3)];
        assert_eq!(id(&next_on_air(None, &lobby, now)), on("m1"));
    }

    #[test]
    fn the_match_on_air_stays_while_live_even_when_another_draws_more_watchers() {
        let now = Instant::now();
        let current = next_on_air(None, &[live("m1", 1, 0)], now);
        let lobby = [live("m1", 1, 4), live("m2", 40, 4)];
        assert_eq!(id(&next_on_air(current.as_ref(), &lobby, now)), on("m1"));
    }

    #[test]
    fn an_ended_match_lingers_then_the_next_goes_on_air_or_it_stays_when_none_is_live() {
        let start = Instant::now();
        let current = next_on_air(None, &[live("m1", 3, 20)], start);
        // m1 ended: it stays on for LINGER so its result can be seen.
        let ended = next_on_air(current.as_ref(), &[live("m2", 1, 0)], start);
        assert_eq!(
            ended,
            Some(OnAir {
                match_id: "m1".into(),
                ended_at: Some(start)
            })
        );
        let almost = start + LINGER - Duration::from_millis(1);
        let still = next_on_air(ended.as_ref(), &[live("m2", 1, 0)], almost);
        assert_eq!(still, ended);
        // After it, the next live match; with none live, the ended one stays on.
        let after = start + LINGER;
        assert_eq!(
            next_on_air(ended.as_ref(), &[live("m2", 1, 0)], after),
            Some(OnAir {
                match_id: "m2".into(),
                ended_at: None
            })
        );
        assert_eq!(next_on_air(ended.as_ref(), &[], after), ended);
    }
}
