//! TLS for `wss://` servers: the system's trusted roots, plus the certificates of `--ca-file`
//! for a server with a self-signed certificate or a private CA; and what a refused handshake
//! means, in words a player can act on (rustls's own errors name webpki's internals:
//! `CaUsedAsEndEntity`, `UnsupportedSignatureAlgorithmForPublicKeyContext`).

use std::path::Path;
use std::sync::Arc;

use rustls::{CertificateError, ClientConfig, RootCertStore};
use rustls_pki_types::CertificateDer;
use rustls_pki_types::pem::PemObject;

/// The client TLS configuration: system roots (those that load) and every certificate in
/// `ca_file`. An unreadable or empty `ca_file` is an error; a system without roots is not
/// (plain `ws://` needs none).
pub fn client_config(ca_file: Option<&Path>) -> Result<Arc<ClientConfig>, String> {
    let mut roots = RootCertStore::empty();
    let system = rustls_native_certs::load_native_certs();
    let (added, _ignored) = roots.add_parsable_certificates(system.certs);
    if let Some(path) = ca_file {
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|err| format!("--ca-file {}: {err}", path.display()))?;
        if certs.is_empty() {
            return Err(format!(
                "--ca-file {}: no PEM certificate in it",
                path.display()
            ));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|err| format!("--ca-file {}: {err}", path.display()))?;
        }
    } else if added == 0 {
        // Not an error: a plain ws:// server needs no roots, and a wss:// one then fails its
        // certificate check with a message that says so.
        tracing::debug!("no trusted root certificates found on this system");
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|err| err.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// What the README's TLS section and `boardcast-server gen-cert` offer.
const MAKE_ONE: &str = "`boardcast-server gen-cert HOST` makes a certificate that works";

/// A TLS handshake error as a sentence: what is wrong and what to do. Every such error is
/// permanent (trying again meets the same certificate), so the caller stops retrying.
/// `host` is the name the client asked for; `ca_file` is `--ca-file`, if given.
pub fn explain(error: &rustls::Error, host: &str, ca_file: Option<&Path>) -> String {
    let certificate = match error {
        rustls::Error::InvalidCertificate(certificate) => certificate,
        rustls::Error::InvalidMessage(rustls::InvalidMessage::InvalidContentType) => {
            return format!(
                "the server at {host} does not speak TLS on this port: use ws:// instead of \
                 wss:// (or start the server with --tls-cert and --tls-key)"
            );
        }
        rustls::Error::AlertReceived(alert) => {
            return format!("the server refused the TLS handshake ({alert:?})");
        }
        rustls::Error::PeerIncompatible(why) => {
            return format!("the server and this client share no TLS version or cipher ({why:?})");
        }
        other => return format!("the TLS handshake with {host} failed: {other}"),
    };
    let untrusted = || match ca_file {
        None => format!(
            "the server's certificate is not trusted: pass --ca-file FILE with the server's \
             certificate (or the CA that issued it); {MAKE_ONE}"
        ),
        Some(path) => format!(
            "the server's certificate is not trusted: neither --ca-file {} nor this system's \
             roots issued it; pass the server's own certificate (or its CA)",
            path.display()
        ),
    };
    match certificate {
        CertificateError::UnknownIssuer
        | CertificateError::BadSignature
        | CertificateError::UnsupportedSignatureAlgorithmContext { .. }
        | CertificateError::UnsupportedSignatureAlgorithmForPublicKeyContext { .. } => untrusted(),
        CertificateError::NotValidForName => format!(
            "the server's certificate is not valid for {host}: connect with a name it holds, or \
             {MAKE_ONE}"
        ),
        CertificateError::NotValidForNameContext { presented, .. } => {
            let names = if presented.is_empty() {
                "no host names at all (no subjectAltName; the common name does not count)".into()
            } else {
                presented.join(", ")
            };
            format!(
                "the server's certificate is not valid for {host}: it names {names}; connect \
                 with one of those, or {MAKE_ONE}"
            )
        }
        CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
            format!("the server's certificate has expired; {MAKE_ONE}")
        }
        CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
            "the server's certificate is not valid yet: check this computer's clock".to_owned()
        }
        CertificateError::InvalidPurpose | CertificateError::InvalidPurposeContext { .. } => {
            format!("the server's certificate is not made for a TLS server; {MAKE_ONE}")
        }
        CertificateError::Other(other) if other.0.to_string().contains("CaUsedAsEndEntity") => {
            format!(
                "the server's certificate is a CA certificate (basicConstraints CA:TRUE, as \
                 `openssl req -x509` makes by default), which no client accepts as a server's \
                 own; {MAKE_ONE}"
            )
        }
        // A chain this client cannot follow at all is a trust problem to the user too.
        CertificateError::Other(_) => untrusted(),
        other => format!("the server's certificate was refused: {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_file_must_hold_certificates() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "").unwrap();
        let err = client_config(Some(&empty)).unwrap_err();
        assert!(err.contains("no PEM certificate"), "{err}");
        let missing = client_config(Some(&dir.path().join("missing.pem"))).unwrap_err();
        assert!(missing.starts_with("--ca-file "), "{missing}");
    }
}
