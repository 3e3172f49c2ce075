//! `boardcast-server`: see [`boardcast_server::cli`].

fn main() -> std::process::ExitCode {
    boardcast_server::cli::main()
}
