//! What the event's page and API show: the event as JSON, built from its state.

use serde::Serialize;

use super::record::{EventSetup, Format};
use super::state::{EventState, names};

/// A game of a round as shown: who, the match to watch, the result once in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct GameView {
    pub white: String,
    pub black: String,
    pub match_id: Option<String>,
    /// `1-0`, `½-½`, `0-1`; `F` marks a forfeit.
    pub result: Option<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RoundView {
    pub round: u32,
    pub games: Vec<GameView>,
    pub bye: Option<String>,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct StandingView {
    pub rank: u32,
    pub name: String,
    pub rating: u32,
    /// In half points, so no float is needed: 7 is 3½.
    pub score_halves: u32,
    /// Written as players read it: `3½`.
    pub score: String,
    pub buchholz: String,
    pub buchholz_cut1: String,
    pub sonneborn_berger: String,
    pub withdrawn: bool,
    /// An arena's sheet: each game's points in the order played, a doubled one followed by
    /// `*` (on fire), as lila writes it: `2 2 4* 0`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<String>,
    /// An arena player whose next game scores double.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub on_fire: bool,
}

/// How the event is played, as shown: its `kind` and that kind's own fields.
///
/// Not the stored [`Format`] flattened: a Swiss's number of rounds is `rounds_total` here, so
/// that `rounds` is only ever the array of rounds played (the stored format's `rounds` flattened
/// beside it made a JSON object with the key twice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum FormatView {
    Swiss {},
    RoundRobin { double: bool },
    Arena { minutes: u32, ends_at_ms: i64 },
}

impl From<Format> for FormatView {
    fn from(format: Format) -> FormatView {
        match format {
            Format::Swiss { .. } => FormatView::Swiss {},
            Format::RoundRobin { double } => FormatView::RoundRobin { double },
            Format::Arena {
                minutes,
                ends_at_ms,
            } => FormatView::Arena {
                minutes,
                ends_at_ms,
            },
        }
    }
}

/// The event as the API and the page show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct EventView {
    pub id: String,
    pub name: String,
    #[serde(flatten)]
    pub format: FormatView,
    pub time_control: String,
    pub rated: bool,
    pub private: bool,
    pub created_at: i64,
    pub starts_at: i64,
    /// `waiting` (not started), `playing` or `finished`.
    pub status: &'static str,
    pub rounds_total: u32,
    pub players: Vec<String>,
    pub standings: Vec<StandingView>,
    pub rounds: Vec<RoundView>,
    /// The history's version: a client that saw it has seen everything before it.
    pub v: u64,
}

/// Quarter points as players read them: `2¾`, `¼`, `0`.
fn quarters(q: u32) -> String {
    let part = ["", "¼", "½", "¾"][(q % 4) as usize];
    match (q / 4, part) {
        (0, "") => "0".to_owned(),
        (0, part) => part.to_owned(),
        (whole, part) => format!("{whole}{part}"),
    }
}

impl EventView {
    pub(crate) fn of(state: &EventState, now_ms: i64) -> EventView {
        let name_of = names(state);
        let name = |account: i64| name_of.get(&account).cloned().unwrap_or_default();
        let setup: &EventSetup = &state.setup;
        let status = if state.finished {
            "finished"
        } else if state.started() || now_ms >= setup.starts_at_ms {
            "playing"
        } else {
            "waiting"
        };
        let standings = if matches!(setup.format, Format::Arena { .. }) {
            arena_standings(state, &name)
        } else {
            state
                .standings()
                .into_iter()
                .map(|s| {
                    let account = i64::from(s.id.0);
                    StandingView {
                        rank: s.rank,
                        name: name(account),
                        rating: s.rating,
                        score_halves: s.score.halves(),
                        score: s.score.to_string(),
                        buchholz: s.buchholz.to_string(),
                        buchholz_cut1: s.buchholz_cut1.to_string(),
                        sonneborn_berger: quarters(s.sonneborn_berger_quarters),
                        withdrawn: state.entrant(account).is_some_and(|e| e.withdrawn),
                        sheet: None,
                        on_fire: false,
                    }
                })
                .collect()
        };
        let tc = setup.time_control;
        EventView {
            id: state.id.clone(),
            name: setup.name.clone(),
            format: setup.format.into(),
            time_control: format!("{}+{}", tc.initial_ms / 60_000, tc.increment_ms / 1000),
            rated: setup.rated,
            private: setup.password.is_some(),
            created_at: state.created_ms,
            starts_at: setup.starts_at_ms,
            status,
            rounds_total: state.total_rounds(),
            players: state
                .entrants
                .iter()
                .filter(|e| !e.withdrawn)
                .map(|e| e.name.clone())
                .collect(),
            standings,
            rounds: state
                .rounds
                .iter()
                .map(|r| RoundView {
                    round: r.round,
                    games: r
                        .boards
                        .iter()
                        .map(|b| GameView {
                            white: name(b.white),
                            black: name(b.black),
                            match_id: b.match_id.clone(),
                            result: b.outcome.map(|o| o.score()),
                        })
                        .collect(),
                    bye: r.bye.map(name),
                })
                .collect(),
            v: state.v,
        }
    }
}

/// An arena's standings: `score` is the arena points (`score_halves` twice them, so a client
/// sorts every kind alike), no Buchholz (an arena has none), and each player's sheet.
fn arena_standings(state: &EventState, name: &dyn Fn(i64) -> String) -> Vec<StandingView> {
    state
        .arena_standings()
        .into_iter()
        .map(|s| StandingView {
            rank: s.rank,
            name: name(s.account),
            rating: s.rating,
            score_halves: s.points * 2,
            score: s.points.to_string(),
            buchholz: String::new(),
            buchholz_cut1: String::new(),
            sonneborn_berger: String::new(),
            withdrawn: state.entrant(s.account).is_some_and(|e| e.withdrawn),
            sheet: Some(
                s.games
                    .iter()
                    .map(|g| format!("{}{}", g.points, if g.doubled { "*" } else { "" }))
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            on_fire: s.on_fire,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::record::{Board, EventRecord};
    use boardcast_protocol::TimeControl;

    fn setup(format: Format) -> EventSetup {
        EventSetup {
            name: "Tuesday".into(),
            format,
            time_control: TimeControl {
                initial_ms: 300_000,
                increment_ms: 3_000,
            },
            rated: false,
            starts_at_ms: 1_000,
            password: None,
            min_rated_games: 0,
            rating_range: None,
            organiser: 1,
        }
    }

    /// The keys of every object in `json`, in order, duplicates kept (serde_json's `Value`
    /// keeps only the last of two equal keys, so it cannot see a duplicate).
    fn duplicate_keys(json: &str) -> Vec<String> {
        use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
        struct Keys<'a>(&'a mut Vec<String>);
        impl<'de> Visitor<'de> for Keys<'_> {
            type Value = ();
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
                let mut seen = std::collections::HashSet::new();
                while let Some(key) = map.next_key::<String>()? {
                    if !seen.insert(key.clone()) {
                        self.0.push(key);
                    }
                    map.next_value_seed(Seed(self.0))?;
                }
                Ok(())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
                while seq.next_element_seed(Seed(self.0))?.is_some() {}
                Ok(())
            }
            fn visit_str<E>(self, _: &str) -> Result<(), E> {
                Ok(())
            }
            fn visit_u64<E>(self, _: u64) -> Result<(), E> {
                Ok(())
            }
            fn visit_i64<E>(self, _: i64) -> Result<(), E> {
                Ok(())
            }
            fn visit_bool<E>(self, _: bool) -> Result<(), E> {
                Ok(())
            }
            fn visit_unit<E>(self) -> Result<(), E> {
                Ok(())
            }
        }
        struct Seed<'a>(&'a mut Vec<String>);
        impl<'de> serde::de::DeserializeSeed<'de> for Seed<'_> {
            type Value = ();
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
                d.deserialize_any(Keys(self.0))
            }
        }
        let mut duplicates = Vec::new();
        let mut de = serde_json::Deserializer::from_str(json);
        de.deserialize_any(Keys(&mut duplicates)).unwrap();
        duplicates
    }

    /// A Swiss's JSON names each key once: `rounds` is the array of rounds played and
    /// `rounds_total` the number it has; the fields the clients read are all there.
    #[test]
    fn an_events_json_has_each_key_once_and_what_the_clients_read() {
        let mut state = EventState::new("s".into(), setup(Format::Swiss { rounds: 5 }), 0);
        for account in 1..=2 {
            state
                .apply(&EventRecord::Joined {
                    account,
                    name: format!("p{account}"),
                    rating: 1500,
                    request: None,
                })
                .unwrap();
        }
        state
            .apply(&EventRecord::Paired {
                round: 1,
                boards: vec![Board { white: 1, black: 2 }],
                bye: None,
                at_ms: None,
            })
            .unwrap();
        let json = serde_json::to_string(&EventView::of(&state, 2_000)).unwrap();
        assert_eq!(duplicate_keys(&json), Vec::<String>::new(), "{json}");
        let shown: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(shown["kind"], "swiss");
        assert_eq!(shown["rounds_total"], 5);
        assert_eq!(shown["rounds"][0]["games"][0]["white"], "p1");

        for (format, kind, field, value) in [
            (
                Format::Arena {
                    minutes: 30,
                    ends_at_ms: 1_801_000,
                },
                "arena",
                "ends_at_ms",
                serde_json::json!(1_801_000),
            ),
            (
                Format::RoundRobin { double: true },
                "round_robin",
                "double",
                serde_json::json!(true),
            ),
        ] {
            let state = EventState::new("x".into(), setup(format), 0);
            let json = serde_json::to_string(&EventView::of(&state, 0)).unwrap();
            assert_eq!(duplicate_keys(&json), Vec::<String>::new(), "{json}");
            let shown: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(shown["kind"], kind);
            assert_eq!(shown[field], value, "{json}");
            assert!(shown["rounds"].is_array(), "{json}");
        }
    }
}
