//! Passwords: Argon2id hashes (OWASP's 19 MiB, 2 passes, 1 lane) made and checked on the
//! blocking pool behind a global cap, and the zxcvbn strength check.
//!
//! A hash takes tens of milliseconds of one core: on a runtime worker it would stall every
//! match on that worker, and a login flood would take every core. So each runs in
//! `spawn_blocking`, and at most [`max_hashes`] at once (one core is always left to play);
//! the others wait their turn on the semaphore without holding a thread.

use std::sync::{Arc, LazyLock};

use argon2::{Algorithm, Argon2, Params, PasswordHasher, PasswordVerifier, Version};
use boardcast_protocol::account::{ApiErrorCode, PASSWORD_MAX, PASSWORD_MIN};
use tokio::sync::Semaphore;

/// At most this many hashes at once: one fewer than the machine's cores, at least one, and
/// never more than two. The cores are for play first: with every core hashing, a flood of 200
/// logins took paced move→ack p99 from 48 ms to 4–5 s on two cores (BENCHMARKS.md).
pub(crate) fn max_hashes() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    cores.saturating_sub(1).clamp(1, 2)
}

/// OWASP's Argon2id parameters: 19 MiB, 2 iterations, 1 lane.
fn argon2() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("OWASP's Argon2 parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A hash of a password nobody has, verified for unknown names so that "no such user" takes
/// as long as "wrong password".
static DUMMY: LazyLock<String> = LazyLock::new(|| {
    argon2()
        .hash_password(b"no account has this password")
        .expect("hashing works")
        .to_string()
});

/// The global cap on concurrent hashes.
#[derive(Debug, Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher {
            permits: Arc::new(Semaphore::new(max_hashes())),
        }
    }
}

impl Hasher {
    /// The PHC string of a new salted Argon2id hash of `password`.
    pub async fn hash(&self, password: String) -> Result<String, String> {
        let _permit = self.permits.acquire().await.map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || {
            argon2()
                .hash_password(password.as_bytes())
                .map(|hash| hash.to_string())
                .map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| e.to_string())?
    }

    /// Whether `password` matches the PHC string `hash`; `None` checks against a dummy hash
    /// (always false, in the same time).
    pub async fn verify(&self, password: String, hash: Option<String>) -> bool {
        let Ok(_permit) = self.permits.acquire().await else {
            return false;
        };
        tokio::task::spawn_blocking(move || {
            let known = hash.is_some();
            let hash = hash.unwrap_or_else(|| DUMMY.clone());
            let matches = argon2()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok();
            known && matches
        })
        .await
        .unwrap_or(false)
    }
}

/// Why `password` is not acceptable for account `name`, if it is not: its length, or the
/// strength estimator's verdict (score below 3 of 4) with its warning and suggestions.
pub(crate) fn check(password: &str, name: &str) -> Result<(), (ApiErrorCode, String)> {
    let length = password.chars().count();
    if length < PASSWORD_MIN {
        return Err((
            ApiErrorCode::PasswordTooShort,
            format!("a password has at least {PASSWORD_MIN} characters"),
        ));
    }
    if length > PASSWORD_MAX {
        return Err((
            ApiErrorCode::PasswordTooLong,
            format!("a password has at most {PASSWORD_MAX} characters"),
        ));
    }
    let estimate = zxcvbn::zxcvbn(password, &[name, "boardcast", "draughts"]);
    if u8::from(estimate.score()) >= 3 {
        return Ok(());
    }
    let mut message = String::from("this password is too easy to guess");
    if let Some(feedback) = estimate.feedback() {
        if let Some(warning) = feedback.warning() {
            message.push_str(&format!(": {warning}"));
        }
        for suggestion in feedback.suggestions() {
            message.push_str(&format!(" {suggestion}"));
        }
    }
    Err((ApiErrorCode::PasswordWeak, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashing_leaves_a_core_to_play() {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let max = max_hashes();
        assert!(max >= 1, "at least one hash at a time");
        if cores > 1 {
            assert!(max < cores, "{max} hashes at once on {cores} cores");
        }
    }

    #[test]
    fn lengths_and_common_passwords_are_refused_with_the_reason() {
        assert_eq!(
            check("short", "anne").unwrap_err().0,
            ApiErrorCode::PasswordTooShort
        );
        assert_eq!(
            check(&"x".repeat(129), "anne").unwrap_err().0,
            ApiErrorCode::PasswordTooLong
        );
        let (code, message) = check("password123", "anne").unwrap_err();
        assert_eq!(code, ApiErrorCode::PasswordWeak);
        assert!(
            message.starts_with("this password is too easy to guess"),
            "{message}"
        );
        assert_eq!(
            check("anne12345", "anne").unwrap_err().0,
            ApiErrorCode::PasswordWeak
        );
        assert_eq!(check("correct horse battery staple 1912", "anne"), Ok(()));
    }

    #[tokio::test]
    async fn a_hash_verifies_its_password_only_and_the_dummy_nothing() {
        let hasher = Hasher::default();
        let hash = hasher.hash("Tulpen-in-Dokkum-1921".into()).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(
            hasher
                .verify("Tulpen-in-Dokkum-1921".into(), Some(hash.clone()))
                .await
        );
        assert!(
            !hasher
                .verify("tulpen-in-dokkum-1921".into(), Some(hash))
                .await
        );
        assert!(
            !hasher
                .verify("no account has this password".into(), None)
                .await
        );
    }
}
