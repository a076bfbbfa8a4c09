# Generated from protocol/schemas/WriteShareGroupStateRequest.json by codegen; do not edit.
"""WriteShareGroupStateRequest: request, api key 85, versions 0-1."""

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
    "StateBatch",
    "PartitionData",
    "WriteStateData",
    "WriteShareGroupStateRequest",
]
_S0 = Struct('>iiiq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qqbh')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iiiqi')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class StateBatch:
    """State batches belonging to the share-partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'first_offset': (0, 1), 'last_offset': (0, 1), 'delivery_state': (0, 1), 'delivery_count': (0, 1)}

    first_offset: int = 0
    """Offset at which this state batch begins."""

    last_offset: int = 0
    """Offset at which this state batch ends."""

    delivery_state: int = 0
    """Delivery state of the records, one of 0:Available,2:Acked,4:Archived."""

    delivery_count: int = 0
    """Number of times the records have been delivered."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class PartitionData:
    """Per-partition data for this topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 1), 'state_epoch': (0, 1), 'leader_epoch': (0, 1), 'start_offset': (0, 1), 'delivery_complete_count': (1, 1), 'state_batches': (0, 1)}

    partition: int = 0
    """Index of the partition."""

    state_epoch: int = 0
    """State epoch of the share-partition."""

    leader_epoch: int = 0
    """Leader epoch of the share-partition."""

    start_offset: int = 0
    """Start offset of the share-partition, or -1 when the start offset is not being written."""

    delivery_complete_count: int = -1
    """Count of offsets at or beyond the share-partition start offset whose delivery has finished."""

    state_batches: list[StateBatch] = field(default_factory=list)
    """State batches belonging to the share-partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WriteStateData:
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
class WriteShareGroupStateRequest(Message):
    """WriteShareGroupStateRequest, api key 85."""

    API_KEY: ClassVar[int] = 85
    NAME: ClassVar[str] = 'WriteShareGroupStateRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 1), 'topics': (0, 1)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[WriteStateData] = field(default_factory=list)
    """Per-topic data."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_StateBatch_v0(buf, pos):
    f_first_offset, f_last_offset, f_delivery_state, f_delivery_count = _S1u(buf, pos)
    pos += 19
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, unknown), pos


def _d_PartitionData_v0(buf, pos):
    f_partition, f_state_epoch, f_leader_epoch, f_start_offset = _S0u(buf, pos)
    pos += 20
    n, pos = read_compact_array_len(buf, pos)
    f_state_batches = []
    append = f_state_batches.append
    for _ in range(n):
        item, pos = _d_StateBatch_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionData(f_partition, f_state_epoch, f_leader_epoch, f_start_offset, -1, f_state_batches, unknown), pos


def _d_WriteStateData_v0(buf, pos):
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
    return WriteStateData(f_topic_id, f_partitions, unknown), pos


def _d_WriteShareGroupStateRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_WriteStateData_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteShareGroupStateRequest(f_group_id, f_topics, unknown), pos


def _d_PartitionData_v1(buf, pos):
    f_partition, f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count = _S2u(buf, pos)
    pos += 24
    n, pos = read_compact_array_len(buf, pos)
    f_state_batches = []
    append = f_state_batches.append
    for _ in range(n):
        item, pos = _d_StateBatch_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionData(f_partition, f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count, f_state_batches, unknown), pos


def _d_WriteStateData_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteStateData(f_topic_id, f_partitions, unknown), pos


def _d_WriteShareGroupStateRequest_v1(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_WriteStateData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteShareGroupStateRequest(f_group_id, f_topics, unknown), pos


def _e_StateBatch_v0(o, out):
    out += _S1p(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionData_v0(o, out):
    out += _S0p(o.partition, o.state_epoch, o.leader_epoch, o.start_offset)
    value = o.state_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_StateBatch_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteStateData_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteShareGroupStateRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_WriteStateData_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionData_v1(o, out):
    out += _S2p(o.partition, o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count)
    value = o.state_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_StateBatch_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteStateData_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteShareGroupStateRequest_v1(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_WriteStateData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


WriteShareGroupStateRequest._DECODERS = {
    0: _d_WriteShareGroupStateRequest_v0,
    1: _d_WriteShareGroupStateRequest_v1,
}
WriteShareGroupStateRequest._ENCODERS = {
    0: _e_WriteShareGroupStateRequest_v0,
    1: _e_WriteShareGroupStateRequest_v1,
}
