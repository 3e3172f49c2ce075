//! MinitChess channels: TV channels and on-demand engine games, predictions, leaderboard.
//!
//! Each channel is one actor task ([`actor`]) that reveals one ply exactly at each reveal time
//! and never holds a future ply ([`game`]); [`registry`] starts, finds and lists them. This
//! module is the entry point the connection dispatch calls for every channel-related client
//! message.

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

use boardcast_protocol::{
    ChannelKind, ChannelSnapshot, ChannelSummary, ErrorCode, GameCreated, Leaderboard,
    LeaderboardQuery, Predict, ServerMessage, StartEngineGame,
};

pub(crate) use actor::ChannelHandle;
use game_ids::GameIds;
pub(crate) use registry::{ChannelsConfig, Registry};

use crate::net::address::ClientAddr;
use crate::ops::shutdown::{Shutdown, Tasks};
use crate::refusal::Refusal;
use crate::room::outbox::Outbox;
use crate::storage::{Storage, StorageError};

/// The most leaderboard entries one query returns.
pub(crate) const MAX_LEADERBOARD: u32 = 100;

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
#[derive(Debug, Clone)]
pub struct Channels {
    registry: Registry,
    /// For the archive's reads: the leaderboard and archived games.
    storage: Storage,
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
            storage: storage.clone(),
        })
    }

    /// The running channels.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// Answers envelope `id` carrying `request` on `outbox`: with an ack (a watch's ack comes
    /// before its snapshot), a [`GameCreated`], a [`Leaderboard`] or a typed error. Returns
    /// whether it was carried out (false after an error reply).
    pub async fn handle(&self, outbox: &Outbox, id: u64, request: ChannelRequest) -> bool {
        let result = match request {
            ChannelRequest::Watch { channel, since_v } => {
                self.watch(outbox, id, &channel, since_v).await
            }
            ChannelRequest::Unwatch { channel } => match self.registry.get(&channel) {
                Some(handle) => handle.unwatch(outbox.id()).await.map(|_| outbox.ack(id)),
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
                Some(handle) => handle
                    .predict(
                        outbox.clone(),
                        client,
                        &name,
                        predict.ply,
                        &predict.from,
                        &predict.to,
                    )
                    .await
                    .map(|()| outbox.ack(id)),
                None => Err(not_found(&predict.channel)),
            },
            ChannelRequest::Leaderboard(query) => {
                let limit = query.limit.min(MAX_LEADERBOARD);
                match self.storage.leaderboard(limit).await {
                    Ok(entries) => {
                        outbox.send(&ServerMessage::Leaderboard(Leaderboard { id, entries }));
                        Ok(())
                    }
                    Err(err) => Err(internal(err)),
                }
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

    /// A live channel, or else an archived game `g<id>` replayed as a finished snapshot.
    async fn watch(
        &self,
        outbox: &Outbox,
        id: u64,
        channel: &str,
        since_v: Option<u64>,
    ) -> Result<(), Refusal> {
        if let Some(handle) = self.registry.get(channel) {
            return handle.watch(outbox.clone(), since_v, Some(id)).await;
        }
        let game_id = channel
            .strip_prefix('g')
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| not_found(channel))?;
        let archived = self
            .storage
            .archived_game(game_id)
            .await
            .map_err(internal)?
            .ok_or_else(|| not_found(channel))?;
        let view = game::finished_view(
            archived.header,
            archived.start_board,
            archived.start_ply,
            archived.moves,
            archived.result,
        );
        outbox.ack(id);
        outbox.send(&ServerMessage::ChannelSnapshot(ChannelSnapshot {
            channel: channel.to_owned(),
            v: 0,
            kind: ChannelKind::OnDemand,
            game: Some(view),
            next_game_in_ms: None,
        }));
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

fn not_found(channel: &str) -> Refusal {
    Refusal::new(
        ErrorCode::NotFound,
        format!("no channel or archived game {channel}"),
    )
}

fn internal(err: StorageError) -> Refusal {
    tracing::error!(%err, "channel storage read failed");
    Refusal::storage(&err, "cannot read the archive")
}
