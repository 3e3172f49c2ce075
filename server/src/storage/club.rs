//! What storage keeps of club events (arena, Swiss, round-robin; [`crate::events`]): each
//! event's set-up and its append-only history of versioned records, backend-neutral.
//!
//! The history is the event director's, written by it alone, like a match's events. Two keys
//! make the director's steps happen exactly once whatever crashes or take-overs replay them:
//! a record that pairs a round carries the round's number, and a record of a game's result
//! carries the game's match id; each is unique within its event. A director that pairs a round
//! twice, or counts one game twice, has its second write refused and nothing of it stored.
//!
//! In a cluster one node at a time owns an event's director (an ownership row of kind `event`
//! with a fencing epoch, as a TV channel has), and each record is written under that epoch: a
//! record of an older owner (frozen past its lease while another node took the event over) is
//! refused [`super::StorageError::Fenced`], so it can never add to the history after the new
//! owner has read it.

use super::StoredEvent;

/// One write of an event ([`super::Write::ClubEvent`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EventWrite {
    /// A new event: its id and set-up (opaque JSON owned by the director).
    Create {
        id: String,
        created_ms: i64,
        setup: String,
    },
    /// Record number `v` of event `event_id` (opaque JSON owned by the director). `round` is
    /// set on the record that pairs that round, `match_id` on the record of that game's result:
    /// a second record with either is refused. `epoch` is the director's ownership epoch in a
    /// cluster: refused [`super::StorageError::Fenced`] unless that is still the event's epoch
    /// (PostgreSQL); `None` on a single server, which fences nothing.
    Record {
        event_id: String,
        v: u64,
        at_ms: i64,
        body: String,
        round: Option<u32>,
        match_id: Option<String>,
        epoch: Option<u64>,
    },
    /// The event is over: it is no longer recovered at start-up.
    Finish { id: String },
    /// A club admin grants (or takes back) the right to create events.
    Organiser { account: i64, granted: bool },
}

/// An event as read back: its set-up and every record, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredClubEvent {
    pub id: String,
    pub created_ms: i64,
    pub setup: String,
    pub finished: bool,
    pub records: Vec<StoredEvent>,
}
