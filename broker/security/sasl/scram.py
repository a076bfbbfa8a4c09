"""SCRAM-SHA-256 and SCRAM-SHA-512 (RFC 5802, RFC 7677), server side, and delegation tokens over it.

The exchange itself (nonces, the proof check in constant time, the server
signature) is the ``scramp`` library's ``ScramServer``, fed with the stored
credential (salt, iterations, StoredKey, ServerKey) that
:mod:`broker.security.scram` keeps, so no password is ever held by the broker.

Around it, Kafka's own rules:

* the user name is the ``saslname`` of the client-first message with ``=2C`` and
  ``=3D`` unescaped; an unknown user fails with Kafka's generic message;
* an authorization id in the GS2 header that differs from the user name fails
  with "Authentication failed: Client requested an authorization id that is
  different from username" (shown to the client, as in Kafka);
* credentials below the mechanism's minimum of 4096 iterations are refused;
* client-first extensions (Kafka's grammar: ``,key=value`` after the nonce, the key
  letters only) are read here: ``tokenauth=true`` (KIP-48) makes the user name a
  delegation token id, checked against the token's derived credential; the
  principal is then the token's owner, marked as token-authenticated, and the
  session lasts until the token's expiry. Other extensions are ignored, as Kafka
  ignores them.

Why the extensions are handled here: Kafka's extensions (``tokenauth=true``) are
not RFC 5802 attributes (those are one letter), and scramp's grammar refuses them.
scramp is handed the client-first message without them, and then the message as
the client sent it as its ``client_first_bare``: the AuthMessage both sides sign
covers the extensions (the client computed its proof over them), so the proof and
the server signature are scramp's, checked over exactly what was on the wire.

Differences from Kafka, on paths no stock client takes: an authorization id
*equal* to the user name is refused by scramp's stricter grammar, and user names
are SASLprep-normalised.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from broker.protocol.auth import KafkaPrincipal, SaslAuthenticationError
from broker.security.sasl.exchange import ServerExchange

__all__ = [
    "MIN_ITERATIONS",
    "SCRAM_MECHANISMS",
    "TOKEN_AUTH_EXTENSION",
    "ScramLookup",
    "ScramServer",
    "StoredScramCredential",
    "TokenCredentialView",
    "TokenLookup",
    "parse_extensions",
]

SCRAM_MECHANISMS: Final = ("SCRAM-SHA-256", "SCRAM-SHA-512")
# Kafka's ScramMechanism.minIterations for both SHA-256 and SHA-512 (RFC 7677's floor).
MIN_ITERATIONS: Final = 4096

# A client-first message (RFC 5802 section 7) with Kafka's extensions (ScramMessages):
# gs2-header, user name, nonce, then ",key=value" pairs whose keys are letters.
_CLIENT_FIRST = re.compile(
    r"^(?P<gs2>[nyp][^,]*,(?:a=(?P<authzid>[^,]*))?,)"
    r"(?P<bare>(?P<core>(?:m=[^,]*,)?n=(?P<saslname>[^,]*),r=[^,]*)(?P<extensions>(?:,[A-Za-z]+=[^,]+)*))$"
)
TOKEN_AUTH_EXTENSION: Final = "tokenauth"


@dataclass(frozen=True, slots=True)
class StoredScramCredential:
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


ScramLookup = Callable[[str, str], StoredScramCredential | None]
"""(user name, mechanism) -> the stored credential, or None."""


class TokenCredentialView(Protocol):
    """What a delegation token lends a SCRAM exchange (broker.security.tokens.TokenCredential)."""

    @property
    def credential(self) -> StoredScramCredential: ...

    @property
    def owner(self) -> KafkaPrincipal: ...

    @property
    def expiry_ms(self) -> int: ...


TokenLookup = Callable[[str, str], TokenCredentialView | None]
"""(token id, mechanism) -> the token's credential, owner and expiry, or None."""


def parse_extensions(text: str) -> dict[str, str]:
    """``,key=value,key=value`` (as the client-first pattern matched it) -> a dict; a key
    given twice keeps its last value, as Kafka's Utils.parseMap does."""
    out: dict[str, str] = {}
    for pair in text.split(",")[1:]:
        key, _, value = pair.partition("=")
        out[key] = value
    return out


class ScramFailure(Exception):
    """A SCRAM failure whose detail stays in the broker log (the client gets Kafka's generic message)."""


def _unescape(saslname: str) -> str:
    return saslname.replace("=2C", ",").replace("=3D", "=")


class ScramServer(ServerExchange):
    """One SCRAM exchange: client-first -> server-first, client-final -> server-final."""

    def __init__(self, mechanism: str, lookup: ScramLookup, tokens: TokenLookup | None = None) -> None:
        if mechanism not in SCRAM_MECHANISMS:
            raise ValueError(f"not a SCRAM mechanism: {mechanism}")
        self.mechanism = mechanism
        self._lookup = lookup
        self._tokens = tokens
        # scramp (and asn1crypto, which it loads) comes in with the first SCRAM exchange.
        from scramp import ScramMechanism

        self._scramp = ScramMechanism(mechanism)
        self._server = None  # scramp's ScramServer once the client-first message arrived
        self._username: str | None = None
        self.credential_expiry_ms: int | None = None  # a delegation token's expiry
        self.token_authenticated = False

    def evaluate(self, token: bytes, now_ms: int) -> bytes:
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            raise ScramFailure("SCRAM message is not UTF-8") from None
        if self.complete:
            raise ScramFailure("Unexpected SCRAM message after authentication completed")
        if self._server is None:
            return self._client_first(text)
        return self._client_final(text)

    def _credential(self, username: str, extensions: dict[str, str]) -> tuple[StoredScramCredential, str]:
        """The credential to check the proof against, and the authorization id it grants."""
        if extensions.get(TOKEN_AUTH_EXTENSION, "").lower() == "true":  # Boolean.parseBoolean
            found = None if self._tokens is None else self._tokens(username, self.mechanism)
            if found is None:
                raise ScramFailure(f"Token Authentication failed: Invalid tokenId : {username}")
            self.credential_expiry_ms = found.expiry_ms
            self.token_authenticated = True
            return found.credential, found.owner.name
        credential = self._lookup(username, self.mechanism)
        if credential is None:
            raise ScramFailure("Authentication failed: Invalid user credentials")
        return credential, username

    def _client_first(self, text: str) -> bytes:
        m = _CLIENT_FIRST.match(text)
        if m is None:
            raise ScramFailure("Invalid SCRAM client first message")
        username = _unescape(m.group("saslname"))
        credential, authorization_id = self._credential(username, parse_extensions(m.group("extensions")))
        authzid = m.group("authzid")
        if authzid and _unescape(authzid) != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        if credential.iterations < MIN_ITERATIONS:
            raise ScramFailure(
                f"Iterations {credential.iterations} is less than the minimum {MIN_ITERATIONS} for {self.mechanism}"
            )
        by_token = self.token_authenticated

        def auth_fn(name: str) -> tuple[bytes, bytes, bytes, int] | None:
            if name != username:  # SASLprep changed the name: look it up as normalised
                found = None if by_token else self._lookup(name, self.mechanism)
                if found is None:
                    return None
                return found.salt, found.stored_key, found.server_key, found.iterations
            return credential.salt, credential.stored_key, credential.server_key, credential.iterations

        from scramp import ScramException  # loaded by __init__ already

        server = self._scramp.make_server(auth_fn)
        try:
            server.set_client_first(m.group("gs2") + m.group("core"))
            if m.group("extensions"):
                # The AuthMessage covers the client-first message as sent (module docstring).
                server.client_first_bare = m.group("bare")
            first = server.get_server_first()
        except ScramException as exc:
            raise ScramFailure(f"Invalid SCRAM client first message: {exc}") from None
        self._server = server
        self._username = authorization_id
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
        self._authorized = self._username
        return final.encode("utf-8")
