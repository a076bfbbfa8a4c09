# Generated from protocol/schemas/OffsetForLeaderEpochRequest.json by codegen; do not edit.
"""OffsetForLeaderEpochRequest: request, api key 23, versions 2-4."""

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
    "OffsetForLeaderPartition",
    "OffsetForLeaderTopic",
    "OffsetForLeaderEpochRequest",
]
_S0 = Struct('>iii')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class OffsetForLeaderPartition:
    """Partitions of the topic to look up."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 4), 'current_leader_epoch': (2, 4), 'leader_epoch': (0, 4)}

    partition: int = 0
    """Index of the partition."""

    current_leader_epoch: int = -1
    """Leader epoch the caller knows, for fencing: newer than the broker's gives UNKNOWN_LEADER_EPOCH, older gives FENCED_LEADER_EPOCH; -1 skips the check."""

    leader_epoch: int = 0
    """Epoch whose end offset is wanted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetForLeaderTopic:
    """Topics to look up."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 4), 'partitions': (0, 4)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[OffsetForLeaderPartition] = field(default_factory=list)
    """Partitions of the topic to look up."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetForLeaderEpochRequest(Message):
    """OffsetForLeaderEpochRequest, api key 23."""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = 'OffsetForLeaderEpochRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'replica_id': (3, 4), 'topics': (0, 4)}

    replica_id: int = -2
    """Broker ID of the follower asking, -1 for a consumer; -2 (the default) where the version does not carry it."""

    topics: list[OffsetForLeaderTopic] = field(default_factory=list)
    """Topics to look up."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetForLeaderPartition_v2(buf, pos):
    f_partition, f_current_leader_epoch, f_leader_epoch = _S0u(buf, pos)
    pos += 12
    return OffsetForLeaderPartition(f_partition, f_current_leader_epoch, f_leader_epoch), pos


def _d_OffsetForLeaderTopic_v2(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderPartition_v2(buf, pos)
        append(item)
    return OffsetForLeaderTopic(f_topic, f_partitions), pos


def _d_OffsetForLeaderEpochRequest_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderTopic_v2(buf, pos)
        append(item)
    return OffsetForLeaderEpochRequest(-2, f_topics), pos


def _d_OffsetForLeaderEpochRequest_v3(buf, pos):
    f_replica_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderTopic_v2(buf, pos)
        append(item)
    return OffsetForLeaderEpochRequest(f_replica_id, f_topics), pos


def _d_OffsetForLeaderPartition_v4(buf, pos):
    f_partition, f_current_leader_epoch, f_leader_epoch = _S0u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetForLeaderPartition(f_partition, f_current_leader_epoch, f_leader_epoch, unknown), pos


def _d_OffsetForLeaderTopic_v4(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderPartition_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetForLeaderTopic(f_topic, f_partitions, unknown), pos


def _d_OffsetForLeaderEpochRequest_v4(buf, pos):
    f_replica_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetForLeaderTopic_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetForLeaderEpochRequest(f_replica_id, f_topics, unknown), pos


def _e_OffsetForLeaderPartition_v2(o, out):
    out += _S0p(o.partition, o.current_leader_epoch, o.leader_epoch)


def _e_OffsetForLeaderTopic_v2(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderPartition_v2(item, out)


def _e_OffsetForLeaderEpochRequest_v2(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderTopic_v2(item, out)


def _e_OffsetForLeaderEpochRequest_v3(o, out):
    out += _S1p(o.replica_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderTopic_v2(item, out)


def _e_OffsetForLeaderPartition_v4(o, out):
    out += _S0p(o.partition, o.current_leader_epoch, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetForLeaderTopic_v4(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderPartition_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetForLeaderEpochRequest_v4(o, out):
    out += _S1p(o.replica_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetForLeaderTopic_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetForLeaderEpochRequest._DECODERS = {
    2: _d_OffsetForLeaderEpochRequest_v2,
    3: _d_OffsetForLeaderEpochRequest_v3,
    4: _d_OffsetForLeaderEpochRequest_v4,
}
OffsetForLeaderEpochRequest._ENCODERS = {
    2: _e_OffsetForLeaderEpochRequest_v2,
    3: _e_OffsetForLeaderEpochRequest_v3,
    4: _e_OffsetForLeaderEpochRequest_v4,
}
