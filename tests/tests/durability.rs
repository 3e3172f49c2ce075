//! Crash durability and graceful shutdown of the real server binary.
//!
//! Fifty matches replay reference games concurrently; every acknowledged move is recorded. The
//! server is killed with SIGKILL at seeded random moments (by count of acknowledged moves),
//! restarted on the same database, every player reconnects with its token, re-sends the move
//! it had no reply for (same id), and play continues to the end. Every acknowledged move must
//! be there after every restart, and every match must finish exactly like its reference game.
//!
//! The graceful variant sends SIGTERM instead: clients get `shutdown` and close code 1001, the
//! server exits with status 0, and nothing acknowledged is lost.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use boardcast_protocol::limits::close;
use boardcast_protocol::{
    ClientMessage, ColorChoice, Encoding, ErrorCode, JoinMatch, MatchEvent, MatchPhase,
    MatchSnapshot, ServerMessage, Side, Target, TimeControl, Watch,
};
use boardcast_testkit::postgres::Cluster;
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ClientError};
use boardcast_tests::games::{RefGame, load_games};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

const SERVER_ARGS: &[&str] = &["--log", "error", "--rate", "100000", "--burst", "100000"];

/// One seat as its player remembers it across reconnects.
#[derive(Debug, Clone)]
struct SeatMemory {
    token: String,
    /// The next envelope id: ids carry on across reconnects.
    next_id: u64,
}

/// A move sent without a reply yet.
#[derive(Debug, Clone, Copy)]
struct Pending {
    side: usize,
    id: u64,
    ply: usize,
}

/// One match of the run, as its two players remember it.
struct Run {
    game: Arc<RefGame>,
    encoding: Encoding,
    match_id: String,
    seats: [SeatMemory; 2],
    /// Routes of every acknowledged move, in order.
    acked: Vec<Vec<u8>>,
    pending: Option<Pending>,
    finished: bool,
    /// The connections of the last phase, kept for inspection (shutdown notices).
    clients: Vec<Client>,
    /// How many times the match came back after a restart.
    resumed: usize,
    /// How many times the server went away while the match was unfinished.
    interrupted: usize,
}

fn side_index(side: Side) -> usize {
    match side {
        Side::White => 0,
        Side::Black => 1,
    }
}

/// Seats a new match for `game`.
async fn open(addr: SocketAddr, game: Arc<RefGame>, encoding: Encoding) -> Run {
    let mut white = Client::connect(addr, encoding).await.expect("connect");
    let seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("create");
    let mut black = Client::connect(addr, encoding).await.expect("connect");
    let joined = black
        .join(JoinMatch::Code(seat.invite_code.clone()))
        .await
        .expect("join");
    assert_eq!(joined.side, Side::Black);
    Run {
        game,
        encoding,
        match_id: seat.match_id.clone(),
        seats: [
            SeatMemory {
                token: seat.token,
                next_id: white.next_id(),
            },
            SeatMemory {
                token: joined.token,
                next_id: black.next_id(),
            },
        ],
        acked: Vec::new(),
        pending: None,
        finished: false,
        clients: vec![white, black],
        resumed: 0,
        interrupted: 0,
    }
}

/// What went wrong in a phase: a lost connection is expected when the server dies.
fn is_connection_loss(err: &ClientError) -> bool {
    matches!(
        err,
        ClientError::Closed(_) | ClientError::Ws(_) | ClientError::Timeout(_)
    ) || matches!(err, ClientError::Refused(reply) if refused_for_shutdown(reply))
}

/// A refusal because the server is stopping: nothing was applied. A match whose actor has
/// already stopped for the shutdown answers `shutting_down` too, never `not_found`.
fn refused_for_shutdown(reply: &boardcast_protocol::ErrorReply) -> bool {
    reply.code == ErrorCode::ShuttingDown
}

/// Checks a snapshot taken after a restart against what the players know, and returns the
/// ply to continue from.
fn reconcile(run: &Run, snapshot: &MatchSnapshot) -> Result<usize, String> {
    let game = &run.game;
    let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
    let have = routes.len();
    let most = run.acked.len() + usize::from(run.pending.is_some());
    if have < run.acked.len() {
        return Err(format!(
            "match {} ({}): {} moves acknowledged, only {have} survived the restart",
            run.match_id,
            game.id,
            run.acked.len()
        ));
    }
    if have > most {
        return Err(format!(
            "match {}: {have} moves after the restart but only {most} were ever sent",
            run.match_id
        ));
    }
    if routes[..run.acked.len()] != run.acked[..] || routes[..] != game.routes[..have] {
        return Err(format!(
            "match {}: the moves after the restart differ from the acknowledged ones",
            run.match_id
        ));
    }
    Ok(have)
}

/// Reconnects both players (unless the connections are fresh), re-sends the pending move, and
/// plays on until the game ends or the connection is lost.
async fn phase(addr: SocketAddr, mut run: Run, acks: Arc<AtomicUsize>) -> Result<Run, String> {
    if run.finished {
        return Ok(run);
    }
    let reconnect = run.clients.is_empty();
    let mut clients = std::mem::take(&mut run.clients);
    let mut ply;
    if reconnect {
        for side in 0..2 {
            let mut client = match Client::connect(addr, run.encoding).await {
                Ok(client) => client,
                Err(err) if is_connection_loss(&err) => return Ok(run),
                Err(err) => return Err(format!("{}: reconnect: {err}", run.match_id)),
            };
            client.set_next_id(run.seats[side].next_id);
            let seat = match client.resume(&run.seats[side].token, None).await {
                Ok(seat) => seat,
                // A match that the unanswered move ended before the crash is resumed too
                // (read back from storage): its snapshot shows the end.
                Err(err) if is_connection_loss(&err) => return Ok(run),
                Err(err) => {
                    return Err(format!(
                        "{} ({}, {} plies): resume after {} acknowledged plies, pending {:?}: {err}",
                        run.match_id,
                        run.game.id,
                        run.game.routes.len(),
                        run.acked.len(),
                        run.pending
                    ));
                }
            };
            run.seats[side].next_id = client.next_id();
            if seat.match_id != run.match_id || side_index(seat.side) != side {
                return Err(format!("{}: resumed the wrong seat {seat:?}", run.match_id));
            }
            clients.push(client);
        }
        // The snapshot that follows the resume.
        let match_id = run.match_id.clone();
        let snapshot = match clients[0]
            .wait_for("the snapshot after resume", |message| match message {
                ServerMessage::MatchSnapshot(s) if s.match_id == match_id => Some(s.clone()),
                _ => None,
            })
            .await
        {
            Ok(snapshot) => snapshot,
            Err(err) if is_connection_loss(&err) => return Ok(run),
            Err(err) => return Err(format!("{}: snapshot: {err}", run.match_id)),
        };
        ply = reconcile(&run, &snapshot)?;
        run.resumed += 1;
        if let Some(pending) = run.pending.take() {
            // Re-send the unanswered move unchanged, id included (protocol §9).
            let applied = ply > pending.ply;
            let client = &mut clients[pending.side];
            let route = &run.game.routes[pending.ply];
            let seat = boardcast_protocol::Seat {
                id: 0,
                match_id: run.match_id.clone(),
                invite_code: String::new(),
                side: if pending.side == 0 {
                    Side::White
                } else {
                    Side::Black
                },
                token: run.seats[pending.side].token.clone(),
            };
            client.set_next_id(pending.id);
            let resent = client.play(&seat, route).await;
            client.set_next_id(run.seats[pending.side].next_id.max(pending.id + 1));
            match resent {
                Ok(ack) if ack.duplicate == applied => {
                    run.acked.push(route.clone());
                    acks.fetch_add(1, Ordering::Relaxed);
                    ply = pending.ply + 1;
                }
                Ok(ack) => {
                    return Err(format!(
                        "{}: re-sent ply {} (applied before the crash: {applied}) got {ack:?}",
                        run.match_id, pending.ply
                    ));
                }
                Err(err) if is_connection_loss(&err) => {
                    run.pending = Some(pending);
                    return Ok(run);
                }
                Err(err) => return Err(format!("{}: re-send: {err}", run.match_id)),
            }
        }
        if snapshot.phase == MatchPhase::Finished && ply == run.game.routes.len() {
            run.finished = true;
            run.clients = clients;
            return Ok(run);
        }
    } else {
        ply = run.acked.len();
    }
    while ply < run.game.routes.len() {
        let side = ply % 2;
        let route = run.game.routes[ply].clone();
        let client = &mut clients[side];
        let seat = boardcast_protocol::Seat {
            id: 0,
            match_id: run.match_id.clone(),
            invite_code: String::new(),
            side: if side == 0 { Side::White } else { Side::Black },
            token: run.seats[side].token.clone(),
        };
        let id = client.next_id();
        run.pending = Some(Pending { side, id, ply });
        let result = client.play(&seat, &route).await;
        run.seats[side].next_id = client.next_id();
        match result {
            Ok(ack) if !ack.duplicate => {
                run.pending = None;
                run.acked.push(route);
                acks.fetch_add(1, Ordering::Relaxed);
                ply += 1;
            }
            Ok(ack) => return Err(format!("{}: ply {ply}: {ack:?}", run.match_id)),
            Err(ClientError::Refused(reply)) if refused_for_shutdown(&reply) => {
                // Refused: nothing was applied.
                run.pending = None;
                break;
            }
            Err(err) if is_connection_loss(&err) => break,
            Err(err) => return Err(format!("{}: ply {ply}: {err}", run.match_id)),
        }
    }
    run.finished = ply == run.game.routes.len();
    run.clients = clients;
    Ok(run)
}

/// Runs every match until it ends or the server goes away; returns them all.
async fn run_phase(addr: SocketAddr, runs: Vec<Run>, acks: &Arc<AtomicUsize>) -> Vec<Run> {
    boardcast_tests::all_in_order(runs.into_iter().map(|run| {
        let acks = Arc::clone(acks);
        phase(addr, run, acks)
    }))
    .await
}

/// The finished game as the server serves it for download (`/games/{id}.pdn`) equals the
/// reference game, result included.
async fn check_pdn(addr: SocketAddr, run: &Run) -> Result<(), String> {
    let path = format!("/games/{}.pdn", run.match_id);
    let (status, body) =
        tokio::task::spawn_blocking(move || boardcast_tests::http_get(addr, &path))
            .await
            .expect("join")
            .map_err(|err| format!("{}: GET pdn: {err}", run.match_id))?;
    if status != 200 {
        return Err(format!(
            "{}: GET pdn: status {status}: {body}",
            run.match_id
        ));
    }
    let pdn = frisian::pdn::import(&body).map_err(|err| format!("{}: pdn: {err}", run.match_id))?;
    let routes: Vec<Vec<u8>> = pdn
        .moves
        .iter()
        .map(|mv| mv.route().iter().map(|s| s.number()).collect())
        .collect();
    let token = match run.game.winner {
        Some(Side::White) => "2-0",
        Some(Side::Black) => "0-2",
        None => "1-1",
    };
    if pdn.moves.len() != run.game.moves.len()
        || pdn.end.fen() != *run.game.fens.last().expect("moves")
        || pdn.result != token
    {
        return Err(format!(
            "{}: the stored game differs from {}: {} moves ({routes:?}), result {}",
            run.match_id,
            run.game.id,
            pdn.moves.len(),
            pdn.result
        ));
    }
    Ok(())
}

/// Every match finished exactly as its reference game: as a fresh watcher sees it while the
/// match is still in memory, and as the stored game for download in any case.
async fn check_all_finished(addr: SocketAddr, runs: &[Run]) {
    let mut watcher = Client::connect(addr, Encoding::Postcard)
        .await
        .expect("connect");
    for run in runs {
        assert!(run.finished, "match {} did not finish", run.match_id);
        check_pdn(addr, run).await.unwrap();
        match watcher.watch_match(&run.match_id).await {
            Ok(snapshot) => {
                let routes: Vec<Vec<u8>> = snapshot.moves.iter().map(|m| m.route.clone()).collect();
                assert_eq!(routes, run.game.routes, "match {}", run.match_id);
                assert_eq!(
                    snapshot.phase,
                    MatchPhase::Finished,
                    "match {}",
                    run.match_id
                );
                let result = snapshot
                    .result
                    .as_ref()
                    .expect("a finished match has a result");
                run.game.check_result(result).unwrap();
            }
            // Finished before the last restart: no longer in memory, checked by its PDN.
            Err(ClientError::Refused(reply)) if reply.code == ErrorCode::NotFound => {}
            Err(err) => panic!("match {}: {err}", run.match_id),
        }
    }
}

async fn open_all(addr: SocketAddr, count: usize) -> Vec<Run> {
    let games: Vec<Arc<RefGame>> = load_games().into_iter().map(Arc::new).collect();
    let mut runs = Vec::new();
    for index in 0..count {
        let encoding = if index % 2 == 0 {
            Encoding::Postcard
        } else {
            Encoding::Json
        };
        runs.push(open(addr, Arc::clone(&games[index % games.len()]), encoding).await);
    }
    runs
}

/// Notes which matches the server left unfinished when it went away.
fn note_interruptions(runs: &mut [Run]) {
    for run in runs {
        if !run.finished {
            run.interrupted += 1;
        }
        run.clients.clear();
    }
}

/// Every match the server left unfinished came back with its tokens (or had ended with the
/// move in flight at the crash, which its stored record shows).
fn assert_every_match_resumed(runs: &[Run]) {
    let interrupted = runs.iter().filter(|run| run.interrupted > 0).count();
    assert!(
        interrupted > 0,
        "no match was interrupted: the test proves nothing"
    );
    for run in runs {
        assert!(
            run.interrupted == 0 || run.resumed >= 1,
            "match {} was interrupted {} times and never resumed",
            run.match_id,
            run.interrupted
        );
    }
}

/// `matches` concurrent matches, `kills` SIGKILLs at seeded moments, then play to the end;
/// the server started with `args`.
async fn crash_run(matches: usize, kills: usize, seed: u64, args: &[&str]) {
    let mut server = TestServer::start(server_program(), args);
    let mut runs = open_all(server.addr(), matches).await;
    let total: usize = runs.iter().map(|run| run.game.routes.len()).sum();
    // Seeded kill points, by number of acknowledged moves, one in each stretch of the run.
    let mut rng = StdRng::seed_from_u64(seed);
    let mut kill_points: Vec<usize> = (0..kills)
        .map(|k| {
            let low = total * (k * 3 + 1) / (kills * 3 + 1);
            let high = total * (k * 3 + 3) / (kills * 3 + 1);
            rng.random_range(low..high)
        })
        .collect();
    kill_points.sort_unstable();
    let acks = Arc::new(AtomicUsize::new(0));
    for (round, &kill_at) in kill_points.iter().enumerate() {
        let addr = server.addr();
        let pid = server.process.child.id();
        let watch_acks = Arc::clone(&acks);
        // The killer: SIGKILL as soon as `kill_at` moves were acknowledged in all.
        let killer = tokio::spawn(async move {
            while watch_acks.load(Ordering::Relaxed) < kill_at {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        });
        runs = run_phase(addr, runs, &acks).await;
        killer.await.unwrap();
        let status = server.process.child.wait().expect("reap the server");
        assert!(
            !status.success(),
            "round {round}: the server was not killed: {status:?}"
        );
        eprintln!(
            "seed {seed} round {round}: killed after {} acknowledged moves (target {kill_at} of {total})",
            acks.load(Ordering::Relaxed)
        );
        note_interruptions(&mut runs);
        server.restart(server_program());
    }
    // The last stretch without a crash: everything plays to the end.
    runs = run_phase(server.addr(), runs, &acks).await;
    assert_every_match_resumed(&runs);
    check_all_finished(server.addr(), &runs).await;
}

/// The seed of the kill points: `BOARDCAST_CRASH_SEED`, or a fixed one.
fn crash_seed() -> u64 {
    std::env::var("BOARDCAST_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261121)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_random_moments_loses_no_acknowledged_move() {
    crash_run(50, 3, crash_seed(), SERVER_ARGS).await;
}

/// The same crashes with the matches stored in a real PostgreSQL server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_random_moments_loses_no_acknowledged_move_on_postgres() {
    let Some(cluster) = Cluster::shared_or_skip("durability on PostgreSQL") else {
        return;
    };
    let url = cluster.create_database();
    let mut args = SERVER_ARGS.to_vec();
    args.extend(["--database", &url]);
    crash_run(50, 3, crash_seed(), &args).await;
}

/// The long soak: 200 matches, 10 kills, for each of five seeds. Run it with
/// `cargo test --release -p boardcast-tests --test durability -- --ignored`
/// (`BOARDCAST_CRASH_SEED=n` picks the first seed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "soak: several minutes; run with --ignored"]
async fn kill_9_soak() {
    let first = crash_seed();
    for seed in first..first + 5 {
        crash_run(200, 10, seed, SERVER_ARGS).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_matches_run_tells_clients_and_loses_nothing() {
    const MATCHES: usize = 20;
    let mut server = TestServer::start(server_program(), SERVER_ARGS);
    let mut runs = open_all(server.addr(), MATCHES).await;
    let total: usize = runs.iter().map(|run| run.game.routes.len()).sum();
    let acks = Arc::new(AtomicUsize::new(0));
    let pid = server.process.child.id();
    let watch_acks = Arc::clone(&acks);
    let terminator = tokio::spawn(async move {
        while watch_acks.load(Ordering::Relaxed) < total / 3 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status();
    });
    runs = run_phase(server.addr(), runs, &acks).await;
    terminator.await.unwrap();
    let status = tokio::task::spawn_blocking(move || {
        let status = server.process.child.wait();
        (server, status)
    })
    .await
    .unwrap();
    let (mut server, status) = status;
    let status = status.expect("reap the server");
    assert!(status.success(), "exit status after SIGTERM: {status:?}");
    for run in &mut runs {
        if !run.finished {
            run.interrupted += 1;
        }
    }
    // Every open connection was told, then closed with 1001.
    for run in &mut runs {
        if run.finished {
            continue;
        }
        for (side, client) in run.clients.iter_mut().enumerate() {
            let code = client
                .expect_close(Duration::from_secs(5))
                .await
                .unwrap_or_else(|err| panic!("match {}: {err}", run.match_id));
            assert_eq!(
                code,
                Some(close::GOING_AWAY),
                "match {} side {side}, pending {:?}, backlog ends {:?}",
                run.match_id,
                run.pending,
                client.backlog().iter().rev().take(3).collect::<Vec<_>>()
            );
            assert!(
                client
                    .backlog()
                    .iter()
                    .any(|m| matches!(m, ServerMessage::Shutdown(_))),
                "match {}: no shutdown notice before the close",
                run.match_id
            );
        }
        run.clients.clear();
    }
    server.restart(server_program());
    runs = run_phase(server.addr(), runs, &acks).await;
    assert_every_match_resumed(&runs);
    check_all_finished(server.addr(), &runs).await;
    let exit =
        tokio::task::spawn_blocking(move || server.process.terminate(Duration::from_secs(20)))
            .await
            .unwrap()
            .expect("the server stops");
    assert!(exit.success(), "{exit:?}");
}

/// A finished match is not in memory after a restart: it is read back from storage, so a
/// player can still resume its seat and a spectator watch it, both getting the final
/// snapshot, and seat actions are refused as `game_over`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_match_is_resumed_and_watched_after_a_restart() {
    let mut server = TestServer::start(server_program(), SERVER_ARGS);
    let games = load_games();
    let game = &games[0];
    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let white_seat = white
        .create_match(ColorChoice::White, false, None)
        .await
        .expect("create");
    let mut black = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("join");
    white
        .play(&white_seat, &game.routes[0])
        .await
        .expect("ply 0");
    black
        .play(&black_seat, &game.routes[1])
        .await
        .expect("ply 1");
    white.resign(&white_seat).await.expect("resign");
    drop((white, black));
    let status = server
        .process
        .terminate(Duration::from_secs(10))
        .expect("stops");
    assert!(status.success(), "{status:?}");
    server.restart(server_program());

    let finished = |snapshot: &MatchSnapshot| {
        snapshot.phase == MatchPhase::Finished
            && snapshot.moves.len() == 2
            && snapshot
                .result
                .as_ref()
                .is_some_and(|result| result.winner == Some(Side::Black))
    };
    // The player comes back with its token: its seat, then the final snapshot.
    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let seat = white.resume(&white_seat.token, None).await.expect("resume");
    assert_eq!(seat.match_id, white_seat.match_id);
    assert_eq!(seat.side, Side::White);
    let match_id = seat.match_id.clone();
    let snapshot = white
        .wait_for("the final snapshot", |message| match message {
            ServerMessage::MatchSnapshot(s) if s.match_id == match_id => Some(s.clone()),
            _ => None,
        })
        .await
        .expect("snapshot");
    assert!(finished(&snapshot), "{snapshot:?}");
    // Seat actions on it are refused as over (with an id the seat has not used yet).
    white.set_next_id(100);
    let id = white
        .send_move(&white_seat, &game.routes[2])
        .await
        .expect("send");
    white
        .expect_error(id, ErrorCode::GameOver)
        .await
        .expect("game_over");
    // A spectator (and the other player, in the other encoding) see the same end.
    let mut watcher = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .expect("connect");
    let watched = watcher.watch_match(&match_id).await.expect("watch");
    assert!(finished(&watched), "{watched:?}");
    let mut black = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .expect("connect");
    let seat = black.resume(&black_seat.token, None).await.expect("resume");
    assert_eq!(seat.side, Side::Black);
    // An unknown token is still refused.
    let mut stranger = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let refused = stranger
        .resume("0123456789abcdef0123456789abcdef", None)
        .await;
    assert!(
        matches!(&refused, Err(ClientError::Refused(reply)) if reply.code == ErrorCode::InvalidToken),
        "{refused:?}"
    );
}

/// The heartbeat interval of a single node (`matches::heartbeat::EVERY`): the most thinking
/// a crash may refund.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// A crash refunds no thinking the server could have taken a move in (PROTOCOL.md §12):
/// White thinks 3 s, the server is killed, and after the restart White's clock shows those
/// 3 s used — within one heartbeat, the last moment the server is known to have been alive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_does_not_refund_the_thinking_before_it() {
    let mut server = TestServer::start(server_program(), SERVER_ARGS);
    let game = &load_games()[0];
    let minute = TimeControl {
        initial_ms: 60_000,
        increment_ms: 0,
    };
    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let white_seat = white
        .create_match(ColorChoice::White, false, Some(minute))
        .await
        .expect("create");
    let mut black = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("join");
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
    let killed = std::time::Instant::now();
    server.process.kill9().expect("kill -9");
    drop((white, black));
    server.restart(server_program());

    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    white.resume(&white_seat.token, None).await.expect("resume");
    let match_id = white_seat.match_id.clone();
    let snapshot = white
        .wait_for("the snapshot", |message| match message {
            ServerMessage::MatchSnapshot(s) if s.match_id == match_id => Some(s.clone()),
            _ => None,
        })
        .await
        .expect("snapshot");
    let down = killed.elapsed();
    let clock = snapshot.clock.expect("a clock");
    assert_eq!(clock.running, Some(Side::White), "{clock:?}");
    let used = Duration::from_millis(minute.initial_ms - clock.white_ms);
    // Charged the thinking up to the last heartbeat (at most one interval before the kill),
    // plus what ran since the restart; never the time the server was down on top.
    assert!(
        used + HEARTBEAT + Duration::from_millis(300) >= thinking,
        "{used:?} of White's {thinking:?} of thinking charged: the crash refunded it"
    );
    assert!(
        used <= thinking + down,
        "{used:?} charged for {thinking:?} of thinking and {down:?} down"
    );
    assert_eq!(clock.black_ms, minute.initial_ms, "Black's clock never ran");
}

/// Issue 28, 3 (a single node's storage down while the side to move only thinks): the time
/// in which no move could have been stored is charged to nobody, and no flag falls in it,
/// though White tried no move during it. White has 15 s (the least a match allows) when
/// PostgreSQL stops for longer than that; after it White's move is accepted and White is
/// charged only the thinking before the outage (plus up to one heartbeat, the interval in
/// which the node notices) and after it. Before, the match knew of an outage only from a
/// write of its own: the flag fell, and its forfeit was stored once PostgreSQL was back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_outage_is_charged_to_nobody_though_the_side_to_move_only_thought() {
    let Some(postgres) = Cluster::start_or_skip("an outage is charged to nobody") else {
        return;
    };
    let url = postgres.create_database();
    let mut args = SERVER_ARGS.to_vec();
    args.extend(["--database", &url]);
    let server = TestServer::start(server_program(), &args);
    let game = &load_games()[0];
    let fifteen = TimeControl {
        initial_ms: 15_000,
        increment_ms: 0,
    };
    let mut white = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let white_seat = white
        .create_match(ColorChoice::White, false, Some(fifteen))
        .await
        .expect("create");
    let mut black = Client::connect(server.addr(), Encoding::Postcard)
        .await
        .expect("connect");
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .expect("join");
    white
        .play(&white_seat, &game.routes[0])
        .await
        .expect("ply 0");
    // Black's first move starts White's clock: no earlier than it is sent.
    let turn_began = std::time::Instant::now();
    black
        .play(&black_seat, &game.routes[1])
        .await
        .expect("ply 1");
    tokio::time::sleep(Duration::from_secs(1)).await;
    let before = turn_began.elapsed();
    tokio::task::block_in_place(|| postgres.stop());
    // Longer than all of White's time; White does not try to move meanwhile.
    tokio::time::sleep(Duration::from_secs(17)).await;
    tokio::task::block_in_place(|| postgres.start_again()).expect("PostgreSQL starts again");
    let back = std::time::Instant::now();
    let deadline = back + Duration::from_secs(60);
    loop {
        match white.play(&white_seat, &game.routes[2]).await {
            Ok(_) => break,
            Err(ClientError::Refused(error))
                if matches!(error.code, ErrorCode::StorageUnavailable | ErrorCode::Busy)
                    && std::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(err) => panic!("White's move after the outage: {err}"),
        }
    }
    let after = back.elapsed();
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
    let charged = Duration::from_millis(fifteen.initial_ms - clock.white_ms);
    assert!(
        charged <= before + HEARTBEAT + after + Duration::from_millis(500),
        "White was charged {charged:?}: more than the {before:?} before the outage, one \
         heartbeat and the {after:?} after it"
    );
}

/// What a watcher gets for `target` after asking with `since_v`: the first versioned message
/// (a snapshot or an event) and its version.
async fn first_after_watch(
    client: &mut Client,
    target: Target,
    since_v: Option<u64>,
) -> (ServerMessage, u64) {
    let id = client
        .send(ClientMessage::Watch(Watch {
            target: target.clone(),
            since_v,
        }))
        .await
        .expect("send watch");
    client.expect_ack(id).await.expect("watch acknowledged");
    client
        .wait_for("the first versioned message", |message| {
            let v = match (message, &target) {
                (ServerMessage::ChannelSnapshot(s), Target::Channel(c)) if &s.channel == c => s.v,
                (ServerMessage::ChannelEvent(e), Target::Channel(c)) if &e.channel == c => e.v,
                (ServerMessage::MatchSnapshot(s), Target::Match(m)) if &s.match_id == m => s.v,
                (ServerMessage::MatchEvent(e), Target::Match(m)) if &e.match_id == m => e.v,
                _ => return None,
            };
            Some((message.clone(), v))
        })
        .await
        .expect("a snapshot or an event")
}

/// A watcher that comes back after a restart with the last version it saw must never be
/// handed events of another game under versions it already had: a channel's versions are
/// never used twice (the new run's start above every earlier one, so the old `since_v` gets
/// a fresh snapshot), and a match's versions are stored with it and continue exactly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn versions_are_never_reused_after_a_restart() {
    let mut server = TestServer::start(
        server_program(),
        &[
            "--log",
            "error",
            "--channels",
            "1",
            "--ply-interval",
            "100ms",
        ],
    );
    let tv1 = Target::Channel("tv1".into());
    let mut watcher = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let (_, mut seen) = first_after_watch(&mut watcher, tv1.clone(), None).await;
    for _ in 0..4 {
        seen = watcher
            .wait_for("a tv1 event", |message| match message {
                ServerMessage::ChannelEvent(e) => Some(e.v),
                _ => None,
            })
            .await
            .expect("tv1 goes on");
    }
    // A match, with two moves, watched up to its last event.
    let games = load_games();
    let mut pair = boardcast_tests::client::Pair::start(server.addr(), Encoding::Json)
        .await
        .expect("seat a pair");
    pair.play(0, &games[0].routes[0]).await.expect("ply 0");
    pair.play(1, &games[0].routes[1]).await.expect("ply 1");
    let match_id = pair.match_id().to_owned();
    let match_seen = watcher.watch_match(&match_id).await.expect("watch").v;
    drop(pair);
    let status = server
        .process
        .terminate(Duration::from_secs(10))
        .expect("stops");
    assert!(status.success(), "{status:?}");
    server.restart(server_program());

    let mut again = Client::connect(server.addr(), Encoding::Json)
        .await
        .expect("connect");
    let (first, v) = first_after_watch(&mut again, tv1, Some(seen)).await;
    assert!(
        matches!(first, ServerMessage::ChannelSnapshot(_)) && v > seen,
        "after a restart, tv1 since_v {seen} gave {first:?}"
    );
    let next = again
        .wait_for("the next tv1 event", |message| match message {
            ServerMessage::ChannelEvent(e) => Some(e.v),
            _ => None,
        })
        .await
        .expect("tv1 goes on");
    assert_eq!(next, v + 1);
    // The match carries on from the version the watcher had: exactly the missed events.
    let (first, v) = first_after_watch(&mut again, Target::Match(match_id), Some(match_seen)).await;
    assert!(
        matches!(first, ServerMessage::MatchEvent(_)) && v == match_seen + 1,
        "after a restart, the match since_v {match_seen} gave {first:?}"
    );
}
