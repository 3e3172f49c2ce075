//! `boardcast frisian …`: offline Frisian draughts tools.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print every legal move.
    Moves,
}

pub fn run(_command: Command) -> ExitCode {
    ExitCode::SUCCESS
}
