//! What storage keeps of accounts: the accounts, their sessions, personal access tokens and
//! one-time reset links, and which account sat in each seat — backend-neutral rows and the
//! trait both backends implement. The rules (hashing, expiry, throttles) live in
//! [`crate::accounts`]; this is only what is stored.
//!
//! Sessions, tokens and reset links are stored by the SHA-256 of their secret (hex), never
//! the secret. Seats are written by the database itself: a trigger on `events` copies every
//! `player_joined` record into `seats` (match, side, account, name), in the same statement
//! as the event, so a seat is stored exactly when its event is (and fenced alike), and
//! `migrate`'s copy of the events brings the seats along.

use tokio::sync::mpsc;

use super::{ChatMuteRow, RatingChange, StorageError};

/// An account as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    pub id: i64,
    pub name: String,
    /// The Argon2id PHC string.
    pub password: String,
    pub bot: bool,
    pub admin: bool,
    pub closed: bool,
    pub created_ms: i64,
    pub last_seen_ms: Option<i64>,
}

/// A flag an admin sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    Bot,
    Admin,
    Closed,
}

impl Flag {
    pub(crate) fn column(self) -> &'static str {
        match self {
            Flag::Bot => "bot",
            Flag::Admin => "admin",
            Flag::Closed => "closed",
        }
    }
}

/// What a member chose for themselves on the account page (table `account_preferences`,
/// one row once they set any).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Preferences {
    /// Refuse being given more time ("+15 s", PROTOCOL.md §10 *More time*) in every match
    /// they play: the server records it with each seat they take.
    pub refuse_more_time: bool,
}

/// A live session: whose, and when it was made and last used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionRow {
    pub account: i64,
    pub created_ms: i64,
    pub used_ms: i64,
}

/// A personal access token as stored (without its secret).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenRow {
    pub id: i64,
    pub account: i64,
    pub name: String,
    /// Space-separated scopes (`play bot`).
    pub scopes: String,
    pub created_ms: i64,
    pub used_ms: Option<i64>,
}

/// One finished game of an account, for its profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub match_id: String,
    /// `white` or `black`.
    pub side: String,
    pub opponent: Option<String>,
    pub opponent_account: bool,
    /// `2-0`, `1-1`, `0-2` (or `*`).
    pub result: String,
    /// The match's set-up JSON (its time control).
    pub setup: String,
    pub created_ms: i64,
}

/// Where a game sorts in a member's PDN export: its match's creation time, then its id (ids
/// are unique, so no two games share a key and a page boundary never splits a tie).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PdnKey {
    pub created_ms: i64,
    pub match_id: String,
}

/// One game of a PDN export page: where it sorts (the next page starts after the last one)
/// and its PDN text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnGame {
    pub key: PdnKey,
    pub pdn: String,
}

/// How many games a page of a PDN export reads at once: the most one download keeps in
/// memory beside its channel (a game's PDN is 0.5–2 kB, so a page is some 60–250 kB), and
/// few enough reads for a member with thousands of games (one per 128).
pub(crate) const PDN_PAGE: u32 = 128;

/// Sends `account`'s finished games' PDN into `into`, oldest first, reading them `page` at a
/// time with [`AccountStore::pdn_page`] (keyset pagination by [`PdnKey`]), until every game
/// is sent or the download is gone (`into` closed).
///
/// Why pages: a download goes at its client's pace, minutes for a phone on a bad line and
/// for ever for a client that stops reading. One query streamed row by row held its read
/// transaction (and, on PostgreSQL, a pooled connection) all that time; on SQLite the WAL
/// could not be checkpointed past it and grew while play went on. Each page is its own
/// short read, and nothing of the database is held while a page waits for the client.
///
/// What a download shows: every game finished when it began, each once, in order. A game
/// that finishes while it runs is in it only if it sorts after the games already sent (its
/// match was created later: the usual case, it is then among the last); one that sorts
/// before them is not, and the next download has it. No game is ever sent twice or out of
/// order, since each page starts strictly after the last key sent.
pub(crate) async fn send_pdn_pages<S: AccountStore + ?Sized>(
    store: &S,
    account: i64,
    page: u32,
    into: mpsc::Sender<Result<String, StorageError>>,
) {
    let mut after = None;
    loop {
        let games = match store.pdn_page(account, after.take(), page).await {
            Ok(games) => games,
            Err(err) => {
                let _ = into.send(Err(err)).await;
                return;
            }
        };
        let last_page = games.len() < page as usize;
        for game in games {
            after = Some(game.key);
            if into.send(Ok(game.pdn)).await.is_err() {
                return;
            }
        }
        if last_page || after.is_none() {
            return;
        }
    }
}

/// Finished games by outcome for one account: (won, drawn, lost), counted from `result` and
/// the seat's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
}

/// What a backend does for accounts.
#[async_trait::async_trait]
pub trait AccountStore: std::fmt::Debug + Send + Sync + 'static {
    /// Stores a new account; `Ok(None)` when the name (ignoring case) is taken.
    async fn create_account(
        &self,
        name: String,
        password: String,
        bot: bool,
        admin: bool,
        created_ms: i64,
    ) -> Result<Option<i64>, StorageError>;
    /// The account named `name`, ignoring case.
    async fn account_by_name(&self, name: String) -> Result<Option<AccountRow>, StorageError>;
    async fn account_by_id(&self, id: i64) -> Result<Option<AccountRow>, StorageError>;
    async fn set_password(&self, id: i64, password: String) -> Result<(), StorageError>;
    async fn set_flag(&self, id: i64, flag: Flag, value: bool) -> Result<(), StorageError>;
    async fn touch_account(&self, id: i64, now_ms: i64) -> Result<(), StorageError>;
    /// Who muted `account` in every chat, and when; `None` if nobody did.
    async fn chat_mute(&self, account: i64) -> Result<Option<ChatMuteRow>, StorageError>;
    /// Mutes `account` in every chat (a second mute keeps the first's who and when), or
    /// unmutes it with `None`.
    async fn set_chat_mute(
        &self,
        account: i64,
        mute: Option<ChatMuteRow>,
    ) -> Result<(), StorageError>;
    /// `account`'s preferences; the defaults for an account that never set any.
    async fn preferences(&self, account: i64) -> Result<Preferences, StorageError>;
    /// Stores `account`'s preferences (all of them, replacing what was stored).
    async fn set_preferences(
        &self,
        account: i64,
        preferences: Preferences,
    ) -> Result<(), StorageError>;
    /// Grants (or takes back) `account`'s right to create events: the same row as
    /// [`super::club::EventWrite::Organiser`], for `boardcast-server admin grant-organiser`,
    /// which runs beside a server on the account tables alone.
    async fn set_organiser(&self, account: i64, granted: bool) -> Result<(), StorageError>;

    async fn create_session(
        &self,
        hash: String,
        account: i64,
        now_ms: i64,
    ) -> Result<(), StorageError>;
    async fn session(&self, hash: String) -> Result<Option<SessionRow>, StorageError>;
    async fn touch_session(&self, hash: String, now_ms: i64) -> Result<(), StorageError>;
    async fn delete_session(&self, hash: String) -> Result<(), StorageError>;
    /// Ends every session of `account` but `keep` (its hash), if given.
    async fn delete_sessions(&self, account: i64, keep: Option<String>)
    -> Result<(), StorageError>;

    /// `login`: the token is a password login's (`boardcast login`, `POST /api/token`), which
    /// [`AccountStore::delete_login_tokens`] ends with the browser sessions; a token made by
    /// name on the web or by the admin command is not.
    async fn create_token(
        &self,
        hash: String,
        account: i64,
        name: String,
        scopes: String,
        login: bool,
        now_ms: i64,
    ) -> Result<i64, StorageError>;
    async fn token(&self, hash: String) -> Result<Option<TokenRow>, StorageError>;
    async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, StorageError>;
    /// Whether token `id` of `account` was there to delete.
    async fn delete_token(&self, account: i64, id: i64) -> Result<bool, StorageError>;
    async fn touch_token(&self, id: i64, now_ms: i64) -> Result<(), StorageError>;
    /// Deletes every password login's token of `account` ("log out everywhere", a password
    /// change or reset); returns their ids, so their open connections can be cut.
    async fn delete_login_tokens(&self, account: i64) -> Result<Vec<i64>, StorageError>;

    async fn create_reset(
        &self,
        hash: String,
        account: i64,
        expires_ms: i64,
    ) -> Result<(), StorageError>;
    /// The account of a reset link still valid at `now_ms`; `take` uses it up.
    async fn reset(
        &self,
        hash: String,
        now_ms: i64,
        take: bool,
    ) -> Result<Option<i64>, StorageError>;

    /// Finished games of `account`, newest first.
    async fn games(
        &self,
        account: i64,
        offset: u32,
        limit: u32,
    ) -> Result<Vec<GameRow>, StorageError>;
    async fn tally(&self, account: i64) -> Result<Tally, StorageError>;
    /// Every finished game's PDN of `account`, oldest first, sent one game at a time into
    /// `into` (a bounded channel: the export waits for the download). Read a page of
    /// [`PDN_PAGE`] games at a time ([`send_pdn_pages`] says why and what a download shows).
    async fn pdn(&self, account: i64, into: mpsc::Sender<Result<String, StorageError>>) {
        send_pdn_pages(self, account, PDN_PAGE, into).await
    }
    /// Up to `limit` finished games of `account` that sort after `after` (all from the
    /// first, `None`), in the export's order: by [`PdnKey`]. One short read: the
    /// connection is back in the pool when it returns.
    async fn pdn_page(
        &self,
        account: i64,
        after: Option<PdnKey>,
        limit: u32,
    ) -> Result<Vec<PdnGame>, StorageError>;

    /// The newest rating change of `account`: its current rating (`None`: never rated).
    async fn rating(&self, account: i64) -> Result<Option<RatingChange>, StorageError>;
    /// The newest rating change of every open account whose last rated game ended at
    /// `since_ms` or later, with the account's name and whether it is a bot (the ladder's
    /// candidates; the ladder marks bots).
    async fn current_ratings(&self, since_ms: i64) -> Result<Vec<LadderCandidate>, StorageError>;
    /// Every rating change of `account`, oldest first (its rating history).
    async fn rating_history(&self, account: i64) -> Result<Vec<RatingChange>, StorageError>;
    /// `account`'s best win: the opponent with the highest rating (as the game began) it
    /// beat in a rated game, the earliest such game on a tie; `None` before its first win.
    async fn best_win(&self, account: i64) -> Result<Option<BestWin>, StorageError>;
}

/// The question both backends ask for [`AccountStore::best_win`] (`?1`: the account): the
/// opponent's name and rating before the game, and the game, of rated games the account won.
pub(crate) const BEST_WIN: &str = "SELECT a.name, opp.rating_before, me.match_id \
     FROM rating_changes me \
     JOIN rating_changes opp ON opp.match_id = me.match_id AND opp.account_id <> me.account_id \
     JOIN accounts a ON a.id = opp.account_id \
     JOIN matches m ON m.id = me.match_id AND m.finished \
     JOIN seats s ON s.match_id = me.match_id AND s.account_id = me.account_id \
     WHERE me.account_id = ?1 \
     AND ((m.result = '2-0' AND s.side = 'white') OR (m.result = '0-2' AND s.side = 'black')) \
     ORDER BY opp.rating_before DESC, me.at_ms, me.match_id LIMIT 1";

/// A member's best win (`AccountStore::best_win`).
pub(crate) type BestWin = boardcast_protocol::account::BestWin;

/// A member the ladder may list: the account's name, whether it is a bot, and its newest
/// rating change.
pub(crate) type LadderCandidate = (String, bool, RatingChange);

/// The outcome of `result` for the player of `side`.
pub(crate) fn outcome(result: &str, side: &str) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering::*;
    match (result, side) {
        ("1-1", _) => Some(Equal),
        ("2-0", "white") | ("0-2", "black") => Some(Greater),
        ("2-0", "black") | ("0-2", "white") => Some(Less),
        _ => None,
    }
}

/// Adds one finished game with `result` seen from `side` to `tally`.
pub(crate) fn count(tally: &mut Tally, result: &str, side: &str) {
    match outcome(result, side) {
        Some(std::cmp::Ordering::Greater) => tally.won += 1,
        Some(std::cmp::Ordering::Equal) => tally.drawn += 1,
        Some(std::cmp::Ordering::Less) => tally.lost += 1,
        None => {}
    }
}

/// The newest rating change of each open account rated since `?1`/`$1` (both backends).
///
/// Account by account: each member's newest change is one step down the `(account_id,
/// games_before)` index. `CROSS JOIN` keeps SQLite's planner to that order; left free, it
/// scanned every change and looked up its member's newest for each, five times the work
/// with 20 changes a member (`tests/bench/club.sh`). PostgreSQL plans a cross join with these
/// conditions as the inner join it is.
pub(crate) const CURRENT_RATINGS: &str = "SELECT a.name, a.bot, r.match_id, r.account_id, \
     r.games_before, r.at_ms, r.rating_before, r.rating, r.deviation, r.volatility \
     FROM accounts a CROSS JOIN rating_changes r \
     WHERE NOT a.closed AND r.account_id = a.id AND r.at_ms >= $1 AND r.games_before = \
     (SELECT MAX(games_before) FROM rating_changes WHERE account_id = a.id)";
