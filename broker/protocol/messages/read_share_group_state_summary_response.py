# Generated from protocol/schemas/ReadShareGroupStateSummaryResponse.json by codegen; do not edit.
"""ReadShareGroupStateSummaryResponse: response, api key 87, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_array_len,
    read_compact_nullable_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "PartitionResult",
    "ReadStateSummaryResult",
    "ReadShareGroupStateSummaryResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iiq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iiqi')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class PartitionResult:
    """Per-partition results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1), 'state_epoch': (0, 1), 'leader_epoch': (0, 1), 'start_offset': (0, 1), 'delivery_complete_count': (1, 1)}

    partition: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = None
    """Error message; null when no error occurred."""

    state_epoch: int = 0
    """State epoch of the share-partition."""

    leader_epoch: int = 0
    """Leader epoch of the share-partition."""

    start_offset: int = 0
    """Start offset of the share-partition."""

    delivery_complete_count: int = -1
    """Count of offsets at or beyond the share-partition start offset whose delivery has finished."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadStateSummaryResult:
    """Results of the read operation."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 1), 'partitions': (0, 1)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionResult] = field(default_factory=list)
    """Per-partition results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadShareGroupStateSummaryResponse(Message):
    """ReadShareGroupStateSummaryResponse, api key 87."""

    API_KEY: ClassVar[int] = 87
    NAME: ClassVar[str] = 'ReadShareGroupStateSummaryResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'results': (0, 1)}

    results: list[ReadStateSummaryResult] = field(default_factory=list)
    """Results of the read operation."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionResult_v0(buf, pos):
    f_partition, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_state_epoch, f_leader_epoch, f_start_offset = _S1u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionResult(f_partition, f_error_code, f_error_message, f_state_epoch, f_leader_epoch, f_start_offset, -1, unknown), pos


def _d_ReadStateSummaryResult_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadStateSummaryResult(f_topic_id, f_partitions, unknown), pos


def _d_ReadShareGroupStateSummaryResponse_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_ReadStateSummaryResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadShareGroupStateSummaryResponse(f_results, unknown), pos


def _d_PartitionResult_v1(buf, pos):
    f_partition, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count = _S2u(buf, pos)
    pos += 20
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionResult(f_partition, f_error_code, f_error_message, f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count, unknown), pos


def _d_ReadStateSummaryResult_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionResult_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadStateSummaryResult(f_topic_id, f_partitions, unknown), pos


def _d_ReadShareGroupStateSummaryResponse_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_ReadStateSummaryResult_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadShareGroupStateSummaryResponse(f_results, unknown), pos


def _e_PartitionResult_v0(o, out):
    out += _S0p(o.partition, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S1p(o.state_epoch, o.leader_epoch, o.start_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadStateSummaryResult_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadShareGroupStateSummaryResponse_v0(o, out):
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_ReadStateSummaryResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionResult_v1(o, out):
    out += _S0p(o.partition, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.state_epoch, o.leader_epoch, o.start_offset, o.delivery_complete_count)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadStateSummaryResult_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResult_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadShareGroupStateSummaryResponse_v1(o, out):
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_ReadStateSummaryResult_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ReadShareGroupStateSummaryResponse._DECODERS = {
    0: _d_ReadShareGroupStateSummaryResponse_v0,
    1: _d_ReadShareGroupStateSummaryResponse_v1,
}
ReadShareGroupStateSummaryResponse._ENCODERS = {
    0: _e_ReadShareGroupStateSummaryResponse_v0,
    1: _e_ReadShareGroupStateSummaryResponse_v1,
}
