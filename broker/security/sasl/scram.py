"""SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677), server side.

The exchange itself (message grammar, nonces, the proof check in constant time,
the server signature) is the ``scramp`` library's ``ScramServer``, fed with the
stored credential (salt, iterations, StoredKey, ServerKey) that
:mod:`broker.security.scram` keeps, so no password is ever held by the broker.

Around it, Kafka's own rules:

* the user name is the ``saslname`` of the client-first message with ``=2C`` and
  ``=3D`` unescaped; an unknown user fails with Kafka's generic message;
* an authorization id in the GS2 header that differs from the user name fails
  with "Authentication failed: Client requested an authorization id that is
  different from username" (shown to the client, as in Kafka);
* credentials below the mechanism's minimum of 4096 iterations are refused.

Differences from Kafka, all on paths no stock client takes: an authorization id
*equal* to the user name and client-first extensions (Kafka's only one is
``tokenauth``, for delegation tokens, which this broker does not offer) are
refused by scramp's stricter grammar, and user names are SASLprep-normalised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from broker.protocol.auth import SaslAuthenticationError

__all__ = ["MIN_ITERATIONS", "SCRAM_MECHANISMS", "ScramLookup", "ScramServer", "StoredScramCredential"]

SCRAM_MECHANISMS: Final = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# Kafka's ScramMechanism.minIterations for both SHA-256 and SHA-512 (RFC 7677's floor).
MIN_ITERATIONS: Final = 4096

# gs2-header and the user name of a client-first message (RFC 5802 section 7).
_CLIENT_FIRST = re.compile(r"^[nyp][^,]*,(?:a=(?P<authzid>[^,]*))?,n=(?P<saslname>[^,]*),")


@dataclass(frozen=True, slots=True)
class StoredScramCredential:
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


ScramLookup = Callable[[str, str], StoredScramCredential | None]
"""(user name, mechanism) -> the stored credential, or None."""


class ScramFailure(Exception):
    """A SCRAM failure whose detail stays in the broker log (the client gets Kafka's generic message)."""


def _unescape(saslname: str) -> str:
    return saslname.replace("=2C", ",").replace("=3D", "=")


class ScramServer:
    """One SCRAM exchange: client-first -> server-first, client-final -> server-final."""

    credential_expiry_ms: int | None = None

    def __init__(self, mechanism: str, lookup: ScramLookup) -> None:
        if mechanism not in SCRAM_MECHANISMS:
            raise ValueError(f"not a SCRAM mechanism: {mechanism}")
        self.mechanism = mechanism
        self._lookup = lookup
        # scramp (and asn1crypto, which it loads) comes in with the first SCRAM exchange.
        from scramp import ScramMechanism

        self._scramp = ScramMechanism(mechanism)
        self._server = None  # scramp's ScramServer once the client-first message arrived
        self._username: str | None = None
        self._complete = False

    @property
    def complete(self) -> bool:
        return self._complete

    @property
    def authorization_id(self) -> str:
        if not self._complete or self._username is None:
            raise RuntimeError("Authentication exchange has not completed")
        return self._username

    def evaluate(self, token: bytes, now_ms: int) -> bytes:
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            raise ScramFailure("SCRAM message is not UTF-8") from None
        if self._complete:
            raise ScramFailure("Unexpected SCRAM message after authentication completed")
        if self._server is None:
            return self._client_first(text)
        return self._client_final(text)

    def _client_first(self, text: str) -> bytes:
        m = _CLIENT_FIRST.match(text)
        if m is None:
            raise ScramFailure("Invalid SCRAM client first message")
        username = _unescape(m.group("saslname"))
        credential = self._lookup(username, self.mechanism)
        if credential is None:
            raise ScramFailure("Authentication failed: Invalid user credentials")
        authzid = m.group("authzid")
        if authzid and _unescape(authzid) != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        if credential.iterations < MIN_ITERATIONS:
            raise ScramFailure(
                f"Iterations {credential.iterations} is less than the minimum {MIN_ITERATIONS} for {self.mechanism}"
            )

        def auth_fn(name: str) -> tuple[bytes, bytes, bytes, int] | None:
            if name != username:  # SASLprep changed the name: look it up as normalised
                found = self._lookup(name, self.mechanism)
                if found is None:
                    return None
                return found.salt, found.stored_key, found.server_key, found.iterations
            return credential.salt, credential.stored_key, credential.server_key, credential.iterations

        from scramp import ScramException  # loaded by __init__ already

        server = self._scramp.make_server(auth_fn)
        try:
            server.set_client_first(text)
            first = server.get_server_first()
        except ScramException as exc:
            raise ScramFailure(f"Invalid SCRAM client first message: {exc}") from None
        self._server = server
        self._username = username
        return first.encode("utf-8")

    def _client_final(self, text: str) -> bytes:
        from scramp import ScramException  # loaded by __init__ already

        server = self._server
        assert server is not None
        try:
            server.set_client_final(text)
            final = server.get_server_final()
        except ScramException as exc:
            raise ScramFailure(f"Authentication failed: {exc}") from None
        self._complete = True
        return final.encode("utf-8")
