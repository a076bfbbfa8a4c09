"""Client side of SASL (PLAIN, SCRAM-SHA-256/512, OAUTHBEARER) and of the Kafka exchange around it.

Used where the broker's own code connects to a SASL listener: the operator tools
and the admin client, and brokers talking to each other over a SASL inter-broker
listener. Sans-IO: :class:`SaslClientExchange` says which request to send next and
reads each response; the caller moves the bytes.

The exchange is Kafka's (KIP-152): ``SaslHandshake`` v1 naming the mechanism, then
``SaslAuthenticate`` requests carrying the tokens until the mechanism is complete.
A refused mechanism or failed authentication raises :class:`SaslClientError` with
the broker's error code and message (``SASL_AUTHENTICATION_FAILED``, ...).
"""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from typing import Protocol

from scramp import ScramClient, ScramException

from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
from broker.protocol.messages.sasl_authenticate_response import SaslAuthenticateResponse
from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest
from broker.protocol.messages.sasl_handshake_response import SaslHandshakeResponse
from broker.security.sasl.scram import SCRAM_MECHANISMS, TOKEN_AUTH_EXTENSION

__all__ = [
    "OAuthBearerClient",
    "PlainClient",
    "SaslClient",
    "SaslClientError",
    "SaslClientExchange",
    "ScramSaslClient",
    "sasl_client",
    "unsecured_jws",
]

# SaslAuthenticate versions this client speaks (v1 adds the session lifetime, v2 is flexible).
_AUTH_VERSION = 2


class SaslClientError(Exception):
    """The broker refused the mechanism or the credentials."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class SaslClient(Protocol):
    mechanism: str

    @property
    def complete(self) -> bool: ...

    def step(self, challenge: bytes | None) -> bytes | None:
        """The next token for ``challenge`` (None before the first); None: nothing more to send."""
        ...


class PlainClient:
    mechanism = "PLAIN"

    def __init__(self, username: str, password: str) -> None:
        self._token = b"\x00" + username.encode("utf-8") + b"\x00" + password.encode("utf-8")
        self._sent = False
        self.complete = False

    def step(self, challenge: bytes | None) -> bytes | None:
        if not self._sent:
            self._sent = True
            return self._token
        self.complete = True
        return None


class ScramSaslClient:
    """SCRAM through scramp's client. ``token_auth``: authenticate with a delegation token
    (user name the token id, password its HMAC in base64) by sending Kafka's
    ``tokenauth=true`` extension, as Kafka's ScramLoginModule does for ``tokenauth="true"``.
    scramp does not write extensions: they are appended to its client-first message and to
    the copy it signs (see broker.security.sasl.scram)."""

    def __init__(self, mechanism: str, username: str, password: str, *, token_auth: bool = False) -> None:
        if mechanism not in SCRAM_MECHANISMS:
            raise ValueError(f"not a SCRAM mechanism: {mechanism}")
        self.mechanism = mechanism
        self._client = ScramClient([mechanism], username, password)
        self._extensions = f",{TOKEN_AUTH_EXTENSION}=true" if token_auth else ""
        self._stage = 0
        self.complete = False

    def step(self, challenge: bytes | None) -> bytes | None:
        try:
            if self._stage == 0:
                self._stage = 1
                first = self._client.get_client_first()
                if self._extensions:
                    self._client.client_first_bare += self._extensions
                    first += self._extensions
                return first.encode("utf-8")
            if self._stage == 1:
                self._stage = 2
                self._client.set_server_first((challenge or b"").decode("utf-8"))
                return self._client.get_client_final().encode("utf-8")
            self._client.set_server_final((challenge or b"").decode("utf-8"))
        except (ScramException, UnicodeDecodeError) as exc:
            raise SaslClientError(ErrorCode.SASL_AUTHENTICATION_FAILED, f"SCRAM exchange failed: {exc}") from None
        self.complete = True
        return None


def unsecured_jws(subject: str, lifetime_s: int = 3600, scope: str | None = None, now_s: float | None = None) -> str:
    """An unsigned token as Kafka's unsecured login module makes them (alg ``none``): development only."""
    now = time.time() if now_s is None else now_s

    def part(doc: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(doc, separators=(",", ":")).encode()).decode().rstrip("=")

    claims: dict[str, object] = {"sub": subject, "iat": now, "exp": now + lifetime_s}
    if scope:
        claims["scope"] = scope
    return f"{part({'alg': 'none'})}.{part(claims)}."


class OAuthBearerClient:
    mechanism = "OAUTHBEARER"

    def __init__(self, token: str) -> None:
        self._token = token
        self._sent = False
        self.complete = False

    def step(self, challenge: bytes | None) -> bytes | None:
        if not self._sent:
            self._sent = True
            return b"n,,\x01auth=Bearer " + self._token.encode("ascii") + b"\x01\x01"
        if challenge:
            # An error challenge: RFC 7628 asks for a single 0x01; the broker then fails the exchange.
            return b"\x01"
        self.complete = True
        return None


def sasl_client(
    mechanism: str, *, username: str = "", password: str = "", token: str = "", token_auth: bool = False
) -> SaslClient:
    if mechanism == "PLAIN":
        return PlainClient(username, password)
    if mechanism in SCRAM_MECHANISMS:
        return ScramSaslClient(mechanism, username, password, token_auth=token_auth)
    if mechanism == "OAUTHBEARER":
        return OAuthBearerClient(token)
    raise ValueError(f"unsupported SASL mechanism {mechanism!r} (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER)")


@dataclass
class SaslClientExchange:
    """The requests of one authentication, in order: ``first()``, then ``next(response)``
    until it returns None. ``session_lifetime_ms`` is what the broker granted (0: no limit)."""

    client: SaslClient
    session_lifetime_ms: int = 0

    def first(self) -> tuple[Message, int]:
        return SaslHandshakeRequest(mechanism=self.client.mechanism), 1

    def next(self, response: Message) -> tuple[Message, int] | None:
        if isinstance(response, SaslHandshakeResponse):
            if response.error_code:
                enabled = ", ".join(response.mechanisms)
                raise SaslClientError(
                    response.error_code,
                    f"the broker does not offer SASL mechanism {self.client.mechanism} (enabled: {enabled or 'none'})",
                )
            token = self.client.step(None)
            return SaslAuthenticateRequest(auth_bytes=token or b""), _AUTH_VERSION
        if not isinstance(response, SaslAuthenticateResponse):
            raise SaslClientError(ErrorCode.ILLEGAL_SASL_STATE, f"unexpected {type(response).__name__}")
        if response.error_code:
            raise SaslClientError(
                response.error_code, response.error_message or ErrorCode.for_code(response.error_code).message
            )
        self.session_lifetime_ms = response.session_lifetime_ms
        token = self.client.step(response.auth_bytes)
        if token is None:
            return None
        return SaslAuthenticateRequest(auth_bytes=token), _AUTH_VERSION
