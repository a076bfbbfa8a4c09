# Generated from protocol/schemas/DescribeTopicPartitionsResponse.json by codegen; do not edit.
"""DescribeTopicPartitionsResponse: response, api key 75, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "DescribeTopicPartitionsResponsePartition",
    "DescribeTopicPartitionsResponseTopic",
    "Cursor",
    "DescribeTopicPartitionsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>hiii')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>B')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class DescribeTopicPartitionsResponsePartition:
    """One entry per partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 0), 'partition_index': (0, 0), 'leader_id': (0, 0), 'leader_epoch': (0, 0), 'replica_nodes': (0, 0), 'isr_nodes': (0, 0), 'eligible_leader_replicas': (0, 0), 'last_known_elr': (0, 0), 'offline_replicas': (0, 0)}

    error_code: int = 0
    """Error code for the partition, or 0 when there was no error."""

    partition_index: int = 0
    """Index of the partition."""

    leader_id: int = 0
    """Broker ID of the partition leader."""

    leader_epoch: int = -1
    """Leader epoch for this partition."""

    replica_nodes: list[int] = field(default_factory=list)
    """All nodes holding a replica of this partition."""

    isr_nodes: list[int] = field(default_factory=list)
    """Nodes whose replicas of this partition are in sync with the leader."""

    eligible_leader_replicas: list[int] | None = None
    """Otherwise, the new set of eligible leader replicas."""

    last_known_elr: list[int] | None = None
    """Most recently known eligible leader replicas (ELR)."""

    offline_replicas: list[int] = field(default_factory=list)
    """Replicas of this partition that are offline."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeTopicPartitionsResponseTopic:
    """One entry per topic in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 0), 'name': (0, 0), 'topic_id': (0, 0), 'is_internal': (0, 0), 'partitions': (0, 0), 'topic_authorized_operations': (0, 0)}

    error_code: int = 0
    """Error code for the topic, or 0 when there was no error."""

    name: str | None = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    is_internal: bool = False
    """Indicates whether the topic is internal."""

    partitions: list[DescribeTopicPartitionsResponsePartition] = field(default_factory=list)
    """One entry per partition of the topic."""

    topic_authorized_operations: int = -2147483648
    """Bitfield (32 bits) encoding the operations authorized on this topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Cursor:
    """Topic and partition index from which the next fetch of details should continue."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 0), 'partition_index': (0, 0)}

    topic_name: str = ''
    """Name of the topic where processing starts."""

    partition_index: int = 0
    """Index of the partition where processing starts."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeTopicPartitionsResponse(Message):
    """DescribeTopicPartitionsResponse, api key 75."""

    API_KEY: ClassVar[int] = 75
    NAME: ClassVar[str] = 'DescribeTopicPartitionsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'topics': (0, 0), 'next_cursor': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[DescribeTopicPartitionsResponseTopic] = field(default_factory=list)
    """One entry per topic in the response."""

    next_cursor: Cursor | None = None
    """Topic and partition index from which the next fetch of details should continue."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeTopicPartitionsResponsePartition_v0(buf, pos):
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S3u(buf, pos)
    pos += 14
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replica_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_isr_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_eligible_leader_replicas = None
    else:
        check_count(buf, pos, n, 4)
        f_eligible_leader_replicas = list(unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_last_known_elr = None
    else:
        check_count(buf, pos, n, 4)
        f_last_known_elr = list(unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_offline_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTopicPartitionsResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_eligible_leader_replicas, f_last_known_elr, f_offline_replicas, unknown), pos


def _d_DescribeTopicPartitionsResponseTopic_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal = _S2u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DescribeTopicPartitionsResponsePartition_v0(buf, pos)
        append(item)
    f_topic_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTopicPartitionsResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, unknown), pos


def _d_Cursor_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    f_partition_index = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Cursor(f_topic_name, f_partition_index, unknown), pos


def _d_DescribeTopicPartitionsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeTopicPartitionsResponseTopic_v0(buf, pos)
        append(item)
    if buf[pos] == 255:
        f_next_cursor = None
        pos += 1
    else:
        f_next_cursor, pos = _d_Cursor_v0(buf, pos + 1)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTopicPartitionsResponse(f_throttle_time_ms, f_topics, f_next_cursor, unknown), pos


def _e_DescribeTopicPartitionsResponsePartition_v0(o, out):
    out += _S3p(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    value = o.replica_nodes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.isr_nodes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.eligible_leader_replicas
    write_compact_nullable_array_len(out, value)
    if value is not None:
        out += pack('>%di' % len(value), *value)
    value = o.last_known_elr
    write_compact_nullable_array_len(out, value)
    if value is not None:
        out += pack('>%di' % len(value), *value)
    value = o.offline_replicas
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeTopicPartitionsResponseTopic_v0(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.name)
    write_uuid(out, o.topic_id)
    out += _S4p(o.is_internal)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeTopicPartitionsResponsePartition_v0(item, out)
    out += _S0p(o.topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Cursor_v0(o, out):
    write_compact_string(out, o.topic_name)
    out += _S0p(o.partition_index)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeTopicPartitionsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeTopicPartitionsResponseTopic_v0(item, out)
    if o.next_cursor is None:
        out.append(255)
    else:
        out.append(1)
        _e_Cursor_v0(o.next_cursor, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeTopicPartitionsResponse._DECODERS = {
    0: _d_DescribeTopicPartitionsResponse_v0,
}
DescribeTopicPartitionsResponse._ENCODERS = {
    0: _e_DescribeTopicPartitionsResponse_v0,
}
