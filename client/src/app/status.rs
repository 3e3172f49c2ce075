//! What the TUI's status line says about a [`Note`]: a sentence for the person at the
//! keyboard, about their own seat in the first and second person ("Your draw offer was
//! declined", "Your opponent is back"). `--plain` prints the notes' fixed keyword lines
//! instead, which scripts wait for; the TUI never shows those.

use boardcast_protocol::Side;

use super::App;
use super::notes::{Note, player_name};

/// `it is not your turn` → `It is not your turn`.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl App {
    /// The player on `side` of the shown match as named on screen (`BOT scan`), or the side.
    fn who(&self, side: Side) -> String {
        self.game
            .as_ref()
            .and_then(|g| g.player(side))
            .map_or_else(|| side.to_string(), |p| player_name(&p.name, p.bot))
    }

    /// The status line's sentence for `note`, and whether it is an alert (a refusal or a
    /// failure); `None` leaves the status line as it is (what the screen already shows, like
    /// the legal moves, or lines only scripts need).
    pub(super) fn status_text(&self, note: &Note) -> Option<(String, bool)> {
        let me = self.my_side();
        let mine = |side: Side| me == Some(side);
        let said = |text: String| Some((text, false));
        match note {
            Note::Connected { again: false } => said("Connected".to_owned()),
            Note::Connected { again: true } => said("Reconnected".to_owned()),
            Note::Disconnected { reason, retry_ms } => Some((
                format!(
                    "Connection lost ({reason}); trying again in {}s",
                    retry_ms.div_ceil(1000)
                ),
                true,
            )),
            Note::Seat { side, match_id, .. } => {
                said(format!("You play {side} in match {match_id}"))
            }
            Note::Match {
                match_id,
                white,
                black,
                ..
            } if self.seat.as_ref().is_none_or(|s| &s.match_id != match_id) => {
                match (white, black) {
                    (Some(white), Some(black)) => {
                        said(format!("Watching {white} (white) against {black} (black)"))
                    }
                    _ => said(format!("Watching match {match_id}")),
                }
            }
            Note::Joined { side, name, bot } if !mine(*side) => {
                let name = player_name(name, *bot);
                match me {
                    Some(_) => said(format!("{name} joined: the game is on")),
                    None => said(format!("{name} joined as {side}")),
                }
            }
            Note::Move { side, notation, .. } => match me {
                Some(me) if me == *side => said(format!("You played {notation}")),
                Some(_) => said(format!("Your opponent played {notation}: your move")),
                None => said(format!("{} played {notation}", self.who(*side))),
            },
            Note::Result(text) => {
                let hint = if me.is_some() {
                    " · m offers a rematch"
                } else {
                    ""
                };
                said(format!("Game over: {text}{hint}"))
            }
            Note::Ratings(text) => said(text.clone()),
            Note::Draw(what, side) => said(match (*what, side) {
                ("offered", Some(side)) if mine(*side) => "You offered a draw".to_owned(),
                ("offered", Some(_)) if me.is_some() => {
                    "Your opponent offers a draw: d accepts, D declines".to_owned()
                }
                ("declined", Some(side)) if mine(*side) => "You declined the draw".to_owned(),
                ("declined", Some(_)) if me.is_some() => "Your draw offer was declined".to_owned(),
                ("declined", Some(side)) => format!("{} declined the draw", self.who(*side)),
                ("cancelled", _) => "The draw offer was withdrawn".to_owned(),
                (what, Some(side)) => format!("{} {what} a draw", self.who(*side)),
                (what, None) => format!("Draw {what}"),
            }),
            Note::Takeback(what, side) => said(match (*what, side) {
                ("offered", Some(side)) if mine(*side) => {
                    "You proposed to take back your last move".to_owned()
                }
                ("offered", Some(_)) if me.is_some() => {
                    "Your opponent asks to take back their last move: u accepts, U declines"
                        .to_owned()
                }
                ("declined", Some(side)) if mine(*side) => "You declined the takeback".to_owned(),
                ("declined", Some(_)) if me.is_some() => {
                    "Your takeback proposal was declined".to_owned()
                }
                ("done", Some(side)) if mine(*side) => "Taken back: your move again".to_owned(),
                ("done", Some(side)) => format!("Taken back: {} to move", self.who(*side)),
                ("cancelled", _) => "The takeback proposal lapsed with the move".to_owned(),
                (what, Some(side)) => format!("{} {what} a takeback", self.who(*side)),
                (what, None) => format!("Takeback {what}"),
            }),
            Note::Premove(what, text) => said(match *what {
                "set" => {
                    format!("Premove {text}: played when your opponent has moved (Esc cancels)")
                }
                "played" => format!("Premove {text} played"),
                "cancelled" => format!("Premove {text} cancelled"),
                _ => format!("Premove {text} dropped: it is not legal now"),
            }),
            Note::Rematch(what, who) => {
                let by_me = me.is_some_and(|side| side.to_string() == *who);
                said(match *what {
                    "offered" if by_me => "You offered a rematch".to_owned(),
                    "offered" if me.is_some() => {
                        "Your opponent offers a rematch: m accepts, M declines".to_owned()
                    }
                    "declined" if by_me => "You declined the rematch".to_owned(),
                    "declined" if me.is_some() => "Your rematch offer was declined".to_owned(),
                    "started" => format!("Rematch started: match {who}"),
                    what => format!("{who} {what} a rematch"),
                })
            }
            Note::Left(side) if mine(*side) => {
                said("Your seat lost its connection; it is kept for you".to_owned())
            }
            Note::Left(_) if me.is_some() => said("Your opponent has left".to_owned()),
            Note::Left(side) => said(format!("{} has left", self.who(*side))),
            Note::Returned(side) if mine(*side) => said("You are back in the game".to_owned()),
            Note::Returned(_) if me.is_some() => said("Your opponent is back".to_owned()),
            Note::Returned(side) => said(format!("{} is back", self.who(*side))),
            Note::Berserk(side) if mine(*side) => {
                said("You went berserk: half your time, no increment".to_owned())
            }
            Note::Berserk(_) if me.is_some() => said("Your opponent went berserk".to_owned()),
            Note::Berserk(side) => said(format!("{} went berserk", self.who(*side))),
            Note::Claimable { aborts: false, .. } => {
                said("Your opponent is gone: c claims the win, C a draw".to_owned())
            }
            Note::Claimable { aborts: true, .. } => {
                said("Your opponent is gone: c aborts the match".to_owned())
            }
            Note::Error {
                code,
                message,
                args,
            } => Some((
                sentence(&crate::i18n::refusal(code, message, args.as_deref())),
                true,
            )),
            Note::Ambiguous(moves) => said(format!(
                "{} moves fit: pick one with 1-{} or ↑↓ Enter",
                moves.len(),
                moves.len().min(9)
            )),
            Note::Info(text) => said(sentence(text)),
            Note::Pdn(url) => said(format!("PDN at {url} (s saves it)")),
            Note::PdnSaved(path) => said(format!("PDN saved to {path}")),
            Note::Game {
                channel,
                serial,
                white,
                black,
                ..
            } => said(format!(
                "{channel}: {white} against {black}, serial {serial}"
            )),
            Note::Ply { ply, mv, .. } => said(format!("Ply {ply}: {mv}")),
            Note::GameOver { text, .. } => said(format!("Game over: {text}")),
            Note::Predicted {
                actual,
                correct: true,
                ..
            } => said(format!("Correct: {actual}")),
            Note::Predicted { guess, actual, .. } => {
                said(format!("Strike: you said {guess}, it was {actual}"))
            }
            Note::Shutdown(reason) => Some((format!("The server is stopping: {reason}"), true)),
            Note::Featured(Some(id)) => said(format!("Frisian TV shows match {id}")),
            Note::Featured(None) => said("Frisian TV: no live match yet".to_owned()),
            // On screen already (the match line, history, turn, legal moves, invite, lobby
            // rows, revealed moves, standings, leaderboard rows), about oneself (one's own
            // `joined`), or only for scripts: the status line keeps what it says.
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_read_as_sentences() {
        assert_eq!(sentence("it is not your turn"), "It is not your turn");
        assert_eq!(sentence(""), "");
    }
}
