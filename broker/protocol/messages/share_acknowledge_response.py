# Generated from protocol/schemas/ShareAcknowledgeResponse.json by codegen; do not edit.
"""ShareAcknowledgeResponse: response, api key 79, versions 1-2."""

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
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "LeaderIdAndEpoch",
    "PartitionData",
    "ShareAcknowledgeTopicResponse",
    "NodeEndpoint",
    "ShareAcknowledgeResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ii')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i')
_S2u = _S2.unpack_from
_S2p = _S2.pack


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
class PartitionData:
    """Partitions of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'current_leader': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = None
    """Error message; null when no error occurred."""

    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    """Partition leader at present."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareAcknowledgeTopicResponse:
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
class ShareAcknowledgeResponse(Message):
    """ShareAcknowledgeResponse, api key 79."""

    API_KEY: ClassVar[int] = 79
    NAME: ClassVar[str] = 'ShareAcknowledgeResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'acquisition_lock_timeout_ms': (2, 2), 'responses': (0, 2), 'node_endpoints': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code at the top level of the response."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    acquisition_lock_timeout_ms: int = 0
    """Duration in milliseconds for which acquired records stay locked."""

    responses: list[ShareAcknowledgeTopicResponse] = field(default_factory=list)
    """Topics in the response."""

    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    """Endpoints of every current leader referenced in PartitionData with the NOT_LEADER_OR_FOLLOWER error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_LeaderIdAndEpoch_v1(buf, pos):
    f_leader_id, f_leader_epoch = _S1u(buf, pos)
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, unknown), pos


def _d_PartitionData_v1(buf, pos):
    f_partition_index, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader, pos = _d_LeaderIdAndEpoch_v1(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionData(f_partition_index, f_error_code, f_error_message, f_current_leader, unknown), pos


def _d_ShareAcknowledgeTopicResponse_v1(buf, pos):
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
    return ShareAcknowledgeTopicResponse(f_topic_id, f_partitions, unknown), pos


def _d_NodeEndpoint_v1(buf, pos):
    f_node_id = _S2u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S2u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, unknown), pos


def _d_ShareAcknowledgeResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_ShareAcknowledgeTopicResponse_v1(buf, pos)
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
    return ShareAcknowledgeResponse(f_throttle_time_ms, f_error_code, f_error_message, 0, f_responses, f_node_endpoints, unknown), pos


def _d_ShareAcknowledgeResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_acquisition_lock_timeout_ms = _S2u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_ShareAcknowledgeTopicResponse_v1(buf, pos)
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
    return ShareAcknowledgeResponse(f_throttle_time_ms, f_error_code, f_error_message, f_acquisition_lock_timeout_ms, f_responses, f_node_endpoints, unknown), pos


def _e_LeaderIdAndEpoch_v1(o, out):
    out += _S1p(o.leader_id, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionData_v1(o, out):
    out += _S0p(o.partition_index, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    _e_LeaderIdAndEpoch_v1(o.current_leader, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareAcknowledgeTopicResponse_v1(o, out):
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
    out += _S2p(o.node_id)
    write_compact_string(out, o.host)
    out += _S2p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareAcknowledgeResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_ShareAcknowledgeTopicResponse_v1(item, out)
    value = o.node_endpoints
    write_compact_array_len(out, value)
    for item in value:
        _e_NodeEndpoint_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareAcknowledgeResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.acquisition_lock_timeout_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_ShareAcknowledgeTopicResponse_v1(item, out)
    value = o.node_endpoints
    write_compact_array_len(out, value)
    for item in value:
        _e_NodeEndpoint_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareAcknowledgeResponse._DECODERS = {
    1: _d_ShareAcknowledgeResponse_v1,
    2: _d_ShareAcknowledgeResponse_v2,
}
ShareAcknowledgeResponse._ENCODERS = {
    1: _e_ShareAcknowledgeResponse_v1,
    2: _e_ShareAcknowledgeResponse_v2,
}
