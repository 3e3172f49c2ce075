//! Rebuilds the server when a file is added to or removed from `web/`, which it embeds (the
//! embedding macro tracks the files it saw, not the folder).

fn main() {
    println!("cargo:rerun-if-changed=../web");
}
