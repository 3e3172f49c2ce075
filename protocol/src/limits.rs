//! Sizes and WebSocket close codes every implementation must agree on.

/// Largest frame a client may send. Client messages are small; this bounds what the server
/// reads before it parses anything.
pub const MAX_CLIENT_FRAME_BYTES: usize = 8 * 1024;

/// Largest frame the server sends (a snapshot of a long match); clients should accept this.
pub const MAX_SERVER_FRAME_BYTES: usize = 1024 * 1024;

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Longest id, invite code, token, serial or similar string field, in bytes.
pub const MAX_ID_BYTES: usize = 64;

/// Largest number a client may choose: envelope ids, ping nonces and `since_v`. It is
/// 2^53 − 1, the largest integer a JavaScript number holds exactly (`Number.MAX_SAFE_INTEGER`),
/// so every client can read back what it sent; larger ones are refused as `invalid_argument`.
/// Counting ids up from 1 (or from the time in milliseconds) stays far below it.
pub const MAX_CLIENT_NUMBER: u64 = (1 << 53) - 1;

/// Shortest base time of a timed match: a player must be able to survive the first moves.
pub const MIN_INITIAL_MS: u64 = 15_000;

/// Longest base time of a timed match (3 hours).
pub const MAX_INITIAL_MS: u64 = 3 * 3_600_000;

/// Largest increment per move (3 minutes).
pub const MAX_INCREMENT_MS: u64 = 180_000;

/// Length of a bomb serial number (`CH3SS5`), in characters (ASCII, so also bytes).
pub const SERIAL_BYTES: usize = 6;

/// Longest Frisian route: origin plus one landing square per captured piece (at most 20).
pub const MAX_ROUTE_SQUARES: usize = 21;

/// The largest round trip a client may claim with a move (`lag_ms`), in milliseconds: a
/// minute, far above any connection a timed game can be played over.
pub const MAX_LAG_CLAIM_MS: u32 = 60_000;

/// WebSocket close codes the server uses.
pub mod close {
    /// Normal closure.
    pub const NORMAL: u16 = 1000;
    /// The server is shutting down.
    pub const GOING_AWAY: u16 = 1001;
    /// No subprotocol offered that the server speaks, or a WebSocket protocol error.
    pub const PROTOCOL_ERROR: u16 = 1002;
    /// A text frame with invalid UTF-8.
    pub const INVALID_DATA: u16 = 1007;
    /// Policy: the message rate limit was exceeded, or the client stopped reading.
    pub const POLICY: u16 = 1008;
    /// A frame over [`super::MAX_CLIENT_FRAME_BYTES`].
    pub const TOO_BIG: u16 = 1009;
    /// The server is at its connection limit.
    pub const TRY_AGAIN_LATER: u16 = 1013;
    /// Nothing arrived within the idle timeout.
    pub const IDLE: u16 = 4000;
    /// The session or token the connection logged in with has ended (logout, "log out
    /// everywhere", a password change, a revoked token, a closed account).
    pub const SESSION_ENDED: u16 = 4001;
}

/// The rating ranges a rated seek may be limited to (± points around its creator's rating).
pub const RATING_RANGES: [u16; 5] = [100, 200, 300, 400, 500];
