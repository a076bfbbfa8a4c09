"""ACLs, SCRAM users and transactions.

Requests per refresh: ACLs, one DescribeAcls (any resource); users, one
DescribeUserScramCredentials (all users); transactions, ListTransactions to every
broker and one DescribeTransactions per coordinator for the open ones.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from broker.admin.client import COORDINATOR_TRANSACTION, AdminClient, AdminError, KafkaApiError, error_name
from broker.protocol.acls import AclOperation, AclPermissionType, PatternType, ResourceType
from broker.protocol.errors import ErrorCode
from broker.ui.data import Unavailable
from broker.ui.data.coordinators import describe_at_coordinators

_RESOURCE_TYPES = {int(rt): rt.name for rt in ResourceType if rt >= ResourceType.TOPIC}
_PATTERNS = {int(pt): pt.name for pt in PatternType if pt >= PatternType.ANY}
_PERMISSIONS = {int(p): p.name for p in AclPermissionType if p >= AclPermissionType.DENY}
_OPERATIONS = {int(op): op.name for op in AclOperation if op >= AclOperation.ALL}
_SCRAM = {1: "SCRAM-SHA-256", 2: "SCRAM-SHA-512"}


@dataclass(slots=True)
class AclRow:
    resource_type: str
    resource_name: str
    pattern: str
    principal: str
    host: str
    operation: str
    permission: str


@dataclass(slots=True)
class UserRow:
    user: str
    credentials: list[str]


@dataclass(slots=True)
class TxnRow:
    transactional_id: str
    producer_id: int
    state: str
    coordinator: int
    timeout_ms: int | None = None
    start_ms: int | None = None
    partitions: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def open_for_s(self) -> float | None:
        if self.start_ms is None or self.start_ms < 0 or self.state not in ("Ongoing", "PrepareCommit", "PrepareAbort"):
            return None
        return max(0.0, time.time() - self.start_ms / 1000)

    @property
    def past_timeout(self) -> bool:
        """Open for longer than its own transaction.timeout.ms: the coordinator should have aborted it."""
        age = self.open_for_s
        return age is not None and self.timeout_ms is not None and age * 1000 > self.timeout_ms


def acls(admin: AdminClient) -> list[AclRow] | Unavailable:
    from broker.protocol.messages.describe_acls_request import DescribeAclsRequest

    req = DescribeAclsRequest(
        resource_type_filter=1,  # ANY
        resource_name_filter=None,
        pattern_type_filter=1,  # ANY
        principal_filter=None,
        host_filter=None,
        operation=1,  # ANY
        permission_type=1,  # ANY
    )
    resp = admin.send(req)
    if resp.error_code == ErrorCode.SECURITY_DISABLED:
        return Unavailable("the cluster has no authorizer configured (SECURITY_DISABLED)")
    if resp.error_code:
        raise KafkaApiError(resp.error_code, resp.error_message, "DescribeAcls")
    rows = [
        AclRow(
            _RESOURCE_TYPES.get(r.resource_type, str(r.resource_type)),
            r.resource_name,
            _PATTERNS.get(r.pattern_type, str(r.pattern_type)),
            a.principal,
            a.host,
            _OPERATIONS.get(a.operation, str(a.operation)),
            _PERMISSIONS.get(a.permission_type, str(a.permission_type)),
        )
        for r in resp.resources
        for a in r.acls
    ]
    return sorted(rows, key=lambda a: (a.resource_type, a.resource_name, a.principal, a.operation))


def scram_users(admin: AdminClient) -> list[UserRow] | Unavailable:
    from broker.protocol.messages.describe_user_scram_credentials_request import DescribeUserScramCredentialsRequest

    try:
        resp = admin.send(DescribeUserScramCredentialsRequest(users=None))
    except AdminError as exc:
        return Unavailable(f"DescribeUserScramCredentials: {exc}")
    if resp.error_code:
        raise KafkaApiError(resp.error_code, resp.error_message, "DescribeUserScramCredentials")
    rows = []
    for r in resp.results:
        if r.error_code and r.error_code != ErrorCode.RESOURCE_NOT_FOUND:
            rows.append(UserRow(r.user, [f"{error_name(r.error_code)}: {r.error_message or ''}"]))
            continue
        rows.append(
            UserRow(
                r.user,
                [f"{_SCRAM.get(c.mechanism, c.mechanism)} ({c.iterations} iterations)" for c in r.credential_infos],
            )
        )
    return sorted(rows, key=lambda u: u.user)


def transactions(admin: AdminClient) -> list[TxnRow]:
    from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest

    rows = {
        s.transactional_id: TxnRow(s.transactional_id, s.producer_id, s.transaction_state, coord)
        for coord, s in admin.list_transactions()
    }
    if not rows:
        return []
    for _, _, described in describe_at_coordinators(
        admin,
        rows,
        lambda ids: DescribeTransactionsRequest(transactional_ids=ids),
        _transaction_states,
        COORDINATOR_TRANSACTION,
    ):
        for row, s in described:
            row.state = s.transaction_state
            row.timeout_ms = s.transaction_timeout_ms
            row.start_ms = s.transaction_start_time_ms
            row.partitions = [f"{t.topic}-{p}" for t in s.topics for p in t.partitions]
    return sorted(rows.values(), key=lambda r: (r.open_for_s is None, r.transactional_id))


def _transaction_states(resp: Any) -> Iterator[tuple[str, Any, str | None]]:
    for s in resp.transaction_states:
        yield s.transactional_id, s, error_name(s.error_code) if s.error_code else None


def abort_open_transaction(admin: AdminClient, topic: str, partition: int, start_offset: int) -> None:
    """Abort the transaction open at ``start_offset`` on one partition (kafka-transactions.sh
    abort --start-offset): DescribeProducers finds the producer, WriteTxnMarkers aborts."""
    producers = admin.describe_producers(topic, partition)
    found = [p for p in producers if p.current_txn_start_offset == start_offset]
    if not found:
        raise KafkaApiError(
            ErrorCode.INVALID_TXN_STATE, f"no open transaction starts at offset {start_offset} on {topic}-{partition}"
        )
    p = found[0]
    admin.abort_transaction(topic, partition, p.producer_id, p.producer_epoch, max(p.coordinator_epoch, 0))


@dataclass(slots=True)
class ProducerRow:
    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int
    txn_start_offset: int


def open_producers(admin: AdminClient, topic: str, partition: int) -> list[ProducerRow]:
    return [
        ProducerRow(
            p.producer_id,
            p.producer_epoch,
            p.last_sequence,
            p.last_timestamp,
            p.coordinator_epoch,
            p.current_txn_start_offset,
        )
        for p in admin.describe_producers(topic, partition)
    ]
