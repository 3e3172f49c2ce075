//! Colours of the MinitChess board for the three kinds of terminal: truecolor (24-bit), 256
//! colours, and none (`NO_COLOR`, https://no-color.org). Every square colour, highlights
//! included, is a mid-tone: white and black pieces both keep a contrast of at least 3:1 (WCAG)
//! on it. The pieces are pure white and pure black, never the theme's ANSI white and black.

use ratatui::style::Color;

/// What the terminal can show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ColorMode {
    #[default]
    TrueColor,
    Ansi256,
    /// `NO_COLOR`: no colours at all; pieces are letters (upper case white, lower case black)
    /// and highlights are text attributes.
    None,
}

impl ColorMode {
    /// From the environment: `NO_COLOR` (non-empty) wins, then `COLORTERM` says truecolor.
    pub fn detect() -> ColorMode {
        let var = |name| std::env::var(name).unwrap_or_default();
        Self::from_env(&var("NO_COLOR"), &var("COLORTERM"))
    }

    pub fn from_env(no_color: &str, colorterm: &str) -> ColorMode {
        if !no_color.is_empty() {
            ColorMode::None
        } else if matches!(colorterm, "truecolor" | "24bit") {
            ColorMode::TrueColor
        } else {
            ColorMode::Ansi256
        }
    }
}

/// The board's colours in one mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MinitColors {
    pub light: Color,
    pub dark: Color,
    pub last: Color,
    pub cursor: Color,
    pub from: Color,
    pub guess: Color,
    pub target: Color,
    pub white_piece: Color,
    pub black_piece: Color,
}

impl MinitColors {
    pub const TRUECOLOR: MinitColors = MinitColors {
        light: Color::Rgb(165, 140, 100),
        dark: Color::Rgb(120, 100, 70),
        last: Color::Rgb(150, 140, 55),
        cursor: Color::Rgb(70, 110, 190),
        from: Color::Rgb(200, 110, 50),
        guess: Color::Rgb(160, 100, 190),
        target: Color::Rgb(90, 140, 90),
        white_piece: Color::Rgb(255, 255, 255),
        black_piece: Color::Rgb(0, 0, 0),
    };

    /// The nearest colours of the xterm 6x6x6 cube (indexes 16-231), checked the same way.
    pub const ANSI256: MinitColors = MinitColors {
        light: Color::Indexed(137),
        dark: Color::Indexed(94),
        last: Color::Indexed(100),
        cursor: Color::Indexed(61),
        from: Color::Indexed(167),
        guess: Color::Indexed(133),
        target: Color::Indexed(65),
        white_piece: Color::Indexed(231),
        black_piece: Color::Indexed(16),
    };

    pub fn of(mode: ColorMode) -> Option<MinitColors> {
        match mode {
            ColorMode::TrueColor => Some(Self::TRUECOLOR),
            ColorMode::Ansi256 => Some(Self::ANSI256),
            ColorMode::None => None,
        }
    }

    /// Every colour a square can have.
    #[cfg(test)]
    pub fn squares(&self) -> [Color; 7] {
        [
            self.light,
            self.dark,
            self.last,
            self.cursor,
            self.from,
            self.guess,
            self.target,
        ]
    }
}

/// The red, green and blue of a colour as a terminal shows it (the xterm cube and grey ramp
/// for indexed colours); `None` for the theme's named colours. For the palette's own check.
#[cfg(test)]
pub fn rgb(color: Color) -> Option<(u8, u8, u8)> {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    match color {
        Color::Rgb(r, g, b) => Some((r, g, b)),
        Color::Indexed(i @ 16..=231) => {
            let i = usize::from(i - 16);
            Some((LEVELS[i / 36], LEVELS[i / 6 % 6], LEVELS[i % 6]))
        }
        Color::Indexed(i @ 232..=255) => {
            let grey = 8 + 10 * (i - 232);
            Some((grey, grey, grey))
        }
        _ => None,
    }
}

/// WCAG contrast ratio of two colours (1 to 21).
#[cfg(test)]
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
    fn channel(c: u8) -> f64 {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    }
    let luminance =
        |(r, g, b): (u8, u8, u8)| 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    let (x, y) = (luminance(a), luminance(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_piece_colours_contrast_on_every_square_colour_in_both_palettes() {
        for colors in [MinitColors::TRUECOLOR, MinitColors::ANSI256] {
            let white = rgb(colors.white_piece).unwrap();
            let black = rgb(colors.black_piece).unwrap();
            assert_eq!((white, black), ((255, 255, 255), (0, 0, 0)));
            for square in colors.squares() {
                let bg = rgb(square).unwrap();
                for piece in [white, black] {
                    let ratio = contrast(piece, bg);
                    assert!(ratio >= 3.0, "{piece:?} on {square:?}: {ratio:.2}");
                }
            }
            // Light and dark squares stay told apart.
            let (light, dark) = (rgb(colors.light).unwrap(), rgb(colors.dark).unwrap());
            assert!(contrast(light, dark) >= 1.5, "{colors:?}");
        }
        // The old cream light square: white on it was 1.18:1, nearly invisible.
        assert!(contrast((255, 255, 255), (238, 238, 210)) < 1.2);
    }

    #[test]
    fn the_mode_follows_no_color_then_colorterm() {
        assert_eq!(ColorMode::from_env("1", "truecolor"), ColorMode::None);
        assert_eq!(ColorMode::from_env("", "truecolor"), ColorMode::TrueColor);
        assert_eq!(ColorMode::from_env("", "24bit"), ColorMode::TrueColor);
        assert_eq!(ColorMode::from_env("", ""), ColorMode::Ansi256);
        assert_eq!(rgb(Color::Indexed(137)), Some((175, 135, 95)));
        assert_eq!(rgb(Color::Indexed(232)), Some((8, 8, 8)));
    }
}
