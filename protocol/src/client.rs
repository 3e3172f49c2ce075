//! Messages a client sends.
//!
//! Every client message travels in a [`ClientEnvelope`] whose `id` is the client's ack id: the
//! server answers every envelope with exactly one [`crate::Ack`], [`crate::ErrorReply`] or a
//! reply that names the same id. Ack ids of match actions are remembered per seat, so a move
//! re-sent after a reconnect with the same id is applied once and acknowledged again.

use serde::{Deserialize, Serialize};

use crate::common::{ColorChoice, Target, TimeControl};

/// One client message with its ack id. Ids of match actions must increase per seat, across
/// connections (PROTOCOL.md §9): a re-sent id is a duplicate, any other id not above the
/// seat's last one is refused as [`crate::ErrorCode::StaleId`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientEnvelope {
    pub id: u64,
    pub msg: ClientMessage,
}

/// Everything a client can ask for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientMessage {
    /// Announce the protocol version and a display name. Optional; without it the client is
    /// "anonymous" and speaks [`crate::PROTOCOL_VERSION`].
    Hello(Hello),
    /// Application-level ping; answered by [`crate::Pong`] with the same nonce.
    Ping(Ping),
    /// Ask for open seeks, live matches and channels; answered by [`crate::Lobby`].
    ListLobby,
    /// Open a new Frisian match and take a seat in it; answered by [`crate::Seat`].
    CreateMatch(CreateMatch),
    /// Take the free seat of a match, by id or by invite code; answered by [`crate::Seat`].
    JoinMatch(JoinMatch),
    /// Take back a seat after a reconnect, from its token alone; answered by [`crate::Seat`]
    /// and then the match's missed events (or a snapshot).
    Resume(Resume),
    /// Play a Frisian move.
    Move(PlayMove),
    Resign(SeatAction),
    OfferDraw(SeatAction),
    AcceptDraw(SeatAction),
    DeclineDraw(SeatAction),
    /// Abort a match before both sides have moved.
    Abort(SeatAction),
    /// Claim the win or a draw after the opponent has been gone for the grace period.
    Claim(Claim),
    OfferRematch(SeatAction),
    AcceptRematch(SeatAction),
    DeclineRematch(SeatAction),
    /// Watch a match or channel: a snapshot, or the events after `since_v`, then every event.
    Watch(Watch),
    Unwatch(Target),
    /// Start an on-demand MinitChess engine game; answered by [`crate::GameCreated`].
    StartEngineGame(StartEngineGame),
    /// Guess the coming ply of an engine game before it is revealed.
    Predict(Predict),
    /// Ask for the prediction leaderboard; answered by [`crate::Leaderboard`].
    Leaderboard(LeaderboardQuery),
    /// Wait in the play-now pool of a preset time control; answered by [`crate::Ack`], and by
    /// [`crate::Paired`] once an opponent is found.
    PlayNow(PlayNow),
    /// Stop waiting in the play-now pool; answered by [`crate::Ack`] (also when not waiting).
    CancelPlayNow,
    /// Take back the seat the connection's account holds in a match, without its seat token
    /// (a member on another device); answered like [`Resume`]. Refused with `not_allowed` for
    /// a guest connection or an account that holds no seat there.
    Reclaim(Reclaim),
    /// Say a line in a match's chat (PROTOCOL.md §Chat): in the players' room from a
    /// connection holding a seat there, else in the spectators'. Answered by [`crate::Ack`].
    Chat(crate::chat::Chat),
    /// A club admin deletes a chat line; answered by [`crate::Ack`].
    ChatDelete(crate::chat::ChatDelete),
    /// A club admin mutes or unmutes a member in every chat; answered by [`crate::Ack`].
    ChatMute(crate::chat::ChatMute),
    /// Give the opponent [`crate::MORE_TIME_MS`] more (PROTOCOL.md §10 *More time*); answered
    /// by [`crate::Ack`], and everyone gets [`crate::MatchEvent::MoreTimeGiven`].
    MoreTime(SeatAction),
    /// Refuse (`refuse: true`) or accept again the opponent's more time for this seat.
    RefuseMoreTime(RefuseMoreTime),
    /// Go berserk in an arena game, before one's own first move (PROTOCOL.md §10 *Berserk*):
    /// half one's base time, no increment; answered by [`crate::Ack`], and everyone gets
    /// [`crate::MatchEvent::Berserked`].
    Berserk(SeatAction),
    /// Propose to take back one's last move, in a casual match (PROTOCOL.md §10
    /// *Takebacks*); answered by [`crate::Ack`], and everyone gets
    /// [`crate::MatchEvent::TakebackProposed`].
    ProposeTakeback(SeatAction),
    /// Accept the opponent's takeback proposal: everyone gets [`crate::MatchEvent::TakenBack`].
    AcceptTakeback(SeatAction),
    DeclineTakeback(SeatAction),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    /// Free text naming the client program, for logs.
    pub client: String,
    /// The display name shown to opponents, watchers and on the leaderboard.
    pub name: String,
    /// True when a program, not a person, plays the seats this connection takes (an engine
    /// bridge); every seat it creates or joins is then shown as a bot's. People's clients
    /// leave it false. Read as false when absent.
    #[serde(default)]
    pub bot: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ping {
    pub nonce: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateMatch {
    /// `None` for an untimed match.
    pub time_control: Option<TimeControl>,
    pub color: ColorChoice,
    /// A public match is listed as an open seek; a private one is joined by its invite code.
    pub public: bool,
    /// A rated match changes both players' ratings (PROTOCOL.md §Ratings). Only a signed-in
    /// member may create one, and only another member may join it. Read as false (casual)
    /// when absent.
    #[serde(default)]
    pub rated: bool,
    /// Only for a rated seek: who may join it, as the largest rating difference to the
    /// creator's rating (100, 200, 300, 400 or 500); `None` for anyone. The lobby does not
    /// list a seek to a member it would refuse. Read as `None` when absent.
    #[serde(default)]
    pub rating_range: Option<u16>,
}

/// Ask to be paired with a member of close rating at a preset time control ("play now"):
/// answered by [`crate::Ack`] while waiting, later by [`crate::Paired`]. Members only; asking
/// again (any preset) replaces the earlier wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayNow {
    pub preset: crate::PoolPreset,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JoinMatch {
    /// A public match, by its id.
    Id(String),
    /// Any match, by its invite code.
    Code(String),
    /// The other seat of a match (by id, public or private) whose first seat this very
    /// connection holds: playing oneself, asked for explicitly. Joining one's own match by
    /// id or code from the same connection is refused.
    Myself(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub token: String,
    /// The last match event version this client saw, if any.
    pub since_v: Option<u64>,
}

/// Take back an account's seat in match `match_id` ([`ClientMessage::Reclaim`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reclaim {
    pub match_id: String,
    /// The last match event version this client saw, if any.
    pub since_v: Option<u64>,
}

/// A Frisian move: the origin and every landing square, as square numbers 1–50
/// (`[32, 28]`, or `[9, 18, 16]` for a capture landing on 18 then 16). Captures can share
/// origin and destination, so a move is never identified by those two squares alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayMove {
    pub match_id: String,
    pub token: String,
    pub route: Vec<u8>,
    /// The client's own estimate of its connection's round trip, in milliseconds (the mean of
    /// its last `ping`/`pong` round trips), for lag compensation (PROTOCOL.md §Lag). Trusted
    /// only within the server's own measurement; at most [`crate::limits::MAX_LAG_CLAIM_MS`].
    /// Read as `None` (no estimate) when absent.
    #[serde(default)]
    pub lag_ms: Option<u32>,
}

/// A seat's choice about being given more time ([`ClientMessage::RefuseMoreTime`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefuseMoreTime {
    pub match_id: String,
    pub token: String,
    pub refuse: bool,
}

/// An action of a seated player that needs no more than the seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatAction {
    pub match_id: String,
    pub token: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub match_id: String,
    pub token: String,
    pub kind: ClaimKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    Win,
    Draw,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Watch {
    pub target: Target,
    /// The last event version this client saw of `target`; `None` asks for a snapshot.
    pub since_v: Option<u64>,
}

/// What a defuser reads off the module: the serial, each engine's letter and seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartEngineGame {
    /// The bomb's serial number, upper-case letters and digits (`CH3SS5`).
    pub serial: String,
    /// White's engine letter and seed (`L4`).
    pub white: String,
    /// Black's engine letter and seed (`K7`).
    pub black: String,
    /// Milliseconds between reveals; `None` for the server's default.
    pub ply_interval_ms: Option<u64>,
    /// Reveal the plies before this one at once, as the module shows the game up to its
    /// puzzle point; `None` or 0 starts from the first ply.
    pub reveal_from_ply: Option<u32>,
}

/// A guess for ply `ply` of a channel's current game, as squares (`b1`, `c3`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Predict {
    pub channel: String,
    pub ply: u32,
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardQuery {
    /// At most this many entries (the server caps it).
    pub limit: u32,
}
