//! `boardcast login | logout | whoami | games`: the terminal client's side of accounts.
//!
//! `login` trades the account's name and password for a personal access token (`play`
//! scope) and keeps it for that server ([`credentials`]); every later command on the same
//! server sends it (`Authorization: Bearer`, also on the WebSocket), so the player acts as the
//! account: the seat and the games are the account's, not a guest's. The password is read
//! from standard input when that is not a terminal (scripts, tests), and asked for without
//! echo when it is; it is sent once and never kept.
//!
//! A refusal is told in the player's language (`--lang`), in the words the web's account
//! and event pages use for its code ([`refusal_text`]): the server's `message` is English
//! and only stands in for a code this client does not know.

pub mod api;
pub mod credentials;
pub mod events;

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use api::{Api, ApiError};
use boardcast_protocol::TimeControl;
use boardcast_protocol::account::{AccountView, LadderRung, Outcome, ProfileGame};
use credentials::{Credential, Credentials};

use crate::address::ServerAddress;
use crate::i18n::{Lang, api_refusal, current, tr, tr_args};

/// What the account commands need to know.
pub struct AccountOptions {
    pub address: ServerAddress,
    /// Where logins are kept (`--config-dir`), else the user's config directory.
    pub config_dir: Option<PathBuf>,
    pub ca_file: Option<PathBuf>,
}

impl AccountOptions {
    fn credentials(&self) -> Result<Credentials, String> {
        self.config_dir
            .clone()
            .or_else(credentials::default_dir)
            .map(|dir| Credentials::new(&dir))
            .ok_or_else(|| tr("login-no-config-dir"))
    }

    fn api(&self, token: Option<String>) -> Result<Api, String> {
        let tls = crate::tls::client_config(self.ca_file.as_deref())?;
        Ok(Api::new(self.address.web_base(), tls, token))
    }
}

/// The stored token for the server at `address`, if the player logged in there
/// (`config_dir` as `--config-dir`).
pub fn stored_token(
    address: &ServerAddress,
    config_dir: Option<&std::path::Path>,
) -> Option<String> {
    let dir = config_dir
        .map(std::path::Path::to_path_buf)
        .or_else(credentials::default_dir)?;
    Credentials::new(&dir)
        .get(&address.web_base())
        .map(|c| c.token)
}

/// Which of the server's APIs refused: each has its own words for its codes in the catalogues
/// (`account-error-*`, `event-error-*`), the ones the web's pages show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    /// `/api/token`, `/api/account`, `/api/user/…`, `/api/ladder`, `/@/{name}/games.pdn`.
    Accounts,
    /// `/api/events…` (PROTOCOL.md §20).
    Events,
}

impl Service {
    fn catalogue_prefix(self) -> &'static str {
        match self {
            Service::Accounts => "account",
            Service::Events => "event",
        }
    }
}

/// The name a token carries on the server's list of the account's tokens.
const TOKEN_NAME: &str = "boardcast terminal client";

/// Runs `work` to completion on a small runtime of its own; its error ends the program with
/// status 1 and the reason on stderr.
fn block_on(work: impl std::future::Future<Output = Result<(), String>>) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            let error = tr_args("cannot-start", &[("error", error.to_string().into())]);
            eprintln!("boardcast: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(work) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("boardcast: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `boardcast login NAME`.
pub fn login(options: AccountOptions, name: String) -> ExitCode {
    let base = options.address.web_base();
    let password = match read_password(&name, &base) {
        Ok(password) => password,
        Err(error) => {
            eprintln!("boardcast: login: {error}");
            return ExitCode::FAILURE;
        }
    };
    block_on(async move {
        let store = options.credentials()?;
        let created = options
            .api(None)?
            .create_token(&name, &password, TOKEN_NAME)
            .await
            .map_err(|e| format!("login: {}", refusal_text(&e, Service::Accounts)))?;
        let (token_id, token) = (Some(created.id), created.token);
        // The server's spelling of the name, and a check that the token works.
        let account = options
            .api(Some(token.clone()))?
            .account()
            .await
            .map_err(|e| {
                let reason = refusal_text(&e, Service::Accounts);
                format!(
                    "login: {}",
                    tr_args("login-token-fails", &[("reason", reason.into())])
                )
            })?;
        store
            .save(Credential {
                server: base.clone(),
                name: account.name.clone(),
                token,
                token_id,
            })
            .map_err(|e| {
                format!(
                    "login: {}",
                    file_error("login-cannot-keep", store.path(), &e)
                )
            })?;
        println!("{}", logged_in_as(&account, base));
        Ok(())
    })
}

/// The line a login ends with: a bot's and an admin's account are tagged.
fn logged_in_as(account: &AccountView, server: String) -> String {
    let args = [
        ("name", account.name.clone().into()),
        ("server", server.into()),
    ];
    match (account.bot, account.admin) {
        (true, _) => tr_args("login-as-bot", &args),
        (false, true) => tr_args("login-as-admin", &args),
        (false, false) => tr_args("login-as", &args),
    }
}

/// `id`'s words for a file that could not be written: its path and the system's reason.
fn file_error(id: &str, file: &std::path::Path, error: &std::io::Error) -> String {
    tr_args(
        id,
        &[
            ("file", file.display().to_string().into()),
            ("error", error.to_string().into()),
        ],
    )
}

/// `boardcast logout`: this computer forgets the login, and the server its token where it
/// lets a token revoke itself; where it does not (or cannot be reached) the player is told
/// where to revoke it.
pub fn logout(options: AccountOptions) -> ExitCode {
    let base = options.address.web_base();
    block_on(async move {
        let store = options.credentials()?;
        let Some(login) = store.get(&base) else {
            println!(
                "{}",
                tr_args("logout-not-logged-in", &[("server", base.into())])
            );
            return Ok(());
        };
        let revoked = match login.token_id {
            Some(id) => {
                options
                    .api(Some(login.token.clone()))?
                    .revoke_token(id)
                    .await
            }
            None => Err(ApiError::Transport(tr("logout-no-token-id"))),
        };
        store.remove(&base).map_err(|e| {
            format!(
                "logout: {}",
                file_error("logout-cannot-update", store.path(), &e)
            )
        })?;
        let said = match revoked {
            // A token the server no longer knows is as logged out as it gets.
            Ok(()) | Err(ApiError::Refused { status: 401, .. }) => tr_args(
                "logout-done",
                &[("name", login.name.into()), ("server", base.into())],
            ),
            Err(error) => tr_args(
                "logout-here-only",
                &[
                    ("name", login.name.into()),
                    ("server", base.into()),
                    ("reason", refusal_text(&error, Service::Accounts).into()),
                ],
            ),
        };
        println!("{said}");
        Ok(())
    })
}

/// `boardcast whoami`: the account's name, as the server says it; status 1 when logged out.
pub fn whoami(options: AccountOptions) -> ExitCode {
    let base = options.address.web_base();
    block_on(async move {
        let store = options.credentials()?;
        let Some(login) = store.get(&base) else {
            return Err(tr_args("whoami-not-logged-in", &[("server", base.into())]));
        };
        match options.api(Some(login.token))?.account().await {
            Ok(account) => {
                println!("{}", account.name);
                Ok(())
            }
            Err(ApiError::Refused { status: 401, .. }) => Err(tr_args(
                "account-login-invalid",
                &[
                    ("name", login.name.clone().into()),
                    ("server", base.clone().into()),
                ],
            )),
            Err(error) => Err(format!(
                "whoami: {}",
                refusal_text(&error, Service::Accounts)
            )),
        }
    })
}

/// At most this many pages of a player's games are listed (the PDN file has them all).
const MAX_PAGES: u32 = 200;

/// `boardcast games NAME [--save FILE]`: the player's finished games, newest first, or all
/// of them as one PDN file.
pub fn games(options: AccountOptions, name: String, save: Option<PathBuf>) -> ExitCode {
    block_on(async move {
        let api = options.api(None)?;
        if let Some(file) = save {
            let bytes = api
                .save_games_pdn(&name, &file)
                .await
                .map_err(|e| format!("games {name}: {}", not_found_text(&e, &name)))?;
            let said = tr_args(
                "games-saved",
                &[
                    ("name", name.into()),
                    ("file", file.display().to_string().into()),
                    ("bytes", bytes.into()),
                ],
            );
            println!("{said}");
            return Ok(());
        }
        let mut listed = 0;
        // Pages count from 0.
        for page in 0..MAX_PAGES {
            let answer = api
                .games(&name, page)
                .await
                .map_err(|e| format!("games {name}: {}", not_found_text(&e, &name)))?;
            for game in &answer.games {
                println!("{}", game_text(game));
            }
            listed += answer.games.len();
            // A page short of full is the last.
            if answer.games.len() < answer.per_page as usize || answer.per_page == 0 {
                break;
            }
        }
        if listed == 0 {
            println!("{}", tr_args("games-none", &[("name", name.into())]));
        }
        Ok(())
    })
}

/// `boardcast ladder`: the ladder as a table that fits 80 columns.
pub fn ladder(options: AccountOptions) -> ExitCode {
    block_on(async move {
        let api = options.api(None)?;
        let rungs = api
            .ladder()
            .await
            .map_err(|e| format!("ladder: {}", refusal_text(&e, Service::Accounts)))?;
        print!("{}", ladder_table(&rungs));
        Ok(())
    })
}

/// The widest name the ladder prints whole (user names are at most 20 characters).
const LADDER_NAME_WIDTH: usize = 24;

/// The ladder as text: a header in the web's words for its columns, then
/// `rank  name  rating  RD  games`, bots tagged `BOT`; at most 4 + 24 + 6 + 4 + 8 + 8 = 54
/// columns with the longest heading of our languages (`Partijen`), so it fits 80. No one on
/// it: the web's words for that, wrapped to 80 columns.
pub fn ladder_table(rungs: &[LadderRung]) -> String {
    use std::fmt::Write;
    if rungs.is_empty() {
        return wrapped(&tr("ladder-empty"), 80);
    }
    let [player, rating, rd, games] = [
        "ladder-player",
        "ladder-rating",
        "ladder-rd",
        "ladder-games",
    ]
    .map(tr);
    // Each number's column as wide as its heading in the language, at least as its numbers.
    let width = |heading: &str, least: usize| heading.chars().count().max(least);
    let (rating_width, rd_width, games_width) =
        (width(&rating, 6), width(&rd, 4), width(&games, 5));
    let mut out = format!(
        "{:>4}  {player:<LADDER_NAME_WIDTH$}  {rating:>rating_width$}  {rd:>rd_width$}  \
         {games:>games_width$}\n",
        "#",
    );
    for rung in rungs {
        let name = if rung.bot {
            format!("BOT {}", rung.name)
        } else {
            rung.name.clone()
        };
        let name: String = name.chars().take(LADDER_NAME_WIDTH).collect();
        let _ = writeln!(
            out,
            "{:>4}  {name:<LADDER_NAME_WIDTH$}  {:>rating_width$}  {:>rd_width$}  {:>games_width$}",
            rung.rank,
            rung.rating,
            rung.rd.round() as i64,
            rung.rated_games,
        );
    }
    out
}

/// Words as lines of at most `width` characters, broken between words (a word longer than
/// the width gets a line of its own); each line ends with a newline.
fn wrapped(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// One line of `boardcast games`: `m12 2026-11-26 white v Wytze (guest) won 2-0 5+3`, in the
/// player's language with the web's words for the colour, the guest, the outcome and an
/// untimed game (`m12 26-11-2026 wit tegen Wytze (gast) gewonnen 2-0 5+3`).
pub fn game_text(game: &ProfileGame) -> String {
    let opponent = match &game.opponent {
        Some(o) if o.account => o.name.clone(),
        Some(o) => format!("{} {}", o.name, tr("player-guest")),
        None => "-".to_owned(),
    };
    let outcome = match game.outcome {
        Outcome::Won => tr("profile-outcome-won"),
        Outcome::Drawn => tr("profile-outcome-drawn"),
        Outcome::Lost => tr("profile-outcome-lost"),
    };
    let colour = match game.colour {
        boardcast_protocol::Side::White => tr("side-white"),
        boardcast_protocol::Side::Black => tr("side-black"),
    };
    tr_args(
        "games-line",
        &[
            ("id", game.id.clone().into()),
            ("date", date_text(game.date).into()),
            ("colour", colour.into()),
            ("opponent", opponent.into()),
            ("outcome", outcome.into()),
            ("result", game.result.clone().into()),
            ("time", time_control_text(game.time_control.as_ref()).into()),
        ],
    )
}

/// Milliseconds since the Unix epoch as a UTC date in the language's order (`2026-11-26`
/// in English, `26-11-2026` in Dutch and Frisian: `games-date`). The parts go in as text, so
/// the year is not grouped like a number (`2,026`).
fn date_text(ms: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH)
        .date();
    let (year, month, day) = (date.year(), u8::from(date.month()), date.day());
    tr_args(
        "games-date",
        &[
            ("year", format!("{year:04}").into()),
            ("month", format!("{month:02}").into()),
            ("day", format!("{day:02}").into()),
        ],
    )
}

/// `5+3`, `1.5+0` (`1,5+0` in Dutch and Frisian), `untimed`: a time control as the lobby
/// writes it.
pub fn time_control_text(time_control: Option<&TimeControl>) -> String {
    let Some(tc) = time_control else {
        return tr("tc-untimed");
    };
    let minutes = tc.initial_ms as f64 / 60_000.0;
    let minutes = if minutes.fract() == 0.0 {
        format!("{minutes}")
    } else if current() == Lang::En {
        format!("{minutes:.1}")
    } else {
        format!("{minutes:.1}").replace('.', ",")
    };
    format!("{minutes}+{}", tc.increment_ms / 1000)
}

fn not_found_text(error: &ApiError, name: &str) -> String {
    match error {
        ApiError::Refused { status: 404, .. } => {
            tr_args("profile-missing", &[("name", name.to_owned().into())])
        }
        other => refusal_text(other, Service::Accounts),
    }
}

/// A refusal as the player reads it, in their language: the words for its code from
/// `service`'s catalogue, and when to try again (`Retry-After`: a login flood's `busy`, too
/// many failed logins' `throttled`). An answer that is not the API's (a proxy's error page)
/// says its HTTP status; a request that never got an answer, why.
pub fn refusal_text(error: &ApiError, service: Service) -> String {
    let ApiError::Refused {
        status,
        code,
        message,
        retry_after,
    } = error
    else {
        return error.to_string();
    };
    if code.starts_with(api::NOT_THE_APIS) {
        return tr_args("account-http-status", &[("status", (*status).into())]);
    }
    let text = api_refusal(service.catalogue_prefix(), code, message);
    match retry_after {
        Some(seconds) if code == "busy" && service == Service::Accounts => tr_args(
            "account-error-busy-retry",
            &[("seconds", (*seconds).into())],
        ),
        Some(seconds) => tr_args(
            "account-retry-after",
            &[("text", text.into()), ("seconds", (*seconds).into())],
        ),
        None => text,
    }
}

/// The password: one line of standard input when that is not a terminal, else asked for on
/// the terminal without echo.
fn read_password(name: &str, base: &str) -> Result<String, String> {
    let password = if std::io::stdin().is_terminal() {
        let prompt = tr_args(
            "login-password-prompt",
            &[("name", name.into()), ("server", base.into())],
        );
        // The space after the colon is the code's: Fluent trims it from the end of a message.
        rpassword::prompt_password(format!("{prompt} ")).map_err(|e| {
            tr_args(
                "login-password-unreadable",
                &[("error", e.to_string().into())],
            )
        })?
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map_err(|e| {
            tr_args(
                "login-password-stdin-unreadable",
                &[("error", e.to_string().into())],
            )
        })?;
        line.strip_suffix('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .unwrap_or(&line)
            .to_owned()
    };
    if password.is_empty() {
        return Err(tr("login-no-password"));
    }
    Ok(password)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::i18n::{Lang, speak_on_this_thread};

    fn refused(code: &str, retry_after: Option<u64>) -> ApiError {
        ApiError::Refused {
            status: 503,
            code: code.into(),
            message: "ENGLISH".into(),
            retry_after,
        }
    }

    /// A login refused `busy` in a flood says the seconds of its `Retry-After` (1–3 s, spread
    /// by the server), so the one who typed it knows when to come back; too many failed
    /// logins (`throttled`) too; each in the player's language, in the web's words.
    #[test]
    fn a_busy_refusal_says_when_to_try_again_in_the_players_language() {
        for (lang, expected) in [
            (
                Lang::En,
                [
                    "The server is busy: try again in 2 s.",
                    "The server is busy: try again shortly.",
                    "Too many failed attempts. (try again in 60 s)",
                ],
            ),
            (
                Lang::Nl,
                [
                    "De server is druk: probeer het over 2 s opnieuw.",
                    "De server is druk: probeer het zo opnieuw.",
                    "Te veel mislukte pogingen. (probeer het over 60 s opnieuw)",
                ],
            ),
            (
                Lang::Fy,
                [
                    "De server is drok: besykje it oer 2 s opnij.",
                    "De server is drok: besykje it sa meteen opnij.",
                    "Te folle mislearre besykjen. (besykje it oer 60 s opnij)",
                ],
            ),
        ] {
            speak_on_this_thread(lang);
            let said = [
                refusal_text(&refused("busy", Some(2)), Service::Accounts),
                refusal_text(&refused("busy", None), Service::Accounts),
                refusal_text(&refused("throttled", Some(60)), Service::Accounts),
            ];
            assert_eq!(said, expected, "{}", lang.tag());
        }
        speak_on_this_thread(Lang::En);
    }

    /// The codes `server/src/events/error.rs` answers (`EventError::code`), read from its
    /// source so a code added there without words here fails this test.
    fn event_codes() -> Vec<String> {
        let file =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../server/src/events/error.rs");
        let source = std::fs::read_to_string(file).expect("the server's event errors");
        let body = &source[source.find("fn code(&self)").expect("EventError::code")..];
        let body = &body[..body.find("\n    }").expect("its end")];
        let codes: Vec<String> = body
            .lines()
            .filter_map(|line| line.split("=> \"").nth(1))
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_owned)
            .collect();
        assert!(codes.len() >= 15, "{codes:?}");
        codes
    }

    /// Every code the account API and the event API can refuse with has its own words in
    /// every language: none falls back on the server's English, none shows a placeholder,
    /// and Dutch and Frisian each say something other than English. An event's invalid
    /// field is the one exception, in English only: there the server's detail names the
    /// field, as on the web (the terminal sends no event forms).
    #[test]
    fn every_refusal_of_the_account_and_event_apis_is_worded_in_every_language() {
        let account_codes: Vec<String> = boardcast_protocol::account::ApiErrorCode::ALL
            .iter()
            .map(|code| {
                serde_json::to_value(code)
                    .unwrap()
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect();
        let asked = [
            (Service::Accounts, account_codes),
            (Service::Events, event_codes()),
        ];
        let words = |lang, service, code: &str| {
            speak_on_this_thread(lang);
            refusal_text(&refused(code, None), service)
        };
        for (service, codes) in &asked {
            for code in codes {
                for lang in Lang::ALL {
                    let said = words(lang, *service, code);
                    let at = format!("{} {service:?} {code}", lang.tag());
                    if !(lang == Lang::En && code == "invalid_argument") {
                        assert_ne!(said, "ENGLISH", "{at}: the server's English");
                    }
                    assert!(!said.contains('{') && !said.is_empty(), "{at}: {said}");
                }
                let english = words(Lang::En, *service, code);
                for lang in [Lang::Nl, Lang::Fy] {
                    let said = words(lang, *service, code);
                    assert_ne!(said, english, "{} {service:?} {code}", lang.tag());
                }
            }
        }
        speak_on_this_thread(Lang::En);
    }

    /// An answer that is not the API's (a proxy's error page) says its status; 404 and 401
    /// without a body still mean what the API's codes mean.
    #[test]
    fn a_bare_status_is_told_in_the_players_language() {
        let bare = |status, code: &str| ApiError::Refused {
            status,
            code: code.into(),
            message: "the server answered 502 Bad Gateway".into(),
            retry_after: None,
        };
        speak_on_this_thread(Lang::Nl);
        assert_eq!(
            refusal_text(&bare(502, "http_502"), Service::Accounts),
            "de server antwoordde HTTP 502, niet met zijn API"
        );
        assert_eq!(
            refusal_text(&bare(401, &status_name(401)), Service::Accounts),
            "Je bent niet ingelogd."
        );
        speak_on_this_thread(Lang::En);
    }

    fn status_name(status: u16) -> String {
        api::status_code_name(hyper::StatusCode::from_u16(status).unwrap())
    }

    #[test]
    fn the_ladder_table_fits_80_columns_and_tags_bots() {
        let rung = |rank, name: &str, bot, rating| LadderRung {
            rank,
            name: name.into(),
            bot,
            rating,
            rd: 61.6,
            rated_games: 42,
        };
        let table = ladder_table(&[
            rung(1, "Sietske", false, 1734),
            rung(2, "Scan", true, 1690),
            rung(2, "abcdefghij0123456789", false, 1690),
        ]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        assert!(lines.iter().all(|l| l.chars().count() <= 80), "{table}");
        let words = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        assert_eq!(words(lines[0]), ["#", "Player", "Rating", "RD", "Games"]);
        assert_eq!(words(lines[1]), ["1", "Sietske", "1734", "62", "42"]);
        assert_eq!(words(lines[2]), ["2", "BOT", "Scan", "1690", "62", "42"]);
        assert_eq!(
            words(lines[3]),
            ["2", "abcdefghij0123456789", "1690", "62", "42"],
            "the longest name whole"
        );
        assert_eq!(
            ladder_table(&[]),
            "Nobody is on the ladder yet: it lists members with an established rating (RD at\n\
             most 75) who played rated in the last 7 days.\n"
        );
    }

    /// The ladder in Dutch and Frisian: the web's headings over columns as wide as them, and
    /// the web's words when nobody is on it, wrapped to 80 columns.
    #[test]
    fn the_ladder_table_speaks_dutch_and_frisian() {
        let rungs = [LadderRung {
            rank: 1,
            name: "Scan".into(),
            bot: true,
            rating: 1801,
            rd: 50.4,
            rated_games: 3,
        }];
        for (lang, table, empty) in [
            (
                Lang::Nl,
                "   #  Speler                    Rating    RD  Partijen\n   \
                 1  BOT Scan                    1801    50         3\n",
                "Er staat nog niemand op de ranglijst: die toont leden met een vaste rating (RD\n\
                 hoogstens 75) die de afgelopen 7 dagen rated hebben gespeeld.\n",
            ),
            (
                Lang::Fy,
                "   #  Spiler                    Rating    RD  Partijen\n   \
                 1  BOT Scan                    1801    50         3\n",
                "Der stiet noch net ien op de ranglist: dy toant leden mei in fêste rating (RD\n\
                 heechstens 75) dy't de ôfrûne 7 dagen rated spile hawwe.\n",
            ),
        ] {
            speak_on_this_thread(lang);
            assert_eq!(ladder_table(&rungs), table, "{}", lang.tag());
            assert_eq!(ladder_table(&[]), empty, "{}", lang.tag());
        }
        speak_on_this_thread(Lang::En);
    }

    /// A game line in Dutch and Frisian: the date in the language's order, the web's words
    /// for the colour, the guest, the outcome and an untimed game, a decimal comma.
    #[test]
    fn a_game_line_speaks_dutch_and_frisian() {
        use boardcast_protocol::Side;
        use boardcast_protocol::account::Opponent;
        let game = |account, outcome, time_control| ProfileGame {
            id: "m12".into(),
            colour: Side::Black,
            opponent: Some(Opponent {
                name: "Wytze".into(),
                account,
            }),
            outcome,
            result: "1-1".into(),
            time_control,
            // 2026-11-26 12:00 UTC.
            date: 1_795_694_400_000,
        };
        let blitz = Some(TimeControl {
            initial_ms: 90_000,
            increment_ms: 2_000,
        });
        for (lang, lines) in [
            (
                Lang::Nl,
                [
                    "m12 26-11-2026 zwart tegen Wytze (gast) remise 1-1 1,5+2",
                    "m12 26-11-2026 zwart tegen Wytze verloren 1-1 zonder klok",
                ],
            ),
            (
                Lang::Fy,
                [
                    "m12 26-11-2026 swart tsjin Wytze (gast) remise 1-1 1,5+2",
                    "m12 26-11-2026 swart tsjin Wytze ferlern 1-1 sûnder klok",
                ],
            ),
        ] {
            speak_on_this_thread(lang);
            let said = [
                game_text(&game(false, Outcome::Drawn, blitz)),
                game_text(&game(true, Outcome::Lost, None)),
            ];
            assert_eq!(said, lines, "{}", lang.tag());
        }
        speak_on_this_thread(Lang::En);
    }

    #[test]
    fn a_game_line_says_whether_the_opponent_was_a_guest() {
        use boardcast_protocol::Side;
        use boardcast_protocol::account::Opponent;
        let mut game = ProfileGame {
            id: "m12".into(),
            colour: Side::White,
            opponent: Some(Opponent {
                name: "Wytze".into(),
                account: false,
            }),
            outcome: Outcome::Won,
            result: "2-0".into(),
            time_control: Some(TimeControl {
                initial_ms: 300_000,
                increment_ms: 3_000,
            }),
            // 2026-11-26 12:00 UTC.
            date: 1_795_694_400_000,
        };
        assert_eq!(
            game_text(&game),
            "m12 2026-11-26 white v Wytze (guest) won 2-0 5+3"
        );
        game.opponent.as_mut().unwrap().account = true;
        game.time_control = None;
        assert_eq!(
            game_text(&game),
            "m12 2026-11-26 white v Wytze won 2-0 untimed"
        );
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(951_782_400_000), "2000-02-29");
        let tc = |initial_ms, increment_ms| TimeControl {
            initial_ms,
            increment_ms,
        };
        assert_eq!(time_control_text(Some(&tc(90_000, 0))), "1.5+0");
        assert_eq!(time_control_text(Some(&tc(600_000, 5_000))), "10+5");
    }
}
