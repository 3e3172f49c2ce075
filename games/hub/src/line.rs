//! One Hub line: `<command> <arg>=<val> <arg>=<val> …`, values optionally in double quotes
//! (required when they hold a space or `=`, or are empty); a flag argument has no `=value` and
//! reads as the empty string.

use std::fmt;

use thiserror::Error;

/// The longest line accepted from an engine. Scan's longest lines are `info` with a principal
/// variation, a few hundred bytes; anything far longer is garbage, not a message.
pub const MAX_LINE: usize = 16 * 1024;

/// Why a line is not a Hub line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LineError {
    #[error("line of {len} bytes is longer than the {MAX_LINE} bytes a Hub line may have")]
    TooLong { len: usize },
    #[error("empty line")]
    Empty,
    #[error("control character {byte:#04x} in the line")]
    ControlCharacter { byte: u8 },
    #[error("unterminated quote in argument `{argument}`")]
    UnterminatedQuote { argument: String },
    #[error("argument without a name at byte {at}")]
    MissingName { at: usize },
    #[error("no space after the quoted value of `{argument}`")]
    TextAfterQuote { argument: String },
}

/// A parsed line: the command and its arguments in order (a flag has the empty value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub command: String,
    pub args: Vec<(String, String)>,
}

impl Line {
    pub fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// Adds `name=value` (builder style, for lines sent to an engine).
    pub fn arg(mut self, name: &str, value: impl fmt::Display) -> Line {
        self.args.push((name.to_string(), value.to_string()));
        self
    }

    /// Adds a flag argument (`go think`).
    pub fn flag(self, name: &str) -> Line {
        self.arg(name, "")
    }

    /// The value of the first argument called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether an argument (flag or not) called `name` is present.
    pub fn has(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Reads one line (without its line ending; a trailing `\r` is tolerated). Any amount of
    /// spaces or tabs separates tokens: the protocol gives extra spaces no meaning.
    pub fn parse(text: &str) -> Result<Line, LineError> {
        if text.len() > MAX_LINE {
            return Err(LineError::TooLong { len: text.len() });
        }
        let text = text.strip_suffix('\r').unwrap_or(text);
        if let Some(byte) = text.bytes().find(|b| b.is_ascii_control() && *b != b'\t') {
            return Err(LineError::ControlCharacter { byte });
        }
        let mut rest = text.trim_start_matches([' ', '\t']);
        let command_end = rest.find([' ', '\t']).unwrap_or(rest.len());
        let command = &rest[..command_end];
        if command.is_empty() {
            return Err(LineError::Empty);
        }
        rest = &rest[command_end..];
        let mut args = Vec::new();
        loop {
            let trimmed = rest.trim_start_matches([' ', '\t']);
            if trimmed.is_empty() {
                break;
            }
            let at = text.len() - trimmed.len();
            let name_end = trimmed.find([' ', '\t', '=']).unwrap_or(trimmed.len());
            let name = &trimmed[..name_end];
            if name.is_empty() {
                return Err(LineError::MissingName { at });
            }
            let after = &trimmed[name_end..];
            let Some(value_text) = after.strip_prefix('=') else {
                args.push((name.to_string(), String::new()));
                rest = after;
                continue;
            };
            let (value, remaining) = if let Some(quoted) = value_text.strip_prefix('"') {
                let close = quoted
                    .find('"')
                    .ok_or_else(|| LineError::UnterminatedQuote {
                        argument: name.to_string(),
                    })?;
                let remaining = &quoted[close + 1..];
                if !remaining.is_empty() && !remaining.starts_with([' ', '\t']) {
                    return Err(LineError::TextAfterQuote {
                        argument: name.to_string(),
                    });
                }
                (&quoted[..close], remaining)
            } else {
                let end = value_text.find([' ', '\t']).unwrap_or(value_text.len());
                (&value_text[..end], &value_text[end..])
            };
            args.push((name.to_string(), value.to_string()));
            rest = remaining;
        }
        Ok(Line {
            command: command.to_string(),
            args,
        })
    }
}

/// Writes the line as the protocol expects it: flags bare, values quoted when they are empty
/// or hold a space or `=`.
impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.command)?;
        for (name, value) in &self.args {
            write!(f, " {name}")?;
            if value.is_empty() {
                continue;
            }
            if value.contains([' ', '\t', '=']) {
                write!(f, "=\"{value}\"")?;
            } else {
                write!(f, "={value}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &Line) -> Vec<(&str, &str)> {
        line.args
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect()
    }

    #[test]
    fn reads_values_quotes_and_flags() {
        let line =
            Line::parse(r#"id name=Scan version=3.0 author="Fabien Letouzey" country=France"#)
                .unwrap();
        assert_eq!(line.command, "id");
        assert_eq!(
            args(&line),
            [
                ("name", "Scan"),
                ("version", "3.0"),
                ("author", "Fabien Letouzey"),
                ("country", "France")
            ]
        );
        let go = Line::parse("  go   think\r").unwrap();
        assert_eq!(go.command, "go");
        assert_eq!(args(&go), [("think", "")]);
        assert!(go.has("think"));
        let empty = Line::parse(r#"param name=x value="" type=string"#).unwrap();
        assert_eq!(empty.get("value"), Some(""));
        assert_eq!(Line::parse("ready").unwrap(), Line::new("ready"));
    }

    #[test]
    fn refuses_malformed_lines_with_the_reason() {
        assert_eq!(Line::parse("   "), Err(LineError::Empty));
        assert_eq!(
            Line::parse(r#"done move="32-28"#),
            Err(LineError::UnterminatedQuote {
                argument: "move".into()
            })
        );
        assert_eq!(
            Line::parse("done =32-28"),
            Err(LineError::MissingName { at: 5 })
        );
        assert_eq!(
            Line::parse(r#"info pv="32-28"x"#),
            Err(LineError::TextAfterQuote {
                argument: "pv".into()
            })
        );
        assert_eq!(
            Line::parse("done\u{7}"),
            Err(LineError::ControlCharacter { byte: 7 })
        );
        let long = "x".repeat(MAX_LINE + 1);
        assert_eq!(
            Line::parse(&long),
            Err(LineError::TooLong { len: MAX_LINE + 1 })
        );
    }

    #[test]
    fn writes_what_it_reads() {
        let line = Line::new("pos")
            .arg("pos", "Wbbe")
            .arg("moves", "38-15 5-41")
            .flag("x");
        assert_eq!(line.to_string(), r#"pos pos=Wbbe moves="38-15 5-41" x"#);
        assert_eq!(Line::parse(&line.to_string()).unwrap(), line);
        assert_eq!(
            Line::new("level")
                .arg("time", 291.5)
                .arg("inc", 3)
                .to_string(),
            "level time=291.5 inc=3"
        );
    }
}
