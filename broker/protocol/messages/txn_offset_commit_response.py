# Generated from protocol/schemas/TxnOffsetCommitResponse.json by codegen; do not edit.
"""TxnOffsetCommitResponse: response, api key 28, versions 0-6."""

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
    "TxnOffsetCommitResponsePartition",
    "TxnOffsetCommitResponseTopic",
    "TxnOffsetCommitResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class TxnOffsetCommitResponsePartition:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 6), 'error_code': (0, 6)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TxnOffsetCommitResponseTopic:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 5), 'topic_id': (6, 6), 'partitions': (0, 6)}

    name: str = ''
    """Name of the topic, up to version 5."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic, from version 6."""

    partitions: list[TxnOffsetCommitResponsePartition] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TxnOffsetCommitResponse(Message):
    """TxnOffsetCommitResponse, api key 28."""

    API_KEY: ClassVar[int] = 28
    NAME: ClassVar[str] = 'TxnOffsetCommitResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 6), 'topics': (0, 6)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[TxnOffsetCommitResponseTopic] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TxnOffsetCommitResponsePartition_v0(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    return TxnOffsetCommitResponsePartition(f_partition_index, f_error_code), pos


def _d_TxnOffsetCommitResponseTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponsePartition_v0(buf, pos)
        append(item)
    return TxnOffsetCommitResponseTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_TxnOffsetCommitResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponseTopic_v0(buf, pos)
        append(item)
    return TxnOffsetCommitResponse(f_throttle_time_ms, f_topics), pos


def _d_TxnOffsetCommitResponsePartition_v3(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitResponsePartition(f_partition_index, f_error_code, unknown), pos


def _d_TxnOffsetCommitResponseTopic_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponsePartition_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitResponseTopic(f_name, UUID_ZERO, f_partitions, unknown), pos


def _d_TxnOffsetCommitResponse_v3(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponseTopic_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitResponse(f_throttle_time_ms, f_topics, unknown), pos


def _d_TxnOffsetCommitResponseTopic_v6(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponsePartition_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitResponseTopic('', f_topic_id, f_partitions, unknown), pos


def _d_TxnOffsetCommitResponse_v6(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitResponseTopic_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_TxnOffsetCommitResponsePartition_v0(o, out):
    out += _S1p(o.partition_index, o.error_code)


def _e_TxnOffsetCommitResponseTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponsePartition_v0(item, out)


def _e_TxnOffsetCommitResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponseTopic_v0(item, out)


def _e_TxnOffsetCommitResponsePartition_v3(o, out):
    out += _S1p(o.partition_index, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitResponseTopic_v3(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponsePartition_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponseTopic_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitResponseTopic_v6(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponsePartition_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitResponse_v6(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitResponseTopic_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


TxnOffsetCommitResponse._DECODERS = {
    0: _d_TxnOffsetCommitResponse_v0,
    1: _d_TxnOffsetCommitResponse_v0,
    2: _d_TxnOffsetCommitResponse_v0,
    3: _d_TxnOffsetCommitResponse_v3,
    4: _d_TxnOffsetCommitResponse_v3,
    5: _d_TxnOffsetCommitResponse_v3,
    6: _d_TxnOffsetCommitResponse_v6,
}
TxnOffsetCommitResponse._ENCODERS = {
    0: _e_TxnOffsetCommitResponse_v0,
    1: _e_TxnOffsetCommitResponse_v0,
    2: _e_TxnOffsetCommitResponse_v0,
    3: _e_TxnOffsetCommitResponse_v3,
    4: _e_TxnOffsetCommitResponse_v3,
    5: _e_TxnOffsetCommitResponse_v3,
    6: _e_TxnOffsetCommitResponse_v6,
}
