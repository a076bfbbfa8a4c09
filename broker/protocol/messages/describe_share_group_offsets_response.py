# Generated from protocol/schemas/DescribeShareGroupOffsetsResponse.json by codegen; do not edit.
"""DescribeShareGroupOffsetsResponse: response, api key 90, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "DescribeShareGroupOffsetsResponsePartition",
    "DescribeShareGroupOffsetsResponseTopic",
    "DescribeShareGroupOffsetsResponseGroup",
    "DescribeShareGroupOffsetsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iqih')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>h')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iqiqh')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponsePartition:
    """Common structure DescribeShareGroupOffsetsResponsePartition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 1), 'start_offset': (0, 1), 'leader_epoch': (0, 1), 'lag': (1, 1), 'error_code': (0, 1), 'error_message': (0, 1)}

    partition_index: int = 0
    """Index of the partition."""

    start_offset: int = 0
    """Start offset of the share-partition."""

    leader_epoch: int = 0
    """Leader epoch for the partition."""

    lag: int = -1
    """Lag of the share-partition."""

    error_code: int = 0
    """Error code for this partition, or 0 when there was no error."""

    error_message: str | None = None
    """Error message for this partition, or null when there was no error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponseTopic:
    """Per-topic results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 1), 'topic_id': (0, 1), 'partitions': (0, 1)}

    topic_name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[DescribeShareGroupOffsetsResponsePartition] = field(default_factory=list)
    """"""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponseGroup:
    """Per-group results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 1), 'topics': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[DescribeShareGroupOffsetsResponseTopic] = field(default_factory=list)
    """Per-topic results."""

    error_code: int = 0
    """Error code for the whole group, or 0 when there was no error."""

    error_message: str | None = None
    """Error message for the whole group, or null when there was no error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeShareGroupOffsetsResponse(Message):
    """DescribeShareGroupOffsetsResponse, api key 90."""

    API_KEY: ClassVar[int] = 90
    NAME: ClassVar[str] = 'DescribeShareGroupOffsetsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'groups': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    groups: list[DescribeShareGroupOffsetsResponseGroup] = field(default_factory=list)
    """Per-group results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeShareGroupOffsetsResponsePartition_v0(buf, pos):
    f_partition_index, f_start_offset, f_leader_epoch, f_error_code = _S1u(buf, pos)
    pos += 18
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponsePartition(f_partition_index, f_start_offset, f_leader_epoch, -1, f_error_code, f_error_message, unknown), pos


def _d_DescribeShareGroupOffsetsResponseTopic_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponsePartition_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_partitions, unknown), pos


def _d_DescribeShareGroupOffsetsResponseGroup_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponseTopic_v0(buf, pos)
        append(item)
    f_error_code = _S2u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponseGroup(f_group_id, f_topics, f_error_code, f_error_message, unknown), pos


def _d_DescribeShareGroupOffsetsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponseGroup_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponse(f_throttle_time_ms, f_groups, unknown), pos


def _d_DescribeShareGroupOffsetsResponsePartition_v1(buf, pos):
    f_partition_index, f_start_offset, f_leader_epoch, f_lag, f_error_code = _S3u(buf, pos)
    pos += 26
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponsePartition(f_partition_index, f_start_offset, f_leader_epoch, f_lag, f_error_code, f_error_message, unknown), pos


def _d_DescribeShareGroupOffsetsResponseTopic_v1(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponsePartition_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_partitions, unknown), pos


def _d_DescribeShareGroupOffsetsResponseGroup_v1(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponseTopic_v1(buf, pos)
        append(item)
    f_error_code = _S2u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponseGroup(f_group_id, f_topics, f_error_code, f_error_message, unknown), pos


def _d_DescribeShareGroupOffsetsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsResponseGroup_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsResponse(f_throttle_time_ms, f_groups, unknown), pos


def _e_DescribeShareGroupOffsetsResponsePartition_v0(o, out):
    out += _S1p(o.partition_index, o.start_offset, o.leader_epoch, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponseTopic_v0(o, out):
    write_compact_string(out, o.topic_name)
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponsePartition_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponseGroup_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponseTopic_v0(item, out)
    out += _S2p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponseGroup_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponsePartition_v1(o, out):
    out += _S3p(o.partition_index, o.start_offset, o.leader_epoch, o.lag, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponseTopic_v1(o, out):
    write_compact_string(out, o.topic_name)
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponsePartition_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponseGroup_v1(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponseTopic_v1(item, out)
    out += _S2p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsResponseGroup_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeShareGroupOffsetsResponse._DECODERS = {
    0: _d_DescribeShareGroupOffsetsResponse_v0,
    1: _d_DescribeShareGroupOffsetsResponse_v1,
}
DescribeShareGroupOffsetsResponse._ENCODERS = {
    0: _e_DescribeShareGroupOffsetsResponse_v0,
    1: _e_DescribeShareGroupOffsetsResponse_v1,
}
