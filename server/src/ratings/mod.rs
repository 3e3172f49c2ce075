//! Rated games: the Glicko-2 arithmetic (`glicko`) and the "play now" pool that pairs members of
//! close rating (`pool`). Both are pure: they are handed the time and return what changed, and
//! the match, storage and network shells decide when to call them.

pub mod glicko;
pub mod pool;
