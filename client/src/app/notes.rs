//! What happened, as one line of text each: the `--plain` output and the TUI's status log.
//!
//! Every line starts with a fixed keyword so scripts can wait for it; the exact forms are
//! listed in `boardcast --help` and README.md.

use std::fmt;

use boardcast_protocol::{ChannelSummary, MatchPhase, MatchSummary, PlayerRating, Side};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// `connected` (first time) or `reconnected`.
    Connected {
        again: bool,
    },
    Disconnected {
        reason: String,
        retry_ms: u64,
    },
    /// `seat white m123 invite ABCD`.
    Seat {
        side: Side,
        match_id: String,
        invite: String,
    },
    /// `match m123 white alice black BOT scan playing` (names as [`player_name`] shows them).
    Match {
        match_id: String,
        white: Option<String>,
        black: Option<String>,
        phase: MatchPhase,
    },
    /// `history 32-28 19-23` (moves already played, on a snapshot).
    History(Vec<String>),
    /// `joined black bob`, `joined black BOT scan`.
    Joined {
        side: Side,
        name: String,
        bot: bool,
    },
    /// `move 1. 32-28` (White), `move 1... 19-23` (Black): numbered as the notation (and the
    /// move list, and PDN) numbers moves, one number for a white and a black ply.
    Move {
        number: u32,
        side: Side,
        notation: String,
    },
    Turn(Side),
    /// `legal 32-28 33-28`: only to the player to move.
    Legal(Vec<String>),
    /// `result white wins: black has no legal move`.
    Result(String),
    /// `ratings White 1532 (+12) · Black 1488 (−12)`: after a rated game.
    Ratings(String),
    /// `draw offered white`, `draw declined black`, `draw cancelled`.
    Draw(&'static str, Option<Side>),
    /// `takeback offered white`, `takeback declined black`, `takeback cancelled`,
    /// `takeback done white` (white is to move again).
    Takeback(&'static str, Option<Side>),
    /// `premove set 32-28`, `premove played 32-28`, `premove dropped 32-28` (not legal once
    /// the opponent had moved).
    Premove(&'static str, String),
    /// `rematch offered white`, `rematch declined black`, `rematch started m124`.
    Rematch(&'static str, String),
    Left(Side),
    /// `claimable black: claim win or claim draw`: the gone opponent may now be claimed
    /// against; before both sides moved a claim aborts the match instead.
    Claimable {
        side: Side,
        aborts: bool,
    },
    Returned(Side),
    /// `berserk white`: that side went berserk (an arena game).
    Berserk(Side),
    /// `error not_your_turn: not your turn`.
    Error {
        code: String,
        message: String,
        /// The refusal's reason and arguments, worded on screen in the player's language
        /// (the line above, for logs and programs, keeps the server's English).
        args: Option<Box<boardcast_protocol::ErrorArgs>>,
        /// Refused by this client itself, or worded by it (nothing the server could word):
        /// `message` is in the player's language already.
        from_client: bool,
    },
    /// `ambiguous 9x18x16 9x20x16`.
    Ambiguous(Vec<String>),
    /// `info …`: local, human messages.
    Info(String),
    /// `info pdn URL`: where the finished match's PDN is served.
    Pdn(String),
    /// `info pdn saved to PATH`.
    PdnSaved(String),
    /// `info your friend runs: …`: how the friend joins the waiting match.
    Invite(String),
    Seek(MatchSummary),
    Live(MatchSummary),
    Channel(ChannelSummary),
    LobbyEnd,
    /// `game tv1 42 CH3SS5 L4 K7 move 3`.
    Game {
        channel: String,
        game_id: u64,
        serial: String,
        white: String,
        black: String,
        move_number: u32,
    },
    /// `revealed tv1 b1-c3 a5-a4`.
    Revealed {
        channel: String,
        moves: Vec<String>,
    },
    /// `ply tv1 0 b1-c3` (0-based ply, as the protocol counts).
    Ply {
        channel: String,
        ply: u32,
        mv: String,
    },
    /// `gameover tv1 white wins: king captured`.
    GameOver {
        channel: String,
        text: String,
    },
    /// `predicted tv1 4 b1-c3 correct|wrong actual b1-c3 score 3 strikes 1`.
    Predicted {
        channel: String,
        ply: u32,
        guess: String,
        actual: String,
        correct: bool,
        score: u32,
        strikes: u32,
    },
    /// `standing alice 12 correct 1 strikes`.
    Standing {
        name: String,
        correct: u32,
        strikes: u32,
    },
    /// `leader 1 alice 12 correct 1 strikes 3 games`: the all-time leaderboard.
    Leader {
        rank: usize,
        entry: boardcast_protocol::LeaderboardEntry,
    },
    /// `you 4 dee 3 correct 2 strikes 1 games`: the asker's own place, always printed after
    /// the leaders.
    You {
        rank: usize,
        entry: boardcast_protocol::LeaderboardEntry,
    },
    /// `you - dee not ranked` (no scored guess yet), or `you - dee not in the top 100`.
    Unranked {
        name: String,
        beyond: Option<usize>,
    },
    Shutdown(String),
    /// `featured ftv m123`: Frisian TV shows this match now (`-` before any was live).
    Featured(Option<String>),
}

impl Note {
    /// Lobby listings fill the home screen, not the status log.
    pub fn is_listing(&self) -> bool {
        matches!(
            self,
            Note::Seek(_) | Note::Live(_) | Note::Channel(_) | Note::LobbyEnd
        )
    }
}

fn name(name: &Option<String>) -> &str {
    name.as_deref().unwrap_or("-")
}

/// A player's name as both clients show it: `BOT ` before the name of a seat a program plays
/// (as lidraughts shows its bots), so people know whom they play.
pub fn player_name(name: &str, bot: bool) -> String {
    if bot {
        format!("BOT {name}")
    } else {
        name.to_owned()
    }
}

/// The players of a lobby line, `-` for a free seat; a member's rating follows the name,
/// `Sietske (1847)`, with a `?` while provisional (`(1512?)`).
fn players(summary: &MatchSummary) -> [String; 2] {
    let shown = |name: &Option<String>, bot, rating: Option<PlayerRating>| {
        let Some(name) = name.as_deref() else {
            return "-".to_owned();
        };
        let name = player_name(name, bot);
        match rating {
            Some(rating) => format!("{name} ({})", rated(rating)),
            None => name,
        }
    };
    [
        shown(&summary.white, summary.white_bot, summary.white_rating),
        shown(&summary.black, summary.black_bot, summary.black_rating),
    ]
}

/// A rating as players read it: `1847`, or `1512?` while provisional.
pub fn rated(rating: PlayerRating) -> String {
    let mark = if rating.provisional { "?" } else { "" };
    format!("{}{mark}", rating.rating)
}

/// ` rated`, ` rated ±300` or nothing, after a lobby line's time control.
fn terms(summary: &MatchSummary) -> String {
    match (summary.rated, summary.rating_range) {
        (false, _) => String::new(),
        (true, None) => " rated".to_owned(),
        (true, Some(range)) => format!(" rated ±{range}"),
    }
}

pub fn phase(phase: MatchPhase) -> &'static str {
    match phase {
        MatchPhase::Waiting => "waiting",
        MatchPhase::Playing => "playing",
        MatchPhase::Finished => "finished",
    }
}

fn time(summary: &MatchSummary) -> String {
    summary
        .time_control
        .map_or_else(|| "untimed".to_owned(), |tc| tc.to_string())
}

/// `alice 12 correct 1 strikes 3 games`.
pub fn ranked(entry: &boardcast_protocol::LeaderboardEntry) -> String {
    format!(
        "{} {} correct {} strikes {} games",
        entry.name, entry.correct, entry.strikes, entry.games
    )
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::Connected { again: false } => write!(f, "connected"),
            Note::Connected { again: true } => write!(f, "reconnected"),
            Note::Disconnected { reason, retry_ms } => {
                write!(f, "disconnected retry {retry_ms}ms: {reason}")
            }
            Note::Seat {
                side,
                match_id,
                invite,
            } => write!(f, "seat {side} {match_id} invite {invite}"),
            Note::Match {
                match_id,
                white,
                black,
                phase: p,
            } => write!(
                f,
                "match {match_id} white {} black {} {}",
                name(white),
                name(black),
                phase(*p)
            ),
            Note::History(moves) => write!(f, "history {}", moves.join(" ")),
            Note::Joined { side, name, bot } => {
                write!(f, "joined {side} {}", player_name(name, *bot))
            }
            Note::Move {
                number,
                side: Side::White,
                notation,
            } => write!(f, "move {number}. {notation}"),
            Note::Move {
                number,
                side: Side::Black,
                notation,
            } => write!(f, "move {number}... {notation}"),
            Note::Turn(side) => write!(f, "turn {side}"),
            Note::Legal(moves) => write!(f, "legal {}", moves.join(" ")),
            Note::Result(text) => write!(f, "result {text}"),
            Note::Ratings(text) => write!(f, "ratings {text}"),
            Note::Draw(what, Some(side)) => write!(f, "draw {what} {side}"),
            Note::Draw(what, None) => write!(f, "draw {what}"),
            Note::Rematch(what, who) => write!(f, "rematch {what} {who}"),
            Note::Takeback(what, Some(side)) => write!(f, "takeback {what} {side}"),
            Note::Takeback(what, None) => write!(f, "takeback {what}"),
            Note::Premove(what, text) => write!(f, "premove {what} {text}"),
            Note::Left(side) => write!(f, "left {side}"),
            Note::Claimable {
                side,
                aborts: false,
            } => write!(f, "claimable {side}: claim win or claim draw"),
            Note::Claimable { side, aborts: true } => write!(
                f,
                "claimable {side}: claim aborts the match (not both sides have moved)"
            ),
            Note::Returned(side) => write!(f, "returned {side}"),
            Note::Berserk(side) => write!(f, "berserk {side}"),
            Note::Error { code, message, .. } => write!(f, "error {code}: {message}"),
            Note::Ambiguous(moves) => write!(f, "ambiguous {}", moves.join(" ")),
            Note::Info(text) | Note::Invite(text) => write!(f, "info {text}"),
            Note::Pdn(url) => write!(f, "info pdn {url}"),
            Note::PdnSaved(path) => write!(f, "info pdn saved to {path}"),
            Note::Seek(s) => {
                let [white, black] = players(s);
                let (host, free) = if s.white.is_some() {
                    (white, "black")
                } else {
                    (black, "white")
                };
                write!(
                    f,
                    "seek {} {host} {} free {free}{}",
                    s.match_id,
                    time(s),
                    terms(s)
                )
            }
            Note::Live(s) => {
                let [white, black] = players(s);
                write!(
                    f,
                    "live {} {white} {black} {} plies {} watchers {}{}",
                    s.match_id,
                    time(s),
                    s.plies,
                    s.watchers,
                    terms(s)
                )
            }
            Note::Channel(c) => {
                write!(f, "channel {}", c.channel)?;
                if let Some(game) = &c.game {
                    write!(f, " {} {} {}", game.serial, game.white, game.black)?;
                }
                write!(f, " watchers {}", c.watchers)
            }
            Note::LobbyEnd => write!(f, "lobby end"),
            Note::Game {
                channel,
                game_id,
                serial,
                white,
                black,
                move_number,
            } => write!(
                f,
                "game {channel} {game_id} {serial} {white} {black} move {move_number}"
            ),
            Note::Revealed { channel, moves } => {
                write!(f, "revealed {channel} {}", moves.join(" "))
            }
            Note::Ply { channel, ply, mv } => write!(f, "ply {channel} {ply} {mv}"),
            Note::GameOver { channel, text } => write!(f, "gameover {channel} {text}"),
            Note::Predicted {
                channel,
                ply,
                guess,
                actual,
                correct,
                score,
                strikes,
            } => write!(
                f,
                "predicted {channel} {ply} {guess} {} actual {actual} score {score} strikes {strikes}",
                if *correct { "correct" } else { "wrong" }
            ),
            Note::Standing {
                name,
                correct,
                strikes,
            } => write!(f, "standing {name} {correct} correct {strikes} strikes"),
            Note::Leader { rank, entry } => write!(f, "leader {rank} {}", ranked(entry)),
            Note::You { rank, entry } => write!(f, "you {rank} {}", ranked(entry)),
            Note::Unranked { name, beyond: None } => write!(f, "you - {name} not ranked"),
            Note::Unranked {
                name,
                beyond: Some(top),
            } => write!(f, "you - {name} not in the top {top}"),
            Note::Shutdown(reason) => write!(f, "shutdown {reason}"),
            Note::Featured(match_id) => write!(f, "featured ftv {}", name(match_id)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_as_documented() {
        let seat = Note::Seat {
            side: Side::White,
            match_id: "m123".into(),
            invite: "ABCD".into(),
        };
        assert_eq!(seat.to_string(), "seat white m123 invite ABCD");
        let moved = Note::Move {
            number: 1,
            side: Side::White,
            notation: "32-28".into(),
        };
        assert_eq!(moved.to_string(), "move 1. 32-28");
        let answer = Note::Move {
            number: 1,
            side: Side::Black,
            notation: "19-23".into(),
        };
        assert_eq!(answer.to_string(), "move 1... 19-23");
        assert_eq!(Note::Turn(Side::Black).to_string(), "turn black");
        let joined = |bot| Note::Joined {
            side: Side::Black,
            name: "Scan 3.1".into(),
            bot,
        };
        assert_eq!(joined(false).to_string(), "joined black Scan 3.1");
        assert_eq!(joined(true).to_string(), "joined black BOT Scan 3.1");
        let error = Note::Error {
            code: "not_your_turn".into(),
            message: "not your turn".into(),
            args: None,
            from_client: false,
        };
        assert_eq!(error.to_string(), "error not_your_turn: not your turn");
        assert_eq!(
            Note::Draw("offered", Some(Side::White)).to_string(),
            "draw offered white"
        );
    }
}
