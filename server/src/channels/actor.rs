//! The channel actor: one tokio task per channel, the single writer of everything about it.
//!
//! It reveals one ply exactly at each reveal time (stepping the game only then), versions and
//! fans out every event, answers watches with a snapshot or the missed events, books guesses
//! and scores them at each reveal, and hands finished games to the archive. A game's end is
//! published once the archive has stored the game and its scores, so the leaderboard asked
//! for on hearing it includes them. TV channels start a new random game after a pause; an
//! on-demand channel plays its one game, lingers for late watchers and then stops.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use boardcast_protocol::{
    ChannelEvent, ChannelEventMsg, ChannelKind, ChannelSnapshot, ChannelSummary, ErrorArgs,
    ErrorCode, GameEnded, PlyRevealed, ServerMessage, Target,
};

mod follow;
pub(crate) use follow::{Downstream, Guess, Upstream, UpstreamOf};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::{Instant, sleep_until};

use super::archive::{ArchiveRecord, Archiving, FinishedGame, StartedGame};
use super::game::{GameSpec, RevealedGame};
use super::game_ids::GameIds;
use super::predict::Book;
use super::schedule::{Planned, Resume, SavedChannel, WallClock};
use crate::ops::shutdown::Shutdown;
use crate::ops::telemetry::{self, RevealStage};
use crate::refusal::Refusal;
use crate::room::fanout::{Catchup, Fanout};
use crate::room::outbox::{ConnId, Outbox};

/// Crowd counts are sent at most this often.
const CROWD_EVERY: Duration = Duration::from_millis(500);
/// How soon a TV channel that got no archive id for its next game tries again.
const PLAN_AGAIN: Duration = Duration::from_secs(1);
/// Commands queued per channel before senders wait.
const COMMANDS: usize = 1024;
/// The longest a game's end waits for its scores to be stored: a database that is slow or
/// restarting (the archive tries again for a minute) must not hold up the channel.
const STORE_PATIENCE: Duration = Duration::from_secs(2);

/// The refusal for a request to a channel whose task has ended.
fn gone(channel: &str) -> Refusal {
    Refusal::new(ErrorCode::NotFound, format!("channel {channel} has closed"))
        .with(ErrorArgs::new("channel_closed").word("channel", channel))
}

/// What a channel plays.
#[derive(Debug)]
pub(crate) enum Program {
    /// Random games forever, `pause` apart, drawn from `seed`.
    Tv {
        interval: Duration,
        pause: Duration,
        seed: u64,
    },
    /// One game with archive id `game_id`, then `linger` for late watchers.
    OnDemand {
        spec: GameSpec,
        game_id: u64,
        linger: Duration,
    },
}

/// How to start a channel actor.
#[derive(Debug)]
pub(crate) struct ChannelSetup {
    pub channel: String,
    pub program: Program,
    /// Events kept for replay.
    pub replay: usize,
    /// The version before the channel's first event: never 0 after a restart, so versions a
    /// client saw before it are never used again for other events.
    pub first_version: u64,
    /// Hands out archive ids.
    pub game_ids: GameIds,
    /// Started and finished games go here.
    pub archive: mpsc::Sender<Archiving>,
    /// Converts the schedule to and from wall-clock time for saving.
    pub clock: WallClock,
    /// Where the schedule is saved (a channel owned in a cluster); `None` on a single node.
    pub saver: Option<Saver>,
    /// Where to pick up a schedule another node started; `None` starts afresh.
    pub resume: Option<Resume>,
    /// Where every versioned event also goes (to the other nodes, from a channel's owner).
    pub downstream: Option<Arc<dyn Downstream>>,
    /// Set on a node that does not own the channel: the actor then reveals nothing itself,
    /// shows what the owner relays, and hands guesses to the owner through it.
    pub upstream: Option<Arc<dyn Upstream>>,
}

/// The channel's end of the task that saves its schedule ([`SavedChannel`]) for a node that
/// may take it over.
#[derive(Debug)]
pub struct Saver {
    /// The newest schedule to save; the saving task only ever needs the newest.
    pub latest: watch::Sender<Option<SavedChannel>>,
    /// The `start_v` of the newest schedule durably saved. A planned game starts only once
    /// it is saved, so a node taking over can never choose another game for versions that
    /// watchers have already seen.
    pub durable: watch::Receiver<u64>,
}

/// Where the answer to a request goes once the channel has decided it: the asking
/// connection's outbox (an ack or a refusal of its envelope, see [`envelope`]), or the node
/// that forwarded a guess. Nobody waits for it: the asker's read loop has moved on.
pub(crate) type Answer<T = ()> = Box<dyn FnOnce(Result<T, Refusal>) + Send>;

/// The answer to envelope `id` on `outbox`: an ack, or the refusal.
pub(crate) fn envelope<T>(outbox: Outbox, id: u64) -> Answer<T> {
    Box::new(move |result| match result {
        Ok(_) => outbox.ack(id),
        Err(refusal) => outbox.refuse(id, refusal),
    })
}

enum Command {
    /// Answered (before the snapshot or missed events) when the watcher is added.
    Watch {
        outbox: Outbox,
        since_v: Option<u64>,
        answer: Option<Answer>,
    },
    /// Answered with whether the connection was watching.
    Unwatch {
        conn: ConnId,
        answer: Option<Answer<bool>>,
    },
    Predict {
        guess: Guess,
        answer: Answer,
    },
    /// An event the owner published (a following channel shows it).
    Relayed(ChannelEventMsg),
    /// The owner's snapshot: a following channel starts over from it.
    Synced(ChannelSnapshot),
    /// This node owns the channel now: run it from `resume` (or afresh), save through `saver`
    /// and publish to `downstream`.
    Promote {
        resume: Option<Resume>,
        saver: Saver,
        downstream: Arc<dyn Downstream>,
    },
    /// Another node owns the channel now: stop revealing and follow it through `upstream`.
    Demote {
        upstream: Arc<dyn Upstream>,
    },
    /// The channel as a watcher would see it now.
    Snapshot {
        done: oneshot::Sender<ChannelSnapshot>,
    },
    /// To the owner: node `from` has `watchers` watchers of the channel now.
    CrowdElsewhere {
        from: String,
        watchers: u32,
    },
    /// To a follower: the whole cluster has this many watchers of the channel.
    CrowdTotal(u32),
}

/// A cheap handle on a running channel.
#[derive(Debug, Clone)]
pub struct ChannelHandle {
    channel: String,
    tx: mpsc::Sender<Command>,
    summary: watch::Receiver<ChannelSummary>,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Command::Watch { .. } => "Watch",
            Command::Unwatch { .. } => "Unwatch",
            Command::Predict { .. } => "Predict",
            Command::Relayed(_) => "Relayed",
            Command::Synced(_) => "Synced",
            Command::Promote { .. } => "Promote",
            Command::Demote { .. } => "Demote",
            Command::Snapshot { .. } => "Snapshot",
            Command::CrowdElsewhere { .. } => "CrowdElsewhere",
            Command::CrowdTotal(_) => "CrowdTotal",
        })
    }
}

impl ChannelHandle {
    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// The channel as the lobby lists it.
    pub fn summary(&self) -> ChannelSummary {
        self.summary.borrow().clone()
    }

    /// Whether the actor has stopped.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Starts sending the channel to `outbox`: `answer` (the ack of the watch, before
    /// anything else), a snapshot (or the events after `since_v`), then every event. Never
    /// waits: a channel that cannot take the request now refuses it through `answer`.
    pub fn watch(&self, outbox: Outbox, since_v: Option<u64>, answer: Option<Answer>) {
        self.ask(Command::Watch {
            outbox,
            since_v,
            answer,
        });
    }

    /// Stops sending to connection `conn`; `answer` hears whether it was watching.
    pub fn unwatch(&self, conn: ConnId, answer: Answer<bool>) {
        self.ask(Command::Unwatch {
            conn,
            answer: Some(answer),
        });
    }

    /// Forgets connection `conn` without an answer (it has closed).
    pub fn forget(&self, conn: ConnId) {
        let _ = self.tx.try_send(Command::Unwatch { conn, answer: None });
    }

    /// Books `guess` (its result later goes to `guess.outbox`); `answer` hears the verdict.
    pub fn predict(&self, guess: Guess, answer: Answer) {
        for square in [&guess.from, &guess.to] {
            if square.parse::<minitchess::Square>().is_err() {
                return answer(Err(Refusal::new(
                    ErrorCode::InvalidArgument,
                    format!("{square:?} is not a square (a1 to e6)"),
                )
                .with(
                    ErrorArgs::new("not_a_minit_square").word("square", square.as_str()),
                )));
            }
        }
        self.ask(Command::Predict { guess, answer });
    }

    /// Shows an event the owner published; `false` if the channel could not take it now
    /// (then it should be synced again).
    pub fn relayed(&self, event: ChannelEventMsg) -> bool {
        self.tx.try_send(Command::Relayed(event)).is_ok()
    }

    /// Starts a following channel over from the owner's `snapshot`.
    pub fn synced(&self, snapshot: ChannelSnapshot) -> bool {
        self.tx.try_send(Command::Synced(snapshot)).is_ok()
    }

    /// Makes this node's actor the channel's owner (see [`Command::Promote`]).
    pub async fn promote(
        &self,
        resume: Option<Resume>,
        saver: Saver,
        downstream: Arc<dyn Downstream>,
    ) -> Result<(), Refusal> {
        self.send(Command::Promote {
            resume,
            saver,
            downstream,
        })
        .await
    }

    /// Makes this node's actor follow the channel's new owner.
    pub async fn demote(&self, upstream: Arc<dyn Upstream>) -> Result<(), Refusal> {
        self.send(Command::Demote { upstream }).await
    }

    /// Tells the owner how many watchers node `from` has (see [`Command::CrowdElsewhere`]).
    pub fn crowd_elsewhere(&self, from: String, watchers: u32) -> bool {
        self.tx
            .try_send(Command::CrowdElsewhere { from, watchers })
            .is_ok()
    }

    /// Tells a follower how many watch in the whole cluster.
    pub fn crowd_total(&self, watchers: u32) -> bool {
        self.tx.try_send(Command::CrowdTotal(watchers)).is_ok()
    }

    /// The channel as a watcher would see it now.
    pub async fn snapshot(&self) -> Result<ChannelSnapshot, Refusal> {
        let (done, answer) = oneshot::channel();
        self.send(Command::Snapshot { done }).await?;
        answer.await.map_err(|_| gone(&self.channel))
    }

    async fn send(&self, command: Command) -> Result<(), Refusal> {
        self.tx.send(command).await.map_err(|_| gone(&self.channel))
    }

    /// Hands a request to the actor without waiting: a full mailbox or a stopped channel
    /// refuses it through its answer, as a match's mailbox does.
    fn ask(&self, command: Command) {
        let (command, refusal) = match self.tx.try_send(command) {
            Ok(()) => return,
            Err(mpsc::error::TrySendError::Full(command)) => (
                command,
                Refusal::new(
                    ErrorCode::Busy,
                    format!("channel {} is busy; try again", self.channel),
                )
                .with(ErrorArgs::new("channel_busy").word("channel", self.channel.as_str())),
            ),
            Err(mpsc::error::TrySendError::Closed(command)) => (command, gone(&self.channel)),
        };
        match command {
            Command::Watch {
                answer: Some(answer),
                ..
            }
            | Command::Predict { answer, .. } => answer(Err(refusal)),
            Command::Unwatch {
                answer: Some(answer),
                ..
            } => answer(Err(refusal)),
            _ => {}
        }
    }
}

/// The request methods awaited, for tests that look at the outbox once the channel has
/// carried a request out.
#[cfg(test)]
impl ChannelHandle {
    pub async fn watched(&self, outbox: Outbox, since_v: Option<u64>) -> Result<(), Refusal> {
        let (answer, answered) = answered();
        self.watch(outbox, since_v, Some(answer));
        answered.await.map_err(|_| gone(&self.channel))?
    }

    pub async fn unwatched(&self, conn: ConnId) -> Result<bool, Refusal> {
        let (answer, answered) = answered();
        self.unwatch(conn, answer);
        answered.await.map_err(|_| gone(&self.channel))?
    }

    pub async fn predicted(
        &self,
        outbox: Outbox,
        client: crate::net::address::ClientAddr,
        name: &str,
        ply: u32,
        from: &str,
        to: &str,
    ) -> Result<(), Refusal> {
        let (answer, answered) = answered();
        let guess = Guess {
            outbox,
            client,
            name: name.to_owned(),
            ply,
            from: from.to_owned(),
            to: to.to_owned(),
        };
        self.predict(guess, answer);
        answered.await.map_err(|_| gone(&self.channel))?
    }
}

/// An answer that goes to a oneshot.
#[cfg(test)]
fn answered<T: Send + 'static>() -> (Answer<T>, oneshot::Receiver<Result<T, Refusal>>) {
    let (tx, rx) = oneshot::channel();
    (
        Box::new(move |result| {
            let _ = tx.send(result);
        }),
        rx,
    )
}

/// Starts a channel actor; it runs until its program ends or `shutdown` fires.
pub(crate) fn spawn(setup: ChannelSetup, shutdown: Shutdown) -> ChannelHandle {
    let (tx, rx) = mpsc::channel(COMMANDS);
    let kind = match setup.program {
        Program::Tv { .. } => ChannelKind::Tv,
        Program::OnDemand { .. } => ChannelKind::OnDemand,
    };
    let (summary_tx, summary) = watch::channel(ChannelSummary {
        channel: setup.channel.clone(),
        kind,
        game: None,
        watchers: 0,
    });
    let handle = ChannelHandle {
        channel: setup.channel.clone(),
        tx,
        summary,
    };
    let actor = Actor::new(setup, kind, summary_tx);
    tokio::spawn(actor.run(rx, shutdown));
    handle
}

/// What this node does with a channel: it runs it, or (in a cluster) shows what the node
/// that runs it publishes. [`Actor::promote`] and [`Actor::demote`] switch between the two.
enum Mode {
    /// Reveals, books guesses and archives games. In a cluster it also saves each planned
    /// game through `saver` for a node that may take over, publishes every event to
    /// `downstream`, and counts the watchers the following nodes report in `crowds`.
    Owner {
        saver: Option<Saver>,
        downstream: Option<Arc<dyn Downstream>>,
        /// How many watchers each following node has.
        crowds: HashMap<String, u32>,
    },
    /// Reveals nothing: shows what the owner publishes, with the owner's versions, and hands
    /// guesses to it through `upstream`.
    Follower {
        upstream: Arc<dyn Upstream>,
        /// When the owner said the next reveal (or game) comes, for snapshots.
        expected: Option<Instant>,
        /// Relayed events not shown yet: it waits for the owner's snapshot.
        held: Vec<ChannelEventMsg>,
    },
}

impl Mode {
    fn following(upstream: Arc<dyn Upstream>) -> Mode {
        Mode::Follower {
            upstream,
            expected: None,
            held: Vec::new(),
        }
    }

    fn is_following(&self) -> bool {
        matches!(self, Mode::Follower { .. })
    }

    /// Where an owner in a cluster saves its schedule.
    fn saver(&self) -> Option<&Saver> {
        match self {
            Mode::Owner { saver, .. } => saver.as_ref(),
            Mode::Follower { .. } => None,
        }
    }
}

struct Actor {
    channel: String,
    kind: ChannelKind,
    program: Program,
    rng: StdRng,
    game_ids: GameIds,
    archive: mpsc::Sender<Archiving>,
    summary: watch::Sender<ChannelSummary>,
    v: u64,
    fanout: Fanout,
    book: Book,
    game: Option<RevealedGame>,
    next_reveal: Option<Instant>,
    next_game: Option<Planned>,
    /// A finished game whose end waits for its scores to be stored.
    ending: Option<Ending>,
    /// A game that should start at `.0` but has no archive id yet: planned again at `.1`.
    unplanned: Option<(Instant, Instant)>,
    close_at: Option<Instant>,
    clock: WallClock,
    /// Whether this node runs the channel or shows what another node runs.
    mode: Mode,
    /// The count last shared: a follower's own watchers (told to the owner), or the owner's
    /// total (told to the followers).
    crowd_shared: Option<u32>,
    /// This run's first version ([`ChannelSetup::first_version`]): a follower shows the
    /// owner's versions, and uses its own only if it must start the channel afresh.
    first_version: u64,
}

impl Actor {
    fn new(setup: ChannelSetup, kind: ChannelKind, summary: watch::Sender<ChannelSummary>) -> Self {
        let seed = match &setup.program {
            Program::Tv { seed, .. } => *seed,
            Program::OnDemand { .. } => 0,
        };
        let fanout = Fanout::new(
            setup.replay,
            Target::Channel(setup.channel.clone()),
            CROWD_EVERY,
        );
        let mut actor = Actor {
            channel: setup.channel,
            kind,
            program: setup.program,
            rng: StdRng::seed_from_u64(seed),
            game_ids: setup.game_ids,
            archive: setup.archive,
            summary,
            v: setup.first_version,
            fanout,
            book: Book::default(),
            game: None,
            next_reveal: None,
            next_game: None,
            ending: None,
            unplanned: None,
            close_at: None,
            clock: setup.clock,
            mode: match setup.upstream {
                Some(upstream) => Mode::following(upstream),
                None => Mode::Owner {
                    saver: setup.saver,
                    downstream: setup.downstream,
                    crowds: HashMap::new(),
                },
            },
            first_version: setup.first_version,
            crowd_shared: None,
        };
        // The fan-out's last version is the newest this node's watchers were sent: a node
        // that takes a channel over may publish again what it had relayed, and its own
        // watchers must not get it twice.
        if actor.mode.is_following() {
            // The owner's versions, whatever they are, come next.
            actor.v = 0;
            actor.fanout.restart_at(0);
        } else {
            actor.fanout.restart_at(setup.first_version);
            actor.resume(setup.resume);
        }
        actor
    }

    /// Takes up the schedule `resume`, or plans a game now without one.
    fn resume(&mut self, resume: Option<Resume>) {
        let actor = self;
        match resume {
            None => actor.plan_at(Instant::now()),
            Some(Resume::Before(planned)) => {
                actor.v = planned.start_v.saturating_sub(1);
                actor.next_game = Some(planned);
            }
            Some(Resume::During {
                game,
                v,
                next_reveal,
            }) => {
                actor.v = v;
                actor.game = Some(*game);
                actor.next_reveal = Some(next_reveal);
            }
            Some(Resume::After { v, ended_at }) => {
                actor.v = v;
                actor.after_game(ended_at);
            }
        }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut shutdown: Shutdown) {
        // A game due now starts before any command is read (timers round up to the next
        // millisecond, so the select below would read a watch first).
        self.publish_summary();
        if !self.on_time(Instant::now()) {
            return;
        }
        loop {
            let deadline = [
                self.next_reveal,
                self.next_game_due(),
                self.unplanned.map(|(_, again)| again),
                self.close_at,
                self.fanout.crowd_due(),
            ]
            .into_iter()
            .flatten()
            .min();
            tokio::select! {
                biased;
                _ = shutdown.recv() => break,
                // Timers first: a guess that arrives once its ply's time has come is late.
                _ = sleep_until_some(deadline) => {
                    if !self.on_time(Instant::now()) {
                        break;
                    }
                }
                // A planned game may be waiting for its schedule to be saved.
                _ = saved(&mut self.mode) => {}
                _ = stored(&mut self.ending) => self.publish_end(),
                command = rx.recv() => match command {
                    Some(command) => self.handle(command),
                    None => break,
                },
            }
        }
        tracing::debug!(channel = %self.channel, "channel stopped");
    }

    /// Runs everything that is due; `false` when the channel should stop.
    fn on_time(&mut self, now: Instant) -> bool {
        if let Some(at) = self.next_reveal.filter(|at| *at <= now) {
            self.reveal(at);
        }
        if let Some((wanted, _)) = self.unplanned.filter(|(_, again)| *again <= now) {
            self.unplanned = None;
            self.plan_at(wanted.max(now));
        }
        if self.next_game_due().is_some_and(|at| at <= now)
            && let Some(planned) = self.next_game.take()
        {
            self.start_game(planned);
        }
        if self.fanout.crowd_due().is_some_and(|at| at <= now) {
            self.fanout.prune_closed();
            self.fanout.send_crowd();
            self.publish_summary();
        }
        self.close_at.is_none_or(|at| at > now)
    }

    fn handle(&mut self, command: Command) {
        match command {
            Command::Watch {
                outbox,
                since_v,
                answer,
            } => {
                if let Some(answer) = answer {
                    answer(Ok(()));
                }
                let sent = match since_v.map(|since| self.fanout.catchup(since, self.v)) {
                    Some(Catchup::Events(events)) => {
                        events.iter().all(|event| outbox.send_shared(event))
                    }
                    Some(Catchup::Snapshot) | None => {
                        outbox.send(&ServerMessage::ChannelSnapshot(self.snapshot()))
                    }
                };
                if sent {
                    let newcomer = outbox.clone();
                    self.fanout.insert(outbox, ());
                    if !self.crowd_changed() {
                        self.fanout.tell_crowd(&newcomer);
                    }
                }
            }
            Command::Unwatch { conn, answer } => {
                let was = self.fanout.remove(conn).is_some();
                if was {
                    self.crowd_changed();
                }
                if let Some(answer) = answer {
                    answer(Ok(was));
                }
            }
            Command::Predict { guess, answer } => {
                if let Mode::Follower { upstream, .. } = &self.mode {
                    return upstream.predict(guess, answer);
                }
                let verdict = self.check_guess(guess.ply, &guess.from, &guess.to);
                if verdict.is_ok() {
                    self.book.guess(
                        guess.outbox,
                        guess.client,
                        &guess.name,
                        &guess.from,
                        &guess.to,
                    );
                }
                answer(verdict);
            }
            Command::Relayed(event) => self.follow(event),
            Command::Synced(snapshot) => self.sync(snapshot),
            Command::Promote {
                resume,
                saver,
                downstream,
            } => self.promote(resume, saver, downstream),
            Command::Demote { upstream } => self.demote(upstream),
            Command::Snapshot { done } => {
                let _ = done.send(self.snapshot());
            }
            Command::CrowdElsewhere { from, watchers } => self.crowd_elsewhere(from, watchers),
            Command::CrowdTotal(watchers) => self.crowd_total(watchers),
        }
    }

    fn check_guess(&self, ply: u32, from: &str, to: &str) -> Result<(), Refusal> {
        let Some(game) = &self.game else {
            return Err(Refusal::new(
                ErrorCode::NotAllowed,
                format!("no game is running on {} right now", self.channel),
            )
            .with(ErrorArgs::new("no_game_running").word("channel", self.channel.as_str())));
        };
        let next = game.next_ply();
        if ply < next {
            return Err(Refusal::new(
                ErrorCode::PredictionClosed,
                format!("ply {ply} is already revealed; the coming ply is {next}"),
            )
            .with(
                ErrorArgs::new("already_revealed")
                    .number("ply", ply)
                    .number("next", next),
            ));
        }
        if game.is_over() {
            return Err(Refusal::new(ErrorCode::GameOver, "the game is over")
                .with(ErrorArgs::new("game_over")));
        }
        if ply > next {
            return Err(Refusal::new(
                ErrorCode::PredictionClosed,
                format!("ply {ply} is not the coming one; the coming ply is {next}"),
            )
            .with(
                ErrorArgs::new("not_coming")
                    .number("ply", ply)
                    .number("next", next),
            ));
        }
        let mv = format!("{from}-{to}");
        if !game.is_legal(&mv) {
            // Refused, not recorded: a guess that cannot happen is no strike.
            return Err(Refusal::new(
                ErrorCode::IllegalPrediction,
                format!(
                    "{mv} is not a legal move for {} before ply {next}",
                    game.side_to_move()
                ),
            )
            .with(
                ErrorArgs::new("not_legal")
                    .number("next", next)
                    .word("move", mv.as_str())
                    .word("side", game.side_to_move().to_string()),
            ));
        }
        Ok(())
    }

    /// Counts the watchers again (the count goes out as the fan-out's throttle allows);
    /// `true` if it changed.
    fn crowd_changed(&mut self) -> bool {
        self.fanout.prune_closed();
        let changed = self.fanout.crowd_changed();
        if changed {
            self.publish_summary();
            self.share_crowd();
        }
        changed
    }

    /// Plans the next game of the program, to start at `at`, and saves its schedule; without
    /// an archive id to give it (a cluster's sequence out of reach), tries again shortly.
    fn plan_at(&mut self, at: Instant) {
        let (game_id, spec) = match &mut self.program {
            Program::Tv { interval, .. } => {
                let Some(game_id) = self.game_ids.next() else {
                    self.unplanned = Some((at, Instant::now() + PLAN_AGAIN));
                    return;
                };
                let interval = *interval;
                let rng = &mut self.rng;
                let spec = GameSpec::random(&mut |n: u32| rng.random_range(0..n), interval);
                (game_id, spec)
            }
            Program::OnDemand { spec, game_id, .. } => (*game_id, spec.clone()),
        };
        let planned = Planned {
            game_id,
            spec,
            at,
            start_v: self.v + 1,
        };
        self.save(&planned);
        self.next_game = Some(planned);
    }

    /// Hands the schedule of `planned` to the saver, if the channel has one.
    fn save(&self, planned: &Planned) {
        if let Some(saver) = self.mode.saver() {
            saver
                .latest
                .send_replace(Some(SavedChannel::of(planned, &self.clock)));
        }
    }

    /// When the planned game is due, once its schedule is durably saved.
    fn next_game_due(&self) -> Option<Instant> {
        let planned = self.next_game.as_ref()?;
        let saved = self
            .mode
            .saver()
            .is_none_or(|saver| *saver.durable.borrow() >= planned.start_v);
        saved.then_some(planned.at)
    }

    fn start_game(&mut self, planned: Planned) {
        let Planned {
            game_id, spec, at, ..
        } = planned;
        crate::ops::activity::record(|| {
            tracing::info!(channel = %self.channel, game = game_id, "engine game started");
        });
        let game = RevealedGame::start(game_id, spec);
        let interval = game.spec().ply_interval;
        self.book = Book::default();
        self.next_reveal = (!game.is_over()).then_some(at + interval);
        let view = game.view(Some(interval));
        let started = StartedGame {
            channel: self.channel.clone(),
            header: game.header().clone(),
            start_board: game.start_board().to_owned(),
            start_ply: game.start_ply(),
        };
        if let Err(err) = self
            .archive
            .try_send(Archiving::unawaited(ArchiveRecord::Started(started)))
        {
            tracing::warn!(channel = %self.channel, %err, "game id not reserved in the archive");
        }
        self.game = Some(game);
        // The directory knows the game is live (see `Registry::start_game`) before any
        // watcher hears of it.
        self.publish_summary();
        self.publish(ChannelEvent::GameStarted(view));
        if self.next_reveal.is_none() {
            self.end_game(at);
        }
        self.publish_summary();
    }

    fn reveal(&mut self, at: Instant) {
        self.next_reveal = None;
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let Some(ply) = game.reveal() else {
            return;
        };
        telemetry::reveal(RevealStage::Computed, at.elapsed());
        let interval = game.spec().ply_interval;
        let over = game.is_over();
        self.publish(ChannelEvent::PlyRevealed(PlyRevealed {
            ply: ply.ply,
            mv: ply.mv.clone(),
            board: ply.board,
            next_reveal_in_ms: (!over).then_some(interval.as_millis() as u64),
            legal: ply.legal,
        }));
        telemetry::reveal(RevealStage::Queued, at.elapsed());
        for scored in self.book.reveal(&self.channel, ply.ply, &ply.mv) {
            scored
                .outbox
                .send(&ServerMessage::PredictionResult(scored.result));
        }
        if over {
            self.end_game(at);
        } else {
            self.next_reveal = Some(at + interval);
        }
    }

    fn end_game(&mut self, at: Instant) {
        let Some(game) = &self.game else {
            return;
        };
        let Some(result) = game.result() else {
            return;
        };
        self.book.void_open();
        let standings = self.book.standings();
        let next_game_in = match &self.program {
            Program::Tv { pause, .. } => Some(*pause),
            Program::OnDemand { .. } => None,
        };
        let record = FinishedGame {
            channel: self.channel.clone(),
            header: game.header().clone(),
            start_board: game.start_board().to_owned(),
            start_ply: game.start_ply(),
            moves: game.moves().to_vec(),
            result: result.clone(),
            standings: standings.clone(),
        };
        let event = GameEnded {
            game_id: game.header().game_id,
            result,
            standings,
            next_game_in_ms: next_game_in.map(|d| d.as_millis() as u64),
        };
        let (stored, told) = oneshot::channel();
        let archiving = Archiving {
            record: ArchiveRecord::Finished(record),
            stored: Some(stored),
        };
        // Published once stored (or after STORE_PATIENCE): see `stored` in `run`.
        self.ending = Some(Ending {
            told,
            patience: Instant::now() + STORE_PATIENCE,
            event,
            at,
        });
        if let Err(err) = self.archive.try_send(archiving) {
            tracing::warn!(channel = %self.channel, %err, "finished game not archived");
            self.publish_end();
        }
    }

    /// Publishes the end of the game that has finished (its scores are stored, or waited for
    /// long enough), then goes on to what follows it.
    fn publish_end(&mut self) {
        let Some(Ending { event, at, .. }) = self.ending.take() else {
            return;
        };
        self.publish(ChannelEvent::GameEnded(event));
        self.after_game(at);
        self.publish_summary();
    }

    /// What follows a game that ended at `at`: a TV channel plans its next game after the
    /// pause; an on-demand channel lingers for late watchers.
    fn after_game(&mut self, at: Instant) {
        match &self.program {
            Program::Tv { pause, .. } => {
                let start = at + *pause;
                self.game = None;
                self.plan_at(start);
            }
            Program::OnDemand { linger, .. } => self.close_at = Some(at + *linger),
        }
    }

    fn publish(&mut self, event: ChannelEvent) {
        self.v += 1;
        let message = ServerMessage::ChannelEvent(ChannelEventMsg {
            channel: self.channel.clone(),
            v: self.v,
            event,
        });
        if let Mode::Owner {
            downstream: Some(downstream),
            ..
        } = &self.mode
        {
            downstream.event(self.v, &message);
        }
        self.show(self.v, message);
    }

    /// Sends event `v` to this node's watchers, unless they already have it; after skipped
    /// versions (a take-over, a lost relay) a watcher from before the gap gets a snapshot
    /// (the fan-out's [`crate::room::history::History`] decides both).
    fn show(&mut self, v: u64, message: ServerMessage) {
        if self.fanout.publish(v, message) > 0 {
            self.crowd_changed();
        }
    }

    fn snapshot(&self) -> ChannelSnapshot {
        let now = Instant::now();
        let until = |at: Option<Instant>| at.map(|at| at.saturating_duration_since(now));
        let (next_reveal, next_game) = match &self.mode {
            Mode::Follower { expected, .. } if self.game.is_some() => (*expected, None),
            Mode::Follower { expected, .. } => (None, *expected),
            Mode::Owner { .. } => (
                self.next_reveal,
                self.next_game.as_ref().map(|planned| planned.at),
            ),
        };
        ChannelSnapshot {
            channel: self.channel.clone(),
            v: self.v,
            kind: self.kind,
            game: self.game.as_ref().map(|game| game.view(until(next_reveal))),
            next_game_in_ms: until(next_game).map(|d| d.as_millis() as u64),
        }
    }

    fn publish_summary(&self) {
        self.summary.send_replace(ChannelSummary {
            channel: self.channel.clone(),
            kind: self.kind,
            game: self.game.as_ref().map(|game| game.header().clone()),
            watchers: self.fanout.watchers(),
        });
    }
}

/// A finished game's end, held until the archive has stored the game and its scores.
#[derive(Debug)]
struct Ending {
    /// Told (or dropped) by the archive once the game is stored.
    told: oneshot::Receiver<()>,
    /// When the end is published even without word from the archive.
    patience: Instant,
    event: GameEnded,
    /// When the game ended: what follows it is timed from here.
    at: Instant,
}

/// Completes when the held game end may be published: the archive stored the game (or gave
/// it up), or it took too long; never while no end is held.
async fn stored(ending: &mut Option<Ending>) {
    match ending {
        Some(ending) => {
            let _ = tokio::time::timeout_at(ending.patience, &mut ending.told).await;
        }
        None => std::future::pending().await,
    }
}

/// Completes when the saver reports another durable save, or never without a saver.
async fn saved(mode: &mut Mode) {
    match mode {
        Mode::Owner {
            saver: Some(saver), ..
        } => {
            if saver.durable.changed().await.is_err() {
                // The saving task is gone: nothing more will be saved.
                std::future::pending::<()>().await;
            }
        }
        _ => std::future::pending().await,
    }
}

/// Sleeps until `deadline`, or forever without one.
async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(at) => sleep_until(at).await,
        None => std::future::pending().await,
    }
}
