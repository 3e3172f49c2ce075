//! The player's language: English, Nederlands or Frysk, from one Fluent catalogue per language
//! (`web/i18n/{en,nl,fy}.ftl`, plus the terminal's own words in `terminal-{lang}.ftl`) that
//! the web client reads too, so both clients say the same thing in the same words. The catalogues are compiled in: the client needs no files beside
//! it, and a catalogue that does not parse fails the tests here, not a player's session.
//!
//! The language is one process-wide choice (`--lang`, else `LANG`/`LC_ALL`/`LC_MESSAGES`);
//! a test may speak another on its own thread ([`speak_on_this_thread`]) so the per-language
//! screen tests can run side by side.

use std::cell::Cell;
use std::sync::LazyLock;
use std::sync::atomic::{AtomicU8, Ordering};

use boardcast_protocol::ErrorArgs;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

/// A language the catalogues cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    En,
    Nl,
    Fy,
}

impl Lang {
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Nl, Lang::Fy];

    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Nl => "nl",
            Lang::Fy => "fy",
        }
    }

    /// The language's catalogue: the words both clients show (`{lang}.ftl`, which the web
    /// page fetches, and `pages-{lang}.ftl`, which it fetches with the pages loaded on their
    /// own) and the terminal's own (`terminal-{lang}.ftl`: its help, home screen and
    /// forms, kept out of the file every web page downloads), read as one.
    fn source(self) -> &'static str {
        match self {
            Lang::En => concat!(
                include_str!("../../web/i18n/en.ftl"),
                "\n",
                include_str!("../../web/i18n/pages-en.ftl"),
                "\n",
                include_str!("../../web/i18n/terminal-en.ftl")
            ),
            Lang::Nl => concat!(
                include_str!("../../web/i18n/nl.ftl"),
                "\n",
                include_str!("../../web/i18n/pages-nl.ftl"),
                "\n",
                include_str!("../../web/i18n/terminal-nl.ftl")
            ),
            Lang::Fy => concat!(
                include_str!("../../web/i18n/fy.ftl"),
                "\n",
                include_str!("../../web/i18n/pages-fy.ftl"),
                "\n",
                include_str!("../../web/i18n/terminal-fy.ftl")
            ),
        }
    }

    /// The language a POSIX locale names (`nl_NL.UTF-8`, `fy_NL`, `C`): the part before `_`,
    /// `.` or `@`; `None` for one the catalogues do not cover.
    pub fn from_locale(locale: &str) -> Option<Lang> {
        let language = locale
            .split(['_', '.', '@', '-'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        Lang::ALL.into_iter().find(|lang| lang.tag() == language)
    }

    /// The language the environment asks for, as gettext reads it: `LC_ALL`, then
    /// `LC_MESSAGES`, then `LANG`, the first one set; English when none names ours.
    pub fn from_env() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|name| std::env::var(name).ok())
            .find(|value| !value.is_empty())
            .and_then(|value| Lang::from_locale(&value))
            .unwrap_or(Lang::En)
    }
}

static CHOSEN: AtomicU8 = AtomicU8::new(0);

thread_local! {
    static THIS_THREAD: Cell<Option<Lang>> = const { Cell::new(None) };
}

/// The language of everything the client shows from now on.
pub fn choose(lang: Lang) {
    CHOSEN.store(lang as u8, Ordering::Relaxed);
}

/// Speak `lang` on this thread only (tests: one screen per language, in parallel).
#[cfg(test)]
pub fn speak_on_this_thread(lang: Lang) {
    THIS_THREAD.with(|cell| cell.set(Some(lang)));
}

pub fn current() -> Lang {
    THIS_THREAD
        .with(Cell::get)
        .unwrap_or(Lang::ALL[usize::from(CHOSEN.load(Ordering::Relaxed))])
}

fn bundle_for(lang: Lang) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(lang.source().to_owned())
        .unwrap_or_else(|(_, errors)| panic!("{}.ftl does not parse: {errors:?}", lang.tag()));
    let id: LanguageIdentifier = lang.tag().parse().expect("a valid language tag");
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Isolation marks (U+2068/U+2069) around arguments are for bidirectional text; none of
    // our languages needs them, and in a terminal they show up as stray cells.
    bundle.set_use_isolating(false);
    bundle.set_formatter(Some(match lang {
        Lang::En => |value, _| grouped(value, ','),
        Lang::Nl | Lang::Fy => |value, _| grouped(value, '.'),
    }));
    bundle
        .add_resource(resource)
        .unwrap_or_else(|errors| panic!("{}.ftl has duplicates: {errors:?}", lang.tag()));
    bundle
}

/// A whole number with its thousands grouped as the language writes them (`1,234` in
/// English, `1.234` in Dutch and Frisian), as `Intl.NumberFormat` writes them in the browser;
/// `None` leaves any other value to fluent-bundle.
fn grouped(value: &FluentValue<'_>, separator: char) -> Option<String> {
    let FluentValue::Number(number) = value else {
        return None;
    };
    if number.value.fract() != 0.0 || number.value.abs() >= 1e15 {
        return None;
    }
    let digits = format!("{}", number.value.abs() as u64);
    let mut text = String::new();
    if number.value < 0.0 {
        text.push('-');
    }
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            text.push(separator);
        }
        text.push(digit);
    }
    Some(text)
}

static BUNDLES: LazyLock<[FluentBundle<FluentResource>; 3]> =
    LazyLock::new(|| Lang::ALL.map(bundle_for));

/// The message `id` in `lang`, with `args`; the id itself when no catalogue has it (the key
/// test makes that a test failure rather than a blank on screen).
pub fn message_in(lang: Lang, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    let bundle = &BUNDLES[lang as usize];
    let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
        return id.to_owned();
    };
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, value.clone());
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    text.into_owned()
}

/// Seconds with one decimal, as the language writes them (`2.5` in English, `2,5` in Dutch
/// and Frisian): a countdown fluent-bundle would show as a whole number.
pub fn tenths(seconds: f32) -> String {
    let text = format!("{seconds:.1}");
    match current() {
        Lang::En => text,
        Lang::Nl | Lang::Fy => text.replace('.', ","),
    }
}

/// The message `id` in the current language.
pub fn tr(id: &str) -> String {
    message_in(current(), id, &[])
}

/// The message `id` in the current language, with arguments.
pub fn tr_args(id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    message_in(current(), id, args)
}

/// A refusal in the player's language: from its reason and arguments when the server sent
/// them (`args`, PROTOCOL.md §12.1) and the catalogue words that reason, as the web client
/// does; else in English the server's own text and in another language the code's message;
/// the server's text for a code this client does not know (a newer server).
pub fn refusal(code: &str, english: &str, args: Option<&ErrorArgs>) -> String {
    let bundle = &BUNDLES[current() as usize];
    if let Some(args) = args.filter(|args| !args.reason.is_empty()) {
        let id = format!("error-{code}-{}", args.reason);
        if bundle.has_message(&id) {
            return tr_args(&id, &placeables(args));
        }
    }
    let id = format!("error-{code}");
    if current() != Lang::En && bundle.has_message(&id) {
        tr(&id)
    } else {
        english.to_owned()
    }
}

/// A refusal of the server's HTTP API (`{"error": {"code", "message"}}`) in the player's
/// language, in the words the web's pages show for it: `{api}-error-{code}` (`api` is
/// `account` or `event`, the two APIs the terminal asks), else the code's line as a
/// WebSocket refusal of that code is worded ([`refusal`]), else the server's own English text
/// (a code from a newer server). English too comes from the catalogue, as on the web.
pub fn api_refusal(api: &str, code: &str, english: &str) -> String {
    let id = format!("{api}-error-{code}");
    if BUNDLES[current() as usize].has_message(&id) {
        tr(&id)
    } else {
        refusal(code, english, None)
    }
}

/// A refusal's arguments as placeables: its numbers and words, and what a capture takes
/// (`kings`/`men`, `best_kings`/`best_men`) as words in the language (`taken`, `best`).
fn placeables(args: &ErrorArgs) -> Vec<(&str, FluentValue<'static>)> {
    let mut out: Vec<(&str, FluentValue<'static>)> = Vec::new();
    for (name, value) in &args.numbers {
        out.push((name, FluentValue::from(*value as f64)));
    }
    for (name, value) in &args.words {
        out.push((name, FluentValue::from(value.clone())));
    }
    let number = |name: &str| args.numbers.get(name).copied();
    if number("kings").or(number("men")).is_some() {
        let taken = taken(number("kings").unwrap_or(0), number("men").unwrap_or(0));
        out.push(("taken", FluentValue::from(taken)));
    }
    if number("best_kings").or(number("best_men")).is_some() {
        let best = taken(
            number("best_kings").unwrap_or(0),
            number("best_men").unwrap_or(0),
        );
        out.push(("best", FluentValue::from(best)));
    }
    out
}

/// "2 men", "1 king and 1 man" in the language.
fn taken(kings: u64, men: u64) -> String {
    let kings_text = tr_args("taken-kings", &[("count", FluentValue::from(kings as f64))]);
    let men_text = tr_args("taken-men", &[("count", FluentValue::from(men as f64))]);
    match (kings, men) {
        (0, _) => men_text,
        (_, 0) => kings_text,
        _ => tr_args(
            "taken-both",
            &[
                ("kings", FluentValue::from(kings_text)),
                ("men", FluentValue::from(men_text)),
            ],
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use fluent_bundle::FluentResource;
    use fluent_syntax::ast::Entry;

    use super::*;

    fn ids(lang: Lang) -> BTreeSet<String> {
        let resource = FluentResource::try_new(lang.source().to_owned()).expect("parses");
        resource
            .entries()
            .filter_map(|entry| match entry {
                Entry::Message(message) => Some(message.id.name.to_owned()),
                _ => None,
            })
            .collect()
    }

    /// Every key in every language, and every message formats without an error when given
    /// the arguments English uses.
    #[test]
    fn every_key_in_every_language() {
        let english = ids(Lang::En);
        assert!(english.len() > 50);
        for lang in [Lang::Nl, Lang::Fy] {
            let theirs = ids(lang);
            let missing: Vec<_> = english.difference(&theirs).collect();
            let extra: Vec<_> = theirs.difference(&english).collect();
            assert!(missing.is_empty(), "{} lacks {missing:?}", lang.tag());
            assert!(
                extra.is_empty(),
                "{} has keys English lacks: {extra:?}",
                lang.tag()
            );
            for id in &english {
                let text = message_in(lang, id, &[("count", FluentValue::from(3))]);
                assert_ne!(&text, id, "{} {id}", lang.tag());
                assert!(!text.trim().is_empty(), "{} {id} is empty", lang.tag());
            }
        }
        // Every error code the protocol has, and every reason of one (PROTOCOL.md §12.1),
        // and no other, has its refusal text.
        let code_name = |code: &boardcast_protocol::ErrorCode| serde_json::to_value(code).unwrap();
        let codes: BTreeSet<String> = boardcast_protocol::ErrorCode::ALL
            .iter()
            .map(|code| format!("error-{}", code_name(code).as_str().unwrap()))
            .chain(boardcast_protocol::REASONS.iter().map(|spec| {
                format!(
                    "error-{}-{}",
                    code_name(&spec.code).as_str().unwrap(),
                    spec.reason
                )
            }))
            .collect();
        let errors: BTreeSet<String> = english
            .iter()
            .filter(|id| id.starts_with("error-"))
            .cloned()
            .collect();
        assert_eq!(codes, errors);
    }

    /// Every key is used: its id appears, quoted, in the terminal client's or the web
    /// client's sources, or a family of keys is named by its prefix in a template
    /// (`` `side-${side}` ``, `format!("side-{side}")`); `error-*` keys are used through the
    /// error code, checked above.
    #[test]
    fn no_unused_key() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut sources = String::new();
        let mut stack = vec![root.join("client/src"), root.join("web/js")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs" || e == "js")
                    && path != Path::new(file!())
                    && !path.ends_with("i18n.rs")
                {
                    sources.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let unused: Vec<String> = ids(Lang::En)
            .into_iter()
            .filter(|id| !id.starts_with("error-"))
            .filter(|id| {
                let family = |end: usize| {
                    let prefix = &id[..end];
                    sources.contains(&format!("`{prefix}${{"))
                        || sources.contains(&format!("\"{prefix}{{"))
                };
                !sources.contains(&format!("\"{id}\""))
                    && !sources.contains(&format!("'{id}'"))
                    && !id.match_indices('-').any(|(i, _)| family(i + 1))
            })
            .collect();
        assert!(unused.is_empty(), "unused keys: {unused:?}");
    }

    /// The terminal's own file holds no word the web page shows: the page fetches only
    /// `{lang}.ftl`, so a key of `terminal-{lang}.ftl` named in `web/js` would show as its id.
    #[test]
    fn the_web_page_needs_nothing_from_the_terminal_file() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web");
        let mut web = String::new();
        let mut stack = vec![root.join("js")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "js") {
                    web.push_str(&std::fs::read_to_string(&path).unwrap());
                }
            }
        }
        let terminal = std::fs::read_to_string(root.join("i18n/terminal-en.ftl")).unwrap();
        let resource = FluentResource::try_new(terminal).expect("parses");
        for entry in resource.entries() {
            if let Entry::Message(message) = entry {
                let id = message.id.name;
                let prefixed = id
                    .match_indices('-')
                    .any(|(i, _)| web.contains(&format!("`{}${{", &id[..=i])));
                assert!(
                    !web.contains(&format!("'{id}'")) && !prefixed,
                    "{id} is shown by the web page: move it to en.ftl"
                );
            }
        }
    }

    /// The web page's reader (`web/js/i18n.js`, a subset of Fluent) says exactly what
    /// fluent-bundle says, for every message of every language, under Node.js (skipped
    /// without it, as the web client's other JS tests are).
    #[test]
    fn the_web_reader_matches_fluent_bundle() {
        if std::process::Command::new("node")
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("skipped: needs Node.js");
            return;
        }
        let module = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/js/i18n.js");
        let module = module.canonicalize().unwrap();
        let script = format!(
            "import * as i18n from 'file://{}';\n\
             import {{ readFileSync }} from 'node:fs';\n\
             const out = {{}};\n\
             for (const lang of i18n.LANGS) {{\n\
               const source = [`${{lang}}.ftl`, `pages-${{lang}}.ftl`, `terminal-${{lang}}.ftl`].map((file) => readFileSync(new URL(`../i18n/${{file}}`, 'file://{}'), 'utf8')).join('\\n');\n\
               i18n.use(lang, source);\n\
               out[lang] = {{}};\n\
               for (const id of i18n.parseFtl(source).keys())\n\
                 out[lang][id] = i18n.t(id, {{ count: 1234 }});\n\
             }}\n\
             console.log(JSON.stringify(out));",
            module.display(),
            module.display()
        );
        let output = std::process::Command::new("node")
            .args(["--input-type=module", "-e", &script])
            .output()
            .expect("node runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let said: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        for lang in Lang::ALL {
            let ours = ids(lang);
            let theirs = said[lang.tag()].as_object().unwrap();
            assert_eq!(theirs.len(), ours.len(), "{}", lang.tag());
            for id in &ours {
                let expected = message_in(lang, id, &[("count", FluentValue::from(1234))]);
                assert_eq!(
                    theirs[id.as_str()],
                    expected.as_str(),
                    "{} {id}",
                    lang.tag()
                );
            }
        }
    }

    #[test]
    fn language_from_the_locale() {
        assert_eq!(Lang::from_locale("nl_NL.UTF-8"), Some(Lang::Nl));
        assert_eq!(Lang::from_locale("fy_NL"), Some(Lang::Fy));
        assert_eq!(Lang::from_locale("en_GB.UTF-8"), Some(Lang::En));
        assert_eq!(Lang::from_locale("de_DE.UTF-8"), None);
        assert_eq!(Lang::from_locale("C"), None);
        assert_eq!(Lang::from_locale("fy"), Some(Lang::Fy));
    }

    /// A refusal with arguments is worded from its reason in each language, squares, side
    /// and what a capture takes filled in; English too comes from the catalogue.
    #[test]
    fn refusals_with_arguments_in_each_language() {
        let lower = ErrorArgs::new("lower_value")
            .number("kings", 0u32)
            .number("men", 1u32)
            .number("best_kings", 1u32)
            .number("best_men", 1u32)
            .word("example", "32x23x12");
        let turn = ErrorArgs::new("side_to_move").word("side", "white");
        let man = ErrorArgs::new("not_a_man_move")
            .number("from", 31u32)
            .number("to", 22u32);
        for (lang, expected) in [
            (
                Lang::En,
                [
                    "A capture of higher value exists: 32x23x12 takes 1 king and 1 man, this one \
                     takes 1 man. A king counts as 1.5 men.",
                    "It is not your turn: White is to move.",
                    "A man moves one square diagonally forward: 31-22 is not a man's move.",
                ],
            ),
            (
                Lang::Nl,
                [
                    "Er is een slag van hogere waarde: 32x23x12 slaat 1 dam en 1 schijf, deze \
                     slaat 1 schijf. Een dam telt als anderhalve schijf.",
                    "Je bent niet aan zet: wit is aan zet.",
                    "Een schijf gaat één veld schuin vooruit: 31-22 is geen schijfzet.",
                ],
            ),
            (
                Lang::Fy,
                [
                    "Der is in slach fan hegere wearde: 32x23x12 slacht 1 wolf en 1 houtsje, \
                     dizze slacht 1 houtsje. In wolf telt as oardel houtsje.",
                    "Do bist net oan set: wyt is oan set.",
                    "In houtsje giet ien fjild skean foarút: 31-22 is gjin houtsjeset.",
                ],
            ),
        ] {
            speak_on_this_thread(lang);
            let said = [
                refusal("illegal_move", "english", Some(&lower)),
                refusal("not_your_turn", "english", Some(&turn)),
                refusal("illegal_move", "english", Some(&man)),
            ];
            assert_eq!(said, expected, "{}", lang.tag());
        }
        speak_on_this_thread(Lang::En);
    }

    /// The words a refusal's message chooses its wording by, with two of their values.
    const CHOSEN: &[(&str, [&str; 2])] =
        &[("side", ["white", "black"]), ("match", ["rated", "event"])];

    /// Every reason the server gives (`REASONS`, which the server's refusals must name) is
    /// worded in every language from its own message, with each of its arguments in the text:
    /// no refusal falls back on the code's general line or the English text, or loses a
    /// square, count or name on the way.
    #[test]
    fn every_reason_is_worded_with_all_its_arguments_in_every_language() {
        let code_name = |code: &boardcast_protocol::ErrorCode| {
            serde_json::to_value(code)
                .unwrap()
                .as_str()
                .unwrap()
                .to_owned()
        };
        for lang in Lang::ALL {
            speak_on_this_thread(lang);
            for spec in boardcast_protocol::REASONS {
                let code = code_name(&spec.code);
                let mut args = ErrorArgs::new(spec.reason);
                let mut shown = Vec::new();
                for (i, name) in spec.numbers.iter().enumerate() {
                    // Below 1,000: no language groups it, so the digits read as they are.
                    let value = 101 + i as u64;
                    args = args.number(name, value);
                    shown.push(value.to_string());
                }
                for (i, name) in spec.words.iter().enumerate() {
                    // A word the catalogue chooses by is told by the choice; any other is
                    // shown as sent.
                    let value = match CHOSEN.iter().find(|(chosen, _)| chosen == name) {
                        Some((_, values)) => values[0].to_owned(),
                        None => {
                            let value = format!("W{i}rd");
                            shown.push(value.clone());
                            value
                        }
                    };
                    args = args.word(name, value);
                }
                let said = refusal(&code, "ENGLISH", Some(&args));
                let at = format!("{} {code} {}", lang.tag(), spec.reason);
                assert_ne!(said, "ENGLISH", "{at}: not worded");
                let id = format!("error-{code}-{}", spec.reason);
                assert!(
                    BUNDLES[lang as usize].has_message(&id),
                    "{at}: no {id}, so the code's line"
                );
                assert!(!said.contains('{'), "{at}: {said}");
                for value in &shown {
                    assert!(said.contains(value.as_str()), "{at} lacks {value}: {said}");
                }
                for (name, values) in CHOSEN {
                    if spec.words.contains(name) {
                        let other = args.clone().word(name, values[1]);
                        let other = refusal(&code, "ENGLISH", Some(&other));
                        assert_ne!(other, said, "{at}: the {name} is not told");
                    }
                }
            }
        }
        speak_on_this_thread(Lang::En);
    }

    /// Takeback refusals (PROTOCOL.md §12.1) are worded from their reason in each language:
    /// which kind of match refuses them, and the seconds left before proposing again.
    #[test]
    fn takeback_refusals_in_each_language() {
        let event = ErrorArgs::new("takeback_casual_only").word("match", "event");
        let rated = ErrorArgs::new("takeback_casual_only").word("match", "rated");
        let soon = ErrorArgs::new("takeback_too_soon")
            .number("every_s", 10u32)
            .number("retry_after_s", 7u32);
        for (lang, expected) in [
            (
                Lang::En,
                [
                    "Takebacks are for casual games only, not for a club event's game.",
                    "Takebacks are for casual games only, not for a rated game.",
                    "A takeback at most once every 10 s: try again in 7 s.",
                ],
            ),
            (
                Lang::Nl,
                [
                    "Zetten terugnemen kan alleen in vrije partijen, niet in een partij van een \
                     clubtoernooi.",
                    "Zetten terugnemen kan alleen in vrije partijen, niet in een partij voor de \
                     rating.",
                    "Terugnemen kan hooguit eens per 10 s: probeer het over 7 s opnieuw.",
                ],
            ),
            (
                Lang::Fy,
                [
                    "In set weromnimme kin allinnich yn frije partijen, net yn in partij fan in \
                     klubtoernoai.",
                    "In set weromnimme kin allinnich yn frije partijen, net yn in partij foar de \
                     rating.",
                    "Weromnimme kin op syn heechst ien kear yn de 10 s: besykje it oer 7 s \
                     nochris.",
                ],
            ),
        ] {
            speak_on_this_thread(lang);
            let said = [
                refusal("not_allowed", "english", Some(&event)),
                refusal("not_allowed", "english", Some(&rated)),
                refusal("rate_limited", "english", Some(&soon)),
            ];
            assert_eq!(said, expected, "{}", lang.tag());
        }
        speak_on_this_thread(Lang::En);
    }

    #[test]
    fn refusals_in_the_chosen_language() {
        speak_on_this_thread(Lang::Nl);
        assert_eq!(
            refusal("not_your_turn", "not your turn", None),
            "Je bent niet aan zet."
        );
        speak_on_this_thread(Lang::Fy);
        assert_eq!(
            refusal("not_your_turn", "not your turn", None),
            "Do bist net oan set."
        );
        // A code from a newer server: its own English text.
        assert_eq!(refusal("brand_new", "something new", None), "something new");
        // A reason from a newer server: its own English text, in every language.
        let unknown = ErrorArgs::new("brand_new_reason");
        assert_eq!(
            refusal("illegal_move", "illegal move: new", Some(&unknown)),
            "Dy set is hjir net neffens de regels."
        );
        speak_on_this_thread(Lang::En);
        assert_eq!(
            message_in(Lang::Nl, "help-more", &[("count", FluentValue::from(4))]),
            "… nog 4: een hogere terminal toont ze"
        );
        // Numbers grouped as each language writes them.
        let more = |lang| message_in(lang, "help-more", &[("count", FluentValue::from(1234567))]);
        assert!(more(Lang::En).contains("1,234,567 more"));
        assert!(more(Lang::Nl).contains("nog 1.234.567:"));
        assert!(more(Lang::Fy).contains("noch 1.234.567:"));
    }
}
