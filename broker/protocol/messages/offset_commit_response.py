# Generated from protocol/schemas/OffsetCommitResponse.json by codegen; do not edit.
"""OffsetCommitResponse: response, api key 8, versions 2-10."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "OffsetCommitResponsePartition",
    "OffsetCommitResponseTopic",
    "OffsetCommitResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class OffsetCommitResponsePartition:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 10), 'error_code': (0, 10)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetCommitResponseTopic:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 9), 'topic_id': (10, 10), 'partitions': (0, 10)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[OffsetCommitResponsePartition] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetCommitResponse(Message):
    """OffsetCommitResponse, api key 8."""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = 'OffsetCommitResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 8
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (3, 10), 'topics': (0, 10)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[OffsetCommitResponseTopic] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetCommitResponsePartition_v2(buf, pos):
    f_partition_index, f_error_code = _S0u(buf, pos)
    pos += 6
    return OffsetCommitResponsePartition(f_partition_index, f_error_code), pos


def _d_OffsetCommitResponseTopic_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponsePartition_v2(buf, pos)
        append(item)
    return OffsetCommitResponseTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_OffsetCommitResponse_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponseTopic_v2(buf, pos)
        append(item)
    return OffsetCommitResponse(0, f_topics), pos


def _d_OffsetCommitResponse_v3(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponseTopic_v2(buf, pos)
        append(item)
    return OffsetCommitResponse(f_throttle_time_ms, f_topics), pos


def _d_OffsetCommitResponsePartition_v8(buf, pos):
    f_partition_index, f_error_code = _S0u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitResponsePartition(f_partition_index, f_error_code, unknown), pos


def _d_OffsetCommitResponseTopic_v8(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponsePartition_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitResponseTopic(f_name, UUID_ZERO, f_partitions, unknown), pos


def _d_OffsetCommitResponse_v8(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponseTopic_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitResponse(f_throttle_time_ms, f_topics, unknown), pos


def _d_OffsetCommitResponseTopic_v10(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponsePartition_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitResponseTopic('', f_topic_id, f_partitions, unknown), pos


def _d_OffsetCommitResponse_v10(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitResponseTopic_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_OffsetCommitResponsePartition_v2(o, out):
    out += _S0p(o.partition_index, o.error_code)


def _e_OffsetCommitResponseTopic_v2(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponsePartition_v2(item, out)


def _e_OffsetCommitResponse_v2(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponseTopic_v2(item, out)


def _e_OffsetCommitResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponseTopic_v2(item, out)


def _e_OffsetCommitResponsePartition_v8(o, out):
    out += _S0p(o.partition_index, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitResponseTopic_v8(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponsePartition_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitResponse_v8(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponseTopic_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitResponseTopic_v10(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponsePartition_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitResponse_v10(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitResponseTopic_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetCommitResponse._DECODERS = {
    2: _d_OffsetCommitResponse_v2,
    3: _d_OffsetCommitResponse_v3,
    4: _d_OffsetCommitResponse_v3,
    5: _d_OffsetCommitResponse_v3,
    6: _d_OffsetCommitResponse_v3,
    7: _d_OffsetCommitResponse_v3,
    8: _d_OffsetCommitResponse_v8,
    9: _d_OffsetCommitResponse_v8,
    10: _d_OffsetCommitResponse_v10,
}
OffsetCommitResponse._ENCODERS = {
    2: _e_OffsetCommitResponse_v2,
    3: _e_OffsetCommitResponse_v3,
    4: _e_OffsetCommitResponse_v3,
    5: _e_OffsetCommitResponse_v3,
    6: _e_OffsetCommitResponse_v3,
    7: _e_OffsetCommitResponse_v3,
    8: _e_OffsetCommitResponse_v8,
    9: _e_OffsetCommitResponse_v8,
    10: _e_OffsetCommitResponse_v10,
}
