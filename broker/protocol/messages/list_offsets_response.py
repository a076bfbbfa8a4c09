# Generated from protocol/schemas/ListOffsetsResponse.json by codegen; do not edit.
"""ListOffsetsResponse: response, api key 2, versions 1-11."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
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
    "ListOffsetsPartitionResponse",
    "ListOffsetsTopicResponse",
    "ListOffsetsResponse",
]
_S0 = Struct('>ihqq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ihqqi')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class ListOffsetsPartitionResponse:
    """One entry for every partition in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 11), 'error_code': (0, 11), 'timestamp': (1, 11), 'offset': (1, 11), 'leader_epoch': (4, 11)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code for this partition, or 0 when no error occurred."""

    timestamp: int = -1
    """Timestamp that corresponds to the offset being returned."""

    offset: int = -1
    """Offset being returned."""

    leader_epoch: int = -1
    """Leader epoch that corresponds to the offset being returned."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListOffsetsTopicResponse:
    """One entry per topic in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 11), 'partitions': (0, 11)}

    name: str = ''
    """Name of the topic."""

    partitions: list[ListOffsetsPartitionResponse] = field(default_factory=list)
    """One entry for every partition in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListOffsetsResponse(Message):
    """ListOffsetsResponse, api key 2."""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = 'ListOffsetsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 11
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (2, 11), 'topics': (0, 11)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[ListOffsetsTopicResponse] = field(default_factory=list)
    """One entry per topic in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListOffsetsPartitionResponse_v1(buf, pos):
    f_partition_index, f_error_code, f_timestamp, f_offset = _S0u(buf, pos)
    pos += 22
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, f_timestamp, f_offset, -1), pos


def _d_ListOffsetsTopicResponse_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartitionResponse_v1(buf, pos)
        append(item)
    return ListOffsetsTopicResponse(f_name, f_partitions), pos


def _d_ListOffsetsResponse_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopicResponse_v1(buf, pos)
        append(item)
    return ListOffsetsResponse(0, f_topics), pos


def _d_ListOffsetsResponse_v2(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopicResponse_v1(buf, pos)
        append(item)
    return ListOffsetsResponse(f_throttle_time_ms, f_topics), pos


def _d_ListOffsetsPartitionResponse_v4(buf, pos):
    f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch = _S2u(buf, pos)
    pos += 26
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch), pos


def _d_ListOffsetsTopicResponse_v4(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartitionResponse_v4(buf, pos)
        append(item)
    return ListOffsetsTopicResponse(f_name, f_partitions), pos


def _d_ListOffsetsResponse_v4(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopicResponse_v4(buf, pos)
        append(item)
    return ListOffsetsResponse(f_throttle_time_ms, f_topics), pos


def _d_ListOffsetsPartitionResponse_v6(buf, pos):
    f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch = _S2u(buf, pos)
    pos += 26
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsPartitionResponse(f_partition_index, f_error_code, f_timestamp, f_offset, f_leader_epoch, unknown), pos


def _d_ListOffsetsTopicResponse_v6(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartitionResponse_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsTopicResponse(f_name, f_partitions, unknown), pos


def _d_ListOffsetsResponse_v6(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopicResponse_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_ListOffsetsPartitionResponse_v1(o, out):
    out += _S0p(o.partition_index, o.error_code, o.timestamp, o.offset)
    if o.leader_epoch != -1:
        raise UnsupportedFieldError('ListOffsetsResponse v1 cannot carry a non-default LeaderEpoch')


def _e_ListOffsetsTopicResponse_v1(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartitionResponse_v1(item, out)


def _e_ListOffsetsResponse_v1(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopicResponse_v1(item, out)


def _e_ListOffsetsPartitionResponse_v2(o, out):
    out += _S0p(o.partition_index, o.error_code, o.timestamp, o.offset)
    if o.leader_epoch != -1:
        raise UnsupportedFieldError('ListOffsetsResponse v2 cannot carry a non-default LeaderEpoch')


def _e_ListOffsetsTopicResponse_v2(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartitionResponse_v2(item, out)


def _e_ListOffsetsResponse_v2(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopicResponse_v2(item, out)


def _e_ListOffsetsPartitionResponse_v3(o, out):
    out += _S0p(o.partition_index, o.error_code, o.timestamp, o.offset)
    if o.leader_epoch != -1:
        raise UnsupportedFieldError('ListOffsetsResponse v3 cannot carry a non-default LeaderEpoch')


def _e_ListOffsetsTopicResponse_v3(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartitionResponse_v3(item, out)


def _e_ListOffsetsResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopicResponse_v3(item, out)


def _e_ListOffsetsPartitionResponse_v4(o, out):
    out += _S2p(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch)


def _e_ListOffsetsTopicResponse_v4(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartitionResponse_v4(item, out)


def _e_ListOffsetsResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopicResponse_v4(item, out)


def _e_ListOffsetsPartitionResponse_v6(o, out):
    out += _S2p(o.partition_index, o.error_code, o.timestamp, o.offset, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListOffsetsTopicResponse_v6(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartitionResponse_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListOffsetsResponse_v6(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopicResponse_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListOffsetsResponse._DECODERS = {
    1: _d_ListOffsetsResponse_v1,
    2: _d_ListOffsetsResponse_v2,
    3: _d_ListOffsetsResponse_v2,
    4: _d_ListOffsetsResponse_v4,
    5: _d_ListOffsetsResponse_v4,
    6: _d_ListOffsetsResponse_v6,
    7: _d_ListOffsetsResponse_v6,
    8: _d_ListOffsetsResponse_v6,
    9: _d_ListOffsetsResponse_v6,
    10: _d_ListOffsetsResponse_v6,
    11: _d_ListOffsetsResponse_v6,
}
ListOffsetsResponse._ENCODERS = {
    1: _e_ListOffsetsResponse_v1,
    2: _e_ListOffsetsResponse_v2,
    3: _e_ListOffsetsResponse_v3,
    4: _e_ListOffsetsResponse_v4,
    5: _e_ListOffsetsResponse_v4,
    6: _e_ListOffsetsResponse_v6,
    7: _e_ListOffsetsResponse_v6,
    8: _e_ListOffsetsResponse_v6,
    9: _e_ListOffsetsResponse_v6,
    10: _e_ListOffsetsResponse_v6,
    11: _e_ListOffsetsResponse_v6,
}
