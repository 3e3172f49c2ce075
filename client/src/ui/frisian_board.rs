//! The 10x10 Frisian board widget: light and dark squares, men and kings of both colours,
//! optional square numbers, the last move, cursor and selection highlights, and the
//! three-move counter of a king drawn on its square. Black's view is turned round.

use boardcast_protocol::{KingCounters, Side};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;

use super::palette::ColorMode;
use crate::app::fen::{Board, Piece, cell_square};
use crate::i18n::tr;

pub const LIGHT: Color = Color::Rgb(232, 208, 170);
pub const DARK: Color = Color::Rgb(140, 95, 60);
pub const LAST: Color = Color::Rgb(190, 160, 50);
pub const CURSOR: Color = Color::Rgb(70, 110, 190);
pub const SELECTED: Color = Color::Rgb(60, 140, 70);
pub const TARGET: Color = Color::Rgb(100, 150, 100);
pub const CAPTURED: Color = Color::Rgb(200, 60, 50);

/// Cell size in terminal columns and rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    pub width: u16,
    pub height: u16,
}

impl Cell {
    /// The largest square-looking cells that fit (a number line above the piece), down to
    /// one line per row.
    pub fn fit(area: Rect) -> Cell {
        const SIZES: [(u16, u16); 6] = [(11, 5), (9, 4), (7, 3), (5, 2), (4, 2), (3, 1)];
        let (width, height) = SIZES
            .into_iter()
            .find(|&(w, h)| area.width >= w * 10 && area.height >= h * 10)
            .unwrap_or((3, 1));
        Cell { width, height }
    }

    /// The line of a cell the piece stands on: below the number, in the middle.
    pub fn piece_row(self) -> u16 {
        (self.height / 2).max(self.height.min(2) - 1)
    }

    pub fn board_size(self) -> (u16, u16) {
        (self.width * 10, self.height * 10)
    }
}

/// The symbol of a piece: `○ ♔ ● ♚`, or `w W b B` in letter mode.
pub fn symbol(piece: Piece, letters: bool) -> &'static str {
    match (piece.side, piece.king, letters) {
        (Side::White, false, false) => "○",
        (Side::White, true, false) => "♔",
        (Side::Black, false, false) => "●",
        (Side::Black, true, false) => "♚",
        (Side::White, false, true) => "w",
        (Side::White, true, true) => "W",
        (Side::Black, false, true) => "b",
        (Side::Black, true, true) => "B",
    }
}

pub struct FrisianBoard<'a> {
    pub board: &'a Board,
    pub flipped: bool,
    pub numbers: bool,
    pub letters: bool,
    /// Origin and landing squares of the last move.
    pub last: &'a [u8],
    /// Cursor as (row, column) with White at the bottom.
    pub cursor: Option<(u8, u8)>,
    pub selected: Option<u8>,
    /// Where the selected piece can go (or the squares of the route being chosen).
    pub targets: Vec<u8>,
    /// The pieces the route being chosen takes.
    pub captured: Vec<u8>,
    pub counters: KingCounters,
    pub colors: ColorMode,
}

impl FrisianBoard<'_> {
    /// Top-left corner of board cell (row, col) in `area`, as drawn.
    pub fn cell_origin(area: Rect, cell: Cell, flipped: bool, row: u8, col: u8) -> (u16, u16) {
        let (row, col) = if flipped {
            (9 - row, 9 - col)
        } else {
            (row, col)
        };
        (
            area.x + u16::from(col) * cell.width,
            area.y + u16::from(row) * cell.height,
        )
    }

    fn counter_on(&self, square: u8) -> Option<u8> {
        [self.counters.white, self.counters.black]
            .into_iter()
            .flatten()
            .find(|c| c.square == square && c.count > 0)
            .map(|c| c.count)
    }
}

impl Widget for FrisianBoard<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let cell = Cell::fit(area);
        let (width, height) = cell.board_size();
        if area.is_empty() {
            return;
        }
        if area.width < width || area.height < height {
            buf.set_string(area.x, area.y, tr("tui-too-small"), Style::default());
            return;
        }
        for row in 0..10u8 {
            for col in 0..10u8 {
                let (x, y) = Self::cell_origin(area, cell, self.flipped, row, col);
                let rect = Rect::new(x, y, cell.width, cell.height);
                let square = cell_square(row, col);
                let mut bg = if square.is_some() { DARK } else { LIGHT };
                if let Some(square) = square {
                    if self.last.contains(&square) {
                        bg = LAST;
                    }
                    if self.targets.contains(&square) {
                        bg = TARGET;
                    }
                    if self.captured.contains(&square) {
                        bg = CAPTURED;
                    }
                    if self.selected == Some(square) {
                        bg = SELECTED;
                    }
                }
                if self.cursor == Some((row, col)) {
                    bg = CURSOR;
                }
                let style = match self.colors {
                    ColorMode::None => {
                        // Without colour the marks are text attributes: the cursor and the
                        // picked piece reversed, the rest underlined (captures struck out).
                        let cursor = self.cursor == Some((row, col));
                        let picked = square.is_some() && self.selected == square;
                        let modifier = match bg {
                            _ if cursor || picked => Modifier::REVERSED,
                            CAPTURED => Modifier::CROSSED_OUT | Modifier::UNDERLINED,
                            LAST | TARGET => Modifier::UNDERLINED,
                            _ => Modifier::empty(),
                        };
                        Style::default().add_modifier(modifier)
                    }
                    _ => Style::default().bg(bg),
                };
                buf.set_style(rect, style);
                let Some(square) = square else { continue };
                let piece = self.board.get(square);
                let centre_x = x + cell.width / 2;
                let piece_y = y + cell.piece_row();
                if self.numbers && (cell.height > 1 || piece.is_none()) {
                    let number = format!("{square:>2}");
                    let style = Style::default().fg(Color::Rgb(230, 215, 190));
                    let number_x = if cell.height > 1 { x } else { centre_x - 1 };
                    buf.set_string(number_x, y, number, style);
                }
                if let Some(piece) = piece {
                    let fg = match piece.side {
                        Side::White => Color::White,
                        Side::Black => Color::Black,
                    };
                    let style = Style::default().fg(fg).add_modifier(Modifier::BOLD);
                    let glyph = !self.letters && self.colors != ColorMode::None;
                    if glyph && cell.height >= 3 {
                        let crown = match piece.side {
                            Side::White => Color::Black,
                            Side::Black => Color::White,
                        };
                        draw_disc(buf, rect, fg, piece.king.then_some(("♚", crown)));
                    } else {
                        buf.set_string(centre_x, piece_y, symbol(piece, self.letters), style);
                    }
                }
                if let Some(count) = self.counter_on(square) {
                    let style = Style::default()
                        .fg(if count >= 3 {
                            Color::Red
                        } else {
                            Color::Yellow
                        })
                        .add_modifier(Modifier::BOLD);
                    buf.set_string(x + cell.width - 1, y, count.to_string(), style);
                }
            }
        }
    }
}

/// A piece as big as its cell: a disc of block characters under the square's number line
/// (`▐█▌` in cells three lines high, `▄███▄`/`▀███▀` in four, three rows in five), so the
/// board is not one glyph in a wide empty square on a big terminal. `mark` is drawn in its
/// colour in the middle of the disc: a Frisian king's crown, a chess piece's figurine.
pub fn draw_disc(buf: &mut Buffer, cell: Rect, colour: Color, mark: Option<(&str, Color)>) {
    let width = cell.width.saturating_sub(4).max(3);
    let rows = cell.height.saturating_sub(2).max(1);
    let x = cell.x + cell.width / 2 - width / 2;
    let style = Style::default().fg(colour);
    let inner = "█".repeat(usize::from(width - 2));
    for row in 0..rows {
        let (left, right) = match (rows, row) {
            (1, _) => ("▐", "▌"),
            (_, 0) => ("▄", "▄"),
            (_, r) if r + 1 == rows => ("▀", "▀"),
            _ => ("█", "█"),
        };
        buf.set_string(x, cell.y + 1 + row, format!("{left}{inner}{right}"), style);
    }
    if let Some((mark, fg)) = mark {
        let style = Style::default()
            .fg(fg)
            .bg(colour)
            .add_modifier(Modifier::BOLD);
        buf.set_string(cell.x + cell.width / 2, cell.y + 1 + rows / 2, mark, style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardcast_protocol::KingCounter;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    const NO_COUNTERS: KingCounters = KingCounters {
        white: None,
        black: None,
    };

    fn draw(widget: FrisianBoard<'_>, width: u16, height: u16) -> Buffer {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| frame.render_widget(widget, frame.area()))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn plain(board: &Board) -> FrisianBoard<'_> {
        FrisianBoard {
            board,
            flipped: false,
            numbers: false,
            letters: false,
            last: &[],
            cursor: None,
            selected: None,
            targets: Vec::new(),
            captured: Vec::new(),
            counters: NO_COUNTERS,
            colors: ColorMode::TrueColor,
        }
    }

    /// The piece symbol drawn for `square` (tall cells: second line, centre column).
    fn at(buf: &Buffer, square: u8, flipped: bool) -> String {
        let (row, col) = crate::app::fen::square_cell(square);
        let cell = Cell::fit(buf.area);
        let (x, y) = FrisianBoard::cell_origin(buf.area, cell, flipped, row, col);
        buf[(x + cell.width / 2, y + cell.piece_row())]
            .symbol()
            .to_owned()
    }

    #[test]
    fn start_position_has_black_on_top_white_below() {
        let board = Board::from_fen("W:W31-50:B1-20:H0:F1:+0+0");
        let buf = draw(plain(&board), 50, 20);
        for square in 1..=20 {
            assert_eq!(at(&buf, square, false), "●", "square {square}");
        }
        for square in 21..=30 {
            assert_eq!(at(&buf, square, false), " ", "square {square}");
        }
        for square in 31..=50 {
            assert_eq!(at(&buf, square, false), "○", "square {square}");
        }
        // Square 1 is the second square of the top row; 46 is White's bottom-left.
        assert_eq!(buf[(5 + 2, 1)].symbol(), "●");
        assert_eq!(buf[(2, 19)].symbol(), "○");
        assert_eq!(buf[(0, 0)].bg, LIGHT);
        assert_eq!(buf[(5, 0)].bg, DARK);
    }

    #[test]
    fn kings_are_distinct_from_men_in_symbols_and_letters() {
        let board = Board::from_fen("W:W31,K45:B1,K20:H0");
        let buf = draw(plain(&board), 50, 20);
        assert_eq!(at(&buf, 45, false), "♔");
        assert_eq!(at(&buf, 31, false), "○");
        assert_eq!(at(&buf, 20, false), "♚");
        assert_eq!(at(&buf, 1, false), "●");
        let letters = FrisianBoard {
            letters: true,
            ..plain(&board)
        };
        let buf = draw(letters, 50, 20);
        assert_eq!(
            [45, 31, 20, 1].map(|s| at(&buf, s, false)),
            ["W", "w", "B", "b"]
        );
    }

    #[test]
    fn the_flipped_board_puts_square_50_top_left() {
        let board = Board::from_fen("W:W31-50:B1-20:H0:F1:+0+0");
        let flipped = FrisianBoard {
            flipped: true,
            numbers: true,
            ..plain(&board)
        };
        let buf = draw(flipped, 50, 20);
        // Top-left dark cell is square 50 (row 9, column 8 turned round to row 0, column 1).
        assert_eq!(buf[(5, 0)].symbol(), "5");
        assert_eq!(buf[(6, 0)].symbol(), "0");
        assert_eq!(buf[(7, 1)].symbol(), "○");
        // Bottom row holds Black's men, square 1 second from the right.
        assert_eq!(buf[(42, 19)].symbol(), "●");
        assert_eq!(buf[(40, 18)].symbol(), " ");
        assert_eq!(buf[(41, 18)].symbol(), "1");
        assert_eq!(buf[(47, 19)].bg, LIGHT);
    }

    #[test]
    fn last_move_cursor_and_counters_are_marked() {
        let board = Board::from_fen("B:W28,K30:B1,K20:H0:F10:+0+330");
        let counters = KingCounters {
            white: Some(KingCounter {
                count: 3,
                square: 30,
            }),
            black: None,
        };
        let widget = FrisianBoard {
            last: &[32, 28],
            cursor: Some((0, 1)),
            counters,
            ..plain(&board)
        };
        let buf = draw(widget, 50, 20);
        let origin = |square| {
            let (row, col) = crate::app::fen::square_cell(square);
            FrisianBoard::cell_origin(buf.area, Cell::fit(buf.area), false, row, col)
        };
        let (x, y) = origin(28);
        assert_eq!(buf[(x, y)].bg, LAST);
        let (x, y) = origin(32);
        assert_eq!(buf[(x + 2, y + 1)].bg, LAST);
        let (x, y) = origin(30);
        assert_eq!(buf[(x + 4, y)].symbol(), "3");
        assert_eq!(buf[(x + 4, y)].fg, Color::Red);
        let (x, y) = origin(1);
        assert_eq!(buf[(x, y)].bg, CURSOR);
        let (x, y) = origin(33);
        assert_eq!(buf[(x, y)].bg, DARK);
    }

    #[test]
    fn compact_cells_show_numbers_on_empty_squares_only() {
        let board = Board::from_fen("W:W31-50:B1-20");
        let widget = FrisianBoard {
            numbers: true,
            ..plain(&board)
        };
        let buf = draw(widget, 30, 10);
        assert_eq!(Cell::fit(buf.area).width, 3);
        // Square 21 (row 4, column 1): empty, shows its number; square 1 shows its piece.
        assert_eq!(buf[(3, 4)].symbol(), "2");
        assert_eq!(buf[(4, 4)].symbol(), "1");
        assert_eq!(buf[(4, 0)].symbol(), "●");
    }

    #[test]
    fn without_colour_the_cursor_and_marks_are_attributes() {
        let board = Board::from_fen("W:W28,32:B1");
        let widget = FrisianBoard {
            last: &[32, 28],
            cursor: Some((0, 1)),
            colors: ColorMode::None,
            ..plain(&board)
        };
        let buf = draw(widget, 50, 20);
        assert!(buf.content.iter().all(|c| c.bg == Color::Reset));
        let origin = |square| {
            let (row, col) = crate::app::fen::square_cell(square);
            FrisianBoard::cell_origin(buf.area, Cell::fit(buf.area), false, row, col)
        };
        let (x, y) = origin(1);
        assert!(
            buf[(x, y)].modifier.contains(Modifier::REVERSED),
            "the cursor"
        );
        let (x, y) = origin(28);
        assert!(
            buf[(x, y)].modifier.contains(Modifier::UNDERLINED),
            "the last move"
        );
        assert_eq!(at(&buf, 28, false), "○");
    }
}
