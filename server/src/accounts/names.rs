//! Account names: 2–20 of `A-Z a-z 0-9 _ -` (the shape is the protocol crate's, so clients
//! check it too), unique ignoring case (the database's `name_key`), and not a reserved name,
//! so nobody signs up as the club's admin or as a bot or guest label.

use boardcast_protocol::account::{ApiErrorCode, NAME_MAX, NAME_MIN, name_shape_ok};

/// Names nobody may take, compared ignoring case.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "anonymous",
    "boardcast",
    "bot",
    "guest",
    "mod",
    "moderator",
    "root",
    "server",
    "staff",
    "support",
    "system",
];

/// Why `name` cannot be a new account's name, if it cannot.
pub(crate) fn check(name: &str) -> Result<(), (ApiErrorCode, String)> {
    if !name_shape_ok(name) {
        return Err((
            ApiErrorCode::NameInvalid,
            format!("a name is {NAME_MIN} to {NAME_MAX} of A-Z a-z 0-9 _ -"),
        ));
    }
    if RESERVED
        .iter()
        .any(|reserved| reserved.eq_ignore_ascii_case(name))
    {
        return Err((ApiErrorCode::NameReserved, format!("{name} is reserved")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_are_refused_in_any_case_and_bad_shapes_as_invalid() {
        assert_eq!(check("Anne"), Ok(()));
        assert_eq!(check("ADMIN").unwrap_err().0, ApiErrorCode::NameReserved);
        assert_eq!(check("Guest").unwrap_err().0, ApiErrorCode::NameReserved);
        assert_eq!(check("a").unwrap_err().0, ApiErrorCode::NameInvalid);
        assert_eq!(check("An ne").unwrap_err().0, ApiErrorCode::NameInvalid);
    }
}
