//! TLS on the server's one port (`--tls-cert`, `--tls-key`): rustls with the ring provider,
//! certificate and key read from PEM files, read again on SIGHUP without dropping a
//! connection — established sessions keep the keys they agreed on, and new handshakes get the
//! new certificate. A file that does not load on reload is logged and the old certificate kept.
//!
//! Before the handshake the first byte is peeked: a plaintext HTTP request (a person who typed
//! `http://`) is answered `400` with a line saying to use `https://`, instead of a handshake
//! error it cannot read.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use rustls::ServerConfig;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// The first byte of every TLS record that opens a handshake.
const TLS_HANDSHAKE_RECORD: u8 = 0x16;

/// What a plaintext HTTP request to the TLS port is answered with.
const PLAINTEXT_ANSWER: &[u8] = b"HTTP/1.1 400 Bad Request\r\n\
Content-Type: text/plain; charset=utf-8\r\n\
Connection: close\r\n\
Content-Length: 57\r\n\
\r\n\
This port speaks TLS: use https:// or wss:// to connect.\n";

/// Why a certificate or key did not load.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    #[error("cannot read the certificate chain from {path}: {source}")]
    Certificates {
        path: PathBuf,
        source: rustls_pki_types::pem::Error,
    },
    #[error("{0} holds no certificate")]
    NoCertificate(PathBuf),
    #[error("cannot read the private key from {path}: {source}")]
    Key {
        path: PathBuf,
        source: rustls_pki_types::pem::Error,
    },
    #[error("the key in {key} does not fit the certificate in {cert}: {source}")]
    Mismatch {
        cert: PathBuf,
        key: PathBuf,
        source: rustls::Error,
    },
}

/// The certificate in use, swapped whole on reload.
#[derive(Debug)]
struct Current(RwLock<Arc<CertifiedKey>>);

impl ResolvesServerCert for Current {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(
            self.0
                .read()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .clone(),
        )
    }
}

/// TLS for the port: the acceptor, and the files to reload it from.
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
    current: Arc<Current>,
    cert: PathBuf,
    key: PathBuf,
}

impl Tls {
    /// Loads `cert` (a PEM chain, leaf first) and `key` (a PEM private key).
    pub fn load(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        let current = Arc::new(Current(RwLock::new(Arc::new(certified_key(cert, key)?))));
        let mut config = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .expect("the ring provider supports TLS 1.2 and 1.3")
            .with_no_client_auth()
            .with_cert_resolver(current.clone());
        // WebSocket upgrades are HTTP/1.1.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            current,
            cert: cert.to_owned(),
            key: key.to_owned(),
        })
    }

    /// Reads the files again; new handshakes use what they hold. On error the old
    /// certificate stays.
    pub fn reload(&self) -> Result<(), TlsError> {
        let fresh = Arc::new(certified_key(&self.cert, &self.key)?);
        *self
            .current
            .0
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = fresh;
        Ok(())
    }

    /// The certificate file, for the log.
    pub fn cert_path(&self) -> &Path {
        &self.cert
    }

    /// Completes the TLS handshake on `stream` within `timeout`. A plaintext HTTP request is
    /// answered `400` and closed; a handshake that fails or stalls is closed. `None` when the
    /// connection is done.
    pub async fn accept(
        &self,
        stream: TcpStream,
        timeout: Duration,
    ) -> Option<TlsStream<TcpStream>> {
        let handshake = async {
            let mut first = [0u8; 1];
            if stream.peek(&mut first).await? == 0 {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "closed"));
            }
            if first[0] != TLS_HANDSHAKE_RECORD {
                let mut stream = stream;
                if first[0].is_ascii_uppercase() {
                    stream.write_all(PLAINTEXT_ANSWER).await?;
                    stream.shutdown().await?;
                    // Read what the client sent until it closes, so that closing does not
                    // reset the connection before it has read the answer.
                    let mut sink = [0u8; 1024];
                    while stream.read(&mut sink).await? > 0 {}
                }
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "not a TLS handshake",
                ));
            }
            self.acceptor.accept(stream).await
        };
        match tokio::time::timeout(timeout, handshake).await {
            Ok(Ok(stream)) => Some(stream),
            Ok(Err(err)) => {
                tracing::debug!(%err, "TLS handshake failed");
                None
            }
            Err(_) => {
                tracing::debug!("TLS handshake timed out");
                None
            }
        }
    }
}

/// Reloads `tls` on every SIGHUP until shutdown.
pub(crate) async fn reload_on_hangup(tls: Tls, mut shutdown: crate::ops::shutdown::Shutdown) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut hangups = match signal(SignalKind::hangup()) {
            Ok(hangups) => hangups,
            Err(err) => {
                tracing::warn!(%err, "cannot listen for SIGHUP; the certificate will not reload");
                return;
            }
        };
        loop {
            tokio::select! {
                _ = shutdown.recv() => return,
                got = hangups.recv() => {
                    if got.is_none() {
                        return;
                    }
                    match tls.reload() {
                        Ok(()) => tracing::info!(
                            cert = %tls.cert.display(),
                            "SIGHUP: reloaded the TLS certificate"
                        ),
                        Err(err) => tracing::error!(
                            %err,
                            "SIGHUP: cannot reload the TLS certificate; keeping the old one"
                        ),
                    }
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tls;
        shutdown.recv().await;
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn certified_key(cert: &Path, key: &Path) -> Result<CertifiedKey, TlsError> {
    let chain = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|source| TlsError::Certificates {
            path: cert.to_owned(),
            source,
        })?;
    if chain.is_empty() {
        return Err(TlsError::NoCertificate(cert.to_owned()));
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|source| TlsError::Key {
        path: key.to_owned(),
        source,
    })?;
    CertifiedKey::from_der(chain, private, &provider()).map_err(|source| TlsError::Mismatch {
        cert: cert.to_owned(),
        key: key.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_pair(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
        let issued = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let cert = dir.join(format!("{name}.crt"));
        let key = dir.join(format!("{name}.key"));
        std::fs::write(&cert, issued.cert.pem()).unwrap();
        std::fs::write(&key, issued.signing_key.serialize_pem()).unwrap();
        (cert, key)
    }

    fn served(tls: &Tls) -> Vec<u8> {
        tls.current.0.read().unwrap().cert[0].to_vec()
    }

    #[test]
    fn loads_reloads_and_keeps_the_old_certificate_on_a_bad_file() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, key) = write_pair(dir.path(), "first");
        let tls = Tls::load(&cert, &key).unwrap();
        let first = served(&tls);
        let (new_cert, new_key) = write_pair(dir.path(), "second");
        std::fs::copy(&new_cert, &cert).unwrap();
        std::fs::copy(&new_key, &key).unwrap();
        tls.reload().unwrap();
        let second = served(&tls);
        assert_ne!(first, second);
        std::fs::write(&cert, "not a certificate").unwrap();
        let err = tls.reload().unwrap_err();
        assert!(matches!(err, TlsError::NoCertificate(_)), "{err}");
        assert_eq!(served(&tls), second);
    }

    #[test]
    fn a_key_of_another_certificate_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (cert, _) = write_pair(dir.path(), "one");
        let (_, other_key) = write_pair(dir.path(), "two");
        let err = Tls::load(&cert, &other_key).err().unwrap();
        assert!(matches!(err, TlsError::Mismatch { .. }), "{err}");
        let missing = Tls::load(&dir.path().join("none.crt"), &other_key)
            .err()
            .unwrap();
        assert!(
            matches!(missing, TlsError::Certificates { .. }),
            "{missing}"
        );
    }

    #[test]
    fn the_plaintext_answer_has_the_right_length() {
        let text = std::str::from_utf8(PLAINTEXT_ANSWER).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("Content-Length: {}", body.len())));
    }
}
