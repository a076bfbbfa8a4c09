"""ACL enforcement for every API, in one place, before and after the handler.

When an authorizer runs (``authorizer.class.name``), the dispatcher asks
:func:`authorize` for a :class:`Plan` before calling a handler. Each API has a
rule here (``RULES``), following ``broker.security.api_acls`` (which operation on
which resource Kafka 4.4's ``KafkaApis`` checks) and Kafka's way of answering a
denial:

* **Whole request**: a denied check on the one resource the request is about
  (the group of JoinGroup, the transactional id of EndTxn, the cluster of
  CreateAcls) answers the API's error response with that code; the handler is
  not called.
* **Per entity**: where the response has an error per topic, partition, group or
  resource, the entities the principal may not touch are taken out of the request
  the handler sees and answered with ``TOPIC_AUTHORIZATION_FAILED``,
  ``GROUP_AUTHORIZATION_FAILED``, ... next to the handler's answers for the rest
  (the error entries are built by :func:`broker.protocol.error_response.error_response`
  from the denied part of the request, so they carry the same identifying fields).
* **Listings** (Metadata for all topics, ListGroups, OffsetFetch of all topics,
  ListTransactions) leave out what the principal may not describe.
* **Authorized operations** fields (Metadata, DescribeGroups, DescribeCluster,
  DescribeTopicPartitions, the KIP-848/932/1071 group describes) get the
  principal's operations instead of every operation.

Kafka checks existence after authorization, so an unknown topic the principal
may not describe is TOPIC_AUTHORIZATION_FAILED, never UNKNOWN_TOPIC_OR_PARTITION.
Topics named by id resolve through the metadata image; an unknown id is left to
the handler (UNKNOWN_TOPIC_ID).

An API served without a rule is refused (CLUSTER_AUTHORIZATION_FAILED) rather
than served unchecked; ``tests/unit/test_authz.py`` keeps every served API covered.

Difference from Kafka: Fetch and ShareFetch sessions are checked on the
partitions a request names, so a partition that entered a session before an ACL
was removed keeps being served until the session is re-created.
"""

from __future__ import annotations

import dataclasses
import struct
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from broker.handlers.context import RequestContext
from broker.protocol.api_keys import ApiKey
from broker.protocol.error_response import error_response
from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages import RESPONSES
from broker.security.authorizer import (
    CLUSTER_NAME,
    AclOperation,
    Authorizer,
    ResourceType,
)

__all__ = ["NO_ACL_APIS", "RULES", "Plan", "authorize"]

_O = AclOperation
_T, _G, _C, _X = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER, ResourceType.TRANSACTIONAL_ID
E = ErrorCode
TOPIC_DENIED = E.TOPIC_AUTHORIZATION_FAILED
GROUP_DENIED = E.GROUP_AUTHORIZATION_FAILED
CLUSTER_DENIED = E.CLUSTER_AUTHORIZATION_FAILED
TXN_DENIED = E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
OMITTED = -(2**31)
UUID_ZERO = uuid.UUID(int=0)
# Config resource types (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs).
_RT_TOPIC, _RT_BROKER, _RT_BROKER_LOGGER, _RT_CLIENT_METRICS, _RT_GROUP = 2, 4, 8, 16, 32

# APIs a client may use with no ACL (as in Kafka): version negotiation, authentication and
# client telemetry (KIP-714: every client may push its own metrics).
NO_ACL_APIS = frozenset(
    {
        ApiKey.API_VERSIONS,
        ApiKey.SASL_HANDSHAKE,
        ApiKey.SASL_AUTHENTICATE,
        ApiKey.GET_TELEMETRY_SUBSCRIPTIONS,
        ApiKey.PUSH_TELEMETRY,
    }
)

After = Callable[[Any], Any]


@dataclasses.dataclass(slots=True)
class Plan:
    """What to do with one request: ``response`` answers it without the handler;
    otherwise the handler gets ``request`` and ``after`` adjusts its response."""

    request: Any = None
    after: After | None = None
    response: Any = None


class _Check:
    """Decisions for one request, cached per (operation, resource)."""

    __slots__ = ("_cache", "authorizer", "ctx", "host", "principal", "version")

    def __init__(self, ctx: RequestContext, authorizer: Authorizer) -> None:
        self.ctx = ctx
        self.authorizer = authorizer
        self.principal = ctx.connection.principal
        self.host = ctx.connection.host
        self.version = ctx.api_version
        self._cache: dict[tuple[AclOperation, ResourceType, str], bool] = {}

    def ok(self, op: AclOperation, rt: ResourceType, name: str | None) -> bool:
        if name is None:
            return False
        key = (op, rt, name)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.authorizer.authorize(self.principal, self.host, op, rt, name)
        return hit

    def cluster(self, op: AclOperation) -> bool:
        return self.ok(op, _C, CLUSTER_NAME)

    def ops(self, rt: ResourceType, name: str) -> int:
        return self.authorizer.authorized_operations(self.principal, self.host, rt, name)

    def topic_name(self, name: str | None, topic_id: uuid.UUID | None) -> str | None:
        """The topic's name (looked up by id when the request names it by id); None: unknown id."""
        if topic_id is not None and topic_id != UUID_ZERO:
            topic = self.ctx.services.metadata.image.topic_by_id(topic_id)
            return None if topic is None else topic.name
        return name

    def topic_known(self, name: str) -> bool:
        return self.ctx.services.metadata.image.topic(name) is not None

    def whole(self, body: Message, code: int, message: str | None = None) -> Plan:
        response = error_response(body, RESPONSES[body.API_KEY], self.version, code, message)
        return Plan(response=_one_result_per_entry(body, response, code, message))


# --------------------------------------------------------------------------- helpers


def _entries(denied: Message, version: int, code: int, message: str | None = None) -> Message:
    """Error entries for every entity of ``denied`` (the response's top-level error left at NONE)."""
    resp = error_response(denied, RESPONSES[denied.API_KEY], version, code, message)
    for name in ("error_code", "error_message"):
        if hasattr(resp, name):
            setattr(resp, name, 0 if name == "error_code" else None)
    return resp


def _one_result_per_entry(body: Any, resp: Any, code: int, message: str | None) -> Any:
    """APIs whose results carry no identifying field answer a refused request with one result
    per entry of the request, in order (CreateAcls, DeleteAcls, AlterUserScramCredentials)."""
    if body.API_KEY == ApiKey.ALTER_USER_SCRAM_CREDENTIALS:
        from broker.protocol.messages.alter_user_scram_credentials_response import AlterUserScramCredentialsResult

        users = dict.fromkeys([d.name for d in body.deletions] + [u.name for u in body.upsertions])
        resp.results = [AlterUserScramCredentialsResult(user=u, error_code=code, error_message=message) for u in users]
        return resp
    text = message or ErrorCode(code).message
    if body.API_KEY == ApiKey.CREATE_ACLS:
        from broker.protocol.messages.create_acls_response import AclCreationResult

        resp.results = [AclCreationResult(error_code=code, error_message=text) for _ in body.creations]
    elif body.API_KEY == ApiKey.DELETE_ACLS:
        from broker.protocol.messages.delete_acls_response import DeleteAclsFilterResult

        resp.filter_results = [DeleteAclsFilterResult(error_code=code, error_message=text) for _ in body.filters]
    return resp


def _merge(resp: Any, extra: Any) -> Any:
    """Append ``extra``'s entity lists to ``resp``'s (the denied entities' answers)."""
    if resp is None or resp is False:
        return resp
    for f in dataclasses.fields(resp):
        more = getattr(extra, f.name, None)
        if isinstance(more, list) and more and dataclasses.is_dataclass(more[0]):
            current = getattr(resp, f.name)
            if current is None:
                setattr(resp, f.name, list(more))
            else:
                current.extend(more)
    return resp


def _split(
    check: _Check, body: Any, field: str, verdict: Callable[[Any], int | None], message: str | None = None
) -> tuple[Any, list[Any]]:
    """``body`` with the denied items of list ``field`` taken out, and the error entries
    for them (one partial response per error code)."""
    items = getattr(body, field) or []
    allowed: list[Any] = []
    denied: dict[int, list[Any]] = {}
    for item in items:
        code = verdict(item)
        if code is None:
            allowed.append(item)
        else:
            denied.setdefault(code, []).append(item)
    if not denied:
        return body, []
    extras = [
        _entries(dataclasses.replace(body, **{field: group}), check.version, code, message)
        for code, group in denied.items()
    ]
    return dataclasses.replace(body, **{field: allowed}), extras


def _then(*steps: After | None) -> After | None:
    real = [s for s in steps if s is not None]
    if not real:
        return None

    def run(resp: Any) -> Any:
        for step in real:
            if resp is None or resp is False:
                return resp
            resp = step(resp)
        return resp

    return run


def _merging(extras: list[Message]) -> After | None:
    if not extras:
        return None

    def merge(resp: Any) -> Any:
        for extra in extras:
            resp = _merge(resp, extra)
        return resp

    return merge


def _per_entity(
    check: _Check,
    body: Message,
    field: str,
    verdict: Callable[[Any], int | None],
    after: After | None = None,
    message: str | None = None,
) -> Plan:
    request, extras = _split(check, body, field, verdict, message)
    return Plan(request=request, after=_then(after, _merging(extras)))


def _topic_verdict(
    check: _Check, op: AclOperation, name_attr: str = "name", id_attr: str | None = None
) -> Callable[[Any], int | None]:
    def verdict(item: Any) -> int | None:
        topic_id = getattr(item, id_attr, None) if id_attr else None
        name = check.topic_name(getattr(item, name_attr, None), topic_id)
        if name is None:
            return None  # unknown topic id: the handler answers UNKNOWN_TOPIC_ID
        return None if check.ok(op, _T, name) else TOPIC_DENIED

    return verdict


def _named(op: AclOperation, rt: ResourceType, code: int, check: _Check) -> Callable[[Any], int | None]:
    return lambda name: None if check.ok(op, rt, name) else code


def _fix_records(resp: Any) -> Any:
    """Denied partitions of (Share)Fetch carry empty, never null, records."""
    for topic in getattr(resp, "responses", ()) or ():
        for p in topic.partitions:
            if getattr(p, "records", b"") is None:
                p.records = b""
    return resp


# --------------------------------------------------------------------------- the rules

Rule = Callable[[_Check, Any], Plan]
RULES: dict[int, Rule] = {}


def rule(*keys: int) -> Callable[[Rule], Rule]:
    def register(fn: Rule) -> Rule:
        for k in keys:
            RULES[k] = fn
        return fn

    return register


_TXN_BIT = 0x10


def _has_transactional_records(body: Any) -> bool:
    """Kafka's RequestUtils.hasTransactionalRecords: the first batch of any partition is transactional."""
    for topic in body.topic_data:
        for p in topic.partition_data:
            records = p.records
            if records is not None and len(records) >= 23:
                attributes = struct.unpack_from(">h", records, 21)[0]
                if attributes & _TXN_BIT:
                    return True
    return False


@rule(ApiKey.PRODUCE)
def _produce(c: _Check, body: Any) -> Plan:
    if _has_transactional_records(body) and not (
        body.transactional_id is not None and c.ok(_O.WRITE, _X, body.transactional_id)
    ):
        if body.acks == 0:
            return Plan(request=dataclasses.replace(body, topic_data=[]))
        return c.whole(body, TXN_DENIED)
    return _per_entity(c, body, "topic_data", _topic_verdict(c, _O.WRITE, "name", "topic_id"))


def _is_follower(body: Any, version: int) -> bool:
    replica = body.replica_state.replica_id if version >= 15 else body.replica_id
    return replica >= 0


@rule(ApiKey.FETCH)
def _fetch(c: _Check, body: Any) -> Plan:
    if _is_follower(body, c.version):
        if c.cluster(_O.CLUSTER_ACTION):
            return Plan(request=body)
        return Plan(response=_fix_records(_entries(body, c.version, TOPIC_DENIED)))
    plan = _per_entity(c, body, "topics", _topic_verdict(c, _O.READ, "topic", "topic_id"))
    plan.after = _then(plan.after, _fix_records)
    return plan


@rule(ApiKey.LIST_OFFSETS)
def _list_offsets(c: _Check, body: Any) -> Plan:
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.DESCRIBE))


@rule(ApiKey.METADATA)
def _metadata(c: _Check, body: Any) -> Plan:
    all_topics = body.topics is None or (c.version == 0 and not body.topics)
    allow_create = bool(body.allow_auto_topic_creation) and bool(c.ctx.services.config.get("auto.create.topics.enable"))

    def verdict(t: Any) -> int | None:
        name = c.topic_name(t.name, t.topic_id)
        if name is None:
            return None
        if not c.ok(_O.DESCRIBE, _T, name):
            return TOPIC_DENIED
        if allow_create and not c.topic_known(name) and not c.cluster(_O.CREATE) and not c.ok(_O.CREATE, _T, name):
            return TOPIC_DENIED
        return None

    def fill(resp: Any) -> Any:
        if all_topics:
            resp.topics = [t for t in resp.topics if t.name is not None and c.ok(_O.DESCRIBE, _T, t.name)]
        if c.version >= 8 and body.include_topic_authorized_operations:
            for t in resp.topics:
                if t.name is not None:
                    t.topic_authorized_operations = c.ops(_T, t.name)
        if 8 <= c.version <= 10 and body.include_cluster_authorized_operations:
            resp.cluster_authorized_operations = c.ops(_C, CLUSTER_NAME) if c.cluster(_O.DESCRIBE) else 0
        return resp

    if all_topics:
        return Plan(request=body, after=fill)
    return _per_entity(c, body, "topics", verdict, after=fill)


@rule(ApiKey.OFFSET_COMMIT)
def _offset_commit(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ, "name", "topic_id"))


@rule(ApiKey.TXN_OFFSET_COMMIT)
def _txn_offset_commit(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.WRITE, _X, body.transactional_id):
        return c.whole(body, TXN_DENIED)
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ))


def _filter_topics(c: _Check, topics: list[Any] | None, name_attr: str = "name") -> list[Any] | None:
    if topics is None:
        return None
    return [t for t in topics if c.ok(_O.DESCRIBE, _T, getattr(t, name_attr))]


@rule(ApiKey.OFFSET_FETCH)
def _offset_fetch(c: _Check, body: Any) -> Plan:
    if c.version < 8:
        if not c.ok(_O.DESCRIBE, _G, body.group_id):
            return c.whole(body, GROUP_DENIED)
        if body.topics is None:
            return Plan(request=body, after=lambda r: _set(r, "topics", _filter_topics(c, r.topics)))
        return _per_entity(c, body, "topics", _topic_verdict(c, _O.DESCRIBE))
    return _groups_with_topics(
        c,
        body,
        topic_name="name",
        denied_group=lambda g: _offset_fetch_group(g.group_id, GROUP_DENIED),
        denied_topic=lambda t, name: _offset_fetch_topic(t, name),
        with_ids=True,
    )


def _set(obj: Any, name: str, value: Any) -> Any:
    setattr(obj, name, value)
    return obj


def _offset_fetch_group(group_id: str, code: int) -> Any:
    from broker.protocol.messages.offset_fetch_response import OffsetFetchResponseGroup

    return OffsetFetchResponseGroup(group_id=group_id, error_code=code, topics=[])


def _offset_fetch_topic(t: Any, name: str) -> Any:
    from broker.protocol.messages.offset_fetch_response import (
        OffsetFetchResponsePartitions,
        OffsetFetchResponseTopics,
    )

    return OffsetFetchResponseTopics(
        name=name if t.topic_id == UUID_ZERO else "",
        topic_id=t.topic_id,
        partitions=[
            OffsetFetchResponsePartitions(partition_index=i, committed_offset=-1, metadata="", error_code=TOPIC_DENIED)
            for i in t.partition_indexes
        ],
    )


def _groups_with_topics(
    c: _Check,
    body: Any,
    *,
    topic_name: str,
    denied_group: Callable[[Any], Any],
    denied_topic: Callable[[Any, str], Any],
    with_ids: bool = False,
) -> Plan:
    """OffsetFetch v8+ and DescribeShareGroupOffsets: groups[] each with topics[] (None: all)."""
    denied_groups: list[Any] = []
    denied_topics: dict[str, list[Any]] = {}
    all_topics: set[str] = set()
    kept = []
    for g in body.groups:
        if not c.ok(_O.DESCRIBE, _G, g.group_id):
            denied_groups.append(denied_group(g))
            continue
        if g.topics is None:
            all_topics.add(g.group_id)
            kept.append(g)
            continue
        allowed = []
        for t in g.topics:
            name = c.topic_name(getattr(t, topic_name), getattr(t, "topic_id", None) if with_ids else None)
            if name is not None and not c.ok(_O.DESCRIBE, _T, name):
                denied_topics.setdefault(g.group_id, []).append(denied_topic(t, name))
            else:
                allowed.append(t)
        kept.append(dataclasses.replace(g, topics=allowed))
    if not denied_groups and not denied_topics and not all_topics:
        return Plan(request=body)

    def after(resp: Any) -> Any:
        for g in resp.groups:
            if g.group_id in all_topics:
                g.topics = _filter_topics(c, g.topics, topic_name) or []
            extra = denied_topics.get(g.group_id)
            if extra:
                g.topics = list(g.topics or []) + extra
        resp.groups.extend(denied_groups)
        return resp

    return Plan(request=dataclasses.replace(body, groups=kept), after=after)


@rule(ApiKey.FIND_COORDINATOR)
def _find_coordinator(c: _Check, body: Any) -> Plan:
    key_type = body.key_type

    def denied(key: str) -> int | None:
        if key_type == 0:
            return None if c.ok(_O.DESCRIBE, _G, key) else GROUP_DENIED
        if key_type == 1:
            return None if c.ok(_O.DESCRIBE, _X, key) else TXN_DENIED
        if key_type == 2:
            return None if c.cluster(_O.CLUSTER_ACTION) else CLUSTER_DENIED
        return None

    if c.version < 4:
        code = denied(body.key)
        return Plan(request=body) if code is None else c.whole(body, code)
    from broker.protocol.messages.find_coordinator_response import Coordinator

    kept, extra = [], []
    for key in body.coordinator_keys:
        code = denied(key)
        if code is None:
            kept.append(key)
        else:
            extra.append(
                Coordinator(
                    key=key, node_id=-1, host="", port=-1, error_code=code, error_message=ErrorCode(code).message
                )
            )
    if not extra:
        return Plan(request=body)

    def after(resp: Any) -> Any:
        resp.coordinators.extend(extra)
        return resp

    return Plan(request=dataclasses.replace(body, coordinator_keys=kept), after=after)


@rule(
    ApiKey.JOIN_GROUP,
    ApiKey.HEARTBEAT,
    ApiKey.LEAVE_GROUP,
    ApiKey.SYNC_GROUP,
    ApiKey.STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE,
)
def _group_member(c: _Check, body: Any) -> Plan:
    return Plan(request=body) if c.ok(_O.READ, _G, body.group_id) else c.whole(body, GROUP_DENIED)


@rule(ApiKey.DESCRIBE_GROUPS)
def _describe_groups(c: _Check, body: Any) -> Plan:
    def ops(resp: Any) -> Any:
        if c.version >= 3 and body.include_authorized_operations:
            for g in resp.groups:
                if g.error_code == 0:
                    g.authorized_operations = c.ops(_G, g.group_id)
        return resp

    return _per_entity(c, body, "groups", _named(_O.DESCRIBE, _G, GROUP_DENIED, c), after=ops)


@rule(ApiKey.LIST_GROUPS)
def _list_groups(c: _Check, body: Any) -> Plan:
    if c.cluster(_O.DESCRIBE):
        return Plan(request=body)
    return Plan(
        request=body, after=lambda r: _set(r, "groups", [g for g in r.groups if c.ok(_O.DESCRIBE, _G, g.group_id)])
    )


@rule(ApiKey.CREATE_TOPICS)
def _create_topics(c: _Check, body: Any) -> Plan:
    def configs(resp: Any) -> Any:
        if c.version >= 5:
            for t in resp.topics:
                if t.error_code == 0 and not c.ok(_O.DESCRIBE_CONFIGS, _T, t.name):
                    t.topic_config_error_code = TOPIC_DENIED
                    t.configs = []
        return resp

    if c.cluster(_O.CREATE):
        return Plan(request=body, after=configs)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.CREATE), after=configs)


@rule(ApiKey.DELETE_TOPICS)
def _delete_topics(c: _Check, body: Any) -> Plan:
    if c.version < 6:
        return _per_entity(c, body, "topic_names", _named(_O.DELETE, _T, TOPIC_DENIED, c))

    def verdict(t: Any) -> int | None:
        name = c.topic_name(t.name, t.topic_id)
        if name is None:
            return None
        if t.topic_id != UUID_ZERO and not c.ok(_O.DESCRIBE, _T, name):
            return TOPIC_DENIED
        return None if c.ok(_O.DELETE, _T, name) else TOPIC_DENIED

    return _per_entity(c, body, "topics", verdict)


@rule(ApiKey.DELETE_RECORDS)
def _delete_records(c: _Check, body: Any) -> Plan:
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.DELETE))


@rule(ApiKey.INIT_PRODUCER_ID)
def _init_producer_id(c: _Check, body: Any) -> Plan:
    if body.transactional_id is not None:
        return Plan(request=body) if c.ok(_O.WRITE, _X, body.transactional_id) else c.whole(body, TXN_DENIED)
    if c.cluster(_O.IDEMPOTENT_WRITE) or c.authorizer.authorize_by_resource_type(c.principal, c.host, _O.WRITE, _T):
        return Plan(request=body)
    return c.whole(body, CLUSTER_DENIED)


@rule(ApiKey.ADD_PARTITIONS_TO_TXN)
def _add_partitions_to_txn(c: _Check, body: Any) -> Plan:
    if c.version >= 4:
        return Plan(request=body) if c.cluster(_O.CLUSTER_ACTION) else c.whole(body, CLUSTER_DENIED)
    if not c.ok(_O.WRITE, _X, body.v3_and_below_transactional_id):
        return c.whole(body, TXN_DENIED)
    denied = {t.name for t in body.v3_and_below_topics if not c.ok(_O.WRITE, _T, t.name)}
    if not denied:
        return Plan(request=body)
    # Kafka adds nothing when any topic is denied: the others are OPERATION_NOT_ATTEMPTED
    # (or UNKNOWN_TOPIC_OR_PARTITION when they do not exist).
    from broker.protocol.messages.add_partitions_to_txn_response import (
        AddPartitionsToTxnPartitionResult,
        AddPartitionsToTxnResponse,
        AddPartitionsToTxnTopicResult,
    )

    image = c.ctx.services.metadata.image
    results = []
    for t in body.v3_and_below_topics:
        out = []
        for p in t.partitions:
            if t.name in denied:
                code = TOPIC_DENIED
            elif image.partition(t.name, p) is None:
                code = E.UNKNOWN_TOPIC_OR_PARTITION
            else:
                code = E.OPERATION_NOT_ATTEMPTED
            out.append(AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code))
        results.append(AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=out))
    return Plan(response=AddPartitionsToTxnResponse(results_by_topic_v3_and_below=results))


@rule(ApiKey.ADD_OFFSETS_TO_TXN)
def _add_offsets_to_txn(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.WRITE, _X, body.transactional_id):
        return c.whole(body, TXN_DENIED)
    return Plan(request=body) if c.ok(_O.READ, _G, body.group_id) else c.whole(body, GROUP_DENIED)


@rule(ApiKey.END_TXN)
def _end_txn(c: _Check, body: Any) -> Plan:
    return Plan(request=body) if c.ok(_O.WRITE, _X, body.transactional_id) else c.whole(body, TXN_DENIED)


def _cluster_rule(op: AclOperation, *alternatives: AclOperation) -> Rule:
    def check(c: _Check, body: Any) -> Plan:
        if c.cluster(op) or any(c.cluster(o) for o in alternatives):
            return Plan(request=body)
        return c.whole(body, CLUSTER_DENIED)

    return check


RULES[ApiKey.WRITE_TXN_MARKERS] = _cluster_rule(_O.CLUSTER_ACTION, _O.ALTER)
RULES[ApiKey.DESCRIBE_ACLS] = _cluster_rule(_O.DESCRIBE)
RULES[ApiKey.CREATE_ACLS] = _cluster_rule(_O.ALTER)
RULES[ApiKey.DELETE_ACLS] = _cluster_rule(_O.ALTER)
RULES[ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS] = _cluster_rule(_O.DESCRIBE)
RULES[ApiKey.ALTER_USER_SCRAM_CREDENTIALS] = _cluster_rule(_O.ALTER)
RULES[ApiKey.DESCRIBE_CLIENT_QUOTAS] = _cluster_rule(_O.DESCRIBE_CONFIGS)
RULES[ApiKey.ALTER_CLIENT_QUOTAS] = _cluster_rule(_O.ALTER_CONFIGS)
RULES[ApiKey.ELECT_LEADERS] = _cluster_rule(_O.ALTER)
RULES[ApiKey.ALTER_PARTITION_REASSIGNMENTS] = _cluster_rule(_O.ALTER)
RULES[ApiKey.LIST_PARTITION_REASSIGNMENTS] = _cluster_rule(_O.DESCRIBE)
RULES[ApiKey.DESCRIBE_LOG_DIRS] = _cluster_rule(_O.DESCRIBE)


@rule(ApiKey.ALTER_REPLICA_LOG_DIRS)
def _alter_replica_log_dirs(c: _Check, body: Any) -> Plan:
    """ALTER on the cluster; refused, every partition named gets CLUSTER_AUTHORIZATION_FAILED."""
    if c.cluster(_O.ALTER):
        return Plan(request=body)
    from broker.protocol.messages.alter_replica_log_dirs_response import (
        AlterReplicaLogDirPartitionResult,
        AlterReplicaLogDirsResponse,
        AlterReplicaLogDirTopicResult,
    )

    topics: dict[str, dict[int, None]] = {}
    for d in body.dirs:
        for t in d.topics:
            topics.setdefault(t.name, {}).update(dict.fromkeys(t.partitions))
    return Plan(
        response=AlterReplicaLogDirsResponse(
            results=[
                AlterReplicaLogDirTopicResult(
                    topic_name=name,
                    partitions=[
                        AlterReplicaLogDirPartitionResult(partition_index=p, error_code=CLUSTER_DENIED) for p in parts
                    ],
                )
                for name, parts in topics.items()
            ]
        )
    )


RULES[ApiKey.UPDATE_FEATURES] = _cluster_rule(_O.ALTER)


@rule(
    ApiKey.CREATE_DELEGATION_TOKEN,
    ApiKey.RENEW_DELEGATION_TOKEN,
    ApiKey.EXPIRE_DELEGATION_TOKEN,
    ApiKey.DESCRIBE_DELEGATION_TOKEN,
)
def _delegation_tokens(c: _Check, body: Any) -> Plan:
    """As in Kafka, the token handlers check inside (broker.handlers._tokens): CREATE_TOKENS on
    the owner's User resource, ownership for renew and expire, and per token DESCRIBE on the
    DelegationToken or DESCRIBE_TOKENS on the owner's User for describe."""
    return Plan(request=body)


RULES[ApiKey.LIST_CONFIG_RESOURCES] = _cluster_rule(_O.DESCRIBE_CONFIGS)
for _key in (
    ApiKey.INITIALIZE_SHARE_GROUP_STATE,
    ApiKey.READ_SHARE_GROUP_STATE,
    ApiKey.WRITE_SHARE_GROUP_STATE,
    ApiKey.DELETE_SHARE_GROUP_STATE,
    ApiKey.READ_SHARE_GROUP_STATE_SUMMARY,
):
    RULES[_key] = _cluster_rule(_O.CLUSTER_ACTION)


def _configs_rule(cluster_op: AclOperation, resource_op: AclOperation) -> Rule:
    def check(c: _Check, body: Any) -> Plan:
        def verdict(r: Any) -> int | None:
            if r.resource_type in (_RT_BROKER, _RT_BROKER_LOGGER, _RT_CLIENT_METRICS):
                return None if c.cluster(cluster_op) else CLUSTER_DENIED
            if r.resource_type == _RT_TOPIC:
                return None if c.ok(resource_op, _T, r.resource_name) else TOPIC_DENIED
            if r.resource_type == _RT_GROUP:
                return None if c.ok(resource_op, _G, r.resource_name) else GROUP_DENIED
            return None  # the handler answers unknown resource types

        return _per_entity(c, body, "resources", verdict)

    return check


RULES[ApiKey.DESCRIBE_CONFIGS] = _configs_rule(_O.DESCRIBE_CONFIGS, _O.DESCRIBE_CONFIGS)
RULES[ApiKey.ALTER_CONFIGS] = _configs_rule(_O.ALTER_CONFIGS, _O.ALTER_CONFIGS)
RULES[ApiKey.INCREMENTAL_ALTER_CONFIGS] = _configs_rule(_O.ALTER_CONFIGS, _O.ALTER_CONFIGS)


@rule(ApiKey.CREATE_PARTITIONS)
def _create_partitions(c: _Check, body: Any) -> Plan:
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.ALTER))


@rule(ApiKey.DELETE_GROUPS)
def _delete_groups(c: _Check, body: Any) -> Plan:
    return _per_entity(c, body, "groups_names", _named(_O.DELETE, _G, GROUP_DENIED, c))


@rule(ApiKey.OFFSET_DELETE)
def _offset_delete(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.DELETE, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ))


@rule(ApiKey.DESCRIBE_CLUSTER)
def _describe_cluster(c: _Check, body: Any) -> Plan:
    if not body.include_cluster_authorized_operations:
        return Plan(request=body)
    ops = c.ops(_C, CLUSTER_NAME) if c.cluster(_O.DESCRIBE) else 0
    return Plan(request=body, after=lambda r: _set(r, "cluster_authorized_operations", ops))


@rule(ApiKey.OFFSET_FOR_LEADER_EPOCH)
def _offset_for_leader_epoch(c: _Check, body: Any) -> Plan:
    """A follower's request needs CLUSTER_ACTION; a consumer's, DESCRIBE on each topic."""
    if body.replica_id >= 0:
        return Plan(request=body) if c.cluster(_O.CLUSTER_ACTION) else c.whole(body, CLUSTER_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.DESCRIBE, "topic"))


@rule(ApiKey.DESCRIBE_PRODUCERS)
def _describe_producers(c: _Check, body: Any) -> Plan:
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ))


@rule(ApiKey.DESCRIBE_TRANSACTIONS)
def _describe_transactions(c: _Check, body: Any) -> Plan:
    def topics(resp: Any) -> Any:
        for state in resp.transaction_states:
            state.topics = [t for t in state.topics if c.ok(_O.DESCRIBE, _T, t.topic)]
        return resp

    return _per_entity(c, body, "transactional_ids", _named(_O.DESCRIBE, _X, TXN_DENIED, c), after=topics)


@rule(ApiKey.LIST_TRANSACTIONS)
def _list_transactions(c: _Check, body: Any) -> Plan:
    def keep(resp: Any) -> Any:
        resp.transaction_states = [s for s in resp.transaction_states if c.ok(_O.DESCRIBE, _X, s.transactional_id)]
        return resp

    return Plan(request=body, after=keep)


def _heartbeat_rule(topics_attr: str) -> Rule:
    def check(c: _Check, body: Any) -> Plan:
        if not c.ok(_O.READ, _G, body.group_id):
            return c.whole(body, GROUP_DENIED)
        names = getattr(body, topics_attr, None) or ()
        denied = [n for n in names if not c.ok(_O.DESCRIBE, _T, n)]
        if denied:
            return c.whole(
                body, TOPIC_DENIED, f"The client is not authorized to describe the topics: {', '.join(sorted(denied))}"
            )
        return Plan(request=body)

    return check


RULES[ApiKey.CONSUMER_GROUP_HEARTBEAT] = _heartbeat_rule("subscribed_topic_names")
RULES[ApiKey.SHARE_GROUP_HEARTBEAT] = _heartbeat_rule("subscribed_topic_names")


def _topology_topics(topology: Any) -> set[str]:
    """The topics a streams topology reads or keeps state in (Kafka's required topics):
    source topics, repartition source topics and state changelog topics."""
    names: set[str] = set()
    for sub in getattr(topology, "subtopologies", None) or ():
        names.update(sub.source_topics or ())
        names.update(t.name for t in sub.repartition_source_topics or ())
        names.update(t.name for t in sub.state_changelog_topics or ())
    return names


@rule(ApiKey.STREAMS_GROUP_HEARTBEAT)
def _streams_heartbeat(c: _Check, body: Any) -> Plan:
    """READ on the group, and DESCRIBE on every topic of a topology the member sends.
    Creating the internal topics needs CREATE too; the coordinator checks that."""
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    if body.topology is not None:
        denied = sorted(n for n in _topology_topics(body.topology) if not c.ok(_O.DESCRIBE, _T, n))
        if denied:
            return c.whole(
                body, TOPIC_DENIED, f"The client is not authorized to describe the topics: {', '.join(denied)}"
            )
    return Plan(request=body)


_DESCRIBED_TOPICS_DENIED = "The group has described topic(s) that the client is not authorized to describe."


def _assigned_topics(group: Any) -> Iterable[str]:
    for m in getattr(group, "members", None) or ():
        for attr in ("assignment", "target_assignment"):
            assignment = getattr(m, attr, None)
            for tp in getattr(assignment, "topic_partitions", None) or ():
                yield tp.topic_name


def _group_describe_rule() -> Rule:
    def check(c: _Check, body: Any) -> Plan:
        def after(resp: Any) -> Any:
            for g in resp.groups:
                if g.error_code:
                    continue
                if any(not c.ok(_O.DESCRIBE, _T, name) for name in _assigned_topics(g)):
                    g.error_code, g.error_message, g.members = TOPIC_DENIED, _DESCRIBED_TOPICS_DENIED, []
                elif body.include_authorized_operations:
                    g.authorized_operations = c.ops(_G, g.group_id)
            return resp

        return _per_entity(c, body, "group_ids", _named(_O.DESCRIBE, _G, GROUP_DENIED, c), after=after)

    return check


for _key in (ApiKey.CONSUMER_GROUP_DESCRIBE, ApiKey.SHARE_GROUP_DESCRIBE, ApiKey.STREAMS_GROUP_DESCRIBE):
    RULES[_key] = _group_describe_rule()


@rule(ApiKey.DESCRIBE_TOPIC_PARTITIONS)
def _describe_topic_partitions(c: _Check, body: Any) -> Plan:
    def ops(resp: Any) -> Any:
        for t in resp.topics:
            if t.error_code == 0 and t.name is not None:
                t.topic_authorized_operations = c.ops(_T, t.name)
        return resp

    return _per_entity(c, body, "topics", _topic_verdict(c, _O.DESCRIBE), after=ops)


@rule(ApiKey.SHARE_FETCH, ApiKey.SHARE_ACKNOWLEDGE)
def _share(c: _Check, body: Any) -> Plan:
    if body.group_id is None or not c.ok(_O.READ, _G, body.group_id):
        # Kafka answers with the top-level error only (Share*Request.getErrorResponse).
        response_type: Any = RESPONSES[body.API_KEY]
        return Plan(response=response_type(error_code=GROUP_DENIED, error_message=None))
    request, extras = _split(c, body, "topics", _topic_verdict(c, _O.READ, "topic_name", "topic_id"))
    acked = {
        (t.topic_id, p.partition_index)
        for t in body.topics
        for p in t.partitions
        if getattr(p, "acknowledgement_batches", None)
    }
    for extra in extras:
        for topic in extra.responses:
            for p in topic.partitions:
                if hasattr(p, "acknowledge_error_code") and (topic.topic_id, p.partition_index) in acked:
                    p.acknowledge_error_code = TOPIC_DENIED  # acknowledgements on a denied topic fail too
                if getattr(p, "records", b"") is None:
                    p.records = b""
    return Plan(request=request, after=_merging(extras))


@rule(ApiKey.ALTER_SHARE_GROUP_OFFSETS)
def _alter_share_offsets(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ, "topic_name"))


@rule(ApiKey.DELETE_SHARE_GROUP_OFFSETS)
def _delete_share_offsets(c: _Check, body: Any) -> Plan:
    if not c.ok(_O.DELETE, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _per_entity(c, body, "topics", _topic_verdict(c, _O.READ, "topic_name"))


@rule(ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS)
def _describe_share_offsets(c: _Check, body: Any) -> Plan:
    from broker.protocol.messages.describe_share_group_offsets_response import (
        DescribeShareGroupOffsetsResponseGroup,
        DescribeShareGroupOffsetsResponsePartition,
        DescribeShareGroupOffsetsResponseTopic,
    )

    def denied_group(g: Any) -> Any:
        return DescribeShareGroupOffsetsResponseGroup(
            group_id=g.group_id, error_code=GROUP_DENIED, error_message=ErrorCode(GROUP_DENIED).message, topics=[]
        )

    def denied_topic(t: Any, name: str) -> Any:
        return DescribeShareGroupOffsetsResponseTopic(
            topic_name=name,
            partitions=[
                DescribeShareGroupOffsetsResponsePartition(
                    partition_index=i,
                    start_offset=-1,
                    leader_epoch=-1,
                    lag=-1,
                    error_code=TOPIC_DENIED,
                    error_message=ErrorCode(TOPIC_DENIED).message,
                )
                for i in t.partitions
            ],
        )

    return _groups_with_topics(c, body, topic_name="topic_name", denied_group=denied_group, denied_topic=denied_topic)


# --------------------------------------------------------------------------- entry point


def authorize(ctx: RequestContext, authorizer: Authorizer, api_key: int, body: Message) -> Plan:
    """The plan for one request (see the module docstring)."""
    if api_key in NO_ACL_APIS:
        return Plan(request=body)
    check = _Check(ctx, authorizer)
    fn = RULES.get(api_key)
    if fn is None:
        return check.whole(body, CLUSTER_DENIED, "no authorization rule for this API")
    return fn(check, body)
