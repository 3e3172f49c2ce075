//! Rated games: the Glicko-2 arithmetic (`glicko`) and the "play now" pool that pairs members of
//! close rating (`pool`). Both are pure: they are handed the time and return what changed, and
//! the match, storage and network shells decide when to call them. `pdn` writes a rated game's
//! rating tags; `seek` says who may join a rated seek; `play_now` is the task that runs the pool.

pub mod glicko;
pub mod pdn;
pub mod play_now;
pub mod pool;
pub mod seek;
