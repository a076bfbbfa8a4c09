"""ACLs with Apache Kafka's StandardAuthorizer semantics, pure.

An ACL says "principal P is ALLOWed/DENYed operation O from host H on resources
matching pattern R". :meth:`Authorizer.authorize` answers one (principal, host,
operation, resource) question exactly as Kafka 4.x does:

1. a principal in ``super.users`` is allowed everything;
2. the ACLs considered are those of the resource's type whose pattern matches
   the name: LITERAL equal to it, LITERAL ``*``, or PREFIXED a prefix of it;
3. an ACL applies when its principal is the caller's or ``User:*``, its host is
   the caller's address or ``*``, and its operation is the one asked, or ALL, or
   for ALLOW ACLs one that implies it (READ, WRITE, DELETE and ALTER imply
   DESCRIBE; ALTER_CONFIGS implies DESCRIBE_CONFIGS);
4. any applicable DENY wins; else any applicable ALLOW allows; else, if no ACL
   at all matched the resource (whoever it names), ``allow.everyone.if.no.acl.found``
   decides; otherwise denied.

CreateAcls/DescribeAcls/DeleteAcls are :meth:`Authorizer.prepare_create`,
:meth:`Authorizer.describe` and :meth:`Authorizer.prepare_delete`: pure
validation returning per-entry results and an :class:`AclDelta` for the shell
to persist (:class:`FileAclPersistence` for the single broker) before
:meth:`Authorizer.apply`. Codes the enums do not know, and filters that can
match nothing sensible, are INVALID_REQUEST (Kafka closes the connection on
unknown codes while parsing; we answer instead).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Final, Protocol

from broker.protocol.acls import AclOperation, AclPermissionType, PatternType, ResourceType
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode

__all__ = [
    "CLUSTER_NAME",
    "IMPLIES_DESCRIBE",
    "IMPLIES_DESCRIBE_CONFIGS",
    "SUPPORTED_OPERATIONS",
    "WILDCARD",
    "WILDCARD_PRINCIPAL",
    "AclBinding",
    "AclBindingFilter",
    "AclDelta",
    "AclOperation",
    "AclPermissionType",
    "AclResult",
    "Authorizer",
    "DeleteFilterResult",
    "FileAclPersistence",
    "PatternType",
    "ResourceType",
    "acl_document",
    "acl_from_document",
    "authorization_error",
    "parse_super_users",
]

WILDCARD: Final = "*"
CLUSTER_NAME: Final = "kafka-cluster"
WILDCARD_PRINCIPAL: Final = KafkaPrincipal("User", "*")


_O = AclOperation
IMPLIES_DESCRIBE: Final = frozenset({_O.DESCRIBE, _O.READ, _O.WRITE, _O.DELETE, _O.ALTER})
IMPLIES_DESCRIBE_CONFIGS: Final = frozenset({_O.DESCRIBE_CONFIGS, _O.ALTER_CONFIGS})

# Kafka's AclEntry.supportedOperations: what "authorized operations" bitfields
# (Metadata, DescribeGroups, DescribeCluster, *GroupDescribe) are computed over.
SUPPORTED_OPERATIONS: Final[dict[ResourceType, tuple[AclOperation, ...]]] = {
    ResourceType.TOPIC: (
        _O.READ,
        _O.WRITE,
        _O.CREATE,
        _O.DESCRIBE,
        _O.DELETE,
        _O.ALTER,
        _O.DESCRIBE_CONFIGS,
        _O.ALTER_CONFIGS,
    ),
    ResourceType.GROUP: (_O.READ, _O.DESCRIBE, _O.DELETE, _O.DESCRIBE_CONFIGS, _O.ALTER_CONFIGS),
    ResourceType.CLUSTER: (
        _O.CREATE,
        _O.CLUSTER_ACTION,
        _O.DESCRIBE_CONFIGS,
        _O.ALTER_CONFIGS,
        _O.IDEMPOTENT_WRITE,
        _O.ALTER,
        _O.DESCRIBE,
    ),
    ResourceType.TRANSACTIONAL_ID: (_O.DESCRIBE, _O.WRITE),
    ResourceType.DELEGATION_TOKEN: (_O.DESCRIBE,),
    ResourceType.USER: (_O.CREATE_TOKENS, _O.DESCRIBE_TOKENS),
}

_AUTH_ERRORS = {
    ResourceType.TOPIC: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
    ResourceType.GROUP: ErrorCode.GROUP_AUTHORIZATION_FAILED,
    ResourceType.CLUSTER: ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
    ResourceType.TRANSACTIONAL_ID: ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
    ResourceType.DELEGATION_TOKEN: ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED,
}


def authorization_error(resource_type: ResourceType) -> ErrorCode:
    """The error a denied check on this resource type answers with (Kafka's AclEntry)."""
    try:
        return _AUTH_ERRORS[resource_type]
    except KeyError:
        raise ValueError(f"no authorization error for {resource_type.name}") from None


def parse_super_users(text: str | None) -> frozenset[str]:
    """``super.users``: principals separated by semicolons (DNs contain commas)."""
    if not text:
        return frozenset()
    return frozenset(p.strip() for p in text.split(";") if p.strip())


@dataclass(frozen=True, slots=True)
class AclBinding:
    resource_type: ResourceType
    resource_name: str
    pattern_type: PatternType
    principal: str
    host: str
    operation: AclOperation
    permission: AclPermissionType

    def matches_resource(self, name: str) -> bool:
        if self.pattern_type is PatternType.LITERAL:
            return self.resource_name == name or self.resource_name == WILDCARD
        return name.startswith(self.resource_name)  # PREFIXED


def _enum(cls: type[IntEnum], code: int) -> IntEnum | None:
    try:
        return cls(code)
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class AclBindingFilter:
    """DescribeAcls / DeleteAcls filter; None (or ANY) fields match anything."""

    resource_type: ResourceType = ResourceType.ANY
    resource_name: str | None = None
    pattern_type: PatternType = PatternType.ANY
    principal: str | None = None
    host: str | None = None
    operation: AclOperation = AclOperation.ANY
    permission: AclPermissionType = AclPermissionType.ANY

    @classmethod
    def from_codes(
        cls,
        resource_type: int,
        resource_name: str | None,
        pattern_type: int,
        principal: str | None,
        host: str | None,
        operation: int,
        permission: int,
    ) -> AclBindingFilter | str:
        """The filter, or the INVALID_REQUEST message for codes that are UNKNOWN or unknown."""
        rt, pt = _enum(ResourceType, resource_type), _enum(PatternType, pattern_type)
        op, perm = _enum(AclOperation, operation), _enum(AclPermissionType, permission)
        if None in (rt, pt, op, perm) or ResourceType.UNKNOWN in (rt,) or PatternType.UNKNOWN in (pt,):
            return "The filter contains UNKNOWN elements"
        if op is AclOperation.UNKNOWN or perm is AclPermissionType.UNKNOWN:
            return "The filter contains UNKNOWN elements"
        assert isinstance(rt, ResourceType) and isinstance(pt, PatternType)
        assert isinstance(op, AclOperation) and isinstance(perm, AclPermissionType)
        return cls(rt, resource_name, pt, principal, host, op, perm)

    def matches(self, acl: AclBinding) -> bool:
        if self.resource_type is not ResourceType.ANY and self.resource_type is not acl.resource_type:
            return False
        pt = self.pattern_type
        if pt not in (PatternType.ANY, PatternType.MATCH) and pt is not acl.pattern_type:
            return False
        if self.resource_name is not None:
            if pt in (PatternType.ANY, acl.pattern_type):
                if self.resource_name != acl.resource_name:
                    return False
            elif not acl.matches_resource(self.resource_name):  # MATCH
                return False
        if self.principal is not None and self.principal != acl.principal:
            return False
        if self.host is not None and self.host != acl.host:
            return False
        if self.operation is not AclOperation.ANY and self.operation is not acl.operation:
            return False
        return self.permission is AclPermissionType.ANY or self.permission is acl.permission


@dataclass(frozen=True, slots=True)
class AclResult:
    error_code: int = ErrorCode.NONE
    error_message: str | None = None


@dataclass(frozen=True, slots=True)
class DeleteFilterResult:
    error_code: int = ErrorCode.NONE
    error_message: str | None = None
    matching: tuple[AclBinding, ...] = ()


@dataclass(frozen=True, slots=True)
class AclDelta:
    added: tuple[AclBinding, ...] = ()
    removed: frozenset[AclBinding] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.added and not self.removed


class AclPersistence(Protocol):
    def load(self) -> list[AclBinding]: ...

    def save(self, acls: Sequence[AclBinding]) -> None: ...


def _finding(acl: AclBinding, operation: AclOperation, principals: tuple[str, str], host: str) -> AclPermissionType:
    """ALLOW/DENY if ``acl`` applies to the question, else ANY (no opinion)."""
    if acl.principal not in principals:
        return AclPermissionType.ANY
    if acl.host != WILDCARD and acl.host != host:
        return AclPermissionType.ANY
    if acl.operation is not AclOperation.ALL:
        if acl.permission is AclPermissionType.ALLOW:
            if operation is AclOperation.DESCRIBE:
                if acl.operation not in IMPLIES_DESCRIBE:
                    return AclPermissionType.ANY
            elif operation is AclOperation.DESCRIBE_CONFIGS:
                if acl.operation not in IMPLIES_DESCRIBE_CONFIGS:
                    return AclPermissionType.ANY
            elif operation is not acl.operation:
                return AclPermissionType.ANY
        elif operation is not acl.operation:
            return AclPermissionType.ANY
    return acl.permission


class Authorizer:
    """The ACL set and the decisions made from it. See the module docstring."""

    def __init__(
        self,
        acls: Iterable[AclBinding] = (),
        *,
        super_users: Iterable[str] = (),
        allow_everyone_if_no_acl_found: bool = False,
    ) -> None:
        self.super_users = frozenset(super_users)
        self.allow_everyone_if_no_acl_found = allow_everyone_if_no_acl_found
        self._acls: dict[AclBinding, None] = dict.fromkeys(acls)  # insertion-ordered set
        self._by_type: dict[ResourceType, list[AclBinding]] = {}
        self._reindex()

    def _reindex(self) -> None:
        by_type: dict[ResourceType, list[AclBinding]] = {}
        for acl in self._acls:
            by_type.setdefault(acl.resource_type, []).append(acl)
        self._by_type = by_type

    @property
    def acls(self) -> list[AclBinding]:
        return list(self._acls)

    # ---- decisions

    def authorize(
        self, principal: KafkaPrincipal, host: str, operation: AclOperation, resource_type: ResourceType, name: str
    ) -> bool:
        """May ``principal`` from ``host`` perform ``operation`` on the LITERAL resource ``name``?"""
        text = str(principal)
        if text in self.super_users:
            return True
        principals = (text, str(WILDCARD_PRINCIPAL))
        matched_any = False
        allowed = False
        for acl in self._by_type.get(resource_type, ()):
            if not acl.matches_resource(name):
                continue
            matched_any = True
            finding = _finding(acl, operation, principals, host)
            if finding is AclPermissionType.DENY:
                return False
            if finding is AclPermissionType.ALLOW:
                allowed = True
        if allowed:
            return True
        return not matched_any and self.allow_everyone_if_no_acl_found

    def filter_authorized(
        self,
        principal: KafkaPrincipal,
        host: str,
        operation: AclOperation,
        resource_type: ResourceType,
        names: Iterable[str],
    ) -> set[str]:
        """The subset of ``names`` the principal may act on (Kafka's filterByAuthorized)."""
        return {n for n in set(names) if self.authorize(principal, host, operation, resource_type, n)}

    def authorized_operations(
        self, principal: KafkaPrincipal, host: str, resource_type: ResourceType, name: str
    ) -> int:
        """The 32-bit field of allowed operations (bit = operation code) for *AuthorizedOperations fields."""
        bits = 0
        for op in SUPPORTED_OPERATIONS[resource_type]:
            if self.authorize(principal, host, op, resource_type, name):
                bits |= 1 << op
        return bits

    def authorize_by_resource_type(
        self, principal: KafkaPrincipal, host: str, operation: AclOperation, resource_type: ResourceType
    ) -> bool:
        """Could the principal perform ``operation`` on *some* resource of the type? (Kafka's default
        Authorizer.authorizeByResourceType, used by InitProducerId for idempotent producers.)"""
        if operation in (AclOperation.ANY, AclOperation.UNKNOWN) or resource_type in (
            ResourceType.ANY,
            ResourceType.UNKNOWN,
        ):
            raise ValueError("authorize_by_resource_type needs a concrete operation and resource type")
        if self.authorize(principal, host, operation, resource_type, "hardcode"):
            return True
        text = str(principal)
        deny_literal: set[str] = set()
        deny_prefixed: set[str] = set()
        allow_literal: set[str] = set()
        allow_prefixed: set[str] = set()
        for acl in self._by_type.get(resource_type, ()):
            if acl.host not in (host, WILDCARD):
                continue
            if acl.principal not in (text, str(WILDCARD_PRINCIPAL)):
                continue
            if acl.operation not in (operation, AclOperation.ALL):
                continue
            literal = acl.pattern_type is PatternType.LITERAL
            if acl.permission is AclPermissionType.DENY:
                if literal and acl.resource_name == WILDCARD:
                    return False
                (deny_literal if literal else deny_prefixed).add(acl.resource_name)
            elif acl.permission is AclPermissionType.ALLOW:
                if literal and acl.resource_name == WILDCARD:
                    return True
                (allow_literal if literal else allow_prefixed).add(acl.resource_name)
        for literal, names in ((True, allow_literal), (False, allow_prefixed)):
            for name in names:
                if literal and name in deny_literal:
                    continue
                if any(name[:i] in deny_prefixed for i in range(1, len(name) + 1)):
                    continue
                return True
        return False

    # ---- CreateAcls / DescribeAcls / DeleteAcls

    def describe(self, flt: AclBindingFilter) -> list[AclBinding]:
        return [acl for acl in self._acls if flt.matches(acl)]

    def prepare_create(
        self, creations: Sequence[tuple[int, str, int, str, str, int, int]], *, api_version: int = 3
    ) -> tuple[list[AclResult], AclDelta]:
        """Each creation is (resource type, name, pattern type, principal, host, operation, permission) codes."""
        results: list[AclResult] = []
        added: dict[AclBinding, None] = {}
        for creation in creations:
            outcome = _validate_creation(creation, api_version)
            if isinstance(outcome, AclResult):
                results.append(outcome)
                continue
            if outcome not in self._acls:
                added[outcome] = None
            results.append(AclResult())
        return results, AclDelta(added=tuple(added))

    def prepare_delete(self, filters: Sequence[AclBindingFilter | str]) -> tuple[list[DeleteFilterResult], AclDelta]:
        """Filters (or the INVALID_REQUEST message :meth:`AclBindingFilter.from_codes` gave)."""
        results: list[DeleteFilterResult] = []
        removed: set[AclBinding] = set()
        for flt in filters:
            if isinstance(flt, str):
                results.append(DeleteFilterResult(ErrorCode.INVALID_REQUEST, flt))
                continue
            matching = tuple(acl for acl in self._acls if flt.matches(acl))
            removed.update(matching)
            results.append(DeleteFilterResult(matching=matching))
        return results, AclDelta(removed=frozenset(removed))

    def preview(self, delta: AclDelta) -> list[AclBinding]:
        after = [acl for acl in self._acls if acl not in delta.removed]
        after.extend(a for a in delta.added if a not in self._acls)
        return after

    def apply(self, delta: AclDelta) -> None:
        self._acls = dict.fromkeys(self.preview(delta))
        self._reindex()

    def replace(self, acls: Iterable[AclBinding]) -> None:
        """Every ACL at once (loaded from a file, or followed from the cluster)."""
        self._acls = dict.fromkeys(acls)
        self._reindex()


def _validate_creation(creation: tuple[int, str, int, str, str, int, int], api_version: int) -> AclBinding | AclResult:
    rt_code, name, pt_code, principal, host, op_code, perm_code = creation
    rt, pt = _enum(ResourceType, rt_code), _enum(PatternType, pt_code)
    op, perm = _enum(AclOperation, op_code), _enum(AclPermissionType, perm_code)

    def invalid(message: str) -> AclResult:
        return AclResult(ErrorCode.INVALID_REQUEST, message)

    if rt in (None, ResourceType.UNKNOWN) or pt in (None, PatternType.UNKNOWN):
        return invalid("CreatableAcls contain unknown elements")
    if op in (None, AclOperation.UNKNOWN) or perm in (None, AclPermissionType.UNKNOWN):
        return invalid("CreatableAcls contain unknown elements")
    assert isinstance(rt, ResourceType) and isinstance(pt, PatternType)
    assert isinstance(op, AclOperation) and isinstance(perm, AclPermissionType)
    if api_version == 0 and pt is not PatternType.LITERAL:
        return AclResult(ErrorCode.UNSUPPORTED_VERSION, "Version 0 only supports literal resource pattern types")
    if rt is ResourceType.CLUSTER and name != CLUSTER_NAME:
        return invalid(f"The only valid name for the CLUSTER resource is {CLUSTER_NAME}")
    if not name:
        return invalid("Invalid empty resource name")
    if rt is ResourceType.ANY:
        return invalid(f"Invalid resourceType {rt.name}")
    if pt not in (PatternType.LITERAL, PatternType.PREFIXED):
        return invalid(f"Invalid patternType {pt.name}")
    if op is AclOperation.ANY:
        return invalid(f"Invalid operation {op.name}")
    if perm is AclPermissionType.ANY:
        return invalid(f"Invalid permissionType {perm.name}")
    try:
        KafkaPrincipal.parse(principal)
    except ValueError as exc:
        return invalid(str(exc))
    if not host:
        return invalid("Invalid empty host")
    return AclBinding(rt, name, pt, principal, host, op, perm)


def acl_document(acl: AclBinding) -> dict[str, str]:
    """An ACL as stored (in the ACL file, or as an etcd document): its fields by name."""
    return {
        "resource_type": acl.resource_type.name,
        "resource_name": acl.resource_name,
        "pattern_type": acl.pattern_type.name,
        "principal": acl.principal,
        "host": acl.host,
        "operation": acl.operation.name,
        "permission": acl.permission.name,
    }


def acl_from_document(doc: Mapping[str, str]) -> AclBinding:
    """The ACL that :func:`acl_document` stored (KeyError for a field missing or unknown)."""
    return AclBinding(
        ResourceType[doc["resource_type"]],
        doc["resource_name"],
        PatternType[doc["pattern_type"]],
        doc["principal"],
        doc["host"],
        AclOperation[doc["operation"]],
        AclPermissionType[doc["permission"]],
    )


@dataclass
class FileAclPersistence:
    """Every ACL in one JSON file, replaced atomically."""

    path: Path
    _version: int = field(default=1, repr=False)

    def load(self) -> list[AclBinding]:
        try:
            doc = json.loads(Path(self.path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except ValueError as exc:
            raise ValueError(f"{self.path}: not an ACL file: {exc}") from None
        try:
            return [acl_from_document(row) for row in doc["acls"]]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{self.path}: not an ACL file: {exc!r}") from None

    def save(self, acls: Sequence[AclBinding]) -> None:
        rows = [acl_document(a) for a in acls]
        path = Path(self.path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps({"version": self._version, "acls": rows}, indent=1) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
