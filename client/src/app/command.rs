//! What a user can ask for, independent of how they asked (a key, a subcommand, a line on
//! stdin in `--plain` mode), and the parser of `--plain` input lines.

use boardcast_protocol::{ClaimKind, ColorChoice, Target, TimeControl};

use crate::i18n::{tr, tr_args};

/// A reply to an offer (draw or rematch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    Offer,
    Accept,
    Decline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Lobby,
    Create {
        time: Option<TimeControl>,
        color: ColorChoice,
        public: bool,
        /// A rated match (members only; the server refuses a guest's).
        rated: bool,
    },
    /// Wait in the play-now pool at a preset (`None`: stop waiting); `paired` seats us.
    PlayNow(Option<boardcast_protocol::PoolPreset>),
    /// Join by invite code.
    JoinCode(String),
    /// Join an open seek by match id.
    JoinId(String),
    Watch(Target),
    /// Watch a channel and predict its plies.
    Predict(String),
    /// Take back a stored seat.
    Resume {
        token: String,
        match_id: String,
    },
    /// Take back the logged-in account's seat in a match, without its token (one taken on
    /// another device): `reclaim`.
    Reclaim(String),
    /// Typed notation, resolved against the legal list.
    Move(String),
    /// A route already chosen from the legal list.
    Route(Vec<u8>),
    Resign,
    /// Give the opponent 15 s more (timed matches).
    MoreTime,
    /// Go berserk (an arena game, before one's first move): half one's time, no increment.
    Berserk,
    /// Propose, accept or decline taking back one's last move (casual matches).
    Takeback(Reply),
    Draw(Reply),
    Rematch(Reply),
    Abort,
    Claim(ClaimKind),
    /// A prediction for the coming ply of the watched channel.
    Guess {
        from: String,
        to: String,
    },
    /// Start an on-demand engine game: serial, white `L4`, black `K7`.
    Engine {
        serial: String,
        white: String,
        black: String,
    },
    Leaderboard,
    /// Save the finished match's PDN (into `--save-pdn DIR`, or the working directory).
    SavePdn,
    Quit,
}

/// `tv`, `tv2`, `2` → the channel id (`tv1`, `tv2`, `tv2`); anything else is a channel id.
pub fn channel_name(text: &str) -> String {
    let text = text.trim();
    if text.is_empty() || text == "tv" {
        "tv1".to_owned()
    } else if text.chars().all(|c| c.is_ascii_digit()) {
        format!("tv{text}")
    } else {
        text.to_owned()
    }
}

fn reply(word: Option<&str>) -> Result<Reply, String> {
    match word {
        Some("offer") | None => Ok(Reply::Offer),
        Some("accept") | Some("yes") => Ok(Reply::Accept),
        Some("decline") | Some("no") => Ok(Reply::Decline),
        Some(other) => Err(tr_args(
            "cmd-expected-reply",
            &[("got", other.to_owned().into())],
        )),
    }
}

/// Parses one `--plain` input line. Empty lines give `Ok(None)`.
pub fn parse_line(line: &str) -> Result<Option<Command>, String> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let arg = |i: usize| rest.get(i).copied();
    // `what`: the catalogue's words for what the command lacks.
    let need = |i: usize, what: &str| {
        arg(i).ok_or_else(|| {
            tr_args(
                "cmd-needs",
                &[
                    ("command", head.to_owned().into()),
                    ("what", tr(what).into()),
                ],
            )
        })
    };
    let command = match head {
        "move" | "m" => Command::Move(need(0, "cmd-what-move")?.to_owned()),
        "resign" => Command::Resign,
        "moretime" => Command::MoreTime,
        "berserk" => Command::Berserk,
        "takeback" => Command::Takeback(reply(arg(0))?),
        "draw" => Command::Draw(reply(arg(0))?),
        "rematch" => Command::Rematch(reply(arg(0))?),
        "abort" => Command::Abort,
        "claim" => match arg(0) {
            Some("win") => Command::Claim(ClaimKind::Win),
            Some("draw") => Command::Claim(ClaimKind::Draw),
            _ => return Err(tr("cmd-claim-needs")),
        },
        "list" | "lobby" => Command::Lobby,
        "play" => {
            let mut time = None;
            let mut color = ColorChoice::Random;
            let mut public = true;
            let mut rated = false;
            for word in &rest {
                match *word {
                    "white" => color = ColorChoice::White,
                    "black" => color = ColorChoice::Black,
                    "random" => color = ColorChoice::Random,
                    "private" => public = false,
                    "rated" => rated = true,
                    "untimed" => time = None,
                    other => time = Some(other.parse().map_err(|e| format!("{e}"))?),
                }
            }
            Command::Create {
                time,
                color,
                public,
                rated,
            }
        }
        "join" => Command::JoinCode(need(0, "cmd-what-code")?.to_owned()),
        "watch" => Command::Watch(Target::Match(need(0, "cmd-what-match")?.to_owned())),
        "tv" => Command::Watch(Target::Channel(channel_name(arg(0).unwrap_or("")))),
        "ftv" => Command::Watch(Target::Channel(boardcast_protocol::FRISIAN_TV.to_owned())),
        "playnow" => match arg(0) {
            Some("cancel") => Command::PlayNow(None),
            Some(preset) => Command::PlayNow(Some(
                boardcast_protocol::PoolPreset::ALL
                    .into_iter()
                    .find(|p| p.to_string() == preset)
                    .ok_or_else(|| {
                        tr_args("cmd-not-a-preset", &[("preset", preset.to_owned().into())])
                    })?,
            )),
            None => return Err(tr("cmd-playnow-needs")),
        },
        "predict" => match rest.as_slice() {
            [from, to] if from.len() == 2 => Command::Guess {
                from: (*from).to_owned(),
                to: (*to).to_owned(),
            },
            [guess] => match super::channel::parse_guess(guess) {
                Some((from, to)) => Command::Guess { from, to },
                None => Command::Predict(channel_name(guess)),
            },
            _ => return Err(tr("cmd-predict-needs")),
        },
        "engine" => Command::Engine {
            serial: need(0, "cmd-what-serial")?.to_ascii_uppercase(),
            white: need(1, "cmd-what-white")?.to_ascii_uppercase(),
            black: need(2, "cmd-what-black")?.to_ascii_uppercase(),
        },
        "leaderboard" => Command::Leaderboard,
        "save" => Command::SavePdn,
        "quit" | "exit" => Command::Quit,
        other if other.starts_with(|c: char| c.is_ascii_digit()) => Command::Move(other.to_owned()),
        other => {
            return Err(tr_args(
                "cmd-unknown",
                &[("command", other.to_owned().into())],
            ));
        }
    };
    Ok(Some(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_parse() {
        assert_eq!(
            parse_line("move 32-28"),
            Ok(Some(Command::Move("32-28".into())))
        );
        assert_eq!(parse_line("28x19"), Ok(Some(Command::Move("28x19".into()))));
        assert_eq!(
            parse_line("draw accept"),
            Ok(Some(Command::Draw(Reply::Accept)))
        );
        assert_eq!(
            parse_line("play 5+3 white private"),
            Ok(Some(Command::Create {
                time: Some("5+3".parse().unwrap()),
                color: ColorChoice::White,
                public: false,
                rated: false,
            }))
        );
        assert_eq!(
            parse_line("playnow 10+5"),
            Ok(Some(Command::PlayNow(Some(
                boardcast_protocol::PoolPreset::TenPlusFive
            ))))
        );
        assert_eq!(
            parse_line("playnow cancel"),
            Ok(Some(Command::PlayNow(None)))
        );
        assert!(parse_line("playnow 2+1").is_err());
        assert_eq!(
            parse_line("play 3+2 rated"),
            Ok(Some(Command::Create {
                time: Some("3+2".parse().unwrap()),
                color: ColorChoice::Random,
                public: true,
                rated: true,
            }))
        );
        assert_eq!(
            parse_line("tv 2"),
            Ok(Some(Command::Watch(Target::Channel("tv2".into()))))
        );
        assert_eq!(
            parse_line("predict b1-c3"),
            Ok(Some(Command::Guess {
                from: "b1".into(),
                to: "c3".into()
            }))
        );
        assert_eq!(
            parse_line("predict tv3"),
            Ok(Some(Command::Predict("tv3".into())))
        );
        assert_eq!(parse_line("   "), Ok(None));
        assert!(parse_line("dance").is_err());
        assert!(parse_line("draw maybe").is_err());
    }
}
