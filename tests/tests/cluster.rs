//! Several nodes as one (issue 19), against real processes: PostgreSQL, `redis-server` and
//! three `boardcast-server` nodes `a`, `b`, `c` on loopback, started by the harness
//! (`boardcast_tests::cluster`). Each test is one of the issue's six:
//!
//! 1. the 40 reference games with the two players on different nodes and a spectator on the
//!    third: every event, result and PDN as on one node;
//! 2. `kill -9` of the node owning 50 running matches: every acknowledged move is there, every
//!    match is taken over, resumed by its players on other nodes and finishes as its game;
//! 3. SIGSTOP of an owner past its lease, another node takes over and play goes on, SIGCONT:
//!    the old owner's late write is refused and no client ever sees two histories;
//! 4. Redis restarted mid-game: no acknowledged move lost, watchers catch up by version;
//! 5. a TV channel keeps revealing on time when its owner is killed: no ply early, none
//!    repeated with a different move;
//! 6. a seek made on node A is listed on node C within 1 s and can be joined there.
//!
//! Every client's messages go into one [`Ledger`] per match, which fails on the first message
//! that contradicts another client's (two events under one version, two moves for one ply).
//! Timeouts are generous (a loaded two-core machine runs these); waits are for conditions.

use std::collections::{BTreeMap, HashSet};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use boardcast_protocol::{
    Ack, ChannelEvent, ClientMessage, ColorChoice, Encoding, EndReason, ErrorCode, JoinMatch,
    MatchEvent, MatchPhase, MatchSnapshot, Seat, SeatAction, ServerMessage, Side, Target, Watch,
};
use boardcast_server::NodeRef;
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ClientError};
use boardcast_tests::cluster::{Cluster, ClusterOptions, TEST_LEASE_MS};
use boardcast_tests::games::{RefGame, reference_games};
use boardcast_tests::ledger::{Ledger, SharedLedger};
use tokio::time::Instant;

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

/// How long a client waits for an answer that a take-over may delay: several leases on a
/// loaded machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// The flags of the one-node comparison run: the same as the cluster's nodes get.
const ONE_NODE_ARGS: &[&str] = &["--log", "error", "--rate", "100000", "--burst", "100000"];

/// Connects to `addr` with the cluster's patience.
async fn connect(addr: SocketAddr, encoding: Encoding) -> Result<Client, ClientError> {
    let mut client = Client::connect(addr, encoding).await?;
    client.timeout = PATIENCE;
    Ok(client)
}

fn encoding_for(index: usize) -> Encoding {
    if index.is_multiple_of(2) {
        Encoding::Json
    } else {
        Encoding::Postcard
    }
}

/// A lost connection or an answer that never came: the player reconnects and resumes.
fn is_connection_loss(err: &ClientError) -> bool {
    matches!(
        err,
        ClientError::Closed(_) | ClientError::Ws(_) | ClientError::Timeout(_)
    )
}

/// A refusal that changed nothing and asks to try again: the match is moving to another
/// node (`storage_unavailable`), or the node is busy or stopping.
fn is_try_again(err: &ClientError) -> bool {
    matches!(err, ClientError::Refused(reply) if matches!(
        reply.code,
        ErrorCode::StorageUnavailable | ErrorCode::Busy | ErrorCode::ShuttingDown
    ))
}

/// How long to wait before sending a command refused with "try again".
const TRY_AGAIN_AFTER: Duration = Duration::from_millis(200);

/// Plays `route` for `seat` as a client does: a refusal that asks to try again is answered by
/// sending the same envelope (same id) again, until it is acknowledged.
async fn play_patiently(
    client: &mut Client,
    seat: &Seat,
    route: &[u8],
) -> Result<Ack, ClientError> {
    let id = client.send_move(seat, route).await?;
    let deadline = Instant::now() + PATIENCE;
    loop {
        match client.expect_ack(id).await {
            Err(err) if is_try_again(&err) && Instant::now() < deadline => {
                tokio::time::sleep(TRY_AGAIN_AFTER).await;
                client.send_with_id(id, move_message(seat, route)).await?;
            }
            other => return other,
        }
    }
}

/// Takes a seat back as a client does, sending again while the answer is "try again".
async fn resume_patiently(client: &mut Client, token: &str) -> Result<Seat, ClientError> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        match client.resume(token, None).await {
            Err(err) if is_try_again(&err) && Instant::now() < deadline => {
                tokio::time::sleep(TRY_AGAIN_AFTER).await;
            }
            other => return other,
        }
    }
}

/// A seat as its player holds it (the token and the match), for moves.
fn seat_of(match_id: &str, side: usize, token: &str) -> Seat {
    Seat {
        id: 0,
        match_id: match_id.to_owned(),
        invite_code: String::new(),
        side: if side == 0 { Side::White } else { Side::Black },
        token: token.to_owned(),
    }
}

/// The stored game as a node serves it for download, with what differs between two runs of
/// the same game (the match id, the date and time it started) taken out.
async fn pdn(addr: SocketAddr, match_id: &str) -> Result<String, String> {
    let path = format!("/games/{match_id}.pdn");
    let (status, body) =
        tokio::task::spawn_blocking(move || boardcast_tests::http_get(addr, &path))
            .await
            .expect("join")
            .map_err(|err| format!("GET pdn of {match_id} from {addr}: {err}"))?;
    if status != 200 {
        return Err(format!(
            "GET pdn of {match_id} from {addr}: status {status}: {body}"
        ));
    }
    Ok(body
        .lines()
        .filter(|line| !line.starts_with("[Date ") && !line.starts_with("[Time "))
        .map(|line| line.replace(match_id, "<id>"))
        .collect::<Vec<_>>()
        .join("\n"))
}

// ---------------------------------------------------------------------------------------------
// 1. The reference games across three nodes, compared with one node.

/// What a run of one reference game showed: the spectator's events by version, the final
/// snapshot (without its match id) and the stored PDN.
#[derive(Debug, PartialEq)]
struct Outcome {
    events: BTreeMap<u64, MatchEvent>,
    final_v: u64,
    moves: Vec<String>,
    fen: String,
    result: Option<boardcast_protocol::MatchResult>,
    pdn: String,
}

/// Plays `game` with White on `addrs[0]`, Black on `addrs[1]` and a spectator on `addrs[2]`,
/// checking every event the spectator sees against the reference as it comes.
async fn replay(
    addrs: [SocketAddr; 3],
    encoding: Encoding,
    game: &RefGame,
) -> Result<Outcome, String> {
    let fail = |what: String| format!("{} ({encoding:?}): {what}", game.id);
    let mut white = connect(addrs[0], encoding)
        .await
        .map_err(|e| fail(format!("white: {e}")))?;
    let white_seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .map_err(|e| fail(format!("create: {e}")))?;
    let match_id = white_seat.match_id.clone();
    let ledger = Ledger::shared(&match_id);
    let mut black = connect(addrs[1], encoding)
        .await
        .map_err(|e| fail(format!("black: {e}")))?;
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .map_err(|e| fail(format!("join by code on another node: {e}")))?;
    let mut spectator = connect(addrs[2], encoding)
        .await
        .map_err(|e| fail(format!("spectator: {e}")))?;
    let snapshot = spectator
        .watch_match(&match_id)
        .await
        .map_err(|e| fail(format!("watch on a third node: {e}")))?;
    record(
        &ledger,
        "spectator",
        &ServerMessage::MatchSnapshot(snapshot.clone()),
    )?;
    if snapshot.phase != MatchPhase::Playing || !snapshot.moves.is_empty() {
        return Err(fail(format!("bad first snapshot: {snapshot:?}")));
    }
    let mut events = BTreeMap::new();
    let mut v = snapshot.v;
    let seats = [&white_seat, &black_seat];
    for (ply, route) in game.routes.iter().enumerate() {
        let player = if ply % 2 == 0 { &mut white } else { &mut black };
        // As a client plays: a "try again" (a node that missed renewing its lease on a busy
        // machine applied nothing) is answered by sending the same envelope again.
        let ack = play_patiently(player, seats[ply % 2], route)
            .await
            .map_err(|e| fail(format!("ply {ply} {}: {e}", game.moves[ply])))?;
        if ack.duplicate {
            return Err(fail(format!("ply {ply}: first move acked as duplicate")));
        }
        let event = spectator
            .next_match_event(&match_id)
            .await
            .map_err(|e| fail(format!("spectator at ply {ply}: {e}")))?;
        record(
            &ledger,
            "spectator",
            &ServerMessage::MatchEvent(event.clone()),
        )?;
        if event.v != v + 1 {
            return Err(fail(format!("ply {ply}: event v {} after v {v}", event.v)));
        }
        v = event.v;
        let MatchEvent::Moved(moved) = &event.event else {
            return Err(fail(format!("ply {ply}: expected moved, got {event:?}")));
        };
        if moved.played.ply as usize != ply
            || moved.played.notation != game.moves[ply]
            || &moved.played.route != route
            || moved.fen != game.fens[ply]
        {
            return Err(fail(format!(
                "ply {ply}: expected {} to {}, the spectator saw {moved:?}",
                game.moves[ply], game.fens[ply]
            )));
        }
        events.insert(event.v, event.event);
    }
    let ended = spectator
        .next_match_event(&match_id)
        .await
        .map_err(|e| fail(format!("waiting for the end: {e}")))?;
    record(
        &ledger,
        "spectator",
        &ServerMessage::MatchEvent(ended.clone()),
    )?;
    let MatchEvent::Ended(result) = &ended.event else {
        return Err(fail(format!("expected ended, got {ended:?}")));
    };
    game.check_result(result).map_err(fail)?;
    let final_v = ended.v;
    events.insert(ended.v, ended.event.clone());
    // Both players (on their own nodes) saw the same history, up to the end.
    for (who, client) in [("white", &mut white), ("black", &mut black)] {
        client
            .wait_for("the ended event", |message| match message {
                ServerMessage::MatchEvent(event) if event.v == final_v => Some(()),
                _ => None,
            })
            .await
            .map_err(|e| fail(format!("{who} waiting for the end: {e}")))?;
        let mut ledger = ledger.lock().expect("ledger");
        ledger.record_all(who, client.backlog()).map_err(&fail)?;
        ledger
            .record(who, &ServerMessage::MatchEvent(ended.clone()))
            .map_err(&fail)?;
    }
    // A newcomer on the spectator's node sees the whole finished game.
    let mut late = connect(addrs[2], encoding)
        .await
        .map_err(|e| fail(format!("late: {e}")))?;
    let last = late
        .watch_match(&match_id)
        .await
        .map_err(|e| fail(format!("late watch: {e}")))?;
    record(
        &ledger,
        "late watcher",
        &ServerMessage::MatchSnapshot(last.clone()),
    )?;
    // The stored game, the same from every node.
    let stored = pdn(addrs[2], &match_id).await.map_err(&fail)?;
    for addr in &addrs[..2] {
        let other = pdn(*addr, &match_id).await.map_err(&fail)?;
        if other != stored {
            return Err(fail(format!(
                "the PDN from {addr} differs:\n{other}\n----\n{stored}"
            )));
        }
    }
    white.close().await;
    black.close().await;
    spectator.close().await;
    late.close().await;
    Ok(Outcome {
        events,
        final_v,
        moves: last.moves.iter().map(|m| m.notation.clone()).collect(),
        fen: last.fen,
        result: last.result,
        pdn: stored,
    })
}

fn record(ledger: &SharedLedger, who: &str, message: &ServerMessage) -> Result<(), String> {
    ledger.lock().expect("ledger").record(who, message)
}

/// Every reference game replayed with `addrs(index)`, all at once; the outcomes in game order.
async fn replay_all(addrs: [SocketAddr; 3]) -> Vec<Result<Outcome, String>> {
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..reference_games().len() {
        tasks.spawn(async move {
            let game = &reference_games()[index];
            (index, replay(addrs, encoding_for(index), game).await)
        });
    }
    let mut outcomes: Vec<Option<Result<Outcome, String>>> =
        (0..reference_games().len()).map(|_| None).collect();
    while let Some(done) = tasks.join_next().await {
        let (index, outcome) = done.expect("a replay task panicked");
        outcomes[index] = Some(outcome);
    }
    outcomes
        .into_iter()
        .map(|o| o.expect("every game ran"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_play_every_reference_game_exactly_as_one_node_does() {
    assert_eq!(
        reference_games().len(),
        40,
        "the reference file holds 40 games"
    );
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: reference games",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let nodes = [cluster.addr("a"), cluster.addr("b"), cluster.addr("c")];
    let across = replay_all(nodes).await;

    let single = TestServer::start(server_program(), ONE_NODE_ARGS);
    let alone = replay_all([single.addr(); 3]).await;

    let mut failures = Vec::new();
    for (index, (many, one)) in across.into_iter().zip(alone).enumerate() {
        let game = &reference_games()[index].id;
        match (many, one) {
            (Ok(many), Ok(one)) if many == one => {}
            (Ok(many), Ok(one)) => failures.push(format!(
                "{game}: three nodes showed\n{many:#?}\none node showed\n{one:#?}"
            )),
            (Err(err), _) => failures.push(format!("three nodes: {err}")),
            (_, Err(err)) => failures.push(format!("one node: {err}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 40 games differ:\n{}\n{}",
        failures.len(),
        failures.join("\n"),
        cluster.logs()
    );
}

// ---------------------------------------------------------------------------------------------
// Players who come back: the driver of tests 2 and 4.

/// A move sent without an answer yet.
#[derive(Debug, Clone, Copy)]
struct Pending {
    side: usize,
    id: u64,
    ply: usize,
}

/// One match as its two players remember it across lost connections and nodes.
struct Run {
    game: &'static RefGame,
    encoding: Encoding,
    match_id: String,
    tokens: [String; 2],
    /// The next envelope id of each seat: ids carry on across reconnects.
    next_ids: [u64; 2],
    /// Routes of every acknowledged move, in order.
    acked: Vec<Vec<u8>>,
    pending: Option<Pending>,
    finished: bool,
    /// Each player's connection while it holds.
    clients: [Option<Client>; 2],
    ledger: SharedLedger,
    /// How many times a player took its seat back.
    resumed: usize,
}

impl Run {
    /// White creates a match on `white`, Black joins it by its invite code on `black`.
    async fn open(
        game: &'static RefGame,
        encoding: Encoding,
        white: SocketAddr,
        black: SocketAddr,
    ) -> Result<Run, String> {
        let mut white = connect(white, encoding).await.map_err(|e| e.to_string())?;
        let white_seat = white
            .create_match(ColorChoice::White, false, None)
            .await
            .map_err(|e| format!("create: {e}"))?;
        let mut black = connect(black, encoding).await.map_err(|e| e.to_string())?;
        let black_seat = black
            .join(JoinMatch::Code(white_seat.invite_code.clone()))
            .await
            .map_err(|e| format!("join on another node: {e}"))?;
        Ok(Run {
            game,
            encoding,
            ledger: Ledger::shared(&white_seat.match_id),
            match_id: white_seat.match_id,
            tokens: [white_seat.token, black_seat.token],
            next_ids: [white.next_id(), black.next_id()],
            acked: Vec::new(),
            pending: None,
            finished: false,
            clients: [Some(white), Some(black)],
            resumed: 0,
        })
    }

    fn fail(&self, what: impl std::fmt::Display) -> String {
        format!("match {} ({}): {what}", self.match_id, self.game.id)
    }

    /// Checks a snapshot after a resume against what the players know; returns the ply to go
    /// on from.
    fn reconcile(&self, snapshot: &MatchSnapshot) -> Result<usize, String> {
        let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
        let have = routes.len();
        let most = self.acked.len() + usize::from(self.pending.is_some());
        if have < self.acked.len() {
            return Err(self.fail(format!(
                "{} moves acknowledged, only {have} after the resume",
                self.acked.len()
            )));
        }
        if have > most
            || routes[..self.acked.len()] != self.acked[..]
            || routes[..] != self.game.routes[..have]
        {
            return Err(self.fail(format!(
                "after the resume the moves are {routes:?}; acknowledged {:?}, pending {:?}",
                self.acked, self.pending
            )));
        }
        Ok(have)
    }

    /// Drops side's connection (lost or silent): it reconnects in the next phase.
    fn lose(&mut self, side: usize) {
        if let Some(client) = self.clients[side].take() {
            self.next_ids[side] = self.next_ids[side].max(client.next_id());
            let who = if side == 0 { "white" } else { "black" };
            let mut ledger = self.ledger.lock().expect("ledger");
            let _ = ledger.record_all(who, client.backlog());
            let _ = ledger.answers(who, client.extra_answers());
        }
    }
}

/// Reconnects the players who lost their connection (White to `homes[0]`, Black to
/// `homes[1]`), resumes their seats, re-sends the unanswered move with its id, and plays on
/// until the game ends or a connection is lost (or a move stays unanswered for `patience`).
async fn phase(
    mut run: Run,
    homes: [SocketAddr; 2],
    patience: Duration,
    acks: Arc<AtomicUsize>,
) -> Result<Run, String> {
    if run.finished {
        return Ok(run);
    }
    let mut ply = run.acked.len();
    let mut snapshot_ply = None;
    for (side, home) in homes.into_iter().enumerate() {
        if run.clients[side].is_some() {
            continue;
        }
        let who = if side == 0 { "white" } else { "black" };
        let mut client = match connect(home, run.encoding).await {
            Ok(client) => client,
            Err(err) if is_connection_loss(&err) => return Ok(run),
            Err(err) => return Err(run.fail(format!("{who} reconnects: {err}"))),
        };
        client.timeout = patience.max(PATIENCE);
        client.set_next_id(run.next_ids[side]);
        let seat = match resume_patiently(&mut client, &run.tokens[side]).await {
            Ok(seat) => seat,
            Err(err) if is_connection_loss(&err) || is_try_again(&err) => return Ok(run),
            Err(err) => return Err(run.fail(format!("{who} resumes on {home}: {err}"))),
        };
        run.next_ids[side] = client.next_id();
        if seat.match_id != run.match_id || seat.side != seat_of("", side, "").side {
            return Err(run.fail(format!("{who} resumed the wrong seat {seat:?}")));
        }
        let match_id = run.match_id.clone();
        let snapshot = match client
            .wait_for("the snapshot after resume", |message| match message {
                ServerMessage::MatchSnapshot(s) if s.match_id == match_id => Some(s.clone()),
                _ => None,
            })
            .await
        {
            Ok(snapshot) => snapshot,
            Err(err) if is_connection_loss(&err) => return Ok(run),
            Err(err) => return Err(run.fail(format!("{who}'s snapshot: {err}"))),
        };
        record(
            &run.ledger,
            who,
            &ServerMessage::MatchSnapshot(snapshot.clone()),
        )?;
        snapshot_ply = Some(run.reconcile(&snapshot)?);
        run.resumed += 1;
        run.clients[side] = Some(client);
    }
    if let Some(have) = snapshot_ply {
        ply = have;
    }
    if let Some(pending) = run.pending.take() {
        // Re-send the unanswered move unchanged, id included (PROTOCOL.md §9): the match
        // deduplicates it if the first one was applied.
        let route = run.game.routes[pending.ply].clone();
        let seat = seat_of(&run.match_id, pending.side, &run.tokens[pending.side]);
        let client = run.clients[pending.side].as_mut().expect("connected above");
        let resent = async {
            client
                .send_with_id(pending.id, move_message(&seat, &route))
                .await?;
            client.expect_ack(pending.id).await
        }
        .await;
        match resent {
            Ok(ack) => {
                if snapshot_ply.is_some_and(|have| ack.duplicate != (have > pending.ply)) {
                    return Err(run.fail(format!(
                        "re-sent ply {} (in the snapshot: {}) got {ack:?}",
                        pending.ply,
                        ply > pending.ply
                    )));
                }
                run.acked.push(route);
                acks.fetch_add(1, Ordering::Relaxed);
                ply = pending.ply + 1;
            }
            Err(err) if is_connection_loss(&err) => {
                run.pending = Some(pending);
                run.lose(pending.side);
                return Ok(run);
            }
            Err(err) if is_try_again(&err) => {
                run.pending = Some(pending);
                return Ok(run);
            }
            Err(err) => return Err(run.fail(format!("re-sent ply {}: {err}", pending.ply))),
        }
    }
    while ply < run.game.routes.len() {
        let side = ply % 2;
        let route = run.game.routes[ply].clone();
        let seat = seat_of(&run.match_id, side, &run.tokens[side]);
        let client = run.clients[side]
            .as_mut()
            .expect("both players are connected");
        let id = client.next_id();
        run.pending = Some(Pending { side, id, ply });
        let played = async {
            client.send(move_message(&seat, &route)).await?;
            tokio::time::timeout(patience, client.expect_ack(id))
                .await
                .unwrap_or_else(|_| Err(ClientError::Timeout(format!("the ack of ply {ply}"))))
        }
        .await;
        run.next_ids[side] = client.next_id();
        match played {
            Ok(ack) => {
                // Carried out (the final history is checked against every ack). A proxy that
                // sent the command again itself may pass on the owner's `duplicate: true`;
                // clients do not act on the flag, so it is noted, not failed.
                if ack.duplicate {
                    eprintln!(
                        "{}",
                        run.fail(format!("ply {ply}: sent once, acknowledged {ack:?}"))
                    );
                }
                run.pending = None;
                run.acked.push(route);
                acks.fetch_add(1, Ordering::Relaxed);
                ply += 1;
            }
            Err(err) if is_connection_loss(&err) => {
                run.lose(side);
                return Ok(run);
            }
            // Nothing applied: the move stays pending and goes again, same id, next round.
            Err(err) if is_try_again(&err) => return Ok(run),
            Err(err) => return Err(run.fail(format!("ply {ply}: {err}"))),
        }
    }
    run.finished = true;
    for side in 0..2 {
        let who = if side == 0 { "white" } else { "black" };
        if let Some(client) = &run.clients[side] {
            run.ledger
                .lock()
                .expect("ledger")
                .record_all(who, client.backlog())?;
        }
    }
    Ok(run)
}

fn move_message(seat: &Seat, route: &[u8]) -> ClientMessage {
    ClientMessage::Move(boardcast_protocol::PlayMove {
        match_id: seat.match_id.clone(),
        token: seat.token.clone(),
        route: route.to_vec(),
        lag_ms: None,
    })
}

/// Runs a phase of every match at once.
async fn run_phase(
    runs: Vec<Run>,
    homes: [SocketAddr; 2],
    patience: Duration,
    acks: &Arc<AtomicUsize>,
) -> Vec<Run> {
    boardcast_tests::all_in_order(runs.into_iter().map(|run| {
        let acks = Arc::clone(acks);
        phase(run, homes, patience, acks)
    }))
    .await
}

/// Opens `count` matches, White on `white`, Black on `black`.
async fn open_runs(count: usize, white: SocketAddr, black: SocketAddr) -> Vec<Run> {
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..count {
        tasks.spawn(async move {
            let game = &reference_games()[index % reference_games().len()];
            (
                index,
                Run::open(game, encoding_for(index), white, black).await,
            )
        });
    }
    let mut runs: Vec<Option<Run>> = (0..count).map(|_| None).collect();
    while let Some(done) = tasks.join_next().await {
        let (index, run) = done.expect("an opening task panicked");
        runs[index] = Some(run.unwrap_or_else(|err| panic!("opening match {index}: {err}")));
    }
    runs.into_iter().map(|run| run.expect("opened")).collect()
}

/// Plays phases until every match is over, or `within` has passed; a round that moved
/// nothing (everyone told to try again, or still reconnecting) is followed by a short pause.
async fn play_to_the_end(
    mut runs: Vec<Run>,
    homes: [SocketAddr; 2],
    patience: Duration,
    acks: &Arc<AtomicUsize>,
    within: Duration,
) -> Vec<Run> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline && !runs.iter().all(|run| run.finished) {
        let before = acks.load(Ordering::Relaxed);
        runs = run_phase(runs, homes, patience, acks).await;
        if acks.load(Ordering::Relaxed) == before {
            tokio::time::sleep(TRY_AGAIN_AFTER).await;
        }
    }
    runs
}

/// Every match finished exactly as its reference game, as a fresh watcher on `addr` sees it
/// and as its stored PDN says; no client saw two histories.
async fn check_all_finished(addr: SocketAddr, runs: &[Run], logs: &str) {
    let mut watcher = connect(addr, Encoding::Postcard).await.expect("connect");
    for run in runs {
        assert!(run.finished, "{}\n{logs}", run.fail("did not finish"));
        let snapshot = watcher
            .watch_match(&run.match_id)
            .await
            .unwrap_or_else(|err| panic!("{}", run.fail(format!("watch: {err}"))));
        record(
            &run.ledger,
            "final watcher",
            &ServerMessage::MatchSnapshot(snapshot.clone()),
        )
        .unwrap_or_else(|fork| panic!("{fork}"));
        let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
        assert_eq!(routes, run.game.routes, "{}", run.fail("final moves"));
        assert_eq!(
            snapshot.phase,
            MatchPhase::Finished,
            "{}",
            run.fail("phase")
        );
        let result = snapshot
            .result
            .as_ref()
            .expect("a finished match has a result");
        run.game
            .check_result(result)
            .unwrap_or_else(|err| panic!("{err}"));
        let stored = pdn(addr, &run.match_id)
            .await
            .unwrap_or_else(|err| panic!("{err}"));
        let imported =
            frisian::pdn::import(&stored).unwrap_or_else(|err| panic!("{}", run.fail(err)));
        assert_eq!(
            imported.moves.len(),
            run.game.moves.len(),
            "{}",
            run.fail("PDN moves")
        );
        assert_eq!(
            imported.end.fen(),
            *run.game.fens.last().expect("games have moves"),
            "{}",
            run.fail("PDN end")
        );
        let mut ledger = run.ledger.lock().expect("ledger");
        for (client, who) in run.clients.iter().zip(["white", "black"]) {
            if let Some(client) = client {
                let _ = ledger.answers(who, client.extra_answers());
            }
        }
        ledger.check().unwrap_or_else(|fork| panic!("{fork}"));
    }
}

// ---------------------------------------------------------------------------------------------
// 2. kill -9 of the owner.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_owner_of_50_matches_loses_no_acknowledged_move() {
    const MATCHES: usize = 50;
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: kill -9 of an owner",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    // Matches belong to the node they were created on: all fifty to a.
    let runs = open_runs(MATCHES, a, b).await;
    let total: usize = runs.iter().map(|run| run.game.routes.len()).sum();
    let acks = Arc::new(AtomicUsize::new(0));
    let pid = cluster.pid("a").expect("a runs");
    let kill_at = total / 3;
    let watch_acks = Arc::clone(&acks);
    let killer = tokio::spawn(async move {
        while watch_acks.load(Ordering::Relaxed) < kill_at {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        // SAFETY: kill(2) with our child's pid has no memory effects.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
    });
    let runs = run_phase(runs, [a, b], PATIENCE, &acks).await;
    if acks.load(Ordering::Relaxed) < kill_at {
        killer.abort();
        panic!(
            "every match stopped (a move unanswered for {PATIENCE:?}, or a connection lost) \
             after {} of {total} moves, before the kill at {kill_at}\n{}",
            acks.load(Ordering::Relaxed),
            cluster.logs()
        );
    }
    killer.await.expect("the killer");
    cluster.kill9("a");
    let interrupted = runs.iter().filter(|run| !run.finished).count();
    eprintln!(
        "killed a after {} of {total} moves; {interrupted} of {MATCHES} matches unfinished",
        acks.load(Ordering::Relaxed)
    );
    assert!(
        interrupted > MATCHES / 2,
        "the kill came too late to prove anything"
    );
    // White's players were on a: they come back on c; Black's stay on b (or come back there).
    let runs = play_to_the_end(runs, [c, b], PATIENCE, &acks, Duration::from_secs(300)).await;
    if let Some(run) = runs.iter().find(|run| !run.finished) {
        panic!(
            "{}\n{}",
            run.fail("did not finish after the take-over"),
            cluster.logs()
        );
    }
    assert!(
        runs.iter().filter(|run| run.resumed > 0).count() >= interrupted,
        "every interrupted match was resumed on another node"
    );
    check_all_finished(b, &runs, &cluster.logs()).await;
}

/// Waits until every unfinished match has a live owner other than `dead` (whose lease may
/// still run for a while); returns each match's owner.
async fn owners_after_take_over(
    cluster: &Cluster,
    dead: &str,
    matches: usize,
) -> BTreeMap<String, String> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let owners = cluster.owners().await.unwrap_or_else(|err| panic!("{err}"));
        assert_eq!(owners.len(), matches, "unfinished matches: {owners:?}");
        if owners
            .values()
            .all(|owner| owner.as_deref().is_some_and(|owner| owner != dead))
        {
            return owners
                .into_iter()
                .filter_map(|(id, owner)| Some((id, owner?)))
                .collect();
        }
        assert!(
            Instant::now() < deadline,
            "orphans left without a new owner for {PATIENCE:?}: {owners:?}\n{}",
            cluster.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Issue 28 item 9, with players: a dead node's matches spread over the survivors even when
/// one survivor follows every one of them (its proxies see the owner die first and used to
/// take all 20), and every match goes on to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_nodes_matches_spread_over_the_survivors_though_one_follows_them_all() {
    const MATCHES: usize = 20;
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: orphans spread past proxies",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    // Every match belongs to a; Black follows each through a proxy on b, which sees the owner
    // die as soon as b's lease learns it, before any sweeper.
    let mut runs = open_runs(MATCHES, a, b).await;
    cluster.kill9("a");
    for run in &mut runs {
        run.lose(0);
    }
    let owners = owners_after_take_over(&cluster, "a", MATCHES).await;
    let mut shares: BTreeMap<&str, usize> = BTreeMap::new();
    for owner in owners.values() {
        *shares.entry(owner.as_str()).or_default() += 1;
    }
    eprintln!("after a's death: {shares:?}");
    // Each went to the survivor it spreads to, not to b whose proxies saw a die first.
    let survivors: HashSet<NodeRef> = ["b", "c"]
        .map(|node| NodeRef {
            node: node.to_owned(),
            incarnation: 1,
        })
        .into();
    for (id, owner) in &owners {
        let chosen = boardcast_server::spread::chosen(id, &survivors).expect("alive");
        assert_eq!(
            *owner,
            chosen.node,
            "match {id}: {shares:?}\n{}",
            cluster.logs()
        );
    }
    // White's players were on a: they come back on c; Black's stay on b.
    let acks = Arc::new(AtomicUsize::new(0));
    let runs = play_to_the_end(runs, [c, b], PATIENCE, &acks, Duration::from_secs(300)).await;
    if let Some(run) = runs.iter().find(|run| !run.finished) {
        panic!("{}\n{}", run.fail("did not finish"), cluster.logs());
    }
    check_all_finished(c, &runs, &cluster.logs()).await;
}

// ---------------------------------------------------------------------------------------------
// 3. A frozen owner comes back.

/// A watcher that records every message of one match into its ledger until the match ends,
/// watching again (from the last version it has) on `addr` whenever its connection drops.
/// Returns how many times it watched again, or the first gap in versions it was sent.
async fn follow(
    addr: SocketAddr,
    match_id: String,
    ledger: SharedLedger,
    who: String,
    encoding: Encoding,
) -> Result<usize, String> {
    let mut last_v: Option<u64> = None;
    let mut rewatches = 0;
    let deadline = Instant::now() + Duration::from_secs(600);
    loop {
        if Instant::now() > deadline {
            return Err(format!("{who}: the match did not end"));
        }
        let mut client = match connect(addr, encoding).await {
            Ok(client) => client,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        let watch = Watch {
            target: Target::Match(match_id.clone()),
            since_v: last_v,
        };
        if client.send(ClientMessage::Watch(watch)).await.is_err() {
            continue;
        }
        if last_v.is_some() {
            rewatches += 1;
        }
        loop {
            let message = match client.recv(Duration::from_secs(120)).await {
                Ok(message) => message,
                Err(err) if is_connection_loss(&err) => break,
                Err(err) => return Err(format!("{who}: {err}")),
            };
            record(&ledger, &who, &message)?;
            match &message {
                ServerMessage::MatchSnapshot(s) if s.match_id == match_id => {
                    last_v = Some(s.v);
                    if s.phase == MatchPhase::Finished {
                        return Ok(rewatches);
                    }
                }
                ServerMessage::MatchEvent(e) if e.match_id == match_id => {
                    if let Some(last) = last_v.filter(|last| e.v != last + 1) {
                        return Err(format!(
                            "{who}: sent v {} after v {last}: watchers must catch up by version",
                            e.v
                        ));
                    }
                    last_v = Some(e.v);
                    if matches!(e.event, MatchEvent::Ended(_)) {
                        return Ok(rewatches);
                    }
                }
                // A watch carried over to a new owner comes as a `resumed` (PROTOCOL §3.5).
                ServerMessage::Ack(Ack { id: 0, .. }) | ServerMessage::Seat(Seat { id: 0, .. }) => {
                    return Err(format!("{who}: an unasked reply with id 0: {message:?}"));
                }
                ServerMessage::Error(error) => {
                    if is_try_again(&ClientError::Refused(error.clone())) {
                        // Moving to another node: watch again in a moment.
                        tokio::time::sleep(TRY_AGAIN_AFTER).await;
                        break;
                    }
                    return Err(format!("{who}: watch refused: {error:?}"));
                }
                _ => {}
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_owner_that_wakes_up_after_a_take_over_cannot_fork_the_history() {
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: SIGSTOP of an owner",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    let game = &reference_games()[0];
    let encoding = Encoding::Json;
    // White plays on a, which owns the match; Black on b; one watcher on every node.
    let mut white_on_a = connect(a, encoding).await.expect("connect");
    let white_seat = white_on_a
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("create");
    let match_id = white_seat.match_id.clone();
    let mut black = connect(b, encoding).await.expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("join");
    let ledger = Ledger::shared(&match_id);
    let watchers: Vec<_> = [("a", a), ("b", b), ("c", c)]
        .into_iter()
        .map(|(node, addr)| {
            tokio::spawn(follow(
                addr,
                match_id.clone(),
                Arc::clone(&ledger),
                format!("watcher on {node}"),
                Encoding::Postcard,
            ))
        })
        .collect();

    // A white ply after which White has a choice: there the frozen owner gets another move.
    let fork_ply = (2..game.routes.len())
        .step_by(2)
        .find(|&ply| legal_count(game, ply) > 1)
        .expect("some white ply has a choice");
    for ply in 0..fork_ply {
        let (client, seat) = if ply % 2 == 0 {
            (&mut white_on_a, &white_seat)
        } else {
            (&mut black, &black_seat)
        };
        client
            .play(seat, &game.routes[ply])
            .await
            .expect("a move before the freeze");
    }

    cluster.freeze("a");
    let frozen_at = Instant::now();
    // White's move reaches the frozen owner's socket: a move the rest of the game never plays.
    let other = other_legal_route(game, fork_ply);
    let late_id = white_on_a
        .send_move(&white_seat, &other)
        .await
        .expect("the socket takes it");
    // White gives up on a and comes back on c: the match is taken over (a's lease lapses).
    let mut white = connect(c, encoding).await.expect("connect to c");
    white.set_next_id(late_id + 1);
    let seat = resume_patiently(&mut white, &white_seat.token)
        .await
        .unwrap_or_else(|err| panic!("resume on c while a is frozen: {err}\n{}", cluster.logs()));
    assert_eq!(seat.match_id, match_id);
    let snapshot = white
        .wait_for("the snapshot after resume", |message| match message {
            ServerMessage::MatchSnapshot(s) if s.match_id == match_id => Some(s.clone()),
            _ => None,
        })
        .await
        .expect("snapshot");
    record(
        &ledger,
        "white on c",
        &ServerMessage::MatchSnapshot(snapshot.clone()),
    )
    .unwrap();
    let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
    assert_eq!(
        routes,
        game.routes[..fork_ply],
        "the history before the freeze, whole"
    );
    play_patiently(&mut white, &white_seat, &game.routes[fork_ply])
        .await
        .unwrap_or_else(|err| panic!("White's move at the new owner: {err}\n{}", cluster.logs()));
    eprintln!(
        "taken over and played on {:?} after the freeze",
        frozen_at.elapsed()
    );
    // a renewed its lease at most a third of a lease before it froze.
    assert!(
        frozen_at.elapsed() >= Duration::from_millis(TEST_LEASE_MS * 2 / 3),
        "nobody may take a match over before its owner's lease ran out"
    );

    // The old owner wakes up with White's other move in its socket: refused, never acked.
    cluster.thaw("a");
    match white_on_a.expect_reply(late_id).await {
        Ok(ServerMessage::Ack(ack)) => panic!(
            "the woken owner acknowledged a move of a history that is gone: {ack:?}\n{}",
            cluster.logs()
        ),
        Ok(ServerMessage::Error(error)) => {
            eprintln!("the woken owner refused the late move: {error:?}")
        }
        Ok(other) => panic!("unexpected reply {other:?}"),
        Err(ClientError::Closed(close)) => {
            eprintln!("the woken owner closed the connection: {close:?}")
        }
        Err(err) => panic!(
            "the woken owner left the late move unanswered: {err}\n{}",
            cluster.logs()
        ),
    }
    record_backlog(&ledger, "white's old connection on a", &white_on_a);
    // Whoever asks a now gets the one history.
    let mut on_a = connect(a, encoding).await.expect("a serves again");
    let seen = on_a
        .watch_match(&match_id)
        .await
        .unwrap_or_else(|err| panic!("watch on a: {err}\n{}", cluster.logs()));
    record(
        &ledger,
        "new watcher on a",
        &ServerMessage::MatchSnapshot(seen.clone()),
    )
    .unwrap();
    assert!(
        seen.moves.len() > fork_ply,
        "a shows the moves made while it was frozen"
    );

    for ply in fork_ply + 1..game.routes.len() {
        let (client, seat) = if ply % 2 == 0 {
            (&mut white, &white_seat)
        } else {
            (&mut black, &black_seat)
        };
        play_patiently(client, seat, &game.routes[ply])
            .await
            .unwrap_or_else(|err| panic!("ply {ply}: {err}\n{}", cluster.logs()));
    }
    for watcher in watchers {
        watcher
            .await
            .expect("a watcher task")
            .unwrap_or_else(|err| panic!("{err}\n{}", cluster.logs()));
    }
    record_backlog(&ledger, "white on c", &white);
    // Black's node proxies the match: it carries Black's seat over to the new owner (or
    // hands it to the match taken over on b itself) and says so with a `resumed`.
    record_backlog(&ledger, "black on b", &black);
    assert!(
        black.backlog().iter().any(|message| matches!(message,
            ServerMessage::Resumed(r) if r.match_id == match_id && r.side == Some(Side::Black))),
        "Black's seat was carried over with a `resumed`"
    );
    let ledger = ledger.lock().expect("ledger");
    ledger.check().unwrap_or_else(|fork| panic!("{fork}"));
    let (moves, complete) = ledger.notations();
    assert!(
        complete && moves == game.moves,
        "the one history is the reference game: {moves:?}"
    );
}

/// Checks what `client` received: one history, one reply per envelope, and no unasked reply
/// with id 0 (a seat carried over to another server is a `resumed`; issue 28, items 2 and 7).
fn record_backlog(ledger: &SharedLedger, who: &str, client: &Client) {
    let mut ledger = ledger.lock().expect("ledger");
    ledger
        .record_all(who, client.backlog())
        .unwrap_or_else(|fork| panic!("{fork}"));
    ledger
        .answers(who, client.extra_answers())
        .unwrap_or_else(|problem| panic!("{problem}"));
    ledger
        .unasked(who, client.unasked())
        .unwrap_or_else(|problem| panic!("{problem}"));
}

/// The position before `ply` of `game`.
fn position_before(game: &RefGame, ply: usize) -> frisian::Position {
    let fen = if ply == 0 {
        &game.start_fen
    } else {
        &game.fens[ply - 1]
    };
    frisian::Position::from_fen(fen).expect("a reference FEN")
}

fn legal_count(game: &RefGame, ply: usize) -> usize {
    position_before(game, ply).legal_moves().len()
}

/// A legal move at `ply` other than the one the game plays.
fn other_legal_route(game: &RefGame, ply: usize) -> Vec<u8> {
    position_before(game, ply)
        .legal_moves()
        .iter()
        .map(|mv| {
            mv.route()
                .iter()
                .map(|square| square.number())
                .collect::<Vec<u8>>()
        })
        .find(|route| *route != game.routes[ply])
        .expect("a choice")
}

// ---------------------------------------------------------------------------------------------
// 4. Redis restarted mid-game.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restart_mid_game_loses_no_acknowledged_move_and_watchers_catch_up() {
    const MATCHES: usize = 10;
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: Redis restart",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    let runs = open_runs(MATCHES, a, b).await;
    let watchers: Vec<_> = runs
        .iter()
        .map(|run| {
            tokio::spawn(follow(
                c,
                run.match_id.clone(),
                Arc::clone(&run.ledger),
                "watcher on c".into(),
                run.encoding,
            ))
        })
        .collect();
    let total: usize = runs.iter().map(|run| run.game.routes.len()).sum();
    let acks = Arc::new(AtomicUsize::new(0));
    // A move that crossed nodes while Redis was away may never be answered: after a while its
    // player reconnects and sends it again, as every client does with an unanswered move.
    let patience = Duration::from_secs(10);
    let playing = {
        let acks = Arc::clone(&acks);
        tokio::spawn(async move {
            play_to_the_end(runs, [a, b], patience, &acks, Duration::from_secs(300)).await
        })
    };
    while acks.load(Ordering::Relaxed) < total / 3 {
        assert!(
            !playing.is_finished(),
            "the matches stopped after {} of {total} moves, before Redis was restarted\n{}",
            acks.load(Ordering::Relaxed),
            cluster.logs()
        );
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let before = acks.load(Ordering::Relaxed);
    cluster.redis().stop();
    // The outage: players go on moving (those whose owner is their own node get answers).
    tokio::time::sleep(Duration::from_secs(2)).await;
    cluster.redis().start_again().expect("Redis starts again");
    eprintln!(
        "Redis was down from {before} to {} acknowledged moves of {total}",
        acks.load(Ordering::Relaxed)
    );
    let runs = playing.await.expect("the players");
    for (run, watcher) in runs.iter().zip(watchers) {
        let rewatches = watcher
            .await
            .expect("a watcher task")
            .unwrap_or_else(|err| panic!("{}\n{}", run.fail(err), cluster.logs()));
        let ledger = run.ledger.lock().expect("ledger");
        let (moves, complete) = ledger.notations();
        assert!(
            complete && moves == run.game.moves,
            "{}: the watcher and players saw {moves:?} (watched again {rewatches} times)",
            run.fail("")
        );
    }
    check_all_finished(c, &runs, &cluster.logs()).await;
}

// ---------------------------------------------------------------------------------------------
// 5. A TV channel whose owner is killed.

/// One versioned message of a channel as a watcher got it.
#[derive(Debug, Clone)]
struct Reveal {
    at: Instant,
    v: u64,
    game_id: u64,
    ply: u32,
    mv: String,
    board: String,
}

/// What the watchers of `tv1` saw: every reveal, and every channel event by version (with
/// the timing field, which the take-over recomputes, left out).
#[derive(Debug, Default)]
struct TvLog {
    reveals: Vec<(String, Reveal)>,
    events: BTreeMap<u64, (ChannelEvent, String)>,
    fork: Option<String>,
}

impl TvLog {
    fn event(&mut self, who: &str, v: u64, event: &ChannelEvent) {
        let mut event = event.clone();
        match &mut event {
            ChannelEvent::PlyRevealed(ply) => ply.next_reveal_in_ms = None,
            ChannelEvent::GameStarted(view) => view.next_reveal_in_ms = None,
            ChannelEvent::GameEnded(end) => end.next_game_in_ms = None,
        }
        match self.events.get(&v) {
            Some((known, first)) if *known != event => {
                self.fork.get_or_insert(format!(
                    "two histories of tv1 at v {v}: {first} saw {known:?}, {who} saw {event:?}"
                ));
            }
            Some(_) => {}
            None => {
                self.events.insert(v, (event, who.to_owned()));
            }
        }
    }
}

/// Watches `tv1` on `addr` until `stop` fires, putting what arrives into `log`; watches again
/// from its last version when the connection drops.
async fn watch_tv(
    addr: SocketAddr,
    who: String,
    log: Arc<std::sync::Mutex<TvLog>>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> Result<(), String> {
    let mut last_v: Option<u64> = None;
    let mut game_id = 0;
    while !*stop.borrow() {
        let Ok(mut client) = connect(addr, Encoding::Json).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let watch = Watch {
            target: Target::Channel("tv1".into()),
            since_v: last_v,
        };
        if client.send(ClientMessage::Watch(watch)).await.is_err() {
            continue;
        }
        loop {
            let message = tokio::select! {
                _ = stop.changed() => return Ok(()),
                message = client.recv(Duration::from_secs(120)) => message,
            };
            let message = match message {
                Ok(message) => message,
                Err(err) if is_connection_loss(&err) => break,
                Err(err) => return Err(format!("{who}: {err}")),
            };
            let at = Instant::now();
            let mut log = log.lock().expect("log");
            match message {
                ServerMessage::ChannelSnapshot(snapshot) if snapshot.channel == "tv1" => {
                    last_v = Some(snapshot.v);
                    if let Some(game) = &snapshot.game {
                        game_id = game.header.game_id;
                    }
                }
                ServerMessage::ChannelEvent(event) if event.channel == "tv1" => {
                    if let Some(last) = last_v.filter(|last| event.v != last + 1) {
                        return Err(format!("{who}: sent v {} after v {last}", event.v));
                    }
                    last_v = Some(event.v);
                    log.event(&who, event.v, &event.event);
                    match &event.event {
                        ChannelEvent::GameStarted(view) => game_id = view.header.game_id,
                        ChannelEvent::PlyRevealed(ply) => log.reveals.push((
                            who.clone(),
                            Reveal {
                                at,
                                v: event.v,
                                game_id,
                                ply: ply.ply,
                                mv: ply.mv.clone(),
                                board: ply.board.clone(),
                            },
                        )),
                        ChannelEvent::GameEnded(_) => {}
                    }
                }
                ServerMessage::Error(error)
                    if is_try_again(&ClientError::Refused(error.clone())) =>
                {
                    drop(log);
                    tokio::time::sleep(TRY_AGAIN_AFTER).await;
                    break;
                }
                ServerMessage::Error(error) => return Err(format!("{who}: {error:?}")),
                _ => {}
            }
        }
    }
    Ok(())
}

/// Waits until `count` reveals arrived at `who` after `since`.
async fn reveals_after(
    log: &Arc<std::sync::Mutex<TvLog>>,
    who: &str,
    since: Instant,
    count: usize,
    within: Duration,
) -> Result<(), String> {
    let deadline = Instant::now() + within;
    loop {
        let seen = log
            .lock()
            .expect("log")
            .reveals
            .iter()
            .filter(|(by, reveal)| by == who && reveal.at > since)
            .count();
        if seen >= count {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "{who} saw {seen} of {count} reveals within {within:?}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tv_channel_keeps_revealing_on_time_when_its_owner_is_killed() {
    const INTERVAL_MS: u64 = 500;
    let interval = Duration::from_millis(INTERVAL_MS);
    let options = ClusterOptions::default().with_args(&[
        "--channels",
        "1",
        "--ply-interval",
        "500ms",
        "--game-pause",
        "2s",
    ]);
    // a starts alone, so it owns tv1.
    let Some(mut cluster) =
        Cluster::start_or_skip("cluster: TV take-over", server_program(), &["a"], options)
    else {
        return;
    };
    let log = Arc::new(std::sync::Mutex::new(TvLog::default()));
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut watchers = vec![tokio::spawn(watch_tv(
        cluster.addr("a"),
        "a".into(),
        Arc::clone(&log),
        stopped.clone(),
    ))];
    let started = Instant::now();
    reveals_after(&log, "a", started, 2, PATIENCE)
        .await
        .unwrap();
    for node in ["b", "c"] {
        // Blocking (it waits for the node to serve): off the watchers' worker thread.
        let addr = tokio::task::block_in_place(|| cluster.add_node(node));
        watchers.push(tokio::spawn(watch_tv(
            addr,
            node.into(),
            Arc::clone(&log),
            stopped.clone(),
        )));
    }
    for node in ["b", "c"] {
        reveals_after(&log, node, started, 3, PATIENCE)
            .await
            .unwrap_or_else(|err| {
                panic!(
                    "{err}: tv1 is relayed to the other nodes\n{}",
                    cluster.logs()
                )
            });
    }
    tokio::task::block_in_place(|| cluster.kill9("a"));
    let killed = Instant::now();
    for node in ["b", "c"] {
        reveals_after(&log, node, killed, 8, Duration::from_secs(90))
            .await
            .unwrap_or_else(|err| {
                panic!(
                    "{err}: tv1 goes on after its owner died\n{}",
                    cluster.logs()
                )
            });
    }
    let _ = stop.send(true);
    for watcher in watchers {
        watcher
            .await
            .expect("a watcher task")
            .unwrap_or_else(|err| panic!("{err}"));
    }

    let log = log.lock().expect("log");
    if let Some(fork) = &log.fork {
        panic!("{fork}");
    }
    // One channel, not three: what b and c were sent before the kill came from a's channel
    // (the same events under the same versions), and after it b and c show the same events.
    let versions = |who: &str, after: bool| -> std::collections::BTreeSet<u64> {
        log.reveals
            .iter()
            .filter(|(by, reveal)| by == who && (reveal.at > killed) == after)
            .map(|(_, reveal)| reveal.v)
            .collect()
    };
    for node in ["b", "c"] {
        let shared = versions(node, false)
            .intersection(&versions("a", false))
            .count();
        assert!(
            shared >= 2,
            "{node} was not sent a's reveals before the kill (only {shared} in common)"
        );
    }
    let together = versions("b", true)
        .intersection(&versions("c", true))
        .count();
    assert!(
        together >= 6,
        "after the kill b and c show different channels ({together} reveals in common)"
    );
    // The game running at the kill goes on at the next ply, not from its start or a new game.
    let running = log
        .reveals
        .iter()
        .rev()
        .find(|(by, reveal)| by == "b" && reveal.at < killed)
        .map(|(_, reveal)| (reveal.game_id, reveal.ply))
        .expect("b saw reveals before the kill");
    let ended_at_kill = log.events.values().any(
        |(event, _)| matches!(event, ChannelEvent::GameEnded(end) if end.game_id == running.0),
    );
    let next = log
        .reveals
        .iter()
        .find(|(by, reveal)| by == "b" && reveal.at > killed)
        .map(|(_, reveal)| (reveal.game_id, reveal.ply))
        .expect("b saw reveals after the kill");
    assert!(
        ended_at_kill || next == (running.0, running.1 + 1),
        "game {} was at ply {} at the kill; the next reveal on b was game {} ply {}",
        running.0,
        running.1,
        next.0,
        next.1
    );
    // One move per ply of a game, whoever revealed it.
    let mut moves: BTreeMap<(u64, u32), (&str, &str)> = BTreeMap::new();
    for (who, reveal) in &log.reveals {
        let known = moves
            .entry((reveal.game_id, reveal.ply))
            .or_insert((&reveal.mv, &reveal.board));
        assert_eq!(
            *known,
            (reveal.mv.as_str(), reveal.board.as_str()),
            "game {} ply {} revealed twice with different moves ({who} at v {})",
            reveal.game_id,
            reveal.ply,
            reveal.v
        );
    }
    // The schedule of each game running at the kill, from reveals before it: ply p is due at
    // `base + p × interval`, and no arrival is earlier than its due time, so the earliest
    // `arrival − p × interval` is the latest the base can be.
    let mut base: BTreeMap<u64, Instant> = BTreeMap::new();
    for (_, reveal) in log.reveals.iter().filter(|(_, r)| r.at < killed) {
        let Some(candidate) = reveal.at.checked_sub(interval * reveal.ply) else {
            continue;
        };
        base.entry(reveal.game_id)
            .and_modify(|b| *b = (*b).min(candidate))
            .or_insert(candidate);
    }
    let tolerance = Duration::from_millis(150);
    let mut late = Vec::new();
    for (who, reveal) in log.reveals.iter().filter(|(_, r)| r.at > killed) {
        let Some(base) = base.get(&reveal.game_id) else {
            continue; // a game that started after the kill has no schedule from before it
        };
        let due = *base + interval * reveal.ply;
        assert!(
            reveal.at + tolerance >= due,
            "{who}: ply {} of game {} revealed {:?} before it was due",
            reveal.ply,
            reveal.game_id,
            due - reveal.at
        );
        late.push(reveal.at.saturating_duration_since(due));
    }
    eprintln!("after the kill, reveals of the running game came this late: {late:?}");
    // After the take-over the channel is back on its schedule (the plies due while nobody
    // owned it come late, at the take-over; the last ones are on time again).
    assert!(
        late.iter()
            .rev()
            .take(3)
            .all(|late| *late < Duration::from_secs(2)),
        "the new owner does not keep the schedule: {late:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// 6. The shared lobby.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_made_on_one_node_is_listed_on_another_within_a_second_and_joined_there() {
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: shared lobby",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let (a, c) = (cluster.addr("a"), cluster.addr("c"));
    let mut on_c = connect(c, Encoding::Json).await.expect("connect to c");
    let mut creator = connect(a, Encoding::Postcard).await.expect("connect to a");
    creator.hello("Sietske").await.expect("hello");
    let seat = creator
        .create_match(ColorChoice::White, true, None)
        .await
        .expect("a public seek on a");
    let made = Instant::now();
    let listed = loop {
        let id = on_c.send(ClientMessage::ListLobby).await.expect("list");
        let lobby = on_c
            .wait_for("the lobby", |message| match message {
                ServerMessage::Lobby(lobby) => Some(lobby.clone()),
                ServerMessage::Error(error) if error.id == Some(id) => {
                    panic!("list_lobby refused: {error:?}")
                }
                _ => None,
            })
            .await
            .expect("the lobby from c");
        if let Some(line) = lobby
            .seeks
            .iter()
            .find(|line| line.match_id == seat.match_id)
        {
            break (made.elapsed(), line.clone());
        }
        if made.elapsed() > Duration::from_secs(10) {
            panic!("the seek never showed on c: {lobby:?}\n{}", cluster.logs());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    eprintln!(
        "the seek was listed on c {:?} after it was made on a",
        listed.0
    );
    assert!(
        listed.0 <= Duration::from_secs(1),
        "listed on c only after {:?}",
        listed.0
    );
    assert_eq!(listed.1.white.as_deref(), Some("Sietske"));
    assert_eq!(listed.1.black, None);
    assert_eq!(listed.1.phase, MatchPhase::Waiting);

    // Joined on c from the lobby line; the creator on a sees the joiner.
    on_c.hello("Wytze").await.expect("hello");
    let joined = on_c.join_match(&seat.match_id).await.expect("join on c");
    assert_eq!(joined.side, Side::Black);
    let game = &reference_games()[0];
    creator
        .play(&seat, &game.routes[0])
        .await
        .expect("White on a");
    on_c.play(&joined, &game.routes[1])
        .await
        .expect("Black on c");
    let announced = creator
        .wait_for("the joiner", |message| match message {
            ServerMessage::MatchEvent(event) => match &event.event {
                MatchEvent::PlayerJoined(joined) => Some(joined.clone()),
                _ => None,
            },
            _ => None,
        })
        .await
        .expect("a player_joined event on a");
    assert_eq!(
        (announced.side, announced.name.as_str()),
        (Side::Black, "Wytze")
    );
    // The seek is gone from every node's list; the match is live there.
    for addr in [a, c] {
        let mut client = connect(addr, Encoding::Json).await.expect("connect");
        let deadline = Instant::now() + PATIENCE;
        loop {
            client.send(ClientMessage::ListLobby).await.expect("list");
            let lobby = client
                .wait_for("the lobby", |message| match message {
                    ServerMessage::Lobby(lobby) => Some(lobby.clone()),
                    _ => None,
                })
                .await
                .expect("lobby");
            let seeking = lobby
                .seeks
                .iter()
                .any(|line| line.match_id == seat.match_id);
            let live = lobby.live.iter().any(|line| line.match_id == seat.match_id);
            if !seeking && live {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "{addr}: the joined seek is still listed ({seeking}) or not live ({live})"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The harness itself.

/// Whether `addr` answers `GET /healthz` within `within` (a frozen node accepts the TCP
/// connection in the kernel but never answers).
fn answers(addr: SocketAddr, within: Duration) -> bool {
    use std::io::{Read, Write};
    let Ok(mut stream) = std::net::TcpStream::connect_timeout(&addr, within) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(within));
    if write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .is_err()
    {
        return false;
    }
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).is_ok() && head.starts_with(b"HTTP/1.1 200")
}

#[test]
fn the_harness_freezes_thaws_kills_and_restarts_a_node_on_its_port_and_restarts_redis() {
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: harness",
        server_program(),
        &["a"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let addr = cluster.addr("a");
    assert!(answers(addr, PATIENCE), "a serves\n{}", cluster.logs());
    cluster.freeze("a");
    assert!(
        !answers(addr, Duration::from_millis(500)),
        "a frozen node answers nothing"
    );
    assert!(cluster.is_running("a"), "frozen is not dead");
    cluster.thaw("a");
    assert!(answers(addr, PATIENCE), "a thawed node answers again");
    let pid = cluster.pid("a");
    cluster.kill9("a");
    assert!(!cluster.is_running("a"));
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "a killed node's port is closed"
    );
    let again = cluster.restart("a");
    assert_eq!(again, addr, "a node comes back on its port");
    assert_ne!(cluster.pid("a"), pid, "as a new process");
    assert!(answers(addr, PATIENCE), "the restarted node serves");
    cluster.redis().stop();
    assert!(cluster.redis().ping().is_err());
    cluster.redis().start_again().expect("Redis starts again");
    cluster.redis().ping().expect("Redis answers on its port");
    assert!(
        answers(addr, PATIENCE),
        "the node outlives a Redis restart\n{}",
        cluster.logs()
    );
}

/// Issue 28, 5: a second process started with a running node's `--node-id` takes its lease;
/// the older run must end — exit non-zero, saying why — so a supervisor waiting for it sees
/// it go, instead of a process that closed its clients and lingers on.
#[test]
fn a_node_displaced_by_another_run_of_its_node_id_exits_non_zero_with_the_reason() {
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: displaced node",
        server_program(),
        &["a"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let another = cluster.start_another_run("a");
    // The older run learns it at its next renewal (a third of the lease); the rest is the
    // time it takes to stop on a loaded machine.
    let Some(status) = cluster.wait_exit("a", PATIENCE * 2) else {
        panic!(
            "the displaced run of node a still runs {:?} after another run took its lease\n{}",
            PATIENCE * 2,
            cluster.logs()
        );
    };
    assert!(
        !status.success(),
        "a displaced run exits non-zero, got {status}\n{}",
        cluster.logs()
    );
    let log = cluster.log("a");
    assert!(
        log.contains("node a#1 was displaced: another run of this node id took its lease"),
        "the displaced run says why it stopped\n{}",
        cluster.logs()
    );
    assert!(
        answers(another.addr, PATIENCE),
        "the newer run of node a serves on"
    );
}

/// Issue 27, 7 (the README's "Scale out" recipe): Redis bound to loopback with a password.
/// Nodes connect with `redis://:PASSWORD@host`, never write the password into their logs, stop
/// cleanly without a warning, and a finished (here aborted) match that a player comes back to
/// after its owner stopped is reopened, not logged as "taken over".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_behind_a_redis_password_never_log_it_stop_quietly_and_reopen_finished_matches_quietly()
 {
    const PASSWORD: &str = "club-redis-secret-4711";
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: redis password",
        server_program(),
        &["a", "b"],
        ClusterOptions::default()
            .with_log("info")
            .with_redis_password(PASSWORD),
    ) else {
        return;
    };
    let (a, b) = (cluster.addr("a"), cluster.addr("b"));
    // A match made on a and joined from b: the password-protected bus carries the join.
    let mut white = connect(a, Encoding::Json).await.expect("connect to a");
    let seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("a match on a");
    let mut black = connect(b, Encoding::Postcard).await.expect("connect to b");
    black
        .join(JoinMatch::Code(seat.invite_code.clone()))
        .await
        .unwrap_or_else(|err| panic!("joined from b: {err}\n{}", cluster.logs()));
    white
        .call(ClientMessage::Abort(SeatAction {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
        }))
        .await
        .unwrap_or_else(|err| panic!("aborted: {err}\n{}", cluster.logs()));
    drop((white, black));

    let status = cluster.terminate("a");
    assert!(status.success(), "a clean stop exits 0, got {status}");
    let stopped = cluster.log("a");
    assert!(
        stopped.contains("joined the cluster"),
        "node a joined with the password\n{stopped}"
    );
    assert!(
        !stopped.contains(PASSWORD),
        "node a logged the Redis password\n{stopped}"
    );
    let complaints: Vec<&str> = stopped
        .lines()
        .filter(|line| line.contains("WARN") || line.contains("ERROR"))
        .collect();
    assert!(
        complaints.is_empty(),
        "a clean stop of node a logged warnings: {complaints:#?}"
    );

    // Node a again (a new incarnation); White comes back to the aborted match there.
    cluster.restart("a");
    let mut white = connect(cluster.addr("a"), Encoding::Json)
        .await
        .expect("connect to a again");
    let back = resume_patiently(&mut white, &seat.token)
        .await
        .unwrap_or_else(|err| panic!("resumed the aborted match: {err}\n{}", cluster.logs()));
    assert_eq!(back.match_id, seat.match_id);
    for node in ["a", "b"] {
        let log = cluster.log(node);
        assert!(
            !log.contains("took the match over"),
            "node {node} logged an aborted match as taken over\n{log}"
        );
        assert!(
            !log.contains(PASSWORD),
            "node {node} logged the Redis password"
        );
    }
}

/// Issue 28, 4 and 3: a first move due while PostgreSQL is down. The match must record the
/// abort itself, and storage refuses it; it used to try again at once, forever: 121,000 ERROR
/// lines a second for one match. Since item 3 the first-move wait is held from the moment the
/// node sees storage down (its heartbeat, once a second), so the abort is tried during the
/// outage only when the deadline passed before the node saw it; either way there is no flood
/// (at most one warning per interval, never an ERROR), and the abort is recorded once
/// PostgreSQL is back and the rest of the wait has run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_move_due_while_postgresql_is_down_floods_nothing_and_aborts_once_it_is_back() {
    let mut options = ClusterOptions::default()
        .with_own_postgres()
        .with_args(&["--first-move-timeout", "1s"]);
    // A lease long enough that the node keeps owning the match through the outage: the
    // match's own retries are what is looked at, not a take-over.
    options.lease_ms = 30_000;
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: owed write while PostgreSQL is down",
        server_program(),
        &["a"],
        options,
    ) else {
        return;
    };
    let a = cluster.addr("a");
    let mut white = connect(a, Encoding::Json).await.expect("connect");
    let seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("a match");
    let mut black = connect(a, Encoding::Postcard).await.expect("connect");
    black
        .join(JoinMatch::Code(seat.invite_code.clone()))
        .await
        .expect("joined");
    // White's first move is due within a second; PostgreSQL goes before it falls.
    cluster.postgres().stop();
    tokio::time::sleep(Duration::from_secs(6)).await;
    let log = cluster.log("a");
    let tries: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("cannot record a forfeit or abort"))
        .collect();
    assert!(
        tries.len() <= 2,
        "{} lines about one refused abort in 5 s (one per 10 s expected): {:#?}",
        tries.len(),
        &tries[..tries.len().min(5)]
    );
    assert!(
        tries.iter().all(|line| !line.contains("ERROR")),
        "a refusal that is retried is a warning: {tries:#?}"
    );
    cluster
        .postgres()
        .start_again()
        .expect("PostgreSQL starts again");
    let ended = white
        .wait_for(
            "the abort, once PostgreSQL is back",
            |message| match message {
                ServerMessage::MatchEvent(e) => match &e.event {
                    MatchEvent::Ended(result) => Some(result.clone()),
                    _ => None,
                },
                _ => None,
            },
        )
        .await
        .unwrap_or_else(|err| panic!("{err}\n{}", cluster.logs()));
    assert_eq!(ended.reason, EndReason::Aborted);
    assert_eq!(ended.winner, None);
}

/// Issue 28, 9: the matches of a dead node spread over the survivors, instead of the first
/// one to sweep taking them all. Nobody asks for them (no player reconnects), so only the
/// sweepers take them over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_matches_of_a_dead_node_spread_over_the_survivors() {
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: orphans spread",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default().with_log("info"),
    ) else {
        return;
    };
    let mut creator = connect(cluster.addr("a"), Encoding::Json)
        .await
        .expect("connect to a");
    let mut ids = Vec::new();
    for _ in 0..20 {
        let seat = creator
            .create_match(ColorChoice::White, false, None)
            .await
            .expect("a match on a");
        ids.push(seat.match_id);
    }
    cluster.kill9("a");
    let taken_by = |cluster: &Cluster, node: &str| {
        cluster
            .log(node)
            .lines()
            .filter(|line| line.contains("took the match over"))
            .filter(|line| ids.iter().any(|id| line.contains(id.as_str())))
            .count()
    };
    let deadline = Instant::now() + PATIENCE * 2;
    let (b, c) = loop {
        let (b, c) = (taken_by(&cluster, "b"), taken_by(&cluster, "c"));
        if b + c >= ids.len() {
            break (b, c);
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {} matches taken over (b {b}, c {c})\n{}",
            b + c,
            ids.len(),
            cluster.logs()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    eprintln!("a's 20 matches: b took {b}, c took {c}");
    assert_eq!(b + c, ids.len(), "each taken over once");
    assert!(
        b >= 3 && c >= 3,
        "the survivors share the orphans: b took {b}, c took {c}"
    );
}

/// The snapshot that follows a `resume` on a fresh connection to `addr`.
async fn resumed_snapshot(
    addr: SocketAddr,
    token: &str,
) -> Result<(Client, Seat, MatchSnapshot), ClientError> {
    let mut client = connect(addr, Encoding::Json).await?;
    let seat = client.resume(token, None).await?;
    let snapshot = client
        .wait_for("the snapshot after a resume", |message| match message {
            ServerMessage::MatchSnapshot(snapshot) => Some(snapshot.clone()),
            _ => None,
        })
        .await?;
    Ok((client, seat, snapshot))
}

/// Issue 28, 8: a PostgreSQL outage longer than the lease. Every node's lease lapses; the
/// matches used to stop, closing every player's connection (1012) and refusing `resume`
/// until PostgreSQL was back. Now they are suspended: no connection closes, a move is refused
/// `storage_unavailable` (nothing applied), a seat is resumed from memory, and once
/// PostgreSQL is back each match claims itself back and play goes on, every acknowledged
/// move kept and every envelope answered exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_outage_longer_than_the_lease_keeps_connections_and_seats_and_play_goes_on() {
    let options = ClusterOptions::default()
        .with_own_postgres()
        .with_log("info");
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: PostgreSQL outage past the lease",
        server_program(),
        &["a", "b", "c"],
        options,
    ) else {
        return;
    };
    let game = &reference_games()[0];
    let nodes = ["a", "b", "c"];
    // One match created on each node (its owner), joined from the next one (a proxy there).
    let mut runs = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let mut white = connect(cluster.addr(node), Encoding::Json)
            .await
            .expect("connect");
        let white_seat = white
            .create_match(ColorChoice::White, false, None)
            .await
            .expect("a match");
        let mut black = connect(cluster.addr(nodes[(i + 1) % 3]), Encoding::Postcard)
            .await
            .expect("connect");
        let black_seat = black
            .join(JoinMatch::Code(white_seat.invite_code.clone()))
            .await
            .expect("joined");
        let mut players = [(white, white_seat), (black, black_seat)];
        for ply in 0..2 {
            let (client, seat) = &mut players[ply % 2];
            play_patiently(client, seat, &game.routes[ply])
                .await
                .unwrap_or_else(|err| panic!("ply {ply}: {err}\n{}", cluster.logs()));
        }
        runs.push((node, players));
    }
    cluster.postgres().stop();
    // Well past the lease: every node's lease has lapsed on its own clock.
    tokio::time::sleep(Duration::from_millis(TEST_LEASE_MS * 3)).await;
    for (node, players) in &mut runs {
        let addr = cluster.addr(node);
        let [(white, white_seat), _] = players;
        let id = white
            .send_move(white_seat, &game.routes[2])
            .await
            .expect("the connection is open");
        let refused = white
            .expect_error(id, ErrorCode::StorageUnavailable)
            .await
            .unwrap_or_else(|err| {
                panic!("a move while PostgreSQL is down: {err}\n{}", cluster.logs())
            });
        assert!(
            refused.message.contains("nothing was applied"),
            "{refused:?}"
        );
        // The seat is resumed from memory, on the node that owns the match.
        let (mut again, seat, snapshot) = resumed_snapshot(addr, &white_seat.token)
            .await
            .unwrap_or_else(|err| {
                panic!("resume while PostgreSQL is down: {err}\n{}", cluster.logs())
            });
        assert_eq!(seat.match_id, white_seat.match_id);
        assert_eq!(snapshot.moves.len(), 2, "both acknowledged moves");
        assert!(again.extra_answers().is_empty());
        drop(again.ws().close(None).await);
    }
    cluster
        .postgres()
        .start_again()
        .expect("PostgreSQL starts again");
    // Play goes on on the same connections: none was closed.
    for (node, players) in &mut runs {
        for ply in 2..6 {
            let (client, seat) = &mut players[ply % 2];
            play_patiently(client, seat, &game.routes[ply])
                .await
                .unwrap_or_else(|err| {
                    panic!(
                        "{node}: ply {ply} after the outage: {err}\n{}",
                        cluster.logs()
                    )
                });
        }
        for (client, _) in players.iter() {
            assert_eq!(
                client.extra_answers(),
                &[] as &[ServerMessage],
                "one reply per envelope"
            );
        }
        let (_, _, snapshot) = resumed_snapshot(cluster.addr(node), &players[0].1.token)
            .await
            .expect("resume after the outage");
        let played: Vec<&str> = snapshot.moves.iter().map(|m| m.notation.as_str()).collect();
        assert_eq!(
            played,
            game.moves[..6],
            "every acknowledged move kept, in order"
        );
    }
    // Each match went on in place, at its owner, under the next epoch.
    let log = cluster.logs();
    for (node, players) in &runs {
        let id = &players[0].1.match_id;
        assert!(
            cluster
                .log(node)
                .lines()
                .any(|line| line.contains("the suspended match goes on here")
                    && line.contains(id.as_str())),
            "{id} was claimed back in place on {node}\n{log}"
        );
    }
}

/// Issue 28, 3 (its part for an outage the lease outlives): the side to move is not charged
/// for the time no move of theirs could be accepted. White has 15 s (the least a match allows) when PostgreSQL stops for
/// longer than that; no flag falls during the outage, and after it White still has their
/// time (less what passed before the node knew) and plays on. The whole outage used to be
/// charged: a flag fell on the first look after PostgreSQL was back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_outage_past_the_lease_is_not_charged_to_the_side_to_move() {
    let options = ClusterOptions::default()
        .with_own_postgres()
        .with_log("info");
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: no time charged for a PostgreSQL outage",
        server_program(),
        &["a", "b"],
        options,
    ) else {
        return;
    };
    let game = &reference_games()[0];
    let time_control = boardcast_protocol::TimeControl {
        initial_ms: 15_000,
        increment_ms: 0,
    };
    let mut white = connect(cluster.addr("a"), Encoding::Json)
        .await
        .expect("connect");
    let white_seat = white
        .create_match(ColorChoice::White, false, Some(time_control))
        .await
        .expect("a match");
    let mut black = connect(cluster.addr("a"), Encoding::Postcard)
        .await
        .expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("joined");
    white
        .play(&white_seat, &game.routes[0])
        .await
        .expect("ply 0");
    // Black's first move starts White's clock.
    black
        .play(&black_seat, &game.routes[1])
        .await
        .expect("ply 1");
    cluster.postgres().stop();
    // Longer than White's whole time, and than the lease.
    tokio::time::sleep(Duration::from_millis(16_000)).await;
    cluster
        .postgres()
        .start_again()
        .expect("PostgreSQL starts again");
    play_patiently(&mut white, &white_seat, &game.routes[2])
        .await
        .unwrap_or_else(|err| panic!("White's move after the outage: {err}\n{}", cluster.logs()));
    let moved = white
        .wait_for("White's move", |message| match message {
            ServerMessage::MatchEvent(e) => match &e.event {
                MatchEvent::Moved(moved) if moved.played.ply == 2 => Some(moved.clone()),
                MatchEvent::Ended(result) => panic!("the match ended: {result:?}"),
                _ => None,
            },
            _ => None,
        })
        .await
        .expect("the move's event");
    let clock = moved.clock.expect("a clock");
    // White is charged only what passed before the node saw storage refuse a write (its
    // heartbeat's, handed over at most a few milliseconds after Black's move, which may round
    // to nothing), never the outage.
    assert!(
        clock.white_ms > 0 && clock.white_ms <= 15_000,
        "White is charged only what passed before the node knew: {clock:?}"
    );
    assert!(
        cluster
            .log("a")
            .contains("the clock stood still while storage was unavailable"),
        "{}",
        cluster.logs()
    );
}

/// Issue 28, 3 (a take-over): the node that takes over a dead owner's match does not refund
/// the thinking done before the crash. White thinks 3 s, the owner is killed, and once
/// another node has taken the match over White's clock shows those 3 s used — within a third
/// of the lease (a node renews its lease that often; the last renewal is the last moment it
/// is known to have been alive). It used to show none of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_over_does_not_refund_the_thinking_before_the_owner_died() {
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: a take-over charges the thinking before the crash",
        server_program(),
        &["a", "b"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let game = &reference_games()[0];
    let minute = boardcast_protocol::TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let a = cluster.addr("a");
    let mut white = connect(a, Encoding::Json).await.expect("connect");
    let white_seat = white
        .create_match(ColorChoice::White, false, Some(minute))
        .await
        .expect("a match");
    let mut black = connect(a, Encoding::Postcard).await.expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("joined");
    white
        .play(&white_seat, &game.routes[0])
        .await
        .expect("ply 0");
    // Black's first move starts White's clock.
    black
        .play(&black_seat, &game.routes[1])
        .await
        .expect("ply 1");
    let thinking = Duration::from_secs(3);
    tokio::time::sleep(thinking).await;
    let killed = Instant::now();
    tokio::task::block_in_place(|| cluster.kill9("a"));
    drop((white, black));
    let mut white = connect(cluster.addr("b"), Encoding::Json)
        .await
        .expect("connect");
    resume_patiently(&mut white, &white_seat.token)
        .await
        .unwrap_or_else(|err| panic!("resume on b: {err}\n{}", cluster.logs()));
    let snapshot = white
        .wait_for(
            "the snapshot after the take-over",
            |message| match message {
                ServerMessage::MatchSnapshot(s) if s.match_id == white_seat.match_id => {
                    Some(s.clone())
                }
                _ => None,
            },
        )
        .await
        .expect("a snapshot");
    let down = killed.elapsed();
    let clock = snapshot.clock.expect("a clock");
    assert_eq!(clock.running, Some(Side::White), "{clock:?}");
    let used = Duration::from_millis(minute.initial_ms - clock.white_ms);
    let renewal = Duration::from_millis(TEST_LEASE_MS / 3);
    assert!(
        used + renewal + Duration::from_millis(500) >= thinking,
        "{used:?} of White's {thinking:?} of thinking charged: the take-over refunded it\n{}",
        cluster.logs()
    );
    assert!(
        used <= thinking + down,
        "{used:?} charged for {thinking:?} of thinking and {down:?} until the snapshot"
    );
}

/// Issue 28, 3 (a move in transit): a move stuck between nodes is timed from its arrival at
/// the first node. White plays through node b while the match runs on a, and Redis, which
/// carries the move from b to a, is frozen for 2 s just as it is sent. White used to be
/// charged those 2 s (18.0 s charged for a move sent at 10.0 s); now only the thinking
/// before the move reached b.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_stuck_in_redis_is_charged_from_its_arrival_at_the_first_node() {
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: a move in transit is timed from its arrival",
        server_program(),
        &["a", "b"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let game = &reference_games()[0];
    let minute = boardcast_protocol::TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let mut creator = connect(cluster.addr("a"), Encoding::Json)
        .await
        .expect("connect");
    let white_seat = creator
        .create_match(ColorChoice::White, false, Some(minute))
        .await
        .expect("a match on a");
    let mut black = connect(cluster.addr("a"), Encoding::Postcard)
        .await
        .expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("joined");
    // White plays from node b: b passes every move on to a through Redis.
    let mut white = connect(cluster.addr("b"), Encoding::Json)
        .await
        .expect("connect");
    resume_patiently(&mut white, &white_seat.token)
        .await
        .expect("White's seat on b");
    drop(creator);
    play_patiently(&mut white, &white_seat, &game.routes[0])
        .await
        .expect("ply 0");
    black
        .play(&black_seat, &game.routes[1])
        .await
        .expect("ply 1");
    let turn_began = Instant::now();
    let redis = cluster.redis().pid().expect("Redis runs");
    // SAFETY: kill(2) with our child's pid has no memory effects.
    unsafe { libc::kill(redis as libc::pid_t, libc::SIGSTOP) };
    let id = white
        .send_move(&white_seat, &game.routes[2])
        .await
        .expect("sent");
    let sent_after = turn_began.elapsed();
    tokio::time::sleep(Duration::from_secs(2)).await;
    // SAFETY: as above.
    unsafe { libc::kill(redis as libc::pid_t, libc::SIGCONT) };
    white
        .expect_ack(id)
        .await
        .unwrap_or_else(|err| panic!("White's move: {err}\n{}", cluster.logs()));
    let moved = white
        .wait_for("White's move", |message| match message {
            ServerMessage::MatchEvent(e) => match &e.event {
                MatchEvent::Moved(moved) if moved.played.ply == 2 => Some(moved.clone()),
                _ => None,
            },
            _ => None,
        })
        .await
        .expect("the move's event");
    let clock = moved.clock.expect("a clock");
    let charged = Duration::from_millis(minute.initial_ms - clock.white_ms);
    // What passed before the move reached b (the relay of Black's move to b, then the send),
    // not the 2 s it waited in Redis.
    assert!(
        charged <= sent_after + Duration::from_millis(500),
        "White was charged {charged:?} for a move sent {sent_after:?} into the turn\n{}",
        cluster.logs()
    );
}

/// Issue 28 (bench28, item 3): a node cut off from PostgreSQL alone, while the others still
/// reach it. Its lease lapses, so it suspends the match it owns (keeping its players) and the
/// others, which see that lease run out, take the match over. The cut-off node cannot ask
/// storage who owns the match now; it hears the new owner announce itself on Redis and drops
/// the match, closing its players' connections (1012) as a displaced owner does, instead of
/// holding them on a match that goes on elsewhere. They come back on another node and play on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_postgresql_alone_drops_its_match_when_another_node_takes_it_over() {
    let Some(cluster) = Cluster::start_or_skip(
        "cluster: one node cut off from PostgreSQL",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default().with_relayed_postgres("a"),
    ) else {
        return;
    };
    let (a, b, c) = (cluster.addr("a"), cluster.addr("b"), cluster.addr("c"));
    let game = &reference_games()[0];
    // White on a, which owns the match; Black on b.
    let mut white = connect(a, Encoding::Json).await.expect("connect to a");
    let white_seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("create on a");
    let match_id = white_seat.match_id.clone();
    let mut black = connect(b, Encoding::Json).await.expect("connect to b");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("join on b");
    for ply in 0..2 {
        let (client, seat) = if ply % 2 == 0 {
            (&mut white, &white_seat)
        } else {
            (&mut black, &black_seat)
        };
        client
            .play(seat, &game.routes[ply])
            .await
            .unwrap_or_else(|err| panic!("ply {ply}: {err}\n{}", cluster.logs()));
    }

    cluster.cut_postgres("a");
    // Another node takes the match over once a's lease has run out in PostgreSQL.
    let deadline = Instant::now() + PATIENCE;
    let new_owner = loop {
        let owners = cluster.owners().await.unwrap_or_else(|err| panic!("{err}"));
        if let Some(Some(owner)) = owners.get(&match_id)
            && owner != "a"
        {
            break owner.clone();
        }
        assert!(
            Instant::now() < deadline,
            "nobody took the match of the cut-off node over: {owners:?}\n{}",
            cluster.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    // a is still cut off: only the bus can have told it.
    let closed = white
        .expect_close(Duration::from_secs(20))
        .await
        .unwrap_or_else(|err| {
            panic!(
                "White's connection to a stays open on a match {new_owner} took over: {err}\n{}",
                cluster.logs()
            )
        });
    assert_eq!(closed, Some(1012), "{}", cluster.logs());
    assert!(
        cluster
            .log("a")
            .contains("another node took the suspended match over"),
        "{}",
        cluster.logs()
    );

    // White comes back on c and play goes on where it stood.
    let mut white = connect(c, Encoding::Json).await.expect("connect to c");
    white.set_next_id(100);
    resume_patiently(&mut white, &white_seat.token)
        .await
        .unwrap_or_else(|err| panic!("resume on c: {err}\n{}", cluster.logs()));
    for ply in 2..6 {
        let (client, seat) = if ply % 2 == 0 {
            (&mut white, &white_seat)
        } else {
            (&mut black, &black_seat)
        };
        play_patiently(client, seat, &game.routes[ply])
            .await
            .unwrap_or_else(|err| {
                panic!("ply {ply} after the take-over: {err}\n{}", cluster.logs())
            });
    }
    cluster.restore_postgres("a");
}

/// The password of the play-now members.
const MEMBER_PASSWORD: &str = "a long enough password";

/// Member `name` created in the cluster's database, logged in on `addr` and connected there.
async fn member_on(cluster: &Cluster, addr: SocketAddr, name: &str) -> Client {
    use boardcast_tests::client::ConnectOptions;
    use boardcast_tests::members::{create_member_in, login_cookie};
    create_member_in(
        server_program(),
        cluster.database_url(),
        name,
        MEMBER_PASSWORD,
    );
    let cookie = login_cookie(addr, name, MEMBER_PASSWORD);
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie);
    let mut client = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .expect("a member connects");
    client.timeout = PATIENCE;
    client
}

/// Presses play now at 3+2: the envelope id a `paired` will answer.
async fn press_play_now(client: &mut Client) -> u64 {
    let id = client
        .send(ClientMessage::PlayNow(boardcast_protocol::PlayNow {
            preset: boardcast_protocol::PoolPreset::ThreePlusTwo,
        }))
        .await
        .expect("play now sent");
    client.expect_ack(id).await.expect("play now acknowledged");
    id
}

/// The `paired` answering envelope `id`.
async fn paired(
    client: &mut Client,
    id: u64,
    logs: &dyn Fn() -> String,
) -> boardcast_protocol::Paired {
    client
        .wait_for("paired", |m| match m {
            ServerMessage::Paired(paired) if paired.seat.id == id => Some(paired.clone()),
            ServerMessage::Error(error) if error.id == Some(id) => {
                panic!("play now refused: {error:?}")
            }
            _ => None,
        })
        .await
        .unwrap_or_else(|err| panic!("not paired: {err}\n{}", logs()))
}

/// No second `paired` reaches `client` within a few seconds.
async fn never_paired_again(client: &mut Client, who: &str) {
    let again = client
        .wait_for_within("another paired", Duration::from_secs(3), |m| match m {
            ServerMessage::Paired(paired) => Some(paired.clone()),
            _ => None,
        })
        .await;
    assert!(again.is_err(), "{who} was paired twice: {again:?}");
}

/// The node that owns the play-now pool once one has claimed it.
async fn live_pool_owner(cluster: &Cluster, except: Option<&str>) -> String {
    let started = Instant::now();
    loop {
        if let Ok(Some((owner, true))) = cluster.pool_owner().await
            && Some(owner.as_str()) != except
        {
            return owner;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "nobody owns the play-now pool\n{}",
            cluster.logs()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two paired members: each other's opponents, in one match, on opposite sides.
fn check_pair(
    (one, one_name): (&boardcast_protocol::Paired, &str),
    (other, other_name): (&boardcast_protocol::Paired, &str),
) {
    assert_eq!(one.seat.match_id, other.seat.match_id, "one match for both");
    assert_ne!(one.seat.side, other.seat.side, "opposite sides");
    assert_eq!(one.opponent, other_name);
    assert_eq!(other.opponent, one_name);
    assert_eq!(one.preset, boardcast_protocol::PoolPreset::ThreePlusTwo);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_now_pairs_members_of_different_nodes_once_and_survives_the_pool_owner_killed() {
    let Some(mut cluster) = Cluster::start_or_skip(
        "cluster: play now",
        server_program(),
        &["a", "b", "c"],
        ClusterOptions::default(),
    ) else {
        return;
    };
    let owner = live_pool_owner(&cluster, None).await;
    let others: Vec<&str> = ["a", "b", "c"]
        .into_iter()
        .filter(|node| *node != owner)
        .collect();
    let (x, y) = (cluster.addr(others[0]), cluster.addr(others[1]));

    // Two members on the two nodes that do not run the pool press play now: paired with
    // each other, and they play a rated game to its end through their own nodes.
    let mut anne = member_on(&cluster, x, "anne").await;
    let mut bauke = member_on(&cluster, y, "bauke").await;
    let anne_id = press_play_now(&mut anne).await;
    let bauke_id = press_play_now(&mut bauke).await;
    let logs = || cluster.logs();
    let anne_paired = paired(&mut anne, anne_id, &logs).await;
    let bauke_paired = paired(&mut bauke, bauke_id, &logs).await;
    check_pair((&anne_paired, "anne"), (&bauke_paired, "bauke"));
    let game = reference_games()
        .iter()
        .filter(|g| g.winner.is_some() && g.moves.len() >= 4)
        .filter(|g| {
            g.start_fen
                .starts_with("W:W31,32,33,34,35,36,37,38,39,40,41")
        })
        .min_by_key(|g| g.moves.len())
        .expect("a decisive reference game from the start");
    let mut seats = [
        (&mut anne, &anne_paired.seat),
        (&mut bauke, &bauke_paired.seat),
    ];
    seats.sort_by_key(|(_, seat)| seat.side != Side::White);
    for (ply, route) in game.routes.iter().enumerate() {
        let (client, seat) = &mut seats[ply % 2];
        let id = client
            .send(move_message(seat, route))
            .await
            .expect("move sent");
        client
            .expect_ack(id)
            .await
            .unwrap_or_else(|err| panic!("ply {ply}: {err}\n{}", cluster.logs()));
    }
    for (client, seat) in seats {
        let result = client
            .wait_for("ended", |m| match m {
                ServerMessage::MatchEvent(e) if e.match_id == seat.match_id => match &e.event {
                    MatchEvent::Ended(result) => Some(result.clone()),
                    _ => None,
                },
                _ => None,
            })
            .await
            .expect("the game ends");
        game.check_result(&result).unwrap();
        let change = result.rating_change.expect("a rated game's change");
        assert_eq!(change.white.before, 1500);
        assert!(change.white.diff != 0 && change.white.diff == -change.black.diff);
    }
    never_paired_again(&mut anne, "anne").await;
    never_paired_again(&mut bauke, "bauke").await;

    // The pool's owner killed while one member waits (and just before another presses):
    // both are paired with each other after the take-over, once, without pressing again.
    let mut carel = member_on(&cluster, x, "carel").await;
    let mut dirk = member_on(&cluster, y, "dirk").await;
    let carel_id = press_play_now(&mut carel).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    cluster.kill9(&owner);
    let killed = Instant::now();
    let dirk_id = press_play_now(&mut dirk).await;
    let logs = || cluster.logs();
    let carel_paired = paired(&mut carel, carel_id, &logs).await;
    let dirk_paired = paired(&mut dirk, dirk_id, &logs).await;
    eprintln!(
        "paired {:?} after the pool's owner was killed",
        killed.elapsed()
    );
    check_pair((&carel_paired, "carel"), (&dirk_paired, "dirk"));
    let new_owner = live_pool_owner(&cluster, Some(&owner)).await;
    assert!(others.contains(&new_owner.as_str()), "{new_owner}");
    // Both seated: each can make the game's first move or see it.
    let (white, white_seat) = if carel_paired.seat.side == Side::White {
        (&mut carel, &carel_paired.seat)
    } else {
        (&mut dirk, &dirk_paired.seat)
    };
    let id = white
        .send(move_message(white_seat, &game.routes[0]))
        .await
        .expect("move sent");
    white
        .expect_ack(id)
        .await
        .unwrap_or_else(|err| panic!("first move after the take-over: {err}\n{}", cluster.logs()));
    never_paired_again(&mut carel, "carel").await;
    never_paired_again(&mut dirk, "dirk").await;
    never_paired_again(&mut anne, "anne").await;
}

/// Club events across nodes (issue 33): the director of an event is owned by one node at a
/// time, with the lease and fencing epoch of matches, and resumes on another node from its
/// stored records when its node dies or freezes.
mod club_events {
    use std::io::{Read as _, Write as _};
    use std::net::TcpStream;

    use boardcast_pairing::PlayerId;
    use boardcast_pairing::swiss::{GameResult, Outcome, Swiss, SwissConfig};
    use boardcast_pairing::tiebreak::standings;
    use boardcast_protocol::Reclaim;
    use boardcast_tests::client::ConnectOptions;
    use boardcast_tests::members::{create_member_in, login_cookie};
    use serde_json::Value;
    use tokio::sync::watch;

    use super::*;

    const PASSWORD: &str = "Ielsteder-Elfstêden-1909";
    const PLAYERS: usize = 6;
    const ROUNDS: u32 = 3;
    /// How a refused request is tried again (`event_moving`, `busy`: nothing was changed).
    const AGAIN_AFTER: Duration = Duration::from_millis(200);
    /// Silence after which a player takes their node for gone (frozen) and tries the next.
    const SILENCE: Duration = Duration::from_secs(5);

    fn member(i: usize) -> String {
        format!("Lid{i}")
    }

    fn index(name: &str) -> usize {
        name.trim_start_matches("Lid").parse().unwrap()
    }

    /// Account ids follow creation: the organiser is 1, member `i` is `i + 2`.
    fn player(i: usize) -> PlayerId {
        PlayerId(i as u32 + 2)
    }

    /// How the game of `white` and `black` in `round` ends.
    fn outcome_of(round: u32, white: usize, black: usize) -> Outcome {
        match (round as usize + white * 3 + black) % 3 {
            0 => Outcome::WhiteWins,
            1 => Outcome::Draw,
            _ => Outcome::BlackWins,
        }
    }

    /// A blocking HTTP/1.1 request: the status and body, or why there was none (a dead node).
    fn request(
        addr: SocketAddr,
        method: &str,
        path: &str,
        cookie: &str,
        body: &str,
    ) -> Result<(u16, String), String> {
        let mut stream = TcpStream::connect(addr).map_err(|err| err.to_string())?;
        stream
            .set_read_timeout(Some(PATIENCE))
            .map_err(|err| err.to_string())?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nCookie: {cookie}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .map_err(|err| err.to_string())?;
        let mut response = String::new();
        stream
            .read_to_string(&mut response)
            .map_err(|err| err.to_string())?;
        let (head, body) = response
            .split_once("\r\n\r\n")
            .ok_or_else(|| format!("no HTTP answer: {response:?}"))?;
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("no status: {head:?}"))?;
        Ok((status, body.to_owned()))
    }

    /// A state-changing request as a client makes it: answered 503 (`event_moving`, `busy`:
    /// nothing was changed), it is sent again after a moment.
    async fn request_patiently(
        addr: SocketAddr,
        path: &str,
        cookie: &str,
        body: &str,
    ) -> (u16, String) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let (owned_path, cookie, body) = (path.to_owned(), cookie.to_owned(), body.to_owned());
            let answer = tokio::task::spawn_blocking(move || {
                request(addr, "POST", &owned_path, &cookie, &body)
            })
            .await
            .unwrap();
            match answer {
                Ok((503, _)) | Err(_) if Instant::now() < deadline => {
                    tokio::time::sleep(AGAIN_AFTER).await;
                }
                Ok(answer) => return answer,
                Err(err) => panic!("POST {path} on {addr}: {err}"),
            }
        }
    }

    /// The event as node `addr` shows it.
    async fn event(addr: SocketAddr, id: &str) -> Value {
        let path = format!("/api/events/{id}");
        let (status, body) =
            tokio::task::spawn_blocking(move || request(addr, "GET", &path, "", ""))
                .await
                .unwrap()
                .unwrap_or_else(|err| panic!("GET the event on {addr}: {err}"));
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    }

    /// Waits until `addr` shows event `id` with `check` true; returns it.
    async fn event_when(
        addr: SocketAddr,
        id: &str,
        what: &str,
        logs: &dyn Fn() -> String,
        check: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let shown = event(addr, id).await;
            if check(&shown) {
                return shown;
            }
            assert!(
                Instant::now() < deadline,
                "{what} never came: {shown}\n{}",
                logs()
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    fn results_in(shown: &Value, round: u32) -> usize {
        shown["rounds"][round as usize - 1]["games"]
            .as_array()
            .map_or(0, |games| {
                games.iter().filter(|g| g["result"].is_string()).count()
            })
    }

    /// The node other than `director` that owns the director now (a take-over).
    async fn new_owner(cluster: &Cluster, id: &str, director: &str) -> String {
        let started = Instant::now();
        loop {
            if let Ok(Some((node, epoch, true))) = cluster.owned("event", id).await
                && node != director
            {
                assert!(epoch >= 2, "a take-over raises the epoch: {epoch}");
                eprintln!(
                    "node {node} runs the director {:?} after {director} was lost",
                    started.elapsed()
                );
                return node;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "nobody took the director over\n{}",
                cluster.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// What a side does next in a scripted game.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Act {
        Move,
        Resign,
        OfferDraw,
        AcceptDraw,
    }

    /// What `side` does at `plies` (with White's draw offer standing or not) to end the game
    /// as `outcome`: White opens, Black answers unless it resigns at once, then the loser
    /// resigns or White offers a draw that Black accepts. `None`: it waits.
    fn next_act(side: Side, outcome: Outcome, plies: usize, offered: bool) -> Option<Act> {
        match (side, outcome, plies) {
            (Side::White, _, 0) => Some(Act::Move),
            (Side::Black, Outcome::WhiteWins, 1..) => Some(Act::Resign),
            (Side::Black, _, 1) => Some(Act::Move),
            (Side::White, Outcome::BlackWins, 2..) => Some(Act::Resign),
            (Side::White, Outcome::Draw, 2..) if !offered => Some(Act::OfferDraw),
            (Side::Black, Outcome::Draw, 2..) if offered => Some(Act::AcceptDraw),
            _ => None,
        }
    }

    /// A refusal that changed nothing and asks to try again.
    fn try_again(code: ErrorCode) -> bool {
        matches!(
            code,
            ErrorCode::StorageUnavailable | ErrorCode::Busy | ErrorCode::ShuttingDown
        )
    }

    /// One member's side of an event game through the cluster, as a client plays it: seated
    /// by account (`reclaim`) on the first of `addrs` that answers, it plays the script, and
    /// ends the game (a resignation or a draw offer) only once `gate` is open. When its node
    /// dies, drops the connection or stays silent (frozen), it connects again (the same node,
    /// else the next of `addrs`) and reclaims the seat; a refusal that asks to try again is
    /// tried again.
    async fn play_side(
        addrs: Vec<SocketAddr>,
        cookie: String,
        match_id: String,
        side: Side,
        outcome: Outcome,
        mut gate: watch::Receiver<bool>,
    ) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(150);
        let (mut at, mut next_id) = (0usize, 1u64);
        'connect: loop {
            if Instant::now() > deadline {
                return Err(format!("{side} of {match_id} never ended"));
            }
            let addr = addrs[at % addrs.len()];
            let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.clone());
            let Ok(mut client) = Client::connect_with(addr, Encoding::Json, &options).await else {
                at += 1;
                tokio::time::sleep(AGAIN_AFTER).await;
                continue;
            };
            client.set_next_id(next_id);
            let reclaim = ClientMessage::Reclaim(Reclaim {
                match_id: match_id.clone(),
                since_v: None,
            });
            let Ok(mut reclaim_id) = client.send(reclaim.clone()).await else {
                continue;
            };
            let mut seat: Option<SeatAction> = None;
            let (mut plies, mut offered, mut legal) = (0usize, false, Vec::new());
            let (mut acted, mut silent): (Option<(Act, usize)>, u32) = (None, 0);
            loop {
                next_id = client.next_id();
                let message = match client.recv(SILENCE).await {
                    Ok(message) => {
                        silent = 0;
                        Some(message)
                    }
                    Err(ClientError::Timeout(_)) if silent == 0 => {
                        // Nothing for a while: whatever was sent is sent again.
                        (acted, silent) = (None, 1);
                        None
                    }
                    Err(ClientError::Timeout(_)) => {
                        at += 1;
                        continue 'connect;
                    }
                    Err(_) => continue 'connect,
                };
                match &message {
                    Some(ServerMessage::Seat(s)) if s.id == reclaim_id => {
                        seat = Some(SeatAction {
                            match_id: s.match_id.clone(),
                            token: s.token.clone(),
                        });
                    }
                    Some(ServerMessage::MatchSnapshot(s)) if s.match_id == match_id => {
                        if s.result.is_some() {
                            client.close().await;
                            return Ok(());
                        }
                        plies = s.moves.len();
                        offered = s.draw_offer == Some(Side::White);
                        legal = s.legal_moves.clone();
                    }
                    Some(ServerMessage::MatchEvent(e)) if e.match_id == match_id => {
                        match &e.event {
                            MatchEvent::Moved(moved) => {
                                plies = moved.played.ply as usize + 1;
                                offered = false;
                                legal = moved.legal_moves.clone();
                            }
                            MatchEvent::DrawOffered(Side::White) => offered = true,
                            MatchEvent::Ended(_) => {
                                client.close().await;
                                return Ok(());
                            }
                            _ => {}
                        }
                    }
                    Some(ServerMessage::Error(error)) if error.id == Some(reclaim_id) => {
                        if !try_again(error.code) {
                            return Err(format!("reclaim of {match_id} refused: {error:?}"));
                        }
                        tokio::time::sleep(AGAIN_AFTER).await;
                        match client.send(reclaim.clone()).await {
                            Ok(id) => reclaim_id = id,
                            Err(_) => continue 'connect,
                        }
                    }
                    Some(ServerMessage::Error(error)) => {
                        // `stale_id` says which id to go on from.
                        if let Some(last) = error.last_id {
                            client.set_next_id(last + 1);
                        }
                        if try_again(error.code) || error.last_id.is_some() {
                            tokio::time::sleep(AGAIN_AFTER).await;
                            acted = None;
                        }
                    }
                    _ => {}
                }
                let Some(seat) = &seat else { continue };
                let Some(act) = next_act(side, outcome, plies, offered) else {
                    continue;
                };
                if acted.as_ref() == Some(&(act.clone(), plies)) {
                    continue;
                }
                if matches!(act, Act::Resign | Act::OfferDraw) {
                    // Ends the game: held until the test lets it.
                    let _ = gate.wait_for(|open| *open).await;
                }
                let command = match &act {
                    Act::Move => {
                        let Some(first) = legal.first() else { continue };
                        ClientMessage::Move(boardcast_protocol::PlayMove {
                            match_id: seat.match_id.clone(),
                            token: seat.token.clone(),
                            route: first.route.clone(),
                            lag_ms: None,
                        })
                    }
                    Act::Resign => ClientMessage::Resign(seat.clone()),
                    Act::OfferDraw => ClientMessage::OfferDraw(seat.clone()),
                    Act::AcceptDraw => ClientMessage::AcceptDraw(seat.clone()),
                };
                if client.send(command).await.is_err() {
                    continue 'connect;
                }
                acted = Some((act, plies));
            }
        }
    }

    type Sides = Vec<tokio::task::JoinHandle<Result<(), String>>>;

    async fn finish(sides: Sides, logs: &dyn Fn() -> String) {
        for side in sides {
            if let Err(err) = side.await.unwrap() {
                panic!("{err}\n{}", logs());
            }
        }
    }

    /// A Swiss of [`PLAYERS`] members over [`ROUNDS`] rounds, created on node a in a cluster
    /// of a, b and c; its members play on a (even) and b (odd), and on c once theirs is gone.
    struct ClubSwiss {
        id: String,
        addrs: BTreeMap<&'static str, SocketAddr>,
        homes: Vec<Vec<SocketAddr>>,
        cookies: Vec<String>,
        /// The node that runs the director, as the test last learnt it.
        director: String,
        /// The same Swiss, paired and scored by the test.
        swiss: Swiss,
    }

    impl ClubSwiss {
        /// Creates the Swiss on node a and joins every member through their own node: those
        /// on b reach the director on a through the bus.
        async fn create(cluster: &Cluster) -> ClubSwiss {
            let addrs: BTreeMap<&'static str, SocketAddr> = ["a", "b", "c"]
                .into_iter()
                .map(|node| (node, cluster.addr(node)))
                .collect();
            let (a, b, c) = (addrs["a"], addrs["b"], addrs["c"]);
            let url = cluster.database_url().to_owned();
            create_member_in(server_program(), &url, "Organiser", PASSWORD);
            let granted = std::process::Command::new(server_program())
                .args(["--database", &url, "admin", "grant-organiser", "Organiser"])
                .output()
                .unwrap();
            assert!(
                granted.status.success(),
                "{}",
                String::from_utf8_lossy(&granted.stderr)
            );
            let homes: Vec<Vec<SocketAddr>> = (0..PLAYERS)
                .map(|i| if i % 2 == 0 { vec![a, c] } else { vec![b, c] })
                .collect();
            let mut cookies = Vec::new();
            for (i, home) in homes.iter().enumerate() {
                create_member_in(server_program(), &url, &member(i), PASSWORD);
                cookies.push(login_cookie(home[0], &member(i), PASSWORD));
            }
            let organiser = login_cookie(a, "Organiser", PASSWORD);
            let starts_at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as u64
                + 8_000;
            let create = format!(
                r#"{{"name":"Elfsteden Swiss","kind":"swiss","time_control":"5+3","rounds":{ROUNDS},"starts_at":{starts_at}}}"#
            );
            let (status, body) = request_patiently(a, "/api/events", &organiser, &create).await;
            assert_eq!(status, 201, "{body}\n{}", cluster.logs());
            let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned();
            // The node that creates an event claims its director at once (unless its lease
            // was not held just then: another node's look at the events claims it instead).
            let started = Instant::now();
            let director = loop {
                if let Ok(Some((node, _, true))) = cluster.owned("event", &id).await {
                    break node;
                }
                assert!(started.elapsed() < PATIENCE, "nobody runs the director");
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            eprintln!("node {director} runs the director");
            for (i, cookie) in cookies.iter().enumerate() {
                let join = format!("/api/events/{id}/join");
                let (status, body) = request_patiently(homes[i][0], &join, cookie, "").await;
                assert_eq!(status, 200, "{} joins: {body}", member(i));
            }
            // Asked on a node that does not run the director, the director answers.
            let elsewhere = addrs
                .iter()
                .find(|(node, _)| **node != director)
                .map(|(_, addr)| *addr)
                .unwrap();
            let join = format!("/api/events/{id}/join");
            let (status, body) = request_patiently(elsewhere, &join, &cookies[0], "").await;
            assert_eq!(status, 409, "{body}");
            assert!(body.contains("already_joined"), "{body}");
            let shown = event(c, &id).await;
            assert_eq!(
                shown["players"].as_array().unwrap().len(),
                PLAYERS,
                "{shown}"
            );
            let mut swiss = Swiss::new(SwissConfig {
                rounds: ROUNDS,
                ..SwissConfig::default()
            })
            .unwrap();
            for i in 0..PLAYERS {
                swiss.add_player(player(i), 1500).unwrap();
            }
            ClubSwiss {
                id,
                addrs,
                homes,
                cookies,
                director,
                swiss,
            }
        }

        /// Waits until `addr` shows round `round` paired with every match created, checks
        /// that it is paired as the Dutch system does; its games as (white, black, match id).
        async fn paired(
            &mut self,
            addr: SocketAddr,
            round: u32,
            logs: &dyn Fn() -> String,
        ) -> Vec<(usize, usize, String)> {
            let shown = event_when(addr, &self.id, &format!("round {round}"), logs, |shown| {
                shown["rounds"]
                    .as_array()
                    .and_then(|rounds| rounds.get(round as usize - 1))
                    .is_some_and(|r| {
                        r["games"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .all(|g| g["match_id"].is_string())
                    })
            })
            .await;
            let games: Vec<(usize, usize, String)> = shown["rounds"][round as usize - 1]["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| {
                    (
                        index(g["white"].as_str().unwrap()),
                        index(g["black"].as_str().unwrap()),
                        g["match_id"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            let expected = self.swiss.pair_next_round().unwrap().clone();
            let paired: Vec<(PlayerId, PlayerId)> = games
                .iter()
                .map(|(w, b, _)| (player(*w), player(*b)))
                .collect();
            let want: Vec<(PlayerId, PlayerId)> =
                expected.boards.iter().map(|b| (b.white, b.black)).collect();
            assert_eq!(paired, want, "round {round} pairs as the Dutch system does");
            games
        }

        /// Starts both sides of each of `games` of `round`; a game's end waits for `gate`.
        fn start(
            &self,
            games: &[(usize, usize, String)],
            round: u32,
            gate: &watch::Receiver<bool>,
        ) -> Sides {
            let mut sides = Vec::new();
            for (white, black, match_id) in games {
                let outcome = outcome_of(round, *white, *black);
                for (who, side) in [(*white, Side::White), (*black, Side::Black)] {
                    sides.push(tokio::spawn(play_side(
                        self.homes[who].clone(),
                        self.cookies[who].clone(),
                        match_id.clone(),
                        side,
                        outcome,
                        gate.clone(),
                    )));
                }
            }
            sides
        }

        /// Scores `round` in the test's own Swiss, as its games were scripted.
        fn record(&mut self, round: u32, games: &[(usize, usize, String)]) {
            let results: Vec<GameResult> = games
                .iter()
                .map(|(w, b, _)| GameResult {
                    white: player(*w),
                    black: player(*b),
                    outcome: outcome_of(round, *w, *b),
                })
                .collect();
            self.swiss.record_round(&results).unwrap();
        }

        /// The event over, as every node in `nodes` shows it: every round paired once and as
        /// the Dutch system pairs it, the final table with Buchholz exact; in PostgreSQL each
        /// round paired once, each game counted once, and the epochs of the history never
        /// going back (no record of an older owner after a newer one's) and more than one.
        async fn check_final(&self, cluster: &Cluster, nodes: &[&str]) {
            let logs = || cluster.logs();
            let shown = event_when(self.addrs[nodes[0]], &self.id, "the end", &logs, |shown| {
                shown["status"] == "finished"
            })
            .await;
            assert_eq!(
                shown["rounds"].as_array().unwrap().len(),
                ROUNDS as usize,
                "every round, none paired twice: {shown}"
            );
            let table: Vec<(String, u64, u64, String)> = shown["standings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["name"].as_str().unwrap().to_owned(),
                        s["rank"].as_u64().unwrap(),
                        s["score_halves"].as_u64().unwrap(),
                        s["buchholz"].as_str().unwrap().to_owned(),
                    )
                })
                .collect();
            let want: Vec<(String, u64, u64, String)> = standings(self.swiss.players())
                .iter()
                .map(|s| {
                    (
                        member(s.id.0 as usize - 2),
                        u64::from(s.rank),
                        u64::from(s.score.halves()),
                        s.buchholz.to_string(),
                    )
                })
                .collect();
            assert_eq!(table, want, "the final table");
            for node in &nodes[1..] {
                let there = event_when(self.addrs[node], &self.id, "the end", &logs, |shown| {
                    shown["status"] == "finished"
                })
                .await;
                assert_eq!(there, shown, "as node {node} shows it");
            }
            let (client, connection) =
                tokio_postgres::connect(cluster.database_url(), tokio_postgres::NoTls)
                    .await
                    .unwrap();
            tokio::spawn(connection);
            let rows = client
                .query(
                    "SELECT round, match_id, epoch FROM club_event_log WHERE event_id = $1 \
                     ORDER BY v",
                    &[&self.id],
                )
                .await
                .unwrap();
            let rounds: Vec<i64> = rows.iter().filter_map(|row| row.get(0)).collect();
            assert_eq!(rounds, [1, 2, 3], "each round paired once, in order");
            let mut counted: Vec<String> = rows.iter().filter_map(|row| row.get(1)).collect();
            counted.sort();
            let all = counted.len();
            counted.dedup();
            let games: usize = shown["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["games"].as_array().unwrap().len())
                .sum();
            assert_eq!(
                (all, counted.len()),
                (games, games),
                "each game counted once"
            );
            let epochs: Vec<i64> = rows.iter().map(|row| row.get(2)).collect();
            assert!(
                epochs.windows(2).all(|w| w[0] <= w[1]) && epochs[0] < epochs[epochs.len() - 1],
                "one owner after another, never an older one's record after a newer one's: \
                 {epochs:?}"
            );
        }
    }

    /// A Swiss of six members over three rounds, created on node a, its members on a and b.
    /// In round 2 one game ends and the two others are being played when the node running
    /// the director (and owning every match) is killed with SIGKILL. The games go on (their
    /// players reconnect, the matches are taken over), another node claims the director,
    /// resumes it from the stored records, takes a member's withdrawal forwarded from a node
    /// that does not run it, counts round 2 and pairs round 3 once, without them. The test pairs and scores
    /// the same Swiss with `boardcast-pairing`: every round and the final table are exactly
    /// those, and PostgreSQL holds each round paired once and each game counted once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_event_whose_directors_node_is_killed_mid_round_completes_on_another_node() {
        let Some(mut cluster) = Cluster::start_or_skip(
            "cluster: event director killed",
            server_program(),
            &["a", "b", "c"],
            ClusterOptions::default().with_args(&["--first-move-timeout", "60s"]),
        ) else {
            return;
        };
        let mut swiss = ClubSwiss::create(&cluster).await;
        let director = swiss.director.clone();
        let (_open_tx, open) = watch::channel(true);
        let watcher = if director == "b" { "c" } else { "b" };
        let mut watched = swiss.addrs[watcher];
        // A spectator on a node that does not run the director follows the event live.
        let mut spectator = Client::connect(watched, Encoding::Json).await.unwrap();
        spectator
            .call(ClientMessage::Watch(Watch {
                target: Target::Event(swiss.id.clone()),
                since_v: None,
            }))
            .await
            .unwrap();
        // It reads all along (answering the server's pings) and keeps each pushed version
        // until the event is finished.
        let spectating = tokio::spawn(async move {
            let mut pushes = Vec::new();
            loop {
                match spectator.recv(Duration::from_secs(600)).await {
                    Ok(ServerMessage::ClubEvent(shown)) => {
                        pushes.push(shown.v);
                        if shown.status == boardcast_protocol::ClubEventStatus::Finished {
                            return Ok(pushes);
                        }
                    }
                    Ok(_) => {}
                    Err(err) => return Err((err, pushes)),
                }
            }
        });
        for round in 1..=ROUNDS {
            let logs = || cluster.logs();
            let games = swiss.paired(watched, round, &logs).await;
            if round != 2 {
                finish(swiss.start(&games, round, &open), &logs).await;
                swiss.record(round, &games);
                continue;
            }
            // One game ends; the two others are being played when the director's node dies.
            let (held_tx, held) = watch::channel(false);
            let mut sides = swiss.start(&games[..1], round, &open);
            sides.extend(swiss.start(&games[1..], round, &held));
            event_when(
                watched,
                &swiss.id,
                "round 2's first result",
                &logs,
                |shown| results_in(shown, round) >= 1,
            )
            .await;
            assert_eq!(results_in(&event(watched, &swiss.id).await, round), 1);
            // The director's node owns the games it created, as any match it creates.
            let owners = cluster.owners().await.unwrap();
            for (_, _, match_id) in &games[1..] {
                assert_eq!(
                    owners.get(match_id),
                    Some(&Some(director.clone())),
                    "{owners:?}"
                );
            }
            cluster.kill9(&director);
            let owner = new_owner(&cluster, &swiss.id, &director).await;
            // A member's request on the node that does not run it reaches the new owner's
            // director, which knows that round 2 is being played: the member leaves from
            // round 3 on, their game of round 2 played out.
            let elsewhere = ["a", "b", "c"]
                .into_iter()
                .find(|node| *node != director && *node != owner)
                .unwrap();
            let withdraw = format!("/api/events/{}/withdraw", swiss.id);
            let (status, body) =
                request_patiently(swiss.addrs[elsewhere], &withdraw, &swiss.cookies[1], "").await;
            let logs = || cluster.logs();
            assert_eq!(status, 200, "{body}\n{}", logs());
            watched = swiss.addrs[elsewhere];
            held_tx.send_replace(true);
            finish(sides, &logs).await;
            swiss.record(round, &games);
            swiss.swiss.withdraw(player(1)).unwrap();
            swiss.director = owner;
        }
        let survivors: Vec<&str> = ["a", "b", "c"]
            .into_iter()
            .filter(|node| *node != director)
            .collect();
        swiss.check_final(&cluster, &survivors).await;
        // It was pushed the event as it changed, through the take-over, to the final table,
        // without asking again.
        let pushes = match tokio::time::timeout(PATIENCE, spectating).await {
            Ok(Ok(Ok(pushes))) => pushes,
            outcome => panic!(
                "the spectator on {watcher} was not pushed the finished event: {outcome:?}\n{}",
                cluster.logs()
            ),
        };
        assert!(pushes.len() > 2, "pushed: {pushes:?}");
        assert!(pushes.is_sorted(), "pushed in order: {pushes:?}");
    }

    /// The same Swiss, its director's node frozen (SIGSTOP) past its lease while round 1 is
    /// being played: another node takes the director (and the matches) over, round 1 ends and
    /// round 2 is paired there. The frozen node is thawed (SIGCONT) while round 2 is played,
    /// still believing it runs the director: it pairs nothing, counts nothing, takes nothing
    /// back, and shows the event as the new owner runs it. The history has one owner after
    /// the other, every round once, and the final table is exact on all three nodes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_frozen_directors_node_that_wakes_after_a_take_over_cannot_fork_the_event() {
        let Some(cluster) = Cluster::start_or_skip(
            "cluster: event director frozen",
            server_program(),
            &["a", "b", "c"],
            ClusterOptions::default().with_args(&["--first-move-timeout", "60s"]),
        ) else {
            return;
        };
        let mut swiss = ClubSwiss::create(&cluster).await;
        let director = swiss.director.clone();
        let (_open_tx, open) = watch::channel(true);
        let watched = swiss.addrs[if director == "b" { "c" } else { "b" }];
        let logs = || cluster.logs();

        let games = swiss.paired(watched, 1, &logs).await;
        let (held_tx, held) = watch::channel(false);
        let sides = swiss.start(&games, 1, &held);
        cluster.freeze(&director);
        let owner = new_owner(&cluster, &swiss.id, &director).await;
        held_tx.send_replace(true);
        finish(sides, &logs).await;
        swiss.record(1, &games);

        let games = swiss.paired(watched, 2, &logs).await;
        let (held_tx, held) = watch::channel(false);
        let sides = swiss.start(&games, 2, &held);
        cluster.thaw(&director);
        // The thawed node forgets the director it ran and shows what the new owner did.
        let thawed = swiss.addrs[director.as_str()];
        event_when(
            thawed,
            &swiss.id,
            "round 2 on the thawed node",
            &logs,
            |shown| shown["rounds"].as_array().is_some_and(|r| r.len() == 2),
        )
        .await;
        let owned = cluster.owned("event", &swiss.id).await.unwrap();
        assert_eq!(
            owned.map(|(node, _, alive)| (node, alive)),
            Some((owner.clone(), true)),
            "the thawed node took nothing back\n{}",
            logs()
        );
        held_tx.send_replace(true);
        finish(sides, &logs).await;
        swiss.record(2, &games);

        let games = swiss.paired(watched, 3, &logs).await;
        finish(swiss.start(&games, 3, &open), &logs).await;
        swiss.record(3, &games);
        swiss.check_final(&cluster, &["a", "b", "c"]).await;
        assert!(
            cluster
                .log(&director)
                .contains("the node's lease lapsed: another node may run the event now"),
            "the thawed director woke and stopped\n{}",
            logs()
        );
    }
}
