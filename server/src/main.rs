//! `boardcast-server`: see [`boardcast_server::ops::cli`].

fn main() -> std::process::ExitCode {
    boardcast_server::ops::cli::main()
}
