//! `module-graph`: the import graph between the modules of a crate, and the circles in it.
//!
//! `cargo run -q -p boardcast-tests --bin module-graph -- server/src client/src` reads every
//! `.rs` file under each source root, names its module by its path (`matches/actor.rs` is
//! `matches::actor`, `channels/mod.rs` is `channels`), and draws an arrow from a module to each
//! module its code names through `crate::`, `super::` or `self::` paths (in `use` lines and
//! inline alike). A path points at the deepest module it reaches: `crate::storage::Write` points
//! at `storage`, `crate::channels::archive::apply` at `channels::archive`.
//!
//! Test code does not count (a `#[cfg(test)]` item at the top level of a file ends what is
//! read of it, and `tests.rs` files are skipped): tests may reach anywhere. Everything else
//! must point one way, so it exits 1 and names every circle (strongly connected set of
//! modules) it finds; `--print` also lists every arrow, which is the module graph to read.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut print = false;
    let mut roots = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--print" => print = true,
            "-h" | "--help" => {
                println!("usage: module-graph [--print] SRC_DIR…");
                return ExitCode::SUCCESS;
            }
            _ => roots.push(PathBuf::from(arg)),
        }
    }
    if roots.is_empty() {
        eprintln!("usage: module-graph [--print] SRC_DIR…");
        return ExitCode::from(2);
    }
    let mut circles = 0;
    for root in &roots {
        let files = match rust_files(root) {
            Ok(files) => files,
            Err(err) => {
                eprintln!("module-graph: cannot read {}: {err}", root.display());
                return ExitCode::from(2);
            }
        };
        let mut sources = Vec::new();
        for path in files {
            match std::fs::read_to_string(&path) {
                Ok(text) => sources.push((module_name(root, &path), text)),
                Err(err) => {
                    eprintln!("module-graph: cannot read {}: {err}", path.display());
                    return ExitCode::from(2);
                }
            }
        }
        let graph = Graph::from_sources(&sources);
        if print {
            println!("{}:", root.display());
            for (from, tos) in &graph.arrows {
                let tos: Vec<&str> = tos.iter().map(|m| shown(m)).collect();
                println!("  {} -> {}", shown(from), tos.join(", "));
            }
        }
        for circle in graph.circles() {
            circles += 1;
            let names: Vec<&str> = circle.iter().map(|m| shown(m)).collect();
            println!("circle in {}: {}", root.display(), names.join(", "));
            // The arrows inside the circle: one of them has to turn round.
            for from in &circle {
                for to in graph.arrows[from].iter().filter(|to| circle.contains(to)) {
                    println!("  {} -> {}", shown(from), shown(to));
                }
            }
        }
    }
    if circles == 0 {
        println!("module-graph: no import circle in {} crate(s)", roots.len());
        ExitCode::SUCCESS
    } else {
        println!("module-graph: {circles} import circle(s); point the arrows one way");
        ExitCode::FAILURE
    }
}

/// The crate root module has the empty name; show it as `crate`.
fn shown(module: &str) -> &str {
    if module.is_empty() { "crate" } else { module }
}

/// Every `.rs` file under `root`, except test-only files.
fn rust_files(root: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path.is_dir() {
                // A `bin/` folder holds separate crates, not modules of this one.
                if path.file_name().is_some_and(|n| n != "bin" && n != "tests") {
                    dirs.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "tests.rs")
            {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// `a/b.rs` → `a::b`; `a/mod.rs` → `a`; `lib.rs`/`main.rs` → the root (`""`).
fn module_name(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path).with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        parts.clear();
    } else if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

/// Arrows between the modules of one crate.
struct Graph {
    arrows: BTreeMap<String, BTreeSet<String>>,
}

impl Graph {
    fn from_sources(sources: &[(String, String)]) -> Graph {
        let modules: BTreeSet<String> = sources.iter().map(|(name, _)| name.clone()).collect();
        let mut arrows: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (module, text) in sources {
            let targets = arrows.entry(module.clone()).or_default();
            for path in crate_paths(module, text) {
                if let Some(target) = deepest_module(&modules, &path)
                    && target != *module
                {
                    targets.insert(target);
                }
            }
        }
        Graph { arrows }
    }

    /// The strongly connected sets of more than one module (Tarjan's algorithm).
    fn circles(&self) -> Vec<Vec<String>> {
        struct Walk<'a> {
            graph: &'a Graph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            on_stack: BTreeSet<&'a str>,
            found: Vec<Vec<String>>,
        }
        impl<'a> Walk<'a> {
            fn visit(&mut self, node: &'a str) {
                let n = self.index.len();
                self.index.insert(node, n);
                self.low.insert(node, n);
                self.stack.push(node);
                self.on_stack.insert(node);
                let graph = self.graph;
                let nexts = graph.arrows.get(node).into_iter().flatten();
                for next in nexts {
                    let next = next.as_str();
                    if !self.index.contains_key(next) {
                        self.visit(next);
                        let low = self.low[node].min(self.low[next]);
                        self.low.insert(node, low);
                    } else if self.on_stack.contains(next) {
                        let low = self.low[node].min(self.index[next]);
                        self.low.insert(node, low);
                    }
                }
                if self.low[node] == self.index[node] {
                    let mut set = Vec::new();
                    while let Some(top) = self.stack.pop() {
                        self.on_stack.remove(top);
                        set.push(top.to_string());
                        if top == node {
                            break;
                        }
                    }
                    if set.len() > 1 {
                        set.sort();
                        self.found.push(set);
                    }
                }
            }
        }
        let mut walk = Walk {
            graph: self,
            index: BTreeMap::new(),
            low: BTreeMap::new(),
            stack: Vec::new(),
            on_stack: BTreeSet::new(),
            found: Vec::new(),
        };
        for node in self.arrows.keys() {
            if !walk.index.contains_key(node.as_str()) {
                walk.visit(node);
            }
        }
        walk.found.sort();
        walk.found
    }
}

/// The absolute module paths (`a::b::C`, without `crate::`) that `text`, the code of `module`,
/// names; stops at the first top-level `#[cfg(test)]`.
fn crate_paths(module: &str, text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    // Inside `use x::{a, b::c}` groups the prefix applies to every member.
    let mut use_statement = String::new();
    let mut in_use = false;
    for line in text.lines() {
        if line.starts_with("#[cfg(test)]") {
            break;
        }
        // One statement at a time, even when a line holds several.
        for code in strip_comment(line).split_inclusive(';') {
            let trimmed = code.trim_start();
            let starts_use = trimmed.starts_with("use ")
                || (trimmed.starts_with("pub") && trimmed.contains(" use "));
            if !in_use && starts_use {
                in_use = true;
                use_statement.clear();
            }
            if in_use {
                use_statement.push_str(code);
                use_statement.push(' ');
                if code.contains(';') {
                    in_use = false;
                    let body = &use_statement[use_statement.find("use ").unwrap_or(0) + 4..];
                    let body = body.trim().trim_end_matches(';');
                    for path in expand_use(body.trim()) {
                        paths.extend(absolute(module, &path));
                    }
                }
                continue;
            }
            for start in path_starts(code) {
                let path: String = code[start..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                paths.extend(absolute(module, &path));
            }
        }
    }
    paths
}

/// Where `crate::`, `super::` or `self::` paths begin in a line of code (not inside a longer
/// identifier).
fn path_starts(code: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    for keyword in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(found) = code[from..].find(keyword) {
            let at = from + found;
            let before = code[..at].chars().next_back();
            let joined = before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':');
            if !joined {
                starts.push(at);
            }
            from = at + keyword.len();
        }
    }
    starts
}

/// The code of a line without its `//` comment (a `//` inside a string is rare enough in
/// paths' lines not to matter).
fn strip_comment(line: &str) -> &str {
    match line.find("//") {
        Some(at) => &line[..at],
        None => line,
    }
}

/// `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
fn expand_use(body: &str) -> Vec<String> {
    // Drop renames (`x as y`) and whitespace: only the paths matter.
    let mut words = body.split_whitespace();
    let mut body = String::new();
    while let Some(word) = words.next() {
        if word == "as" {
            let renamed = words.next().unwrap_or("");
            body.extend(
                renamed
                    .chars()
                    .skip_while(|c| c.is_alphanumeric() || *c == '_'),
            );
        } else {
            body.push_str(word);
        }
    }
    let mut out = Vec::new();
    expand_into("", &body, &mut out);
    out
}

fn expand_into(prefix: &str, body: &str, out: &mut Vec<String>) {
    for item in split_top_level(body) {
        match item.find('{') {
            Some(open) if item.ends_with('}') => {
                let head = item[..open].trim_end_matches("::");
                let inner = &item[open + 1..item.len() - 1];
                expand_into(&join(prefix, head), inner, out);
            }
            _ => out.push(join(prefix, item)),
        }
    }
}

fn join(prefix: &str, rest: &str) -> String {
    match (prefix.is_empty(), rest.is_empty()) {
        (true, _) => rest.to_string(),
        (_, true) => prefix.to_string(),
        _ => format!("{prefix}::{rest}"),
    }
}

/// Splits on commas that are not inside braces.
fn split_top_level(body: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&body[start..]);
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

/// A path as seen from `module`, made absolute (no `crate::`); `None` for other crates.
fn absolute(module: &str, path: &str) -> Option<String> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    match segments.first() {
        Some(&"crate") => {
            segments.remove(0);
            base.clear();
        }
        Some(&"super") | Some(&"self") => {
            while let Some(&first) = segments.first() {
                match first {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.remove(0);
            }
        }
        _ => return None,
    }
    base.extend(segments);
    Some(base.join("::"))
}

/// The deepest known module that `path` starts with (the crate root if none).
fn deepest_module(modules: &BTreeSet<String>, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split("::").collect();
    (0..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find(|candidate| modules.contains(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(files: &[(&str, &str)]) -> Graph {
        let sources: Vec<(String, String)> = files
            .iter()
            .map(|(m, t)| (m.to_string(), t.to_string()))
            .collect();
        Graph::from_sources(&sources)
    }

    #[test]
    fn a_circle_through_use_lines_and_inline_paths_is_found() {
        let g = graph(&[
            ("", "pub mod a; pub mod b; pub mod c; pub mod d;"),
            ("d", ""),
            (
                "a",
                "use crate::b::{Thing as T, other::{X, Y}};\nuse crate::d as e;",
            ),
            ("b", "fn f() { crate::c::run(); }"),
            (
                "c",
                "use super::a::Z;\n#[cfg(test)]\nmod tests { use crate::b; }",
            ),
        ]);
        assert_eq!(g.circles(), vec![vec!["a", "b", "c"]]);
        assert_eq!(g.arrows["a"].iter().collect::<Vec<_>>(), ["b", "d"]);
    }

    #[test]
    fn arrows_that_point_one_way_make_no_circle_and_tests_do_not_count() {
        let g = graph(&[
            ("", ""),
            ("server", "use crate::http; use crate::app::App;"),
            ("http", "use crate::{app::App, connection};"),
            (
                "connection",
                "use crate::app::App; // crate::server is not named here",
            ),
            (
                "app",
                "#[cfg(test)]\nmod tests { use crate::server::Server; }",
            ),
        ]);
        assert!(g.circles().is_empty(), "{:?}", g.arrows);
        assert_eq!(
            g.arrows["http"].iter().collect::<Vec<_>>(),
            ["app", "connection"]
        );
    }

    #[test]
    fn super_paths_and_nested_modules_resolve_to_the_deepest_module() {
        let g = graph(&[
            ("", ""),
            ("matches", "pub mod actor; pub mod state;"),
            (
                "matches::actor",
                "use super::state::MatchState; use super::Settings;",
            ),
            ("matches::state", "use crate::matches::actor::Handle;"),
        ]);
        assert_eq!(g.circles(), vec![vec!["matches::actor", "matches::state"]]);
        assert_eq!(
            g.arrows["matches::actor"].iter().collect::<Vec<_>>(),
            ["matches", "matches::state"]
        );
    }

    #[test]
    fn module_names_follow_file_paths() {
        let root = Path::new("src");
        assert_eq!(module_name(root, Path::new("src/lib.rs")), "");
        assert_eq!(
            module_name(root, Path::new("src/channels/mod.rs")),
            "channels"
        );
        assert_eq!(
            module_name(root, Path::new("src/channels/archive.rs")),
            "channels::archive"
        );
    }
}
