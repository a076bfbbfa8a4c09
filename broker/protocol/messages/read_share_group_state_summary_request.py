# Generated from protocol/schemas/ReadShareGroupStateSummaryRequest.json by codegen; do not edit.
"""ReadShareGroupStateSummaryRequest: request, api key 87, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "PartitionData",
    "ReadStateSummaryData",
    "ReadShareGroupStateSummaryRequest",
]
_S0 = Struct('>ii')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class PartitionData:
    """Per-partition data for this topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 1), 'leader_epoch': (0, 1)}

    partition: int = 0
    """Index of the partition."""

    leader_epoch: int = 0
    """Leader epoch of the share-partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadStateSummaryData:
    """Per-topic data."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 1), 'partitions': (0, 1)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionData] = field(default_factory=list)
    """Per-partition data for this topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadShareGroupStateSummaryRequest(Message):
    """ReadShareGroupStateSummaryRequest, api key 87."""

    API_KEY: ClassVar[int] = 87
    NAME: ClassVar[str] = 'ReadShareGroupStateSummaryRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 1), 'topics': (0, 1)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[ReadStateSummaryData] = field(default_factory=list)
    """Per-topic data."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionData_v0(buf, pos):
    f_partition, f_leader_epoch = _S0u(buf, pos)
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionData(f_partition, f_leader_epoch, unknown), pos


def _d_ReadStateSummaryData_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadStateSummaryData(f_topic_id, f_partitions, unknown), pos


def _d_ReadShareGroupStateSummaryRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ReadStateSummaryData_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadShareGroupStateSummaryRequest(f_group_id, f_topics, unknown), pos


def _e_PartitionData_v0(o, out):
    out += _S0p(o.partition, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadStateSummaryData_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadShareGroupStateSummaryRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ReadStateSummaryData_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ReadShareGroupStateSummaryRequest._DECODERS = {
    0: _d_ReadShareGroupStateSummaryRequest_v0,
    1: _d_ReadShareGroupStateSummaryRequest_v0,
}
ReadShareGroupStateSummaryRequest._ENCODERS = {
    0: _e_ReadShareGroupStateSummaryRequest_v0,
    1: _e_ReadShareGroupStateSummaryRequest_v0,
}
