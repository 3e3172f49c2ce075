//! `boardcast-server gen-cert NAME…`: a self-signed certificate that the terminal client, curl
//! and browsers all accept for a club's own server, and the commands that use it.
//!
//! The usual `openssl req -x509 …` one-liner makes a CA certificate (basicConstraints CA:TRUE)
//! with the host only in the common name: the server and curl take it, but rustls (the
//! terminal client) refuses a CA as a server's own certificate and reads host names only from
//! subjectAltName. This one is a server's leaf certificate (CA:FALSE, serverAuth) whose
//! subjectAltName holds every name and address given, so `--ca-file` can point at it.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use rcgen::{CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair, KeyUsagePurpose};

/// How long the certificate is valid: two years and a bit, as public CAs used to issue; then
/// `gen-cert` is run again.
pub const VALID_DAYS: i64 = 825;

/// Why no certificate was written.
#[derive(Debug, thiserror::Error)]
pub enum GenCertError {
    #[error(
        "give the host names or addresses players will connect to, e.g. `gen-cert boards.example.org 192.168.1.20`"
    )]
    NoNames,
    #[error("{0:?} is not a host name or IP address")]
    BadName(String),
    #[error(
        "{} already exists: remove it (or choose another --cert/--key) to make a new one",
        .0.display()
    )]
    Exists(PathBuf),
    #[error("cannot make the certificate: {0}")]
    Rcgen(#[from] rcgen::Error),
    #[error("cannot write {}: {error}", path.display())]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// A certificate and its key, as PEM.
pub struct Generated {
    pub cert_pem: String,
    pub key_pem: String,
    /// The last day it is valid.
    pub not_after: time::Date,
}

/// Makes a self-signed server certificate for `names` (host names and IP addresses), valid
/// from yesterday (a little clock skew) for [`VALID_DAYS`].
pub fn generate(names: &[String]) -> Result<Generated, GenCertError> {
    let first = names.first().ok_or(GenCertError::NoNames)?;
    for name in names {
        let plausible = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '*'));
        if !plausible {
            return Err(GenCertError::BadName(name.clone()));
        }
    }
    // IP addresses become IP-address names, the rest DNS names.
    let mut params = CertificateParams::new(names.to_vec())?;
    params.distinguished_name.push(DnType::CommonName, first);
    params.is_ca = IsCa::ExplicitNoCa;
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
    ];
    params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
    let now = time::OffsetDateTime::now_utc();
    params.not_before = now - time::Duration::days(1);
    params.not_after = now + time::Duration::days(VALID_DAYS);
    let key = KeyPair::generate()?;
    let cert = params.self_signed(&key)?;
    Ok(Generated {
        cert_pem: cert.pem(),
        key_pem: key.serialize_pem(),
        not_after: params.not_after.date(),
    })
}

/// Writes `contents` to a new file at `path` (never over an existing one); `private` files are
/// readable by their owner alone.
fn write_new(path: &Path, contents: &str, private: bool) -> Result<(), GenCertError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(if private { 0o600 } else { 0o644 });
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => GenCertError::Exists(path.to_owned()),
        _ => GenCertError::Write {
            path: path.to_owned(),
            error: e,
        },
    })?;
    file.write_all(contents.as_bytes())
        .map_err(|e| GenCertError::Write {
            path: path.to_owned(),
            error: e,
        })
}

/// What was written, and the commands that use it.
pub struct Written<'a> {
    names: &'a [String],
    cert: &'a Path,
    key: &'a Path,
    not_after: time::Date,
}

/// Generates the certificate for `names` and writes it to `cert` and its key to `key`; both
/// files must not exist yet.
pub fn write<'a>(
    names: &'a [String],
    cert: &'a Path,
    key: &'a Path,
) -> Result<Written<'a>, GenCertError> {
    let generated = generate(names)?;
    for path in [cert, key] {
        if path.exists() {
            return Err(GenCertError::Exists(path.to_owned()));
        }
    }
    write_new(key, &generated.key_pem, true)?;
    if let Err(error) = write_new(cert, &generated.cert_pem, false) {
        // A key without its certificate is of no use; the next run would refuse it.
        let _ = std::fs::remove_file(key);
        return Err(error);
    }
    Ok(Written {
        names,
        cert,
        key,
        not_after: generated.not_after,
    })
}

impl fmt::Display for Written<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (cert, key) = (self.cert.display(), self.key.display());
        // An IPv6 address needs brackets in a URL.
        let host = match &self.names[0] {
            name if name.contains(':') => format!("[{name}]"),
            name => name.clone(),
        };
        writeln!(
            f,
            "wrote {cert} (for {}, valid until {}) and {key} (its private key, kept to you)",
            self.names.join(", "),
            self.not_after
        )?;
        writeln!(f, "serve with it:")?;
        writeln!(
            f,
            "  boardcast-server --tls-cert {cert} --tls-key {key} --listen 0.0.0.0:7878"
        )?;
        writeln!(
            f,
            "players copy {cert} (it holds no secret) and connect with:"
        )?;
        writeln!(
            f,
            "  boardcast --server wss://{host}:7878/ws --ca-file {cert}"
        )?;
        writeln!(
            f,
            "browsers open https://{host}:7878/ and accept the warning once (no authority issued it)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::sync::Arc;

    use rustls::client::WebPkiServerVerifier;
    use rustls::client::danger::ServerCertVerifier;
    use rustls_pki_types::pem::PemObject;
    use rustls_pki_types::{CertificateDer, ServerName, UnixTime};

    /// Checks `cert_pem` for `name` as the terminal client does with `--ca-file` naming it.
    fn verify(cert_pem: &str, name: &str) -> Result<(), rustls::Error> {
        let der = CertificateDer::from_pem_slice(cert_pem.as_bytes()).unwrap();
        let mut roots = rustls::RootCertStore::empty();
        roots.add(der.clone()).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier = WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider)
            .build()
            .unwrap();
        let name = ServerName::try_from(name.to_owned()).unwrap();
        verifier
            .verify_server_cert(&der, &[], &name, &[], UnixTime::now())
            .map(|_| ())
    }

    #[test]
    fn a_client_trusting_the_certificate_accepts_it_for_every_name_and_no_other() {
        let names = ["boards.example".to_owned(), "192.168.1.20".to_owned()];
        let generated = generate(&names).unwrap();
        verify(&generated.cert_pem, "boards.example").unwrap();
        verify(&generated.cert_pem, "192.168.1.20").unwrap();
        assert!(matches!(
            verify(&generated.cert_pem, "other.example"),
            Err(rustls::Error::InvalidCertificate(_))
        ));
        assert!(generated.key_pem.contains("PRIVATE KEY"));
        assert!(generated.not_after > time::OffsetDateTime::now_utc().date());
    }

    #[test]
    fn what_openssl_req_x509_makes_is_refused_by_the_same_check() {
        // CA:TRUE with the host in the common name only: why gen-cert exists.
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(DnType::CommonName, "localhost");
        params.is_ca = IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        let cert = params.self_signed(&KeyPair::generate().unwrap()).unwrap();
        assert!(verify(&cert.pem(), "localhost").is_err());
    }

    #[test]
    fn no_names_or_bad_names_are_refused() {
        assert!(matches!(generate(&[]), Err(GenCertError::NoNames)));
        assert!(matches!(
            generate(&["a b".to_owned()]),
            Err(GenCertError::BadName(_))
        ));
    }

    #[test]
    fn existing_files_are_never_overwritten() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = (dir.path().join("c.crt"), dir.path().join("c.key"));
        let names = ["localhost".to_owned()];
        let written = write(&names, &cert, &key).unwrap().to_string();
        assert!(written.contains("--ca-file"), "{written}");
        let before = std::fs::read(&key).unwrap();
        assert!(matches!(
            write(&names, &cert, &key),
            Err(GenCertError::Exists(_))
        ));
        assert_eq!(std::fs::read(&key).unwrap(), before);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
