//! A certificate authority made at test time (rcgen): it issues server certificates for
//! `localhost` and 127.0.0.1 written as PEM files for `--tls-cert`/`--tls-key`, and gives the
//! rustls client configuration (and the PEM for `--ca-file`) that trusts it and nothing else.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use rustls::RootCertStore;

/// A test CA.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

/// A server certificate the CA issued, and where its files are.
pub struct Issued {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// The certificate (DER), to compare with what a client was shown.
    pub der: Vec<u8>,
}

impl TestCa {
    pub fn new(name: &str) -> TestCa {
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().expect("a CA key");
        let issuer = CertifiedIssuer::self_signed(params, key).expect("a CA certificate");
        TestCa { issuer }
    }

    /// Issues a certificate for `localhost` and 127.0.0.1, written to `dir/name.crt` and
    /// `dir/name.key`.
    pub fn issue(&self, dir: &Path, name: &str) -> Issued {
        let mut params =
            CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
                .expect("server certificate parameters");
        params.distinguished_name.push(DnType::CommonName, name);
        let key = KeyPair::generate().expect("a server key");
        let cert = params
            .signed_by(&key, &self.issuer)
            .expect("a server certificate");
        let issued = Issued {
            cert: dir.join(format!("{name}.crt")),
            key: dir.join(format!("{name}.key")),
            der: cert.der().to_vec(),
        };
        std::fs::write(&issued.cert, cert.pem()).expect("write the certificate");
        std::fs::write(&issued.key, key.serialize_pem()).expect("write the key");
        issued
    }

    /// The CA certificate as PEM (what a client's `--ca-file` holds).
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// A rustls client configuration trusting this CA alone.
    pub fn client_config(&self) -> Arc<rustls::ClientConfig> {
        let mut roots = RootCertStore::empty();
        roots
            .add(self.issuer.der().clone())
            .expect("the CA certificate is valid");
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        Arc::new(
            rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .expect("TLS 1.2 and 1.3")
                .with_root_certificates(roots)
                .with_no_client_auth(),
        )
    }
}
