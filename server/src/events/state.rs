//! An event's state, rebuilt from its records, and what the director does next: pure, no I/O
//! and no clock (the time is handed in), so a replay on any node decides exactly the same.

use std::collections::{HashMap, HashSet};

use boardcast_pairing::arena_pairing::{self, Waiting};
use boardcast_pairing::arena_score::{ArenaGame, ArenaResult, ScoredGame, Sheet};
use boardcast_pairing::round_robin;
use boardcast_pairing::swiss::{GameResult, RoundRecord, Swiss, SwissConfig, SwissPlayer};
use boardcast_pairing::tiebreak::{self, Standing};
use boardcast_pairing::{Colour, PlayerId, Points};
use boardcast_protocol::{EndReason, MatchEvent, Side};

use super::record::{Board, EventRecord, EventSetup, Format, GameOutcome, Leaving};
use crate::matches::Record;
use crate::storage::StoredEvent;

/// Forfeits after which a Swiss player is withdrawn.
const FORFEITS_TO_WITHDRAW: u32 = 2;

/// The least time between two waves of an arena's pairings. Players who finish a game
/// within it wait together, so a wave has more than the two who just met to choose from
/// (lila pairs every few seconds for the same reason).
pub(crate) const ARENA_WAVE_MS: i64 = 2_000;

/// One line of an arena's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArenaStanding {
    pub account: i64,
    pub rank: u32,
    pub points: u32,
    pub rating: u32,
    /// The next game scores double.
    pub on_fire: bool,
    pub games: Vec<ScoredGame>,
}

/// A player of the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entrant {
    pub account: i64,
    pub name: String,
    pub rating: u32,
    pub withdrawn: bool,
    pub forfeits: u32,
    /// The id of the member's request that made their latest join or withdrawal (`None`
    /// when it had none, or the director withdrew them): the same request sent again is
    /// answered as done.
    pub last_request: Option<String>,
}

/// One board of a round as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BoardState {
    pub white: i64,
    pub black: i64,
    pub match_id: Option<String>,
    pub outcome: Option<GameOutcome>,
}

/// One paired round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RoundState {
    pub round: u32,
    pub boards: Vec<BoardState>,
    pub bye: Option<i64>,
}

impl RoundState {
    fn complete(&self) -> bool {
        self.boards.iter().all(|b| b.outcome.is_some())
    }
}

/// Why a record does not apply: the history is not one this director wrote.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ReplayError {
    #[error("record {v}: {reason}")]
    Invalid { v: u64, reason: String },
}

/// What the director does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// Store this record (then look again).
    Record(EventRecord),
    /// Create the match of board `board` of round `round`.
    Seat { round: u32, board: u32 },
    /// Wait for these games' matches to finish: (round, board, match id).
    Await(Vec<(u32, u32, String)>),
    /// Nothing until `at_ms` (the start), or a command.
    Until(i64),
    /// The event is over.
    Done,
}

/// An event: its set-up, players, rounds and, for a Swiss, the pairing state.
#[derive(Debug, Clone)]
pub(crate) struct EventState {
    pub id: String,
    pub setup: EventSetup,
    pub created_ms: i64,
    /// The version of the newest record applied.
    pub v: u64,
    pub entrants: Vec<Entrant>,
    pub rounds: Vec<RoundState>,
    pub finished: bool,
    /// Each player's record round by round (for the standings and tie-breaks), by entrant index.
    table: Vec<SwissPlayer>,
    swiss: Option<Swiss>,
    /// A round-robin's field in pairing-number order, fixed when round 1 is paired.
    field: Option<Vec<i64>>,
    /// An arena's sheets by account, each game added as its result is stored.
    sheets: HashMap<i64, Sheet>,
    /// When an arena's last wave was paired.
    last_wave_ms: Option<i64>,
    /// An arena player's last opponent and games as White, for the next wave.
    last_opponent: HashMap<i64, i64>,
    /// A Swiss's players who joined (or came back) while a round was played: entered in the
    /// pairing once it is complete, so that they play from the next round, as lichess takes
    /// a join during a round. Account and rating.
    entering: Vec<(i64, u32)>,
    /// A Swiss's players who withdrew while a round was played: taken out of the pairing once
    /// it is complete (their game of the round is played out, or forfeited if it had not been
    /// created), so that they are not paired from the next round.
    leaving: Vec<i64>,
    whites: HashMap<i64, u32>,
}

fn player_id(account: i64) -> PlayerId {
    PlayerId(u32::try_from(account).unwrap_or(u32::MAX))
}

impl EventState {
    pub(crate) fn new(id: String, setup: EventSetup, created_ms: i64) -> EventState {
        let swiss = match setup.format {
            Format::Swiss { rounds } => Swiss::new(SwissConfig {
                rounds,
                ..SwissConfig::default()
            })
            .ok(),
            Format::RoundRobin { .. } | Format::Arena { .. } => None,
        };
        EventState {
            id,
            setup,
            created_ms,
            v: 0,
            entrants: Vec::new(),
            rounds: Vec::new(),
            finished: false,
            table: Vec::new(),
            swiss,
            field: None,
            sheets: HashMap::new(),
            last_wave_ms: None,
            last_opponent: HashMap::new(),
            whites: HashMap::new(),
            entering: Vec::new(),
            leaving: Vec::new(),
        }
    }

    /// The state after `records`, in order.
    pub(crate) fn replay(
        id: String,
        setup: EventSetup,
        created_ms: i64,
        records: &[StoredEvent],
    ) -> Result<EventState, ReplayError> {
        let mut state = EventState::new(id, setup, created_ms);
        for stored in records {
            state.apply_stored(stored)?;
        }
        Ok(state)
    }

    /// Brings the state up to date with `newer`, the records stored after its version, in
    /// order (a node that follows an event run elsewhere reads only those). Each must be the
    /// next version: one missing would leave a state no director had.
    pub(crate) fn catch_up(&mut self, newer: &[StoredEvent]) -> Result<(), ReplayError> {
        for stored in newer {
            if stored.v != self.v + 1 {
                return Err(ReplayError::Invalid {
                    v: stored.v,
                    reason: format!("version {} was expected", self.v + 1),
                });
            }
            self.apply_stored(stored)?;
        }
        Ok(())
    }

    fn apply_stored(&mut self, stored: &StoredEvent) -> Result<(), ReplayError> {
        let record: EventRecord =
            serde_json::from_str(&stored.body).map_err(|err| ReplayError::Invalid {
                v: stored.v,
                reason: err.to_string(),
            })?;
        self.apply(&record).map_err(|reason| ReplayError::Invalid {
            v: stored.v,
            reason,
        })
    }

    pub(crate) fn entrant(&self, account: i64) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.account == account)
    }

    fn index_of(&self, account: i64) -> Result<usize, String> {
        self.entrants
            .iter()
            .position(|e| e.account == account)
            .ok_or_else(|| format!("account {account} is not in the event"))
    }

    /// Whether the first round is paired.
    pub(crate) fn started(&self) -> bool {
        !self.rounds.is_empty()
    }

    /// The round being played (paired, not every result in).
    pub(crate) fn current(&self) -> Option<&RoundState> {
        self.rounds.last().filter(|r| !r.complete())
    }

    /// Rounds the event has in all (a round-robin's depends on its field, known at the start).
    pub(crate) fn total_rounds(&self) -> u32 {
        match self.setup.format {
            Format::Swiss { rounds } => rounds,
            Format::RoundRobin { double } => {
                let n = if self.started() {
                    self.round_robin_order().len() as u32
                } else {
                    self.active().count() as u32
                };
                let per = if n < 2 { 0 } else { n + n % 2 - 1 };
                if double { per * 2 } else { per }
            }
            // An arena ends on time, not after a number of rounds.
            Format::Arena { .. } => 0,
        }
    }

    fn is_arena(&self) -> bool {
        matches!(self.setup.format, Format::Arena { .. })
    }

    fn active(&self) -> impl Iterator<Item = &Entrant> {
        self.entrants.iter().filter(|e| !e.withdrawn)
    }

    /// A round-robin's players in pairing-number order: by rating, then by who joined first.
    /// Fixed at the start (nobody joins a round-robin once it runs).
    fn round_robin_order(&self) -> Vec<i64> {
        if let Some(field) = &self.field {
            return field.clone();
        }
        let mut order: Vec<(usize, &Entrant)> = self
            .entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.withdrawn)
            .collect();
        order.sort_by(|(ia, a), (ib, b)| b.rating.cmp(&a.rating).then(ia.cmp(ib)));
        order.into_iter().map(|(_, e)| e.account).collect()
    }

    /// Applies `record`, or says why it cannot be (nothing changed then).
    pub(crate) fn apply(&mut self, record: &EventRecord) -> Result<(), String> {
        match record {
            EventRecord::Joined {
                account,
                name,
                rating,
                request,
            } => {
                if let Some(i) = self.entrants.iter().position(|e| e.account == *account) {
                    // A player who left comes back: to an arena while it runs (also one paused
                    // for a no-show), to a Swiss between rounds (paired from the next round,
                    // the rounds missed absent), to a round-robin before its field is fixed.
                    if !self.entrants[i].withdrawn {
                        return Err(format!("{name} joined twice"));
                    }
                    match self.setup.format {
                        Format::Arena { .. } => {}
                        Format::Swiss { .. } => self.enter_swiss(*account, *rating)?,
                        Format::RoundRobin { .. } if self.started() => {
                            return Err(format!("{name} rejoined a round-robin that runs"));
                        }
                        Format::RoundRobin { .. } => {}
                    }
                    self.entrants[i].withdrawn = false;
                    self.entrants[i].forfeits = 0;
                    self.entrants[i].last_request = request.clone();
                    self.table[i].withdrawn = false;
                    self.v += 1;
                    return Ok(());
                }
                self.enter_swiss(*account, *rating)?;
                self.entrants.push(Entrant {
                    account: *account,
                    name: name.clone(),
                    rating: *rating,
                    withdrawn: false,
                    forfeits: 0,
                    last_request: request.clone(),
                });
                self.table.push(SwissPlayer {
                    id: player_id(*account),
                    rating: *rating,
                    rounds: vec![RoundRecord::Absent; self.rounds_done()],
                    withdrawn: false,
                });
            }
            EventRecord::Withdrew {
                account, request, ..
            } => {
                let i = self.index_of(*account)?;
                self.leave_swiss(*account)?;
                self.entrants[i].withdrawn = true;
                self.entrants[i].last_request = request.clone();
                self.table[i].withdrawn = true;
            }
            EventRecord::Paired {
                round,
                boards,
                bye,
                at_ms,
            } => {
                // An arena's waves overlap: a wave is paired while earlier ones play on.
                if *round != self.rounds.len() as u32 + 1
                    || (!self.is_arena() && self.current().is_some())
                {
                    return Err(format!("round {round} paired out of turn"));
                }
                if let Some(swiss) = &mut self.swiss {
                    // The pairing is a function of the state: the replayed one must be the
                    // stored one, or this is not the history this director wrote.
                    let paired = swiss.pair_next_round().map_err(|e| e.to_string())?;
                    let same = paired.boards.len() == boards.len()
                        && paired.boards.iter().zip(boards).all(|(p, b)| {
                            p.white == player_id(b.white) && p.black == player_id(b.black)
                        })
                        && paired.bye == bye.map(player_id);
                    if !same {
                        return Err(format!("round {round} pairs differently on replay"));
                    }
                }
                if *round == 1 && matches!(self.setup.format, Format::RoundRobin { .. }) {
                    self.field = Some(self.round_robin_order());
                }
                if self.is_arena() {
                    self.last_wave_ms = *at_ms;
                    for b in boards {
                        self.last_opponent.insert(b.white, b.black);
                        self.last_opponent.insert(b.black, b.white);
                        *self.whites.entry(b.white).or_default() += 1;
                    }
                }
                self.rounds.push(RoundState {
                    round: *round,
                    boards: boards
                        .iter()
                        .map(|b| BoardState {
                            white: b.white,
                            black: b.black,
                            match_id: None,
                            outcome: None,
                        })
                        .collect(),
                    bye: *bye,
                });
            }
            EventRecord::Seated {
                round,
                board,
                match_id,
            } => {
                let board = self.board_mut(*round, *board)?;
                board.match_id = Some(match_id.clone());
            }
            EventRecord::Result {
                round,
                board,
                outcome,
                plies,
                berserk,
                ..
            } => {
                let state = self.board_mut(*round, *board)?;
                if state.outcome.is_some() {
                    return Err(format!("round {round} board {board} has a result already"));
                }
                state.outcome = Some(*outcome);
                let (white, black) = (state.white, state.black);
                if self.is_arena() {
                    self.score_arena_game(white, black, *outcome, plies.unwrap_or(0), berserk)?;
                    self.v += 1;
                    return Ok(());
                }
                let last = self.rounds.last().expect("board_mut found a round");
                if last.round == *round && last.complete() {
                    self.complete_round()?;
                }
            }
            EventRecord::Finished => self.finished = true,
        }
        self.v += 1;
        Ok(())
    }

    /// Adds an arena game to both sheets, in the order the results are stored; a no-show
    /// counts a forfeit (and is paused before the next wave).
    fn score_arena_game(
        &mut self,
        white: i64,
        black: i64,
        outcome: GameOutcome,
        plies: u32,
        berserk: &[Side],
    ) -> Result<(), String> {
        use ArenaResult::{Draw, Loss, Win};
        let (w, b) = match outcome {
            GameOutcome::WhiteWins | GameOutcome::WhiteWinsByForfeit => (Win, Loss),
            GameOutcome::BlackWins | GameOutcome::BlackWinsByForfeit => (Loss, Win),
            GameOutcome::Draw => (Draw, Draw),
            GameOutcome::DoubleForfeit => (Loss, Loss),
        };
        let no_show = match outcome {
            GameOutcome::WhiteWinsByForfeit => [false, true],
            GameOutcome::BlackWinsByForfeit => [true, false],
            GameOutcome::DoubleForfeit => [true, true],
            _ => [false, false],
        };
        let sides = [(white, w, Side::White), (black, b, Side::Black)];
        for ((account, result, side), absent) in sides.into_iter().zip(no_show) {
            let i = self.index_of(account)?;
            if absent {
                self.entrants[i].forfeits += 1;
            }
            self.sheets.entry(account).or_default().add(ArenaGame {
                result,
                plies,
                berserk: berserk.contains(&side),
            });
        }
        Ok(())
    }

    /// An arena's standings: by points, then rating, then who joined first.
    pub(crate) fn arena_standings(&self) -> Vec<ArenaStanding> {
        let mut lines: Vec<(usize, ArenaStanding)> = self
            .entrants
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let sheet = self.sheets.get(&e.account);
                (
                    i,
                    ArenaStanding {
                        account: e.account,
                        rank: 0,
                        points: sheet.map_or(0, Sheet::total),
                        rating: e.rating,
                        on_fire: sheet.is_some_and(Sheet::on_fire),
                        games: sheet.map(|s| s.games().to_vec()).unwrap_or_default(),
                    },
                )
            })
            .collect();
        lines.sort_by(|(ia, a), (ib, b)| {
            b.points
                .cmp(&a.points)
                .then(b.rating.cmp(&a.rating))
                .then(ia.cmp(ib))
        });
        lines
            .into_iter()
            .enumerate()
            .map(|(place, (_, mut line))| {
                line.rank = place as u32 + 1;
                line
            })
            .collect()
    }

    /// An arena's next step: seat new games, pause no-shows, pair a wave of the players
    /// without a game, and once the time is up wait for the running games, then finish.
    fn arena_step(&self, now_ms: i64, ends_at_ms: i64) -> Step {
        let mut pending = Vec::new();
        let mut busy = HashSet::new();
        for round in &self.rounds {
            for (i, board) in round.boards.iter().enumerate() {
                if board.outcome.is_some() {
                    continue;
                }
                let Some(id) = &board.match_id else {
                    return Step::Seat {
                        round: round.round,
                        board: i as u32,
                    };
                };
                pending.push((round.round, i as u32, id.clone()));
                busy.insert(board.white);
                busy.insert(board.black);
            }
        }
        if let Some(out) = self.active().find(|e| e.forfeits > 0) {
            return Step::Record(EventRecord::Withdrew {
                account: out.account,
                why: Leaving::Forfeits,
                request: None,
            });
        }
        if now_ms >= ends_at_ms {
            return if pending.is_empty() {
                Step::Record(EventRecord::Finished)
            } else {
                Step::Await(pending)
            };
        }
        if self
            .last_wave_ms
            .is_some_and(|at| now_ms < at + ARENA_WAVE_MS)
        {
            return Step::Await(pending);
        }
        let ranks: HashMap<i64, u32> = self
            .arena_standings()
            .iter()
            .map(|s| (s.account, s.rank))
            .collect();
        let waiting: Vec<Waiting> = self
            .active()
            .filter(|e| !busy.contains(&e.account))
            .map(|e| Waiting {
                id: player_id(e.account),
                rank: ranks.get(&e.account).copied().unwrap_or(u32::MAX),
                rating: e.rating,
                last_opponent: self.last_opponent.get(&e.account).map(|&a| player_id(a)),
            })
            .collect();
        if waiting.len() < 2 {
            return Step::Await(pending);
        }
        let account = |id: PlayerId| i64::from(id.0);
        let mut boards = Vec::new();
        for (a, b) in arena_pairing::pair_waiting(&waiting).pairs {
            let (a, b) = (account(a), account(b));
            let rematch = self.last_opponent.get(&a) == Some(&b);
            if rematch && !pending.is_empty() {
                // Someone else will be free soon: meeting the last opponent is avoidable.
                continue;
            }
            // Colours alternate: the one who has had White less often gets it.
            let whites = |p: i64| self.whites.get(&p).copied().unwrap_or(0);
            let (white, black) = if whites(b) < whites(a) {
                (b, a)
            } else {
                (a, b)
            };
            boards.push(Board { white, black });
        }
        if boards.is_empty() {
            return Step::Await(pending);
        }
        Step::Record(EventRecord::Paired {
            round: self.rounds.len() as u32 + 1,
            boards,
            bye: None,
            at_ms: Some(now_ms),
        })
    }

    /// Enters `account` in a Swiss's pairing (or takes them back): at once between rounds,
    /// once the round is complete while one is played; never during the last round, after
    /// which nobody is paired.
    fn enter_swiss(&mut self, account: i64, rating: u32) -> Result<(), String> {
        let Format::Swiss { rounds } = self.setup.format else {
            return Ok(());
        };
        if self.current().is_some() {
            if self.rounds.len() as u32 >= rounds {
                return Err(format!("account {account} joined during the last round"));
            }
            self.entering.push((account, rating));
            return Ok(());
        }
        match &mut self.swiss {
            Some(swiss) => enter(swiss, account, rating),
            None => Ok(()),
        }
    }

    /// Takes `account` out of a Swiss's pairing: at once between rounds, once the round is
    /// complete while one is played (one who joined during this round never entered it).
    fn leave_swiss(&mut self, account: i64) -> Result<(), String> {
        if self.swiss.is_none() {
            return Ok(());
        }
        if self.current().is_some() {
            let entering = self.entering.len();
            self.entering.retain(|&(a, _)| a != account);
            if self.entering.len() == entering {
                self.leaving.push(account);
            }
            return Ok(());
        }
        match &mut self.swiss {
            // After the last round nobody is paired any more: nothing to take out.
            Some(swiss) if swiss.rounds_done() < swiss.config().rounds => swiss
                .withdraw(player_id(account))
                .map_err(|e| e.to_string()),
            _ => Ok(()),
        }
    }

    fn rounds_done(&self) -> usize {
        self.rounds.iter().filter(|r| r.complete()).count()
    }

    fn board_mut(&mut self, round: u32, board: u32) -> Result<&mut BoardState, String> {
        self.rounds
            .iter_mut()
            .find(|r| r.round == round)
            .and_then(|r| r.boards.get_mut(board as usize))
            .ok_or_else(|| format!("no board {board} in round {round}"))
    }

    /// Every result of the last round is in: each player's round record, forfeits counted,
    /// and the Swiss told.
    fn complete_round(&mut self) -> Result<(), String> {
        let round = self.rounds.last().expect("a round").clone();
        let mut records = vec![RoundRecord::Absent; self.entrants.len()];
        let mut results = Vec::new();
        for board in &round.boards {
            let outcome = board.outcome.expect("complete").pairing();
            let (w, b) = outcome.points();
            let forfeit = outcome.is_forfeit();
            let (iw, ib) = (self.index_of(board.white)?, self.index_of(board.black)?);
            records[iw] = RoundRecord::Game {
                opponent: player_id(board.black),
                colour: Colour::White,
                points: w,
                forfeit,
            };
            records[ib] = RoundRecord::Game {
                opponent: player_id(board.white),
                colour: Colour::Black,
                points: b,
                forfeit,
            };
            if forfeit && w == Points::ZERO {
                self.entrants[iw].forfeits += 1;
            }
            if forfeit && b == Points::ZERO {
                self.entrants[ib].forfeits += 1;
            }
            results.push(GameResult {
                white: player_id(board.white),
                black: player_id(board.black),
                outcome,
            });
        }
        if let Some(bye) = round.bye {
            let points = match &self.swiss {
                Some(swiss) => swiss.config().bye_points,
                // A round-robin's bye is a round off, not a point.
                None => Points::ZERO,
            };
            records[self.index_of(bye)?] = RoundRecord::Bye { points };
        }
        for (player, record) in self.table.iter_mut().zip(records) {
            player.rounds.push(record);
        }
        if let Some(swiss) = &mut self.swiss {
            swiss.record_round(&results).map_err(|e| e.to_string())?;
            // Those who left during the round first: one who left and came back in it is
            // taken out and back in, so paired again.
            for account in std::mem::take(&mut self.leaving) {
                if swiss.rounds_done() < swiss.config().rounds {
                    swiss
                        .withdraw(player_id(account))
                        .map_err(|e| e.to_string())?;
                }
            }
            for (account, rating) in std::mem::take(&mut self.entering) {
                enter(swiss, account, rating)?;
            }
        }
        Ok(())
    }

    /// The FIDE TRF of a Swiss, as the federations' pairing checkers read it; `None` for a
    /// round-robin.
    pub(crate) fn trf(&self) -> Option<String> {
        let swiss = self.swiss.as_ref()?;
        let name_of = names(self);
        Some(boardcast_pairing::trf::write_trf(
            swiss,
            &boardcast_pairing::trf::TrfHeader {
                name: self.setup.name.clone(),
            },
            |id| name_of.get(&i64::from(id.0)).cloned().unwrap_or_default(),
        ))
    }

    /// The standings with the tie-breaks of the event's format, best first (an arena ranks by
    /// its own sheet: [`EventState::arena_standings`]).
    pub(crate) fn standings(&self) -> Vec<Standing> {
        match self.setup.format {
            Format::RoundRobin { .. } => tiebreak::round_robin_standings(&self.table),
            _ => tiebreak::standings(&self.table),
        }
    }

    /// The pairing of the next round, if the event can go on.
    fn next_pairing(&self) -> Option<(Vec<Board>, Option<i64>)> {
        let round = self.rounds.len() as u32 + 1;
        match self.setup.format {
            Format::Swiss { .. } => {
                let mut swiss = self.swiss.clone()?;
                let paired = swiss.pair_next_round().ok()?;
                let account = |id: PlayerId| i64::from(id.0);
                Some((
                    paired
                        .boards
                        .iter()
                        .map(|b| Board {
                            white: account(b.white),
                            black: account(b.black),
                        })
                        .collect(),
                    paired.bye.map(account),
                ))
            }
            Format::Arena { .. } => None,
            Format::RoundRobin { double } => {
                let order = self.round_robin_order();
                let schedule = round_robin::schedule(order.len() as u32, double).ok()?;
                let games = schedule.get(round as usize - 1)?;
                let account = |number: u32| order[number as usize - 1];
                Some((
                    games
                        .games
                        .iter()
                        .map(|g| Board {
                            white: account(g.white),
                            black: account(g.black),
                        })
                        .collect(),
                    games.bye.map(account),
                ))
            }
        }
    }

    /// What the director does next at `now_ms`.
    pub(crate) fn next_step(&self, now_ms: i64) -> Step {
        if self.finished {
            return Step::Done;
        }
        if !self.started() && now_ms < self.setup.starts_at_ms {
            return Step::Until(self.setup.starts_at_ms);
        }
        if let Format::Arena { ends_at_ms, .. } = self.setup.format {
            return self.arena_step(now_ms, ends_at_ms);
        }
        if let Some(round) = self.current() {
            let mut waiting = Vec::new();
            for (i, board) in round.boards.iter().enumerate() {
                if board.outcome.is_some() {
                    continue;
                }
                let withdrawn = |account| self.entrant(account).is_some_and(|e| e.withdrawn);
                // A round-robin game against a player who has left is not played.
                let outcome = match (withdrawn(board.white), withdrawn(board.black)) {
                    (true, true) => Some(GameOutcome::DoubleForfeit),
                    (true, false) => Some(GameOutcome::BlackWinsByForfeit),
                    (false, true) => Some(GameOutcome::WhiteWinsByForfeit),
                    (false, false) => None,
                };
                match (outcome, &board.match_id) {
                    (Some(outcome), None) => {
                        return Step::Record(EventRecord::Result {
                            round: round.round,
                            board: i as u32,
                            match_id: None,
                            outcome,
                            plies: None,
                            berserk: Vec::new(),
                        });
                    }
                    (_, None) => {
                        return Step::Seat {
                            round: round.round,
                            board: i as u32,
                        };
                    }
                    (_, Some(id)) => waiting.push((round.round, i as u32, id.clone())),
                }
            }
            return Step::Await(waiting);
        }
        if matches!(self.setup.format, Format::Swiss { .. })
            && let Some(out) = self
                .entrants
                .iter()
                .find(|e| !e.withdrawn && e.forfeits >= FORFEITS_TO_WITHDRAW)
        {
            return Step::Record(EventRecord::Withdrew {
                account: out.account,
                why: Leaving::Forfeits,
                request: None,
            });
        }
        let over = self.rounds.len() as u32 >= self.total_rounds();
        let field = if self.started() && matches!(self.setup.format, Format::RoundRobin { .. }) {
            self.round_robin_order().len()
        } else {
            self.active().count()
        };
        if over || field < 2 {
            return Step::Record(EventRecord::Finished);
        }
        match self.next_pairing() {
            Some((boards, bye)) => Step::Record(EventRecord::Paired {
                round: self.rounds.len() as u32 + 1,
                boards,
                bye,
                at_ms: None,
            }),
            None => Step::Record(EventRecord::Finished),
        }
    }
}

/// Enters `account` in `swiss` between rounds, or takes them back if they were in before.
fn enter(swiss: &mut Swiss, account: i64, rating: u32) -> Result<(), String> {
    let id = player_id(account);
    let entered = if swiss.player(id).is_some() {
        swiss.rejoin(id)
    } else {
        swiss.add_player(id, rating)
    };
    entered.map_err(|e| e.to_string())
}

/// The result of a finished match as an event counts it, from its stored records: a win, a
/// draw, or a forfeit for the side that never made its first move (lila's first-move rule).
/// With it the plies played and who went berserk. `None` if the match has not ended.
pub(crate) fn outcome_of(events: &[StoredEvent]) -> Option<GameEnd> {
    let mut moved = [false, false];
    let mut berserk = Vec::new();
    let mut plies = 0;
    let mut ended = None;
    for stored in events {
        let Ok(record) = serde_json::from_str::<Record>(&stored.body) else {
            continue;
        };
        match record.event {
            MatchEvent::Moved(m) => {
                moved[usize::from(m.played.side == Side::Black)] = true;
                plies += 1;
            }
            MatchEvent::Ended(result) => ended = Some(result),
            MatchEvent::Berserked(b) => berserk.push(b.side),
            _ => {}
        }
    }
    let result = ended?;
    let outcome = match (result.winner, result.reason) {
        (Some(Side::White), _) => GameOutcome::WhiteWins,
        (Some(Side::Black), _) => GameOutcome::BlackWins,
        (None, EndReason::Aborted) => match moved {
            [false, _] if result.detail.starts_with("abandoned") => GameOutcome::DoubleForfeit,
            [false, _] => GameOutcome::BlackWinsByForfeit,
            _ => GameOutcome::WhiteWinsByForfeit,
        },
        (None, _) => GameOutcome::Draw,
    };
    Some(GameEnd {
        outcome,
        plies,
        berserk,
    })
}

/// How an event game ended, read from its match's stored records ([`outcome_of`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GameEnd {
    pub outcome: GameOutcome,
    pub plies: u32,
    /// The sides that went berserk.
    pub berserk: Vec<Side>,
}

/// Each account's name, for tables and the TRF.
pub(crate) fn names(state: &EventState) -> HashMap<i64, String> {
    state
        .entrants
        .iter()
        .map(|e| (e.account, e.name.clone()))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use boardcast_protocol::TimeControl;

    pub(crate) fn setup(format: Format) -> EventSetup {
        EventSetup {
            name: "Tuesday".into(),
            format,
            time_control: TimeControl {
                initial_ms: 60_000,
                increment_ms: 0,
            },
            rated: false,
            starts_at_ms: 1_000,
            password: None,
            min_rated_games: 0,
            rating_range: None,
            organiser: 1,
        }
    }

    fn join(state: &mut EventState, account: i64) {
        state
            .apply(&EventRecord::Joined {
                account,
                name: format!("p{account}"),
                rating: 1500 + account as u32,
                request: None,
            })
            .unwrap();
    }

    /// Runs the director's steps with `result` deciding each game, as the director would,
    /// and returns the records written.
    pub(crate) fn run(
        state: &mut EventState,
        result: impl Fn(&Board) -> GameOutcome,
    ) -> Vec<EventRecord> {
        run_until(state, result, |_| false)
    }

    /// [`run`], stopping before the first step taken once `stop` holds.
    fn run_until(
        state: &mut EventState,
        result: impl Fn(&Board) -> GameOutcome,
        stop: impl Fn(&EventState) -> bool,
    ) -> Vec<EventRecord> {
        let mut written = Vec::new();
        let mut next_match = state.rounds.iter().map(|r| r.boards.len()).sum::<usize>();
        loop {
            if stop(state) {
                return written;
            }
            let record = match state.next_step(2_000) {
                Step::Done => return written,
                Step::Until(_) => panic!("the start has passed"),
                Step::Record(record) => record,
                Step::Seat { round, board } => {
                    next_match += 1;
                    EventRecord::Seated {
                        round,
                        board,
                        match_id: format!("m{next_match}"),
                    }
                }
                Step::Await(games) => {
                    let (round, board, id) = games[0].clone();
                    let b = &state.rounds[round as usize - 1].boards[board as usize];
                    EventRecord::Result {
                        round,
                        board,
                        match_id: Some(id),
                        outcome: result(&Board {
                            white: b.white,
                            black: b.black,
                        }),
                        plies: None,
                        berserk: Vec::new(),
                    }
                }
            };
            state.apply(&record).unwrap();
            written.push(record);
        }
    }

    #[test]
    fn a_swiss_pairs_each_round_once_and_replays_to_the_same_state() {
        let mut state = EventState::new("e".into(), setup(Format::Swiss { rounds: 4 }), 0);
        assert_eq!(state.next_step(0), Step::Until(1_000));
        for account in 1..=7 {
            join(&mut state, account);
        }
        let written = run(&mut state, |b| {
            if b.white < b.black {
                GameOutcome::WhiteWins
            } else {
                GameOutcome::Draw
            }
        });
        let paired: Vec<u32> = written
            .iter()
            .filter_map(|r| match r {
                EventRecord::Paired { round, bye, .. } => {
                    assert!(bye.is_some(), "seven players: a bye each round");
                    Some(*round)
                }
                _ => None,
            })
            .collect();
        assert_eq!(paired, [1, 2, 3, 4]);
        assert!(state.finished);
        // Scores add up: 3 games a round of 2 points, plus the bye's point.
        let total: u32 = state.standings().iter().map(|s| s.score.halves()).sum();
        assert_eq!(total, 4 * (3 * 2 + 2));

        let mut stored = Vec::new();
        for (i, account) in (1..=7).enumerate() {
            stored.push(StoredEvent {
                v: i as u64 + 1,
                at_ms: 0,
                body: serde_json::to_string(&EventRecord::Joined {
                    account,
                    name: format!("p{account}"),
                    rating: 1500 + account as u32,
                    request: None,
                })
                .unwrap(),
            });
        }
        for record in &written {
            stored.push(StoredEvent {
                v: stored.len() as u64 + 1,
                at_ms: 0,
                body: serde_json::to_string(record).unwrap(),
            });
        }
        let replayed =
            EventState::replay("e".into(), setup(Format::Swiss { rounds: 4 }), 0, &stored).unwrap();
        assert_eq!(replayed.standings(), state.standings());
        assert_eq!(replayed.rounds, state.rounds);
        assert_eq!(replayed.v, state.v);
    }

    #[test]
    fn a_swiss_withdraws_a_player_after_two_forfeits() {
        let mut state = EventState::new("e".into(), setup(Format::Swiss { rounds: 5 }), 0);
        for account in 1..=6 {
            join(&mut state, account);
        }
        // Player 6 never makes a first move.
        let written = run(&mut state, |b| match (b.white, b.black) {
            (6, _) => GameOutcome::BlackWinsByForfeit,
            (_, 6) => GameOutcome::WhiteWinsByForfeit,
            _ => GameOutcome::Draw,
        });
        let withdrawn: Vec<&EventRecord> = written
            .iter()
            .filter(|r| matches!(r, EventRecord::Withdrew { .. }))
            .collect();
        assert_eq!(
            withdrawn,
            [&EventRecord::Withdrew {
                account: 6,
                why: Leaving::Forfeits,
                request: None,
            }]
        );
        let played_by_6 = state
            .rounds
            .iter()
            .filter(|r| r.boards.iter().any(|b| b.white == 6 || b.black == 6))
            .count();
        assert_eq!(played_by_6, 2, "paired twice, then never again");
    }

    /// Round `n` is played and the next not yet paired.
    fn between(n: usize) -> impl Fn(&EventState) -> bool {
        move |state| state.rounds.len() == n && state.current().is_none()
    }

    /// A Swiss player who withdrew and joins again between rounds (lichess's Swiss takes
    /// them back) is paired from the next round; the round missed is absent, 0 points, and
    /// a replay of the records gives the same event.
    #[test]
    fn a_swiss_player_who_withdrew_comes_back_from_the_next_round() {
        let format = Format::Swiss { rounds: 3 };
        let mut state = EventState::new("e".into(), setup(format), 0);
        let mut written = Vec::new();
        for account in 1..=4 {
            let record = EventRecord::Joined {
                account,
                name: format!("p{account}"),
                rating: 1500 + account as u32,
                request: None,
            };
            state.apply(&record).unwrap();
            written.push(record);
        }
        let wins = |b: &Board| {
            if b.white < b.black {
                GameOutcome::WhiteWins
            } else {
                GameOutcome::BlackWins
            }
        };
        written.extend(run_until(&mut state, wins, between(1)));
        let leave = EventRecord::Withdrew {
            account: 4,
            why: Leaving::Asked,
            request: None,
        };
        state.apply(&leave).unwrap();
        written.push(leave);
        written.extend(run_until(&mut state, wins, between(2)));
        let points_before = state
            .standings()
            .iter()
            .find(|s| s.id.0 == 4)
            .unwrap()
            .score;

        let back = EventRecord::Joined {
            account: 4,
            name: "p4".into(),
            rating: 1504,
            request: None,
        };
        state.apply(&back).unwrap();
        written.push(back.clone());
        assert!(!state.entrant(4).unwrap().withdrawn);
        assert!(
            state.apply(&back).is_err(),
            "one who is in cannot join twice"
        );
        written.extend(run(&mut state, wins));

        let in_round = |round: usize| {
            let r = &state.rounds[round - 1];
            r.bye == Some(4) || r.boards.iter().any(|b| b.white == 4 || b.black == 4)
        };
        assert!(in_round(1));
        assert!(!in_round(2), "not paired while withdrawn");
        assert_eq!(state.rounds.len(), 3);
        assert!(in_round(3), "paired again from the next round");
        let table = &state.table[3];
        assert_eq!(table.rounds[1], RoundRecord::Absent, "the round missed");
        let scored_later: u32 = table.rounds[2..].iter().map(|r| r.points().halves()).sum();
        let line = state.standings().into_iter().find(|s| s.id.0 == 4).unwrap();
        assert_eq!(line.score.halves(), points_before.halves() + scored_later);
        assert!(!state.entrant(4).unwrap().withdrawn);

        assert_replays_to(&state, format, &written);
    }

    /// `records`, stored in this order (versions from 1) and replayed, give `state` again:
    /// the same rounds, standings and version.
    fn assert_replays_to(state: &EventState, format: Format, records: &[EventRecord]) {
        let stored: Vec<StoredEvent> = records
            .iter()
            .zip(1..)
            .map(|(record, v)| StoredEvent {
                v,
                at_ms: 0,
                body: serde_json::to_string(record).unwrap(),
            })
            .collect();
        let replayed = EventState::replay("e".into(), setup(format), 0, &stored).unwrap();
        assert_eq!(replayed.rounds, state.rounds);
        assert_eq!(replayed.standings(), state.standings());
        assert_eq!(replayed.v, state.v);
    }

    /// The records as they were stored when the first six `written` came before round 1's
    /// pairing (`played[0]`), the rest of them while round 1 was played, and the rest of
    /// `played` after.
    fn during_round_one(written: &[EventRecord], played: &[EventRecord]) -> Vec<EventRecord> {
        let mut stored = written[..6].to_vec();
        stored.push(played[0].clone());
        stored.extend(written[6..].iter().cloned());
        stored.extend(played[1..].iter().cloned());
        stored
    }

    /// A join during a Swiss round, a newcomer's or a return, counts from the next round (as
    /// lichess takes it): not paired in the round being played, paired in the next, the round
    /// missed absent; a replay gives the same event. During the last round it does not apply.
    #[test]
    fn a_swiss_join_during_a_round_plays_from_the_next_one() {
        let format = Format::Swiss { rounds: 3 };
        let mut state = EventState::new("e".into(), setup(format), 0);
        let mut written = Vec::new();
        let joined = |account: i64| EventRecord::Joined {
            account,
            name: format!("p{account}"),
            rating: 1500 + account as u32,
            request: None,
        };
        let mut apply = |state: &mut EventState, record: EventRecord| {
            state.apply(&record).unwrap();
            written.push(record);
        };
        for account in 1..=5 {
            apply(&mut state, joined(account));
        }
        let leave = EventRecord::Withdrew {
            account: 5,
            why: Leaving::Asked,
            request: None,
        };
        apply(&mut state, leave);
        let draws = |_: &Board| GameOutcome::Draw;
        let mut played = run_until(&mut state, draws, |s| s.rounds.len() == 1);
        assert!(state.current().is_some(), "round 1 is being played");
        // Player 5 comes back and player 6 joins while it is.
        apply(&mut state, joined(5));
        apply(&mut state, joined(6));
        played.extend(run_until(&mut state, draws, |s| s.rounds.len() == 3));
        let in_round = |state: &EventState, round: usize, account: i64| {
            let r = &state.rounds[round - 1];
            r.bye == Some(account)
                || r.boards
                    .iter()
                    .any(|b| b.white == account || b.black == account)
        };
        for account in [5, 6] {
            assert!(!in_round(&state, 1, account), "{account} not in round 1");
            assert!(in_round(&state, 2, account), "{account} paired in round 2");
            let i = state.index_of(account).unwrap();
            assert_eq!(state.table[i].rounds[0], RoundRecord::Absent);
        }
        assert!(
            state.apply(&joined(7)).is_err(),
            "no join during the last round"
        );
        played.extend(run(&mut state, draws));
        assert!(state.finished);

        // Stored in the order it happened: the joins between round 1's pairing and its games.
        assert_replays_to(&state, format, &during_round_one(&written, &played));
    }

    /// A Swiss player who withdraws while a round is played is taken out once it is complete:
    /// their game of the round, not yet created, is forfeited, and they are not paired after
    /// it; one who withdraws and comes back within the same round plays on. A replay gives the
    /// same event.
    #[test]
    fn a_swiss_withdrawal_during_a_round_counts_from_the_next_one() {
        let format = Format::Swiss { rounds: 3 };
        let mut state = EventState::new("e".into(), setup(format), 0);
        let mut written = Vec::new();
        let mut apply = |state: &mut EventState, record: EventRecord| {
            state.apply(&record).unwrap();
            written.push(record);
        };
        for account in 1..=6 {
            apply(
                &mut state,
                EventRecord::Joined {
                    account,
                    name: format!("p{account}"),
                    rating: 1500 + account as u32,
                    request: None,
                },
            );
        }
        let draws = |_: &Board| GameOutcome::Draw;
        let mut played = run_until(&mut state, draws, |s| s.rounds.len() == 1);
        assert!(state.current().is_some(), "round 1 is being played");
        let leave = |account| EventRecord::Withdrew {
            account,
            why: Leaving::Asked,
            request: None,
        };
        // Player 1 leaves for good; player 2 leaves and comes back before the round ends.
        apply(&mut state, leave(1));
        apply(&mut state, leave(2));
        apply(
            &mut state,
            EventRecord::Joined {
                account: 2,
                name: "p2".into(),
                rating: 1502,
                request: None,
            },
        );
        assert!(
            state.entrant(1).unwrap().withdrawn,
            "shown withdrawn at once"
        );
        played.extend(run(&mut state, draws));
        assert!(state.finished);
        let in_round = |state: &EventState, round: usize, account: i64| {
            let r = &state.rounds[round - 1];
            r.bye == Some(account)
                || r.boards
                    .iter()
                    .any(|b| b.white == account || b.black == account)
        };
        assert!(in_round(&state, 1, 1), "1 was paired in round 1");
        let board = state.rounds[0]
            .boards
            .iter()
            .find(|b| b.white == 1 || b.black == 1)
            .unwrap();
        let lost = if board.white == 1 {
            GameOutcome::BlackWinsByForfeit
        } else {
            GameOutcome::WhiteWinsByForfeit
        };
        assert_eq!(board.outcome, Some(lost), "its game, not begun, forfeited");
        for round in 2..=3 {
            assert!(!in_round(&state, round, 1), "1 not paired in round {round}");
            assert!(in_round(&state, round, 2), "2 paired in round {round}");
        }

        assert_replays_to(&state, format, &during_round_one(&written, &played));
    }

    /// A round-robin takes back one who withdrew before its start; once it runs, its field is
    /// fixed and a return does not apply.
    #[test]
    fn a_round_robin_takes_back_one_who_withdrew_only_before_its_start() {
        let mut state = EventState::new("e".into(), setup(Format::RoundRobin { double: false }), 0);
        for account in 1..=4 {
            join(&mut state, account);
        }
        let leave = |account| EventRecord::Withdrew {
            account,
            why: Leaving::Asked,
            request: None,
        };
        state.apply(&leave(4)).unwrap();
        assert_eq!(state.round_robin_order(), [3, 2, 1]);
        join(&mut state, 4);
        assert_eq!(state.round_robin_order(), [4, 3, 2, 1], "back in the field");
        run_until(&mut state, |_| GameOutcome::Draw, between(1));
        assert_eq!(state.round_robin_order().len(), 4);
        state.apply(&leave(4)).unwrap();
        let back = EventRecord::Joined {
            account: 4,
            name: "p4".into(),
            rating: 1504,
            request: None,
        };
        assert!(state.apply(&back).is_err());
        assert!(state.entrant(4).unwrap().withdrawn);
    }

    #[test]
    fn a_double_round_robin_meets_everyone_twice_with_colours_swapped() {
        let mut state = EventState::new("e".into(), setup(Format::RoundRobin { double: true }), 0);
        for account in 1..=4 {
            join(&mut state, account);
        }
        run(&mut state, |_| GameOutcome::WhiteWins);
        assert_eq!(state.rounds.len(), 6);
        let mut met: HashMap<(i64, i64), u32> = HashMap::new();
        for board in state.rounds.iter().flat_map(|r| &r.boards) {
            *met.entry((board.white, board.black)).or_default() += 1;
        }
        for a in 1..=4 {
            for b in 1..=4 {
                if a != b {
                    assert_eq!(met.get(&(a, b)), Some(&1), "{a} white against {b}");
                }
            }
        }
        // Every game a white win: each player won 3 of 6.
        assert!(state.standings().iter().all(|s| s.score == Points(6)));
    }

    #[test]
    fn a_first_move_missed_is_a_forfeit_of_the_side_that_did_not_move() {
        let stored = |records: Vec<Record>| -> Vec<StoredEvent> {
            records
                .iter()
                .enumerate()
                .map(|(i, r)| StoredEvent {
                    v: i as u64 + 1,
                    at_ms: 0,
                    body: r.stored_form().unwrap(),
                })
                .collect()
        };
        let aborted = Record::ended(
            None,
            EndReason::Aborted,
            "white did not make a first move within 30 s".into(),
        );
        assert_eq!(
            outcome_of(&stored(vec![aborted])),
            Some(GameEnd {
                outcome: GameOutcome::BlackWinsByForfeit,
                plies: 0,
                berserk: Vec::new()
            })
        );
        let resigned = Record::ended(Some(Side::Black), EndReason::Resignation, "x".into());
        assert_eq!(
            outcome_of(&stored(vec![resigned])),
            Some(GameEnd {
                outcome: GameOutcome::BlackWins,
                plies: 0,
                berserk: Vec::new()
            })
        );
        let agreed = Record::ended(None, EndReason::DrawByAgreement, "x".into());
        assert_eq!(
            outcome_of(&stored(vec![agreed])),
            Some(GameEnd {
                outcome: GameOutcome::Draw,
                plies: 0,
                berserk: Vec::new()
            })
        );
        assert_eq!(outcome_of(&[]), None);
    }

    /// A berserk win of at least 14 plies scores one more (lila's rule), a shorter one does
    /// not, and a berserk loser scores nothing extra: the sides come from the match's
    /// `berserked` records through the stored result.
    #[test]
    fn an_arena_scores_a_berserk_win_of_14_plies_or_more_one_point_more() {
        let mut state = EventState::new(
            "a".into(),
            setup(Format::Arena {
                minutes: 20,
                ends_at_ms: 600_000,
            }),
            0,
        );
        for account in 1..=2 {
            join(&mut state, account);
        }
        for (round, plies, berserk) in [
            (1, 14, vec![Side::White, Side::Black]),
            (2, 13, vec![Side::White]),
        ] {
            state
                .apply(&EventRecord::Paired {
                    round,
                    boards: vec![Board { white: 1, black: 2 }],
                    bye: None,
                    at_ms: Some(1_000 * i64::from(round)),
                })
                .unwrap();
            let record = EventRecord::Result {
                round,
                board: 0,
                match_id: Some(format!("m{round}")),
                outcome: GameOutcome::WhiteWins,
                plies: Some(plies),
                berserk,
            };
            // Stored and read back, as a replay reads it.
            let stored: EventRecord =
                serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
            state.apply(&stored).unwrap();
        }
        let standings = state.arena_standings();
        let sheet = |account: i64| -> Vec<(u32, bool)> {
            standings
                .iter()
                .find(|s| s.account == account)
                .unwrap()
                .games
                .iter()
                .map(|g| (g.points, g.game.berserk))
                .collect()
        };
        assert_eq!(sheet(1), [(3, true), (2, true)]);
        assert_eq!(sheet(2), [(0, true), (0, false)]);
    }

    /// Drives an arena as the director would, one game finishing every other step of 700 ms:
    /// waves pair only free players, nobody meets the last opponent again while another is
    /// coming free, each sheet is lila's scoring of that player's games in finishing order,
    /// and games still running at the end are waited for and counted.
    #[test]
    fn an_arena_pairs_waves_until_its_end_and_counts_the_games_running_then() {
        let ends_at_ms = 60_000;
        let mut state = EventState::new(
            "a".into(),
            setup(Format::Arena {
                minutes: 20,
                ends_at_ms,
            }),
            0,
        );
        for account in 1..=7 {
            join(&mut state, account);
        }
        let mut now = 0;
        let mut next_match = 0;
        let mut finished_after_end = 0;
        let mut games_of: HashMap<i64, Vec<(ArenaGame, i64)>> = HashMap::new();
        let mut tick = 0;
        loop {
            tick += 1;
            let record = match state.next_step(now) {
                Step::Done => break,
                Step::Until(at) => {
                    now = at;
                    continue;
                }
                Step::Record(record) => record,
                Step::Seat { round, board } => {
                    next_match += 1;
                    EventRecord::Seated {
                        round,
                        board,
                        match_id: format!("m{next_match}"),
                    }
                }
                Step::Await(games) => {
                    now += 700;
                    if games.is_empty() || tick % 2 == 0 {
                        continue;
                    }
                    let (round, board, id) = games[0].clone();
                    let b = state.rounds[round as usize - 1].boards[board as usize].clone();
                    // The lower account wins, except that every third game is a draw, a short
                    // one when the accounts are next to each other.
                    let draw = (b.white + b.black + i64::from(round)) % 3 == 0;
                    let plies = if (b.white - b.black).abs() == 1 {
                        12
                    } else {
                        40
                    };
                    let outcome = match (draw, b.white < b.black) {
                        (true, _) => GameOutcome::Draw,
                        (false, true) => GameOutcome::WhiteWins,
                        (false, false) => GameOutcome::BlackWins,
                    };
                    let (w, bl) = match outcome {
                        GameOutcome::Draw => (ArenaResult::Draw, ArenaResult::Draw),
                        GameOutcome::WhiteWins => (ArenaResult::Win, ArenaResult::Loss),
                        _ => (ArenaResult::Loss, ArenaResult::Win),
                    };
                    for (account, result, opponent) in
                        [(b.white, w, b.black), (b.black, bl, b.white)]
                    {
                        games_of.entry(account).or_default().push((
                            ArenaGame {
                                result,
                                plies,
                                berserk: false,
                            },
                            opponent,
                        ));
                    }
                    if now >= ends_at_ms {
                        finished_after_end += 1;
                    }
                    EventRecord::Result {
                        round,
                        board,
                        match_id: Some(id),
                        outcome,
                        plies: Some(plies),
                        berserk: Vec::new(),
                    }
                }
            };
            state.apply(&record).unwrap();
        }
        assert!(state.finished);
        assert!(now >= ends_at_ms);
        assert!(finished_after_end > 0, "games running at the end count");
        assert!(state.rounds.len() > 5, "waves: {}", state.rounds.len());
        for board in state.rounds.iter().flat_map(|r| &r.boards) {
            assert!(board.outcome.is_some(), "every game paired is counted");
        }
        let standings = state.arena_standings();
        for line in &standings {
            let games = &games_of[&line.account];
            let opponents: Vec<i64> = games.iter().map(|(_, o)| *o).collect();
            assert!(
                opponents.windows(2).all(|w| w[0] != w[1]),
                "{} met the same opponent twice in a row: {opponents:?}",
                line.account
            );
            let sheet = Sheet::from_games(games.iter().map(|(g, _)| *g));
            assert_eq!(line.points, sheet.total(), "{}", line.account);
        }
        assert!(
            standings.windows(2).all(|w| w[0].points >= w[1].points),
            "ranked by points"
        );
        // Someone won two in a row and was doubled: the streak rule was exercised.
        assert!(
            standings
                .iter()
                .flat_map(|s| &s.games)
                .any(|g| g.doubled && g.points == 4)
        );
        // A late joiner cannot enter a finished arena, but one who left could have come back.
        let rejoin = EventRecord::Joined {
            account: 3,
            name: "p3".into(),
            rating: 1503,
            request: None,
        };
        assert!(state.clone().apply(&rejoin).is_err(), "3 is still in");
    }
}
