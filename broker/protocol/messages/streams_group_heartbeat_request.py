# Generated from protocol/schemas/StreamsGroupHeartbeatRequest.json by codegen; do not edit.
"""StreamsGroupHeartbeatRequest: request, api key 88, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

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
    "CopartitionGroup",
    "Subtopology",
    "Topology",
    "TaskIds",
    "Endpoint",
    "TaskOffset",
    "StreamsGroupHeartbeatRequest",
]
_S0 = Struct('>ii')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ih')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>H')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>iq')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>?')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>B')
_S6u = _S6.unpack_from
_S6p = _S6.pack


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
class CopartitionGroup:
    """Groups of source topics that must have the same partition count."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'source_topics': (0, 1), 'source_topic_regex': (0, 1), 'repartition_source_topics': (0, 1)}

    source_topics: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's SourceTopics."""

    source_topic_regex: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's SourceTopicRegex."""

    repartition_source_topics: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's RepartitionSourceTopics."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Subtopology:
    """Subtopologies of the application."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 1), 'source_topics': (0, 1), 'source_topic_regex': (0, 1), 'state_changelog_topics': (0, 1), 'repartition_sink_topics': (0, 1), 'repartition_source_topics': (0, 1), 'copartition_groups': (0, 1)}

    subtopology_id: str = ''
    """ID of the subtopology, derived deterministically from the topology."""

    source_topics: list[str] = field(default_factory=list)
    """Topics the subtopology reads."""

    source_topic_regex: list[str] = field(default_factory=list)
    """Regular expressions naming further topics the subtopology reads."""

    state_changelog_topics: list[TopicInfo] = field(default_factory=list)
    """Changelog topics of the subtopology's state stores, created by the coordinator."""

    repartition_sink_topics: list[str] = field(default_factory=list)
    """Repartition topics the subtopology writes."""

    repartition_source_topics: list[TopicInfo] = field(default_factory=list)
    """Source topics of the subtopology that are internal repartition topics, created by the coordinator."""

    copartition_groups: list[CopartitionGroup] = field(default_factory=list)
    """Groups of source topics that must have the same partition count."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Topology:
    """Topology of the Streams application, sent only when joining (MemberEpoch 0) and then non-empty; the coordinator initialises the group's topology from it or checks it against the one it has. Null otherwise."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 1), 'subtopologies': (0, 1)}

    epoch: int = 0
    """Epoch of the topology, compared with the one the group was initialised with."""

    subtopologies: list[Subtopology] = field(default_factory=list)
    """Subtopologies of the application."""

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
class StreamsGroupHeartbeatRequest(Message):
    """StreamsGroupHeartbeatRequest, api key 88."""

    API_KEY: ClassVar[int] = 88
    NAME: ClassVar[str] = 'StreamsGroupHeartbeatRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 1), 'member_id': (0, 1), 'member_epoch': (0, 1), 'endpoint_information_epoch': (0, 1), 'instance_id': (0, 1), 'rack_id': (0, 1), 'rebalance_timeout_ms': (0, 1), 'topology': (0, 1), 'active_tasks': (0, 1), 'standby_tasks': (0, 1), 'warmup_tasks': (0, 1), 'process_id': (0, 1), 'user_endpoint': (0, 1), 'client_tags': (0, 1), 'task_offsets': (0, 1), 'task_end_offsets': (0, 1), 'shutdown_application': (0, 1)}

    group_id: str = ''
    """ID of the streams group."""

    member_id: str = ''
    """Member ID, generated by the Streams client and kept for the life of the client process."""

    member_epoch: int = 0
    """Current epoch of the member: 0 joins the group, -1 leaves it, -2 leaves as a static member that will come back."""

    endpoint_information_epoch: int = 0
    """Latest endpoint-information epoch the client has received."""

    instance_id: str | None = None
    """Instance ID for static membership; null when not set or unchanged since the last heartbeat."""

    rack_id: str | None = None
    """Rack of the member; null when not set or unchanged since the last heartbeat."""

    rebalance_timeout_ms: int = -1
    """Longest time, in milliseconds, the coordinator waits for the member to give up revoked tasks; -1 when unchanged since the last heartbeat."""

    topology: Topology | None = None
    """Topology of the Streams application, sent only when joining (MemberEpoch 0) and then non-empty; the coordinator initialises the group's topology from it or checks it against the one it has. Null otherwise."""

    active_tasks: list[TaskIds] | None = None
    """Active tasks the member owns now; null when unchanged since the last heartbeat."""

    standby_tasks: list[TaskIds] | None = None
    """Standby tasks the member owns now; null when unchanged since the last heartbeat."""

    warmup_tasks: list[TaskIds] | None = None
    """Warm-up tasks the member owns now; null when unchanged since the last heartbeat."""

    process_id: str | None = None
    """ID of the Streams process, which may run several members; null when unchanged since the last heartbeat."""

    user_endpoint: Endpoint | None = None
    """Endpoint the application serves interactive queries on; null when unchanged since the last heartbeat or not configured."""

    client_tags: list[KeyValue] | None = None
    """Client tags for rack-aware task assignment; null when unchanged since the last heartbeat."""

    task_offsets: list[TaskOffset] | None = None
    """Changelog offsets of the member's tasks, sent when a warm-up task has caught up and every task-offset interval; null when unchanged since the last heartbeat."""

    task_end_offsets: list[TaskOffset] | None = None
    """Changelog end offsets of the member's tasks, sent on the same occasions as TaskOffsets; null when unchanged since the last heartbeat."""

    shutdown_application: bool = False
    """Asks every member of the group to shut down."""

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
    f_partitions, f_replication_factor = _S2u(buf, pos)
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


def _d_CopartitionGroup_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_source_topics = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_source_topic_regex = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_repartition_source_topics = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CopartitionGroup(f_source_topics, f_source_topic_regex, f_repartition_source_topics, unknown), pos


def _d_Subtopology_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_source_topic_regex = []
    append = f_source_topic_regex.append
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
    f_repartition_sink_topics = []
    append = f_repartition_sink_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_repartition_source_topics = []
    append = f_repartition_source_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_copartition_groups = []
    append = f_copartition_groups.append
    for _ in range(n):
        item, pos = _d_CopartitionGroup_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Subtopology(f_subtopology_id, f_source_topics, f_source_topic_regex, f_state_changelog_topics, f_repartition_sink_topics, f_repartition_source_topics, f_copartition_groups, unknown), pos


def _d_Topology_v0(buf, pos):
    f_epoch = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
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


def _d_Endpoint_v0(buf, pos):
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S3u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Endpoint(f_host, f_port, unknown), pos


def _d_TaskOffset_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    f_partition, f_offset = _S4u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TaskOffset(f_subtopology_id, f_partition, f_offset, unknown), pos


def _d_StreamsGroupHeartbeatRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    f_member_epoch, f_endpoint_information_epoch = _S0u(buf, pos)
    pos += 8
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_rebalance_timeout_ms = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos] == 255:
        f_topology = None
        pos += 1
    else:
        f_topology, pos = _d_Topology_v0(buf, pos + 1)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_active_tasks = None
    else:
        f_active_tasks = []
        append = f_active_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_standby_tasks = None
    else:
        f_standby_tasks = []
        append = f_standby_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_warmup_tasks = None
    else:
        f_warmup_tasks = []
        append = f_warmup_tasks.append
        for _ in range(n):
            item, pos = _d_TaskIds_v0(buf, pos)
            append(item)
    f_process_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos] == 255:
        f_user_endpoint = None
        pos += 1
    else:
        f_user_endpoint, pos = _d_Endpoint_v0(buf, pos + 1)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_client_tags = None
    else:
        f_client_tags = []
        append = f_client_tags.append
        for _ in range(n):
            item, pos = _d_KeyValue_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_task_offsets = None
    else:
        f_task_offsets = []
        append = f_task_offsets.append
        for _ in range(n):
            item, pos = _d_TaskOffset_v0(buf, pos)
            append(item)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_task_end_offsets = None
    else:
        f_task_end_offsets = []
        append = f_task_end_offsets.append
        for _ in range(n):
            item, pos = _d_TaskOffset_v0(buf, pos)
            append(item)
    f_shutdown_application = _S5u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupHeartbeatRequest(f_group_id, f_member_id, f_member_epoch, f_endpoint_information_epoch, f_instance_id, f_rack_id, f_rebalance_timeout_ms, f_topology, f_active_tasks, f_standby_tasks, f_warmup_tasks, f_process_id, f_user_endpoint, f_client_tags, f_task_offsets, f_task_end_offsets, f_shutdown_application, unknown), pos


def _e_KeyValue_v0(o, out):
    write_compact_string(out, o.key)
    write_compact_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicInfo_v0(o, out):
    write_compact_string(out, o.name)
    out += _S2p(o.partitions, o.replication_factor)
    value = o.topic_configs
    write_compact_array_len(out, value)
    for item in value:
        _e_KeyValue_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CopartitionGroup_v0(o, out):
    value = o.source_topics
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
    value = o.source_topic_regex
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
    value = o.repartition_source_topics
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
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
    value = o.source_topic_regex
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.state_changelog_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    value = o.repartition_sink_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.repartition_source_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    value = o.copartition_groups
    write_compact_array_len(out, value)
    for item in value:
        _e_CopartitionGroup_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Topology_v0(o, out):
    out += _S1p(o.epoch)
    value = o.subtopologies
    write_compact_array_len(out, value)
    for item in value:
        _e_Subtopology_v0(item, out)
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


def _e_Endpoint_v0(o, out):
    write_compact_string(out, o.host)
    out += _S3p(o.port)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TaskOffset_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    out += _S4p(o.partition, o.offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupHeartbeatRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.member_id)
    out += _S0p(o.member_epoch, o.endpoint_information_epoch)
    write_compact_nullable_string(out, o.instance_id)
    write_compact_nullable_string(out, o.rack_id)
    out += _S1p(o.rebalance_timeout_ms)
    if o.topology is None:
        out.append(255)
    else:
        out.append(1)
        _e_Topology_v0(o.topology, out)
    value = o.active_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.standby_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    value = o.warmup_tasks
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskIds_v0(item, out)
    write_compact_nullable_string(out, o.process_id)
    if o.user_endpoint is None:
        out.append(255)
    else:
        out.append(1)
        _e_Endpoint_v0(o.user_endpoint, out)
    value = o.client_tags
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_KeyValue_v0(item, out)
    value = o.task_offsets
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskOffset_v0(item, out)
    value = o.task_end_offsets
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TaskOffset_v0(item, out)
    out += _S6p(o.shutdown_application)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupHeartbeatRequest._DECODERS = {
    0: _d_StreamsGroupHeartbeatRequest_v0,
    1: _d_StreamsGroupHeartbeatRequest_v0,
}
StreamsGroupHeartbeatRequest._ENCODERS = {
    0: _e_StreamsGroupHeartbeatRequest_v0,
    1: _e_StreamsGroupHeartbeatRequest_v0,
}
