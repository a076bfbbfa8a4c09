"""The broker's security state: ACLs, SCRAM credentials, delegation tokens, and where they are kept.

On a single broker they live in the data directory (``acls.json``,
``scram-credentials.json``, ``delegation-tokens.json``, written atomically); in a
cluster they are the cluster's, in etcd under ``security/acls/``,
``security/scram/`` and ``security/tokens/``, and every broker follows them by
watch, so a credential, ACL or token created through any broker holds on all of
them. A token's HMAC is never stored: each broker computes it from
``delegation.token.secret.key``.

Changes follow the pure cores' shape: the core validates and returns a delta
(:meth:`Authorizer.prepare_create`, :meth:`ScramCredentialStore.prepare_alter`),
the store persists it, then the core applies it. In a cluster the write goes to
etcd and the change is applied when this broker's image has it (so every broker
applies it the same way).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import structlog
import trio

from broker.metadata.documents import SharedDocuments
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import KafkaError
from broker.security.authorizer import (
    AclBinding,
    AclBindingFilter,
    AclOperation,
    AclResult,
    Authorizer,
    DeleteFilterResult,
    FileAclPersistence,
    ResourceType,
    acl_document,
    acl_from_document,
    parse_super_users,
)
from broker.security.quotas import AlterEntry, ByteRates, ClientQuotas, Entity
from broker.security.sasl.scram import StoredScramCredential
from broker.security.scram import (
    AlterResult,
    DescribeResult,
    FileScramPersistence,
    ScramCredentialDeletion,
    ScramCredentialStore,
    ScramCredentialUpsertion,
    ScramMechanismType,
    credential_doc,
)
from broker.security.tokens import (
    ChangeOutcome,
    CreateOutcome,
    DelegationTokens,
    TokenCredential,
    TokenDelta,
    TokenInfo,
    TokenSettings,
    token_doc,
    token_from_doc,
)

__all__ = ["ACL_FILE", "QUOTA_FILE", "SCRAM_FILE", "TOKEN_FILE", "SecurityStore", "SharedDocuments"]

log = structlog.get_logger("sharebroker.security")

# A token API's outcome: it carries the delta to make durable.
Outcome = TypeVar("Outcome", CreateOutcome, ChangeOutcome)
T = TypeVar("T")

ACL_FILE = "acls.json"
SCRAM_FILE = "scram-credentials.json"
QUOTA_FILE = "client-quotas.json"
TOKEN_FILE = "delegation-tokens.json"
STANDARD_AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"


def _acl_name(acl: AclBinding) -> str:
    return hashlib.sha256(json.dumps(acl_document(acl), sort_keys=True).encode()).hexdigest()


def _scram_name(key: tuple[str, ScramMechanismType]) -> str:
    user, mechanism = key
    return f"{mechanism.mechanism_name}/{user}"


def _scram_doc(c: StoredScramCredential) -> bytes:
    return json.dumps(credential_doc(c), sort_keys=True).encode()


def _scram_from(name: str, raw: bytes) -> tuple[tuple[str, ScramMechanismType], StoredScramCredential]:
    """A credential from its document: the key from its name, the credential from ``raw``."""
    mechanism_name, _, user = name.partition("/")
    doc = json.loads(raw)
    credential = StoredScramCredential(
        base64.b64decode(doc["salt"]),
        base64.b64decode(doc["stored_key"]),
        base64.b64decode(doc["server_key"]),
        int(doc["iterations"]),
    )
    return (user, ScramMechanismType.from_name(mechanism_name)), credential


def _parsed(docs: Mapping[str, bytes], parse: Callable[[str, bytes], T], event: str) -> list[T]:
    """Each of the cluster's documents of one kind read by ``parse(name, raw)``; one that
    does not parse is logged as ``event`` and left out."""
    out: list[T] = []
    for name, raw in docs.items():
        try:
            out.append(parse(name, raw))
        except (ValueError, KeyError, TypeError) as exc:
            log.error(event, name=name, error=str(exc))
    return out


def _quota_name(entity: Entity) -> str:
    return hashlib.sha256(json.dumps(entity).encode()).hexdigest()


def _quota_doc(entity: Entity, values: dict[str, float]) -> bytes:
    return json.dumps({"entity": [list(p) for p in entity], "values": values}, sort_keys=True).encode()


def _quota_from(raw: bytes | str) -> tuple[Entity, dict[str, float]]:
    doc = json.loads(raw)
    entity = tuple((str(t), None if n is None else str(n)) for t, n in doc["entity"])
    return entity, {str(k): float(v) for k, v in doc["values"].items()}


class _QuotaFile:
    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[Entity, dict[str, float]]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except ValueError as exc:
            raise ValueError(f"{self.path}: not a client quota file: {exc}") from None
        return dict(_quota_from(json.dumps(row)) for row in doc.get("quotas", []))

    def save(self, quotas: dict[Entity, dict[str, float]]) -> None:
        from broker.security.scram import _atomic_write

        rows = [json.loads(_quota_doc(e, v)) for e, v in sorted(quotas.items(), key=lambda kv: str(kv[0]))]
        _atomic_write(self.path, json.dumps({"version": 1, "quotas": rows}, indent=1) + "\n")


class _TokenFile:
    """Every delegation token in one JSON file, replaced atomically (no HMAC: it is recomputed)."""

    VERSION = 1

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, TokenInfo]:
        try:
            doc = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        try:
            if doc.get("version") != self.VERSION:
                raise ValueError(f"unsupported version {doc.get('version')!r}")
            tokens = [token_from_doc(row) for row in doc["tokens"]]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"{self.path}: not a delegation token file: {exc}") from None
        return {t.token_id: t for t in tokens}

    def save(self, tokens: dict[str, TokenInfo]) -> None:
        from broker.security.scram import _atomic_write

        rows = [token_doc(t) for _, t in sorted(tokens.items())]
        _atomic_write(self.path, json.dumps({"version": self.VERSION, "tokens": rows}, indent=1) + "\n")


class SecurityStore:
    """ACLs (with the authorizer deciding from them), SCRAM credentials, delegation tokens
    and client quotas."""

    def __init__(
        self,
        *,
        data_dir: Path,
        authorizer_class: str = "",
        super_users: str | None = None,
        allow_everyone_if_no_acl_found: bool = False,
        shared: SharedDocuments | None = None,
        quota_samples: int = 11,
        quota_window_ms: int = 1000,
        tokens: TokenSettings | None = None,
    ) -> None:
        self.enabled = authorizer_class == STANDARD_AUTHORIZER
        self.acls = Authorizer(
            super_users=parse_super_users(super_users),
            allow_everyone_if_no_acl_found=allow_everyone_if_no_acl_found,
        )
        self.scram = ScramCredentialStore()
        self.tokens = DelegationTokens(tokens)
        self.client_quotas = ClientQuotas()
        self.byte_rates = ByteRates(quota_samples, quota_window_ms)
        self._quota_file = _QuotaFile(data_dir / QUOTA_FILE)
        self._shared = shared
        self._acl_file = FileAclPersistence(data_dir / ACL_FILE)
        self._scram_file = FileScramPersistence(data_dir / SCRAM_FILE)
        self._token_file = _TokenFile(data_dir / TOKEN_FILE)
        self._lock = trio.Lock()
        self._seen: tuple[dict[str, bytes], dict[str, bytes], dict[str, bytes]] = ({}, {}, {})
        self._seen_tokens: dict[str, bytes] = {}

    @property
    def authorizer(self) -> Authorizer | None:
        """The authorizer requests are checked against; None when authorizer.class.name is empty."""
        return self.acls if self.enabled else None

    # ---- loading

    def load(self) -> None:
        """Read the single broker's files (blocking: call it off the event loop)."""
        if self._shared is not None:
            return
        self.acls.replace(self._acl_file.load())
        self.scram.replace(self._scram_file.load())
        self.client_quotas.replace(self._quota_file.load())
        self.tokens.replace(self._token_file.load())

    def follow(self) -> None:
        """Bring the state in line with the cluster's documents (on every new image)."""
        shared = self._shared
        if shared is None:
            return
        acl_docs, scram_docs, quota_docs = (
            shared.documents("acls"),
            shared.documents("scram"),
            shared.documents("quotas"),
        )
        if quota_docs != self._seen[2]:
            self.client_quotas.replace(dict(_parsed(quota_docs, lambda _, raw: _quota_from(raw), "bad_quota_document")))
        if acl_docs != self._seen[0]:
            self.acls.replace(_parsed(acl_docs, lambda _, raw: acl_from_document(json.loads(raw)), "bad_acl_document"))
        if scram_docs != self._seen[1]:
            self.scram.replace(dict(_parsed(scram_docs, _scram_from, "bad_scram_document")))
        self._seen = (acl_docs, scram_docs, quota_docs)
        self._follow_tokens(shared.documents("tokens"))

    def _follow_tokens(self, docs: dict[str, bytes]) -> None:
        if docs == self._seen_tokens:
            return
        tokens = _parsed(docs, lambda _, raw: token_from_doc(json.loads(raw)), "bad_delegation_token_document")
        self.tokens.replace({t.token_id: t for t in tokens})
        self._seen_tokens = docs

    # ---- SCRAM lookups (the SASL servers' view)

    def scram_lookup(self, user: str, mechanism: str) -> StoredScramCredential | None:
        return self.scram.lookup(user, mechanism)

    async def _persist(
        self, kind: str, puts: Mapping[str, bytes], removals: Iterable[str], table: Any, file: Any, delta: Any
    ) -> None:
        """Make ``delta`` of ``table`` durable, then current: in a cluster as the documents
        of ``kind`` (``puts`` and ``removals``, written, then followed), else saved whole in
        ``file`` and applied. Holds the lock."""
        if self._shared is not None:
            await self._shared.write_documents(kind, puts, removals)
            self.follow()
        else:
            await trio.to_thread.run_sync(file.save, table.preview(delta))
            table.apply(delta)

    # ---- ACLs

    def describe_acls(self, flt: AclBindingFilter) -> list[AclBinding]:
        return self.acls.describe(flt)

    async def create_acls(
        self, creations: Sequence[tuple[int, str, int, str, str, int, int]], api_version: int
    ) -> list[AclResult]:
        async with self._lock:
            results, delta = self.acls.prepare_create(creations, api_version=api_version)
            if delta.empty:
                return results
            puts = {_acl_name(a): json.dumps(acl_document(a), sort_keys=True).encode() for a in delta.added}
            await self._persist("acls", puts, (), self.acls, self._acl_file, delta)
            return results

    async def delete_acls(self, filters: Sequence[AclBindingFilter | str]) -> list[DeleteFilterResult]:
        async with self._lock:
            results, delta = self.acls.prepare_delete(filters)
            if delta.empty:
                return results
            removals = [_acl_name(a) for a in delta.removed]
            await self._persist("acls", {}, removals, self.acls, self._acl_file, delta)
            return results

    # ---- SCRAM credentials

    def describe_scram(self, users: Iterable[str] | None) -> list[DescribeResult]:
        return self.scram.describe(users)

    async def alter_scram(
        self, deletions: Sequence[ScramCredentialDeletion], upsertions: Sequence[ScramCredentialUpsertion]
    ) -> list[AlterResult]:
        async with self._lock:
            results, delta = self.scram.prepare_alter(deletions, upsertions)
            if delta.empty:
                return results
            puts = {_scram_name(k): _scram_doc(v) for k, v in delta.upserts.items()}
            removals = [_scram_name(k) for k in delta.removals]
            await self._persist("scram", puts, removals, self.scram, self._scram_file, delta)
            return results

    # ---- delegation tokens

    def token_lookup(self, token_id: str, mechanism: str) -> TokenCredential | None:
        """For SCRAM with ``tokenauth=true``: the token's credential, owner and expiry."""
        return self.tokens.scram_credential(token_id, mechanism)

    async def _change_tokens(self, delta: TokenDelta) -> None:
        """Persist ``delta`` (the data directory, or etcd), then apply it. Holds the lock."""
        if delta.empty:
            return
        puts = {i: json.dumps(token_doc(t), sort_keys=True).encode() for i, t in delta.upserts.items()}
        await self._persist("tokens", puts, sorted(delta.removals), self.tokens, self._token_file, delta)

    async def _change_tokens_by(self, prepare: Callable[[], Outcome]) -> Outcome:
        """Under the lock: ``prepare()`` the outcome of a token API, then make its delta durable."""
        async with self._lock:
            outcome = prepare()
            await self._change_tokens(outcome.delta)
            return outcome

    async def create_token(
        self,
        now_ms: int,
        requester: KafkaPrincipal,
        owner: KafkaPrincipal,
        renewers: Sequence[KafkaPrincipal],
        max_lifetime_ms: int,
    ) -> CreateOutcome:
        return await self._change_tokens_by(
            lambda: self.tokens.prepare_create(now_ms, requester, owner, renewers, max_lifetime_ms)
        )

    async def renew_token(
        self, now_ms: int, principal: KafkaPrincipal, hmac: bytes, renew_period_ms: int
    ) -> ChangeOutcome:
        return await self._change_tokens_by(lambda: self.tokens.prepare_renew(now_ms, principal, hmac, renew_period_ms))

    async def expire_token(
        self, now_ms: int, principal: KafkaPrincipal, hmac: bytes, expiry_period_ms: int
    ) -> ChangeOutcome:
        return await self._change_tokens_by(
            lambda: self.tokens.prepare_expire(now_ms, principal, hmac, expiry_period_ms)
        )

    async def remove_expired_tokens(self, now_ms: int) -> int:
        """Remove the tokens past their expiry (at most a sweep's worth); how many went."""
        async with self._lock:
            delta = self.tokens.expired(now_ms)
            for token_id in sorted(delta.removals):
                token = self.tokens.get(token_id)
                owner = "" if token is None else str(token.owner)
                log.info("delegation_token_expired", token_id=token_id, owner=owner)
            await self._change_tokens(delta)
            return len(delta.removals)

    async def run_token_expiry(
        self,
        clock: Callable[[], int],
        sweeps_here: Callable[[], bool],
        *,
        task_status: Any = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Every ``delegation.token.expiry.check.interval.ms``, remove the tokens past their
        expiry, where ``sweeps_here()`` says so (the controller, in a cluster). A write that
        fails (etcd away) is tried again at the next interval."""
        task_status.started()
        interval_s = self.tokens.settings.expiry_check_interval_ms / 1000
        while True:
            await trio.sleep(interval_s)
            if not sweeps_here():
                continue
            try:
                await self.remove_expired_tokens(clock())
            except KafkaError as exc:
                log.warning("delegation_token_expiry_failed", error=str(exc))

    # ---- client quotas

    async def alter_client_quotas(
        self, entries: Sequence[AlterEntry], validate_only: bool
    ) -> list[tuple[int, str | None]]:
        async with self._lock:
            results, after = self.client_quotas.prepare_alter(entries)
            if validate_only or after == self.client_quotas.quotas:
                return results
            if self._shared is not None:
                before = self.client_quotas.quotas
                puts = {_quota_name(e): _quota_doc(e, v) for e, v in after.items() if before.get(e) != v}
                deletes = [_quota_name(e) for e in before if e not in after]
                await self._shared.write_documents("quotas", puts, deletes)
                self.follow()
            else:
                await trio.to_thread.run_sync(self._quota_file.save, after)
                self.client_quotas.replace(after)
            return results

    # ---- decisions

    def authorized(
        self, principal: KafkaPrincipal, host: str, operation: AclOperation, resource: ResourceType, name: str
    ) -> bool:
        authorizer = self.authorizer
        return authorizer is None or authorizer.authorize(principal, host, operation, resource, name)

    def describe_state(self) -> dict[str, Any]:
        return {
            "acls": len(self.acls.acls),
            "scram_credentials": len(self.scram.snapshot()),
            "delegation_tokens": len(self.tokens.snapshot()),
        }
