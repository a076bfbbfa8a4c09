# Generated from protocol/schemas/ProduceResponse.json by codegen; do not edit.
"""ProduceResponse: response, api key 0, versions 3-13."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "BatchIndexAndErrorMessage",
    "LeaderIdAndEpoch",
    "PartitionProduceResponse",
    "TopicProduceResponse",
    "NodeEndpoint",
    "ProduceResponse",
]
_S0 = Struct('>ihqq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ihqqq')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>ii')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class BatchIndexAndErrorMessage:
    """Batch indices of the records that caused the batch to be rejected."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'batch_index': (8, 13), 'batch_index_error_message': (8, 13)}

    batch_index: int = 0
    """Index within the batch of the record that caused the batch to be rejected."""

    batch_index_error_message: str | None = None
    """Error message for the record that caused the batch to be rejected."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """Leader broker the producer should send subsequent requests to."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'leader_id': (10, 13), 'leader_epoch': (10, 13)}

    leader_id: int = -1
    """ID of the current leader, or -1 when the leader is unknown."""

    leader_epoch: int = -1
    """Most recent leader epoch known."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class PartitionProduceResponse:
    """One entry for every partition of the topic that was produced to."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'index': (0, 13), 'error_code': (0, 13), 'base_offset': (0, 13), 'log_append_time_ms': (2, 13), 'log_start_offset': (5, 13), 'record_errors': (8, 13), 'error_message': (8, 13), 'current_leader': (10, 13)}

    index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    base_offset: int = 0
    """Offset assigned to the first record of the batch."""

    log_append_time_ms: int = -1
    """Timestamp the broker assigned when appending the messages: -1 if the topic uses CreateTime, or the broker's local append time if the topic uses LogAppendTime."""

    log_start_offset: int = -1
    """Start offset of the partition's log."""

    record_errors: list[BatchIndexAndErrorMessage] = field(default_factory=list)
    """Batch indices of the records that caused the batch to be rejected."""

    error_message: str | None = None
    """Overall error message describing the shared root cause of the records that made the batch be rejected."""

    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    """Leader broker the producer should send subsequent requests to."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicProduceResponse:
    """One entry for every produce result."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 12), 'topic_id': (13, 13), 'partition_responses': (0, 13)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique ID of the topic."""

    partition_responses: list[PartitionProduceResponse] = field(default_factory=list)
    """One entry for every partition of the topic that was produced to."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints of every current leader referenced in PartitionProduceResponses that carry the NOT_LEADER_OR_FOLLOWER error."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'node_id': (10, 13), 'host': (10, 13), 'port': (10, 13), 'rack': (10, 13)}

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
class ProduceResponse(Message):
    """ProduceResponse, api key 0."""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = 'ProduceResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 3
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'responses': (0, 13), 'throttle_time_ms': (1, 13), 'node_endpoints': (10, 13)}

    responses: list[TopicProduceResponse] = field(default_factory=list)
    """One entry for every produce result."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    """Endpoints of every current leader referenced in PartitionProduceResponses that carry the NOT_LEADER_OR_FOLLOWER error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionProduceResponse_v3(buf, pos):
    f_index, f_error_code, f_base_offset, f_log_append_time_ms = _S0u(buf, pos)
    pos += 22
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, -1, [], None, LeaderIdAndEpoch()), pos


def _d_TopicProduceResponse_v3(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v3(buf, pos)
        append(item)
    return TopicProduceResponse(f_name, UUID_ZERO, f_partition_responses), pos


def _d_ProduceResponse_v3(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v3(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, []), pos


def _d_PartitionProduceResponse_v5(buf, pos):
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S2u(buf, pos)
    pos += 30
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, [], None, LeaderIdAndEpoch()), pos


def _d_TopicProduceResponse_v5(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v5(buf, pos)
        append(item)
    return TopicProduceResponse(f_name, UUID_ZERO, f_partition_responses), pos


def _d_ProduceResponse_v5(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v5(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, []), pos


def _d_BatchIndexAndErrorMessage_v8(buf, pos):
    f_batch_index = _S1u(buf, pos)[0]
    pos += 4
    f_batch_index_error_message, pos = read_nullable_string(buf, pos)
    return BatchIndexAndErrorMessage(f_batch_index, f_batch_index_error_message), pos


def _d_PartitionProduceResponse_v8(buf, pos):
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S2u(buf, pos)
    pos += 30
    n, pos = read_array_len(buf, pos)
    f_record_errors = []
    append = f_record_errors.append
    for _ in range(n):
        item, pos = _d_BatchIndexAndErrorMessage_v8(buf, pos)
        append(item)
    f_error_message, pos = read_nullable_string(buf, pos)
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, LeaderIdAndEpoch()), pos


def _d_TopicProduceResponse_v8(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v8(buf, pos)
        append(item)
    return TopicProduceResponse(f_name, UUID_ZERO, f_partition_responses), pos


def _d_ProduceResponse_v8(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v8(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    return ProduceResponse(f_responses, f_throttle_time_ms, []), pos


def _d_BatchIndexAndErrorMessage_v9(buf, pos):
    f_batch_index = _S1u(buf, pos)[0]
    pos += 4
    f_batch_index_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return BatchIndexAndErrorMessage(f_batch_index, f_batch_index_error_message, unknown), pos


def _d_PartitionProduceResponse_v9(buf, pos):
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S2u(buf, pos)
    pos += 30
    n, pos = read_compact_array_len(buf, pos)
    f_record_errors = []
    append = f_record_errors.append
    for _ in range(n):
        item, pos = _d_BatchIndexAndErrorMessage_v9(buf, pos)
        append(item)
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, LeaderIdAndEpoch(), unknown), pos


def _d_TopicProduceResponse_v9(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v9(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicProduceResponse(f_name, UUID_ZERO, f_partition_responses, unknown), pos


def _d_ProduceResponse_v9(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v9(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ProduceResponse(f_responses, f_throttle_time_ms, [], unknown), pos


def _d_LeaderIdAndEpoch_v10(buf, pos):
    f_leader_id, f_leader_epoch = _S3u(buf, pos)
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, unknown), pos


def _d_PartitionProduceResponse_v10(buf, pos):
    f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset = _S2u(buf, pos)
    pos += 30
    n, pos = read_compact_array_len(buf, pos)
    f_record_errors = []
    append = f_record_errors.append
    for _ in range(n):
        item, pos = _d_BatchIndexAndErrorMessage_v9(buf, pos)
        append(item)
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_current_leader = LeaderIdAndEpoch()
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_current_leader, p = _d_LeaderIdAndEpoch_v10(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return PartitionProduceResponse(f_index, f_error_code, f_base_offset, f_log_append_time_ms, f_log_start_offset, f_record_errors, f_error_message, f_current_leader, unknown), pos


def _d_TopicProduceResponse_v10(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicProduceResponse(f_name, UUID_ZERO, f_partition_responses, unknown), pos


def _d_NodeEndpoint_v10(buf, pos):
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


def _d_ProduceResponse_v10(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v10(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    f_node_endpoints = []
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                n, p = read_compact_array_len(buf, p)
                f_node_endpoints = []
                append = f_node_endpoints.append
                for _ in range(n):
                    item, p = _d_NodeEndpoint_v10(buf, p)
                    append(item)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ProduceResponse(f_responses, f_throttle_time_ms, f_node_endpoints, unknown), pos


def _d_TopicProduceResponse_v13(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_responses = []
    append = f_partition_responses.append
    for _ in range(n):
        item, pos = _d_PartitionProduceResponse_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicProduceResponse('', f_topic_id, f_partition_responses, unknown), pos


def _d_ProduceResponse_v13(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_TopicProduceResponse_v13(buf, pos)
        append(item)
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    f_node_endpoints = []
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                n, p = read_compact_array_len(buf, p)
                f_node_endpoints = []
                append = f_node_endpoints.append
                for _ in range(n):
                    item, p = _d_NodeEndpoint_v10(buf, p)
                    append(item)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ProduceResponse(f_responses, f_throttle_time_ms, f_node_endpoints, unknown), pos


def _e_PartitionProduceResponse_v3(o, out):
    out += _S0p(o.index, o.error_code, o.base_offset, o.log_append_time_ms)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v3 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v3(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v3(item, out)


def _e_ProduceResponse_v3(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v3(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v3 cannot carry a non-default NodeEndpoints')


def _e_PartitionProduceResponse_v4(o, out):
    out += _S0p(o.index, o.error_code, o.base_offset, o.log_append_time_ms)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v4 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v4(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v4(item, out)


def _e_ProduceResponse_v4(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v4(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v4 cannot carry a non-default NodeEndpoints')


def _e_PartitionProduceResponse_v5(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v5 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v5(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v5(item, out)


def _e_ProduceResponse_v5(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v5(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v5 cannot carry a non-default NodeEndpoints')


def _e_PartitionProduceResponse_v6(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v6 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v6(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v6(item, out)


def _e_ProduceResponse_v6(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v6(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v6 cannot carry a non-default NodeEndpoints')


def _e_PartitionProduceResponse_v7(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v7 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v7(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v7(item, out)


def _e_ProduceResponse_v7(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v7(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v7 cannot carry a non-default NodeEndpoints')


def _e_BatchIndexAndErrorMessage_v8(o, out):
    out += _S1p(o.batch_index)
    write_nullable_string(out, o.batch_index_error_message)


def _e_PartitionProduceResponse_v8(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    value = o.record_errors
    write_array_len(out, value)
    for item in value:
        _e_BatchIndexAndErrorMessage_v8(item, out)
    write_nullable_string(out, o.error_message)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v8 cannot carry a non-default CurrentLeader')


def _e_TopicProduceResponse_v8(o, out):
    write_string(out, o.name)
    value = o.partition_responses
    write_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v8(item, out)


def _e_ProduceResponse_v8(o, out):
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v8(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v8 cannot carry a non-default NodeEndpoints')


def _e_BatchIndexAndErrorMessage_v9(o, out):
    out += _S1p(o.batch_index)
    write_compact_nullable_string(out, o.batch_index_error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionProduceResponse_v9(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    value = o.record_errors
    write_compact_array_len(out, value)
    for item in value:
        _e_BatchIndexAndErrorMessage_v9(item, out)
    write_compact_nullable_string(out, o.error_message)
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('ProduceResponse v9 cannot carry a non-default CurrentLeader')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicProduceResponse_v9(o, out):
    write_compact_string(out, o.name)
    value = o.partition_responses
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v9(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ProduceResponse_v9(o, out):
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v9(item, out)
    out += _S1p(o.throttle_time_ms)
    if o.node_endpoints:
        raise UnsupportedFieldError('ProduceResponse v9 cannot carry a non-default NodeEndpoints')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_LeaderIdAndEpoch_v10(o, out):
    out += _S3p(o.leader_id, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionProduceResponse_v10(o, out):
    out += _S2p(o.index, o.error_code, o.base_offset, o.log_append_time_ms, o.log_start_offset)
    value = o.record_errors
    write_compact_array_len(out, value)
    for item in value:
        _e_BatchIndexAndErrorMessage_v9(item, out)
    write_compact_nullable_string(out, o.error_message)
    tags = list(o._unknown_tagged_fields)
    if o.current_leader != LeaderIdAndEpoch():
        t = bytearray()
        _e_LeaderIdAndEpoch_v10(o.current_leader, t)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_TopicProduceResponse_v10(o, out):
    write_compact_string(out, o.name)
    value = o.partition_responses
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_NodeEndpoint_v10(o, out):
    out += _S1p(o.node_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ProduceResponse_v10(o, out):
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v10(item, out)
    out += _S1p(o.throttle_time_ms)
    tags = list(o._unknown_tagged_fields)
    if (o.node_endpoints or o.node_endpoints is None):
        t = bytearray()
        value = o.node_endpoints
        write_compact_array_len(t, value)
        for item in value:
            _e_NodeEndpoint_v10(item, t)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_TopicProduceResponse_v13(o, out):
    write_uuid(out, o.topic_id)
    value = o.partition_responses
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionProduceResponse_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ProduceResponse_v13(o, out):
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicProduceResponse_v13(item, out)
    out += _S1p(o.throttle_time_ms)
    tags = list(o._unknown_tagged_fields)
    if (o.node_endpoints or o.node_endpoints is None):
        t = bytearray()
        value = o.node_endpoints
        write_compact_array_len(t, value)
        for item in value:
            _e_NodeEndpoint_v10(item, t)
        tags.append((0, t))
    write_tagged_fields(out, tags)


ProduceResponse._DECODERS = {
    3: _d_ProduceResponse_v3,
    4: _d_ProduceResponse_v3,
    5: _d_ProduceResponse_v5,
    6: _d_ProduceResponse_v5,
    7: _d_ProduceResponse_v5,
    8: _d_ProduceResponse_v8,
    9: _d_ProduceResponse_v9,
    10: _d_ProduceResponse_v10,
    11: _d_ProduceResponse_v10,
    12: _d_ProduceResponse_v10,
    13: _d_ProduceResponse_v13,
}
ProduceResponse._ENCODERS = {
    3: _e_ProduceResponse_v3,
    4: _e_ProduceResponse_v4,
    5: _e_ProduceResponse_v5,
    6: _e_ProduceResponse_v6,
    7: _e_ProduceResponse_v7,
    8: _e_ProduceResponse_v8,
    9: _e_ProduceResponse_v9,
    10: _e_ProduceResponse_v10,
    11: _e_ProduceResponse_v10,
    12: _e_ProduceResponse_v10,
    13: _e_ProduceResponse_v13,
}
