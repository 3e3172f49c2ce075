//! MinitChess channels: TV channels and on-demand engine games, predictions, leaderboard.
//!
//! Each channel is one actor task ([`actor`]) that reveals one ply exactly at each reveal time
//! and never holds a future ply ([`game`]); [`registry`] starts, finds and lists them. This
//! module is the entry point the connection dispatch calls for every channel-related client
//! message, Frisian TV's (`ftv`, [`crate::matches::tv`]) included: a connection need not know
//! which channels are special.

pub(crate) mod actor;
pub(crate) mod archive;
pub(crate) mod flags;
pub(crate) mod game;
pub(crate) mod game_ids;
pub(crate) mod predict;
pub(crate) mod registry;
pub(crate) mod schedule;
#[cfg(test)]
mod tests;

use std::future::Future;
use std::sync::Arc;

use boardcast_protocol::{
    ChannelKind, ChannelSnapshot, ChannelSummary, ErrorArgs, ErrorCode, FRISIAN_TV, GameCreated,
    Leaderboard, LeaderboardQuery, Predict, ServerMessage, StartEngineGame,
};

pub(crate) use actor::ChannelHandle;
use game_ids::GameIds;
pub(crate) use registry::{ChannelsConfig, Registry};
use tokio::sync::Semaphore;

use crate::matches::tv::FrisianTv;
use crate::net::address::ClientAddr;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::refusal::Refusal;
use crate::room::outbox::Outbox;
use crate::storage::{Storage, StorageError};

/// The most leaderboard entries one query returns.
pub(crate) const MAX_LEADERBOARD: u32 = 100;

/// The most archive reads (leaderboards, archived games) under way at once, across all
/// connections: each holds a database connection while it runs, and a stalled database
/// must not gather an unbounded pile of waiting tasks.
pub(crate) const READS: usize = 64;

/// A channel-related client message, as the connection hands it over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChannelRequest {
    Watch {
        channel: String,
        since_v: Option<u64>,
    },
    Unwatch {
        channel: String,
    },
    StartEngineGame(StartEngineGame),
    /// A guess, with the display name and address of the connection that made it.
    Predict {
        predict: Predict,
        name: String,
        client: ClientAddr,
    },
    Leaderboard(LeaderboardQuery),
}

/// The channel directory shared by all connections; cheap to clone.
#[derive(Clone)]
pub struct Channels {
    registry: Registry,
    /// Frisian TV, once the match directory it picks from exists ([`Channels::with_tv`]).
    tv: Option<FrisianTv>,
    /// For the archive's reads: the leaderboard and archived games.
    storage: Storage,
    /// Places for archive reads under way ([`READS`]), shared by every connection.
    reads: Arc<Semaphore>,
}

impl Channels {
    /// Starts the TV channels and the archive recorder, which stores finished games through
    /// `storage` and holds a task guard until it has stored the last one.
    pub async fn start(
        config: ChannelsConfig,
        storage: &Storage,
        shutdown: Shutdown,
        tasks: &Tasks,
    ) -> Result<Channels, StorageError> {
        Channels::start_with(config, storage, shutdown, tasks, None).await
    }

    /// [`Channels::start`] on a node of a cluster: the TV channels follow their owners through
    /// `upstream(name)` until this node takes them over (`cluster::channels`).
    pub async fn start_following(
        config: ChannelsConfig,
        storage: &Storage,
        shutdown: Shutdown,
        tasks: &Tasks,
        upstream: &actor::UpstreamOf<'_>,
    ) -> Result<Channels, StorageError> {
        Channels::start_with(config, storage, shutdown, tasks, Some(upstream)).await
    }

    async fn start_with(
        config: ChannelsConfig,
        storage: &Storage,
        shutdown: Shutdown,
        tasks: &Tasks,
        upstream: Option<&actor::UpstreamOf<'_>>,
    ) -> Result<Channels, StorageError> {
        let first_game_id = storage.next_game_id().await?;
        let run = storage.next_run().await?;
        let first_version = run.saturating_mul(archive::RUN_VERSIONS);
        let (registry, finished) = match (upstream, storage.coordination()) {
            (Some(upstream), Some(coordination)) => Registry::start_following(
                config,
                GameIds::shared(coordination, shutdown.clone()).await,
                first_version,
                shutdown.clone(),
                upstream,
            ),
            _ => Registry::start(config, first_game_id, first_version, shutdown.clone()),
        };
        tokio::spawn(archive::record(
            storage.clone(),
            finished,
            shutdown,
            tasks.guard(),
        ));
        Ok(Channels {
            registry,
            tv: None,
            storage: storage.clone(),
            reads: Arc::new(Semaphore::new(READS)),
        })
    }

    /// These channels with Frisian TV among them: TV picks from the match directory, which a
    /// cluster node builds after its channels.
    pub(crate) fn with_tv(self, tv: FrisianTv) -> Channels {
        Channels {
            tv: Some(tv),
            ..self
        }
    }

    fn tv(&self, channel: &str) -> Result<&FrisianTv, Refusal> {
        self.tv.as_ref().ok_or_else(|| not_found(channel))
    }

    /// The running channels.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Answers envelope `id` carrying `request` on `outbox`: with an ack (a watch's ack comes
    /// before its snapshot), a [`GameCreated`], a [`Leaderboard`] or a typed error. Never
    /// waits, as a match command does not: a channel gets the request through its mailbox
    /// and answers through the outbox; archive reads run off the connection's read loop.
    /// Returns whether the request was taken (false after a refusal given at once).
    pub fn handle(&self, outbox: &Outbox, id: u64, request: ChannelRequest) -> bool {
        let result = match request {
            ChannelRequest::Watch { channel, .. } if channel == FRISIAN_TV => {
                self.tv(&channel).map(|tv| tv.watch(outbox, id))
            }
            ChannelRequest::Unwatch { channel } if channel == FRISIAN_TV => {
                self.tv(&channel).map(|tv| tv.unwatch(outbox, id))
            }
            ChannelRequest::Watch { channel, since_v } => match self.registry.get(&channel) {
                Some(handle) => {
                    let answer = actor::envelope(outbox.clone(), id);
                    handle.watch(outbox.clone(), since_v, Some(answer));
                    Ok(())
                }
                None => {
                    let (storage, answer) = (self.storage.clone(), outbox.clone());
                    self.read(outbox, id, replay(storage, answer, id, channel))
                }
            },
            ChannelRequest::Unwatch { channel } => match self.registry.get(&channel) {
                Some(handle) => {
                    handle.unwatch(outbox.id(), actor::envelope(outbox.clone(), id));
                    Ok(())
                }
                None => Err(not_found(&channel)),
            },
            ChannelRequest::StartEngineGame(start) => {
                self.registry.start_game(&start).map(|channel| {
                    outbox.send(&ServerMessage::GameCreated(GameCreated { id, channel }));
                })
            }
            ChannelRequest::Predict {
                predict,
                name,
                client,
            } => match self.registry.get(&predict.channel) {
                Some(handle) => {
                    let guess = actor::Guess {
                        outbox: outbox.clone(),
                        client,
                        name,
                        ply: predict.ply,
                        from: predict.from,
                        to: predict.to,
                    };
                    handle.predict(guess, actor::envelope(outbox.clone(), id));
                    Ok(())
                }
                None => Err(not_found(&predict.channel)),
            },
            ChannelRequest::Leaderboard(query) => {
                let limit = query.limit.min(MAX_LEADERBOARD);
                let (storage, answer) = (self.storage.clone(), outbox.clone());
                self.read(outbox, id, async move {
                    let entries = storage.leaderboard(limit).await.map_err(internal)?;
                    answer.send(&ServerMessage::Leaderboard(Leaderboard { id, entries }));
                    Ok(())
                })
            }
        };
        match result {
            Ok(()) => true,
            Err(refusal) => {
                outbox.refuse(id, refusal);
                false
            }
        }
    }

    /// Runs `read` (an archive read that answers envelope `id` itself) in a task of its own,
    /// so a slow database never holds up the connection's other messages; the refusal it may
    /// end with goes to `outbox`. At most [`READS`] run at once: past that, the request is
    /// refused as busy rather than queued.
    fn read(
        &self,
        outbox: &Outbox,
        id: u64,
        read: impl Future<Output = Result<(), Refusal>> + Send + 'static,
    ) -> Result<(), Refusal> {
        let Ok(permit) = self.reads.clone().try_acquire_owned() else {
            return Err(Refusal::new(
                ErrorCode::Busy,
                "too many archive reads under way; try again shortly",
            )
            .with(ErrorArgs::new("archive_busy")));
        };
        let outbox = outbox.clone();
        tokio::spawn(async move {
            if let Err(refusal) = read.await {
                outbox.refuse(id, refusal);
            }
            drop(permit);
        });
        Ok(())
    }

    /// The channels the lobby lists.
    pub fn summaries(&self) -> Vec<ChannelSummary> {
        self.registry.summaries()
    }

    /// Called when a connection closes, to forget its subscriptions.
    pub async fn leave(&self, outbox: &Outbox) {
        for handle in self.registry.all() {
            handle.forget(outbox.id());
        }
    }
}

/// Answers envelope `id`, the watch of `channel` that no channel runs: an archived game
/// `g<id>` goes to `outbox` as a finished snapshot after the ack.
async fn replay(storage: Storage, outbox: Outbox, id: u64, channel: String) -> Result<(), Refusal> {
    let game_id = channel
        .strip_prefix('g')
        .and_then(|n| n.parse::<u64>().ok())
        .ok_or_else(|| not_found(&channel))?;
    let archived = storage
        .archived_game(game_id)
        .await
        .map_err(internal)?
        .ok_or_else(|| not_found(&channel))?;
    let view = game::finished_view(
        archived.header,
        archived.start_board,
        archived.start_ply,
        archived.moves,
        archived.result,
    );
    outbox.ack(id);
    outbox.send(&ServerMessage::ChannelSnapshot(ChannelSnapshot {
        channel,
        v: 0,
        kind: ChannelKind::OnDemand,
        game: Some(view),
        next_game_in_ms: None,
    }));
    Ok(())
}

fn not_found(channel: &str) -> Refusal {
    Refusal::new(
        ErrorCode::NotFound,
        format!("no channel or archived game {channel}"),
    )
    .with(ErrorArgs::new("no_channel").word("channel", channel))
}

fn internal(err: StorageError) -> Refusal {
    tracing::error!(%err, "channel storage read failed");
    Refusal::storage(&err, "cannot read the archive")
}
