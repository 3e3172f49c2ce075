//! Several nodes as one: each match and TV channel has one owner node at a time, held by a
//! lease with a fencing epoch in PostgreSQL; the owner runs its actor exactly as a single node
//! does, and Redis pub/sub carries commands to the owner, replies back, and every committed
//! event once to every node, which hands it to its own followers. Nothing acknowledged depends
//! on Redis. The rules are written down in `docs/CLUSTER.md`.
//!
//! Without `--redis` none of this runs.

pub(crate) mod bus;
pub(crate) mod channels;
pub(crate) mod cuts;
pub(crate) mod directors;
pub(crate) mod directory;
pub(crate) mod inbox;
pub(crate) mod lease;
pub(crate) mod lobby;
pub(crate) mod node;
pub(crate) mod pool;
pub(crate) mod proxy;
pub(crate) mod remote;
pub(crate) mod settings;
pub mod spread;
pub(crate) mod sweeper;
pub(crate) mod wire;
