# Generated from protocol/schemas/OffsetFetchResponse.json by codegen; do not edit.
"""OffsetFetchResponse: response, api key 9, versions 1-10."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "OffsetFetchResponsePartition",
    "OffsetFetchResponseTopic",
    "OffsetFetchResponsePartitions",
    "OffsetFetchResponseTopics",
    "OffsetFetchResponseGroup",
    "OffsetFetchResponse",
]
_S0 = Struct('>iq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iqi')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class OffsetFetchResponsePartition:
    """Results for each partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 7), 'committed_offset': (0, 7), 'committed_leader_epoch': (5, 7), 'metadata': (0, 7), 'error_code': (0, 7)}

    partition_index: int = 0
    """Index of the partition."""

    committed_offset: int = 0
    """Offset of the last committed message."""

    committed_leader_epoch: int = -1
    """Leader epoch of the committed offset."""

    metadata: str | None = ''
    """Metadata stored with the partition's committed offset."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchResponseTopic:
    """Results for each topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 7), 'partitions': (0, 7)}

    name: str = ''
    """Name of the topic."""

    partitions: list[OffsetFetchResponsePartition] = field(default_factory=list)
    """Results for each partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchResponsePartitions:
    """Results for each partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (8, 10), 'committed_offset': (8, 10), 'committed_leader_epoch': (8, 10), 'metadata': (8, 10), 'error_code': (8, 10)}

    partition_index: int = 0
    """Index of the partition."""

    committed_offset: int = 0
    """Offset of the last committed message."""

    committed_leader_epoch: int = -1
    """Leader epoch of the committed offset."""

    metadata: str | None = ''
    """Metadata stored with the partition's committed offset."""

    error_code: int = 0
    """Error code for this partition, or 0 when there was no error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchResponseTopics:
    """Results for each topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (8, 9), 'topic_id': (10, 10), 'partitions': (8, 10)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[OffsetFetchResponsePartitions] = field(default_factory=list)
    """Results for each partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchResponseGroup:
    """Results for each group ID."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (8, 10), 'topics': (8, 10), 'error_code': (8, 10)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[OffsetFetchResponseTopics] = field(default_factory=list)
    """Results for each topic."""

    error_code: int = 0
    """Error code for the whole group, or 0 when there was no error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchResponse(Message):
    """OffsetFetchResponse, api key 9."""

    API_KEY: ClassVar[int] = 9
    NAME: ClassVar[str] = 'OffsetFetchResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (3, 10), 'topics': (0, 7), 'error_code': (2, 7), 'groups': (8, 10)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[OffsetFetchResponseTopic] = field(default_factory=list)
    """Results for each topic."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    groups: list[OffsetFetchResponseGroup] = field(default_factory=list)
    """Results for each group ID."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetFetchResponsePartition_v1(buf, pos):
    f_partition_index, f_committed_offset = _S0u(buf, pos)
    pos += 12
    f_metadata, pos = read_nullable_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, -1, f_metadata, f_error_code), pos


def _d_OffsetFetchResponseTopic_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponsePartition_v1(buf, pos)
        append(item)
    return OffsetFetchResponseTopic(f_name, f_partitions), pos


def _d_OffsetFetchResponse_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        append(item)
    return OffsetFetchResponse(0, f_topics, 0, []), pos


def _d_OffsetFetchResponse_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return OffsetFetchResponse(0, f_topics, f_error_code, []), pos


def _d_OffsetFetchResponse_v3(buf, pos):
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopic_v1(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, []), pos


def _d_OffsetFetchResponsePartition_v5(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3u(buf, pos)
    pos += 16
    f_metadata, pos = read_nullable_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code), pos


def _d_OffsetFetchResponseTopic_v5(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponsePartition_v5(buf, pos)
        append(item)
    return OffsetFetchResponseTopic(f_name, f_partitions), pos


def _d_OffsetFetchResponse_v5(buf, pos):
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopic_v5(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, []), pos


def _d_OffsetFetchResponsePartition_v6(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3u(buf, pos)
    pos += 16
    f_metadata, pos = read_compact_nullable_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponsePartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code, unknown), pos


def _d_OffsetFetchResponseTopic_v6(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponsePartition_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponseTopic(f_name, f_partitions, unknown), pos


def _d_OffsetFetchResponse_v6(buf, pos):
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopic_v6(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponse(f_throttle_time_ms, f_topics, f_error_code, [], unknown), pos


def _d_OffsetFetchResponsePartitions_v8(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3u(buf, pos)
    pos += 16
    f_metadata, pos = read_compact_nullable_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponsePartitions(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_metadata, f_error_code, unknown), pos


def _d_OffsetFetchResponseTopics_v8(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponsePartitions_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponseTopics(f_name, UUID_ZERO, f_partitions, unknown), pos


def _d_OffsetFetchResponseGroup_v8(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopics_v8(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponseGroup(f_group_id, f_topics, f_error_code, unknown), pos


def _d_OffsetFetchResponse_v8(buf, pos):
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseGroup_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponse(f_throttle_time_ms, [], 0, f_groups, unknown), pos


def _d_OffsetFetchResponseTopics_v10(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponsePartitions_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponseTopics('', f_topic_id, f_partitions, unknown), pos


def _d_OffsetFetchResponseGroup_v10(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseTopics_v10(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponseGroup(f_group_id, f_topics, f_error_code, unknown), pos


def _d_OffsetFetchResponse_v10(buf, pos):
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_OffsetFetchResponseGroup_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchResponse(f_throttle_time_ms, [], 0, f_groups, unknown), pos


def _e_OffsetFetchResponsePartition_v1(o, out):
    out += _S0p(o.partition_index, o.committed_offset)
    write_nullable_string(out, o.metadata)
    out += _S1p(o.error_code)


def _e_OffsetFetchResponseTopic_v1(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponsePartition_v1(item, out)


def _e_OffsetFetchResponse_v1(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v1 cannot carry a non-default Groups')


def _e_OffsetFetchResponse_v2(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v1(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v2 cannot carry a non-default Groups')


def _e_OffsetFetchResponse_v3(o, out):
    out += _S2p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v1(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v3 cannot carry a non-default Groups')


def _e_OffsetFetchResponse_v4(o, out):
    out += _S2p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v1(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v4 cannot carry a non-default Groups')


def _e_OffsetFetchResponsePartition_v5(o, out):
    out += _S3p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_nullable_string(out, o.metadata)
    out += _S1p(o.error_code)


def _e_OffsetFetchResponseTopic_v5(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponsePartition_v5(item, out)


def _e_OffsetFetchResponse_v5(o, out):
    out += _S2p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v5(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v5 cannot carry a non-default Groups')


def _e_OffsetFetchResponsePartition_v6(o, out):
    out += _S3p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_compact_nullable_string(out, o.metadata)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponseTopic_v6(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponsePartition_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponse_v6(o, out):
    out += _S2p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v6(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v6 cannot carry a non-default Groups')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponse_v7(o, out):
    out += _S2p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopic_v6(item, out)
    out += _S1p(o.error_code)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchResponse v7 cannot carry a non-default Groups')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponsePartitions_v8(o, out):
    out += _S3p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_compact_nullable_string(out, o.metadata)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponseTopics_v8(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponsePartitions_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponseGroup_v8(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopics_v8(item, out)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponse_v8(o, out):
    out += _S2p(o.throttle_time_ms)
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchResponse v8 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseGroup_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponse_v9(o, out):
    out += _S2p(o.throttle_time_ms)
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchResponse v9 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseGroup_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponseTopics_v10(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponsePartitions_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponseGroup_v10(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseTopics_v10(item, out)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchResponse_v10(o, out):
    out += _S2p(o.throttle_time_ms)
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchResponse v10 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchResponseGroup_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetFetchResponse._DECODERS = {
    1: _d_OffsetFetchResponse_v1,
    2: _d_OffsetFetchResponse_v2,
    3: _d_OffsetFetchResponse_v3,
    4: _d_OffsetFetchResponse_v3,
    5: _d_OffsetFetchResponse_v5,
    6: _d_OffsetFetchResponse_v6,
    7: _d_OffsetFetchResponse_v6,
    8: _d_OffsetFetchResponse_v8,
    9: _d_OffsetFetchResponse_v8,
    10: _d_OffsetFetchResponse_v10,
}
OffsetFetchResponse._ENCODERS = {
    1: _e_OffsetFetchResponse_v1,
    2: _e_OffsetFetchResponse_v2,
    3: _e_OffsetFetchResponse_v3,
    4: _e_OffsetFetchResponse_v4,
    5: _e_OffsetFetchResponse_v5,
    6: _e_OffsetFetchResponse_v6,
    7: _e_OffsetFetchResponse_v7,
    8: _e_OffsetFetchResponse_v8,
    9: _e_OffsetFetchResponse_v9,
    10: _e_OffsetFetchResponse_v10,
}
