//! Club events end to end on the real server binary (issue 33): a 12-player Swiss of five
//! rounds created by a club admin over HTTP and played by twelve members over the JSON
//! protocol, each member reclaiming the seat the director gave their account. One member never
//! shows up: two forfeits by the first-move rule, then withdrawn. The server is killed with
//! SIGKILL between two rounds and again inside a round. The test pairs and scores the same
//! Swiss itself with `boardcast-pairing` from the same results, and the server's pairings,
//! standings with tie-breaks and TRF must be exactly those: nothing lost, no round paired
//! twice, no game counted twice.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

use boardcast_pairing::PlayerId;
use boardcast_pairing::arena_score::{ArenaGame, ArenaResult, Sheet};
use boardcast_pairing::swiss::{GameResult, Outcome, Swiss, SwissConfig};
use boardcast_pairing::tiebreak::standings;
use boardcast_pairing::trf::{TrfHeader, write_trf};
use boardcast_protocol::{
    Claim, ClaimKind, ClientMessage, ClubEvent, ClubEventKind, ClubEventStatus, Encoding,
    ErrorCode, MatchEvent, Reclaim, SeatAction, ServerMessage, Side, Target, Watch,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ClientError, ConnectOptions};
use boardcast_tests::members::{create_member, login_cookie, sit};
use serde_json::Value;

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

const PASSWORD: &str = "Tulpen-in-Dokkum-1921";
const PLAYERS: usize = 12;
const ROUNDS: u32 = 5;
/// The member who never comes: forfeits rounds 1 and 2, then is withdrawn.
const NO_SHOW: usize = 11;

/// A blocking HTTP/1.1 request; the status and body.
fn request(addr: SocketAddr, method: &str, path: &str, cookie: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nCookie: {cookie}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, body.to_owned())
}

/// Creates member `name` (a club admin with `admin`).
fn create_user(server: &TestServer, name: &str, admin: bool) {
    create_member(server_program(), &server.db(), name, PASSWORD, admin);
}

/// Logs `name` in; the cookie header value.
fn login(addr: SocketAddr, name: &str) -> String {
    login_cookie(addr, name, PASSWORD)
}

fn name(i: usize) -> String {
    format!("Speler{i:02}")
}

fn index(name: &str) -> usize {
    name.trim_start_matches("Speler").parse().unwrap()
}

/// Account ids follow creation: the organiser is 1, member `i` is `i + 2`.
fn player(i: usize) -> PlayerId {
    PlayerId(i as u32 + 2)
}

/// How the game of `white` and `black` in `round` ends (unless the no-show is in it).
fn scripted(round: u32, white: usize, black: usize) -> Outcome {
    match (round as usize + white * 3 + black) % 3 {
        0 => Outcome::WhiteWins,
        1 => Outcome::Draw,
        _ => Outcome::BlackWins,
    }
}

fn outcome_of(round: u32, white: usize, black: usize) -> Outcome {
    match (white, black) {
        (NO_SHOW, _) => Outcome::BlackWinsByForfeit,
        (_, NO_SHOW) => Outcome::WhiteWinsByForfeit,
        _ => scripted(round, white, black),
    }
}

fn event(addr: SocketAddr, id: &str) -> Value {
    let (status, body) = request(addr, "GET", &format!("/api/events/{id}"), "", "");
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// Event `id` as the server at `addr` shows it, or `None` while no server answers there (it
/// was killed and is starting again).
fn event_if_up(addr: SocketAddr, id: &str) -> Option<Value> {
    let mut stream = TcpStream::connect(addr).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .ok()?;
    write!(
        stream,
        "GET /api/events/{id} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let (head, body) = response.split_once("\r\n\r\n")?;
    (head.split_whitespace().nth(1) == Some("200"))
        .then(|| serde_json::from_str(body).ok())
        .flatten()
}

/// Where the server listens now: a server started again after a kill listens on a new port.
type Listening = tokio::sync::watch::Receiver<SocketAddr>;

/// [`sit`] as a client does it after losing its server: again and again until the server
/// (wherever it listens now) answers and gives the seat back.
async fn sit_again(listening: &Listening, cookie: &str, match_id: &str) -> (Client, SeatAction) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let addr = *listening.borrow();
        let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.to_owned());
        if let Ok(mut client) = Client::connect_with(addr, Encoding::Json, &options).await
            && let Ok(seat) = client.reclaim(match_id).await
        {
            let action = SeatAction {
                match_id: seat.match_id,
                token: seat.token,
            };
            return (client, action);
        }
        assert!(Instant::now() < deadline, "seat of {match_id} never back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until the event shows round `round` paired with every board's match created, or
/// the event finished; returns the event.
async fn round_ready(addr: SocketAddr, id: &str, round: u32) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let shown = event(addr, id);
        if shown["status"] == "finished" {
            return shown;
        }
        if let Some(r) = shown["rounds"]
            .as_array()
            .and_then(|r| r.get(round as usize - 1))
            && r["games"]
                .as_array()
                .unwrap()
                .iter()
                .all(|g| g["match_id"].is_string())
        {
            return shown;
        }
        assert!(
            Instant::now() < deadline,
            "round {round} never ready: {shown}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Waits until `games` of round `round` show a result.
async fn results_in(addr: SocketAddr, id: &str, round: u32, games: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let shown = event(addr, id);
        let done = shown["rounds"][round as usize - 1]["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["result"].is_string())
            .count();
        if done >= games {
            return shown;
        }
        assert!(
            Instant::now() < deadline,
            "round {round}: {done} of {games} results: {shown}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A connection (a guest's, or a member's with `cookie`) following event `id` over the
/// WebSocket, and the event as its `watch` was answered.
async fn follow(
    addr: SocketAddr,
    id: &str,
    encoding: Encoding,
    cookie: &str,
) -> (Client, ClubEvent) {
    let mut options = ConnectOptions::encoding(encoding);
    if !cookie.is_empty() {
        options = options.header("Cookie", cookie.to_owned());
    }
    let mut client = Client::connect_with(addr, encoding, &options)
        .await
        .unwrap();
    let watch = ClientMessage::Watch(Watch {
        target: Target::Event(id.to_owned()),
        since_v: None,
    });
    client.call(watch).await.unwrap();
    let shown = pushed(&mut client, "the event, answering watch", |_| true).await;
    (client, shown)
}

/// The first event pushed to `client` that `until` accepts (it waits up to two minutes: an
/// arena's next wave, a round's pairing). Every push is a newer version than the one before.
async fn pushed(client: &mut Client, what: &str, until: impl Fn(&ClubEvent) -> bool) -> ClubEvent {
    let mut seen = None;
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = client
            .recv(left)
            .await
            .unwrap_or_else(|err| panic!("{what}: {err}; last pushed {seen:?}"));
        let ServerMessage::ClubEvent(shown) = message else {
            continue;
        };
        if let Some(before) = &seen {
            let before: &ClubEvent = before;
            assert!(
                shown.v > before.v,
                "{what}: v{} after v{}",
                shown.v,
                before.v
            );
        }
        if until(&shown) {
            return shown;
        }
        seen = Some(shown);
    }
}

/// Waits until the match has at least `plies` moves (from the snapshot or an event).
async fn plies(client: &mut Client, plies: usize) {
    client
        .wait_for("moves", |m| match m {
            ServerMessage::MatchSnapshot(s) if s.moves.len() >= plies => Some(()),
            ServerMessage::MatchEvent(e) => match &e.event {
                MatchEvent::Moved(moved) if moved.played.ply as usize + 1 >= plies => Some(()),
                _ => None,
            },
            _ => None,
        })
        .await
        .unwrap();
}

async fn ended(client: &mut Client) {
    // Up to the first-move timeout and more, for a no-show's forfeit.
    client
        .wait_for_within("the end", Duration::from_secs(90), |m| match m {
            ServerMessage::MatchSnapshot(s) if s.result.is_some() => Some(()),
            ServerMessage::MatchEvent(e) => matches!(e.event, MatchEvent::Ended(_)).then_some(()),
            _ => None,
        })
        .await
        .unwrap();
}

async fn play_move(client: &mut Client, seat: &SeatAction, route: &[u8]) {
    let id = client
        .send(ClientMessage::Move(boardcast_protocol::PlayMove {
            match_id: seat.match_id.clone(),
            token: seat.token.clone(),
            route: route.to_vec(),
            lag_ms: None,
        }))
        .await
        .unwrap();
    client.expect_ack(id).await.unwrap();
}

/// White's part of a scripted game: 32-28, then resign (a loss), offer a draw, or wait.
async fn play_white(addr: SocketAddr, cookie: String, match_id: String, outcome: Outcome) {
    let (mut client, seat) = sit(addr, &cookie, &match_id).await;
    play_move(&mut client, &seat, &[32, 28]).await;
    match outcome {
        Outcome::WhiteWins => {}
        Outcome::BlackWins => {
            plies(&mut client, 2).await;
            client
                .call(ClientMessage::Resign(seat.clone()))
                .await
                .unwrap();
        }
        Outcome::Draw => {
            plies(&mut client, 2).await;
            client
                .call(ClientMessage::OfferDraw(seat.clone()))
                .await
                .unwrap();
        }
        other => panic!("not scripted: {other:?}"),
    }
    ended(&mut client).await;
    client.close().await;
}

/// Black's part: resign after White's first move (a loss), or answer 19-23 and then accept
/// the draw White offers, or wait for White to resign.
async fn play_black(addr: SocketAddr, cookie: String, match_id: String, outcome: Outcome) {
    let (mut client, seat) = sit(addr, &cookie, &match_id).await;
    plies(&mut client, 1).await;
    match outcome {
        Outcome::WhiteWins => {
            client
                .call(ClientMessage::Resign(seat.clone()))
                .await
                .unwrap();
        }
        Outcome::BlackWins => play_move(&mut client, &seat, &[19, 23]).await,
        Outcome::Draw => {
            play_move(&mut client, &seat, &[19, 23]).await;
            client
                .wait_for("the draw offer", |m| match m {
                    ServerMessage::MatchEvent(e) => {
                        matches!(e.event, MatchEvent::DrawOffered(Side::White)).then_some(())
                    }
                    ServerMessage::MatchSnapshot(s) => {
                        (s.draw_offer == Some(Side::White)).then_some(())
                    }
                    _ => None,
                })
                .await
                .unwrap();
            client
                .call(ClientMessage::AcceptDraw(seat.clone()))
                .await
                .unwrap();
        }
        other => panic!("not scripted: {other:?}"),
    }
    ended(&mut client).await;
    client.close().await;
}

/// The games of a round as (white, black, match id), by member index.
fn games_of(shown: &Value, round: u32) -> Vec<(usize, usize, String)> {
    shown["rounds"][round as usize - 1]["games"]
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
        .collect()
}

/// Plays `games` of round `round` side by side; the no-show's opponent plays alone.
async fn play(addr: SocketAddr, cookies: &[String], round: u32, games: &[(usize, usize, String)]) {
    let mut tasks = Vec::new();
    for (white, black, match_id) in games.iter().cloned() {
        let outcome = outcome_of(round, white, black);
        if white != NO_SHOW && black != NO_SHOW {
            tasks.push(tokio::spawn(play_white(
                addr,
                cookies[white].clone(),
                match_id.clone(),
                outcome,
            )));
            tasks.push(tokio::spawn(play_black(
                addr,
                cookies[black].clone(),
                match_id,
                outcome,
            )));
        } else if black == NO_SHOW {
            // White moves and waits: Black's first move never comes, and Black forfeits.
            let cookie = cookies[white].clone();
            tasks.push(tokio::spawn(async move {
                let (mut client, seat) = sit(addr, &cookie, &match_id).await;
                play_move(&mut client, &seat, &[32, 28]).await;
                ended(&mut client).await;
            }));
        } else {
            // White never moves: Black sits and waits for White's forfeit.
            let cookie = cookies[black].clone();
            tasks.push(tokio::spawn(async move {
                let (mut client, _) = sit(addr, &cookie, &match_id).await;
                ended(&mut client).await;
            }));
        }
    }
    for task in tasks {
        task.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_twelve_player_swiss_survives_two_kills_and_its_standings_and_trf_are_exact() {
    let mut server = TestServer::start(
        server_program(),
        &["--log", "error", "--first-move-timeout", "15s"],
    );
    create_user(&server, "Organiser", true);
    for i in 0..PLAYERS {
        create_user(&server, &name(i), false);
    }
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let cookies: Vec<String> = (0..PLAYERS).map(|i| login(addr, &name(i))).collect();

    // A member without the organiser right cannot create one; bad options are named.
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &cookies[0],
        r#"{"name":"Mine","kind":"swiss","time_control":"5+3","rounds":5}"#,
    );
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("not_organiser"), "{body}");
    // A club admin grants the member the organiser right; a member cannot grant it.
    let (status, body) = request(
        addr,
        "POST",
        "/api/organisers",
        &cookies[1],
        &format!(r#"{{"name":"{}"}}"#, name(0)),
    );
    assert_eq!(status, 403, "{body}");
    let (status, body) = request(
        addr,
        "POST",
        "/api/organisers",
        &organiser,
        &format!(r#"{{"name":"{}"}}"#, name(0)),
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &cookies[0],
        r#"{"name":"Mine","kind":"round_robin","time_control":"5+3","starts_at":99999999999999}"#,
    );
    assert_eq!(status, 400, "an organiser's event is checked too: {body}");
    assert!(body.contains("starts_at"), "{body}");
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        r#"{"name":"Club Swiss","kind":"swiss","time_control":"5+3","rounds":0}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(
        body.contains("invalid_argument") && body.contains("rounds"),
        "{body}"
    );

    let starts_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 6_000;
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        &format!(
            r#"{{"name":"Club Swiss","kind":"swiss","time_control":"5+3","rounds":{ROUNDS},"starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for cookie in &cookies {
        let (status, body) = request(addr, "POST", &format!("/api/events/{id}/join"), cookie, "");
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = request(
        addr,
        "POST",
        &format!("/api/events/{id}/join"),
        &cookies[0],
        "",
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("already_joined"), "{body}");
    let shown = event(addr, &id);
    assert_eq!(
        shown["status"], "waiting",
        "all joined before the start: {shown}"
    );
    assert_eq!(shown["players"].as_array().unwrap().len(), PLAYERS);
    let (_, listed) = request(addr, "GET", "/api/events", "", "");
    assert!(listed.contains(&id), "{listed}");

    // The same Swiss, paired and scored here.
    let mut swiss = Swiss::new(SwissConfig {
        rounds: ROUNDS,
        ..SwissConfig::default()
    })
    .unwrap();
    for i in 0..PLAYERS {
        swiss.add_player(player(i), 1500).unwrap();
    }
    for round in 1..=ROUNDS {
        let shown = round_ready(server.addr(), &id, round).await;
        let games = games_of(&shown, round);
        let expected = swiss.pair_next_round().unwrap().clone();
        let paired: Vec<(PlayerId, PlayerId)> = games
            .iter()
            .map(|(w, b, _)| (player(*w), player(*b)))
            .collect();
        let want: Vec<(PlayerId, PlayerId)> =
            expected.boards.iter().map(|b| (b.white, b.black)).collect();
        assert_eq!(paired, want, "round {round} pairs as the Dutch system does");
        assert_eq!(
            shown["rounds"][round as usize - 1]["bye"]
                .as_str()
                .map(index)
                .map(player),
            expected.bye,
            "round {round}'s bye"
        );
        let addr = server.addr();
        if round == 4 {
            // Inside a round: half its games played, then SIGKILL; the rest after the restart.
            let half = games.len() / 2;
            play(addr, &cookies, round, &games[..half]).await;
            results_in(addr, &id, round, half).await;
            server.process.kill9().unwrap();
            server.restart(server_program());
            play(server.addr(), &cookies, round, &games[half..]).await;
        } else {
            play(addr, &cookies, round, &games).await;
        }
        let results: Vec<GameResult> = games
            .iter()
            .map(|(w, b, _)| GameResult {
                white: player(*w),
                black: player(*b),
                outcome: outcome_of(round, *w, *b),
            })
            .collect();
        swiss.record_round(&results).unwrap();
        if round == 2 {
            // Two forfeits: the no-show is withdrawn before round 3.
            swiss.withdraw(player(NO_SHOW)).unwrap();
            // Between two rounds: SIGKILL once round 2's results are in.
            results_in(server.addr(), &id, round, games.len()).await;
            server.process.kill9().unwrap();
            server.restart(server_program());
        }
    }

    let addr = server.addr();
    let deadline = Instant::now() + Duration::from_secs(60);
    let shown = loop {
        let shown = event(addr, &id);
        if shown["status"] == "finished" {
            break shown;
        }
        assert!(Instant::now() < deadline, "never finished: {shown}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        shown["rounds"].as_array().unwrap().len(),
        ROUNDS as usize,
        "five rounds, none paired twice: {shown}"
    );
    let table: Vec<(String, u64, u64)> = shown["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["rank"].as_u64().unwrap(),
                s["score_halves"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64, u64)> = standings(swiss.players())
        .iter()
        .map(|s| {
            (
                name(s.id.0 as usize - 2),
                u64::from(s.rank),
                u64::from(s.score.halves()),
            )
        })
        .collect();
    assert_eq!(table, want, "the final table");
    let tie_breaks: Vec<(String, String)> = shown["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["buchholz"].as_str().unwrap().to_owned(),
                s["buchholz_cut1"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = standings(swiss.players())
        .iter()
        .map(|s| (s.buchholz.to_string(), s.buchholz_cut1.to_string()))
        .collect();
    assert_eq!(tie_breaks, want, "Buchholz and Buchholz cut-1");
    let no_show = shown["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name(NO_SHOW).as_str())
        .unwrap();
    assert_eq!(no_show["withdrawn"], true);
    assert_eq!(no_show["score_halves"], 0);

    let (status, trf) = request(addr, "GET", &format!("/e/{id}.trf"), "", "");
    assert_eq!(status, 200);
    let expected = write_trf(
        &swiss,
        &TrfHeader {
            name: "Club Swiss".into(),
        },
        |id| name(id.0 as usize - 2),
    );
    assert_eq!(trf, expected, "the TRF");
    // Finished: withdrawing is refused.
    let (status, body) = request(
        addr,
        "POST",
        &format!("/api/events/{id}/withdraw"),
        &cookies[1],
        "",
    );
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("event_finished"), "{body}");
}

/// How an arena game of the scripted members ends, and after how many plies: a win for
/// either side, a draw long enough to score, or a short draw that scores nothing (lila's
/// anti-collusion rule). Every game has at least 4 plies, so a rated arena rates them all.
/// Some players go berserk before their first move (White in every other game, Black in
/// every third): a berserk win of 14 plies scores one more, one of 6 plies does not.
fn arena_script(white: usize, black: usize, round: u32) -> ArenaScript {
    let (white_result, plies) = match (white + black + round as usize) % 4 {
        0 => (ArenaResult::Win, 14),
        1 => (ArenaResult::Loss, 6),
        2 => (ArenaResult::Draw, 20),
        _ => (ArenaResult::Draw, 4),
    };
    ArenaScript {
        white_result,
        plies,
        berserk: [
            (white + round as usize).is_multiple_of(2),
            (black + round as usize).is_multiple_of(3),
        ],
    }
}

/// How an arena game is to go: White's result, the plies before it, and who goes berserk
/// (White, Black).
#[derive(Debug, Clone, Copy)]
struct ArenaScript {
    white_result: ArenaResult,
    plies: u32,
    berserk: [bool; 2],
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// One side of an arena game: both play the first legal move until `plies`, then the loser
/// resigns, or White offers a draw and Black accepts it. A game reaching its end within 3 s
/// of the arena's end is held until just after it, so games run across the end. Whether
/// the result carried a rating change, and whether this side went berserk. A player scripted
/// to go berserk does so before their first move and sees their clock halved (3+2: 1:30
/// left, no increment). When the server is killed the player sits again once it is back (a
/// berserk it asked for just before may then never have been stored).
async fn arena_game(
    listening: Listening,
    cookie: String,
    match_id: String,
    side: Side,
    script: ArenaScript,
    ends_at: i64,
) -> (bool, bool) {
    let (white_result, plies_wanted) = (script.white_result, script.plies);
    let (mut client, mut seat) = sit_again(&listening, &cookie, &match_id).await;
    let mut sat_again = false;
    let berserk = script.berserk[usize::from(side == Side::Black)];
    if berserk {
        // Sent before any move of ours on this connection, so it is decided before them.
        client
            .send(ClientMessage::Berserk(seat.clone()))
            .await
            .unwrap();
    }
    let (mut plies, mut turn, mut legal, mut acted) = (0u32, Side::White, Vec::new(), false);
    let mut saw_berserk = false;
    loop {
        let message = match client.recv(Duration::from_secs(60)).await {
            Ok(message) => message,
            Err(ClientError::Closed(_) | ClientError::Ws(_)) => {
                (client, seat) = sit_again(&listening, &cookie, &match_id).await;
                (sat_again, acted) = (true, false);
                continue;
            }
            Err(err) => panic!("{side} of {match_id}: {err}"),
        };
        let offered = match &message {
            ServerMessage::MatchSnapshot(s) if s.match_id == match_id => {
                let berserked = s.berserk.as_ref().expect("an arena game offers berserk");
                saw_berserk |= berserked.contains(&side);
                if let Some(result) = &s.result {
                    return (result.rating_change.is_some(), saw_berserk);
                }
                plies = s.moves.len() as u32;
                turn = s.turn;
                legal = s.legal_moves.clone();
                s.draw_offer == Some(Side::White)
            }
            ServerMessage::MatchEvent(e) if e.match_id == match_id => match &e.event {
                MatchEvent::Moved(m) => {
                    plies = m.played.ply + 1;
                    turn = m.played.side.opposite();
                    legal = m.legal_moves.clone();
                    false
                }
                MatchEvent::DrawOffered(Side::White) => true,
                MatchEvent::Berserked(b) if b.side == side => {
                    let mine = if side == Side::White {
                        b.clock.white_ms
                    } else {
                        b.clock.black_ms
                    };
                    assert_eq!(
                        mine, 90_000,
                        "berserk halves 3 minutes before the first move"
                    );
                    saw_berserk = true;
                    false
                }
                MatchEvent::Ended(result) => {
                    if !sat_again {
                        assert_eq!(saw_berserk, berserk, "{side} went berserk as scripted");
                    }
                    return (result.rating_change.is_some(), saw_berserk);
                }
                _ => false,
            },
            _ => continue,
        };
        if offered && side == Side::Black {
            client
                .send(ClientMessage::AcceptDraw(seat.clone()))
                .await
                .unwrap();
            continue;
        }
        if plies < plies_wanted {
            if turn == side && !legal.is_empty() {
                let route = legal[0].route.clone();
                client
                    .send(ClientMessage::Move(boardcast_protocol::PlayMove {
                        match_id: seat.match_id.clone(),
                        token: seat.token.clone(),
                        route,
                        lag_ms: None,
                    }))
                    .await
                    .unwrap();
            }
            continue;
        }
        if acted {
            continue;
        }
        acted = true;
        let now = unix_ms();
        if (ends_at - 3_000..ends_at + 1_000).contains(&now) {
            tokio::time::sleep(Duration::from_millis((ends_at + 1_000 - now) as u64)).await;
        }
        let mine = if side == Side::White {
            white_result
        } else {
            match white_result {
                ArenaResult::Win => ArenaResult::Loss,
                ArenaResult::Loss => ArenaResult::Win,
                ArenaResult::Draw => ArenaResult::Draw,
            }
        };
        match (mine, side) {
            (ArenaResult::Loss, _) => {
                client
                    .send(ClientMessage::Resign(seat.clone()))
                    .await
                    .unwrap();
            }
            (ArenaResult::Draw, Side::White) => {
                client
                    .send(ClientMessage::OfferDraw(seat.clone()))
                    .await
                    .unwrap();
            }
            _ => {}
        }
    }
}

/// A member in an arena: plays every game the director gives them until the arena is over;
/// their games in the order played, each with the opponent's index.
async fn arena_member(
    listening: Listening,
    id: String,
    me: usize,
    cookie: String,
    ends_at: i64,
) -> Vec<(ArenaGame, usize)> {
    let mut played = std::collections::HashSet::new();
    let mut games = Vec::new();
    loop {
        let shown = {
            let (id, addr) = (id.clone(), *listening.borrow());
            tokio::task::spawn_blocking(move || event_if_up(addr, &id))
                .await
                .unwrap()
        };
        let Some(shown) = shown else {
            tokio::time::sleep(Duration::from_millis(250)).await;
            continue;
        };
        if shown["status"] == "finished" {
            return games;
        }
        let mine = shown["rounds"].as_array().unwrap().iter().find_map(|r| {
            let round = r["round"].as_u64().unwrap() as u32;
            r["games"].as_array().unwrap().iter().find_map(|g| {
                let (white, black) = (
                    arena_index(g["white"].as_str().unwrap()),
                    arena_index(g["black"].as_str().unwrap()),
                );
                let match_id = g["match_id"].as_str()?;
                (g["result"].is_null()
                    && (white == me || black == me)
                    && !played.contains(match_id))
                .then(|| (round, white, black, match_id.to_owned()))
            })
        });
        let Some((round, white, black, match_id)) = mine else {
            tokio::time::sleep(Duration::from_millis(250)).await;
            continue;
        };
        played.insert(match_id.clone());
        let script = arena_script(white, black, round);
        let side = if white == me {
            Side::White
        } else {
            Side::Black
        };
        let (rated, berserk) = arena_game(
            listening.clone(),
            cookie.clone(),
            match_id,
            side,
            script,
            ends_at,
        )
        .await;
        assert!(
            rated,
            "a rated arena's game of {} plies is rated",
            script.plies
        );
        let (result, opponent) = match side {
            Side::White => (script.white_result, black),
            Side::Black => (
                match script.white_result {
                    ArenaResult::Win => ArenaResult::Loss,
                    ArenaResult::Loss => ArenaResult::Win,
                    ArenaResult::Draw => ArenaResult::Draw,
                },
                white,
            ),
        };
        games.push((
            ArenaGame {
                result,
                plies: script.plies,
                berserk,
            },
            opponent,
        ));
    }
}

fn arena_name(i: usize) -> String {
    format!("Arena{i:02}")
}

fn arena_index(name: &str) -> usize {
    name.trim_start_matches("Arena").parse().unwrap()
}

/// A rated 10-player arena of 20 minutes, each minute a second long (`--arena-minute 1s`),
/// played by ten members over the JSON protocol. The points of every player are exactly
/// lila's scoring of the games they played in the order they played them (streaks doubled,
/// short draws nothing, berserk wins of 14 plies one more); nobody meets the same opponent
/// twice in a row; no game is paired after the end, and the games running at the end finish
/// and count.
#[tokio::test(flavor = "multi_thread")]
async fn a_ten_player_arena_scores_every_game_as_lila_and_counts_the_games_running_at_the_end() {
    const MEMBERS: usize = 10;
    let server = TestServer::start(
        server_program(),
        &["--log", "error", "--arena-minute", "1s"],
    );
    create_user(&server, "Organiser", false);
    for i in 0..MEMBERS {
        create_user(&server, &arena_name(i), false);
    }
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let cookies: Vec<String> = (0..MEMBERS).map(|i| login(addr, &arena_name(i))).collect();
    let create = r#"{"name":"Blitz arena","kind":"arena","time_control":"3+2","minutes":20}"#;
    let (status, body) = request(addr, "POST", "/api/events", &organiser, create);
    assert_eq!(status, 403, "not an organiser yet: {body}");
    // The club admin grants the right on the command line, beside the running server.
    let admin = |args: &[&str]| {
        std::process::Command::new(server_program())
            .args(["--db", server.db().to_str().unwrap(), "admin"])
            .args(args)
            .output()
            .unwrap()
    };
    let refused = admin(&["grant-organiser", "Nobody"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no account Nobody"));
    assert!(admin(&["grant-organiser", "Organiser"]).status.success());
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        r#"{"name":"Blitz arena","kind":"arena","time_control":"3+2","minutes":10}"#,
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("minutes"), "{body}");
    let starts_at = unix_ms() + 4_000;
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        &format!(
            r#"{{"name":"Blitz arena","kind":"arena","time_control":"3+2","minutes":20,"rated":true,"starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for cookie in &cookies {
        let (status, body) = request(addr, "POST", &format!("/api/events/{id}/join"), cookie, "");
        assert_eq!(status, 200, "{body}");
    }
    let shown = event(addr, &id);
    assert_eq!(shown["kind"], "arena");
    let ends_at = shown["ends_at_ms"].as_i64().unwrap();
    assert_eq!(ends_at, starts_at + 20_000);

    let (_listening_tx, listening) = tokio::sync::watch::channel(addr);
    let members: Vec<_> = (0..MEMBERS)
        .map(|i| {
            tokio::spawn(arena_member(
                listening.clone(),
                id.clone(),
                i,
                cookies[i].clone(),
                ends_at,
            ))
        })
        .collect();
    // Just after the end: no new game, but those still running are being played.
    tokio::time::sleep(Duration::from_millis(
        (ends_at + 500 - unix_ms()).max(0) as u64
    ))
    .await;
    let at_end = event(addr, &id);
    let rounds_at_end = at_end["rounds"].as_array().unwrap().len();
    let running_at_end = at_end["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .filter(|g| g["result"].is_null())
        .count();
    assert_eq!(at_end["status"], "playing", "{at_end}");
    assert!(running_at_end > 0, "games run across the end: {at_end}");

    let mut played = Vec::new();
    for member in members {
        played.push(member.await.unwrap());
    }
    let shown = event(addr, &id);
    assert_eq!(shown["status"], "finished");
    assert_eq!(
        shown["rounds"].as_array().unwrap().len(),
        rounds_at_end,
        "no wave after the end"
    );
    let mut doubled = false;
    for (i, games) in played.iter().enumerate() {
        assert!(
            games.len() >= 3,
            "{} played {} games",
            arena_name(i),
            games.len()
        );
        let opponents: Vec<usize> = games.iter().map(|(_, o)| *o).collect();
        assert!(
            opponents.windows(2).all(|w| w[0] != w[1]),
            "{} met the same opponent twice in a row: {opponents:?}",
            arena_name(i)
        );
        let sheet = Sheet::from_games(games.iter().map(|(g, _)| *g));
        doubled |= sheet.games().iter().any(|g| g.doubled);
        let line = shown["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == arena_name(i).as_str())
            .unwrap();
        assert_eq!(
            line["score"].as_str().unwrap(),
            sheet.total().to_string(),
            "{}: {line}",
            arena_name(i)
        );
        let digits: Vec<String> = sheet
            .games()
            .iter()
            .map(|g| format!("{}{}", g.points, if g.doubled { "*" } else { "" }))
            .collect();
        assert_eq!(line["sheet"], digits.join(" "), "{}", arena_name(i));
    }
    let points: Vec<u64> = shown["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_str().unwrap().parse().unwrap())
        .collect();
    assert!(
        points.windows(2).all(|w| w[0] >= w[1]),
        "ranked by points: {points:?}"
    );
    assert!(doubled, "somebody was on fire: {shown}");
    let berserk_bonus = played
        .iter()
        .flatten()
        .any(|(g, _)| g.berserk && g.result == ArenaResult::Win && g.plies >= 14);
    assert!(
        berserk_bonus,
        "a berserk win of 14 plies was scored: {shown}"
    );
    // Over: joining is refused.
    let (status, body) = request(
        addr,
        "POST",
        &format!("/api/events/{id}/join"),
        &organiser,
        "",
    );
    assert_eq!(status, 409, "{body}");
}

/// A rated arena of 20 one-second minutes, six members, and the server killed with SIGKILL
/// inside a wave, while games are being played, then started again. The games running at the
/// kill go on after the restart (their players sit again) and count; every member's points are
/// exactly lila's scoring of the games they played; no wave is paired twice (each wave once,
/// each member at most once in it, every game its own match) and none after the end.
#[tokio::test(flavor = "multi_thread")]
async fn an_arena_killed_inside_a_wave_loses_no_game_and_pairs_no_wave_twice() {
    const MEMBERS: usize = 6;
    let mut server = TestServer::start(
        server_program(),
        &["--log", "error", "--arena-minute", "1s"],
    );
    create_user(&server, "Organiser", true);
    for i in 0..MEMBERS {
        create_user(&server, &arena_name(i), false);
    }
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let cookies: Vec<String> = (0..MEMBERS).map(|i| login(addr, &arena_name(i))).collect();
    let starts_at = unix_ms() + 3_000;
    let (status, body) = request(
        addr,
        "POST",
        "/api/events",
        &organiser,
        &format!(
            r#"{{"name":"Kill arena","kind":"arena","time_control":"3+2","minutes":20,"rated":true,"starts_at":{starts_at}}}"#
        ),
    );
    assert_eq!(status, 201, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for cookie in &cookies {
        let (status, body) = request(addr, "POST", &format!("/api/events/{id}/join"), cookie, "");
        assert_eq!(status, 200, "{body}");
    }
    let ends_at = event(addr, &id)["ends_at_ms"].as_i64().unwrap();
    let (listening_tx, listening) = tokio::sync::watch::channel(addr);
    let members: Vec<_> = (0..MEMBERS)
        .map(|i| {
            tokio::spawn(arena_member(
                listening.clone(),
                id.clone(),
                i,
                cookies[i].clone(),
                ends_at,
            ))
        })
        .collect();

    // Inside a wave: past the first, with games being played.
    let deadline = Instant::now() + Duration::from_secs(30);
    let at_kill = loop {
        let shown = event(addr, &id);
        let rounds = shown["rounds"].as_array().unwrap();
        let running = rounds
            .iter()
            .flat_map(|r| r["games"].as_array().unwrap())
            .filter(|g| g["match_id"].is_string() && g["result"].is_null())
            .count();
        if rounds.len() >= 2 && running > 0 {
            break shown;
        }
        assert!(Instant::now() < deadline, "no second wave: {shown}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(unix_ms() < ends_at - 5_000, "killed well before the end");
    server.process.kill9().unwrap();
    server.restart(server_program());
    listening_tx.send_replace(server.addr());
    let running_at_kill: Vec<String> = at_kill["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["games"].as_array().unwrap())
        .filter(|g| g["result"].is_null())
        .filter_map(|g| g["match_id"].as_str().map(str::to_owned))
        .collect();

    let mut played = Vec::new();
    for member in members {
        played.push(member.await.unwrap());
    }
    let shown = event(server.addr(), &id);
    assert_eq!(shown["status"], "finished", "{shown}");
    let rounds = shown["rounds"].as_array().unwrap();
    let mut match_ids = std::collections::HashSet::new();
    for (i, round) in rounds.iter().enumerate() {
        assert_eq!(round["round"], i + 1, "each wave once, in order: {shown}");
        let mut seated = std::collections::HashSet::new();
        for game in round["games"].as_array().unwrap() {
            for side in ["white", "black"] {
                assert!(
                    seated.insert(game[side].as_str().unwrap().to_owned()),
                    "a member twice in wave {}: {shown}",
                    i + 1
                );
            }
            let match_id = game["match_id"].as_str().expect("every game was played");
            assert!(match_ids.insert(match_id.to_owned()), "{match_id} twice");
            assert!(game["result"].is_string(), "every game counted: {shown}");
        }
    }
    for match_id in &running_at_kill {
        assert!(
            match_ids.contains(match_id),
            "{match_id}, running at the kill, counts"
        );
    }
    let games_shown = match_ids.len();
    let games_played: usize = played.iter().map(Vec::len).sum();
    assert_eq!(
        games_played,
        2 * games_shown,
        "every game played is shown once"
    );
    for (i, games) in played.iter().enumerate() {
        let sheet = Sheet::from_games(games.iter().map(|(g, _)| *g));
        let line = shown["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == arena_name(i).as_str())
            .unwrap();
        assert_eq!(
            line["score"].as_str().unwrap(),
            sheet.total().to_string(),
            "{}: {line}",
            arena_name(i)
        );
        let digits: Vec<String> = sheet
            .games()
            .iter()
            .map(|g| format!("{}{}", g.points, if g.doubled { "*" } else { "" }))
            .collect();
        assert_eq!(line["sheet"], digits.join(" "), "{}", arena_name(i));
    }
}

/// Creates event `body` as the organiser; its id.
fn create_event(addr: SocketAddr, organiser: &str, body: &str) -> String {
    let (status, answer) = request(addr, "POST", "/api/events", organiser, body);
    assert_eq!(status, 201, "{answer}");
    serde_json::from_str::<Value>(&answer).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Creates a three-round Swiss at 5+3 named `name` that starts at `starts_at` (Unix ms) as
/// the organiser; its id.
fn create_swiss(addr: SocketAddr, organiser: &str, name: &str, starts_at: i64) -> String {
    create_event(
        addr,
        organiser,
        &format!(
            r#"{{"name":"{name}","kind":"swiss","time_control":"5+3","rounds":3,"starts_at":{starts_at}}}"#
        ),
    )
}

fn join(addr: SocketAddr, id: &str, cookie: &str) {
    let (status, body) = request(addr, "POST", &format!("/api/events/{id}/join"), cookie, "");
    assert_eq!(status, 200, "{body}");
}

/// No event is pushed to `client` in the next half second (`what` says why none should be).
async fn nothing_pushed(client: &mut Client, what: &str) {
    while let Ok(message) = client.recv(Duration::from_millis(500)).await {
        assert!(
            !matches!(message, ServerMessage::ClubEvent(_)),
            "{what}: {message:?}"
        );
    }
}

/// Spectators follow an event over the WebSocket (issue 33, "spectators follow it live"):
/// `watch` of `{"event": id}` answers with the event, and every change is pushed to every
/// follower in both encodings, without asking. A follower that watches again with the version
/// it has gets nothing more until something changes; one that unwatched gets nothing. After a
/// SIGKILL and a restart a follower from before it watches again with its last version and
/// is caught up, and the resumed event's changes are pushed again.
#[tokio::test(flavor = "multi_thread")]
async fn spectators_follow_an_event_live_and_catch_up_after_a_restart() {
    let mut server = TestServer::start(server_program(), &["--log", "error"]);
    create_user(&server, "Organiser", true);
    for i in 0..3 {
        create_user(&server, &name(i), false);
    }
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let cookies: Vec<String> = (0..3).map(|i| login(addr, &name(i))).collect();
    let starts_at = unix_ms() + 3_600_000;
    let id = create_swiss(addr, &organiser, "Club Swiss", starts_at);

    let (mut text, shown) = follow(addr, &id, Encoding::Json, "").await;
    let (mut binary, shown_binary) = follow(addr, &id, Encoding::Postcard, "").await;
    assert_eq!(shown, shown_binary, "one event in both encodings");
    assert_eq!(
        (shown.kind, shown.status, shown.rounds_total, shown.minutes),
        (ClubEventKind::Swiss, ClubEventStatus::Waiting, 3, None)
    );
    assert_eq!(shown.starts_at, starts_at);
    assert!(shown.players.is_empty(), "{shown:?}");
    let missing = text
        .send(ClientMessage::Watch(Watch {
            target: Target::Event("nosuchev".into()),
            since_v: None,
        }))
        .await
        .unwrap();
    text.expect_error(missing, ErrorCode::NotFound)
        .await
        .unwrap();

    // A member joins over HTTP: both spectators are sent the event with her in it.
    join(addr, &id, &cookies[0]);
    let with_one = |e: &ClubEvent| e.players == [name(0)];
    let one = pushed(&mut text, "the first player pushed", with_one).await;
    assert_eq!(
        pushed(&mut binary, "the same, postcard", with_one).await,
        one
    );
    assert!(one.v > shown.v);

    // Watching again with the version one has: an ack, and the event only once it changes.
    let again = text
        .send(ClientMessage::Watch(Watch {
            target: Target::Event(id.clone()),
            since_v: Some(one.v),
        }))
        .await
        .unwrap();
    text.expect_ack(again).await.unwrap();
    nothing_pushed(&mut text, "watched again at the version it has").await;
    // The postcard spectator stops following; the JSON one is sent the next change alone.
    binary
        .call(ClientMessage::Unwatch(Target::Event(id.clone())))
        .await
        .unwrap();
    join(addr, &id, &cookies[1]);
    let two = pushed(&mut text, "the second player", |e| e.players.len() == 2).await;
    assert_eq!(two.players, [name(0), name(1)]);
    nothing_pushed(&mut binary, "an unwatched event").await;
    binary.close().await;

    // SIGKILL, restart: the event's director resumes from storage. The JSON spectator's
    // connection died with the server; it comes back and watches from the version it had.
    server.process.kill9().unwrap();
    server.restart(server_program());
    let addr = server.addr();
    let mut back = Client::connect(addr, Encoding::Json).await.unwrap();
    let again = back
        .send(ClientMessage::Watch(Watch {
            target: Target::Event(id.clone()),
            since_v: Some(two.v),
        }))
        .await
        .unwrap();
    back.expect_ack(again).await.unwrap();
    nothing_pushed(&mut back, "nothing changed while the server was down").await;
    join(addr, &id, &cookies[2]);
    let three = pushed(&mut back, "the third player, after the restart", |e| {
        e.players.len() == 3
    })
    .await;
    assert!(three.v > two.v, "{three:?}");
    // A spectator that saw only the first version is sent the whole event as it is now.
    let mut late = Client::connect(addr, Encoding::Postcard).await.unwrap();
    let watch = late
        .send(ClientMessage::Watch(Watch {
            target: Target::Event(id.clone()),
            since_v: Some(shown.v),
        }))
        .await
        .unwrap();
    late.expect_ack(watch).await.unwrap();
    assert_eq!(pushed(&mut late, "caught up", |_| true).await, three);
}

/// An event game records who is at the board (the "gone" beside "(you)" of issue 33): the
/// director creates the match with both members seated by account, and a member who watches
/// their board and then takes the seat (as the web page does) is told they returned, so no
/// page shows them gone. Presence counts for claims too: claiming against a member at the
/// board is refused, and once that member has left for the grace period the claim wins the
/// game, and the spectators are pushed the result.
#[tokio::test(flavor = "multi_thread")]
async fn an_event_game_shows_its_players_at_the_board_and_a_claim_counts_only_against_one_who_left()
{
    let server = TestServer::start(
        server_program(),
        &[
            "--log",
            "error",
            "--grace",
            "2s",
            "--first-move-timeout",
            "120s",
        ],
    );
    create_user(&server, "Organiser", true);
    for i in 0..2 {
        create_user(&server, &name(i), false);
    }
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let cookies: Vec<String> = (0..2).map(|i| login(addr, &name(i))).collect();
    let id = create_event(
        addr,
        &organiser,
        &format!(
            r#"{{"name":"Final","kind":"swiss","time_control":"5+3","rounds":1,"starts_at":{}}}"#,
            unix_ms() + 2_000
        ),
    );
    for cookie in &cookies {
        join(addr, &id, cookie);
    }
    let (mut spectator, _) = follow(addr, &id, Encoding::Json, "").await;
    let paired = pushed(&mut spectator, "the game created", |e| {
        e.rounds
            .first()
            .is_some_and(|r| r.games[0].match_id.is_some())
    })
    .await;
    let game = &paired.rounds[0].games[0];
    let match_id = game.match_id.clone().unwrap();
    let (white, black) = (index(&game.white), index(&game.black));

    // White's page: it watches the board first, then takes the seat from the version seen.
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookies[white].clone());
    let mut board = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    board
        .call(ClientMessage::Watch(Watch {
            target: Target::Match(match_id.clone()),
            since_v: None,
        }))
        .await
        .unwrap();
    let seen = board
        .wait_for("the board's snapshot", |m| match m {
            ServerMessage::MatchSnapshot(s) => Some(s.clone()),
            _ => None,
        })
        .await
        .unwrap();
    assert!(
        !seen.white.as_ref().unwrap().connected,
        "nobody at the board yet"
    );
    let id_reclaim = board
        .send(ClientMessage::Reclaim(Reclaim {
            match_id: match_id.clone(),
            since_v: Some(seen.v),
        }))
        .await
        .unwrap();
    let seat = board
        .wait_for("the seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id_reclaim => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap();
    board
        .wait_for(
            "white back at the board, on white's own page",
            |m| match m {
                ServerMessage::MatchEvent(e) => {
                    matches!(e.event, MatchEvent::PlayerReturned(Side::White)).then_some(())
                }
                _ => None,
            },
        )
        .await
        .unwrap();
    let seat = SeatAction {
        match_id: seat.match_id,
        token: seat.token,
    };
    play_move(&mut board, &seat, &[32, 28]).await;

    // Black sits down: a claim against a member at the board is refused.
    let (black_client, _) = sit(addr, &cookies[black], &match_id).await;
    board
        .wait_for("black at the board", |m| match m {
            ServerMessage::MatchEvent(e) => {
                matches!(e.event, MatchEvent::PlayerReturned(Side::Black)).then_some(())
            }
            _ => None,
        })
        .await
        .unwrap();
    let claim = ClientMessage::Claim(Claim {
        match_id: match_id.clone(),
        token: seat.token.clone(),
        kind: ClaimKind::Win,
    });
    let refused = board.send(claim.clone()).await.unwrap();
    let refusal = board
        .expect_error(refused, ErrorCode::NotAllowed)
        .await
        .unwrap();
    assert!(refusal.message.contains("connected"), "{refusal:?}");

    // Black leaves; after the grace (2 s, on Black's turn) White's claim wins.
    black_client.close().await;
    board
        .wait_for("black gone", |m| match m {
            ServerMessage::MatchEvent(e) => {
                matches!(&e.event, MatchEvent::PlayerLeft(a) if a.side == Side::Black).then_some(())
            }
            _ => None,
        })
        .await
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let asked = board.send(claim.clone()).await.unwrap();
        match board.expect_reply(asked).await.unwrap() {
            ServerMessage::Ack(_) => break,
            ServerMessage::Error(error) if error.code == ErrorCode::NotAllowed => {
                assert!(Instant::now() < deadline, "never claimable: {error:?}");
                tokio::time::sleep(Duration::from_millis(300)).await;
            }
            other => panic!("{other:?}"),
        }
    }
    let over = pushed(&mut spectator, "the claimed result", |e| {
        e.status == ClubEventStatus::Finished
    })
    .await;
    // Black never moved: the claim ends the game as a forfeit of Black's.
    assert_eq!(over.rounds[0].games[0].result.as_deref(), Some("1F-0F"));
    assert_eq!(over.standings[0].name, name(white), "{over:?}");
    assert_eq!(over.standings[0].score, "1");
}

/// The list of events under a long life (`GET /api/events?page=N`): a club that ran more
/// events than a page holds gets its waiting and running events on every page and its
/// finished ones `per_page` at a time, newest first, with `more` while older ones follow;
/// paging through shows every finished event once, none missing, none repeated. A page that
/// is not a number is refused in words.
#[tokio::test(flavor = "multi_thread")]
async fn a_club_with_more_events_than_a_page_lists_them_page_by_page() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    create_user(&server, "Organiser", true);
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let later = unix_ms() + 3_600_000;
    let waiting = create_swiss(addr, &organiser, "Next week", later);
    // 45 events that start now with nobody in them: each is over at once. A millisecond
    // apart, so newest first is one order.
    const FINISHED: usize = 45;
    let mut made = Vec::new();
    for i in 0..FINISHED {
        let body =
            format!(r#"{{"name":"Old {i}","kind":"swiss","time_control":"5+3","rounds":3}}"#);
        made.push(create_event(addr, &organiser, &body));
        std::thread::sleep(Duration::from_millis(2));
    }
    made.reverse();
    let page = |n: u32| -> Value {
        let (status, body) = request(addr, "GET", &format!("/api/events?page={n}"), "", "");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).unwrap()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while page(0)["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["status"] != "finished")
        .count()
        > 1
    {
        assert!(Instant::now() < deadline, "the empty events never finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let mut listed = Vec::new();
    for n in 0..3 {
        let answer = page(n);
        assert_eq!(
            (answer["page"].as_u64(), answer["per_page"].as_u64()),
            (Some(u64::from(n)), Some(20))
        );
        assert_eq!(answer["more"], n < 2, "page {n}");
        assert_eq!(
            answer["more_current"], false,
            "the one waiting event is listed"
        );
        assert_eq!(answer["can_create"], false, "asked without a cookie");
        let events = answer["events"].as_array().unwrap();
        assert_eq!(
            events[0]["id"],
            waiting.as_str(),
            "the waiting event on every page"
        );
        assert_eq!(events[0]["status"], "waiting");
        let finished: Vec<String> = events[1..]
            .iter()
            .map(|e| {
                assert_eq!(e["status"], "finished", "{e}");
                e["id"].as_str().unwrap().to_owned()
            })
            .collect();
        assert_eq!(finished.len(), if n < 2 { 20 } else { 5 }, "page {n}");
        listed.extend(finished);
    }
    assert_eq!(listed, made, "every finished event once, newest first");
    let past = page(3);
    assert_eq!(
        past["events"].as_array().unwrap().len(),
        1,
        "only the waiting event"
    );
    assert_eq!(past["more"], false);
    // No page asked: the first.
    let (status, body) = request(addr, "GET", "/api/events", &organiser, "");
    assert_eq!(status, 200, "{body}");
    let first: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(first["events"], page(0)["events"]);
    assert_eq!(
        (first["page"].as_u64(), first["can_create"].as_bool()),
        (Some(0), Some(true))
    );
    let (status, body) = request(addr, "GET", "/api/events?page=last", "", "");
    assert_eq!(status, 400, "{body}");
    let refused: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(refused["error"]["code"], "invalid_argument", "{body}");
}

/// A join or withdrawal the page sends again with the same `request` id (its answer was lost,
/// or it was told `event_moving`) is answered as done, not `already_joined` or `not_joined`;
/// a request with another id (a second tab) is still refused, and a bad id is refused in words.
#[tokio::test(flavor = "multi_thread")]
async fn a_join_or_withdrawal_sent_again_with_its_request_id_is_answered_as_done() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    create_user(&server, "Organiser", true);
    create_user(&server, &name(0), false);
    let addr = server.addr();
    let organiser = login(addr, "Organiser");
    let member = login(addr, &name(0));
    let later = unix_ms() + 3_600_000;
    let id = create_swiss(addr, &organiser, "Club Swiss", later);
    let ask = |what: &str, request: &str| {
        let body = format!(r#"{{"request":"{request}"}}"#);
        request_code(addr, &format!("/api/events/{id}/{what}"), &member, &body)
    };
    assert_eq!(ask("join", "j-1"), (200, None));
    assert_eq!(ask("join", "j-1"), (200, None), "sent again");
    assert_eq!(
        ask("join", "j-2"),
        (409, Some("already_joined".into())),
        "another tab"
    );
    assert_eq!(ask("withdraw", "w-1"), (200, None));
    assert_eq!(ask("withdraw", "w-1"), (200, None), "sent again");
    assert_eq!(ask("withdraw", "w-2"), (409, Some("not_joined".into())));
    assert_eq!(
        ask("join", "no spaces"),
        (400, Some("invalid_argument".into()))
    );
    assert_eq!(
        event(addr, &id)["v"],
        2,
        "one join and one withdrawal stored"
    );
}

/// `POST path` with `body`; the status and the refusal's code, if any.
fn request_code(addr: SocketAddr, path: &str, cookie: &str, body: &str) -> (u16, Option<String>) {
    let (status, answer) = request(addr, "POST", path, cookie, body);
    let code = serde_json::from_str::<Value>(&answer)
        .ok()
        .and_then(|v| v["error"]["code"].as_str().map(str::to_owned));
    (status, code)
}
