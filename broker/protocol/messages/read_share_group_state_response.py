# Generated from protocol/schemas/ReadShareGroupStateResponse.json by codegen; do not edit.
"""ReadShareGroupStateResponse: response, api key 84, versions 0-0."""

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
    "StateBatch",
    "PartitionResult",
    "ReadStateResult",
    "ReadShareGroupStateResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qqbh')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class StateBatch:
    """State batches belonging to this share-partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'first_offset': (0, 0), 'last_offset': (0, 0), 'delivery_state': (0, 0), 'delivery_count': (0, 0)}

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
class PartitionResult:
    """Per-partition results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'state_epoch': (0, 0), 'start_offset': (0, 0), 'state_batches': (0, 0)}

    partition: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = None
    """Error message; null when no error occurred."""

    state_epoch: int = 0
    """State epoch of the share-partition."""

    start_offset: int = 0
    """Start offset of the share-partition; may be -1 when it has not been initialized yet."""

    state_batches: list[StateBatch] = field(default_factory=list)
    """State batches belonging to this share-partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadStateResult:
    """Results of the read operation."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'partitions': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionResult] = field(default_factory=list)
    """Per-partition results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReadShareGroupStateResponse(Message):
    """ReadShareGroupStateResponse, api key 84."""

    API_KEY: ClassVar[int] = 84
    NAME: ClassVar[str] = 'ReadShareGroupStateResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'results': (0, 0)}

    results: list[ReadStateResult] = field(default_factory=list)
    """Results of the read operation."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_StateBatch_v0(buf, pos):
    f_first_offset, f_last_offset, f_delivery_state, f_delivery_count = _S2u(buf, pos)
    pos += 19
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, unknown), pos


def _d_PartitionResult_v0(buf, pos):
    f_partition, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_state_epoch, f_start_offset = _S1u(buf, pos)
    pos += 12
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
    return PartitionResult(f_partition, f_error_code, f_error_message, f_state_epoch, f_start_offset, f_state_batches, unknown), pos


def _d_ReadStateResult_v0(buf, pos):
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
    return ReadStateResult(f_topic_id, f_partitions, unknown), pos


def _d_ReadShareGroupStateResponse_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_ReadStateResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReadShareGroupStateResponse(f_results, unknown), pos


def _e_StateBatch_v0(o, out):
    out += _S2p(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionResult_v0(o, out):
    out += _S0p(o.partition, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S1p(o.state_epoch, o.start_offset)
    value = o.state_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_StateBatch_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadStateResult_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReadShareGroupStateResponse_v0(o, out):
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_ReadStateResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ReadShareGroupStateResponse._DECODERS = {
    0: _d_ReadShareGroupStateResponse_v0,
}
ReadShareGroupStateResponse._ENCODERS = {
    0: _e_ReadShareGroupStateResponse_v0,
}
