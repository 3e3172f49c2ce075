//! `boardcast minitchess …`: offline MinitChess engine games.

use std::process::ExitCode;

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play one engine game.
    Game,
}

pub fn run(_command: Command) -> ExitCode {
    ExitCode::SUCCESS
}
