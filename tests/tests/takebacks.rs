//! Takebacks end to end on the real server binary over the JSON protocol (issue 32,
//! PROTOCOL.md §10 *Takebacks*): in a casual match a proposal is declined, then one is
//! accepted and the position, the moves and the PDN are as if the moves taken back had never
//! been played (after a restart too); a rated match and a club event's game refuse them. Every
//! refusal carries its reason and arguments (§12.1). The event's game also shows the director
//! seating each member with their own "refuse more time" preference, as the lobby does.

use std::net::SocketAddr;
use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_protocol::{
    ClientMessage, CreateMatch, Encoding, ErrorArgs, ErrorCode, ErrorReply, JoinMatch, MatchEvent,
    MatchPhase, MatchSnapshot, Seat, SeatAction, ServerMessage, Side,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ConnectOptions, Pair};
use boardcast_tests::members::{create_member, login_cookie, same_origin_request, sit};
use serde_json::Value;

const PASSWORD: &str = "Tulpen-in-Dokkum-1921";

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

fn seat_action(seat: &Seat) -> SeatAction {
    SeatAction {
        match_id: seat.match_id.clone(),
        token: seat.token.clone(),
    }
}

/// Sends `msg` and returns the refusal it gets, with `code`.
async fn refused(client: &mut Client, msg: ClientMessage, code: ErrorCode) -> ErrorReply {
    let id = client.send(msg).await.unwrap();
    client.expect_error(id, code).await.unwrap()
}

/// The reason and arguments of a refusal: every takeback refusal has them.
fn args_of(reply: &ErrorReply) -> ErrorArgs {
    let args = reply
        .args
        .as_deref()
        .cloned()
        .unwrap_or_else(|| panic!("a refusal without args: {reply:?}"));
    assert!(
        boardcast_protocol::REASONS
            .iter()
            .any(|spec| spec.code == reply.code && spec.reason == args.reason),
        "{reply:?} is not a documented reason"
    );
    args
}

/// Waits for the next match event that `pick` takes, skipping others.
async fn event<T>(client: &mut Client, what: &str, pick: impl Fn(&MatchEvent) -> Option<T>) -> T {
    client
        .wait_for(what, |m| match m {
            ServerMessage::MatchEvent(e) => pick(&e.event),
            _ => None,
        })
        .await
        .unwrap()
}

/// The match as a new watcher sees it.
async fn snapshot(addr: SocketAddr, match_id: &str) -> MatchSnapshot {
    let mut watcher = Client::connect(addr, Encoding::Json).await.unwrap();
    let snapshot = watcher.watch_match(match_id).await.unwrap();
    watcher.close().await;
    snapshot
}

fn notations(snapshot: &MatchSnapshot) -> Vec<String> {
    snapshot.moves.iter().map(|m| m.notation.clone()).collect()
}

/// A casual match: White proposes, Black declines; a proposal again at once is too soon;
/// Black cannot propose before moving nor answer what nobody proposed. Later Black proposes on
/// its own turn and White accepts: White's capture and Black's move before it go, Black is to
/// move in the position after White's first move, and plays another move. Everyone (a
/// watcher too) follows; the position survives a restart; the PDN is the game as played.
#[tokio::test(flavor = "multi_thread")]
async fn a_casual_takeback_is_declined_then_accepted_and_the_pdn_is_the_game_as_played() {
    let mut server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    let mut pair = Pair::start(addr, Encoding::Json).await.unwrap();
    let (white_seat, black_seat) = (pair.white_seat.clone(), pair.black_seat.clone());
    let (white, black) = (seat_action(&white_seat), seat_action(&black_seat));
    let match_id = white_seat.match_id.clone();
    let mut watcher = Client::connect(addr, Encoding::Json).await.unwrap();
    watcher.watch_match(&match_id).await.unwrap();

    pair.play(0, &[32, 28]).await.unwrap();
    let after_first = snapshot(addr, &match_id).await;
    // The snapshot says takebacks are taken, and that this is neither rated nor an event's.
    assert!(after_first.takebacks);
    assert!(!after_first.rated);
    assert_eq!(after_first.event, None);
    // Black has not moved: nothing of its own to take back; nothing to answer either.
    let none = refused(
        &mut pair.black,
        ClientMessage::ProposeTakeback(black.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(args_of(&none), ErrorArgs::new("nothing_to_take_back"));
    let unasked = refused(
        &mut pair.black,
        ClientMessage::AcceptTakeback(black.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(args_of(&unasked), ErrorArgs::new("no_takeback_proposal"));

    // White proposes on Black's turn; everyone hears it; Black declines.
    pair.white
        .call(ClientMessage::ProposeTakeback(white.clone()))
        .await
        .unwrap();
    for client in [&mut pair.black, &mut watcher] {
        let side = event(client, "takeback_proposed", |e| match e {
            MatchEvent::TakebackProposed(side) => Some(*side),
            _ => None,
        })
        .await;
        assert_eq!(side, Side::White);
    }
    let stands = refused(
        &mut pair.white,
        ClientMessage::ProposeTakeback(white.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(args_of(&stands), ErrorArgs::new("takeback_proposal_stands"));
    pair.black
        .call(ClientMessage::DeclineTakeback(black.clone()))
        .await
        .unwrap();
    for client in [&mut pair.white, &mut watcher] {
        let side = event(client, "takeback_declined", |e| match e {
            MatchEvent::TakebackDeclined(side) => Some(*side),
            _ => None,
        })
        .await;
        assert_eq!(side, Side::Black);
    }
    let declined = snapshot(addr, &match_id).await;
    assert_eq!(notations(&declined), ["32-28"]);
    assert_eq!(declined.takeback_offer, None);
    // Again at once: too soon, with the seconds left; the connection stays open.
    let soon = refused(
        &mut pair.white,
        ClientMessage::ProposeTakeback(white.clone()),
        ErrorCode::RateLimited,
    )
    .await;
    let args = args_of(&soon);
    assert_eq!(args.reason, "takeback_too_soon");
    assert_eq!(args.numbers["every_s"], 10);
    let left = args.numbers["retry_after_s"];
    assert!((1..=10).contains(&left), "{soon:?}");
    assert!(
        soon.message.contains(&format!("try again in {left} s")),
        "{soon:?}"
    );
    pair.white.ping().await.expect("the connection stays open");

    // 19-23, and White's capture 28x19 is compulsory.
    pair.play(1, &[19, 23]).await.unwrap();
    pair.play(2, &[28, 19]).await.unwrap();
    // Black, to move, proposes: accepting takes back White's capture and Black's move.
    pair.black
        .call(ClientMessage::ProposeTakeback(black.clone()))
        .await
        .unwrap();
    event(&mut pair.white, "takeback_proposed", |e| {
        matches!(e, MatchEvent::TakebackProposed(Side::Black)).then_some(())
    })
    .await;
    // White cannot propose over it: it answers first.
    let theirs = refused(
        &mut pair.white,
        ClientMessage::ProposeTakeback(white.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(args_of(&theirs), ErrorArgs::new("opponent_takeback_stands"));
    pair.white
        .call(ClientMessage::AcceptTakeback(white.clone()))
        .await
        .unwrap();
    for client in [&mut pair.black, &mut watcher] {
        let taken = event(client, "taken_back", |e| match e {
            MatchEvent::TakenBack(taken) => Some(taken.clone()),
            _ => None,
        })
        .await;
        assert_eq!((taken.side, taken.plies), (Side::Black, 1));
        assert_eq!(taken.fen, after_first.fen, "the position after 32-28");
        assert_eq!(taken.legal_moves, after_first.legal_moves);
    }
    let back = snapshot(addr, &match_id).await;
    assert_eq!(notations(&back), ["32-28"]);
    assert_eq!(
        (back.fen.as_str(), back.turn),
        (after_first.fen.as_str(), Side::Black)
    );
    assert_eq!(back.takeback_offer, None);

    // Black plays another move than the one taken back.
    let other = back
        .legal_moves
        .iter()
        .find(|m| m.notation != "19-23" && m.captures.is_empty())
        .expect("another quiet move")
        .clone();
    pair.black.play(&black_seat, &other.route).await.unwrap();
    let played = snapshot(addr, &match_id).await;
    assert_eq!(
        notations(&played),
        ["32-28".to_owned(), other.notation.clone()]
    );

    // The stored history replays to the same match after a restart.
    drop(pair);
    drop(watcher);
    server.process.kill9().unwrap();
    server.restart(server_program());
    let addr = server.addr();
    let replayed = snapshot(addr, &match_id).await;
    assert_eq!(notations(&replayed), notations(&played));
    assert_eq!(replayed.fen, played.fen);

    // White resigns: the PDN holds the game as played, without the moves taken back.
    let mut white_client = Client::connect(addr, Encoding::Json).await.unwrap();
    // Ids go on above those the seat carried out before the restart (PROTOCOL.md §9).
    white_client.set_next_id(1_000);
    white_client.resume(&white_seat.token, None).await.unwrap();
    let resigned = white_client.resign(&white_seat).await.unwrap();
    assert!(!resigned.duplicate);
    let (status, pdn) = boardcast_tests::http_get(addr, &format!("/games/{match_id}.pdn")).unwrap();
    assert_eq!(status, 200, "{pdn}");
    assert!(
        pdn.contains(&format!("1. 32-28 {} ", other.notation)),
        "{pdn}"
    );
    assert!(!pdn.contains("19-23") && !pdn.contains("28x19"), "{pdn}");
}

/// A rated match between two members refuses a takeback, saying it is a rated match.
#[tokio::test(flavor = "multi_thread")]
async fn a_rated_match_refuses_takebacks_naming_why() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    for name in ["Sietske", "Wytze"] {
        create_member(server_program(), &server.db(), name, PASSWORD, false);
    }
    let mut white = member(addr, "Sietske").await;
    let mut black = member(addr, "Wytze").await;
    let id = white
        .send(ClientMessage::CreateMatch(CreateMatch {
            time_control: None,
            color: boardcast_protocol::ColorChoice::White,
            public: false,
            rated: true,
            rating_range: None,
        }))
        .await
        .unwrap();
    let white_seat = seat_for(&mut white, id).await;
    black
        .join(JoinMatch::Code(white_seat.invite_code.clone()))
        .await
        .unwrap();
    white.play(&white_seat, &[32, 28]).await.unwrap();
    let refusal = refused(
        &mut white,
        ClientMessage::ProposeTakeback(seat_action(&white_seat)),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(
        args_of(&refusal),
        ErrorArgs::new("takeback_casual_only").word("match", "rated")
    );
    // The snapshot tells a client why before it asks: a rated match, not an event's game.
    let shown = snapshot(addr, &white_seat.match_id).await;
    assert_eq!(shown.takeback_offer, None);
    assert!(!shown.takebacks);
    assert!(shown.rated);
    assert_eq!(shown.event, None);
}

async fn member(addr: SocketAddr, name: &str) -> Client {
    let cookie = login_cookie(addr, name, PASSWORD);
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie);
    Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap()
}

async fn seat_for(client: &mut Client, id: u64) -> Seat {
    match client.expect_reply(id).await.unwrap() {
        ServerMessage::Seat(seat) => seat,
        other => panic!("no seat: {other:?}"),
    }
}

/// `same_origin_request` with a session cookie (none when empty): the status and body.
fn request(addr: SocketAddr, method: &str, path: &str, cookie: &str, body: &str) -> (u16, String) {
    let headers = if cookie.is_empty() {
        String::new()
    } else {
        format!("Cookie: {cookie}\r\n")
    };
    let (status, _, body) = same_origin_request(addr, method, path, body, &headers);
    (status, body)
}

/// A club event's game, created by the event director: the member who chose on the account
/// page to refuse more time has their seat refusing it (the opponent's "+15 s" is refused),
/// the other does not; and a takeback is refused as an event's game, though the event is
/// casual.
#[tokio::test(flavor = "multi_thread")]
async fn an_event_game_seats_each_member_with_their_more_time_choice_and_refuses_takebacks() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let addr = server.addr();
    create_member(server_program(), &server.db(), "Organiser", PASSWORD, true);
    for name in ["Anne", "Bauke"] {
        create_member(server_program(), &server.db(), name, PASSWORD, false);
    }
    let organiser = login_cookie(addr, "Organiser", PASSWORD);
    let anne = login_cookie(addr, "Anne", PASSWORD);
    let bauke = login_cookie(addr, "Bauke", PASSWORD);
    // Anne refuses more time on her account page; Bauke chooses nothing.
    let (status, _, body) = same_origin_request(
        addr,
        "POST",
        "/api/preferences",
        r#"{"refuse_more_time":true}"#,
        &format!("Cookie: {anne}\r\n"),
    );
    assert_eq!(status, 204, "{body}");

    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 3_000;
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        &format!(
            r#"{{"name":"Club round-robin","kind":"round_robin","time_control":"5+3","starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for cookie in [&anne, &bauke] {
        let (status, body) = request(addr, "POST", &format!("/api/events/{id}/join"), cookie, "");
        assert_eq!(status, 200, "{body}");
    }
    // The director pairs the one round and creates its match.
    let deadline = Instant::now() + Duration::from_secs(60);
    let game = loop {
        let (status, body) = request(addr, "GET", &format!("/api/events/{id}"), "", "");
        assert_eq!(status, 200, "{body}");
        let shown: Value = serde_json::from_str(&body).unwrap();
        let game = shown["rounds"][0]["games"][0].clone();
        if game["match_id"].is_string() {
            break game;
        }
        assert!(Instant::now() < deadline, "no game created: {shown}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let match_id = game["match_id"].as_str().unwrap().to_owned();
    let anne_side = if game["white"] == "Anne" {
        Side::White
    } else {
        assert_eq!(game["black"], "Anne", "{game}");
        Side::Black
    };

    let (mut anne_client, anne_seat) = sit(addr, &anne, &match_id).await;
    let (mut bauke_client, bauke_seat) = sit(addr, &bauke, &match_id).await;
    let shown = snapshot(addr, &match_id).await;
    assert_eq!(shown.phase, MatchPhase::Playing);
    // The snapshot names the event the game is of (a casual one: not rated), so a client can
    // word the takeback refusal itself.
    assert!(!shown.takebacks);
    assert!(!shown.rated);
    assert_eq!(shown.event.as_deref(), Some(id.as_str()));
    let refusals = shown.refuses_more_time;
    let (anne_refuses, bauke_refuses) = match anne_side {
        Side::White => (refusals.white, refusals.black),
        Side::Black => (refusals.black, refusals.white),
    };
    assert!(
        anne_refuses,
        "Anne's account refuses more time: {refusals:?}"
    );
    assert!(!bauke_refuses, "Bauke chose nothing: {refusals:?}");
    // Bauke's "+15 s" for Anne is refused; Anne's for Bauke is given.
    let refusal = refused(
        &mut bauke_client,
        ClientMessage::MoreTime(bauke_seat.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert!(
        refusal.message.contains("does not accept more time"),
        "{refusal:?}"
    );
    anne_client
        .call(ClientMessage::MoreTime(anne_seat.clone()))
        .await
        .unwrap();

    // White moves, then proposes a takeback: refused, the game being an event's.
    let (white_client, white_seat) = match anne_side {
        Side::White => (&mut anne_client, &anne_seat),
        Side::Black => (&mut bauke_client, &bauke_seat),
    };
    let id = white_client
        .send(ClientMessage::Move(boardcast_protocol::PlayMove {
            match_id: match_id.clone(),
            token: white_seat.token.clone(),
            route: vec![32, 28],
            lag_ms: None,
        }))
        .await
        .unwrap();
    white_client.expect_ack(id).await.unwrap();
    let refusal = refused(
        white_client,
        ClientMessage::ProposeTakeback(white_seat.clone()),
        ErrorCode::NotAllowed,
    )
    .await;
    assert_eq!(
        args_of(&refusal),
        ErrorArgs::new("takeback_casual_only").word("match", "event")
    );
}
