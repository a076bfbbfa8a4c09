"""Rules of the group APIs: classic groups (JoinGroup, Heartbeat, LeaveGroup, SyncGroup,
DescribeGroups, ListGroups, DeleteGroups), offsets (OffsetCommit, OffsetFetch,
OffsetDelete), FindCoordinator, and the KIP-848/1071 heartbeats and describes (READ on the
GROUP to be a member, DESCRIBE to describe, DELETE to delete; DESCRIBE or READ on topics).
The share group APIs are in :mod:`broker.server.authz.share`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Generic, Protocol, TypeVar

from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from broker.protocol.messages.consumer_group_describe_response import (
    ConsumerGroupDescribeResponse,
)
from broker.protocol.messages.consumer_group_describe_response import DescribedGroup as ConsumerDescribedGroup
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_groups_response import DeleteGroupsResponse
from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
from broker.protocol.messages.describe_groups_response import DescribeGroupsResponse
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.find_coordinator_response import Coordinator, FindCoordinatorResponse
from broker.protocol.messages.heartbeat_request import HeartbeatRequest
from broker.protocol.messages.join_group_request import JoinGroupRequest
from broker.protocol.messages.leave_group_request import LeaveGroupRequest
from broker.protocol.messages.list_groups_request import ListGroupsRequest
from broker.protocol.messages.list_groups_response import ListGroupsResponse
from broker.protocol.messages.offset_commit_request import OffsetCommitRequest
from broker.protocol.messages.offset_commit_response import OffsetCommitResponse
from broker.protocol.messages.offset_delete_request import OffsetDeleteRequest
from broker.protocol.messages.offset_delete_response import OffsetDeleteResponse
from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopics
from broker.protocol.messages.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopics,
)
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from broker.protocol.messages.share_group_describe_response import DescribedGroup as ShareDescribedGroup
from broker.protocol.messages.share_group_describe_response import ShareGroupDescribeResponse
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from broker.protocol.messages.streams_group_describe_request import StreamsGroupDescribeRequest
from broker.protocol.messages.streams_group_describe_response import DescribedGroup as StreamsDescribedGroup
from broker.protocol.messages.streams_group_describe_response import StreamsGroupDescribeResponse
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest, Topology
from broker.protocol.messages.streams_group_topology_description_update_request import (
    StreamsGroupTopologyDescriptionUpdateRequest,
)
from broker.protocol.messages.sync_group_request import SyncGroupRequest
from broker.security.authorizer import AclOperation, ResourceType
from broker.server.authz.core import (
    CLUSTER_DENIED,
    GROUP_DENIED,
    TOPIC_DENIED,
    TXN_DENIED,
    UUID_ZERO,
    Check,
    Entities,
    Keyed,
    Plan,
    each_named,
    entities,
    per_entity,
    register,
    rule,
)

_O = AclOperation
_T, _G, _X = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID

OFFSET_COMMIT = entities(OffsetCommitRequest, lambda q: q.topics).answered(
    OffsetCommitResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
# v7 and below: one group (v8 and up: split_groups).
OFFSET_FETCH_V7 = entities(OffsetFetchRequest, lambda q: q.topics or []).answered(
    OffsetFetchResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
DESCRIBE_GROUPS = entities(DescribeGroupsRequest, lambda q: q.groups).answered(
    DescribeGroupsResponse, lambda q, gs: replace(q, groups=gs), lambda r: r.groups
)
DELETE_GROUPS = entities(DeleteGroupsRequest, lambda q: q.groups_names).answered(
    DeleteGroupsResponse, lambda q, gs: replace(q, groups_names=gs), lambda r: r.results
)
OFFSET_DELETE = entities(OffsetDeleteRequest, lambda q: q.topics).answered(
    OffsetDeleteResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
CONSUMER_GROUP_DESCRIBE = entities(ConsumerGroupDescribeRequest, lambda q: q.group_ids).answered(
    ConsumerGroupDescribeResponse, lambda q, gs: replace(q, group_ids=gs), lambda r: r.groups
)
SHARE_GROUP_DESCRIBE = entities(ShareGroupDescribeRequest, lambda q: q.group_ids).answered(
    ShareGroupDescribeResponse, lambda q, gs: replace(q, group_ids=gs), lambda r: r.groups
)
STREAMS_GROUP_DESCRIBE = entities(StreamsGroupDescribeRequest, lambda q: q.group_ids).answered(
    StreamsGroupDescribeResponse, lambda q, gs: replace(q, group_ids=gs), lambda r: r.groups
)

R = TypeVar("R", bound=Message)
G = TypeVar("G")  # a group of a request
T = TypeVar("T")  # a topic of a request's group
RG = TypeVar("RG")  # a group of a response
RT = TypeVar("RT")  # a topic of a response's group


class _GroupRequest(Keyed, Protocol):
    @property
    def group_id(self) -> str: ...


def _group_member(c: Check, body: _GroupRequest) -> Plan:
    """READ on the group (JoinGroup, Heartbeat, LeaveGroup, SyncGroup, the topology update)."""
    return Plan(request=body) if c.ok(_O.READ, _G, body.group_id) else c.whole(body, GROUP_DENIED)


register(JoinGroupRequest, _group_member)
register(HeartbeatRequest, _group_member)
register(LeaveGroupRequest, _group_member)
register(SyncGroupRequest, _group_member)
register(StreamsGroupTopologyDescriptionUpdateRequest, _group_member)


@rule(OffsetCommitRequest)
def _offset_commit(c: Check, body: OffsetCommitRequest) -> Plan:
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return per_entity(c, body, OFFSET_COMMIT, lambda t: c.topic(_O.READ, t.name, t.topic_id))


# ----------------------------------------------------------------- groups each with topics


@dataclasses.dataclass(slots=True)
class GroupsSplit(Generic[G, RG, RT]):
    """Groups each naming topics (None: all), split: the groups the handler sees, the answers
    for denied groups and, by group id, for denied topics; the groups asking for all topics."""

    kept: list[G]
    denied_groups: list[RG]
    denied_topics: dict[str, list[RT]]
    all_topics: set[str]

    @property
    def anything(self) -> bool:
        return bool(self.denied_groups or self.denied_topics or self.all_topics)

    def plan(self, c: Check, body: Any, answered_name: Callable[[Any], str]) -> Plan:
        """The handler sees ``body`` with the kept groups; in its answer a group that asked
        for all topics keeps the ones the principal may describe (``answered_name`` reads a
        response topic's name), and the denied topics and groups are added."""
        if not self.anything:
            return Plan(request=body)

        def after(resp: Any) -> Any:
            for g in resp.groups:
                if g.group_id in self.all_topics:
                    g.topics = [t for t in g.topics or () if c.ok(_O.DESCRIBE, _T, answered_name(t))]
                g.topics = list(g.topics or []) + self.denied_topics.get(g.group_id, [])
            resp.groups.extend(self.denied_groups)
            return resp

        return Plan(request=replace(body, groups=self.kept), after=after)


def split_groups(
    c: Check,
    groups: Sequence[G],
    group_id: Callable[[G], str],
    topics: Callable[[G], list[T] | None],
    topic_name: Callable[[T], str | None],
    with_topics: Callable[[G, list[T]], G],
    denied_group: Callable[[G], RG],
    denied_topic: Callable[[T, str], RT],
) -> GroupsSplit[G, RG, RT]:
    """DESCRIBE on each group and on each topic it names (OffsetFetch v8+ and
    DescribeShareGroupOffsets); ``topic_name`` resolves a topic (None: an unknown id)."""
    out: GroupsSplit[G, RG, RT] = GroupsSplit([], [], {}, set())
    for g in groups:
        gid = group_id(g)
        if not c.ok(_O.DESCRIBE, _G, gid):
            out.denied_groups.append(denied_group(g))
            continue
        named = topics(g)
        if named is None:
            out.all_topics.add(gid)
            out.kept.append(g)
            continue
        allowed = []
        for t in named:
            name = topic_name(t)
            if name is not None and not c.ok(_O.DESCRIBE, _T, name):
                out.denied_topics.setdefault(gid, []).append(denied_topic(t, name))
            else:
                allowed.append(t)
        out.kept.append(with_topics(g, allowed))
    return out


def _offset_fetch_topic(t: OffsetFetchRequestTopics, name: str) -> OffsetFetchResponseTopics:
    return OffsetFetchResponseTopics(
        name=name if t.topic_id == UUID_ZERO else "",
        topic_id=t.topic_id,
        partitions=[
            OffsetFetchResponsePartitions(partition_index=i, committed_offset=-1, metadata="", error_code=TOPIC_DENIED)
            for i in t.partition_indexes
        ],
    )


@rule(OffsetFetchRequest)
def _offset_fetch(c: Check, body: OffsetFetchRequest) -> Plan:
    """DESCRIBE on the group and on each topic; all topics: the ones the principal may describe."""

    def describable(resp: OffsetFetchResponse) -> OffsetFetchResponse:
        resp.topics = [t for t in resp.topics if c.ok(_O.DESCRIBE, _T, t.name)]
        return resp

    if c.version < 8:
        if not c.ok(_O.DESCRIBE, _G, body.group_id):
            return c.whole(body, GROUP_DENIED)
        if body.topics is None:
            return Plan(request=body, after=describable)
        return per_entity(c, body, OFFSET_FETCH_V7, lambda t: c.topic(_O.DESCRIBE, t.name))
    s = split_groups(
        c,
        body.groups,
        lambda g: g.group_id,
        lambda g: g.topics,
        lambda t: c.topic_name(t.name, t.topic_id),
        lambda g, allowed: replace(g, topics=allowed),
        lambda g: OffsetFetchResponseGroup(group_id=g.group_id, error_code=GROUP_DENIED, topics=[]),
        _offset_fetch_topic,
    )
    return s.plan(c, body, lambda t: t.name)


@rule(FindCoordinatorRequest)
def _find_coordinator(c: Check, body: FindCoordinatorRequest) -> Plan:
    """DESCRIBE on the group (key type 0) or transactional id (1); CLUSTER_ACTION for the
    share-state coordinator (2)."""
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
    kept: list[str] = []
    extra: list[Coordinator] = []
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

    def after(resp: FindCoordinatorResponse) -> FindCoordinatorResponse:
        resp.coordinators.extend(extra)
        return resp

    return Plan(request=replace(body, coordinator_keys=kept), after=after)


@rule(DescribeGroupsRequest)
def _describe_groups(c: Check, body: DescribeGroupsRequest) -> Plan:
    def ops(resp: DescribeGroupsResponse) -> DescribeGroupsResponse:
        if c.version >= 3 and body.include_authorized_operations:
            for g in resp.groups:
                if g.error_code == 0:
                    g.authorized_operations = c.ops(_G, g.group_id)
        return resp

    return per_entity(c, body, DESCRIBE_GROUPS, c.named(_O.DESCRIBE, _G, GROUP_DENIED), after=ops)


@rule(ListGroupsRequest)
def _list_groups(c: Check, body: ListGroupsRequest) -> Plan:
    """DESCRIBE on the cluster lists every group; otherwise the groups the principal may describe."""
    if c.cluster(_O.DESCRIBE):
        return Plan(request=body)

    def describable(resp: ListGroupsResponse) -> ListGroupsResponse:
        resp.groups = [g for g in resp.groups if c.ok(_O.DESCRIBE, _G, g.group_id)]
        return resp

    return Plan(request=body, after=describable)


register(DeleteGroupsRequest, each_named(DELETE_GROUPS, _O.DELETE, _G, GROUP_DENIED))


@rule(OffsetDeleteRequest)
def _offset_delete(c: Check, body: OffsetDeleteRequest) -> Plan:
    if not c.ok(_O.DELETE, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return per_entity(c, body, OFFSET_DELETE, lambda t: c.topic(_O.READ, t.name))


# ----------------------------------------------------------------- KIP-848/932/1071 heartbeats


def _topics_denied(c: Check, body: Keyed, names: Iterable[str]) -> Plan | None:
    """TOPIC_AUTHORIZATION_FAILED for the whole request when a topic it names may not be described."""
    denied = sorted({n for n in names if not c.ok(_O.DESCRIBE, _T, n)})
    if not denied:
        return None
    return c.whole(body, TOPIC_DENIED, f"The client is not authorized to describe the topics: {', '.join(denied)}")


class _SubscribingRequest(_GroupRequest, Protocol):
    @property
    def subscribed_topic_names(self) -> list[str] | None: ...


def _subscribing_heartbeat(c: Check, body: _SubscribingRequest) -> Plan:
    """READ on the group, DESCRIBE on every subscribed topic (consumer and share groups)."""
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return _topics_denied(c, body, body.subscribed_topic_names or ()) or Plan(request=body)


register(ConsumerGroupHeartbeatRequest, _subscribing_heartbeat)
register(ShareGroupHeartbeatRequest, _subscribing_heartbeat)


def _topology_topics(topology: Topology) -> set[str]:
    """The topics a streams topology reads or keeps state in (Kafka's required topics):
    source topics, repartition source topics and state changelog topics."""
    names: set[str] = set()
    for sub in topology.subtopologies or ():
        names.update(sub.source_topics or ())
        names.update(t.name for t in sub.repartition_source_topics or ())
        names.update(t.name for t in sub.state_changelog_topics or ())
    return names


@rule(StreamsGroupHeartbeatRequest)
def _streams_heartbeat(c: Check, body: StreamsGroupHeartbeatRequest) -> Plan:
    """READ on the group, and DESCRIBE on every topic of a topology the member sends.
    Creating the internal topics needs CREATE too; the coordinator checks that."""
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    if body.topology is not None:
        return _topics_denied(c, body, _topology_topics(body.topology)) or Plan(request=body)
    return Plan(request=body)


# ----------------------------------------------------------------- KIP-848/932/1071 describes


class _DescribedGroup(Protocol):
    """A group of a ConsumerGroupDescribe, ShareGroupDescribe or StreamsGroupDescribe answer."""

    @property
    def error_code(self) -> int: ...
    @property
    def group_id(self) -> str: ...

    authorized_operations: int


DG = TypeVar("DG", bound=_DescribedGroup)


class _GroupsDescribe(Keyed, Protocol):
    @property
    def include_authorized_operations(self) -> bool: ...


GD = TypeVar("GD", bound=_GroupsDescribe)


def _group_describe(
    where: Entities[GD, str, R, DG], described_topics: Callable[[DG], Iterable[str]], denied: Callable[[str], DG]
) -> Callable[[Check, GD], Plan]:
    """DESCRIBE on each group; a group that describes a topic the principal may not describe
    is answered ``denied(group_id)`` instead (TOPIC_AUTHORIZATION_FAILED, no members), as
    Kafka's KafkaApis does after the coordinator answered."""

    def check(c: Check, body: GD) -> Plan:
        def after(resp: R) -> R:
            groups = where.answers(resp)
            for i, g in enumerate(groups):
                if g.error_code:
                    continue
                if any(not c.ok(_O.DESCRIBE, _T, name) for name in described_topics(g)):
                    groups[i] = denied(g.group_id)
                elif body.include_authorized_operations:
                    g.authorized_operations = c.ops(_G, g.group_id)
            return resp

        return per_entity(c, body, where, c.named(_O.DESCRIBE, _G, GROUP_DENIED), after=after)

    return check


def _consumer_topics(g: ConsumerDescribedGroup) -> Iterable[str]:
    """The topics of the members' assignments and target assignments."""
    for m in g.members:
        for assignment in (m.assignment, m.target_assignment):
            for tp in assignment.topic_partitions:
                yield tp.topic_name


def _share_topics(g: ShareDescribedGroup) -> Iterable[str]:
    """The topics of the members' assignments."""
    for m in g.members:
        for tp in m.assignment.topic_partitions:
            yield tp.topic_name


def _streams_topics(g: StreamsDescribedGroup) -> Iterable[str]:
    """Every topic of the group's topology: source, repartition sink and source, changelog."""
    for sub in (g.topology.subtopologies or []) if g.topology is not None else []:
        yield from sub.source_topics
        yield from sub.repartition_sink_topics
        yield from (t.name for t in sub.repartition_source_topics)
        yield from (t.name for t in sub.state_changelog_topics)


_GROUP_TOPICS_DENIED = "The group has described topic(s) that the client is not authorized to describe."
_STREAMS_TOPICS_DENIED = "The described group uses topics that the client is not authorized to describe."

register(
    ConsumerGroupDescribeRequest,
    _group_describe(
        CONSUMER_GROUP_DESCRIBE,
        _consumer_topics,
        lambda gid: ConsumerDescribedGroup(group_id=gid, error_code=TOPIC_DENIED, error_message=_GROUP_TOPICS_DENIED),
    ),
)
register(
    ShareGroupDescribeRequest,
    _group_describe(
        SHARE_GROUP_DESCRIBE,
        _share_topics,
        lambda gid: ShareDescribedGroup(group_id=gid, error_code=TOPIC_DENIED, error_message=_GROUP_TOPICS_DENIED),
    ),
)
register(
    StreamsGroupDescribeRequest,
    _group_describe(
        STREAMS_GROUP_DESCRIBE,
        _streams_topics,
        lambda gid: StreamsDescribedGroup(group_id=gid, error_code=TOPIC_DENIED, error_message=_STREAMS_TOPICS_DENIED),
    ),
)
