//! What the ladder and the rating chart show, from stored ratings: pure, so `/api/ladder`,
//! `/ladder` and `/api/user/{name}/rating-history` all read the same answer.
//!
//! - The **ladder** lists members whose rating is established and current (lila's
//!   "rankable": RD ≤ 75 and a rated game in the last 7 days, [`Perf::on_ladder`]), best first;
//!   equal rounded ratings share a rank, and the name breaks the tie in the listing so that
//!   the order never depends on storage.
//! - The **history** has one point per UTC day (the rating after the day's last rated game),
//!   as lila's chart does, so a day of twenty games is one point, not twenty.

use std::time::{Duration, SystemTime};

use time::{Date, OffsetDateTime};

use super::glicko::Perf;

/// One line of the ladder.
#[derive(Debug, Clone, PartialEq)]
pub struct Rung<N> {
    /// 1 for the best; members with the same rounded rating share a rank.
    pub rank: usize,
    pub name: N,
    pub rating: i32,
    /// The RD as of now (grown since the last game).
    pub deviation: f64,
    pub rated_games: u32,
}

/// The ladder as of `now`: eligible members, best first, at most `limit` of them.
pub fn ladder<N: Ord + Clone>(
    members: &[(N, Perf)],
    now: SystemTime,
    limit: usize,
) -> Vec<Rung<N>> {
    let mut eligible: Vec<&(N, Perf)> = members
        .iter()
        .filter(|(_, perf)| perf.on_ladder(now))
        .collect();
    eligible.sort_by(|(a_name, a), (b_name, b)| {
        b.display_rating()
            .cmp(&a.display_rating())
            .then_with(|| a_name.cmp(b_name))
    });
    let mut rungs: Vec<Rung<N>> = Vec::with_capacity(eligible.len().min(limit));
    for (position, (name, perf)) in eligible.into_iter().take(limit).enumerate() {
        let rating = perf.display_rating();
        let rank = match rungs.last() {
            Some(previous) if previous.rating == rating => previous.rank,
            _ => position + 1,
        };
        rungs.push(Rung {
            rank,
            name: name.clone(),
            rating,
            deviation: perf.deviation_at(now),
            rated_games: perf.rated_games,
        });
    }
    rungs
}

/// One point of the rating chart.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DayPoint {
    pub date: Date,
    pub rating: f64,
    pub deviation: f64,
}

/// The chart's points from a member's rating changes (`at`, the rating after, its RD), in
/// any order: the last change of each UTC day.
pub fn daily_history(changes: &[(SystemTime, f64, f64)]) -> Vec<DayPoint> {
    let mut sorted: Vec<&(SystemTime, f64, f64)> = changes.iter().collect();
    sorted.sort_by_key(|(at, _, _)| *at);
    let mut points: Vec<DayPoint> = Vec::new();
    for &(at, rating, deviation) in sorted {
        let date = utc_date(at);
        let point = DayPoint {
            date,
            rating,
            deviation,
        };
        match points.last_mut() {
            Some(last) if last.date == date => *last = point,
            _ => points.push(point),
        }
    }
    points
}

fn utc_date(at: SystemTime) -> Date {
    let seconds = at
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    OffsetDateTime::from_unix_timestamp(seconds as i64)
        .map(|moment| moment.date())
        .unwrap_or(Date::MIN)
}

#[cfg(test)]
mod tests {
    use time::Month;

    use super::*;
    use crate::ratings::glicko::Glicko;

    const DAY: Duration = Duration::from_secs(86_400);

    fn now() -> SystemTime {
        // 2026-11-26 12:00 UTC.
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_694_400)
    }

    fn perf(rating: f64, deviation: f64, days_ago: u32) -> Perf {
        Perf {
            glicko: Glicko {
                rating,
                deviation,
                volatility: 0.06,
            },
            rated_games: 40,
            last_rated: Some(now() - DAY * days_ago),
        }
    }

    #[test]
    fn the_ladder_ranks_established_current_members_best_first_sharing_ties() {
        let members = vec![
            ("cor", perf(1700.2, 60.0, 1)),
            ("anne", perf(1899.6, 50.0, 0)),
            ("bauke", perf(1900.4, 70.0, 6)),
            ("provisional", perf(2400.0, 120.0, 0)),
            ("away", perf(2300.0, 50.0, 8)),
            ("dirk", perf(1650.0, 74.0, 2)),
        ];
        let rungs = ladder(&members, now(), 10);
        let lines: Vec<(usize, &str, i32)> =
            rungs.iter().map(|r| (r.rank, r.name, r.rating)).collect();
        assert_eq!(
            lines,
            vec![
                (1, "anne", 1900),
                (1, "bauke", 1900),
                (3, "cor", 1700),
                (4, "dirk", 1650)
            ]
        );
        assert!(rungs[1].deviation > 70.0, "RD as of now, grown over 6 days");
        assert_eq!(ladder(&members, now(), 2).len(), 2);
    }

    #[test]
    fn the_history_keeps_the_last_point_of_each_utc_day() {
        let day_one_morning = now() - DAY - Duration::from_secs(3 * 3600);
        let changes = vec![
            (now(), 1530.0, 90.0),
            (day_one_morning + Duration::from_secs(3600), 1512.0, 100.0),
            (day_one_morning, 1505.0, 110.0),
            (now() + Duration::from_secs(11 * 3600), 1541.0, 88.0),
        ];
        let points = daily_history(&changes);
        assert_eq!(points.len(), 2);
        assert_eq!(
            points[0].date,
            Date::from_calendar_date(2026, Month::November, 25).unwrap()
        );
        assert_eq!((points[0].rating, points[0].deviation), (1512.0, 100.0));
        assert_eq!(
            points[1].date,
            Date::from_calendar_date(2026, Month::November, 26).unwrap()
        );
        assert_eq!(points[1].rating, 1541.0);
    }
}
