//! The `boardcast-server` program, built inside this package so that its integration tests get
//! its path from Cargo (`CARGO_BIN_EXE_boardcast-server-e2e`): same entry point, same code.

fn main() -> std::process::ExitCode {
    boardcast_server::cli::main()
}
