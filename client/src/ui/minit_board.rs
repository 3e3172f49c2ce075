//! The 5x6 MinitChess board widget, files a–e left to right and rank 6 on top as the module
//! shows it, with the module's two piece sets: FULL (chess figurines) and FLAT (letters).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

use super::palette::{ColorMode, MinitColors};
use crate::i18n::tr;

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

/// What a square is marked as, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    Cursor,
    From,
    Target,
    Guess,
    Last,
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
    pub colors: ColorMode,
    /// Cell size, from [`MinitBoard::fit`].
    pub cell: (u16, u16),
}

/// The smallest cell (width, height), and the columns taken by the rank labels.
pub const CELL: (u16, u16) = (5, 2);
/// Cell sizes from the largest, all square-looking on a terminal.
const CELLS: [(u16, u16); 4] = [(11, 5), (9, 4), (7, 3), CELL];
pub const LABEL: u16 = 2;

impl MinitBoard<'_> {
    /// Top-left corner of board index `i` in `area`, with cells of `cell`.
    pub fn cell_origin(area: Rect, cell: (u16, u16), index: usize) -> (u16, u16) {
        let (col, row) = ((index % 5) as u16, (index / 5) as u16);
        (area.x + LABEL + col * cell.0, area.y + row * cell.1)
    }

    /// Columns and rows the widget needs with cells of `cell`.
    pub fn size(cell: (u16, u16)) -> (u16, u16) {
        (LABEL + 5 * cell.0, 6 * cell.1 + 1)
    }

    /// The largest cells whose board fits in `room`.
    pub fn fit(room: Rect) -> (u16, u16) {
        CELLS
            .into_iter()
            .find(|&cell| {
                let (w, h) = Self::size(cell);
                room.width >= w && room.height >= h
            })
            .unwrap_or(CELL)
    }
}

impl Widget for MinitBoard<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let cell = self.cell;
        let (width, height) = Self::size(cell);
        if area.is_empty() {
            return;
        }
        if area.width < width || area.height < height {
            buf.set_string(area.x, area.y, tr("tui-too-small"), Style::default());
            return;
        }
        let cells: Vec<char> = self.board.chars().collect();
        let colors = MinitColors::of(self.colors);
        for index in 0..30 {
            let (x, y) = Self::cell_origin(area, cell, index);
            let rect = Rect::new(x, y, cell.0, cell.1);
            let marks = [
                (self.cursor == Some(index), Mark::Cursor),
                (self.from == Some(index), Mark::From),
                (self.targets.contains(&index), Mark::Target),
                (
                    self.guess.is_some_and(|(f, t)| f == index || t == index),
                    Mark::Guess,
                ),
                (
                    self.last.is_some_and(|(f, t)| f == index || t == index),
                    Mark::Last,
                ),
            ];
            let mark = marks.into_iter().find(|(on, _)| *on).map(|(_, mark)| mark);
            let dark = (index % 5 + index / 5) % 2 == 1;
            let piece = cells.get(index).copied().unwrap_or('.');
            let white = piece.is_ascii_uppercase();
            match colors {
                Some(colors) => {
                    let bg = match mark {
                        Some(Mark::Cursor) => colors.cursor,
                        Some(Mark::From) => colors.from,
                        Some(Mark::Target) => colors.target,
                        Some(Mark::Guess) => colors.guess,
                        Some(Mark::Last) => colors.last,
                        None if dark => colors.dark,
                        None => colors.light,
                    };
                    buf.set_style(rect, Style::default().bg(bg));
                    if let Some(glyph) = glyph(piece, self.flat) {
                        let fg = if white {
                            colors.white_piece
                        } else {
                            colors.black_piece
                        };
                        if cell.1 >= 3 {
                            // Big cells: the figurine on a disc of its side's colour, drawn in
                            // the other side's colour, so the piece fills its square.
                            let ink = if white {
                                colors.black_piece
                            } else {
                                colors.white_piece
                            };
                            let square = Rect::new(x, y, cell.0, cell.1);
                            super::frisian_board::draw_disc(buf, square, fg, Some((glyph, ink)));
                        } else {
                            let style = Style::default().fg(fg).add_modifier(Modifier::BOLD);
                            buf.set_string(x + cell.0 / 2, y + cell.1 / 2, glyph, style);
                        }
                    }
                }
                None => {
                    // No colour: letters tell the sides apart, attributes mark the squares.
                    let style = match mark {
                        Some(Mark::Cursor) => Style::default().add_modifier(Modifier::REVERSED),
                        Some(Mark::From) => {
                            Style::default().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED)
                        }
                        Some(_) => Style::default().add_modifier(Modifier::UNDERLINED),
                        None => Style::default(),
                    };
                    buf.set_style(rect, style);
                    let text = match glyph(piece, true) {
                        Some(letter) => letter,
                        None if dark => ":",
                        None => "",
                    };
                    let bold = if white {
                        Modifier::BOLD
                    } else {
                        Modifier::empty()
                    };
                    buf.set_string(
                        x + cell.0 / 2,
                        y + cell.1 / 2,
                        text,
                        style.add_modifier(bold),
                    );
                }
            }
        }
        let label = match colors {
            Some(_) => Style::default().fg(Color::Gray),
            None => Style::default(),
        };
        for row in 0..6u16 {
            let rank = (6 - row).to_string();
            buf.set_string(area.x, area.y + row * cell.1 + cell.1 / 2, rank, label);
        }
        for (col, file) in ["a", "b", "c", "d", "e"].into_iter().enumerate() {
            let x = area.x + LABEL + col as u16 * cell.0 + cell.0 / 2;
            buf.set_string(x, area.y + 6 * cell.1, file, label);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::channel::tests::START;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    const COLORS: MinitColors = MinitColors::TRUECOLOR;

    fn draw(widget: MinitBoard<'_>) -> Buffer {
        let (width, height) = MinitBoard::size(CELL);
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| frame.render_widget(widget, frame.area()))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn piece(buf: &Buffer, square: &str) -> String {
        let index = crate::app::channel::square_index(square).unwrap();
        let (x, y) = MinitBoard::cell_origin(buf.area, CELL, index);
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
            colors: ColorMode::TrueColor,
            cell: CELL,
        });
        let rank6 = ["a6", "b6", "c6", "d6", "e6"].map(|s| piece(&buf, s));
        assert_eq!(rank6, ["♚", "♛", "♝", "♞", "♜"]);
        let rank1 = ["a1", "b1", "c1", "d1", "e1"].map(|s| piece(&buf, s));
        assert_eq!(rank1, ["♖", "♘", "♗", "♕", "♔"]);
        assert_eq!(piece(&buf, "c5"), "♟");
        assert_eq!(piece(&buf, "c2"), "♙");
        assert_eq!(piece(&buf, "c3"), " ");
        // a1 is dark, b1 light; rank and file labels frame the board.
        let (x, y) = MinitBoard::cell_origin(buf.area, CELL, 25);
        assert_eq!(buf[(x, y)].bg, COLORS.dark);
        assert_eq!(buf[(x + CELL.0, y)].bg, COLORS.light);
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
            colors: ColorMode::TrueColor,
            cell: CELL,
        });
        assert_eq!(piece(&buf, "c3"), "N");
        assert_eq!(piece(&buf, "b1"), " ");
        assert_eq!(piece(&buf, "a6"), "k");
        let bg = |index| {
            let (x, y) = MinitBoard::cell_origin(buf.area, CELL, index);
            buf[(x, y)].bg
        };
        assert_eq!(
            [bg(26), bg(17), bg(0), bg(20), bg(1), bg(29), bg(15)],
            [
                COLORS.last,
                COLORS.last,
                COLORS.cursor,
                COLORS.from,
                COLORS.guess,
                COLORS.guess,
                COLORS.target
            ]
        );
    }

    #[test]
    fn white_pieces_are_pure_white_in_256_colours_and_letters_without_colour() {
        let board = |colors| {
            draw(MinitBoard {
                board: START,
                flat: false,
                last: Some((26, 17)),
                cursor: Some(0),
                from: None,
                guess: None,
                targets: Vec::new(),
                colors,
                cell: CELL,
            })
        };
        let buf = board(ColorMode::Ansi256);
        let at = |buf: &Buffer, square: &str| {
            let (x, y) = MinitBoard::cell_origin(
                buf.area,
                CELL,
                crate::app::channel::square_index(square).unwrap(),
            );
            buf[(x + CELL.0 / 2, y + CELL.1 / 2)].clone()
        };
        // c2 (a light square) holds a white pawn: pure white on the mid-tone light square.
        let c2 = at(&buf, "c2");
        assert_eq!(
            (c2.symbol(), c2.fg, c2.bg),
            ("♙", Color::Indexed(231), MinitColors::ANSI256.light)
        );
        assert_eq!(at(&buf, "c5").fg, Color::Indexed(16));
        // NO_COLOR: FLAT letters whatever the set, no colour anywhere, the cursor reversed.
        let buf = board(ColorMode::None);
        assert_eq!(
            ["c2", "c1", "d1", "c5", "a6"].map(|s| at(&buf, s).symbol().to_owned()),
            ["P", "B", "Q", "p", "k"]
        );
        assert!(
            buf.content
                .iter()
                .all(|cell| cell.fg == Color::Reset && cell.bg == Color::Reset)
        );
        assert!(at(&buf, "a6").modifier.contains(Modifier::REVERSED));
        assert!(
            at(&buf, "c3").modifier.contains(Modifier::UNDERLINED),
            "the last move"
        );
    }
}
