# Generated from protocol/schemas/AlterPartitionReassignmentsRequest.json by codegen; do not edit.
"""AlterPartitionReassignmentsRequest: request, api key 45, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
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
    "ReassignablePartition",
    "ReassignableTopic",
    "AlterPartitionReassignmentsRequest",
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
class ReassignablePartition:
    """Partitions of the topic to reassign."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 1), 'replicas': (0, 1)}

    partition_index: int = 0
    """Index of the partition."""

    replicas: list[int] | None = None
    """Brokers the partition's replicas should move to, or null to cancel the partition's pending reassignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReassignableTopic:
    """Topics to reassign."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 1), 'partitions': (0, 1)}

    name: str = ''
    """Name of the topic."""

    partitions: list[ReassignablePartition] = field(default_factory=list)
    """Partitions of the topic to reassign."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterPartitionReassignmentsRequest(Message):
    """AlterPartitionReassignmentsRequest, api key 45."""

    API_KEY: ClassVar[int] = 45
    NAME: ClassVar[str] = 'AlterPartitionReassignmentsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'timeout_ms': (0, 1), 'allow_replication_factor_change': (1, 1), 'topics': (0, 1)}

    timeout_ms: int = 60000
    """How long, in milliseconds, to wait for the request to be carried out."""

    allow_replication_factor_change: bool = True
    """Whether a reassignment may change a partition's replication factor."""

    topics: list[ReassignableTopic] = field(default_factory=list)
    """Topics to reassign."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ReassignablePartition_v0(buf, pos):
    f_partition_index = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_replicas = None
    else:
        check_count(buf, pos, n, 4)
        f_replicas = list(unpack_from('>%di' % n, buf, pos))
        pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReassignablePartition(f_partition_index, f_replicas, unknown), pos


def _d_ReassignableTopic_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ReassignablePartition_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReassignableTopic(f_name, f_partitions, unknown), pos


def _d_AlterPartitionReassignmentsRequest_v0(buf, pos):
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ReassignableTopic_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterPartitionReassignmentsRequest(f_timeout_ms, True, f_topics, unknown), pos


def _d_AlterPartitionReassignmentsRequest_v1(buf, pos):
    f_timeout_ms, f_allow_replication_factor_change = _S1u(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ReassignableTopic_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterPartitionReassignmentsRequest(f_timeout_ms, f_allow_replication_factor_change, f_topics, unknown), pos


def _e_ReassignablePartition_v0(o, out):
    out += _S0p(o.partition_index)
    value = o.replicas
    write_compact_nullable_array_len(out, value)
    if value is not None:
        out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReassignableTopic_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignablePartition_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterPartitionReassignmentsRequest_v0(o, out):
    out += _S0p(o.timeout_ms)
    if not o.allow_replication_factor_change:
        raise UnsupportedFieldError('AlterPartitionReassignmentsRequest v0 cannot carry a non-default AllowReplicationFactorChange')
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignableTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterPartitionReassignmentsRequest_v1(o, out):
    out += _S2p(o.timeout_ms, o.allow_replication_factor_change)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignableTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterPartitionReassignmentsRequest._DECODERS = {
    0: _d_AlterPartitionReassignmentsRequest_v0,
    1: _d_AlterPartitionReassignmentsRequest_v1,
}
AlterPartitionReassignmentsRequest._ENCODERS = {
    0: _e_AlterPartitionReassignmentsRequest_v0,
    1: _e_AlterPartitionReassignmentsRequest_v1,
}
