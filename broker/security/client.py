"""How the broker's own clients (the tools, brokers reaching each other) connect to a secured listener.

:class:`ClientSecurity` reads Kafka's *client* properties, the ones a
``--command-config`` file of Kafka's tools holds::

    security.protocol=SASL_SSL
    sasl.mechanism=SCRAM-SHA-512
    sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="s";
    ssl.truststore.type=PEM
    ssl.truststore.location=/etc/kafka/ca.pem

TLS: the truststore (PEM file or inline certificates; none means the system's
CAs), an optional keystore for mutual TLS (PEM file holding key and chain, or
inline ``ssl.keystore.key`` with ``ssl.keystore.certificate.chain``),
``ssl.key.password`` and ``ssl.endpoint.identification.algorithm`` (``https``,
the default, checks the host name). SASL: PLAIN and SCRAM take ``username`` and
``password`` from the JAAS entry; OAUTHBEARER takes a token from the
``sasl.oauthbearer.token`` property, or makes an unsecured one for the
``unsecuredLoginStringClaim_sub`` option of the JAAS entry, as Kafka's
development login module does. SCRAM with the JAAS option ``tokenauth="true"``
authenticates with a delegation token (its id as username, its HMAC as password).
"""

from __future__ import annotations

import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from broker.protocol.auth import SecurityProtocol
from broker.security.jaas import JaasConfigError, parse_jaas_config
from broker.security.sasl.client import SaslClient, sasl_client, unsecured_jws
from broker.security.tls import SslConfigError, load_chain_and_key

__all__ = ["ClientSecurity", "ClientSecurityError", "client_ssl_context", "read_client_properties"]


class ClientSecurityError(ValueError):
    """A client property is unusable; ``str()`` is one line naming it."""


def read_client_properties(path: str | Path) -> dict[str, str]:
    """A Kafka client ``.properties`` file (``--command-config``)."""
    from broker.config import parse_properties

    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ClientSecurityError(f"cannot read {path}: {exc.strerror or exc}") from None
    return {key: value for key, value, _ in parse_properties(text)}


def _get(props: Mapping[str, Any], key: str) -> str | None:
    value = props.get(key)
    if value is None:
        return None
    text = str(value)
    return text if text.strip() else None


def client_ssl_context(props: Mapping[str, Any]) -> ssl.SSLContext:
    """A client context from Kafka's client ``ssl.*`` properties."""
    for key in ("ssl.truststore.type", "ssl.keystore.type"):
        kind = (_get(props, key) or "PEM").upper()
        if kind != "PEM":
            raise ClientSecurityError(f"{key}: {kind} is not supported; use PEM")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.minimum_version = ssl.TLSVersion.TLSv1_2
    certs, location = _get(props, "ssl.truststore.certificates"), _get(props, "ssl.truststore.location")
    try:
        if certs is not None:
            ctx.load_verify_locations(cadata=certs)
        elif location is not None:
            ctx.load_verify_locations(cafile=location)
        else:
            ctx.load_default_certs(ssl.Purpose.SERVER_AUTH)
    except (ssl.SSLError, OSError) as exc:
        key = "ssl.truststore.certificates" if certs is not None else "ssl.truststore.location"
        raise ClientSecurityError(f"{key}: the CA certificates do not load ({exc})") from None
    algorithm = props.get("ssl.endpoint.identification.algorithm", "https")
    ctx.check_hostname = bool(algorithm and str(algorithm).strip())
    ctx.verify_mode = ssl.CERT_REQUIRED
    chain, pem_key = _get(props, "ssl.keystore.certificate.chain"), _get(props, "ssl.keystore.key")
    keystore = _get(props, "ssl.keystore.location")
    password = _get(props, "ssl.key.password")
    try:
        if chain is not None and pem_key is not None:
            load_chain_and_key(ctx, pem_key.encode() + b"\n" + chain.encode(), password)
        elif keystore is not None:
            ctx.load_cert_chain(keystore, password=password)
    except (ssl.SSLError, OSError, SslConfigError) as exc:
        raise ClientSecurityError(f"ssl.keystore: the key and certificate chain do not load ({exc})") from None
    return ctx


@dataclass
class ClientSecurity:
    protocol: SecurityProtocol = SecurityProtocol.PLAINTEXT
    ssl_context: ssl.SSLContext | None = None
    mechanism: str | None = None
    username: str = ""
    password: str = ""
    token: str = ""
    # SCRAM with a delegation token (the JAAS option tokenauth="true" of Kafka's ScramLoginModule).
    token_auth: bool = False

    @classmethod
    def from_properties(cls, props: Mapping[str, Any]) -> ClientSecurity:
        raw = (_get(props, "security.protocol") or "PLAINTEXT").upper()
        try:
            protocol = SecurityProtocol(raw)
        except ValueError:
            raise ClientSecurityError(
                f"security.protocol: {raw!r} is not one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL"
            ) from None
        out = cls(protocol)
        if protocol.uses_tls:
            out.ssl_context = client_ssl_context(props)
        if protocol.uses_sasl:
            out.mechanism = (_get(props, "sasl.mechanism") or "GSSAPI").upper()
            jaas = _get(props, "sasl.jaas.config")
            options: dict[str, str] = {}
            if jaas is not None:
                try:
                    options = parse_jaas_config(jaas).options
                except JaasConfigError as exc:
                    raise ClientSecurityError(f"sasl.jaas.config: {exc}") from None
            if out.mechanism == "OAUTHBEARER":
                out.token = _get(props, "sasl.oauthbearer.token") or ""
                if not out.token and options.get("unsecuredLoginStringClaim_sub"):
                    out.token = unsecured_jws(options["unsecuredLoginStringClaim_sub"])
                if not out.token:
                    raise ClientSecurityError(
                        "OAUTHBEARER needs sasl.oauthbearer.token or unsecuredLoginStringClaim_sub in sasl.jaas.config"
                    )
            elif out.mechanism in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
                out.username, out.password = options.get("username", ""), options.get("password", "")
                out.token_auth = out.mechanism != "PLAIN" and options.get("tokenauth", "").lower() == "true"
                if not out.username:
                    raise ClientSecurityError(f"sasl.jaas.config: {out.mechanism} needs username and password options")
            else:
                raise ClientSecurityError(
                    f"sasl.mechanism: {out.mechanism} is not supported (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER)"
                )
        return out

    def new_sasl_client(self) -> SaslClient | None:
        if not self.protocol.uses_sasl or self.mechanism is None:
            return None
        return sasl_client(
            self.mechanism, username=self.username, password=self.password, token=self.token, token_auth=self.token_auth
        )
