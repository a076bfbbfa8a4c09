# Generated from protocol/schemas/ShareFetchResponse.json by codegen; do not edit.
"""ShareFetchResponse: response, api key 78, versions 1-2."""

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
    read_compact_records,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_records,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "LeaderIdAndEpoch",
    "AcquiredRecords",
    "PartitionData",
    "ShareFetchableTopicResponse",
    "NodeEndpoint",
    "ShareFetchResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>h')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>ii')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>qqh')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """Partition leader at present."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'leader_id': (0, 2), 'leader_epoch': (0, 2)}

    leader_id: int = 0
    """ID of the current leader, or -1 when the leader is unknown."""

    leader_epoch: int = 0
    """Most recent leader epoch known."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AcquiredRecords:
    """Records that have been acquired."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'first_offset': (0, 2), 'last_offset': (0, 2), 'delivery_count': (0, 2)}

    first_offset: int = 0
    """Lowest offset in this batch of acquired records."""

    last_offset: int = 0
    """Highest offset in this batch of acquired records."""

    delivery_count: int = 0
    """Number of times this batch of acquired records has been delivered."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class PartitionData:
    """Partitions of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'acknowledge_error_code': (0, 2), 'acknowledge_error_message': (0, 2), 'current_leader': (0, 2), 'records': (0, 2), 'acquired_records': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code for the fetch, or 0 when the fetch succeeded."""

    error_message: str | None = None
    """Error message for the fetch, or null when the fetch succeeded."""

    acknowledge_error_code: int = 0
    """Error code for the acknowledgement, or 0 when it succeeded."""

    acknowledge_error_message: str | None = None
    """Error message for the acknowledgement, or null when it succeeded."""

    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    """Partition leader at present."""

    records: memoryview | bytes | None = b''
    """Data of the records."""

    acquired_records: list[AcquiredRecords] = field(default_factory=list)
    """Records that have been acquired."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareFetchableTopicResponse:
    """Topics in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 2), 'partitions': (0, 2)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionData] = field(default_factory=list)
    """Partitions of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints of every current leader referenced in PartitionData with the NOT_LEADER_OR_FOLLOWER error."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'node_id': (0, 2), 'host': (0, 2), 'port': (0, 2), 'rack': (0, 2)}

    node_id: int = 0
    """ID of the node this entry refers to."""

    host: str = ''
    """Hostname of the node."""

    port: int = 0
    """Port of the node."""

    rack: str | None = None
    """Rack the node is assigned to, or null when no rack is set."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareFetchResponse(Message):
    """ShareFetchResponse, api key 78."""

    API_KEY: ClassVar[int] = 78
    NAME: ClassVar[str] = 'ShareFetchResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'acquisition_lock_timeout_ms': (1, 2), 'responses': (0, 2), 'node_endpoints': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the response as a whole."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    acquisition_lock_timeout_ms: int = 0
    """Duration in milliseconds for which acquired records stay locked."""

    responses: list[ShareFetchableTopicResponse] = field(default_factory=list)
    """Topics in the response."""

    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    """Endpoints of every current leader referenced in PartitionData with the NOT_LEADER_OR_FOLLOWER error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_LeaderIdAndEpoch_v1(buf, pos):
    f_leader_id, f_leader_epoch = _S3u(buf, pos)
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, unknown), pos


def _d_AcquiredRecords_v1(buf, pos):
    f_first_offset, f_last_offset, f_delivery_count = _S4u(buf, pos)
    pos += 18
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AcquiredRecords(f_first_offset, f_last_offset, f_delivery_count, unknown), pos


def _d_PartitionData_v1(buf, pos):
    f_partition_index, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acknowledge_error_code = _S2u(buf, pos)[0]
    pos += 2
    f_acknowledge_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader, pos = _d_LeaderIdAndEpoch_v1(buf, pos)
    f_records, pos = read_compact_records(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_acquired_records = []
    append = f_acquired_records.append
    for _ in range(n):
        item, pos = _d_AcquiredRecords_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_acknowledge_error_code, f_acknowledge_error_message, f_current_leader, f_records, f_acquired_records, unknown), pos


def _d_ShareFetchableTopicResponse_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareFetchableTopicResponse(f_topic_id, f_partitions, unknown), pos


def _d_NodeEndpoint_v1(buf, pos):
    f_node_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, unknown), pos


def _d_ShareFetchResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acquisition_lock_timeout_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_ShareFetchableTopicResponse_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_node_endpoints = []
    append = f_node_endpoints.append
    for _ in range(n):
        item, pos = _d_NodeEndpoint_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareFetchResponse(f_throttle_time_ms, f_error_code, f_error_message, f_acquisition_lock_timeout_ms, f_responses, f_node_endpoints, unknown), pos


def _e_LeaderIdAndEpoch_v1(o, out):
    out += _S3p(o.leader_id, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AcquiredRecords_v1(o, out):
    out += _S4p(o.first_offset, o.last_offset, o.delivery_count)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionData_v1(o, out):
    out += _S0p(o.partition_index, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.acknowledge_error_code)
    write_compact_nullable_string(out, o.acknowledge_error_message)
    _e_LeaderIdAndEpoch_v1(o.current_leader, out)
    write_compact_records(out, o.records)
    value = o.acquired_records
    write_compact_array_len(out, value)
    for item in value:
        _e_AcquiredRecords_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareFetchableTopicResponse_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_NodeEndpoint_v1(o, out):
    out += _S1p(o.node_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareFetchResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S1p(o.acquisition_lock_timeout_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_ShareFetchableTopicResponse_v1(item, out)
    value = o.node_endpoints
    write_compact_array_len(out, value)
    for item in value:
        _e_NodeEndpoint_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareFetchResponse._DECODERS = {
    1: _d_ShareFetchResponse_v1,
    2: _d_ShareFetchResponse_v1,
}
ShareFetchResponse._ENCODERS = {
    1: _e_ShareFetchResponse_v1,
    2: _e_ShareFetchResponse_v1,
}
