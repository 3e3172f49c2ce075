//! `boardcast`: the terminal client (play, watch, predict) and offline rule tools.

mod frisian_cli;
mod minitchess_cli;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "boardcast",
    version,
    about = "Boardcast terminal client and offline tools"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Frisian draughts tools that need no server: legal moves, perft, status.
    #[command(subcommand)]
    Frisian(frisian_cli::Command),
    /// MinitChess engine games that need no server.
    #[command(subcommand)]
    Minitchess(minitchess_cli::Command),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Frisian(command) => frisian_cli::run(command),
        Command::Minitchess(command) => minitchess_cli::run(command),
    }
}
