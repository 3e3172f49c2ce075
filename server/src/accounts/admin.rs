//! `boardcast-server [--db PATH | --database URL] admin …`: the club admin's commands on the
//! server's own database, also while a server runs on it (they touch only the account
//! tables, each change one statement). Exit 0 on success; otherwise the reason on stderr.

use std::io::BufRead;
use std::process::ExitCode;
use std::time::Duration;

use boardcast_protocol::account::Scope;

use super::{Accounts, names, password, secret};
use crate::storage::accounts::Flag;
use crate::storage::{ChatMuteRow, Database, now_ms};

/// How long a reset link stays valid.
pub(crate) const RESET_VALID: Duration = Duration::from_secs(24 * 3600);

/// What `boardcast-server admin` does.
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
// The variants are the subcommands (`grant-admin` grants the admin role), named as typed.
#[allow(clippy::enum_variant_names)]
pub enum Admin {
    /// Create an account; its password is read from standard input (one line).
    CreateUser {
        name: String,
        /// A bot account: its seats show the BOT tag.
        #[arg(long)]
        bot: bool,
        /// A club admin.
        #[arg(long)]
        admin: bool,
    },
    /// Print a new personal access token of the account on standard output.
    CreateToken {
        name: String,
        #[arg(long, value_parser = ["play", "bot"])]
        scope: String,
    },
    /// Print a one-time link, valid 24 hours, that sets a new password.
    ResetPassword { name: String },
    /// Close the account: it cannot log in, its sessions end, its games stay.
    Close { name: String },
    /// Open a closed account again.
    Reopen { name: String },
    /// Make the account a bot account.
    MakeBot { name: String },
    /// Make the account a club admin.
    GrantAdmin { name: String },
    /// Mute the member in every chat of the server (stored with `command line` as who).
    ChatMute { name: String },
    /// Let a muted member chat again.
    ChatUnmute { name: String },
    /// Let the member create club events (arenas, Swiss, round-robins); admins always may.
    GrantOrganiser { name: String },
    /// Take the organiser right back.
    RevokeOrganiser { name: String },
}

/// Runs `admin` on `database`; `public_url` starts reset links.
pub(crate) async fn run(database: &Database, public_url: &str, admin: Admin) -> ExitCode {
    match carry_out(database, public_url, admin).await {
        Ok(printed) => {
            if !printed.is_empty() {
                println!("{printed}");
            }
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("boardcast-server admin: {why}");
            ExitCode::from(1)
        }
    }
}

/// Why an admin command failed, as stderr says it.
type Failed = Box<dyn std::error::Error>;

async fn carry_out(database: &Database, public_url: &str, admin: Admin) -> Result<String, Failed> {
    let store = crate::storage::open_accounts(database).await?;
    let accounts = Accounts::new(store);
    let store = &accounts.store;
    let find = |name: String| async move {
        store
            .account_by_name(name.clone())
            .await?
            .ok_or_else(|| Failed::from(format!("no account {name}")))
    };
    let flag = |name: String, flag: Flag, value: bool| async move {
        let account = find(name).await?;
        store.set_flag(account.id, flag, value).await?;
        if flag == Flag::Closed && value {
            store.delete_sessions(account.id, None).await?;
        }
        Ok::<_, Failed>(String::new())
    };
    match admin {
        Admin::CreateUser { name, bot, admin } => {
            names::check(&name).map_err(|(_, why)| why)?;
            let mut line = String::new();
            std::io::stdin()
                .lock()
                .read_line(&mut line)
                .map_err(|err| format!("cannot read the password from standard input: {err}"))?;
            let password = line.trim_end_matches(['\r', '\n']).to_owned();
            password::check(&password, &name).map_err(|(_, why)| why)?;
            let hash = accounts.hasher.hash(password).await?;
            match store
                .create_account(name.clone(), hash, bot, admin, now_ms())
                .await?
            {
                Some(_) => Ok(String::new()),
                None => Err(format!("the name {name} is taken").into()),
            }
        }
        Admin::CreateToken { name, scope } => {
            let account = find(name).await?;
            let scope = Scope::parse(&scope).ok_or("the scope is play or bot")?;
            let created = accounts
                .new_token(account.id, "admin", &[scope])
                .await
                .map_err(|refused| format!("{refused:?}"))?;
            Ok(created.token)
        }
        Admin::ResetPassword { name } => {
            let account = find(name).await?;
            let token = secret::new_secret("");
            store
                .create_reset(
                    secret::hash(&token),
                    account.id,
                    now_ms() + RESET_VALID.as_millis() as i64,
                )
                .await?;
            Ok(format!(
                "{}/reset/{token}",
                public_url.trim_end_matches('/')
            ))
        }
        Admin::Close { name } => flag(name, Flag::Closed, true).await,
        Admin::Reopen { name } => flag(name, Flag::Closed, false).await,
        Admin::MakeBot { name } => flag(name, Flag::Bot, true).await,
        Admin::GrantAdmin { name } => flag(name, Flag::Admin, true).await,
        Admin::GrantOrganiser { ref name } | Admin::RevokeOrganiser { ref name } => {
            let granted = matches!(admin, Admin::GrantOrganiser { .. });
            let account = find(name.clone()).await?;
            store.set_organiser(account.id, granted).await?;
            Ok(String::new())
        }
        Admin::ChatMute { ref name } | Admin::ChatUnmute { ref name } => {
            let name = name.clone();
            let mute = matches!(admin, Admin::ChatMute { .. }).then(|| ChatMuteRow {
                by: "command line".into(),
                at_ms: now_ms(),
            });
            let account = find(name).await?;
            store.set_chat_mute(account.id, mute).await?;
            Ok(String::new())
        }
    }
}
