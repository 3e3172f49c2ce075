//! `boardcast login | logout | whoami | games`: the terminal client's side of accounts.
//!
//! `login` trades the account's name and password for a personal access token (`play`
//! scope) and keeps it for that server ([`credentials`]); every later command on the same
//! server sends it (`Authorization: Bearer`, also on the WebSocket), so the player acts as the
//! account: the seat and the games are the account's, not a guest's. The password is read
//! from standard input when that is not a terminal (scripts, tests), and asked for without
//! echo when it is; it is sent once and never kept.

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
            .ok_or_else(|| "no config directory to keep the login in: pass --config-dir".into())
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
            eprintln!("boardcast: cannot start: {error}");
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
            .map_err(|e| format!("login: {}", refusal_text(&e)))?;
        let (token_id, token) = (Some(created.id), created.token);
        // The server's spelling of the name, and a check that the token works.
        let account = options
            .api(Some(token.clone()))?
            .account()
            .await
            .map_err(|e| format!("login: the new token does not work: {}", refusal_text(&e)))?;
        store
            .save(Credential {
                server: base.clone(),
                name: account.name.clone(),
                token,
                token_id,
            })
            .map_err(|e| {
                format!(
                    "login: cannot keep the token in {}: {e}",
                    store.path().display()
                )
            })?;
        println!("logged in as {}{} on {base}", account.name, kind(&account));
        Ok(())
    })
}

fn kind(account: &AccountView) -> &'static str {
    match (account.bot, account.admin) {
        (true, _) => " (bot account)",
        (false, true) => " (admin)",
        (false, false) => "",
    }
}

/// `boardcast logout`: this computer forgets the login, and the server its token where it
/// lets a token revoke itself; where it does not (or cannot be reached) the player is told
/// where to revoke it.
pub fn logout(options: AccountOptions) -> ExitCode {
    let base = options.address.web_base();
    block_on(async move {
        let store = options.credentials()?;
        let Some(login) = store.get(&base) else {
            println!("not logged in on {base}");
            return Ok(());
        };
        let revoked = match login.token_id {
            Some(id) => {
                options
                    .api(Some(login.token.clone()))?
                    .revoke_token(id)
                    .await
            }
            None => Err(ApiError::Transport("no token id kept".into())),
        };
        store
            .remove(&base)
            .map_err(|e| format!("logout: cannot update {}: {e}", store.path().display()))?;
        match revoked {
            // A token the server no longer knows is as logged out as it gets.
            Ok(()) | Err(ApiError::Refused { status: 401, .. }) => {
                println!("logged out {} on {base}", login.name);
            }
            Err(error) => println!(
                "logged out {} on this computer; the server still holds its token \
                 ({error}): revoke it on {base}/account/tokens",
                login.name
            ),
        }
        Ok(())
    })
}

/// `boardcast whoami`: the account's name, as the server says it; status 1 when logged out.
pub fn whoami(options: AccountOptions) -> ExitCode {
    let base = options.address.web_base();
    block_on(async move {
        let store = options.credentials()?;
        let Some(login) = store.get(&base) else {
            return Err(format!(
                "not logged in on {base} (boardcast --server {base} login NAME)"
            ));
        };
        match options.api(Some(login.token))?.account().await {
            Ok(account) => {
                println!("{}", account.name);
                Ok(())
            }
            Err(ApiError::Refused { status: 401, .. }) => Err(format!(
                "the login of {} on {base} is no longer valid (logged out everywhere, revoked, \
                 expired or the account closed): boardcast login {}",
                login.name, login.name
            )),
            Err(error) => Err(format!("whoami: {}", refusal_text(&error))),
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
            println!("saved {name}'s games to {} ({bytes} bytes)", file.display());
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
            println!("{name} has no finished games");
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
            .map_err(|e| format!("ladder: {}", refusal_text(&e)))?;
        print!("{}", ladder_table(&rungs));
        Ok(())
    })
}

/// The widest name the ladder prints whole (user names are at most 20 characters).
const LADDER_NAME_WIDTH: usize = 24;

/// The ladder as text: a header, then `rank  name  rating  RD  games`, bots tagged `BOT`; at
/// most 5 + 24 + 3 × 8 + 6 = 59 columns, so it fits 80.
pub fn ladder_table(rungs: &[LadderRung]) -> String {
    use std::fmt::Write;
    if rungs.is_empty() {
        return "nobody is on the ladder yet: it lists members with an established rating \
                (RD at most 75)\nwho played rated in the last 7 days\n"
            .to_owned();
    }
    let mut out = format!(
        "{:>4}  {:<width$}  {:>6}  {:>4}  {:>5}\n",
        "#",
        "player",
        "rating",
        "RD",
        "games",
        width = LADDER_NAME_WIDTH
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
            "{:>4}  {:<width$}  {:>6}  {:>4}  {:>5}",
            rung.rank,
            name,
            rung.rating,
            rung.rd.round() as i64,
            rung.rated_games,
            width = LADDER_NAME_WIDTH
        );
    }
    out
}

/// One line of `boardcast games`: `m12 2026-11-26 white v Wytze (guest) won 2-0 5+3`.
pub fn game_text(game: &ProfileGame) -> String {
    let opponent = match &game.opponent {
        Some(o) if o.account => o.name.clone(),
        Some(o) => format!("{} (guest)", o.name),
        None => "-".to_owned(),
    };
    let outcome = match game.outcome {
        Outcome::Won => "won",
        Outcome::Drawn => "drawn",
        Outcome::Lost => "lost",
    };
    format!(
        "{} {} {} v {opponent} {outcome} {} {}",
        game.id,
        date_text(game.date),
        game.colour,
        game.result,
        time_control_text(game.time_control.as_ref())
    )
}

/// Milliseconds since the Unix epoch as a UTC date, `2026-11-26` (the civil-from-days
/// algorithm of Howard Hinnant's date library).
fn date_text(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// `5+3`, `1.5+0`, `untimed`: a time control as the lobby writes it.
pub fn time_control_text(time_control: Option<&TimeControl>) -> String {
    let Some(tc) = time_control else {
        return "untimed".to_owned();
    };
    let minutes = tc.initial_ms as f64 / 60_000.0;
    let minutes = if minutes.fract() == 0.0 {
        format!("{minutes}")
    } else {
        format!("{minutes:.1}")
    };
    format!("{minutes}+{}", tc.increment_ms / 1000)
}

fn not_found_text(error: &ApiError, name: &str) -> String {
    match error {
        ApiError::Refused { status: 404, .. } => format!("no player is called {name}"),
        other => refusal_text(other),
    }
}

/// A refusal as the player reads it: the server's message, and when to try again.
fn refusal_text(error: &ApiError) -> String {
    match error {
        ApiError::Refused {
            message,
            retry_after: Some(seconds),
            ..
        } => format!("{message} (try again in {seconds} s)"),
        other => other.to_string(),
    }
}

/// The password: one line of standard input when that is not a terminal, else asked for on
/// the terminal without echo.
fn read_password(name: &str, base: &str) -> Result<String, String> {
    let password = if std::io::stdin().is_terminal() {
        rpassword::prompt_password(format!("Password for {name} on {base}: "))
            .map_err(|e| format!("cannot read the password: {e}"))?
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
        line.strip_suffix('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .unwrap_or(&line)
            .to_owned()
    };
    if password.is_empty() {
        return Err("no password given (one line on standard input)".to_owned());
    }
    Ok(password)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A login refused `busy` in a flood says the seconds of its `Retry-After` (1–3 s, spread
    /// by the server), so the one who typed it knows when to come back.
    #[test]
    fn a_busy_refusal_says_when_to_try_again() {
        let busy = |retry_after| ApiError::Refused {
            status: 503,
            code: "busy".into(),
            message: "too many logins at once: try again in a moment".into(),
            retry_after,
        };
        assert_eq!(
            refusal_text(&busy(Some(2))),
            "too many logins at once: try again in a moment (try again in 2 s)"
        );
        assert_eq!(
            refusal_text(&busy(None)),
            "too many logins at once: try again in a moment"
        );
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
        assert_eq!(words(lines[0]), ["#", "player", "rating", "RD", "games"]);
        assert_eq!(words(lines[1]), ["1", "Sietske", "1734", "62", "42"]);
        assert_eq!(words(lines[2]), ["2", "BOT", "Scan", "1690", "62", "42"]);
        assert_eq!(
            words(lines[3]),
            ["2", "abcdefghij0123456789", "1690", "62", "42"],
            "the longest name whole"
        );
        assert!(ladder_table(&[]).starts_with("nobody is on the ladder yet"));
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
