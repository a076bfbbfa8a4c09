# Generated from protocol/schemas/WriteShareGroupStateResponse.json by codegen; do not edit.
"""WriteShareGroupStateResponse: response, api key 85, versions 0-1."""

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
    "WriteStateResult",
    "WriteShareGroupStateResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class PartitionResult:
    """Per-partition results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1)}

    partition: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = None
    """Error message; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WriteStateResult:
    """Results of the write operation."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 1), 'partitions': (0, 1)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionResult] = field(default_factory=list)
    """Per-partition results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WriteShareGroupStateResponse(Message):
    """WriteShareGroupStateResponse, api key 85."""

    API_KEY: ClassVar[int] = 85
    NAME: ClassVar[str] = 'WriteShareGroupStateResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'results': (0, 1)}

    results: list[WriteStateResult] = field(default_factory=list)
    """Results of the write operation."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionResult_v0(buf, pos):
    f_partition, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionResult(f_partition, f_error_code, f_error_message, unknown), pos


def _d_WriteStateResult_v0(buf, pos):
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
    return WriteStateResult(f_topic_id, f_partitions, unknown), pos


def _d_WriteShareGroupStateResponse_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_WriteStateResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteShareGroupStateResponse(f_results, unknown), pos


def _e_PartitionResult_v0(o, out):
    out += _S0p(o.partition, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteStateResult_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteShareGroupStateResponse_v0(o, out):
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_WriteStateResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


WriteShareGroupStateResponse._DECODERS = {
    0: _d_WriteShareGroupStateResponse_v0,
    1: _d_WriteShareGroupStateResponse_v0,
}
WriteShareGroupStateResponse._ENCODERS = {
    0: _e_WriteShareGroupStateResponse_v0,
    1: _e_WriteShareGroupStateResponse_v0,
}
