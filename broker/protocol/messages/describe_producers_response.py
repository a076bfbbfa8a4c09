# Generated from protocol/schemas/DescribeProducersResponse.json by codegen; do not edit.
"""DescribeProducersResponse: response, api key 61, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
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
    "ProducerState",
    "PartitionResponse",
    "TopicResponse",
    "DescribeProducersResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qiiqiq')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class ProducerState:
    """Producers whose state the partition leader still keeps."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'producer_id': (0, 0), 'producer_epoch': (0, 0), 'last_sequence': (0, 0), 'last_timestamp': (0, 0), 'coordinator_epoch': (0, 0), 'current_txn_start_offset': (0, 0)}

    producer_id: int = 0
    """Producer ID."""

    producer_epoch: int = 0
    """Latest epoch of the producer ID seen on this partition."""

    last_sequence: int = -1
    """Sequence number of the producer's last record on this partition, or -1."""

    last_timestamp: int = -1
    """Timestamp of the producer's last batch on this partition, or -1."""

    coordinator_epoch: int = 0
    """Epoch of the transaction coordinator that wrote the producer's last marker here."""

    current_txn_start_offset: int = -1
    """First offset of the producer's open transaction on this partition, or -1 when none is open."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class PartitionResponse:
    """Results for every requested partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'active_producers': (0, 0)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error for this partition; 0 means success."""

    error_message: str | None = None
    """Details of the error, or null when there are none."""

    active_producers: list[ProducerState] = field(default_factory=list)
    """Producers whose state the partition leader still keeps."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicResponse:
    """Results for every requested topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partitions': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partitions: list[PartitionResponse] = field(default_factory=list)
    """Results for every requested partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeProducersResponse(Message):
    """DescribeProducersResponse, api key 61."""

    API_KEY: ClassVar[int] = 61
    NAME: ClassVar[str] = 'DescribeProducersResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'topics': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[TopicResponse] = field(default_factory=list)
    """Results for every requested topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ProducerState_v0(buf, pos):
    f_producer_id, f_producer_epoch, f_last_sequence, f_last_timestamp, f_coordinator_epoch, f_current_txn_start_offset = _S2u(buf, pos)
    pos += 36
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ProducerState(f_producer_id, f_producer_epoch, f_last_sequence, f_last_timestamp, f_coordinator_epoch, f_current_txn_start_offset, unknown), pos


def _d_PartitionResponse_v0(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_active_producers = []
    append = f_active_producers.append
    for _ in range(n):
        item, pos = _d_ProducerState_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionResponse(f_partition_index, f_error_code, f_error_message, f_active_producers, unknown), pos


def _d_TopicResponse_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionResponse_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicResponse(f_name, f_partitions, unknown), pos


def _d_DescribeProducersResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TopicResponse_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeProducersResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_ProducerState_v0(o, out):
    out += _S2p(o.producer_id, o.producer_epoch, o.last_sequence, o.last_timestamp, o.coordinator_epoch, o.current_txn_start_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionResponse_v0(o, out):
    out += _S1p(o.partition_index, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.active_producers
    write_compact_array_len(out, value)
    for item in value:
        _e_ProducerState_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicResponse_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResponse_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeProducersResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicResponse_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeProducersResponse._DECODERS = {
    0: _d_DescribeProducersResponse_v0,
}
DescribeProducersResponse._ENCODERS = {
    0: _e_DescribeProducersResponse_v0,
}
