//! Colour differences, preferences and allocation as the FIDE Dutch system defines them
//! (C.04.3 A.6 and E.1–E.5).
//!
//! A player's colours are those of the games actually played, in order: byes, forfeits and
//! absences give no colour (C.04.3 A.6: "games played"). Everything here is derived from that
//! sequence, so the preference of a late entry or a returning player is right without any
//! stored flag.

use crate::Colour;

/// How much a player wants their preferred colour (C.04.3 A.6), weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// No game played yet: no preference, the opponent's is granted.
    None,
    /// Colour difference 0: alternate with the last game.
    Mild,
    /// Colour difference ±1.
    Strong,
    /// Colour difference beyond ±1, or the same colour in the last two games: C.3 forbids
    /// pairing two non-topscorers with the same absolute preference.
    Absolute,
}

/// A player's colour preference, with the colour difference it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preference {
    /// The colour wanted, `None` before the first game.
    pub colour: Option<Colour>,
    pub strength: Strength,
    /// Games with white minus games with black.
    pub difference: i32,
}

impl Preference {
    /// The preference of a player who played `colours`, in order (C.04.3 A.6).
    pub fn of(colours: &[Colour]) -> Preference {
        let difference = colour_difference(colours);
        let last_two_same = match colours {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        };
        let (colour, strength) = if colours.is_empty() {
            (None, Strength::None)
        } else if difference < -1 {
            (Some(Colour::White), Strength::Absolute)
        } else if difference > 1 {
            (Some(Colour::Black), Strength::Absolute)
        } else if let Some(repeated) = last_two_same {
            (Some(repeated.opposite()), Strength::Absolute)
        } else if difference == -1 {
            (Some(Colour::White), Strength::Strong)
        } else if difference == 1 {
            (Some(Colour::Black), Strength::Strong)
        } else {
            let last = *colours.last().expect("not empty");
            (Some(last.opposite()), Strength::Mild)
        };
        Preference {
            colour,
            strength,
            difference,
        }
    }

    /// Whether this and `other` want the same colour: one of the two will not get it (C.10).
    pub fn clashes_with(&self, other: &Preference) -> bool {
        self.colour.is_some() && self.colour == other.colour
    }
}

/// Games with white minus games with black.
pub fn colour_difference(colours: &[Colour]) -> i32 {
    colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

/// One side of a pair, as colour allocation needs it.
#[derive(Clone, Copy, Debug)]
pub struct Side<'a> {
    pub preference: Preference,
    /// Colours of the games played, in order.
    pub colours: &'a [Colour],
    /// The pairing number (1 = highest in the initial ranking).
    pub pairing_number: u32,
}

/// The colour `higher` (the higher-ranked of the two, by score then pairing number) gets
/// against `lower`, by C.04.3 E.1–E.5; `initial` is the colour drawn for the first board.
pub fn allocate(higher: &Side<'_>, lower: &Side<'_>, initial: Colour) -> Colour {
    let (hp, lp) = (higher.preference, lower.preference);
    match (hp.colour, lp.colour) {
        // E.1: both preferences granted when they differ, or when only one has any.
        (Some(h), Some(l)) if h != l => return h,
        (Some(h), None) => return h,
        (None, Some(l)) => return l.opposite(),
        (Some(same), Some(_)) => {
            // E.2: the stronger preference; between two absolutes, the wider difference.
            let h_key = (hp.strength, absolute_width(&hp));
            let l_key = (lp.strength, absolute_width(&lp));
            if h_key != l_key {
                return if h_key > l_key { same } else { same.opposite() };
            }
            // E.3: alternate from the latest game in which they had different colours.
            let latest_difference = higher
                .colours
                .iter()
                .rev()
                .zip(lower.colours.iter().rev())
                .find(|(h, l)| h != l);
            if let Some((h, _)) = latest_difference {
                return h.opposite();
            }
            // E.4: the higher-ranked player's preference.
            return same;
        }
        (None, None) => {}
    }
    // E.5: the higher-ranked player gets the initial colour on an odd pairing number.
    if higher.pairing_number % 2 == 1 {
        initial
    } else {
        initial.opposite()
    }
}

/// The width that decides between two absolute preferences (E.2); 0 for the others.
fn absolute_width(p: &Preference) -> i32 {
    if p.strength == Strength::Absolute {
        p.difference.abs()
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Colour::{Black as B, White as W};

    #[test]
    fn preferences_follow_a6() {
        assert_eq!(Preference::of(&[]).strength, Strength::None);
        let mild = Preference::of(&[W, B]);
        assert_eq!((mild.colour, mild.strength), (Some(W), Strength::Mild));
        let strong = Preference::of(&[W]);
        assert_eq!(
            (strong.colour, strong.strength),
            (Some(B), Strength::Strong)
        );
        let twice = Preference::of(&[W, B, B]);
        assert_eq!(
            (twice.colour, twice.strength),
            (Some(W), Strength::Absolute)
        );
        let wide = Preference::of(&[W, W, B, W]);
        assert_eq!((wide.colour, wide.strength), (Some(B), Strength::Absolute));
    }

    #[test]
    fn the_stronger_preference_wins_e2() {
        let strong = [W];
        let mild = [B, W];
        let h = Side {
            preference: Preference::of(&mild),
            colours: &mild,
            pairing_number: 1,
        };
        let l = Side {
            preference: Preference::of(&strong),
            colours: &strong,
            pairing_number: 2,
        };
        // Both want black; the lower-ranked player's strong preference beats the mild one.
        assert_eq!(allocate(&h, &l, W), W);
    }
}
