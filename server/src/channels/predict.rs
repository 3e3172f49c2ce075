//! Prediction book-keeping for one engine game: the open guesses for the coming ply, each
//! predictor's running score, and the standings at the end.
//!
//! Guesses are keyed by predictor — the client's address (IPv4 address or IPv6 /64) and display
//! name — so one person with two connections cannot guess twice: one guess per predictor per
//! ply, a new guess before the reveal (from either connection) replaces the old one, and its
//! result goes to the connection that guessed last. Scores are kept per predictor too; the
//! stored leaderboard later adds them up by display name.

use std::collections::HashMap;

use boardcast_protocol::{PredictionResult, Standing};

use crate::address::ClientAddr;
use crate::outbox::Outbox;

/// Who guesses: one person, as far as the server can tell.
type Predictor = (ClientAddr, String);

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
pub struct Book {
    open: HashMap<Predictor, Guess>,
    scores: HashMap<Predictor, Score>,
}

/// A scored guess, to be sent to its predictor.
#[derive(Debug)]
pub struct Scored {
    pub outbox: Outbox,
    pub result: PredictionResult,
}

impl Book {
    /// Records (or replaces) the guess `from-to` of `name` at `client`; its result goes to
    /// `outbox`.
    pub fn guess(&mut self, outbox: Outbox, client: ClientAddr, name: &str, from: &str, to: &str) {
        let text = format!("{from}-{to}");
        self.open.insert(
            (client, name.to_owned()),
            Guess {
                outbox,
                name: name.to_owned(),
                text,
            },
        );
    }

    /// How many guesses wait for the coming ply.
    pub fn open_guesses(&self) -> usize {
        self.open.len()
    }

    /// Scores every open guess against the move `actual` just revealed as ply `ply`: a right
    /// guess scores, a wrong one is a strike. Clears the open guesses.
    pub fn reveal(&mut self, channel: &str, ply: u32, actual: &str) -> Vec<Scored> {
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
    pub fn void_open(&mut self) {
        self.open.clear();
    }

    /// Everyone who has a scored guess in this game, best first: most correct, then fewest
    /// strikes, then by name.
    pub fn standings(&self) -> Vec<Standing> {
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
            b.correct
                .cmp(&a.correct)
                .then(a.strikes.cmp(&b.strikes))
                .then_with(|| a.name.cmp(&b.name))
        });
        standings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbox::outbox;
    use boardcast_protocol::Encoding;

    fn here() -> ClientAddr {
        ClientAddr::of([127, 0, 0, 1].into())
    }

    #[test]
    fn one_person_with_two_connections_guesses_once() {
        let (first, _first_in) = outbox(1, Encoding::Json, 8);
        let (second, _second_in) = outbox(2, Encoding::Json, 8);
        let (other, _other_in) = outbox(3, Encoding::Json, 8);
        let elsewhere = ClientAddr::of([127, 0, 0, 2].into());
        let mut book = Book::default();
        book.guess(first, here(), "ann", "a2", "a3");
        book.guess(second.clone(), here(), "ann", "b1", "c3");
        // The same name from another address, and another name here, are other people.
        book.guess(other.clone(), elsewhere, "ann", "b1", "c3");
        book.guess(other, here(), "bob", "b1", "c3");
        assert_eq!(book.open_guesses(), 3);
        let scored = book.reveal("tv1", 0, "b1-c3");
        assert!(
            scored
                .iter()
                .all(|s| s.result.correct && s.result.correct_total == 1)
        );
        let to_ann_here: Vec<u64> = scored
            .iter()
            .filter(|s| s.outbox.id() != 3)
            .map(|s| s.outbox.id())
            .collect();
        assert_eq!(
            to_ann_here,
            [2],
            "the result goes to the connection that guessed last"
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
