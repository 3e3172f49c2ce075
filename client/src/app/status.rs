//! What the TUI's status line says about a [`Note`]: a sentence for the person at the
//! keyboard, about their own seat in the first and second person ("Your draw offer was
//! declined", "Your opponent is back"). `--plain` prints the notes' fixed keyword lines
//! instead, which scripts wait for; the TUI never shows those.

use boardcast_protocol::Side;

use super::App;
use super::notes::{Note, player_name};
use crate::i18n::{tr, tr_args};

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
        let say = |id: &str| said(tr(id));
        // A sentence about the player on `side` (`who`, as named on screen).
        let about = |id: &str, side: Side| said(tr_args(id, &[("who", self.who(side).into())]));
        match note {
            Note::Connected { again: false } => say("note-connected"),
            Note::Connected { again: true } => say("note-reconnected"),
            Note::Disconnected { reason, retry_ms } => Some((
                tr_args(
                    "note-disconnected",
                    &[
                        ("reason", reason.clone().into()),
                        ("seconds", retry_ms.div_ceil(1000).into()),
                    ],
                ),
                true,
            )),
            Note::Seat { side, match_id, .. } => said(tr_args(
                "note-seat",
                &[
                    ("side", side.to_string().into()),
                    ("id", match_id.clone().into()),
                ],
            )),
            Note::Match {
                match_id,
                white,
                black,
                ..
            } if self.seat.as_ref().is_none_or(|s| &s.match_id != match_id) => {
                match (white, black) {
                    (Some(white), Some(black)) => said(tr_args(
                        "note-watching-players",
                        &[
                            ("white", white.clone().into()),
                            ("black", black.clone().into()),
                        ],
                    )),
                    _ => said(tr_args(
                        "note-watching-match",
                        &[("id", match_id.clone().into())],
                    )),
                }
            }
            Note::Joined { side, name, bot } if !mine(*side) => {
                let name = player_name(name, *bot);
                match me {
                    Some(_) => said(tr_args("note-joined-game-on", &[("name", name.into())])),
                    None => said(tr_args(
                        "note-joined-as",
                        &[("name", name.into()), ("side", side.to_string().into())],
                    )),
                }
            }
            Note::Move { side, notation, .. } => {
                let id = match me {
                    Some(me) if me == *side => "note-you-played",
                    Some(_) => "note-opponent-played",
                    None => "note-played",
                };
                said(tr_args(
                    id,
                    &[
                        ("who", self.who(*side).into()),
                        ("move", notation.clone().into()),
                    ],
                ))
            }
            Note::Result(text) => said(tr_args(
                if me.is_some() {
                    "note-game-over-rematch"
                } else {
                    "note-game-over"
                },
                &[("result", text.clone().into())],
            )),
            Note::Ratings(text) => said(text.clone()),
            Note::Draw(what, side) => match (*what, side) {
                ("offered", Some(side)) if mine(*side) => say("note-draw-you-offered"),
                ("offered", Some(_)) if me.is_some() => say("note-draw-offered-to-you"),
                ("declined", Some(side)) if mine(*side) => say("note-draw-you-declined"),
                ("declined", Some(_)) if me.is_some() => say("note-draw-yours-declined"),
                ("declined", Some(side)) => about("note-draw-declined-by", *side),
                (_, Some(side)) => about("note-draw-offered-by", *side),
                (_, None) => say("note-draw-withdrawn"),
            },
            Note::Takeback(what, side) => match (*what, side) {
                ("offered", Some(side)) if mine(*side) => say("note-takeback-you-proposed"),
                ("offered", Some(_)) if me.is_some() => say("note-takeback-asked-of-you"),
                ("declined", Some(side)) if mine(*side) => say("note-takeback-you-declined"),
                ("declined", Some(_)) if me.is_some() => say("note-takeback-yours-declined"),
                ("done", Some(side)) if mine(*side) => say("note-takeback-done-yours"),
                ("done", Some(side)) => about("note-takeback-done", *side),
                ("declined", Some(side)) => about("note-takeback-declined-by", *side),
                (_, Some(side)) => about("note-takeback-proposed-by", *side),
                (_, None) => say("note-takeback-lapsed"),
            },
            Note::Premove(what, text) => {
                let id = match *what {
                    "set" => "note-premove-set",
                    "played" => "note-premove-played",
                    "cancelled" => "note-premove-cancelled",
                    _ => "note-premove-dropped",
                };
                said(tr_args(id, &[("move", text.clone().into())]))
            }
            Note::Rematch(what, who) => {
                let by_me = me.is_some_and(|side| side.to_string() == *who);
                match *what {
                    "offered" if by_me => say("note-rematch-you-offered"),
                    "offered" if me.is_some() => say("note-rematch-offered-to-you"),
                    "declined" if by_me => say("note-rematch-you-declined"),
                    "declined" if me.is_some() => say("note-rematch-yours-declined"),
                    "started" => said(tr_args(
                        "note-rematch-started",
                        &[("id", who.clone().into())],
                    )),
                    what => said(tr_args(
                        if what == "declined" {
                            "note-rematch-declined-by"
                        } else {
                            "note-rematch-offered-by"
                        },
                        &[("side", who.clone().into())],
                    )),
                }
            }
            Note::Left(side) if mine(*side) => say("note-you-left"),
            Note::Left(_) if me.is_some() => say("note-opponent-left"),
            Note::Left(side) => about("note-left", *side),
            Note::Returned(side) if mine(*side) => say("note-you-returned"),
            Note::Returned(_) if me.is_some() => say("note-opponent-returned"),
            Note::Returned(side) => about("note-returned", *side),
            Note::Berserk(side) if mine(*side) => say("note-you-berserk"),
            Note::Berserk(_) if me.is_some() => say("note-opponent-berserk"),
            Note::Berserk(side) => about("note-berserk", *side),
            Note::Claimable { aborts: false, .. } => say("note-claimable"),
            Note::Claimable { aborts: true, .. } => say("note-claimable-aborts"),
            Note::Error {
                message,
                from_client: true,
                ..
            } => Some((sentence(message), true)),
            Note::Error {
                code,
                message,
                args,
                ..
            } => Some((
                sentence(&crate::i18n::refusal(code, message, args.as_deref())),
                true,
            )),
            Note::Ambiguous(moves) => said(tr_args(
                "note-ambiguous",
                &[
                    ("count", moves.len().into()),
                    ("last", moves.len().min(9).into()),
                ],
            )),
            Note::Info(text) => said(sentence(text)),
            Note::Pdn(url) => said(tr_args("note-pdn", &[("url", url.clone().into())])),
            Note::PdnSaved(path) => {
                said(tr_args("note-pdn-saved", &[("path", path.clone().into())]))
            }
            Note::Game {
                channel,
                serial,
                white,
                black,
                ..
            } => said(tr_args(
                "note-engine-game",
                &[
                    ("channel", channel.clone().into()),
                    ("white", white.clone().into()),
                    ("black", black.clone().into()),
                    ("serial", serial.clone().into()),
                ],
            )),
            Note::Ply { ply, mv, .. } => said(tr_args(
                "note-ply",
                &[("ply", ply.to_string().into()), ("move", mv.clone().into())],
            )),
            Note::GameOver { text, .. } => said(tr_args(
                "note-game-over",
                &[("result", text.clone().into())],
            )),
            Note::Predicted {
                actual,
                correct: true,
                ..
            } => said(tr_args(
                "note-correct",
                &[("actual", actual.clone().into())],
            )),
            Note::Predicted { guess, actual, .. } => said(tr_args(
                "note-strike",
                &[
                    ("guess", guess.clone().into()),
                    ("actual", actual.clone().into()),
                ],
            )),
            Note::Shutdown(reason) => Some((
                tr_args("note-shutdown", &[("reason", reason.clone().into())]),
                true,
            )),
            Note::Featured(Some(id)) => {
                said(tr_args("note-featured", &[("id", id.clone().into())]))
            }
            Note::Featured(None) => say("note-featured-none"),
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
