"""SCRAM credentials as Kafka stores them, and Alter/DescribeUserScramCredentials.

A credential is (user, mechanism) -> salt, iterations, StoredKey, ServerKey
(RFC 5802): the broker never sees a password. AlterUserScramCredentials sends
the *salted* password; the store derives the two keys from it, as Kafka's
controller does, and keeps only those.

The store is pure: :meth:`ScramCredentialStore.prepare_alter` validates a
request and returns the per-user results plus a :class:`ScramDelta`; the shell
persists the delta (:class:`FileScramPersistence` for the single broker, etcd
later) and then calls :meth:`~ScramCredentialStore.apply`. Validation follows
Kafka's ScramControlManager, messages included:

* empty user name: UNACCEPTABLE_CREDENTIAL "Username must not be empty";
* mechanism not 1 (SHA-256) or 2 (SHA-512): UNSUPPORTED_SASL_MECHANISM
  "Unknown SCRAM mechanism";
* iterations below 4096 / above 16384: UNACCEPTABLE_CREDENTIAL "Too few
  iterations" / "Too many iterations";
* deleting a credential that does not exist: RESOURCE_NOT_FOUND "Attempt to
  delete a user credential that does not exist";
* the same user twice in one request (deletions and upsertions together):
  DUPLICATE_RESOURCE "A user credential cannot be altered twice in the same
  request", and none of that user's changes apply.

Describe: no users means every user with a credential; a user named twice gets
DUPLICATE_RESOURCE, an unknown one RESOURCE_NOT_FOUND, both with Kafka's text.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import Any, Final, Protocol

from broker.protocol.errors import ErrorCode
from broker.security.delta import Delta
from broker.security.sasl.scram import MIN_ITERATIONS, StoredScramCredential

__all__ = [
    "MAX_ITERATIONS",
    "AlterResult",
    "CredentialInfo",
    "DescribeResult",
    "FileScramPersistence",
    "ScramCredentialDeletion",
    "ScramCredentialStore",
    "ScramCredentialUpsertion",
    "ScramDelta",
    "ScramMechanismType",
    "ScramPersistence",
    "UserResult",
    "credential_from_password",
    "credential_from_salted_password",
]

# Kafka's ScramControlManager.MAX_ITERATIONS: bounds the PBKDF2 work one
# authentication can cost the broker.
MAX_ITERATIONS: Final = 16384


class ScramMechanismType(IntEnum):
    """The ``Mechanism`` byte of the SCRAM credential APIs."""

    UNKNOWN = 0
    SCRAM_SHA_256 = 1
    SCRAM_SHA_512 = 2

    @property
    def mechanism_name(self) -> str:
        return self.name.replace("_", "-")

    @property
    def hash_name(self) -> str:
        return {1: "sha256", 2: "sha512"}[self.value]

    @classmethod
    def from_code(cls, code: int) -> ScramMechanismType:
        try:
            return cls(code)
        except ValueError:
            return cls.UNKNOWN

    @classmethod
    def from_name(cls, name: str) -> ScramMechanismType:
        for m in (cls.SCRAM_SHA_256, cls.SCRAM_SHA_512):
            if m.mechanism_name == name:
                return m
        return cls.UNKNOWN


def credential_from_salted_password(
    mechanism: ScramMechanismType, salt: bytes, salted_password: bytes, iterations: int
) -> StoredScramCredential:
    """StoredKey = H(HMAC(SaltedPassword, "Client Key")), ServerKey = HMAC(SaltedPassword, "Server Key")."""
    h = mechanism.hash_name
    client_key = hmac.new(salted_password, b"Client Key", h).digest()
    stored_key = hashlib.new(h, client_key).digest()
    server_key = hmac.new(salted_password, b"Server Key", h).digest()
    return StoredScramCredential(salt, stored_key, server_key, iterations)


def credential_from_password(
    mechanism: ScramMechanismType, password: str, iterations: int = MIN_ITERATIONS, salt: bytes | None = None
) -> StoredScramCredential:
    """A credential from a clear password (UTF-8 bytes, as Kafka's tools derive it)."""
    salt = secrets.token_bytes(32) if salt is None else salt
    salted = hashlib.pbkdf2_hmac(mechanism.hash_name, password.encode("utf-8"), salt, iterations)
    return credential_from_salted_password(mechanism, salt, salted, iterations)


@dataclass(frozen=True, slots=True)
class ScramCredentialDeletion:
    name: str
    mechanism: int


@dataclass(frozen=True, slots=True)
class ScramCredentialUpsertion:
    name: str
    mechanism: int
    iterations: int
    salt: bytes
    salted_password: bytes


@dataclass(frozen=True, slots=True)
class UserResult:
    """What an alter or a describe answers for one user: its error, if any."""

    user: str
    error_code: int = ErrorCode.NONE
    error_message: str | None = None


@dataclass(frozen=True, slots=True)
class AlterResult(UserResult):
    pass


@dataclass(frozen=True, slots=True)
class CredentialInfo:
    mechanism: int
    iterations: int


@dataclass(frozen=True, slots=True)
class DescribeResult(UserResult):
    credential_infos: tuple[CredentialInfo, ...] = ()


Key = tuple[str, ScramMechanismType]


class ScramDelta(Delta[Key, StoredScramCredential]):
    """What an alter changes: credentials to set and keys to remove."""

    __slots__ = ()


class ScramPersistence(Protocol):
    def load(self) -> dict[Key, StoredScramCredential]: ...

    def save(self, credentials: dict[Key, StoredScramCredential]) -> None: ...


_DUPLICATE = "A user credential cannot be altered twice in the same request"


def _check_name_and_mechanism(name: str, mechanism: int) -> AlterResult | None:
    if not name:
        return AlterResult(name, ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty")
    if ScramMechanismType.from_code(mechanism) is ScramMechanismType.UNKNOWN:
        return AlterResult(name, ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism")
    return None


class ScramCredentialStore:
    """The credentials, in memory; changes go through prepare_alter -> persist -> apply."""

    def __init__(self, credentials: dict[Key, StoredScramCredential] | None = None) -> None:
        self._credentials: dict[Key, StoredScramCredential] = dict(credentials or {})

    @classmethod
    def load(cls, persistence: ScramPersistence) -> ScramCredentialStore:
        return cls(persistence.load())

    def snapshot(self) -> dict[Key, StoredScramCredential]:
        return dict(self._credentials)

    def lookup(self, user: str, mechanism: str) -> StoredScramCredential | None:
        """For :class:`broker.security.sasl.scram.ScramServer` (mechanism by SASL name)."""
        return self._credentials.get((user, ScramMechanismType.from_name(mechanism)))

    def prepare_alter(
        self, deletions: Sequence[ScramCredentialDeletion], upsertions: Sequence[ScramCredentialUpsertion]
    ) -> tuple[list[AlterResult], ScramDelta]:
        order: list[str] = []
        errors: dict[str, AlterResult] = {}
        to_delete: dict[str, ScramCredentialDeletion] = {}
        to_upsert: dict[str, ScramCredentialUpsertion] = {}

        def seen(name: str) -> None:
            if name not in order:
                order.append(name)

        for d in deletions:
            seen(d.name)
            if d.name in errors:
                continue
            if to_delete.pop(d.name, None) is not None:
                errors[d.name] = AlterResult(d.name, ErrorCode.DUPLICATE_RESOURCE, _DUPLICATE)
                continue
            problem = _check_name_and_mechanism(d.name, d.mechanism)
            if problem is None and (d.name, ScramMechanismType.from_code(d.mechanism)) not in self._credentials:
                problem = AlterResult(
                    d.name, ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"
                )
            if problem is not None:
                errors[d.name] = problem
            else:
                to_delete[d.name] = d
        for u in upsertions:
            seen(u.name)
            if u.name in errors:
                continue
            if to_delete.pop(u.name, None) is not None or to_upsert.pop(u.name, None) is not None:
                errors[u.name] = AlterResult(u.name, ErrorCode.DUPLICATE_RESOURCE, _DUPLICATE)
                continue
            problem = _check_name_and_mechanism(u.name, u.mechanism)
            if problem is None and u.iterations < MIN_ITERATIONS:
                problem = AlterResult(u.name, ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations")
            elif problem is None and u.iterations > MAX_ITERATIONS:
                problem = AlterResult(u.name, ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations")
            if problem is not None:
                errors[u.name] = problem
            else:
                to_upsert[u.name] = u

        upserts = {
            (u.name, ScramMechanismType(u.mechanism)): credential_from_salted_password(
                ScramMechanismType(u.mechanism), u.salt, u.salted_password, u.iterations
            )
            for u in to_upsert.values()
        }
        removals = frozenset((d.name, ScramMechanismType(d.mechanism)) for d in to_delete.values())
        results = [errors.get(name, AlterResult(name)) for name in order]
        return results, ScramDelta(upserts, removals)

    def preview(self, delta: ScramDelta) -> dict[Key, StoredScramCredential]:
        """The credentials as they will be once ``delta`` applies (what to persist)."""
        return delta.applied_to(self._credentials)

    def apply(self, delta: ScramDelta) -> None:
        self._credentials = self.preview(delta)

    def replace(self, credentials: dict[Key, StoredScramCredential]) -> None:
        """Every credential at once (loaded from a file, or followed from the cluster)."""
        self._credentials = dict(credentials)

    def alter(
        self,
        deletions: Sequence[ScramCredentialDeletion],
        upsertions: Sequence[ScramCredentialUpsertion],
        persistence: ScramPersistence | None = None,
    ) -> list[AlterResult]:
        """prepare_alter, persist (when a persistence is given), apply."""
        results, delta = self.prepare_alter(deletions, upsertions)
        if not delta.empty:
            if persistence is not None:
                persistence.save(self.preview(delta))
            self.apply(delta)
        return results

    def describe(self, users: Iterable[str] | None) -> list[DescribeResult]:
        wanted = list(users) if users is not None else []
        if not wanted:
            names = sorted({name for name, _ in self._credentials})
            duplicates: set[str] = set()
        else:
            names = list(dict.fromkeys(wanted))
            duplicates = {n for n in names if wanted.count(n) > 1}
        out = []
        for name in names:
            if name in duplicates:
                out.append(
                    DescribeResult(
                        name,
                        ErrorCode.DUPLICATE_RESOURCE,
                        f"Cannot describe SCRAM credentials for the same user twice in a single request: {name}",
                    )
                )
                continue
            infos = tuple(
                CredentialInfo(m.value, self._credentials[(name, m)].iterations)
                for m in (ScramMechanismType.SCRAM_SHA_256, ScramMechanismType.SCRAM_SHA_512)
                if (name, m) in self._credentials
            )
            if infos:
                out.append(DescribeResult(name, credential_infos=infos))
            else:
                out.append(
                    DescribeResult(
                        name,
                        ErrorCode.RESOURCE_NOT_FOUND,
                        f"Attempt to describe a user credential that does not exist: {name}",
                    )
                )
        return out


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def credential_doc(c: StoredScramCredential) -> dict[str, Any]:
    """A credential's stored fields as JSON, the bytes in base64: a row of the credential
    file (with its user and mechanism), or a cluster document (keyed by them)."""
    return {
        "salt": _b64(c.salt),
        "stored_key": _b64(c.stored_key),
        "server_key": _b64(c.server_key),
        "iterations": c.iterations,
    }


class FileScramPersistence:
    """All credentials in one JSON file, replaced atomically (write, fsync, rename)."""

    VERSION: Final = 1

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    def load(self) -> dict[Key, StoredScramCredential]:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        try:
            doc = json.loads(raw)
            if doc.get("version") != self.VERSION:
                raise ValueError(f"unsupported version {doc.get('version')!r}")
            out: dict[Key, StoredScramCredential] = {}
            for row in doc["credentials"]:
                mechanism = ScramMechanismType.from_name(row["mechanism"])
                if mechanism is ScramMechanismType.UNKNOWN:
                    raise ValueError(f"unknown mechanism {row['mechanism']!r}")
                out[(row["user"], mechanism)] = StoredScramCredential(
                    base64.b64decode(row["salt"], validate=True),
                    base64.b64decode(row["stored_key"], validate=True),
                    base64.b64decode(row["server_key"], validate=True),
                    int(row["iterations"]),
                )
            return out
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{self.path}: not a SCRAM credential file: {exc}") from None

    def save(self, credentials: dict[Key, StoredScramCredential]) -> None:
        rows = [
            {"user": user, "mechanism": mechanism.mechanism_name, **credential_doc(c)}
            for (user, mechanism), c in sorted(credentials.items(), key=lambda kv: (kv[0][0], kv[0][1].value))
        ]
        _atomic_write(self.path, json.dumps({"version": self.VERSION, "credentials": rows}, indent=1) + "\n")


def _atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # secrets-derived: owner only
    with open(fd, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)
