"""Per-connection authentication: which requests a connection may send, and when.

Everything about the machine lives in this file: the states, the events a
request turns into, and ``TRANSITIONS``, a table keyed by (state, event) with a
row for every pair (asserted at import, as in ``broker/share/states.py``). The
table says *what* to do; :class:`Authenticator` does it and returns an
:class:`Outcome` telling the connection loop what to send and whether the
connection lives on. No I/O, no clock: ``now_ms`` comes from outside.

Behaviour follows Apache Kafka's server-side SASL authenticator:

* PLAINTEXT and SSL listeners start authenticated (``User:ANONYMOUS``, or the
  principal mapped from the TLS client certificate). SaslHandshake and
  SaslAuthenticate there get ILLEGAL_SASL_STATE; the connection lives.
* SASL_PLAINTEXT and SASL_SSL listeners accept, before authentication, one
  ApiVersions (only as the first request; an unsupported version is answered
  with the v0 fallback and may be retried) and then SaslHandshake. Any other
  request closes the connection without a response, as Kafka does.
* SaslHandshake names a mechanism. Not enabled: UNSUPPORTED_SASL_MECHANISM with
  the enabled list, then close. v0 means the SASL tokens follow as bare
  size-prefixed frames (no request header); v1 means they come in
  SaslAuthenticate requests. While the tokens flow in SaslAuthenticate, any
  other request is answered with ILLEGAL_SASL_STATE and the connection closes.
* A failed exchange answers SASL_AUTHENTICATION_FAILED and closes. Messages the
  mechanism marks as safe for the client (:class:`SaslAuthenticationError`) are
  sent as they are; anything else becomes Kafka's generic "Authentication failed
  during authentication due to invalid credentials with SASL mechanism X", so
  nothing leaks about which users exist. With v0 framing a failure just closes.
* KIP-368 re-authentication: a session gets an expiry when
  ``connections.max.reauth.ms`` is positive or the credential itself expires
  (an OAUTHBEARER token); the lifetime is the smaller of the two and is sent as
  ``session_lifetime_ms`` (SaslAuthenticate v1+). Once expired, any request
  other than a SaslHandshake that starts re-authentication closes the
  connection. Re-authentication starts with a SaslHandshake on an authenticated
  connection whose session has an expiry, at most once a second; it must use
  the same mechanism (else the connection closes after the handshake) and end
  with the same principal (else SASL_AUTHENTICATION_FAILED, "Cannot change
  principals during re-authentication ..."). A SaslHandshake on a session
  without expiry, or within a second of the last re-authentication, is
  answered with ILLEGAL_SASL_STATE.
* Before and during the first authentication a frame may be at most
  ``sasl.server.max.receive.size`` bytes (:attr:`Authenticator.frame_limit`).

Driving it (the connection loop)::

    auth = Authenticator(settings, mechanisms, ssl_principal=principal_from_cert)
    # per frame:
    if auth.expects_raw_token:           # after SaslHandshake v0
        outcome = auth.receive_token(frame_bytes, now_ms)
    else:
        outcome = auth.receive(api_key, api_version, body_or_None, now_ms)
    # outcome.verdict: DISPATCH -> run the normal handler for the request;
    #   RESPOND -> send outcome.response (at outcome.response_version) or
    #   outcome.raw_token (size-prefixed); ERROR -> answer the request with
    #   outcome.error (the same path as a handler raising KafkaError);
    #   outcome.close -> close after sending.

The mechanisms themselves (PLAIN, SCRAM, OAUTHBEARER) live in
``broker.security.sasl``; this module sees them through :class:`SaslServer`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, IntEnum, StrEnum
from typing import Final, Protocol

from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.message_base import Message
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
from broker.protocol.messages.sasl_authenticate_response import SaslAuthenticateResponse
from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest
from broker.protocol.messages.sasl_handshake_response import SaslHandshakeResponse

__all__ = [
    "ANONYMOUS",
    "DEFAULT_SASL_MAX_RECEIVE_SIZE",
    "MIN_REAUTH_INTERVAL_MS",
    "TRANSITIONS",
    "Action",
    "AuthEvent",
    "AuthSettings",
    "AuthState",
    "Authenticator",
    "KafkaPrincipal",
    "Outcome",
    "Row",
    "SaslAuthenticationError",
    "SaslServer",
    "SecurityProtocol",
    "Verdict",
    "classify",
]

# Kafka's sasl.server.max.receive.size default: the largest frame accepted before and
# during the first authentication, so an unauthenticated peer cannot make us buffer
# socket.request.max.bytes (100 MiB) per connection.
DEFAULT_SASL_MAX_RECEIVE_SIZE: Final = 524_288

# Kafka's KafkaChannel.MIN_REAUTH_INTERVAL_ONE_SECOND_NANOS: a client may start
# re-authentication at most once a second, so a peer cannot pin the broker in a
# loop of SCRAM iterations.
MIN_REAUTH_INTERVAL_MS: Final = 1_000

_SOFTWARE = re.compile(r"[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?")


class SecurityProtocol(StrEnum):
    """A listener's ``listener.security.protocol.map`` value."""

    PLAINTEXT = "PLAINTEXT"
    SSL = "SSL"
    SASL_PLAINTEXT = "SASL_PLAINTEXT"
    SASL_SSL = "SASL_SSL"

    @property
    def uses_sasl(self) -> bool:
        return self in (SecurityProtocol.SASL_PLAINTEXT, SecurityProtocol.SASL_SSL)

    @property
    def uses_tls(self) -> bool:
        return self in (SecurityProtocol.SSL, SecurityProtocol.SASL_SSL)


@dataclass(frozen=True, slots=True)
class KafkaPrincipal:
    """``type:name``, as ACLs and ``super.users`` spell it (``User:alice``).

    ``token_authenticated``: the connection authenticated with a delegation token (SCRAM
    with ``tokenauth=true``); the principal is then the token's owner. As in Kafka, it
    takes no part in equality: ACLs, renewers and owners compare type and name only.
    """

    type: str
    name: str
    token_authenticated: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        return f"{self.type}:{self.name}"

    @classmethod
    def user(cls, name: str) -> KafkaPrincipal:
        return cls("User", name)

    @classmethod
    def parse(cls, text: str) -> KafkaPrincipal:
        """``User:alice`` -> KafkaPrincipal; ValueError without a colon or with an empty side."""
        kind, sep, name = text.partition(":")
        if not sep or not kind:
            raise ValueError(f"expected a string in format principalType:principalName but got {text}")
        return cls(kind, name)


ANONYMOUS: Final = KafkaPrincipal("User", "ANONYMOUS")


class SaslAuthenticationError(Exception):
    """A failed exchange whose message may be shown to the client as it is."""


class SaslServer(Protocol):
    """One server-side SASL exchange (a mechanism instance for one connection).

    ``evaluate`` takes the client's next token and returns the server's
    challenge (possibly empty). It raises :class:`SaslAuthenticationError` for a
    failure the client may read about, any other exception for one it may not.
    """

    @property
    def mechanism(self) -> str: ...

    @property
    def complete(self) -> bool: ...

    @property
    def authorization_id(self) -> str:
        """The authenticated user name; valid once ``complete``."""
        ...

    @property
    def credential_expiry_ms(self) -> int | None:
        """When the credential stops being valid (an OAUTHBEARER token's ``exp``, a delegation
        token's expiry), else None."""
        ...

    @property
    def token_authenticated(self) -> bool:
        """The client authenticated with a delegation token (SCRAM ``tokenauth=true``); valid once ``complete``."""
        ...

    def evaluate(self, token: bytes, now_ms: int) -> bytes: ...


SaslServerFactory = Callable[[], SaslServer]


class AuthState(IntEnum):
    INITIAL = 0  # SASL listener, nothing received: ApiVersions or SaslHandshake
    AWAIT_HANDSHAKE = 1  # ApiVersions answered: SaslHandshake next
    EXCHANGE = 2  # tokens in SaslAuthenticate requests (SaslHandshake v1)
    EXCHANGE_RAW = 3  # tokens as bare size-prefixed frames (SaslHandshake v0)
    REAUTH_BAD_MECHANISM = 4  # re-authentication asked for another mechanism: next frame closes
    AUTHENTICATED = 5
    FAILED = 6


class AuthEvent(IntEnum):
    API_VERSIONS = 0
    HANDSHAKE_V0 = 1
    HANDSHAKE_V1 = 2
    SASL_AUTHENTICATE = 3
    OTHER_REQUEST = 4  # any other API, or an API version the broker does not serve
    RAW_TOKEN = 5  # a bare frame while the loop is in raw-token mode


class Action(IntEnum):
    """What a (state, event) pair does. The authenticator implements each once."""

    CLOSE = 0  # close without a response (Kafka raises before building one)
    ILLEGAL_STATE_CLOSE = 1  # answer the request with ILLEGAL_SASL_STATE, then close
    ILLEGAL_STATE = 2  # answer SaslHandshake/SaslAuthenticate with ILLEGAL_SASL_STATE; live on
    API_VERSIONS = 3  # the normal ApiVersions handler answers; a valid supported request advances
    HANDSHAKE = 4  # negotiate the mechanism
    EXCHANGE = 5  # one SaslAuthenticate step
    EXCHANGE_RAW = 6  # one bare-token step
    REAUTH = 7  # SaslHandshake on an authenticated connection: re-authenticate, refuse, or close
    SERVE = 8  # authenticated request: dispatch unless the session expired (then close)


@dataclass(frozen=True, slots=True)
class Row:
    action: Action
    next: AuthState | None  # state after success; None: the action decides (see Authenticator)


_S, _A = AuthState, Action
_C = Row(_A.CLOSE, _S.FAILED)
_I = Row(_A.ILLEGAL_STATE_CLOSE, _S.FAILED)
_HANDSHAKE = (Row(_A.HANDSHAKE, _S.EXCHANGE_RAW), Row(_A.HANDSHAKE, _S.EXCHANGE))  # v0, v1

# One row a state, one column an event, in AuthEvent's order:
#   API_VERSIONS, HANDSHAKE_V0, HANDSHAKE_V1, SASL_AUTHENTICATE, OTHER_REQUEST, RAW_TOKEN
_MATRIX: dict[AuthState, tuple[Row, ...]] = {
    # first request on a SASL listener
    _S.INITIAL: (Row(_A.API_VERSIONS, _S.AWAIT_HANDSHAKE), *_HANDSHAKE, _C, _C, _C),
    # after ApiVersions: only SaslHandshake (a second ApiVersions closes, as in Kafka)
    _S.AWAIT_HANDSHAKE: (_C, *_HANDSHAKE, _C, _C, _C),
    # tokens in SaslAuthenticate: anything else is answered with ILLEGAL_SASL_STATE, then closed
    _S.EXCHANGE: (_I, _I, _I, Row(_A.EXCHANGE, None), _I, _C),
    # bare tokens: the loop hands over raw frames only, so a decoded request cannot arrive
    _S.EXCHANGE_RAW: (_C, _C, _C, _C, _C, Row(_A.EXCHANGE_RAW, None)),
    # re-authentication asked for a different mechanism: whatever comes next closes
    _S.REAUTH_BAD_MECHANISM: (_C,) * len(AuthEvent),
    # authenticated
    _S.AUTHENTICATED: (
        Row(_A.SERVE, _S.AUTHENTICATED),
        Row(_A.REAUTH, None),
        Row(_A.REAUTH, None),
        Row(_A.ILLEGAL_STATE, _S.AUTHENTICATED),
        Row(_A.SERVE, _S.AUTHENTICATED),
        _C,
    ),
    # failed: the loop closes; anything that still arrives changes nothing
    _S.FAILED: (_C,) * len(AuthEvent),
}

TRANSITIONS: dict[tuple[AuthState, AuthEvent], Row] = {
    (state, event): row for state, rows in _MATRIX.items() for event, row in zip(AuthEvent, rows, strict=True)
}

assert len(TRANSITIONS) == len(AuthState) * len(AuthEvent), "every (state, event) pair needs a row"


def classify(api_key: int, api_version: int, supported: bool) -> AuthEvent:
    """The event a decoded request header stands for (``supported``: the body decoded)."""
    if api_key == ApiKey.API_VERSIONS:
        return AuthEvent.API_VERSIONS  # an unsupported version is answered with the fallback
    if not supported:
        return AuthEvent.OTHER_REQUEST
    if api_key == ApiKey.SASL_HANDSHAKE:
        return AuthEvent.HANDSHAKE_V0 if api_version == 0 else AuthEvent.HANDSHAKE_V1
    if api_key == ApiKey.SASL_AUTHENTICATE:
        return AuthEvent.SASL_AUTHENTICATE
    return AuthEvent.OTHER_REQUEST


class Verdict(Enum):
    DISPATCH = "dispatch"  # hand the request to its normal handler
    RESPOND = "respond"  # send ``response`` / ``raw_token``
    ERROR = "error"  # answer the request with ``error`` (as if its handler raised it)
    CLOSE = "close"  # send nothing


@dataclass(frozen=True, slots=True)
class Outcome:
    verdict: Verdict
    close: bool = False  # close the connection once the response (if any) is sent
    response: Message | None = None
    response_version: int = 0
    raw_token: bytes | None = None  # v0 framing: send size-prefixed, no header
    error: KafkaError | None = None
    reason: str = ""  # for the log when closing


_DISPATCH = Outcome(Verdict.DISPATCH)


def _close(reason: str) -> Outcome:
    return Outcome(Verdict.CLOSE, close=True, reason=reason)


@dataclass(frozen=True, slots=True)
class AuthSettings:
    """What one listener needs: its protocol and its SASL settings."""

    protocol: SecurityProtocol
    enabled_mechanisms: Sequence[str] = ()
    # connections.max.reauth.ms (listener/mechanism prefixed in Kafka); <= 0: no limit
    max_reauth_ms: Mapping[str, int] = field(default_factory=dict)
    default_max_reauth_ms: int = 0
    max_receive_size: int = DEFAULT_SASL_MAX_RECEIVE_SIZE

    def reauth_ms(self, mechanism: str) -> int:
        return self.max_reauth_ms.get(mechanism, self.default_max_reauth_ms)


_NAMES = {int(k): k.name for k in ApiKey}


def _api_name(api_key: int) -> str:
    return _NAMES.get(api_key, f"api key {api_key}")


class Authenticator:
    """The authentication state of one connection. See the module docstring."""

    def __init__(
        self,
        settings: AuthSettings,
        mechanisms: Mapping[str, SaslServerFactory] | None = None,
        *,
        ssl_principal: KafkaPrincipal | None = None,
    ) -> None:
        self.settings = settings
        self._factories = dict(mechanisms or {})
        if settings.protocol.uses_sasl:
            if not settings.enabled_mechanisms:
                raise ValueError("a SASL listener needs at least one enabled mechanism")
            missing = [m for m in settings.enabled_mechanisms if m not in self._factories]
            if missing:
                raise ValueError(f"no SASL server for enabled mechanism(s): {', '.join(missing)}")
            self.state = AuthState.INITIAL
            self.principal: KafkaPrincipal | None = None
        else:
            self.state = AuthState.AUTHENTICATED
            self.principal = ssl_principal or ANONYMOUS
        self.mechanism: str | None = None
        self.session_expiry_ms: int | None = None  # None: the session never expires
        self._server: SaslServer | None = None
        self._reauth_from: tuple[str, KafkaPrincipal] | None = None  # (mechanism, principal) while re-authenticating
        self._last_reauth_start_ms: int | None = None

    # ---- what the loop asks

    @property
    def authenticated(self) -> bool:
        return self.state is AuthState.AUTHENTICATED

    @property
    def expects_raw_token(self) -> bool:
        """True after SaslHandshake v0: hand the next frame over undecoded (``receive_token``)."""
        return self.state is AuthState.EXCHANGE_RAW

    @property
    def frame_limit(self) -> int | None:
        """Largest frame to accept now; None means the listener's socket.request.max.bytes."""
        if self.state is AuthState.AUTHENTICATED or self._reauth_from is not None:
            return None
        return self.settings.max_receive_size

    @property
    def reauthenticating(self) -> bool:
        return self._reauth_from is not None

    def session_expired(self, now_ms: int) -> bool:
        return self.session_expiry_ms is not None and now_ms > self.session_expiry_ms

    # ---- events

    def receive(self, api_key: int, api_version: int, body: Message | None, now_ms: int) -> Outcome:
        """A decoded request (``body`` None when its version is not served)."""
        event = classify(api_key, api_version, body is not None)
        row = TRANSITIONS[(self.state, event)]
        try:
            return self._apply(row, event, api_key, api_version, body, now_ms)
        except Exception as exc:  # a mechanism bug must not take the broker down
            self._fail()
            return _close(f"authentication failed unexpectedly: {exc!r}")

    def receive_token(self, token: bytes, now_ms: int) -> Outcome:
        """A bare frame while :attr:`expects_raw_token`."""
        row = TRANSITIONS[(self.state, AuthEvent.RAW_TOKEN)]
        try:
            if row.action is Action.EXCHANGE_RAW:
                return self._exchange_raw(token, now_ms)
            return self._apply(row, AuthEvent.RAW_TOKEN, -1, -1, None, now_ms)
        except Exception as exc:
            self._fail()
            return _close(f"authentication failed unexpectedly: {exc!r}")

    # ---- actions

    def _apply(
        self, row: Row, event: AuthEvent, api_key: int, api_version: int, body: Message | None, now_ms: int
    ) -> Outcome:
        action = row.action
        if action is Action.CLOSE:
            was = self.state
            self._fail()
            if was is AuthState.FAILED:
                return _close("connection already failed authentication")
            if was is AuthState.REAUTH_BAD_MECHANISM:
                return _close(self._bad_mechanism_reason)
            return _close(
                f"unexpected Kafka request of type {_api_name(api_key)} during SASL handshake"
                if event is not AuthEvent.RAW_TOKEN
                else "unexpected SASL token"
            )
        if action is Action.ILLEGAL_STATE_CLOSE:
            self._fail()
            message = f"Unexpected Kafka request of type {_api_name(api_key)} during SASL authentication."
            return Outcome(
                Verdict.ERROR, close=True, error=KafkaError(ErrorCode.ILLEGAL_SASL_STATE, message), reason=message
            )
        if action is Action.ILLEGAL_STATE:
            return self._serve_or_close(now_ms) or self._illegal_state_answer(api_key, api_version)
        if action is Action.API_VERSIONS:
            if isinstance(body, ApiVersionsRequest) and _valid_api_versions(body, api_version):
                assert row.next is not None
                self.state = row.next
            return _DISPATCH
        if action is Action.HANDSHAKE:
            assert isinstance(body, SaslHandshakeRequest)
            return self._handshake(body, api_version, row.next, now_ms)
        if action is Action.EXCHANGE:
            assert isinstance(body, SaslAuthenticateRequest)
            return self._exchange(body.auth_bytes, api_version, now_ms)
        if action is Action.REAUTH:
            assert isinstance(body, SaslHandshakeRequest)
            return self._reauth(body, api_version, now_ms)
        if action is Action.SERVE:
            return self._serve_or_close(now_ms) or _DISPATCH
        raise AssertionError(f"unhandled action {action!r}")  # pragma: no cover

    def _serve_or_close(self, now_ms: int) -> Outcome | None:
        if self.session_expired(now_ms):
            self._fail()
            return _close("the authenticated session expired (connections.max.reauth.ms or credential lifetime)")
        return None

    def _illegal_state_answer(self, api_key: int, api_version: int) -> Outcome:
        if api_key == ApiKey.SASL_HANDSHAKE:
            return Outcome(
                Verdict.RESPOND,
                response=SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE),
                response_version=api_version,
            )
        return Outcome(
            Verdict.RESPOND,
            response=SaslAuthenticateResponse(
                error_code=ErrorCode.ILLEGAL_SASL_STATE,
                error_message="SaslAuthenticate request received after successful authentication",
            ),
            response_version=api_version,
        )

    def _handshake(
        self, body: SaslHandshakeRequest, api_version: int, next_state: AuthState | None, now_ms: int
    ) -> Outcome:
        enabled = list(self.settings.enabled_mechanisms)
        mechanism = body.mechanism
        if mechanism not in enabled:
            return self._refuse(
                SaslHandshakeResponse(error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled),
                api_version,
                f"Unsupported SASL mechanism {mechanism}",
            )
        response = Outcome(
            Verdict.RESPOND,
            response=SaslHandshakeResponse(error_code=ErrorCode.NONE, mechanisms=enabled),
            response_version=api_version,
        )
        if self._reauth_from is not None and self._reauth_from[0] != mechanism:
            self._bad_mechanism_reason = (
                f"SASL mechanism '{mechanism}' requested by client is not supported for "
                f"re-authentication of mechanism '{self._reauth_from[0]}'"
            )
            self.state = AuthState.REAUTH_BAD_MECHANISM
            return response
        self.mechanism = mechanism
        self._server = self._factories[mechanism]()
        assert next_state is not None
        self.state = next_state
        return response

    def _reauth(self, body: SaslHandshakeRequest, api_version: int, now_ms: int) -> Outcome:
        starts = self.session_expiry_ms is not None and (
            self._last_reauth_start_ms is None or now_ms - self._last_reauth_start_ms >= MIN_REAUTH_INTERVAL_MS
        )
        if not starts:
            # Processed as an ordinary request: Kafka's handler answers ILLEGAL_SASL_STATE.
            return self._serve_or_close(now_ms) or self._illegal_state_answer(ApiKey.SASL_HANDSHAKE, api_version)
        assert self.mechanism is not None and self.principal is not None
        self._last_reauth_start_ms = now_ms
        self._reauth_from = (self.mechanism, self.principal)
        event = AuthEvent.HANDSHAKE_V0 if api_version == 0 else AuthEvent.HANDSHAKE_V1
        return self._handshake(body, api_version, TRANSITIONS[(AuthState.INITIAL, event)].next, now_ms)

    def _step(self, token: bytes, now_ms: int) -> tuple[bytes, bool]:
        """Run one mechanism step; returns (challenge, complete). Raises on failure."""
        server = self._server
        assert server is not None
        challenge = server.evaluate(token, now_ms)
        if not server.complete:
            return challenge, False
        principal = _principal_of(server)
        if self._reauth_from is not None:
            before = self._reauth_from[1]
            if principal != before:
                raise SaslAuthenticationError(
                    f"Cannot change principals during re-authentication from {before.type}.{before.name}: "
                    f"{principal.type}.{principal.name}"
                )
        return challenge, True

    def _finish(self, now_ms: int) -> int:
        """Enter AUTHENTICATED; returns the session lifetime to report (0: none)."""
        server = self._server
        assert server is not None and self.mechanism is not None
        self.principal = _principal_of(server)
        credential_expiry = server.credential_expiry_ms
        max_reauth = self.settings.reauth_ms(self.mechanism)
        lifetime = 0
        self.session_expiry_ms = None
        if credential_expiry is not None or max_reauth > 0:
            if credential_expiry is None:
                lifetime = max(0, max_reauth)
            elif max_reauth <= 0:
                lifetime = max(0, credential_expiry - now_ms)
            else:
                lifetime = max(0, min(credential_expiry - now_ms, max_reauth))
            self.session_expiry_ms = now_ms + lifetime
        self.state = AuthState.AUTHENTICATED
        self._reauth_from = None
        self._server = None
        return lifetime

    def _exchange(self, token: bytes, api_version: int, now_ms: int) -> Outcome:
        try:
            challenge, complete = self._step(token, now_ms)
        except SaslAuthenticationError as exc:
            return self._auth_failed(str(exc), api_version)
        except Exception:
            return self._auth_failed(self._generic_failure(), api_version)
        lifetime = self._finish(now_ms) if complete else 0
        return Outcome(
            Verdict.RESPOND,
            response=SaslAuthenticateResponse(
                error_code=ErrorCode.NONE, error_message=None, auth_bytes=challenge, session_lifetime_ms=lifetime
            ),
            response_version=api_version,
        )

    def _exchange_raw(self, token: bytes, now_ms: int) -> Outcome:
        try:
            challenge, complete = self._step(token, now_ms)
        except Exception as exc:
            self._fail()
            return _close(f"SASL authentication failed: {exc}")
        if complete:
            self._finish(now_ms)
        return Outcome(Verdict.RESPOND, raw_token=challenge)

    def _generic_failure(self) -> str:
        text = "re-authentication" if self._reauth_from is not None else "authentication"
        return f"Authentication failed during {text} due to invalid credentials with SASL mechanism {self.mechanism}"

    def _auth_failed(self, message: str, api_version: int) -> Outcome:
        return self._refuse(
            SaslAuthenticateResponse(error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=message),
            api_version,
            message,
        )

    def _refuse(self, response: Message, api_version: int, reason: str) -> Outcome:
        """Fail the authentication: answer ``response``, then close the connection."""
        self._fail()
        return Outcome(Verdict.RESPOND, close=True, response=response, response_version=api_version, reason=reason)

    def _fail(self) -> None:
        self.state = AuthState.FAILED
        self._server = None

    _bad_mechanism_reason = ""


def _principal_of(server: SaslServer) -> KafkaPrincipal:
    """Kafka's DefaultKafkaPrincipalBuilder for SASL: ``User:<authorization id>``, marked when a
    delegation token authenticated it (the id is then the token owner's name)."""
    return KafkaPrincipal("User", server.authorization_id, server.token_authenticated)


def _valid_api_versions(body: ApiVersionsRequest, api_version: int) -> bool:
    """Kafka's ApiVersionsRequest.isValid: v3+ needs a well-formed software name and version."""
    if api_version < 3:
        return True
    return bool(
        _SOFTWARE.fullmatch(body.client_software_name or "") and _SOFTWARE.fullmatch(body.client_software_version or "")
    )
