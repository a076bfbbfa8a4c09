"""A throw-away PKI for TLS tests and benchmarks: a CA, a broker certificate for
127.0.0.1/localhost, client certificates, and a second CA nobody trusts.

``Pki(directory)`` writes PEM files (keys unencrypted, PKCS#8, as Java's PEM
keystores want them) and returns their paths and contents; nothing here talks to
the network.
"""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass, field
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(cn: str, org: str = "sharebroker-tests") -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, org), x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _cert(subject: x509.Name, *, issuer=None, ca: bool = False, server: bool = False):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    issuer_key, issuer_name = (key, subject) if issuer is None else (issuer[0], issuer[1].subject)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True
        )
    else:
        usage = (
            [ExtendedKeyUsageOID.SERVER_AUTH, ExtendedKeyUsageOID.CLIENT_AUTH]
            if server
            else [ExtendedKeyUsageOID.CLIENT_AUTH]
        )
        builder = builder.add_extension(x509.ExtendedKeyUsage(usage), critical=False)
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
    return key, builder.sign(issuer_key, hashes.SHA256())


def pem(cert) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def key_pem(key) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


@dataclass
class Identity:
    """One certificate: its key and chain as PEM text and as files."""

    key: str
    cert: str
    key_file: Path
    cert_file: Path
    bundle_file: Path  # key + certificate chain in one file (ssl.keystore.location)


@dataclass
class Pki:
    directory: Path
    ca_cert: str = ""
    ca_file: Path = field(default_factory=Path)
    broker: Identity | None = None
    _ca: tuple = ()
    _rogue: tuple = ()

    def __post_init__(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._ca = _cert(_name("sharebroker test CA"), ca=True)
        self._rogue = _cert(_name("untrusted CA", "elsewhere"), ca=True)
        self.ca_cert = pem(self._ca[1])
        self.ca_file = self.directory / "ca.pem"
        self.ca_file.write_text(self.ca_cert)
        self.broker = self.identity("broker", server=True)

    def identity(
        self, cn: str, *, server: bool = False, trusted: bool = True, org: str = "sharebroker-tests"
    ) -> Identity:
        issuer = self._ca if trusted else self._rogue
        key, cert = _cert(_name(cn, org), issuer=issuer, server=server)
        chain = pem(cert) + pem(issuer[1])
        stem = self.directory / (cn if trusted else f"{cn}-untrusted")
        key_file, cert_file, bundle = Path(f"{stem}.key"), Path(f"{stem}.crt"), Path(f"{stem}.pem")
        key_file.write_text(key_pem(key))
        cert_file.write_text(chain)
        bundle.write_text(key_pem(key) + chain)
        return Identity(key_pem(key), chain, key_file, cert_file, bundle)

    def broker_settings(self, listener: str | None = None, client_auth: str = "none") -> dict[str, str]:
        """The broker's ssl.* settings (listener-prefixed when ``listener`` is given), PEM files."""
        assert self.broker is not None
        prefix = f"listener.name.{listener.lower()}." if listener else ""
        return {
            f"{prefix}ssl.keystore.type": "PEM",
            f"{prefix}ssl.keystore.location": str(self.broker.bundle_file),
            f"{prefix}ssl.truststore.type": "PEM",
            f"{prefix}ssl.truststore.location": str(self.ca_file),
            f"{prefix}ssl.client.auth": client_auth,
        }
