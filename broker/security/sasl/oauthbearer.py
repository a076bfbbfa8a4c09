"""SASL/OAUTHBEARER (RFC 7628), server side, with Kafka's two token validators.

The client's initial response is ``n,[a=<authzid>],^Aauth=Bearer <token>^A[key=value^A]*^A``
(``^A`` = 0x01). The token is checked by a :class:`TokenValidator`:

* :class:`UnsecuredJwsValidator`: Kafka's development validator
  (OAuthBearerUnsecuredValidatorCallbackHandler): an *unsigned* JWS (``alg``
  ``none``, empty signature) whose claims carry the principal (``sub`` unless
  ``unsecuredValidatorPrincipalClaimName``), ``exp`` (required), optional
  ``iat``, and a scope checked against ``unsecuredValidatorRequiredScope``,
  with ``unsecuredValidatorAllowableClockSkewMs``. Never for production.
* :class:`JwksValidator`: signed JWTs checked against the keys of a JWKS
  (``sasl.oauthbearer.jwks.endpoint.url``) with PyJWT: signature (asymmetric
  algorithms only, never ``none``), ``exp`` and ``iat`` required, optional
  expected audience and issuer, ``sasl.oauthbearer.clock.skew.seconds``, and the
  ``sasl.oauthbearer.sub.claim.name`` / ``scope.claim.name`` claims. Keys come
  from a :class:`JwksKeyCache` the server refreshes through an injected fetcher
  (off the event loop); an unknown ``kid`` fails this attempt and asks the cache
  for an early refresh, as Kafka's RefreshingHttpsJwks does.

On a bad token the server answers, as Kafka does, with a JSON error *challenge*
(``{"status":"invalid_token"}``, or ``insufficient_scope`` with the scope); the
client then sends a single 0x01 and the exchange fails with that JSON as the
SASL_AUTHENTICATION_FAILED message. A token's ``exp`` becomes the credential
expiry, which bounds the KIP-368 session lifetime.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import threading
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    import jwt

from broker.protocol.auth import SaslAuthenticationError
from broker.security.sasl.exchange import ServerExchange

__all__ = [
    "JwksKeyCache",
    "JwksValidator",
    "OAuthBearerServer",
    "OAuthBearerToken",
    "TokenValidationError",
    "TokenValidator",
    "UnsecuredJwsValidator",
    "parse_client_initial_response",
    "url_fetcher",
]

_SEP = "\x01"
_CLIENT_FIRST = re.compile(
    r"n,(?:a=(?P<authzid>(?:[\x01-\x2B\x2D-\x3C\x3E-\x7F]|=2C|=3D)+))?,\x01"
    r"(?P<kvpairs>(?:[A-Za-z]+=[\x21-\x7E \t\r\n]+\x01)*)\x01",
    re.DOTALL,
)
_AUTH = re.compile(r"(?P<scheme>\w+) +(?P<token>[-_~+/.a-zA-Z0-9]+=*)", re.ASCII)


class OAuthBearerFailure(Exception):
    """A malformed client message: the client gets Kafka's generic failure message."""


@dataclass(frozen=True, slots=True)
class ClientInitialResponse:
    token: str
    authorization_id: str
    extensions: dict[str, str]


def parse_client_initial_response(data: bytes) -> ClientInitialResponse:
    """RFC 7628 section 3.1 as Kafka reads it; OAuthBearerFailure when malformed."""
    text = data.decode("utf-8", errors="replace")
    m = _CLIENT_FIRST.fullmatch(text)
    if m is None:
        raise OAuthBearerFailure("Invalid OAUTHBEARER client first message")
    props: dict[str, str] = {}
    for pair in m.group("kvpairs").split(_SEP):
        if pair:
            key, _, value = pair.partition("=")
            props[key] = value
    auth = props.pop("auth", None)
    if auth is None:
        raise OAuthBearerFailure("Invalid OAUTHBEARER client first message: 'auth' not specified")
    am = _AUTH.fullmatch(auth)
    if am is None:
        raise OAuthBearerFailure("Invalid OAUTHBEARER client first message: invalid 'auth' format")
    if am.group("scheme").lower() != "bearer":
        raise OAuthBearerFailure(f"Invalid scheme in OAUTHBEARER client first message: {am.group('scheme')}")
    return ClientInitialResponse(am.group("token"), m.group("authzid") or "", props)


@dataclass(frozen=True, slots=True)
class OAuthBearerToken:
    value: str
    principal_name: str
    lifetime_ms: int  # the expiry, in ms since the epoch
    scope: frozenset[str]
    start_time_ms: int | None


class TokenValidationError(Exception):
    """The token is not acceptable; ``status``/``scope`` go into the JSON challenge."""

    def __init__(self, reason: str, *, status: str = "invalid_token", scope: str | None = None) -> None:
        super().__init__(reason)
        self.status = status
        self.scope = scope


class TokenValidator(Protocol):
    def validate(self, token: str, now_ms: int) -> OAuthBearerToken: ...


def _error_json(err: TokenValidationError) -> str:
    # Kafka's own formatting (not json.dumps): {"status":"x", "scope":"y"}
    out = f'{{"status":"{err.status}"'
    if err.scope is not None:
        out += f', "scope":"{err.scope}"'
    return out + "}"


class OAuthBearerServer(ServerExchange):
    """One OAUTHBEARER exchange. See the module docstring."""

    mechanism = "OAUTHBEARER"

    def __init__(self, validator: TokenValidator) -> None:
        self._validator = validator
        self._error: str | None = None
        self._token: OAuthBearerToken | None = None
        self.extensions: dict[str, str] = {}

    @property
    def credential_expiry_ms(self) -> int | None:
        return None if self._token is None else self._token.lifetime_ms

    token_authenticated = False  # delegation tokens authenticate over SCRAM only

    def evaluate(self, token: bytes, now_ms: int) -> bytes:
        if self._token is not None:
            raise OAuthBearerFailure("Unexpected OAUTHBEARER message after authentication completed")
        if token == b"\x01" and self._error is not None:
            raise SaslAuthenticationError(self._error)
        self._error = None
        response = parse_client_initial_response(token)
        try:
            validated = self._validator.validate(response.token, now_ms)
        except TokenValidationError as err:
            self._error = _error_json(err)
            return self._error.encode("utf-8")
        if response.authorization_id and response.authorization_id != validated.principal_name:
            raise SaslAuthenticationError(
                f"Authentication failed: Client requested an authorization id ({response.authorization_id}) "
                f"that is different from the token's principal name ({validated.principal_name})"
            )
        self.extensions = response.extensions  # both Kafka validators accept every extension
        self._token = validated
        self._authorized = validated.principal_name
        return b""


# --------------------------------------------------------------------------- unsecured JWS


def _b64url_json(part: str) -> dict[str, Any]:
    try:
        raw = base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
    except (binascii.Error, ValueError):
        raise TokenValidationError("malformed Base64 URL encoded value") from None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        raise TokenValidationError("malformed JSON") from None
    return value if isinstance(value, dict) else {}


def _is_number(v: object) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _java_type(v: object) -> str:
    if isinstance(v, bool):
        return "String"  # Kafka reads non-numeric scalars as text
    if isinstance(v, int):
        return "Long" if abs(v) >= 2**31 else "Integer"
    if isinstance(v, float):
        return "Double"
    if isinstance(v, list):
        return "ArrayList"
    return "String"


def _seconds_to_ms(v: float) -> int:
    return round(v * 1000)


@dataclass(frozen=True, slots=True)
class UnsecuredJwsValidator:
    """Kafka's OAuthBearerUnsecuredValidatorCallbackHandler (JAAS options in brackets)."""

    principal_claim_name: str = "sub"  # unsecuredValidatorPrincipalClaimName
    scope_claim_name: str = "scope"  # unsecuredValidatorScopeClaimName
    required_scope: tuple[str, ...] = ()  # unsecuredValidatorRequiredScope (space separated)
    allowable_clock_skew_ms: int = 0  # unsecuredValidatorAllowableClockSkewMs

    def __post_init__(self) -> None:
        if self.allowable_clock_skew_ms < 0:
            raise ValueError(f"Allowable clock skew millis must not be negative: {self.allowable_clock_skew_ms}")
        if not self.principal_claim_name.strip() or not self.scope_claim_name.strip():
            raise ValueError("principal and scope claim names must not be blank")

    @classmethod
    def from_jaas_options(cls, options: dict[str, str]) -> UnsecuredJwsValidator:
        def opt(name: str, default: str) -> str:
            value = options.get(f"unsecuredValidator{name}", "")
            return value.strip() if value.strip() else default

        skew_text = opt("AllowableClockSkewMs", "0")
        try:
            skew = int(skew_text)
        except ValueError:
            raise ValueError(f"unsecuredValidatorAllowableClockSkewMs: {skew_text!r} is not an integer") from None
        return cls(
            principal_claim_name=opt("PrincipalClaimName", "sub"),
            scope_claim_name=opt("ScopeClaimName", "scope"),
            required_scope=tuple(opt("RequiredScope", "").split()),
            allowable_clock_skew_ms=skew,
        )

    def validate(self, token: str, now_ms: int) -> OAuthBearerToken:
        if ".." in token:
            raise TokenValidationError("Malformed compact serialization contains '..'")
        parts = token.split(".")
        if len(parts) != 3:
            raise TokenValidationError(
                "Unsecured JWS compact serializations must have 3 dot-separated Base64URL-encoded values"
            )
        header = _b64url_json(parts[0])
        claims = _b64url_json(parts[1])
        if header.get("alg") != "none":
            raise TokenValidationError("Unsecured JWS must have 'none' for an algorithm")
        if parts[2]:
            raise TokenValidationError("Unsecured JWS must not contain a digital signature")
        scope = self._scope(claims)
        exp = claims.get("exp")
        if exp is None:
            raise TokenValidationError("No expiration time in JWT")
        if not _is_number(exp):
            raise TokenValidationError(f"The 'exp' claim was not of type Number: {_java_type(exp)}")
        principal = claims.get(self.principal_claim_name)
        if principal is not None and not isinstance(principal, str):
            raise TokenValidationError(
                f"The '{self.principal_claim_name}' claim was not of type String: {_java_type(principal)}"
            )
        if principal is None or not principal.strip():
            raise TokenValidationError(f"No principal name in JWT claim: {self.principal_claim_name}")
        iat = claims.get("iat")
        if iat is not None and not _is_number(iat):
            raise TokenValidationError(f"The 'iat' claim was not of type Number: {_java_type(iat)}")
        skew = self.allowable_clock_skew_ms
        if iat is not None and 1000 * iat > now_ms + skew:
            raise TokenValidationError(
                f"The Issued At value ({iat:f} seconds) was after the indicated time ({now_ms} ms) "
                f"plus allowable clock skew ({skew} ms)"
            )
        if now_ms - skew >= 1000 * exp:
            raise TokenValidationError(
                f"The indicated time ({now_ms} ms) minus allowable clock skew ({skew} ms) was on or after "
                f"the Expiration Time value ({exp:f} seconds)"
            )
        if iat is not None and exp <= iat:
            raise TokenValidationError(
                f"The Expiration Time time ({exp:f} seconds) was not after the Issued At time ({iat:f} seconds)"
            )
        for needed in self.required_scope:
            if needed not in scope:
                raise TokenValidationError(
                    f"The provided scope ({sorted(scope)}) was missing a required scope ({needed}). "
                    f"All required scope elements: {list(self.required_scope)}",
                    status="insufficient_scope",
                    scope="[" + ", ".join(self.required_scope) + "]",
                )
        return OAuthBearerToken(
            token,
            principal,
            _seconds_to_ms(exp),
            scope,
            None if iat is None else _seconds_to_ms(iat),
        )

    def _scope(self, claims: dict[str, Any]) -> frozenset[str]:
        value = claims.get(self.scope_claim_name)
        if value is None:
            return frozenset()
        if isinstance(value, str):
            return frozenset({value.strip()}) if value.strip() else frozenset()
        if isinstance(value, list):
            return frozenset(str(s).strip() for s in value if str(s).strip())
        raise TokenValidationError(f"The '{self.scope_claim_name}' claim was not of type List: {_java_type(value)}")


# --------------------------------------------------------------------------- JWKS


Fetcher = Callable[[], bytes]

# Signature algorithms accepted with JWKS keys: asymmetric only, so a key set can
# never be turned into an HMAC secret and "none" is never accepted.
ALLOWED_ALGORITHMS: Final = (
    "RS256",
    "RS384",
    "RS512",
    "PS256",
    "PS384",
    "PS512",
    "ES256",
    "ES384",
    "ES512",
    "EdDSA",
)


def url_fetcher(url: str, timeout_s: float = 10.0) -> Fetcher:
    """A fetcher reading ``url`` (https, http or file) with the standard library; blocking."""
    if not url.startswith(("https://", "http://", "file:")):
        raise ValueError(f"sasl.oauthbearer.jwks.endpoint.url: {url!r} must be an https, http or file URL")

    def fetch() -> bytes:
        with urllib.request.urlopen(url, timeout=timeout_s) as resp:
            data: bytes = resp.read(4 * 1024 * 1024)  # a key set is a few KiB; never buffer more
            return data

    return fetch


class JwksKeyCache:
    """The current key set, refreshed from outside.

    ``refresh()`` calls the fetcher (blocking: run it in a worker thread) and
    replaces the keys. ``refresh_due(now_ms)`` says when the shell should call
    it: at ``refresh_ms`` intervals (sasl.oauthbearer.jwks.endpoint.refresh.ms),
    or soon after a token named an unknown ``kid`` (never more than once per
    ``retry_backoff_ms``).
    """

    def __init__(self, fetcher: Fetcher, *, refresh_ms: int = 3_600_000, retry_backoff_ms: int = 100) -> None:
        self._fetcher = fetcher
        self.refresh_ms = refresh_ms
        self.retry_backoff_ms = retry_backoff_ms
        self._keys: dict[str | None, jwt.PyJWK] = {}
        self._lock = threading.Lock()
        self._last_refresh_ms: int | None = None
        self._expedite = False

    def refresh(self, now_ms: int) -> int:
        """Fetch and install the key set; returns how many usable keys it holds. Raises on a bad document."""
        # PyJWT and the cryptography backend it loads (~20 MiB) come in with the first
        # key set: only brokers that validate OAUTHBEARER tokens pay for them.
        import jwt

        data = self._fetcher()
        try:
            jwks = jwt.PyJWKSet.from_json(data.decode("utf-8"))
        except (jwt.PyJWKSetError, jwt.InvalidKeyError, UnicodeDecodeError, ValueError) as exc:
            raise ValueError(f"the JWKS document is not usable: {exc}") from None
        keys = {k.key_id: k for k in jwks.keys if k.public_key_use in (None, "sig")}
        with self._lock:
            self._keys = keys
            self._last_refresh_ms = now_ms
            self._expedite = False
        return len(keys)

    def refresh_due(self, now_ms: int) -> bool:
        last = self._last_refresh_ms
        if last is None:
            return True
        if self._expedite and now_ms - last >= self.retry_backoff_ms:
            return True
        return now_ms - last >= self.refresh_ms

    def key_for(self, kid: str | None) -> jwt.PyJWK | None:
        with self._lock:
            if kid is None and len(self._keys) == 1:
                return next(iter(self._keys.values()))
            key = self._keys.get(kid)
            if key is None:
                self._expedite = True
            return key


@dataclass(frozen=True)
class JwksValidator:
    """Kafka's OAuthBearerValidatorCallbackHandler with a JWKS endpoint."""

    keys: JwksKeyCache
    expected_audience: Sequence[str] = ()  # sasl.oauthbearer.expected.audience
    expected_issuer: str | None = None  # sasl.oauthbearer.expected.issuer
    scope_claim_name: str = "scope"  # sasl.oauthbearer.scope.claim.name
    sub_claim_name: str = "sub"  # sasl.oauthbearer.sub.claim.name
    clock_skew_seconds: int = 30  # sasl.oauthbearer.clock.skew.seconds

    def validate(self, token: str, now_ms: int) -> OAuthBearerToken:
        import jwt  # see JwksKeyCache.refresh

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise TokenValidationError(f"Could not validate the access token: {exc}") from None
        alg = header.get("alg")
        if alg not in ALLOWED_ALGORITHMS:
            raise TokenValidationError(f"Could not validate the access token: algorithm {alg!r} is not accepted")
        kid = header.get("kid")
        key = self.keys.key_for(kid if isinstance(kid, str) else None)
        if key is None:
            raise TokenValidationError(f"Could not validate the access token: no key with kid {kid!r}")
        try:
            claims = jwt.decode(
                token,
                key=key.key,
                algorithms=[alg],
                audience=list(self.expected_audience) or None,
                issuer=self.expected_issuer,
                leeway=self.clock_skew_seconds,
                options={"require": ["exp", "iat"], "verify_aud": bool(self.expected_audience)},
            )
        except jwt.PyJWTError as exc:
            raise TokenValidationError(f"Could not validate the access token: {exc}") from None
        except (ValueError, TypeError) as exc:  # a key of the wrong type for the algorithm
            raise TokenValidationError(f"Could not validate the access token: {exc}") from None
        _ = now_ms  # PyJWT checks exp/iat/nbf against the wall clock, with the leeway
        sub = claims.get(self.sub_claim_name)
        if not isinstance(sub, str) or not sub.strip():
            raise TokenValidationError(f"{self.sub_claim_name} value must be non-null and non-blank")
        raw_scope = claims.get(self.scope_claim_name)
        if isinstance(raw_scope, str):
            scopes: list[Any] = [raw_scope]
        elif isinstance(raw_scope, list):
            scopes = raw_scope
        else:
            scopes = []
        scope: set[str] = set()
        for s in scopes:
            if not isinstance(s, str) or not s.strip():
                raise TokenValidationError(f"{self.scope_claim_name} value must be non-null and non-blank")
            scope.add(s.strip())
        exp, iat = claims["exp"], claims["iat"]
        if not _is_number(exp) or exp < 0:
            raise TokenValidationError("exp value must be non-negative")
        if not _is_number(iat) or iat < 0:
            raise TokenValidationError("iat value must be non-negative")
        return OAuthBearerToken(token, sub.strip(), _seconds_to_ms(exp), frozenset(scope), _seconds_to_ms(iat))
