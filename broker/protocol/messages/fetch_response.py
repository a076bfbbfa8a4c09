# Generated from protocol/schemas/FetchResponse.json by codegen; do not edit.
"""FetchResponse: response, api key 1, versions 4-18."""

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
    read_compact_nullable_array_len,
    read_compact_nullable_records,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_array_len,
    read_nullable_records,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_records,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_array_len,
    write_nullable_records,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "EpochEndOffset",
    "LeaderIdAndEpoch",
    "SnapshotId",
    "AbortedTransaction",
    "PartitionData",
    "FetchableTopicResponse",
    "NodeEndpoint",
    "FetchResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ihqq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qq')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>ihqqq')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>ihi')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>iq')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>ii')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>qi')
_S7u = _S7.unpack_from
_S7p = _S7.pack


@dataclass(slots=True)
class EpochEndOffset:
    """When the LastFetchedEpoch and FetchOffset in the request reveal divergence, gives the largest epoch and its end offset beyond which subsequent records are known to diverge."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (12, 18), 'end_offset': (12, 18)}

    epoch: int = -1
    """Largest epoch value."""

    end_offset: int = -1
    """Offset at which the epoch ends."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class LeaderIdAndEpoch:
    """Partition leader at present."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'leader_id': (12, 18), 'leader_epoch': (12, 18)}

    leader_id: int = -1
    """ID of the current leader, or -1 when the leader is unknown."""

    leader_epoch: int = -1
    """Most recent leader epoch known."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class SnapshotId:
    """When the fetched offset is below LogStartOffset, the end offset and epoch to use in the FetchSnapshot request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'end_offset': (0, 18), 'epoch': (0, 18)}

    end_offset: int = -1
    """Offset at which the epoch ends."""

    epoch: int = -1
    """Largest epoch value."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AbortedTransaction:
    """Transactions that were aborted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'producer_id': (4, 18), 'first_offset': (4, 18)}

    producer_id: int = 0
    """ID of the producer that owns the aborted transaction."""

    first_offset: int = 0
    """Offset where the aborted transaction begins."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class PartitionData:
    """Partitions of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 18), 'error_code': (0, 18), 'high_watermark': (0, 18), 'last_stable_offset': (4, 18), 'log_start_offset': (5, 18), 'diverging_epoch': (12, 18), 'current_leader': (12, 18), 'snapshot_id': (12, 18), 'aborted_transactions': (4, 18), 'preferred_read_replica': (11, 18), 'records': (0, 18)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Fetch error code, or 0 when the fetch succeeded."""

    high_watermark: int = 0
    """High watermark at present."""

    last_stable_offset: int = -1
    """Last stable offset (LSO) of the partition: the offset below which every transactional record has a decided outcome (ABORTED or COMMITTED)."""

    log_start_offset: int = -1
    """Log start offset at present."""

    diverging_epoch: EpochEndOffset = field(default_factory=EpochEndOffset)
    """When the LastFetchedEpoch and FetchOffset in the request reveal divergence, gives the largest epoch and its end offset beyond which subsequent records are known to diverge."""

    current_leader: LeaderIdAndEpoch = field(default_factory=LeaderIdAndEpoch)
    """Partition leader at present."""

    snapshot_id: SnapshotId = field(default_factory=SnapshotId)
    """When the fetched offset is below LogStartOffset, the end offset and epoch to use in the FetchSnapshot request."""

    aborted_transactions: list[AbortedTransaction] | None = field(default_factory=list)
    """Transactions that were aborted."""

    preferred_read_replica: int = -1
    """Replica the consumer should read from on its next fetch request."""

    records: memoryview | bytes | None = b''
    """Data of the records."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchableTopicResponse:
    """Topics in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 12), 'topic_id': (13, 18), 'partitions': (0, 18)}

    topic: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[PartitionData] = field(default_factory=list)
    """Partitions of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class NodeEndpoint:
    """Endpoints of every current leader listed in PartitionData with a NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH error."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'node_id': (16, 18), 'host': (16, 18), 'port': (16, 18), 'rack': (16, 18)}

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
class FetchResponse(Message):
    """FetchResponse, api key 1."""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = 'FetchResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 4
    MAX_VERSION: ClassVar[int] = 18
    FLEXIBLE_MIN: ClassVar[int | None] = 12
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 18), 'error_code': (7, 18), 'session_id': (7, 18), 'responses': (0, 18), 'node_endpoints': (16, 18)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code at the top level of the response."""

    session_id: int = 0
    """ID of the fetch session, or 0 when the request is not part of a fetch session."""

    responses: list[FetchableTopicResponse] = field(default_factory=list)
    """Topics in the response."""

    node_endpoints: list[NodeEndpoint] = field(default_factory=list)
    """Endpoints of every current leader listed in PartitionData with a NOT_LEADER_OR_FOLLOWER or FENCED_LEADER_EPOCH error."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AbortedTransaction_v4(buf, pos):
    f_producer_id, f_first_offset = _S2u(buf, pos)
    pos += 16
    return AbortedTransaction(f_producer_id, f_first_offset), pos


def _d_PartitionData_v4(buf, pos):
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset = _S1u(buf, pos)
    pos += 22
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        append = f_aborted_transactions.append
        for _ in range(n):
            item, pos = _d_AbortedTransaction_v4(buf, pos)
            append(item)
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, -1, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, -1, f_records), pos


def _d_FetchableTopicResponse_v4(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v4(buf, pos)
        append(item)
    return FetchableTopicResponse(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchResponse_v4(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v4(buf, pos)
        append(item)
    return FetchResponse(f_throttle_time_ms, 0, 0, f_responses, []), pos


def _d_PartitionData_v5(buf, pos):
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S3u(buf, pos)
    pos += 30
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        append = f_aborted_transactions.append
        for _ in range(n):
            item, pos = _d_AbortedTransaction_v4(buf, pos)
            append(item)
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, -1, f_records), pos


def _d_FetchableTopicResponse_v5(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v5(buf, pos)
        append(item)
    return FetchableTopicResponse(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchResponse_v5(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v5(buf, pos)
        append(item)
    return FetchResponse(f_throttle_time_ms, 0, 0, f_responses, []), pos


def _d_FetchResponse_v7(buf, pos):
    f_throttle_time_ms, f_error_code, f_session_id = _S4u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v5(buf, pos)
        append(item)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, []), pos


def _d_PartitionData_v11(buf, pos):
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S3u(buf, pos)
    pos += 30
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        append = f_aborted_transactions.append
        for _ in range(n):
            item, pos = _d_AbortedTransaction_v4(buf, pos)
            append(item)
    f_preferred_read_replica = _S0u(buf, pos)[0]
    pos += 4
    f_records, pos = read_nullable_records(buf, pos)
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, EpochEndOffset(), LeaderIdAndEpoch(), SnapshotId(), f_aborted_transactions, f_preferred_read_replica, f_records), pos


def _d_FetchableTopicResponse_v11(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v11(buf, pos)
        append(item)
    return FetchableTopicResponse(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchResponse_v11(buf, pos):
    f_throttle_time_ms, f_error_code, f_session_id = _S4u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v11(buf, pos)
        append(item)
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, []), pos


def _d_AbortedTransaction_v12(buf, pos):
    f_producer_id, f_first_offset = _S2u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AbortedTransaction(f_producer_id, f_first_offset, unknown), pos


def _d_EpochEndOffset_v12(buf, pos):
    f_epoch, f_end_offset = _S5u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EpochEndOffset(f_epoch, f_end_offset, unknown), pos


def _d_LeaderIdAndEpoch_v12(buf, pos):
    f_leader_id, f_leader_epoch = _S6u(buf, pos)
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaderIdAndEpoch(f_leader_id, f_leader_epoch, unknown), pos


def _d_SnapshotId_v12(buf, pos):
    f_end_offset, f_epoch = _S7u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SnapshotId(f_end_offset, f_epoch, unknown), pos


def _d_PartitionData_v12(buf, pos):
    f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset = _S3u(buf, pos)
    pos += 30
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_aborted_transactions = None
    else:
        f_aborted_transactions = []
        append = f_aborted_transactions.append
        for _ in range(n):
            item, pos = _d_AbortedTransaction_v12(buf, pos)
            append(item)
    f_preferred_read_replica = _S0u(buf, pos)[0]
    pos += 4
    f_records, pos = read_compact_nullable_records(buf, pos)
    f_diverging_epoch = EpochEndOffset()
    f_current_leader = LeaderIdAndEpoch()
    f_snapshot_id = SnapshotId()
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_diverging_epoch, p = _d_EpochEndOffset_v12(buf, p)
            elif tag == 1:
                f_current_leader, p = _d_LeaderIdAndEpoch_v12(buf, p)
            elif tag == 2:
                f_snapshot_id, p = _d_SnapshotId_v12(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return PartitionData(f_partition_index, f_error_code, f_high_watermark, f_last_stable_offset, f_log_start_offset, f_diverging_epoch, f_current_leader, f_snapshot_id, f_aborted_transactions, f_preferred_read_replica, f_records, unknown), pos


def _d_FetchableTopicResponse_v12(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchableTopicResponse(f_topic, UUID_ZERO, f_partitions, unknown), pos


def _d_FetchResponse_v12(buf, pos):
    f_throttle_time_ms, f_error_code, f_session_id = _S4u(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], unknown), pos


def _d_FetchableTopicResponse_v13(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_PartitionData_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchableTopicResponse('', f_topic_id, f_partitions, unknown), pos


def _d_FetchResponse_v13(buf, pos):
    f_throttle_time_ms, f_error_code, f_session_id = _S4u(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v13(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, [], unknown), pos


def _d_NodeEndpoint_v16(buf, pos):
    f_node_id = _S0u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S0u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return NodeEndpoint(f_node_id, f_host, f_port, f_rack, unknown), pos


def _d_FetchResponse_v16(buf, pos):
    f_throttle_time_ms, f_error_code, f_session_id = _S4u(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_FetchableTopicResponse_v13(buf, pos)
        append(item)
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
                    item, p = _d_NodeEndpoint_v16(buf, p)
                    append(item)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchResponse(f_throttle_time_ms, f_error_code, f_session_id, f_responses, f_node_endpoints, unknown), pos


def _e_AbortedTransaction_v4(o, out):
    out += _S2p(o.producer_id, o.first_offset)


def _e_PartitionData_v4(o, out):
    out += _S1p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v4(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v4(item, out)


def _e_FetchResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.session_id != 0:
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default SessionId')
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v4(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v4 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v5(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v5(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v5(item, out)


def _e_FetchResponse_v5(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.session_id != 0:
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default SessionId')
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v5(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v5 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v6(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v6(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v6(item, out)


def _e_FetchResponse_v6(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.session_id != 0:
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default SessionId')
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v6(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v6 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v7(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v7 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v7 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v7 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v7 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v7(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v7(item, out)


def _e_FetchResponse_v7(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v7(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v7 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v8(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v8 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v8 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v8 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v8 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v8(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v8(item, out)


def _e_FetchResponse_v8(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v8(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v8 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v9(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v9 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v9 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v9 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v9 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v9(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v9(item, out)


def _e_FetchResponse_v9(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v9(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v9 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v10(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v10 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v10 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v10 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    if o.preferred_read_replica != -1:
        raise UnsupportedFieldError('FetchResponse v10 cannot carry a non-default PreferredReadReplica')
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v10(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v10(item, out)


def _e_FetchResponse_v10(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v10(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v10 cannot carry a non-default NodeEndpoints')


def _e_PartitionData_v11(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    if o.diverging_epoch != EpochEndOffset():
        raise UnsupportedFieldError('FetchResponse v11 cannot carry a non-default DivergingEpoch')
    if o.current_leader != LeaderIdAndEpoch():
        raise UnsupportedFieldError('FetchResponse v11 cannot carry a non-default CurrentLeader')
    if o.snapshot_id != SnapshotId():
        raise UnsupportedFieldError('FetchResponse v11 cannot carry a non-default SnapshotId')
    value = o.aborted_transactions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v4(item, out)
    out += _S0p(o.preferred_read_replica)
    write_nullable_records(out, o.records)


def _e_FetchableTopicResponse_v11(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_PartitionData_v11(item, out)


def _e_FetchResponse_v11(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v11(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v11 cannot carry a non-default NodeEndpoints')


def _e_AbortedTransaction_v12(o, out):
    out += _S2p(o.producer_id, o.first_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EpochEndOffset_v12(o, out):
    out += _S5p(o.epoch, o.end_offset)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_LeaderIdAndEpoch_v12(o, out):
    out += _S6p(o.leader_id, o.leader_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_SnapshotId_v12(o, out):
    out += _S7p(o.end_offset, o.epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_PartitionData_v12(o, out):
    out += _S3p(o.partition_index, o.error_code, o.high_watermark, o.last_stable_offset, o.log_start_offset)
    value = o.aborted_transactions
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_AbortedTransaction_v12(item, out)
    out += _S0p(o.preferred_read_replica)
    write_compact_nullable_records(out, o.records)
    tags = list(o._unknown_tagged_fields)
    if o.diverging_epoch != EpochEndOffset():
        t = bytearray()
        _e_EpochEndOffset_v12(o.diverging_epoch, t)
        tags.append((0, t))
    if o.current_leader != LeaderIdAndEpoch():
        t = bytearray()
        _e_LeaderIdAndEpoch_v12(o.current_leader, t)
        tags.append((1, t))
    if o.snapshot_id != SnapshotId():
        t = bytearray()
        _e_SnapshotId_v12(o.snapshot_id, t)
        tags.append((2, t))
    write_tagged_fields(out, tags)


def _e_FetchableTopicResponse_v12(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v12(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchResponse_v12(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v12(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v12 cannot carry a non-default NodeEndpoints')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchableTopicResponse_v13(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionData_v12(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchResponse_v13(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v13(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v13 cannot carry a non-default NodeEndpoints')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchResponse_v14(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v13(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v14 cannot carry a non-default NodeEndpoints')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchResponse_v15(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v13(item, out)
    if o.node_endpoints:
        raise UnsupportedFieldError('FetchResponse v15 cannot carry a non-default NodeEndpoints')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_NodeEndpoint_v16(o, out):
    out += _S0p(o.node_id)
    write_compact_string(out, o.host)
    out += _S0p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchResponse_v16(o, out):
    out += _S4p(o.throttle_time_ms, o.error_code, o.session_id)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchableTopicResponse_v13(item, out)
    tags = list(o._unknown_tagged_fields)
    if (o.node_endpoints or o.node_endpoints is None):
        t = bytearray()
        value = o.node_endpoints
        write_compact_array_len(t, value)
        for item in value:
            _e_NodeEndpoint_v16(item, t)
        tags.append((0, t))
    write_tagged_fields(out, tags)


FetchResponse._DECODERS = {
    4: _d_FetchResponse_v4,
    5: _d_FetchResponse_v5,
    6: _d_FetchResponse_v5,
    7: _d_FetchResponse_v7,
    8: _d_FetchResponse_v7,
    9: _d_FetchResponse_v7,
    10: _d_FetchResponse_v7,
    11: _d_FetchResponse_v11,
    12: _d_FetchResponse_v12,
    13: _d_FetchResponse_v13,
    14: _d_FetchResponse_v13,
    15: _d_FetchResponse_v13,
    16: _d_FetchResponse_v16,
    17: _d_FetchResponse_v16,
    18: _d_FetchResponse_v16,
}
FetchResponse._ENCODERS = {
    4: _e_FetchResponse_v4,
    5: _e_FetchResponse_v5,
    6: _e_FetchResponse_v6,
    7: _e_FetchResponse_v7,
    8: _e_FetchResponse_v8,
    9: _e_FetchResponse_v9,
    10: _e_FetchResponse_v10,
    11: _e_FetchResponse_v11,
    12: _e_FetchResponse_v12,
    13: _e_FetchResponse_v13,
    14: _e_FetchResponse_v14,
    15: _e_FetchResponse_v15,
    16: _e_FetchResponse_v16,
    17: _e_FetchResponse_v16,
    18: _e_FetchResponse_v16,
}
