//! The source scan of issue 34: no words a person reads are written in the code of either
//! client, only in the catalogues (`web/i18n/*.ftl`). It reads every string literal of the
//! web client (`web/js/**/*.js`, `web/*.html`) and of the terminal client's screens and
//! account commands (`client/src/ui`, `client/src/app`, `client/src/account`) and fails on
//! one that looks like words: two words
//! with a space between them, or one capitalised word (`'Join'`). What is not user-visible
//! but looks so (key names, log lines, HTTP headers) is allowed by name below, each with
//! its reason.
//!
//! The scan is a heuristic, not a parser: it knows comments, the three kinds of JS quotes
//! (with `${…}` inside templates, whose code is scanned too), JS regular expressions, and
//! Rust's strings, raw strings and char literals. A literal it would misread makes this
//! test fail loudly rather than pass quietly.

use std::path::{Path, PathBuf};

/// Literals that look like words but are no user's reading, with the reason.
const NOT_USER_VISIBLE: &[(&str, &str)] = &[
    // KeyboardEvent.key values the page compares with.
    ("Enter", "a KeyboardEvent key name"),
    ("(max-width: 600px)", "a CSS media query (the phone layout)"),
    ("Escape", "a KeyboardEvent key name"),
    ("Home", "a KeyboardEvent key name"),
    ("End", "a KeyboardEvent key name"),
    ("ArrowLeft", "a KeyboardEvent key name"),
    ("ArrowRight", "a KeyboardEvent key name"),
    ("ArrowUp", "a KeyboardEvent key name"),
    ("ArrowDown", "a KeyboardEvent key name"),
    ("Backspace", "a KeyboardEvent key name"),
    ("Tab", "a KeyboardEvent key name"),
    (
        "Esc",
        "a key's name on the keyboard, in the terminal's help",
    ),
    (
        "< > Home End",
        "keys' names on the keyboard, in the terminal's help",
    ),
    (
        "Retry-After",
        "an HTTP header read from the server's answer",
    ),
    ("Content-Type", "an HTTP header sent to the server"),
    ("Bearer", "an HTTP authorization scheme sent to the server"),
    (
        "boardcast terminal client",
        "the name the terminal's token is listed under on the web's token page: one name for \
         the program, whichever language logged in",
    ),
    (
        "boardcast: login:",
        "the program's and the command's names before an error, as the player typed them",
    ),
    (
        "the server answered",
        "the stand-in message of a refusal whose body is not the API's: never shown, since \
         every such code (`http_*`, `not_found`, `unauthenticated`) has its words",
    ),
    ("Authorization", "an HTTP header sent to the server"),
    (
        "Boardcast",
        "the program's name, the same in every language",
    ),
    ("MinitChess", "a game's name, the same in every language"),
    (
        "boardcast login",
        "a command typed in the terminal, the same in every language",
    ),
    (
        "boardcast join",
        "a command typed in the terminal, the same in every language",
    ),
    (
        "boardcast events --page",
        "a command typed in the terminal, the same in every language",
    ),
    (
        "never empty",
        "a panic message for developers: an invariant",
    ),
    (
        "BOT",
        "the tag lidraughts and lichess show in every language",
    ),
    ("FEN", "a notation's name, the same in every language"),
    ("PDN", "a notation's name, the same in every language"),
    ("TV", "the same in every language"),
    ("English", "a language's own name in the language menu"),
    ("Nederlands", "a language's own name in the language menu"),
    ("Frysk", "a language's own name in the language menu"),
    (
        "unreadable message from the server",
        "a console line for developers",
    ),
    ("no catalogue:", "a console line for developers"),
    (
        "page module failed to load:",
        "a console line for developers",
    ),
    (
        "the event form failed to load:",
        "a console line for developers",
    ),
];

/// Files whose every literal is allowed, with the reason.
const WHOLE_FILES: &[(&str, &str)] = &[
    (
        "web/js/i18n.js",
        "the catalogue reader: its literals are syntax and errors about the catalogues",
    ),
    (
        "client/src/app/notes.rs",
        "the `--plain` keyword lines scripts wait for (`seat white m1`, `claimable black: \
         claim win or claim draw`), the same in every language; the screen words each note \
         from the catalogue (app/status.rs)",
    ),
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Does `literal` read as words? Two words of letters with a space between them, or one
/// capitalised word (with an ellipsis or a colon after it, as labels have).
fn looks_like_words(literal: &str) -> bool {
    let words: Vec<&str> = literal
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let wordy = |w: &str| {
        let letters = w.trim_matches(|c: char| !c.is_alphabetic());
        letters.chars().count() >= 2
            && letters
                .chars()
                .all(|c| c.is_alphabetic() || c == '\'' || c == '’' || c == '-')
    };
    if words.iter().filter(|w| wordy(w)).count() >= 2 {
        return true;
    }
    let single = literal.trim().trim_end_matches(['…', ':', '.', '!', '?']);
    let mut chars = single.chars();
    words.len() == 1
        && chars.next().is_some_and(char::is_uppercase)
        && single.chars().count() >= 2
        && chars.all(char::is_lowercase)
}

/// Where a JS literal is code by its place: a class list, element ids as attribute values, or
/// a CSS selector handed to the DOM.
const JS_CODE_PLACES: &[&str] = &[
    "class:",
    "'aria-describedby':",
    "closest(",
    "matches(",
    "querySelector(",
    "querySelectorAll(",
    "focus:",
];

/// Is `text` a CSS selector by its form (`#board [data-square]`)?
fn is_selector(text: &str) -> bool {
    text.contains('#') || text.contains("[data-")
}

/// The string literals of JS `source`: quoted strings and the text parts of templates, each
/// with its line and whether its place makes it code ([`JS_CODE_PLACES`]).
fn js_literals(source: &str) -> Vec<(usize, String)> {
    js_literals_in_place(source)
        .into_iter()
        .filter(|(_, _, code)| !code)
        .map(|(line, text, _)| (line, text))
        .collect()
}

fn js_literals_in_place(source: &str) -> Vec<(usize, String, bool)> {
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    // The last significant character, to tell a regular expression from a division.
    let mut last = '\n';
    // Open template literals, each with the brace depth of its `${…}` when inside one.
    let mut templates: Vec<usize> = Vec::new();
    let mut braces = 0usize;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == '/' && "(,=:[!&|?{};\n".contains(last) {
            // A regular expression: to its closing slash (classes may hold slashes).
            i += 1;
            let mut class = false;
            while i < chars.len() {
                match chars[i] {
                    '\\' => i += 1,
                    '[' => class = true,
                    ']' => class = false,
                    '/' if !class => break,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
            last = '/';
            continue;
        }
        if c == '\'' || c == '"' || c == '`' || (c == '}' && templates.last() == Some(&braces)) {
            let start = i;
            let quote = if c == '}' {
                templates.pop();
                '`'
            } else {
                c
            };
            let start_line = line;
            let mut text = String::new();
            i += 1;
            while i < chars.len() && chars[i] != quote {
                if chars[i] == '\\' {
                    i += 1;
                } else if quote == '`' && chars[i] == '$' && chars.get(i + 1) == Some(&'{') {
                    templates.push(braces);
                    i += 1;
                    break;
                } else if chars[i] == '\n' {
                    line += 1;
                }
                if let Some(&ch) = chars.get(i) {
                    text.push(ch);
                }
                i += 1;
            }
            // At `{` of a `${`: its code is scanned as code, the template resumes at its `}`.
            let before: String = chars[start.saturating_sub(24)..start].iter().collect();
            let before = before.trim_end();
            let code_place = JS_CODE_PLACES.iter().any(|place| before.ends_with(place));
            let code = code_place || is_selector(&text);
            out.push((start_line, text, code));
            i += 1;
            last = '"';
            continue;
        }
        match c {
            '{' => braces += 1,
            '}' => braces = braces.saturating_sub(1),
            _ => {}
        }
        if !c.is_whitespace() {
            last = c;
        }
        i += 1;
    }
    out
}

/// The string literals of Rust `source` outside `#[cfg(test)]` modules (which run last in
/// our files, `mod tests` or `pub(crate) mod tests`): `"…"` and `r"…"`/`r#"…"#`; char
/// literals and lifetimes are skipped.
fn rust_literals(source: &str) -> Vec<(usize, String)> {
    let source = ["#[cfg(test)]\nmod ", "#[cfg(test)]\npub(crate) mod "]
        .iter()
        .filter_map(|start| source.find(start))
        .min()
        .map_or(source, |end| &source[..end]);
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
            continue;
        }
        if c == '\'' {
            // A char literal ('x', '\n', '\u{1F}') or a lifetime ('a): skip either.
            if chars.get(i + 1) == Some(&'\\') {
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
            continue;
        }
        let raw = c == 'r'
            && matches!(chars.get(i + 1), Some('"' | '#'))
            && (i == 0 || !chars[i - 1].is_alphanumeric() && chars[i - 1] != '_');
        if c == '"' || raw {
            let mut hashes = 0;
            if raw {
                i += 1;
                while chars.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
            }
            let start_line = line;
            let mut text = String::new();
            i += 1;
            while i < chars.len() {
                if chars[i] == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                    break;
                }
                if chars[i] == '\\' && !raw {
                    i += 1;
                }
                if chars[i] == '\n' {
                    line += 1;
                }
                text.push(chars[i]);
                i += 1;
            }
            i += 1 + hashes;
            out.push((start_line, text));
            continue;
        }
        i += 1;
    }
    out
}

/// Placeholders and format specs are code, not words: `{name}`, `{}`, `{:>3}`.
fn without_format_args(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// Every literal that reads as words, by file: `path:line: literal`.
fn wordy_literals() -> Vec<(String, String)> {
    let root = root();
    let mut js = Vec::new();
    files(&root.join("web/js"), "js", &mut js);
    let mut rust = Vec::new();
    files(&root.join("client/src/ui"), "rs", &mut rust);
    files(&root.join("client/src/app"), "rs", &mut rust);
    files(&root.join("client/src/account"), "rs", &mut rust);
    let mut found = Vec::new();
    let allowed = |text: &str| {
        NOT_USER_VISIBLE
            .iter()
            .any(|(literal, _)| text.trim() == *literal)
    };
    let name = |path: &Path| {
        path.strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    };
    for path in js {
        let file = name(&path);
        if WHOLE_FILES.iter().any(|(f, _)| *f == file) {
            continue;
        }
        for (line, text) in js_literals(&std::fs::read_to_string(&path).unwrap()) {
            if looks_like_words(&text) && !allowed(&text) {
                found.push((file.clone(), format!("{file}:{line}: {text:?}")));
            }
        }
    }
    for path in rust {
        let file = name(&path);
        if file.ends_with("/tests.rs") || WHOLE_FILES.iter().any(|(f, _)| *f == file) {
            continue;
        }
        for (line, text) in rust_literals(&std::fs::read_to_string(&path).unwrap()) {
            let text = without_format_args(&text);
            if looks_like_words(&text) && !allowed(&text) {
                found.push((file.clone(), format!("{file}:{line}: {text:?}")));
            }
        }
    }
    found
}

/// No words in the code: every user-visible string of both clients is in the catalogues.
#[test]
fn no_user_visible_string_outside_the_catalogues() {
    let stray: Vec<String> = wordy_literals().into_iter().map(|(_, at)| at).collect();
    assert!(
        stray.is_empty(),
        "words outside the catalogues (put them in web/i18n/*.ftl, or allow them in \
         NOT_USER_VISIBLE with the reason they are not read by a person):\n{}",
        stray.join("\n")
    );
}

/// The message ids the terminal client names literally (`tr("id")`, `tr_args("id", …)`,
/// `api_refusal`'s and `message_in`'s are built from codes, checked in `i18n.rs`), with the
/// file and line of each.
fn terminal_keys() -> Vec<(String, String)> {
    let root = root();
    let mut rust = Vec::new();
    files(&root.join("client/src"), "rs", &mut rust);
    let mut keys = Vec::new();
    for path in rust {
        if path.ends_with(file!()) {
            continue;
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let file = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        for call in ["tr(\"", "tr_args(\"", "tr_args(\n"] {
            for (at, _) in source.match_indices(call) {
                // `tr(` inside another name (`attr(`) is not ours.
                if source[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = source[at + call.len()..]
                    .trim_start()
                    .trim_start_matches('"');
                let id: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
                if !id.is_empty() && rest.as_bytes().get(id.len()) == Some(&b'"') {
                    let line = source[..at].matches('\n').count() + 1;
                    keys.push((id, format!("{file}:{line}")));
                }
            }
        }
    }
    keys
}

/// Every message the terminal names is in all three catalogues: a key missing from one
/// would show its id (`login-as`) instead of words in that language.
#[test]
fn every_key_the_terminal_names_is_in_every_catalogue() {
    use crate::i18n::{Lang, message_in};
    let keys = terminal_keys();
    for expected in ["login-as", "games-line", "ladder-empty", "api-cannot-reach"] {
        assert!(
            keys.iter().any(|(id, _)| id == expected),
            "the scan finds {expected}: {keys:?}"
        );
    }
    let missing: Vec<String> = keys
        .iter()
        .flat_map(|(id, at)| {
            Lang::ALL
                .into_iter()
                .filter(|lang| message_in(*lang, id, &[]) == *id)
                .map(move |lang| format!("{at}: {id} not in {}", lang.tag()))
        })
        .collect();
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// The shell's words are filled in by the script from the catalogue; what it says without
/// one is the brand, the line for search engines and the no-JavaScript note.
#[test]
fn the_shell_has_no_words() {
    let html = std::fs::read_to_string(root().join("web/index.html")).unwrap();
    let body = html.split("<body").nth(1).unwrap();
    let mut text = String::new();
    let mut in_tag = true;
    for c in body.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                text.push(' ');
            }
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let noscript = "Boardcast needs JavaScript (plain modules, nothing from other sites).";
    assert_eq!(
        words.join(" "),
        format!("Boardcast {noscript}"),
        "only the brand, and the note shown without JavaScript (no catalogue can be read there)"
    );
}

/// The scanner itself: it finds words and passes over code.
#[test]
fn the_scanner_tells_words_from_code() {
    assert!(looks_like_words("Your turn"));
    assert!(looks_like_words("Join"));
    assert!(looks_like_words("Loading…"));
    assert!(!looks_like_words("data-action"));
    assert!(!looks_like_words("#move-input"));
    assert!(!looks_like_words("button"));
    assert!(!looks_like_words("5+3"));
    let js = js_literals(
        "// 'In a comment'\nconst a = 'Not code', b = /it's a regex/;\nconst c = `x ${t('key id')} Some words`;",
    );
    let texts: Vec<&str> = js.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["Not code", "x ", "key id", " Some words"]);
    let rust = rust_literals(
        "let a = 'x'; // \"In a comment\"\nlet b: &'static str = \"Two words\";\nlet c = r#\"raw \"words\" here\"#;",
    );
    let texts: Vec<&str> = rust.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(texts, ["Two words", "raw \"words\" here"]);
    assert_eq!(without_format_args("{count} more {:>3}"), " more ");
}
