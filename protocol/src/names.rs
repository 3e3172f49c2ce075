//! Display names: what a name may hold, the one form it is kept in, and when two names are
//! the same person's.
//!
//! A name is read by other people, in the lobby, a match header, a PDN and the leaderboard, so
//! what matters is what it *looks* like. Three rules follow.
//!
//! - **One form.** A name is kept in Unicode NFC, without surrounding spaces ([`normalize`]):
//!   "é" typed as `e` + a combining accent and as the one character `é` is one name.
//! - **Nothing invisible.** A character that shows as nothing (the Unicode property
//!   Default_Ignorable_Code_Point: soft hyphen, zero-width space, word joiner, tag
//!   characters, Hangul fillers, stray variation selectors …), a control character, a line or
//!   paragraph separator, or a combining mark with no letter to sit on would let a second
//!   "Sietske" look exactly like the first. The exceptions are the invisible parts emoji are
//!   built from, where they are: the zero-width joiner between two emoji (👩‍💻, 🏳️‍🌈), a
//!   variation selector right after an emoji (❤️), and the tag letters of a subdivision flag
//!   (🏴󠁧󠁢󠁳󠁣󠁴󠁿). A refusal says in words which character, where, and what to do.
//! - **Look-alikes are one name.** Where a name stands for one person (the prediction book of a
//!   game, the scores a game adds to the leaderboard), names are compared by [`identity`]: the
//!   UTS #39 confusable skeleton of the lower-cased name, so "Sietske" and "Sіetske" (with a
//!   Cyrillic і) are one predictor.

use icu_properties::props::{
    DefaultIgnorableCodePoint, Emoji, EmojiModifier, ExtendedPictographic, GeneralCategory,
    GeneralCategoryGroup,
};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_normalization::UnicodeNormalization;

use crate::limits::MAX_NAME_CHARS;

/// The name of a connection that has not said `hello` (or said it without a name).
pub const DEFAULT_NAME: &str = "anonymous";

const ZERO_WIDTH_JOINER: char = '\u{200D}';
const TEXT_PRESENTATION: char = '\u{FE0E}';
const EMOJI_PRESENTATION: char = '\u{FE0F}';
/// 🏴, the only base of the subdivision flags (England, Scotland, Wales).
const BLACK_FLAG: char = '\u{1F3F4}';
/// The tag letters and digits that spell a subdivision (`gbsct`), then the end of the tag.
const TAG_SPEC: std::ops::RangeInclusive<char> = '\u{E0020}'..='\u{E007E}';
const CANCEL_TAG: char = '\u{E007F}';

/// Why a name is refused; the text is written for the person who chose it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("a name has at most {MAX_NAME_CHARS} characters; this one has {0}")]
    Length(usize),
    #[error("a name needs at least one visible character")]
    Blank,
    #[error(
        "character {position} of the name is {what} (U+{code:04X}), which does not show and \
         could make the name look like someone else's: remove it"
    )]
    Invisible {
        /// 1-based, counted in characters of the NFC form.
        position: usize,
        code: u32,
        what: &'static str,
    },
    #[error(
        "character {position} of the name is an accent or mark (U+{code:04X}) with no letter \
         before it: put it after a letter, or remove it"
    )]
    LoneMark { position: usize, code: u32 },
}

/// The form a name is kept in: NFC, without surrounding spaces, once it passes [`check`].
pub fn normalize(raw: &str) -> Result<String, NameError> {
    let name: String = raw.trim().nfc().collect();
    check(&name)?;
    Ok(name)
}

/// Checks a name already in NFC against the rules of the module docs.
pub fn check(name: &str) -> Result<(), NameError> {
    let chars: Vec<char> = name.chars().collect();
    if chars.iter().all(|c| c.is_whitespace()) {
        return Err(NameError::Blank);
    }
    if chars.len() > MAX_NAME_CHARS {
        return Err(NameError::Length(chars.len()));
    }
    let category = CodePointMapData::<GeneralCategory>::new();
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    for (i, &c) in chars.iter().enumerate() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        let invisible = |what| {
            Err(NameError::Invisible {
                position: i + 1,
                code: u32::from(c),
                what,
            })
        };
        let gc = category.get(c);
        if gc == GeneralCategory::Control {
            return invisible("a control character");
        }
        if matches!(
            gc,
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
        ) {
            return invisible("a line break");
        }
        if ignorable.contains(c) {
            if !in_emoji_sequence(c, before, after) {
                return invisible(invisible_kind(c));
            }
            continue;
        }
        if GeneralCategoryGroup::Mark.contains(gc) && before.is_none_or(char::is_whitespace) {
            return Err(NameError::LoneMark {
                position: i + 1,
                code: u32::from(c),
            });
        }
    }
    Ok(())
}

/// Whether the invisible character `c`, between `before` and `after`, is part of an emoji.
fn in_emoji_sequence(c: char, before: Option<char>, after: Option<char>) -> bool {
    let pictographic = |c: char| CodePointSetData::new::<ExtendedPictographic>().contains(c);
    let tag_spec = |c: char| TAG_SPEC.contains(&c);
    match c {
        // 👩 + ZWJ + 💻: an emoji (maybe with its skin tone or presentation selector) before,
        // a pictograph after.
        ZERO_WIDTH_JOINER => {
            before.is_some_and(|b| {
                pictographic(b)
                    || b == EMOJI_PRESENTATION
                    || CodePointSetData::new::<EmojiModifier>().contains(b)
            }) && after.is_some_and(pictographic)
        }
        // 🏳 + U+FE0F, or 1 + U+FE0F + U+20E3 (keycap): right after a character that has an
        // emoji form.
        TEXT_PRESENTATION | EMOJI_PRESENTATION => {
            before.is_some_and(|b| CodePointSetData::new::<Emoji>().contains(b))
        }
        // 🏴 + g b s c t + cancel tag: tag letters only after the flag or each other, and closed.
        c if tag_spec(c) => {
            before.is_some_and(|b| b == BLACK_FLAG || tag_spec(b))
                && after.is_some_and(|a| a == CANCEL_TAG || tag_spec(a))
        }
        CANCEL_TAG => before.is_some_and(tag_spec),
        _ => false,
    }
}

/// A few words for an invisible character, for the refusal.
fn invisible_kind(c: char) -> &'static str {
    match c {
        '\u{00AD}' => "a soft hyphen",
        ZERO_WIDTH_JOINER => "a zero-width joiner outside an emoji",
        '\u{200B}' | '\u{200C}' | '\u{2060}' | '\u{FEFF}' => "a zero-width space or joiner",
        '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
            "a text-direction mark"
        }
        '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' => "a Hangul filler",
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {
            "a variation selector that follows no emoji"
        }
        '\u{E0000}'..='\u{E0FFF}' => "a tag character outside a flag",
        _ => "an invisible character",
    }
}

/// The identity two look-alike names share: the UTS #39 skeleton of the lower-cased name.
/// "Sietske", "SIETSKE" and "Sіetske" (Cyrillic і) have one identity; "Sietske" and "Sietse"
/// do not. For comparing only: it is no name to show.
pub fn identity(name: &str) -> String {
    unicode_security::skeleton(&name.to_lowercase()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_sequences_with_joiners_and_selectors_are_names() {
        for name in [
            "👩‍💻",
            "🏳️‍🌈",
            "👩🏽‍💻 Ann",
            "❤️",
            "1️⃣ Bob",
            "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
            "Zoë",
            "Đặng",
            "hindi हिन्दी",
            "Sietske",
        ] {
            assert_eq!(normalize(name).as_deref(), Ok(name), "{name:?}");
        }
    }

    #[test]
    fn each_invisible_character_is_refused_in_words() {
        for (name, what) in [
            ("Siet\u{AD}ske", "a soft hyphen"),
            ("Sietske\u{E0041}", "a tag character outside a flag"),
            ("\u{E0001}Sietske", "a tag character outside a flag"),
            ("Siet\u{2028}ske", "a line break"),
            ("Siet\u{2029}ske", "a line break"),
            ("Siet\u{3164}ske", "a Hangul filler"),
            ("\u{115F}Sietske", "a Hangul filler"),
            ("Siet\u{FFA0}ske", "a Hangul filler"),
            ("Sietske\u{200B}", "a zero-width space or joiner"),
            ("Siet\u{200D}ske", "a zero-width joiner outside an emoji"),
            (
                "Sietske\u{FE0F}",
                "a variation selector that follows no emoji",
            ),
            ("Siet\u{202E}ske", "a text-direction mark"),
            ("Siet\u{34F}ske", "an invisible character"),
            ("Siet\u{7}ske", "a control character"),
        ] {
            let err = normalize(name).unwrap_err();
            assert!(
                matches!(err, NameError::Invisible { what: w, .. } if w == what),
                "{name:?}: {err:?}"
            );
        }
        assert_eq!(
            normalize("Siet\u{AD}ske").unwrap_err().to_string(),
            "character 5 of the name is a soft hyphen (U+00AD), which does not show and could \
             make the name look like someone else's: remove it"
        );
    }

    #[test]
    fn a_mark_must_sit_on_a_letter() {
        for name in ["\u{301}", "\u{301}Sietske", "Sietske \u{20DD}"] {
            assert!(
                matches!(normalize(name), Err(NameError::LoneMark { .. })),
                "{name:?}"
            );
        }
        assert_eq!(normalize("   ").unwrap_err(), NameError::Blank);
        assert_eq!(normalize("").unwrap_err(), NameError::Blank);
        assert_eq!(
            normalize(&"W".repeat(33)).unwrap_err(),
            NameError::Length(33)
        );
    }

    #[test]
    fn a_name_is_kept_in_one_form() {
        assert_eq!(normalize(" Zoe\u{308} ").unwrap(), "Zoë");
        assert_eq!(
            normalize("Zoe\u{308}").unwrap(),
            normalize("Zo\u{EB}").unwrap()
        );
    }

    #[test]
    fn look_alike_names_share_an_identity() {
        let sietske = identity("Sietske");
        for other in ["SIETSKE", "S\u{456}etske", "Sietske\u{200B}"] {
            assert_eq!(identity(other), sietske, "{other:?}");
        }
        assert_ne!(identity("Sietse"), sietske);
    }
}
