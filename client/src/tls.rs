//! TLS for `wss://` servers: the system's trusted roots, plus the certificates of `--ca-file`
//! for a server with a self-signed certificate or a private CA.

use std::path::Path;
use std::sync::Arc;

use rustls::{ClientConfig, RootCertStore};
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
