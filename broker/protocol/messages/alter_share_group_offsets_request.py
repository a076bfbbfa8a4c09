# Generated from protocol/schemas/AlterShareGroupOffsetsRequest.json by codegen; do not edit.
"""AlterShareGroupOffsetsRequest: request, api key 91, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "AlterShareGroupOffsetsRequestPartition",
    "AlterShareGroupOffsetsRequestTopic",
    "AlterShareGroupOffsetsRequest",
]
_S0 = Struct('>iq')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class AlterShareGroupOffsetsRequestPartition:
    """Partitions whose offsets are being altered."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 0), 'start_offset': (0, 0)}

    partition_index: int = 0
    """Index of the partition."""

    start_offset: int = 0
    """Start offset of the share-partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterShareGroupOffsetsRequestTopic:
    """Topics whose offsets are being altered."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 0), 'partitions': (0, 0)}

    topic_name: str = ''
    """Name of the topic."""

    partitions: list[AlterShareGroupOffsetsRequestPartition] = field(default_factory=list)
    """Partitions whose offsets are being altered."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterShareGroupOffsetsRequest(Message):
    """AlterShareGroupOffsetsRequest, api key 91."""

    API_KEY: ClassVar[int] = 91
    NAME: ClassVar[str] = 'AlterShareGroupOffsetsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'topics': (0, 0)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[AlterShareGroupOffsetsRequestTopic] = field(default_factory=list)
    """Topics whose offsets are being altered."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterShareGroupOffsetsRequestPartition_v0(buf, pos):
    f_partition_index, f_start_offset = _S0u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterShareGroupOffsetsRequestPartition(f_partition_index, f_start_offset, unknown), pos


def _d_AlterShareGroupOffsetsRequestTopic_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_AlterShareGroupOffsetsRequestPartition_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterShareGroupOffsetsRequestTopic(f_topic_name, f_partitions, unknown), pos


def _d_AlterShareGroupOffsetsRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AlterShareGroupOffsetsRequestTopic_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterShareGroupOffsetsRequest(f_group_id, f_topics, unknown), pos


def _e_AlterShareGroupOffsetsRequestPartition_v0(o, out):
    out += _S0p(o.partition_index, o.start_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterShareGroupOffsetsRequestTopic_v0(o, out):
    write_compact_string(out, o.topic_name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterShareGroupOffsetsRequestPartition_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterShareGroupOffsetsRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterShareGroupOffsetsRequestTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterShareGroupOffsetsRequest._DECODERS = {
    0: _d_AlterShareGroupOffsetsRequest_v0,
}
AlterShareGroupOffsetsRequest._ENCODERS = {
    0: _e_AlterShareGroupOffsetsRequest_v0,
}
