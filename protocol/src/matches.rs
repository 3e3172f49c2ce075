//! What the server tells about Frisian matches: summaries, snapshots and versioned events.

use serde::{Deserialize, Serialize};

use crate::common::{Side, TimeControl};

/// A match as listed in the lobby.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSummary {
    pub match_id: String,
    pub white: Option<String>,
    pub black: Option<String>,
    pub time_control: Option<TimeControl>,
    pub phase: MatchPhase,
    /// Plies played so far.
    pub plies: u32,
    pub watchers: u32,
    /// Whether White's seat is played by a program ([`PlayerInfo::bot`]). Read as false when
    /// absent, so JSON from an older server still decodes.
    #[serde(default)]
    pub white_bot: bool,
    /// Whether Black's seat is played by a program.
    #[serde(default)]
    pub black_bot: bool,
    /// Whether the match is rated. Read as false when absent.
    #[serde(default)]
    pub rated: bool,
    /// A rated seek's rating range ([`crate::CreateMatch::rating_range`]). Read as `None`
    /// when absent.
    #[serde(default)]
    pub rating_range: Option<u16>,
    /// White's rating, when White is a member (a seek shows its creator's). Read as `None`
    /// when absent.
    #[serde(default)]
    pub white_rating: Option<PlayerRating>,
    /// Black's rating, when Black is a member.
    #[serde(default)]
    pub black_rating: Option<PlayerRating>,
    /// Whether White's seat belongs to an account (a member, linked to `/@/{name}`) rather
    /// than a guest. Read as false when absent.
    #[serde(default)]
    pub white_account: bool,
    /// Whether Black's seat belongs to an account.
    #[serde(default)]
    pub black_account: bool,
}

/// A member's rating as shown beside their name: `1500?` while provisional.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The Glicko-2 rating, rounded.
    pub rating: u16,
    /// True while the rating deviation is 110 or more: shown with a `?`.
    pub provisional: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchPhase {
    /// One seat is still free.
    Waiting,
    Playing,
    Finished,
}

/// A seated player as others see them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub name: String,
    /// Whether a connection currently holds this seat.
    pub connected: bool,
    /// Whether a program (an engine through `boardcast engine`) plays this seat, as the
    /// connection that took it declared in its [`crate::Hello`]; shown so people know whom they
    /// play. Read as false when absent.
    #[serde(default)]
    pub bot: bool,
    /// Whether the seat belongs to an account (a member: show the name linked to
    /// `/@/{name}`); false for a guest (show e.g. `Anne (guest)`), so a guest never passes
    /// for a member. Read as false when absent.
    #[serde(default)]
    pub account: bool,
}

/// Both clocks at one moment. `running` is the side whose time is going down; remaining times
/// are as of the moment the message was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub white_ms: u64,
    pub black_ms: u64,
    pub running: Option<Side>,
}

/// A legal move as the server offers it: notation for people, route for the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalMove {
    /// `32-28`, `28x19`, or the full path `9x18x16` where captures share origin and destination.
    pub notation: String,
    /// Origin and every landing square; send this back in [`crate::PlayMove`].
    pub route: Vec<u8>,
    /// Captured squares, ascending.
    pub captures: Vec<u8>,
}

/// A move already played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// 0 for White's first move.
    pub ply: u32,
    pub side: Side,
    pub notation: String,
    pub route: Vec<u8>,
    pub captures: Vec<u8>,
    /// Whether a man was crowned by this move.
    pub promotes: bool,
}

/// The three-move counter of one side: the king on `square` has made `count` consecutive simple
/// moves; at 3 it may not make another simple move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingCounter {
    pub count: u8,
    pub square: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KingCounters {
    pub white: Option<KingCounter>,
    pub black: Option<KingCounter>,
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// `None` for a draw or an abort.
    pub winner: Option<Side>,
    pub reason: EndReason,
    /// The reason in words, e.g. `black has no legal move` or `two kings v one king, 7 moves (art. 18)`.
    pub detail: String,
    /// How a rated game changed both players' ratings, written with the result (so it is
    /// in the `ended` event and in every later snapshot's `result`). `None` for a casual game
    /// and for a rated one that counts for nothing (aborted, fewer than two moves a side, a
    /// first move missed). Read as `None` when absent.
    #[serde(default)]
    pub rating_change: Option<RatingChanges>,
}

/// Both players' rating changes by one rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingChanges {
    pub white: RatingDiff,
    pub black: RatingDiff,
}

/// One player's rating change, as shown after the game: `1532 (+12)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingDiff {
    /// The rating the game was played at, rounded.
    pub before: u16,
    /// The rating after the game, rounded.
    pub after: u16,
    /// `after - before` of the rounded ratings, so the shown numbers add up.
    pub diff: i16,
    /// Whether the new rating is provisional (RD ≥ 110): shown as `1532?`.
    pub provisional: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The loser had no legal move (no pieces, blocked, or only a frozen king).
    NoLegalMove,
    Resignation,
    TimeForfeit,
    /// A draw rule of the game (two kings v one king, king v king).
    DrawByRule,
    DrawByAgreement,
    /// No result: aborted by a player before both moved, a first move missed, or nobody
    /// seated for the abandon time before both moved.
    Aborted,
    /// With a winner: the opponent left and did not return within the grace period, and the
    /// win was claimed. Without one: nobody held a seat for the abandon time.
    Abandoned,
    /// The opponent left and did not return within the grace period; a draw was claimed.
    DrawClaimed,
}

/// Everything about a match at version `v`. Seat tokens and invite codes are never in it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSnapshot {
    pub match_id: String,
    /// The version of the last event folded into this snapshot; the next event is `v + 1`.
    pub v: u64,
    pub white: Option<PlayerInfo>,
    pub black: Option<PlayerInfo>,
    pub time_control: Option<TimeControl>,
    pub public: bool,
    pub phase: MatchPhase,
    pub start_fen: String,
    pub fen: String,
    pub moves: Vec<PlayedMove>,
    pub turn: Side,
    pub clock: Option<ClockState>,
    /// The legal moves of the side to move (empty when the match is not being played).
    pub legal_moves: Vec<LegalMove>,
    pub king_counters: KingCounters,
    /// The side whose draw offer stands, if any.
    pub draw_offer: Option<Side>,
    /// The side whose rematch offer stands, if any.
    pub rematch_offer: Option<Side>,
    /// Sides whose player is gone, with the time left before the other may claim.
    pub absent: Vec<Absence>,
    pub result: Option<MatchResult>,
    /// The id of the rematch, once it was agreed.
    pub rematch: Option<String>,
    /// Milliseconds the side to move has left, as of when the snapshot was made, to make its
    /// first move before the match is aborted (the server's `--first-move-timeout`, counted
    /// from when the move became due); `None` once that side has moved (and always once both
    /// have). Read as `None` when absent, so a snapshot from an older server still decodes.
    #[serde(default)]
    pub first_move_in_ms: Option<u64>,
    /// An arena game's berserk (PROTOCOL.md §10 *Berserk*): the sides that went berserk;
    /// `None` in a match that offers no berserk (every match outside an arena). Read as
    /// `None` when absent.
    #[serde(default)]
    pub berserk: Option<Vec<Side>>,
    /// Which seats refuse to be given more time (PROTOCOL.md §10 *More time*): a seat's own
    /// `refuse_more_time`, or a member's account preference, applied when they took the seat.
    /// Both clients show it (no "+15 s" for a seat that refuses it). Read as neither when
    /// absent, so a snapshot from an older server still decodes.
    #[serde(default)]
    pub refuses_more_time: MoreTimeRefusals,
    /// The side whose takeback proposal stands, if any. Read as `None` when absent.
    #[serde(default)]
    pub takeback_offer: Option<Side>,
    /// Whether the seats may propose takebacks: a casual match, not a club event's game
    /// (PROTOCOL.md §10 *Takebacks*), so clients offer the proposal only where the server
    /// takes it. Read as `false` when absent: no proposal offered that may be refused.
    #[serde(default)]
    pub takebacks: bool,
    /// Whether the match is rated (as in [`MatchSummary::rated`]), so a client can say why a
    /// match takes no takebacks. Read as `false` when absent.
    #[serde(default)]
    pub rated: bool,
    /// The id of the club event this match is a game of (`/api/events/{id}`); `None` for
    /// every other match. A client tells an event's game (no takebacks, rated or not) from a
    /// rated match by it. Read as `None` when absent.
    #[serde(default)]
    pub event: Option<String>,
}

/// Each seat's refusal of more time, in a snapshot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreTimeRefusals {
    pub white: bool,
    pub black: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Absence {
    pub side: Side,
    /// Milliseconds until the opponent may claim; 0 once a claim is allowed.
    pub claim_in_ms: u64,
}

/// One versioned match event. Events of a match form a gap-free sequence `v = 1, 2, …`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchEventMsg {
    pub match_id: String,
    pub v: u64,
    pub event: MatchEvent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEvent {
    PlayerJoined(PlayerJoined),
    /// A move was committed. Carries what a client needs to go on without a snapshot.
    Moved(Moved),
    DrawOffered(Side),
    DrawDeclined(Side),
    /// A pending draw offer lapsed because a move was played.
    DrawOfferCancelled,
    PlayerLeft(Absence),
    PlayerReturned(Side),
    Ended(MatchResult),
    RematchOffered(Side),
    RematchDeclined(Side),
    /// The rematch exists under this id, colours swapped; each player gets its seat privately.
    RematchStarted(String),
    /// `side` was given more time by its opponent ([`crate::ClientMessage::MoreTime`]).
    MoreTimeGiven(MoreTimeGiven),
    /// `side` refuses (or accepts again) being given more time.
    MoreTimeRefused(MoreTimeRefused),
    /// `side` went berserk ([`crate::ClientMessage::Berserk`]): half its base time gone, no
    /// increment for the rest of the game.
    Berserked(Berserked),
    /// `side` proposes to take back its last move (casual matches only, PROTOCOL.md §10
    /// *Takebacks*); it stands until answered or a move is played.
    TakebackProposed(Side),
    /// `side` declined its opponent's takeback proposal.
    TakebackDeclined(Side),
    /// A standing takeback proposal lapsed because a move was played.
    TakebackCancelled,
    /// The proposal was accepted: the last ply or plies are taken back, the proposer to move.
    TakenBack(TakenBack),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Berserked {
    pub side: Side,
    /// The clocks with the berserk side's time halved.
    pub clock: ClockState,
}

/// A takeback carried out ([`MatchEvent::TakenBack`]): the moves are cut back to `plies`,
/// and the match goes on from there. Nothing before it is unsaid: the events of the moves
/// taken back stay in the match's history, and replaying them and this event gives the match
/// as it now is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenBack {
    /// Whose proposal it was: that side is to move now (its last move was taken back, and
    /// the opponent's after it, if any).
    pub side: Side,
    /// The plies left: the moves list keeps its first `plies`.
    pub plies: u32,
    /// FEN of the position now.
    pub fen: String,
    /// The clocks now: nobody gets time back, the side to move runs from this event.
    pub clock: Option<ClockState>,
    /// The legal moves of the side to move.
    pub legal_moves: Vec<LegalMove>,
    pub king_counters: KingCounters,
    /// When the takeback leaves the side to move owing its first move again: the
    /// milliseconds it has from this event (see [`MatchSnapshot::first_move_in_ms`]).
    #[serde(default)]
    pub first_move_in_ms: Option<u64>,
}

/// What "+15 s" gives: the opponent's clock goes up by this much.
pub const MORE_TIME_MS: u64 = 15_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreTimeGiven {
    /// Who got the time.
    pub side: Side,
    /// The clocks with it added.
    pub clock: ClockState,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoreTimeRefused {
    pub side: Side,
    pub refused: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerJoined {
    pub side: Side,
    pub name: String,
    /// Whether a program plays this seat ([`PlayerInfo::bot`]); read as false when absent, so
    /// events stored before the field existed replay as people's seats.
    #[serde(default)]
    pub bot: bool,
    /// When this join started the match: the milliseconds White has, from this event, to
    /// make its first move (see [`MatchSnapshot::first_move_in_ms`]); else `None`. Read as
    /// `None` when absent (events stored before the field existed).
    #[serde(default)]
    pub first_move_in_ms: Option<u64>,
    /// Whether the seat belongs to an account ([`PlayerInfo::account`]); read as false when
    /// absent (a guest's seat, as every seat was before accounts).
    #[serde(default)]
    pub account: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moved {
    pub played: PlayedMove,
    /// FEN after the move.
    pub fen: String,
    pub clock: Option<ClockState>,
    /// The legal moves of the side now to move (empty if the move ended the game).
    pub legal_moves: Vec<LegalMove>,
    pub king_counters: KingCounters,
    /// After White's first move: the milliseconds Black has, from this event, to make its
    /// first move (see [`MatchSnapshot::first_move_in_ms`]); else `None`. Read as `None` when
    /// absent (events stored before the field existed).
    #[serde(default)]
    pub first_move_in_ms: Option<u64>,
    /// The mover's connection round trip as the server counted it for this move, in
    /// milliseconds (PROTOCOL.md §Lag): what clients show as that player's connection
    /// quality. `None` in untimed matches, before the server has measured the connection, and
    /// in events stored before the field existed.
    #[serde(default)]
    pub lag_ms: Option<u32>,
}

/// The channel id of Frisian TV. Watching it (`watch` with `{"channel": "ftv"}`) is answered by
/// [`Featured`] messages naming the match to show, never by moves: the client watches that
/// match like any other, so TV shows exactly what the match's own events say.
pub const FRISIAN_TV: &str = "ftv";

/// The match a Frisian TV channel features now: the most-watched public match being played
/// when the last one ended. `match_id` is `None` until some public match is being played; a
/// featured match that ended stays featured (showing its result) until another is live.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Featured {
    pub channel: String,
    pub match_id: Option<String>,
}
