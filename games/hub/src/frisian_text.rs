//! Frisian positions and moves in Hub notation, and the search request sent before `go think`.
//!
//! A Hub position is the side to move (`W`/`B`) and one character per square 1–50
//! (`w b W B e`). A move is `from-to`, or for a capture `from x to x captured x …` (captured
//! squares in any order, landing squares between them left out). Frisian's king rule counts a
//! king's consecutive moves, so the search request sends the position after the last
//! irreversible move (a man's move or a capture) and every move since: from those the engine can
//! rebuild the counters and see repetitions.

use std::time::Duration;

use frisian::{Color, Move, MoveList, Piece, PlayError, Position, Square, SquareSet};
use thiserror::Error;

use crate::line::Line;

/// Why the engine's move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EngineMoveError {
    #[error("`{0}` is not a move in Hub notation")]
    Syntax(String),
    #[error("`{mv}` is not a legal move here (legal: {legal})")]
    Illegal { mv: String, legal: String },
}

/// The position in Hub notation.
pub fn position_text(position: &Position) -> String {
    let mut text = String::with_capacity(51);
    text.push(match position.turn() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    text.extend(Square::all().map(|sq| match position.piece_at(sq) {
        None => 'e',
        Some(Piece::Man(Color::White)) => 'w',
        Some(Piece::Man(Color::Black)) => 'b',
        Some(Piece::King(Color::White)) => 'W',
        Some(Piece::King(Color::Black)) => 'B',
    }));
    text
}

/// Why a Hub position cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionTextError {
    #[error("a Hub position is 51 characters (side to move, then squares 1-50), not {0}")]
    Length(usize),
    #[error("`{0}` is not a side to move (W or B)")]
    Side(char),
    #[error("`{piece}` on square {square} is not one of w b W B e")]
    Piece { piece: char, square: usize },
    #[error("not a valid Frisian position: {0}")]
    Invalid(#[from] frisian::FenError),
}

/// Reads a Hub position (what the test engine receives in `pos pos=…`).
pub fn parse_position_text(text: &str) -> Result<Position, PositionTextError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 51 {
        return Err(PositionTextError::Length(chars.len()));
    }
    let side = match chars[0] {
        'W' => 'W',
        'B' => 'B',
        other => return Err(PositionTextError::Side(other)),
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (index, piece) in chars[1..].iter().enumerate() {
        let square = index + 1;
        match piece {
            'w' => white.push(square.to_string()),
            'W' => white.push(format!("K{square}")),
            'b' => black.push(square.to_string()),
            'B' => black.push(format!("K{square}")),
            'e' => {}
            &piece => return Err(PositionTextError::Piece { piece, square }),
        }
    }
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    Ok(Position::from_fen(&fen)?)
}

/// The move in Hub notation.
pub fn move_text(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut text = format!("{}x{}", mv.from(), mv.to());
    for sq in mv.captures().iter() {
        text.push('x');
        text.push_str(&sq.to_string());
    }
    text
}

/// Reads the engine's move and finds it among the legal moves of `position` (same origin,
/// destination and captured set); nothing else is ever played for the engine.
pub fn parse_engine_move(position: &Position, text: &str) -> Result<Move, EngineMoveError> {
    let syntax = || EngineMoveError::Syntax(text.to_string());
    let capture = text.contains('x');
    let squares = text
        .split(if capture { 'x' } else { '-' })
        .map(|t| t.parse::<u8>().ok().and_then(Square::new))
        .collect::<Option<Vec<Square>>>()
        .ok_or_else(syntax)?;
    if squares.len() < 2 || (!capture && squares.len() != 2) || (capture && squares.len() < 3) {
        return Err(syntax());
    }
    let captured: SquareSet = squares[2..].iter().copied().collect();
    if captured.len() != squares.len() - 2 {
        return Err(syntax());
    }
    let mut legal = MoveList::new();
    position.legal_moves_into(&mut legal);
    legal
        .iter()
        .find(|m| m.from() == squares[0] && m.to() == squares[1] && m.captures() == captured)
        .copied()
        .ok_or_else(|| EngineMoveError::Illegal {
            mv: text.to_string(),
            legal: legal.iter().map(move_text).collect::<Vec<_>>().join(" "),
        })
}

/// Everything the engine needs for one search: `pos` and `level` lines, ready to send.
#[derive(Debug, Clone, PartialEq)]
pub struct Search {
    /// The position after the last irreversible move.
    pub base: Position,
    /// The moves played since `base`.
    pub since: Vec<Move>,
    /// The position the engine must move in.
    pub current: Position,
}

impl Search {
    /// Replays `moves` from `start`; fails on the first illegal move (the server never sends
    /// one, so that is a bug worth stopping for, never something to pass on to the engine).
    pub fn new(start: &Position, moves: &[Move]) -> Result<Search, PlayError> {
        let mut current = *start;
        let mut base = *start;
        let mut since = Vec::new();
        for mv in moves {
            let irreversible = mv.is_capture() || !mv.is_king_move();
            current = current.play(*mv)?;
            if irreversible {
                base = current;
                since.clear();
            } else {
                since.push(*mv);
            }
        }
        Ok(Search {
            base,
            since,
            current,
        })
    }

    /// `pos pos=… [moves="…"]`.
    pub fn pos_line(&self) -> Line {
        let line = Line::new("pos").arg("pos", position_text(&self.base));
        if self.since.is_empty() {
            return line;
        }
        let moves: Vec<String> = self.since.iter().map(move_text).collect();
        line.arg("moves", moves.join(" "))
    }
}

/// `level time=… [inc=…]` from the engine's remaining time and the increment (Fischer).
pub fn level_line(remaining: Duration, increment: Duration) -> Line {
    let line = Line::new("level").arg("time", format!("{:.3}", remaining.as_secs_f64()));
    if increment.is_zero() {
        return line;
    }
    line.arg("inc", format!("{:.3}", increment.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn writes_the_start_position_as_the_protocol_shows_it() {
        assert_eq!(position_text(&Position::start()), START);
    }

    #[test]
    fn reads_back_what_it_writes() {
        let pos = Position::from_fen("B:WK47,K50,35:BK3,K4,16").unwrap();
        assert_eq!(parse_position_text(&position_text(&pos)), Ok(pos));
        assert_eq!(parse_position_text(START), Ok(Position::start()));
        assert_eq!(
            parse_position_text("W").unwrap_err().to_string(),
            "a Hub position is 51 characters (side to move, then squares 1-50), not 1"
        );
        let wrong = format!("W{}x", &START[1..50]);
        assert_eq!(
            parse_position_text(&wrong),
            Err(PositionTextError::Piece {
                piece: 'x',
                square: 50
            })
        );
    }

    #[test]
    fn reads_quiet_moves_and_refuses_illegal_or_garbled_ones() {
        let start = Position::start();
        let mv = parse_engine_move(&start, "32-28").unwrap();
        assert_eq!(move_text(&mv), "32-28");
        assert_eq!(
            parse_engine_move(&start, "33-27").unwrap_err(),
            EngineMoveError::Illegal {
                mv: "33-27".into(),
                legal: start
                    .legal_moves()
                    .iter()
                    .map(move_text)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        );
        for garbage in [
            "",
            "32",
            "32-28-23",
            "e2e4",
            "32x28",
            "51-46",
            "32x28x19x19",
        ] {
            assert_eq!(
                parse_engine_move(&start, garbage),
                Err(EngineMoveError::Syntax(garbage.into())),
                "{garbage}"
            );
        }
    }

    #[test]
    fn captures_round_trip_with_captured_squares_in_any_order() {
        // White to move after 32-28 19-23: 28x19 captures 23.
        let mut pos = Position::start();
        for text in ["32-28", "19-23"] {
            let mv = parse_engine_move(&pos, text).unwrap();
            pos = pos.play(mv).unwrap();
        }
        let capture = pos.legal_moves()[0];
        let text = move_text(&capture);
        assert_eq!(text, "28x19x23");
        assert_eq!(parse_engine_move(&pos, &text), Ok(capture));
    }

    #[test]
    fn the_search_starts_after_the_last_irreversible_move() {
        let start = Position::from_fen("W:WK47,K50,35:BK3,K4,16").unwrap();
        let mut pos = start;
        let mut moves = Vec::new();
        for text in ["35-30", "16-21", "47-42", "3-8", "42-47"] {
            let mv = parse_engine_move(&pos, text).unwrap();
            pos = pos.play(mv).unwrap();
            moves.push(mv);
        }
        let search = Search::new(&start, &moves).unwrap();
        assert_eq!(search.current, pos);
        assert_eq!(move_text(&search.since[0]), "47-42");
        assert_eq!(
            search.pos_line().to_string(),
            format!(
                r#"pos pos={} moves="47-42 3-8 42-47""#,
                position_text(&search.base)
            )
        );
        assert_eq!(
            level_line(Duration::from_millis(291_587), Duration::from_secs(3)).to_string(),
            "level time=291.587 inc=3.000"
        );
        assert_eq!(
            Search::new(&Position::start(), &[])
                .unwrap()
                .pos_line()
                .to_string(),
            format!("pos pos={START}")
        );
    }
}
