"""TLS for SSL and SASL_SSL listeners: ``ssl.SSLContext`` from Kafka's ``ssl.*`` settings.

Supported, with Kafka's names and meanings:

* ``ssl.keystore.type=PEM`` with either ``ssl.keystore.certificate.chain`` and
  ``ssl.keystore.key`` (inline PEM) or ``ssl.keystore.location`` (a PEM file with
  the key and the chain); ``ssl.key.password`` decrypts an encrypted key. JKS and
  PKCS12 keystores are refused with one clear line (convert them to PEM).
* ``ssl.truststore.type=PEM`` with ``ssl.truststore.certificates`` (inline) or
  ``ssl.truststore.location``: the CAs client certificates are checked against.
* ``ssl.client.auth``: ``none``, ``requested`` (a certificate is asked for and
  checked if sent) or ``required``.
* ``ssl.enabled.protocols``: TLSv1.2 and/or TLSv1.3; older versions are refused.
* ``ssl.cipher.suites``: TLS 1.2 suites by IANA (Java) or OpenSSL name. TLS 1.3
  suites cannot be restricted through Python's ssl module; they are accepted
  in the list and otherwise left at OpenSSL's defaults.

The principal of a TLS client is its certificate's subject distinguished name
in RFC 2253 form (``CN=alice,OU=eng,O=corp``, as Java's X500Principal prints it)
mapped by ``ssl.principal.mapping.rules`` (Kafka's ``RULE:pattern/replacement/[LU]``
and ``DEFAULT`` syntax), or ``User:ANONYMOUS`` without a certificate.

Private keys given inline are handed to OpenSSL through an anonymous in-memory
file (``memfd``) where the platform has one, never through a named file.
"""

from __future__ import annotations

import os
import re
import ssl
import tempfile
from collections.abc import Mapping
from typing import Any, Final

from cryptography import x509
from cryptography.x509.oid import NameOID

from broker.protocol.auth import ANONYMOUS, KafkaPrincipal

__all__ = [
    "NoMatchingRule",
    "SslConfigError",
    "SslPrincipalMapper",
    "distinguished_name",
    "load_chain_and_key",
    "principal_from_certificate",
    "server_context",
]

_PROTOCOLS: Final = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3}
_CLIENT_AUTH: Final = {"none": ssl.CERT_NONE, "requested": ssl.CERT_OPTIONAL, "required": ssl.CERT_REQUIRED}

# IANA (Java) names of common TLS 1.2 suites -> OpenSSL names.
_IANA_TO_OPENSSL: Final = {
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256": "ECDHE-ECDSA-AES128-GCM-SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384": "ECDHE-ECDSA-AES256-GCM-SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": "ECDHE-RSA-AES128-GCM-SHA256",
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384": "ECDHE-RSA-AES256-GCM-SHA384",
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256": "ECDHE-ECDSA-CHACHA20-POLY1305",
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256": "ECDHE-RSA-CHACHA20-POLY1305",
    "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256": "DHE-RSA-AES128-GCM-SHA256",
    "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384": "DHE-RSA-AES256-GCM-SHA384",
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256": "ECDHE-ECDSA-AES128-SHA256",
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256": "ECDHE-RSA-AES128-SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384": "ECDHE-ECDSA-AES256-SHA384",
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384": "ECDHE-RSA-AES256-SHA384",
    "TLS_RSA_WITH_AES_128_GCM_SHA256": "AES128-GCM-SHA256",
    "TLS_RSA_WITH_AES_256_GCM_SHA384": "AES256-GCM-SHA384",
}
_TLS13_SUITES: Final = frozenset(
    {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256", "TLS_AES_128_CCM_SHA256"}
)


class SslConfigError(ValueError):
    """An ``ssl.*`` setting is unusable; ``str()`` is one line naming the key."""


def _get(settings: Mapping[str, Any], key: str) -> Any:
    value = settings.get(key)
    if isinstance(value, str) and not value.strip():
        return None
    return value


def _password(value: Any) -> str | None:
    return None if value is None else str(value)


def load_chain_and_key(ctx: ssl.SSLContext, pem: bytes, password: str | None) -> None:
    """Load a PEM private key and certificate chain held in memory into ``ctx``."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("sharebroker-keystore", 0)
        try:
            os.write(fd, pem)
            ctx.load_cert_chain(f"/proc/self/fd/{fd}", password=password)
        finally:
            os.close(fd)
        return
    with tempfile.TemporaryDirectory() as tmp:  # pragma: no cover (platforms without memfd)
        path = os.path.join(tmp, "keystore.pem")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with open(fd, "wb") as f:
            f.write(pem)
        ctx.load_cert_chain(path, password=password)


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v).strip() for v in value if str(v).strip()]


def server_context(settings: Mapping[str, Any]) -> ssl.SSLContext:
    """A server-side context from ``ssl.*`` settings (a BrokerConfig, or any key -> value mapping)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.options |= ssl.OP_NO_COMPRESSION

    protocols = _as_list(_get(settings, "ssl.enabled.protocols")) or ["TLSv1.2", "TLSv1.3"]
    for p in protocols:
        if p not in _PROTOCOLS:
            raise SslConfigError(f"ssl.enabled.protocols: {p!r} is not supported; use TLSv1.2 and/or TLSv1.3")
    versions = sorted(_PROTOCOLS[p] for p in protocols)
    ctx.minimum_version, ctx.maximum_version = versions[0], versions[-1]

    suites = _as_list(_get(settings, "ssl.cipher.suites"))
    tls12 = [_IANA_TO_OPENSSL.get(s, s) for s in suites if s not in _TLS13_SUITES]
    if tls12:
        try:
            ctx.set_ciphers(":".join(tls12))
        except ssl.SSLError:
            raise SslConfigError(f"ssl.cipher.suites: no usable cipher suite in {','.join(suites)}") from None
    elif suites and ssl.TLSVersion.TLSv1_2 in versions and len(versions) == 1:
        raise SslConfigError("ssl.cipher.suites: only TLS 1.3 suites listed, but only TLSv1.2 is enabled")

    # keystore: this broker's certificate and key
    ktype = str(_get(settings, "ssl.keystore.type") or "PEM").upper()
    if ktype != "PEM":
        raise SslConfigError(f"ssl.keystore.type: {ktype} is not supported; use PEM (convert with openssl)")
    key_password = _password(_get(settings, "ssl.key.password"))
    chain, key = _get(settings, "ssl.keystore.certificate.chain"), _get(settings, "ssl.keystore.key")
    location = _get(settings, "ssl.keystore.location")
    if chain is not None or key is not None:
        if chain is None or key is None:
            raise SslConfigError("ssl.keystore.key and ssl.keystore.certificate.chain must be set together")
        if location is not None:
            raise SslConfigError("ssl.keystore.location cannot be combined with inline ssl.keystore.key")
        pem = str(key).encode() + b"\n" + str(chain).encode()
        source = "ssl.keystore.key"
    elif location is not None:
        try:
            with open(location, "rb") as f:
                pem = f.read()
        except OSError as exc:
            raise SslConfigError(f"ssl.keystore.location: cannot read {location}: {exc.strerror}") from None
        source = "ssl.keystore.location"
    else:
        raise SslConfigError("an SSL listener needs ssl.keystore.location or ssl.keystore.key with its chain")
    try:
        load_chain_and_key(ctx, pem, key_password)
    except ssl.SSLError as exc:
        raise SslConfigError(f"{source}: the key and certificate chain do not load ({exc.reason or exc})") from None

    # truststore: who may present a client certificate
    client_auth = str(_get(settings, "ssl.client.auth") or "none").lower()
    if client_auth not in _CLIENT_AUTH:
        raise SslConfigError(f"ssl.client.auth: {client_auth!r} is not one of none, requested, required")
    ttype = str(_get(settings, "ssl.truststore.type") or "PEM").upper()
    certs, tlocation = _get(settings, "ssl.truststore.certificates"), _get(settings, "ssl.truststore.location")
    if (certs is not None or tlocation is not None) and ttype != "PEM":
        raise SslConfigError(f"ssl.truststore.type: {ttype} is not supported; use PEM")
    try:
        if certs is not None:
            ctx.load_verify_locations(cadata=str(certs))
        elif tlocation is not None:
            ctx.load_verify_locations(cafile=str(tlocation))
        elif client_auth != "none":
            ctx.load_default_certs(ssl.Purpose.CLIENT_AUTH)
    except (ssl.SSLError, OSError) as exc:
        key_name = "ssl.truststore.certificates" if certs is not None else "ssl.truststore.location"
        raise SslConfigError(f"{key_name}: the CA certificates do not load ({exc})") from None
    ctx.verify_mode = _CLIENT_AUTH[client_auth]
    return ctx


# --------------------------------------------------------------------------- principals

_KEYWORDS: Final = {
    NameOID.COMMON_NAME: "CN",
    NameOID.COUNTRY_NAME: "C",
    NameOID.LOCALITY_NAME: "L",
    NameOID.STATE_OR_PROVINCE_NAME: "ST",
    NameOID.ORGANIZATION_NAME: "O",
    NameOID.ORGANIZATIONAL_UNIT_NAME: "OU",
    NameOID.STREET_ADDRESS: "STREET",
    NameOID.DOMAIN_COMPONENT: "DC",
    NameOID.USER_ID: "UID",
}


def _escape(value: str) -> str:
    out = []
    for i, ch in enumerate(value):
        if ch in ',+"\\<>;' or (i == 0 and ch in "# ") or (i == len(value) - 1 and ch == " "):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def _der_length(n: int) -> bytes:
    if n < 0x80:
        return bytes([n])
    body = n.to_bytes((n.bit_length() + 7) // 8, "big")
    return bytes([0x80 | len(body)]) + body


def _ava(attr: x509.NameAttribute) -> str:
    keyword = _KEYWORDS.get(attr.oid)
    value = attr.value if isinstance(attr.value, str) else attr.value.decode("latin-1")
    if keyword is not None:
        return f"{keyword}={_escape(value)}"
    tag = attr._type.value  # the ASN.1 string type, as encoded in the certificate
    data = value.encode("utf-16-be") if tag == 30 else value.encode("utf-8")
    return f"{attr.oid.dotted_string}=#{(bytes([tag]) + _der_length(len(data)) + data).hex()}"


def distinguished_name(name: x509.Name) -> str:
    """RFC 2253 form, most specific RDN first, as Java's X500Principal.getName() prints it."""
    return ",".join("+".join(_ava(a) for a in rdn) for rdn in reversed(name.rdns))


class NoMatchingRule(ValueError):
    """No ``ssl.principal.mapping.rules`` rule applies to the distinguished name."""


_RULE = r"(DEFAULT)|RULE:((\\.|[^\\/])*)/((\\.|[^\\/])*)/([LU]?).*?|(.*?)"
_RULE_SPLITTER = re.compile(r"\s*(" + _RULE + r")\s*(,\s*|$)")
_RULE_PARSER = re.compile(_RULE)
_BACKREF = re.compile(r"\$(\d+)")


class _Rule:
    def __init__(self, pattern: str | None = None, replacement: str = "", lower: bool = False, upper: bool = False):
        self.default = pattern is None
        self.pattern = None if pattern is None else re.compile(pattern)
        self.replacement = replacement
        self.lower, self.upper = lower, upper

    def apply(self, dn: str) -> str | None:
        if self.pattern is None:
            return dn
        if self.pattern.fullmatch(dn) is None:
            return None
        result = self.pattern.sub(_python_replacement(self.replacement, self.pattern.groups), dn)
        if self.lower:
            return result.lower()
        if self.upper:
            return result.upper()
        return result


def _python_replacement(java: str, groups: int) -> str:
    """Java's replaceAll replacement ($n, \\x) as a Python re.sub template, with Kafka's rule
    that a $n naming a group that does not exist is literal text."""
    out: list[str] = []
    i = 0
    while i < len(java):
        ch = java[i]
        if ch == "\\" and i + 1 < len(java):
            out.append(java[i + 1].replace("\\", "\\\\"))
            i += 2
        elif ch == "$" and i + 1 < len(java) and java[i + 1].isdigit():
            j = i + 1
            while j < len(java) and java[j].isdigit():
                j += 1
            digits = java[i + 1 : j]
            if digits.startswith("0"):
                out.append("\\g<0>" + digits[1:])
                i = j
                continue
            n = int(digits)
            # Java takes the longest prefix of the digits naming an existing group.
            while n > groups and n >= 10:
                n //= 10
            if n > groups:
                out.append("$" + digits)
            else:
                out.append(f"\\g<{n}>" + digits[len(str(n)) :])
            i = j
        else:
            out.append("\\\\" if ch == "\\" else ch)
            i += 1
    return "".join(out)


class SslPrincipalMapper:
    """``ssl.principal.mapping.rules``: the first rule that applies names the principal."""

    def __init__(self, rules: str | None = "DEFAULT") -> None:
        text = "DEFAULT" if rules is None else rules
        self.rules: list[_Rule] = []
        for m in _RULE_SPLITTER.finditer(text.strip()):
            rule = m.group(1)
            p = _RULE_PARSER.match(rule)
            if p is None or p.end() != len(rule):
                raise ValueError(f"ssl.principal.mapping.rules: invalid rule {rule!r}")
            if p.group(1) is not None:
                self.rules.append(_Rule())
            elif p.group(2) is not None:
                try:
                    self.rules.append(_Rule(p.group(2), p.group(4), p.group(6) == "L", p.group(6) == "U"))
                except re.error as exc:
                    raise ValueError(f"ssl.principal.mapping.rules: bad pattern in {rule!r}: {exc}") from None
            if m.end() >= len(text.strip()):
                break

    def name(self, dn: str) -> str:
        for rule in self.rules:
            result = rule.apply(dn)
            if result is not None:
                return result
        raise NoMatchingRule(f"No rules apply to {dn}")


def principal_from_certificate(der: bytes | None, mapper: SslPrincipalMapper) -> KafkaPrincipal:
    """``User:<mapped DN>`` for a peer certificate (``SSLObject.getpeercert(True)``), else ANONYMOUS."""
    if not der:
        return ANONYMOUS
    cert = x509.load_der_x509_certificate(der)
    return KafkaPrincipal.user(mapper.name(distinguished_name(cert.subject)))
