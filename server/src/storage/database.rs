//! Which database a server stores into, as an operator names it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A SQLite file (the default, embedded) or a PostgreSQL server several nodes can share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// `sqlite:PATH`, or `--db PATH`.
    Sqlite(PathBuf),
    /// `postgres://user:password@host:port/database` (or `postgresql://…`).
    Postgres(String),
}

impl FromStr for Database {
    type Err = String;

    fn from_str(name: &str) -> Result<Database, String> {
        if let Some(path) = name.strip_prefix("sqlite:") {
            if path.is_empty() {
                return Err("sqlite: needs a file path, as in sqlite:boardcast.db".to_owned());
            }
            Ok(Database::Sqlite(PathBuf::from(path)))
        } else if name.starts_with("postgres://") || name.starts_with("postgresql://") {
            Ok(Database::Postgres(name.to_owned()))
        } else {
            Err(format!(
                "{name:?} is not a database: use postgres://user:password@host/database or \
                 sqlite:PATH"
            ))
        }
    }
}

/// The database as it may be logged: a PostgreSQL URL without its password.
impl fmt::Display for Database {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "sqlite:{}", path.display()),
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

/// `url` with the password (if any) left out (also used for `--redis`).
pub(crate) fn without_password(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = url[scheme + 3..at].split(':').next().unwrap_or("");
            let at_user = if user.is_empty() { "" } else { "@" };
            format!("{}{user}{at_user}{}", &url[..scheme + 3], &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn databases_are_named_by_scheme_and_logged_without_password() {
        assert_eq!(
            "sqlite:data/b.db".parse(),
            Ok(Database::Sqlite(PathBuf::from("data/b.db")))
        );
        let url = "postgres://club:s3cr@t@db.example/boardcast";
        assert_eq!(url.parse(), Ok(Database::Postgres(url.to_owned())));
        assert_eq!(
            Database::Postgres(url.to_owned()).to_string(),
            "postgres://club@db.example/boardcast"
        );
        assert_eq!(
            "sqlite:".parse::<Database>(),
            Err("sqlite: needs a file path, as in sqlite:boardcast.db".to_owned())
        );
        assert_eq!(
            "mysql://x".parse::<Database>(),
            Err(
                "\"mysql://x\" is not a database: use postgres://user:password@host/database \
                 or sqlite:PATH"
                    .to_owned()
            )
        );
    }
}
