# Generated from protocol/schemas/ListPartitionReassignmentsRequest.json by codegen; do not edit.
"""ListPartitionReassignmentsRequest: request, api key 46, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ListPartitionReassignmentsTopics",
    "ListPartitionReassignmentsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ListPartitionReassignmentsTopics:
    """Topics to list reassignments of; null lists every ongoing reassignment."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partition_indexes': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partition_indexes: list[int] = field(default_factory=list)
    """Partitions of the topic to list."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListPartitionReassignmentsRequest(Message):
    """ListPartitionReassignmentsRequest, api key 46."""

    API_KEY: ClassVar[int] = 46
    NAME: ClassVar[str] = 'ListPartitionReassignmentsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'timeout_ms': (0, 0), 'topics': (0, 0)}

    timeout_ms: int = 60000
    """How long, in milliseconds, to wait for the answer."""

    topics: list[ListPartitionReassignmentsTopics] | None = None
    """Topics to list reassignments of; null lists every ongoing reassignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListPartitionReassignmentsTopics_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListPartitionReassignmentsTopics(f_name, f_partition_indexes, unknown), pos


def _d_ListPartitionReassignmentsRequest_v0(buf, pos):
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_ListPartitionReassignmentsTopics_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListPartitionReassignmentsRequest(f_timeout_ms, f_topics, unknown), pos


def _e_ListPartitionReassignmentsTopics_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListPartitionReassignmentsRequest_v0(o, out):
    out += _S0p(o.timeout_ms)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_ListPartitionReassignmentsTopics_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListPartitionReassignmentsRequest._DECODERS = {
    0: _d_ListPartitionReassignmentsRequest_v0,
}
ListPartitionReassignmentsRequest._ENCODERS = {
    0: _e_ListPartitionReassignmentsRequest_v0,
}
