//! Rated play end to end on the real server binary (issue 31), over the JSON protocol.
//!
//! - Two new members play a rated reference game: the `ended` event, the snapshot, the PDN and
//!   `/api/user` carry exactly the change an independent Glicko-2 (Glickman's steps, written
//!   again below, never the server's code) gives; two established members (their earlier
//!   rating rows seeded into the database) play a short rated game and appear on `/api/ladder`
//!   with the ratings the reference gives after their time away.
//! - Hostile: a guest asking for a rated match or play now, a guest joining a rated seek, a
//!   member outside a seek's range, a member joining their own rated seek with `myself`; the
//!   lobby hides what each would be refused.
//! - `kill -9` at seeded moments around the ends of rated games: after each restart every
//!   rated finished game has exactly one rating change per player, and none is left without.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::time::Duration;

use boardcast_protocol::{
    ClientMessage, ColorChoice, CreateMatch, Encoding, ErrorCode, JoinMatch, MatchEvent,
    MatchResult, MatchSummary, PlayMove, PoolPreset, RatingDiff, Seat, SeatAction, ServerMessage,
    Side,
};
use boardcast_tests::TestServer;
use boardcast_tests::client::{Client, ConnectOptions};
use boardcast_tests::games::{RefGame, reference_games};
use boardcast_tests::members::{create_member, login_cookie};

fn server_program() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_boardcast-server-e2e"))
}

const PASSWORD: &str = "Tulpen-in-Dokkum-1921";
const DAY_MS: f64 = 86_400_000.0;

// ---- An independent Glicko-2: Glickman's paper, step by step, and lila's rules around it. ----

/// `(rating, rd, volatility)` on the Glicko scale.
type Rating = (f64, f64, f64);

/// One rating period with one game; steps 2–8 of "Example of the Glicko-2 system".
fn paper_period(player: Rating, opponent: (f64, f64), score: f64) -> Rating {
    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.75;
    let (mu, phi, sigma) = ((player.0 - 1500.0) / SCALE, player.1 / SCALE, player.2);
    let (mu_j, phi_j) = ((opponent.0 - 1500.0) / SCALE, opponent.1 / SCALE);
    let g = 1.0 / (1.0 + 3.0 * phi_j * phi_j / (std::f64::consts::PI.powi(2))).sqrt();
    let expected = 1.0 / (1.0 + (-g * (mu - mu_j)).exp());
    let v = 1.0 / (g * g * expected * (1.0 - expected));
    let delta = v * g * (score - expected);
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let (mut big_a, mut big_b) = (a, 0.0);
    if delta * delta > phi * phi + v {
        big_b = (delta * delta - phi * phi - v).ln();
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        big_b = big_b.min(a - k * TAU);
    }
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 0.000_001 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b < 0.0 {
            (big_a, f_a) = (big_b, f_b);
        } else {
            f_a /= 2.0;
        }
        (big_b, f_b) = (big_c, f_c);
    }
    let sigma_new = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * g * (score - expected);
    (mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
}

/// lila's game: both RDs grown by `days × 0.21436` periods (at most 500), one period each,
/// then the 700 cap, the 400 floor, RD within [45, 500], σ at most 0.1. Returns White's and
/// Black's new ratings.
fn reference_game(
    white: Rating,
    white_days: f64,
    black: Rating,
    black_days: f64,
    white_score: f64,
) -> (Rating, Rating) {
    let grow = |(r, rd, vol): Rating, days: f64| {
        let grown = ((rd / 173.7178).powi(2) + vol * vol * days * 0.21436).sqrt() * 173.7178;
        (r, grown.min(500.0), vol)
    };
    let (w, b) = (grow(white, white_days), grow(black, black_days));
    let limit = |before: Rating, (r, rd, vol): Rating| {
        let r = r.clamp(before.0 - 700.0, before.0 + 700.0).max(400.0);
        (r, rd.clamp(45.0, 500.0), vol.min(0.1))
    };
    (
        limit(white, paper_period(w, (b.0, b.1), white_score)),
        limit(black, paper_period(b, (w.0, w.1), 1.0 - white_score)),
    )
}

const NEW: Rating = (1500.0, 500.0, 0.09);

fn shown(before: Rating, after: Rating) -> RatingDiff {
    let (b, a) = (before.0.round(), after.0.round());
    RatingDiff {
        before: b as u16,
        after: a as u16,
        diff: (a - b) as i16,
        provisional: after.1 >= 110.0,
    }
}

fn close(what: &str, got: f64, want: f64) {
    assert!((got - want).abs() <= 0.01, "{what}: got {got}, want {want}");
}

// ---- HTTP, accounts and seats. ----

fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_owned(), body.to_owned())
}

fn json(addr: SocketAddr, path: &str) -> serde_json::Value {
    let (status, _, body) = request(addr, "GET", path, "");
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap()
}

/// Creates member `name` with `boardcast-server admin create-user`.
fn create_user(db: &Path, name: &str) {
    create_member(server_program(), db, name, PASSWORD, false);
}

/// Logs `name` in over HTTP: the session cookie.
fn login(addr: SocketAddr, name: &str) -> String {
    login_cookie(addr, name, PASSWORD)
}

async fn connect_as(addr: SocketAddr, cookie: &str) -> Client {
    let options = ConnectOptions::encoding(Encoding::Json).header("Cookie", cookie.to_owned());
    Client::connect_with(addr, Encoding::Json, &options)
        .await
        .unwrap()
}

async fn seat_for(client: &mut Client, id: u64) -> Seat {
    client
        .wait_for("seat", |m| match m {
            ServerMessage::Seat(seat) if seat.id == id => Some(seat.clone()),
            _ => None,
        })
        .await
        .unwrap()
}

fn rated_seek(color: ColorChoice, rating_range: Option<u16>) -> ClientMessage {
    ClientMessage::CreateMatch(CreateMatch {
        time_control: None,
        color,
        public: true,
        rated: true,
        rating_range,
    })
}

/// White creates a rated public seek, Black joins it by id: both seats.
async fn rated_match(white: &mut Client, black: &mut Client) -> (Seat, Seat) {
    let id = white
        .send(rated_seek(ColorChoice::White, None))
        .await
        .unwrap();
    let white_seat = seat_for(white, id).await;
    let id = black
        .send(ClientMessage::JoinMatch(JoinMatch::Id(
            white_seat.match_id.clone(),
        )))
        .await
        .unwrap();
    (white_seat, seat_for(black, id).await)
}

/// Plays `routes` alternately from White, each move acknowledged before the next.
async fn play(players: [(&mut Client, &Seat); 2], routes: &[Vec<u8>]) {
    let [white, black] = players;
    let mut seats = [white, black];
    for (ply, route) in routes.iter().enumerate() {
        let (client, seat) = &mut seats[ply % 2];
        let id = client
            .send(ClientMessage::Move(PlayMove {
                match_id: seat.match_id.clone(),
                token: seat.token.clone(),
                route: route.clone(),
                lag_ms: None,
            }))
            .await
            .unwrap();
        client.expect_ack(id).await.unwrap();
    }
}

/// The `ended` event of `match_id` as `client` receives it.
async fn ended(client: &mut Client, match_id: &str) -> MatchResult {
    client
        .wait_for("ended", |m| match m {
            ServerMessage::MatchEvent(e) if e.match_id == match_id => match &e.event {
                MatchEvent::Ended(result) => Some(result.clone()),
                _ => None,
            },
            _ => None,
        })
        .await
        .unwrap()
}

/// A decisive reference game White wins from the initial position, the shortest.
fn white_win() -> &'static RefGame {
    reference_games()
        .iter()
        .filter(|g| g.winner == Some(Side::White) && g.moves.len() >= 4)
        .filter(|g| {
            g.start_fen
                .starts_with("W:W31,32,33,34,35,36,37,38,39,40,41")
        })
        .min_by_key(|g| g.moves.len())
        .expect("a reference game White wins")
}

/// Seeds `name`'s earlier rated games: one rating row, `days` ago.
fn seed_rating(db: &Path, name: &str, rating: Rating, games_before: i64, days: f64) -> i64 {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let account: i64 = conn
        .query_row("SELECT id FROM accounts WHERE name = ?1", [name], |row| {
            row.get(0)
        })
        .unwrap();
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let at_ms = now_ms - (days * DAY_MS) as i64;
    conn.execute(
        "INSERT INTO rating_changes (match_id, account_id, games_before, at_ms, rating_before, \
         rating, deviation, volatility) VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7)",
        rusqlite::params![
            format!("seed-{name}"),
            account,
            games_before,
            at_ms,
            rating.0,
            rating.1,
            rating.2
        ],
    )
    .unwrap();
    at_ms
}

/// `match_id`'s rating rows: `(account name, at_ms)`.
fn rating_rows(db: &Path, match_id: &str) -> Vec<(String, i64)> {
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT a.name, r.at_ms FROM rating_changes r JOIN accounts a ON a.id = r.account_id \
             WHERE r.match_id = ?1 ORDER BY a.name",
        )
        .unwrap();
    stmt.query_map([match_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn two_members_play_rated_games_and_ratings_profiles_pdn_and_ladder_follow_glicko() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let (addr, db) = (server.addr(), server.db());
    for name in ["Anne", "Bauke", "Cees", "Dieke"] {
        create_user(&db, name);
    }
    let mut anne = connect_as(addr, &login(addr, "Anne")).await;
    let mut bauke = connect_as(addr, &login(addr, "Bauke")).await;

    // Two new members play a reference game to its end: White (Anne) wins.
    let game = white_win();
    let (white, black) = rated_match(&mut anne, &mut bauke).await;
    play([(&mut anne, &white), (&mut bauke, &black)], &game.routes).await;
    let result = ended(&mut bauke, &white.match_id).await;
    game.check_result(&result).unwrap();
    let (anne_after, bauke_after) = reference_game(NEW, 0.0, NEW, 0.0, 1.0);
    let change = result
        .rating_change
        .expect("a rated result carries its change");
    assert_eq!(change.white, shown(NEW, anne_after));
    assert_eq!(change.black, shown(NEW, bauke_after));
    assert!(change.white.diff > 0 && change.white.provisional);
    // The winner's own `ended` says the same.
    assert_eq!(
        ended(&mut anne, &white.match_id).await.rating_change,
        Some(change)
    );

    let profile = json(addr, "/api/user/anne");
    close(
        "Anne's rating",
        profile["rating"].as_f64().unwrap(),
        anne_after.0,
    );
    assert!((profile["rd"].as_f64().unwrap() - anne_after.1).abs() < 0.01);
    close(
        "Anne's volatility",
        profile["volatility"].as_f64().unwrap(),
        anne_after.2,
    );
    assert_eq!(profile["rated_games"], 1);
    assert_eq!(profile["provisional"], true);
    // Anne's best win is this game against Bauke, at his rating as it began; Bauke has none.
    assert_eq!(profile["best_win"]["name"], "Bauke", "{profile}");
    assert_eq!(profile["best_win"]["match_id"], white.match_id.as_str());
    close(
        "the best win's rating",
        profile["best_win"]["rating"].as_f64().unwrap(),
        NEW.0,
    );
    let profile = json(addr, "/api/user/bauke");
    close(
        "Bauke's rating",
        profile["rating"].as_f64().unwrap(),
        bauke_after.0,
    );
    assert!(profile["best_win"].is_null(), "{profile}");
    let history = json(addr, "/api/user/Bauke/rating-history");
    assert_eq!(history.as_array().unwrap().len(), 1, "{history}");
    assert_eq!(
        history[0]["rating"].as_f64().unwrap().round(),
        bauke_after.0.round()
    );

    let (status, pdn) =
        boardcast_tests::http_get(addr, &format!("/games/{}.pdn", white.match_id)).unwrap();
    assert_eq!(status, 200);
    let tags = format!(
        "[Rated \"true\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n\
         [WhiteRatingDiff \"+{}\"]\n[BlackRatingDiff \"{}\"]\n",
        change.white.diff, change.black.diff
    );
    assert!(pdn.contains(&tags), "{pdn}");

    // Two established members (rows seeded as if from earlier games) play a short rated
    // game that Black resigns, and are then on the ladder.
    let cees_before = (1650.0, 60.0, 0.06);
    let dieke_before = (1580.0, 70.0, 0.061);
    let cees_at = seed_rating(&db, "Cees", cees_before, 29, 2.0);
    let dieke_at = seed_rating(&db, "Dieke", dieke_before, 40, 1.0);
    let mut cees = connect_as(addr, &login(addr, "Cees")).await;
    let mut dieke = connect_as(addr, &login(addr, "Dieke")).await;
    let (white, black) = rated_match(&mut cees, &mut dieke).await;
    play(
        [(&mut cees, &white), (&mut dieke, &black)],
        &game.routes[..4],
    )
    .await;
    let id = dieke
        .send(ClientMessage::Resign(SeatAction {
            match_id: black.match_id.clone(),
            token: black.token.clone(),
        }))
        .await
        .unwrap();
    dieke.expect_ack(id).await.unwrap();
    let result = ended(&mut cees, &white.match_id).await;
    let rows = rating_rows(&db, &white.match_id);
    assert_eq!(rows.len(), 2, "one rating row per player: {rows:?}");
    let at = rows[0].1;
    let (cees_after, dieke_after) = reference_game(
        cees_before,
        (at - cees_at) as f64 / DAY_MS,
        dieke_before,
        (at - dieke_at) as f64 / DAY_MS,
        1.0,
    );
    let change = result.rating_change.unwrap();
    assert_eq!(change.white, shown(cees_before, cees_after));
    assert_eq!(change.black, shown(dieke_before, dieke_after));
    let profile = json(addr, "/api/user/Cees");
    close(
        "Cees' rating",
        profile["rating"].as_f64().unwrap(),
        cees_after.0,
    );
    close("Cees' RD", profile["rd"].as_f64().unwrap(), cees_after.1);
    assert_eq!(profile["rated_games"], 31);
    let ladder = json(addr, "/api/ladder");
    let names: Vec<&str> = ladder
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Cees", "Dieke"], "{ladder}");
    assert_eq!(ladder[0]["rating"], cees_after.0.round() as i64);
    assert_eq!(ladder[1]["rating"], dieke_after.0.round() as i64);
    assert!(cees_after.1 <= 75.0 && dieke_after.1 <= 75.0);
}

/// Seek `match_id` as `client`'s lobby lists it, if it does.
async fn listed_seek(client: &mut Client, match_id: &str) -> Option<MatchSummary> {
    let id = client.send(ClientMessage::ListLobby).await.unwrap();
    let lobby = client
        .wait_for("lobby", |m| match m {
            ServerMessage::Lobby(lobby) if lobby.id == id => Some(lobby.clone()),
            _ => None,
        })
        .await
        .unwrap();
    lobby.seeks.into_iter().find(|s| s.match_id == match_id)
}

#[tokio::test(flavor = "multi_thread")]
async fn guests_oneself_and_members_outside_the_range_are_refused_rated_play_and_do_not_see_it() {
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let (addr, db) = (server.addr(), server.db());
    for name in ["Anne", "Bauke", "Cees"] {
        create_user(&db, name);
    }
    // Anne is established at 1600, Bauke at 1750 (outside ±100), Cees new at 1500.
    seed_rating(&db, "Anne", (1600.0, 60.0, 0.06), 20, 1.0);
    seed_rating(&db, "Bauke", (1750.0, 60.0, 0.06), 20, 1.0);
    let mut anne = connect_as(addr, &login(addr, "Anne")).await;
    let mut bauke = connect_as(addr, &login(addr, "Bauke")).await;
    let mut cees = connect_as(addr, &login(addr, "Cees")).await;
    let mut guest = Client::connect(addr, Encoding::Json).await.unwrap();

    // A guest may not create a rated match nor press play now.
    let id = guest
        .send(rated_seek(ColorChoice::White, None))
        .await
        .unwrap();
    guest
        .expect_error(id, ErrorCode::MembersOnly)
        .await
        .unwrap();
    let id = guest
        .send(ClientMessage::PlayNow(boardcast_protocol::PlayNow {
            preset: PoolPreset::ThreePlusTwo,
        }))
        .await
        .unwrap();
    guest
        .expect_error(id, ErrorCode::MembersOnly)
        .await
        .unwrap();

    // Anne's rated seek, open to ±100.
    let id = anne
        .send(rated_seek(ColorChoice::White, Some(100)))
        .await
        .unwrap();
    let seat = seat_for(&mut anne, id).await;
    let listed = listed_seek(&mut cees, &seat.match_id)
        .await
        .expect("Cees is within ±100 of 1600");
    assert!(listed.rated);
    assert_eq!(listed.rating_range, Some(100));
    assert_eq!(listed.white_rating.map(|r| r.rating), Some(1600));
    assert!(
        listed_seek(&mut guest, &seat.match_id).await.is_none(),
        "a guest never sees it"
    );
    assert!(
        listed_seek(&mut bauke, &seat.match_id).await.is_none(),
        "1750 is outside 1600 ± 100"
    );
    assert!(
        listed_seek(&mut anne, &seat.match_id).await.is_some(),
        "the creator sees her seek"
    );

    let join = |match_id: &str| ClientMessage::JoinMatch(JoinMatch::Id(match_id.to_owned()));
    let id = guest.send(join(&seat.match_id)).await.unwrap();
    guest
        .expect_error(id, ErrorCode::MembersOnly)
        .await
        .unwrap();
    let id = bauke.send(join(&seat.match_id)).await.unwrap();
    let refused = bauke
        .expect_error(id, ErrorCode::OutsideRatingRange)
        .await
        .unwrap();
    assert!(refused.message.contains("1750"), "{}", refused.message);
    let id = anne
        .send(ClientMessage::JoinMatch(JoinMatch::Myself(
            seat.match_id.clone(),
        )))
        .await
        .unwrap();
    anne.expect_error(id, ErrorCode::NotAllowed).await.unwrap();
    // Nothing of that changed the seek: Cees, within range, takes it.
    let id = cees.send(join(&seat.match_id)).await.unwrap();
    let taken = seat_for(&mut cees, id).await;
    assert_eq!(taken.side, Side::Black);
}

/// One simulated member of the pool test.
struct Presser {
    name: String,
    rating: i32,
    client: Client,
    pressed: Option<std::time::Instant>,
    paired: Option<(std::time::Instant, boardcast_protocol::Paired)>,
}

/// The window a member who waited `waited` accepts (the server's: ±100, +10 a second, ±500).
fn window(waited: Duration) -> f64 {
    (100.0 + 10.0 * waited.as_secs_f64()).min(500.0)
}

#[tokio::test(flavor = "multi_thread")]
async fn forty_members_pressing_play_now_are_paired_within_their_windows_once_and_none_left_fitting()
 {
    use rand::{Rng, SeedableRng};
    let seed = std::env::var("POOL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(31);
    eprintln!("pool test seed {seed} (POOL_SEED)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let server = TestServer::start(server_program(), &["--log", "error"]);
    let (addr, db) = (server.addr(), server.db());
    // Ratings spread from 1100 to 1880, and two far from everyone.
    let mut ratings: Vec<i32> = (0..38)
        .map(|i| 1100 + i * 20 + rng.random_range(0..15))
        .collect();
    ratings.extend([500, 2900]);
    let mut pressers = Vec::new();
    for (i, rating) in ratings.iter().enumerate() {
        let name = format!("Pool{i:02}");
        create_user(&db, &name);
        seed_rating(&db, &name, (f64::from(*rating), 60.0, 0.06), 20, 1.0);
        pressers.push(Presser {
            client: connect_as(addr, &login(addr, &name)).await,
            name,
            rating: *rating,
            pressed: None,
            paired: None,
        });
    }
    // Each presses at a seeded moment within 10 s.
    let start = std::time::Instant::now();
    let mut at: Vec<(Duration, usize)> = (0..pressers.len())
        .map(|i| (Duration::from_millis(rng.random_range(0..10_000)), i))
        .collect();
    at.sort();
    let preset = PoolPreset::FivePlusThree;
    for (when, i) in at {
        tokio::time::sleep_until((start + when).into()).await;
        let presser = &mut pressers[i];
        let id = presser
            .client
            .send(ClientMessage::PlayNow(boardcast_protocol::PlayNow {
                preset,
            }))
            .await
            .unwrap();
        presser.pressed = Some(std::time::Instant::now());
        presser.client.expect_ack(id).await.unwrap();
    }
    // Two more ticks of the pool, then see who was paired.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let end = std::time::Instant::now();
    for presser in &mut pressers {
        while let Ok(message) = presser.client.recv(Duration::from_millis(200)).await {
            if let ServerMessage::Paired(paired) = message {
                assert!(presser.paired.is_none(), "{} paired twice", presser.name);
                presser.paired = Some((std::time::Instant::now(), paired));
            }
        }
    }
    let by_name: HashMap<&str, &Presser> = pressers.iter().map(|p| (p.name.as_str(), p)).collect();
    let mut paired = 0;
    for presser in &pressers {
        let Some((_, pairing)) = &presser.paired else {
            continue;
        };
        paired += 1;
        let other = by_name[pairing.opponent.as_str()];
        let (_, theirs) = other.paired.as_ref().expect("paired both ways");
        assert_eq!(
            theirs.opponent, presser.name,
            "one pairing, seen from both sides"
        );
        assert_eq!(theirs.seat.match_id, pairing.seat.match_id);
        assert_ne!(theirs.seat.side, pairing.seat.side);
        assert_eq!(i32::from(pairing.opponent_rating.rating), other.rating);
        // Within both windows as of the later press (a member's wait as the client saw it is
        // at least the server's, plus a second for the pool's tick).
        let later = presser.pressed.unwrap().max(other.pressed.unwrap());
        let waited =
            |p: &Presser| later.duration_since(p.pressed.unwrap()) + Duration::from_secs(2);
        let gap = f64::from(presser.rating.abs_diff(other.rating));
        let bound = window(waited(presser)).min(window(waited(other)));
        assert!(
            gap <= bound,
            "{} ({}) and {} ({}) paired {gap} apart, beyond ±{bound}",
            presser.name,
            presser.rating,
            other.name,
            other.rating
        );
    }
    // Nobody still waiting had a fitting partner waiting: as of the end (less the tick's
    // slack), each pair of unpaired members is further apart than one of their windows.
    let waiting: Vec<&Presser> = pressers.iter().filter(|p| p.paired.is_none()).collect();
    for (i, a) in waiting.iter().enumerate() {
        for b in &waiting[i + 1..] {
            let waited = |p: &Presser| {
                end.duration_since(p.pressed.unwrap())
                    .saturating_sub(Duration::from_millis(1500))
            };
            let gap = f64::from(a.rating.abs_diff(b.rating));
            assert!(
                gap > window(waited(a)).min(window(waited(b))),
                "{} ({}) and {} ({}) both still wait, {gap} apart",
                a.name,
                a.rating,
                b.name,
                b.rating
            );
        }
    }
    eprintln!(
        "{paired} of {} paired, {} waiting after {:?}",
        pressers.len(),
        waiting.len(),
        end - start
    );
    assert!(paired >= 30, "most of a spread pool is paired: {paired}");
    // Cancelling stops the wait: the far ones are told nothing more.
    for presser in pressers.iter_mut().filter(|p| p.paired.is_none()) {
        let id = presser
            .client
            .send(ClientMessage::CancelPlayNow)
            .await
            .unwrap();
        presser.client.expect_ack(id).await.unwrap();
    }
}

/// The invariant a crash must never break: every rated finished game that counts has exactly
/// one rating change per player, and no rating change belongs to a game that is not finished.
/// Returns how many rated games are finished.
fn check_rating_invariant(db: &Path) -> usize {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let mut finished = conn
        .prepare(
            "SELECT m.id, m.result, (SELECT COUNT(*) FROM rating_changes r WHERE r.match_id = m.id), \
             (SELECT COUNT(DISTINCT account_id) FROM rating_changes r WHERE r.match_id = m.id) \
             FROM matches m WHERE m.finished = 1 AND json_extract(m.setup, '$.rated') = 1",
        )
        .unwrap();
    let rows: Vec<(String, Option<String>, i64, i64)> = finished
        .query_map([], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for (id, result, changes, players) in &rows {
        // Every game of this test is resigned after four plies: it counts.
        assert_eq!(
            (*changes, *players),
            (2, 2),
            "finished rated match {id} ({result:?}) has {changes} rating changes for {players} players"
        );
    }
    let orphans: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM rating_changes r WHERE r.match_id NOT LIKE 'seed-%' AND NOT \
             EXISTS (SELECT 1 FROM matches m WHERE m.id = r.match_id AND m.finished = 1)",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0, "rating changes without a finished game");
    // Each player's rated games are counted without a gap: no change lost or doubled.
    let gaps: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM (SELECT account_id, COUNT(*) AS n, MAX(games_before) AS top \
             FROM rating_changes GROUP BY account_id) WHERE n != top + 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(gaps, 0, "a player's rated game count has a gap");
    rows.len()
}

/// One pair's rated game in the crash test: its seats and whether Black's resignation was
/// acknowledged before the kill.
struct CrashGame {
    white: Seat,
    black: Seat,
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_around_the_ends_of_rated_games_never_leaves_a_result_without_its_rating_changes() {
    use rand::{Rng, SeedableRng};
    let seed = std::env::var("CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3101);
    eprintln!("rated crash test seed {seed} (CRASH_SEED)");
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut server = TestServer::start(server_program(), &["--log", "error"]);
    let db = server.db();
    let names = ["Ate", "Bobject", "Catryn", "Douwe", "Eelkje", "Freark"];
    for name in names {
        create_user(&db, name);
    }
    let cookies: Vec<String> = names.iter().map(|n| login(server.addr(), n)).collect();
    let routes = &white_win().routes[..4];
    let mut finished_before = 0;
    for round in 0..5 {
        let addr = server.addr();
        let mut clients = Vec::new();
        for cookie in &cookies {
            clients.push(connect_as(addr, cookie).await);
        }
        // Three pairs (a different pairing each round) each play four plies of a rated game.
        let mut games = Vec::new();
        let mut pairs = Vec::new();
        for p in 0..3 {
            let (w, b) = (
                p * 2 + round % 2,
                (p * 2 + 1 + round % 2 + 2 * (round / 2)) % 6,
            );
            let (w, b) = if w == b { (w, (b + 1) % 6) } else { (w, b) };
            if pairs
                .iter()
                .any(|&(x, y)| x == w || y == w || x == b || y == b)
            {
                continue;
            }
            pairs.push((w, b));
        }
        for &(w, b) in &pairs {
            let [white_client, black_client] = clients.get_disjoint_mut([w, b]).unwrap();
            let (white, black) = rated_match(white_client, black_client).await;
            play([(white_client, &white), (black_client, &black)], routes).await;
            games.push(CrashGame { white, black });
        }
        // Every Black resigns at once, and the server is killed a seeded moment later: before,
        // between or after the ends' commits.
        for (game, &(_, b)) in games.iter().zip(&pairs) {
            clients[b]
                .send(ClientMessage::Resign(SeatAction {
                    match_id: game.black.match_id.clone(),
                    token: game.black.token.clone(),
                }))
                .await
                .unwrap();
        }
        tokio::time::sleep(Duration::from_micros(rng.random_range(0..15_000))).await;
        server.process.kill9().expect("kill -9");
        drop(clients);
        let finished_at_kill = check_rating_invariant(&db);
        server.restart(server_program());
        // After the restart each unfinished game is resigned again, now on the new run.
        let addr = server.addr();
        for (game, &(_, b)) in games.iter().zip(&pairs) {
            let mut client = connect_as(addr, &cookies[b]).await;
            // Ids go on increasing per seat across reconnects.
            client.set_next_id(1_000_000);
            let id = client
                .send(ClientMessage::Resign(SeatAction {
                    match_id: game.black.match_id.clone(),
                    token: game.black.token.clone(),
                }))
                .await
                .unwrap();
            match client.expect_reply(id).await.unwrap() {
                ServerMessage::Ack(_) => {}
                ServerMessage::Error(e) if e.code == ErrorCode::GameOver => {}
                other => panic!("resigning {} again: {other:?}", game.white.match_id),
            }
        }
        let finished = check_rating_invariant(&db);
        assert_eq!(
            finished,
            finished_before + games.len(),
            "every game finished once"
        );
        eprintln!(
            "round {round}: {} of {} rated ends committed before the kill",
            finished_at_kill - finished_before,
            games.len()
        );
        finished_before = finished;
    }
}
