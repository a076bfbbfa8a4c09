# Generated from protocol/schemas/CreatePartitionsRequest.json by codegen; do not edit.
"""CreatePartitionsRequest: request, api key 37, versions 0-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "CreatePartitionsAssignment",
    "CreatePartitionsTopic",
    "CreatePartitionsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iB')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class CreatePartitionsAssignment:
    """Replica assignments for the new partitions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'broker_ids': (0, 3)}

    broker_ids: list[int] = field(default_factory=list)
    """IDs of the brokers assigned."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreatePartitionsTopic:
    """Topics in which new partitions should be created."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 3), 'count': (0, 3), 'assignments': (0, 3)}

    name: str = ''
    """Name of the topic."""

    count: int = 0
    """Total number of partitions the topic should have."""

    assignments: list[CreatePartitionsAssignment] | None = field(default_factory=list)
    """Replica assignments for the new partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreatePartitionsRequest(Message):
    """CreatePartitionsRequest, api key 37."""

    API_KEY: ClassVar[int] = 37
    NAME: ClassVar[str] = 'CreatePartitionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 3), 'timeout_ms': (0, 3), 'validate_only': (0, 3)}

    topics: list[CreatePartitionsTopic] = field(default_factory=list)
    """Topics in which new partitions should be created."""

    timeout_ms: int = 0
    """Time in ms to wait for partition creation to finish."""

    validate_only: bool = False
    """When true, the request is only validated and the partition count is not actually increased."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CreatePartitionsAssignment_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_broker_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return CreatePartitionsAssignment(f_broker_ids), pos


def _d_CreatePartitionsTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_count = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_assignments = None
    else:
        f_assignments = []
        append = f_assignments.append
        for _ in range(n):
            item, pos = _d_CreatePartitionsAssignment_v0(buf, pos)
            append(item)
    return CreatePartitionsTopic(f_name, f_count, f_assignments), pos


def _d_CreatePartitionsRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatePartitionsTopic_v0(buf, pos)
        append(item)
    f_timeout_ms, f_validate_only = _S1u(buf, pos)
    pos += 5
    return CreatePartitionsRequest(f_topics, f_timeout_ms, f_validate_only), pos


def _d_CreatePartitionsAssignment_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_broker_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatePartitionsAssignment(f_broker_ids, unknown), pos


def _d_CreatePartitionsTopic_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_count = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_assignments = None
    else:
        f_assignments = []
        append = f_assignments.append
        for _ in range(n):
            item, pos = _d_CreatePartitionsAssignment_v2(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatePartitionsTopic(f_name, f_count, f_assignments, unknown), pos


def _d_CreatePartitionsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatePartitionsTopic_v2(buf, pos)
        append(item)
    f_timeout_ms, f_validate_only = _S1u(buf, pos)
    pos += 5
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatePartitionsRequest(f_topics, f_timeout_ms, f_validate_only, unknown), pos


def _e_CreatePartitionsAssignment_v0(o, out):
    value = o.broker_ids
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_CreatePartitionsTopic_v0(o, out):
    write_string(out, o.name)
    out += _S0p(o.count)
    value = o.assignments
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_CreatePartitionsAssignment_v0(item, out)


def _e_CreatePartitionsRequest_v0(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_CreatePartitionsTopic_v0(item, out)
    out += _S2p(o.timeout_ms, o.validate_only)


def _e_CreatePartitionsAssignment_v2(o, out):
    value = o.broker_ids
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatePartitionsTopic_v2(o, out):
    write_compact_string(out, o.name)
    out += _S0p(o.count)
    value = o.assignments
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_CreatePartitionsAssignment_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatePartitionsRequest_v2(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatePartitionsTopic_v2(item, out)
    out += _S2p(o.timeout_ms, o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreatePartitionsRequest._DECODERS = {
    0: _d_CreatePartitionsRequest_v0,
    1: _d_CreatePartitionsRequest_v0,
    2: _d_CreatePartitionsRequest_v2,
    3: _d_CreatePartitionsRequest_v2,
}
CreatePartitionsRequest._ENCODERS = {
    0: _e_CreatePartitionsRequest_v0,
    1: _e_CreatePartitionsRequest_v0,
    2: _e_CreatePartitionsRequest_v2,
    3: _e_CreatePartitionsRequest_v2,
}
