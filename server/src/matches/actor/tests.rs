//! The actor's tests that drive whole matches: a storage outage, and a rematch seat found
//! on another node.

mod outage;
mod rematch;
