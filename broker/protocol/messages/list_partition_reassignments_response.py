# Generated from protocol/schemas/ListPartitionReassignmentsResponse.json by codegen; do not edit.
"""ListPartitionReassignmentsResponse: response, api key 46, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "OngoingPartitionReassignment",
    "OngoingTopicReassignment",
    "ListPartitionReassignmentsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class OngoingPartitionReassignment:
    """Ongoing reassignments of the topic's partitions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 0), 'replicas': (0, 0), 'adding_replicas': (0, 0), 'removing_replicas': (0, 0)}

    partition_index: int = 0
    """Index of the partition."""

    replicas: list[int] = field(default_factory=list)
    """Replicas the partition has now."""

    adding_replicas: list[int] = field(default_factory=list)
    """Replicas being added."""

    removing_replicas: list[int] = field(default_factory=list)
    """Replicas being removed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OngoingTopicReassignment:
    """Ongoing reassignments, by topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partitions': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partitions: list[OngoingPartitionReassignment] = field(default_factory=list)
    """Ongoing reassignments of the topic's partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListPartitionReassignmentsResponse(Message):
    """ListPartitionReassignmentsResponse, api key 46."""

    API_KEY: ClassVar[int] = 46
    NAME: ClassVar[str] = 'ListPartitionReassignmentsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'topics': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    error_message: str | None = ''
    """Message for the whole-request error, or null."""

    topics: list[OngoingTopicReassignment] = field(default_factory=list)
    """Ongoing reassignments, by topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OngoingPartitionReassignment_v0(buf, pos):
    f_partition_index = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_adding_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_removing_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OngoingPartitionReassignment(f_partition_index, f_replicas, f_adding_replicas, f_removing_replicas, unknown), pos


def _d_OngoingTopicReassignment_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OngoingPartitionReassignment_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OngoingTopicReassignment(f_name, f_partitions, unknown), pos


def _d_ListPartitionReassignmentsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OngoingTopicReassignment_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListPartitionReassignmentsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_topics, unknown), pos


def _e_OngoingPartitionReassignment_v0(o, out):
    out += _S1p(o.partition_index)
    value = o.replicas
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.adding_replicas
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.removing_replicas
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OngoingTopicReassignment_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OngoingPartitionReassignment_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListPartitionReassignmentsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OngoingTopicReassignment_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListPartitionReassignmentsResponse._DECODERS = {
    0: _d_ListPartitionReassignmentsResponse_v0,
}
ListPartitionReassignmentsResponse._ENCODERS = {
    0: _e_ListPartitionReassignmentsResponse_v0,
}
