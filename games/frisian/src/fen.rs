//! lidraughts' FEN: `W:W31,…,50:B1,…,20:H0:F1:+0+0` (RULES.md §5). Input also takes ranges
//! (`W31-50`) and missing `H`, `F` and counter fields; output is canonical and complete.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::board::{PROMO_BLACK, PROMO_WHITE};
use crate::error::FenError;
use crate::position::{Counter, Position};
use crate::types::{Color, Square};

impl Position {
    /// Reads a FEN; the result is validated (no square twice, no man on its own crowning row)
    /// and its three-move counters are reduced to the effective ones.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fen = fen.trim();
        if fen.is_empty() {
            return Err(FenError::Empty);
        }
        let mut fields = fen.split(':');
        let turn = match fields.next().map(str::trim) {
            Some("W") => Color::White,
            Some("B") => Color::Black,
            other => return Err(FenError::BadTurn(other.unwrap_or("").to_string())),
        };
        let mut pos = Position {
            pieces: [0; 2],
            kings: 0,
            turn,
            counters: [Counter::NONE; 2],
            halfmoves: 0,
            fullmove: 1,
        };
        let mut seen = [false; 2];
        for field in fields {
            let field = field.trim();
            let Some(tag) = field.chars().next() else {
                return Err(FenError::UnknownField(field.to_string()));
            };
            let rest = &field[tag.len_utf8()..];
            match tag {
                'W' | 'B' => {
                    let color = if tag == 'W' {
                        Color::White
                    } else {
                        Color::Black
                    };
                    seen[color.index()] = true;
                    read_pieces(&mut pos, color, rest)?;
                }
                'H' => pos.halfmoves = number(tag, rest)?,
                'F' => pos.fullmove = number(tag, rest)?,
                '+' => pos.counters = read_counters(field)?,
                _ => return Err(FenError::UnknownField(field.to_string())),
            }
        }
        for color in [Color::White, Color::Black] {
            if !seen[color.index()] {
                return Err(FenError::MissingPieces(color));
            }
        }
        for (color, row) in [(Color::White, PROMO_WHITE), (Color::Black, PROMO_BLACK)] {
            if let Some(sq) = pos.men(color).iter().find(|sq| sq.bit() & row != 0) {
                return Err(FenError::ManOnPromotionRow(color, sq.number()));
            }
        }
        pos.normalize_counters();
        Ok(pos)
    }

    /// The canonical FEN.
    pub fn fen(&self) -> String {
        self.to_string()
    }
}

fn number(field: char, text: &str) -> Result<u16, FenError> {
    text.trim().parse().map_err(|_| FenError::BadNumber {
        field,
        value: text.to_string(),
    })
}

fn square(text: &str) -> Result<u8, FenError> {
    text.trim()
        .parse::<u8>()
        .ok()
        .filter(|n| Square::new(*n).is_some())
        .ok_or_else(|| FenError::BadSquare(text.to_string()))
}

fn read_pieces(pos: &mut Position, color: Color, list: &str) -> Result<(), FenError> {
    for token in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (king, body) = match token.strip_prefix('K') {
            Some(b) => (true, b),
            None => (false, token),
        };
        let (lo, hi) = match body.split_once('-') {
            Some((a, b)) => (square(a)?, square(b)?),
            None => (square(body)?, square(body)?),
        };
        if lo > hi {
            return Err(FenError::BadSquare(token.to_string()));
        }
        for n in lo..=hi {
            let bit = Square::from_number_unchecked(n).bit();
            if (pos.pieces[0] | pos.pieces[1]) & bit != 0 {
                return Err(FenError::DuplicateSquare(n));
            }
            pos.pieces[color.index()] |= bit;
            if king {
                pos.kings |= bit;
            }
        }
    }
    Ok(())
}

/// `+<black>+<white>`, each `0` or a count 1–3 followed by a two-digit square.
fn read_counters(field: &str) -> Result<[Counter; 2], FenError> {
    let bad = || FenError::BadCounter(field.to_string());
    let parts: Vec<&str> = field.split('+').collect();
    let ["", black, white] = parts[..] else {
        return Err(bad());
    };
    let one = |s: &str| -> Result<Counter, FenError> {
        let bytes = s.as_bytes();
        match bytes {
            [b'0'] => Ok(Counter::NONE),
            [c @ b'1'..=b'3', d1 @ b'0'..=b'9', d2 @ b'0'..=b'9'] => {
                let sq = (d1 - b'0') * 10 + (d2 - b'0');
                Square::new(sq).ok_or_else(bad)?;
                Ok(Counter {
                    count: c - b'0',
                    square: sq,
                })
            }
            _ => Err(bad()),
        }
    };
    Ok([one(white)?, one(black)?])
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.turn == Color::White { "W" } else { "B" })?;
        for color in [Color::White, Color::Black] {
            f.write_str(if color == Color::White { ":W" } else { ":B" })?;
            for (i, sq) in self.pieces(color).iter().enumerate() {
                if i > 0 {
                    f.write_char(',')?;
                }
                if self.kings(color).contains(sq) {
                    f.write_char('K')?;
                }
                write!(f, "{sq}")?;
            }
        }
        write!(f, ":H{}:F{}:", self.halfmoves, self.fullmove)?;
        for color in [Color::Black, Color::White] {
            match self.king_counter(color) {
                Some((count, sq)) => write!(f, "+{count}{:02}", sq.number())?,
                None => f.write_str("+0")?,
            }
        }
        Ok(())
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}
