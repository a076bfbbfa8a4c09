# Generated from protocol/schemas/AlterReplicaLogDirsResponse.json by codegen; do not edit.
"""AlterReplicaLogDirsResponse: response, api key 34, versions 1-2."""

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
    "AlterReplicaLogDirPartitionResult",
    "AlterReplicaLogDirTopicResult",
    "AlterReplicaLogDirsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class AlterReplicaLogDirPartitionResult:
    """One entry per partition named in the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'error_code': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterReplicaLogDirTopicResult:
    """One entry per topic named in the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 2), 'partitions': (0, 2)}

    topic_name: str = ''
    """Name of the topic."""

    partitions: list[AlterReplicaLogDirPartitionResult] = field(default_factory=list)
    """One entry per partition named in the request."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterReplicaLogDirsResponse(Message):
    """AlterReplicaLogDirsResponse, api key 34."""

    API_KEY: ClassVar[int] = 34
    NAME: ClassVar[str] = 'AlterReplicaLogDirsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'results': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    results: list[AlterReplicaLogDirTopicResult] = field(default_factory=list)
    """One entry per topic named in the request."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterReplicaLogDirPartitionResult_v1(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    return AlterReplicaLogDirPartitionResult(f_partition_index, f_error_code), pos


def _d_AlterReplicaLogDirTopicResult_v1(buf, pos):
    f_topic_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirPartitionResult_v1(buf, pos)
        append(item)
    return AlterReplicaLogDirTopicResult(f_topic_name, f_partitions), pos


def _d_AlterReplicaLogDirsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirTopicResult_v1(buf, pos)
        append(item)
    return AlterReplicaLogDirsResponse(f_throttle_time_ms, f_results), pos


def _d_AlterReplicaLogDirPartitionResult_v2(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDirPartitionResult(f_partition_index, f_error_code, unknown), pos


def _d_AlterReplicaLogDirTopicResult_v2(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirPartitionResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDirTopicResult(f_topic_name, f_partitions, unknown), pos


def _d_AlterReplicaLogDirsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirTopicResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDirsResponse(f_throttle_time_ms, f_results, unknown), pos


def _e_AlterReplicaLogDirPartitionResult_v1(o, out):
    out += _S1p(o.partition_index, o.error_code)


def _e_AlterReplicaLogDirTopicResult_v1(o, out):
    write_string(out, o.topic_name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirPartitionResult_v1(item, out)


def _e_AlterReplicaLogDirsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirTopicResult_v1(item, out)


def _e_AlterReplicaLogDirPartitionResult_v2(o, out):
    out += _S1p(o.partition_index, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterReplicaLogDirTopicResult_v2(o, out):
    write_compact_string(out, o.topic_name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirPartitionResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterReplicaLogDirsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirTopicResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterReplicaLogDirsResponse._DECODERS = {
    1: _d_AlterReplicaLogDirsResponse_v1,
    2: _d_AlterReplicaLogDirsResponse_v2,
}
AlterReplicaLogDirsResponse._ENCODERS = {
    1: _e_AlterReplicaLogDirsResponse_v1,
    2: _e_AlterReplicaLogDirsResponse_v2,
}
