# Generated from protocol/schemas/ListOffsetsRequest.json by codegen; do not edit.
"""ListOffsetsRequest: request, api key 2, versions 1-11."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
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
    "ListOffsetsPartition",
    "ListOffsetsTopic",
    "ListOffsetsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ib')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iiq')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class ListOffsetsPartition:
    """One entry for every partition in the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 11), 'current_leader_epoch': (4, 11), 'timestamp': (0, 11)}

    partition_index: int = 0
    """Index of the partition."""

    current_leader_epoch: int = -1
    """Leader epoch currently known to the requester."""

    timestamp: int = 0
    """Target timestamp used to look up the offset."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListOffsetsTopic:
    """One entry for every topic in the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 11), 'partitions': (0, 11)}

    name: str = ''
    """Name of the topic."""

    partitions: list[ListOffsetsPartition] = field(default_factory=list)
    """One entry for every partition in the request."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListOffsetsRequest(Message):
    """ListOffsetsRequest, api key 2."""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = 'ListOffsetsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 11
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'replica_id': (0, 11), 'isolation_level': (2, 11), 'topics': (0, 11), 'timeout_ms': (10, 11)}

    replica_id: int = 0
    """Broker ID of the replica making the request, or -1 when a regular consumer sends it."""

    isolation_level: int = 0
    """Controls which transactional records are visible: READ_UNCOMMITTED (isolation_level = 0) exposes every record, while READ_COMMITTED (isolation_level = 1) exposes only non-transactional and COMMITTED transactional records, returning data below the last stable offset (LSO) together with the list of aborted transactions so consumers can drop ABORTED transactional records."""

    topics: list[ListOffsetsTopic] = field(default_factory=list)
    """One entry for every topic in the request."""

    timeout_ms: int = 0
    """Time in milliseconds to wait for a response when the lookup must read from remote storage for a tiered-storage-enabled topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListOffsetsPartition_v1(buf, pos):
    f_partition_index, f_timestamp = _S1u(buf, pos)
    pos += 12
    return ListOffsetsPartition(f_partition_index, -1, f_timestamp), pos


def _d_ListOffsetsTopic_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartition_v1(buf, pos)
        append(item)
    return ListOffsetsTopic(f_name, f_partitions), pos


def _d_ListOffsetsRequest_v1(buf, pos):
    f_replica_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopic_v1(buf, pos)
        append(item)
    return ListOffsetsRequest(f_replica_id, 0, f_topics, 0), pos


def _d_ListOffsetsRequest_v2(buf, pos):
    f_replica_id, f_isolation_level = _S2u(buf, pos)
    pos += 5
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopic_v1(buf, pos)
        append(item)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0), pos


def _d_ListOffsetsPartition_v4(buf, pos):
    f_partition_index, f_current_leader_epoch, f_timestamp = _S3u(buf, pos)
    pos += 16
    return ListOffsetsPartition(f_partition_index, f_current_leader_epoch, f_timestamp), pos


def _d_ListOffsetsTopic_v4(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartition_v4(buf, pos)
        append(item)
    return ListOffsetsTopic(f_name, f_partitions), pos


def _d_ListOffsetsRequest_v4(buf, pos):
    f_replica_id, f_isolation_level = _S2u(buf, pos)
    pos += 5
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopic_v4(buf, pos)
        append(item)
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0), pos


def _d_ListOffsetsPartition_v6(buf, pos):
    f_partition_index, f_current_leader_epoch, f_timestamp = _S3u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsPartition(f_partition_index, f_current_leader_epoch, f_timestamp, unknown), pos


def _d_ListOffsetsTopic_v6(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ListOffsetsPartition_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsTopic(f_name, f_partitions, unknown), pos


def _d_ListOffsetsRequest_v6(buf, pos):
    f_replica_id, f_isolation_level = _S2u(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopic_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, 0, unknown), pos


def _d_ListOffsetsRequest_v10(buf, pos):
    f_replica_id, f_isolation_level = _S2u(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_ListOffsetsTopic_v6(buf, pos)
        append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListOffsetsRequest(f_replica_id, f_isolation_level, f_topics, f_timeout_ms, unknown), pos


def _e_ListOffsetsPartition_v1(o, out):
    out += _S1p(o.partition_index, o.timestamp)


def _e_ListOffsetsTopic_v1(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartition_v1(item, out)


def _e_ListOffsetsRequest_v1(o, out):
    out += _S0p(o.replica_id)
    if o.isolation_level != 0:
        raise UnsupportedFieldError('ListOffsetsRequest v1 cannot carry a non-default IsolationLevel')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopic_v1(item, out)


def _e_ListOffsetsRequest_v2(o, out):
    out += _S2p(o.replica_id, o.isolation_level)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopic_v1(item, out)


def _e_ListOffsetsPartition_v4(o, out):
    out += _S3p(o.partition_index, o.current_leader_epoch, o.timestamp)


def _e_ListOffsetsTopic_v4(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartition_v4(item, out)


def _e_ListOffsetsRequest_v4(o, out):
    out += _S2p(o.replica_id, o.isolation_level)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopic_v4(item, out)


def _e_ListOffsetsPartition_v6(o, out):
    out += _S3p(o.partition_index, o.current_leader_epoch, o.timestamp)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListOffsetsTopic_v6(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_ListOffsetsPartition_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListOffsetsRequest_v6(o, out):
    out += _S2p(o.replica_id, o.isolation_level)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopic_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListOffsetsRequest_v10(o, out):
    out += _S2p(o.replica_id, o.isolation_level)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_ListOffsetsTopic_v6(item, out)
    out += _S0p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListOffsetsRequest._DECODERS = {
    1: _d_ListOffsetsRequest_v1,
    2: _d_ListOffsetsRequest_v2,
    3: _d_ListOffsetsRequest_v2,
    4: _d_ListOffsetsRequest_v4,
    5: _d_ListOffsetsRequest_v4,
    6: _d_ListOffsetsRequest_v6,
    7: _d_ListOffsetsRequest_v6,
    8: _d_ListOffsetsRequest_v6,
    9: _d_ListOffsetsRequest_v6,
    10: _d_ListOffsetsRequest_v10,
    11: _d_ListOffsetsRequest_v10,
}
ListOffsetsRequest._ENCODERS = {
    1: _e_ListOffsetsRequest_v1,
    2: _e_ListOffsetsRequest_v2,
    3: _e_ListOffsetsRequest_v2,
    4: _e_ListOffsetsRequest_v4,
    5: _e_ListOffsetsRequest_v4,
    6: _e_ListOffsetsRequest_v6,
    7: _e_ListOffsetsRequest_v6,
    8: _e_ListOffsetsRequest_v6,
    9: _e_ListOffsetsRequest_v6,
    10: _e_ListOffsetsRequest_v10,
    11: _e_ListOffsetsRequest_v10,
}
