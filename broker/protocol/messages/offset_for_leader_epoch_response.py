# Generated from protocol/schemas/OffsetForLeaderEpochResponse.json by codegen; do not edit.
"""OffsetForLeaderEpochResponse: response, api key 23, versions 2-4."""

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
    "EpochEndOffset",
    "OffsetForLeaderTopicResult",
    "OffsetForLeaderEpochResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>hiiq')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class EpochEndOffset:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 4), 'partition': (0, 4), 'leader_epoch': (1, 4), 'end_offset': (0, 4)}

    error_code: int = 0
    """Error for this partition; 0 means success."""

    partition: int = 0
    """Index of the partition."""

    leader_epoch: int = -1
    """Largest leader epoch at or below the requested one that the log knows, or -1."""

    end_offset: int = -1
    """End offset of that epoch (the start offset of the next one, or the log end offset), or -1."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetForLeaderTopicResult:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 4), 'partitions': (0, 4)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[EpochEndOffset] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetForLeaderEpochResponse(Message):
    """OffsetForLeaderEpochResponse, api key 23."""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = 'OffsetForLeaderEpochResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (2, 4), 'topics': (0, 4)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[OffsetForLeaderTopicResult] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EpochEndOffset_v2(buf, pos):
    f_error_code, f_partition, f_leader_epoch, f_end_offset = _S1u(buf, pos)
    pos += 18
    return EpochEndOffset(f_error_code, f_partition, f_leader_epoch, f_end_offset), pos


def _d_OffsetForLeaderTopicResult_v2(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_EpochEndOffset_v2(buf, pos)
        append(item)
    return OffsetForLeaderTopicResult(f_topic, f_partitions), pos


def _d_OffsetForLeaderEpochResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderTopicResult_v2(buf, pos)
        append(item)
    return OffsetForLeaderEpochResponse(f_throttle_time_ms, f_topics), pos


def _d_EpochEndOffset_v4(buf, pos):
    f_error_code, f_partition, f_leader_epoch, f_end_offset = _S1u(buf, pos)
    pos += 18
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EpochEndOffset(f_error_code, f_partition, f_leader_epoch, f_end_offset, unknown), pos


def _d_OffsetForLeaderTopicResult_v4(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_EpochEndOffset_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetForLeaderTopicResult(f_topic, f_partitions, unknown), pos


def _d_OffsetForLeaderEpochResponse_v4(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderTopicResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetForLeaderEpochResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_EpochEndOffset_v2(o, out):
    out += _S1p(o.error_code, o.partition, o.leader_epoch, o.end_offset)


def _e_OffsetForLeaderTopicResult_v2(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_EpochEndOffset_v2(item, out)


def _e_OffsetForLeaderEpochResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderTopicResult_v2(item, out)


def _e_EpochEndOffset_v4(o, out):
    out += _S1p(o.error_code, o.partition, o.leader_epoch, o.end_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetForLeaderTopicResult_v4(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_EpochEndOffset_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetForLeaderEpochResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderTopicResult_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetForLeaderEpochResponse._DECODERS = {
    2: _d_OffsetForLeaderEpochResponse_v2,
    3: _d_OffsetForLeaderEpochResponse_v2,
    4: _d_OffsetForLeaderEpochResponse_v4,
}
OffsetForLeaderEpochResponse._ENCODERS = {
    2: _e_OffsetForLeaderEpochResponse_v2,
    3: _e_OffsetForLeaderEpochResponse_v2,
    4: _e_OffsetForLeaderEpochResponse_v4,
}
