//! Several nodes as one: each match and TV channel has one owner node at a time, held by a
//! lease with a fencing epoch in PostgreSQL; the owner runs its actor exactly as a single node
//! does, and Redis pub/sub carries commands to the owner, replies back, and every committed
//! event once to every node, which hands it to its own followers. Nothing acknowledged depends
//! on Redis. The rules are written down in `docs/CLUSTER.md`.
//!
//! Without `--redis` none of this runs.

pub mod bus;
pub mod channels;
pub mod directory;
pub mod inbox;
pub mod lease;
pub mod lobby;
pub mod node;
pub mod proxy;
pub mod remote;
pub mod settings;
pub mod spread;
pub mod sweeper;
pub mod wire;
