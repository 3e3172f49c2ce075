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
use boardcast_pairing::swiss::{GameResult, Outcome, Swiss, SwissConfig};
use boardcast_pairing::tiebreak::standings;
use boardcast_pairing::trf::{TrfHeader, write_trf};
use boardcast_protocol::{
    ClientMessage, Encoding, MatchEvent, Reclaim, SeatAction, ServerMessage, Side,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ConnectOptions};
use boardcast_tests::members::{create_member, login_cookie};
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

/// A member at the board: connected with their cookie, their seat reclaimed by account.
async fn sit(addr: SocketAddr, cookie: &str, match_id: &str) -> (Client, SeatAction) {
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.to_owned());
    let mut client = Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap();
    let id = client
        .send(ClientMessage::Reclaim(Reclaim {
            match_id: match_id.to_owned(),
            since_v: None,
        }))
        .await
        .unwrap();
    let seat = client
        .wait_for("seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap();
    let action = SeatAction {
        match_id: seat.match_id.clone(),
        token: seat.token.clone(),
    };
    (client, action)
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
