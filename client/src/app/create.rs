//! The home screen's "new match" form (`c`): time control (presets, custom or untimed),
//! colour, whether the seek is listed and whether it is rated, the same choices `boardcast play`
//! offers.

use boardcast_protocol::{ColorChoice, TimeControl};

use crate::i18n::tr;

/// Time controls offered, then "untimed" and "custom".
pub const PRESETS: [&str; 6] = ["1+0", "3+2", "5+3", "10+5", "15+10", "30+20"];

/// The rows of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Time,
    Colour,
    Visibility,
    /// Rated or casual (rated: members only; the server refuses a guest's).
    Rated,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateForm {
    pub field: Field,
    /// Index into [`PRESETS`], then `PRESETS.len()` for untimed and `+ 1` for custom.
    pub time: usize,
    /// The custom time control as typed (`7+2`).
    pub custom: String,
    pub color: ColorChoice,
    pub public: bool,
    pub rated: bool,
    /// Why the last Enter did not create (a custom time that does not parse).
    pub error: Option<String>,
}

const UNTIMED: usize = PRESETS.len();
const CUSTOM: usize = PRESETS.len() + 1;

impl CreateForm {
    /// 5+3, random colour, listed (or private, for `C`).
    pub fn new(public: bool) -> CreateForm {
        CreateForm {
            field: Field::Time,
            time: 2,
            custom: String::new(),
            color: ColorChoice::Random,
            public,
            rated: false,
            error: None,
        }
    }

    pub fn next_field(&mut self, down: bool) {
        use Field::*;
        self.field = match (self.field, down) {
            (Time, true) | (Visibility, false) => Colour,
            (Colour, true) | (Rated, false) => Visibility,
            (Colour, false) => Time,
            (Visibility, true) => Rated,
            (Rated, true) | (Time, false) => self.field,
        };
    }

    /// `←` / `→` on the selected row.
    pub fn change(&mut self, forward: bool) {
        self.error = None;
        match self.field {
            Field::Time => {
                self.time = if forward {
                    (self.time + 1).min(CUSTOM)
                } else {
                    self.time.saturating_sub(1)
                }
            }
            Field::Colour => {
                let order = [ColorChoice::Random, ColorChoice::White, ColorChoice::Black];
                let at = order.iter().position(|c| *c == self.color).unwrap_or(0);
                let next = if forward {
                    at + 1
                } else {
                    at + order.len() - 1
                };
                self.color = order[next % order.len()];
            }
            Field::Visibility => self.public = !self.public,
            Field::Rated => self.rated = !self.rated,
        }
    }

    /// Whether typed characters go into the custom time control.
    pub fn typing(&self) -> bool {
        self.field == Field::Time && self.time == CUSTOM
    }

    pub fn time_label(&self) -> String {
        match self.time {
            UNTIMED => tr("tc-untimed"),
            CUSTOM => format!("{}: {}_", tr("home-form-custom"), self.custom),
            preset => PRESETS[preset].to_owned(),
        }
    }

    pub fn colour_label(&self) -> String {
        tr(match self.color {
            ColorChoice::Random => "form-random",
            ColorChoice::White => "side-white",
            ColorChoice::Black => "side-black",
        })
    }

    pub fn visibility_label(&self) -> String {
        tr(if self.public {
            "home-form-public"
        } else {
            "home-form-private"
        })
    }

    pub fn rated_label(&self) -> String {
        tr(if self.rated {
            "form-rated-members"
        } else {
            "form-casual"
        })
    }

    /// The chosen time control, or why the custom one is not one.
    pub fn time_control(&self) -> Result<Option<TimeControl>, String> {
        match self.time {
            UNTIMED => Ok(None),
            CUSTOM => self
                .custom
                .trim()
                .parse::<TimeControl>()
                .map(Some)
                .map_err(|e| {
                    crate::i18n::tr_args(
                        "local-not-a-time-control",
                        &[
                            ("text", self.custom.trim().to_owned().into()),
                            ("error", e.to_string().into()),
                        ],
                    )
                }),
            preset => PRESETS[preset]
                .parse()
                .map(Some)
                .map_err(|e| format!("{e}")),
        }
    }
}
