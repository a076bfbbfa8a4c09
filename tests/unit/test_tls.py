"""TLS contexts from Kafka's ssl.* settings, handshakes over loopback, principals from certificates."""

from __future__ import annotations

import datetime
import socket
import ssl
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from broker.protocol.auth import ANONYMOUS, KafkaPrincipal
from broker.security.tls import (
    NoMatchingRule,
    SslConfigError,
    SslPrincipalMapper,
    distinguished_name,
    principal_from_certificate,
    server_context,
)


def _name(**parts: str) -> x509.Name:
    oids = {
        "CN": NameOID.COMMON_NAME,
        "OU": NameOID.ORGANIZATIONAL_UNIT_NAME,
        "O": NameOID.ORGANIZATION_NAME,
        "C": NameOID.COUNTRY_NAME,
    }
    return x509.Name([x509.NameAttribute(oids[k], v) for k, v in reversed(list(parts.items()))])


def make_cert(subject: x509.Name, issuer_key=None, issuer_name=None, ca=False, san=None):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer_name or subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if san:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(san)]), critical=False)
    cert = builder.sign(issuer_key or key, hashes.SHA256())
    return key, cert


def pem(cert) -> str:
    return cert.public_bytes(serialization.Encoding.PEM).decode()


def key_pem(key, password: bytes | None = None) -> str:
    enc = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc).decode()


@pytest.fixture(scope="module")
def pki():
    ca_key, ca = make_cert(_name(CN="test-ca", O="corp"), ca=True)
    server_key, server = make_cert(_name(CN="localhost"), ca_key, ca.subject, san="localhost")
    client_key, client = make_cert(_name(CN="alice", OU="eng", O="corp", C="DE"), ca_key, ca.subject)
    return {
        "ca_key": ca_key,
        "ca": ca,
        "server_key": server_key,
        "server": server,
        "client_key": client_key,
        "client": client,
    }


def settings(pki, **extra):
    base = {
        "ssl.keystore.type": "PEM",
        "ssl.keystore.key": key_pem(pki["server_key"], b"kp"),
        "ssl.key.password": "kp",
        "ssl.keystore.certificate.chain": pem(pki["server"]) + pem(pki["ca"]),
        "ssl.truststore.type": "PEM",
        "ssl.truststore.certificates": pem(pki["ca"]),
    }
    base.update(extra)
    return base


def client_context(pki, with_cert=True, tmp_path=None) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cadata=pem(pki["ca"]))
    if with_cert:
        assert tmp_path is not None
        path = tmp_path / "client.pem"
        path.write_text(key_pem(pki["client_key"]) + pem(pki["client"]))
        ctx.load_cert_chain(path)
    return ctx


def handshake(server_ctx: ssl.SSLContext, client_ctx: ssl.SSLContext) -> tuple[bytes | None, str]:
    """Handshake over a socketpair; returns the client certificate the server saw and the version."""
    a, b = socket.socketpair()
    result: dict = {}

    def serve():
        try:
            with server_ctx.wrap_socket(a, server_side=True) as s:
                result["der"] = s.getpeercert(binary_form=True)
                result["version"] = s.version()
                s.sendall(b"ok")
        except (ssl.SSLError, OSError) as exc:
            result["error"] = exc

    t = threading.Thread(target=serve)
    t.start()
    try:
        with client_ctx.wrap_socket(b, server_hostname="localhost") as c:
            assert c.recv(2) == b"ok"
    finally:
        t.join(10)
    if "error" in result:
        raise result["error"]
    return result["der"], result["version"]


def test_required_client_auth_yields_the_dn_principal(pki, tmp_path):
    ctx = server_context(settings(pki, **{"ssl.client.auth": "required"}))
    der, version = handshake(ctx, client_context(pki, tmp_path=tmp_path))
    assert version == "TLSv1.3"
    principal = principal_from_certificate(der, SslPrincipalMapper("DEFAULT"))
    assert principal == KafkaPrincipal.user("CN=alice,OU=eng,O=corp,C=DE")
    with pytest.raises((ssl.SSLError, OSError)):
        handshake(ctx, client_context(pki, with_cert=False))


def test_requested_and_none(pki, tmp_path):
    requested = server_context(settings(pki, **{"ssl.client.auth": "requested"}))
    der, _ = handshake(requested, client_context(pki, with_cert=False))
    assert principal_from_certificate(der, SslPrincipalMapper()) == ANONYMOUS
    none = server_context(settings(pki))
    der, _ = handshake(none, client_context(pki, tmp_path=tmp_path))
    assert der is None


def test_keystore_file_and_protocol_limits(pki, tmp_path):
    path = tmp_path / "server.pem"
    path.write_text(key_pem(pki["server_key"]) + pem(pki["server"]) + pem(pki["ca"]))
    ca = tmp_path / "ca.pem"
    ca.write_text(pem(pki["ca"]))
    ctx = server_context(
        {
            "ssl.keystore.location": str(path),
            "ssl.truststore.location": str(ca),
            "ssl.enabled.protocols": "TLSv1.2",
            "ssl.cipher.suites": "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        }
    )
    _, version = handshake(ctx, client_context(pki, with_cert=False))
    assert version == "TLSv1.2"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"ssl.enabled.protocols": "TLSv1.1"}, "ssl.enabled.protocols"),
        ({"ssl.keystore.type": "JKS"}, "ssl.keystore.type: JKS"),
        ({"ssl.key.password": "wrong"}, "ssl.keystore.key"),
        ({"ssl.keystore.certificate.chain": ""}, "must be set together"),
        ({"ssl.client.auth": "sometimes"}, "ssl.client.auth"),
        ({"ssl.cipher.suites": "NOT_A_SUITE"}, "ssl.cipher.suites"),
        ({"ssl.truststore.certificates": "garbage"}, "ssl.truststore.certificates"),
        ({"ssl.keystore.location": "/nonexistent"}, "cannot be combined"),
    ],
)
def test_bad_settings_are_one_clear_line(pki, extra, message):
    with pytest.raises(SslConfigError, match=message):
        server_context(settings(pki, **extra))
    with pytest.raises(SslConfigError, match=r"needs ssl\.keystore"):
        server_context({})


def test_principal_mapping_rules():
    dn = "CN=Alice Smith,OU=Eng,O=Corp,C=DE"
    assert SslPrincipalMapper("DEFAULT").name(dn) == dn
    assert SslPrincipalMapper(r"RULE:^CN=(.*?),OU=(.*?),O=(.*?),C=(.*?)$/$1@$2/L,DEFAULT").name(dn) == "alice smith@eng"
    assert SslPrincipalMapper(r"RULE:^CN=(.*?),.*$/$1/U").name(dn) == "ALICE SMITH"
    mapper = SslPrincipalMapper(r"RULE:^CN=(\w+),OU=ops.*$/$1/, RULE:^.*O=(Corp).*$/group-$1\/x/")
    assert mapper.name("CN=bob,OU=ops,O=X") == "bob"
    assert mapper.name(dn) == "group-Corp/x"
    # $9 names no group: literal, as in Kafka
    assert SslPrincipalMapper(r"RULE:^CN=(\w+).*$/$1$9/").name("CN=carol,O=x") == "carol$9"
    with pytest.raises(NoMatchingRule):
        SslPrincipalMapper(r"RULE:^CN=nobody$/x/").name(dn)


def test_distinguished_name_escaping_and_unknown_attributes():
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.EMAIL_ADDRESS, "a@b.c"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Corp, Inc."),
            x509.NameAttribute(NameOID.COMMON_NAME, "#x+y"),
        ]
    )
    assert distinguished_name(name) == r"CN=\#x\+y,O=Corp\, Inc.,1.2.840.113549.1.9.1=#16056140622e63"
