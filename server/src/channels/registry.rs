//! The channel directory: starts the TV channels, starts on-demand games, finds a channel by
//! id and lists them for the lobby. It only finds channels; each is changed by its own actor.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use boardcast_protocol::{ChannelKind, ChannelSummary, ErrorArgs, ErrorCode, StartEngineGame};
use tokio::sync::mpsc;

use super::actor::{self, ChannelHandle, ChannelSetup, Program, Upstream, UpstreamOf};
use super::archive::Archiving;
use super::game::GameSpec;
use super::game_ids::GameIds;
use super::schedule::WallClock;
use crate::ops::lock;
use crate::ops::shutdown::Shutdown;
use crate::refusal::Refusal;

/// How the channels run.
#[derive(Debug, Clone)]
pub struct ChannelsConfig {
    /// One entry per TV channel (`tv1`, `tv2`, …): its time between reveals.
    pub tv_intervals: Vec<Duration>,
    /// Time between reveals of on-demand games that do not choose one.
    pub default_interval: Duration,
    /// Pause between two games of a TV channel.
    pub pause: Duration,
    /// How long a finished on-demand game stays watchable.
    pub linger: Duration,
    /// Events each channel keeps for replay to reconnecting watchers.
    pub replay: usize,
    /// Most on-demand games running at once.
    pub max_on_demand: usize,
    /// Seed of the TV channels' random games; `None` draws one.
    pub seed: Option<u64>,
}

impl Default for ChannelsConfig {
    fn default() -> Self {
        ChannelsConfig {
            tv_intervals: vec![Duration::from_secs(2); 2],
            default_interval: Duration::from_secs(2),
            pause: Duration::from_secs(10),
            linger: Duration::from_secs(300),
            replay: 512,
            max_on_demand: 256,
            seed: None,
        }
    }
}

/// The running channels; cheap to clone.
#[derive(Debug, Clone)]
pub struct Registry {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ChannelsConfig,
    channels: Mutex<BTreeMap<String, ChannelHandle>>,
    game_ids: GameIds,
    archive: mpsc::Sender<Archiving>,
    shutdown: Shutdown,
    /// The version before every channel's first event in this server run.
    first_version: u64,
    /// One conversion between timers and wall-clock time for every channel of this run.
    clock: WallClock,
}

impl Registry {
    /// Starts the TV channels. Archive ids start at `first_game_id`; every channel numbers
    /// its events from `first_version + 1` (see [`super::archive::RUN_VERSIONS`]); finished
    /// games come out of the returned receiver until every channel has stopped.
    pub fn start(
        config: ChannelsConfig,
        first_game_id: u64,
        first_version: u64,
        shutdown: Shutdown,
    ) -> (Registry, mpsc::Receiver<Archiving>) {
        let game_ids = GameIds::local(first_game_id);
        Registry::start_with(config, game_ids, first_version, shutdown, None)
    }

    /// [`Registry::start`] on a node of a cluster: every TV channel starts by following its
    /// owner through `upstream(name)`, until this node takes it over.
    pub fn start_following(
        config: ChannelsConfig,
        game_ids: GameIds,
        first_version: u64,
        shutdown: Shutdown,
        upstream: &UpstreamOf<'_>,
    ) -> (Registry, mpsc::Receiver<Archiving>) {
        Registry::start_with(config, game_ids, first_version, shutdown, Some(upstream))
    }

    fn start_with(
        config: ChannelsConfig,
        game_ids: GameIds,
        first_version: u64,
        shutdown: Shutdown,
        upstream: Option<&UpstreamOf<'_>>,
    ) -> (Registry, mpsc::Receiver<Archiving>) {
        let (archive, finished) = super::archive::queue();
        let base_seed = config.seed.unwrap_or_else(rand::random);
        let registry = Registry {
            inner: Arc::new(Inner {
                channels: Mutex::new(BTreeMap::new()),
                game_ids,
                archive,
                shutdown,
                first_version,
                clock: WallClock::now(),
                config,
            }),
        };
        for (index, interval) in registry.inner.config.tv_intervals.iter().enumerate() {
            let program = Program::Tv {
                interval: *interval,
                pause: registry.inner.config.pause,
                seed: base_seed.wrapping_add(index as u64),
            };
            let name = format!("tv{}", index + 1);
            let upstream = upstream.map(|upstream| upstream(&name));
            registry.spawn(name, program, upstream);
        }
        (registry, finished)
    }

    /// The names of the TV channels (the same on every node of a cluster).
    pub fn tv_names(&self) -> Vec<String> {
        (1..=self.inner.config.tv_intervals.len())
            .map(|n| format!("tv{n}"))
            .collect()
    }

    /// The conversion between timers and wall-clock time every channel of this run uses.
    pub fn clock(&self) -> WallClock {
        self.inner.clock
    }

    fn spawn(&self, channel: String, program: Program, upstream: Option<Arc<dyn Upstream>>) {
        let setup = ChannelSetup {
            channel: channel.clone(),
            program,
            replay: self.inner.config.replay,
            first_version: self.inner.first_version,
            game_ids: self.inner.game_ids.clone(),
            archive: self.inner.archive.clone(),
            clock: self.inner.clock,
            saver: None,
            resume: None,
            downstream: None,
            upstream,
        };
        let handle = actor::spawn(setup, self.inner.shutdown.clone());
        self.lock().insert(channel, handle);
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<String, ChannelHandle>> {
        // Held only for plain inserts, removals and lookups: a poisoned map is still whole.
        lock(&self.inner.channels)
    }

    /// The running channel `channel`.
    pub fn get(&self, channel: &str) -> Option<ChannelHandle> {
        let mut channels = self.lock();
        match channels.get(channel) {
            Some(handle) if handle.is_closed() => {
                channels.remove(channel);
                None
            }
            found => found.cloned(),
        }
    }

    /// Every running channel.
    pub fn all(&self) -> Vec<ChannelHandle> {
        let mut channels = self.lock();
        channels.retain(|_, handle| !handle.is_closed());
        channels.values().cloned().collect()
    }

    /// The channels as the lobby lists them: TV channels first, then on-demand games.
    pub fn summaries(&self) -> Vec<ChannelSummary> {
        let mut summaries: Vec<ChannelSummary> =
            self.all().iter().map(ChannelHandle::summary).collect();
        summaries.sort_by_key(|s| {
            (
                s.kind != ChannelKind::Tv,
                s.channel.len(),
                s.channel.clone(),
            )
        });
        summaries
    }

    /// Starts the on-demand game a client asked for; returns its channel id.
    pub fn start_game(&self, request: &StartEngineGame) -> Result<String, Refusal> {
        let spec =
            GameSpec::from_request(request, self.inner.config.default_interval).map_err(|err| {
                Refusal::new(ErrorCode::InvalidArgument, err.to_string())
                    .with(ErrorArgs::new("invalid_field").word("field", err.field()))
            })?;
        self.refuse_live_tv_game(&spec)?;
        let tv = self.inner.config.tv_intervals.len();
        let on_demand = self.all().len().saturating_sub(tv);
        if on_demand >= self.inner.config.max_on_demand {
            return Err(Refusal::new(
                ErrorCode::Busy,
                format!("{on_demand} engine games are running; try again later"),
            )
            .with(ErrorArgs::new("engine_games").number("count", on_demand as u64)));
        }
        let game_id = self.inner.game_ids.next().ok_or_else(|| {
            Refusal::new(
                ErrorCode::Busy,
                "engine-game ids are being drawn; try again in a moment",
            )
            .with(ErrorArgs::new("drawing_ids"))
        })?;
        let channel = format!("g{game_id}");
        let program = Program::OnDemand {
            spec,
            game_id,
            linger: self.inner.config.linger,
        };
        self.spawn(channel.clone(), program, None);
        Ok(channel)
    }

    /// Refuses to start the game a TV channel is playing right now: the engines are
    /// deterministic, so the copy would reveal the TV game's plies before the channel does
    /// (at once up to `reveal_from_ply`, and ahead of it at a shorter interval).
    fn refuse_live_tv_game(&self, spec: &GameSpec) -> Result<(), Refusal> {
        let (serial, white, black) = (
            spec.serial.to_string(),
            spec.white.to_string(),
            spec.black.to_string(),
        );
        let live = self
            .all()
            .into_iter()
            .map(|handle| handle.summary())
            .find(|summary| {
                summary.kind == ChannelKind::Tv
                    && summary.game.as_ref().is_some_and(|game| {
                        (&game.serial, &game.white, &game.black) == (&serial, &white, &black)
                    })
            });
        match live {
            Some(summary) => Err(Refusal::new(
                ErrorCode::NotAllowed,
                format!(
                    "{serial} {white} against {black} is being played live on {}: it can be \
                     started once that game has ended (watch {} meanwhile)",
                    summary.channel, summary.channel
                ),
            )
            .with(
                ErrorArgs::new("played_live")
                    .word("serial", serial.to_string())
                    .word("white", white.to_string())
                    .word("black", black.to_string())
                    .word("channel", summary.channel.as_str()),
            )),
            None => Ok(()),
        }
    }
}
