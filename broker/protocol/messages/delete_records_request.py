# Generated from protocol/schemas/DeleteRecordsRequest.json by codegen; do not edit.
"""DeleteRecordsRequest: request, api key 21, versions 0-2."""

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
    "DeleteRecordsPartition",
    "DeleteRecordsTopic",
    "DeleteRecordsRequest",
]
_S0 = Struct('>iq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeleteRecordsPartition:
    """Partitions from which records should be deleted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'offset': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    offset: int = 0
    """Offset up to which records are deleted; -1 means truncate records up to the high watermark."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteRecordsTopic:
    """Topics from which records should be deleted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'partitions': (0, 2)}

    name: str = ''
    """Name of the topic."""

    partitions: list[DeleteRecordsPartition] = field(default_factory=list)
    """Partitions from which records should be deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteRecordsRequest(Message):
    """DeleteRecordsRequest, api key 21."""

    API_KEY: ClassVar[int] = 21
    NAME: ClassVar[str] = 'DeleteRecordsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 2), 'timeout_ms': (0, 2)}

    topics: list[DeleteRecordsTopic] = field(default_factory=list)
    """Topics from which records should be deleted."""

    timeout_ms: int = 0
    """Time in milliseconds to wait for the deletion to finish."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteRecordsPartition_v0(buf, pos):
    f_partition_index, f_offset = _S0u(buf, pos)
    pos += 12
    return DeleteRecordsPartition(f_partition_index, f_offset), pos


def _d_DeleteRecordsTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsPartition_v0(buf, pos)
        append(item)
    return DeleteRecordsTopic(f_name, f_partitions), pos


def _d_DeleteRecordsRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsTopic_v0(buf, pos)
        append(item)
    f_timeout_ms = _S1u(buf, pos)[0]
    pos += 4
    return DeleteRecordsRequest(f_topics, f_timeout_ms), pos


def _d_DeleteRecordsPartition_v2(buf, pos):
    f_partition_index, f_offset = _S0u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsPartition(f_partition_index, f_offset, unknown), pos


def _d_DeleteRecordsTopic_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsPartition_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsTopic(f_name, f_partitions, unknown), pos


def _d_DeleteRecordsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteRecordsTopic_v2(buf, pos)
        append(item)
    f_timeout_ms = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteRecordsRequest(f_topics, f_timeout_ms, unknown), pos


def _e_DeleteRecordsPartition_v0(o, out):
    out += _S0p(o.partition_index, o.offset)


def _e_DeleteRecordsTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_DeleteRecordsPartition_v0(item, out)


def _e_DeleteRecordsRequest_v0(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_DeleteRecordsTopic_v0(item, out)
    out += _S1p(o.timeout_ms)


def _e_DeleteRecordsPartition_v2(o, out):
    out += _S0p(o.partition_index, o.offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteRecordsTopic_v2(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteRecordsPartition_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteRecordsRequest_v2(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteRecordsTopic_v2(item, out)
    out += _S1p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteRecordsRequest._DECODERS = {
    0: _d_DeleteRecordsRequest_v0,
    1: _d_DeleteRecordsRequest_v0,
    2: _d_DeleteRecordsRequest_v2,
}
DeleteRecordsRequest._ENCODERS = {
    0: _e_DeleteRecordsRequest_v0,
    1: _e_DeleteRecordsRequest_v0,
    2: _e_DeleteRecordsRequest_v2,
}
