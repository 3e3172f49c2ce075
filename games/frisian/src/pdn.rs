//! PDN: export a game (GameType 40, FEN tag when the start is not the initial position) and
//! import PDN move text.

use std::fmt::Write as _;

use thiserror::Error;

use crate::error::{FenError, NotationError};
use crate::moves::{Move, MoveList};
use crate::notation::notation_among;
use crate::outcome::Outcome;
use crate::position::Position;
use crate::types::Color;

/// PDN's GameType of Frisian draughts.
pub const GAME_TYPE: &str = "40";

/// A game read from PDN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    pub start: Position,
    pub moves: Vec<Move>,
    /// The position after the last move.
    pub end: Position,
    /// The result token (`2-0`, `0-2`, `1-1` or `*`).
    pub result: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PdnError {
    #[error("bad FEN tag: {0}")]
    Fen(#[from] FenError),
    #[error("move {ply} ({text}): {error}")]
    Move {
        ply: usize,
        text: String,
        error: NotationError,
    },
    #[error("unterminated {0}")]
    Unterminated(&'static str),
}

/// The PDN result token of an outcome (`*` while the game goes on).
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| o.winner()) {
        None => "*",
        Some(Some(Color::White)) => "2-0",
        Some(Some(Color::Black)) => "0-2",
        Some(None) => "1-1",
    }
}

/// Writes a game played from `start`; the result is `result` if given (e.g. a resignation
/// decided by the server), otherwise the rules' outcome of the final position.
pub fn export(start: &Position, moves: &[Move], result: Option<&str>) -> Result<String, PdnError> {
    let mut text = String::new();
    let mut pos = *start;
    // One list for the whole game, filled once per ply.
    let mut legal = MoveList::new();
    for (ply, mv) in moves.iter().enumerate() {
        pos.legal_moves_into(&mut legal);
        if !legal.contains(mv) {
            let error = NotationError::Illegal(pos.diagnose_among(&legal, mv.route(), false));
            return Err(PdnError::Move {
                ply: ply + 1,
                text: format!("{mv:?}"),
                error,
            });
        }
        if pos.turn() == Color::White {
            write!(text, "{}. ", pos.fullmove_number()).unwrap();
        } else if ply == 0 {
            write!(text, "{}... ", pos.fullmove_number()).unwrap();
        }
        text.push_str(&notation_among(&legal, mv));
        text.push(' ');
        pos = pos.play_legal(mv);
    }
    let result = result.unwrap_or_else(|| result_token(pos.outcome()));
    text.push_str(result);
    let mut out = format!("[GameType \"{GAME_TYPE}\"]\n");
    if *start != Position::start() {
        writeln!(out, "[FEN \"{}\"]", start.fen()).unwrap();
    }
    writeln!(out, "[Result \"{result}\"]\n").unwrap();
    out.push_str(&wrap(&text, 79));
    out.push('\n');
    Ok(out)
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// Reads one PDN game: tags (the FEN tag sets the start), comments `{…}`, variations `(…)`,
/// move numbers, NAGs and move marks (`!`, `?`) are understood and skipped.
pub fn import(pdn: &str) -> Result<PdnGame, PdnError> {
    let mut start = Position::start();
    let mut body = String::new();
    let mut rest = pdn;
    while let Some(i) = rest.find(['[', '{', '(']) {
        body.push_str(&rest[..i]);
        let close = match rest.as_bytes()[i] {
            b'[' => ']',
            b'{' => '}',
            _ => ')',
        };
        let end = rest[i..]
            .find(close)
            .ok_or(PdnError::Unterminated("tag or comment"))?
            + i;
        if close == ']' {
            if let Some(fen) = tag_value(&rest[i + 1..end], "FEN") {
                start = Position::from_fen(fen)?;
            }
        }
        body.push(' ');
        rest = &rest[end + 1..];
    }
    body.push_str(rest);
    let mut pos = start;
    let mut moves = Vec::new();
    let mut result = String::from("*");
    for token in body.split_whitespace() {
        if matches!(
            token,
            "2-0" | "0-2" | "1-1" | "*" | "1-0" | "0-1" | "0-0" | "1/2-1/2"
        ) {
            result = token.to_string();
            continue;
        }
        // A move number (`12.`, `12...`) may be glued to the move that follows it.
        let token = token.rsplit_once('.').map_or(token, |(_, after)| after);
        let token = token.trim_end_matches(['!', '?']);
        if token.is_empty() || token.starts_with('$') {
            continue;
        }
        let mv = pos.parse_move(token).map_err(|error| PdnError::Move {
            ply: moves.len() + 1,
            text: token.to_string(),
            error,
        })?;
        pos = pos.play_legal(&mv);
        moves.push(mv);
    }
    Ok(PdnGame {
        start,
        moves,
        end: pos,
        result,
    })
}

fn tag_value<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let (key, value) = tag.trim().split_once(char::is_whitespace)?;
    (key == name).then(|| value.trim().trim_matches('"'))
}
