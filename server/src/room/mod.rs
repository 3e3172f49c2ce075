//! A room that followers watch: the [`fanout`] of one match or channel to its subscribers,
//! the gap-free [`history`] it replays from, each subscriber's bounded [`outbox`], and the
//! [`crowd`] count a lobby shows. A match's actor, a channel's, and the cluster proxy that
//! replicates a match another node owns all serve their followers through these.

pub(crate) mod crowd;
pub(crate) mod fanout;
pub(crate) mod history;
pub(crate) mod outbox;
