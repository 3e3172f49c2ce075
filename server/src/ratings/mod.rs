//! Rated games: the Glicko-2 arithmetic (`glicko`) and the "play now" pool that pairs members of
//! close rating (`pool`). Both are pure: they are handed the time and return what changed, and
//! the match, storage and network shells decide when to call them. `pdn` writes a rated game's
//! rating tags; `seek` says who may join a rated seek; `play_now` is the task that runs the pool;
//! `ladder` picks and ranks the ladder and the rating chart's daily points.
//!
//! **Not wired yet** (it needs accounts, issue 30). The plan it is built for:
//! - *Writing a rated result exactly once.* When a rated match ends, its actor reads both
//!   members' [`glicko::Perf`]s, works out [`glicko::rated_score`] and [`glicko::rate_game`], and
//!   commits the rating rows in the **same** `commit` request as `Write::Finish` (one savepoint,
//!   so one transaction on both backends): a `rating_changes` row per player keyed by
//!   `(match_id, account_id)`, and the `ratings` row updated only if its `rated_games` is still
//!   the one the actor read (compare-and-set; a miss refuses the whole request, the actor
//!   re-reads and retries). A result without its rating change, or a rating change twice (a
//!   node taking the match over re-finishing it), then cannot be stored; both fit the
//!   PostgreSQL writer's pipeline, since nothing is read back in the transaction.
//! - *Play now.* A node runs [`play_now::spawn`] keyed by account id; the connection shell
//!   sends `join`/`cancel` and seats each [`pool::Pairing`] in a new rated match; in a cluster
//!   one node owns the pool (as a match has one owner) and the others forward to it.
//! - *Seeks.* The lobby filters with [`seek::may_join`] per viewer, and `join_match` refuses
//!   with the same rule.

pub mod glicko;
pub mod ladder;
pub mod pdn;
pub mod play_now;
pub mod pool;
pub mod seek;
