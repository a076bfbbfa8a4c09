# Generated from protocol/schemas/ProduceRequest.json by codegen; do not edit.
"""ProduceRequest: request, api key 0, versions 3-13."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_records,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_records,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_records,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_records,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "PartitionProduceData",
    "TopicProduceData",
    "ProduceRequest",
]
_S0 = Struct('>hi')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class PartitionProduceData:
    """One entry for every partition being produced to."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'index': (0, 13), 'records': (0, 13)}

    index: int = 0
    """Index of the partition."""

    records: memoryview | bytes | None = b''
    """Records to be written."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicProduceData:
    """One entry for every topic being produced to."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 12), 'topic_id': (13, 13), 'partition_data': (0, 13)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique ID of the topic."""

    partition_data: list[PartitionProduceData] = field(default_factory=list)
    """One entry for every partition being produced to."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ProduceRequest(Message):
    """ProduceRequest, api key 0."""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = 'ProduceRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 3
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (3, 13), 'acks': (0, 13), 'timeout_ms': (0, 13), 'topic_data': (0, 13)}

    transactional_id: str | None = None
    """Transactional ID of the producer, or null when the producer does not use transactions."""

    acks: int = 0
    """How many acknowledgments the leader must collect before the request counts as complete: 0 means none, 1 means the leader alone, and -1 means the full ISR."""

    timeout_ms: int = 0
    """Time in milliseconds to wait for a response."""

    topic_data: list[TopicProduceData] = field(default_factory=list)
    """One entry for every topic being produced to."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionProduceData_v3(buf, pos):
    f_index = _S1u(buf, pos)[0]
    pos += 4
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionProduceData(f_index, f_records), pos


def _d_TopicProduceData_v3(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partition_data = []
    append = f_partition_data.append
    for _ in range(n):
        item, pos = _d_PartitionProduceData_v3(buf, pos)
        append(item)
    return TopicProduceData(f_name, UUID_ZERO, f_partition_data), pos


def _d_ProduceRequest_v3(buf, pos):
    f_transactional_id, pos = read_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_topic_data = []
    append = f_topic_data.append
    for _ in range(n):
        item, pos = _d_TopicProduceData_v3(buf, pos)
        append(item)
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data), pos


def _d_PartitionProduceData_v9(buf, pos):
    f_index = _S1u(buf, pos)[0]
    pos += 4
    f_records, pos = read_compact_nullable_records(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionProduceData(f_index, f_records, unknown), pos


def _d_TopicProduceData_v9(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_data = []
    append = f_partition_data.append
    for _ in range(n):
        item, pos = _d_PartitionProduceData_v9(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicProduceData(f_name, UUID_ZERO, f_partition_data, unknown), pos


def _d_ProduceRequest_v9(buf, pos):
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_topic_data = []
    append = f_topic_data.append
    for _ in range(n):
        item, pos = _d_TopicProduceData_v9(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data, unknown), pos


def _d_TopicProduceData_v13(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_data = []
    append = f_partition_data.append
    for _ in range(n):
        item, pos = _d_PartitionProduceData_v9(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicProduceData('', f_topic_id, f_partition_data, unknown), pos


def _d_ProduceRequest_v13(buf, pos):
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_acks, f_timeout_ms = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_topic_data = []
    append = f_topic_data.append
    for _ in range(n):
        item, pos = _d_TopicProduceData_v13(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ProduceRequest(f_transactional_id, f_acks, f_timeout_ms, f_topic_data, unknown), pos


def _e_PartitionProduceData_v3(o, out):
    out += _S1p(o.index)
    write_nullable_records(out, o.records)


def _e_TopicProduceData_v3(o, out):
    write_string(out, o.name)
    value = o.partition_data
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceData_v3(item, out)


def _e_ProduceRequest_v3(o, out):
    write_nullable_string(out, o.transactional_id)
    out += _S0p(o.acks, o.timeout_ms)
    value = o.topic_data
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceData_v3(item, out)


def _e_PartitionProduceData_v9(o, out):
    out += _S1p(o.index)
    write_compact_nullable_records(out, o.records)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicProduceData_v9(o, out):
    write_compact_string(out, o.name)
    value = o.partition_data
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionProduceData_v9(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ProduceRequest_v9(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S0p(o.acks, o.timeout_ms)
    value = o.topic_data
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicProduceData_v9(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicProduceData_v13(o, out):
    write_uuid(out, o.topic_id)
    value = o.partition_data
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionProduceData_v9(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ProduceRequest_v13(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S0p(o.acks, o.timeout_ms)
    value = o.topic_data
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicProduceData_v13(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ProduceRequest._DECODERS = {
    3: _d_ProduceRequest_v3,
    4: _d_ProduceRequest_v3,
    5: _d_ProduceRequest_v3,
    6: _d_ProduceRequest_v3,
    7: _d_ProduceRequest_v3,
    8: _d_ProduceRequest_v3,
    9: _d_ProduceRequest_v9,
    10: _d_ProduceRequest_v9,
    11: _d_ProduceRequest_v9,
    12: _d_ProduceRequest_v9,
    13: _d_ProduceRequest_v13,
}
ProduceRequest._ENCODERS = {
    3: _e_ProduceRequest_v3,
    4: _e_ProduceRequest_v3,
    5: _e_ProduceRequest_v3,
    6: _e_ProduceRequest_v3,
    7: _e_ProduceRequest_v3,
    8: _e_ProduceRequest_v3,
    9: _e_ProduceRequest_v9,
    10: _e_ProduceRequest_v9,
    11: _e_ProduceRequest_v9,
    12: _e_ProduceRequest_v9,
    13: _e_ProduceRequest_v13,
}
