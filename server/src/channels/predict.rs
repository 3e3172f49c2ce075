//! Prediction book-keeping for one engine game: the open guesses for the coming ply, each
//! predictor's running score, and the standings at the end.
//!
//! Guesses are keyed by predictor — a display name, compared by its look-alike identity
//! ([`names::identity`]) — so one name cannot guess twice, from two connections or from eight
//! addresses: one guess per name per ply, a new guess before the reveal (from any connection)
//! replaces the old one, and its result goes to the connection that guessed last. The unnamed
//! ([`names::DEFAULT_NAME`]) are many people, told apart by their address (IPv4 address or IPv6
//! /64). Scores are kept per predictor too; the stored leaderboard later adds them up by
//! display name.
//!
//! A wrong guess costs as much as a right one earns: predictors rank by correct − strikes
//! ([`rank`]), so spraying guesses over several moves (under one name or as "anonymous" from
//! many addresses) scores below guessing once and well.

use std::collections::HashMap;

use std::cmp::Ordering;

use boardcast_protocol::{PredictionResult, Standing, names};

use crate::ops::address::ClientAddr;
use crate::room::outbox::Outbox;

/// Who guesses: one person, as far as the server can tell.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Predictor {
    /// A chosen name, by its look-alike identity, from whichever address.
    Named(String),
    /// The unnamed at one address.
    Unnamed(ClientAddr),
}

impl Predictor {
    fn of(client: ClientAddr, name: &str) -> Predictor {
        if name == names::DEFAULT_NAME {
            Predictor::Unnamed(client)
        } else {
            Predictor::Named(names::identity(name))
        }
    }
}

/// The order of predictors, best first: most correct − strikes (a wrong guess costs what a
/// right one earns), then most correct, then by name. Also the leaderboard's order in storage.
pub(crate) fn rank(a: (u32, u32, &str), b: (u32, u32, &str)) -> Ordering {
    let net = |(correct, strikes, _): (u32, u32, &str)| i64::from(correct) - i64::from(strikes);
    net(b)
        .cmp(&net(a))
        .then(b.0.cmp(&a.0))
        .then_with(|| a.2.cmp(b.2))
}

/// One open guess for the coming ply.
#[derive(Debug)]
struct Guess {
    outbox: Outbox,
    name: String,
    /// `from-to`, lower case.
    text: String,
}

/// One predictor's totals in the current game.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Score {
    name: String,
    correct: u32,
    strikes: u32,
}

/// The guesses and scores of one game.
#[derive(Debug, Default)]
pub(crate) struct Book {
    open: HashMap<Predictor, Guess>,
    scores: HashMap<Predictor, Score>,
}

/// A scored guess, to be sent to its predictor.
#[derive(Debug)]
pub(crate) struct Scored {
    pub outbox: Outbox,
    pub result: PredictionResult,
}

impl Book {
    /// Records (or replaces) the guess `from-to` of `name` at `client`; its result goes to
    /// `outbox`.
    pub(crate) fn guess(
        &mut self,
        outbox: Outbox,
        client: ClientAddr,
        name: &str,
        from: &str,
        to: &str,
    ) {
        let text = format!("{from}-{to}");
        self.open.insert(
            Predictor::of(client, name),
            Guess {
                outbox,
                name: name.to_owned(),
                text,
            },
        );
    }

    /// How many guesses wait for the coming ply.
    #[cfg(test)]
    pub(crate) fn open_guesses(&self) -> usize {
        self.open.len()
    }

    /// Scores every open guess against the move `actual` just revealed as ply `ply`: a right
    /// guess scores, a wrong one is a strike. Clears the open guesses.
    pub(crate) fn reveal(&mut self, channel: &str, ply: u32, actual: &str) -> Vec<Scored> {
        let mut scored = Vec::with_capacity(self.open.len());
        for (predictor, guess) in self.open.drain() {
            let score = self.scores.entry(predictor).or_insert_with(|| Score {
                name: guess.name.clone(),
                correct: 0,
                strikes: 0,
            });
            score.name.clone_from(&guess.name);
            let correct = guess.text == actual;
            if correct {
                score.correct += 1;
            } else {
                score.strikes += 1;
            }
            scored.push(Scored {
                outbox: guess.outbox,
                result: PredictionResult {
                    channel: channel.to_owned(),
                    ply,
                    guess: guess.text,
                    actual: actual.to_owned(),
                    correct,
                    correct_total: score.correct,
                    strikes: score.strikes,
                },
            });
        }
        scored
    }

    /// Drops the open guesses without scoring them (the game ended without another ply).
    pub(crate) fn void_open(&mut self) {
        self.open.clear();
    }

    /// Everyone who has a scored guess in this game, best first ([`rank`]).
    pub(crate) fn standings(&self) -> Vec<Standing> {
        let mut standings: Vec<Standing> = self
            .scores
            .values()
            .map(|s| Standing {
                name: s.name.clone(),
                correct: s.correct,
                strikes: s.strikes,
            })
            .collect();
        standings.sort_by(|a, b| {
            rank(
                (a.correct, a.strikes, &a.name),
                (b.correct, b.strikes, &b.name),
            )
        });
        standings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::outbox::outbox;
    use boardcast_protocol::Encoding;

    fn here() -> ClientAddr {
        ClientAddr::of([127, 0, 0, 1].into())
    }

    fn at(last: u8) -> ClientAddr {
        ClientAddr::of([127, 0, 0, last].into())
    }

    #[test]
    fn one_name_guesses_once_per_ply_from_any_connection_or_address() {
        let mut book = Book::default();
        let mut inboxes = Vec::new();
        // "ann" from eight addresses, one of them spelt with a Cyrillic а: one guess.
        for (last, (name, to)) in [
            ("ann", "a3"),
            ("ann", "b3"),
            ("\u{430}nn", "c3"),
            ("ANN", "d3"),
            ("ann", "e3"),
            ("ann", "a3"),
            ("ann", "b3"),
            ("ann", "c3"),
        ]
        .into_iter()
        .enumerate()
        {
            let (outbox, inbox) = outbox(last as u64 + 1, Encoding::Json, 8);
            inboxes.push(inbox);
            book.guess(outbox, at(last as u8 + 1), name, "b2", to);
        }
        // Another name is another person, and the unnamed at two addresses are two people.
        let (bob, _bob_in) = outbox(20, Encoding::Json, 8);
        book.guess(bob.clone(), here(), "bob", "b2", "c3");
        book.guess(bob.clone(), at(30), names::DEFAULT_NAME, "b2", "c3");
        book.guess(bob, at(31), names::DEFAULT_NAME, "b2", "c3");
        assert_eq!(book.open_guesses(), 4);
        let scored = book.reveal("tv1", 0, "b2-c3");
        let ann: Vec<&Scored> = scored.iter().filter(|s| s.outbox.id() <= 8).collect();
        assert_eq!(ann.len(), 1, "one result for ann");
        assert_eq!(
            (ann[0].outbox.id(), ann[0].result.guess.as_str()),
            (8, "b2-c3"),
            "the last guess counts, and its result goes to the connection that made it"
        );
        assert_eq!(book.standings().len(), 4);
    }

    #[test]
    fn spraying_guesses_ranks_below_guessing_well() {
        let (out, _in) = outbox(1, Encoding::Json, 64);
        let mut book = Book::default();
        // Each ply, a sprayer (unnamed, from eight addresses) covers all five moves, so the
        // right one is always among them; "sietske" guesses once and is right two plies in three.
        let file = |n: u32| char::from(b'a' + (n % 5) as u8);
        for ply in 0..30 {
            let actual = file(ply);
            for last in 0..8u8 {
                let to = format!("{}3", file(u32::from(last)));
                book.guess(out.clone(), at(last), names::DEFAULT_NAME, "b2", &to);
            }
            let guess = if ply % 3 == 0 { file(ply + 1) } else { actual };
            book.guess(out.clone(), here(), "sietske", "b2", &format!("{guess}3"));
            book.reveal("tv1", ply, &format!("b2-{actual}3"));
        }
        let standings = book.standings();
        assert_eq!(standings[0].name, "sietske", "{standings:?}");
        let sietske = &standings[0];
        assert_eq!((sietske.correct, sietske.strikes), (20, 10));
        // The leaderboard adds the unnamed up into one name; that sum ranks lower still.
        let sprayed = crate::channels::archive::by_name(&standings);
        let anonymous = sprayed
            .iter()
            .find(|d| d.name == names::DEFAULT_NAME)
            .unwrap();
        assert!(anonymous.correct > sietske.correct);
        assert_eq!(
            rank(
                (anonymous.correct, anonymous.strikes, &anonymous.name),
                (sietske.correct, sietske.strikes, &sietske.name)
            ),
            Ordering::Greater
        );
    }

    #[test]
    fn guesses_are_replaced_scored_and_ranked() {
        let (ann, _ann_in) = outbox(1, Encoding::Json, 8);
        let (bob, _bob_in) = outbox(2, Encoding::Json, 8);
        let (cat, _cat_in) = outbox(3, Encoding::Json, 8);
        let mut book = Book::default();
        book.guess(ann.clone(), here(), "ann", "a2", "a3");
        book.guess(ann.clone(), here(), "ann", "b1", "c3");
        book.guess(bob.clone(), here(), "bob", "e2", "e3");
        assert_eq!(book.open_guesses(), 2, "a second guess replaces the first");

        let mut scored = book.reveal("tv1", 0, "b1-c3");
        scored.sort_by_key(|s| s.outbox.id());
        assert_eq!(scored.len(), 2);
        assert!(scored[0].result.correct);
        assert_eq!(scored[0].result.guess, "b1-c3");
        assert_eq!(
            (scored[0].result.correct_total, scored[0].result.strikes),
            (1, 0)
        );
        assert!(!scored[1].result.correct);
        assert_eq!(
            (scored[1].result.correct_total, scored[1].result.strikes),
            (0, 1)
        );
        assert_eq!(book.open_guesses(), 0);

        book.guess(bob, here(), "bob", "d5", "d4");
        book.guess(cat.clone(), here(), "cat", "d5", "d4");
        let scored = book.reveal("tv1", 1, "d5-d4");
        assert!(scored.iter().all(|s| s.result.correct));
        book.guess(cat, here(), "cat", "a1", "a2");
        book.void_open();
        assert!(book.reveal("tv1", 2, "a2-a3").is_empty());

        let names: Vec<(String, u32, u32)> = book
            .standings()
            .into_iter()
            .map(|s| (s.name, s.correct, s.strikes))
            .collect();
        assert_eq!(
            names,
            vec![
                ("ann".to_owned(), 1, 0),
                ("cat".to_owned(), 1, 0),
                ("bob".to_owned(), 1, 1),
            ]
        );
    }
}
