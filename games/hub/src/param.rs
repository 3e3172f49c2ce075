//! Engine parameters: the `param` declarations an engine makes after `hub`, and the check of a
//! user's `--param NAME=VALUE` against them before any `set-param` is sent.

use thiserror::Error;

use crate::line::Line;

/// What values a parameter takes, as declared by `type=` and its constraints.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    Bool,
    Int {
        min: Option<i64>,
        max: Option<i64>,
    },
    Real {
        min: Option<f64>,
        max: Option<f64>,
    },
    String,
    Enum(Vec<String>),
    /// No `type=`, or one this crate does not know: the protocol lets the GUI treat every
    /// parameter as a string, so any value is sent as given.
    Untyped,
}

/// One `param` line.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    pub name: String,
    /// The engine's current value.
    pub value: String,
    pub kind: ParamKind,
}

/// Why a parameter value may not be sent.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParamError {
    #[error("the engine declares no parameter `{name}` (it has: {declared})")]
    Unknown { name: String, declared: String },
    #[error("parameter `{name}`: `{value}` is not true or false")]
    NotBool { name: String, value: String },
    #[error("parameter `{name}`: `{value}` is not an integer")]
    NotInt { name: String, value: String },
    #[error("parameter `{name}`: `{value}` is not a number")]
    NotReal { name: String, value: String },
    #[error("parameter `{name}`: {value} is outside {min}..={max}")]
    OutOfRange {
        name: String,
        value: String,
        min: String,
        max: String,
    },
    #[error("parameter `{name}`: `{value}` is not one of {values}")]
    NotInEnum {
        name: String,
        value: String,
        values: String,
    },
    #[error("`{0}` is not NAME=VALUE")]
    Syntax(String),
    #[error("the engine's param line has no name")]
    Nameless,
}

impl ParamDecl {
    /// Reads a `param` line. Unknown arguments are ignored; a bound that is not a number is
    /// treated as absent rather than refusing the engine.
    pub fn from_line(line: &Line) -> Result<ParamDecl, ParamError> {
        let name = line.get("name").ok_or(ParamError::Nameless)?;
        let kind = match line.get("type") {
            Some("bool") => ParamKind::Bool,
            Some("int") => ParamKind::Int {
                min: line.get("min").and_then(|v| v.parse().ok()),
                max: line.get("max").and_then(|v| v.parse().ok()),
            },
            Some("real") => ParamKind::Real {
                min: line.get("min").and_then(|v| v.parse().ok()),
                max: line.get("max").and_then(|v| v.parse().ok()),
            },
            Some("string") => ParamKind::String,
            Some("enum") => ParamKind::Enum(
                line.get("values")
                    .unwrap_or("")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            ),
            _ => ParamKind::Untyped,
        };
        Ok(ParamDecl {
            name: name.to_string(),
            value: line.get("value").unwrap_or("").to_string(),
            kind,
        })
    }

    /// Checks `value` against the declared type and range.
    pub fn check(&self, value: &str) -> Result<(), ParamError> {
        let name = || self.name.clone();
        let out_of_range = |min: String, max: String| ParamError::OutOfRange {
            name: name(),
            value: value.to_string(),
            min,
            max,
        };
        let bound = |b: Option<String>| b.unwrap_or_else(|| "…".to_string());
        match &self.kind {
            ParamKind::Bool if value != "true" && value != "false" => Err(ParamError::NotBool {
                name: name(),
                value: value.to_string(),
            }),
            ParamKind::Int { min, max } => {
                let v: i64 = value.parse().map_err(|_| ParamError::NotInt {
                    name: name(),
                    value: value.to_string(),
                })?;
                if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                    return Err(out_of_range(
                        bound(min.map(|m| m.to_string())),
                        bound(max.map(|m| m.to_string())),
                    ));
                }
                Ok(())
            }
            ParamKind::Real { min, max } => {
                let v: f64 = value
                    .parse()
                    .ok()
                    .filter(|v: &f64| v.is_finite())
                    .ok_or_else(|| ParamError::NotReal {
                        name: name(),
                        value: value.to_string(),
                    })?;
                if min.is_some_and(|m| v < m) || max.is_some_and(|m| v > m) {
                    return Err(out_of_range(
                        bound(min.map(|m| m.to_string())),
                        bound(max.map(|m| m.to_string())),
                    ));
                }
                Ok(())
            }
            ParamKind::Enum(values) if !values.iter().any(|v| v == value) => {
                Err(ParamError::NotInEnum {
                    name: name(),
                    value: value.to_string(),
                    values: values.join(" "),
                })
            }
            _ => Ok(()),
        }
    }
}

/// Splits a user's `NAME=VALUE`.
pub fn split_assignment(text: &str) -> Result<(&str, &str), ParamError> {
    match text.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name, value)),
        _ => Err(ParamError::Syntax(text.to_string())),
    }
}

/// Checks the user's assignments against the engine's declarations, returning the
/// `set-param` lines to send: only values that differ from the engine's current one, as Hub
/// itself does.
pub fn set_param_lines(
    declared: &[ParamDecl],
    assignments: &[(String, String)],
) -> Result<Vec<Line>, ParamError> {
    let mut lines = Vec::new();
    for (name, value) in assignments {
        let decl =
            declared
                .iter()
                .find(|d| &d.name == name)
                .ok_or_else(|| ParamError::Unknown {
                    name: name.clone(),
                    declared: declared
                        .iter()
                        .map(|d| d.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
        decl.check(value)?;
        if &decl.value != value {
            lines.push(Line::new("set-param").arg("name", name).arg("value", value));
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(text: &str) -> ParamDecl {
        ParamDecl::from_line(&Line::parse(text).unwrap()).unwrap()
    }

    #[test]
    fn reads_every_declared_type() {
        assert_eq!(
            decl(r#"param name=variant value=normal type=enum values="normal killer bt frisian""#)
                .kind,
            ParamKind::Enum(vec![
                "normal".into(),
                "killer".into(),
                "bt".into(),
                "frisian".into()
            ])
        );
        assert_eq!(
            decl("param name=threads value=1 type=int min=1 max=16").kind,
            ParamKind::Int {
                min: Some(1),
                max: Some(16)
            }
        );
        assert_eq!(
            decl("param name=book value=true type=bool").kind,
            ParamKind::Bool
        );
        assert_eq!(
            decl("param name=x value=1 type=weird").kind,
            ParamKind::Untyped
        );
        assert_eq!(
            ParamDecl::from_line(&Line::parse("param value=1").unwrap()),
            Err(ParamError::Nameless)
        );
    }

    #[test]
    fn checks_values_against_declarations() {
        let threads = decl("param name=threads value=1 type=int min=1 max=16");
        assert_eq!(threads.check("4"), Ok(()));
        assert_eq!(
            threads.check("17").unwrap_err().to_string(),
            "parameter `threads`: 17 is outside 1..=16"
        );
        assert_eq!(
            threads.check("four").unwrap_err().to_string(),
            "parameter `threads`: `four` is not an integer"
        );
        let margin = decl("param name=margin value=0.5 type=real min=0 max=1");
        assert!(margin.check("0.25").is_ok());
        assert!(matches!(
            margin.check("NaN"),
            Err(ParamError::NotReal { .. })
        ));
        assert!(matches!(
            margin.check("1.5"),
            Err(ParamError::OutOfRange { .. })
        ));
        let variant = decl(r#"param name=variant value=normal type=enum values="normal frisian""#);
        assert_eq!(
            variant.check("russian").unwrap_err().to_string(),
            "parameter `variant`: `russian` is not one of normal frisian"
        );
        assert!(matches!(
            decl("param name=book value=true type=bool").check("yes"),
            Err(ParamError::NotBool { .. })
        ));
    }

    #[test]
    fn set_param_lines_only_for_changed_known_values() {
        let declared = [
            decl(r#"param name=variant value=normal type=enum values="normal frisian""#),
            decl("param name=book value=true type=bool"),
        ];
        let lines = set_param_lines(
            &declared,
            &[
                ("variant".into(), "frisian".into()),
                ("book".into(), "true".into()),
            ],
        )
        .unwrap();
        assert_eq!(
            lines.iter().map(Line::to_string).collect::<Vec<_>>(),
            ["set-param name=variant value=frisian"]
        );
        assert_eq!(
            set_param_lines(&declared, &[("hash".into(), "24".into())])
                .unwrap_err()
                .to_string(),
            "the engine declares no parameter `hash` (it has: variant, book)"
        );
        assert_eq!(split_assignment("a=b=c"), Ok(("a", "b=c")));
        assert!(split_assignment("=b").is_err());
    }
}
