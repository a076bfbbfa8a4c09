"""SASL/PLAIN (RFC 4616), server side, as Kafka's PlainSaslServer behaves.

The client sends ``[authzid] NUL authcid NUL passwd`` once; the server answers
with an empty token or fails. Credentials come from a :class:`PlainCredentials`
source; :class:`StaticPlainCredentials` is Kafka's default, the
``user_<name>="<password>"`` options of the listener's ``sasl.jaas.config``
(:func:`plain_credentials_from_jaas`).

Failure messages are Kafka's and are shown to the client: "Invalid SASL/PLAIN
response: expected 3 tokens, got N", "Authentication failed: username not
specified", "... password not specified", "... Invalid username or password",
"... Client requested an authorization id that is different from username".

PLAIN sends the password in clear: use it on SASL_SSL listeners.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Protocol

from broker.protocol.auth import SaslAuthenticationError
from broker.security.jaas import JaasConfigError, parse_jaas_config
from broker.security.sasl.exchange import ServerExchange

__all__ = ["PlainCredentials", "PlainServer", "StaticPlainCredentials", "plain_credentials_from_jaas"]

PLAIN_LOGIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"


class PlainCredentials(Protocol):
    def verify(self, username: str, password: str) -> bool:
        """True when ``password`` is ``username``'s; never raises for an unknown user."""
        ...


class StaticPlainCredentials:
    """Users and passwords held in memory (from configuration)."""

    def __init__(self, users: Mapping[str, str]) -> None:
        self._users = {name: password.encode("utf-8") for name, password in users.items()}

    def verify(self, username: str, password: str) -> bool:
        expected = self._users.get(username)
        given = password.encode("utf-8")
        if expected is None:
            hmac.compare_digest(given, given)  # same work for unknown users
            return False
        return hmac.compare_digest(expected, given)

    def __len__(self) -> int:
        return len(self._users)


def plain_credentials_from_jaas(text: str) -> StaticPlainCredentials:
    """The ``user_<name>="<password>"`` options of a PlainLoginModule JAAS entry."""
    entry = parse_jaas_config(text)
    if entry.login_module != PLAIN_LOGIN_MODULE:
        raise JaasConfigError(f"expected {PLAIN_LOGIN_MODULE}, got {entry.login_module}")
    users = {key[len("user_") :]: value for key, value in entry.options.items() if key.startswith("user_")}
    return StaticPlainCredentials(users)


class PlainServer(ServerExchange):
    """One PLAIN exchange. See the module docstring."""

    mechanism = "PLAIN"
    credential_expiry_ms: int | None = None
    token_authenticated = False

    def __init__(self, credentials: PlainCredentials) -> None:
        self._credentials = credentials

    def evaluate(self, token: bytes, now_ms: int) -> bytes:
        if self.complete:
            raise SaslAuthenticationError("Unexpected SASL/PLAIN token after authentication completed")
        text = token.decode("utf-8", errors="replace")
        tokens = _split(text)
        if len(tokens) != 3:
            raise SaslAuthenticationError(f"Invalid SASL/PLAIN response: expected 3 tokens, got {len(tokens)}")
        authzid, username, password = tokens
        if not username:
            raise SaslAuthenticationError("Authentication failed: username not specified")
        if not password:
            raise SaslAuthenticationError("Authentication failed: password not specified")
        if not self._credentials.verify(username, password):
            raise SaslAuthenticationError("Authentication failed: Invalid username or password")
        if authzid and authzid != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        self._authorized = username
        return b""


def _split(text: str) -> list[str]:
    """Up to four NUL-separated pieces, as Kafka counts them."""
    pieces: list[str] = []
    start = 0
    for _ in range(4):
        end = text.find("\x00", start)
        if end < 0:
            pieces.append(text[start:])
            break
        pieces.append(text[start:end])
        start = end + 1
    return pieces
