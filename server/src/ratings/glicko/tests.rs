//! The server's ratings against numbers it did not compute: Glickman's worked example, and a
//! table of games rated by an implementation written here straight from Glickman's paper
//! ("Example of the Glicko-2 system", 2013), which never calls `skillratings`.

use std::f64::consts::PI;
use std::time::{Duration, SystemTime};

use boardcast_protocol::{EndReason, MatchResult, Side};
use skillratings::glicko2::Glicko2Config;

use super::*;

const DAY: Duration = Duration::from_secs(86_400);

fn epoch() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_790_000_000)
}

fn close(what: &str, got: f64, want: f64, tolerance: f64) {
    assert!(
        (got - want).abs() <= tolerance,
        "{what}: got {got}, want {want} (± {tolerance})"
    );
}

// ---- The independent reference: Glickman's steps, one line of the paper at a time. ----

/// Steps 1–8 of the paper for one period; `(rating, rd, volatility)` on the Glicko scale.
fn reference_period(
    player: (f64, f64, f64),
    games: &[((f64, f64), f64)],
    tau: f64,
) -> (f64, f64, f64) {
    const SCALE: f64 = 173.7178;
    // Step 2: to the Glicko-2 scale.
    let mu = (player.0 - 1500.0) / SCALE;
    let phi = player.1 / SCALE;
    let sigma = player.2;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
    let e = |mu_j: f64, phi_j: f64| 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    // Step 3: the estimated variance v.
    let mut v_inverse = 0.0;
    // Step 4: the improvement Δ (its sum, before multiplying by v).
    let mut improvement = 0.0;
    for &((rating_j, rd_j), score) in games {
        let mu_j = (rating_j - 1500.0) / SCALE;
        let phi_j = rd_j / SCALE;
        let expected = e(mu_j, phi_j);
        v_inverse += g(phi_j).powi(2) * expected * (1.0 - expected);
        improvement += g(phi_j) * (score - expected);
    }
    let v = 1.0 / v_inverse;
    let delta = v * improvement;
    // Step 5: the new volatility by the Illinois algorithm.
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > 0.000_001 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b < 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    let sigma_new = (big_a / 2.0).exp();
    // Step 6: the pre-period value φ*.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    // Step 7: new φ and μ.
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * improvement;
    // Step 8: back to the Glicko scale.
    (mu_new * SCALE + 1500.0, phi_new * SCALE, sigma_new)
}

/// lila's rules around the paper, written out again: RD grown by days × 0.21436 periods
/// (at most 500), one period, then the 700 cap, the 400 floor, RD in [45, 500], σ ≤ 0.1.
fn reference_game(
    player: (f64, f64, f64),
    days_away: Option<f64>,
    opponent: (f64, f64, f64),
    opponent_days_away: Option<f64>,
    score: f64,
) -> (f64, f64, f64) {
    let grow = |(rating, rd, vol): (f64, f64, f64), days: Option<f64>| {
        let periods = days.unwrap_or(0.0) * 0.21436;
        let rd_now = ((rd / 173.7178).powi(2) + vol * vol * periods).sqrt() * 173.7178;
        (rating, rd_now.min(500.0), vol)
    };
    let me = grow(player, days_away);
    let them = grow(opponent, opponent_days_away);
    let (rating, rd, vol) = reference_period(me, &[((them.0, them.1), score)], 0.75);
    let rating = rating.clamp(player.0 - 700.0, player.0 + 700.0).max(400.0);
    (rating, rd.clamp(45.0, 500.0), vol.min(0.1))
}

// ---- The tests. ----

#[test]
fn glickmans_example_matches_the_paper_unrounded() {
    let config = Glicko2Config {
        tau: 0.5,
        convergence_tolerance: CONVERGENCE_TOLERANCE,
    };
    let player = Glicko {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opponent = |rating, deviation| Glicko {
        rating,
        deviation,
        volatility: 0.06,
    };
    let new = rating_period(
        player,
        &[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ],
        &config,
    );
    close("rating", new.rating, 1464.05, 0.01);
    close("deviation", new.deviation, 151.52, 0.01);
    close("volatility", new.volatility, 0.059996, 0.000_001);
    // The reference written here agrees with the paper too, so it can judge the table below.
    let (rating, rd, vol) = reference_period(
        (1500.0, 200.0, 0.06),
        &[
            ((1400.0, 30.0), 1.0),
            ((1550.0, 100.0), 0.0),
            ((1700.0, 300.0), 0.0),
        ],
        0.5,
    );
    close("reference rating", rating, 1464.05, 0.01);
    close("reference deviation", rd, 151.52, 0.01);
    close("reference volatility", vol, 0.059996, 0.000_001);
}

/// One row of the table: White, Black (rating, RD, σ, days since the last rated game or `None`
/// for a first game) and the score.
struct Row {
    name: &'static str,
    white: (f64, f64, f64, Option<f64>),
    black: (f64, f64, f64, Option<f64>),
    score: Score,
}

fn perf((rating, deviation, volatility, days): (f64, f64, f64, Option<f64>)) -> Perf {
    Perf {
        glicko: Glicko {
            rating,
            deviation,
            volatility,
        },
        rated_games: if days.is_some() { 20 } else { 0 },
        last_rated: days.map(|days| epoch() - DAY.mul_f64(days)),
    }
}

fn table() -> Vec<Row> {
    use Score::{BlackWins as L, Draw as D, WhiteWins as W};
    let new = (1500.0, 500.0, 0.09, None);
    let row = |name, white, black, score| Row {
        name,
        white,
        black,
        score,
    };
    vec![
        row("two new players, white wins", new, new, W),
        row("two new players, draw", new, new, D),
        row("two new players, black wins", new, new, L),
        row(
            "new beats established",
            new,
            (1700.0, 60.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "new draws established",
            new,
            (1700.0, 60.0, 0.06, Some(1.0)),
            D,
        ),
        row(
            "new loses to established",
            new,
            (1300.0, 80.0, 0.06, Some(2.0)),
            L,
        ),
        row(
            "established beats new",
            (1850.0, 50.0, 0.06, Some(0.5)),
            new,
            W,
        ),
        row(
            "established, equal, win",
            (1600.0, 60.0, 0.06, Some(1.0)),
            (1600.0, 60.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "established, equal, draw",
            (1600.0, 60.0, 0.06, Some(1.0)),
            (1600.0, 60.0, 0.06, Some(1.0)),
            D,
        ),
        row(
            "established, upset",
            (1400.0, 70.0, 0.06, Some(3.0)),
            (1900.0, 55.0, 0.06, Some(0.2)),
            W,
        ),
        row(
            "established, favourite draws",
            (2100.0, 48.0, 0.059, Some(0.1)),
            (1800.0, 90.0, 0.065, Some(4.0)),
            D,
        ),
        row(
            "established, favourite wins",
            (2100.0, 48.0, 0.059, Some(0.1)),
            (1800.0, 90.0, 0.065, Some(4.0)),
            W,
        ),
        row(
            "RD at the floor of 45",
            (1700.0, 45.0, 0.06, Some(0.0)),
            (1720.0, 45.0, 0.06, Some(0.0)),
            L,
        ),
        row(
            "a month away",
            (1650.0, 60.0, 0.06, Some(30.0)),
            (1640.0, 60.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "a year away (RD 60 grows towards 110)",
            (1650.0, 60.0, 0.06, Some(365.0)),
            (1640.0, 60.0, 0.06, Some(1.0)),
            L,
        ),
        row(
            "ten years away (RD back at 500)",
            (1650.0, 60.0, 0.09, Some(3650.0)),
            (1640.0, 60.0, 0.06, Some(1.0)),
            D,
        ),
        row(
            "both long away",
            (1500.0, 120.0, 0.07, Some(200.0)),
            (1550.0, 200.0, 0.08, Some(700.0)),
            W,
        ),
        row(
            "high volatility wins",
            (1500.0, 150.0, 0.099, Some(10.0)),
            (1500.0, 150.0, 0.04, Some(10.0)),
            W,
        ),
        row(
            "floor: 410 loses",
            (410.0, 200.0, 0.06, Some(5.0)),
            (900.0, 100.0, 0.06, Some(5.0)),
            L,
        ),
        row(
            "floor: 400 loses to an equal player",
            (400.0, 300.0, 0.06, Some(5.0)),
            (400.0, 60.0, 0.06, Some(5.0)),
            L,
        ),
        row(
            "floor: new player loses to a weak one",
            new,
            (420.0, 50.0, 0.06, Some(1.0)),
            L,
        ),
        row(
            "cap: new player beats a master",
            new,
            (2800.0, 45.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "cap: new player loses to a beginner",
            new,
            (500.0, 45.0, 0.06, Some(1.0)),
            L,
        ),
        row(
            "cap: master loses to new player",
            (2800.0, 45.0, 0.06, Some(1.0)),
            new,
            L,
        ),
        row(
            "provisional against provisional",
            (1450.0, 180.0, 0.08, Some(2.0)),
            (1580.0, 140.0, 0.085, Some(6.0)),
            D,
        ),
        row(
            "strong against weak, expected win",
            (2300.0, 50.0, 0.06, Some(1.0)),
            (1300.0, 50.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "strong against weak, shock loss",
            (2300.0, 50.0, 0.06, Some(1.0)),
            (1300.0, 50.0, 0.06, Some(1.0)),
            L,
        ),
        row(
            "same day, second game",
            (1500.0, 90.0, 0.06, Some(0.01)),
            (1510.0, 90.0, 0.06, Some(0.02)),
            D,
        ),
        row(
            "first game for black, established white",
            (1750.0, 65.0, 0.06, Some(3.0)),
            new,
            D,
        ),
        row(
            "volatility at its cap",
            (1600.0, 100.0, 0.1, Some(1.0)),
            (2200.0, 50.0, 0.06, Some(1.0)),
            W,
        ),
        row(
            "low volatility, long away, loses",
            (1900.0, 50.0, 0.03, Some(90.0)),
            (1880.0, 70.0, 0.06, Some(2.0)),
            L,
        ),
        row(
            "weak new player draws",
            new,
            (1100.0, 70.0, 0.06, Some(1.0)),
            D,
        ),
    ]
}

#[test]
fn a_table_of_games_matches_the_independent_reference_to_a_hundredth() {
    let rows = table();
    assert!(rows.len() >= 30);
    let (mut capped, mut floored) = (0, 0);
    for row in &rows {
        let white = perf(row.white);
        let black = perf(row.black);
        let change = rate_game(&white, &black, row.score, epoch());
        for (side, me, them, got) in [
            (Side::White, row.white, row.black, change.white),
            (Side::Black, row.black, row.white, change.black),
        ] {
            let (rating, rd, vol) = reference_game(
                (me.0, me.1, me.2),
                me.3,
                (them.0, them.1, them.2),
                them.3,
                row.score.points(side),
            );
            let what = |field| format!("{} ({side:?}): {field}", row.name);
            close(&what("rating"), got.after.glicko.rating, rating, 0.01);
            close(&what("deviation"), got.after.glicko.deviation, rd, 0.01);
            close(
                &what("volatility"),
                got.after.glicko.volatility,
                vol,
                0.000_01,
            );
            assert_eq!(got.after.rated_games, got.before.rated_games + 1);
            assert_eq!(got.after.last_rated, Some(epoch()));
            if (got.after.glicko.rating - me.0).abs() == MAX_CHANGE_PER_GAME {
                capped += 1;
            }
            if got.after.glicko.rating == RATING_FLOOR {
                floored += 1;
            }
        }
    }
    // The table reaches the limits it claims to cover.
    assert!(capped >= 3, "only {capped} updates hit the 700 cap");
    assert!(floored >= 2, "only {floored} updates hit the 400 floor");
}

#[test]
fn rd_grows_by_fractional_periods_as_lila_says_60_to_110_in_a_year() {
    let perf = Perf {
        glicko: Glicko {
            rating: 1800.0,
            deviation: 60.0,
            volatility: 0.06,
        },
        rated_games: 50,
        last_rated: Some(epoch()),
    };
    // √(60² + (0.06 × 173.7178)² × 365 × 0.21436), worked by hand: 110.0.
    let year = perf.deviation_at(epoch() + DAY * 365);
    close("a year", year, 110.0, 0.05);
    // A fraction of a day counts: half a day is 0.10718 periods, not zero and not one.
    let half_day = perf.deviation_at(epoch() + DAY / 2);
    let expected = (60.0f64.powi(2) + (0.06 * 173.7178f64).powi(2) * 0.5 * 0.21436).sqrt();
    close("half a day", half_day, expected, 1e-9);
    assert!(half_day > 60.0);
    // Never more than 500; no growth when the clock went backwards.
    assert_eq!(perf.deviation_at(epoch() + DAY * 100_000), MAX_DEVIATION);
    close("backwards", perf.deviation_at(epoch() - DAY), 60.0, 1e-9);
    assert_eq!(Perf::NEW.deviation_at(epoch()), 500.0);
}

#[test]
fn provisional_and_ladder_follow_rd_and_recent_play() {
    let mut perf = Perf {
        glicko: Glicko {
            rating: 1800.0,
            deviation: 70.0,
            volatility: 0.06,
        },
        rated_games: 50,
        last_rated: Some(epoch()),
    };
    assert!(!perf.is_provisional(epoch()));
    assert!(perf.on_ladder(epoch() + DAY * 6));
    assert!(
        !perf.on_ladder(epoch() + DAY * 8),
        "no rated game for 8 days"
    );
    perf.glicko.deviation = 76.0;
    assert!(!perf.on_ladder(epoch()), "RD above 75");
    perf.glicko.deviation = 110.0;
    assert!(perf.is_provisional(epoch()));
    perf.glicko.deviation = 109.0;
    assert!(!perf.is_provisional(epoch()));
    assert!(
        perf.is_provisional(epoch() + DAY * 30),
        "RD grown past 110 by time away"
    );
    assert!(Perf::NEW.is_provisional(epoch()));
    assert!(!Perf::NEW.on_ladder(epoch()));
}

#[test]
fn a_new_players_first_win_is_shown_as_the_rounded_difference() {
    let change = rate_game(&Perf::NEW, &Perf::NEW, Score::WhiteWins, epoch());
    assert!(change.white.delta() > 0 && change.black.delta() < 0);
    assert_eq!(
        change.white.before.display_rating() + change.white.delta(),
        change.white.after.display_rating()
    );
    // Equal players: the gains mirror each other.
    close(
        "mirror",
        change.white.after.glicko.rating - 1500.0,
        1500.0 - change.black.after.glicko.rating,
        1e-9,
    );
}

fn result(winner: Option<Side>, reason: EndReason) -> MatchResult {
    MatchResult {
        winner,
        reason,
        detail: String::new(),
        rating_change: None,
    }
}

#[test]
fn only_played_games_are_rated() {
    use EndReason::*;
    assert_eq!(
        rated_score(&result(None, Aborted), 10),
        Err(Unrated::NoResult)
    );
    assert_eq!(
        rated_score(&result(None, Abandoned), 10),
        Err(Unrated::NoResult)
    );
    assert_eq!(
        rated_score(&result(Some(Side::White), Resignation), 3),
        Err(Unrated::TooShort { plies: 3 }),
        "black made only one move"
    );
    assert_eq!(
        rated_score(&result(Some(Side::Black), TimeForfeit), 0),
        Err(Unrated::TooShort { plies: 0 })
    );
    assert_eq!(
        rated_score(&result(Some(Side::White), Resignation), 4),
        Ok(Score::WhiteWins)
    );
    assert_eq!(
        rated_score(&result(Some(Side::Black), Abandoned), 9),
        Ok(Score::BlackWins)
    );
    assert_eq!(
        rated_score(&result(None, DrawByAgreement), 40),
        Ok(Score::Draw)
    );
    assert_eq!(rated_score(&result(None, DrawClaimed), 12), Ok(Score::Draw));
    assert_eq!(
        rated_score(&result(Some(Side::White), NoLegalMove), 31),
        Ok(Score::WhiteWins)
    );
}

fn any_perf() -> impl proptest::strategy::Strategy<Value = (f64, f64, f64, Option<f64>)> {
    (
        400.0..3000.0f64,
        45.0..500.0f64,
        0.03..0.1f64,
        proptest::option::of(0.0..4000.0f64),
    )
}

fn any_score() -> impl proptest::strategy::Strategy<Value = Score> {
    proptest::sample::select(vec![Score::WhiteWins, Score::Draw, Score::BlackWins])
}

proptest::proptest! {
    /// Any two players and any result: the server agrees with the reference, keeps lila's
    /// limits, moves a winner up and a loser down, and does not care who had White.
    #[test]
    fn any_game_matches_the_reference_and_keeps_the_limits(
        white in any_perf(),
        black in any_perf(),
        score in any_score(),
    ) {
        let (w, b) = (perf(white), perf(black));
        let change = rate_game(&w, &b, score, epoch());
        for (side, me, them, got) in [
            (Side::White, white, black, change.white),
            (Side::Black, black, white, change.black),
        ] {
            let points = score.points(side);
            let (rating, rd, vol) =
                reference_game((me.0, me.1, me.2), me.3, (them.0, them.1, them.2), them.3, points);
            let after = got.after.glicko;
            close("rating", after.rating, rating, 0.01);
            close("deviation", after.deviation, rd, 0.01);
            close("volatility", after.volatility, vol, 0.000_01);
            proptest::prop_assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&after.deviation));
            proptest::prop_assert!(after.volatility <= MAX_VOLATILITY);
            proptest::prop_assert!(after.rating >= RATING_FLOOR);
            proptest::prop_assert!((after.rating - me.0).abs() <= MAX_CHANGE_PER_GAME + 1e-9);
            if points == 1.0 {
                proptest::prop_assert!(after.rating >= me.0, "a win never costs points");
            }
            if points == 0.0 {
                proptest::prop_assert!(after.rating <= me.0.max(RATING_FLOOR), "a loss never gains");
            }
        }
        let mirrored = match score {
            Score::WhiteWins => Score::BlackWins,
            Score::BlackWins => Score::WhiteWins,
            Score::Draw => Score::Draw,
        };
        let swapped = rate_game(&b, &w, mirrored, epoch());
        proptest::prop_assert_eq!(swapped.black, change.white);
        proptest::prop_assert_eq!(swapped.white, change.black);
    }
}
