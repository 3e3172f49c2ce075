//! The first connection of a start (and of `migrate`): when it fails for a reason an operator
//! fixes once — no server on that port, no such role or database, a wrong password, no
//! `pg_hba.conf` line — the error names that step and gives the command, instead of
//! PostgreSQL's bare "db error". Later connections (the writer's reconnects, the read pool)
//! fail for passing reasons and keep [`StorageError::Unavailable`]: a server that ran once is
//! set up.

use tokio_postgres::config::Host;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config};

use super::{describe, writer};
use crate::storage::StorageError;

/// Connects as [`writer::connect_client`] does; a failure is explained by [`explain`].
pub(super) async fn first_connection(config: &Config) -> Result<Client, StorageError> {
    writer::open_client(config)
        .await
        .map_err(|err| explain(err, config))
}

/// What `err`, met on the first connection with `config`, asks the operator to do; an error
/// that no set-up step fixes is left as it is.
pub(super) fn explain(err: tokio_postgres::Error, config: &Config) -> StorageError {
    let user = config.get_user().unwrap_or("boardcast");
    let database = config.get_dbname().unwrap_or(user);
    let server = server(config);
    let setup = |problem: String, remedy: String| StorageError::Setup { problem, remedy };
    let Some(db_error) = err.as_db_error() else {
        let cause = describe(&err);
        let unanswered = std::error::Error::source(&err)
            .is_some_and(|source| source.is::<std::io::Error>())
            || cause.starts_with("timeout");
        if cause.contains("password missing") {
            // The server asks for a password (scram or md5 in pg_hba.conf) and the URL has
            // none.
            return setup(
                format!("PostgreSQL asks for the password of role \"{user}\" and the URL has none"),
                format!("put it in the URL: postgres://{user}:PASSWORD@{server}/{database}"),
            );
        }
        if !unanswered {
            return StorageError::from(err);
        }
        return setup(
            format!("no PostgreSQL server answers at {server}: {cause}"),
            "start it (sudo systemctl start postgresql; pg_lsclusters lists each cluster's \
             port), or correct the host and port in the URL"
                .to_owned(),
        );
    };
    let code = db_error.code();
    if *code == SqlState::INVALID_CATALOG_NAME {
        setup(
            format!("PostgreSQL at {server} has no database \"{database}\""),
            format!(
                "create it, owned by the role the server logs in as (so that it may create its \
                 tables): sudo -u postgres createdb -O {user} {database}"
            ),
        )
    } else if *code == SqlState::INVALID_PASSWORD {
        setup(
            // PostgreSQL says the same when the role does not exist, so as not to tell.
            format!("PostgreSQL refused the password of role \"{user}\""),
            format!(
                "put the role's password in the URL (postgres://{user}:PASSWORD@host/{database}); \
                 a role that does not exist yet is made with sudo -u postgres createuser \
                 --pwprompt {user}, a forgotten password replaced with sudo -u postgres psql -c \
                 \"ALTER ROLE {user} PASSWORD 'PASSWORD'\""
            ),
        )
    } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION
        && db_error.message().contains("pg_hba.conf")
    {
        setup(
            format!(
                "PostgreSQL does not let role \"{user}\" in: {}",
                db_error.message()
            ),
            format!(
                "add the line \"host {database} {user} 127.0.0.1/32 scram-sha-256\" to \
                 pg_hba.conf (with the boardcast server's address if it runs on another \
                 machine), then sudo systemctl reload postgresql"
            ),
        )
    } else if *code == SqlState::INVALID_AUTHORIZATION_SPECIFICATION {
        setup(
            format!("PostgreSQL at {server}: {}", db_error.message()),
            format!(
                "create the role with a password: sudo -u postgres createuser --pwprompt {user}, \
                 and put the password in the URL (postgres://{user}:PASSWORD@host/{database})"
            ),
        )
    } else {
        StorageError::from(err)
    }
}

/// `host:port` of the first host `config` names, for the message.
fn server(config: &Config) -> String {
    let port = config.get_ports().first().copied().unwrap_or(5432);
    match config.get_hosts().first() {
        Some(Host::Tcp(host)) => format!("{host}:{port}"),
        Some(Host::Unix(dir)) => format!("{} (port {port})", dir.display()),
        None => format!("localhost:{port}"),
    }
}
