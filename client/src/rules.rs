//! `boardcast rules`: the rules page (`/rules`) as text, within 80 columns. The same words
//! (`rules-*` in `pages-{lang}.ftl`) and the same positions (`web/rules/positions.json`, whose
//! every move and claim the server's tests check with the rules crate) as the web page; each
//! position is drawn here as a small diagram by the rules crate, with the moves to play on it.

use std::process::ExitCode;

use frisian::{Color, Piece, Position, Square};
use serde::Deserialize;

use crate::i18n::{tr, tr_args};

/// The terminal's width the text is wrapped to.
pub const WIDTH: usize = 80;

/// The one data file of the rules page, compiled in.
const POSITIONS: &str = include_str!("../../web/rules/positions.json");

#[derive(Debug, Deserialize)]
struct Data {
    sections: Vec<Section>,
}

#[derive(Debug, Deserialize)]
struct Section {
    id: String,
    positions: Vec<Shown>,
}

#[derive(Debug, Deserialize)]
struct Shown {
    id: String,
    fen: String,
    steps: Vec<Step>,
}

#[derive(Debug, Deserialize)]
struct Step {
    play: Option<String>,
}

fn data() -> Data {
    serde_json::from_str(POSITIONS).expect("web/rules/positions.json reads (checked by a test)")
}

/// Prints the rules in the language chosen.
pub fn run() -> ExitCode {
    print!("{}", text(WIDTH));
    ExitCode::SUCCESS
}

/// The rules as lines of at most `width` columns.
pub fn text(width: usize) -> String {
    let wrap = |text: &str, indent: &str| {
        let options = textwrap::Options::new(width)
            .initial_indent(indent)
            .subsequent_indent(indent);
        textwrap::fill(text, options) + "\n"
    };
    let mut out = wrap(&tr("rules-page-title").to_uppercase(), "");
    out += "\n";
    out += &wrap(&tr("rules-intro"), "");
    for section in data().sections {
        out += "\n";
        let title = tr(&format!("rules-title-{}", section.id));
        out += &wrap(&title, "");
        out += &wrap(
            &"=".repeat(textwrap::core::display_width(&title).min(width)),
            "",
        );
        out += &wrap(&tr(&format!("rules-text-{}", section.id)), "");
        for shown in section.positions {
            out += "\n";
            out += &diagram(&shown.fen);
            out += &wrap(&tr(&format!("rules-pos-{}", shown.id)), "  ");
            out += &wrap(
                &tr_args("printed-rules-fen", &[("fen", shown.fen.clone().into())]),
                "  ",
            );
            let moves: Vec<String> = shown.steps.into_iter().filter_map(|s| s.play).collect();
            if !moves.is_empty() {
                let moves = moves.join(" ");
                out += &wrap(
                    &tr_args("printed-rules-moves", &[("moves", moves.into())]),
                    "  ",
                );
            }
        }
    }
    out
}

/// The position as White sees it: a row of ten squares per line, the dark squares as `.` or
/// a piece (`w`/`b` a man, `W`/`B` a king), each row led by its first square's number.
fn diagram(fen: &str) -> String {
    let position = Position::from_fen(fen).expect("a checked position");
    let mut out = String::new();
    for row in 0..10u8 {
        out += &format!("  {:>2} ", row * 5 + 1);
        for col in 0..10u8 {
            let dark = (row + col) % 2 == 1;
            let cell = if !dark {
                ' '
            } else {
                let square = Square::new(row * 5 + col / 2 + 1).expect("1 to 50");
                match position.piece_at(square) {
                    None => '.',
                    Some(Piece::Man(Color::White)) => 'w',
                    Some(Piece::King(Color::White)) => 'W',
                    Some(Piece::Man(Color::Black)) => 'b',
                    Some(Piece::King(Color::Black)) => 'B',
                }
            };
            out.push(' ');
            out.push(cell);
        }
        out.truncate(out.trim_end().len());
        out += "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::i18n::{Lang, speak_on_this_thread};

    /// Every section and position has its words in every language (and the page no others),
    /// and each printed line fits the 80 columns of an 80×24 terminal, in each language.
    #[test]
    fn the_rules_fit_80_columns_in_each_language_and_every_section_has_its_words() {
        let data = data();
        for lang in Lang::ALL {
            speak_on_this_thread(lang);
            let text = text(WIDTH);
            for line in text.lines() {
                let width = textwrap::core::display_width(line);
                assert!(width <= WIDTH, "{}: {width} columns: {line}", lang.tag());
            }
            for section in &data.sections {
                let title = tr(&format!("rules-title-{}", section.id));
                assert!(!title.starts_with("rules-"), "{}: {title}", lang.tag());
                assert!(text.contains(&title), "{}: {title}", lang.tag());
                for shown in &section.positions {
                    let id = format!("rules-pos-{}", shown.id);
                    assert_ne!(tr(&id), id, "{}", lang.tag());
                }
            }
        }
        // The page's words name only sections and positions the data has.
        let named: BTreeSet<String> = data
            .sections
            .iter()
            .flat_map(|s| {
                [
                    format!("rules-title-{}", s.id),
                    format!("rules-text-{}", s.id),
                ]
                .into_iter()
                .chain(s.positions.iter().map(|p| format!("rules-pos-{}", p.id)))
            })
            .collect();
        let source = include_str!("../../web/i18n/pages-en.ftl");
        let catalogued: BTreeSet<String> = source
            .lines()
            .filter_map(|line| line.split_once(" = ").map(|(id, _)| id.to_owned()))
            .filter(|id| {
                ["rules-title-", "rules-text-", "rules-pos-"]
                    .iter()
                    .any(|p| id.starts_with(p))
            })
            .collect();
        assert_eq!(catalogued, named);
    }

    /// The start is drawn as White sees it: Black's men on top, White's below, the first
    /// row's dark squares on the odd columns.
    #[test]
    fn the_diagram_draws_the_position() {
        let start = diagram("W:W31-50:B1-20");
        let rows: Vec<&str> = start.lines().collect();
        assert_eq!(rows.len(), 10);
        assert_eq!(rows[0], "   1    b   b   b   b   b");
        assert_eq!(rows[4], "  21    .   .   .   .   .");
        assert_eq!(rows[9], "  46  w   w   w   w   w");
    }
}
