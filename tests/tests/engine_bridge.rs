//! `boardcast engine --hub …` through the real server, with the tests crate's Hub engine
//! (`hub-test-engine`): bridged engines play complete timed matches against each other while a
//! spectator watches on Frisian TV, a bridged engine plays a scripted person and survives its
//! connection being cut, and a misbehaving engine is logged, resigned and restarted for the
//! next game (issue 20).

use std::collections::BTreeMap;
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boardcast_protocol::{
    ClientMessage, Encoding, FRISIAN_TV, MatchEvent, MatchSnapshot, ServerMessage, Side, Target,
    Watch,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::Client;

const ENGINE: &str = env!("CARGO_BIN_EXE_hub-test-engine");

/// The `boardcast` client binary, built beside this package's binaries by the test itself
/// (a test cannot name another package's binary directly).
fn client_bin() -> PathBuf {
    boardcast_tests::client_bin::client_binary(Path::new(ENGINE))
}

fn server() -> TestServer {
    TestServer::start(Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e")), &[])
}

/// Starts one bridge to the server at `addr`: `name` plays `engine_args` with the bridge flags
/// `flags`.
fn bridge(addr: SocketAddr, dir: &Path, name: &str, engine_args: &str, flags: &[&str]) -> Child {
    Command::new(client_bin())
        .args(["--server", &addr.to_string(), "--name", name])
        .arg("--data-dir")
        .arg(dir.join(name))
        .arg("engine")
        .args(["--hub", &format!("{ENGINE} {engine_args}")])
        .args(flags)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the client starts")
}

/// Waits for a bridge to exit by itself (it does after `--games`), killing it after `limit`.
fn finish(mut child: Child, limit: Duration) -> Output {
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().expect("output");
            panic!(
                "the bridge did not finish within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.wait_with_output().expect("output")
}

fn lines(bytes: &[u8], prefix: &str) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// What a spectator on Frisian TV saw of one featured match.
#[derive(Debug, Default)]
struct Seen {
    /// The moves in order: the snapshot's, then one per `moved`.
    moves: Vec<String>,
    /// A `match_event` came whose version did not follow the last one seen.
    gap: bool,
    /// The result's detail, once `ended` came.
    ended: Option<String>,
    /// Whether each seat (white, black) was shown as a bot's.
    bots: Option<[bool; 2]>,
}

fn bots(snapshot: &MatchSnapshot) -> [bool; 2] {
    [&snapshot.white, &snapshot.black].map(|p| p.as_ref().is_some_and(|p| p.bot))
}

/// A spectator on Frisian TV, as the clients do it: told which match TV features, it watches
/// that match (and unwatches the one before) until `stop`; returns what it saw of each.
fn spectate_frisian_tv(
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<BTreeMap<String, Seen>> {
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let mut client = Client::connect(addr, Encoding::Json).await.unwrap();
            client.hello("spectator").await.unwrap();
            let tv = Target::Channel(FRISIAN_TV.into());
            let watch = |target| {
                ClientMessage::Watch(Watch {
                    target,
                    since_v: None,
                })
            };
            client.send(watch(tv)).await.unwrap();
            let mut seen: BTreeMap<String, Seen> = BTreeMap::new();
            // The match shown and the last version seen of it.
            let mut shown: Option<(String, u64)> = None;
            while !stop.load(Ordering::SeqCst) {
                let message = match client.recv(Duration::from_millis(300)).await {
                    Ok(message) => message,
                    Err(boardcast_tests::client::ClientError::Timeout(_)) => continue,
                    Err(error) => panic!("the spectator lost the server: {error:?}"),
                };
                match message {
                    ServerMessage::Featured(featured) => {
                        let Some(id) = featured.match_id else {
                            continue;
                        };
                        if shown.as_ref().is_some_and(|(s, _)| *s == id) {
                            continue;
                        }
                        if let Some((old, _)) = shown.take() {
                            let unwatch = ClientMessage::Unwatch(Target::Match(old));
                            client.send(unwatch).await.unwrap();
                        }
                        client.send(watch(Target::Match(id.clone()))).await.unwrap();
                        seen.entry(id.clone()).or_default();
                        shown = Some((id, 0));
                    }
                    ServerMessage::MatchSnapshot(snapshot) => {
                        let Some((id, v)) =
                            shown.as_mut().filter(|(id, _)| *id == snapshot.match_id)
                        else {
                            continue;
                        };
                        let entry = seen.get_mut(id).unwrap();
                        entry.moves = snapshot.moves.iter().map(|m| m.notation.clone()).collect();
                        entry.bots = Some(bots(&snapshot));
                        entry.ended = snapshot.result.as_ref().map(|r| r.detail.clone());
                        *v = snapshot.v;
                    }
                    ServerMessage::MatchEvent(event) => {
                        let Some((id, v)) = shown.as_mut().filter(|(id, _)| *id == event.match_id)
                        else {
                            continue;
                        };
                        let entry = seen.get_mut(id).unwrap();
                        entry.gap |= event.v != *v + 1;
                        *v = event.v;
                        match event.event {
                            MatchEvent::Moved(moved) => entry.moves.push(moved.played.notation),
                            MatchEvent::Ended(result) => entry.ended = Some(result.detail),
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            seen
        })
    })
}

/// The moves of a finished match as the server's PDN lists them.
fn pdn_moves(addr: SocketAddr, match_id: &str) -> Vec<String> {
    let (status, pdn) = boardcast_tests::http_get(addr, &format!("/games/{match_id}.pdn")).unwrap();
    assert_eq!(status, 200, "{pdn}");
    pdn.lines()
        .filter(|line| !line.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|token| {
            token.starts_with(|c: char| c.is_ascii_digit())
                && (token.contains('-') || token.contains('x'))
                && !["2-0", "0-2", "1-1"].contains(token)
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn two_bridged_engines_play_ten_complete_timed_matches_watched_on_frisian_tv() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let spectator = spectate_frisian_tv(server.addr(), stop.clone());
    let seeker = bridge(
        server.addr(),
        dir.path(),
        "alpha",
        "--seed 3",
        &["--seek", "3+2", "--games", "10"],
    );
    let joiner = bridge(
        server.addr(),
        dir.path(),
        "beta",
        "--seed 8",
        &["--accept-seeks", "--games", "10"],
    );
    let limit = Duration::from_secs(900);
    let (seeker, joiner) = (finish(seeker, limit), finish(joiner, limit));
    // TV lingers on a finished match before it moves on: let it show the last result.
    std::thread::sleep(Duration::from_secs(1));
    stop.store(true, Ordering::SeqCst);
    let seen = spectator.join().expect("the spectator ran");
    for output in [&seeker, &joiner] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
        let results = lines(&output.stdout, "result ");
        assert_eq!(results.len(), 10, "{results:?}\n{stderr}");
        // Every game ends on the board: no flag fall, no abort, no resignation.
        for result in &results {
            assert!(
                !result.contains("time") && !result.contains("abort") && !result.contains("resign"),
                "{result}\n{stderr}"
            );
        }
        assert_eq!(
            stderr.matches("engine HubTest 1.0 ready").count(),
            1,
            "{stderr}"
        );
    }
    // The server saw the same ten matches from both seats.
    let results = lines(&seeker.stdout, "result ");
    assert_eq!(results, lines(&joiner.stdout, "result "));

    // TV moved from match to match (one that starts and ends while TV still shows the result
    // of the one before is skipped: these engines play a game in a few seconds), and the
    // spectator saw every move of each featured match exactly as the server recorded it, both
    // seats marked as bots.
    assert!(seen.len() >= 2, "TV featured {}: {seen:#?}", seen.len());
    for (match_id, seen) in &seen {
        assert!(!seen.gap, "{match_id}: {seen:?}");
        assert_eq!(seen.bots, Some([true, true]), "{match_id}");
        let detail = seen
            .ended
            .as_ref()
            .unwrap_or_else(|| panic!("{match_id}: {seen:?}"));
        assert!(
            results.iter().any(|r| r.contains(detail.as_str())),
            "{detail} not among {results:?}"
        );
        assert_eq!(seen.moves, pdn_moves(server.addr(), match_id), "{match_id}");
    }
}

/// A TCP relay between a client and the server whose connections the test can cut, as a
/// failing network would.
struct Relay {
    addr: SocketAddr,
    /// Both ends of every relayed connection, to cut.
    streams: Arc<Mutex<Vec<TcpStream>>>,
    connections: Arc<AtomicUsize>,
}

impl Relay {
    fn start(server: SocketAddr) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let streams = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let (kept, counted) = (streams.clone(), connections.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let (Ok(client), Ok(upstream)) = (client, TcpStream::connect(server)) else {
                    continue;
                };
                counted.fetch_add(1, Ordering::SeqCst);
                let mut kept = kept.lock().unwrap();
                kept.push(client.try_clone().unwrap());
                kept.push(upstream.try_clone().unwrap());
                for (from, to) in [
                    (client.try_clone(), upstream.try_clone()),
                    (Ok(upstream), Ok(client)),
                ] {
                    let (mut from, mut to) = (from.unwrap(), to.unwrap());
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Relay {
            addr,
            streams,
            connections,
        }
    }

    /// Cuts every connection relayed so far; new ones are relayed as before.
    fn cut(&self) {
        for stream in self.streams.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// A person's client: says hello and waits for the lobby to list a seek.
async fn person_finding_a_seek(addr: SocketAddr) -> (Client, boardcast_protocol::MatchSummary) {
    let mut person = Client::connect(addr, Encoding::Json).await.unwrap();
    person.hello("Sietske").await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        person.send(ClientMessage::ListLobby).await.unwrap();
        let lobby = person
            .wait_for("the lobby", |m| match m {
                ServerMessage::Lobby(lobby) => Some(lobby.clone()),
                _ => None,
            })
            .await
            .unwrap();
        if let Some(seek) = lobby.seeks.into_iter().next() {
            return (person, seek);
        }
        assert!(Instant::now() < deadline, "the engine opened no seek");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn finish_async(child: Child, limit: Duration) -> Output {
    tokio::task::spawn_blocking(move || finish(child, limit))
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridged_engine_plays_a_scripted_person() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let engine = bridge(
        server.addr(),
        dir.path(),
        "scan",
        "--seed 5",
        &["--seek", "3+2", "--games", "1"],
    );
    let (mut person, seek) = person_finding_a_seek(server.addr()).await;
    // The lobby shows the seek as an engine's.
    let engine_side = if seek.white.is_some() {
        Side::White
    } else {
        Side::Black
    };
    assert_eq!(
        (seek.white_bot, seek.black_bot),
        (engine_side == Side::White, engine_side == Side::Black)
    );
    let seat = person.join_match(&seek.match_id).await.unwrap();
    assert_eq!(seat.side, engine_side.opposite());
    let snapshot = person
        .wait_for("the snapshot", |m| match m {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    let mut expected = [false, false];
    expected[usize::from(engine_side == Side::Black)] = true;
    assert_eq!(bots(&snapshot), expected);
    // The person plays a legal move the server listed, chosen by the ply, until the end.
    let (mut legal, mut turn, mut plies) =
        (snapshot.legal_moves, snapshot.turn, snapshot.moves.len());
    let result = loop {
        if turn == seat.side && !legal.is_empty() {
            let route = legal[plies % legal.len()].route.clone();
            person.play(&seat, &route).await.unwrap();
        }
        let event = person.next_match_event(&seek.match_id).await.unwrap();
        match event.event {
            MatchEvent::Moved(moved) => {
                legal = moved.legal_moves;
                turn = moved.played.side.opposite();
                plies += 1;
            }
            MatchEvent::Ended(result) => break result,
            _ => {}
        }
    };
    let engine = finish_async(engine, Duration::from_secs(120)).await;
    let stderr = String::from_utf8_lossy(&engine.stderr);
    assert!(engine.status.success(), "{stderr}");
    let results = lines(&engine.stdout, "result ");
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(
        results[0].contains(&result.detail),
        "{results:?} {result:?}"
    );
    assert!(!stderr.contains("resigning"), "{stderr}");
    assert!(plies >= 2, "{plies}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bridged_engine_resumes_its_seat_after_its_connection_is_cut() {
    let server = server();
    let relay = Relay::start(server.addr());
    let dir = tempfile::tempdir().unwrap();
    let cut = bridge(
        relay.addr,
        dir.path(),
        "alpha",
        "--seed 3 --think-ms 20",
        &["--seek", "3+2", "--games", "1"],
    );
    let other = bridge(
        server.addr(),
        dir.path(),
        "beta",
        "--seed 8 --think-ms 20",
        &["--accept-seeks", "--games", "1"],
    );
    // A spectator waits for the game to be under way, then the relayed bridge's connection is
    // cut in the middle of it.
    let mut watcher = Client::connect(server.addr(), Encoding::Json)
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let match_id = loop {
        watcher.send(ClientMessage::ListLobby).await.unwrap();
        let lobby = watcher
            .wait_for("the lobby", |m| match m {
                ServerMessage::Lobby(lobby) => Some(lobby.clone()),
                _ => None,
            })
            .await
            .unwrap();
        if let Some(live) = lobby.live.into_iter().next() {
            break live.match_id;
        }
        assert!(Instant::now() < deadline, "no match started");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let snapshot = watcher.watch_match(&match_id).await.unwrap();
    let mut plies = snapshot.moves.len();
    while plies < 10 {
        if let MatchEvent::Moved(_) = watcher.next_match_event(&match_id).await.unwrap().event {
            plies += 1;
        }
    }
    relay.cut();
    let result = loop {
        let event = watcher
            .wait_for_within(
                "the end of the match",
                Duration::from_secs(300),
                |m| match m {
                    ServerMessage::MatchEvent(e) if e.match_id == match_id => Some(e.clone()),
                    _ => None,
                },
            )
            .await
            .unwrap();
        match event.event {
            MatchEvent::Moved(_) => plies += 1,
            MatchEvent::Ended(result) => break result,
            _ => {}
        }
    };
    let limit = Duration::from_secs(120);
    let (cut, other) = (
        finish_async(cut, limit).await,
        finish_async(other, limit).await,
    );
    let stderr = String::from_utf8_lossy(&cut.stderr);
    assert!(cut.status.success(), "{stderr}");
    assert!(other.status.success());
    // The bridge came back through the relay with its seat token and played on: the engine was
    // asked from the right position, since every move after the cut was accepted.
    assert!(relay.connections.load(Ordering::SeqCst) >= 2);
    assert!(!lines(&cut.stdout, "reconnected").is_empty(), "{stderr}");
    assert!(
        lines(&cut.stdout, "error ").is_empty(),
        "{:?}",
        lines(&cut.stdout, "error ")
    );
    assert!(!stderr.contains("resigning"), "{stderr}");
    assert!(plies > 10, "the game went on after the cut: {plies} plies");
    assert!(
        !matches!(
            result.reason,
            boardcast_protocol::EndReason::TimeForfeit
                | boardcast_protocol::EndReason::Resignation
                | boardcast_protocol::EndReason::Aborted
                | boardcast_protocol::EndReason::Abandoned
        ),
        "{result:?}"
    );
    assert_eq!(
        lines(&cut.stdout, "result "),
        lines(&other.stdout, "result ")
    );
}

/// One faulty engine against a sound one for two games: the fault is logged with the
/// engine's last lines, the game is resigned, and the engine is restarted for the next game.
fn faulty_engine_resigns_and_restarts(fault: &str, logged: &str) {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let faulty = bridge(
        server.addr(),
        dir.path(),
        "faulty",
        &format!("--seed 4 --fault {fault} --fault-at 3"),
        &["--seek", "3+2", "--games", "2"],
    );
    let sound = bridge(
        server.addr(),
        dir.path(),
        "sound",
        "--seed 9",
        &["--accept-seeks", "--games", "2"],
    );
    let limit = Duration::from_secs(300);
    let (faulty, sound) = (finish(faulty, limit), finish(sound, limit));
    let stderr = String::from_utf8_lossy(&faulty.stderr);
    assert!(faulty.status.success(), "{stderr}");
    assert!(sound.status.success());
    assert!(stderr.contains(logged), "{stderr}");
    assert!(stderr.contains("its last lines: "), "{stderr}");
    assert!(
        stderr.contains(
            "resigning the game: the bridge never plays a move the engine did not choose"
        ),
        "{stderr}"
    );
    // Restarted after each fault: the second game is played by a fresh process, which fails
    // again at its own third search. Exactly two starts: one before the first game, one for
    // the second, none after the last.
    assert_eq!(stderr.matches("resigning the game").count(), 2, "{stderr}");
    assert_eq!(
        stderr.matches("engine HubTest 1.0 ready").count(),
        2,
        "{stderr}"
    );
    let results = lines(&faulty.stdout, "result ");
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(results.iter().all(|r| r.contains("resign")), "{results:?}");
    // Nothing the engine made up reached the server: the faulty side's moves are the two
    // it chose soundly before its third search, in each game.
    for line in lines(&faulty.stdout, "error ") {
        assert!(!line.contains("illegal"), "{line}");
    }
}

#[test]
fn a_crashing_engine_is_resigned_and_restarted() {
    faulty_engine_resigns_and_restarts("crash", "the engine exited (exit status: 3)");
}

#[test]
fn an_illegal_engine_move_is_never_sent() {
    faulty_engine_resigns_and_restarts(
        "illegal",
        "the engine's move is refused: `1-50` is not a legal move here",
    );
}

#[test]
fn a_garbled_engine_move_is_never_sent() {
    faulty_engine_resigns_and_restarts(
        "garbage",
        "the engine's move is refused: `\u{fffd}%%` is not a move in Hub notation",
    );
}

#[test]
fn an_engine_error_resigns() {
    faulty_engine_resigns_and_restarts("error", "the engine answered error `told to fail`");
}

#[test]
fn a_hanging_engine_loses_on_time_without_a_move_sent_for_it() {
    let server = server();
    let dir = tempfile::tempdir().unwrap();
    let hanging = bridge(
        server.addr(),
        dir.path(),
        "hanging",
        "--seed 4 --fault hang --fault-at 3",
        &["--seek", "1+0", "--games", "1"],
    );
    let sound = bridge(
        server.addr(),
        dir.path(),
        "sound",
        "--seed 9",
        &["--accept-seeks", "--games", "1"],
    );
    let limit = Duration::from_secs(300);
    let (hanging, sound) = (finish(hanging, limit), finish(sound, limit));
    let stderr = String::from_utf8_lossy(&hanging.stderr);
    assert!(hanging.status.success(), "{stderr}");
    assert!(sound.status.success());
    assert!(
        stderr.contains("the engine did not move before its clock ran out; its last lines: "),
        "{stderr}"
    );
    assert!(!stderr.contains("resigning"), "{stderr}");
    let results = lines(&hanging.stdout, "result ");
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(results[0].contains("ran out of time"), "{results:?}");
}
