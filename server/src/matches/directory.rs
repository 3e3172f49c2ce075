//! The seam between matches and the place that knows where they are.
//!
//! A match needs little from outside itself: to be found by id, invite code and seat token
//! (wherever it is, so connections have one path for a match in memory, one read back from
//! storage and, in a cluster, one owned by another node), to register a seat token it hands
//! out, to keep its lobby line current, to leave when it is done, to find another match (its
//! rematch) and to create one. Connections need the lookups, the lobby and creation.
//! [`Directory`] is exactly that, and nothing more; the actor sees it only as
//! `dyn Directory`, so matches never depend on who implements it.
//!
//! `Hub` (`server/src/matches/local.rs`) implements it for the matches of a single node;
//! `cluster/directory.rs` for a node of a cluster, around the hub: lookups that find a match
//! owned by another node (a handle that forwards), creations owned under the node's lease.
//! The invariant an implementation keeps: a match id, invite code or token found here always
//! leads to the one actor that owns the match, so there is one writer per match.

use boardcast_protocol::{MatchSummary, Side};

use super::handle::MatchHandle;
use super::player::Player;
use super::record::Setup;
use crate::refusal::Refusal;
use crate::room::outbox::Outbox;

/// Closes connections that followed a match which moved to another node (see
/// [`Directory::moved`]).
pub(crate) fn close_moved(followers: Vec<Outbox>) {
    for outbox in followers {
        outbox.close(
            axum::extract::ws::close_code::RESTART,
            "this match moved to another server; reconnect",
        );
    }
}

/// A rematch just created: its actor, its id, and each player's seat token by side.
pub(crate) type Created = (MatchHandle, String, Vec<(Side, String)>);

/// What a lookup finds: the match's handle (its actor, or a stand-in that forwards to it),
/// nothing (`Ok(None)`: no such match), or why it could not look (storage failed, too many
/// matches in memory to read one back).
pub(crate) type Found = Result<Option<MatchHandle>, Refusal>;

/// Where matches are, and what a match tells about itself.
#[async_trait::async_trait]
pub trait Directory: Send + Sync + 'static {
    /// The match `id`, wherever it is: running, or finished and read back from storage.
    async fn find(&self, id: &str) -> Found;

    /// The unfinished match with invite code `code` (in any letter case).
    async fn find_by_code(&self, code: &str) -> Found;

    /// The match in which `token` holds a seat: running, or finished and read back.
    async fn find_by_token(&self, token: &str) -> Found;

    /// The match `id` if it is in this process's memory already (its actor, or a stand-in):
    /// for goodbyes and for what only a followed match can have (an unwatch, a rematch seat),
    /// so nothing is read back from storage or claimed to say goodbye.
    fn running(&self, id: &str) -> Option<MatchHandle>;

    /// The match `id` if it is being played anywhere: [`Directory::running`], or in a
    /// cluster a stand-in for it when another live node runs it. Never read back from
    /// storage nor claimed: for what only a followed match can have (a player's rematch
    /// seat) when the match may have moved to another node.
    async fn running_anywhere(&self, id: &str) -> Option<MatchHandle> {
        self.running(id)
    }

    /// Whether match `id` is a public one (joinable by id).
    fn is_public(&self, id: &str) -> bool;

    /// Open public seeks and public matches being played, each sorted by id. A private match
    /// is never listed: only whoever has its id (or invite code) can find it.
    fn lobby(&self) -> (Vec<MatchSummary>, Vec<MatchSummary>);

    /// Match `match_id` handed out a seat token whose hash is `token_hash`
    /// ([`crate::accounts::secret::hash`]): [`Directory::find_by_token`] finds it by that
    /// token from now on.
    fn register_token_hash(&self, token_hash: &str, match_id: &str);

    /// The match's lobby line changed (phase, players, plies, watchers, publicity).
    fn update_summary(&self, summary: MatchSummary, public: bool);

    /// The match `id` has stopped: forget it, its invite code and its tokens.
    fn remove(&self, id: &str);

    /// The actor of match `id` has stopped because another node owns the match now (its
    /// write was fenced, or this node lost its lease): forget that actor, and take care of
    /// the connections of this node that followed it. By default they are closed with 1012
    /// so they reconnect and resume wherever the match is; a cluster directory hands them
    /// to a stand-in that follows the new owner instead.
    fn moved(&self, id: &str, followers: Vec<Outbox>) {
        let _ = id;
        close_moved(followers);
    }

    /// Creates, stores and starts a match of this node with `setup` and `players` seated
    /// (a seek, a pairing, a rematch), owned as this directory owns the matches it starts.
    /// With `arrivals_follow` its actor records no presence until a
    /// [`super::Command::Arrive`] brings the players.
    async fn create(
        &self,
        setup: Setup,
        players: Vec<(Side, Player)>,
        arrivals_follow: bool,
    ) -> Result<Created, Refusal>;
}
