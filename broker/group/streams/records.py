"""The ``__consumer_offsets`` records of KIP-1071 streams groups: typed values and
their bytes in Kafka 4.4's format.

====  ==========================================  ======================================
type  record                                      key -> value
====  ==========================================  ======================================
17    StreamsGroupMetadata                        group -> epoch, metadata hash, validated topology epoch
19    StreamsGroupMemberMetadata                  group, member -> process, endpoint, tags, ...
20    StreamsGroupTargetAssignmentMetadata        group -> assignment epoch
21    StreamsGroupTargetAssignmentMember          group, member -> target active/standby/warm-up tasks
22    StreamsGroupCurrentMemberAssignment         group, member -> epochs, state, tasks
23    StreamsGroupTopology                        group -> the topology
====  ==========================================  ======================================

Every record is a full upsert of its key (no value: a tombstone), framed as
Kafka's coordinator records are: int16 record type + key struct (v0); int16
value version (0) + value struct.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from broker.group.modern import assignment_epochs
from broker.group.offsets import decode_group_record, frame_record, group_key
from broker.group.shard_api import merged_partitions, sorted_wire
from broker.group.streams.assignor import Tasks
from broker.group.streams.topology import Subtopology, TopicInfo, Topology
from broker.protocol.message_base import Message
from broker.protocol.messages import streams_group_current_member_assignment_value as current_msg
from broker.protocol.messages import streams_group_member_metadata_value as member_msg
from broker.protocol.messages import streams_group_target_assignment_member_value as target_msg
from broker.protocol.messages import streams_group_topology_value as topology_msg
from broker.protocol.messages.streams_group_current_member_assignment_key import (
    StreamsGroupCurrentMemberAssignmentKey,
)
from broker.protocol.messages.streams_group_member_metadata_key import StreamsGroupMemberMetadataKey
from broker.protocol.messages.streams_group_metadata_key import StreamsGroupMetadataKey
from broker.protocol.messages.streams_group_metadata_value import StreamsGroupMetadataValue
from broker.protocol.messages.streams_group_target_assignment_member_key import StreamsGroupTargetAssignmentMemberKey
from broker.protocol.messages.streams_group_target_assignment_metadata_key import (
    StreamsGroupTargetAssignmentMetadataKey,
)
from broker.protocol.messages.streams_group_target_assignment_metadata_value import (
    StreamsGroupTargetAssignmentMetadataValue,
)
from broker.protocol.messages.streams_group_topology_key import StreamsGroupTopologyKey

__all__ = [
    "RECORD_TYPES",
    "CurrentValue",
    "GroupValue",
    "MemberValue",
    "Record",
    "RecordType",
    "TargetEpochValue",
    "TargetValue",
    "decode",
    "encode",
    "merged_tasks",
]


class RecordType(enum.IntEnum):
    GROUP = 17
    MEMBER = 19
    TARGET_EPOCH = 20
    TARGET_MEMBER = 21
    CURRENT = 22
    TOPOLOGY = 23


@dataclass(frozen=True, slots=True)
class GroupValue:
    epoch: int
    metadata_hash: int
    validated_topology_epoch: int = -1


@dataclass(frozen=True, slots=True)
class MemberValue:
    process_id: str = ""
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    topology_epoch: int = 0
    instance_id: str | None = None
    rack_id: str | None = None
    client_tags: tuple[tuple[str, str], ...] = ()
    user_endpoint: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class TargetValue:
    active: Tasks = field(default_factory=dict)
    standby: Tasks = field(default_factory=dict)
    warmup: Tasks = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TargetEpochValue:
    epoch: int
    timestamp_ms: int = 0


@dataclass(frozen=True, slots=True)
class CurrentValue:
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0  # MemberState: 0 stable, 1 unrevoked tasks, 2 unreleased tasks
    active: Mapping[str, Mapping[int, int]] = field(default_factory=dict)  # task -> assignment epoch
    standby: Tasks = field(default_factory=dict)
    warmup: Tasks = field(default_factory=dict)
    active_pending_revocation: Tasks = field(default_factory=dict)


Value = GroupValue | MemberValue | TargetValue | TargetEpochValue | CurrentValue | Topology


@dataclass(frozen=True, slots=True)
class Record:
    """One streams-group record; ``sub`` is the member id (types 19, 21, 22)."""

    type: RecordType
    group_id: str
    sub: str | None = None
    value: Value | None = None


# ------------------------------------------------------------------ framing

_VALUE_VERSION = 0

# record type -> (key class, value class)
RECORD_TYPES: dict[int, tuple[type[Message], type[Message]]] = {
    RecordType.GROUP: (StreamsGroupMetadataKey, StreamsGroupMetadataValue),
    RecordType.MEMBER: (StreamsGroupMemberMetadataKey, member_msg.StreamsGroupMemberMetadataValue),
    RecordType.TARGET_EPOCH: (StreamsGroupTargetAssignmentMetadataKey, StreamsGroupTargetAssignmentMetadataValue),
    RecordType.TARGET_MEMBER: (
        StreamsGroupTargetAssignmentMemberKey,
        target_msg.StreamsGroupTargetAssignmentMemberValue,
    ),
    RecordType.CURRENT: (StreamsGroupCurrentMemberAssignmentKey, current_msg.StreamsGroupCurrentMemberAssignmentValue),
    RecordType.TOPOLOGY: (StreamsGroupTopologyKey, topology_msg.StreamsGroupTopologyValue),
}


def _target_tasks(tasks: Mapping[str, Iterable[int]]) -> list[target_msg.TaskIds]:
    return [target_msg.TaskIds(s, ps) for s, ps in sorted_wire(tasks)]


def _current_tasks(
    tasks: Mapping[str, Iterable[int]], epochs: Mapping[str, Mapping[int, int]] | None = None
) -> list[current_msg.TaskIds]:
    return [
        current_msg.TaskIds(s, ps, None if epochs is None else [epochs[s][p] for p in ps])
        for s, ps in sorted_wire(tasks)
    ]


def _topic_infos(infos: Iterable[TopicInfo]) -> list[topology_msg.TopicInfo]:
    return [
        topology_msg.TopicInfo(
            i.name, i.partitions, i.replication_factor, [topology_msg.TopicConfig(k, v) for k, v in i.configs]
        )
        for i in infos
    ]


def _value(v: Value) -> Message:
    if isinstance(v, GroupValue):
        return StreamsGroupMetadataValue(v.epoch, v.metadata_hash, v.validated_topology_epoch)
    if isinstance(v, MemberValue):
        return member_msg.StreamsGroupMemberMetadataValue(
            instance_id=v.instance_id,
            rack_id=v.rack_id,
            client_id=v.client_id,
            client_host=v.client_host,
            rebalance_timeout_ms=v.rebalance_timeout_ms,
            topology_epoch=v.topology_epoch,
            process_id=v.process_id,
            user_endpoint=None if v.user_endpoint is None else member_msg.Endpoint(*v.user_endpoint),
            client_tags=[member_msg.KeyValue(k, val) for k, val in v.client_tags],
        )
    if isinstance(v, TargetValue):
        return target_msg.StreamsGroupTargetAssignmentMemberValue(
            _target_tasks(v.active), _target_tasks(v.standby), _target_tasks(v.warmup)
        )
    if isinstance(v, TargetEpochValue):
        return StreamsGroupTargetAssignmentMetadataValue(v.epoch, v.timestamp_ms)
    if isinstance(v, CurrentValue):
        active = {s: frozenset(ps) for s, ps in v.active.items()}
        return current_msg.StreamsGroupCurrentMemberAssignmentValue(
            member_epoch=v.member_epoch,
            previous_member_epoch=v.previous_member_epoch,
            state=v.state,
            active_tasks=_current_tasks(active, v.active),
            standby_tasks=_current_tasks(v.standby),
            warmup_tasks=_current_tasks(v.warmup),
            active_tasks_pending_revocation=_current_tasks(v.active_pending_revocation),
        )
    assert isinstance(v, Topology)
    return topology_msg.StreamsGroupTopologyValue(
        v.epoch,
        [
            topology_msg.Subtopology(
                subtopology_id=s.subtopology_id,
                source_topics=list(s.source_topics),
                source_topic_regex=list(s.source_topic_regex),
                state_changelog_topics=_topic_infos(s.state_changelog_topics),
                repartition_sink_topics=list(s.repartition_sink_topics),
                repartition_source_topics=_topic_infos(s.repartition_source_topics),
                copartition_groups=[
                    topology_msg.CopartitionGroup(list(a), list(b), list(c)) for a, b, c in s.copartition_groups
                ],
            )
            for s in v.subtopologies
        ],
    )


def encode(record: Record) -> tuple[bytes, bytes | None]:
    key = group_key(RECORD_TYPES[record.type][0], record.group_id, record.sub)
    value = None if record.value is None else _value(record.value)
    return frame_record(record.type, key, value, _VALUE_VERSION)


class WireTaskIds(Protocol):
    """Tasks of one subtopology as the records and the heartbeat carry them."""

    @property
    def subtopology_id(self) -> str: ...

    @property
    def partitions(self) -> Sequence[int]: ...


def merged_tasks(items: Iterable[WireTaskIds]) -> Tasks:
    """The tasks ``items`` name, by subtopology (one named twice: its partitions merged)."""
    return merged_partitions((t.subtopology_id, t.partitions) for t in items)


def _epochs(items: Iterable[current_msg.TaskIds], member_epoch: int) -> dict[str, dict[int, int]]:
    return assignment_epochs(((t.subtopology_id, t.partitions, t.assignment_epochs) for t in items), member_epoch)


def _infos(items: Iterable[topology_msg.TopicInfo]) -> tuple[TopicInfo, ...]:
    return tuple(
        TopicInfo(i.name, i.partitions, i.replication_factor, tuple((c.key, c.value) for c in i.topic_configs))
        for i in items
    )


def _typed_value(v: Message) -> Value:
    """The typed value of a record's value message."""
    if isinstance(v, StreamsGroupMetadataValue):
        return GroupValue(v.epoch, v.metadata_hash, v.validated_topology_epoch)
    if isinstance(v, member_msg.StreamsGroupMemberMetadataValue):
        return MemberValue(
            process_id=v.process_id,
            client_id=v.client_id,
            client_host=v.client_host,
            rebalance_timeout_ms=v.rebalance_timeout_ms,
            topology_epoch=v.topology_epoch,
            instance_id=v.instance_id,
            rack_id=v.rack_id,
            client_tags=tuple((kv.key, kv.value) for kv in v.client_tags),
            user_endpoint=None if v.user_endpoint is None else (v.user_endpoint.host, v.user_endpoint.port),
        )
    if isinstance(v, target_msg.StreamsGroupTargetAssignmentMemberValue):
        return TargetValue(merged_tasks(v.active_tasks), merged_tasks(v.standby_tasks), merged_tasks(v.warmup_tasks))
    if isinstance(v, StreamsGroupTargetAssignmentMetadataValue):
        return TargetEpochValue(v.assignment_epoch, v.assignment_timestamp)
    if isinstance(v, current_msg.StreamsGroupCurrentMemberAssignmentValue):
        return CurrentValue(
            v.member_epoch,
            v.previous_member_epoch,
            v.state,
            _epochs(v.active_tasks, v.member_epoch),
            merged_tasks(v.standby_tasks),
            merged_tasks(v.warmup_tasks),
            merged_tasks(v.active_tasks_pending_revocation),
        )
    assert isinstance(v, topology_msg.StreamsGroupTopologyValue)
    return Topology(
        v.epoch,
        tuple(
            Subtopology(
                s.subtopology_id,
                tuple(s.source_topics),
                tuple(s.source_topic_regex),
                _infos(s.state_changelog_topics),
                tuple(s.repartition_sink_topics),
                _infos(s.repartition_source_topics),
                tuple(
                    (tuple(g.source_topics), tuple(g.source_topic_regex), tuple(g.repartition_source_topics))
                    for g in s.copartition_groups
                ),
            )
            for s in v.subtopologies
        ),
    )


def decode(key: bytes | memoryview, value: bytes | memoryview | None) -> Record | None:
    """The streams-group record in ``key``/``value``, or None for another record type."""
    decoded = decode_group_record(RECORD_TYPES, key, value)
    if decoded is None:
        return None
    record_type, group_id, sub, v = decoded
    return Record(RecordType(record_type), group_id, sub, None if v is None else _typed_value(v))
