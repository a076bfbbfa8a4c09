"""Delegation tokens (KIP-48), pure: the tokens, their HMACs, and the SCRAM credentials
a client authenticates with.

A token is (id, owner, requester, renewers, issue, max and expiry timestamps). Its
password, the HMAC, is HMAC-SHA512 of the token id under ``delegation.token.secret.key``:
it is computed again wherever it is needed and never stored, so every broker with the
same key knows the HMAC of every token. A client authenticates over SASL/SCRAM with the
token id as user name, the HMAC (standard base64) as password and the extension
``tokenauth=true``; the SCRAM credential is derived from that password with the
mechanism's minimum of 4096 iterations, as Kafka's DelegationTokenManager does.

Behaviour follows Kafka 4.4.0's controller (DelegationTokenControlManager), codes
included:

* no secret key: every change is DELEGATION_TOKEN_AUTH_DISABLED (describe too, on the
  broker's side);
* create: the lifetime is ``delegation.token.max.lifetime.ms``, or the request's
  ``MaxLifetimeMs`` when positive and smaller; the expiry is ``issue +
  delegation.token.expiry.time.ms`` capped at that maximum; a renewer whose principal
  type is not ``User`` is INVALID_PRINCIPAL_TYPE;
* renew (owner or renewer only): unknown HMAC DELEGATION_TOKEN_NOT_FOUND, a token past
  its expiry or maximum DELEGATION_TOKEN_EXPIRED (checked before who asks),
  anyone else DELEGATION_TOKEN_OWNER_MISMATCH; the new expiry is ``now +`` the
  request's period when positive and below ``delegation.token.expiry.time.ms`` (else
  that setting), capped at the maximum;
* expire (owner or renewer only, checked before expiry): a negative period removes the
  token at once and answers ``now``; otherwise an expired token is
  DELEGATION_TOKEN_EXPIRED and the expiry becomes ``now + period`` capped at the maximum;
* describe: owners None means every token, an empty list none; a token is shown when
  its owner or a renewer is among the owners asked for (if any) and the caller is its
  owner or a renewer, or may DESCRIBE the DelegationToken resource, or may
  DESCRIBE_TOKENS on the User resource of its owner (the caller decides those two);
* a token past its expiry or its maximum is removed by :meth:`DelegationTokens.expired`,
  which the broker calls every ``delegation.token.expiry.check.interval.ms``. Until
  then it is still described and still authenticates, but the session it opens lasts
  until the expiry (already past), so the connection closes at its next request.

Changes follow the security store's shape: ``prepare_*`` validates and returns the
answer with a :class:`TokenDelta`, the shell persists the delta, then :meth:`apply`.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac as hmac_lib
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.security.delta import Delta
from broker.security.sasl.scram import MIN_ITERATIONS, StoredScramCredential

__all__ = [
    "DEFAULT_EXPIRY_CHECK_INTERVAL_MS",
    "DEFAULT_EXPIRY_TIME_MS",
    "DEFAULT_MAX_LIFETIME_MS",
    "MAX_EXPIRATIONS_PER_SWEEP",
    "ChangeOutcome",
    "CreateOutcome",
    "DelegationTokens",
    "TokenCredential",
    "TokenDelta",
    "TokenInfo",
    "TokenSettings",
    "new_token_id",
    "token_doc",
    "token_from_doc",
]

# Kafka's defaults (DelegationTokenManagerConfigs): 7 days, 1 day, 1 hour.
DEFAULT_MAX_LIFETIME_MS: Final = 7 * 24 * 3600 * 1000
DEFAULT_EXPIRY_TIME_MS: Final = 24 * 3600 * 1000
DEFAULT_EXPIRY_CHECK_INTERVAL_MS: Final = 3600 * 1000
# Kafka's DelegationTokenControlManager.MAX_RECORDS_PER_EXPIRATION: one sweep removes at
# most this many tokens, so one write stays small; the next sweep takes the rest.
MAX_EXPIRATIONS_PER_SWEEP: Final = 1000
# Kafka's DelegationTokenManager: HmacSHA512 of the token id under the secret key.
_HMAC_DIGEST: Final = "sha512"
_LONG_MAX: Final = 2**63 - 1
_USER: Final = "User"


def _sum(now: int, duration: int) -> int:
    """now + duration, saturating at Long.MAX_VALUE as Kafka's controller does."""
    return _LONG_MAX if now > _LONG_MAX - duration else now + duration


def new_token_id() -> str:
    """A random id as Kafka's ``Uuid.randomUuid().toString()``: URL-safe base64 of 16 random
    bytes without padding, never starting with '-' (Kafka avoids those)."""
    while True:
        text = base64.urlsafe_b64encode(secrets.token_bytes(16)).decode("ascii").rstrip("=")
        if not text.startswith("-"):
            return text


@dataclass(frozen=True, slots=True)
class TokenSettings:
    """``delegation.token.*``: no secret key (or an empty one) turns tokens off."""

    secret_key: str | None = None
    max_lifetime_ms: int = DEFAULT_MAX_LIFETIME_MS
    expiry_time_ms: int = DEFAULT_EXPIRY_TIME_MS
    expiry_check_interval_ms: int = DEFAULT_EXPIRY_CHECK_INTERVAL_MS

    @property
    def enabled(self) -> bool:
        return bool(self.secret_key)


@dataclass(frozen=True, slots=True)
class TokenInfo:
    token_id: str
    owner: KafkaPrincipal
    requester: KafkaPrincipal
    renewers: tuple[KafkaPrincipal, ...]
    issue_ms: int
    max_ms: int
    expiry_ms: int

    def owner_or_renewer(self, principal: KafkaPrincipal) -> bool:
        return principal == self.owner or principal in self.renewers

    def expired(self, now_ms: int) -> bool:
        return self.max_ms < now_ms or self.expiry_ms < now_ms


def _principal_doc(p: KafkaPrincipal) -> list[str]:
    return [p.type, p.name]


def _principal_from(doc: Any) -> KafkaPrincipal:
    kind, name = doc
    return KafkaPrincipal(str(kind), str(name))


def token_doc(t: TokenInfo) -> dict[str, Any]:
    """The JSON form of a token (the data directory's file, etcd's documents)."""
    return {
        "token_id": t.token_id,
        "owner": _principal_doc(t.owner),
        "requester": _principal_doc(t.requester),
        "renewers": [_principal_doc(r) for r in t.renewers],
        "issue_ms": t.issue_ms,
        "max_ms": t.max_ms,
        "expiry_ms": t.expiry_ms,
    }


def token_from_doc(doc: Mapping[str, Any]) -> TokenInfo:
    """Raises KeyError, TypeError or ValueError on a malformed document."""
    return TokenInfo(
        token_id=str(doc["token_id"]),
        owner=_principal_from(doc["owner"]),
        requester=_principal_from(doc["requester"]),
        renewers=tuple(_principal_from(r) for r in doc["renewers"]),
        issue_ms=int(doc["issue_ms"]),
        max_ms=int(doc["max_ms"]),
        expiry_ms=int(doc["expiry_ms"]),
    )


class TokenDelta(Delta[str, TokenInfo]):
    """What a change does: tokens to put (new or with a new expiry) and ids to remove."""

    __slots__ = ()


_NO_CHANGE: Final = TokenDelta()


@dataclass(frozen=True, slots=True)
class CreateOutcome:
    """CreateDelegationToken's answer: the error, or the new token and its HMAC."""

    error_code: int
    token: TokenInfo | None = None
    hmac: bytes = b""
    delta: TokenDelta = _NO_CHANGE


@dataclass(frozen=True, slots=True)
class ChangeOutcome:
    """Renew's and Expire's answer: the error and the new expiry (0 with an error, as Kafka)."""

    error_code: int
    expiry_ms: int = 0
    delta: TokenDelta = _NO_CHANGE


@dataclass(frozen=True, slots=True)
class TokenCredential:
    """What a SCRAM exchange with ``tokenauth=true`` needs about a token."""

    credential: StoredScramCredential
    owner: KafkaPrincipal
    expiry_ms: int


_SCRAM_HASHES: Final = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}


def _derive(mechanism: str, password: str) -> StoredScramCredential:
    """Kafka's ScramFormatter.generateCredential(password, minIterations): a fresh salt."""
    h = _SCRAM_HASHES[mechanism]
    salt = secrets.token_bytes(32)
    salted = hashlib.pbkdf2_hmac(h, password.encode("utf-8"), salt, MIN_ITERATIONS)
    client_key = hmac_lib.new(salted, b"Client Key", h).digest()
    return StoredScramCredential(
        salt,
        hashlib.new(h, client_key).digest(),
        hmac_lib.new(salted, b"Server Key", h).digest(),
        MIN_ITERATIONS,
    )


class DelegationTokens:
    """Every token, with the HMAC index and the derived SCRAM credentials. See the module docstring."""

    def __init__(self, settings: TokenSettings | None = None, tokens: Iterable[TokenInfo] = ()) -> None:
        self.settings = settings or TokenSettings()
        self._tokens: dict[str, TokenInfo] = {}
        self._by_hmac: dict[bytes, str] = {}
        # (token id, mechanism) -> credential: derived on first use (4096 PBKDF2 rounds),
        # with a salt of this broker's own, as each Kafka broker derives its own.
        self._credentials: dict[tuple[str, str], StoredScramCredential] = {}
        self.replace({t.token_id: t for t in tokens})

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    def hmac(self, token_id: str) -> bytes:
        key = self.settings.secret_key
        assert key, "delegation tokens are disabled"
        return hmac_lib.new(key.encode("utf-8"), token_id.encode("utf-8"), _HMAC_DIGEST).digest()

    # ---- state

    def snapshot(self) -> dict[str, TokenInfo]:
        return dict(self._tokens)

    def get(self, token_id: str) -> TokenInfo | None:
        return self._tokens.get(token_id)

    def replace(self, tokens: Mapping[str, TokenInfo]) -> None:
        """Every token at once (loaded from the data directory, or followed from the cluster)."""
        gone = set(self._tokens) - set(tokens)
        self._tokens = dict(tokens)
        self._by_hmac = {self.hmac(i): i for i in self._tokens} if self.enabled else {}
        for key in [k for k in self._credentials if k[0] in gone]:
            del self._credentials[key]

    def preview(self, delta: TokenDelta) -> dict[str, TokenInfo]:
        """The tokens as they will be once ``delta`` applies (what to persist)."""
        return delta.applied_to(self._tokens)

    def apply(self, delta: TokenDelta) -> None:
        self.replace(self.preview(delta))

    def _by_hmac_of(self, hmac: bytes) -> TokenInfo | None:
        token_id = self._by_hmac.get(bytes(hmac))
        return None if token_id is None else self._tokens.get(token_id)

    # ---- the four APIs (the controller's part)

    def prepare_create(
        self,
        now_ms: int,
        requester: KafkaPrincipal,
        owner: KafkaPrincipal,
        renewers: Sequence[KafkaPrincipal],
        max_lifetime_ms: int,
        token_id: str | None = None,
    ) -> CreateOutcome:
        if not self.enabled:
            return CreateOutcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
        if any(r.type != _USER for r in renewers):
            return CreateOutcome(ErrorCode.INVALID_PRINCIPAL_TYPE)
        lifetime = self.settings.max_lifetime_ms
        if max_lifetime_ms > 0:
            lifetime = min(lifetime, max_lifetime_ms)
        max_ms = _sum(now_ms, lifetime)
        expiry_ms = min(max_ms, _sum(now_ms, self.settings.expiry_time_ms))
        token_id = token_id or new_token_id()
        while token_id in self._tokens:  # 128 random bits: only a test's fixed id could collide
            token_id = new_token_id()
        token = TokenInfo(token_id, owner, requester, tuple(renewers), now_ms, max_ms, expiry_ms)
        return CreateOutcome(ErrorCode.NONE, token, self.hmac(token_id), TokenDelta(upserts={token_id: token}))

    def prepare_renew(self, now_ms: int, principal: KafkaPrincipal, hmac: bytes, renew_period_ms: int) -> ChangeOutcome:
        if not self.enabled:
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
        token = self._by_hmac_of(hmac)
        if token is None:
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
        if token.expired(now_ms):
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
        if not token.owner_or_renewer(principal):
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH)
        period = self.settings.expiry_time_ms
        if renew_period_ms > 0:
            period = min(period, renew_period_ms)
        expiry_ms = min(token.max_ms, _sum(now_ms, period))
        renewed = dataclasses.replace(token, expiry_ms=expiry_ms)
        return ChangeOutcome(ErrorCode.NONE, expiry_ms, TokenDelta(upserts={token.token_id: renewed}))

    def prepare_expire(
        self, now_ms: int, principal: KafkaPrincipal, hmac: bytes, expiry_period_ms: int
    ) -> ChangeOutcome:
        if not self.enabled:
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
        token = self._by_hmac_of(hmac)
        if token is None:
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_NOT_FOUND)
        if not token.owner_or_renewer(principal):
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH)
        if expiry_period_ms < 0:
            return ChangeOutcome(ErrorCode.NONE, now_ms, TokenDelta(removals=frozenset({token.token_id})))
        if token.expired(now_ms):
            return ChangeOutcome(ErrorCode.DELEGATION_TOKEN_EXPIRED)
        expiry_ms = min(token.max_ms, _sum(now_ms, expiry_period_ms))
        changed = dataclasses.replace(token, expiry_ms=expiry_ms)
        return ChangeOutcome(ErrorCode.NONE, expiry_ms, TokenDelta(upserts={token.token_id: changed}))

    def describe(
        self,
        requester: KafkaPrincipal,
        owners: Sequence[KafkaPrincipal] | None,
        may_describe_token: Callable[[str], bool],
        may_describe_owner: Callable[[KafkaPrincipal], bool],
    ) -> list[tuple[TokenInfo, bytes]]:
        """The tokens ``requester`` may see, with their HMACs, oldest first (Kafka's order is
        its cache's, unspecified). The caller has checked that tokens are enabled."""
        if owners is not None and not owners:
            return []
        out = []
        for token in sorted(self._tokens.values(), key=lambda t: (t.issue_ms, t.token_id)):
            if owners is not None and not any(token.owner_or_renewer(o) for o in owners):
                continue
            if (
                token.owner_or_renewer(requester)
                or may_describe_token(token.token_id)
                or may_describe_owner(token.owner)
            ):
                out.append((token, self.hmac(token.token_id)))
        return out

    def expired(self, now_ms: int) -> TokenDelta:
        """The tokens past their expiry or maximum, at most MAX_EXPIRATIONS_PER_SWEEP of them."""
        gone = [t.token_id for t in self._tokens.values() if t.expired(now_ms)]
        return TokenDelta(removals=frozenset(gone[:MAX_EXPIRATIONS_PER_SWEEP]))

    # ---- authentication

    def scram_credential(self, token_id: str, mechanism: str) -> TokenCredential | None:
        """The SCRAM credential of ``token_id`` for ``mechanism`` (None: no such token, or
        tokens are off), with the owner and expiry the session takes from it."""
        token = self._tokens.get(token_id)
        if token is None or not self.enabled or mechanism not in _SCRAM_HASHES:
            return None
        key = (token_id, mechanism)
        credential = self._credentials.get(key)
        if credential is None:
            password = base64.b64encode(self.hmac(token_id)).decode("ascii")
            credential = self._credentials[key] = _derive(mechanism, password)
        return TokenCredential(credential, token.owner, token.expiry_ms)
