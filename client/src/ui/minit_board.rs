//! The 5x6 MinitChess board widget, files a–e left to right and rank 6 on top as the module
//! shows it, with the module's two piece sets: FULL (chess figurines) and FLAT (letters).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

pub const LIGHT: Color = Color::Rgb(238, 238, 210);
pub const DARK: Color = Color::Rgb(118, 150, 86);
pub const LAST: Color = Color::Rgb(205, 210, 106);
pub const CURSOR: Color = Color::Rgb(70, 110, 190);
pub const FROM: Color = Color::Rgb(200, 120, 60);
pub const GUESS: Color = Color::Rgb(170, 110, 200);
pub const TARGET: Color = Color::Rgb(100, 150, 100);

/// A board character (`K`, `q`, `.`) as drawn in the FULL or FLAT set.
pub fn glyph(piece: char, flat: bool) -> Option<&'static str> {
    let full = match piece {
        'K' => "♔",
        'Q' => "♕",
        'R' => "♖",
        'B' => "♗",
        'N' => "♘",
        'P' => "♙",
        'k' => "♚",
        'q' => "♛",
        'r' => "♜",
        'b' => "♝",
        'n' => "♞",
        'p' => "♟",
        _ => return None,
    };
    if !flat {
        return Some(full);
    }
    Some(match piece {
        'K' => "K",
        'Q' => "Q",
        'R' => "R",
        'B' => "B",
        'N' => "N",
        'P' => "P",
        'k' => "k",
        'q' => "q",
        'r' => "r",
        'b' => "b",
        'n' => "n",
        _ => "p",
    })
}

pub struct MinitBoard<'a> {
    /// 30 characters, a6 first (RULES.md §1).
    pub board: &'a str,
    pub flat: bool,
    pub last: Option<(usize, usize)>,
    pub cursor: Option<usize>,
    pub from: Option<usize>,
    /// The viewer's guess waiting for its reveal (from, to).
    pub guess: Option<(usize, usize)>,
    /// Where the picked piece may legally go.
    pub targets: Vec<usize>,
}

/// Cell width and height, and the columns taken by the rank labels.
pub const CELL: (u16, u16) = (5, 2);
pub const LABEL: u16 = 2;

impl MinitBoard<'_> {
    /// Top-left corner of board index `i` in `area`.
    pub fn cell_origin(area: Rect, index: usize) -> (u16, u16) {
        let (col, row) = ((index % 5) as u16, (index / 5) as u16);
        (area.x + LABEL + col * CELL.0, area.y + row * CELL.1)
    }

    /// Columns and rows the widget needs.
    pub fn size() -> (u16, u16) {
        (LABEL + 5 * CELL.0, 6 * CELL.1 + 1)
    }
}

impl Widget for MinitBoard<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (width, height) = Self::size();
        if area.is_empty() {
            return;
        }
        if area.width < width || area.height < height {
            buf.set_string(area.x, area.y, "terminal too small", Style::default());
            return;
        }
        let cells: Vec<char> = self.board.chars().collect();
        for index in 0..30 {
            let (x, y) = Self::cell_origin(area, index);
            let dark = (index % 5 + index / 5) % 2 == 1;
            let mut bg = if dark { DARK } else { LIGHT };
            if self
                .last
                .is_some_and(|(from, to)| from == index || to == index)
            {
                bg = LAST;
            }
            if self
                .guess
                .is_some_and(|(from, to)| from == index || to == index)
            {
                bg = GUESS;
            }
            if self.targets.contains(&index) {
                bg = TARGET;
            }
            if self.from == Some(index) {
                bg = FROM;
            }
            if self.cursor == Some(index) {
                bg = CURSOR;
            }
            buf.set_style(Rect::new(x, y, CELL.0, CELL.1), Style::default().bg(bg));
            let piece = cells.get(index).copied().unwrap_or('.');
            if let Some(glyph) = glyph(piece, self.flat) {
                let fg = if piece.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let style = Style::default().fg(fg).add_modifier(Modifier::BOLD);
                buf.set_string(x + CELL.0 / 2, y + CELL.1 / 2, glyph, style);
            }
        }
        let label = Style::default().fg(Color::Gray);
        for row in 0..6u16 {
            let rank = (6 - row).to_string();
            buf.set_string(area.x, area.y + row * CELL.1 + CELL.1 / 2, rank, label);
        }
        for (col, file) in ["a", "b", "c", "d", "e"].into_iter().enumerate() {
            let x = area.x + LABEL + col as u16 * CELL.0 + CELL.0 / 2;
            buf.set_string(x, area.y + 6 * CELL.1, file, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::channel::tests::START;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn draw(widget: MinitBoard<'_>) -> Buffer {
        let (width, height) = MinitBoard::size();
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| frame.render_widget(widget, frame.area()))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn piece(buf: &Buffer, square: &str) -> String {
        let index = crate::app::channel::square_index(square).unwrap();
        let (x, y) = MinitBoard::cell_origin(buf.area, index);
        buf[(x + CELL.0 / 2, y + CELL.1 / 2)].symbol().to_owned()
    }

    #[test]
    fn full_set_shows_figurines_where_the_module_has_them() {
        let buf = draw(MinitBoard {
            board: START,
            flat: false,
            last: None,
            cursor: None,
            from: None,
            guess: None,
            targets: Vec::new(),
        });
        let rank6 = ["a6", "b6", "c6", "d6", "e6"].map(|s| piece(&buf, s));
        assert_eq!(rank6, ["♚", "♛", "♝", "♞", "♜"]);
        let rank1 = ["a1", "b1", "c1", "d1", "e1"].map(|s| piece(&buf, s));
        assert_eq!(rank1, ["♖", "♘", "♗", "♕", "♔"]);
        assert_eq!(piece(&buf, "c5"), "♟");
        assert_eq!(piece(&buf, "c2"), "♙");
        assert_eq!(piece(&buf, "c3"), " ");
        // a1 is dark, b1 light; rank and file labels frame the board.
        let (x, y) = MinitBoard::cell_origin(buf.area, 25);
        assert_eq!(buf[(x, y)].bg, DARK);
        assert_eq!(buf[(x + CELL.0, y)].bg, LIGHT);
        assert_eq!(buf[(0, 1)].symbol(), "6");
        assert_eq!(buf[(4, 12)].symbol(), "a");
    }

    #[test]
    fn flat_set_uses_letters_and_marks_the_last_move_and_cursor() {
        let board = "kqbnrppppp.......N..PPPPPR.BQK";
        let buf = draw(MinitBoard {
            board,
            flat: true,
            last: Some((26, 17)),
            cursor: Some(0),
            from: Some(20),
            guess: Some((1, 29)),
            targets: vec![15],
        });
        assert_eq!(piece(&buf, "c3"), "N");
        assert_eq!(piece(&buf, "b1"), " ");
        assert_eq!(piece(&buf, "a6"), "k");
        let bg = |index| {
            let (x, y) = MinitBoard::cell_origin(buf.area, index);
            buf[(x, y)].bg
        };
        assert_eq!(
            [bg(26), bg(17), bg(0), bg(20), bg(1), bg(29), bg(15)],
            [LAST, LAST, CURSOR, FROM, GUESS, GUESS, TARGET]
        );
    }
}
