# Generated from protocol/schemas/DescribeLogDirsResponse.json by codegen; do not edit.
"""DescribeLogDirsResponse: response, api key 35, versions 1-5."""

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
    "DescribeLogDirsPartition",
    "DescribeLogDirsTopic",
    "DescribeLogDirsResult",
    "DescribeLogDirsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iqq?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>ih')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>qq')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>qq?')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>iqqB')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>qqB')
_S7u = _S7.unpack_from
_S7p = _S7.pack


@dataclass(slots=True)
class DescribeLogDirsPartition:
    """Partitions of the topic in this directory."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 5), 'partition_size': (0, 5), 'offset_lag': (0, 5), 'is_future_key': (0, 5)}

    partition_index: int = 0
    """Index of the partition."""

    partition_size: int = 0
    """Size of the partition's log segments, in bytes."""

    offset_lag: int = 0
    """How far the log's end offset is behind: behind the high watermark for the current log, behind the current replica's end offset for a future log."""

    is_future_key: bool = False
    """Whether this is a future log, created by AlterReplicaLogDirs to replace the current one."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeLogDirsTopic:
    """Topics with partitions in this directory."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 5), 'partitions': (0, 5)}

    name: str = ''
    """Name of the topic."""

    partitions: list[DescribeLogDirsPartition] = field(default_factory=list)
    """Partitions of the topic in this directory."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeLogDirsResult:
    """One entry per log directory of the broker."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 5), 'log_dir': (0, 5), 'topics': (0, 5), 'total_bytes': (4, 5), 'usable_bytes': (4, 5), 'is_cordoned': (5, 5)}

    error_code: int = 0
    """Error for this directory (e.g. KAFKA_STORAGE_ERROR when offline); 0 means success."""

    log_dir: str = ''
    """Absolute path of the log directory."""

    topics: list[DescribeLogDirsTopic] = field(default_factory=list)
    """Topics with partitions in this directory."""

    total_bytes: int = -1
    """Size of the volume holding the directory, in bytes (remote storage not counted); -1 when unknown."""

    usable_bytes: int = -1
    """Free space usable on that volume, in bytes (remote storage not counted); -1 when unknown."""

    is_cordoned: bool = False
    """Whether the directory is cordoned: no new partitions are placed in it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeLogDirsResponse(Message):
    """DescribeLogDirsResponse, api key 35."""

    API_KEY: ClassVar[int] = 35
    NAME: ClassVar[str] = 'DescribeLogDirsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 5), 'error_code': (3, 5), 'results': (0, 5)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    results: list[DescribeLogDirsResult] = field(default_factory=list)
    """One entry per log directory of the broker."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeLogDirsPartition_v1(buf, pos):
    f_partition_index, f_partition_size, f_offset_lag, f_is_future_key = _S2u(buf, pos)
    pos += 21
    return DescribeLogDirsPartition(f_partition_index, f_partition_size, f_offset_lag, f_is_future_key), pos


def _d_DescribeLogDirsTopic_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsPartition_v1(buf, pos)
        append(item)
    return DescribeLogDirsTopic(f_name, f_partitions), pos


def _d_DescribeLogDirsResult_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_log_dir, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsTopic_v1(buf, pos)
        append(item)
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, -1, -1, False), pos


def _d_DescribeLogDirsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsResult_v1(buf, pos)
        append(item)
    return DescribeLogDirsResponse(f_throttle_time_ms, 0, f_results), pos


def _d_DescribeLogDirsPartition_v2(buf, pos):
    f_partition_index, f_partition_size, f_offset_lag, f_is_future_key = _S2u(buf, pos)
    pos += 21
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsPartition(f_partition_index, f_partition_size, f_offset_lag, f_is_future_key, unknown), pos


def _d_DescribeLogDirsTopic_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsPartition_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsTopic(f_name, f_partitions, unknown), pos


def _d_DescribeLogDirsResult_v2(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, -1, -1, False, unknown), pos


def _d_DescribeLogDirsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResponse(f_throttle_time_ms, 0, f_results, unknown), pos


def _d_DescribeLogDirsResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S3u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, unknown), pos


def _d_DescribeLogDirsResult_v4(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        append(item)
    f_total_bytes, f_usable_bytes = _S4u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, f_total_bytes, f_usable_bytes, False, unknown), pos


def _d_DescribeLogDirsResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S3u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, unknown), pos


def _d_DescribeLogDirsResult_v5(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_log_dir, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsTopic_v2(buf, pos)
        append(item)
    f_total_bytes, f_usable_bytes, f_is_cordoned = _S5u(buf, pos)
    pos += 17
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResult(f_error_code, f_log_dir, f_topics, f_total_bytes, f_usable_bytes, f_is_cordoned, unknown), pos


def _d_DescribeLogDirsResponse_v5(buf, pos):
    f_throttle_time_ms, f_error_code = _S3u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeLogDirsResult_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsResponse(f_throttle_time_ms, f_error_code, f_results, unknown), pos


def _e_DescribeLogDirsPartition_v1(o, out):
    out += _S6p(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key)


def _e_DescribeLogDirsTopic_v1(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsPartition_v1(item, out)


def _e_DescribeLogDirsResult_v1(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.log_dir)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsTopic_v1(item, out)


def _e_DescribeLogDirsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsResult_v1(item, out)


def _e_DescribeLogDirsPartition_v2(o, out):
    out += _S6p(o.partition_index, o.partition_size, o.offset_lag, o.is_future_key)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsTopic_v2(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsPartition_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResult_v2(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.log_dir)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsTopic_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResponse_v3(o, out):
    out += _S3p(o.throttle_time_ms, o.error_code)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResult_v4(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.log_dir)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsTopic_v2(item, out)
    out += _S4p(o.total_bytes, o.usable_bytes)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResponse_v4(o, out):
    out += _S3p(o.throttle_time_ms, o.error_code)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsResult_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResult_v5(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.log_dir)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsTopic_v2(item, out)
    out += _S7p(o.total_bytes, o.usable_bytes, o.is_cordoned)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsResponse_v5(o, out):
    out += _S3p(o.throttle_time_ms, o.error_code)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeLogDirsResult_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeLogDirsResponse._DECODERS = {
    1: _d_DescribeLogDirsResponse_v1,
    2: _d_DescribeLogDirsResponse_v2,
    3: _d_DescribeLogDirsResponse_v3,
    4: _d_DescribeLogDirsResponse_v4,
    5: _d_DescribeLogDirsResponse_v5,
}
DescribeLogDirsResponse._ENCODERS = {
    1: _e_DescribeLogDirsResponse_v1,
    2: _e_DescribeLogDirsResponse_v2,
    3: _e_DescribeLogDirsResponse_v3,
    4: _e_DescribeLogDirsResponse_v4,
    5: _e_DescribeLogDirsResponse_v5,
}
