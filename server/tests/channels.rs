//! MinitChess channels against a real server on port 0 over real WebSockets: a whole TV game
//! identical to `minitchess`, every frame inspected for early reveals, predictions scored and
//! late guesses refused, standings and the stored leaderboard, the worked example, and
//! archived games replayed after a restart.

mod common;

use std::time::{Duration, Instant};

use boardcast_protocol::*;
use boardcast_server::Config;
use common::*;
use futures_util::StreamExt;
use minitchess::Game;
use tokio_tungstenite::tungstenite::Message;

const TV_INTERVAL: Duration = Duration::from_millis(60);
/// The pause between two TV games.
const GAME_PAUSE: Duration = Duration::from_millis(300);
/// On-demand games' pace: long enough for a few round trips before each reveal.
const PLY_MS: u64 = 250;

fn config(db: std::path::PathBuf, channels: usize) -> Config {
    let mut config = Config::for_tests(db);
    config.channels = channels;
    config.ply_interval = format!("{}ms", TV_INTERVAL.as_millis()).parse().unwrap();
    config.game_pause = GAME_PAUSE;
    config
}

/// The next protocol frame as raw JSON text and decoded, with its arrival time.
async fn frame(client: &mut Client) -> (String, ServerMessage, Instant) {
    loop {
        let message = tokio::time::timeout(WAIT, client.ws().next())
            .await
            .expect("a frame in time")
            .expect("the connection is open")
            .expect("a frame");
        let text = match message {
            Message::Text(text) => text.as_str().to_owned(),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        };
        let decoded = Encoding::Json
            .decode_server(FrameRef::Text(text.as_bytes()))
            .expect("a valid message");
        return (text, decoded, Instant::now());
    }
}

/// The game `header` describes, from the start: its moves, the board after each move, and
/// the legal moves offered before each ply (sorted; none once the game is over).
struct Reference {
    moves: Vec<String>,
    boards: Vec<String>,
    legal: Vec<Vec<String>>,
}

fn reference(header: &GameHeader) -> (Reference, Game) {
    let white = header.white.parse().unwrap();
    let black = header.black.parse().unwrap();
    let mut game = Game::new(&header.serial, white, black).unwrap();
    let mut moves = Vec::new();
    let mut boards = Vec::new();
    let mut legal = Vec::new();
    loop {
        let mut offered: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        offered.sort_unstable();
        let Some(mv) = game.step() else { break };
        legal.push(offered);
        moves.push(mv.to_string());
        boards.push(game.board().layout());
    }
    legal.push(Vec::new());
    let reference = Reference {
        moves,
        boards,
        legal,
    };
    (reference, game)
}

/// Fails if `raw`, a frame sent when `k` plies were revealed (`k + 1` if the frame itself
/// reveals ply `k`), holds anything only a later ply produces: a board that no revealed ply
/// produced, or the coming move's text when that move was not played before. A `legal` list
/// in it must be exactly the legal moves of the revealed position: the rules give those away
/// anyway, so the coming move among them says nothing of which one the engine picks.
fn assert_nothing_early(raw: &str, k: usize, reveals_k: bool, game: &Reference, start: &str) {
    let Reference {
        moves,
        boards,
        legal,
    } = game;
    let revealed = k + usize::from(reveals_k);
    let mut frame: serde_json::Value = serde_json::from_str(raw).expect("a JSON frame");
    for offered in take_legal_lists(&mut frame) {
        assert_eq!(
            offered, legal[revealed],
            "legal moves after {revealed} plies"
        );
    }
    let raw = frame.to_string();
    let mut known: Vec<&str> = boards[..revealed.min(boards.len())]
        .iter()
        .map(String::as_str)
        .collect();
    known.push(start);
    for (j, board) in boards.iter().enumerate().skip(revealed) {
        if !known.contains(&board.as_str()) {
            assert!(
                !raw.contains(board.as_str()),
                "board after ply {j} leaked early: {raw}"
            );
        }
    }
    if let Some(next) = moves.get(revealed) {
        if !moves[..revealed].contains(next) {
            let text = format!("\"{next}\"");
            assert!(
                !raw.contains(&text),
                "ply {revealed} ({next}) leaked early: {raw}"
            );
        }
    }
}

/// Removes every `legal` list from `value` and returns them.
fn take_legal_lists(value: &mut serde_json::Value) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    match value {
        serde_json::Value::Object(map) => {
            if let Some(serde_json::Value::Array(list)) = map.remove("legal") {
                found.push(
                    list.iter()
                        .map(|mv| mv.as_str().expect("a move").to_owned())
                        .collect(),
                );
            }
            for inner in map.values_mut() {
                found.extend(take_legal_lists(inner));
            }
        }
        serde_json::Value::Array(items) => {
            for inner in items {
                found.extend(take_legal_lists(inner));
            }
        }
        _ => {}
    }
    found
}

/// Watches `channel`: the snapshot as raw JSON and decoded.
async fn watch_raw(client: &mut Client, channel: &str) -> (String, ChannelSnapshot) {
    let id = client
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(channel.into()),
            since_v: None,
        }))
        .await;
    client.expect_ack(id).await;
    loop {
        if let (raw, ServerMessage::ChannelSnapshot(snapshot), _) = frame(client).await {
            return (raw, snapshot);
        }
    }
}

async fn watch(client: &mut Client, channel: &str) -> ChannelSnapshot {
    let id = client
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(channel.into()),
            since_v: None,
        }))
        .await;
    client.expect_ack(id).await;
    client
        .recv_until(|m| match m {
            ServerMessage::ChannelSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
}

async fn start_game(client: &mut Client, request: StartEngineGame) -> String {
    let id = client.send(ClientMessage::StartEngineGame(request)).await;
    client
        .recv_until(|m| match m {
            ServerMessage::GameCreated(created) if created.id == id => {
                Some(Ok(created.channel.clone()))
            }
            ServerMessage::Error(err) if err.id == Some(id) => Some(Err(err.clone())),
            _ => None,
        })
        .await
        .unwrap_or_else(|err| panic!("game not created: {err:?}"))
}

async fn predict(client: &mut Client, channel: &str, ply: u32, mv: &str) -> Result<(), ErrorReply> {
    let (from, to) = mv.split_once('-').unwrap();
    let id = client
        .send(ClientMessage::Predict(Predict {
            channel: channel.into(),
            ply,
            from: from.into(),
            to: to.into(),
        }))
        .await;
    client
        .recv_until(|m| match m {
            ServerMessage::Ack(ack) if ack.id == id => Some(Ok(())),
            ServerMessage::Error(err) if err.id == Some(id) => Some(Err(err.clone())),
            _ => None,
        })
        .await
}

async fn next_event(client: &mut Client) -> ChannelEvent {
    client
        .recv_until(|m| match m {
            ServerMessage::ChannelEvent(e) => Some(e.event.clone()),
            _ => None,
        })
        .await
}

fn engine_request(serial: &str, white: &str, black: &str, from: u32) -> StartEngineGame {
    StartEngineGame {
        serial: serial.into(),
        white: white.into(),
        black: black.into(),
        ply_interval_ms: Some(PLY_MS),
        reveal_from_ply: Some(from),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tv_game_is_the_minitchess_game_and_no_frame_reveals_a_ply_early() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(config(db, 1)).await;
    let mut lobby = server.client("lobby").await;
    let id = lobby.send(ClientMessage::ListLobby).await;
    let listed = lobby
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.channels.clone()),
            _ => None,
        })
        .await;
    assert_eq!(listed.len(), 1, "lobby {id}: {listed:?}");
    assert_eq!(
        (listed[0].channel.as_str(), listed[0].kind),
        ("tv1", ChannelKind::Tv)
    );

    let mut watcher = server.client("watcher").await;
    // The server's schedule is deadline-based (reveal k of a game is due `k + 1` intervals
    // after the game's scheduled start, the next game a pause after the last reveal), and
    // the snapshot was built after this instant: so the snapshot's "in … ms" figures (rounded
    // down) give a lower bound of the game's scheduled start, whatever the scheduling delays.
    let asked = Instant::now();
    let (first_raw, snapshot) = watch_raw(&mut watcher, "tv1").await;
    assert_eq!(snapshot.kind, ChannelKind::Tv);
    // Take the game from its start: this one if nothing is revealed yet, else the next.
    let mut v = snapshot.v;
    let ms = Duration::from_millis;
    let (view, start_at_least, started_raw) = match snapshot.game {
        Some(view) if view.revealed.is_empty() && view.next_reveal_in_ms.is_some() => {
            let left = ms(view.next_reveal_in_ms.unwrap());
            (view, asked + left - TV_INTERVAL, first_raw)
        }
        current => {
            let next_start = match current {
                // Between games.
                None => asked + ms(snapshot.next_game_in_ms.expect("a next game")),
                // Mid-game: its remaining reveals, then the pause.
                Some(playing) => {
                    let moves = reference(&playing.header).0.moves;
                    let remaining = (moves.len() - playing.revealed.len()) as u32;
                    let left = ms(playing.next_reveal_in_ms.expect("a coming reveal"));
                    asked + left + TV_INTERVAL * remaining.saturating_sub(1) + GAME_PAUSE
                }
            };
            loop {
                let (raw, message, _) = frame(&mut watcher).await;
                if let ServerMessage::ChannelEvent(event) = message {
                    assert_eq!(event.v, v + 1, "gap-free versions");
                    v = event.v;
                    if let ChannelEvent::GameStarted(view) = event.event {
                        break (view, next_start, raw);
                    }
                }
            }
        }
    };
    assert!(view.revealed.is_empty());
    assert_eq!(view.ply_interval_ms, TV_INTERVAL.as_millis() as u64);
    let header = view.header.clone();
    assert_eq!(header.serial.len(), 6);
    assert_ne!(
        header.white.as_bytes()[0],
        header.black.as_bytes()[0],
        "engines differ"
    );
    assert_ne!(
        header.white.as_bytes()[1],
        header.black.as_bytes()[1],
        "seeds differ"
    );
    let (game_ref, reference_game) = reference(&header);
    let Reference { moves, boards, .. } = &game_ref;
    let outcome = reference_game.outcome().unwrap();
    assert_nothing_early(&started_raw, 0, false, &game_ref, &view.start_board);

    let mut seen: Vec<String> = Vec::new();
    // The channel version of each reveal, to check the late joiner's snapshot by version.
    let mut reveal_v: Vec<u64> = Vec::new();
    let mut late_joiner: Option<(Client, ChannelSnapshot, String)> = None;
    let ended = loop {
        let (raw, message, at) = frame(&mut watcher).await;
        let k = seen.len();
        // Nothing about ply k or later may be in any frame before ply k's reveal.
        let reveals_k = matches!(&message,
            ServerMessage::ChannelEvent(ChannelEventMsg { event: ChannelEvent::PlyRevealed(p), .. })
                if p.ply as usize == k);
        assert_nothing_early(&raw, k, reveals_k, &game_ref, &view.start_board);
        let ServerMessage::ChannelEvent(event) = message else {
            continue;
        };
        assert_eq!(event.v, v + 1, "gap-free versions");
        v = event.v;
        match event.event {
            ChannelEvent::PlyRevealed(ply) => {
                assert_eq!(ply.ply as usize, k);
                assert_eq!(ply.mv, moves[k], "ply {k} as minitchess plays it");
                assert_eq!(ply.board, boards[k]);
                // Reveal k is due (k + 1) intervals after the scheduled start; it may come
                // late (a busy machine), never early.
                let due = start_at_least + TV_INTERVAL * (k as u32 + 1);
                assert!(
                    at >= due,
                    "ply {k} came {:?} before it was due",
                    due.duration_since(at)
                );
                seen.push(ply.mv);
                reveal_v.push(v);
                if k == 3 {
                    // A late joiner: checked against this watcher's versions once the game
                    // is over (however many plies were revealed meanwhile).
                    let mut late = server.client("late").await;
                    let (raw, snapshot) = watch_raw(&mut late, "tv1").await;
                    late_joiner = Some((late, snapshot, raw));
                }
            }
            ChannelEvent::GameEnded(ended) => break ended,
            ChannelEvent::GameStarted(other) => panic!("a second game started: {other:?}"),
        }
    };
    assert_eq!(&seen, moves, "the whole game, identical to minitchess");
    assert_eq!(ended.game_id, header.game_id);
    assert_eq!(ended.result.reason, outcome.reason.to_string());
    assert_eq!(ended.next_game_in_ms, Some(GAME_PAUSE.as_millis() as u64));
    // The late joiner's snapshot is the state at its version: exactly the plies revealed by
    // then, nothing of a later one, and the same game.
    let (mut late, snapshot, raw) = late_joiner.expect("the game lasts past ply 3");
    let game = snapshot.game.expect("the game is on");
    let revealed = reveal_v.iter().filter(|&&rv| rv <= snapshot.v).count();
    assert_eq!(game.revealed.len(), revealed, "{game:?} at v{}", snapshot.v);
    assert_nothing_early(&raw, revealed, false, &game_ref, &view.start_board);
    assert_eq!(game.header, header);
    assert_eq!(game.revealed[..], moves[..revealed]);
    assert!(game.next_reveal_in_ms.is_some_and(|ms| ms <= 60));
    // Then it gets the rest of the game, each frame holding nothing of a ply not yet revealed.
    let mut late_v = snapshot.v;
    let mut k = revealed;
    let late_ended = loop {
        let (raw, message, _) = frame(&mut late).await;
        let reveals_k = matches!(&message,
            ServerMessage::ChannelEvent(ChannelEventMsg { event: ChannelEvent::PlyRevealed(p), .. })
                if p.ply as usize == k);
        assert_nothing_early(&raw, k, reveals_k, &game_ref, &view.start_board);
        let ServerMessage::ChannelEvent(event) = message else {
            continue;
        };
        assert_eq!(event.v, late_v + 1, "gap-free versions for the late joiner");
        late_v = event.v;
        match event.event {
            ChannelEvent::PlyRevealed(ply) => {
                assert_eq!(ply.ply as usize, k);
                assert_eq!(ply.mv, moves[k]);
                k += 1;
            }
            ChannelEvent::GameEnded(ended) => break ended,
            ChannelEvent::GameStarted(other) => panic!("a second game started: {other:?}"),
        }
    };
    assert_eq!(k, moves.len());
    assert_eq!(late_ended, ended);
    server.stop().await;
}

#[tokio::test]
async fn predictions_are_scored_late_guesses_refused_and_the_leaderboard_is_kept() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(config(db.clone(), 0)).await;
    let mut ann = server.client("ann").await;
    let mut bob = server.client("bob").await;
    let header = GameHeader {
        game_id: 0,
        serial: "CH3SS5".into(),
        white: "L4".into(),
        black: "K7".into(),
    };
    let (Reference { moves, .. }, game) = reference(&header);
    // Start at the puzzle point, a few plies before the end.
    let from = moves.len().saturating_sub(5) as u32;
    let channel = start_game(&mut ann, engine_request("CH3SS5", "L4", "K7", from)).await;
    let ann_view = watch(&mut ann, &channel).await.game.unwrap();
    assert_eq!(
        ann_view.revealed[0], "b1-c3",
        "the worked example's first move"
    );
    assert_eq!(ann_view.revealed.len() as u32, from);
    assert_eq!(ann_view.revealed[..], moves[..from as usize]);
    assert_eq!(ann_view.move_number, from / 2 + 1);
    let bob_view = watch(&mut bob, &channel).await.game.unwrap();
    assert_eq!(bob_view.revealed, ann_view.revealed);

    // The coming ply: bob changes his mind from right to wrong; ann is right.
    let next = from as usize;
    let mut before = Game::new("CH3SS5", "L4".parse().unwrap(), "K7".parse().unwrap()).unwrap();
    for _ in 0..from {
        before.step();
    }
    let legal: Vec<String> = before
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    let wrong = legal.iter().find(|mv| **mv != moves[next]).unwrap().clone();
    let squares: Vec<String> = (0..30)
        .map(|i| format!("{}{}", (b'a' + i % 5) as char, 6 - i / 5))
        .collect();
    let illegal = squares
        .iter()
        .flat_map(|a| squares.iter().map(move |b| format!("{a}-{b}")))
        .find(|mv| !legal.contains(mv) && mv[..2] != mv[3..])
        .unwrap();
    predict(&mut bob, &channel, from, &moves[next])
        .await
        .unwrap();
    predict(&mut bob, &channel, from, &wrong).await.unwrap();
    // A move that is not legal in the shown position is refused, and bob's guess stands.
    let refused = predict(&mut bob, &channel, from, &illegal)
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::IllegalPrediction, "{refused:?}");
    assert!(
        refused
            .message
            .starts_with(&format!("{illegal} is not a legal move for "))
    );
    predict(&mut ann, &channel, from, &moves[next])
        .await
        .unwrap();
    let early = predict(&mut ann, &channel, from + 1, &moves[next + 1]).await;
    assert_eq!(early.unwrap_err().code, ErrorCode::PredictionClosed);
    // A square off the board does not validate; the refusal names the envelope.
    let bad_id = ann
        .send(ClientMessage::Predict(Predict {
            channel: channel.clone(),
            ply: from,
            from: "z9".into(),
            to: "a1".into(),
        }))
        .await;
    let bad = ann
        .recv_until(|m| match m {
            ServerMessage::Error(err) => Some(err.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        (bad.id, bad.code),
        (Some(bad_id), ErrorCode::InvalidArgument)
    );

    let ann_result = ann
        .recv_until(|m| match m {
            ServerMessage::PredictionResult(r) => Some(r.clone()),
            _ => None,
        })
        .await;
    assert!(ann_result.correct);
    assert_eq!(
        (ann_result.ply, ann_result.actual.as_str()),
        (from, moves[next].as_str())
    );
    let bob_result = bob
        .recv_until(|m| match m {
            ServerMessage::PredictionResult(r) => Some(r.clone()),
            _ => None,
        })
        .await;
    assert!(!bob_result.correct);
    assert_eq!(
        (bob_result.guess.as_str(), bob_result.strikes),
        (wrong.as_str(), 1)
    );
    let late = predict(&mut bob, &channel, from, &moves[next]).await;
    assert_eq!(late.unwrap_err().code, ErrorCode::PredictionClosed);

    // Ann guesses every remaining ply right, each before its reveal.
    for (ply, mv) in moves.iter().enumerate().skip(next + 1) {
        predict(&mut ann, &channel, ply as u32, mv).await.unwrap();
        let revealed = loop {
            if let ChannelEvent::PlyRevealed(p) = next_event(&mut ann).await {
                break p;
            }
        };
        assert_eq!(revealed.ply as usize, ply);
    }
    let ended = loop {
        if let ChannelEvent::GameEnded(e) = next_event(&mut ann).await {
            break e;
        }
    };
    // The end is published once the game is archived: the leaderboard asked for on hearing
    // it already counts this game.
    let id = ann
        .send(ClientMessage::Leaderboard(LeaderboardQuery { limit: 10 }))
        .await;
    let entries = ann
        .recv_until(|m| match m {
            ServerMessage::Leaderboard(l) if l.id == id => Some(l.entries.clone()),
            _ => None,
        })
        .await;
    let remaining = (moves.len() - next) as u32;
    let standings: Vec<(&str, u32, u32)> = ended
        .standings
        .iter()
        .map(|s| (s.name.as_str(), s.correct, s.strikes))
        .collect();
    assert_eq!(standings, vec![("ann", remaining, 0), ("bob", 0, 1)]);
    assert_eq!(
        ended.result.reason,
        game.outcome().unwrap().reason.to_string()
    );
    let over = predict(&mut bob, &channel, moves.len() as u32, "a1-a2").await;
    assert_eq!(over.unwrap_err().code, ErrorCode::GameOver);

    let rows: Vec<(&str, u32, u32, u32)> = entries
        .iter()
        .map(|e| (e.name.as_str(), e.games, e.correct, e.strikes))
        .collect();
    assert_eq!(rows, vec![("ann", 1, remaining, 0), ("bob", 1, 0, 1)]);

    // After a restart the finished game replays from the archive, and the board stays.
    let game_id = ann_view.header.game_id;
    // A game still running at shutdown keeps its id too.
    let unfinished = start_game(&mut ann, engine_request("CH3SS5", "L4", "K7", 0)).await;
    drop((ann, bob));
    let dir = server.stop().await;
    let server = TestServer::start_with(config(db, 0)).await;
    let mut carol = server.client("carol").await;
    let replay = watch(&mut carol, &format!("g{game_id}")).await;
    let replayed = replay.game.expect("the archived game");
    assert_eq!(replayed.revealed, moves);
    assert_eq!(replayed.board, game.board().layout());
    assert_eq!(replayed.header.serial, "CH3SS5");
    assert_eq!(
        (
            replayed.header.white.as_str(),
            replayed.header.black.as_str()
        ),
        ("L4", "K7")
    );
    let outcome = game.outcome().unwrap();
    let expected = EngineResult {
        winner: outcome.winner.map(Side::from),
        reason: outcome.reason.to_string(),
    };
    assert_eq!(replayed.result, Some(expected));
    assert_eq!(replayed.result, Some(ended.result.clone()));
    let id = carol
        .send(ClientMessage::Leaderboard(LeaderboardQuery { limit: 1 }))
        .await;
    let top = carol
        .recv_until(|m| match m {
            ServerMessage::Leaderboard(l) if l.id == id => Some(l.entries.clone()),
            _ => None,
        })
        .await;
    assert_eq!(top.len(), 1);
    assert_eq!(top[0].name, "ann");
    let next_game = start_game(&mut carol, engine_request("CH3SS5", "L4", "K7", 0)).await;
    let number = |channel: &str| channel[1..].parse::<u64>().unwrap();
    assert!(
        number(&next_game) > number(&unfinished),
        "archive ids are not reused: {next_game} after {unfinished}"
    );
    let id = carol
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(unfinished.clone()),
            since_v: None,
        }))
        .await;
    assert_eq!(
        carol.expect_error(id).await.code,
        ErrorCode::NotFound,
        "not finished, not archived"
    );
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn the_worked_example_starts_with_b1_c3_and_bad_requests_are_refused() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(config(db, 0)).await;
    let mut client = server.client("defuser").await;
    let channel = start_game(&mut client, engine_request("CH3SS5", "L4", "K7", 0)).await;
    let snapshot = watch(&mut client, &channel).await;
    assert_eq!(snapshot.kind, ChannelKind::OnDemand);
    let view = snapshot.game.unwrap();
    assert!(view.revealed.is_empty());
    assert_eq!(view.ply_interval_ms, PLY_MS);
    assert_eq!(
        (view.header.white.as_str(), view.header.black.as_str()),
        ("L4", "K7")
    );
    let first = loop {
        if let ChannelEvent::PlyRevealed(p) = next_event(&mut client).await {
            break p;
        }
    };
    assert_eq!((first.ply, first.mv.as_str()), (0, "b1-c3"));

    // The lobby lists the game; unwatching acks; unknown ids and bad requests are refused.
    let id = client.send(ClientMessage::ListLobby).await;
    let channels = client
        .recv_until(|m| match m {
            ServerMessage::Lobby(l) => Some(l.channels.clone()),
            _ => None,
        })
        .await;
    assert!(
        channels
            .iter()
            .any(|c| c.channel == channel && c.kind == ChannelKind::OnDemand),
        "{id}"
    );
    let id = client
        .send(ClientMessage::Unwatch(Target::Channel(channel.clone())))
        .await;
    client.expect_ack(id).await;
    let id = client
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel("tv9".into()),
            since_v: None,
        }))
        .await;
    assert_eq!(client.expect_error(id).await.code, ErrorCode::NotFound);
    for bad in [
        engine_request("ch3ss5", "L4", "K7", 0),
        engine_request("CH3SS5", "Z4", "K7", 0),
        engine_request("CH3SS5", "L4", "K", 0),
        engine_request("CH3SS5", "L4", "K7", 80),
    ] {
        let id = client.send(ClientMessage::StartEngineGame(bad)).await;
        assert_eq!(
            client.expect_error(id).await.code,
            ErrorCode::InvalidArgument
        );
    }
    server.stop().await;
}

/// The next two channel events, skipping everything else.
async fn two_events(client: &mut Client) -> Vec<ChannelEventMsg> {
    let mut out = Vec::new();
    while out.len() < 2 {
        if let ServerMessage::ChannelEvent(e) = client.recv().await {
            out.push(e);
        }
    }
    out
}

#[tokio::test]
async fn json_and_postcard_watchers_get_the_same_events_and_since_v_replays_the_missed_ones() {
    let (_dir, db) = temp_db();
    let server = TestServer::start_with(config(db, 0)).await;
    let mut json = server.client("json").await;
    let mut postcard = Client::connect(server.addr, Encoding::Postcard, "postcard").await;
    let channel = start_game(&mut json, engine_request("CH3SS5", "L4", "K7", 0)).await;
    let json_snapshot = watch(&mut json, &channel).await;
    let postcard_snapshot = watch(&mut postcard, &channel).await;
    assert_eq!(json_snapshot.v, postcard_snapshot.v);
    assert_eq!(
        json_snapshot.game.unwrap().header,
        postcard_snapshot.game.unwrap().header
    );
    let from_json = two_events(&mut json).await;
    let from_postcard = two_events(&mut postcard).await;
    assert_eq!(from_json, from_postcard, "one event, both encodings");
    assert_eq!(from_json[0].v, json_snapshot.v + 1);

    // A watcher that saw up to the snapshot gets exactly the two events it missed.
    let mut back = server.client("back").await;
    let id = back
        .send(ClientMessage::Watch(Watch {
            target: Target::Channel(channel.clone()),
            since_v: Some(json_snapshot.v),
        }))
        .await;
    back.expect_ack(id).await;
    let mut replayed = Vec::new();
    while replayed.len() < 2 {
        match back.recv().await {
            ServerMessage::ChannelEvent(e) => replayed.push(e),
            ServerMessage::ChannelSnapshot(s) => panic!("expected a replay, got {s:?}"),
            _ => {}
        }
    }
    assert_eq!(replayed, from_json);
    server.stop().await;
}
