//! What a client written from PROTOCOL.md alone relies on (issue 13): each test plays the part
//! of such a client against the real server binary over a real WebSocket and checks one promise
//! of the document.

use std::net::SocketAddr;
use std::path::Path;

use boardcast_protocol::{
    ClientMessage, ColorChoice, Encoding, EndReason, ErrorCode, Hello, JoinMatch, Lobby,
    MatchEvent, MatchResult, Seat, ServerMessage, Side, StartEngineGame,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, Pair};
use boardcast_tests::games::reference_games;

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

/// A server without TV channels, for the match tests; fast players may send many moves.
fn matches_only() -> TestServer {
    TestServer::start(
        server_program(),
        &["--channels", "0", "--rate", "1000", "--burst", "1000"],
    )
}

async fn json(addr: SocketAddr) -> Client {
    Client::connect(addr, Encoding::Json)
        .await
        .expect("connect")
}

/// The lobby, as the answer to this `list_lobby`: it carries the request's id (issue 29, 8),
/// like every other answer, so a client with two requests out tells the answers apart.
async fn lobby(client: &mut Client) -> Lobby {
    let id = client.send(ClientMessage::ListLobby).await.unwrap();
    let lobby = client
        .wait_for("the lobby", |message| match message {
            ServerMessage::Lobby(lobby) => Some(lobby.clone()),
            _ => None,
        })
        .await
        .unwrap();
    assert_eq!(
        lobby.id, id,
        "the lobby answers the list_lobby it was asked by"
    );
    lobby
}

// ---------------------------------------------------------------------------------------------
// Item 10: names.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn blank_and_invisible_names_are_refused_under_their_id() {
    let server = matches_only();
    let mut client = json(server.addr()).await;
    for name in [
        "",
        "   ",
        "\u{3000}",
        "tab\there",
        "Sietske\u{202E}",
        "\u{200B}",
    ] {
        let id = client
            .send(ClientMessage::Hello(Hello {
                protocol: 1,
                client: "contract".into(),
                name: name.into(),
                bot: false,
            }))
            .await
            .unwrap();
        let error = client
            .expect_error(id, ErrorCode::InvalidArgument)
            .await
            .unwrap_or_else(|err| panic!("{name:?}: {err}"));
        assert!(error.message.contains("name"), "{name:?}: {error:?}");
    }
    client.hello("Sietske Hylkema").await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn emoji_names_are_kept_and_invisible_characters_refused_in_words() {
    let server = matches_only();
    // The name a seek of `client` shows in the lobby.
    async fn shown(client: &mut Client, watcher: &mut Client) -> Option<String> {
        let seat = client
            .create_match(ColorChoice::White, true, None)
            .await
            .unwrap();
        lobby(watcher)
            .await
            .seeks
            .into_iter()
            .find(|seek| seek.match_id == seat.match_id)
            .and_then(|seek| seek.white)
    }
    let mut watcher = json(server.addr()).await;
    for (name, kept) in [
        ("👩\u{200D}💻", "👩\u{200D}💻"),
        ("🏳\u{FE0F}\u{200D}🌈", "🏳\u{FE0F}\u{200D}🌈"),
        ("Zoe\u{308}", "Zo\u{EB}"),
    ] {
        let mut client = json(server.addr()).await;
        client.hello(name).await.unwrap();
        assert_eq!(
            shown(&mut client, &mut watcher).await.as_deref(),
            Some(kept)
        );
    }
    let mut client = json(server.addr()).await;
    client.hello("Sietske").await.unwrap();
    for (name, what) in [
        ("Siet\u{AD}ske", "soft hyphen"),
        ("Sietske\u{E0073}", "tag character"),
        ("Siet\u{2028}ske", "line break"),
        ("\u{301}Sietske", "accent or mark"),
        ("Sietske \u{301}", "accent or mark"),
        ("\u{3164}Sietske", "Hangul filler"),
        ("Siet\u{200D}ske", "zero-width joiner outside an emoji"),
    ] {
        let id = client
            .send(ClientMessage::Hello(Hello {
                protocol: 1,
                client: "contract".into(),
                name: name.into(),
                bot: false,
            }))
            .await
            .unwrap();
        let error = client
            .expect_error(id, ErrorCode::InvalidArgument)
            .await
            .unwrap_or_else(|err| panic!("{name:?}: {err}"));
        assert!(error.message.contains(what), "{name:?}: {error:?}");
    }
    // A refused name changes nothing: the player keeps the name they had.
    assert_eq!(
        shown(&mut client, &mut watcher).await.as_deref(),
        Some("Sietske")
    );
}

// ---------------------------------------------------------------------------------------------
// Item 11: legal moves in route order, whose turn it is, serials.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legal_moves_come_in_route_order_and_not_your_turn_names_the_side_to_move() {
    let server = matches_only();
    let game = reference_games()
        .iter()
        .max_by_key(|game| game.routes.len())
        .expect("reference games");
    let mut pair = Pair::start(server.addr(), Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let mut watcher = json(server.addr()).await;
    let snapshot = watcher.watch_match(&match_id).await.unwrap();
    let sorted = |moves: &[boardcast_protocol::LegalMove]| {
        moves
            .windows(2)
            .all(|pair| (&pair[0].route, &pair[0].captures) < (&pair[1].route, &pair[1].captures))
    };
    assert!(sorted(&snapshot.legal_moves), "{:?}", snapshot.legal_moves);
    // Black moving first is refused, and told who is to move.
    let id = pair
        .black
        .send_move(&pair.black_seat.clone(), &[19, 23])
        .await
        .unwrap();
    let error = pair
        .black
        .expect_error(id, ErrorCode::NotYourTurn)
        .await
        .unwrap();
    assert_eq!(error.message, "not your turn: white to move");
    let mut checked = 0;
    for (ply, route) in game.routes.iter().enumerate() {
        pair.play(ply, route).await.unwrap();
        let event = watcher.next_match_event(&match_id).await.unwrap();
        let MatchEvent::Moved(moved) = event.event else {
            panic!("expected a move, got {event:?}");
        };
        let notations: Vec<&str> = moved
            .legal_moves
            .iter()
            .map(|m| m.notation.as_str())
            .collect();
        assert!(sorted(&moved.legal_moves), "ply {ply}: {notations:?}");
        checked += usize::from(moved.legal_moves.len() > 1);
    }
    assert!(checked > 10, "only {checked} plies had a choice");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_serial_that_is_not_six_characters_is_refused() {
    let server = TestServer::start(server_program(), &["--channels", "0"]);
    let mut client = json(server.addr()).await;
    for serial in ["CH3SS", "CH3SS55", "A"] {
        let id = client
            .send(ClientMessage::StartEngineGame(StartEngineGame {
                serial: serial.into(),
                white: "L4".into(),
                black: "K7".into(),
                ply_interval_ms: None,
                reveal_from_ply: None,
            }))
            .await
            .unwrap();
        let error = client
            .expect_error(id, ErrorCode::InvalidArgument)
            .await
            .unwrap_or_else(|err| panic!("{serial}: {err}"));
        assert!(error.message.contains("serial"), "{error:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// Item 7: private matches are not listed.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_matches_are_never_listed_but_watchable_by_id() {
    let server = matches_only();
    let pair = Pair::start(server.addr(), Encoding::Json).await.unwrap();
    let mut public_white = json(server.addr()).await;
    let public = public_white
        .create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let mut public_black = json(server.addr()).await;
    public_black
        .join(JoinMatch::Id(public.match_id.clone()))
        .await
        .unwrap();
    let mut stranger = json(server.addr()).await;
    let listed = lobby(&mut stranger).await;
    let ids: Vec<&str> = listed
        .live
        .iter()
        .chain(&listed.seeks)
        .map(|summary| summary.match_id.as_str())
        .collect();
    assert_eq!(ids, [public.match_id.as_str()], "{listed:?}");
    // Whoever has the id may watch.
    let snapshot = stranger.watch_match(pair.match_id()).await.unwrap();
    assert!(!snapshot.public);
}

// ---------------------------------------------------------------------------------------------
// Item 4: one ack-id rule, and a typed refusal for ids that break it.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn match_action_ids_must_increase_per_seat_and_a_stale_id_is_refused() {
    let server = matches_only();
    let mut pair = Pair::start(server.addr(), Encoding::Json).await.unwrap();
    let match_id = pair.match_id().to_owned();
    let white_seat = pair.white_seat.clone();
    pair.white.set_next_id(10);
    let moved = pair.white.send_move(&white_seat, &[32, 28]).await.unwrap();
    assert_eq!(moved, 10);
    assert!(!pair.white.expect_ack(10).await.unwrap().duplicate);
    pair.black
        .play(&pair.black_seat.clone(), &[19, 23])
        .await
        .unwrap();
    // An id below 10 that was never used is not silently swallowed.
    let capture = boardcast_protocol::PlayMove {
        match_id: match_id.clone(),
        token: white_seat.token.clone(),
        route: vec![28, 19],
        lag_ms: None,
    };
    pair.white
        .send_with_id(5, ClientMessage::Move(capture.clone()))
        .await
        .unwrap();
    let error = pair
        .white
        .expect_error(5, ErrorCode::StaleId)
        .await
        .unwrap();
    assert!(error.message.contains("10"), "{error:?}");
    assert_eq!(
        error.last_id,
        Some(10),
        "the last id carried out, as a field"
    );
    // The genuine re-send of id 10 gets its original answer.
    pair.white
        .send_with_id(
            10,
            ClientMessage::Move(boardcast_protocol::PlayMove {
                route: vec![32, 28],
                ..capture.clone()
            }),
        )
        .await
        .unwrap();
    assert!(pair.white.expect_ack(10).await.unwrap().duplicate);
    // A new connection that counts from 1 again is told, not ignored; carrying on works.
    pair.white.close().await;
    let mut again = json(server.addr()).await;
    again.resume(&white_seat.token, None).await.unwrap();
    again
        .send_with_id(2, ClientMessage::Move(capture.clone()))
        .await
        .unwrap();
    again.expect_error(2, ErrorCode::StaleId).await.unwrap();
    again
        .send_with_id(11, ClientMessage::Move(capture))
        .await
        .unwrap();
    assert!(!again.expect_ack(11).await.unwrap().duplicate);
    let mut watcher = json(server.addr()).await;
    let snapshot = watcher.watch_match(&match_id).await.unwrap();
    let notations: Vec<&str> = snapshot.moves.iter().map(|m| m.notation.as_str()).collect();
    assert_eq!(notations, ["32-28", "19-23", "28x19"]);
}

// ---------------------------------------------------------------------------------------------
// Item 12: GET /games/{match_id}.pdn.

async fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let path = path.to_owned();
    tokio::task::spawn_blocking(move || boardcast_tests::http_get(addr, &path))
        .await
        .expect("join")
        .expect("GET")
}

/// `[Tag "value"]` of a PDN text.
fn tag<'a>(pdn: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("[{name} \"");
    let start = pdn.find(&open)? + open.len();
    let end = pdn[start..].find("\"]")?;
    Some(&pdn[start..start + end])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pdn_of_a_finished_match_names_players_date_time_and_time_control() {
    let server = matches_only();
    let addr = server.addr();
    let mut white = json(addr).await;
    white.hello("Sietske").await.unwrap();
    let tc = boardcast_protocol::TimeControl {
        initial_ms: 300_000,
        increment_ms: 2_500,
    };
    let white_seat = white
        .create_match(ColorChoice::White, false, Some(tc))
        .await
        .unwrap();
    let match_id = white_seat.match_id.clone();
    // Unfinished: not served yet.
    let (status, body) = get(addr, &format!("/games/{match_id}.pdn")).await;
    assert_eq!(
        (status, body.as_str()),
        (404, format!("no finished game {match_id}\n").as_str())
    );
    let mut black = json(addr).await;
    black.hello("Wytze").await.unwrap();
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .unwrap();
    white.play(&white_seat, &[32, 28]).await.unwrap();
    black.play(&black_seat, &[19, 23]).await.unwrap();
    black.resign(&black_seat).await.unwrap();
    let (status, pdn) = get(addr, &format!("/games/{match_id}.pdn")).await;
    assert_eq!(status, 200, "{pdn}");
    assert_eq!(tag(&pdn, "White"), Some("Sietske"), "{pdn}");
    assert_eq!(tag(&pdn, "Black"), Some("Wytze"), "{pdn}");
    assert_eq!(tag(&pdn, "TimeControl"), Some("300+2.5"), "{pdn}");
    assert_eq!(tag(&pdn, "Result"), Some("2-0"), "{pdn}");
    let date = tag(&pdn, "Date").expect("a Date tag");
    let time = tag(&pdn, "Time").expect("a Time tag");
    let shape = |text: &str, sep: char, parts: &[usize]| {
        let got: Vec<usize> = text.split(sep).map(str::len).collect();
        got == parts && text.chars().all(|c| c == sep || c.is_ascii_digit())
    };
    assert!(shape(date, '.', &[4, 2, 2]), "{pdn}");
    assert!(shape(time, ':', &[2, 2, 2]), "{pdn}");
    // The date is today's (UTC), give or take the midnight the test may straddle.
    let today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 86_400;
    let year: u64 = date[..4].parse().unwrap();
    assert!((today / 365 + 1970).abs_diff(year) <= 1, "{date}");
    // Unknown ids, and anything that is not an id.pdn, are 404.
    let (status, body) = get(addr, "/games/nosuchmatch.pdn").await;
    assert_eq!(
        (status, body.as_str()),
        (404, "no finished game nosuchmatch\n")
    );
    let (status, _) = get(addr, &format!("/games/{match_id}")).await;
    assert_eq!(status, 404);
}

// ---------------------------------------------------------------------------------------------
// Item 9: taking both seats of one's own match only when asked for.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joining_ones_own_seek_needs_the_explicit_myself_option() {
    let server = matches_only();
    let mut me = json(server.addr()).await;
    let white = me
        .create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let match_id = white.match_id.clone();
    for join in [
        JoinMatch::Id(match_id.clone()),
        JoinMatch::Code(white.invite_code.clone()),
    ] {
        let id = me
            .send(ClientMessage::JoinMatch(join.clone()))
            .await
            .unwrap();
        let error = me
            .expect_error(id, ErrorCode::NotAllowed)
            .await
            .unwrap_or_else(|err| panic!("{join:?}: {err}"));
        assert!(error.message.contains("myself"), "{error:?}");
    }
    // Nobody else may use `myself` to take the seat.
    let mut other = json(server.addr()).await;
    let id = other
        .send(ClientMessage::JoinMatch(JoinMatch::Myself(
            match_id.clone(),
        )))
        .await
        .unwrap();
    other.expect_error(id, ErrorCode::NotAllowed).await.unwrap();
    // Still an open seek.
    let listed = lobby(&mut other).await;
    assert_eq!(listed.seeks.len(), 1, "{listed:?}");
    // Asked for explicitly, it works: both seats on one connection.
    let black = me.join(JoinMatch::Myself(match_id.clone())).await.unwrap();
    assert_eq!(
        (black.side, black.match_id.as_str()),
        (boardcast_protocol::Side::Black, match_id.as_str())
    );
    me.play(&white, &[32, 28]).await.unwrap();
    me.play(&black, &[19, 23]).await.unwrap();
}

/// Asks for the lobby until `match_id` is listed as a seek (`listed`) or not, for a few
/// seconds at most; the lobby follows a match's own news a moment later.
async fn until_seeking(client: &mut Client, match_id: &str, listed: bool) {
    for _ in 0..200 {
        let seeks = lobby(client).await.seeks;
        if seeks.iter().any(|seek| seek.match_id == match_id) == listed {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("{match_id} never became listed: {listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_whose_creator_unwatches_it_leaves_the_lobby_until_they_resume() {
    let server = matches_only();
    let mut creator = json(server.addr()).await;
    let seat = creator
        .create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    let mut other = json(server.addr()).await;
    until_seeking(&mut other, &seat.match_id, true).await;
    // The creator leaves the waiting screen (the terminal client's `q` home) on the same
    // connection: the seek is no longer offered, and cannot be joined by id either.
    let target = boardcast_protocol::Target::Match(seat.match_id.clone());
    creator.call(ClientMessage::Unwatch(target)).await.unwrap();
    until_seeking(&mut other, &seat.match_id, false).await;
    let id = other
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            seat.match_id.clone(),
        )))
        .await
        .unwrap();
    other.expect_error(id, ErrorCode::NotFound).await.unwrap();
    // Back to it with the seat's token: offered again, and whoever joins meets the creator.
    let back = creator.resume(&seat.token, None).await.unwrap();
    assert_eq!(back.side, Side::White);
    until_seeking(&mut other, &seat.match_id, true).await;
    other
        .join(JoinMatch::Id(seat.match_id.clone()))
        .await
        .unwrap();
    let joined = creator.next_match_event(&seat.match_id).await.unwrap();
    assert!(
        matches!(joined.event, MatchEvent::PlayerJoined(_)),
        "{joined:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Item 6: time controls a player can survive; clocks wait for each first move.

fn tc(initial_ms: u64, increment_ms: u64) -> Option<boardcast_protocol::TimeControl> {
    Some(boardcast_protocol::TimeControl {
        initial_ms,
        increment_ms,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_controls_a_player_cannot_survive_are_refused() {
    let server = matches_only();
    let mut client = json(server.addr()).await;
    for time_control in [
        tc(0, 1_000),
        tc(1, 0),
        tc(14_999, 5_000),
        tc(60_000, 180_001),
    ] {
        let id = client
            .send(ClientMessage::CreateMatch(
                boardcast_protocol::CreateMatch {
                    time_control,
                    color: ColorChoice::White,
                    public: true,
                    rated: false,
                    rating_range: None,
                },
            ))
            .await
            .unwrap();
        let error = client
            .expect_error(id, ErrorCode::InvalidArgument)
            .await
            .unwrap_or_else(|err| panic!("{time_control:?}: {err}"));
        assert!(error.message.contains("time_control"), "{error:?}");
    }
    client
        .create_match(ColorChoice::White, true, tc(15_000, 0))
        .await
        .unwrap();
}

/// A timed match between two fresh connections, and the first snapshot White got.
async fn timed_pair(addr: SocketAddr) -> (Client, Seat, Client, Seat) {
    let mut white = json(addr).await;
    let white_seat = white
        .create_match(ColorChoice::White, false, tc(15_000, 1_000))
        .await
        .unwrap();
    let mut black = json(addr).await;
    let black_seat = black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .unwrap();
    (white, white_seat, black, black_seat)
}

async fn ended(client: &mut Client, match_id: &str) -> MatchResult {
    loop {
        let event = client.next_match_event(match_id).await.unwrap();
        if let MatchEvent::Ended(result) = event.event {
            return result;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_wait_for_each_first_move_and_a_missed_first_move_aborts() {
    let server = TestServer::start(
        server_program(),
        &["--channels", "0", "--first-move-timeout", "1s"],
    );
    let addr = server.addr();
    // White never moves: nobody's time ran, and the match is aborted.
    let (mut white, white_seat, mut black, _) = timed_pair(addr).await;
    let snapshot = black
        .wait_for("black's snapshot", |message| match message {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    let clock = snapshot.clock.expect("a timed match");
    assert_eq!((clock.white_ms, clock.running), (15_000, None), "{clock:?}");
    let result = ended(&mut white, &white_seat.match_id).await;
    assert_eq!(
        (result.winner, result.reason, result.detail.as_str()),
        (
            None,
            EndReason::Aborted,
            "white did not make a first move within 1 s"
        )
    );
    // White moves, Black never does: White's move cost nothing, Black's clock never ran.
    let (mut white, white_seat, _black, _) = timed_pair(addr).await;
    white.play(&white_seat, &[32, 28]).await.unwrap();
    let moved = loop {
        if let MatchEvent::Moved(moved) = white
            .next_match_event(&white_seat.match_id)
            .await
            .unwrap()
            .event
        {
            break moved;
        }
    };
    let clock = moved.clock.expect("a timed match");
    assert_eq!(
        (clock.white_ms, clock.black_ms, clock.running),
        (15_000, 15_000, None)
    );
    let result = ended(&mut white, &white_seat.match_id).await;
    assert_eq!(
        (result.reason, result.detail.as_str()),
        (
            EndReason::Aborted,
            "black did not make a first move within 1 s"
        )
    );
    // Both move in time: White's clock runs from Black's first move, and nothing aborts.
    let (mut white, white_seat, mut black, black_seat) = timed_pair(addr).await;
    white.play(&white_seat, &[32, 28]).await.unwrap();
    black.play(&black_seat, &[19, 23]).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    let mut watcher = json(addr).await;
    let snapshot = watcher.watch_match(&white_seat.match_id).await.unwrap();
    assert_eq!(snapshot.phase, boardcast_protocol::MatchPhase::Playing);
    let clock = snapshot.clock.expect("a timed match");
    assert_eq!((clock.black_ms, clock.running), (15_000, Some(Side::White)));
    assert!(clock.white_ms < 14_000, "{clock:?}");
}

// ---------------------------------------------------------------------------------------------
// Item 8: matches nobody is seated in end, after a restart too.

/// Waits until the match's final snapshot (as a fresh watcher sees it) says it is over.
async fn result_when_over(addr: SocketAddr, match_id: &str) -> MatchResult {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let mut watcher = json(addr).await;
        let snapshot = watcher.watch_match(match_id).await.unwrap();
        if let Some(result) = snapshot.result {
            return result;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{match_id} still {:?}",
            snapshot.phase
        );
        watcher.close().await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matches_nobody_is_seated_in_end_and_leave_the_lobby() {
    let args = [
        "--channels",
        "0",
        "--abandon-after",
        "1s",
        "--first-move-timeout",
        "60s",
    ];
    let mut server = TestServer::start(server_program(), &args);
    let addr = server.addr();
    // Both players leave an untimed match after a move each: it ends without a winner.
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    pair.play(0, &[32, 28]).await.unwrap();
    pair.play(1, &[19, 23]).await.unwrap();
    let played = pair.match_id().to_owned();
    // A watcher does not keep it alive.
    let mut watcher = json(addr).await;
    watcher.watch_match(&played).await.unwrap();
    drop(pair);
    let result = ended(&mut watcher, &played).await;
    assert_eq!(
        (result.winner, result.reason, result.detail.as_str()),
        (
            None,
            EndReason::Abandoned,
            "abandoned: nobody was seated for 1 s"
        )
    );
    let (status, pdn) = get(addr, &format!("/games/{played}.pdn")).await;
    assert_eq!((status, tag(&pdn, "Result")), (200, Some("*")), "{pdn}");
    // A seek whose creator left is aborted and no longer listed.
    let mut creator = json(addr).await;
    let seek = creator
        .create_match(ColorChoice::White, true, None)
        .await
        .unwrap();
    creator.close().await;
    let result = result_when_over(addr, &seek.match_id).await;
    assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
    let mut stranger = json(addr).await;
    let listed = lobby(&mut stranger).await;
    assert!(
        listed.seeks.is_empty() && listed.live.is_empty(),
        "{listed:?}"
    );
    // A match resumed after a restart with nobody coming back ends too (aborted: Black never
    // moved).
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    pair.play(0, &[32, 28]).await.unwrap();
    let resumed = pair.match_id().to_owned();
    let status = server
        .process
        .terminate(std::time::Duration::from_secs(10))
        .expect("stops");
    assert!(status.success(), "{status:?}");
    drop(pair);
    server.restart(server_program());
    let result = result_when_over(server.addr(), &resumed).await;
    assert_eq!((result.winner, result.reason), (None, EndReason::Aborted));
}
