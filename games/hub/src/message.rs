//! What an engine says, typed: the answers of the initialisation phase and of a search. Lines
//! with an unknown command become [`EngineMessage::Ignored`], as the protocol asks the GUI to
//! ignore what it does not understand.

use thiserror::Error;

use crate::line::{Line, LineError};
use crate::param::{ParamDecl, ParamError};

/// The engine's `id` line; every field is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineId {
    pub name: Option<String>,
    pub version: Option<String>,
    pub author: Option<String>,
    pub country: Option<String>,
}

impl EngineId {
    /// `Scan 3.1` (or `engine` if it gave no name).
    pub fn display_name(&self) -> String {
        match (&self.name, &self.version) {
            (Some(n), Some(v)) => format!("{n} {v}"),
            (Some(n), None) => n.clone(),
            _ => "engine".to_string(),
        }
    }
}

/// One line from the engine.
#[derive(Debug, Clone, PartialEq)]
pub enum EngineMessage {
    Id(EngineId),
    Param(ParamDecl),
    Wait,
    Ready,
    Info(Line),
    /// `done move=… [ponder=…]`; the move text is checked later against the position.
    Done {
        mv: String,
        ponder: Option<String>,
    },
    Pong,
    Error {
        message: String,
    },
    /// A command this bridge does not know; kept so it can be logged.
    Ignored(Line),
}

/// Why an engine line is unusable.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MessageError {
    #[error(transparent)]
    Line(#[from] LineError),
    #[error("`{command}` without its `{argument}` argument")]
    MissingArgument {
        command: &'static str,
        argument: &'static str,
    },
    #[error(transparent)]
    Param(#[from] ParamError),
}

impl EngineMessage {
    pub fn parse(text: &str) -> Result<EngineMessage, MessageError> {
        let line = Line::parse(text)?;
        let owned = |name: &str| line.get(name).map(str::to_string);
        Ok(match line.command.as_str() {
            "id" => EngineMessage::Id(EngineId {
                name: owned("name"),
                version: owned("version"),
                author: owned("author"),
                country: owned("country"),
            }),
            "param" => EngineMessage::Param(ParamDecl::from_line(&line)?),
            "wait" => EngineMessage::Wait,
            "ready" => EngineMessage::Ready,
            "info" => EngineMessage::Info(line),
            "done" => EngineMessage::Done {
                mv: owned("move").ok_or(MessageError::MissingArgument {
                    command: "done",
                    argument: "move",
                })?,
                ponder: owned("ponder").filter(|p| !p.is_empty()),
            },
            "pong" => EngineMessage::Pong,
            "error" => EngineMessage::Error {
                message: owned("message").unwrap_or_default(),
            },
            _ => EngineMessage::Ignored(line),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_engine_answers() {
        assert_eq!(
            EngineMessage::parse(r#"id name=Scan version=3.1 author="Fabien Letouzey""#),
            Ok(EngineMessage::Id(EngineId {
                name: Some("Scan".into()),
                version: Some("3.1".into()),
                author: Some("Fabien Letouzey".into()),
                country: None,
            }))
        );
        assert_eq!(EngineMessage::parse("wait"), Ok(EngineMessage::Wait));
        assert_eq!(EngineMessage::parse("ready"), Ok(EngineMessage::Ready));
        assert_eq!(EngineMessage::parse("pong"), Ok(EngineMessage::Pong));
        assert_eq!(
            EngineMessage::parse("done move=32-28 ponder=17-22 extra=1"),
            Ok(EngineMessage::Done {
                mv: "32-28".into(),
                ponder: Some("17-22".into())
            })
        );
        assert_eq!(
            EngineMessage::parse(r#"error message="bad pos""#),
            Ok(EngineMessage::Error {
                message: "bad pos".into()
            })
        );
    }

    #[test]
    fn ignores_unknown_commands_and_refuses_incomplete_ones() {
        assert_eq!(
            EngineMessage::parse("hello-gui x=1"),
            Ok(EngineMessage::Ignored(Line::new("hello-gui").arg("x", 1)))
        );
        assert_eq!(
            EngineMessage::parse("done ponder=17-22")
                .unwrap_err()
                .to_string(),
            "`done` without its `move` argument"
        );
        assert!(matches!(
            EngineMessage::parse("done move=\"32"),
            Err(MessageError::Line(LineError::UnterminatedQuote { .. }))
        ));
    }
}
