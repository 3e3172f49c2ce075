//! Rated games: the Glicko-2 arithmetic (`glicko`) and the "play now" pool that pairs members of
//! close rating (`pool`). Both are pure: they are handed the time and return what changed, and
//! the match, storage and network shells decide when to call them. `pdn` writes a rated game's
//! rating tags; `seek` says who may join a rated seek; `play_now` is the task that runs the pool;
//! `ladder` picks and ranks the ladder and the rating chart's daily points.
//!
//! How a rated result is written exactly once (`stored` builds the writes,
//! `crate::storage::RatingChange` is the row):
//! - When a rated match ends, its actor (`Actor::rate`) reads both members' [`glicko::Perf`]s
//!   (`stored::read_perf`), works out [`glicko::rated_score`] and [`glicko::rate_game`], puts
//!   the shown change into the result (the `ended` event, the PDN's tags: [`pdn`]) and
//!   sends both `Write::Rating`s in the **same** `commit` request as `Write::Finish` (one
//!   savepoint, so one transaction on both backends). There is one table, `rating_changes`:
//!   an account's rating is its newest row. Its key `(match_id, account_id)` refuses a game
//!   rated twice (a node taking the match over re-finishing it), and `UNIQUE (account_id,
//!   games_before)` is the compare-and-set on the rated game count the actor read: a miss
//!   refuses the whole request, the actor re-reads and retries. A result without its rating
//!   change, or a change twice, cannot be stored; nothing is read back in the transaction, so
//!   it fits the PostgreSQL writer's pipeline.
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
pub mod stored;
