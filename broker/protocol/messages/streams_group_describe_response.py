# Generated from protocol/schemas/StreamsGroupDescribeResponse.json by codegen; do not edit.
"""StreamsGroupDescribeResponse: response, api key 89, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "KeyValue",
    "TopicInfo",
    "Subtopology",
    "Topology",
    "Endpoint",
    "TaskOffset",
    "TaskIds",
    "Assignment",
    "Member",
    "TopologyDescriptionNode",
    "TopologyDescriptionSubtopology",
    "TopologyDescriptionGlobalStore",
    "TopologyDescription",
    "DescribedGroup",
    "StreamsGroupDescribeResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ii')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>ih')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>H')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>iq')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>?')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>b')
_S7u = _S7.unpack_from
_S7p = _S7.pack
_S8 = Struct('>B')
_S8u = _S8.unpack_from
_S8p = _S8.pack


@dataclass(slots=True)
class KeyValue:
    """Common structure KeyValue."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 1), 'value': (0, 1)}

    key: str = ''
    """Name of the setting."""

    value: str = ''
    """Value of the setting."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicInfo:
    """Common structure TopicInfo."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 1), 'partitions': (0, 1), 'replication_factor': (0, 1), 'topic_configs': (0, 1)}

    name: str = ''
    """Name of the topic."""

    partitions: int = 0
    """Partition count the topic must have, or 0 when any count will do; always 0 for changelog topics."""

    replication_factor: int = 0
    """Replication factor for the topic, or 0 for the broker default."""

    topic_configs: list[KeyValue] = field(default_factory=list)
    """Topic-level configs to create the topic with."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Subtopology:
    """Subtopologies as configured by the coordinator: partition counts set and regular expressions resolved to topics. Null while the group is not initialised or its source topics are missing or wrongly partitioned."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 1), 'source_topics': (0, 1), 'repartition_sink_topics': (0, 1), 'state_changelog_topics': (0, 1), 'repartition_source_topics': (0, 1)}

    subtopology_id: str = ''
    """ID of the subtopology."""

    source_topics: list[str] = field(default_factory=list)
    """Topics the subtopology reads."""

    repartition_sink_topics: list[str] = field(default_factory=list)
    """Repartition topics the subtopology writes."""

    state_changelog_topics: list[TopicInfo] = field(default_factory=list)
    """Changelog topics of the subtopology's state stores."""

    repartition_source_topics: list[TopicInfo] = field(default_factory=list)
    """Source topics of the subtopology that are internal repartition topics."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Topology:
    """Topology the group was initialised with; may be null when the group could not be described."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 1), 'subtopologies': (0, 1)}

    epoch: int = 0
    """Epoch of that topology."""

    subtopologies: list[Subtopology] | None = None
    """Subtopologies as configured by the coordinator: partition counts set and regular expressions resolved to topics. Null while the group is not initialised or its source topics are missing or wrongly partitioned."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Endpoint:
    """Common structure Endpoint."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'host': (0, 1), 'port': (0, 1)}

    host: str = ''
    """Host name of the endpoint."""

    port: int = 0
    """Port of the endpoint."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TaskOffset:
    """Common structure TaskOffset."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 1), 'partition': (0, 1), 'offset': (0, 1)}

    subtopology_id: str = ''
    """Subtopology of the task."""

    partition: int = 0
    """Partition of the task."""

    offset: int = 0
    """Changelog offset summed over the task's stores."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TaskIds:
    """Common structure TaskIds."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 1), 'partitions': (0, 1)}

    subtopology_id: str = ''
    """Subtopology the tasks belong to."""

    partitions: list[int] = field(default_factory=list)
    """Task partitions, i.e. the input-topic partitions these tasks process."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Assignment:
    """Common structure Assignment."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'active_tasks': (0, 1), 'standby_tasks': (0, 1), 'warmup_tasks': (0, 1)}

    active_tasks: list[TaskIds] = field(default_factory=list)
    """Active tasks."""

    standby_tasks: list[TaskIds] = field(default_factory=list)
    """Standby tasks."""

    warmup_tasks: list[TaskIds] = field(default_factory=list)
    """Warm-up tasks."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Member:
    """Members of the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 1), 'member_epoch': (0, 1), 'instance_id': (0, 1), 'rack_id': (0, 1), 'client_id': (0, 1), 'client_host': (0, 1), 'topology_epoch': (0, 1), 'process_id': (0, 1), 'user_endpoint': (0, 1), 'client_tags': (0, 1), 'task_offsets': (0, 1), 'task_end_offsets': (0, 1), 'assignment': (0, 1), 'target_assignment': (0, 1), 'is_classic': (0, 1)}

    member_id: str = ''
    """ID of the member."""

    member_epoch: int = 0
    """Epoch of the member."""

    instance_id: str | None = None
    """Instance ID for static membership, or null."""

    rack_id: str | None = None
    """Rack of the member, or null."""

    client_id: str = ''
    """Client ID of the member."""

    client_host: str = ''
    """Host the member connects from."""

    topology_epoch: int = 0
    """Epoch of the topology the member runs."""

    process_id: str = ''
    """ID of the Streams process the member belongs to, which may run several members."""

    user_endpoint: Endpoint | None = None
    """Endpoint the member serves interactive queries on, or null when it has none."""

    client_tags: list[KeyValue] = field(default_factory=list)
    """Client tags for rack-aware task assignment."""

    task_offsets: list[TaskOffset] = field(default_factory=list)
    """Changelog offsets the member last reported for its tasks."""

    task_end_offsets: list[TaskOffset] = field(default_factory=list)
    """Changelog end offsets the member last reported for its tasks."""

    assignment: Assignment = field(default_factory=Assignment)
    """Tasks the member owns now."""

    target_assignment: Assignment = field(default_factory=Assignment)
    """Tasks the member is meant to own."""

    is_classic: bool = False
    """Whether the member still uses the classic protocol and has not been upgraded."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescriptionNode:
    """Common structure TopologyDescriptionNode."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (1, 1), 'node_type': (1, 1), 'source_topics': (1, 1), 'sink_topic': (1, 1), 'stores': (1, 1), 'successors': (1, 1)}

    name: str = ''
    """Name of the node, unique within the topology (KSTREAM-SOURCE-0000000000, ...)."""

    node_type: int = 0
    """Kind of node: 1 source, 2 processor, 3 sink."""

    source_topics: list[str] = field(default_factory=list)
    """Topics a source node reads; empty for other nodes, or when the topics are resolved at run time."""

    sink_topic: str | None = None
    """Topic a sink node writes; null for other nodes, or when the topic is chosen at run time."""

    stores: list[str] = field(default_factory=list)
    """State stores a processor node uses; empty for other nodes."""

    successors: list[str] = field(default_factory=list)
    """Names of the nodes this one feeds; predecessors follow from these."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescriptionSubtopology:
    """Common structure TopologyDescriptionSubtopology."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (1, 1), 'nodes': (1, 1)}

    subtopology_id: str = ''
    """ID of the subtopology, unique within the topology."""

    nodes: list[TopologyDescriptionNode] = field(default_factory=list)
    """Nodes of the subtopology."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescriptionGlobalStore:
    """Common structure TopologyDescriptionGlobalStore."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'source': (1, 1), 'processor': (1, 1)}

    source: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    """Source node that feeds the global store."""

    processor: TopologyDescriptionNode = field(default_factory=TopologyDescriptionNode)
    """Processor node that writes into the global store."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopologyDescription:
    """Common structure TopologyDescription."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopologies': (1, 1), 'global_stores': (1, 1)}

    subtopologies: list[TopologyDescriptionSubtopology] = field(default_factory=list)
    """Subtopologies of the topology."""

    global_stores: list[TopologyDescriptionGlobalStore] = field(default_factory=list)
    """Global state stores of the topology."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribedGroup:
    """One entry per requested group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 1), 'error_message': (0, 1), 'group_id': (0, 1), 'group_state': (0, 1), 'group_epoch': (0, 1), 'assignment_epoch': (0, 1), 'topology': (0, 1), 'members': (0, 1), 'authorized_operations': (0, 1), 'topology_description': (1, 1), 'topology_description_status': (1, 1), 'assignor_name': (1, 1)}

    error_code: int = 0
    """Error describing this group; 0 means success."""

    error_message: str | None = None
    """Error message for this group; null when no error occurred."""

    group_id: str = ''
    """ID of the group."""

    group_state: str = ''
    """State of the group, or an empty string."""

    group_epoch: int = 0
    """Epoch of the group."""

    assignment_epoch: int = 0
    """Epoch of the group's target assignment."""

    topology: Topology | None = None
    """Topology the group was initialised with; may be null when the group could not be described."""

    members: list[Member] = field(default_factory=list)
    """Members of the group."""

    authorized_operations: int = -2147483648
    """Bit field of the operations the caller may perform on the group; INT32_MIN when not requested."""

    topology_description: TopologyDescription | None = None
    """Full topology description of the group; set exactly when TopologyDescriptionStatus is 3 (available), null otherwise."""

    topology_description_status: int = 0
    """Whether TopologyDescription is filled in: 0 not requested, 1 none stored for the group, 2 the broker failed to read it, 3 available."""

    assignor_name: str | None = None
    """Task assignor the coordinator will use for the next assignment, which may differ from the one that computed the current assignment (changing it does not trigger a rebalance); null when the group could not be described."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupDescribeResponse(Message):
    """StreamsGroupDescribeResponse, api key 89."""

    API_KEY: ClassVar[int] = 89
    NAME: ClassVar[str] = 'StreamsGroupDescribeResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'groups': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    groups: list[DescribedGroup] = field(default_factory=list)
    """One entry per requested group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_KeyValue_v0(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return KeyValue(f_key, f_value, unknown), pos


def _d_TopicInfo_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_partitions, f_replication_factor = _S3u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_topic_configs = []
    append = f_topic_configs.append
    for _ in range(n):
        item, pos = _d_KeyValue_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicInfo(f_name, f_partitions, f_replication_factor, f_topic_configs, unknown), pos


def _d_Subtopology_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_repartition_sink_topics = []
    append = f_repartition_sink_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_state_changelog_topics = []
    append = f_state_changelog_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_repartition_source_topics = []
    append = f_repartition_source_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Subtopology(f_subtopology_id, f_source_topics, f_repartition_sink_topics, f_state_changelog_topics, f_repartition_source_topics, unknown), pos


def _d_Topology_v0(buf, pos):
    f_epoch = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_subtopologies = None
    else:
        f_subtopologies = []
        append = f_subtopologies.append
        for _ in range(n):
            item, pos = _d_Subtopology_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Topology(f_epoch, f_subtopologies, unknown), pos


def _d_Endpoint_v0(buf, pos):
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S4u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Endpoint(f_host, f_port, unknown), pos


def _d_TaskOffset_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    f_partition, f_offset = _S5u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TaskOffset(f_subtopology_id, f_partition, f_offset, unknown), pos


def _d_TaskIds_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TaskIds(f_subtopology_id, f_partitions, unknown), pos


def _d_Assignment_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_active_tasks = []
    append = f_active_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_standby_tasks = []
    append = f_standby_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_warmup_tasks = []
    append = f_warmup_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Assignment(f_active_tasks, f_standby_tasks, f_warmup_tasks, unknown), pos


def _d_Member_v0(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    f_topology_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_process_id, pos = read_compact_string(buf, pos)
    if buf[pos] == 255:
        f_user_endpoint = None
        pos += 1
    else:
        f_user_endpoint, pos = _d_Endpoint_v0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos)
    f_client_tags = []
    append = f_client_tags.append
    for _ in range(n):
        item, pos = _d_KeyValue_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_task_offsets = []
    append = f_task_offsets.append
    for _ in range(n):
        item, pos = _d_TaskOffset_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_task_end_offsets = []
    append = f_task_end_offsets.append
    for _ in range(n):
        item, pos = _d_TaskOffset_v0(buf, pos)
        append(item)
    f_assignment, pos = _d_Assignment_v0(buf, pos)
    f_target_assignment, pos = _d_Assignment_v0(buf, pos)
    f_is_classic = _S6u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Member(f_member_id, f_member_epoch, f_instance_id, f_rack_id, f_client_id, f_client_host, f_topology_epoch, f_process_id, f_user_endpoint, f_client_tags, f_task_offsets, f_task_end_offsets, f_assignment, f_target_assignment, f_is_classic, unknown), pos


def _d_DescribedGroup_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_group_epoch, f_assignment_epoch = _S2u(buf, pos)
    pos += 8
    if buf[pos] == 255:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _d_Topology_v0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_Member_v0(buf, pos)
        append(item)
    f_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_topology, f_members, f_authorized_operations, None, 0, None, unknown), pos


def _d_StreamsGroupDescribeResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupDescribeResponse(f_throttle_time_ms, f_groups, unknown), pos


def _d_TopologyDescriptionNode_v1(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_node_type = _S7u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_sink_topic, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_stores = []
    append = f_stores.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_successors = []
    append = f_successors.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionNode(f_name, f_node_type, f_source_topics, f_sink_topic, f_stores, f_successors, unknown), pos


def _d_TopologyDescriptionSubtopology_v1(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_nodes = []
    append = f_nodes.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionNode_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionSubtopology(f_subtopology_id, f_nodes, unknown), pos


def _d_TopologyDescriptionGlobalStore_v1(buf, pos):
    f_source, pos = _d_TopologyDescriptionNode_v1(buf, pos)
    f_processor, pos = _d_TopologyDescriptionNode_v1(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescriptionGlobalStore(f_source, f_processor, unknown), pos


def _d_TopologyDescription_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_subtopologies = []
    append = f_subtopologies.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionSubtopology_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_global_stores = []
    append = f_global_stores.append
    for _ in range(n):
        item, pos = _d_TopologyDescriptionGlobalStore_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopologyDescription(f_subtopologies, f_global_stores, unknown), pos


def _d_DescribedGroup_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_group_epoch, f_assignment_epoch = _S2u(buf, pos)
    pos += 8
    if buf[pos] == 255:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _d_Topology_v0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_Member_v0(buf, pos)
        append(item)
    f_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos] == 255:
        f_topology_description = None
        pos += 1
    else:
        f_topology_description, pos = _d_TopologyDescription_v1(buf, pos + 1)
    f_topology_description_status = _S7u(buf, pos)[0]
    pos += 1
    f_assignor_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_topology, f_members, f_authorized_operations, f_topology_description, f_topology_description_status, f_assignor_name, unknown), pos


def _d_StreamsGroupDescribeResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupDescribeResponse(f_throttle_time_ms, f_groups, unknown), pos


def _e_KeyValue_v0(o, out):
    write_compact_string(out, o.key)
    write_compact_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicInfo_v0(o, out):
    write_compact_string(out, o.name)
    out += _S3p(o.partitions, o.replication_factor)
    value = o.topic_configs
    write_compact_array_len(out, value)
    for item in value:
        _e_KeyValue_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Subtopology_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.source_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.repartition_sink_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.state_changelog_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    value = o.repartition_source_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Topology_v0(o, out):
    out += _S0p(o.epoch)
    value = o.subtopologies
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_Subtopology_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Endpoint_v0(o, out):
    write_compact_string(out, o.host)
    out += _S4p(o.port)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TaskOffset_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    out += _S5p(o.partition, o.offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TaskIds_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Assignment_v0(o, out):
    value = o.active_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.standby_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.warmup_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Member_v0(o, out):
    write_compact_string(out, o.member_id)
    out += _S0p(o.member_epoch)
    write_compact_nullable_string(out, o.instance_id)
    write_compact_nullable_string(out, o.rack_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    out += _S0p(o.topology_epoch)
    write_compact_string(out, o.process_id)
    if o.user_endpoint is None:
        out.append(255)
    else:
        out.append(1)
        _e_Endpoint_v0(o.user_endpoint, out)
    value = o.client_tags
    write_compact_array_len(out, value)
    for item in value:
        _e_KeyValue_v0(item, out)
    value = o.task_offsets
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskOffset_v0(item, out)
    value = o.task_end_offsets
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskOffset_v0(item, out)
    _e_Assignment_v0(o.assignment, out)
    _e_Assignment_v0(o.target_assignment, out)
    out += _S8p(o.is_classic)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedGroup_v0(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.group_state)
    out += _S2p(o.group_epoch, o.assignment_epoch)
    if o.topology is None:
        out.append(255)
    else:
        out.append(1)
        _e_Topology_v0(o.topology, out)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_Member_v0(item, out)
    out += _S0p(o.authorized_operations)
    if o.topology_description is not None:
        raise UnsupportedFieldError('StreamsGroupDescribeResponse v0 cannot carry a non-default TopologyDescription')
    if o.topology_description_status != 0:
        raise UnsupportedFieldError('StreamsGroupDescribeResponse v0 cannot carry a non-default TopologyDescriptionStatus')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupDescribeResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescriptionNode_v1(o, out):
    write_compact_string(out, o.name)
    out += _S7p(o.node_type)
    value = o.source_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    write_compact_nullable_string(out, o.sink_topic)
    value = o.stores
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.successors
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescriptionSubtopology_v1(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.nodes
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionNode_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescriptionGlobalStore_v1(o, out):
    _e_TopologyDescriptionNode_v1(o.source, out)
    _e_TopologyDescriptionNode_v1(o.processor, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopologyDescription_v1(o, out):
    value = o.subtopologies
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionSubtopology_v1(item, out)
    value = o.global_stores
    write_compact_array_len(out, value)
    for item in value:
        _e_TopologyDescriptionGlobalStore_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedGroup_v1(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.group_state)
    out += _S2p(o.group_epoch, o.assignment_epoch)
    if o.topology is None:
        out.append(255)
    else:
        out.append(1)
        _e_Topology_v0(o.topology, out)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_Member_v0(item, out)
    out += _S0p(o.authorized_operations)
    if o.topology_description is None:
        out.append(255)
    else:
        out.append(1)
        _e_TopologyDescription_v1(o.topology_description, out)
    out += _S7p(o.topology_description_status)
    write_compact_nullable_string(out, o.assignor_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupDescribeResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupDescribeResponse._DECODERS = {
    0: _d_StreamsGroupDescribeResponse_v0,
    1: _d_StreamsGroupDescribeResponse_v1,
}
StreamsGroupDescribeResponse._ENCODERS = {
    0: _e_StreamsGroupDescribeResponse_v0,
    1: _e_StreamsGroupDescribeResponse_v1,
}
