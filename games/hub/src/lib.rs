//! The Hub protocol, version 2, as draughts engines (Scan 3.x and others) speak it on their
//! standard input and output.
//!
//! Pure and without I/O, like the rule crates: [`line`] reads and writes the generic
//! `command arg=value …` syntax, [`message`] turns engine lines into typed messages (unknown
//! commands and arguments are ignored, as the protocol asks), [`param`] checks parameter values
//! against the engine's declarations, and [`frisian_text`] writes Frisian positions and moves
//! in Hub notation and reads an engine's move back into a legal [`frisian::Move`]. The bridge
//! (`boardcast engine`) and the test engine of the tests crate both build on it.

pub mod frisian_text;
pub mod line;
pub mod message;
pub mod param;

pub use frisian_text::{
    EngineMoveError, PositionTextError, Search, level_line, move_text, parse_engine_move,
    parse_position_text, position_text,
};
pub use line::{Line, LineError, MAX_LINE};
pub use message::{EngineId, EngineMessage, MessageError};
pub use param::{ParamDecl, ParamError, ParamKind, set_param_lines, split_assignment};
