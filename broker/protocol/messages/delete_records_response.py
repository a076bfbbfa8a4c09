# Generated from protocol/schemas/DeleteRecordsResponse.json by codegen; do not edit.
"""DeleteRecordsResponse: response, api key 21, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DeleteRecordsPartitionResult",
    "DeleteRecordsTopicResult",
    "DeleteRecordsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iqh')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeleteRecordsPartitionResult:
    """Partitions from which record deletion was requested."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'low_watermark': (0, 2), 'error_code': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    low_watermark: int = 0
    """Low water mark of the partition."""

    error_code: int = 0
    """Error code from the deletion; 0 when it succeeded."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteRecordsTopicResult:
    """Topics from which record deletion was requested."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'partitions': (0, 2)}

    name: str = ''
    """Name of the topic."""

    partitions: list[DeleteRecordsPartitionResult] = field(default_factory=list)
    """Partitions from which record deletion was requested."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteRecordsResponse(Message):
    """DeleteRecordsResponse, api key 21."""

    API_KEY: ClassVar[int] = 21
    NAME: ClassVar[str] = 'DeleteRecordsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'topics': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[DeleteRecordsTopicResult] = field(default_factory=list)
    """Topics from which record deletion was requested."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteRecordsPartitionResult_v0(buf, pos):
    f_partition_index, f_low_watermark, f_error_code = _S1u(buf, pos)
    pos += 14
    return DeleteRecordsPartitionResult(f_partition_index, f_low_watermark, f_error_code), pos


def _d_DeleteRecordsTopicResult_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsPartitionResult_v0(buf, pos)
        append(item)
    return DeleteRecordsTopicResult(f_name, f_partitions), pos


def _d_DeleteRecordsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsTopicResult_v0(buf, pos)
        append(item)
    return DeleteRecordsResponse(f_throttle_time_ms, f_topics), pos


def _d_DeleteRecordsPartitionResult_v2(buf, pos):
    f_partition_index, f_low_watermark, f_error_code = _S1u(buf, pos)
    pos += 14
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsPartitionResult(f_partition_index, f_low_watermark, f_error_code, unknown), pos


def _d_DeleteRecordsTopicResult_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsPartitionResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsTopicResult(f_name, f_partitions, unknown), pos


def _d_DeleteRecordsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsTopicResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_DeleteRecordsPartitionResult_v0(o, out):
    out += _S1p(o.partition_index, o.low_watermark, o.error_code)


def _e_DeleteRecordsTopicResult_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_DeleteRecordsPartitionResult_v0(item, out)


def _e_DeleteRecordsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_DeleteRecordsTopicResult_v0(item, out)


def _e_DeleteRecordsPartitionResult_v2(o, out):
    out += _S1p(o.partition_index, o.low_watermark, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteRecordsTopicResult_v2(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteRecordsPartitionResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteRecordsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteRecordsTopicResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteRecordsResponse._DECODERS = {
    0: _d_DeleteRecordsResponse_v0,
    1: _d_DeleteRecordsResponse_v0,
    2: _d_DeleteRecordsResponse_v2,
}
DeleteRecordsResponse._ENCODERS = {
    0: _e_DeleteRecordsResponse_v0,
    1: _e_DeleteRecordsResponse_v0,
    2: _e_DeleteRecordsResponse_v2,
}
