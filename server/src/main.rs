//! `boardcast-server`: see [`boardcast_server::cli`].

/// mimalloc returns the memory of finished matches and closed connections to the system;
/// glibc's malloc kept all of it (see "Memory and the allocator" in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    boardcast_server::cli::main()
}
