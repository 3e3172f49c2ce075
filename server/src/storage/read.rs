//! What storage gives back: matches and their events, archived engine games.

use boardcast_protocol::{EngineResult, GameHeader, Side};

/// A stored event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub v: u64,
    pub at_ms: i64,
    pub body: String,
}

/// How to name a stored match.
#[derive(Debug, Clone)]
pub enum MatchKey {
    /// By its id.
    Id(String),
    /// By the hash of one of its seat tokens ([`crate::accounts::secret::hash`]): storage
    /// never sees a seat token itself.
    TokenHash(String),
}

/// A match as read back: the unfinished ones at start-up, a finished one on demand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: String,
    pub invite: Option<String>,
    pub created_ms: i64,
    pub setup: String,
    pub events: Vec<StoredEvent>,
}

/// A finished engine game as archived, ready to be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedGame {
    pub header: GameHeader,
    pub start_board: String,
    pub start_ply: u32,
    /// Every move, `b1-c3`.
    pub moves: Vec<String>,
    pub result: EngineResult,
}

/// The winner of an engine game as stored (`Side::as_str`), back to a side; a draw stores none.
pub(super) fn stored_winner(stored: Option<&str>) -> Option<Side> {
    match stored {
        Some("white") => Some(Side::White),
        Some("black") => Some(Side::Black),
        _ => None,
    }
}
